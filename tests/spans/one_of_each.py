"""A sentence with one decision of each kind (correct, label error, boundary error, boundary and label error,
missing, spurious), shared by the decision and confusion tests."""

from __future__ import annotations

from spacy_anno_eval.annotations.table import Corpus, SpanTable

TEXT = "Ada Lovelace met Charles Babbage in London on Monday with Mary Somerville and Byron ."
LABELS = ["PER", "LOC", "DATE"]


def _at(word: str) -> tuple[int, int]:
    start = TEXT.index(word)
    return start, start + len(word)


# one decision of each kind:
KEY = [(*_at("Ada Lovelace"), "PER"),          # correct
       (*_at("Charles Babbage"), "PER"),       # label_error (response LOC, same span)
       (*_at("London"), "LOC"),                # boundary_error (response "in London", LOC)
       (*_at("Monday"), "DATE"),               # boundary_and_label_error (response "on Monday", LOC)
       (*_at("Mary Somerville"), "PER")]       # missing
RESPONSE = [(*_at("Ada Lovelace"), "PER"),
            (*_at("Charles Babbage"), "LOC"),
            (*_at("in London"), "LOC"),
            (*_at("on Monday"), "LOC"),
            (*_at("Byron"), "PER")]            # spurious


def corpus(spans: list[tuple[int, int, str]]) -> Corpus:
    table = SpanTable([0] * len(spans), [s for s, _, _ in spans], [e for _, e, _ in spans],
                      [LABELS.index(lab) for _, _, lab in spans], list(LABELS))
    return Corpus(["doc1"], [TEXT], {"ents": table})
