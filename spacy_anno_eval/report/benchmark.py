"""The corpus benchmark's default (and verbose) mode as HTML, Markdown, terminal output and flat rows.

The input is the report dict of :func:`spacy_anno_eval.workflows.benchmark.run_benchmark`
(``result.report``) for the modes ``default`` and ``verbose``: the regression
comparison of an old version (a stored baseline) with a new one (the current
pipeline, or another baseline), both scored against the same gold
(GATE user guide 10.4.4). The renderers show

- the verdict (``regression`` with the flagged figures, or ``ok``), the
  settings and how significance was decided (samples, seed, confidence,
  ``max_drop``, gated figures);
- the two versions (name, model and version, when stored);
- per type, then overall: for each measure and figure (P, R, F) the old and
  new value and the delta with its direction (▲ up, ▼ down, = same), the
  paired bootstrap interval and the bootstrap and randomization p-values, with
  the regressions highlighted;
- the documents whose figures changed, the annotations whose status changed
  (fixed, broken, changed) and, in verbose mode, the types below the
  threshold with their non-coextensive annotations.

Nothing is computed here: every figure, delta, direction, interval, p-value and
the verdict are read from the report dict as they are (renderers only count
rows for headings and truncation notes). Values are fractions in the report
and shown as percentages, deltas as percentage points.

Escaping: in HTML every document text, label, id, name and value goes through
:func:`spacy_anno_eval.report.html.esc` (element content and quoted
attributes); class names come from fixed sets only. The page reuses the Corpus
QA page's stylesheet, its script (sortable tables) and its
Content-Security-Policy, which pins that script by hash, so it works offline
from a ``file://`` URL. In Markdown cell text goes through
:func:`spacy_anno_eval.report.markdown.md_escape`, so ``|`` and line breaks
cannot break a table and ``<``, ``>``, ``&`` become entities. On the terminal
labels and names are ``rich`` ``Text`` objects, never parsed as markup.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from .html import STATUS_COLOURS, STATUS_TITLES, _side_cells, esc, html_page
from .markdown import _table, md_escape
from .rows import figure, pct

__all__ = ["benchmark_dataframe", "benchmark_rows", "print_benchmark", "render_benchmark_html",
           "render_benchmark_markdown"]

FIGURES = ("p", "r", "f")
FIGURE_NAMES = {"p": "P", "r": "R", "f": "F"}
ARROWS = {"up": "▲", "down": "▼", "same": "="}
CHANGES = ("fixed", "broken", "changed")
OVERALL = "overall"

MAX_CHANGES = 5000
MAX_DOCS = 5000
MAX_MD_CHANGES = 200

ROW_COLUMNS = ("scope", "type", "measure", "figure", "old", "new", "delta", "direction", "ci_low", "ci_high",
               "p_bootstrap", "p_randomization", "regression")


# ----------------------------------------------------------------- reading ---

def _comparison(report: dict[str, Any]) -> dict[str, Any]:
    return report.get("comparison") or {}


def _measures(report: dict[str, Any]) -> list[str]:
    """The measures of the run (settings order), else those of the overall comparison."""
    measures = (report.get("settings") or {}).get("measures")
    if isinstance(measures, str):
        measures = [measures]
    if not measures:
        measures = list(_comparison(report).get("overall") or {})
    return [str(m) for m in measures]


def _names(report: dict[str, Any]) -> tuple[str, str]:
    comp = _comparison(report)
    old = comp.get("old") or (report.get("old") or {}).get("name") or "old"
    new = comp.get("new") or (report.get("new") or {}).get("name") or "new"
    return str(old), str(new)


def _scopes(report: dict[str, Any]) -> list[tuple[str, str | None, dict[str, Any]]]:
    """``(scope, type, block)``: every type (sorted), then the overall block."""
    comp = _comparison(report)
    out: list[tuple[str, str | None, dict[str, Any]]] = [
        ("type", str(label), block or {}) for label, block in sorted((comp.get("per_type") or {}).items())]
    out.append((OVERALL, None, comp.get("overall") or {}))
    return out


def _cell(block: dict[str, Any], measure: str, fig: str) -> dict[str, Any]:
    return (block.get(measure) or {}).get(fig) or {}


def _confidence(report: dict[str, Any]) -> str:
    sig = _comparison(report).get("significance") or {}
    conf = sig.get("confidence", (report.get("settings") or {}).get("confidence"))
    if conf is None:
        return "CI"
    return f"{100 * float(conf):g}% CI"


# -------------------------------------------------------------- formatting ---

def _signed(value: Any) -> str:
    """A delta (fraction) as signed percentage points: ``-0.2754`` -> ``"-27.54"``."""
    if value is None:
        return ""
    text = f"{100 * float(value):+.2f}"
    # what rounds to zero is shown as +0.00, never -0.00
    return "+0.00" if text == "-0.00" else text


def _ci_text(ci: Any) -> str:
    if not ci or len(ci) != 2 or ci[0] is None or ci[1] is None:
        return "n/a"
    return f"[{_signed(ci[0])}, {_signed(ci[1])}]"


def _arrow(direction: Any) -> str:
    return ARROWS.get(str(direction), "")


def _delta_text(cell: dict[str, Any]) -> str:
    """``"▼ -27.54"``: arrow and signed points (``"="`` alone when nothing moved)."""
    if not cell:
        return ""
    if cell.get("direction") == "same":
        return "= " + _signed(cell.get("delta"))
    return f"{_arrow(cell.get('direction'))} {_signed(cell.get('delta'))}".strip()


def _stats_text(cell: dict[str, Any], confidence: str) -> str:
    """Interval and p-values of one figure, in plain text."""
    return (f"{confidence} {_ci_text(cell.get('ci'))} points · p bootstrap {figure(cell.get('p_bootstrap'))}"
            f" · p randomization {figure(cell.get('p_randomization'))}")


def _figure_name(measure: str, fig: str) -> str:
    return f"{measure} {FIGURE_NAMES.get(fig, fig)}"


def _regression_text(reg: dict[str, Any], confidence: str) -> str:
    """One flagged figure in plain text (escape it for the target format)."""
    return (f"{reg.get('scope', '?')} · {_figure_name(str(reg.get('measure', '?')), str(reg.get('figure', '?')))}: "
            f"{pct(reg.get('old'))} → {pct(reg.get('new'))} ({_signed(reg.get('delta'))} points, "
            f"{_stats_text(reg, confidence)})")


def _span_text(span: dict[str, Any] | None) -> str:
    """``LABEL [start:end] "text"`` (plain; escape for the target format); empty for None."""
    if not span:
        return ""
    text = f' "{span["text"]}"' if span.get("text") is not None else ""
    return f"{span.get('label', '?')} [{span.get('start', '?')}:{span.get('end', '?')}]{text}"


def _change_counts(changes: Sequence[dict[str, Any]]) -> str:
    counts = Counter(str(c.get("change")) for c in changes)
    parts = [f"{counts.pop(name, 0)} {name}" for name in CHANGES]
    parts += [f"{n} {name}" for name, n in sorted(counts.items())]
    return ", ".join(parts)


def _settings_items(report: dict[str, Any]) -> list[tuple[str, str]]:
    s = report.get("settings") or {}
    sig = _comparison(report).get("significance") or {}
    max_drop = sig.get("max_drop", s.get("max_drop"))
    gate = sig.get("gate", s.get("gate")) or []
    items = [("mode", report.get("mode", "?")),
             ("measures", ", ".join(_measures(report))),
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
    measures = _measures(report)
    rows = []
    for scope, label, block in _scopes(report):
        for m in measures:
            for k in FIGURES:
                cell = _cell(block, m, k)
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


# -------------------------------------------------------------------- HTML ---

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
    tip = _stats_text(cell, confidence) if tip is None else tip
    small = ""
    if cell.get("regression"):
        tip = "Regression · " + tip
        small = (f'<small class="flag">regression</small><small>p {esc(figure(cell.get("p_bootstrap"), 3))} · '
                 f"{esc(_ci_text(cell.get('ci')))}</small>")
    elif direction != "same" and cell.get("p_bootstrap") is not None:
        small = f'<small>p {esc(figure(cell.get("p_bootstrap"), 3))}</small>'
    arrow_cls = direction if direction in ARROWS else "same"
    value = "" if cell.get("delta") is None else repr(float(cell["delta"]))
    return (f'<td class="{" ".join(cls)}"{mg} data-v="{esc(value)}" title="{esc(tip)}">'
            f'<span class="{arrow_cls}">{esc(_delta_text(cell))}</span>{small}</td>')


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
    regressions = _comparison(report).get("regressions") or []
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


def _type_table(report: dict[str, Any], measures: Sequence[str]) -> str:
    comp = _comparison(report)
    support = comp.get("support") or {}
    confidence = _confidence(report)
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
                cell = _cell(block, m, k)
                flagged = flagged or bool(cell.get("regression"))
                cells += [_html_value(cell.get("old"), first=i == 0, group=g), _html_value(cell.get("new"), group=g),
                          _html_delta(cell, confidence, group=g)]
        cls = ["summary"] if label is None else []
        if flagged:
            cls.append("has-reg")
        attr = f' class="{" ".join(cls)}"' if cls else ""
        return f'<tr{attr} data-scope="{esc(scope)}" data-type="{esc(name)}">{"".join(cells)}</tr>'

    scopes = _scopes(report)
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
    docs = _comparison(report).get("per_doc") or []
    if not docs:
        return '<p class="note">No document changed its figures.</p>'
    shown = docs[:max(0, max_docs)]
    confidence = _confidence(report)
    cols = ['<th scope="col">Document</th>', *_doc_measure_head(measures)]
    rows = []
    for entry in shown:
        cells = [f'<th scope="row"><code>{esc(entry.get("id", entry.get("doc", "?")))}</code></th>']
        for g, m in enumerate(measures):
            f_cell = _cell(entry, m, "f")
            cells += [_html_value(f_cell.get("old"), first=True, group=g), _html_value(f_cell.get("new"), group=g)]
            for k in FIGURES:
                cell = _cell(entry, m, k)
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
    confidence = _confidence(report)
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
                f_cell = _cell(block, m, "f")
                cells += [_html_value(f_cell.get("old"), first=True, group=g),
                          _html_value(f_cell.get("new"), group=g)]
                for k in FIGURES:
                    cell = _cell(block, m, k)
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
    changes = _comparison(report).get("changes") or []
    if not changes:
        return '<p class="note">No annotation changed its status.</p>'
    shown = changes[:max(0, max_changes)]
    rows = []
    for c in shown:
        change = str(c.get("change"))
        cls = f"ch-{change}" if change in CHANGES else "ch-other"
        old, new = c.get("old") or {}, c.get("new") or {}
        rows.append(f'<tr class="{cls}" data-change="{esc(change)}"><td class="change">{esc(change)}</td>'
                    f'<td><code>{esc(c.get("doc_id", c.get("doc", "?")))}</code></td>{_side_cells(c.get("key"))}'
                    f'{_status_cell(old.get("status"))}{_response_cell(old.get("response"))}'
                    f'{_status_cell(new.get("status"))}{_response_cell(new.get("response"))}</tr>')
    head = "<thead><tr>" + "".join(f'<th scope="col">{esc(c)}</th>' for c in _CHANGE_COLUMNS) + "</tr></thead>"
    legend = "".join(f'<span class="chip ch-{name}">{name}</span>' for name in CHANGES)
    return (f'<p class="muted">{len(changes)} annotation(s): {esc(_change_counts(changes))}. Fixed: now correct, '
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
            figures = " · ".join(f"{esc(_figure_name(*name.split('.', 1)) if '.' in name else name)} "
                                 f"<b>{esc(pct(value))}</b>" for name, value in (info.get("figures") or {}).items())
            annotations = info.get("annotations") or []
            shown = annotations[:max(0, max_rows)]
            rows = "".join(
                f'<tr data-status="{esc(a.get("status", ""))}"><td><code>{esc(a.get("doc_id", a.get("doc", "?")))}'
                f'</code></td>{_side_cells(a.get("key"))}{_status_cell(a.get("status"))}'
                f'{_side_cells(a.get("response"))}</tr>' for a in shown)
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


def _verdict_html(report: dict[str, Any]) -> str:
    comp = _comparison(report)
    regressions = comp.get("regressions") or []
    confidence = _confidence(report)
    if comp.get("verdict") == "regression" or regressions:
        items = "".join(f"<li>{esc(_regression_text(r, confidence))}</li>" for r in regressions)
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
    old_name, new_name = _names(report)
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
    old_name, new_name = _names(report)
    title = title or f"Benchmark: {old_name} → {new_name}"
    measures = _measures(report)
    sig = _comparison(report).get("significance") or {}
    settings = " · ".join(f"{esc(k)} <code>{esc(v)}</code>" for k, v in _settings_items(report))
    method = f'<div class="muted">Significance: {esc(sig["method"])}.</div>' if sig.get("method") else ""
    toggles, toggles_css = _measure_toggles(report, measures)
    sections = [("per-type", "Per-type figures",
                 '<p class="muted">Percentages; Δ in points (▲ up, ▼ down, = same). Hover a Δ for its '
                 f"{esc(_confidence(report))} and p-values; a highlighted Δ is a regression. Click a header to "
                 "sort.</p>" + toggles + _type_table(report, measures)),
                ("documents", "Changed documents", _doc_table(report, measures, max_docs)),
                ("changes", "Changed annotations", _changes_table(report, max_changes))]
    below = _below_threshold(report, max_changes)
    if below:
        sections.append(("below-threshold", "Types below the threshold", below))
    toc = " · ".join(f'<a href="#{key}">{esc(name)}</a>' for key, name, _ in sections)
    body = "".join(f'<section id="{key}"><h2>{esc(name)}</h2>{content}</section>' for key, name, content in sections)
    header = (f'{_verdict_html(report)}<div class="muted">{settings}</div>{method}{_versions(report)}'
              f'<nav class="toc">{toc}</nav>')
    return html_page(title, header, f"\n{body}\n", css=_BENCH_CSS + toggles_css)


# ---------------------------------------------------------------- Markdown ---

def _md_cell(cell: dict[str, Any]) -> str:
    if not cell:
        return ""
    text = f"{pct(cell.get('old'))} → {pct(cell.get('new'))} {_delta_text(cell)}"
    return f"**{text}** (regression)" if cell.get("regression") else text


def render_benchmark_markdown(report: dict[str, Any], *, max_changes: int = MAX_MD_CHANGES) -> str:
    """The benchmark comparison as Markdown: verdict, per-type delta table, regressions, changed annotations.

    ``max_changes`` caps the rows of the changed annotations; a line says how
    many were left out.
    """
    comp = _comparison(report)
    old_name, new_name = _names(report)
    measures = _measures(report)
    confidence = _confidence(report)
    regressions = comp.get("regressions") or []
    lines = [f"# Benchmark: {md_escape(old_name)} → {md_escape(new_name)}", ""]
    if comp.get("verdict") == "regression" or regressions:
        lines.append(f"**Verdict: REGRESSION** ({len(regressions)} figure(s) dropped significantly)")
    else:
        lines.append("**Verdict: no regression** (no gated figure dropped significantly)")
    lines += ["", " · ".join(f"{md_escape(k)} `{md_escape(v)}`" for k, v in _settings_items(report)), ""]

    lines += ["## Per-type figures", "",
              "Old → new in percent, then Δ in points (▲ up, ▼ down, = same); **bold** marks a regression.", ""]
    header = ["Type", *(md_escape(_figure_name(m, k)) for m in measures for k in FIGURES)]
    rows = [[md_escape(label) if label is not None else f"**{OVERALL}**",
             *(_md_cell(_cell(block, m, k)) for m in measures for k in FIGURES)]
            for _, label, block in _scopes(report)]
    lines += _table(header, rows)

    lines += ["", "## Regressions", ""]
    if regressions:
        lines += _table(["Scope", "Measure", "Figure", "Old", "New", "Δ (points)", f"{confidence} (points)",
                         "p bootstrap", "p randomization"],
                        [[md_escape(r.get("scope", "?")), md_escape(r.get("measure", "?")),
                          md_escape(FIGURE_NAMES.get(str(r.get("figure")), r.get("figure", "?"))),
                          pct(r.get("old")), pct(r.get("new")), f"{_arrow('down')} {_signed(r.get('delta'))}",
                          _ci_text(r.get("ci")), figure(r.get("p_bootstrap")), figure(r.get("p_randomization"))]
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
            doc_rows.append([doc_id, f"**{OVERALL}**", *(_md_cell(_cell(entry, m, "f")) for m in measures)])
            doc_rows += [[doc_id, md_escape(label), *(_md_cell(_cell(block or {}, m, "f")) for m in measures)]
                         for label, block in sorted((entry.get("per_type") or {}).items())]
        lines += _table(["Document", "Type", *(md_escape(_figure_name(m, "f")) for m in measures)], doc_rows)
        if len(docs) > len(shown_docs):
            lines += ["", f"Showing the first {len(shown_docs)} of {len(docs)} changed documents "
                          f"({len(docs) - len(shown_docs)} left out); the JSON report holds all of them."]
    else:
        lines.append("No document changed its figures.")

    changes = comp.get("changes") or []
    lines += ["", "## Changed annotations", ""]
    if changes:
        shown = changes[:max(0, max_changes)]
        lines += [f"{len(changes)} annotation(s): {md_escape(_change_counts(changes))}.", ""]
        lines += _table(["Change", "Document", "Key", "Old", "New"], [
            [md_escape(c.get("change", "?")), md_escape(c.get("doc_id", c.get("doc", "?"))),
             md_escape(_span_text(c.get("key"))),
             *(md_escape(f"{(c.get(s) or {}).get('status') or 'absent'} {_span_text((c.get(s) or {}).get('response'))}"
                         .strip()) for s in ("old", "new"))]
            for c in shown])
        if len(changes) > len(shown):
            lines += ["", f"Showing the first {len(shown)} of {len(changes)} changed annotations "
                          f"({len(changes) - len(shown)} left out); the JSON report holds all of them."]
    else:
        lines.append("No annotation changed its status.")
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------- terminal ---

_DIRECTION_STYLES = {"up": "green", "down": "red", "same": "dim"}


def print_benchmark(report: dict[str, Any], console: Any = None) -> None:
    """Print the comparison with ``rich``: per type, F old → new, Δ and bootstrap p for each measure; then the
    verdict, the regressions and how many annotations changed."""
    from rich import box
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    console = console or Console()
    comp = _comparison(report)
    old_name, new_name = _names(report)
    measures = _measures(report)
    confidence = _confidence(report)
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
            cell = _cell(block, m, "f")
            if not cell:
                out.append(Text(""))
                continue
            style = _DIRECTION_STYLES.get(str(cell.get("direction")), "")
            if cell.get("regression"):
                style = "bold white on red"
            out.append(Text.assemble(f"{pct(cell.get('old'))} → {pct(cell.get('new'))}\n", (_delta_text(cell), style),
                                     (f" p {figure(cell.get('p_bootstrap'), 3)}", "dim")))
        return out

    scopes = _scopes(report)
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
                f"  ▼ {r.get('scope', '?')} {_figure_name(str(r.get('measure', '?')), str(r.get('figure', '?')))} "
                f"{pct(r.get('old'))} → {pct(r.get('new'))} ({_signed(r.get('delta'))}, {confidence} "
                f"{_ci_text(r.get('ci'))}, p {figure(r.get('p_bootstrap'), 3)} / "
                f"{figure(r.get('p_randomization'), 3)})",
                style="red"))
    else:
        console.print(Text.assemble(("OK", "bold green"), ": no regression"))
    changes = comp.get("changes") or []
    if changes:
        console.print(Text(f"Changed annotations: {_change_counts(changes)}", style="dim"))
