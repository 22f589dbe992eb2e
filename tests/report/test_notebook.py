"""Results render in a notebook (``_repr_html_``): an Evaluation, an Agreement and a benchmark result.

Each fragment is checked for its content and escaping, and loaded in headless Chromium (as a notebook's output
cell would hold it) to assert what a reader sees: the cards, the per-type rows and the Diff documents.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest
import spacy
from spacy.tokens import Span

from spacy_anno_eval import cohen_kappa, evaluate, to_dataframe, to_rows
from spacy_anno_eval.agreement.coefficients import table_bootstrap
from spacy_anno_eval.errors import DegenerateAgreementWarning
from spacy_anno_eval.workflows.benchmark.run import run_benchmark
from tests.workflows.benchmark.test_run import FAST, make_bench, ruler

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"
HAVE_CHROMIUM = os.path.exists(CHROMIUM) and shutil.which(CHROMIUM) is not None


@pytest.fixture(scope="module")
def demo():
    return evaluate(str(ROOT / "assets" / "demo" / "key.jsonl"), str(ROOT / "assets" / "demo" / "response.jsonl"))


def shown_in_browser(fragment: str, tmp_path: Path) -> str:
    """The DOM Chromium builds from a notebook cell holding ``fragment``."""
    page = tmp_path / "cell.html"
    page.write_text(f"<!doctype html><meta charset='utf-8'><body>{fragment}</body>", encoding="utf8")
    with tempfile.TemporaryDirectory(prefix="anno-eval-chromium-") as profile:
        return subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                               "--no-first-run", "--disable-background-networking", "--disable-component-update",
                               "--disable-sync", f"--user-data-dir={profile}", "--dump-dom", page.as_uri()],
                              capture_output=True, text=True, timeout=120, check=True).stdout


def test_an_evaluation_renders_cards_types_and_the_first_diff_documents(demo, tmp_path):
    html = demo._repr_html_()
    report = demo.report()
    assert "<script" not in html
    assert f"{100 * report['micro']['strict']['f']:.2f}" in html  # the strict F card, as a percentage
    for label in report["per_type"]:
        assert f">{label}<" in html
    assert html.count('class="doc"') == 3 and "Annotation Diff: the first 3 of" in html
    if HAVE_CHROMIUM:
        dom = shown_in_browser(html, tmp_path)
        assert len(re.findall(r'class="card"', dom)) >= 3
        assert len(re.findall(r'<section class="doc"', dom)) == 3
        body = dom.split('class="anno-eval"', 1)[1]
        assert len(re.findall(r"<tr", body)) > len(report["per_type"])


def test_an_evaluation_folds_its_error_analysis(demo):
    """Issue 28 in the notebook: the decision counts, the F chart and the label confusion heat map, folded."""
    html = demo._repr_html_()
    micro = demo.decision_counts()["micro"]
    assert html.count("<details>") == 1 and f"label error {micro['label_error']}" in html
    folded = html.split("<details>")[1].split("</details>")[0]
    assert 'class="stats heat"' in folded and 'class="chart"' in folded and 'id="' not in folded  # ids collide
    bare = demo.without_pairs()._repr_html_()
    assert "keeps no pairs" in bare and "heat" not in bare and 'class="stats sortable decisions"' in bare


def test_user_text_is_escaped_in_the_fragment(tmp_path):
    nlp = spacy.blank("en")
    k, r = nlp("Hi <script>alert(1)</script> Bob"), nlp("Hi <script>alert(1)</script> Bob")
    k.ents = [Span(k, 0, 1, "<img src=x onerror=alert(2)>")]
    r.ents = [Span(r, 0, 1, "PER")]
    html = evaluate([k], [r])._repr_html_()
    assert "<img" not in html and "<script>alert" not in html and "&lt;img src=x" in html


def test_an_agreement_renders_its_parts_and_interval():
    html = table_bootstrap([[20, 10], [20, 50]], cohen_kappa, n_samples=200, seed=1)._repr_html_()
    assert "<caption>kappa</caption>" in html and "0.3478" in html and "95 % interval" in html
    with pytest.warns(DegenerateAgreementWarning, match=r"kappa: expected agreement Ae = 1 \(a single category"):
        one_category = cohen_kappa([[5, 0], [0, 0]])  # kappa does not exist
    assert "undefined" in one_category._repr_html_()


def test_a_benchmark_result_renders_its_verdict(tmp_path):
    bench = make_bench(tmp_path / "bench")
    run_benchmark("store", bench, nlp=ruler(), settings=FAST)
    result = run_benchmark("default", bench, nlp=ruler(drop=("PER",), version="2.0.0"), settings=FAST)
    html = result._repr_html_()
    assert result.exit_code == 1 and "regress" in html.lower() and ">PER<" in html
    # one table per measure, so that the fragment fits a notebook cell (test_notebook_browser.py measures it)
    assert html.count("<table") == 3 and 'id="type-table"' not in html
    if HAVE_CHROMIUM:
        dom = shown_in_browser(html, tmp_path)
        assert "PER" in dom.split('class="anno-eval"', 1)[1]


def test_rows_and_dataframe_take_an_evaluation(demo):
    assert to_rows(demo) == to_rows(demo.report())
    pd = pytest.importorskip("pandas")
    assert isinstance(to_dataframe(demo), pd.DataFrame) and len(to_dataframe(demo)) == len(to_rows(demo))


def test_an_agreement_summary_renders_its_coefficients_and_intervals(tmp_path):
    from spacy_anno_eval import agreement_summary

    summary = agreement_summary([[1, 2, 1, 1, 2], [1, 2, 2, 1, 2]], bootstrap=50, seed=2)
    html = summary._repr_html_()
    assert f"{summary['krippendorff_alpha']['value']:.4f}" in html and "Krippendorff" in html
    low = summary["krippendorff_alpha"]["ci"]["low"]
    assert f"{low:.4f}" in html  # the interval is shown where it was computed
    assert dict(summary) == summary  # still the JSON-ready dict
    if HAVE_CHROMIUM:
        dom = shown_in_browser(html, tmp_path)
        assert len(re.findall(r"<tr", dom.split('class="anno-eval"', 1)[1])) == 7
