"""The benchmark comparison as its renderings read it: the report dict, its figures as text, flat rows.

The input is the report dict of :func:`spacy_anno_eval.workflows.benchmark.run_benchmark`
(``result.report``) for the modes ``default`` and ``verbose``: the regression
comparison of an old version (a stored baseline) with a new one, both scored
against the same gold (GATE user guide 10.4.4). This module is what every
rendering of it shares (:mod:`~.benchmark_html`, :mod:`~.benchmark_markdown`,
:mod:`~.benchmark_terminal` and :func:`spacy_anno_eval.report.notebook.benchmark_html`):

- reading the report: :func:`comparison_of`, :func:`run_measures`,
  :func:`version_names`, :func:`scope_blocks` (every type, then overall),
  :func:`figure_cell`, :func:`confidence_label`, :func:`settings_items`;
- the figures as plain text: :func:`signed_points` (a delta in signed
  percentage points, never ``-0.00``), :func:`interval_text`,
  :func:`direction_arrow`, :func:`delta_text`, :func:`stats_text`,
  :func:`figure_name`, :func:`regression_text`, :func:`span_text`,
  :func:`change_counts`; each rendering escapes them for its format;
- the comparison as flat rows for a DataFrame or CSV: :func:`benchmark_rows`,
  :func:`benchmark_dataframe` (columns :data:`ROW_COLUMNS`).

Nothing is computed here: every figure, delta, direction, interval, p-value and
the verdict are read from the report dict as they are. Values are fractions in
the report and shown as percentages, deltas as percentage points.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from ..figures import FIGURES
from .rows import figure, pct

__all__ = ["ARROWS", "CHANGES", "FIGURES", "FIGURE_NAMES", "OVERALL", "ROW_COLUMNS", "benchmark_dataframe",
           "benchmark_rows", "change_counts", "comparison_of", "confidence_label", "delta_text", "direction_arrow",
           "figure_cell", "figure_name", "interval_text", "regression_text", "run_measures", "scope_blocks",
           "settings_items", "signed_points", "span_text", "stats_text", "version_names"]

FIGURE_NAMES = {"p": "P", "r": "R", "f": "F"}
ARROWS = {"up": "▲", "down": "▼", "same": "="}
CHANGES = ("fixed", "broken", "changed")
OVERALL = "overall"

ROW_COLUMNS = ("scope", "type", "measure", "figure", "old", "new", "delta", "direction", "ci_low", "ci_high",
               "p_bootstrap", "p_randomization", "regression")


# ----------------------------------------------------------------- reading ---

def comparison_of(report: dict[str, Any]) -> dict[str, Any]:
    """The report's ``comparison`` block (empty when there is none)."""
    return report.get("comparison") or {}


def run_measures(report: dict[str, Any]) -> list[str]:
    """The measures of the run (settings order), else those of the overall comparison."""
    measures = (report.get("settings") or {}).get("measures")
    if isinstance(measures, str):
        measures = [measures]
    if not measures:
        measures = list(comparison_of(report).get("overall") or {})
    return [str(m) for m in measures]


def version_names(report: dict[str, Any]) -> tuple[str, str]:
    """``(old, new)``: the names of the two versions (``"old"`` / ``"new"`` when the report names none)."""
    comp = comparison_of(report)
    old = comp.get("old") or (report.get("old") or {}).get("name") or "old"
    new = comp.get("new") or (report.get("new") or {}).get("name") or "new"
    return str(old), str(new)


def scope_blocks(report: dict[str, Any]) -> list[tuple[str, str | None, dict[str, Any]]]:
    """``(scope, type, block)``: every type (sorted), then the overall block."""
    comp = comparison_of(report)
    out: list[tuple[str, str | None, dict[str, Any]]] = [
        ("type", str(label), block or {}) for label, block in sorted((comp.get("per_type") or {}).items())]
    out.append((OVERALL, None, comp.get("overall") or {}))
    return out


def figure_cell(block: dict[str, Any], measure: str, fig: str) -> dict[str, Any]:
    """One figure (``fig`` of p, r, f) of ``measure`` in a scope's block: old, new, delta, direction, ci,
    p-values, regression; empty when the block has none."""
    return (block.get(measure) or {}).get(fig) or {}


def confidence_label(report: dict[str, Any]) -> str:
    """The interval's name: ``"95% CI"`` from the significance settings, ``"CI"`` when none is given."""
    sig = comparison_of(report).get("significance") or {}
    conf = sig.get("confidence", (report.get("settings") or {}).get("confidence"))
    if conf is None:
        return "CI"
    return f"{100 * float(conf):g}% CI"


# -------------------------------------------------------------- formatting ---

def signed_points(value: Any) -> str:
    """A delta (fraction) as signed percentage points: ``-0.2754`` -> ``"-27.54"``."""
    if value is None:
        return ""
    text = f"{100 * float(value):+.2f}"
    # what rounds to zero is shown as +0.00, never -0.00
    return "+0.00" if text == "-0.00" else text


def interval_text(ci: Any) -> str:
    """An interval of a delta as ``[-1.20, +0.40]`` (signed points); ``n/a`` when it is missing."""
    if not ci or len(ci) != 2 or ci[0] is None or ci[1] is None:
        return "n/a"
    return f"[{signed_points(ci[0])}, {signed_points(ci[1])}]"


def direction_arrow(direction: Any) -> str:
    """▲ up, ▼ down, = same; empty for anything else."""
    return ARROWS.get(str(direction), "")


def delta_text(cell: dict[str, Any]) -> str:
    """``"▼ -27.54"``: arrow and signed points (``"="`` alone when nothing moved)."""
    if not cell:
        return ""
    if cell.get("direction") == "same":
        return "= " + signed_points(cell.get("delta"))
    return f"{direction_arrow(cell.get('direction'))} {signed_points(cell.get('delta'))}".strip()


def stats_text(cell: dict[str, Any], confidence: str) -> str:
    """Interval and p-values of one figure, in plain text."""
    return (f"{confidence} {interval_text(cell.get('ci'))} points · p bootstrap {figure(cell.get('p_bootstrap'))}"
            f" · p randomization {figure(cell.get('p_randomization'))}")


def figure_name(measure: str, fig: str) -> str:
    """``"strict F"``: the measure and the figure's name."""
    return f"{measure} {FIGURE_NAMES.get(fig, fig)}"


def regression_text(reg: dict[str, Any], confidence: str) -> str:
    """One flagged figure in plain text (escape it for the target format)."""
    return (f"{reg.get('scope', '?')} · {figure_name(str(reg.get('measure', '?')), str(reg.get('figure', '?')))}: "
            f"{pct(reg.get('old'))} → {pct(reg.get('new'))} ({signed_points(reg.get('delta'))} points, "
            f"{stats_text(reg, confidence)})")


def span_text(span: dict[str, Any] | None) -> str:
    """``LABEL [start:end] "text"`` (plain; escape for the target format); empty for None."""
    if not span:
        return ""
    text = f' "{span["text"]}"' if span.get("text") is not None else ""
    return f"{span.get('label', '?')} [{span.get('start', '?')}:{span.get('end', '?')}]{text}"


def change_counts(changes: Sequence[dict[str, Any]]) -> str:
    """``"1 fixed, 2 broken, 0 changed"`` (then any other kind of change, sorted)."""
    counts = Counter(str(c.get("change")) for c in changes)
    parts = [f"{counts.pop(name, 0)} {name}" for name in CHANGES]
    parts += [f"{n} {name}" for name, n in sorted(counts.items())]
    return ", ".join(parts)


def settings_items(report: dict[str, Any]) -> list[tuple[str, str]]:
    """``(name, value)`` of the run's settings and significance (mode, measures, gate, max drop, samples, seed,
    confidence, sets, pairing, F-beta, threshold, types), as plain text."""
    s = report.get("settings") or {}
    sig = comparison_of(report).get("significance") or {}
    max_drop = sig.get("max_drop", s.get("max_drop"))
    gate = sig.get("gate", s.get("gate")) or []
    items = [("mode", report.get("mode", "?")),
             ("measures", ", ".join(run_measures(report))),
             ("gate", ", ".join(FIGURE_NAMES.get(str(g), str(g)) for g in gate) or "none"),
             ("max drop", "?" if max_drop is None else f"{100 * float(max_drop):.2f} points"),
             ("samples", sig.get("n_samples", s.get("n_samples", "?"))),
             ("seed", sig.get("seed", s.get("seed", "?"))),
             ("confidence", sig.get("confidence", s.get("confidence", "?"))),
             ("key set", s.get("key_set", "?")), ("response set", s.get("response_set", "?")),
             ("pairing", s.get("pairing", "?")), ("F-beta", s.get("beta", "?")),
             ("threshold", s.get("threshold", "?"))]
    if s.get("types"):
        items.append(("types", ", ".join(map(str, s["types"]))))
    return [(k, str(v)) for k, v in items]


# -------------------------------------------------------------------- rows ---

def benchmark_rows(report: dict[str, Any]) -> list[dict[str, Any]]:
    """The comparison as flat rows, one per (scope, measure, figure), for a DataFrame or CSV.

    Rows: every type (sorted) with ``scope="type"`` and ``type`` the label,
    then the overall figures with ``scope="overall"`` and ``type=None``; within
    each, the measures in settings order and the figures p, r, f. Columns (see
    :data:`ROW_COLUMNS`): ``old``, ``new``, ``delta`` (fractions, as in the
    report), ``direction`` (up, down, same), ``ci_low`` / ``ci_high`` (the
    bootstrap interval of the delta), ``p_bootstrap``, ``p_randomization`` and
    ``regression`` (bool). Values are copied from the report, never recomputed.
    """
    measures = run_measures(report)
    rows = []
    for scope, label, block in scope_blocks(report):
        for m in measures:
            for k in FIGURES:
                cell = figure_cell(block, m, k)
                ci = cell.get("ci") or (None, None)
                rows.append({"scope": scope, "type": label, "measure": m, "figure": k, "old": cell.get("old"),
                             "new": cell.get("new"), "delta": cell.get("delta"), "direction": cell.get("direction"),
                             "ci_low": ci[0], "ci_high": ci[1], "p_bootstrap": cell.get("p_bootstrap"),
                             "p_randomization": cell.get("p_randomization"),
                             "regression": bool(cell.get("regression", False))})
    return rows


def benchmark_dataframe(report: dict[str, Any]) -> Any:
    """The rows of :func:`benchmark_rows` as a ``pandas.DataFrame`` (pandas is an optional dependency)."""
    try:
        import pandas as pd
    except ImportError as err:
        raise ImportError("benchmark_dataframe needs pandas: pip install pandas (or use benchmark_rows(), which "
                          "needs nothing)") from err
    return pd.DataFrame.from_records(benchmark_rows(report), columns=list(ROW_COLUMNS))

