"""The one span-kappa accumulator (spacy_anno_eval.agreement.classification) behind qa --classify and iaa kappa."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from spacy_anno_eval.agreement.classification import (
    NO_VALUE,
    ClassificationCounts,
    ContingencyCounts,
    category,
    classification_counts,
)
from spacy_anno_eval.agreement.coefficients import cohen_kappa, scott_pi
from spacy_anno_eval.agreement.iaa import pairwise_kappa
from spacy_anno_eval.annotations.table import Corpus, SpanTableBuilder
from spacy_anno_eval.errors import ConfigError, FeatureTypeWarning
from spacy_anno_eval.spans.engine import evaluate
from spacy_anno_eval.workflows.qa import collect_qa

TEXTS = ["aa bb cc dd", "ee ff gg hh"]
# (doc, start, end, kb_id of set a, kb_id of set b); None: no kb_id. Every span is marked by both sets.
SPANS = [(0, 0, 2, "5", 5), (0, 3, 5, "Q1", "Q1"), (0, 6, 8, "Q2", "Q1"), (0, 9, 11, None, "Q3"),
         (1, 0, 2, 7, "7"), (1, 3, 5, "Q1", "Q1"), (1, 6, 8, "Q2", "Q2"), (1, 9, 11, "Q1", None)]


def two_sets() -> Corpus:
    """Two documents, sets ``a`` and ``b`` on the same spans of type X, kb_id values of mixed types."""
    builders = {"a": SpanTableBuilder(), "b": SpanTableBuilder()}
    for doc, start, end, va, vb in SPANS:
        for name, value in (("a", va), ("b", vb)):
            builders[name].add(doc, start, end, "X", None if value is None else {"kb_id": value})
    return Corpus(["d0", "d1"], TEXTS, {name: b.build() for name, b in builders.items()})


def test_category_compares_values_as_strings():
    assert category("5", "Non-cat") == category(5, "Non-cat") == "5"
    assert category(7.5, NO_VALUE) == "7.5" and category(True, NO_VALUE) == "True"
    assert category(None, "Non-cat") == "Non-cat" and category(None, NO_VALUE) == NO_VALUE
    assert category({"b": 1, "a": [2]}, NO_VALUE) == '{"a": [2], "b": 1}'
    assert category(("x", 1), NO_VALUE) == category(["x", 1], NO_VALUE) == '["x", 1]'
    assert category("", "Non-cat") == ""  # an empty value is a value


def _qa_table(corpus: Corpus) -> dict:
    with pytest.warns(FeatureTypeWarning):  # the pairing compares by type: "5" != 5 there
        ev = evaluate(corpus, corpus, key_set="a", response_set="b", features=["kb_id"])
    return collect_qa(ev, max_docs=0, classify=("X", "kb_id")).classification.table()


def test_both_doors_give_the_same_table_kappa_and_pi():
    corpus = two_sets()
    qa = _qa_table(corpus)
    iaa = pairwise_kappa(corpus, ["a", "b"], types="X->kb_id")["pairs"][0]["per_type"]["X->kb_id"]
    # the same items in the same categories; only the name of "no value" differs (GATE's Non-cat in iaa)
    assert qa["categories"] == ["5", "7", "Q1", "Q2", "Q3", NO_VALUE]
    assert iaa["confusion"]["categories"] == ["5", "7", "Q1", "Q2", "Q3", "Non-cat"]
    assert qa["matrix"] == iaa["confusion"]["matrix"]
    m = np.array(qa["matrix"])
    assert m[0, 0] == 1 and m[1, 1] == 1  # "5"/5 and 7/"7" agree in both doors
    assert qa["n"] == iaa["n"] == 8
    assert qa["observed_agreement"] == iaa["observed_agreement"] == pytest.approx(5 / 8)
    # by hand: pA (1, 1, 3, 2, 0, 1) / 8, pB (1, 1, 3, 1, 1, 1) / 8
    ae_cohen = (1 + 1 + 9 + 2 + 0 + 1) / 64
    ae_scott = sum(((x + y) / 16) ** 2 for x, y in zip((1, 1, 3, 2, 0, 1), (1, 1, 3, 1, 1, 1), strict=True))
    assert qa["cohen_kappa"] == iaa["cohen_kappa"] == pytest.approx((5 / 8 - ae_cohen) / (1 - ae_cohen))
    assert qa["scott_pi"] == iaa["scott_pi"] == pytest.approx((5 / 8 - ae_scott) / (1 - ae_scott))
    assert qa["specific_agreement"]["5"] == iaa["specific_agreement"]["5"] == 1.0
    assert qa["specific_agreement"][NO_VALUE] == iaa["specific_agreement"]["Non-cat"] == 0.0


def test_qa_counts_of_shards_merge_to_the_whole():
    corpus = two_sets()
    with pytest.warns(FeatureTypeWarning):
        parts = [classification_counts(evaluate(w, w, key_set="a", response_set="b", features=["kb_id"]),
                                       "X", "kb_id") for w in (corpus.window(0, 1), corpus.window(1, 2))]
    assert parts[0].counts.categories == ("5", NO_VALUE, "Q1", "Q2", "Q3")  # only those used, sorted
    assert parts[0].merge(parts[1]).table() == _qa_table(corpus)
    with pytest.raises(ConfigError, match="cannot merge the classification of X:kb_id with X:label"):
        parts[0].merge(ClassificationCounts("X", "label"))


def test_contingency_counts_are_exact_sums_per_document():
    rng = np.random.default_rng(3)
    cats = ["a", "b", "c", "Non-cat"]
    doc, ca, cb = rng.integers(0, 5, 200), rng.integers(0, 4, 200), rng.integers(0, 4, 200)
    cuts = [0, 37, 38, 120, 200]
    parts = [ContingencyCounts.of_codes(cats, ca[lo:hi], cb[lo:hi], doc[lo:hi])
             for lo, hi in zip(cuts, cuts[1:], strict=False)]
    merged = ContingencyCounts.concat(parts[::-1])
    assert merged.categories == tuple(sorted(cats)) and merged.n == 200
    cells = {(int(d), merged.categories[a], merged.categories[b]): int(c)
             for d, a, b, c in zip(merged.doc, merged.a, merged.b, merged.count, strict=True)}
    assert cells == Counter((int(d), cats[a], cats[b]) for d, a, b in zip(doc, ca, cb, strict=True))
    assert np.all(np.diff(merged.doc) >= 0)  # in document order
    expected = np.zeros((4, 4), dtype=np.int64)
    np.add.at(expected, (ca, cb), 1)
    assert np.array_equal(merged.table(cats).matrix, expected)
    order = [cats.index(c) for c in merged.categories]
    assert np.array_equal(merged.table().matrix, expected[np.ix_(order, order)])
    rows = merged.per_doc([f"d{k}" for k in range(5)], cats)
    assert [r["n"] for r in rows] == np.bincount(doc, minlength=5).tolist()
    one = np.zeros((4, 4), dtype=np.int64)
    np.add.at(one, (ca[doc == 2], cb[doc == 2]), 1)
    assert rows[2]["doc_id"] == "d2"
    assert rows[2]["cohen_kappa"] == pytest.approx(cohen_kappa(one).value)
    assert rows[2]["scott_pi"] == pytest.approx(scott_pi(one).value)


def test_figures_of_a_single_category_are_none():
    counts = ContingencyCounts.of_items(["X", "X"], ["X", "X"])
    with pytest.warns(RuntimeWarning):
        out = counts.figures(["X", "Non-cat"])
    assert out["n"] == 2 and out["observed_agreement"] == 1.0
    assert out["cohen_kappa"] is None and out["scott_pi"] is None
    assert out["specific_agreement"] == {"X": 1.0, "Non-cat": 0.0}  # a ratio: 0/0 is zero_division
    assert out["confusion"] == {"categories": ["X", "Non-cat"], "matrix": [[2, 0], [0, 0]]}
    with pytest.raises(ValueError, match="leave out"):
        counts.table(["Y"])
