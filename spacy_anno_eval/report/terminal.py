"""The corpus statistics table on the terminal (GATE user guide 10.3.3), rendered with ``rich``.

One row per type: Match (correct), Only key (missing), Only response
(spurious), Overlap (partial), then P/R/F for each chosen measure; summary
rows give the micro average (counts added over the corpus) and the macro
averages over types and over documents. Figures are read from the report
as they are, never recomputed. User text (labels, ids, set names, annotated
text) goes to ``rich`` as :class:`rich.text.Text`, never read as markup: a
label ``[/bold]`` prints as it is.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

COUNT_COLUMNS = (("Match", "correct"), ("Only key", "missing"), ("Only resp.", "spurious"),
                 ("Overlap", "partial"))


def _cells(entry: dict[str, Any], measures: Sequence[str]) -> list[str]:
    return [f"{100 * entry[m][k]:.2f}" for m in measures for k in "prf"]


def corpus_table(report: dict[str, Any], measures: Sequence[str] = ("strict", "lenient", "average"),
                 title: str | None = None) -> Any:
    """A ``rich.table.Table`` of the per-type, micro and macro figures (percentages)."""
    from rich.table import Table
    from rich.text import Text

    table = Table(title=None if title is None else Text(title), show_lines=False, header_style="bold")
    table.add_column("Type", style="bold", no_wrap=True)
    for name, _ in COUNT_COLUMNS:
        table.add_column(name, justify="right")
    for m in measures:
        for k in "PRF":
            table.add_column(f"{k} {m}", justify="right")
    for label, entry in sorted(report["per_type"].items()):
        counts = entry["counts"]
        table.add_row(Text(str(label)), *(str(counts[c]) for _, c in COUNT_COLUMNS), *_cells(entry, measures))
    table.add_section()
    counts = report["counts"]
    table.add_row("micro", *(str(counts[c]) for _, c in COUNT_COLUMNS), *_cells(report["micro"], measures),
                  style="bold")
    blank = [""] * len(COUNT_COLUMNS)
    table.add_row("macro (types)", *blank, *_cells(report["macro_types"], measures))
    table.add_row("macro (docs)", *blank, *_cells(report["macro_docs"], measures))
    return table


def muc_semeval_table(report: dict[str, Any]) -> Any:
    """A ``rich.table.Table`` of the MUC and SemEval-2013 counts and P/R/F (percentages)."""
    from rich.table import Table

    table = Table(header_style="bold")
    table.add_column("Scheme", style="bold")
    for name in ("COR", "PAR", "INC", "MIS", "SPU", "POS", "ACT"):
        table.add_column(name, justify="right")
    for k in "PRF":
        table.add_column(k, justify="right")
    rows = [("MUC", report["muc"])] + [(f"SemEval {s}", v) for s, v in report["semeval"].items()]
    for name, entry in rows:
        table.add_row(name, *(str(entry[c]) for c in ("COR", "PAR", "INC", "MIS", "SPU", "POS", "ACT")),
                      *(f"{100 * entry[k]:.2f}" for k in "prf"))
    return table


def print_report(report: dict[str, Any], console: Any = None,
                 measures: Sequence[str] = ("strict", "lenient", "average")) -> None:
    """Print the corpus table and the MUC / SemEval table; with BDM credit (``report["bdm"]``), its micro
    figures."""
    from rich.console import Console

    console = console or Console()
    settings = report.get("settings", {})
    console.print(corpus_table(report, measures, title=(
        f"{report['n_docs']} documents · key {settings.get('key_set', '?')} vs response "
        f"{settings.get('response_set', '?')} · F-beta {settings.get('beta', 1.0):g}")))
    console.print(muc_semeval_table(report))
    if report.get("bdm") is not None:
        console.print("BDM-weighted (micro): " + ", ".join(
            f"{m} P {100 * v['p']:.2f} R {100 * v['r']:.2f} F {100 * v['f']:.2f}"
            for m, v in report["bdm"]["micro"].items()), markup=False, highlight=False)


def print_below_threshold(low: dict[str, Any], threshold: float, console: Any = None, max_rows: int = 50) -> None:
    """GATE's verbose benchmark output: per type below ``threshold``, its low figures and the
    non-coextensive annotations with their text (as :func:`spacy_anno_eval.workflows.benchmark.compare.below_threshold`
    lists them)."""
    from rich.console import Console
    from rich.text import Text

    console = console or Console()
    if not low:
        console.print(f"every per-type precision and recall is at or above the threshold {threshold:g}")
        return
    for label, entry in sorted(low.items()):
        figures = ", ".join(f"{k} {100 * v:.2f}" for k, v in entry["figures"].items())
        console.print(Text.assemble((str(label), "bold"), f" below {threshold:g}: {figures}"))
        rows = entry["annotations"]
        for row in rows[:max_rows]:
            sides = []
            for side in ("key", "response"):
                s = row[side]
                if s is not None:
                    sides.append(f"{side} {s['label']} [{s['start']}, {s['end']}) {s.get('text', '')!r}")
            console.print(Text(f"  {row['doc_id']}  {row['status']:<9} {' | '.join(sides)}"))
        if len(rows) > max_rows:
            console.print(f"  ... and {len(rows) - max_rows} more")
