"""``anno-eval trees``: two treebanks compared: dependency trees (CoNLL-U) at word, node and sentence level, or
phrase structures (Penn Treebank brackets as EVALB scores them; NEGRA export, TIGER-XML and discbracket with
crossing branches as disco-dop scores them), each also at Brants and Skut's word, node and sentence level.
Brants and Skut's models on top (:mod:`.tree_models`): ``--resolve`` (which of two differing annotations has the
lower perplexity) and ``--doubt`` (which labels a reliable decision contradicts; KEY alone, or RESPONSE judged by
the models of KEY)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal

import typer

from ..errors import ConfigError
from .app import JsonOut, Quiet, app, warn_same_input
from .tree_models import (
    AdjudicatedOpt,
    DoubtOpt,
    DoubtsOpt,
    FoldsOpt,
    GoldOpt,
    ResolveOpt,
    SuggestionsOpt,
    Theta1Opt,
    Theta2Opt,
    TrainOpt,
)

TreeFormat = Literal["auto", "conllu", "brackets", "export", "tiger", "discbracket"]
#: suffixes of bracketed treebanks (EVALB's sample files, Penn Treebank .mrg, disco-dop)
BRACKET_SUFFIXES = (".mrg", ".ptb", ".gld", ".tst", ".brackets", ".penn", ".tree", ".trees")


@app.command()
def trees(
    key: Annotated[Path, typer.Argument(metavar="KEY", help="Key treebank: CoNLL-U, Penn Treebank brackets, NEGRA "
                                                            "export (3/4), TIGER-XML or discbracket.")],
    response: Annotated[Path | None, typer.Argument(metavar="RESPONSE", help="Response treebank, same sentences "
                                                                             "and words (optional with --doubt "
                                                                             "only).")] = None,
    prm: Annotated[Path | None, typer.Option("--prm", help="EVALB parameter file (DELETE_LABEL, EQ_LABEL, "
                                                           "CUTOFF_LEN, ...; disco-dop's proper.prm).")] = None,
    tree_format: Annotated[TreeFormat, typer.Option("--tree-format", help="conllu (dependencies), brackets "
                                                                           "(Penn Treebank, EVALB), export (NEGRA), "
                                                                           "tiger, discbracket, or auto (by suffix "
                                                                           "and content).")] = "auto",
    rsl: Annotated[Path | None, typer.Option("--rsl", help="Phrase structures: write the per-sentence report "
                                                           "and summary (EVALB's, or disco-dop's).")] = None,
    disc_only: Annotated[bool, typer.Option("--disconly", help="Score discontinuous constituents only "
                                                               "(disco-dop's DISC_ONLY).")] = False,
    json_out: JsonOut = None,
    diff_out: Annotated[Path | None, typer.Option("--diff", help="Write the per-sentence differences (text; "
                                                                 ".jsonl / .tsv: rows).")] = None,
    quiet: Quiet = False,
    resolve: ResolveOpt = False,
    doubt: DoubtOpt = False,
    train: TrainOpt = None,
    folds: FoldsOpt = None,
    gold: GoldOpt = None,
    suggestions: SuggestionsOpt = None,
    adjudicated: AdjudicatedOpt = None,
    doubts_out: DoubtsOpt = None,
    theta1: Theta1Opt = None,
    theta2: Theta2Opt = None,
) -> None:
    """Compare two treebanks. Dependency trees: word, node (yields) and sentence level agreement and the
    differences; the JSON holds UAS, LAS, label accuracy, per relation, node and sentence levels. Brackets:
    EVALB's bracketing recall, precision, F, complete match, crossing brackets, tagging accuracy, for all
    sentences and those up to CUTOFF_LEN words. NEGRA export, TIGER-XML, discbracket: the same with
    discontinuous constituents (disco-dop's eval). Phrase structures also get Brants and Skut's word, node and
    sentence levels (JSON ``brants_skut``; --diff writes the differences). --resolve and --doubt add Brants and
    Skut's models: which of two differing annotations has the lower perplexity, and which labels a reliable
    decision contradicts."""
    from ..files import check_outputs
    from .tree_models import model_request

    if response is None and (resolve or not doubt):
        from typer._click.exceptions import MissingParameter

        raise MissingParameter(param_type="argument", param_hint="'RESPONSE'")
    quiet = check_outputs([key, response, prm, train, gold],
                          [json_out, diff_out, rsl, suggestions, doubts_out, adjudicated]) or quiet  # before work
    request = model_request(resolve, doubt, train, folds, gold, suggestions, doubts_out, theta1, theta2,
                            two_treebanks=response is not None, adjudicated=adjudicated)
    if response is None:
        given = [name for name, value in (("--prm", prm), ("--rsl", rsl), ("--diff", diff_out),
                                          ("--disconly", disc_only or None)) if value is not None]
        if given:
            raise ConfigError(f"{', '.join(given)} compare{'s' if len(given) == 1 else ''} two treebanks; give "
                              f"RESPONSE too, or leave {'it' if len(given) == 1 else 'them'} out with --doubt alone")
        _doubt_only(key, tree_format, request, json_out, quiet)
        return
    warn_same_input(key, response)
    kind = tree_format if tree_format != "auto" else _kind(key)
    other = tree_format if tree_format != "auto" else _kind(response)
    if kind == "conllu" and prm is not None and other == "conllu":
        kind = other = "brackets"
    if (kind == "conllu") != (other == "conllu"):
        raise ConfigError(f"{key.name} reads as {kind} and {response.name} as {other}: dependency trees "
                          f"(CoNLL-U) compare with dependency trees only; pass --tree-format if one was misread")
    if kind != other:  # two phrase-structure formats: scored as disco-dop does, each file read in its own
        kind = "mixed"
    if kind != "conllu":
        if disc_only and kind == "brackets":
            raise ConfigError("--disconly scores discontinuous constituents; Penn brackets have none. Give a "
                              "NEGRA export, TIGER-XML or discbracket treebank (--tree-format)")
        compared = _phrase(key, response, kind, prm, disc_only)
    else:
        if rsl is not None or disc_only:
            raise ConfigError(f"{'--rsl' if rsl is not None else '--disconly'} is for phrase structures (brackets, "
                              f"export, tiger, discbracket); these are dependency trees (CoNLL-U)")
        compared = _dependencies(key, response)
    if request is not None:
        from .tree_models import run_models

        outcome = run_models(request, key, compared.key_trees, response, compared.response_trees,
                             lambda path: _format_of(path, tree_format, kind))
        compared.data.update(outcome.sections)
        notes = {s.index: [outcome.notes[s.sent_id]] for s in compared.comparison.sentences
                 if s.sent_id in outcome.notes}
    else:
        outcome, notes = None, None
    _write(compared, json_out, rsl, diff_out, notes)
    if outcome is not None:
        from .tree_models import write_model_outputs

        write_model_outputs(request, outcome)
    if quiet:
        return
    lines = list(compared.lines)
    if outcome is not None:
        from .tree_models import model_lines

        lines += model_lines(request, outcome.sections)
    for line in lines:
        typer.echo(line)


def _kind(path: Path) -> str:
    """The format by suffix, else by content (:func:`~spacy_anno_eval.trees.readers.sniff`); ``conllu``
    when neither tells."""
    if path.suffix.lower() in BRACKET_SUFFIXES:
        return "brackets"
    if path.suffix.lower() in (".conllu", ".conll"):
        return "conllu"
    from ..trees.readers import sniff

    return sniff(path) or "conllu"


def _format_of(path: Path, tree_format: str, kind: str) -> str:
    """The format to read a --train or --gold treebank in: ``--tree-format`` when given (brackets when KEY is
    read as brackets), else the file's own (:func:`_kind`)."""
    if tree_format != "auto":
        return "brackets" if kind == "brackets" else tree_format
    return _kind(path)


@dataclass
class _Compared:
    """One comparison: its JSON-ready dict, the object that renders the diff, the report (``--rsl``), the
    terminal lines, and both sides' trees (for the models)."""

    data: dict[str, Any]
    comparison: Any
    report: str | None
    lines: list[str]
    key_trees: list
    response_trees: list


def _dependencies(key: Path, response: Path) -> _Compared:
    """Dependency trees (CoNLL-U): :func:`~spacy_anno_eval.trees.dependencies.compare_treebanks`."""
    from ..report.trees_terminal import dependency_lines
    from ..trees.conllu import read_conllu
    from ..trees.dependencies import compare_treebanks

    key_tb, response_tb = read_conllu(key), read_conllu(response)
    result = compare_treebanks(key_tb, response_tb)
    data = result.to_dict()
    return _Compared(data, result, None, dependency_lines(data), list(key_tb), list(response_tb))


def _phrase(key: Path, response: Path, kind: str, prm: Path | None, disc_only: bool) -> _Compared:
    """Phrase structures: EVALB (brackets) or disco-dop's discontinuous scoring, and Brants and Skut's levels.
    The summary for the terminal, the report for ``--rsl``, the differences for ``--diff``, all in the JSON."""
    import dataclasses

    from ..report.trees_terminal import phrase_lines
    from ..trees.evalb import EvalbParams
    from ..trees.phrase import from_brackets
    from ..trees.phrase_compare import compare_phrase_treebanks
    from ..trees.readers import read_phrase_trees

    params = EvalbParams.read(prm) if prm is not None else EvalbParams()
    if disc_only:
        params = dataclasses.replace(params, disc_only=True)
    if kind == "brackets":
        from ..trees.brackets import read_brackets
        from ..trees.evalb import evaluate

        gold_b, test_b = read_brackets(key), read_brackets(response)
        result = evaluate(gold_b, test_b, params, source=f"{key} / {response}")
        gold = [from_brackets(t, str(key)) for t in gold_b]
        test = [from_brackets(t, str(response)) for t in test_b]
        report = result.format_rsl()
    else:
        from ..trees.disco import evaluate as evaluate_disco

        fmt = "auto" if kind == "mixed" else kind
        gold, test = read_phrase_trees(key, fmt), read_phrase_trees(response, fmt)
        result = evaluate_disco(gold, test, params, source=f"{key} / {response}")
        report = result.format_report()
    levels = compare_phrase_treebanks(gold, test, key_source=str(key), response_source=str(response))
    data = {**result.to_dict(), "brants_skut": levels.to_dict()}
    return _Compared(data, levels, report, phrase_lines(data, kind, prm.name if prm is not None else None), gold,
                     test)


def _write(compared: _Compared, json_out: Path | None, rsl: Path | None, diff_out: Path | None,
           notes: dict[int, list[str]] | None) -> None:
    """The JSON first, then the report and the diff (text, or rows for .jsonl / .tsv)."""
    from ..files import write_text
    from ..report.json import write_json

    if json_out is not None:
        write_json(compared.data, json_out)
    if rsl is not None and compared.report is not None:
        write_text(rsl, compared.report)
    if diff_out is not None:
        if diff_out.suffix.lower() in (".jsonl", ".tsv"):
            compared.comparison.write_diff(diff_out)
        else:
            write_text(diff_out, compared.comparison.render_diff(notes=notes))


def _doubt_only(key: Path, tree_format: str, request: Any, json_out: Path | None, quiet: bool) -> None:
    """``anno-eval trees KEY --doubt``: KEY's labels doubted by models cross-validated on KEY (or trained on
    ``--train``); the JSON holds the ``doubt`` section alone."""
    from ..report.json import write_json
    from ..workflows.tree_models import read_trees
    from .tree_models import model_lines, run_models, write_model_outputs

    kind = tree_format if tree_format != "auto" else _kind(key)
    outcome = run_models(request, key, read_trees(key, kind), None, None,
                         lambda path: _format_of(path, tree_format, kind))
    if json_out is not None:
        write_json(outcome.sections, json_out)
    write_model_outputs(request, outcome)
    if not quiet:
        for line in model_lines(request, outcome.sections):
            typer.echo(line)
