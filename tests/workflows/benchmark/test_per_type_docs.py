"""The benchmark's changed documents (issue 18, item 3): broken down by type (GATE user guide 10.4.4), only
documents whose figures moved, and never ``-0.00`` on the page or in the Markdown."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spacy_anno_eval.report.benchmark import render_benchmark_html, render_benchmark_markdown
from spacy_anno_eval.report.benchmark_rows import signed_points
from spacy_anno_eval.spans.engine import evaluate
from spacy_anno_eval.workflows.benchmark.compare import compare_evaluations
from spacy_anno_eval.workflows.benchmark.settings import BenchmarkSettings

TEXT_A = "Alice met Bob in Paris."
TEXT_B = "Rome and Acme are far apart."
TEXT_C = "Nothing changes here, Oslo."


def _write(path: Path, docs: list[tuple[str, str, list[tuple[int, int, str]]]]) -> Path:
    path.write_text("".join(json.dumps({"text": t, "meta": {"id": i}, "spans": [
        {"start": s, "end": e, "label": lab} for s, e, lab in spans]}) + "\n" for i, t, spans in docs),
        encoding="utf8")
    return path


@pytest.fixture(scope="module")
def comparison(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("per-type-docs")
    key = _write(tmp / "key.jsonl", [
        ("a", TEXT_A, [(0, 5, "PER"), (10, 13, "PER"), (17, 22, "LOC")]),
        ("b", TEXT_B, [(0, 4, "LOC")]),
        ("c", TEXT_C, [(22, 26, "LOC")]),
    ])
    old = _write(tmp / "old.jsonl", [
        ("a", TEXT_A, [(0, 5, "PER"), (17, 22, "LOC")]),           # Bob missed
        ("b", TEXT_B, [(0, 4, "ORG")]),                            # Rome typed ORG: a mismatch
        ("c", TEXT_C, [(22, 26, "LOC")]),
    ])
    new = _write(tmp / "new.jsonl", [
        ("a", TEXT_A, [(0, 5, "PER"), (10, 13, "PER"), (17, 22, "LOC")]),  # Bob found: PER changes, LOC not
        ("b", TEXT_B, [(9, 13, "ORG")]),                           # other counts (missing + spurious), same figures
        ("c", TEXT_C, [(22, 26, "LOC")]),
    ])
    ev_old, ev_new = evaluate(key, old), evaluate(key, new)
    assert (ev_old.by_doc[1] != ev_new.by_doc[1]).any()  # b's counts do differ
    return compare_evaluations(ev_old, ev_new, BenchmarkSettings(n_samples=200), old_name="old", new_name="new")


def test_only_documents_whose_figures_moved_are_changed(comparison):
    ids = [row["id"] for row in comparison["per_doc"]]
    assert ids == ["a"]  # b's counts changed but none of its figures; c did not change at all
    for row in comparison["per_doc"]:
        moved = [cell["delta"] for m in ("strict", "lenient", "average") for cell in row[m].values()
                 if abs(cell["delta"]) > 1e-12]
        assert moved


def test_changed_documents_are_broken_down_by_type(comparison):
    (row,) = comparison["per_doc"]
    assert set(row["per_type"]) == {"PER", "LOC"}
    per, loc = row["per_type"]["PER"], row["per_type"]["LOC"]
    assert per["changed"] is True and loc["changed"] is False
    assert per["strict"]["r"] == {"old": 0.5, "new": 1.0, "delta": 0.5, "direction": "up"}
    assert per["strict"]["p"]["old"] == per["strict"]["p"]["new"] == 1.0
    assert loc["strict"]["f"]["delta"] == 0.0 and loc["strict"]["f"]["direction"] == "same"
    assert per["support"] == {"old": {"key": 2, "response": 1}, "new": {"key": 2, "response": 2}}
    # the document's own figures are still there: 2 of 3 found, then 3 of 3
    assert row["strict"]["r"]["old"] == pytest.approx(2 / 3) and row["strict"]["r"]["new"] == 1.0


def _report(comparison: dict) -> dict:
    return {"mode": "default", "settings": {"measures": ["strict", "lenient", "average"]}, "comparison": comparison}


def test_the_page_and_markdown_show_the_types_of_each_changed_document(comparison):
    page = render_benchmark_html(_report(comparison))
    assert 'id="doc-type-table"' in page
    assert 'data-type="PER" data-changed="true"' in page and 'data-type="LOC" data-changed="false"' in page
    assert "<code>b</code>" not in page.split('id="documents"')[1].split("</section>")[0]
    md = render_benchmark_markdown(_report(comparison))
    changed = md.split("## Changed documents")[1].split("## Changed annotations")[0]
    assert "| a | **overall** |" in changed and "| a | PER | 66.67 → 100.00 ▲ +33.33 |" in changed
    assert "| a | LOC |" in changed and "| b |" not in changed


def test_never_minus_zero(comparison):
    assert signed_points(-1e-9) == "+0.00" and signed_points(-0.0) == "+0.00" and signed_points(-0.004) == "-0.40"
    # a delta of rounding noise on every figure of a type, and an interval that straddles zero by noise
    report = _report(comparison)
    noise = {"old": 0.5, "new": 0.5 - 1e-17, "delta": -1e-17, "direction": "same", "ci": [-1e-17, 1e-17],
             "p_bootstrap": 1.0, "p_randomization": 1.0, "regression": False}
    report["comparison"] = {**comparison, "per_type": {
        **comparison["per_type"], "NOISE": {m: {k: dict(noise) for k in "prf"} for m in ("strict", "lenient",
                                                                                          "average")}}}
    for text in (render_benchmark_html(report), render_benchmark_markdown(report)):
        assert "-0.00" not in text
        assert "+0.00" in text
