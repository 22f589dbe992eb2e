"""``anno-eval trees``: two treebanks compared: dependency trees (CoNLL-U) at word, node and sentence level, or
phrase-structure brackets (Penn Treebank) as EVALB scores them."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal

import typer

from ..errors import ConfigError
from .app import JsonOut, Quiet, app

TreeFormat = Literal["auto", "conllu", "brackets"]
#: suffixes of bracketed treebanks (EVALB's sample files, Penn Treebank .mrg, disco-dop)
BRACKET_SUFFIXES = (".mrg", ".ptb", ".gld", ".tst", ".brackets", ".penn", ".tree", ".trees")


@app.command()
def trees(
    key: Annotated[Path, typer.Argument(metavar="KEY", help="Key treebank: CoNLL-U, or Penn Treebank brackets.")],
    response: Annotated[Path, typer.Argument(metavar="RESPONSE", help="Response treebank, same sentences and "
                                                                      "words.")],
    prm: Annotated[Path | None, typer.Option("--prm", help="EVALB parameter file (DELETE_LABEL, EQ_LABEL, "
                                                           "CUTOFF_LEN, ...); scores brackets as EVALB.")] = None,
    tree_format: Annotated[TreeFormat, typer.Option("--tree-format", help="conllu (dependencies), brackets "
                                                                           "(Penn Treebank, EVALB) or auto (by "
                                                                           "suffix and content).")] = "auto",
    rsl: Annotated[Path | None, typer.Option("--rsl", help="Brackets: write EVALB's report (per-sentence lines "
                                                           "and summary).")] = None,
    json_out: JsonOut = None,
    diff_out: Annotated[Path | None, typer.Option("--diff", help="Write the per-sentence differences "
                                                                 "(text).")] = None,
    quiet: Quiet = False,
) -> None:
    """Compare two treebanks. Dependency trees: word, node (yields) and sentence level agreement and the
    differences; the JSON holds UAS, LAS, label accuracy, per relation, node and sentence levels. Brackets:
    EVALB's bracketing recall, precision, F, complete match, crossing brackets, tagging accuracy, for all
    sentences and those up to CUTOFF_LEN words."""
    from ..files import check_outputs

    quiet = check_outputs([key, response, prm], [json_out, diff_out, rsl]) or quiet  # before any work
    kind = tree_format if tree_format != "auto" else _kind(key)
    if kind == "brackets" or prm is not None:
        if diff_out is not None:
            raise ConfigError("--diff writes dependency-tree differences; for brackets, --rsl writes EVALB's "
                              "per-sentence report")
        _evalb(key, response, prm, json_out, rsl, quiet)
        return
    if rsl is not None:
        raise ConfigError("--rsl writes EVALB's report: it needs bracketed trees (--tree-format brackets or --prm)")
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
        from ..report.rows import pct

        typer.echo(f"{data['n_sentences']} sentences, {data['n_words']} words")
        for k in ("uas", "las", "las_universal", "label_accuracy"):
            v = data[k]
            typer.echo(f"{k:<16}{v if isinstance(v, str) else f'{pct(v)} %'}")


def _kind(path: Path) -> str:
    """``brackets`` for a bracketed file (by suffix, or a first non-blank character ``(``), else ``conllu``."""
    if path.suffix.lower() in BRACKET_SUFFIXES:
        return "brackets"
    if path.suffix.lower() in (".conllu", ".conll"):
        return "conllu"
    try:
        with open(path, "rb") as f:
            head = f.read(4096).lstrip()
    except OSError:
        return "conllu"
    return "brackets" if head.startswith(b"(") else "conllu"


def _evalb(key: Path, response: Path, prm: Path | None, json_out: Path | None, rsl: Path | None,
           quiet: bool) -> None:
    """EVALB on two bracketed files: the summary on the terminal, the full report in ``--rsl``, every figure in
    the JSON."""
    from ..files import write_text
    from ..report.json import write_json
    from ..trees.evalb import evaluate_files

    result = evaluate_files(key, response, prm)
    if json_out is not None:
        write_json(result.to_dict(), json_out)
    if rsl is not None:
        write_text(rsl, result.format_rsl())
    if not quiet:
        data = result.to_dict()
        cutoff = next(k for k in data if k.startswith("len_le_"))
        typer.echo(f"EVALB{f' ({prm.name})' if prm else ''}: {data['all']['sentences']} sentences, "
                   f"{data['all']['error']} error, {data['all']['skip']} skip")
        typer.echo(f"{'':24}{'all':>10}{'<= ' + cutoff[7:]:>10}")
        for name, label in (("recall", "bracketing recall"), ("precision", "bracketing precision"),
                            ("fmeasure", "bracketing F"), ("complete_match", "complete match"),
                            ("average_crossing", "average crossing"), ("no_crossing", "no crossing"),
                            ("two_or_less_crossing", "2 or less crossing"), ("tagging_accuracy", "tagging accuracy")):
            a, b = data["all"][name], data[cutoff][name]
            unit = "" if name == "average_crossing" else " %"
            typer.echo(f"{label:<24}{a:>8.2f}{unit or '  '}{b:>8.2f}{unit}")
