"""``anno-eval benchmark`` on the terminal: what a run prints, by its mode, and the one-line regression verdict.

:func:`print_run` chooses the renderer for a run's report (``workflows.benchmark.run``'s ``report``): a store
prints one line (:func:`store_line`); a comparison of two versions prints its table
(:func:`~spacy_anno_eval.report.benchmark.print_benchmark`); a mode that scores one version prints the
corpus tables (:func:`~spacy_anno_eval.report.terminal.print_report`); then the annotations of figures below
``--threshold`` when the report lists them. :func:`verdict_line` is the regression in one line, the line
``--quiet`` still prints. Figures are read from the report, never computed here.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any


def store_line(report: dict[str, Any]) -> str:
    """A stored baseline: its name, documents, entities and where it lies."""
    b = report["baseline"]
    return (f"stored baseline {b['name']!r}: {b['n_docs']} documents, {b.get('n_entities', 0)} entities "
            f"-> {report['path']}")


def print_run(report: dict[str, Any], echo: Callable[[str], Any] = print) -> None:
    """Print a run's report by its mode: ``echo`` the store line, else the comparison or the one version's
    tables with ``rich``, then the annotations below the threshold when the report holds them."""
    from .terminal import print_below_threshold, print_report

    if report["mode"] == "store":
        echo(store_line(report))
        return
    if "comparison" in report:
        from .benchmark import print_benchmark

        print_benchmark(report)
        low = report["new"].get("below_threshold")
    else:
        scope = "stored" if "stored" in report else "current"
        print_report(report[scope]["report"], measures=report["settings"]["measures"])
        low = report[scope].get("below_threshold")
    if low is not None:
        print_below_threshold(low, report["settings"]["threshold"])


def verdict_line(report: dict[str, Any], directory: str | Path) -> str:
    """A regression in one line: the versions, the benchmark folder and the first three figures that dropped
    (old -> new, percentages), the rest counted."""
    from .rows import pct

    regressions = report["comparison"].get("regressions") or []
    shown = [f"{r.get('scope', '?')} {r.get('measure', '?')} {str(r.get('figure', '?')).upper()} "
             f"{pct(r.get('old'))} -> {pct(r.get('new'))}" for r in regressions[:3]]
    more = f" and {len(regressions) - 3} more" if len(regressions) > 3 else ""
    return (f"regression: {report['new']['name']!r} against {report['old']['name']!r} on {directory}: "
            f"{len(regressions)} figure(s) dropped significantly: {', '.join(shown)}{more}")


__all__ = ["print_run", "store_line", "verdict_line"]
