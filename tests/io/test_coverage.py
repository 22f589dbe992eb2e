"""io.coverage: the one computation of which documents each span group covers (DocBin reader, IAA, γ on Docs)."""

from __future__ import annotations

import numpy as np
import pytest
import spacy
from spacy.tokens import Span

from spacy_anno_eval.io.coverage import docs_coverage, docs_per_key, span_group_coverage


@pytest.fixture(scope="module")
def nlp():
    return spacy.blank("en")


def _docs(nlp):
    """Three Docs: group ``a`` in all (empty in the second), ``b`` in the first only, ``z`` only as categories."""
    docs = [nlp("one two"), nlp("three four"), nlp("five six")]
    docs[0].spans["a"] = [Span(docs[0], 0, 1, "X")]
    docs[1].spans["a"] = []
    docs[2].spans["a"] = [Span(docs[2], 1, 2, "Y")]
    docs[0].spans["b"] = []
    docs[2].user_data["cats"] = {"z": {"POS": 1.0}, "ents": {"POS": 0.0}}
    return docs


def test_an_absent_group_is_not_covered_and_an_empty_one_covers(nlp):
    coverage = docs_coverage(_docs(nlp))
    assert list(coverage) == ["spans:b"]  # a is in every Doc (empty in one): no entry
    assert coverage["spans:b"].tolist() == [True, False, False]


def test_every_keeps_the_groups_every_doc_holds_and_no_group_is_none(nlp):
    every = docs_coverage(_docs(nlp), every=True)
    assert {k: v.tolist() for k, v in every.items()} == {"spans:a": [True, True, True],
                                                        "spans:b": [True, False, False]}
    assert docs_coverage([nlp("x"), nlp("y")]) is None
    assert docs_coverage([nlp("x"), nlp("y")], every=True) == {}


def test_cats_cover_their_doc_only_when_asked(nlp):
    docs = _docs(nlp)
    assert "spans:z" not in docs_coverage(docs)
    with_cats = docs_coverage(docs, cats=True)
    assert with_cats["spans:z"].tolist() == [False, False, True]
    assert "spans:ents" not in with_cats  # ents covers every document; its categories record no coverage


def test_docs_coverage_is_span_group_coverage_of_the_keys_per_doc(nlp):
    docs = _docs(nlp)
    by_hand = span_group_coverage(docs_per_key([list(d.spans.keys()) for d in docs]), len(docs))
    ours = docs_coverage(iter(docs))  # any iterable of Docs
    assert by_hand.keys() == ours.keys()
    assert all(np.array_equal(by_hand[k], ours[k]) for k in ours)


def test_docs_per_key_numbers_from_the_offset():
    assert docs_per_key([["a"], [], ["a", "b"]], offset=10) == {"a": [10, 12], "b": [12]}
