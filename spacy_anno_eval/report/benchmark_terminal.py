"""The benchmark comparison on the terminal with ``rich`` (:func:`print_benchmark`).

Per type, then overall: F old → new, the delta and the bootstrap p-value for
each measure; then the verdict, the regressions and how many annotations
changed (see :mod:`spacy_anno_eval.report.benchmark`). The report is read and
its figures written as text by :mod:`~.benchmark_rows`; nothing is computed
here. Labels and names are ``rich`` ``Text`` objects, never parsed as markup.
"""

from __future__ import annotations

from typing import Any

from .benchmark_rows import (
    OVERALL,
    change_counts,
    comparison_of,
    confidence_label,
    delta_text,
    figure_cell,
    figure_name,
    interval_text,
    run_measures,
    scope_blocks,
    signed_points,
    version_names,
)
from .rows import figure, pct

__all__ = ["print_benchmark"]

_DIRECTION_STYLES = {"up": "green", "down": "red", "same": "dim"}


def print_benchmark(report: dict[str, Any], console: Any = None) -> None:
    """Print the comparison with ``rich``: per type, F old → new, Δ and bootstrap p for each measure; then the
    verdict, the regressions and how many annotations changed."""
    from rich import box
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    console = console or Console()
    comp = comparison_of(report)
    old_name, new_name = version_names(report)
    measures = run_measures(report)
    confidence = confidence_label(report)
    sig = comp.get("significance") or {}
    table = Table(title=Text(f"{old_name} → {new_name}"), box=box.SIMPLE_HEAD, header_style="bold",
                  show_lines=True, caption=Text(f"F: old → new (%), then Δ in points and the bootstrap p-value "
                                                f"({sig.get('n_samples', '?')} samples, seed {sig.get('seed', '?')})"))
    table.add_column("Type", style="bold", no_wrap=True)
    for m in measures:
        table.add_column(f"F {m}", justify="right", no_wrap=True)

    def cells(block: dict[str, Any]) -> list[Text]:
        out = []
        for m in measures:
            cell = figure_cell(block, m, "f")
            if not cell:
                out.append(Text(""))
                continue
            style = _DIRECTION_STYLES.get(str(cell.get("direction")), "")
            if cell.get("regression"):
                style = "bold white on red"
            out.append(Text.assemble(f"{pct(cell.get('old'))} → {pct(cell.get('new'))}\n", (delta_text(cell), style),
                                     (f" p {figure(cell.get('p_bootstrap'), 3)}", "dim")))
        return out

    scopes = scope_blocks(report)
    for _, label, block in scopes:
        if label is not None:
            table.add_row(Text(label), *cells(block))
    table.add_section()
    for _, label, block in scopes:
        if label is None:
            table.add_row(Text(OVERALL), *cells(block), style="bold")
    console.print(table)

    regressions = comp.get("regressions") or []
    if comp.get("verdict") == "regression" or regressions:
        console.print(Text.assemble(("REGRESSION", "bold red"),
                                    f": {len(regressions)} figure(s) dropped significantly"))
        for r in regressions:
            console.print(Text(
                f"  ▼ {r.get('scope', '?')} {figure_name(str(r.get('measure', '?')), str(r.get('figure', '?')))} "
                f"{pct(r.get('old'))} → {pct(r.get('new'))} ({signed_points(r.get('delta'))}, {confidence} "
                f"{interval_text(r.get('ci'))}, p {figure(r.get('p_bootstrap'), 3)} / "
                f"{figure(r.get('p_randomization'), 3)})",
                style="red"))
    else:
        console.print(Text.assemble(("OK", "bold green"), ": no regression"))
    changes = comp.get("changes") or []
    if changes:
        console.print(Text(f"Changed annotations: {change_counts(changes)}", style="dim"))
