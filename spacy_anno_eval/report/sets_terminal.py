"""``anno-eval sets`` on the terminal: the annotation sets of a file, as a ``rich`` table.

:func:`print_sets` prints the summary of :func:`~spacy_anno_eval.io.convert.describe_sets`: a head line (the
source, its documents and sets, the format it was read as), then a row per set (whether it is an annotator's,
the documents it covers, all its annotations), a row per type and, for a set with document categories, the
documents categorised and the documents per chosen category; then the aliases (``ents`` reading a file's only
set) and the feature names found, wrapped, never cut. Every count is read from the summary, never computed
here; set names, labels and features go to ``rich`` as :class:`rich.text.Text`, never read as markup.
"""

from __future__ import annotations

from typing import Any


def print_sets(summary: dict[str, Any], console: Any = None) -> None:
    """The sets table: a row per set (all its annotations), then a row per type; long names wrap, never cut
    (``console``: a ``rich`` console, default one on stdout)."""
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


__all__ = ["print_sets"]
