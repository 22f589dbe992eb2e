"""P/R/F formulas: GATE strict/lenient/average, F-beta, zero_division, MUC, SemEval, macro averages."""

from __future__ import annotations

import numpy as np
import pytest

from spacy_anno_eval.annotations.table import Corpus, SpanTable
from spacy_anno_eval.figures import check_zero_division, fbeta, ratio
from spacy_anno_eval.spans.engine import evaluate
from spacy_anno_eval.spans.measures import (
    FIELDS,
    gate_counts,
    gate_prf,
    muc_prf,
    semeval_prf,
)


def raw(**counts) -> np.ndarray:
    out = np.zeros(len(FIELDS), dtype=np.int64)
    for name, value in counts.items():
        out[FIELDS.index(name)] = value
    return out


# correct 3, partial 2, incorrect 1 (coextensive, other label), overlap 1 (overlapping, other label),
# missing 1, spurious 2: 8 keys, 9 responses
RAW = raw(correct=3, partial=2, incorrect=1, overlap=1, missing=1, spurious=2, incorrect_r=1, overlap_r=1)


def f1(p, r):
    return 2 * p * r / (p + r)


def test_gate_counts_fold_incorrect_and_overlap_into_missing_and_spurious():
    c = gate_counts(RAW)
    assert (int(c["correct"]), int(c["partial"]), int(c["missing"]), int(c["spurious"])) == (3, 2, 3, 4)
    assert int(c["incorrect"]) == 1


def test_gate_strict_lenient_average():
    out = gate_prf(RAW)
    assert out["strict"]["p"] == pytest.approx(3 / 9)
    assert out["strict"]["r"] == pytest.approx(3 / 8)
    assert out["strict"]["f"] == pytest.approx(f1(3 / 9, 3 / 8))
    assert out["lenient"]["p"] == pytest.approx(5 / 9)
    assert out["lenient"]["r"] == pytest.approx(5 / 8)
    assert out["lenient"]["f"] == pytest.approx(f1(5 / 9, 5 / 8))
    # average = mean of strict and lenient = partial counted as half (GATE eq. 10.5, 10.6)
    assert out["average"]["p"] == pytest.approx((3 + 0.5 * 2) / 9)
    assert out["average"]["r"] == pytest.approx((3 + 0.5 * 2) / 8)
    # GATE's getFMeasureAverage: the mean of the two F values (F = (1+b^2) hits / (b^2 keys + responses)
    # is linear in hits, so this is also F of the averaged P and R)
    assert out["average"]["f"] == pytest.approx((f1(3 / 9, 3 / 8) + f1(5 / 9, 5 / 8)) / 2)
    assert out["average"]["f"] == pytest.approx(2 * 4 / (8 + 9))


def test_rows_are_computed_independently():
    table = np.stack([RAW, raw(correct=1), raw(missing=2)])
    out = gate_prf(table)
    assert out["strict"]["p"].shape == (3,)
    assert out["strict"]["p"][0] == pytest.approx(3 / 9)
    assert out["strict"]["f"][1] == 1.0
    assert out["strict"]["r"][2] == 0.0 and out["strict"]["p"][2] == 0.0


@pytest.mark.parametrize("beta", [0.5, 1.0, 2.0, 3.0])
def test_fbeta_formula(beta):
    p, r = 0.6, 0.3
    assert fbeta(p, r, beta) == pytest.approx((1 + beta**2) * p * r / (beta**2 * p + r))
    # beta > 1 leans towards recall, beta < 1 towards precision
    if beta > 1:
        assert fbeta(p, r, beta) < fbeta(p, r, 1.0)
    if beta < 1:
        assert fbeta(p, r, beta) > fbeta(p, r, 1.0)


def test_fbeta_edge_cases():
    assert fbeta(0.4, 0.9, 0.0) == pytest.approx(0.4)  # beta 0: precision only
    assert fbeta(0.0, 0.0) == 0.0
    with pytest.raises(ValueError, match="beta"):
        fbeta(0.5, 0.5, -1.0)
    out = gate_prf(RAW, beta=2.0)
    assert out["strict"]["f"] == pytest.approx(5 * (3 / 9) * (3 / 8) / (4 * (3 / 9) + 3 / 8))


def test_ratio_zero_division():
    assert ratio(np.array([1, 0]), np.array([2, 0]), 0.7).tolist() == [0.5, 0.7]


@pytest.mark.parametrize("zd", [0.0, 1.0, 0.5])
def test_zero_division(zd):
    nothing = gate_prf(raw(), zero_division=zd)
    for mode in ("strict", "lenient", "average"):
        assert nothing[mode]["p"] == zd and nothing[mode]["r"] == zd and nothing[mode]["f"] == zd
    # keys only: P undefined (zd), R = 0 -> F = 0 whatever zd is
    keys_only = gate_prf(raw(missing=3), zero_division=zd)
    assert keys_only["strict"]["p"] == zd and keys_only["strict"]["r"] == 0.0 and keys_only["strict"]["f"] == 0.0
    responses_only = gate_prf(raw(spurious=2), zero_division=zd)
    assert responses_only["lenient"]["r"] == zd and responses_only["lenient"]["p"] == 0.0
    assert responses_only["lenient"]["f"] == 0.0
    assert muc_prf(raw(), zero_division=zd)["f"] == zd
    assert semeval_prf(raw(), zero_division=zd)["partial"]["p"] == zd


@pytest.mark.parametrize("bad", [-0.1, 1.5, "warn", None, float("nan"), [0]])
def test_zero_division_validation(bad):
    with pytest.raises(ValueError, match="zero_division"):
        check_zero_division(bad)


def test_zero_division_validation_through_the_engine_and_report():
    t = SpanTable([0], [0], [1], [0], ["X"])
    corpus = Corpus(["d"], ["ab"], {"ents": t})
    with pytest.raises(ValueError, match="zero_division"):
        evaluate(corpus, corpus, zero_division=2)
    ev = evaluate(corpus, corpus)
    with pytest.raises(ValueError, match="zero_division"):
        ev.report(zero_division=-1)
    assert check_zero_division(1) == 1.0 and check_zero_division(0) == 0.0


def test_muc_counts():
    m = muc_prf(RAW)
    assert {k: int(m[k]) for k in ("COR", "PAR", "INC", "MIS", "SPU", "POS", "ACT")} == {
        "COR": 3, "PAR": 2, "INC": 1, "MIS": 2, "SPU": 3, "POS": 8, "ACT": 9}
    # POS is the number of keys, ACT the number of responses
    assert m["p"] == pytest.approx((3 + 0.5 * 2) / 9)
    assert m["r"] == pytest.approx((3 + 0.5 * 2) / 8)
    assert m["f"] == pytest.approx(f1(4 / 9, 4 / 8))


def test_semeval_four_schemas():
    s = semeval_prf(RAW)
    counts = {name: tuple(int(s[name][k]) for k in ("COR", "INC", "PAR", "MIS", "SPU")) for name in s}
    assert counts == {
        "strict": (3, 4, 0, 1, 2),   # boundaries and type; partial/overlap pairs are INC
        "exact": (4, 3, 0, 1, 2),    # boundaries only: the incorrect pair is COR
        "partial": (4, 0, 3, 1, 2),  # overlap with half credit for inexact boundaries
        "type": (5, 2, 0, 1, 2),     # overlap and type: partial pairs are COR
    }
    for name in s:
        assert int(s[name]["POS"]) == 8 and int(s[name]["ACT"]) == 9
    assert s["strict"]["p"] == pytest.approx(3 / 9) and s["strict"]["r"] == pytest.approx(3 / 8)
    assert s["exact"]["p"] == pytest.approx(4 / 9)
    assert s["partial"]["p"] == pytest.approx(5.5 / 9) and s["partial"]["r"] == pytest.approx(5.5 / 8)
    assert s["type"]["f"] == pytest.approx(f1(5 / 9, 5 / 8))


# ---------------------------------------------------------------------------
# micro and macro through the report


def _corpus(rows, n_docs=3):
    labels = ["A", "B"]
    t = SpanTable([r[0] for r in rows], [r[1] for r in rows], [r[2] for r in rows],
                  [labels.index(r[3]) for r in rows], labels)
    return Corpus([f"d{i}" for i in range(n_docs)], ["x" * 30] * n_docs, {"ents": t})


@pytest.fixture
def report():
    # doc 0: A correct, B partial; doc 1: A missing, B spurious; doc 2: nothing at all
    key = _corpus([(0, 0, 5, "A"), (0, 10, 15, "B"), (1, 0, 5, "A")])
    resp = _corpus([(0, 0, 5, "A"), (0, 11, 15, "B"), (1, 20, 25, "B")])
    return evaluate(key, resp).report()


def test_micro(report):
    assert report["counts"] == {"correct": 1, "partial": 1, "missing": 1, "spurious": 1, "incorrect": 0}
    assert report["micro"]["strict"]["p"] == pytest.approx(1 / 3)
    assert report["micro"]["lenient"]["r"] == pytest.approx(2 / 3)


def test_macro_over_types(report):
    # A: C1 M1 -> strict = lenient: P 1, R 1/2, F 2/3;  B: Pa1 S1 -> strict 0/0/0, lenient P 1/2, R 1, F 2/3
    m = report["macro_types"]
    assert m["strict"] == pytest.approx({"p": 0.5, "r": 0.25, "f": 1 / 3})
    assert m["lenient"] == pytest.approx({"p": 0.75, "r": 0.75, "f": 2 / 3})
    assert m["average"] == pytest.approx({"p": 0.625, "r": 0.5, "f": 0.5})
    assert report["per_type"]["B"]["lenient"] == pytest.approx({"p": 0.5, "r": 1.0, "f": 2 / 3})


def test_macro_over_documents(report):
    # doc 0: C1 Pa1 -> strict 1/2, 1/2, 1/2; lenient 1, 1, 1.  doc 1: M1 S1 -> all 0.
    # doc 2 has no annotation: listed per document, left out of the macro mean
    m = report["macro_docs"]
    assert m["strict"] == pytest.approx({"p": 0.25, "r": 0.25, "f": 0.25})
    assert m["lenient"] == pytest.approx({"p": 0.5, "r": 0.5, "f": 0.5})
    assert [d["id"] for d in report["per_doc"]] == ["d0", "d1", "d2"]
    assert report["per_doc"][0]["strict"] == pytest.approx({"p": 0.5, "r": 0.5, "f": 0.5})


def test_macro_and_micro_with_nothing_to_score():
    empty = _corpus([], n_docs=1)
    rep = evaluate(empty, empty, zero_division=1.0).report()
    assert rep["micro"]["strict"] == {"p": 1.0, "r": 1.0, "f": 1.0}
    assert rep["macro_types"]["lenient"] == {"p": 1.0, "r": 1.0, "f": 1.0}
    assert evaluate(empty, empty).report()["macro_docs"]["strict"] == {"p": 0.0, "r": 0.0, "f": 0.0}
