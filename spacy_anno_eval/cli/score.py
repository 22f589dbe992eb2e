"""``anno-eval score``: RESPONSE against KEY, the report on the terminal and as JSON."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal

import typer

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
    JsonOut,
    KeyCorpus,
    KeySet,
    LabelFeature,
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
    reader_option_files,
    reader_settings,
    split,
    warn_same_input,
)
from .llm_options import Ground, GroundAll, GroundingOut, Labels, ScoreFormat, Snap

FpPer = Literal["tokens", "sentences"]
Scheme = Literal["auto", "IOB1", "IOB2", "IOE", "IOE1", "IOE2", "IOBES", "BILOU", "BIO", "BIOES", "BILUO"]


@app.command()
def score(
    key: KeyCorpus,
    response: ResponseCorpus,
    fmt: ScoreFormat = "auto",
    key_set: KeySet = "ents",
    response_set: ResponseSet = None,
    types: Types = None,
    features: Features = None,
    beta: Beta = 1.0,
    pairing: PairingOpt = "optimal",
    min_overlap: Annotated[float, typer.Option("--min-overlap", help="Least overlap (% of the key's length) for a "
                                                                     "partial match.")] = 0.0,
    zero_division: Annotated[float, typer.Option("--zero-division", help="Value of 0/0 ratios, in [0, 1].")] = 0.0,
    scheme: Annotated[Scheme, typer.Option("--scheme", case_sensitive=False,
                                           help="CoNLL tag scheme: auto, IOB1, IOB2 (BIO), IOE, IOE1, IOE2, IOBES "
                                                "(BIOES), BILOU (BILUO).")] = "auto",
    strict_scheme: Annotated[bool, typer.Option("--strict-scheme", help="CoNLL: drop ill-formed tag sequences "
                                                                        "(seqeval strict mode).")] = False,
    fp_per: Annotated[FpPer, typer.Option("--fp-per", case_sensitive=False,
                                          help="c of the false-positive rate Spurious / c (GATE eq. 10.8): the "
                                               "tokens or the sentences of the documents.")] = "tokens",
    bdm: Bdm = None,
    bdm_feature: BdmFeature = None,
    shards: Shards = False,
    dask: Dask = None,
    chunk_docs: ChunkDocs = None,
    encoding: Encoding = None,
    sep: Sep = None,
    label_feature: LabelFeature = None,
    reader_option: ReaderOption = None,
    json_out: JsonOut = None,
    per_doc: Annotated[bool, typer.Option("--per-doc/--no-per-doc", help="Include per-document rows in the "
                                                                         "JSON.")] = True,
    errors: ErrorsOut = None,
    errors_all: ErrorsAll = False,
    context: Context = 40,
    confusion: Confusion = False,
    ci: Ci = None,
    seed: Seed = None,
    confidence: Confidence = 0.95,
    buckets: BucketsOpt = False,
    train: Train = None,
    ground: Ground = None,
    ground_all: GroundAll = False,
    snap: Snap = None,
    labels: Labels = None,
    grounding: GroundingOut = None,
    html_out: Annotated[Path | None, typer.Option("--html", help="llm formats: write the HTML report (the "
                                                                 "grounding tab; hallucinated strings in the "
                                                                 "Annotation Diff). Other formats: anno-eval qa "
                                                                 "--html.")] = None,
    quiet: Quiet = False,
) -> None:
    """Score RESPONSE against KEY: strict, lenient and average P/R/F per type, micro and macro; MUC; SemEval;
    GATE's error rate (1 - P) and false-positive rate (Spurious per token or sentence, --fp-per); with --bdm,
    BDM-weighted P/R/F (near-miss concepts earn partial credit). Why it fails: the count of each kind of error
    (always), every error as a row (--errors), label confusion (--confusion), intervals (--ci), buckets.
    A language model's output (--format llm-ner, llm-json, langextract): every string grounded in KEY's text
    (--ground), one not in it counted as a spurious response (a hallucination); the grounding table beside."""
    from ..files import check_outputs
    from .llm_options import is_llm_format, refuse_llm_options

    llm = is_llm_format(fmt)
    if not llm:
        refuse_llm_options(fmt, **{"--ground": ground, "--ground-all": ground_all, "--snap": snap,
                                   "--labels": labels, "--grounding": grounding, "--html": html_out})
    inputs = [key, response, bdm, train, *reader_option_files(reader_option)]
    quiet = check_outputs(inputs, [json_out, errors, grounding, html_out]) or quiet  # before any work; JSON on
    # stdout: no table
    analysis = analysis_settings(errors, errors_all, context, confusion, ci, seed, confidence, buckets, train,
                                 key_set=key_set, fmt="auto" if llm else fmt)
    if not llm:  # a model's output is never the key itself
        warn_same_input(key, response, key_set, response_set)
    from ..report.json import write_json
    from ..spans.engine import evaluate

    streamed = bool(shards or dask or chunk_docs)
    analysis.refuse_streaming(streamed)
    options = {name: given for name, given, asked in (("scheme", ("--scheme", scheme), scheme != "auto"),
                                                      ("strict", ("--strict-scheme", True), strict_scheme)) if asked}
    settings = dict(key_set=key_set, response_set=response_set, types=split(types), features=split(features),
                    beta=beta, pairing=pairing, min_overlap=min_overlap, zero_division=zero_division, fmt=fmt,
                    reader_options=reader_settings(encoding, sep, label_feature, reader_option, given=options),
                    credit=bdm_credit(bdm, bdm_feature, split(features)), fp_per=fp_per.lower())
    if llm:
        from .llm_options import score_llm

        score_llm(key, response, settings, analysis, ground=ground, ground_all=ground_all, snap=snap, labels=labels,
                  streamed={"--shards": shards, "--dask": dask, "--chunk-docs": chunk_docs},
                  outputs={"json": json_out, "errors": errors, "grounding": grounding, "html": html_out},
                  per_doc=per_doc, errors_all=errors_all, quiet=quiet)
        return
    if streamed:
        from ..workflows.stream import score_shards

        ev = score_shards(key, response, scheduler=dask, docs_per_chunk=chunk_docs,
                          sharded=shards or dask is not None, progress=not quiet, **settings)
    else:
        ev = evaluate(str(key), str(response), **settings)
    report = ev.report(per_doc=per_doc, lazy=True)  # per-document rows built as the JSON is written
    from ..workflows.analysis import analysis_sections, error_rows

    sections = analysis_sections(ev, analysis)
    report.update(sections)
    if errors is not None:
        from ..files import write_rows
        from ..spans.decisions import COLUMNS

        write_rows(errors, error_rows(ev, analysis), COLUMNS)
    if json_out is not None:
        write_json(report, json_out)
    if not quiet:
        from ..report.analysis_terminal import analysis_lines
        from ..report.terminal import print_report
        from ..report.written_terminal import written_line

        print_report(report)
        for line in analysis_lines(sections):
            typer.echo(line)
        for what, path in (("report", json_out), ("errors" if not errors_all else "decisions", errors)):
            if path is not None:
                typer.echo(written_line(what, path), err=True)
