"""``anno-eval iaa``: inter-annotator agreement of N annotators on spans, pairwise F or kappa."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal

import typer

from ..errors import ConfigError, InputError
from .agreement import Units
from .app import (
    Bdm,
    BdmFeature,
    Beta,
    Bootstrap,
    ChunkDocs,
    Dask,
    Encoding,
    Format,
    JsonOut,
    LabelFeature,
    MissingAsEmpty,
    Quiet,
    ReaderOption,
    Seed,
    Sep,
    Shards,
    Types,
    app,
    bdm_credit,
    reader_option_files,
    reader_settings,
    split,
)

IaaMeasure = Literal["fmeasure", "kappa"]
MissingFeature = Literal["drop", "keep"]


@app.command()
def iaa(
    corpus: Annotated[Path, typer.Argument(metavar="CORPUS", help="A corpus holding every annotator's set (DocBin "
                                                                  "span groups, CoNLL columns, ...).")],
    sets: Annotated[str | None, typer.Option("--sets", help="Annotation sets, ';' or ',' between them: "
                                                          "'spans:ann1;spans:ann2'; default: every annotator "
                                                          "set of the file.")] = None,
    types: Types = None,
    measure: Annotated[IaaMeasure, typer.Option("--measure", help="fmeasure (pairwise P/R/F) or kappa (observed "
                                                                  "agreement, Cohen's kappa, Scott's pi on "
                                                                  "coextensive annotations; GATE's "
                                                                  "Non-cat).")] = "fmeasure",
    consensus: Annotated[str | None, typer.Option("--consensus", help="A consensus set to compare each annotator "
                                                                      "with.")] = None,
    fmt: Format = "auto",
    beta: Beta = 1.0,
    bootstrap: Bootstrap = 0,
    bdm: Bdm = None,
    bdm_feature: BdmFeature = None,
    seed: Seed = 0,
    shards: Shards = False,
    dask: Dask = None,
    chunk_docs: ChunkDocs = None,
    encoding: Encoding = None,
    sep: Sep = None,
    label_feature: LabelFeature = None,
    missing_as_empty: MissingAsEmpty = False,
    units: Units = "auto",
    reader_option: ReaderOption = None,
    missing_feature: Annotated[MissingFeature | None, typer.Option(
        "--missing-feature", help="--measure fmeasure with TYPE->FEATURE: an annotation of TYPE without FEATURE is "
                                  "left out (drop, the default, as GATE's IAA plugin; a warning counts them per "
                                  "set) or compared by span and type (keep).")] = None,
    verbosity: Annotated[int, typer.Option("--verbosity", "-v", min=0, max=2, help="GATE's verbosity: 0 overall "
                                                                                  "figures only, 1 also per type "
                                                                                  "and pair, 2 also per "
                                                                                  "document.")] = 1,
    html_out: Annotated[Path | None, typer.Option("--html", help="Folder for the agreement matrix (index.html) and "
                                                                 "one page per pair.")] = None,
    json_out: JsonOut = None,
    quiet: Quiet = False,
) -> None:
    """Inter-annotator agreement of N annotators on spans: pairwise F or kappa (with Gwet's AC1, Brennan-Prediger,
    PABAK, Conger, Fleiss), mean of pairs, the agreement matrix. Types as GATE writes them: 'Per->label;Org' (the
    feature 'label' significant for Per only). On a document classification export (doccano, Label Studio
    choices, Prodigy textcat, ...), --measure kappa compares the documents' categories (GATE's IAA for
    classification; --units)."""
    from ..files import check_outputs

    asked_quiet = quiet
    quiet = check_outputs([corpus, bdm, *reader_option_files(reader_option)],
                          [json_out, html_out and html_out / "index.html"],
                          folders=[html_out]) or quiet  # before any work; JSON on stdout: no table
    from ..agreement.iaa import pairwise_f, pairwise_kappa, pairwise_kappa_documents, parse_types, to_json
    from ..cluster import dask_client
    from ..report.iaa_terminal import iaa_lines, matrix_written_line, note_lines, warning_lines
    from ..report.json import write_json

    kappa = measure == "kappa"
    if bdm is not None and kappa:
        raise ConfigError("--bdm weights F-measures (GATE 10.5.3); use it with --measure fmeasure")
    if missing_feature is not None and kappa:
        raise ConfigError("--missing-feature applies to --measure fmeasure; kappa counts an annotation without its "
                          "type's feature as Non-cat (GATE 10.5.1)")
    if dask is not None and not (kappa and bootstrap):
        raise ConfigError("--dask spreads the bootstrap samples of --measure kappa --bootstrap N; use it with those")
    if units == "documents":
        if not kappa:
            raise ConfigError("--units documents: documents are compared on their categories with --measure kappa "
                              "(GATE's IAA for classification); give --measure kappa")
        if shards or chunk_docs:
            raise ConfigError("--units documents reads the corpus whole; leave out --shards and --chunk-docs")
        if types:
            raise ConfigError("--types selects span types; documents are compared on every category (leave --types "
                              "out, or compare spans with --units spans)")
    options = reader_settings(encoding, sep, label_feature, reader_option)
    if kappa:
        with dask_client(dask) as client:
            if units == "documents":
                from ..agreement.units import read_annotators

                named = split(sets)
                whole = read_annotators(corpus, fmt, named + ([consensus] if consensus else []) if named else None,
                                        options)
                result = pairwise_kappa_documents(whole, sets, consensus=consensus, bootstrap=bootstrap, seed=seed,
                                                  client=client, missing_as_empty=missing_as_empty)
            else:
                result = pairwise_kappa(str(corpus), sets, types=types, fmt=fmt, consensus=consensus,
                                        bootstrap=bootstrap, seed=seed, shards=shards, progress=not quiet,
                                        client=client, docs_per_chunk=chunk_docs, reader_options=options,
                                        missing_as_empty=missing_as_empty, units=units)
    else:
        result = pairwise_f(str(corpus), sets, types=types, fmt=fmt, beta=beta, consensus=consensus,
                            credit=bdm_credit(bdm, bdm_feature, parse_types(types)[1]), shards=shards,
                            progress=not quiet, docs_per_chunk=chunk_docs, reader_options=options,
                            missing_as_empty=missing_as_empty, missing_feature=missing_feature or "drop")
        if not result["per_type"]:  # no span in any set: an F of 0/0 is no figure (never a silent zero)
            raise InputError(f"{corpus}: the sets {', '.join(result['annotators'])} hold no span annotation; nothing "
                             f"to compare with --measure fmeasure (a document classification export: compare its "
                             f"documents' categories with --measure kappa)")
    if json_out is not None:  # machine output first
        write_json(to_json(result), json_out)
    if html_out is not None:
        from ..report.matrix import write_matrix_reports

        write_matrix_reports(result, html_out)
    if not quiet:
        import shutil

        for line in iaa_lines(result, verbosity, shutil.get_terminal_size((80, 24)).columns):
            typer.echo(line)
        if kappa:
            for line in warning_lines(result):
                typer.echo(line, err=True)
        if html_out is not None:
            typer.echo(matrix_written_line(html_out / "index.html", result), err=True)
    if not asked_quiet:  # which sets were chosen, documents as items (the JSON says both too): once done
        for line in note_lines(result):
            typer.echo(line, err=True)
