"""CoNLL key and response whose tokens are spelt differently: paired by position, as conlleval does."""

from __future__ import annotations

import warnings

import pytest

from spacy_anno_eval.errors import InputError, TokenMismatchWarning
from spacy_anno_eval.spans.engine import evaluate


def write(path, text):
    path.write_text(text, encoding="utf8")
    return path


KEY = "u O\ngt B-PER\nJo I-PER\n\nin O\nParis B-LOC\n"


def test_respelt_tokens_pair_by_position_with_one_warning(tmp_path):
    key = write(tmp_path / "key.conll", KEY)
    response = write(tmp_path / "resp.conll", "you O\nget B-PER\nJo I-PER\n\nin O\nParis B-ORG\n")
    with pytest.warns(TokenMismatchWarning) as record:
        ev = evaluate(key, response)
    assert len(record) == 1
    message = str(record[0].message)
    assert "2 tokens differ in spelling" in message
    assert "key.conll, line 1 'u'" in message and "resp.conll, line 1 'you'" in message
    report = ev.report()
    # "gt Jo" (key offsets 2-7) is matched although the response wrote "get Jo"; Paris differs in type
    assert report["counts"]["correct"] == 1
    assert report["counts"]["incorrect"] == 1
    assert report["counts"]["missing"] == report["counts"]["spurious"] == 1


def test_same_texts_do_not_warn(tmp_path):
    key = write(tmp_path / "key.conll", KEY)
    response = write(tmp_path / "resp.conll", KEY.replace("B-LOC", "O"))
    with warnings.catch_warnings():
        warnings.simplefilter("error", TokenMismatchWarning)
        assert evaluate(key, response).report()["counts"]["correct"] == 1


def test_documents_paired_by_id_pair_their_tokens(tmp_path):
    key = write(tmp_path / "key.conll", "# sent_id = a\nu O\ngt B-PER\n\n# sent_id = b\nin O\nParis B-LOC\n")
    response = write(tmp_path / "resp.conll",
                     "# sent_id = b\nin O\nParis B-LOC\n\n# sent_id = a\nyou O\nget B-PER\n")
    with pytest.warns(TokenMismatchWarning, match="2 tokens differ"):
        report = evaluate(key, response).report()
    assert report["counts"]["correct"] == 2 and report["counts"]["spurious"] == 0


@pytest.mark.parametrize(("key_text", "response", "what"), [
    (KEY, "you O\nget B-PER\n\nin O\nParis B-LOC\n", "sentence 1 has 3 tokens in the key but 2 in the response"),
    # one document of two sentences against one of one sentence (sentence documents would differ in number)
    (f"-DOCSTART- O\n\n{KEY}", "-DOCSTART- O\n\nyou O\nget B-PER\nJo I-PER\nin O\nParis B-LOC\n",
     "2 sentences in the key but 1 in the response"),
])
def test_different_counts_stay_an_error(tmp_path, key_text, response, what):
    key = write(tmp_path / "key.conll", key_text)
    resp = write(tmp_path / "resp.conll", response)
    with pytest.raises(InputError, match=what):
        evaluate(key, resp)


def test_a_jsonl_response_with_another_text_is_still_refused(tmp_path):
    key = write(tmp_path / "key.conll", KEY)
    resp = write(tmp_path / "resp.jsonl", '{"text": "you get Jo\\nin Paris", "spans": []}\n'
                                          '{"text": "x", "spans": []}\n')
    with pytest.raises(InputError):
        evaluate(key, resp)
