"""The coreference pages (``write_coref_reports``): an index and a page per document, made from the official
scorer's TC-A case (``../shared/data/coreference``), from a CorefUD file with a discontinuous mention, from
CorefUD files whose key and response have different empty nodes (:mod:`tests.coref.test_diff`'s), and from a
document whose token is ``<script>``; then what a reader sees of them in headless Chromium
(:mod:`tests.report.test_browser`'s launcher and probe, and a probe of the boxes' computed style)."""

from __future__ import annotations

import base64
import hashlib
import html
import json
import os
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from spacy_anno_eval.coref.conll2012 import CorefDocument, read_conll2012
from spacy_anno_eval.coref.corefud import read_corefud
from spacy_anno_eval.coref.diff import document_diff
from spacy_anno_eval.coref.metrics import score_documents
from spacy_anno_eval.report.coref_html import render_coref_document, text_panel, write_coref_reports
from tests.conftest import shared_file
from tests.coref.test_diff import zero_docs
from tests.report.test_browser import HAVE_CHROMIUM, _chromium, all_visible, check_page

EVIL = "<script>alert(1)</script>"
needs_chromium = pytest.mark.skipif(not HAVE_CHROMIUM and not os.environ.get("CI"),
                                    reason="no /usr/bin/chromium (required when CI is set)")


def _read(name: str) -> list[CorefDocument]:
    return read_conll2012(shared_file("coreference", "conll2012", "DataFiles", name))


def _result(key, response, **settings) -> dict:
    result = score_documents(key, response).to_dict()
    result["settings"] = {"format": "conll2012", "match": "exact", "keep_singletons": True, **settings}
    return result


@pytest.fixture(scope="module")
def tc_pages(tmp_path_factory) -> Path:
    """TC-A.key against TC-A-2.response (entity 1 left out, entity 2 lost its last mention: missing only) and
    against TC-A-10.response (every mention a cluster of its own: the split entities' later mentions moved)."""
    key, two, ten = _read("TC-A.key"), _read("TC-A-2.response"), _read("TC-A-10.response")
    out = tmp_path_factory.mktemp("coref-html") / "pages"
    written = write_coref_reports(key + key, two + ten, _result(key + key, two + ten), out,
                                  settings="conll2012, exact matching, singletons kept")
    assert sorted(written) == ["doc-0.html", "doc-1.html", "index.html"]
    return out


def _rows(page: str, table_id: str) -> int:
    body = re.search(rf'<table[^>]*id="{table_id}".*?<tbody>(.*?)</tbody>', page, re.S)
    assert body, f"no table {table_id}"
    return body.group(1).count("<tr")


def _panel(page: str) -> str:
    """The text of a document page: both sides, sentence by sentence."""
    return page.split('id="coref-text"')[1].split("</section>")[0]


class _Balance(HTMLParser):
    """Fails on a closing tag that does not close the innermost open element (void elements aside)."""

    VOID = {"meta", "br", "input", "img", "hr", "link"}

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag not in self.VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag):
        assert self.stack and self.stack[-1] == tag, (tag, self.stack[-5:])
        self.stack.pop()


def _balanced(page: str) -> None:
    parser = _Balance()
    parser.feed(page)
    parser.close()
    assert parser.stack == []


def test_an_index_and_a_page_per_document(tc_pages):
    index = (tc_pages / "index.html").read_text(encoding="utf8")
    assert _rows(index, "docs-table") == 2 and 'href="doc-0.html"' in index and 'href="doc-1.html"' in index
    assert _rows(index, "overall-table") == 8  # seven metrics and CoNLL
    assert "conll2012, exact matching, singletons kept" in index and "keep singletons <code>yes</code>" in index
    two = (tc_pages / "doc-0.html").read_text(encoding="utf8")
    ten = (tc_pages / "doc-1.html").read_text(encoding="utf8")
    for page in (index, two, ten):
        _balanced(page)
        assert page.count("<script>") == 1 and "script-src 'sha256-" in page  # the shared script alone
    # TC-A-2: b1..b4, c and f1..f3 missing; the rest correct
    assert two.count('class="m c1 ms-missing') == 2 and two.count("ms-missing h1") == 3
    assert "ms-moved" not in _panel(two)
    assert _rows(two, "clusters-table") == 3 and _rows(two, "differences-table") == 3
    assert _rows(two, "figures-table") == 8 and 'href="doc-1.html" rel="next"' in two
    # TC-A-10: c, e and f1..f3 moved on both sides; their response clusters take new colours (4, 5, 6)
    text = _panel(ten)
    assert text.count("ms-moved") == 6 and '<span class="lb">4⇄</span>' in text
    assert _rows(ten, "clusters-table") == 6 and _rows(ten, "differences-table") == 3


def test_nested_crossing_and_sentence_crossing_mentions_nest_properly():
    tokens = tuple(f"w{i}" for i in range(10))
    # (0, 3) holds (2, 3) and crosses (2, 7), which also runs into the second sentence
    key = CorefDocument("x", tokens, (((0, 3), (5, 6)), ((2, 7),), ((2, 3),)), sentences=((0, "1"), (5, "2")))
    diff = document_diff(key, key)
    panel = text_panel(key, key, diff)
    _balanced(panel)
    first = panel.split('class="sk')[1]
    assert re.search(r'class="m c0 ms-correct h3"[^>]*>w0 w1 <span class="m c1 ms-correct h2 cr"[^>]*>'
                     r'<span class="m c2 ms-correct h1"[^>]*>w2 w3<span class="lb">3</span></span></span>'
                     r'<span class="lb">1</span></span> <span class="m c1 ms-correct h1 cl cr"[^>]*>w4</span>', first)
    second = panel.split('class="sk')[2]
    assert re.search(r'<span class="m c1 ms-correct h2 cl"[^>]*><span class="m c0 ms-correct h1"[^>]*>w5 w6'
                     r'<span class="lb">1</span></span> w7<span class="lb">2</span></span> w8 w9', second)
    assert 'class="sk l3"' in panel  # the line height of the deepest nesting


def _corefud(tmp_path: Path, name: str, rows: list[tuple[str, str, str]]) -> Path:
    lines = ["# newdoc id = d1", "# global.Entity = eid-etype-head-other", "# sent_id = s1"]
    lines += ["\t".join([i, form, "_", "_", "_", "_", "0", "_", "_", f"Entity={e}" if e else "_"])
              for i, form, e in rows]
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n\n", encoding="utf8")
    return path


def test_a_discontinuous_corefud_mention_is_a_box_per_part(tmp_path):
    rows = [("1", "She", "(e1-person-1-)"), ("2", "gave", "(e2[1/2]-event-1-"), ("3", "it", "e2[1/2])"),
            ("4", "all", ""), ("5", "up", "(e2[2/2]-event-1-)"), ("6", ".", "")]
    key = read_corefud(_corefud(tmp_path, "key.conllu", rows))
    rows[0] = ("1", "She", "")  # the response misses "She"
    response = read_corefud(_corefud(tmp_path, "response.conllu", rows))
    assert key[0].entities[1] == ((1, 2, 4),)
    out = tmp_path / "pages"
    write_coref_reports(key, response, score_documents(key, response, blanc="corefud").to_dict(), out)
    page = (out / "doc-0.html").read_text(encoding="utf8")
    _balanced(page)
    panel = _panel(page)
    first = '<span class="lb">2<span class="pt">1/2</span></span></span>'
    second = '<span class="lb">2<span class="pt">2/2</span></span></span>'
    for side in ("sk", "sr"):
        cell = panel.split(f'class="{side} ')[1].split("</div>")[0]
        # "gave it" and "up" are two boxes of one mention; "all" between them is in neither
        assert re.search(r'ms-correct h1"[^>]*>gave it' + re.escape(first) + r' all <span class="m c1 ms-correct h1"'
                         r'[^>]*>up' + re.escape(second), cell), cell
    assert 'class="m c0 ms-missing h1"' in panel and "1✗" in panel
    assert "gave it ... up" in page  # the mention's text in the tables (mention_text)


@pytest.fixture
def zero_pages(tmp_path) -> Path:
    """The pages of the CorefUD key and response with different empty nodes (test_diff's ``zero_docs``)."""
    key, response = zero_docs(tmp_path)
    out = tmp_path / "pages"
    write_coref_reports(key, response, score_documents(key, response, blanc="corefud").to_dict(), out)
    return out


def test_empty_nodes_are_greyed_at_their_place_each_side_its_own(zero_pages):
    page = (zero_pages / "doc-0.html").read_text(encoding="utf8")
    _balanced(page)
    panel = _panel(page)
    cells = re.findall(r'<div class="(sk|sr) l(\d)">(.*?)</div>', panel)
    assert [(side, level) for side, level, _ in cells] == [("sk", "2"), ("sr", "2"), ("sk", "1"), ("sr", "1")]
    (_, _, key1), (_, _, response1), (_, _, key2), (_, _, response2) = cells
    # one element per empty node, none per word: the key shows its two, the response its two
    assert panel.count('class="z"') == 4
    assert key2.endswith("</span> smiled") and response2 == key2.replace("key", "response")
    zero = (r'<span class="m c3 ms-correct h2"[^>]*><span class="m c2 ms-correct h1"[^>]*>Babbage<span class="lb">3'
            r'</span></span> <span class="m c0 ms-correct h1"[^>]*><span class="z">_</span><span class="lb">1</span>'
            r'</span> <span class="m c1 ms-correct h1"[^>]*>met<span class="lb">2<span class="pt">2/2</span></span>'
            r'</span><span class="lb">4</span></span>')
    # the zero of Ada a box of its own, inside the mention around it, correct on both sides
    assert re.search(zero + r' <span class="z">se</span>$', key1), key1  # the key's own empty node, no mention
    assert re.search(zero + "$", response1), response1
    assert re.search(r'Lovelace<span class="lb">1</span></span> <span class="m c4 ms-spurious h1" title="response '
                     r'cluster 5 · spurious[^"]*"><span class="z">pro</span><span class="lb">5\+</span></span> '
                     r'<span class="m c1', response1), response1  # the response's own zero: spurious
    assert '"z">pro<' not in key1 and '"z">se<' not in response1
    # the tables: the zeros' text by mention_text, an empty node numbered after its word
    assert '<td class="txt">pro</td><td class="num">2.1</td>' in page and "Babbage _ met" in page


def test_pairs_from_a_matching_show_on_the_page(tmp_path):
    tokens = ("the", "big", "dog", "barked", ".", "It", "ran")
    key = CorefDocument("d", tokens, (((0, 2), (5, 5)),))
    response = CorefDocument("d", tokens, (((1, 2), (5, 5)),))
    result = score_documents([key], [response]).to_dict()
    exact = write_coref_reports([key], [response], result, tmp_path / "exact")
    paired = write_coref_reports([key], [response], result, tmp_path / "paired",
                                 pairs=[{(1, 2): (0, 2), (5, 5): (5, 5)}])
    assert "ms-spurious" in _panel(exact["doc-0.html"].read_text(encoding="utf8"))
    page = _panel(paired["doc-0.html"].read_text(encoding="utf8"))
    assert "ms-spurious" not in page and "paired with the key mention “the big dog”" in page


def test_a_token_and_a_name_with_a_script_are_text(tmp_path):
    tokens = ("Ada", "wrote", "<script>", EVIL, ".")
    key = CorefDocument(EVIL, tokens, (((0, 0), (2, 2)),))
    response = CorefDocument(EVIL, tokens, (((0, 0),), ((2, 3),)))
    written = write_coref_reports([key], [response], score_documents([key], [response]).to_dict(),
                                  tmp_path / "pages", settings=EVIL)
    assert sorted(p.name for p in (tmp_path / "pages").iterdir()) == ["doc-0.html", "index.html"]
    for path in written.values():
        page = path.read_text(encoding="utf8")
        assert EVIL not in page and "alert(1)</" not in page and page.count("<script>") == 1
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert ">&lt;script&gt;<span" in written["doc-0.html"].read_text(encoding="utf8")  # the token in its box


def test_a_result_of_other_documents_is_refused(tmp_path):
    key = CorefDocument("d", ("a",), (((0, 0),),))
    with pytest.raises(ValueError, match="documents"):
        write_coref_reports([key], [key], {"n_docs": 2}, tmp_path)
    assert not any(tmp_path.iterdir())


def test_render_without_per_document_figures():
    key = CorefDocument("d", ("a", "b"), (((0, 0), (1, 1)),))
    page = render_coref_document(key, key, document_diff(key, key))
    assert "without per-document figures" in page and 'id="coref-text"' in page


# ------------------------------------------------------------------ browser ---

_LOOKS = """
window.addEventListener("load", function () {
  "use strict";
  function visible(el) {
    return el.getClientRects().length > 0 && getComputedStyle(el).visibility !== "hidden";
  }
  var out = {scripts: document.scripts.length, cells: [], marks: [], empty: []};
  var cells = document.querySelectorAll("#coref-text .sk:not(.hd), #coref-text .sr:not(.hd)");
  Array.prototype.forEach.call(cells, function (el) {
    var box = el.getBoundingClientRect();
    out.cells.push({side: el.classList.contains("sk") ? "key" : "response", text: el.innerText,
                    width: box.width, height: box.height, visible: visible(el)});
  });
  Array.prototype.forEach.call(document.querySelectorAll("#coref-text .m"), function (el) {
    var s = getComputedStyle(el), label = el.querySelector(":scope > .lb");
    out.marks.push({cls: el.className, visible: visible(el), style: s.borderTopStyle, colour: s.borderTopColor,
                    width: parseFloat(s.borderTopWidth), text: el.innerText,
                    label: label && visible(label) ? label.innerText : null});
  });
  Array.prototype.forEach.call(document.querySelectorAll("#coref-text .z"), function (el) {
    var cell = el.closest(".sk, .sr"), s = getComputedStyle(el), box = el.getBoundingClientRect();
    out.empty.push({side: cell.classList.contains("sk") ? "key" : "response", text: el.innerText,
                    visible: visible(el), width: box.width, colour: s.color, text_colour: getComputedStyle(cell).color,
                    italic: s.fontStyle === "italic", boxed: !!el.parentElement.closest(".m")});
  });
  var pre = document.createElement("pre");
  pre.id = "looks";
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
});
"""


def looks(page: Path, tmp: Path, width: int = 1400) -> dict:
    """The text cells and the mention boxes as Chromium draws them (a copy of ``page`` with a probe script,
    allowed by its hash in the page's own CSP)."""
    text = page.read_text(encoding="utf8")
    digest = base64.b64encode(hashlib.sha256(_LOOKS.encode("utf8")).digest()).decode("ascii")
    text, n = re.subn(r"script-src ('sha256-[^']+')", rf"script-src \1 'sha256-{digest}'", text)
    assert n == 1
    copy = tmp / f"looks-{page.name}"
    copy.write_text(text.replace("</body>", f"<script>{_LOOKS}</script></body>"), encoding="utf8")
    dom = _chromium(f"--window-size={width},900", "--dump-dom", copy.resolve().as_uri(), tmp=tmp)
    found = re.search(r'<pre id="looks">(.*?)</pre>', dom, re.S)
    assert found, dom[:800]
    return json.loads(html.unescape(found.group(1)))


def _no_blank_panel(seen: dict) -> None:
    assert {c["side"] for c in seen["cells"]} == {"key", "response"}
    for cell in seen["cells"]:
        assert cell["visible"] and cell["width"] > 150 and cell["height"] > 10 and cell["text"].strip(), cell


@needs_chromium
def test_a_reader_sees_the_index_and_both_sides_of_a_document(tc_pages, tmp_path):
    rows = "#docs-table tbody tr"
    for result in check_page(tc_pages / "index.html", tmp_path, [rows, "#overall-table tbody tr"]).values():
        assert all_visible(result["before"], rows) == 2
        assert all_visible(result["before"], "#overall-table tbody tr") == 8
    cells, marks = "#coref-text .sk:not(.hd), #coref-text .sr:not(.hd)", "#coref-text .m"
    for name in ("doc-0.html", "doc-1.html"):
        for result in check_page(tc_pages / name, tmp_path, [cells, marks, "#clusters-table tbody tr"]).values():
            assert all_visible(result["before"], cells) == 4  # two sentences, each side
            assert all_visible(result["before"], marks) >= 9
            all_visible(result["before"], "#clusters-table tbody tr")

    two = looks(tc_pages / "doc-0.html", tmp_path)
    _no_blank_panel(two)
    assert "b1 b2 b3 b4" in two["cells"][0]["text"] and "f1 f2 f3" in two["cells"][3]["text"]
    assert all(m["visible"] and m["width"] >= 2 for m in two["marks"])
    correct = [m for m in two["marks"] if "ms-correct" in m["cls"]]
    assert correct and all(m["style"] == "solid" for m in correct)
    # each cluster its own colour, the same on both sides; a missing mention dotted, labelled ✗
    colours = {m["cls"].split()[1]: m["colour"] for m in two["marks"]}
    assert len(set(colours.values())) == len(colours) == 3 and "rgba(0, 0, 0, 0)" not in colours.values()
    missing = [m for m in two["marks"] if "ms-missing" in m["cls"]]
    assert len(missing) == 3 and all(m["style"] == "dotted" and "✗" in m["label"] for m in missing)
    assert [m["label"] for m in two["marks"] if " c0 " in m["cls"]] == ["1", "1"]  # key and response: cluster 1

    ten = looks(tc_pages / "doc-1.html", tmp_path, width=800)
    _no_blank_panel(ten)
    moved = [m for m in ten["marks"] if "ms-moved" in m["cls"]]
    assert len(moved) == 6 and all(m["visible"] and m["style"] == "dashed" and "⇄" in m["label"] for m in moved)
    solid = {m["colour"] for m in ten["marks"] if "ms-correct" in m["cls"]}
    assert {m["colour"] for m in moved} - solid  # the moved halves' response clusters have colours of their own


@needs_chromium
def test_a_reader_sees_a_script_token_as_text(tmp_path):
    tokens = ("Ada", "wrote", "<script>", ".")
    key = CorefDocument(EVIL, tokens, (((0, 0), (2, 2)),))
    written = write_coref_reports([key], [key], score_documents([key], [key]).to_dict(), tmp_path / "pages")
    seen = looks(written["doc-0.html"], tmp_path)
    assert seen["scripts"] == 2  # the page's own and the probe
    _no_blank_panel(seen)
    assert "<script>" in seen["cells"][0]["text"] and "<script>" in seen["cells"][1]["text"]


def _rgb(colour: str) -> tuple[int, ...]:
    return tuple(int(v) for v in re.findall(r"\d+", colour)[:3])


@needs_chromium
def test_a_reader_sees_each_sides_empty_nodes_greyed(zero_pages, tmp_path):
    cells, empty = "#coref-text .sk:not(.hd), #coref-text .sr:not(.hd)", "#coref-text .z"
    for result in check_page(zero_pages / "doc-0.html", tmp_path, [cells, empty, "#coref-text .m"]).values():
        assert all_visible(result["before"], cells) == 4 and all_visible(result["before"], empty) == 4
        all_visible(result["before"], "#coref-text .m")
    for width in (1400, 800):
        seen = looks(zero_pages / "doc-0.html", tmp_path, width=width)
        _no_blank_panel(seen)
        assert sorted((e["side"], e["text"], e["boxed"]) for e in seen["empty"]) == [
            ("key", "_", True), ("key", "se", False), ("response", "_", True), ("response", "pro", True)]
        for e in seen["empty"]:
            colour, text = _rgb(e["colour"]), _rgb(e["text_colour"])
            assert e["visible"] and e["width"] > 3 and e["italic"], e
            # greyed: a grey (its channels close), lighter than the words around it
            assert max(colour) - min(colour) <= 40 and sum(colour) > sum(text) + 60, e
        zeros = [m for m in seen["marks"] if m["text"].startswith(("_", "pro"))]
        assert [(m["style"], m["label"]) for m in zeros] == [("solid", "1"), ("dotted", "5+"), ("solid", "1")]
        assert all(m["visible"] and m["width"] >= 2 for m in zeros)
