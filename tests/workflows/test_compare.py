"""Comparing systems on one key (issue 28, item 4): the benchmark's paired tests for every pair, Holm's
correction across pairs, the exact permutation test as the anchor of approximate randomization, and
WNUT-17's published scores of three shared-task systems."""

from __future__ import annotations

import itertools
import warnings
from pathlib import Path

import numpy as np
import pytest

from spacy_anno_eval.annotations.table import Corpus, SpanTable
from spacy_anno_eval.errors import ConfigError
from spacy_anno_eval.resampling.paired import holm
from spacy_anno_eval.spans.measures import gate_prf
from spacy_anno_eval.workflows.compare import compare_systems, system_names
from tests.conftest import shared_file

ROOT = Path(__file__).resolve().parents[2]
KEY = ROOT / "assets" / "demo" / "key.jsonl"
RESPONSE = ROOT / "assets" / "demo" / "response.jsonl"


def test_a_system_against_itself_is_never_significant():
    c = compare_systems(KEY, [RESPONSE, RESPONSE], names=["a", "b"], n_samples=300)
    entry = c.pair("a", "b")["overall"]["strict"]["f"]
    assert entry["delta"] == 0 and entry["p_bootstrap"] == entry["p_randomization"] == 1.0
    assert entry["ci"] == [0.0, 0.0] and not c.significant(entry)
    assert not c.corrected and "p_randomization_holm" not in entry


def test_three_systems_are_three_pairs_holm_adjusted_per_figure():
    c = compare_systems(KEY, [RESPONSE, KEY, RESPONSE], names=["v0", "gold", "v0again"], n_samples=400, seed=2)
    assert [(p["old"], p["new"]) for p in c.pairs] == [("v0", "gold"), ("v0", "v0again"), ("gold", "v0again")]
    assert c.corrected
    for measure, k in itertools.product(("strict", "lenient", "average"), "prf"):
        entries = [p["overall"][measure][k] for p in c.pairs]
        for name in ("p_bootstrap", "p_randomization"):
            assert [e[f"{name}_holm"] for e in entries] == pytest.approx(holm(np.array([e[name] for e in entries])))
    better = c.pair("v0", "gold")["overall"]["strict"]["f"]
    assert better["delta"] > 0 and c.significant(better)
    assert better["ci"][0] <= better["delta"] <= better["ci"][1]   # the interval holds the observed delta
    assert not c.significant(c.pair("v0", "v0again")["overall"]["strict"]["f"])
    out = c.to_dict()
    assert [s["name"] for s in out["systems"]] == ["v0", "gold", "v0again"] and out["correction"] == "holm"
    assert out["systems"][1]["micro"]["strict"]["f"] == 1.0
    assert "per_doc" not in out["pairs"][0] and "regressions" not in out["pairs"][0]


def _corpus(docs: list[list[tuple[int, int, str]]]) -> Corpus:
    rows = [(d, s, e, lab) for d, spans in enumerate(docs) for s, e, lab in spans]
    table = SpanTable([r[0] for r in rows], [r[1] for r in rows], [r[2] for r in rows], [0] * len(rows), ["X"])
    return Corpus([f"d{i}" for i in range(len(docs))], ["x" * 100] * len(docs), {"ents": table})


def test_approximate_randomization_is_the_exact_permutation_test_within_monte_carlo_error():
    """All 2^10 swaps of 10 documents give the exact p (the share of swaps whose |delta| reaches the observed
    one); approximate randomization's p at R samples is within 4 standard errors of it."""
    rng = np.random.default_rng(4)
    key = [[(10 * j, 10 * j + 5, "X") for j in range(rng.integers(2, 7))] for _ in range(10)]
    a = [[s for s in doc if rng.random() < 0.6] for doc in key]
    b = [[s for s in doc if rng.random() < 0.8] + [(95, 99, "X")] * int(rng.random() < 0.3) for doc in key]
    n = 4000
    c = compare_systems(_corpus(key), [_corpus(a), _corpus(b)], names=["a", "b"], n_samples=n, seed=1)
    old, new = (ev.by_doc for ev in c.evaluations)
    observed = gate_prf(new.sum(0))["strict"]["f"] - gate_prf(old.sum(0))["strict"]["f"]
    hits = 0
    for swap in itertools.product((0, 1), repeat=10):
        s = np.array(swap, dtype=bool)[:, None]
        x, y = np.where(s, new, old).sum(0), np.where(s, old, new).sum(0)
        hits += abs(gate_prf(y)["strict"]["f"] - gate_prf(x)["strict"]["f"]) >= abs(observed) - 1e-12
    exact = hits / 2 ** 10
    got = c.pair("a", "b")["overall"]["strict"]["f"]
    assert got["delta"] == pytest.approx(observed)
    assert abs(got["p_randomization"] - exact) <= 4 * np.sqrt(exact * (1 - exact) / n) + 1 / n


def test_names_come_from_the_files_and_are_checked(tmp_path):
    assert system_names(["out/a.jsonl", "out/b.conll"]) == ["a", "b"]
    assert system_names(["x/run.jsonl", "y/run.jsonl"]) == ["x/run", "y/run"]
    assert system_names([object(), object()]) == ["system1", "system2"]
    with pytest.raises(ConfigError, match="must differ"):
        system_names(["a", "b"], ["same", "same"])
    with pytest.raises(ConfigError, match="2 names for 3 systems"):
        system_names(["a", "b", "c"], ["x", "y"])


def test_one_system_or_a_name_that_is_not_there_is_refused():
    with pytest.raises(ConfigError, match="at least two systems"):
        compare_systems(KEY, [RESPONSE])
    with pytest.raises(ConfigError, match="alpha"):
        compare_systems(KEY, [RESPONSE, KEY], alpha=1.5)
    c = compare_systems(KEY, [RESPONSE, KEY], names=["a", "b"], n_samples=50)
    with pytest.raises(ConfigError, match="no system 'c'; the systems are a, b"):
        c.pair("a", "c")
    with pytest.raises(ConfigError, match="ask pair"):
        c.pair("b", "a")
    with pytest.raises(ConfigError, match="n_samples"):
        compare_systems(KEY, [RESPONSE, KEY], n_samples=0)


def test_wnut17_three_systems_have_their_published_strict_f():
    """WNUT-17's shared-task paper (Derczynski et al. 2017, Table 4; conlleval on the test set): MIC-CIS 37.06,
    SJTU-Adapt 40.42, SpinningBytes 40.78 (entity F1). MIC-CIS re-spells tokens: paired by position, warned."""
    from spacy_anno_eval.errors import TokenMismatchWarning

    gold = shared_file("wnut17", "emerging.test.annotated")
    systems = [shared_file("wnut17", "submissions", f) for f in ("mic-cis.txt", "sjtu_adapt.txt",
                                                                 "spinningbytes.txt")]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", TokenMismatchWarning)
        c = compare_systems(gold, systems, fmt="conll", n_samples=300, seed=0)
    assert c.names == ["mic-cis", "sjtu_adapt", "spinningbytes"]
    f = [100 * s["micro"]["strict"]["f"] for s in c.to_dict()["systems"]]
    assert f == pytest.approx([37.06, 40.42, 40.78], abs=0.005)
    for p in c.pairs:
        e = p["overall"]["strict"]["f"]
        assert 0 < e["p_randomization"] <= e["p_randomization_holm"] <= 1


def test_error_difference_is_each_systems_decision_rows_matched_by_document_and_key_span(tmp_path):
    """A right, B wrong: a key annotation A finds correctly and B does not, or a spurious response of B's that A
    does not make; checked against each system's own decision rows (Evaluation.errors(which=DECISIONS)),
    matched by document and key span, and against the text around it."""
    import json

    from spacy_anno_eval.spans.decisions import DECISIONS

    rows = [json.loads(line) for line in RESPONSE.read_text(encoding="utf8").splitlines() if line.strip()]
    half = tmp_path / "half.jsonl"  # the demo response with its first 8 documents' spans removed
    half.write_text("".join(json.dumps({**r, "spans": [] if i < 8 else r["spans"]}) + "\n"
                            for i, r in enumerate(rows)), encoding="utf8")
    c = compare_systems(KEY, [RESPONSE, half], names=["v0", "half"], n_samples=50)
    texts = dict(zip(c.evaluations[0].doc_ids, c.evaluations[0].texts, strict=True))

    def decisions(ev):
        keys, spurious = {}, set()
        for r in ev.errors(which=DECISIONS):
            if r["key_start"] is None:
                spurious.add((r["doc_id"], r["response_start"], r["response_end"], r["response_label"]))
            else:
                keys[(r["doc_id"], r["key_start"], r["key_end"], r["key_label"])] = r["decision"]
        return keys, spurious

    (keys_a, spur_a), (keys_b, spur_b) = (decisions(ev) for ev in c.evaluations)
    d = c.error_difference("v0", "half", context=10)
    for group, (right, wrong, spur_right, spur_wrong) in (("a_right", (keys_a, keys_b, spur_a, spur_b)),
                                                          ("b_right", (keys_b, keys_a, spur_b, spur_a))):
        expected = {k for k, v in right.items() if v == "correct" and wrong[k] != "correct"}
        expected |= spur_wrong - spur_right
        found = set()
        for row in d[group]:
            side_right, side_wrong = (row["a"], row["b"]) if group == "a_right" else (row["b"], row["a"])
            if row["key"] is None:
                r = side_wrong["response"]
                assert side_wrong["decision"] == "spurious" and side_right["decision"] is None
                found.add((row["doc_id"], r["start"], r["end"], r["label"]))
            else:
                k = row["key"]
                assert side_right["decision"] == "correct" and side_wrong["decision"] != "correct"
                found.add((row["doc_id"], k["start"], k["end"], k["label"]))
            text = texts[row["doc_id"]]
            assert row["text"] == text[row["start"]:row["end"]]
            assert row["left_context"] == text[max(0, row["start"] - 10):row["start"]]
            assert row["right_context"] == text[row["end"]:row["end"] + 10]
        assert found == expected and expected, group
        assert d["counts"][group] == len(d[group])
    assert sum(t["a_right"] for t in d["counts"]["per_type"].values()) == d["counts"]["a_right"]
    # the other order swaps the groups and the sides
    back = c.error_difference("half", "v0", context=10)
    assert back["a_right"] == [{**r, "a": r["b"], "b": r["a"]} for r in d["b_right"]]
    assert back["counts"]["b_right"] == d["counts"]["a_right"]
    with pytest.raises(ConfigError, match="no system 'x'"):
        c.error_difference("v0", "x")
    with pytest.raises(ConfigError, match="context"):
        c.error_difference("v0", "half", context=-1)


def test_per_document_changes_are_listed_only_when_asked():
    plain = compare_systems(KEY, [RESPONSE, KEY], names=["a", "b"], n_samples=50)
    assert plain.pairs[0]["per_doc"] is None and "changes" in plain.pairs[0]
    listed = compare_systems(KEY, [RESPONSE, KEY], names=["a", "b"], n_samples=50, per_doc=True)
    rows = listed.to_dict(per_doc=True)["pairs"][0]["per_doc"]
    assert rows and all(r["strict"]["f"]["new"] >= r["strict"]["f"]["old"] for r in rows)
