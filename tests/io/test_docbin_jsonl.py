"""The DocBin (``.spacy``) and spaCy / Prodigy JSONL readers.

The DocBin fast path decodes the message without spaCy Docs; every test of it
compares against ``corpus_from_docs`` on the very Docs that were saved, and
against the spaCy path (``fast=False``).
"""

from __future__ import annotations

import json
import zlib
from pathlib import Path

import numpy as np
import pytest
import spacy
import srsly
from spacy.attrs import ENT_IOB, ENT_TYPE
from spacy.tokens import Doc, DocBin, Span

from spacy_anno_eval.annotations.docs import corpus_from_docs, decode_iob
from spacy_anno_eval.annotations.table import Corpus, SpanTable
from spacy_anno_eval.errors import InputError
from spacy_anno_eval.io import read_corpus
from spacy_anno_eval.io.docbin import KNOWN_VERSIONS, KeyIndex, LazyTexts, read_docbin, string_keys
from spacy_anno_eval.io.jsonl import read_jsonl
from spacy_anno_eval.spans.engine import evaluate
from tests.conftest import shared_file

# ---------------------------------------------------------------------------
# helpers


@pytest.fixture(scope="module")
def nlp():
    return spacy.blank("en")


def make_docs(nlp) -> list[Doc]:
    """Docs with the awkward cases: symbol-valued tokens and labels, non-ASCII, no trailing
    space, an empty doc, adjacent entities, entities at both ends, span groups, kb ids."""
    v = nlp.vocab
    docs = []
    d = Doc(v, words=["Ada", "Lovelace", "met", "Charles", "Babbage", "in", "London", "."],
            spaces=[True, True, True, True, True, True, False, False])
    d.ents = [Span(d, 0, 2, "PERSON", kb_id="Q7259"), Span(d, 3, 5, "PERSON"), Span(d, 6, 7, "GPE")]
    d.spans["sc"] = [Span(d, 0, 2, "PER"), Span(d, 1, 2, "SURNAME"), Span(d, 6, 8, "PLACE")]
    docs.append(d)
    d = Doc(v, words=["ORG", "PERSON", "Zürich", "🙂", "naïve", "café"], spaces=[True, False, True, True, True, False])
    d.ents = [Span(d, 0, 1, "ORG"), Span(d, 1, 2, "NORP"), Span(d, 2, 3, "GPE"), Span(d, 5, 6, "FAC")]
    docs.append(d)
    docs.append(Doc(v, words=[]))
    d = Doc(v, words=["no", "entities", "here"], spaces=[True, True, True])
    d.spans["sc"] = [Span(d, 0, 3, "ALL")]
    docs.append(d)
    d = nlp("Apple bought a startup in the U.K. for $1 billion")
    d.ents = [Span(d, 0, 1, "ORG"), Span(d, 5, 7, "GPE"), Span(d, 8, 11, "MONEY")]
    d.user_data["doc_id"] = "apple-doc"
    docs.append(d)
    return docs


def save(docs: list[Doc], path: Path, **kwargs) -> Path:
    DocBin(docs=docs, **kwargs).to_disk(path)
    return path


def assert_same_table(a: SpanTable, b: SpanTable) -> None:
    for col in ("doc", "start", "end", "label"):
        np.testing.assert_array_equal(getattr(a, col), getattr(b, col), err_msg=col)
    assert a.labels == b.labels
    assert list(a.label_names()) == list(b.label_names())
    assert a.features == b.features


def assert_same_corpus(got: Corpus, expected: Corpus) -> None:
    assert got.doc_ids == expected.doc_ids
    assert list(got.texts) == list(expected.texts)
    np.testing.assert_array_equal(got.lengths(), [len(t) for t in expected.texts])
    assert set(got.sets) == set(expected.sets)
    for name in expected.sets:
        assert_same_table(got.sets[name], expected.sets[name])


def write_jsonl(path: Path, records: list) -> Path:
    path.write_text("".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in records), encoding="utf8")
    return path


# ---------------------------------------------------------------------------
# DocBin: fast path, spaCy path, corpus_from_docs agree


@pytest.mark.parametrize("store_user_data", [False, True])
def test_fast_path_equals_corpus_from_docs(nlp, tmp_path, store_user_data):
    docs = make_docs(nlp)
    path = save(docs, tmp_path / "d.spacy", store_user_data=store_user_data)
    fast = read_docbin(path)
    assert isinstance(fast.texts, LazyTexts)  # the fast path really ran
    expected = corpus_from_docs(docs, ["ents"])
    if store_user_data:
        assert fast.doc_ids[4] == "apple-doc"
    else:  # ids are positional when the DocBin stores no user data
        expected.doc_ids = [str(i) for i in range(len(docs))]
    assert_same_corpus(fast, expected)
    assert_same_corpus(read_docbin(path, fast=False), expected)
    assert len(fast.sets["ents"]) == 10


def _rewrite(path: Path, out: Path, change) -> Path:
    """A copy of a DocBin file whose decoded message ``change`` has edited."""
    msg = srsly.msgpack_loads(zlib.decompress(path.read_bytes()))
    change(msg)
    out.write_bytes(zlib.compress(srsly.msgpack_dumps(msg)))
    return out


@pytest.mark.parametrize("change", ["version", "no_version", "extra_field_first", "attrs_as_names"])
def test_unrecognised_docbin_falls_back_to_spacy(nlp, tmp_path, change):
    """A DocBin the fast path does not know (another version, another layout) is read by spaCy's
    own DocBin.from_bytes, and gives the Corpus the fast path gives on the normal file."""
    docs = make_docs(nlp)
    path = save(docs, tmp_path / "d.spacy", store_user_data=True)
    fast = read_docbin(path)
    assert isinstance(fast.texts, LazyTexts)

    def edit(msg):
        if change == "version":
            assert msg["version"] in KNOWN_VERSIONS
            msg["version"] = "9.9"
        elif change == "no_version":
            del msg["version"]
        elif change == "extra_field_first":  # a big field before tokens: the streaming layout no longer holds
            msg.clear()
            msg.update({"future": list(range(100)), "version": "0.2", **saved})
        else:
            msg["attrs"] = [str(a) for a in msg["attrs"]]

    saved = srsly.msgpack_loads(zlib.decompress(path.read_bytes()))
    saved.pop("version")
    other = _rewrite(path, tmp_path / "other.spacy", edit)
    if change == "attrs_as_names":  # spaCy cannot read names either: the error names the file
        with pytest.raises(InputError, match="other.spacy"):
            read_docbin(other)
        return
    fallback = read_docbin(other)
    assert not isinstance(fallback.texts, LazyTexts)  # spaCy's path ran
    assert fallback.doc_ids[4] == "apple-doc"
    assert_same_corpus(fallback, fast)


def test_entities_have_the_right_offsets_and_labels(nlp, tmp_path):
    docs = make_docs(nlp)
    corpus = read_docbin(save(docs, tmp_path / "d.spacy"))
    table = corpus.sets["ents"]
    got = {(int(d), corpus.texts[int(d)][s:e], lab)
           for d, s, e, lab in zip(table.doc, table.start, table.end, table.label_names(), strict=True)}
    want = {(i, e.text, e.label_) for i, doc in enumerate(docs) for e in doc.ents}
    assert got == want
    assert (0, "Ada Lovelace", "PERSON") in got and (1, "PERSON", "NORP") in got and (1, "café", "FAC") in got


def test_every_requested_ents_selector_gets_the_table(nlp, tmp_path):
    path = save(make_docs(nlp), tmp_path / "d.spacy")
    corpus = read_docbin(path, selectors=["ents"])
    assert list(corpus.sets) == ["ents"]
    with pytest.raises(InputError, match="selector"):
        read_docbin(path, selectors=["tokens:dep"])


def test_spans_selector_and_features_use_spacy_and_agree(nlp, tmp_path):
    docs = make_docs(nlp)
    path = save(docs, tmp_path / "d.spacy")
    got = read_docbin(path, selectors=["spans:sc", "ents"])
    expected = corpus_from_docs(docs, ["spans:sc", "ents"])
    expected.doc_ids = [str(i) for i in range(len(docs))]
    assert_same_corpus(got, expected)
    assert len(got.sets["spans:sc"]) == 4
    with_kb = read_docbin(path, features=["kb_id"])
    assert with_kb.sets["ents"].features is not None
    assert with_kb.sets["ents"].features[0] == {"kb_id": "Q7259"}
    assert_same_table(with_kb.sets["ents"], corpus_from_docs(docs, ["ents"], ["kb_id"]).sets["ents"])
    # a key that no document has: an empty table
    assert len(read_docbin(path, selectors=["spans:nothing"]).sets["spans:nothing"]) == 0


def test_folder_of_shards_is_read_in_name_order(nlp, tmp_path):
    docs = make_docs(nlp)
    folder = tmp_path / "shards"
    folder.mkdir()
    save(docs[:2], folder / "b.spacy")  # separate string tables per shard
    save(docs[2:], folder / "a.spacy")
    (folder / "notes.txt").write_text("not a shard")
    order = docs[2:] + docs[:2]
    expected = corpus_from_docs(order, ["ents"])
    expected.doc_ids = [str(i) for i in range(len(order))]
    assert_same_corpus(read_docbin(folder), expected)
    assert_same_corpus(read_docbin(folder, fast=False), expected)
    assert_same_corpus(read_corpus(folder), expected)  # a folder of .spacy files is detected as docbin
    fp = read_docbin(folder).text_fingerprints
    single = read_docbin(save(order, tmp_path / "all.spacy")).text_fingerprints
    np.testing.assert_array_equal(fp, single)


def odd_docs(nlp) -> list[Doc]:
    """A doc with unknown spaces, and one whose first token is a B with an empty entity type."""
    v = nlp.vocab
    unknown = Doc(v, words=["New", "York", "rocks"])  # no spaces given: has_unknown_spaces
    unknown.ents = [Span(unknown, 0, 2, "GPE")]
    assert unknown.has_unknown_spaces
    odd = Doc(v, words=["a", "b", "c"], spaces=[True, True, False])
    odd.from_array([ENT_IOB, ENT_TYPE], np.array([[3, 0], [2, 0], [3, v.strings.add("X")]], dtype="uint64"))
    assert [(e.start, e.label_) for e in odd.ents] == [(2, "X")]  # spaCy: a B with an empty type counts as O
    return [unknown, odd]


def test_unknown_spaces_b_with_empty_type_and_missing_entity_columns(nlp, tmp_path):
    docs = odd_docs(nlp)
    corpus = read_docbin(save(docs, tmp_path / "d.spacy"))
    assert list(corpus.texts) == [d.text for d in docs] and corpus.texts[0] == "New York rocks "
    table = corpus.sets["ents"]
    got = [(int(d), int(s), int(e), lab) for d, s, e, lab in
           zip(table.doc, table.start, table.end, table.label_names(), strict=True)]
    assert got == [(i, e.start_char, e.end_char, e.label_) for i, doc in enumerate(docs) for e in doc.ents]
    no_ents = read_docbin(save(docs, tmp_path / "orth.spacy", attrs=["ORTH"]))
    assert len(no_ents.sets["ents"]) == 0 and list(no_ents.texts) == [d.text for d in docs]


def test_unknown_spaces_flag_restores_spaces_as_spacy_does(nlp, tmp_path):
    """DocBin.get_docs rebuilds a doc flagged has_unknown_spaces with a space after every token."""
    v = nlp.vocab
    docs = [Doc(v, words=["ab", "cd"], spaces=[False, False]), Doc(v, words=["ef", "gh"], spaces=[False, False])]
    docs[1].ents = [Span(docs[1], 1, 2, "X")]
    docbin = DocBin(docs=docs)
    docbin.flags[1]["has_unknown_spaces"] = True
    path = tmp_path / "d.spacy"
    docbin.to_disk(path)
    fast, slow = read_docbin(path), read_docbin(path, fast=False)
    assert list(slow.texts) == ["abcd", "ef gh "]
    assert_same_corpus(fast, slow)
    assert fast.sets["ents"].start.tolist() == [3]


def test_corpus_from_docs_agrees_on_b_with_empty_type(nlp, tmp_path):
    docs = odd_docs(nlp)
    path = save(docs, tmp_path / "d.spacy")
    assert_same_table(corpus_from_docs(docs).sets["ents"], read_docbin(path).sets["ents"])


def test_i_tag_without_entity_is_an_error_naming_the_document(nlp, tmp_path):
    v = nlp.vocab
    good = Doc(v, words=["fine"])
    bad = Doc(v, words=["x", "y", "z"])
    bad.from_array([ENT_IOB, ENT_TYPE], np.array([[2, 0], [1, v.strings.add("X")], [2, 0]], dtype="uint64"))
    bad.user_data["doc_id"] = "broken"
    path = save([good, bad], tmp_path / "d.spacy", store_user_data=True)
    with pytest.raises(InputError, match=r"document 'broken'.*token 1.*entity tag I"):
        read_docbin(path)
    with pytest.raises(InputError, match=r"d\.spacy, document 'broken'.*token 1"):
        read_docbin(path, fast=False)


def test_decode_iob_matches_spacy_rules():
    # doc 0: B I O B(empty type) B I ; doc 1: B (a new doc ends the entity) ; doc 2: empty
    iob = np.array([3, 1, 2, 3, 3, 1, 3], dtype=np.uint8)
    etype = np.array([5, 5, 0, 0, 7, 7, 9], dtype=np.uint64)
    starts = np.array([0, 6, 7, 7])
    doc, first, last = decode_iob(iob, etype, starts)
    assert doc.tolist() == [0, 0, 1] and first.tolist() == [0, 4, 6] and last.tolist() == [1, 5, 6]
    with pytest.raises(InputError, match="token 0"):  # an I opening a document
        decode_iob(np.array([3, 1], np.uint8), np.array([5, 5], np.uint64), np.array([0, 1, 2]), ["a", "b"])


def test_key_index_finds_every_key_and_reports_the_absent():
    from spacy.strings import get_string_id

    strings = [f"w{i}" for i in range(5000)] + ["PERSON", "ORG", ""]
    keys = string_keys(strings)
    assert keys.tolist() == [get_string_id(s) for s in strings]  # symbols and "" as spaCy keys them
    index = KeyIndex(keys)
    rng = np.random.default_rng(0)
    wanted = rng.integers(0, len(strings), 20000)
    pos, found = index.lookup(keys[wanted])
    assert found.all() and (keys[pos] == keys[wanted]).all()
    pos, found = index.lookup(np.array([12345678901234567, keys[3]], dtype=np.uint64))
    assert found.tolist() == [False, True] and pos[1] == 3
    assert not KeyIndex(np.zeros(0, np.uint64)).lookup(np.array([0], np.uint64))[1].any()


# ---------------------------------------------------------------------------
# lazy texts and fingerprints


def test_lazy_texts_behave_like_a_list(nlp, tmp_path):
    docs = make_docs(nlp)
    texts = read_docbin(save(docs, tmp_path / "d.spacy")).texts
    real = [d.text for d in docs]
    assert len(texts) == len(real)
    assert [texts[i] for i in range(len(real))] == real
    assert texts[-1] == real[-1] and texts[np.int64(1)] == real[1]
    assert texts[1:4] == real[1:4] and texts[::2] == real[::2]
    assert list(texts) == real and real[3] in texts
    with pytest.raises(IndexError):
        texts[len(real)]


def test_fingerprints_equal_for_equal_texts_and_differ_otherwise(nlp, tmp_path):
    v = nlp.vocab

    def doc(words, spaces=None):
        return Doc(v, words=words, spaces=spaces or [True] * len(words))

    key_docs = [doc(["a", "b", "c"]), doc(["a", "b", "c"]), doc(["a", "b"]), doc(["x", "y"], [False, False]),
                doc(["PERSON", "ORG"]), doc([])]
    other_docs = [doc(["a", "b", "c"]),  # same text: equal
                  doc(["b", "a", "c"]),  # order
                  doc(["a", "b"], [True, False]),  # one space
                  doc(["x", "z"], [False, False]),  # one token
                  doc(["ORG", "PERSON"]),  # symbols swapped
                  doc(["a"])]
    kf = read_docbin(save(key_docs, tmp_path / "k.spacy")).text_fingerprints
    of = read_docbin(save(other_docs, tmp_path / "o.spacy")).text_fingerprints
    assert kf[0] == of[0] and kf[0] == kf[1]  # same text, also across files with other string tables
    assert all(kf[i] != of[i] for i in range(1, len(kf)))
    assert len(set(kf.tolist())) == 5


def test_evaluate_docbins_end_to_end(nlp, tmp_path):
    v = nlp.vocab
    words = ["Ada", "Lovelace", "met", "Charles", "Babbage", "in", "London", "today"]
    key, resp = Doc(v, words=words), Doc(v, words=words)
    key.ents = [Span(key, 0, 2, "PER"), Span(key, 3, 5, "PER"), Span(key, 6, 7, "LOC")]
    resp.ents = [Span(resp, 0, 2, "PER"), Span(resp, 4, 5, "PER"), Span(resp, 7, 8, "DATE")]
    kp, rp = save([key, Doc(v, words=["x"])], tmp_path / "k.spacy"), save([resp, Doc(v, words=["x"])],
                                                                            tmp_path / "r.spacy")
    counts = evaluate(kp, rp).report()["counts"]
    assert counts == {"correct": 1, "partial": 1, "missing": 1, "spurious": 1, "incorrect": 0}
    # the same figures from the Docs themselves and from a JSONL key
    assert evaluate([key, Doc(v, words=["x"])], [resp, Doc(v, words=["x"])]).report()["counts"] == counts
    jk = write_jsonl(tmp_path / "k.jsonl", [
        {"text": key.text, "spans": [{"start": e.start_char, "end": e.end_char, "label": e.label_} for e in key.ents]},
        {"text": "x "}])
    assert evaluate(jk, rp).report()["counts"] == counts


def test_evaluate_reports_a_text_mismatch_between_docbins(nlp, tmp_path):
    v = nlp.vocab
    kp = save([Doc(v, words=["same"]), Doc(v, words=["Paris", "is", "big"])], tmp_path / "k.spacy")
    rp = save([Doc(v, words=["same"]), Doc(v, words=["Paris", "is", "bog"])], tmp_path / "r.spacy")
    with pytest.raises(InputError, match=r"document '1'.*differs.*character 10"):
        evaluate(kp, rp)


# ---------------------------------------------------------------------------
# DocBin: bad input


@pytest.mark.parametrize("fast", [True, False])
@pytest.mark.parametrize("content", [
    b"this is plain text, not a DocBin",
    zlib.compress(b'{"json": true}'),
    zlib.compress(srsly.msgpack_dumps({"attrs": [65], "tokens": b"\x00" * 12, "lengths": b"", "spaces": b"",
                                       "strings": []})),
])
def test_not_a_docbin_is_an_input_error_naming_the_file(tmp_path, fast, content):
    path = tmp_path / "bad.spacy"
    path.write_bytes(content)
    with pytest.raises(InputError, match=r"bad\.spacy.*DocBin"):
        read_docbin(path, fast=fast)


def test_token_hash_without_its_string_is_an_input_error(tmp_path):
    message = {"version": "0.1", "attrs": [65], "tokens": np.array([12345], dtype=np.uint64).tobytes(),
               "spaces": b"\x01", "lengths": np.array([1], dtype=np.int32).tobytes(), "strings": ["a"],
               "cats": [{}], "flags": [{}], "span_groups": [b""]}
    path = tmp_path / "corrupt.spacy"
    path.write_bytes(zlib.compress(srsly.msgpack_dumps(message)))
    with pytest.raises(InputError, match=r"corrupt\.spacy: corrupt DocBin: the ORTH hash 12345"):
        read_docbin(path)


def test_truncated_docbin_is_an_input_error(nlp, tmp_path):
    data = (save(make_docs(nlp) * 50, tmp_path / "d.spacy")).read_bytes()
    path = tmp_path / "cut.spacy"
    path.write_bytes(data[: len(data) // 2])
    with pytest.raises(InputError, match=r"cut\.spacy.*DocBin"):
        read_docbin(path)


def test_missing_file_and_empty_folder(tmp_path):
    with pytest.raises(InputError, match="no such file"):
        read_docbin(tmp_path / "nope.spacy")
    with pytest.raises(InputError, match="no .spacy files"):
        read_docbin(tmp_path)


@pytest.mark.parametrize("piece", [None, 997])
def test_large_docbin_streams_and_matches_spacy(nlp, tmp_path, monkeypatch, piece):
    """Enough tokens that the tokens field is streamed in many pieces (rows split across pieces)."""
    import spacy_anno_eval.io.docbin_wire as docbin

    if piece:
        monkeypatch.setattr(docbin, "_INPUT_PIECE", piece)
    fed = []
    monkeypatch.setattr(docbin._ColumnSink, "feed", lambda self, buf, _f=docbin._ColumnSink.feed: (
        fed.append(len(buf)), _f(self, buf))[1])
    rng = np.random.default_rng(1)
    vocab_words = [f"w{i}" for i in range(3000)]
    docs = []
    for _ in range(400):
        n = int(rng.integers(5, 60))
        d = Doc(nlp.vocab, words=[vocab_words[j] for j in rng.integers(0, 3000, n)],
                spaces=rng.random(n).tolist() < np.full(n, 0.8))
        ents, t = [], 0
        while t < n - 2:
            t += int(rng.integers(0, 4))
            length = int(rng.integers(1, 3))
            if t + length > n:
                break
            ents.append(Span(d, t, t + length, ["PER", "ORG", "LOC"][int(rng.integers(0, 3))]))
            t += length
        d.ents = ents
        docs.append(d)
    path = save(docs, tmp_path / "big.spacy")
    expected = corpus_from_docs(docs, ["ents"])
    got = read_docbin(path)
    assert_same_corpus(got, expected)
    assert len(got.sets["ents"]) > 2000
    assert len(fed) >= 3 and any(n % 104 for n in fed)  # streamed, with rows split between pieces


# ---------------------------------------------------------------------------
# JSONL


def test_jsonl_reads_spans_entities_ids_and_features(tmp_path):
    path = write_jsonl(tmp_path / "a.jsonl", [
        {"text": "Apple buys UK startup", "meta": {"id": "m1"}, "id": "ignored",
         "spans": [{"start": 0, "end": 5, "label": "ORG", "kb_id": "Q312", "token_start": 0, "token_end": 0},
                   {"start": 11, "end": 13, "label": "GPE", "features": {"kb_id": "Q145", "x": 1}, "kb_id": "no"}]},
        "",
        {"text": "Old format here", "id": 7, "entities": [[4, 10, "MISC"]]},
        {"text": "Prodigy task", "_input_hash": -123, "spans": []},
        "   ",
        {"text": "no annotations at all"},
    ])
    corpus = read_jsonl(path, selectors=["ents", "spans:sc"], features=["kb_id"])
    assert corpus.doc_ids == ["m1", "7", "-123", "3"]
    assert list(corpus.texts) == ["Apple buys UK startup", "Old format here", "Prodigy task", "no annotations at all"]
    np.testing.assert_array_equal(corpus.text_lengths, [21, 15, 12, 21])
    table = corpus.sets["ents"]
    assert corpus.sets["spans:sc"] is table
    assert table.doc.tolist() == [0, 0, 1] and table.start.tolist() == [0, 11, 4] and table.end.tolist() == [5, 13, 10]
    assert list(table.label_names()) == ["ORG", "GPE", "MISC"]
    assert table.features == [{"kb_id": "Q312"}, {"kb_id": "Q145"}, {}]
    assert read_jsonl(path).sets["ents"].features is None  # no features asked, none kept


def test_jsonl_skips_rejected_and_ignored_answers_by_default(tmp_path):
    path = write_jsonl(tmp_path / "p.jsonl", [
        {"text": "keep me", "answer": "accept", "spans": [{"start": 0, "end": 4, "label": "A"}]},
        {"text": "rejected", "answer": "reject", "spans": [{"start": 0, "end": 3, "label": "A"}]},
        {"text": "ignored", "answer": "ignore"},
        {"text": "no answer"},
    ])
    assert read_jsonl(path).doc_ids == ["0", "1"]
    assert list(read_jsonl(path).texts) == ["keep me", "no answer"]
    kept = read_jsonl(path, skip_rejected=False)
    assert len(kept) == 4 and len(kept.sets["ents"]) == 2


@pytest.mark.parametrize(("line", "pattern"), [
    ('{"text": "abc", "spans": [}', r"line 2: invalid JSON"),
    ('["text"]', r"line 2: expected a JSON object"),
    ('{"spans": []}', r"line 2, document '1': the record has no \"text\""),
    ('{"text": 5, "meta": {"id": "d9"}}', r"line 2, document 'd9'.*\"text\" of type int"),
    ('{"text": "abc", "spans": [{"start": 2, "end": 2, "label": "X"}]}', r"line 2, document '1', span \[2, 2\)"),
    ('{"text": "abc", "spans": [{"start": 1, "end": 4, "label": "X"}]}', r"line 2, document '1', span \[1, 4\).*3 c"),
    ('{"text": "abc", "spans": [{"start": -1, "end": 2, "label": "X"}]}', r"line 2.*span \[-1, 2\)"),
    ('{"text": "abc", "spans": [{"start": 0.0, "end": 2, "label": "X"}]}', r"line 2.*spans\[0\].*\"start\".*0\.0"),
    ('{"text": "abc", "spans": [{"start": 0, "end": "2", "label": "X"}]}', r"line 2.*\"end\" must be an integer"),
    ('{"text": "abc", "spans": [{"start": true, "end": 2, "label": "X"}]}', r"line 2.*\"start\" must be an integer"),
    ('{"text": "abc", "spans": [{"start": 0, "end": 2}]}', r"line 2, document '1', span \[0, 2\).*no label"),
    ('{"text": "abc", "spans": [{"start": 0, "end": 2, "label": ""}]}', r"line 2, .*'1', span \[0, 2\).*no label"),
    ('{"text": "abc", "spans": [{"start": 0, "end": 2, "label": 3}]}', r"line 2, .*'1', span \[0, 2\).*label 3"),
    ('{"text": "abc", "spans": {"start": 0}}', r"line 2, document '1'.*\"spans\" must be a list"),
    ('{"text": "abc", "entities": [[0, 2]]}', r"line 2.*entities\[0\]: expected"),
    ('{"text": "abc", "id": "e7", "entities": [[0, 9, "X"]]}', r"line 2, document 'e7', span \[0, 9\)"),
])
def test_jsonl_errors_name_the_line_document_and_span(tmp_path, line, pattern):
    path = write_jsonl(tmp_path / "bad.jsonl", [{"text": "fine"}, line])
    with pytest.raises(InputError, match=r"bad\.jsonl, " + pattern):
        read_jsonl(path)


def test_jsonl_undecodable_bytes_is_an_input_error(tmp_path):
    path = tmp_path / "latin.jsonl"
    path.write_bytes('{"text": "café"}\n'.encode("latin-1"))
    with pytest.raises(InputError, match=r"latin\.jsonl, line 1: not UTF-8 text .* pass its encoding with "
                                         r"--encoding"):
        read_jsonl(path)
    assert read_jsonl(path, encoding="latin-1").texts == ["café"]


def test_evaluate_jsonl_end_to_end(tmp_path):
    text = "Grace Hopper worked at Remington Rand in Philadelphia."
    key = write_jsonl(tmp_path / "k.jsonl", [{"text": text, "meta": {"id": "g"}, "spans": [
        {"start": 0, "end": 12, "label": "PER"}, {"start": 23, "end": 37, "label": "ORG"},
        {"start": 41, "end": 53, "label": "LOC"}]}, {"text": "Nothing.", "meta": {"id": "n"}}])
    # the response lists the documents in another order: they pair by id
    resp = write_jsonl(tmp_path / "r.jsonl", [{"text": "Nothing.", "meta": {"id": "n"}}, {"text": text, "meta": {
        "id": "g"}, "spans": [{"start": 0, "end": 12, "label": "PER"}, {"start": 23, "end": 32, "label": "ORG"},
                              {"start": 41, "end": 53, "label": "ORG"}]}])
    report = evaluate(key, resp).report()
    # GATE counts a coextensive pair with another label as incorrect, and also as missing + spurious
    assert report["counts"] == {"correct": 1, "partial": 1, "missing": 1, "spurious": 1, "incorrect": 1}


@pytest.mark.parametrize(("name", "n_docs", "n_spans", "label"), [
    ("drugs_eval", 500, 362, "DRUG"),
    ("drugs_training", 1477, 1105, "DRUG"),
    ("fashion_brands_eval", 500, 238, "FASHION_BRAND"),
    ("fashion_brands_training", 1235, 527, "FASHION_BRAND"),
])
def test_explosion_ner_files_read(name, n_docs, n_spans, label):
    path = shared_file("explosion_ner", f"{name}.compact.jsonl")
    corpus = read_corpus(path)
    table = corpus.sets["ents"]
    assert len(corpus) == n_docs and len(table) == n_spans
    assert table.labels == [label]
    assert (table.end > table.start).all() and (table.end <= corpus.lengths()[table.doc]).all()
    # the text under the first span is a real word, not an off-by-one slice
    first = corpus.texts[int(table.doc[0])][int(table.start[0]):int(table.end[0])]
    assert first == first.strip() and first


def test_explosion_ner_evaluates_against_itself_as_a_docbin(nlp, tmp_path):
    """JSONL -> spaCy Docs -> DocBin -> fast reader: the same spans, every one correct."""
    path = shared_file("explosion_ner", "fashion_brands_eval.compact.jsonl")
    corpus = read_jsonl(path)
    table = corpus.sets["ents"]
    docs = []
    for d, text in enumerate(corpus.texts):
        doc = nlp.make_doc(text)
        spans = [doc.char_span(int(table.start[i]), int(table.end[i]), table.labels[int(table.label[i])],
                               alignment_mode="expand") for i in table.rows(d)]
        doc.ents = spans
        docs.append(doc)
    bin_path = save(docs, tmp_path / "fashion.spacy")
    report = evaluate(path, bin_path).report()
    assert report["counts"]["missing"] + report["counts"]["spurious"] + report["counts"]["partial"] <= 5
    assert report["counts"]["correct"] >= 233
    assert_same_table(read_docbin(bin_path).sets["ents"], corpus_from_docs(docs).sets["ents"])
