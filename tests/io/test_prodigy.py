"""Prodigy JSONL with several annotators (io/prodigy.py), checked against plain json on the shared files."""

from __future__ import annotations

import json
import warnings
from collections import Counter

import pytest

from spacy_anno_eval.errors import CoveredTextWarning, InputError, ReaderNoteWarning
from spacy_anno_eval.io import detect_format, read_corpus
from spacy_anno_eval.io.prodigy import read_prodigy
from tests.conftest import shared_file

PYDATA = ("formats", "prodigy_jsonl", "pydata-ams-2023.part-shared.jsonl")
NEWS = ("formats", "prodigy_jsonl", "annotated_news_headlines-ORG-PERSON-LOCATION-ner.first200.jsonl")


def _read(path, **kw):
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        corpus = read_corpus(path, **kw)
    return corpus, [str(w.message) for w in record]


def _spans(corpus, name):
    t = corpus.get_set(name)
    return sorted((corpus.doc_ids[d], int(s), int(e), t.labels[lab])
                  for d, s, e, lab in zip(t.doc, t.start, t.end, t.label, strict=True))


def test_pydata_crowd_task_one_set_per_annotator_with_partial_coverage() -> None:
    path = shared_file(*PYDATA)
    records = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    last: dict = {}
    for r in records:  # the peer: plain json, the later timestamp wins (ties: the later line)
        key = (r["_annotator_id"], r["_task_hash"])
        if key not in last or r["_timestamp"] >= last[key]["_timestamp"]:
            last[key] = r
    assert detect_format(path) == "prodigy"
    corpus, messages = _read(path)
    assert len(corpus) == 78 and len(corpus.annotator_sets) == 42
    assert any("38 repeated answer(s)" in m for m in messages)
    assert any("198 'ignore'" in m for m in messages)
    answers = Counter(r["answer"] for r in last.values())
    assert answers == {"accept": 1099, "reject": 922, "ignore": 198}
    for name in corpus.annotator_sets:
        who = name.split(":", 1)[1]
        mine = [r for r in last.values() if r["_annotator_id"] == who]
        judged = {str(r["_input_hash"]): {"new-dataset": 1.0 if r["answer"] == "accept" else 0.0} for r in mine
                  if r["answer"] != "ignore"}
        assert _spans(corpus, name) == []  # a classification answer is a document category, no span
        cats = corpus.doc_cats(name)
        assert {corpus.doc_ids[d]: c for d, c in enumerate(cats) if c is not None} == judged
        covered = {str(r["_input_hash"]) for r in mine if r["answer"] != "ignore"}
        assert {corpus.doc_ids[d] for d in corpus.covered(name).nonzero()[0]} == covered
    per_text = Counter()
    for name in corpus.annotator_sets:
        per_text.update(corpus.covered(name).nonzero()[0].tolist())
    assert sum(per_text.values()) == 1099 + 922


def test_news_headlines_single_session_spans_match_the_file() -> None:
    path = shared_file(*NEWS)
    records = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    corpus, messages = _read(path)
    assert corpus.annotator_sets == ["spans:default"] and len(corpus) == 200
    expected = sorted((str(r["_input_hash"]), s["start"], s["end"], s["label"]) for r in records
                      for s in r.get("spans", []))
    assert _spans(corpus, "ents") == expected
    assert Counter(x[3] for x in expected) == {"LOCATION": 81, "ORG": 61, "PERSON": 27, "PRODUCT": 2}
    assert corpus.coverage is None  # every headline was accepted, 36 of them with no span


def _write(tmp_path, records, name="p.jsonl"):
    path = tmp_path / name
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
    return path


def test_emoji_token_spans_dedup_and_answers(tmp_path) -> None:
    text = "I \U0001F600 New York"
    tokens = [{"text": "I", "start": 0, "end": 1, "id": 0}, {"text": "\U0001F600", "start": 2, "end": 3, "id": 1},
              {"text": "New", "start": 4, "end": 7, "id": 2}, {"text": "York", "start": 8, "end": 12, "id": 3}]
    base = {"text": text, "_input_hash": 7, "_task_hash": 8, "tokens": tokens}
    path = _write(tmp_path, [
        {**base, "_annotator_id": "ner-alex", "answer": "accept", "_timestamp": 5,
         "spans": [{"start": 4, "end": 12, "label": "GPE", "text": "New York", "kb_id": "Q60"}]},
        {**base, "_annotator_id": "ner-alex", "answer": "accept", "_timestamp": 1,  # older: dropped
         "spans": [{"start": 4, "end": 7, "label": "GPE"}]},
        {**base, "_annotator_id": "ner-bea", "answer": "accept",
         "spans": [{"token_start": 1, "token_end": 1, "label": "EMO"}, {"start": 2, "end": 4, "label": "X",
                                                                        "text": "\U0001F600"}]},
        {**base, "_annotator_id": "ner-cy", "answer": "reject", "spans": [{"start": 0, "end": 1, "label": "X"}]},
        {**base, "_session_id": "ner-dee", "answer": "ignore"},
        {"text": "Other", "_input_hash": 9, "_annotator_id": "ner-cy", "answer": "accept", "spans": []},
    ])
    with (pytest.warns(CoveredTextWarning, match="1 annotation"),
          pytest.warns(ReaderNoteWarning, match=r"1 repeated answer\(s\) \(the same annotator, the same task\)"),
          pytest.warns(ReaderNoteWarning, match=r"1 'ignore' and 1 span-task 'reject' answer\(s\) cover no document")):
        c = read_prodigy(path, features=["kb_id"])
    assert c.annotator_sets == ["spans:ner-alex", "spans:ner-bea", "spans:ner-cy", "spans:ner-dee"]
    assert _spans(c, "spans:ner-alex") == [("7", 4, 12, "GPE")]
    assert c.get_set("spans:ner-alex").features == [{"kb_id": "Q60"}]
    assert _spans(c, "spans:ner-bea") == [("7", 2, 3, "EMO"), ("7", 2, 4, "X")]
    assert c.texts[0][2] == "\U0001F600"
    assert c.covered("spans:ner-cy").tolist() == [False, True]  # a span-task reject covers nothing
    assert c.covered("spans:ner-dee").tolist() == [False, False]
    assert c.covered("spans:ner-alex").tolist() == [True, False]


def test_classification_reject_covers_and_choice_options_are_cats(tmp_path) -> None:
    path = _write(tmp_path, [
        {"text": "A", "_input_hash": 1, "label": "POS", "answer": "accept", "_annotator_id": "a"},
        {"text": "A", "_input_hash": 1, "label": "POS", "answer": "reject", "_annotator_id": "b"},
        {"text": "B", "_input_hash": 2, "options": [{"id": "X"}, {"id": 3}, {"id": "Y"}], "accept": ["X", 3],
         "answer": "accept", "_annotator_id": "a"},
    ])
    c = read_prodigy(path)
    assert _spans(c, "spans:a") == [] and _spans(c, "spans:b") == []
    assert c.doc_cats("spans:a") == [{"POS": 1.0}, {"X": 1.0, "3": 1.0, "Y": 0.0}]
    assert c.doc_cats("spans:b") == [{"POS": 0.0}, None] and c.covered("spans:b").tolist() == [True, False]


def test_documents_without_hash_are_keyed_by_text(tmp_path) -> None:
    path = _write(tmp_path, [{"text": "one", "_annotator_id": "a"}, {"text": "two", "_annotator_id": "a"},
                             {"text": "one", "_annotator_id": "b"}])
    c = read_prodigy(path)
    assert c.doc_ids == ["0", "1"] and c.covered("spans:b").tolist() == [True, False]


@pytest.mark.parametrize("lines, message", [
    (['{"text": "a", '], "line 1: invalid JSON"),
    (['[1]'], "line 1: expected a JSON object"),
    (['{"_input_hash": 1}'], "line 1, document '1': the task has no \"text\""),
    (['{"text": "ab", "_input_hash": 1}', '{"text": "xy", "_input_hash": 1}'], "line 2, document '1': the text "
                                                                               "differs"),
    (['{"text": "ab", "answer": "maybe"}'], "\"answer\" must be one of"),
    (['{"text": "ab", "spans": [{"start": 0, "end": 5, "label": "X"}]}'], "span \\[0, 5\\): span out of range"),
    (['{"text": "ab", "spans": [{"start": 0, "end": 1}]}'], "has no label"),
    (['{"text": "ab", "spans": [{"start": "0", "end": 1, "label": "X"}]}'], "\"start\" must be an integer"),
    (['{"text": "ab", "spans": [{"token_start": 0, "token_end": 0, "label": "X"}]}'], "needs the task's \"tokens\""),
    (['{"text": "ab", "tokens": [], "spans": [{"token_start": 0, "token_end": 0, "label": "X"}]}'], "is no token"),
    (['{"text": "ab", "spans": {"start": 0}}'], "\"spans\" must be a list"),
])
def test_malformed_input_is_a_located_input_error(tmp_path, lines, message) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(InputError, match=message):
        read_prodigy(path)


def test_folder_of_exports(tmp_path) -> None:
    (tmp_path / "x").mkdir()
    _write(tmp_path / "x", [{"text": "A", "_input_hash": 1, "_annotator_id": "a", "spans": []}], "1.jsonl")
    _write(tmp_path / "x", [{"text": "A", "_input_hash": 1, "_annotator_id": "b", "spans": []}], "2.jsonl")
    c = read_prodigy(tmp_path / "x")
    assert c.doc_ids == ["1"] and c.annotator_sets == ["spans:a", "spans:b"]
