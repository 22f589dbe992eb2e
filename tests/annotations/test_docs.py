"""``annotations/docs.py``: the one doc-id rule, honoured by every door that reads Docs, and the
Example path against spaCy's own scorers (span groups across differing tokenizations)."""

from __future__ import annotations

from pathlib import Path

import pytest
import spacy
from spacy.pipeline.spancat import spancat_score
from spacy.tokens import Doc, DocBin, Span
from spacy.training import Example

from spacy_anno_eval.annalist.relations_reader import relations_from_docs
from spacy_anno_eval.annotations.docs import corpus_from_docs, doc_id, example_sets, given_id
from spacy_anno_eval.errors import InputError
from spacy_anno_eval.gamma.readers import from_docs
from spacy_anno_eval.io.docbin import read_docbin
from spacy_anno_eval.pipeline.scorers import score_spans
from spacy_anno_eval.workflows.benchmark.layout import clean_documents


@pytest.fixture(scope="module")
def nlp():
    return spacy.blank("en")


def three_docs(nlp) -> list[Doc]:
    """Ids from doc_id, from id, and none (the position)."""
    docs = [nlp.make_doc("Ada met Bob ."), nlp.make_doc("Carl met Dan ."), nlp.make_doc("Eve .")]
    docs[0].user_data["doc_id"] = "first"
    docs[0].user_data["id"] = "ignored"
    docs[1].user_data["id"] = 42
    return docs


def test_doc_id_rule() -> None:
    assert given_id({"doc_id": "a", "id": "b"}) == "a"
    assert given_id({"doc_id": None, "id": 7}) == "7"
    assert given_id({}) is None and given_id(None) is None


def test_every_reader_of_docs_uses_the_rule(nlp, tmp_path: Path) -> None:
    docs = three_docs(nlp)
    want = ["first", "42", "2"]
    assert [doc_id(d, i) for i, d in enumerate(docs)] == want
    assert corpus_from_docs(docs).doc_ids == want
    path = tmp_path / "clean" / "d.spacy"
    path.parent.mkdir()
    DocBin(docs=docs, store_user_data=True).to_disk(path)
    assert read_docbin(path).doc_ids == want
    assert read_docbin(path, fast=False).doc_ids == want
    # the benchmark's clean/ folder honours "id" too
    assert [d.doc_id for d in clean_documents(tmp_path / "clean")] == want
    for d in docs:
        d.user_data["relations"] = [[[0, 3], [8, 11], "meets"]] if len(d) > 2 else []
    assert [r.doc for r in relations_from_docs(docs)] == want[:2]
    docs[1].spans["a"] = [Span(docs[1], 1, 1, "EMPTY")]
    with pytest.raises(InputError, match="document '42'"):
        from_docs(docs, "spans:a;ents")


def test_span_groups_across_differing_tokenizations_equal_spancat(nlp) -> None:
    """Scorer.score_spans keeps a predicted span only when its aligned reference text equals its own."""
    ref = Doc(nlp.vocab, words=["Apple's", "new", "phone", "sold", "."], spaces=[True, True, True, False, False])
    ref.spans["sc"] = [Span(ref, 0, 1, "ORG"), Span(ref, 1, 3, "PRODUCT")]
    pred = Doc(nlp.vocab, words=["Apple", "'s", "new", "phone", "sold", "."],
               spaces=[False, True, True, True, False, False])
    pred.spans["sc"] = [Span(pred, 0, 1, "ORG"), Span(pred, 0, 2, "ORG"), Span(pred, 2, 4, "PRODUCT"),
                        Span(pred, 4, 5, "EVENT")]
    eg = Example(pred, ref)
    sets = example_sets([eg], "sc")
    # "Apple" alone aligns to "Apple's" but its text differs: dropped, as spaCy does
    assert sorted(zip(sets.response.start.tolist(), sets.response.end.tolist(), strict=True)) == [(0, 1), (1, 3),
                                                                                                   (3, 4)]
    ours, theirs = score_spans([eg], spans_key="sc"), spancat_score([eg], spans_key="sc")
    for k in "prf":
        assert ours[f"spans_sc_{k}"] == pytest.approx(theirs[f"spans_sc_{k}"], abs=1e-12)
    assert ours["spans_sc_p"] == pytest.approx(2 / 3)
