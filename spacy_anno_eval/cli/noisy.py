"""``anno-eval noisy``: noisy-text NER (nerval), entities matched through a character alignment."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal

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
        from ..report.noisy_terminal import noisy_lines

        for line in noisy_lines(result):
            typer.echo(line)

