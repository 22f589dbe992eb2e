"""``anno-eval sets``: the annotation sets a file holds, with their documents, annotations per type and document
categories."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from .app import (
    Encoding,
    Format,
    JsonOut,
    LabelFeature,
    Quiet,
    ReaderOption,
    Sep,
    app,
    reader_option_files,
    reader_settings,
)


@app.command()
def sets(
    path: Annotated[Path, typer.Argument(metavar="FILE", help="A corpus file or folder of any readable format (an "
                                                              "annotation tool's export, a DocBin, ...).")],
    fmt: Format = "auto",
    label_feature: LabelFeature = None,
    encoding: Encoding = None,
    sep: Sep = None,
    reader_option: ReaderOption = None,
    json_out: JsonOut = None,
    quiet: Quiet = False,
) -> None:
    """List the annotation sets a file holds (annotators, users, model versions, span groups): the documents
    each covers, its annotations per type, its document categories (documents per chosen label: 'document:
    LABEL'), and the feature names found. Name a set as spans:NAME in every command."""
    from ..files import check_outputs

    quiet = check_outputs([path, *reader_option_files(reader_option)], [json_out]) or quiet  # JSON on stdout: no table
    from ..io.convert import describe_sets, read_sets

    options = reader_settings(encoding, sep, label_feature, reader_option)
    corpus, names, name = read_sets(path, fmt, features=["*"], **options)
    summary = describe_sets(corpus, names, name)
    if json_out is not None:
        from ..report.json import write_json

        write_json(summary, json_out)
    if not quiet:
        from ..report.sets_terminal import print_sets
        from ..report.written_terminal import written_line

        print_sets(summary)
        if json_out is not None:
            typer.echo(written_line("sets", json_out), err=True)
