"""``anno-eval agreement``: agreement of annotators on a classification, from a CSV table, or from an annotation
corpus: its span positions, or its documents and their categories (a document classification export: doccano,
Label Studio choices, Prodigy textcat, ...; :mod:`spacy_anno_eval.agreement.units`)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Literal

import typer

from ..errors import ConfigError, InputError
from .app import (
    Bootstrap,
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
    Types,
    app,
    reader_option_files,
    reader_settings,
)

Level = Literal["nominal", "ordinal", "interval", "ratio"]
UnitKind = Literal["auto", "spans", "documents"]
#: ``--units`` (agreement and iaa): what a unit of an annotation corpus is
Units = Annotated[UnitKind, typer.Option(
    "--units", help="Corpus: the units compared: spans (span positions), documents (each document's category: "
                    "a document classification export; several labels on one document: a unit per document and "
                    "label, yes/no), or auto: documents when the sets carry document categories and no span.")]


@app.command()
def agreement(
    table: Annotated[Path, typer.Argument(metavar="TABLE", help="CSV: a header row of annotator names, then one row "
                                                                "per unit; an empty cell is a missing value. Or an "
                                                                "annotation corpus (DocBin, GATE, INCEpTION, ...): "
                                                                "units are the span positions.")],
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
    fmt: Format = "auto",
    sets: Annotated[str | None, typer.Option("--sets", help="Corpus: one annotation set per annotator, ';' or ',' "
                                                            "between them; default: the file's annotator "
                                                            "sets.")] = None,
    types: Types = None,
    label_feature: LabelFeature = None,
    missing_as_empty: MissingAsEmpty = False,
    units: Units = "auto",
    reader_option: ReaderOption = None,
    id_column: Annotated[str | None, typer.Option("--id-column", metavar="NAME", help="CSV: the column that holds "
                                                  "the unit ids, not an annotator's values; 'none': every column is "
                                                  "an annotator. Default: found by its header (Unit(s), Item(s), "
                                                  "Id, Subject(s), Case(s); Group columns set aside too) or by "
                                                  "its values (distinct on every row), with a note.")] = None,
    quiet: Quiet = False,
) -> None:
    """Agreement of annotators on a classification: Ao, S, pi, kappa (Cohen, Fleiss, Davies & Fleiss), alpha.
    In a CSV table, a leading column of unit ids (irrCAC's 'Units', 'Group,Units') is not an annotator
    (--id-column). On a corpus, a unit is a span position and an annotator who did not mark it gives '(none)'; on
    a document classification export (--units), a unit is a document and its value the label chosen. A document
    an annotator has no record of gives missing values. The JSON holds every coefficient."""
    from ..files import check_outputs

    asked_quiet = quiet
    # before any work; JSON on stdout: no table
    quiet = check_outputs([table, *reader_option_files(reader_option)], [json_out]) or quiet
    from ..agreement.summary import table_summary
    from ..cluster import dask_client
    from ..report.agreement_terminal import all_sets_note, summary_lines
    from ..report.json import write_json

    if dask is not None and not bootstrap:
        raise ConfigError("--dask spreads the --bootstrap samples; give --bootstrap N")
    from_corpus = is_corpus(table, fmt)
    if from_corpus:
        if id_column is not None:
            raise ConfigError(f"{table}: --id-column applies to a CSV table; on an annotation corpus the units are "
                              f"span positions")
        if level != "nominal":
            raise ConfigError(f"--level {level}: the values of span positions and of documents are labels and "
                              f"'(none)', nominal categories; use --level nominal")
        from ..agreement.units import corpus_units

        rated = corpus_units(table, fmt, sets=sets, types=types, missing_as_empty=missing_as_empty, units=units,
                             options=reader_settings(encoding, sep, label_feature, reader_option))
    else:
        given = [o for o, v in (("--sets", sets), ("--types", types), ("--label-feature", label_feature),
                                ("--missing-as-empty", missing_as_empty), ("--units", units != "auto"),
                                ("--reader-option", reader_option)) if v]
        if given:
            raise ConfigError(f"{table}: {given[0]} applies to an annotation corpus; this is read as a CSV table of "
                              f"values (give --format to read it as a corpus)")
        rated = table_ratings(table, encoding, sep, id_column)
    with dask_client(dask) as client:
        summary = table_summary(rated, level, bootstrap=bootstrap, seed=seed, confidence=confidence, client=client)
    if json_out is not None:
        write_json(summary, json_out)
    if not quiet:
        for line in summary_lines(summary, level):
            typer.echo(line)
    if from_corpus and sets is None and not asked_quiet:  # once done (one line on a failure), never under -q
        typer.echo(all_sets_note(rated.annotators), err=True)


def table_ratings(path: Path, encoding: str | None, sep: str | None, id_column: str | None) -> Any:
    """The :class:`~spacy_anno_eval.agreement.summary.RatingsTable` of the CSV table at ``path``. The note that
    a column was read as unit ids is kept on the table (the summary's notes show it once), not warned again."""
    import warnings

    from ..agreement.summary import read_table
    from ..errors import UnitIdColumnWarning

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UnitIdColumnWarning)
        return read_table(path, encoding=encoding or "utf-8", sep=sep or ",",
                          id_column="auto" if id_column is None else id_column)


def is_corpus(path: Path, fmt: str | None) -> bool:
    """Whether ``anno-eval agreement`` reads ``path`` as an annotation corpus rather than a CSV table: when
    ``--format`` names a format, for a folder, for a WebAnno TSV3 ``.tsv``, a brat ``.txt`` beside its ``.ann``
    and any file whose suffix a corpus reader claims; ``.csv``, other ``.tsv`` and ``.txt`` files and unknown
    suffixes stay tables, as before corpora were read."""
    if fmt not in (None, "auto"):
        return True
    if path.is_dir():
        return True
    suffix = path.suffix.lower()
    if suffix == ".csv":
        return False
    from ..io import detect_format, sniff_format

    if suffix == ".tsv":
        return path.is_file() and sniff_format(path) == "tsv3"
    if suffix == ".txt":
        return path.with_suffix(".ann").exists()
    try:
        detect_format(path)
    except InputError:
        return False
    return True

