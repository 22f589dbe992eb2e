"""The engine's door: corpora in, checks, one alignment, an Evaluation out."""

from __future__ import annotations

import numpy as np
import pytest
import spacy
from spacy.tokens import Doc, Span

from spacy_anno_eval.annotations.docs import corpus_from_docs, spans_from_docs
from spacy_anno_eval.annotations.table import Corpus, SpanTable
from spacy_anno_eval.errors import ConfigError, InputError
from spacy_anno_eval.spans.engine import evaluate


def table(rows: list[tuple[int, int, int, str]]) -> SpanTable:
    labels = sorted({r[3] for r in rows})
    return SpanTable([r[0] for r in rows], [r[1] for r in rows], [r[2] for r in rows],
                     [labels.index(r[3]) for r in rows], labels)


def corpus(texts: list[str], rows: list[tuple[int, int, int, str]], ids: list[str] | None = None) -> Corpus:
    return Corpus(ids or [str(i) for i in range(len(texts))], texts, {"ents": table(rows)})


def test_different_tokenization_compares_by_characters() -> None:
    nlp = spacy.blank("en")
    key = nlp("New York-based Acme Corp. opened.")
    words = ["New", "York", "-", "based", "Acme", "Corp", ".", "opened", "."]
    spaces = [True, False, False, True, True, False, True, False, False]
    response = Doc(nlp.vocab, words=words, spaces=spaces)
    assert key.text == response.text
    assert len(key) != len(response)
    key.ents = [key.char_span(0, 8, label="LOC"), key.char_span(15, 24, label="ORG", alignment_mode="expand")]
    assert key.ents[1].text == "Acme Corp."  # the English tokenizer keeps "Corp." whole
    response.ents = [Span(response, 0, 2, label="LOC"), Span(response, 4, 6, label="ORG")]
    report = evaluate([key], [response]).report()
    # "New York" is coextensive; key "Acme Corp." vs response "Acme Corp" overlap: partial
    assert report["counts"]["correct"] == 1
    assert report["counts"]["partial"] == 1
    assert report["micro"]["lenient"]["f"] == 1.0
    assert report["micro"]["strict"]["f"] == 0.5


def test_texts_that_differ_name_the_document_and_position() -> None:
    key = corpus(["Paris is big."], [(0, 0, 5, "LOC")], ["doc-a"])
    response = corpus(["Paris is bog."], [(0, 0, 5, "LOC")], ["doc-a"])
    with pytest.raises(InputError, match=r"document 'doc-a'.*character 10"):
        evaluate(key, response)


def test_span_out_of_range_is_named() -> None:
    key = corpus(["Paris"], [(0, 0, 5, "LOC")], ["d1"])
    response = corpus(["Paris"], [(0, 2, 9, "LOC")], ["d1"])
    with pytest.raises(InputError, match=r"document 'd1', span \[2, 9\)"):
        evaluate(key, response)


def test_documents_pair_by_id_when_the_order_differs() -> None:
    key = corpus(["Ann met Bob.", "Rome."], [(0, 0, 3, "PER"), (0, 8, 11, "PER"), (1, 0, 4, "LOC")], ["a", "b"])
    response = corpus(["Rome.", "Ann met Bob."], [(0, 0, 4, "LOC"), (1, 0, 3, "PER")], ["b", "a"])
    report = evaluate(key, response).report()
    assert report["counts"] == {"correct": 2, "partial": 0, "missing": 1, "spurious": 0, "incorrect": 0}
    assert [row["id"] for row in report["per_doc"]] == ["a", "b"]
    assert report["per_doc"][0]["counts"]["missing"] == 1


def test_unknown_response_document_is_an_error() -> None:
    key = corpus(["x", "y"], [], ["a", "b"])
    response = corpus(["x"], [], ["a"])
    with pytest.raises(InputError, match="2 documents"):
        evaluate(key, response)


def test_empty_key_corpus_is_an_error() -> None:
    with pytest.raises(InputError, match="no documents"):
        evaluate(corpus([], []), corpus([], []))


def test_bad_settings_are_rejected() -> None:
    c = corpus(["Rome."], [(0, 0, 4, "LOC")])
    with pytest.raises(ConfigError, match="beta"):
        evaluate(c, c, beta=-1)
    with pytest.raises(ConfigError, match="beta"):
        evaluate(c, c, beta=float("nan"))
    with pytest.raises(ValueError, match="zero_division"):
        evaluate(c, c, zero_division=2)
    with pytest.raises(ConfigError, match="pairing"):
        evaluate(c, c, pairing="best")


def test_types_restrict_both_sides() -> None:
    key = corpus(["Ann met Bob in Rome."], [(0, 0, 3, "PER"), (0, 8, 11, "PER"), (0, 15, 19, "LOC")])
    response = corpus(["Ann met Bob in Rome."], [(0, 0, 3, "PER"), (0, 15, 19, "ORG")])
    report = evaluate(key, response, types=["PER"]).report()
    assert set(report["per_type"]) == {"PER"}
    assert report["counts"]["missing"] == 1 and report["counts"]["spurious"] == 0


def test_selectors_read_span_groups_and_ents() -> None:
    nlp = spacy.blank("en")
    doc = nlp("Ann met Bob in Rome.")
    doc.ents = [Span(doc, 0, 1, label="PER")]
    doc.spans["gold"] = [Span(doc, 0, 1, label="PER"), Span(doc, 2, 3, label="PER")]
    c = corpus_from_docs([doc], ["ents", "spans:gold"])
    assert len(c.sets["ents"]) == 1 and len(c.sets["spans:gold"]) == 2
    report = evaluate([doc], [doc], key_set="spans:gold", response_set="ents").report()
    assert report["counts"]["correct"] == 1 and report["counts"]["missing"] == 1
    with pytest.raises(InputError, match="selector"):
        spans_from_docs([doc], "tokens")


def test_vectorised_ents_equal_span_objects() -> None:
    nlp = spacy.blank("en")
    rng = np.random.default_rng(7)
    docs = []
    for _ in range(50):
        doc = nlp(" ".join(rng.choice(["alpha", "beta", "gamma", "delta", "x"], size=int(rng.integers(0, 15)))))
        ents, i = [], 0
        while i < len(doc):
            if rng.random() < 0.3:
                n = int(rng.integers(1, 3))
                ents.append(Span(doc, i, min(i + n, len(doc)), label=str(rng.choice(["A", "B"]))))
                i += n + int(rng.integers(0, 2))
            else:
                i += 1
        doc.ents = ents
        docs.append(doc)
    fast = spans_from_docs(docs, "ents")
    expected = [(d, e.start_char, e.end_char, e.label_) for d, doc in enumerate(docs) for e in doc.ents]
    got = list(zip(fast.doc.tolist(), fast.start.tolist(), fast.end.tolist(), fast.label_names().tolist(),
                   strict=True))
    assert got == expected


def test_diff_rows_list_every_pair_with_its_text() -> None:
    key = corpus(["Ann met Bob in Rome."], [(0, 0, 3, "PER"), (0, 8, 11, "PER"), (0, 15, 19, "LOC")], ["d"])
    response = corpus(["Ann met Bob in Rome."], [(0, 0, 7, "PER"), (0, 15, 19, "ORG")], ["d"])
    rows = evaluate(key, response).diff_rows()
    assert [r["status"] for r in rows] == ["partial", "missing", "incorrect"]
    assert rows[0]["key"]["text"] == "Ann" and rows[0]["response"]["text"] == "Ann met"
    assert rows[1]["response"] is None and rows[1]["key"]["label"] == "PER"
    assert rows[2]["key"]["label"] == "LOC" and rows[2]["response"]["label"] == "ORG"
    assert all(r["doc_id"] == "d" for r in rows)
