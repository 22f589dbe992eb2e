"""``anno-eval coref --html FOLDER``: an index of the documents and one page per document.

A document's page shows its text twice, sentence by sentence, the key on the
left and the response on the right (one above the other on a narrow screen),
each sentence of the key beside the same sentence of the response. Every
mention is a box around its words, in its cluster's colour, closed by a label
with the cluster's number: a key cluster and the response cluster aligned to
it (:mod:`spacy_anno_eval.coref.diff`: the CEAFm alignment) share colour and
number, so a cluster both sides agree on looks the same on both. A box's line
says its status: solid (correct), dashed with ⇄ (moved: the other side puts
the mention in another cluster), dotted with ✗ (missing: only the key has it)
or dotted with + (spurious: only the response has it); its title says which
clusters. Nested mentions are nested boxes (an outer box grows around the
boxes it holds); a discontinuous mention is one box per run of its words, each
labelled with its part (1/2, 2/2); a mention that crosses another's boundary
or a sentence's is cut there, the cut sides left open. Hovering a mention
lights its cluster on both sides; a checkbox dims the agreeing mentions. An
empty node of a CorefUD document (a word at a fractional position between
tokens, where a zero mention sits) is shown greyed at its place, each side
showing its own (a key and a response may differ in them): a zero mention is a
box around it. Then
the document's figures (R, P and F of each metric, CoNLL F), a table of its
clusters and one of its moved, missing and spurious mentions.

The index shows the overall figures, then a row per document (CoNLL F,
mention R and P, clusters, moved / missing / spurious mentions) linking to its
page. :func:`write_coref_reports` writes ``index.html`` and ``doc-N.html`` (N
the document's position, never a name from the data), every page rendered
before the first is written, each written atomically by
:mod:`spacy_anno_eval.files`.

A renderer only: the figures come from the result
(:meth:`spacy_anno_eval.coref.metrics.CorefScores.to_dict`), the statuses,
colours and counts from :class:`~spacy_anno_eval.coref.diff.CorefDiff`. The
text is plain text inside the boxes (no element per word), so a long document
stays light. Every token, name and id goes through
:func:`~spacy_anno_eval.report.escape.esc`; class names come from fixed sets
and numbers only. The pages use the shared page shell
(:func:`~spacy_anno_eval.report.html.html_page`: its stylesheet, its one
script pinned by the Content-Security-Policy, sortable tables); no script of
their own.
"""

from __future__ import annotations

import math
import os
from bisect import bisect_left, bisect_right
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ..coref.conll2012 import CorefDocument
from ..coref.diff import STATUSES, CorefDiff, MentionRow, document_diffs, total_counts
from .coref_terminal import NAMES
from .escape import esc
from .html import html_page
from .rows import pct

__all__ = ["MAX_ROWS", "clusters_table", "differences_table", "doc_file", "figures_table", "render_coref_document",
           "render_coref_index", "text_panel", "write_coref_reports"]

#: the rows of a document's table of differences
MAX_ROWS = 5000
#: the clusters whose mentions light up together on hover (one CSS rule each)
MAX_HOVER = 400
#: nesting levels drawn apart (a box holding more levels is drawn as this many)
MAX_HEIGHT = 5
GLYPHS = {"correct": "", "moved": "⇄", "missing": "✗", "spurious": "+"}
STATUS_TEXT = {"correct": "correct: both sides put it in this cluster",
               "moved": "moved: the other side puts it in another cluster",
               "missing": "missing: only the key has it", "spurious": "spurious: only the response has it"}

_CSS = """
main{max-width:100%}
.toc a,.nav a{color:var(--accent)}
.nav{display:flex;gap:14px;margin:2px 0 6px}
.ct{display:grid;grid-template-columns:auto minmax(0,1fr) minmax(0,1fr);border:1px solid var(--line);
border-radius:6px;font-size:15px}
.ct>div{padding:2px 10px;border-top:1px solid #eef1f4;overflow-wrap:anywhere}
.ct>.hd{position:sticky;top:0;background:var(--head);font-weight:600;border-top:none;z-index:1}
.ct>.sn{color:var(--muted);font-size:11px;text-align:right;padding:6px 4px 0 8px;user-select:none}
.ct>.sk{border-right:1px solid var(--line)}
.ct>.l0{line-height:24px}.ct>.l1{line-height:32px}.ct>.l2{line-height:38px}.ct>.l3{line-height:44px}
.ct>.l4{line-height:50px}.ct>.l5{line-height:56px}
.m{border:2px solid var(--c);border-radius:5px;background:var(--t);padding:1px 2px;margin:0 1px;
-webkit-box-decoration-break:clone;box-decoration-break:clone}
.m.h2{padding:4px 3px}.m.h3{padding:7px 4px}.m.h4{padding:10px 5px}.m.h5{padding:13px 6px}
.m.cl{border-left:none;border-top-left-radius:0;border-bottom-left-radius:0;margin-left:0;padding-left:0}
.m.cr{border-right:none;border-top-right-radius:0;border-bottom-right-radius:0;margin-right:0;padding-right:0}
.m.ms-moved{border-style:dashed;border-width:2.5px}
.m.ms-missing,.m.ms-spurious{border-style:dotted;border-width:2.5px;background:none}
.lb{display:inline-block;font:700 10px/13px system-ui,sans-serif;color:#fff;background:var(--c);border-radius:3px;
padding:0 3px;margin-left:3px;vertical-align:1px;white-space:nowrap;font-style:normal}
.lb .pt{font-weight:400;margin-left:2px}
.ms-missing>.lb,.ms-spurious>.lb{background:#fff;color:var(--c);box-shadow:inset 0 0 0 1.5px var(--c)}
.z{color:var(--muted);font-style:italic}
body:has(#dim-agreeing:checked) .m.ms-correct{border-color:transparent;background:none}
body:has(#dim-agreeing:checked) .m.ms-correct>.lb{opacity:.3}
.lg{--c:#57606a;--t:rgba(87,96,106,.1)}
.legend-row{display:flex;gap:14px;flex-wrap:wrap;align-items:center;margin:6px 0 10px;line-height:30px}
.sc{font-weight:600;white-space:nowrap;padding:0 6px;border-radius:4px}
.sc-correct{background:#b2f2bb}.sc-moved{background:#ffd8a8}.sc-missing{background:#ff8787}
.sc-spurious{background:#a5d8ff}
td.txt{max-width:420px;overflow-wrap:anywhere}
td.mt{max-width:560px;overflow-wrap:anywhere;font-size:12px}
td.mt span{white-space:nowrap}td.mt .ms-moved{text-decoration:underline dashed}
td.mt .ms-missing,td.mt .ms-spurious{text-decoration:line-through dotted}
tr.agree th,tr.agree td{background:#f3fbf4}
@media (max-width:700px){.ct{grid-template-columns:auto minmax(0,1fr)}
.ct>.sr{grid-column:2}.ct>.hd.sr{display:none}.ct>.sk{border-right:none}
.ct>.sk:not(.hd)::before{content:"K ";color:var(--muted);font-size:11px}
.ct>.sr::before{content:"R ";color:var(--muted);font-size:11px}}
"""


def doc_file(position: int) -> str:
    """The file name of the page of the document at ``position`` (0-based)."""
    return f"doc-{int(position)}.html"


# ------------------------------------------------------------------ colours ---

def _hsl(colour: int) -> tuple[int, int, int]:
    """A hue per cluster, 137.5° (the golden angle) apart, so neighbours differ; saturation and lightness step
    every few clusters to tell apart those whose hues come back close."""
    return round(colour * 137.508 + 210) % 360, 72 - 16 * (colour // 8 % 2), 38 + 8 * (colour // 4 % 2)


def _colour_css(n: int) -> str:
    """The custom properties of colours ``0 .. n-1`` (``--c`` the line and label, ``--t`` the tint), and the
    rule that lights a cluster on both sides while one of its mentions is hovered."""
    out = []
    for c in range(n):
        h, s, light = _hsl(c)
        out.append(f".c{c}{{--c:hsl({h} {s}% {light}%);--t:hsl({h} {s}% {light}% / .12)}}")
        if c < MAX_HOVER:
            out.append(f".ct:has(.c{c}:hover) .m.c{c}{{background:hsl({h} {s}% {light}% / .35)}}")
    return "\n".join(out)


# ----------------------------------------------------------------- the text ---

class _Box:
    """One box of the text: a part of a mention (or a piece of a part, where it was cut)."""

    __slots__ = ("mark", "part", "end", "open_left", "last", "children")

    def __init__(self, mark: int, part: tuple[int, int], end: int, open_left: bool, last: bool) -> None:
        self.mark, self.part, self.end = mark, part, end
        self.open_left, self.last = open_left, last  # last: the part's last piece, which holds the label
        self.children: list[Any] = []

    def height(self) -> int:
        return 1 + max((c.height() for c in self.children if isinstance(c, _Box)), default=0)


def _runs(words: Sequence[float]) -> list[tuple[float, float]]:
    """The runs of consecutive positions of a mention's words, ``(first, last)`` each; an empty node (a
    fractional position) is a run of its own."""
    runs: list[tuple[float, float]] = []
    for w in words:
        if runs and isinstance(w, int) and isinstance(runs[-1][1], int) and w == runs[-1][1] + 1:
            runs[-1] = (runs[-1][0], w)
        else:
            runs.append((w, w))
    return runs


def _sentences(doc: CorefDocument) -> list[tuple[int, int, str]]:
    """``(first, end, id)`` of each sentence (end exclusive); one sentence when the document gives none."""
    starts = [(p, sid) for p, sid in doc.sentences if 0 <= p < len(doc.tokens)]
    if not starts or starts[0][0] != 0:
        starts.insert(0, (0, ""))
    ends = [p for p, _ in starts[1:]] + [len(doc.tokens)]
    return [(p, end, sid) for (p, sid), end in zip(starts, ends, strict=True) if end > p]


def _order(doc: CorefDocument, sentences: Sequence[tuple[int, int, str]]) -> tuple[list[float], list[int]]:
    """The positions one side shows, in document order (its tokens and its own empty nodes), and the index
    among them where each sentence begins: at its first token, so that an empty node goes with the token it
    follows (one before the document's first token, with the first sentence)."""
    order: list[float] = sorted([*range(len(doc.tokens)), *doc.empty])
    return order, [0] + [bisect_left(order, first) for first, _, _ in sentences[1:]]


def _side_html(doc: CorefDocument, marks: Sequence[tuple[tuple[float, ...], int, str, str]],
               sentences: Sequence[tuple[int, int, str]]) -> list[tuple[str, int]]:
    """Each sentence of one side as ``(html, height)``: ``marks`` = ``(words, colour, status, title)`` per
    mention, drawn as nested boxes (see the module); height: the deepest nesting, at most
    :data:`MAX_HEIGHT`. The boxes are laid out over the side's positions (:func:`_order`), so that words with
    none of the side's positions between them are one run, an empty node included."""
    order, starts = _order(doc, sentences)
    index = {p: i for i, p in enumerate(order)}
    stops = [*starts[1:], len(order)]
    # (start, end, mark, part, open on the left, the part's last piece) per sentence, as indices into order
    segments: list[list[tuple[int, int, int, tuple[int, int], bool, bool]]] = [[] for _ in sentences]
    for mi, (words, _, _, _) in enumerate(marks):
        if any(w not in index for w in words):  # pragma: no cover - the diff refuses words outside the document
            raise ValueError(f"a mention's words {words} are not all among the document's tokens and empty nodes")
        runs = _runs([index[w] for w in words])
        for pi, (a, b) in enumerate(runs):
            start = int(a)
            while start <= b:
                si = bisect_right(starts, start) - 1
                end = int(min(b, stops[si] - 1))
                segments[si].append((start, end, mi, (pi + 1, len(runs)), start > a, end == b))
                start = end + 1
    out = []
    for first, stop, segs in zip(starts, stops, segments, strict=True):
        opening: dict[int, list[tuple[int, int, int, tuple[int, int], bool, bool]]] = {}
        for seg in sorted(segs, key=lambda g: (g[0], -g[1], g[2])):
            opening.setdefault(seg[0], []).append(seg)
        root: list[Any] = []
        stack: list[_Box] = []
        for i in range(first, stop):
            cut = []
            while any(b.end < i for b in stack):
                box = stack.pop()
                if box.end >= i:  # crosses a box that closes here: cut, reopened after it
                    cut.append(box)
            if i > first:
                (stack[-1].children if stack else root).append(" ")
            for box in reversed(cut):
                piece = _Box(box.mark, box.part, box.end, True, box.last)
                box.last = False
                (stack[-1].children if stack else root).append(piece)
                stack.append(piece)
            for _, end, mi, part, left, last in opening.get(i, ()):
                box = _Box(mi, part, end, left, last)
                (stack[-1].children if stack else root).append(box)
                stack.append(box)
            text = esc(doc.form(order[i]))
            empty = isinstance(order[i], float)
            (stack[-1].children if stack else root).append(f'<span class="z">{text}</span>' if empty else text)
        height = max((b.height() for b in root if isinstance(b, _Box)), default=0)
        out.append(("".join(_box_html(b, marks) for b in root), min(height, MAX_HEIGHT)))
    return out


def _box_html(node: Any, marks: Sequence[tuple[tuple[int, ...], int, str, str]]) -> str:
    if isinstance(node, str):
        return node
    _, colour, status, title = marks[node.mark]
    cls = [f"m c{colour} ms-{status} h{min(node.height(), MAX_HEIGHT)}"]
    if node.open_left:
        cls.append("cl")
    if not node.last:
        cls.append("cr")
    inner = "".join(_box_html(c, marks) for c in node.children)
    label = ""
    if node.last:
        part = f'<span class="pt">{node.part[0]}/{node.part[1]}</span>' if node.part[1] > 1 else ""
        glyph = GLYPHS[status]
        label = f'<span class="lb">{colour + 1}{part}{glyph}</span>'
    return f'<span class="{" ".join(cls)}" title="{esc(title)}">{inner}{label}</span>'


def _titles(row: MentionRow, diff: CorefDiff) -> tuple[str, str]:
    """The key side's and the response side's title of a mention row."""
    kc = None if row.key_entity is None else row.key_entity + 1
    rc = None if row.response_entity is None else diff.response_colours[row.response_entity] + 1
    key = f"key cluster {kc} · {row.status}"
    response = f"response cluster {rc} · {row.status}"
    if row.status == "moved":
        key += f": the response puts it in cluster {rc}"
        response += f": the key has it in cluster {kc}"
    elif row.status == "missing":
        key += ": the response does not have it"
    elif row.status == "spurious":
        response += ": the key does not have it"
    if row.key is not None and row.response is not None and row.key_words != row.response_words:
        key += " · paired with a response mention of other words"
        response += f" · paired with the key mention “{row.text}”"
    return key, response


def _n(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def text_panel(key: CorefDocument, response: CorefDocument, diff: CorefDiff) -> str:
    """The key's and the response's text side by side, sentence by sentence, every mention a box (see the
    module)."""
    key_marks, response_marks = [], []
    for row in diff.mentions:
        kt, rt = _titles(row, diff)
        if row.key is not None:
            key_marks.append((row.key_words, row.key_entity, row.status, kt))
        if row.response is not None:
            response_marks.append((row.response_words, diff.response_colours[row.response_entity], row.status, rt))
    sentences = _sentences(key)
    if not sentences:
        return '<p class="note">The document has no tokens.</p>'
    left, right = _side_html(key, key_marks, sentences), _side_html(response, response_marks, sentences)
    n_key = sum(1 for r in diff.mentions if r.key is not None)
    n_response = sum(1 for r in diff.mentions if r.response is not None)
    cells = [f'<div class="hd sn">§</div><div class="hd sk">Key <span class="muted">'
             f'{_n(diff.n_key_entities, "cluster")}, {_n(n_key, "mention")}</span></div><div class="hd sr">Response '
             f'<span class="muted">{_n(len(diff.response_colours), "cluster")}, {_n(n_response, "mention")}'
             "</span></div>"]
    for n, ((_, _, sid), (kh, kl), (rh, rl)) in enumerate(zip(sentences, left, right, strict=True), start=1):
        tip = f' title="sentence {esc(sid)}"' if sid else ""
        cells.append(f'<div class="sn"{tip}>{n}</div><div class="sk l{kl}">{kh}</div>'
                     f'<div class="sr l{rl}">{rh}</div>')
    return f'<div class="ct" id="coref-text">{"".join(cells)}</div>'


def _legend() -> str:
    samples = "".join(
        f'<span><span class="m lg ms-{s}" title="{esc(STATUS_TEXT[s])}">{s}<span class="lb">'
        f'n{GLYPHS[s]}</span></span></span>' for s in STATUSES)
    return (f'<div class="legend-row" id="legend">{samples}'
            '<label><input type="checkbox" id="dim-agreeing"> dim the correct mentions</label></div>'
            '<p class="muted">A box is a mention, its colour and number its cluster: a key cluster and the response '
            "cluster aligned to it (the CEAFm alignment) share both. Solid: correct; dashed ⇄: moved (the other "
            "side puts it in another cluster); dotted ✗: missing (only the key has it); dotted +: spurious (only "
            "the response has it). Hover a mention to light its cluster on both sides.</p>")


# ---------------------------------------------------------------- the tables ---

def _chip(colour: int) -> str:
    return f'<span class="lb c{colour}">{colour + 1}</span>'


def figures_table(figures: Mapping[str, Any], table_id: str = "figures") -> str:
    """R, P and F (percentages) of every metric the figures hold, then the CoNLL F."""
    rows = "".join(
        f'<tr><th scope="row">{esc(name)}</th>' + "".join(f'<td class="num">{pct(figures[key].get(k))}</td>'
                                                          for k in "rpf") + "</tr>"
        for key, name in NAMES.items() if key in figures)
    if "conll" in figures:
        rows += (f'<tr class="summary"><th scope="row">CoNLL</th><td class="num"></td><td class="num"></td>'
                 f'<td class="num">{pct(figures["conll"].get("f"))}</td></tr>')
    return (f'<table class="stats" id="{esc(table_id)}"><thead><tr><th scope="col">Metric</th><th scope="col">R</th>'
            f'<th scope="col">P</th><th scope="col">F</th></tr></thead><tbody>{rows}</tbody></table>'
            '<p class="muted">Percentages; CoNLL is the mean F of MUC, B-cubed and CEAFe.</p>')


def _mention_list(rows: Sequence[MentionRow], limit: int = 8) -> str:
    shown = "".join(f'<span class="ms-{r.status}" title="{esc(r.status)}">{esc(r.text)}</span> · '
                    for r in rows[:limit]).removesuffix(" · ")
    return shown + (f' <span class="muted">+{len(rows) - limit} more</span>' if len(rows) > limit else "")


def clusters_table(diff: CorefDiff) -> str:
    """A row per cluster (colour): its key and response sizes, correct, moved, missing and spurious mentions,
    whether both sides agree, and its mentions on either side (styled by status)."""
    by_colour: dict[int, list[MentionRow]] = {}
    for r in diff.mentions:
        colours = {r.key_entity, None if r.response_entity is None else diff.response_colours[r.response_entity]}
        for colour in sorted(c for c in colours if c is not None):  # a moved mention in both of its clusters
            by_colour.setdefault(colour, []).append(r)
    head = "".join(f'<th scope="col">{c}</th>' for c in ("Cluster", "Key", "Response", "Correct", "Moved out",
                                                         "Moved in", "Missing", "Spurious", "Agree", "Mentions"))
    body = []
    for e in diff.entities:
        nums = (e.key_mentions, e.response_mentions, e.correct, e.key_moved, e.response_moved, e.missing,
                e.spurious)
        cells = "".join(f'<td class="num">{n}</td>' for n in nums)
        body.append(f'<tr{" class=agree" if e.agrees else ""}><th scope="row" data-v="{e.colour + 1}">'
                    f"{_chip(e.colour)}</th>{cells}<td>{'✓' if e.agrees else ''}</td>"
                    f'<td class="mt">{_mention_list(by_colour.get(e.colour, []))}</td></tr>')
    return (f'<table class="stats sortable" id="clusters-table"><thead><tr>{head}</tr></thead>'
            f'<tbody>{"".join(body)}</tbody></table>'
            '<p class="muted">Key, Response: the cluster\'s mentions on each side. Moved out: key mentions the '
            "response puts elsewhere; moved in: response mentions the key has elsewhere.</p>")


def _word(w: float) -> str:
    """A position, 1-based: a token's number; an empty node's as CoNLL-U numbers it after its word (``4.1``)."""
    if isinstance(w, float):
        n = math.floor(w)
        return f"{n + 1}.{round((w - n) * 1000)}"
    return f"{w + 1}"


def _words(words: Sequence[float]) -> str:
    return ", ".join(_word(a) if a == b else f"{_word(a)}–{_word(b)}" for a, b in _runs(words))


def differences_table(diff: CorefDiff, max_rows: int = MAX_ROWS) -> str:
    """The moved, missing and spurious mentions in document order: status, text, words (1-based; an empty
    node after word N as ``N.M``), the key's and the response's cluster."""
    rows = [r for r in diff.mentions if r.status != "correct"]
    if not rows:
        return '<p class="note">None: every mention is correct.</p>'
    shown = rows[:max(0, max_rows)]
    head = "".join(f'<th scope="col">{c}</th>' for c in ("Status", "Text", "Words", "Key cluster",
                                                         "Response cluster"))
    body = "".join(
        f'<tr data-status="{r.status}"><td><span class="sc sc-{r.status}">{r.status}</span></td>'
        f'<td class="txt">{esc(r.text)}</td><td class="num">{_words(r.key_words or r.response_words)}</td>'
        f'<td>{"" if r.key_entity is None else _chip(r.key_entity)}</td>'
        f'<td>{"" if r.response_entity is None else _chip(diff.response_colours[r.response_entity])}</td></tr>'
        for r in shown)
    note = ("" if len(rows) <= len(shown) else
            f'<p class="note">Showing the first {len(shown)} of {len(rows)} ({len(rows) - len(shown)} left out).</p>')
    return (f'<table class="stats sortable" id="differences-table"><thead><tr>{head}</tr></thead>'
            f"<tbody>{body}</tbody></table>{note}")


def _cards(items: Sequence[tuple[str, str]]) -> str:
    return '<div class="cards">' + "".join(f'<div class="card"><b>{value}</b><span>{esc(name)}</span></div>'
                                           for value, name in items) + "</div>"


def _settings_line(result: Mapping[str, Any], settings: str) -> str:
    items = [("documents", result["n_docs"])] if "n_docs" in result else []
    items += [(str(k).replace("_", " "), ("yes" if v else "no") if isinstance(v, bool) else v)
              for k, v in (result.get("settings") or {}).items()]
    line = " · ".join(f"{esc(k)} <code>{esc(v)}</code>" for k, v in items)
    return f'<div class="muted">{line}</div>' + (f'<p class="muted">{esc(settings)}</p>' if settings else "")


def _status_cards(counts: Mapping[str, int]) -> list[tuple[str, str]]:
    return [(esc(counts[s]), f"{s} mentions") for s in STATUSES]


# ------------------------------------------------------------------- pages ---

def render_coref_document(key: CorefDocument, response: CorefDocument, diff: CorefDiff, *,
                          figures: Mapping[str, Any] | None = None, position: int = 0, n_docs: int = 1,
                          result: Mapping[str, Any] | None = None, settings: str = "",
                          max_rows: int = MAX_ROWS) -> str:
    """One document's page (see the module): ``diff`` its
    :func:`~spacy_anno_eval.coref.diff.document_diff`, ``figures`` its entry of the result's ``per_doc``
    (``None``: the result has none), ``position`` its place among ``n_docs`` documents (the links to the
    index and its neighbours), ``result`` and ``settings`` for the settings line."""
    nav = ['<a href="index.html">all documents</a>']
    if position > 0:
        nav.append(f'<a href="{doc_file(position - 1)}" rel="prev">‹ previous</a>')
    if position + 1 < n_docs:
        nav.append(f'<a href="{doc_file(position + 1)}" rel="next">next ›</a>')
    cards = []
    if figures:
        cards += [(pct(figures["conll"]["f"]), "CoNLL F"), (pct(figures["mentions"]["r"]), "mentions R"),
                  (pct(figures["mentions"]["p"]), "mentions P")]
    cards += [(f"{diff.n_agreeing} of {len(diff.entities)}", "clusters agree"), *_status_cards(diff.counts)]
    sections = [
        ("text", "Text", _legend() + text_panel(key, response, diff)),
        ("figures", "Figures", figures_table(figures, "figures-table") if figures else
         '<p class="note">The result was made without per-document figures.</p>'),
        ("clusters", f"Clusters ({len(diff.entities)})", clusters_table(diff)),
        ("differences", "Moved, missing and spurious mentions", differences_table(diff, max_rows))]
    toc = " · ".join(f'<a href="#{k}">{esc(name)}</a>' for k, name, _ in sections)
    header = (f'<nav class="nav">{"".join(nav)}</nav>{_settings_line(result or {}, settings)}{_cards(cards)}'
              f'<nav class="toc">{toc}</nav>')
    body = "".join(f'<section id="{k}"><h2>{esc(name)}</h2>{content}</section>' for k, name, content in sections)
    title = f"Document {position + 1} of {n_docs}: {diff.name}"
    return html_page(title, header, f"<main>{body}</main>", css=_CSS + _colour_css(len(diff.entities)))


def render_coref_index(result: Mapping[str, Any], diffs: Sequence[CorefDiff], *, settings: str = "",
                       title: str | None = None) -> str:
    """The index (see the module): the overall figures, then a row per document (``diffs``, in order) linking
    to its page."""
    per_doc = result.get("per_doc") or []
    totals = total_counts(diffs)
    cards = [(pct(result["conll"]["f"]), "CoNLL F"), (pct(result["mentions"]["r"]), "mentions R"),
             (pct(result["mentions"]["p"]), "mentions P"), *_status_cards(totals)]
    head = "".join(f'<th scope="col">{c}</th>' for c in (
        "#", "Document", "CoNLL F", "Mentions R", "Mentions P", "Key clusters", "Response clusters",
        "Clusters agreeing", *(s.capitalize() for s in STATUSES)))
    rows = []
    for i, d in enumerate(diffs):
        fig = per_doc[i] if i < len(per_doc) else None
        values = ([fig["conll"]["f"], fig["mentions"]["r"], fig["mentions"]["p"]] if fig else [None] * 3)
        cells = "".join(f'<td class="num">{pct(v)}</td>' for v in values)
        cells += "".join(f'<td class="num">{n}</td>' for n in (d.n_key_entities, len(d.response_colours),
                                                                d.n_agreeing, *(d.counts[s] for s in STATUSES)))
        rows.append(f'<tr><td class="num">{i + 1}</td><th scope="row"><a href="{doc_file(i)}">{esc(d.name)}</a>'
                    f"</th>{cells}</tr>")
    note = "" if per_doc else '<p class="note">The result was made without per-document figures.</p>'
    body = (f'<main><section id="overall"><h2>Overall</h2>{figures_table(result, "overall-table")}</section>'
            f'<section id="documents"><h2>Documents ({len(diffs)})</h2>'
            '<p class="muted">Click a document for its text with both sides\' clusters; click a header to sort. '
            "Moved: mentions both sides have, in clusters that do not match.</p>"
            f'<table class="stats sortable" id="docs-table"><thead><tr>{head}</tr></thead>'
            f'<tbody>{"".join(rows)}</tbody></table>{note}</section></main>')
    title = title or f"Coreference: {_n(len(diffs), 'document')}"
    return html_page(title, _settings_line(result, settings) + _cards(cards), body, css=_CSS)


def write_coref_reports(key_docs: Sequence[CorefDocument], response_docs: Sequence[CorefDocument],
                        result: Mapping[str, Any], folder: str | os.PathLike, *,
                        pairs: Sequence[Mapping[tuple[int, ...], tuple[int, ...]] | None] | None = None,
                        settings: str = "") -> dict[str, Path]:
    """``index.html`` and ``doc-N.html`` per document in ``folder``; ``result``: the scores' ``to_dict()``
    (its ``settings`` say whether singletons and zeros were kept: the pages show the documents as scored),
    ``pairs``: per document, the aligned response mention -> key mention (``None``: exact matching),
    ``settings``: a line for every page. Every page is rendered before the first is written; returns
    ``{file name: path}``."""
    from ..files import write_text

    if result.get("n_docs", len(key_docs)) != len(key_docs):
        raise ValueError(f"a result of {result['n_docs']} documents for {len(key_docs)} documents")
    kept = result.get("settings") or {}
    diffs = document_diffs(key_docs, response_docs, pairs, keep_singletons=kept.get("keep_singletons", True),
                           keep_zeros=kept.get("keep_zeros", True))
    per_doc = result.get("per_doc") or []
    pages = {"index.html": render_coref_index(result, diffs, settings=settings)}
    for i, (k, r, d) in enumerate(zip(key_docs, response_docs, diffs, strict=True)):
        pages[doc_file(i)] = render_coref_document(k, r, d, figures=per_doc[i] if i < len(per_doc) else None,
                                                   position=i, n_docs=len(diffs), result=result, settings=settings)
    out = Path(folder)
    return {name: write_text(out / name, page) for name, page in pages.items()}
