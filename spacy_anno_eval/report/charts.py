"""Pictures for the HTML report: a per-type F bar chart (inline SVG) and the label confusion heat map, and
the "Errors" panel that holds the error-analysis sections.

Everything is inline (SVG elements and style attributes): no script, no
image from elsewhere, so the page's Content-Security-Policy stays as strict
as it is. Every label is escaped. Renderers only: the figures come from the
report dict (``per_type``, ``decisions``, ``confusion``, ``intervals``).
"""

from __future__ import annotations

from typing import Any

from .escape import esc
from .rows import figure, pct, shorten

BAR_WIDTH = 320
ROW = 20
LABEL_WIDTH = 150


def type_f_chart(report: dict[str, Any], measure: str = "strict", chart_id: str | None = "type-chart") -> str:
    """One horizontal bar per type: its ``measure`` F (micro over its annotations), the value written beside
    it; the full type name is the bar's tooltip. ``chart_id``: the figure's id (``None``: none)."""
    per_type = report.get("per_type") or {}
    if not per_type:
        return ""
    rows = []
    for i, (label, entry) in enumerate(sorted(per_type.items())):
        f = float(entry[measure]["f"])
        y = i * ROW
        width = max(round(f * BAR_WIDTH), 1)
        rows.append(f'<g class="bar"><title>{esc(label)}: F {esc(measure)} {pct(f)}</title>'
                    f'<text x="{LABEL_WIDTH - 6}" y="{y + 14}" text-anchor="end">{esc(shorten(label, 22))}</text>'
                    f'<rect x="{LABEL_WIDTH}" y="{y + 3}" width="{width}" height="{ROW - 6}" fill="#3a7bd5"></rect>'
                    f'<text x="{LABEL_WIDTH + width + 4}" y="{y + 14}">{pct(f)}</text></g>')
    height = len(rows) * ROW
    ident = f' id="{esc(chart_id)}"' if chart_id else ""
    return (f'<figure class="chart"{ident}><figcaption>F {esc(measure)} per type (%)</figcaption>'
            f'<svg xmlns="http://www.w3.org/2000/svg" role="img" width="{LABEL_WIDTH + BAR_WIDTH + 60}" '
            f'height="{height}" style="font:12px sans-serif">{"".join(rows)}</svg></figure>')


def heatmap(confusion: dict[str, Any], caption: str) -> str:
    """The confusion matrix as a table whose cells are shaded by their count: green on the diagonal, red
    off it (darker = more), each cell's tooltip naming both labels."""
    names = confusion["labels"]
    matrix = confusion["matrix"]
    off = [v for i, row in enumerate(matrix) for j, v in enumerate(row) if i != j]
    top_off = max(off, default=0) or 1
    top_diag = max((matrix[i][i] for i in range(len(names))), default=0) or 1
    head = '<th scope="col" class="corner">key \\ response</th>' + "".join(f'<th scope="col">{esc(n)}</th>'
                                                                            for n in names)
    body = []
    for i, (name, row) in enumerate(zip(names, matrix, strict=True)):
        cells = []
        for j, v in enumerate(row):
            share = v / (top_diag if i == j else top_off)
            colour = (f"rgba(46,160,67,{0.15 + 0.7 * share:.2f})" if i == j else
                      f"rgba(208,28,28,{0.1 + 0.75 * share:.2f})") if v else "transparent"
            cells.append(f'<td class="num" style="background:{colour}" title="key {esc(name)} → response '
                         f'{esc(names[j])}: {esc(v)}">{esc(v)}</td>')
        body.append(f'<tr><th scope="row">{esc(name)}</th>{"".join(cells)}</tr>')
    return (f'<h3>{esc(caption)}</h3><table class="stats heat">'
            f'<thead><tr>{head}</tr></thead><tbody>{"".join(body)}</tbody></table>')


DECISION_TITLES = (("correct", "Correct"), ("label_error", "Label error"), ("boundary_error", "Boundary error"),
                   ("boundary_and_label_error", "Boundary and label error"), ("missing", "Missing"),
                   ("spurious", "Spurious"))


def decision_table(decisions: dict[str, Any], table_id: str | None = "decision-table") -> str:
    """The decision counts (:meth:`~spacy_anno_eval.spans.counts.Evaluation.decision_counts`): a row per type,
    then the "all" row; ``table_id``: the table's id (``None``: none, as in a notebook, where ids collide)."""
    head = '<th scope="col">Type</th>' + "".join(f'<th scope="col">{esc(t)}</th>' for _, t in DECISION_TITLES)
    rows = "".join(f'<tr><th scope="row">{esc(label)}</th>'
                   + "".join(f'<td class="num">{esc(c[k])}</td>' for k, _ in DECISION_TITLES) + "</tr>"
                   for label, c in sorted(decisions["per_type"].items()))
    foot = ('<tr class="summary"><th scope="row">all</th>'
            + "".join(f'<td class="num">{esc(decisions["micro"][k])}</td>' for k, _ in DECISION_TITLES) + "</tr>")
    ident = f' id="{esc(table_id)}"' if table_id else ""
    return (f'<table class="stats sortable decisions"{ident}><thead><tr>{head}</tr></thead><tbody>{rows}</tbody>'
            f"<tfoot>{foot}</tfoot></table>")


DECISIONS_NOTE = ("Each decision of the alignment: a label error is the same span with another type, a boundary "
                  "error an overlap with the same type (partial), a boundary and label error an overlap with "
                  "another type.")


def analysis_panel(report: dict[str, Any]) -> str:
    """The Errors tab: the decision counts per type, the heat maps and the micro intervals, those present."""
    parts = [f'<p class="muted">{DECISIONS_NOTE}</p>', decision_table(report["decisions"])]
    confusion = report.get("confusion") or {}
    for mode, caption in (("coextensive", "Label confusion (same span)"), ("any", "Label confusion (any overlap)")):
        if mode in confusion:
            parts.append(heatmap(confusion[mode], caption))
    from .bucket_charts import bucket_charts

    parts.append(bucket_charts(report))
    intervals = report.get("intervals")
    if intervals:
        cells = "".join(f'<tr><th scope="row">{esc(m)}</th>'
                        + "".join(f'<td class="num">{figure(v)} [{figure(lo)}, {figure(hi)}]</td>'
                                  for k, (lo, hi) in intervals["micro"][m].items()
                                  for v in [report["micro"][m][k]]) + "</tr>"
                        for m in intervals["micro"])
        parts.append(f'<h3>{intervals["confidence"]:.0%} intervals (micro; {esc(intervals["method"])}, '
                     f'{esc(intervals["n_samples"])} samples)</h3><table class="stats" id="interval-table"><thead>'
                     '<tr><th scope="col">Measure</th><th scope="col">P</th><th scope="col">R</th>'
                     f'<th scope="col">F</th></tr></thead><tbody>{cells}</tbody></table>')
    return "".join(parts)


__all__ = ["DECISIONS_NOTE", "DECISION_TITLES", "analysis_panel", "decision_table", "heatmap",
           "type_f_chart"]
