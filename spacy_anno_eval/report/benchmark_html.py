"""The benchmark comparison as one self-contained HTML page (:func:`render_benchmark_html`).

Sections: the verdict banner, the settings and significance line, the two
versions, the per-type table, the changed documents (overall and by type), the
changed annotations and, in verbose mode, the types below the threshold (see
:mod:`spacy_anno_eval.report.benchmark`). :func:`verdict_html` and
:func:`type_table` are also the notebook's fragment
(:func:`spacy_anno_eval.report.notebook.benchmark_html`). The report is read and
its figures written as text by :mod:`~.benchmark_rows`; nothing is computed here.

Escaping: every document text, label, id, name and value goes through
:func:`spacy_anno_eval.report.html.esc` (element content and quoted
attributes); class names come from fixed sets only. The page reuses the Corpus
QA page's stylesheet, its script (sortable tables) and its
Content-Security-Policy, which pins that script by hash, so it works offline
from a ``file://`` URL.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .benchmark_rows import (
    ARROWS,
    CHANGES,
    FIGURE_NAMES,
    FIGURES,
    OVERALL,
    change_counts,
    comparison_of,
    confidence_label,
    delta_text,
    figure_cell,
    figure_name,
    interval_text,
    regression_text,
    run_measures,
    scope_blocks,
    settings_items,
    stats_text,
    version_names,
)
from .html import STATUS_COLOURS, STATUS_TITLES, esc, html_page, side_cells
from .rows import figure, pct

__all__ = ["MAX_CHANGES", "MAX_DOCS", "render_benchmark_html", "type_table", "verdict_html"]

MAX_CHANGES = 5000
MAX_DOCS = 5000


_BENCH_CSS = """
.verdict{padding:10px 14px;border-radius:8px;margin:10px 0;font-size:15px}
.verdict.bad{background:#ffebe9;border:1px solid #cf222e;color:#82071e}
.verdict.good{background:#dafbe1;border:1px solid #1a7f37;color:#116329}
.verdict ul{margin:6px 0 0;padding-left:20px;font-size:13px}
.versions{display:grid;grid-template-columns:1fr 1fr;gap:12px;margin:8px 0}
.version{border:1px solid var(--line);border-radius:8px;padding:6px 12px}
.version h3{margin:4px 0}
table.kv th{background:var(--head);font-weight:normal;color:var(--muted)}
.toc{margin:8px 0}.toc a{color:var(--accent)}
.up{color:#1a7f37}.down{color:#cf222e}.same{color:var(--muted)}
td small{display:block;color:var(--muted);font-size:11px}
td.reg{background:#ffebe9;box-shadow:inset 0 0 0 2px #cf222e;font-weight:600}
td.reg small.flag{color:#cf222e;font-weight:700}
th.grp{text-align:center}
.m-first{border-left:2px solid #8c959f}
td.change{font-weight:600;white-space:nowrap}
tr.ch-fixed td.change{background:#b7e4c7}tr.ch-broken td.change{background:#ffa8a8}
tr.ch-changed td.change{background:#ffe8a3}
.chip.ch-fixed{background:#b7e4c7}.chip.ch-broken{background:#ffa8a8}.chip.ch-changed{background:#ffe8a3}
"""


def _html_delta(cell: dict[str, Any], confidence: str, tip: str | None = None, group: int | None = None) -> str:
    """A Δ cell: arrow and signed points, sorted by the raw delta; ``tip`` (default: interval and p-values);
    ``group``: the position of its measure's column group."""
    mg = "" if group is None else f' data-mg="{int(group)}"'
    if not cell:
        return f'<td class="num"{mg}></td>'
    direction = str(cell.get("direction"))
    cls = ["num"] + (["reg"] if cell.get("regression") else [])
    tip = stats_text(cell, confidence) if tip is None else tip
    small = ""
    if cell.get("regression"):
        tip = "Regression · " + tip
        small = (f'<small class="flag">regression</small><small>p {esc(figure(cell.get("p_bootstrap"), 3))} · '
                 f"{esc(interval_text(cell.get('ci')))}</small>")
    elif direction != "same" and cell.get("p_bootstrap") is not None:
        small = f'<small>p {esc(figure(cell.get("p_bootstrap"), 3))}</small>'
    arrow_cls = direction if direction in ARROWS else "same"
    value = "" if cell.get("delta") is None else repr(float(cell["delta"]))
    return (f'<td class="{" ".join(cls)}"{mg} data-v="{esc(value)}" title="{esc(tip)}">'
            f'<span class="{arrow_cls}">{esc(delta_text(cell))}</span>{small}</td>')


def _html_value(value: Any, first: bool = False, group: int | None = None) -> str:
    v = "" if value is None else repr(float(value))
    mg = "" if group is None else f' data-mg="{int(group)}"'
    return f'<td class="num{" m-first" if first else ""}"{mg} data-v="{esc(v)}">{esc(pct(value))}</td>'


def _measure_toggles(report: dict[str, Any], measures: Sequence[str]) -> tuple[str, str]:
    """A checkbox per measure that shows or hides its column group (the cells marked ``data-mg`` in any
    table of the page), the first measure shown so the page fits a 1400 px window, with the count of
    regressions beside each; and the CSS that does it (``:has()``, no script: without it every group
    shows and a table wider than the page scrolls in its own box).
    Groups are named by position (``data-mg="0"`` ...), never by a name from the data."""
    regressions = comparison_of(report).get("regressions") or []
    boxes, css = [], []
    for i, m in enumerate(measures):
        n = sum(1 for r in regressions if r.get("measure") == m)
        flag = f' <span class="down">{n} regression(s)</span>' if n else ""
        boxes.append(f'<label><input type="checkbox" id="show-mg-{i}"{" checked" if i == 0 else ""}> '
                     f"{esc(m)}{flag}</label>")
        css.append(f'body:has(#show-mg-{i}:not(:checked)) [data-mg="{i}"]{{display:none}}')
    html = ('<div class="filters measure-toggles" role="group" aria-label="measures shown">Show measures: '
            + "".join(boxes) + "</div>")
    return html, "\n".join(css) + "\n"


def _support_cell(support: dict[str, Any] | None, side: str) -> str:
    if not support:
        return '<td class="num"></td>'
    old = (support.get("old") or {}).get(side)
    new = (support.get("new") or {}).get(side)
    text = str(new) if old == new else f"{old} → {new}"
    return f'<td class="num" data-v="{esc("" if new is None else new)}">{esc(text)}</td>'


def type_table(report: dict[str, Any], measures: Sequence[str]) -> str:
    """The per-type table: a row per type, then the overall row; for each measure old, new and Δ of P, R and F
    (interval and p-values in each Δ's tooltip, regressions highlighted), each measure's columns marked with its
    group (``data-mg``) for the measure checkboxes."""
    comp = comparison_of(report)
    support = comp.get("support") or {}
    confidence = confidence_label(report)
    top = ('<tr><th colspan="3"></th>'
           + "".join(f'<th scope="colgroup" colspan="{3 * len(FIGURES)}" class="grp m-first" data-mg="{g}">'
                     f"{esc(m)}</th>" for g, m in enumerate(measures)) + "</tr>")
    cols = ['<th scope="col">Type</th>', '<th scope="col">Key</th>', '<th scope="col">Response</th>']
    for g, _ in enumerate(measures):
        for i, k in enumerate(FIGURES):
            name = FIGURE_NAMES[k]
            first = ' class="m-first"' if i == 0 else ""
            cols += [f'<th scope="col"{first} data-mg="{g}">{name} old</th>',
                     f'<th scope="col" data-mg="{g}">{name} new</th>', f'<th scope="col" data-mg="{g}">{name} Δ</th>']
    head = f"<thead>{top}<tr>{''.join(cols)}</tr></thead>"

    def row(scope: str, label: str | None, block: dict[str, Any]) -> str:
        name = OVERALL if label is None else label
        cells = [f'<th scope="row">{esc(name)}</th>']
        sup = None if label is None else support.get(label)
        cells += [_support_cell(sup, "key"), _support_cell(sup, "response")]
        flagged = False
        for g, m in enumerate(measures):
            for i, k in enumerate(FIGURES):
                cell = figure_cell(block, m, k)
                flagged = flagged or bool(cell.get("regression"))
                cells += [_html_value(cell.get("old"), first=i == 0, group=g), _html_value(cell.get("new"), group=g),
                          _html_delta(cell, confidence, group=g)]
        cls = ["summary"] if label is None else []
        if flagged:
            cls.append("has-reg")
        attr = f' class="{" ".join(cls)}"' if cls else ""
        return f'<tr{attr} data-scope="{esc(scope)}" data-type="{esc(name)}">{"".join(cells)}</tr>'

    scopes = scope_blocks(report)
    body = "".join(row(*s) for s in scopes if s[0] != OVERALL)
    foot = "".join(row(*s) for s in scopes if s[0] == OVERALL)
    return (f'<table class="stats sortable" id="type-table">{head}<tbody>{body}</tbody>'
            f"<tfoot>{foot}</tfoot></table>")


def _truncation_note(shown: int, total: int, what: str, option: str) -> str:
    if total <= shown:
        return ""
    return (f'<p class="note">Showing the first {shown} of {total} {esc(what)} ({total - shown} left out; raise '
            f"<code>{esc(option)}</code> to show more); the JSON report holds all of them.</p>")


def _doc_measure_head(measures: Sequence[str]) -> list[str]:
    """The header cells of the document tables' measure groups (F old and new, the Δ of P, R and F), each
    marked with its group (``data-mg``) so the measure checkboxes show or hide it."""
    cols = []
    for g, m in enumerate(measures):
        cols += [f'<th scope="col" class="m-first" data-mg="{g}">F {esc(m)} old</th>',
                 f'<th scope="col" data-mg="{g}">F {esc(m)} new</th>']
        cols += [f'<th scope="col" data-mg="{g}">{FIGURE_NAMES[k]} {esc(m)} Δ</th>' for k in FIGURES]
    return cols


def _doc_table(report: dict[str, Any], measures: Sequence[str], max_docs: int) -> str:
    docs = comparison_of(report).get("per_doc") or []
    if not docs:
        return '<p class="note">No document changed its figures.</p>'
    shown = docs[:max(0, max_docs)]
    confidence = confidence_label(report)
    cols = ['<th scope="col">Document</th>', *_doc_measure_head(measures)]
    rows = []
    for entry in shown:
        cells = [f'<th scope="row"><code>{esc(entry.get("id", entry.get("doc", "?")))}</code></th>']
        for g, m in enumerate(measures):
            f_cell = figure_cell(entry, m, "f")
            cells += [_html_value(f_cell.get("old"), first=True, group=g), _html_value(f_cell.get("new"), group=g)]
            for k in FIGURES:
                cell = figure_cell(entry, m, k)
                # per-document figures carry no interval or p-value: the tooltip gives old -> new
                tip = f"{pct(cell.get('old'))} → {pct(cell.get('new'))}"
                cells.append(_html_delta(cell, confidence, tip, group=g))
        rows.append(f'<tr data-doc="{esc(entry.get("doc", ""))}">{"".join(cells)}</tr>')
    head = f"<thead><tr>{''.join(cols)}</tr></thead>"
    return (f'<p class="muted">{len(docs)} document(s) whose figures changed. Percentages; Δ in points.</p>'
            f'<table class="stats sortable" id="doc-table">{head}<tbody>{"".join(rows)}</tbody></table>'
            + _truncation_note(len(shown), len(docs), "changed documents", "max_docs")
            + _doc_type_table(report, measures, shown))


def _doc_type_table(report: dict[str, Any], measures: Sequence[str], docs: Sequence[dict[str, Any]]) -> str:
    """The changed documents broken down by type (GATE user guide 10.4.4): one row per document and type it
    has, with key and response totals, F old and new and the Δ of P, R and F for each measure."""
    confidence = confidence_label(report)
    cols = ['<th scope="col">Document</th>', '<th scope="col">Type</th>', '<th scope="col">Key</th>',
            '<th scope="col">Response</th>', *_doc_measure_head(measures)]
    rows = []
    for entry in docs:
        doc_id = esc(entry.get("id", entry.get("doc", "?")))
        for label, block in sorted((entry.get("per_type") or {}).items()):
            block = block or {}
            sup = block.get("support")
            cells = [f"<td><code>{doc_id}</code></td>", f'<th scope="row">{esc(label)}</th>',
                     _support_cell(sup, "key"), _support_cell(sup, "response")]
            for g, m in enumerate(measures):
                f_cell = figure_cell(block, m, "f")
                cells += [_html_value(f_cell.get("old"), first=True, group=g),
                          _html_value(f_cell.get("new"), group=g)]
                for k in FIGURES:
                    cell = figure_cell(block, m, k)
                    cells.append(_html_delta(cell, confidence, f"{pct(cell.get('old'))} → {pct(cell.get('new'))}",
                                             group=g))
            changed = "true" if block.get("changed") else "false"
            rows.append(f'<tr data-doc="{esc(entry.get("doc", ""))}" data-type="{esc(label)}" '
                        f'data-changed="{changed}">{"".join(cells)}</tr>')
    if not rows:
        return ""
    return ('<h3>By type</h3><p class="muted">The same documents, one row per type each has (in either '
            "version). Percentages; Δ in points.</p>"
            f'<table class="stats sortable" id="doc-type-table"><thead><tr>{"".join(cols)}</tr></thead>'
            f'<tbody>{"".join(rows)}</tbody></table>')


def _status_cell(status: Any) -> str:
    if status is None:
        return '<td class="status muted">absent</td>'
    st = str(status)
    cls = f" st-{st}" if st in STATUS_COLOURS else ""
    return f'<td class="status{cls}">{esc(STATUS_TITLES.get(st, st))}</td>'


def _response_cell(span: dict[str, Any] | None) -> str:
    if not span:
        return "<td></td>"
    text = span.get("text")
    return (f'<td><span class="lbl">{esc(span.get("label", "?"))}</span> '
            f'<span class="muted">[{esc(span.get("start", "?"))}:{esc(span.get("end", "?"))}]</span>'
            + (f' <span class="txt">{esc(text)}</span>' if text is not None else "") + "</td>")


_CHANGE_COLUMNS = ("Change", "Document", "Start", "End", "Key", "Key text", "Key features", "Old status",
                   "Old response", "New status", "New response")


def _changes_table(report: dict[str, Any], max_changes: int) -> str:
    changes = comparison_of(report).get("changes") or []
    if not changes:
        return '<p class="note">No annotation changed its status.</p>'
    shown = changes[:max(0, max_changes)]
    rows = []
    for c in shown:
        change = str(c.get("change"))
        cls = f"ch-{change}" if change in CHANGES else "ch-other"
        old, new = c.get("old") or {}, c.get("new") or {}
        rows.append(f'<tr class="{cls}" data-change="{esc(change)}"><td class="change">{esc(change)}</td>'
                    f'<td><code>{esc(c.get("doc_id", c.get("doc", "?")))}</code></td>{side_cells(c.get("key"))}'
                    f'{_status_cell(old.get("status"))}{_response_cell(old.get("response"))}'
                    f'{_status_cell(new.get("status"))}{_response_cell(new.get("response"))}</tr>')
    head = "<thead><tr>" + "".join(f'<th scope="col">{esc(c)}</th>' for c in _CHANGE_COLUMNS) + "</tr></thead>"
    legend = "".join(f'<span class="chip ch-{name}">{name}</span>' for name in CHANGES)
    return (f'<p class="muted">{len(changes)} annotation(s): {esc(change_counts(changes))}. Fixed: now correct, '
            "or a spurious response gone; broken: was correct, or a new spurious response; changed: any other "
            f'change of status. <span class="legend">{legend}</span></p>'
            f'<table class="diff sortable" id="changes-table">{head}<tbody>{"".join(rows)}</tbody></table>'
            + _truncation_note(len(shown), len(changes), "changed annotations", "max_changes"))


def _below_threshold(report: dict[str, Any], max_rows: int) -> str:
    """The verbose mode's types below the threshold, for each side that has them; empty when none has."""
    threshold = (report.get("settings") or {}).get("threshold", "?")
    parts = []
    for side, what in (("new", "New"), ("old", "Old")):
        entry = report.get(side) or {}
        if "below_threshold" not in entry:
            continue
        low = entry.get("below_threshold") or {}
        parts.append(f"<h3>{what}: <code>{esc(entry.get('name', side))}</code></h3>")
        if not low:
            parts.append(f'<p class="note">No type has a P or R below {esc(threshold)}.</p>')
            continue
        head = ('<thead><tr><th scope="col">Document</th><th scope="col">Start</th><th scope="col">End</th>'
                '<th scope="col">Key</th><th scope="col">Key text</th><th scope="col">Key features</th>'
                '<th scope="col">Status</th><th scope="col">Start</th><th scope="col">End</th>'
                '<th scope="col">Response</th><th scope="col">Response text</th>'
                '<th scope="col">Response features</th></tr></thead>')
        for label, info in sorted(low.items()):
            info = info or {}
            figures = " · ".join(f"{esc(figure_name(*name.split('.', 1)) if '.' in name else name)} "
                                 f"<b>{esc(pct(value))}</b>" for name, value in (info.get("figures") or {}).items())
            annotations = info.get("annotations") or []
            shown = annotations[:max(0, max_rows)]
            rows = "".join(
                f'<tr data-status="{esc(a.get("status", ""))}"><td><code>{esc(a.get("doc_id", a.get("doc", "?")))}'
                f'</code></td>{side_cells(a.get("key"))}{_status_cell(a.get("status"))}'
                f'{side_cells(a.get("response"))}</tr>' for a in shown)
            parts.append(f'<h4>{esc(label)}</h4><p class="muted">{figures}</p>')
            if annotations:
                parts.append(f'<table class="diff sortable">{head}<tbody>{rows}</tbody></table>'
                             + _truncation_note(len(shown), len(annotations), f"annotations of {label}",
                                                "max_changes"))
            else:
                parts.append('<p class="note">No non-coextensive annotation.</p>')
    if not parts:
        return ""
    return (f'<p class="muted">Types whose P or R (any measure) is below {esc(threshold)}, with every pair of '
            "that type that is not correct (GATE verbose mode).</p>" + "".join(parts))


def verdict_html(report: dict[str, Any]) -> str:
    """The verdict banner: the regressions with their figures, or that no gated figure dropped."""
    comp = comparison_of(report)
    regressions = comp.get("regressions") or []
    confidence = confidence_label(report)
    if comp.get("verdict") == "regression" or regressions:
        items = "".join(f"<li>{esc(regression_text(r, confidence))}</li>" for r in regressions)
        return (f'<div class="verdict bad" id="verdict" role="alert"><b>Regression</b>: {len(regressions)} '
                f"figure(s) dropped significantly.<ul>{items}</ul></div>")
    return ('<div class="verdict good" id="verdict"><b>No regression</b>: no gated figure dropped '
            "significantly.</div>")


def _manifest_rows(manifest: dict[str, Any]) -> str:
    rows = []
    model = manifest.get("model")
    if isinstance(model, dict):
        model_text = " ".join(str(model[k]) for k in ("name", "version") if model.get(k))
        if model.get("lang"):
            model_text += f" ({model['lang']})"
        if model.get("pipeline"):
            model_text += " · " + ", ".join(map(str, model["pipeline"]))
    else:
        model_text = "" if model is None else str(model)
    items = [("Model", model_text), ("Stored at", manifest.get("stored_at")), ("Source", manifest.get("source")),
             ("Documents", manifest.get("n_docs")), ("Annotations", manifest.get("n_entities")),
             ("spaCy", manifest.get("spacy_version"))]
    for key, value in items:
        if value not in (None, ""):
            rows.append(f'<tr><th scope="row">{esc(key)}</th><td>{esc(value)}</td></tr>')
    for key in ("config_hash", "corpus_hash"):
        if manifest.get(key):
            value = str(manifest[key])
            rows.append(f'<tr><th scope="row">{esc(key.replace("_", " "))}</th><td title="{esc(value)}">'
                        f"<code>{esc(value[:12])}</code></td></tr>")
    return "".join(rows)


def _versions(report: dict[str, Any]) -> str:
    old_name, new_name = version_names(report)
    parts = []
    for side, what, name in (("old", "Old (baseline)", old_name), ("new", "New", new_name)):
        manifest = (report.get(side) or {}).get("manifest") or {}
        parts.append(f'<div class="version" id="version-{side}"><h3>{esc(what)}: <code>{esc(name)}</code></h3>'
                     f'<table class="kv"><tbody>{_manifest_rows(manifest)}</tbody></table></div>')
    return f'<div class="versions">{"".join(parts)}</div>'


def render_benchmark_html(report: dict[str, Any], *, title: str | None = None, max_changes: int = MAX_CHANGES,
                          max_docs: int = MAX_DOCS) -> str:
    """The benchmark comparison as one self-contained HTML page (no network access, works from ``file://``).

    Sections: the verdict banner, the settings and significance line, the two
    versions, the per-type table (old, new and Δ of P/R/F for every measure;
    interval and p-values in each Δ cell's tooltip, regressions highlighted),
    the changed documents, the changed annotations and, in verbose mode, the
    types below the threshold. ``max_docs`` caps the rows of the document
    table, ``max_changes`` those of the changed annotations and of each type
    below the threshold; a note says how many were left out.
    """
    old_name, new_name = version_names(report)
    title = title or f"Benchmark: {old_name} → {new_name}"
    measures = run_measures(report)
    sig = comparison_of(report).get("significance") or {}
    settings = " · ".join(f"{esc(k)} <code>{esc(v)}</code>" for k, v in settings_items(report))
    method = f'<div class="muted">Significance: {esc(sig["method"])}.</div>' if sig.get("method") else ""
    toggles, toggles_css = _measure_toggles(report, measures)
    sections = [("per-type", "Per-type figures",
                 '<p class="muted">Percentages; Δ in points (▲ up, ▼ down, = same). Hover a Δ for its '
                 f"{esc(confidence_label(report))} and p-values; a highlighted Δ is a regression. Click a header to "
                 "sort.</p>" + toggles + type_table(report, measures)),
                ("documents", "Changed documents", _doc_table(report, measures, max_docs)),
                ("changes", "Changed annotations", _changes_table(report, max_changes))]
    below = _below_threshold(report, max_changes)
    if below:
        sections.append(("below-threshold", "Types below the threshold", below))
    toc = " · ".join(f'<a href="#{key}">{esc(name)}</a>' for key, name, _ in sections)
    body = "".join(f'<section id="{key}"><h2>{esc(name)}</h2>{content}</section>' for key, name, content in sections)
    header = (f'{verdict_html(report)}<div class="muted">{settings}</div>{method}{_versions(report)}'
              f'<nav class="toc">{toc}</nav>')
    return html_page(title, header, f"\n{body}\n", css=_BENCH_CSS + toggles_css)

