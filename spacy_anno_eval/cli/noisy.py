"""``anno-eval noisy``: noisy-text NER (nerval), entities matched through a character alignment."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from .app import JsonOut, Quiet, app


@app.command()
def noisy(
    gold: Annotated[Path, typer.Argument(metavar="GOLD", help="Gold BIO/BIOES file (token and tag per line, as "
                                                              "nerval reads it).")],
    pred: Annotated[Path, typer.Argument(metavar="PRED", help="Predicted BIO/BIOES file on the noisy (OCR/HTR/ASR) "
                                                              "text.")],
    threshold: Annotated[float, typer.Option("--threshold", min=0, max=1, help="Most edit distance / gold entity "
                                                                               "length for a match, in [0, "
                                                                               "1].")] = 0.30,
    json_out: JsonOut = None,
    quiet: Quiet = False,
) -> None:
    """Noisy-text NER (nerval): entities matched through an edlib character alignment of the two texts.
    The JSON holds all, per_type, the per-entity table and the MUC counts."""
    from ..files import check_outputs

    quiet = check_outputs([gold, pred], [json_out]) or quiet  # before any work; JSON on stdout: no table
    from ..noisy.evaluate import evaluate_files
    from ..report.json import write_json

    result = evaluate_files(gold, pred, threshold=threshold)
    if json_out is not None:
        write_json(result, json_out)
    if not quiet:
        _print_table(result)


def _print_table(result: dict[str, Any]) -> None:
    def num(v: Any) -> str:
        return "None" if v is None else f"{v:.4f}"

    typer.echo(f"{'type':<12}{'predicted':>10}{'matched':>9}{'support':>9}{'P':>9}{'R':>9}{'F1':>9}")
    for name, f in [*result["per_type"].items(), ("ALL", result["all"])]:
        typer.echo(f"{name[:11]:<12}{str(f['predicted']):>10}{str(f['matched']):>9}{str(f['support']):>9}"
                   f"{num(f['p']):>9}{num(f['r']):>9}{num(f['f']):>9}")
