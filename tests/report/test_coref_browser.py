"""The coreference agreement pages (``anno-eval coref-iaa --html``) in a real browser (headless Chromium), as
:mod:`tests.report.test_browser` loads every other page kind: the page's script runs under its own CSP, nothing
overflows sideways at 1400 and 800 px, and a reader sees the matrix's coloured cells with their figures, each
pair's link, and on a pair page the row of every metric; no panel is left blank.

Without Chromium the tests skip, unless ``CI`` is set: there they are required."""

from __future__ import annotations

import html
import os
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from spacy_anno_eval.cli.app import app
from tests.cli.test_coref import KEY
from tests.report.test_browser import HAVE_CHROMIUM, _chromium, all_visible, check_page

pytestmark = pytest.mark.skipif(not HAVE_CHROMIUM and not os.environ.get("CI"),
                                reason="no /usr/bin/chromium (required when CI is set)")

ALICE = KEY  # the coref command tests' two documents: one annotator's
ANNOTATORS = {"alice": ALICE,
              "bob": ALICE.replace("w 0 5 she (0)", "w 0 5 she (1)").replace("w 0 6 wrote (2)", "w 0 6 wrote -"),
              "<carol>": ALICE.replace("w 0 2 he (3)", "w 0 2 he -")}
FIGURE = re.compile(r"^\d{1,3}\.\d\d$")


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The pages of three annotators (one name with markup in it), made by the command."""
    tmp = tmp_path_factory.mktemp("coref-iaa")
    paths = []
    for k, text in enumerate(ANNOTATORS.values()):
        path = tmp / f"annotator{k}.conll"
        path.write_text(text, encoding="utf8")
        paths.append(str(path))
    out = tmp / "html"
    result = CliRunner().invoke(app, ["coref-iaa", *paths, "--names", ",".join(ANNOTATORS), "--html", str(out),
                                      "-q"])
    assert result.exit_code == 0, result.output
    return out


def shown_cells(page: Path, tmp: Path, selector_class: str) -> list[list[str]]:
    """The text of each body row's cells of ``table.<selector_class>`` in the DOM after the page's script ran."""
    dom = _chromium("--window-size=1400,900", "--dump-dom", page.resolve().as_uri(), tmp=tmp)
    table = re.search(rf'<table class="{selector_class}[^"]*">.*?<tbody>(.*?)</tbody>', dom, re.S)
    assert table, f"no table.{selector_class} in the page"
    rows = re.findall(r"<tr>(.*?)</tr>", table.group(1), re.S)
    return [[html.unescape(re.sub(r"<[^>]+>", "", c)).strip() for c in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]
            for row in rows]


def test_the_matrix_shows_coloured_cells_with_figures_and_links(folder, tmp_path):
    cells, coloured = "table.matrix tbody td", 'table.matrix tbody td[style*="background:#"]'
    links, metrics = "table.matrix tbody a", "table.metrics tbody tr"
    heads, panels, main = "table.matrix thead th", "section.panel", "main table"
    for result in check_page(folder / "index.html", tmp_path,
                             [cells, coloured, links, metrics, heads, panels, main]).values():
        seen = result["before"]
        assert all_visible(seen, cells) == 3 * 3 + 3  # 3 x 3 pairs and each annotator's mean
        assert all_visible(seen, coloured) == 12  # every cell on the red-white-green scale (grey diagonal)
        assert all_visible(seen, links) == 6  # each off-diagonal cell opens its pair's page
        assert all_visible(seen, metrics) == 8  # CoNLL and the seven metrics
        assert all_visible(seen, heads) == 5  # a corner, three names, the mean
        assert seen[panels] == [0, 0]  # no tab panel that a script could leave blank
        assert all_visible(seen, main) == 4  # the matrix, every metric, each annotator, every pair
    rows = shown_cells(folder / "index.html", tmp_path, "matrix")
    assert len(rows) == 3
    for i, row in enumerate(rows):
        assert len(row) == 4 and row[i] == "-"  # the diagonal
        assert all(FIGURE.match(text) for j, text in enumerate(row) if j != i), row
    page = (folder / "index.html").read_text(encoding="utf8")
    assert "&lt;carol&gt;" in page and "<carol>" not in page


def test_a_pair_page_lists_every_metric_both_ways(folder, tmp_path):
    rows, docs, panels = "table.figures tbody tr", "table.per-doc tbody tr", "section.panel"
    back = 'a[href="index.html"]'
    for result in check_page(folder / "pair-0-2.html", tmp_path, [rows, docs, back, panels]).values():
        seen = result["before"]
        assert all_visible(seen, rows) == 8
        assert all_visible(seen, docs) == 2  # d1, d2
        assert all_visible(seen, back) == 1
        assert seen[panels] == [0, 0]
    figures = shown_cells(folder / "pair-0-2.html", tmp_path, "figures")
    assert len(figures) == 8 and all(len(row) == 9 for row in figures)  # R, P, F: the mean, each direction
    conll, *others = figures  # CoNLL has an F only (the mean F of MUC, B-cubed, CEAFe)
    assert [bool(FIGURE.match(text)) for text in conll] == [False, False, True] * 3 and conll[0] == "-"
    assert all(FIGURE.match(text) for row in others for text in row), others
    page = (folder / "pair-0-2.html").read_text(encoding="utf8")
    assert "alice as key" in page and "&lt;carol&gt; as key" in page
