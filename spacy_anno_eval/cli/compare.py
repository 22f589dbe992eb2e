"""``anno-eval compare``: is one system really better than another? Every pair of systems on one key."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from .app import (
    Beta,
    Dask,
    Encoding,
    Features,
    Format,
    JsonOut,
    KeyCorpus,
    KeySet,
    LabelFeature,
    Measures,
    PairingOpt,
    Quiet,
    ReaderOption,
    ResponseSet,
    Seed,
    Sep,
    Types,
    app,
    reader_option_files,
    reader_settings,
    split,
    warn_same_input,
)


@app.command()
def compare(
    key: KeyCorpus,
    responses: Annotated[list[Path], typer.Argument(metavar="RESPONSE", help="Two or more systems' responses "
                                                                                "to KEY (any format score reads).")],
    names: Annotated[str | None, typer.Option("--names", help="The systems' names, ',' between them, one per "
                                                              "response (default: the file names).")] = None,
    fmt: Format = "auto",
    key_set: KeySet = "ents",
    response_set: ResponseSet = None,
    types: Types = None,
    features: Features = None,
    beta: Beta = None,
    pairing: PairingOpt = None,
    measures: Measures = None,
    n_samples: Annotated[int, typer.Option("--samples", min=1, help="Bootstrap and randomization samples.")] = 10_000,
    confidence: Annotated[float, typer.Option("--confidence", help="Confidence of the bootstrap interval of each "
                                                                   "delta, in (0, 1).")] = 0.95,
    seed: Seed = 0,
    alpha: Annotated[float, typer.Option("--alpha", help="Significance level a difference is called better "
                                                         "at (Holm-corrected p with three or more systems).")] = 0.05,
    dask: Dask = None,
    encoding: Encoding = None,
    sep: Sep = None,
    label_feature: LabelFeature = None,
    reader_option: ReaderOption = None,
    html_out: Annotated[Path | None, typer.Option("--html", help="Folder for an index of every pair "
                                                                 "(index.html) and one page per pair with its "
                                                                 "per-type figures and error difference.")] = None,
    json_out: JsonOut = None,
    per_doc: Annotated[bool, typer.Option("--per-doc/--no-per-doc", help="Include each pair's per-document "
                                                                         "changes in the JSON.")] = False,
    quiet: Quiet = False,
) -> None:
    """Compare two or more systems scored against one KEY: for every pair and every figure (strict, lenient,
    average P/R/F, overall and per type), the delta, its paired-bootstrap interval and the paired-bootstrap and
    approximate-randomization p-values over documents, Holm-corrected across pairs with three or more systems.
    --html FOLDER: an index of every pair and a page per pair with the decisions one system gets right and the
    other wrong. Exit 0 whatever the result: benchmark is the CI gate."""
    from ..errors import ConfigError
    from ..files import check_outputs

    if len(responses) < 2:
        raise ConfigError("compare needs two or more RESPONSE files after KEY; to score one system, use score")
    inputs = [key, *responses, *reader_option_files(reader_option)]
    quiet = check_outputs(inputs, [json_out, html_out and html_out / "index.html"],
                          folders=[html_out]) or quiet  # before any work; JSON on stdout: no table
    for r in responses:
        warn_same_input(key, r, key_set, response_set, names=("key", "response"))
    from ..cluster import dask_client
    from ..workflows.benchmark.settings import BenchmarkSettings
    from ..workflows.compare import compare_systems

    overrides = dict(key_set=key_set, response_set=response_set or key_set, types=split(types),
                     features=split(features), beta=beta, pairing=pairing, measures=split(measures),
                     n_samples=n_samples, confidence=confidence, seed=seed)
    settings = BenchmarkSettings().replace(**overrides)
    with dask_client(dask) as client:
        result = compare_systems(key, responses, names=split(names), settings=settings, fmt=fmt,
                                 reader_options=reader_settings(encoding, sep, label_feature, reader_option),
                                 alpha=alpha, client=client, per_doc=per_doc)
    out = result.to_dict(per_doc=per_doc)
    if json_out is not None:
        from ..report.json import write_json

        write_json(out, json_out)
    if html_out is not None:
        from ..report.compare_html import write_compare_reports

        differences = [result.error_difference(p["old"], p["new"]) for p in result.pairs]
        write_compare_reports(result.to_dict(per_doc=False), differences, result.significant, html_out)
    if not quiet:
        from ..report.compare_terminal import compare_lines

        for line in compare_lines(out, result.significant, settings.measures):
            typer.echo(line)
        if json_out is not None:
            typer.echo(f"comparison written to {json_out}", err=True)
        if html_out is not None:
            typer.echo(f"pages written to {html_out / 'index.html'} ({len(result.pairs)} pair page(s))", err=True)
