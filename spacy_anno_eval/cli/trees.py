"""``anno-eval trees``: two treebanks compared: dependency trees (CoNLL-U) at word, node and sentence level, or
phrase structures (Penn Treebank brackets as EVALB scores them; NEGRA export, TIGER-XML and discbracket with
crossing branches as disco-dop scores them), each also at Brants and Skut's word, node and sentence level."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal

import typer

from ..errors import ConfigError
from .app import JsonOut, Quiet, app, warn_same_input

TreeFormat = Literal["auto", "conllu", "brackets", "export", "tiger", "discbracket"]
#: suffixes of bracketed treebanks (EVALB's sample files, Penn Treebank .mrg, disco-dop)
BRACKET_SUFFIXES = (".mrg", ".ptb", ".gld", ".tst", ".brackets", ".penn", ".tree", ".trees")


@app.command()
def trees(
    key: Annotated[Path, typer.Argument(metavar="KEY", help="Key treebank: CoNLL-U, Penn Treebank brackets, NEGRA "
                                                            "export (3/4), TIGER-XML or discbracket.")],
    response: Annotated[Path, typer.Argument(metavar="RESPONSE", help="Response treebank, same sentences and "
                                                                      "words.")],
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
) -> None:
    """Compare two treebanks. Dependency trees: word, node (yields) and sentence level agreement and the
    differences; the JSON holds UAS, LAS, label accuracy, per relation, node and sentence levels. Brackets:
    EVALB's bracketing recall, precision, F, complete match, crossing brackets, tagging accuracy, for all
    sentences and those up to CUTOFF_LEN words. NEGRA export, TIGER-XML, discbracket: the same with
    discontinuous constituents (disco-dop's eval). Phrase structures also get Brants and Skut's word, node and
    sentence levels (JSON ``brants_skut``; --diff writes the differences)."""
    from ..files import check_outputs

    quiet = check_outputs([key, response, prm], [json_out, diff_out, rsl]) or quiet  # before any work
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
        _phrase(key, response, kind, prm, disc_only, json_out, rsl, diff_out, quiet)
        return
    if rsl is not None or disc_only:
        raise ConfigError(f"{'--rsl' if rsl is not None else '--disconly'} is for phrase structures (brackets, "
                          f"export, tiger, discbracket); these are dependency trees (CoNLL-U)")
    from ..files import write_text
    from ..report.json import write_json
    from ..trees.dependencies import compare_files

    result = compare_files(key, response)
    data = result.to_dict()
    if json_out is not None:
        write_json(data, json_out)
    if diff_out is not None:
        write_text(diff_out, result.render_diff())
    if not quiet:
        from ..report.trees_terminal import dependency_lines

        for line in dependency_lines(data):
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


def _phrase(key: Path, response: Path, kind: str, prm: Path | None, disc_only: bool, json_out: Path | None,
            rsl: Path | None, diff_out: Path | None, quiet: bool) -> None:
    """Phrase structures: EVALB (brackets) or disco-dop's discontinuous scoring, and Brants and Skut's levels.
    The summary on the terminal, the report in ``--rsl``, the differences in ``--diff``, all in the JSON."""
    import dataclasses

    from ..files import write_text
    from ..report.json import write_json
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
    if json_out is not None:
        write_json(data, json_out)
    if rsl is not None:
        write_text(rsl, report)
    if diff_out is not None:
        if diff_out.suffix.lower() in (".jsonl", ".tsv"):
            levels.write_diff(diff_out)
        else:
            write_text(diff_out, levels.render_diff())
    if quiet:
        return
    from ..report.trees_terminal import phrase_lines

    for line in phrase_lines(data, kind, prm.name if prm is not None else None):
        typer.echo(line)

