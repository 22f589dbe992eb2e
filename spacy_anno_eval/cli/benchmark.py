"""``anno-eval benchmark``: GATE's Corpus Benchmark Tool; exit code 1 when the default mode finds a regression."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Literal

import typer

from .app import (
    EXIT_REGRESSION,
    PROG,
    Beta,
    Dask,
    Encoding,
    Features,
    HtmlOut,
    JsonOut,
    KeySet,
    MdOut,
    Measures,
    PairingOpt,
    Quiet,
    ResponseSet,
    Seed,
    Sep,
    Types,
    app,
    check_format,
    split,
)

Mode = Literal["store", "marked-vs-stored", "marked-vs-current", "default", "verbose"]
SAMPLED = ("default", "verbose")  # the modes that draw significance samples


@app.command()
def benchmark(
    mode: Annotated[Mode, typer.Argument(metavar="MODE", help="store, marked-vs-stored, marked-vs-current, default "
                                                              "or verbose.")],
    directory: Annotated[Path, typer.Argument(metavar="DIRECTORY", help="Benchmark folder holding clean/, marked/ "
                                                                        "and processed/.")],
    model: Annotated[str | None, typer.Option("--model", "-m", help="Pipeline to run (a path or a package "
                                                                    "name).")] = None,
    name: Annotated[str | None, typer.Option("--name", help="Baseline to store under / compare with (default: the "
                                                            "model's name and version; newest when "
                                                            "comparing).")] = None,
    against: Annotated[str | None, typer.Option("--against", help="default mode: compare the baseline with this "
                                                                  "stored baseline instead of running "
                                                                  "--model.")] = None,
    predictions: Annotated[Path | None, typer.Option("--predictions", help="store: import results from this file "
                                                                           "(any input format) instead of running a "
                                                                           "model; needs --name.")] = None,
    predictions_format: Annotated[str, typer.Option("--predictions-format", callback=check_format,
                                                    help="Format of --predictions.")] = "auto",
    force: Annotated[bool, typer.Option("--force", help="store: replace a baseline of the same name.")] = False,
    config: Annotated[Path | None, typer.Option("--config", "-c", help="Settings file ([benchmark] section); "
                                                                       "default: DIRECTORY/benchmark.cfg if "
                                                                       "present.")] = None,
    threshold: Annotated[float | None, typer.Option("--threshold", help="verbose: list annotations of per-type "
                                                                        "figures below this.")] = None,
    key_set: KeySet = None,
    response_set: ResponseSet = None,
    types: Types = None,
    features: Features = None,
    measures: Measures = None,
    beta: Beta = None,
    max_drop: Annotated[float | None, typer.Option("--max-drop", help="Least drop (fraction, 0.01 = 1 point) that "
                                                                      "counts as a regression.")] = None,
    gate: Annotated[str | None, typer.Option("--gate", help="Figures that gate CI: p, r, f, ',' or ';' "
                                                            "between them.")] = None,
    n_samples: Annotated[int | None, typer.Option("--samples", help="Bootstrap / randomization samples.")] = None,
    confidence: Annotated[float | None, typer.Option("--confidence", help="Confidence of the bootstrap "
                                                                          "interval.")] = None,
    seed: Seed = None,
    pairing: PairingOpt = None,
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help="List annotations of figures below "
                                                                  "--threshold.")] = False,
    json_out: JsonOut = None,
    html_out: HtmlOut = None,
    md_out: MdOut = None,
    dask: Dask = None,
    encoding: Encoding = None,
    sep: Sep = None,
    quiet: Quiet = False,
) -> None:
    """GATE's Corpus Benchmark Tool: store a version's results, score versions, gate CI on regressions.
    Settings come from the [benchmark] section of --config, then the options.

    Exit code 0: no regression; 1: the default mode found a regression; 2: bad input; 3: internal error.
    With --quiet, a regression still prints its one-line verdict on stderr.
    """
    from ..files import check_outputs

    inputs = [directory / sub for sub in ("clean", "marked", "processed", "benchmark.cfg")] + [predictions, config]
    quiet = check_outputs(inputs, [json_out, html_out, md_out]) or quiet  # before any work; JSON on stdout: no table
    from ..cluster import dask_client
    from ..workflows.benchmark.run import run_benchmark
    from ..workflows.benchmark.settings import load_settings

    if config is None and (directory / "benchmark.cfg").is_file():
        config = directory / "benchmark.cfg"
    settings = load_settings(config, threshold=threshold, key_set=key_set, response_set=response_set,
                             types=split(types), features=split(features), measures=split(measures), beta=beta,
                             max_drop=max_drop, gate=split(gate), n_samples=n_samples, confidence=confidence,
                             seed=seed, pairing=pairing, encoding=encoding, sep=sep)
    with dask_client(dask if mode in SAMPLED else None) as client:
        result = run_benchmark(mode, directory, settings=settings, model=model, name=name, against=against,
                               predictions=predictions, predictions_format=predictions_format, force=force,
                               verbose=verbose, quiet=quiet, client=client)
    written = _write_benchmark(result, json_out, html_out, md_out)
    from ..report.benchmark_summary import print_run, verdict_line
    from ..report.written_terminal import written_lines

    try:
        if not quiet:
            print_run(result.report, echo=typer.echo)
            for line in written_lines(written):
                typer.echo(line, err=True)
        elif result.exit_code == EXIT_REGRESSION:  # errors only, and a regression is what CI logs must show
            typer.echo(f"{PROG}: {verdict_line(result.report, directory)}", err=True)
    except BrokenPipeError:  # the reader went away (| head): the exit code still gives the verdict
        _drop_stdout()
    except SystemExit as stop:  # rich's way with a broken pipe: exit 1, which CI would read as a regression
        if not isinstance(stop.__context__, BrokenPipeError):
            raise
    raise typer.Exit(result.exit_code)


def _drop_stdout() -> None:
    """Point stdout at the null device, so that exiting does not fail again on the closed pipe."""
    from ..files import drop_stdout

    drop_stdout()


def _write_benchmark(result: Any, json_out: Path | None, html_out: Path | None,
                     md_out: Path | None) -> dict[str, Path]:
    """Write the benchmark result: the whole of it as JSON, the comparison (or the one evaluation) as HTML/MD."""
    from ..files import write_text
    from ..report.json import write_json

    written: dict[str, Path] = {}
    report = result.report
    if json_out is not None:
        written["JSON report"] = write_json(report, json_out)
    if html_out is None and md_out is None:
        return written
    if "comparison" in report:
        from ..report.benchmark import render_benchmark_html, render_benchmark_markdown

        if html_out is not None:
            written["HTML report"] = write_text(html_out, render_benchmark_html(report))
        if md_out is not None:
            written["Markdown report"] = write_text(md_out, render_benchmark_markdown(report))
    elif result.evaluations:
        from ..report import write_reports

        (scope, ev), = result.evaluations.items()
        paths = {f: p for f, p in (("html", html_out), ("md", md_out)) if p is not None}
        files = write_reports(ev, paths=paths, report=report[scope]["report"],
                              measures=report["settings"]["measures"],
                              title=f"Benchmark {report['mode']}: {report[scope]['name']}",
                              diff=result.diffs.get(scope))
        written.update({f"{k} report": v for k, v in files.items()})
    return written

