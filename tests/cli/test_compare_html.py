"""``anno-eval compare --html FOLDER`` (issue 28, item 4): an index of every pair and one page per pair with its
per-type figures and error difference; file names from positions only, every system name escaped, and the pages
as a reader sees them in headless Chromium (:mod:`tests.report.test_browser`'s probe)."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from spacy_anno_eval.cli.app import app
from tests.cli.test_compare import _systems
from tests.report.test_browser import HAVE_CHROMIUM, all_visible, check_page

ROOT = Path(__file__).resolve().parents[2]
DEMO_KEY = ROOT / "assets" / "demo" / "key.jsonl"
DEMO_RESPONSE = ROOT / "assets" / "demo" / "response.jsonl"
EVIL = "<script>alert(1)</script>"
runner = CliRunner()
needs_chromium = pytest.mark.skipif(not HAVE_CHROMIUM and not os.environ.get("CI"),
                                    reason="no /usr/bin/chromium (required when CI is set)")


def _write(tmp: Path, *extra: str) -> tuple[Path, object]:
    out = tmp / "pages"
    result = runner.invoke(app, ["compare", str(DEMO_KEY), *map(str, _systems(tmp / "in")), "--names",
                                 f"v0,{EVIL},half", "--samples", "300", "--html", str(out), *extra])
    return out, result


@pytest.fixture(scope="module")
def pages(tmp_path_factory) -> Path:
    out, result = _write(tmp_path_factory.mktemp("compare-html"), "-q")
    assert result.exit_code == 0, result.output
    return out


def _rows(page: str, table_id: str) -> int:
    body = re.search(rf'<table[^>]*id="{table_id}".*?<tbody>(.*?)</tbody>', page, re.S)
    assert body, f"no table {table_id}"
    return body.group(1).count("<tr")


def test_an_index_and_a_page_per_pair_named_by_position(pages):
    assert sorted(p.name for p in pages.iterdir()) == ["index.html", "pair-0-1.html", "pair-0-2.html",
                                                      "pair-1-2.html"]
    index = (pages / "index.html").read_text(encoding="utf8")
    for name in ("pair-0-1.html", "pair-0-2.html", "pair-1-2.html"):
        assert f'href="{name}"' in index
    assert _rows(index, "systems-table") == 3
    assert all(_rows(index, f"figures-{i}-{j}") == 9 for i, j in ((0, 1), (0, 2), (1, 2)))  # 3 measures x P/R/F
    assert 'class="sig"' in index and "p (Holm)" in index  # three systems: Holm-corrected, significant marked
    first = (pages / "pair-0-1.html").read_text(encoding="utf8")
    # v0 against the key itself: every decision v0 gets wrong, the key gets right (the 17 changes)
    assert "A right, B wrong (0)" in first and 'id="a-right-table"' not in first  # a note, no empty table
    assert _rows(first, "b-right-table") == 17
    assert "<mark>Charles Babbage&#x27;s</mark>" in first and "Lovelace wrote the first program for " in first
    assert _rows(first, "type-table") == 4  # LOC, MISC, ORG, PER
    second = (pages / "pair-0-2.html").read_text(encoding="utf8")
    # v0 against half (v0 with 8 documents emptied): v0's correct spans there are v0's; its spurious ones, half's
    assert _rows(second, "a-right-table") > 0 and _rows(second, "b-right-table") > 0
    assert "spurious" in second and "missing" in second


def test_a_system_name_with_a_script_is_escaped_on_every_page(pages):
    for page in pages.iterdir():
        text = page.read_text(encoding="utf8")
        assert EVIL not in text and "alert(1)</" not in text, page.name
        assert text.count("<script>") == 1  # the shared script alone, pinned by the CSP
        assert 'http-equiv="Content-Security-Policy"' in text and "script-src 'sha256-" in text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in (pages / "index.html").read_text(encoding="utf8")
    assert "&lt;script&gt;alert(1)&lt;/script&gt; vs half" in (pages / "pair-1-2.html").read_text(encoding="utf8")
    assert not any("script" in p.name or "alert" in p.name for p in pages.iterdir())


def test_json_and_pages_together_and_the_line_that_says_where(tmp_path):
    out = tmp_path / "c.json"
    folder, result = _write(tmp_path, "--json", str(out))
    assert result.exit_code == 0, result.output
    assert (folder / "index.html").is_file() and json.loads(out.read_text(encoding="utf8"))["pairs"]
    assert f"pages written to {folder / 'index.html'} (3 pair page(s))" in result.stderr


def test_a_file_as_the_folder_is_exit_2_and_left_alone(tmp_path):
    target = tmp_path / "pages"
    target.write_text("keep", encoding="utf8")
    _, result = _write(tmp_path)
    assert result.exit_code == 2 and "it is a file" in result.stderr, result.output
    assert target.read_text(encoding="utf8") == "keep"


@needs_chromium
def test_the_index_in_a_browser(pages, tmp_path):
    figures, systems, sig, links = "table.figures tbody tr", "#systems-table tbody tr", "table.figures td.sig", \
        "section.pair h2 a"
    for result in check_page(pages / "index.html", tmp_path, [figures, systems, sig, links]).values():
        assert all_visible(result["before"], figures) == 27  # 3 pairs x 9 figures
        assert all_visible(result["before"], systems) == 3
        assert all_visible(result["before"], links) == 3
        all_visible(result["before"], sig)


@needs_chromium
def test_a_pair_page_in_a_browser(pages, tmp_path):
    a_right, b_right, types = "#a-right-table tbody tr", "#b-right-table tbody tr", "#type-table tbody tr"
    first, other = '#type-table td[data-mg="0"]', '#type-table td[data-mg="1"]'
    for result in check_page(pages / "pair-0-2.html", tmp_path, [a_right, b_right, types, first, other]).values():
        assert all_visible(result["before"], a_right) > 0
        assert all_visible(result["before"], b_right) > 0
        assert all_visible(result["before"], types) == 4
        all_visible(result["before"], first)  # the first measure shows, the others wait for their checkbox
        assert result["before"][other][0] > 0 and result["before"][other][1] == 0
