"""Classification agreement over coextensive pairs (spacy_anno_eval.agreement.classification)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from spacy_anno_eval import evaluate
from spacy_anno_eval.agreement.classification import NO_VALUE, classification_table
from spacy_anno_eval.agreement.coefficients import DegenerateAgreementWarning
from spacy_anno_eval.annotations.table import Corpus, SpanTableBuilder
from spacy_anno_eval.errors import ConfigError, FeatureTypeWarning, InputError

DEMO = Path(__file__).resolve().parents[2] / "assets" / "demo"
KEYS = {"type", "feature", "categories", "matrix", "row_totals", "column_totals", "n", "observed_agreement",
        "cohen_kappa", "scott_pi", "specific_agreement"}


@pytest.fixture(scope="module")
def demo():
    return evaluate(DEMO / "key.jsonl", DEMO / "response.jsonl")


def test_demo_org_labels_by_hand(demo):
    # Coextensive pairs with ORG on either side, read off assets/demo: six ORG/ORG (d02, d07, d09, d11,
    # d12, d14); key ORG vs response PER (d03 57-71) and LOC (d04 55-62, 67-72); key LOC vs ORG (d07 22-36).
    out = classification_table(demo, "ORG", "label")
    assert set(out) == KEYS
    assert out["type"] == "ORG" and out["feature"] == "label"
    assert out["categories"] == ["LOC", "ORG", "PER"]
    assert out["matrix"] == [[0, 1, 0], [2, 6, 1], [0, 0, 0]]
    assert out["row_totals"] == [1, 9, 0] and out["column_totals"] == [2, 7, 1]  # key / response per category
    assert out["n"] == 10
    assert out["observed_agreement"] == pytest.approx(0.6)
    # Cohen: Ae = .1*.2 + .9*.7 = .65; Scott: Ae = .15**2 + .8**2 + .05**2 = .665
    assert out["cohen_kappa"] == pytest.approx((0.6 - 0.65) / 0.35)
    assert out["scott_pi"] == pytest.approx((0.6 - 0.665) / 0.335)
    assert out["specific_agreement"] == pytest.approx({"LOC": 0.0, "ORG": 12 / 16, "PER": 0.0})
    json.dumps(out, allow_nan=False)
    assert all(type(v) is int for row in out["matrix"] for v in row)
    assert all(type(v) is int for v in out["row_totals"] + out["column_totals"])
    assert type(out["n"]) is int and type(out["cohen_kappa"]) is float


def test_demo_loc_labels_by_hand(demo):
    # 16 LOC/LOC coextensive pairs; key ORG vs LOC twice (d04), key LOC vs ORG once (d07)
    out = classification_table(demo, "LOC", "label")
    assert out["categories"] == ["LOC", "ORG"]
    assert out["matrix"] == [[16, 1], [2, 0]]
    assert out["n"] == 19
    assert out["specific_agreement"]["LOC"] == pytest.approx(32 / 35)


@pytest.mark.filterwarnings("ignore::spacy_anno_eval.agreement.coefficients.DegenerateAgreementWarning")
def test_demo_counts_agree_with_the_alignment(demo):
    # every coextensive pair is counted once per type it involves
    rows = [r for r in demo.diff_rows() if r["status"] in ("correct", "incorrect")]
    assert len(rows) == 29 + 4
    total = sum(classification_table(demo, t, "label")["n"] for t in demo.labels)
    assert total == sum(1 if r["key"]["label"] == r["response"]["label"] else 2 for r in rows)


def _corpus(texts, spans):
    builder = SpanTableBuilder()
    for d, doc_spans in enumerate(spans):
        for start, end, label, feats in doc_spans:
            builder.add(d, start, end, label, feats)
    return Corpus([f"doc{i}" for i in range(len(texts))], list(texts), {"ents": builder.build()})


TEXT = "aaaa bbbb cccc dddd eeee ffff"
KEY = _corpus([TEXT], [[(0, 4, "X", {"kb_id": "Q1"}), (5, 9, "X", {"kb_id": "Q2"}), (10, 14, "X", {"kb_id": "5"}),
                        (15, 19, "X", None), (20, 24, "Y", {"kb_id": "Q1"}), (25, 29, "X", {"kb_id": "Q1"})]])
RESPONSE = _corpus([TEXT], [[(0, 4, "X", {"kb_id": "Q1"}), (5, 9, "X", {"kb_id": "Q1"}), (10, 14, "X", {"kb_id": 5}),
                             (15, 19, "X", {"kb_id": "Q3"}), (20, 24, "Y", {"kb_id": "Q1"}),
                             (25, 28, "X", {"kb_id": "Q1"})]])


def _check_feature_table(out):
    # "5" (str) and 5 (int) are one category, as in GATE's classification tables (10.3.6); the annotation
    # without kb_id is "<none>"; Y is another type and the partial pair 25-29 / 25-28 is not coextensive
    assert out["categories"] == ["5", "Q1", "Q2", "Q3", NO_VALUE]
    m = np.array(out["matrix"])
    cats = out["categories"]
    assert m.sum() == out["n"] == 4
    assert m[cats.index("5"), cats.index("5")] == 1
    assert m[cats.index("Q1"), cats.index("Q1")] == 1
    assert m[cats.index("Q2"), cats.index("Q1")] == 1
    assert m[cats.index(NO_VALUE), cats.index("Q3")] == 1
    assert out["observed_agreement"] == pytest.approx(0.5)  # 0.25 while "5" and 5 were two categories
    assert out["specific_agreement"]["Q1"] == pytest.approx(2 / 3)
    assert out["specific_agreement"]["5"] == pytest.approx(1.0)
    # Cohen: pA (.25, .25, .25, 0, .25), pB (.25, .5, 0, .25, 0) -> Ae = .1875; Scott: pooled -> Ae = .25
    assert out["cohen_kappa"] == pytest.approx((0.5 - 0.1875) / 0.8125)
    assert out["scott_pi"] == pytest.approx(1 / 3)


def test_feature_categories_without_significant_features():
    ev = evaluate(KEY, RESPONSE)
    assert ev.report()["counts"]["correct"] == 5
    _check_feature_table(classification_table(ev, "X", "kb_id"))


def test_feature_categories_with_significant_features_count_incorrect_pairs():
    with pytest.warns(FeatureTypeWarning):
        ev = evaluate(KEY, RESPONSE, features=["kb_id"])
    # correct: 0-4 Q1/Q1, the Y pair, and 15-19 (the key has no kb_id, so the response subsumes it, GATE 10.1.1)
    assert ev.report()["counts"]["correct"] == 3
    _check_feature_table(classification_table(ev, "X", "kb_id"))


def test_single_category_warns_and_is_none():
    ev = evaluate(KEY, RESPONSE)
    with pytest.warns(DegenerateAgreementWarning):
        out = classification_table(ev, "Y", "label")
    assert out["matrix"] == [[1]] and out["categories"] == ["Y"]
    assert out["observed_agreement"] == 1.0
    assert out["cohen_kappa"] is None and out["scott_pi"] is None  # Ae = 1: kappa and pi do not exist
    assert '"cohen_kappa": null' in json.dumps(out, allow_nan=False)


def test_errors_say_what_to_do(demo):
    with pytest.raises(InputError, match=r"unknown annotation type 'DATE'.*LOC, MISC, ORG, PER"):
        classification_table(demo, "DATE", "label")
    with pytest.raises(InputError, match=r"no annotation carries the feature 'kb_id'.*--features kb_id"):
        classification_table(demo, "ORG", "kb_id")
    merged = demo.merge(demo)
    with pytest.raises(ConfigError, match="keeps no pairs"):
        classification_table(merged, "ORG", "label")
    text = "aaaa bbbb"
    only_partial = evaluate(_corpus([text], [[(0, 4, "X", None)]]), _corpus([text], [[(0, 3, "X", None)]]))
    with pytest.raises(InputError, match="no coextensive key/response pairs of type 'X'"):
        classification_table(only_partial, "X", "label")
