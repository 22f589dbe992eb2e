"""The benchmark comparison as Markdown (:func:`render_benchmark_markdown`).

The verdict, the settings, the per-type delta table, the regressions, the
changed documents (overall, then by type) and the changed annotations (see
:mod:`spacy_anno_eval.report.benchmark`). The report is read and its figures
written as text by :mod:`~.benchmark_rows`; nothing is computed here.

Escaping: cell text goes through
:func:`spacy_anno_eval.report.markdown.md_escape`, so ``|`` and line breaks
cannot break a table and ``<``, ``>``, ``&`` become entities.
"""

from __future__ import annotations

from typing import Any

from .benchmark_rows import (
    FIGURE_NAMES,
    FIGURES,
    OVERALL,
    change_counts,
    comparison_of,
    confidence_label,
    delta_text,
    direction_arrow,
    figure_cell,
    figure_name,
    interval_text,
    run_measures,
    scope_blocks,
    settings_items,
    signed_points,
    span_text,
    version_names,
)
from .markdown import markdown_table, md_escape
from .rows import figure, pct

__all__ = ["MAX_MD_CHANGES", "render_benchmark_markdown"]

MAX_MD_CHANGES = 200


def _md_cell(cell: dict[str, Any]) -> str:
    if not cell:
        return ""
    text = f"{pct(cell.get('old'))} → {pct(cell.get('new'))} {delta_text(cell)}"
    return f"**{text}** (regression)" if cell.get("regression") else text


def render_benchmark_markdown(report: dict[str, Any], *, max_changes: int = MAX_MD_CHANGES) -> str:
    """The benchmark comparison as Markdown: verdict, per-type delta table, regressions, changed annotations.

    ``max_changes`` caps the rows of the changed annotations; a line says how
    many were left out.
    """
    comp = comparison_of(report)
    old_name, new_name = version_names(report)
    measures = run_measures(report)
    confidence = confidence_label(report)
    regressions = comp.get("regressions") or []
    lines = [f"# Benchmark: {md_escape(old_name)} → {md_escape(new_name)}", ""]
    if comp.get("verdict") == "regression" or regressions:
        lines.append(f"**Verdict: REGRESSION** ({len(regressions)} figure(s) dropped significantly)")
    else:
        lines.append("**Verdict: no regression** (no gated figure dropped significantly)")
    lines += ["", " · ".join(f"{md_escape(k)} `{md_escape(v)}`" for k, v in settings_items(report)), ""]

    lines += ["## Per-type figures", "",
              "Old → new in percent, then Δ in points (▲ up, ▼ down, = same); **bold** marks a regression.", ""]
    header = ["Type", *(md_escape(figure_name(m, k)) for m in measures for k in FIGURES)]
    rows = [[md_escape(label) if label is not None else f"**{OVERALL}**",
             *(_md_cell(figure_cell(block, m, k)) for m in measures for k in FIGURES)]
            for _, label, block in scope_blocks(report)]
    lines += markdown_table(header, rows)

    lines += ["", "## Regressions", ""]
    if regressions:
        lines += markdown_table(["Scope", "Measure", "Figure", "Old", "New", "Δ (points)", f"{confidence} (points)",
                         "p bootstrap", "p randomization"],
                        [[md_escape(r.get("scope", "?")), md_escape(r.get("measure", "?")),
                          md_escape(FIGURE_NAMES.get(str(r.get("figure")), r.get("figure", "?"))),
                          pct(r.get("old")), pct(r.get("new")),
                          f"{direction_arrow('down')} {signed_points(r.get('delta'))}",
                          interval_text(r.get("ci")), figure(r.get("p_bootstrap")), figure(r.get("p_randomization"))]
                         for r in regressions])
    else:
        lines.append("None.")

    docs = comp.get("per_doc") or []
    lines += ["", "## Changed documents", ""]
    if docs:
        shown_docs = docs[:max(0, max_changes)]
        lines += [f"{len(docs)} document(s) whose figures changed; each overall, then by type (GATE user guide "
                  "10.4.4). F old → new in percent, then Δ in points.", ""]
        doc_rows = []
        for entry in shown_docs:
            doc_id = md_escape(entry.get("id", entry.get("doc", "?")))
            doc_rows.append([doc_id, f"**{OVERALL}**", *(_md_cell(figure_cell(entry, m, "f")) for m in measures)])
            doc_rows += [[doc_id, md_escape(label), *(_md_cell(figure_cell(block or {}, m, "f")) for m in measures)]
                         for label, block in sorted((entry.get("per_type") or {}).items())]
        lines += markdown_table(["Document", "Type", *(md_escape(figure_name(m, "f")) for m in measures)], doc_rows)
        if len(docs) > len(shown_docs):
            lines += ["", f"Showing the first {len(shown_docs)} of {len(docs)} changed documents "
                          f"({len(docs) - len(shown_docs)} left out); the JSON report holds all of them."]
    else:
        lines.append("No document changed its figures.")

    changes = comp.get("changes") or []
    lines += ["", "## Changed annotations", ""]
    if changes:
        shown = changes[:max(0, max_changes)]
        lines += [f"{len(changes)} annotation(s): {md_escape(change_counts(changes))}.", ""]
        lines += markdown_table(["Change", "Document", "Key", "Old", "New"], [
            [md_escape(c.get("change", "?")), md_escape(c.get("doc_id", c.get("doc", "?"))),
             md_escape(span_text(c.get("key"))),
             *(md_escape(f"{(c.get(s) or {}).get('status') or 'absent'} {span_text((c.get(s) or {}).get('response'))}"
                         .strip()) for s in ("old", "new"))]
            for c in shown])
        if len(changes) > len(shown):
            lines += ["", f"Showing the first {len(shown)} of {len(changes)} changed annotations "
                          f"({len(changes) - len(shown)} left out); the JSON report holds all of them."]
    else:
        lines.append("No annotation changed its status.")
    return "\n".join(lines) + "\n"

