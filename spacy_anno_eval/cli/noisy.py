"""``anno-eval noisy``: noisy-text NER (nerval), entities matched through a character alignment."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Literal

import typer

from .app import JsonOut, Quiet, app, warn_same_input

Boundary = Literal["inclusive", "exclusive"]


@app.command()
def noisy(
    gold: Annotated[Path, typer.Argument(metavar="GOLD", help="Gold BIO/BIOES file (token and tag per line, as "
                                                              "nerval reads it).")],
    pred: Annotated[Path, typer.Argument(metavar="PRED", help="Predicted BIO/BIOES file on the noisy (OCR/HTR/ASR) "
                                                              "text.")],
    threshold: Annotated[float, typer.Option("--threshold", min=0, max=1, help="Most edit distance / gold entity "
                                                                               "length for a match, in [0, "
                                                                               "1].")] = 0.30,
    boundary: Annotated[Boundary, typer.Option("--boundary", help="A ratio equal to the threshold: inclusive "
                                                                  "(<=, nerval 0.3.3's code) or exclusive (<, "
                                                                  "nerval's README).")] = "inclusive",
    json_out: JsonOut = None,
    quiet: Quiet = False,
) -> None:
    """Noisy-text NER (nerval): entities matched through an edlib character alignment of the two texts.
    The JSON holds all, per_type, the per-entity table and the MUC counts."""
    from ..files import check_outputs

    quiet = check_outputs([gold, pred], [json_out]) or quiet  # before any work; JSON on stdout: no table
    warn_same_input(gold, pred, names=("gold", "prediction"))
    from ..noisy.evaluate import evaluate_files
    from ..report.json import write_json

    result = evaluate_files(gold, pred, threshold=threshold, boundary=boundary)
    if json_out is not None:
        write_json(result, json_out)
    if not quiet:
        _print_table(result)


def _print_table(result: dict[str, Any]) -> None:
    """Counts and P/R/F1 as percentages; a count nerval leaves undefined (null in the JSON) prints as '-'."""
    from ..report.rows import pct

    def num(v: Any) -> str:
        return "-" if v is None else pct(v)

    def count(v: Any) -> str:
        return "-" if v is None else str(v)

    names = [*result["per_type"], "ALL"]
    width = max(12, *(len(n) + 2 for n in names))
    typer.echo(f"{'type':<{width}}{'predicted':>10}{'matched':>9}{'support':>9}{'P %':>9}{'R %':>9}{'F1 %':>9}")
    for name, f in [*result["per_type"].items(), ("ALL", result["all"])]:
        typer.echo(f"{name:<{width}}{count(f['predicted']):>10}{count(f['matched']):>9}{count(f['support']):>9}"
                   f"{num(f['p']):>9}{num(f['r']):>9}{num(f['f']):>9}")
