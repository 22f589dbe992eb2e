"""PairTable: statuses, optimal pairing against brute force, GATE's greedy
pairing, feature subsumption, min_overlap, and properties of the engine."""

from __future__ import annotations

import math
import random
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spacy_anno_eval.annotations.table import Corpus, SpanTable
from spacy_anno_eval.errors import ConfigError, FeatureTypeWarning
from spacy_anno_eval.spans import align as offsets
from spacy_anno_eval.spans.align import STATUS_NAMES, align_spans
from spacy_anno_eval.spans.engine import evaluate
from spacy_anno_eval.spans.gate import features_compatible, gate_pairs, java_equals, type_only_mismatch

# ---------------------------------------------------------------------------
# helpers


def table(rows, labels=None, features=False) -> SpanTable:
    """rows: (doc, start, end, label) or (doc, start, end, label, features)."""
    labels = labels or sorted({r[3] for r in rows})
    feats = [r[4] if len(r) > 4 else {} for r in rows] if features else None
    return SpanTable([r[0] for r in rows], [r[1] for r in rows], [r[2] for r in rows],
                     [labels.index(r[3]) for r in rows], list(labels), feats)


def pairs(al) -> set[tuple[int, int, str]]:
    return {(int(k), int(r), STATUS_NAMES[s]) for k, r, s in zip(al.key_row, al.response_row, al.status, strict=True)}


def statuses(al) -> dict[str, int]:
    counts = np.bincount(al.status, minlength=len(STATUS_NAMES))
    return {name: int(counts[i]) for i, name in enumerate(STATUS_NAMES)}


# ---------------------------------------------------------------------------
# statuses on hand cases


def test_each_status_on_hand_cases():
    key = table([(0, 0, 4, "PER"), (0, 10, 15, "ORG"), (0, 20, 25, "LOC"), (0, 30, 35, "PER"), (0, 40, 44, "PER")],
                labels=["LOC", "ORG", "PER"])
    resp = table([(0, 0, 4, "PER"),      # correct
                  (0, 10, 15, "LOC"),    # incorrect: coextensive, other label
                  (0, 22, 27, "LOC"),    # partial: overlapping, same label
                  (0, 33, 38, "ORG"),    # overlap: overlapping, other label
                  (0, 50, 55, "PER")],   # spurious; key [40,44) missing
                 labels=["LOC", "ORG", "PER"])
    al = align_spans(key, resp)
    assert pairs(al) == {(0, 0, "correct"), (1, 1, "incorrect"), (2, 2, "partial"), (3, 3, "overlap"),
                         (4, -1, "missing"), (-1, 4, "spurious")}
    # the pairs come in document order
    assert list(al.key_row) == [0, 1, 2, 3, 4, -1]


def test_touching_spans_do_not_overlap():
    al = align_spans(table([(0, 0, 5, "X")]), table([(0, 5, 9, "X")]))
    assert statuses(al)["missing"] == 1 and statuses(al)["spurious"] == 1


def test_documents_never_pair_across():
    al = align_spans(table([(0, 0, 5, "X")]), table([(1, 0, 5, "X")]))
    assert pairs(al) == {(0, -1, "missing"), (-1, 0, "spurious")}
    assert sorted(al.doc.tolist()) == [0, 1]


def test_duplicates_pair_in_order():
    key = table([(0, 0, 5, "X"), (0, 0, 5, "X")])
    resp = table([(0, 0, 5, "X"), (0, 0, 5, "X"), (0, 0, 5, "X")])
    assert pairs(align_spans(key, resp)) == {(0, 0, "correct"), (1, 1, "correct"), (-1, 2, "spurious")}


def test_optimal_prefers_correct_then_partial_then_overlap():
    # key [0,10) could take the partial [0,6) or the correct [0,10); key [4,12) only the [0,10) or [0,6)
    key = table([(0, 0, 10, "X"), (0, 4, 12, "X")])
    resp = table([(0, 0, 6, "X"), (0, 0, 10, "X")])
    assert pairs(align_spans(key, resp)) == {(0, 1, "correct"), (1, 0, "partial")}


def test_ties_break_by_document_order():
    # both responses overlap the key by 5 characters: the earlier one is taken
    key = table([(0, 0, 10, "X")])
    resp = table([(0, 0, 5, "X"), (0, 5, 10, "X")])
    assert pairs(align_spans(key, resp)) == {(0, 0, "partial"), (-1, 1, "spurious")}
    # more overlap wins over document order
    resp = table([(0, 0, 3, "X"), (0, 5, 10, "X")])
    assert pairs(align_spans(key, resp)) == {(0, 1, "partial"), (-1, 0, "spurious")}
    # two keys, one response overlapping both equally: the first key takes it
    key = table([(0, 0, 5, "X"), (0, 5, 10, "X")])
    resp = table([(0, 3, 7, "X")])
    assert pairs(align_spans(key, resp)) == {(0, 0, "partial"), (1, -1, "missing")}


def test_unknown_pairing_and_bad_min_overlap():
    """A bad setting is a ConfigError (the contract: InputError is bad input)."""
    t = table([(0, 0, 5, "X")])
    with pytest.raises(ConfigError, match="pairing"):
        align_spans(t, t, pairing="hungarian")
    for bad in (-1, 101, float("nan"), "x"):
        with pytest.raises(ConfigError, match="min_overlap"):
            align_spans(t, t, min_overlap=bad)


# ---------------------------------------------------------------------------
# optimal pairing against exhaustive search


RANK = {"correct": 0, "partial": 1, "incorrect": 2, "overlap": 3}


def _relation(k, r, names):
    ks, ke, kl, kf = k
    rs, re_, rl, rf = r
    if not (ks < re_ and rs < ke):
        return None
    ok = kl == rl and features_compatible(kf, rf, names)
    if (ks, ke) == (rs, re_):
        return "correct" if ok else "incorrect"
    return "partial" if ok else "overlap"


def _candidate(k, r, names, min_overlap):
    rel = _relation(k, r, names)
    if rel is None:
        return None
    if rel in ("partial", "overlap") and min_overlap > 0:
        ov = min(k[1], r[1]) - max(k[0], r[0])
        if (ov / (k[1] - k[0])) * 100.0 < min_overlap:
            return None
    return rel


def _objective(keys, resps, matching, names):
    vec = [0, 0, 0, 0, 0]
    for i, j in enumerate(matching):
        if j is None:
            continue
        vec[RANK[_relation(keys[i], resps[j], names)]] += 1
        vec[4] += min(keys[i][1], resps[j][1]) - max(keys[i][0], resps[j][0])
    return tuple(vec)


def _matchings(keys, resps, names, min_overlap, fixed):
    """Every one-to-one matching (a response index or None per key) over candidate pairs."""
    fixed_r = set(fixed.values())

    def rec(i, used):
        if i == len(keys):
            yield ()
            return
        if i in fixed:
            for rest in rec(i + 1, used):
                yield (fixed[i],) + rest
            return
        for rest in rec(i + 1, used):
            yield (None,) + rest
        for j in range(len(resps)):
            if j in used or j in fixed_r or _candidate(keys[i], resps[j], names, min_overlap) is None:
                continue
            for rest in rec(i + 1, used | {j}):
                yield (j,) + rest

    return rec(0, frozenset())


def brute_force(keys, resps, names=None, min_overlap=0.0, prepair=True):
    """The best matching by exhaustive search, and its objective.

    Objective: (correct, partial, incorrect, overlap, total overlap), lexicographic. Ties: identical
    annotations pre-paired in order (without features), then the matching whose response choices, key
    by key, come first in document order (unpaired last).
    """
    fixed: dict[int, int] = {}
    if prepair and not names:
        taken: set[int] = set()
        for i, k in enumerate(keys):
            for j, r in enumerate(resps):
                if j not in taken and k[:3] == r[:3]:
                    fixed[i] = j
                    taken.add(j)
                    break
    best, best_key, best_m = None, None, None
    for m in _matchings(keys, resps, names, min_overlap, fixed):
        obj = _objective(keys, resps, m, names)
        order_key = tuple(math.inf if j is None else j for j in m)
        if best is None or obj > best or (obj == best and order_key < best_key):
            best, best_key, best_m = obj, order_key, m
    return best_m, best


def _random_doc(rng, n_max=5, length=16, labels="AB", with_features=False):
    def spans():
        out = []
        for _ in range(rng.randrange(0, n_max + 1)):
            s = rng.randrange(0, length - 1)
            e = rng.randrange(s + 1, min(length, s + 7) + 1)
            f = {"g": rng.choice([1, "1", 2])} if with_features and rng.random() < 0.7 else {}
            out.append((s, e, rng.choice(labels), f))
        return sorted(out, key=lambda a: (a[0], a[1]))
    return spans(), spans()


def _align_doc(keys, resps, names=None, min_overlap=0.0, pairing="optimal"):
    labels = sorted({a[2] for a in keys + resps}) or ["A"]
    kt = table([(0, s, e, lab, f) for s, e, lab, f in keys], labels, features=bool(names))
    rt = table([(0, s, e, lab, f) for s, e, lab, f in resps], labels, features=bool(names))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FeatureTypeWarning)
        al = align_spans(kt, rt, features=names, min_overlap=min_overlap, pairing=pairing)
    matching: list[int | None] = [None] * len(keys)
    for k, r in zip(al.key_row, al.response_row, strict=True):
        if k >= 0 and r >= 0:
            matching[int(k)] = int(r)
    return tuple(matching)


@pytest.mark.parametrize("seed", range(4))
def test_optimal_equals_brute_force(seed):
    rng = random.Random(seed)
    for _ in range(150):
        keys, resps = _random_doc(rng)
        min_overlap = rng.choice([0.0, 0.0, 30.0, 60.0])
        got = _align_doc(keys, resps, min_overlap=min_overlap)
        # objective: the exhaustive optimum over all pairings (no pre-pairing)
        _, best = brute_force(keys, resps, min_overlap=min_overlap, prepair=False)
        assert _objective(keys, resps, got, None) == best, (keys, resps)
        # the pairing itself: the documented tie-break
        want, _ = brute_force(keys, resps, min_overlap=min_overlap)
        assert got == want, (keys, resps)


@pytest.mark.parametrize("seed", range(2))
def test_optimal_with_features_equals_brute_force(seed):
    rng = random.Random(100 + seed)
    for _ in range(150):
        keys, resps = _random_doc(rng, with_features=True)
        got = _align_doc(keys, resps, names=["g"])
        want, best = brute_force(keys, resps, names=["g"])
        assert _objective(keys, resps, got, ["g"]) == best
        assert got == want, (keys, resps)


def test_float_fallback_still_optimal(monkeypatch):
    """Groups too large for exact integer weights use scaled float weights: still optimal on small cases."""
    monkeypatch.setattr(offsets, "_EXACT_LIMIT", 0)
    rng = random.Random(7)
    for _ in range(200):
        keys, resps = _random_doc(rng)
        got = _align_doc(keys, resps)
        _, best = brute_force(keys, resps, prepair=False)
        assert _objective(keys, resps, got, None) == best, (keys, resps)


@pytest.mark.parametrize("exact_limit", [2**50, 0])
def test_weights_are_lexicographic(monkeypatch, exact_limit):
    """One partial pair must beat an incorrect plus an overlap pair: the weight base must exceed every
    count (a base of 2 would give 2 + 1 > 2). Both weight schemes (exact integers, scaled floats)."""
    monkeypatch.setattr(offsets, "_EXACT_LIMIT", exact_limit)
    g = {"g": 1}  # features: no exact pre-pairing, the solver sees every pair
    keys = [(6, 14, "A", g), (14, 20, "B", g)]
    resps = [(6, 14, "B", g), (11, 19, "A", g)]
    # {k0-r0 incorrect, k1-r1 overlap} = (0, 0, 1, 1, 13) loses to {k0-r1 partial} = (0, 1, 0, 0, 3)
    assert _align_doc(keys, resps, names=["g"]) == (1, None)
    assert brute_force(keys, resps, names=["g"])[1] == (0, 1, 0, 0, 3)


def test_optimal_is_deterministic_and_order_independent():
    rng = random.Random(3)
    for _ in range(30):
        keys, resps = _random_doc(rng, n_max=6)
        a = _align_doc(keys, resps)
        assert a == _align_doc(keys, resps)
        # rows given out of order are sorted by SpanTable: same pairing
        labels = sorted({x[2] for x in keys + resps}) or ["A"]
        kt = table([(0, s, e, lab) for s, e, lab, _ in reversed(keys)], labels)
        rt = table([(0, s, e, lab) for s, e, lab, _ in reversed(resps)], labels)
        assert statuses(align_spans(kt, rt)) == statuses(align_spans(
            table([(0, s, e, lab) for s, e, lab, _ in keys], labels),
            table([(0, s, e, lab) for s, e, lab, _ in resps], labels)))


# ---------------------------------------------------------------------------
# GATE's AnnotationDiffer pairing


def test_gate_greedy_differs_from_optimal():
    """Three choices all score -1 (value minus conflicting values): GATE's reversed stable sort takes the
    last-created one first, key 1 + response 1 (partial), which blocks the correct pair key 0 + response 1."""
    keys = [(6, 11, "A", {}), (9, 13, "A", {})]
    resps = [(5, 8, "A", {}), (6, 11, "A", {})]
    assert gate_pairs(keys, resps) == [(1, 1, "partial"), (0, 0, "partial")]
    assert _align_doc(keys, resps, pairing="gate") == (0, 1)
    assert _align_doc(keys, resps) == (1, None)  # optimal: the correct pair, key 1 missing
    _, best = brute_force(keys, resps)
    assert best[:2] == (1, 0)


def test_gate_scores_order_the_choices():
    # choices: (k0,r0) correct 3, (k0,r1) partial 2, (k1,r1) partial 2
    # scores:  3-2 = 1,            2-3-2 = -3,        2-2 = 0      -> (k0,r0), then (k1,r1)
    keys = [(0, 10, "A", {}), (12, 20, "A", {})]
    resps = [(0, 10, "A", {}), (5, 15, "A", {})]
    assert gate_pairs(keys, resps) == [(0, 0, "correct"), (1, 1, "partial")]


def test_gate_takes_mismatch_choices_and_they_block():
    """A taken mismatch (coextensive, other label) uses up its key and response.

    choices (creation order) and scores = value - values of the choices sharing a key or response:
    (k0,r0) partial 2 - 0 - 2 = -2;  (k0,r1) partial 2 - 2 - 0 = 0;  (k0,r2) wrong 0 - 4 - 1 = -5;
    (k1,r0) partial 2 - 1 - 2 = -1;  (k1,r2) mismatch 1 - 2 - 0 = -1.
    GATE takes (k0,r1), then of the two -1 the later-created (k1,r2), which blocks (k1,r0).
    """
    keys = [(2, 8, "B", {}), (5, 8, "B", {})]
    resps = [(3, 7, "B", {}), (4, 5, "B", {}), (5, 8, "A", {})]
    assert gate_pairs(keys, resps) == [(0, 1, "partial"), (1, 2, "incorrect")]
    assert _align_doc(keys, resps, pairing="gate") == (1, 2)
    assert _align_doc(keys, resps) == (1, 0)  # optimal: two partial pairs


def test_gate_pairing_through_align_spans_and_min_overlap():
    key = table([(0, 0, 10, "X"), (1, 0, 10, "X")])
    resp = table([(0, 0, 2, "X"), (1, 0, 10, "Y")], labels=["X", "Y"])
    al = align_spans(key, resp, pairing="gate")
    assert pairs(al) == {(0, 0, "partial"), (1, 1, "incorrect")}
    al = align_spans(key, resp, pairing="gate", min_overlap=50)
    assert pairs(al) == {(0, -1, "missing"), (-1, 0, "spurious"), (1, 1, "incorrect")}


def test_gate_random_invariants():
    """GATE's pairs are one-to-one, overlapping, and agree with the independent relation."""
    rng = random.Random(11)
    for _ in range(300):
        keys, resps = _random_doc(rng, n_max=6)
        taken = gate_pairs(keys, resps)
        assert len({i for i, _, _ in taken}) == len(taken) == len({j for _, j, _ in taken})
        for i, j, status in taken:
            assert _relation(keys[i], resps[j], None) == status
        # greedy is never lexicographically better than the optimum
        m = [None] * len(keys)
        for i, j, _ in taken:
            m[i] = j
        assert _objective(keys, resps, tuple(m), None) <= brute_force(keys, resps, prepair=False)[1]


# ---------------------------------------------------------------------------
# features


def test_java_equals_by_type_and_value():
    assert java_equals("5", "5") and java_equals(5, 5)
    assert not java_equals("5", 5)
    assert not java_equals(True, 1) and not java_equals(5, 5.0)
    assert java_equals(float("nan"), float("nan")) and not java_equals(0.0, -0.0)
    assert java_equals([1, "a"], [1, "a"]) and not java_equals([1], ["1"])
    assert not java_equals({"a": 1}, {"a": True})


def test_features_subsumption():
    names = ["gender", "kind"]
    assert features_compatible({"gender": "f"}, {"gender": "f", "kind": "x"}, names)
    assert not features_compatible({"gender": "f"}, {"gender": "m"}, names)
    assert not features_compatible({"gender": "f"}, {}, names)          # the key's feature is missing
    assert features_compatible({}, {"gender": "m"}, names)               # the key has none: subsumed
    assert features_compatible({"other": 1}, {"other": 2}, names)        # not significant
    assert features_compatible({"gender": "f"}, {"gender": "m"}, [])     # no significant feature
    assert features_compatible({"gender": None}, {}, names)
    assert not features_compatible({"gender": None}, {"gender": "f"}, names)
    assert not features_compatible({"n": "5"}, {"n": 5}, ["n"])
    assert not features_compatible({"n": True}, {"n": 1}, ["n"])
    assert type_only_mismatch({"n": "5"}, {"n": 5}, ["n"])
    assert not type_only_mismatch({"n": "5"}, {"n": 6}, ["n"])
    assert not type_only_mismatch({"n": "5"}, {"n": "5"}, ["n"])


def test_features_decide_status_and_warn_on_type_only_mismatch():
    key = table([(0, 0, 5, "X", {"n": "5"}), (0, 10, 15, "X", {"n": "a"}), (0, 20, 25, "X", {"n": 5})],
                features=True)
    resp = table([(0, 0, 5, "X", {"n": 5}), (0, 10, 15, "X", {"n": "a", "m": 1}), (0, 21, 25, "X", {"n": "5"})],
                 features=True)
    with pytest.warns(FeatureTypeWarning, match="2 feature mismatch"):
        al = align_spans(key, resp, features=["n"])
    assert pairs(al) == {(0, 0, "incorrect"), (1, 1, "correct"), (2, 2, "overlap")}
    # without significant features only offsets and labels decide, and nothing is warned
    with warnings.catch_warnings():
        warnings.simplefilter("error", FeatureTypeWarning)
        al = align_spans(key, resp)
    assert pairs(al) == {(0, 0, "correct"), (1, 1, "correct"), (2, 2, "partial")}


def test_features_through_gate_pairing():
    key = table([(0, 0, 5, "X", {"n": 1})], features=True)
    resp = table([(0, 0, 5, "X", {"n": 2}), (0, 1, 5, "X", {"n": 1})], features=True)
    # choices: (k,r0) mismatch 1 (score 1-2 = -1), (k,r1) partial 2 (score 2-1 = 1)
    assert pairs(align_spans(key, resp, features=["n"], pairing="gate")) == {
        (0, 1, "partial"), (-1, 0, "spurious")}


# ---------------------------------------------------------------------------
# min_overlap


@pytest.mark.parametrize("resp_end, threshold, status", [
    (3, 1, "partial"), (3, 30, "partial"), (3, 31, None), (5, 50, "partial"), (5, 51, None),
    (7, 75, None), (8, 75, "partial"), (10, 100, "correct"),
])
def test_min_overlap_percent_of_key(resp_end, threshold, status):
    key = table([(0, 0, 10, "PER")])
    resp = table([(0, 0, resp_end, "PER")])
    got = pairs(align_spans(key, resp, min_overlap=threshold))
    want = {(0, 0, status)} if status else {(0, -1, "missing"), (-1, 0, "spurious")}
    assert got == want


def test_min_overlap_is_relative_to_the_key():
    # a long response covering a short key is 100% of the key even though it is 20% of the response
    key = table([(0, 4, 6, "X")])
    resp = table([(0, 0, 10, "X")])
    assert pairs(align_spans(key, resp, min_overlap=100)) == {(0, 0, "partial")}
    # swapped: 20% of the key -> no pair at 50
    assert pairs(align_spans(resp, key, min_overlap=50)) == {(0, -1, "missing"), (-1, 0, "spurious")}


def test_min_overlap_lets_another_pair_win():
    key = table([(0, 0, 10, "X"), (0, 8, 12, "X")])
    resp = table([(0, 8, 11, "X")])
    # at 0 the first key (overlap 2 of 10) and the second (3 of 4) compete: more overlap wins
    assert pairs(align_spans(key, resp)) == {(1, 0, "partial"), (0, -1, "missing")}
    # at 50 only the second key is a candidate either way
    assert pairs(align_spans(key, resp, min_overlap=50)) == {(1, 0, "partial"), (0, -1, "missing")}
    # at 80 neither is
    assert statuses(align_spans(key, resp, min_overlap=80))["partial"] == 0


# ---------------------------------------------------------------------------
# properties through the engine


LABELS = ["A", "B", "C"]


@st.composite
def corpora(draw, max_docs=3, max_spans=6, length=30):
    n_docs = draw(st.integers(1, max_docs))
    texts = ["x" * length] * n_docs

    def side():
        rows = []
        for d in range(n_docs):
            for _ in range(draw(st.integers(0, max_spans))):
                s = draw(st.integers(0, length - 1))
                e = draw(st.integers(s + 1, min(length, s + 8)))
                rows.append((d, s, e, draw(st.sampled_from(LABELS))))
        return rows

    return n_docs, texts, side(), side()


def make_corpus(n_docs, texts, rows) -> Corpus:
    return Corpus([f"d{i}" for i in range(n_docs)], list(texts), {"ents": table(rows, LABELS)})


def _prf(report):
    return {m: report["micro"][m] for m in ("strict", "lenient", "average")}


@settings(max_examples=60, deadline=None)
@given(corpora())
def test_swapping_key_and_response_swaps_p_and_r(data):
    n, texts, k, r = data
    a = evaluate(make_corpus(n, texts, k), make_corpus(n, texts, r)).report()
    b = evaluate(make_corpus(n, texts, r), make_corpus(n, texts, k)).report()
    for mode in ("strict", "lenient", "average"):
        assert a["micro"][mode]["p"] == pytest.approx(b["micro"][mode]["r"])
        assert a["micro"][mode]["r"] == pytest.approx(b["micro"][mode]["p"])
        assert a["micro"][mode]["f"] == pytest.approx(b["micro"][mode]["f"])
    assert a["counts"]["missing"] == b["counts"]["spurious"]
    assert a["counts"]["correct"] == b["counts"]["correct"] and a["counts"]["partial"] == b["counts"]["partial"]


@settings(max_examples=40, deadline=None)
@given(corpora())
def test_identical_sets_score_one(data):
    n, texts, k, _ = data
    if not k:
        k = [(0, 0, 3, "A")]
    rep = evaluate(make_corpus(n, texts, k), make_corpus(n, texts, k)).report()
    for group in ("micro", "macro_types", "macro_docs"):
        for mode in ("strict", "lenient", "average"):
            assert rep[group][mode] == {"p": 1.0, "r": 1.0, "f": 1.0}
    for schema in ("strict", "exact", "partial", "type"):
        assert rep["semeval"][schema]["f"] == 1.0
    assert rep["muc"]["f"] == 1.0
    assert rep["counts"]["correct"] == len(k)


@settings(max_examples=60, deadline=None)
@given(corpora())
def test_per_type_and_per_doc_counts_sum_to_overall(data):
    n, texts, k, r = data
    ev = evaluate(make_corpus(n, texts, k), make_corpus(n, texts, r))
    rep = ev.report()
    assert (ev.by_doc.sum(axis=0) == ev.by_type.sum(axis=0)).all()
    for field in ("correct", "partial", "missing", "spurious", "incorrect"):
        assert sum(t["counts"][field] for t in rep["per_type"].values()) == rep["counts"][field]
        assert sum(d["counts"][field] for d in rep["per_doc"]) == rep["counts"][field]
    for field in ("COR", "PAR", "INC", "MIS", "SPU", "POS", "ACT"):
        assert sum(t["muc"][field] for t in rep["per_type"].values()) == rep["muc"][field]
        for schema in ("strict", "exact", "partial", "type"):
            assert (sum(t["semeval"][schema][field] for t in rep["per_type"].values())
                    == rep["semeval"][schema][field])
    # every annotation is accounted for once on each side
    assert rep["counts"]["correct"] + rep["counts"]["partial"] + rep["counts"]["missing"] == len(k)
    assert rep["counts"]["correct"] + rep["counts"]["partial"] + rep["counts"]["spurious"] == len(r)


@settings(max_examples=40, deadline=None)
@given(corpora(), corpora())
def test_merge_equals_concatenated_corpus(first, second):
    n1, t1, k1, r1 = first
    n2, t2, k2, r2 = second
    e1 = evaluate(make_corpus(n1, t1, k1), make_corpus(n1, t1, r1))
    e2 = evaluate(make_corpus(n2, t2, k2), make_corpus(n2, t2, r2))
    merged = e1.merge(e2)
    shift = [(d + n1, s, e, lab) for d, s, e, lab in k2], [(d + n1, s, e, lab) for d, s, e, lab in r2]
    ids = [f"d{i}" for i in range(n1 + n2)]
    whole = evaluate(Corpus(ids, t1 + t2, {"ents": table(k1 + shift[0], LABELS)}),
                     Corpus(ids, t1 + t2, {"ents": table(r1 + shift[1], LABELS)}))
    assert (merged.total == whole.total).all()
    assert (merged.by_doc == whole.by_doc).all()
    a, b = merged.report(per_doc=False), whole.report(per_doc=False)
    assert a["micro"] == b["micro"] and a["counts"] == b["counts"] and a["semeval"] == b["semeval"]
    assert a["macro_docs"] == b["macro_docs"]
    assert a["macro_types"] == b["macro_types"]


def test_confused_labels_counted_under_each_side():
    key = make_corpus(1, ["x" * 20], [(0, 0, 5, "A"), (0, 10, 15, "B")])
    resp = make_corpus(1, ["x" * 20], [(0, 0, 5, "B"), (0, 11, 15, "C")])
    rep = evaluate(key, resp).report()
    assert rep["per_type"]["A"]["counts"] == {"correct": 0, "partial": 0, "missing": 1, "spurious": 0,
                                              "incorrect": 1}
    assert rep["per_type"]["B"]["counts"]["missing"] == 1 and rep["per_type"]["B"]["counts"]["spurious"] == 1
    assert rep["per_type"]["C"]["counts"]["spurious"] == 1
    assert rep["counts"] == {"correct": 0, "partial": 0, "missing": 2, "spurious": 2, "incorrect": 1}


def test_brute_force_helper_sees_all_matchings():
    keys = [(0, 4, "A", {}), (2, 6, "A", {})]
    resps = [(1, 5, "A", {}), (3, 7, "A", {})]
    # 2 keys x 2 responses, all overlapping: 7 matchings (empty, 4 singles, 2 perfect)
    assert len(list(_matchings(keys, resps, None, 0.0, {}))) == 7


def test_document_order_equals_lexsort() -> None:
    """The one-argsort ordering of pairs equals the four-key lexsort it replaces."""
    from spacy_anno_eval.spans.align import _document_order

    rng = np.random.default_rng(11)
    for _ in range(300):
        n = int(rng.integers(0, 60))
        doc, first = rng.integers(0, 4, n), rng.integers(0, 20, n)
        key_row = np.where(rng.random(n) < 0.7, rng.permutation(n), -1)
        resp_row = np.where((key_row < 0) | (rng.random(n) < 0.5), rng.permutation(n), -1)
        expected = np.lexsort((resp_row, key_row, first, doc))
        assert _document_order(doc, first, key_row, resp_row).tolist() == expected.tolist()
