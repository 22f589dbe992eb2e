"""``anno-eval sets``: the annotation sets a file holds, with their documents, annotations per type and document
categories."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

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
        print_sets(summary)
        if json_out is not None:
            typer.echo(f"sets written to {json_out}", err=True)


def print_sets(summary: dict[str, Any], console: Any = None) -> None:
    """The sets table: a row per set (all its annotations), then a row per type; long names wrap, never cut."""
    import textwrap

    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    console = console or Console()
    n = summary["n_docs"]
    k = len(summary["sets"])
    console.print(Text(f"{summary['source']}: {n} document{'s' * (n != 1)}, {k} set{'s' * (k != 1)} (read as "
                       f"{summary['format']})"))
    table = Table(header_style="bold")
    table.add_column("Set", overflow="fold", ratio=3)
    table.add_column("Annotator", no_wrap=True)
    table.add_column("Documents\ncovered", justify="right", no_wrap=True)
    table.add_column("Type", overflow="fold", ratio=2)
    table.add_column("Annotations", justify="right", no_wrap=True)
    for i, row in enumerate(summary["sets"]):
        if i:
            table.add_section()
        table.add_row(Text(row["name"], style="bold"), "yes" if row["annotator"] else "no",
                      f"{row['documents_covered']} of {n}", "all", str(row["annotations"]), style=None)
        for label, count in row["types"].items():
            table.add_row("", "", "", Text(label), str(count))
        if "cats" in row:  # document categories: documents per chosen category
            table.add_row("", "", "", "documents categorised", str(row["documents_categorised"]))
            for label, count in row["cats"].items():
                table.add_row("", "", "", Text(f"document: {label}"), str(count))
    console.print(table)
    for alias, target in summary["aliases"].items():
        console.print(Text(f"{alias} also reads {target} (the file's only set)"))
    features = summary["features"]
    if features is not None:
        line = f"features: {', '.join(features)}" if features else "features: none"
        for part in textwrap.wrap(line, width=min(console.width, 80), subsequent_indent="  ",
                                  break_on_hyphens=False):
            console.print(Text(part))
