"""The benchmark scored window by window (one baseline shard at a time) gives the reports of the whole corpus
scored at once: the same figures, changes, significance, verbose lists and HTML."""

from __future__ import annotations

import json

import pytest

from spacy_anno_eval.report import write_reports
from spacy_anno_eval.workflows.benchmark import run as run_module
from spacy_anno_eval.workflows.benchmark import store as store_module
from spacy_anno_eval.workflows.benchmark import windows as windows_module
from spacy_anno_eval.workflows.benchmark.run import run_benchmark
from spacy_anno_eval.workflows.benchmark.settings import BenchmarkSettings
from tests.workflows.benchmark.test_run import make_bench, ruler

FAST = BenchmarkSettings(n_samples=200)


@pytest.fixture()
def small_shards(monkeypatch):
    """Baselines written in shards of 5 documents (the demo corpus has 16: four windows)."""
    monkeypatch.setattr(store_module, "SHARD_SIZE", 5)
    monkeypatch.setattr(run_module, "SHARD_SIZE", 5)
    seen = []
    real = windows_module.score_windows

    def spy(*args, **kwargs):
        out = real(*args, **kwargs)
        seen.append(out is not None)
        return out

    monkeypatch.setattr(windows_module, "score_windows", spy)
    return seen


def whole(monkeypatch, *args, **kwargs):
    """The same benchmark with windows turned off (the whole corpus at once)."""
    with monkeypatch.context() as m:
        m.setattr(run_module, "_score_versions", lambda *a, **k: None)
        return run_benchmark(*args, **kwargs)


def as_json(report):
    return json.dumps(report, sort_keys=True)


def test_default_mode_in_windows_equals_the_whole(tmp_path, small_shards, monkeypatch):
    bench = make_bench(tmp_path / "bench")
    run_benchmark("store", bench, nlp=ruler(drop=("PER",)), name="v1", settings=FAST)
    assert len(list((bench / "processed" / "v1" / "docs").glob("*.spacy"))) == 4
    new = ruler(drop=("LOC",), version="2.0.0")
    windowed = run_benchmark("verbose", bench, nlp=new, name="v1", settings=FAST)
    assert small_shards == [True]
    at_once = whole(monkeypatch, "verbose", bench, nlp=new, name="v1", settings=FAST)
    assert as_json(windowed.report) == as_json(at_once.report)
    changes = windowed.report["comparison"]["changes"]
    assert {c["change"] for c in changes} == {"fixed", "broken"} and changes == sorted(
        changes, key=lambda c: c["doc"])
    assert max(c["doc"] for c in changes) >= 10  # documents of the later windows keep their global index
    assert windowed.evaluations["new"].alignment is None  # the pairs were dropped window by window
    assert set(windowed.report["new"]["below_threshold"]) == {"LOC"}


def test_against_another_baseline_in_windows(tmp_path, small_shards, monkeypatch):
    bench = make_bench(tmp_path / "bench")
    run_benchmark("store", bench, nlp=ruler(), name="v1", settings=FAST)
    run_benchmark("store", bench, nlp=ruler(drop=("ORG",)), name="v2", settings=FAST)
    windowed = run_benchmark("default", bench, name="v1", against="v2", settings=FAST)
    at_once = whole(monkeypatch, "default", bench, name="v1", against="v2", settings=FAST)
    assert small_shards == [True]
    assert as_json(windowed.report) == as_json(at_once.report)
    assert windowed.report["comparison"]["verdict"] == "regression"


@pytest.mark.parametrize("mode", ["marked-vs-stored", "marked-vs-current"])
def test_marked_vs_modes_and_their_html_in_windows(tmp_path, small_shards, monkeypatch, mode):
    bench = make_bench(tmp_path / "bench")
    run_benchmark("store", bench, nlp=ruler(drop=("MISC",)), settings=FAST)
    kwargs = {"nlp": ruler(drop=("ORG",))} if mode == "marked-vs-current" else {}
    windowed = run_benchmark(mode, bench, verbose=True, settings=FAST, **kwargs)
    at_once = whole(monkeypatch, mode, bench, verbose=True, settings=FAST, **kwargs)
    assert small_shards == [True]
    assert as_json(windowed.report) == as_json(at_once.report)
    (scope, ev_w), = windowed.evaluations.items()
    (_, ev_a), = at_once.evaluations.items()
    assert ev_w.alignment is None and ev_a.alignment is not None
    pages = []
    for result, ev, name in ((windowed, ev_w, "w.html"), (at_once, ev_a, "a.html")):
        write_reports(ev, paths={"html": tmp_path / name}, report=result.report[scope]["report"],
                      diff=result.diffs.get(scope))
        pages.append((tmp_path / name).read_bytes())
    assert pages[0] == pages[1]
    assert pages[0].count(b'<section class="doc"') >= 12


def test_versions_split_differently_fall_back_to_the_whole(tmp_path, monkeypatch):
    bench = make_bench(tmp_path / "bench")
    monkeypatch.setattr(store_module, "SHARD_SIZE", 5)
    run_benchmark("store", bench, nlp=ruler(), name="v1", settings=FAST)
    monkeypatch.setattr(store_module, "SHARD_SIZE", 7)
    run_benchmark("store", bench, nlp=ruler(drop=("PER",)), name="v2", settings=FAST)
    monkeypatch.setattr(run_module, "SHARD_SIZE", 5)
    seen = []
    real = windows_module.score_windows
    monkeypatch.setattr(windows_module, "score_windows", lambda *a, **k: seen.append(real(*a, **k)) or seen[-1])
    result = run_benchmark("default", bench, name="v1", against="v2", settings=FAST)
    assert seen == [None]  # 4 shards against 3: not split alike
    assert as_json(result.report) == as_json(whole(monkeypatch, "default", bench, name="v1", against="v2",
                                                   settings=FAST).report)
