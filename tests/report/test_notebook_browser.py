"""Every notebook render (``_repr_html_``) in a real browser (headless Chromium): what a reader sees in a
~1000 px output cell.

Each kind of result object that defines ``_repr_html_`` in the package has a
builder in :data:`RENDERS` (made from the data-free demo corpus,
``assets/demo/key.jsonl`` and ``response.jsonl``); a new kind without one fails
:func:`test_every_notebook_render_is_checked`. Its fragment is wrapped in a page
1000 px wide with a probe script (the page is ours: no Content-Security-Policy,
unlike the report pages of ``test_browser.py``) that writes into the DOM:

- for each selector, how many elements there are and how many are visible, once
  as loaded and once with every ``<details>`` opened;
- the document's scroll width against its client width (no horizontal overflow)
  and the right edge of the widest table;
- boxes that are visible but show no text ("blank panels");
- for the Annotation Diff, the gap in px between each entity's text and its
  ``.ent-label`` (their bounding boxes);
- the figures cells whose text breaks over lines (an arrow or a "p" wrapped
  away from its value).

A screenshot of each render is kept in the test's tmp path. Without Chromium the
tests skip, unless ``CI`` is set: there they are required.
"""

from __future__ import annotations

import ast
import html
import json
import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import spacy_anno_eval
from tests.report.test_browser import _chromium  # the one way these tests start Chromium

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = Path(spacy_anno_eval.__file__).resolve().parent
DEMO = ROOT / "assets" / "demo"
CHROMIUM = "/usr/bin/chromium"
HAVE_CHROMIUM = os.path.isfile(CHROMIUM) and os.access(CHROMIUM, os.X_OK)
CELL_WIDTH = 1000
#: the smallest gap between an entity's text and its label that a reader sees as a gap
MIN_LABEL_GAP = 3.0

needs_chromium = pytest.mark.skipif(not HAVE_CHROMIUM and not os.environ.get("CI"),
                                    reason="no /usr/bin/chromium (required when CI is set)")


# ------------------------------------------------------------------ renders ---

def _evaluation(tmp: Path) -> Any:
    from spacy_anno_eval import evaluate

    return evaluate(str(DEMO / "key.jsonl"), str(DEMO / "response.jsonl"))


def _label_table() -> list[list[int]]:
    """The demo's coextensive pairs as a label table (key × response, without ``none``): the categorical data of
    the agreement renders."""
    matrix = _evaluation(Path()).confusion("coextensive").to_dict()["matrix"]
    return [row[:-1] for row in matrix[:-1]]


def _agreement(tmp: Path) -> Any:
    from spacy_anno_eval import cohen_kappa
    from spacy_anno_eval.agreement.coefficients import table_bootstrap

    return table_bootstrap(_label_table(), cohen_kappa, n_samples=200, seed=1)


def _agreement_summary(tmp: Path) -> Any:
    from spacy_anno_eval import agreement_summary

    table = _label_table()  # the same pairs as two annotators' labels, one unit per pair
    pairs = [(i, j) for i, row in enumerate(table) for j, n in enumerate(row) for _ in range(n)]
    return agreement_summary([[i for i, _ in pairs], [j for _, j in pairs]], bootstrap=50, seed=2)


def _benchmark(tmp: Path) -> Any:
    from spacy_anno_eval.workflows.benchmark.run import run_benchmark
    from tests.workflows.benchmark.test_run import FAST, make_bench, ruler

    bench = make_bench(tmp / "bench")
    run_benchmark("store", bench, nlp=ruler(), settings=FAST)
    return run_benchmark("default", bench, nlp=ruler(drop=("PER",), version="2.0.0"), settings=FAST)


#: every class with a ``_repr_html_`` -> how to make one from the demo corpus
RENDERS: dict[str, Callable[[Path], Any]] = {
    "Evaluation": _evaluation,
    "Agreement": _agreement,
    "AgreementSummary": _agreement_summary,
    "BenchmarkResult": _benchmark,
}


def classes_with_repr_html(root: Path) -> dict[str, str]:
    """Every class under ``root`` that defines ``_repr_html_`` -> its module (relative path)."""
    found = {}
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf8"), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef) and any(
                    isinstance(f, ast.FunctionDef | ast.AsyncFunctionDef) and f.name == "_repr_html_"
                    for f in node.body):
                found[node.name] = path.relative_to(root).as_posix()
    return found


def test_every_notebook_render_is_checked():
    found = classes_with_repr_html(PACKAGE)
    assert set(found) == set(RENDERS), (
        f"classes with _repr_html_ and no browser check: {sorted(set(found) - set(RENDERS))} "
        f"({', '.join(found[k] for k in sorted(set(found) - set(RENDERS)))}); add a builder to RENDERS; "
        f"checked but gone: {sorted(set(RENDERS) - set(found))}")


def test_the_scan_finds_a_new_render(tmp_path):
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "new.py").write_text("class Shown:\n    def _repr_html_(self):\n        return ''\n"
                                             "class Plain:\n    def __repr__(self):\n        return ''\n")
    assert classes_with_repr_html(tmp_path) == {"Shown": "sub/new.py"}


# -------------------------------------------------------------------- probe ---

_PROBE = """
window.addEventListener("load", function () {
  "use strict";
  function visible(el) {
    if (el.getClientRects().length === 0 || getComputedStyle(el).visibility === "hidden") { return false; }
    for (var d = el.parentElement; d; d = d.parentElement) {  // inside a closed <details>, past its summary
      if (d.tagName === "DETAILS" && !d.open && el.closest("summary") === null) { return false; }
    }
    return true;
  }
  function counts() {
    var out = {};
    SELECTORS.forEach(function (s) {
      var all = Array.prototype.slice.call(document.querySelectorAll(s));
      out[s] = [all.length, all.filter(visible).length];
    });
    return out;
  }
  function blank() {  // boxes shown with no text in them
    return Array.prototype.filter.call(
      document.querySelectorAll(".anno-eval table, .anno-eval section, .anno-eval .pane, .anno-eval details, "
                                + ".anno-eval figure, .anno-eval .cards, .anno-eval .verdict"),
      function (el) {
        var r = el.getBoundingClientRect();
        return visible(el) && (r.width < 1 || r.height < 1 || el.innerText.trim() === "");
      }).map(function (el) { return el.tagName + "." + el.className; });
  }
  function lines(el) {  // distinct line boxes of an element's text
    var range = document.createRange();
    range.selectNodeContents(el);
    var tops = {};
    Array.prototype.forEach.call(range.getClientRects(), function (r) {
      if (r.width > 0) { tops[Math.round(r.top)] = true; }
    });
    return Object.keys(tops).length;
  }
  function widths() {
    var de = document.documentElement, right = 0;
    Array.prototype.forEach.call(document.querySelectorAll(".anno-eval table"), function (t) {
      if (visible(t)) { right = Math.max(right, t.getBoundingClientRect().right); }
    });
    return {scrollWidth: de.scrollWidth, clientWidth: de.clientWidth, tableRight: Math.round(right)};
  }
  var result = {before: counts(), blankBefore: blank(), widthBefore: widths()};
  result.gaps = Array.prototype.map.call(document.querySelectorAll("mark.entity"), function (mark) {
    var label = mark.querySelector(".ent-label"), text = mark.firstChild;
    if (!label || !text || text.nodeType !== 3) { return null; }
    var range = document.createRange();
    range.selectNodeContents(text);
    var t = range.getBoundingClientRect(), l = label.getBoundingClientRect();
    return {text: text.textContent, gap: l.left - t.right, label: label.textContent};
  }).filter(function (g) { return g !== null; });
  result.wrapped = Array.prototype.filter.call(document.querySelectorAll(".anno-eval td.num"), function (td) {
    if (!visible(td)) { return false; }
    if (td.children.length === 0) { return lines(td) > 1; }
    return Array.prototype.some.call(td.children, function (c) { return lines(c) > 1; });
  }).map(function (td) { return td.innerText; });
  Array.prototype.forEach.call(document.querySelectorAll("details"), function (d) { d.open = true; });
  result.after = counts();
  result.blankAfter = blank();
  result.widthAfter = widths();
  var pre = document.createElement("pre");
  pre.id = "probe";
  pre.textContent = JSON.stringify(result);
  document.body.appendChild(pre);
});
"""


def cell_page(fragment: str, script: str = "") -> str:
    """A page holding ``fragment`` as a notebook's output cell does: the page's own font and margins, the
    fragment's style block and markup, nothing else."""
    return ("<!doctype html><html><head><meta charset='utf-8'><title>cell</title></head>"
            f"<body style='margin:0;padding:8px;font-family:sans-serif'><div class='output'>{fragment}</div>"
            + (f"<script>{script}</script>" if script else "") + "</body></html>")


def probe(fragment: str, tmp: Path, name: str, selectors: list[str], width: int = CELL_WIDTH,
          height: int = 1600) -> dict:
    """Load ``fragment`` in a page ``width`` px wide with the probe; keep a screenshot (``{name}.png``)."""
    page = tmp / f"{name}.html"
    page.write_text(cell_page(fragment), encoding="utf8")
    probed = tmp / f"{name}-probe.html"
    probed.write_text(cell_page(fragment, _PROBE.replace("SELECTORS", json.dumps(selectors))), encoding="utf8")
    dom = _chromium(f"--window-size={width},{height}", "--dump-dom", probed.resolve().as_uri(), tmp=tmp)
    found = re.search(r'<pre id="probe">(.*?)</pre>', dom, re.S)
    assert found, f"the probe did not run: {dom[:800]}"
    shot = tmp / f"{name}.png"
    _chromium(f"--window-size={width},{height}", f"--screenshot={shot}", page.resolve().as_uri(), tmp=tmp)
    assert shot.is_file() and shot.stat().st_size > 1000
    return json.loads(html.unescape(found.group(1)))


def all_visible(counts: dict, selector: str) -> int:
    """How many ``selector`` elements there are; asserts there are some and that each is visible."""
    total, shown = counts[selector]
    assert total > 0, f"no {selector} in the render"
    assert shown == total, f"{shown} of {total} {selector} visible"
    return total


def fits(result: dict) -> None:
    """Nothing blank, nothing wider than the cell, folded or open; no figure broken over lines."""
    assert result["blankBefore"] == [] and result["blankAfter"] == [], (result["blankBefore"], result["blankAfter"])
    for key in ("widthBefore", "widthAfter"):
        w = result[key]
        assert w["scrollWidth"] <= w["clientWidth"], (key, w)
        assert w["tableRight"] <= w["clientWidth"], (key, w)
    assert result["wrapped"] == [], result["wrapped"]


@pytest.fixture(scope="module")
def rendered(tmp_path_factory):
    """Each kind's fragment, made once."""
    tmp = tmp_path_factory.mktemp("renders")
    return {kind: make(tmp)._repr_html_() for kind, make in RENDERS.items()}


# -------------------------------------------------------------------- tests ---

@needs_chromium
def test_evaluation_render(rendered, tmp_path):
    report = _evaluation(tmp_path).report()
    rows, docs, marks = ".anno-eval > table tbody tr", "section.doc", "mark.entity"
    decisions, cells, bars = "details table.decisions tbody tr", "details table.heat td", "details g.bar"
    buckets = "details .bucket-chart g.bucket"
    result = probe(rendered["Evaluation"], tmp_path, "evaluation",
                   [".card", rows, docs, marks, ".ent-label", decisions, cells, bars, buckets, "details summary"])
    fits(result)
    before, after = result["before"], result["after"]
    assert all_visible(before, ".card") >= 3
    assert all_visible(before, rows) >= len(report["per_type"])
    assert all_visible(before, docs) == 3
    assert all_visible(before, marks) == all_visible(before, ".ent-label") > 0
    # the error analysis is folded: its summary shows, its tables wait for a click
    all_visible(before, "details summary")
    assert before[decisions][1] == 0 and before[cells][1] == 0
    assert all_visible(after, decisions) == len(report["per_type"])
    labels = len(report["per_type"]) + 1  # and none
    assert all_visible(after, cells) == labels * labels
    assert all_visible(after, bars) == len(report["per_type"])
    assert before[buckets][1] == 0 and all_visible(after, buckets) >= 4  # the bucket charts, folded too
    gaps = result["gaps"]
    assert len(gaps) == before[marks][0]
    assert min(g["gap"] for g in gaps) >= MIN_LABEL_GAP, sorted(gaps, key=lambda g: g["gap"])[:3]


@needs_chromium
def test_evaluation_render_without_pairs(tmp_path):
    """A merged or streamed evaluation keeps no pairs: no Diff and no heat map, the decision counts still."""
    evaluation = _evaluation(tmp_path).without_pairs()
    decisions, cells = "details table.decisions tbody tr", "table.heat td"
    result = probe(evaluation._repr_html_(), tmp_path, "evaluation-without-pairs",
                   [".card", "section.doc", decisions, cells], height=900)
    fits(result)
    assert all_visible(result["before"], ".card") >= 3
    assert result["before"]["section.doc"][0] == 0 and result["after"][cells][0] == 0
    assert all_visible(result["after"], decisions) == len(evaluation.report()["per_type"])


@needs_chromium
def test_agreement_render(rendered, tmp_path):
    result = probe(rendered["Agreement"], tmp_path, "agreement", ["table tr", "caption"], height=400)
    fits(result)
    assert all_visible(result["before"], "table tr") == 5  # value, observed, expected, items, interval
    all_visible(result["before"], "caption")


@needs_chromium
def test_agreement_summary_render(rendered, tmp_path):
    result = probe(rendered["AgreementSummary"], tmp_path, "agreement-summary", ["table tr"], height=400)
    fits(result)
    assert all_visible(result["before"], "table tr") == 7  # the head and six coefficients


@needs_chromium
def test_benchmark_render(rendered, tmp_path):
    verdict, rows, reg = ".verdict li", "table tbody tr", "td.reg"
    result = probe(rendered["BenchmarkResult"], tmp_path, "benchmark", [verdict, rows, reg, "table"])
    fits(result)
    before = result["before"]
    assert all_visible(before, verdict) >= 2
    tables = all_visible(before, "table")
    assert tables == 3  # one per measure: strict, lenient, average
    assert all_visible(before, rows) == 4 * tables  # LOC, MISC, ORG, PER in each
    assert all_visible(before, reg) >= 1
