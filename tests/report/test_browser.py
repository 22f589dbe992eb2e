"""Every HTML page kind in a real browser (headless Chromium): what a reader sees once the page's script ran.

The pages are made by the ``anno-eval`` commands on the demo corpus
(``scripts/screenshot_report.py``: :func:`build_pages`): the QA page, the IAA
matrix and a pair page for F-measure and for kappa, and the benchmark page
with a regression. Each is loaded at 1400 and at 800 px wide:

- the page as written: its script ran under its own Content-Security-Policy
  (``<body class="js">``);
- a test copy with a probe script, allowed by adding the probe's hash to the
  page's CSP, that writes into the DOM what is visible (elements with a box:
  not inside a hidden panel, a collapsed group or a filtered row) and the
  document's scroll width (no horizontal overflow);
- a screenshot of each, kept in the test's tmp path.

Without Chromium the tests skip, unless ``CI`` is set: there they are required.
"""

from __future__ import annotations

import base64
import hashlib
import html
import importlib.util
import json
import os
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"
HAVE_CHROMIUM = os.path.isfile(CHROMIUM) and os.access(CHROMIUM, os.X_OK)

pytestmark = pytest.mark.skipif(not HAVE_CHROMIUM and not os.environ.get("CI"),
                                reason="no /usr/bin/chromium (required when CI is set)")

SIZES = ((1400, 900), (800, 900))


def _script():
    spec = importlib.util.spec_from_file_location("screenshot_report", ROOT / "scripts" / "screenshot_report.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def shots():
    return _script()


@pytest.fixture(scope="module")
def pages(shots, tmp_path_factory):
    return shots.build_pages(tmp_path_factory.mktemp("pages"))


# what the probe reports: for each selector, [in the DOM, visible]; then, after clicking ``click`` (a tab), again
_PROBE = """
window.addEventListener("load", function () {
  "use strict";
  function visible(el) {
    return el.getClientRects().length > 0 && getComputedStyle(el).visibility !== "hidden";
  }
  function counts() {
    var out = {};
    SELECTORS.forEach(function (s) {
      var all = Array.prototype.slice.call(document.querySelectorAll(s));
      out[s] = [all.length, all.filter(visible).length];
    });
    return out;
  }
  var de = document.documentElement;
  var result = {before: counts(), scrollWidth: de.scrollWidth, clientWidth: de.clientWidth,
                innerWidth: window.innerWidth, bodyClass: document.body.className,
                wideTables: Array.prototype.filter.call(document.querySelectorAll("table"), function (t) {
                  return visible(t) && t.scrollWidth > t.clientWidth + 1;
                }).map(function (t) { return t.id || t.className; })};
  if (CLICK) {
    var button = document.querySelector('.tabs button[data-tab="' + CLICK + '"]');
    result.clicked = !!button;
    if (button) { button.click(); }
    result.after = counts();
    result.scrollWidthAfter = de.scrollWidth;
  }
  var pre = document.createElement("pre");
  pre.id = "probe";
  pre.textContent = JSON.stringify(result);
  document.body.appendChild(pre);
});
"""


def _chromium(*args: str, tmp: Path) -> str:
    import subprocess

    profile = tmp / "profile"
    profile.mkdir(exist_ok=True)
    result = subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                             "--no-first-run", "--disable-background-networking", "--disable-component-update",
                             "--disable-sync", "--hide-scrollbars", f"--user-data-dir={profile}",
                             "--virtual-time-budget=2000", *args],
                            capture_output=True, text=True, timeout=120, check=False)
    assert result.returncode == 0, result.stderr[-2000:]
    return result.stdout


def probe(page: Path, tmp: Path, size: tuple[int, int], selectors: list[str], click: str = "") -> dict:
    """Load a copy of ``page`` with the probe script (allowed by its hash in the page's own CSP)."""
    text = page.read_text(encoding="utf8")
    script = _PROBE.replace("SELECTORS", json.dumps(selectors)).replace("CLICK", json.dumps(click))
    digest = base64.b64encode(hashlib.sha256(script.encode("utf8")).digest()).decode("ascii")
    text, n = re.subn(r"script-src ('sha256-[^']+')", rf"script-src \1 'sha256-{digest}'", text)
    assert n == 1, "the page has no script-src hash in its CSP"
    copy = tmp / f"probe-{page.parent.name}-{page.name}"
    copy.write_text(text.replace("</body>", f"<script>{script}</script></body>"), encoding="utf8")
    dom = _chromium(f"--window-size={size[0]},{size[1]}", "--dump-dom", copy.resolve().as_uri(), tmp=tmp)
    found = re.search(r'<pre id="probe">(.*?)</pre>', dom, re.S)
    assert found, f"the probe did not run: {dom[:800]}"
    return json.loads(html.unescape(found.group(1)))


def check_page(page: Path, tmp: Path, selectors: list[str], click: str = "",
               fragment: str = "") -> dict[tuple[int, int], dict]:
    """At each size: the page's own script runs under its CSP, the document does not overflow sideways, a
    screenshot is kept; returns the probe's findings per size."""
    assert page.is_file(), page
    dom = _chromium("--window-size=1400,900", "--dump-dom", page.resolve().as_uri(), tmp=tmp)
    assert re.search(r'<body class="js\b', dom), "the page's script did not run (CSP hash?)"
    found = {}
    for size in SIZES:
        result = probe(page, tmp, size, selectors, click)
        assert "js" in result["bodyClass"].split()
        assert result["scrollWidth"] <= result["clientWidth"], (size, result)
        if size[0] >= 1400:  # every table fits; narrower, a wide table scrolls in its own box
            assert result["wideTables"] == [], result["wideTables"]
        if click:
            assert result["clicked"] and result["scrollWidthAfter"] <= result["clientWidth"], (size, result)
        shot = tmp / f"{page.parent.name}-{page.stem}-{size[0]}.png"
        _chromium(f"--window-size={size[0]},{size[1]}", f"--screenshot={shot}",
                  page.resolve().as_uri() + (f"#{fragment}" if fragment else ""), tmp=tmp)
        assert shot.is_file() and shot.stat().st_size > 1000
        found[size] = result
    return found


def all_visible(counts: dict, selector: str) -> int:
    """How many ``selector`` elements there are; asserts there are some and that each is visible."""
    total, shown = counts[selector]
    assert total > 0, f"no {selector} in the page"
    assert shown == total, f"{shown} of {total} {selector} visible"
    return total


def test_qa_page(pages, tmp_path):
    rows, diff = "#corpus-table tbody tr", "tr[data-status]"
    for result in check_page(pages["qa"], tmp_path, [rows, diff, "#tab-corpus", "#tab-diff"], click="diff").values():
        assert all_visible(result["before"], rows) == 4  # LOC, MISC, ORG, PER
        assert result["before"][diff][1] == 0  # the Diff is another tab
        assert all_visible(result["after"], diff) > 40
        assert result["after"][rows][1] == 0


def test_qa_page_errors_tab_and_type_chart(pages, tmp_path):
    """The per-type F chart beside the corpus table; the Errors tab: decision counts, both heat maps with every
    cell shown, the bucket charts, the interval table (issue 28, items 2, 3, 5 and 6)."""
    bars, decisions = "#type-chart g.bar", "#decision-table tbody tr"
    cells, intervals = "#tab-errors table.heat td", "#interval-table tbody tr"
    buckets = "#tab-errors .bucket-chart g.bucket"
    for result in check_page(pages["qa-errors"], tmp_path, [bars, decisions, cells, intervals, buckets],
                             click="errors", fragment="errors").values():
        assert all_visible(result["before"], bars) == 4  # one bar per type, on the first tab
        assert result["before"][cells][1] == 0  # the heat maps are another tab
        assert all_visible(result["after"], decisions) == 4
        assert all_visible(result["after"], cells) == 2 * 5 * 5  # two maps: 4 labels and none, squared
        assert all_visible(result["after"], intervals) == 3  # strict, lenient, average
        assert all_visible(result["after"], buckets) == 4 * 4  # span length, label, doc length, density: 4 each
        assert result["after"][bars][1] == 0


@pytest.mark.parametrize("measure", ["fmeasure", "kappa"])
def test_iaa_matrix_index(pages, tmp_path, measure):
    cells, links, per_type = "table.matrix tbody td", "table.matrix tbody a", "table.per-type tbody tr"
    for result in check_page(pages[f"iaa-{measure}"], tmp_path, [cells, links, per_type]).values():
        # 3 annotators: 3 x 3 cells and two means per row; a link to each pair page off the diagonal
        assert all_visible(result["before"], cells) == 15
        assert all_visible(result["before"], links) == 6
        all_visible(result["before"], per_type)


def test_iaa_fmeasure_pair_page(pages, tmp_path):
    rows, diff = "#corpus-table tbody tr", "tr[data-status]"
    for result in check_page(pages["iaa-fmeasure-pair"], tmp_path, [rows, diff], click="diff").values():
        all_visible(result["before"], rows)
        # a1 vs a3: every ORG read as LOC, one span left out per document
        assert all_visible(result["after"], diff) > 40
        assert result["after"][rows][1] == 0


def test_iaa_kappa_pair_page(pages, tmp_path):
    confusion, disagreements = "table.confusion tbody tr", "table.disagreements tbody tr"
    for result in check_page(pages["iaa-kappa-pair"], tmp_path, [confusion, disagreements]).values():
        all_visible(result["before"], confusion)
        assert all_visible(result["before"], disagreements) >= 12  # the 12 ORG read as LOC


def test_benchmark_page(pages, tmp_path):
    verdict, types, reg = "#verdict.bad li", "#type-table tbody tr", "#type-table td.reg"
    changes, first, other = "#changes-table tbody tr", '#type-table td[data-mg="0"]', '#type-table td[data-mg="1"]'
    for result in check_page(pages["benchmark"], tmp_path, [verdict, types, reg, changes, first, other]).values():
        # the measure groups collapse: the first shows, the others wait for their checkbox
        all_visible(result["before"], first)
        assert result["before"][other][0] > 0 and result["before"][other][1] == 0
        assert all_visible(result["before"], verdict) >= 2  # LOC and overall dropped
        assert all_visible(result["before"], types) == 4
        all_visible(result["before"], changes)
        assert result["before"][reg][1] >= 1  # the first measure's regressions are shown
