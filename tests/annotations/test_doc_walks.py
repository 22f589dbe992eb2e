"""What the families read from Docs through ``annotations/docs.py`` (DESIGN invariant 1), and the one doc-id rule
(invariant 2) in the doors that named documents by position: the span scorer, noisy text, treebanks."""

from __future__ import annotations

import numpy as np
import pytest
import spacy
from spacy.tokens import Doc, Span
from spacy.training import Example

from spacy_anno_eval.annotations.docs import (
    doc_sentences,
    doc_spans,
    entity_count,
    example_cats,
    example_docs,
    example_sets,
    id_or_position,
    sentence_counts,
)
from spacy_anno_eval.errors import InputError
from spacy_anno_eval.noisy.evaluate import evaluate_docs
from spacy_anno_eval.pipeline.scorers import score_spans
from spacy_anno_eval.trees.conllu import treebank_from_docs


@pytest.fixture(scope="module")
def nlp():
    return spacy.blank("en")


def parsed(nlp, words: list[str], heads: list[int], deps: list[str], doc_id: str | None = None) -> Doc:
    doc = Doc(nlp.vocab, words=words, heads=heads, deps=deps, spaces=[True] * (len(words) - 1) + [False])
    if doc_id is not None:
        doc.user_data["doc_id"] = doc_id
    return doc


def test_doc_spans_reads_ents_and_span_groups(nlp) -> None:
    doc = nlp.make_doc("Ada met Bob .")
    doc.ents = [Span(doc, 0, 1, "PER"), Span(doc, 2, 3, "PER")]
    doc.spans["a"] = [Span(doc, 0, 3, "EVENT")]
    assert doc_spans(doc, "ents") == [(0, 3, "PER"), (8, 11, "PER")]
    assert doc_spans(doc, "spans:a") == [(0, 11, "EVENT")]
    assert doc_spans(doc, "spans:missing") == []
    assert entity_count(doc) == 2
    with pytest.raises(InputError, match="unknown annotation selector 'nonsense'"):
        doc_spans(doc, "nonsense")


def test_doc_sentences_gives_token_columns(nlp) -> None:
    # "Ada sleeps . Bob runs ." as two trees: heads are Doc positions, a root is its own head
    doc = parsed(nlp, ["Ada", "sleeps", ".", "Bob", "runs", "."], [1, 1, 1, 4, 4, 4],
                 ["nsubj", "ROOT", "punct", "nsubj", "ROOT", "punct"])
    first, second = doc_sentences(doc)
    assert (first.start, first.end, first.text) == (0, 3, "Ada sleeps .")
    assert second.forms == ("Bob", "runs", ".") and second.heads == (4, 4, 4)
    assert second.deps == ("nsubj", "ROOT", "punct") and second.space_after == (True, True, False)
    assert doc_sentences(nlp.make_doc("")) == []
    assert doc_sentences(nlp.make_doc("no parse")) is None


def test_sentence_counts_mark_docs_without_boundaries(nlp) -> None:
    doc = parsed(nlp, ["Ada", "sleeps", ".", "Bob", "runs", "."], [1, 1, 1, 4, 4, 4],
                 ["nsubj", "ROOT", "punct", "nsubj", "ROOT", "punct"])
    counts = sentence_counts([doc, nlp.make_doc(""), nlp.make_doc("no boundaries")])
    assert counts.dtype == np.int64 and counts.tolist() == [2, 0, -1]


def test_example_cats_skips_references_without_cats(nlp) -> None:
    with_cats, without = nlp.make_doc("good"), nlp.make_doc("plain")
    with_cats.cats = {"POS": 1.0}
    pred = nlp.make_doc("good")
    pred.cats = {"POS": 0.3}
    assert example_cats([Example(pred, with_cats), Example(nlp.make_doc("plain"), without)]) == [
        ({"POS": 1.0}, {"POS": 0.3})]


def test_example_docs_gives_references_and_predictions_in_order(nlp) -> None:
    refs = [nlp.make_doc("one text"), nlp.make_doc("two texts here")]
    preds = [nlp.make_doc("one txt"), nlp.make_doc("two texts hear")]
    references, predictions = example_docs(iter([Example(p, r) for p, r in zip(preds, refs, strict=True)]))
    assert references == refs and predictions == preds
    assert example_docs([]) == ([], [])


def test_example_ids_follow_the_rule_and_leave_the_scores_alone(nlp) -> None:
    def examples(ids: list[str | None]) -> list[Example]:
        out = []
        for given, text in zip(ids, ["Ada met Bob .", "Carl left ."], strict=True):
            ref, pred = nlp.make_doc(text), nlp.make_doc(text)
            ref.ents, pred.ents = [Span(ref, 0, 1, "PER")], [Span(pred, 0, 2, "PER")]
            if given is not None:
                ref.user_data["id"] = given
            out.append(Example(pred, ref))
        return out

    assert id_or_position("a", 4) == "a" and id_or_position(None, 4) == "4"
    assert example_sets(examples(["first", None])).doc_ids == ["first", "1"]
    assert example_sets(examples(["first", None]), "sc").doc_ids == ["first", "1"]
    assert score_spans(examples(["first", None])) == score_spans(examples([None, None]))


def test_treebank_from_docs_names_docs_by_the_rule(nlp) -> None:
    plain = parsed(nlp, ["Ada", "sleeps"], [1, 1], ["nsubj", "ROOT"])
    named = parsed(nlp, ["Bob", "runs"], [1, 1], ["nsubj", "ROOT"], doc_id="bob")
    assert [s.sent_id for s in treebank_from_docs([plain, named]).sentences] == ["0.0", "bob.0"]
    unlabelled = parsed(nlp, ["Eve", "waits"], [1, 1], ["", "ROOT"], doc_id="eve")
    with pytest.raises(InputError, match=r"^docs, document eve, sentence 0: token 0 'Eve' has no dependency label"):
        treebank_from_docs([plain, unlabelled])
    with pytest.raises(InputError, match=r"^docs, document 1: the Doc has no dependency parse"):
        treebank_from_docs([plain, nlp.make_doc("no parse")])


def test_noisy_docs_are_named_by_the_rule(nlp) -> None:
    gold, pred = nlp.make_doc("Ada met Bob"), nlp.make_doc("Ada met Bob")
    gold.user_data["doc_id"] = "letter-7"
    gold.spans["a"] = [Span(gold, 0, 2, "PER"), Span(gold, 1, 3, "PER")]  # crossing: refused
    with pytest.raises(InputError, match=r"gold doc letter-7 \(spans:a\)"):
        evaluate_docs([gold], [pred], key_set="spans:a")
    gold.spans["a"] = [Span(gold, 0, 1, "PER")]
    pred.spans["a"] = [Span(pred, 0, 2, "PER"), Span(pred, 1, 3, "PER")]
    with pytest.raises(InputError, match=r"predicted doc 0 \(spans:a\)"):
        evaluate_docs([gold], [pred], key_set="spans:a")
