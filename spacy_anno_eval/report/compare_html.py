"""``anno-eval compare --html FOLDER``: an index of every pair of systems and one page per pair.

:func:`render_compare_index` draws the systems (their overall figures) and,
for every pair (A, the first system given, against B), each overall figure:
both values, the delta (B − A, in points) with its bootstrap interval, the
approximate-randomization p-value (Holm-corrected across the pairs with three
or more systems) and which system is better; a significant difference is
marked. :func:`render_compare_pair` is one pair's page: the same overall
figures, the per-type figures (a column group per measure, shown by its
checkbox) and the *error difference*
(:meth:`spacy_anno_eval.workflows.compare.SystemsComparison.error_difference`):
the decisions one system gets right and the other wrong, in context, grouped
"A right, B wrong" and "B right, A wrong".

:func:`write_compare_reports` writes ``index.html`` and ``pair-I-J.html`` (I,
J the systems' positions, never their names, so no file name comes from the
data) into one folder, every page rendered before the first is written, each
written atomically by :mod:`spacy_anno_eval.files`.

A renderer only: every value comes from the comparison's dict
(:meth:`~spacy_anno_eval.workflows.compare.SystemsComparison.to_dict`) and its
error difference; whether a difference is significant is the comparison's own
verdict, passed in as ``significant``. Every name, label, id and text goes
through :func:`~spacy_anno_eval.report.escape.esc`; class names and ids come
from fixed sets and positions only. The pages use the shared page shell
(:func:`~spacy_anno_eval.report.html.html_page`: its stylesheet, its script,
sortable tables, and its Content-Security-Policy).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from ..figures import FIGURES
from .benchmark_rows import FIGURE_NAMES, delta_text, interval_text, signed_points
from .escape import esc
from .html import html_page
from .matrix import pair_file
from .rows import figure, pct

__all__ = ["MAX_ROWS", "render_compare_index", "render_compare_pair", "write_compare_reports"]

#: the rows of each group of the error difference shown on a pair page
MAX_ROWS = 5000

Significant = Callable[[dict[str, Any]], bool]

_CSS = """
main{max-width:100%}
td small{display:block;color:var(--muted);font-size:11px}
td.sig,th.sig{background:#dafbe1;font-weight:600}
.up{color:#1a7f37}.down{color:#cf222e}.same{color:var(--muted)}
.systems-legend b{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
section.pair{border-top:1px solid var(--line);margin-top:10px}
.m-first{border-left:2px solid #8c959f}
th.grp{text-align:center}
td.ctx{max-width:520px;overflow-wrap:anywhere}
td.ctx mark{background:#fff3bf;padding:0 2px;border-radius:3px}
td.side{max-width:260px;overflow-wrap:anywhere}
.dec{font-weight:600;white-space:nowrap;padding:0 4px;border-radius:4px}
.toc a{color:var(--accent)}
"""

# each decision's colour: the status colours of the shared stylesheet (st-*), from this fixed set only
_DECISION_CLASS = {"correct": "st-correct", "label_error": "st-incorrect", "boundary_error": "st-partial",
                   "boundary_and_label_error": "st-overlap", "missing": "st-missing", "spurious": "st-spurious"}
_DECISION_TITLES = {"correct": "correct", "label_error": "label error", "boundary_error": "boundary error",
                    "boundary_and_label_error": "boundary and label error", "missing": "missing",
                    "spurious": "spurious"}


def _measures(data: dict[str, Any]) -> list[str]:
    measures = (data.get("settings") or {}).get("measures") or []
    if isinstance(measures, str):
        measures = [measures]
    return [str(m) for m in measures] or list(data["pairs"][0]["overall"] if data["pairs"] else {})


def _positions(data: dict[str, Any], pair: dict[str, Any]) -> tuple[int, int]:
    """The positions of the pair's two systems in the order given (the names differ, by construction)."""
    names = [s["name"] for s in data["systems"]]
    return names.index(pair["old"]), names.index(pair["new"])


def _p(entry: dict[str, Any], corrected: bool) -> Any:
    return entry.get("p_randomization_holm") if corrected else entry.get("p_randomization")


def _p_name(corrected: bool) -> str:
    return "p (Holm)" if corrected else "p"


def _confidence(data: dict[str, Any]) -> str:
    conf = (data.get("settings") or {}).get("confidence")
    return "CI" if conf is None else f"{100 * float(conf):g}% CI"


def _better(entry: dict[str, Any], pair: dict[str, Any], significant: Significant) -> tuple[str, str]:
    """``(text, side)``: the better system's name (``side`` ``a`` or ``b``), or ``same`` / ``not significant``
    (``side`` empty)."""
    if significant(entry):
        return (pair["new"], "b") if entry["delta"] > 0 else (pair["old"], "a")
    return ("same" if entry["delta"] == 0 else "not significant"), ""


def _delta_cell(entry: dict[str, Any], confidence: str, corrected: bool, sig: bool, small: bool = True,
                group: int | None = None, first: bool = False) -> str:
    """A Δ cell (B − A, points; arrow), sorted by the raw delta; its interval and p-values in its title, the
    p-value under it (``small``); marked when significant."""
    mg = "" if group is None else f' data-mg="{int(group)}"'
    if not entry:
        return f'<td class="num"{mg}></td>'
    direction = str(entry.get("direction"))
    arrow = direction if direction in ("up", "down", "same") else "same"
    cls = ["num"] + (["m-first"] if first else []) + (["sig"] if sig else [])
    tip = (f"B − A: {signed_points(entry.get('delta'))} points · {confidence} {interval_text(entry.get('ci'))} · "
           f"p randomization {figure(entry.get('p_randomization'))}"
           + (f" (Holm {figure(entry.get('p_randomization_holm'))})" if corrected else "")
           + f" · p bootstrap {figure(entry.get('p_bootstrap'))}" + (" · significant" if sig else ""))
    under = f"<small>{esc(_p_name(corrected))} {esc(figure(_p(entry, corrected), 3))}</small>" if small else ""
    value = "" if entry.get("delta") is None else repr(float(entry["delta"]))
    return (f'<td class="{" ".join(cls)}"{mg} data-v="{esc(value)}" title="{esc(tip)}">'
            f'<span class="{arrow}">{esc(delta_text(entry))}</span>{under}</td>')


def _value_cell(value: Any, group: int | None = None, first: bool = False) -> str:
    v = "" if value is None else repr(float(value))
    mg = "" if group is None else f' data-mg="{int(group)}"'
    return f'<td class="num{" m-first" if first else ""}"{mg} data-v="{esc(v)}">{esc(pct(value))}</td>'


def _figures_table(data: dict[str, Any], pair: dict[str, Any], significant: Significant, table_id: str) -> str:
    """One pair's overall figures: a row per measure and figure with A, B, the delta, its interval, the p-value
    and the better system; a significant row's delta, p-value and verdict marked."""
    corrected = data.get("correction") == "holm"
    confidence = _confidence(data)
    rows = []
    for m in _measures(data):
        for k in FIGURES:
            entry = (pair["overall"].get(m) or {}).get(k)
            if not entry:
                continue
            sig = significant(entry)
            better, side = _better(entry, pair, significant)
            mark = ' class="sig"' if sig else ""
            p = _p(entry, corrected)
            rows.append(
                f'<tr data-sig="{"true" if sig else "false"}"><th scope="row">{esc(m)} {FIGURE_NAMES[k]}</th>'
                f"{_value_cell(entry.get('old'))}{_value_cell(entry.get('new'))}"
                f"{_delta_cell(entry, confidence, corrected, sig, small=False)}"
                f'<td class="num">{esc(interval_text(entry.get("ci")))}</td>'
                f'<td class="num{" sig" if sig else ""}" data-v="{esc("" if p is None else repr(float(p)))}">'
                f"{esc(figure(p))}</td>"
                f'<td{mark}>{f"<b>{side.upper()}</b> " if side else ""}{esc(better)}</td></tr>')
    head = "".join(f'<th scope="col">{esc(c)}</th>' for c in
                   ("Figure", "A", "B", "Δ (B − A)", f"{confidence} of Δ", _p_name(corrected), "Better"))
    return (f'<table class="stats sortable figures" id="{table_id}"><thead><tr>{head}</tr></thead>'
            f'<tbody>{"".join(rows)}</tbody></table>')


def _legend(pair: dict[str, Any]) -> str:
    return (f'<p class="systems-legend"><b>A</b> = <code>{esc(pair["old"])}</code> · <b>B</b> = '
            f'<code>{esc(pair["new"])}</code></p>')


def _settings_line(data: dict[str, Any]) -> str:
    s = data.get("settings") or {}
    corrected = data.get("correction") == "holm"
    items = [("systems", len(data["systems"])), ("pairs", len(data["pairs"])),
             ("measures", ", ".join(_measures(data))), ("samples", s.get("n_samples", "?")),
             ("seed", s.get("seed", "?")), ("confidence", s.get("confidence", "?")), ("alpha", data.get("alpha")),
             ("correction", "Holm, across the pairs" if corrected else "none (one pair)"),
             ("key set", s.get("key_set", "?")), ("response set", s.get("response_set", "?")),
             ("F-beta", s.get("beta", "?"))]
    line = " · ".join(f"{esc(k)} <code>{esc(v)}</code>" for k, v in items)
    method = ("Percentages; Δ = B − A in points. Paired bootstrap (interval) and approximate randomization (p) "
              f"over documents; a difference is significant (marked) when its {'Holm-corrected ' if corrected else ''}"
              f"randomization p is at most {data.get('alpha')}.")
    notes = "".join(f'<p class="note">{esc(n)}</p>' for n in data.get("notes") or [])
    return f'<div class="muted">{line}</div><p class="muted">{esc(method)}</p>{notes}'


def _systems_table(data: dict[str, Any]) -> str:
    measures = _measures(data)
    head = "".join(f'<th scope="col">{esc(c)}</th>' for c in
                   ("#", "System", "Documents", *(f"F {m} (micro)" for m in measures)))
    rows = "".join(
        f'<tr><td class="num">{i}</td><th scope="row"><code>{esc(s["name"])}</code></th>'
        f'<td class="num">{esc(s.get("n_docs", ""))}</td>'
        + "".join(_value_cell(((s.get("micro") or {}).get(m) or {}).get("f")) for m in measures) + "</tr>"
        for i, s in enumerate(data["systems"]))
    return (f'<table class="stats sortable" id="systems-table"><thead><tr>{head}</tr></thead>'
            f"<tbody>{rows}</tbody></table>")


def render_compare_index(data: dict[str, Any], significant: Significant, *, title: str | None = None) -> str:
    """The index page: the systems, then every pair's overall figures with a link to its page (see the
    module)."""
    title = title or f"Comparison of {len(data['systems'])} systems"
    sections = []
    for pair in data["pairs"]:
        i, j = _positions(data, pair)
        page = pair_file(i, j)
        sections.append(
            f'<section class="pair" id="pair-{i}-{j}"><h2><a href="{page}">{esc(pair["old"])} vs '
            f'{esc(pair["new"])}</a></h2>{_legend(pair)}'
            f"{_figures_table(data, pair, significant, f'figures-{i}-{j}')}"
            f'<p class="muted"><a href="{page}">Per-type figures and the error difference of this pair</a></p>'
            "</section>")
    body = (f'<main><h2>Systems</h2>{_systems_table(data)}<h2>Pairs</h2>'
            f'{"".join(sections) or "<p class=note>No pair.</p>"}</main>')
    return html_page(title, _settings_line(data), body, css=_CSS)


def _measure_toggles(measures: Sequence[str]) -> tuple[str, str]:
    """A checkbox per measure that shows or hides its column group (``data-mg``, by position), the first
    checked; and the CSS that does it (``:has()``, no script)."""
    boxes = "".join(f'<label><input type="checkbox" id="show-mg-{i}"{" checked" if i == 0 else ""}> {esc(m)}</label>'
                    for i, m in enumerate(measures))
    css = "".join(f'body:has(#show-mg-{i}:not(:checked)) [data-mg="{i}"]{{display:none}}\n'
                  for i in range(len(measures)))
    return (f'<div class="filters measure-toggles" role="group" aria-label="measures shown">Show measures: {boxes}'
            "</div>"), css


def _support(pair: dict[str, Any], label: str | None) -> list[str]:
    if label is None:
        return ['<td class="num"></td>'] * 3
    sup = (pair.get("support") or {}).get(label) or {}
    old, new = sup.get("old") or {}, sup.get("new") or {}
    return [f'<td class="num">{esc(old.get("key", ""))}</td>', f'<td class="num">{esc(old.get("response", ""))}</td>',
            f'<td class="num">{esc(new.get("response", ""))}</td>']


def _type_table(data: dict[str, Any], pair: dict[str, Any], significant: Significant) -> str:
    """The per-type figures: a row per type, then overall; for each measure (a column group) A, B and Δ of P, R
    and F, the Δ's interval and p-values in its title, the p-value under it, significant deltas marked."""
    measures = _measures(data)
    corrected = data.get("correction") == "holm"
    confidence = _confidence(data)
    top = ('<tr><th colspan="4"></th>'
           + "".join(f'<th scope="colgroup" colspan="{3 * len(FIGURES)}" class="grp m-first" data-mg="{g}">'
                     f"{esc(m)}</th>" for g, m in enumerate(measures)) + "</tr>")
    cols = [f'<th scope="col">{c}</th>' for c in ("Type", "Key", "Response A", "Response B")]
    for g, _ in enumerate(measures):
        for i, k in enumerate(FIGURES):
            first = ' class="m-first"' if i == 0 else ""
            cols += [f'<th scope="col"{first} data-mg="{g}">{FIGURE_NAMES[k]} A</th>',
                     f'<th scope="col" data-mg="{g}">{FIGURE_NAMES[k]} B</th>',
                     f'<th scope="col" data-mg="{g}">{FIGURE_NAMES[k]} Δ</th>']

    def row(label: str | None, block: dict[str, Any]) -> str:
        cells = [f'<th scope="row">{esc("overall" if label is None else label)}</th>', *_support(pair, label)]
        for g, m in enumerate(measures):
            for i, k in enumerate(FIGURES):
                entry = (block.get(m) or {}).get(k) or {}
                cells += [_value_cell(entry.get("old"), group=g, first=i == 0), _value_cell(entry.get("new"), group=g),
                          _delta_cell(entry, confidence, corrected, bool(entry) and significant(entry), group=g)]
        attr = ' class="summary"' if label is None else ""
        return f"<tr{attr}>{''.join(cells)}</tr>"

    body = "".join(row(label, block) for label, block in sorted((pair.get("per_type") or {}).items()))
    return (f'<table class="stats sortable" id="type-table"><thead>{top}<tr>{"".join(cols)}</tr></thead>'
            f'<tbody>{body}</tbody><tfoot>{row(None, pair["overall"])}</tfoot></table>')


def _span(span: dict[str, Any] | None) -> str:
    if not span:
        return '<span class="muted">none</span>'
    text = span.get("text")
    return (f'<span class="lbl">{esc(span.get("label", "?"))}</span> '
            f'<span class="muted">[{esc(span.get("start", "?"))}:{esc(span.get("end", "?"))}]</span>'
            + (f" <q>{esc(text)}</q>" if text is not None else ""))


def _side(side: dict[str, Any]) -> str:
    decision = side.get("decision")
    if decision is None:
        return '<td class="side"><span class="muted">no annotation</span></td>'
    cls = _DECISION_CLASS.get(str(decision), "")
    name = _DECISION_TITLES.get(str(decision), str(decision))
    response = "" if side.get("response") is None and decision == "missing" else f" {_span(side.get('response'))}"
    return f'<td class="side"><span class="dec {cls}">{esc(name)}</span>{response}</td>'


def _context(row: dict[str, Any]) -> str:
    if row.get("text") is None:
        return f'<td class="ctx muted">[{esc(row.get("start", "?"))}:{esc(row.get("end", "?"))}]</td>'
    return (f'<td class="ctx">{esc(row.get("left_context") or "")}<mark>{esc(row["text"])}</mark>'
            f'{esc(row.get("right_context") or "")}</td>')


def _difference_table(rows: Sequence[dict[str, Any]], group: str, max_rows: int) -> str:
    if not rows:
        return '<p class="note">None.</p>'
    shown = rows[:max(0, max_rows)]
    head = "".join(f'<th scope="col">{c}</th>' for c in ("Document", "Type", "In context", "Key", "A", "B"))
    body = "".join(
        f'<tr data-doc="{esc(r.get("doc", ""))}"><td><code>{esc(r.get("doc_id", r.get("doc", "?")))}</code></td>'
        f'<td>{esc(r.get("type", ""))}</td>{_context(r)}<td class="side">{_span(r.get("key"))}</td>'
        f'{_side(r.get("a") or {})}{_side(r.get("b") or {})}</tr>' for r in shown)
    note = ("" if len(rows) <= len(shown) else
            f'<p class="note">Showing the first {len(shown)} of {len(rows)} ({len(rows) - len(shown)} left out).</p>')
    return (f'<table class="diff sortable difference" id="{group}-table"><thead><tr>{head}</tr></thead>'
            f"<tbody>{body}</tbody></table>{note}")


def _difference_counts(difference: dict[str, Any]) -> str:
    counts = difference.get("counts") or {}
    per_type = counts.get("per_type") or {}
    if not per_type:
        return ""
    head = ('<th scope="col">Type</th><th scope="col">A right, B wrong</th>'
            '<th scope="col">B right, A wrong</th>')
    body = "".join(f'<tr><th scope="row">{esc(t)}</th><td class="num">{esc(c.get("a_right", 0))}</td>'
                   f'<td class="num">{esc(c.get("b_right", 0))}</td></tr>' for t, c in per_type.items())
    foot = (f'<tr class="summary"><th scope="row">all</th><td class="num">{esc(counts.get("a_right", 0))}</td>'
            f'<td class="num">{esc(counts.get("b_right", 0))}</td></tr>')
    return (f'<table class="stats sortable" id="difference-counts"><thead><tr>{head}</tr></thead>'
            f"<tbody>{body}</tbody><tfoot>{foot}</tfoot></table>")


def render_compare_pair(data: dict[str, Any], pair: dict[str, Any], difference: dict[str, Any],
                        significant: Significant, *, max_rows: int = MAX_ROWS) -> str:
    """One pair's page: its overall and per-type figures and its error difference (see the module).
    ``difference``: :meth:`~spacy_anno_eval.workflows.compare.SystemsComparison.error_difference` of the pair's
    two systems in the pair's order; ``max_rows`` caps the rows of each group."""
    a, b = pair["old"], pair["new"]
    i, j = _positions(data, pair)
    toggles, toggles_css = _measure_toggles(_measures(data))
    counts = difference.get("counts") or {}
    why = ("A decision is right when it is correct: a key annotation found with its offsets and type, or no "
           "response where the key has none. A key annotation both systems get wrong, differently, is in neither "
           f"group. {difference.get('context', '')} characters of context on each side.")
    sections = [
        ("overall", "Overall figures", _figures_table(data, pair, significant, f"figures-{i}-{j}")),
        ("per-type", "Per-type figures",
         '<p class="muted">Percentages; Δ = B − A in points (▲ B higher, ▼ lower); under it the p-value, in its '
         "title the interval; a marked Δ is significant. Click a header to sort.</p>" + toggles
         + _type_table(data, pair, significant)),
        ("difference", "Error difference", f'<p class="muted">{esc(why)}</p>{_difference_counts(difference)}'),
        ("a-right", f"A right, B wrong ({counts.get('a_right', 0)})",
         f'<p class="muted"><code>{esc(a)}</code> right, <code>{esc(b)}</code> wrong.</p>'
         + _difference_table(difference.get("a_right") or [], "a-right", max_rows)),
        ("b-right", f"B right, A wrong ({counts.get('b_right', 0)})",
         f'<p class="muted"><code>{esc(b)}</code> right, <code>{esc(a)}</code> wrong.</p>'
         + _difference_table(difference.get("b_right") or [], "b-right", max_rows))]
    toc = " · ".join(f'<a href="#{key}">{esc(name)}</a>' for key, name, _ in sections)
    body = "".join(f'<section id="{key}"><h2>{esc(name)}</h2>{content}</section>' for key, name, content in sections)
    header = (f'<div class="muted"><a href="index.html">all pairs</a></div>{_legend(pair)}{_settings_line(data)}'
              f'<nav class="toc">{toc}</nav>')
    return html_page(f"{a} vs {b}", header, f"<main>{body}</main>", css=_CSS + toggles_css)


def write_compare_reports(data: dict[str, Any], differences: Sequence[dict[str, Any]], significant: Significant,
                          output_dir: str | os.PathLike, *, max_rows: int = MAX_ROWS) -> dict[str, Path]:
    """``index.html`` and one page per pair (``pair-I-J.html``, I and J the systems' positions) in
    ``output_dir``; ``differences``: each pair's error difference, in the order of ``data["pairs"]``. Every page
    is rendered before the first is written; returns ``{file name: path}``."""
    from ..files import write_text

    if len(differences) != len(data["pairs"]):
        raise ValueError(f"{len(differences)} error differences for {len(data['pairs'])} pairs")
    folder = Path(output_dir)
    pages = {"index.html": render_compare_index(data, significant)}
    for pair, difference in zip(data["pairs"], differences, strict=True):
        pages[pair_file(*_positions(data, pair))] = render_compare_pair(data, pair, difference, significant,
                                                                         max_rows=max_rows)
    return {name: write_text(folder / name, page) for name, page in pages.items()}
