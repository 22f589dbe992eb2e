"""``anno-eval agreement``: agreement of annotators on a classification, from a CSV table."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Literal

import typer

from ..errors import ConfigError
from .app import Bootstrap, Dask, Encoding, JsonOut, Quiet, Seed, Sep, app

Level = Literal["nominal", "ordinal", "interval", "ratio"]
COEFFICIENTS = ("observed_agreement", "bennett_s", "scott_pi", "cohen_kappa", "fleiss_kappa", "davies_fleiss_kappa")


@app.command()
def agreement(
    table: Annotated[Path, typer.Argument(metavar="TABLE", help="CSV: a header row of annotator names, then one row "
                                                                "per unit; an empty cell is a missing value.")],
    level: Annotated[Level, typer.Option("--level", help="Krippendorff's alpha: nominal, ordinal, interval or "
                                                         "ratio.")] = "nominal",
    json_out: JsonOut = None,
    bootstrap: Bootstrap = 0,
    confidence: Annotated[float, typer.Option("--confidence", help="Confidence of the --bootstrap intervals, in "
                                                                   "(0, 1).")] = 0.95,
    seed: Seed = 0,
    dask: Dask = None,
    encoding: Encoding = None,
    sep: Sep = None,
    quiet: Quiet = False,
) -> None:
    """Agreement of annotators on a classification: Ao, S, pi, kappa (Cohen, Fleiss, Davies & Fleiss), alpha.
    The JSON holds every coefficient."""
    from ..files import check_outputs

    quiet = check_outputs([table], [json_out]) or quiet  # before any work; JSON on stdout: no table
    from ..agreement.summary import agreement_summary, read_table
    from ..cluster import dask_client
    from ..report.json import write_json

    if dask is not None and not bootstrap:
        raise ConfigError("--dask spreads the --bootstrap samples; give --bootstrap N")
    names, data = read_table(table, encoding=encoding or "utf-8", sep=sep or ",")
    with dask_client(dask) as client:
        summary = agreement_summary(data, level, names, bootstrap=bootstrap, seed=seed, confidence=confidence,
                                    client=client)
    if json_out is not None:
        write_json(summary, json_out)
    if not quiet:
        _print_summary(summary, level)


def _print_summary(summary: dict[str, Any], level: str) -> None:
    """The coefficients, one per line: observed agreement as a percentage, the chance-corrected coefficients
    with four decimals and their bootstrap intervals when computed; then each note once, on its own line, on
    the same stream as the table (so that a log never interleaves them)."""
    from ..report.rows import figure, pct

    def interval(ci: Any) -> str:
        if not isinstance(ci, dict) or ci.get("low") is None:
            return ""
        return f"  {ci.get('confidence', 0.95):.0%} CI [{figure(ci['low'])}, {figure(ci['high'])}]"

    alpha = summary["krippendorff_alpha"]
    typer.echo(f"{summary['n_units']} units, {summary['n_annotators']} annotators, "
               f"{summary['n_pairable_units']} with two or more values")
    for key in COEFFICIENTS:
        value = summary[key]
        shown = f"{pct(value)} %" if key == "observed_agreement" and value is not None else figure(value)
        typer.echo(f"  {key:<22}{shown}{interval(summary.get(f'{key}_ci'))}")
    typer.echo(f"  {'krippendorff_alpha':<22}{figure(alpha['value'])}{interval(alpha.get('ci'))}")
    typer.echo(f"  {'':<22}{level}; observed disagreement {figure(alpha['observed_disagreement'])}, expected "
               f"{figure(alpha['expected_disagreement'])}")
    for w in dict.fromkeys(summary["warnings"]):
        typer.echo(f"  note: {w}")
