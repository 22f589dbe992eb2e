"""``anno-eval qa``: GATE's Corpus QA, the tables and the Annotation Diff as HTML, Markdown and JSON."""

from __future__ import annotations

from typing import Annotated

import typer

from ..errors import ConfigError
from .app import (
    Bdm,
    BdmFeature,
    Beta,
    BucketsOpt,
    ChunkDocs,
    Ci,
    Confidence,
    Confusion,
    Context,
    Dask,
    Encoding,
    ErrorsAll,
    ErrorsOut,
    Features,
    Format,
    HtmlOut,
    JsonOut,
    KeyCorpus,
    KeySet,
    LabelFeature,
    MdOut,
    Measures,
    PairingOpt,
    Quiet,
    ReaderOption,
    ResponseCorpus,
    ResponseSet,
    Seed,
    Sep,
    Shards,
    Train,
    Types,
    analysis_settings,
    app,
    bdm_credit,
    check_list,
    reader_option_files,
    reader_settings,
    split,
    warn_same_input,
)


@app.command()
def qa(
    key: KeyCorpus,
    response: ResponseCorpus,
    fmt: Format = "auto",
    key_set: KeySet = "ents",
    response_set: ResponseSet = None,
    types: Types = None,
    features: Features = None,
    beta: Beta = 1.0,
    pairing: PairingOpt = "optimal",
    measures: Measures = "strict,lenient,average",
    classify: Annotated[str | None, typer.Option("--classify", help="TYPE:FEATURE for the classification tab "
                                                                    "(kappa, pi, confusion); FEATURE 'label' uses "
                                                                    "the labels, any other needs --features "
                                                                    "FEATURE.")] = None,
    html_out: HtmlOut = None,
    md_out: MdOut = None,
    json_out: JsonOut = None,
    max_diff_docs: Annotated[int, typer.Option("--max-diff-docs", min=0, help="Documents shown in the HTML "
                                                                              "Annotation Diff (0: all; the Diff "
                                                                              "is written as shards come).")] = 100,
    bdm: Bdm = None,
    bdm_feature: BdmFeature = None,
    shards: Shards = False,
    dask: Dask = None,
    chunk_docs: ChunkDocs = None,
    encoding: Encoding = None,
    sep: Sep = None,
    label_feature: LabelFeature = None,
    reader_option: ReaderOption = None,
    errors: ErrorsOut = None,
    errors_all: ErrorsAll = False,
    context: Context = 40,
    confusion: Confusion = False,
    ci: Ci = None,
    seed: Seed = None,
    confidence: Confidence = 0.95,
    buckets: BucketsOpt = False,
    train: Train = None,
    quiet: Quiet = False,
) -> None:
    """Corpus quality assurance (GATE's Corpus QA): corpus and document tables, Annotation Diff (--html), as
    HTML, Markdown and JSON; the count of each kind of error, and with --errors, --confusion, --ci the error
    rows, the label confusion heat map and intervals (the HTML's Errors tab)."""
    from ..files import check_outputs

    inputs = [key, response, bdm, train, *reader_option_files(reader_option)]
    quiet = check_outputs(inputs, [json_out, md_out, html_out, errors]) or quiet  # before any work
    analysis = analysis_settings(errors, errors_all, context, confusion, ci, seed, confidence, buckets, train,
                                 key_set=key_set, fmt=fmt)
    analysis.refuse_streaming(bool(shards or dask or chunk_docs), gathered=("errors", "confusion"))
    warn_same_input(key, response, key_set, response_set)
    from ..figures import MEASURES
    from ..workflows.qa import run_qa

    chosen = check_list("--measures", measures, MEASURES) or list(MEASURES)
    split_classify = None
    if classify:
        type_, _, feature = classify.partition(":")
        if not type_ or not feature:
            raise ConfigError(f"--classify takes TYPE:FEATURE, got {classify!r}")
        split_classify = (type_, feature)
    paths = {fmt_: p for fmt_, p in (("json", json_out), ("md", md_out), ("html", html_out), ("errors", errors))
             if p is not None}
    report, classification, written = run_qa(
        key, response, paths=paths, sharded=shards or dask is not None, measures=chosen, classify=split_classify,
        max_diff_docs=max_diff_docs or None, scheduler=dask, docs_per_chunk=chunk_docs, progress=not quiet,
        key_set=key_set, response_set=response_set, types=split(types), features=split(features), beta=beta,
        pairing=pairing, fmt=fmt, credit=bdm_credit(bdm, bdm_feature, split(features)), analysis=analysis,
        reader_options=reader_settings(encoding, sep, label_feature, reader_option))
    if not quiet:
        from ..report.terminal import print_classification, print_report
        from ..report.written_terminal import written_lines

        print_report(report, measures=chosen)
        from ..report.analysis_terminal import analysis_lines

        for line in analysis_lines(report):
            typer.echo(line)
        if classification is not None:
            print_classification(classification)
        for line in written_lines(written, " report"):
            typer.echo(line, err=True)
