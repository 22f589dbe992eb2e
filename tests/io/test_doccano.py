"""doccano JSONL exports: the <= 1.2 multi-user file (numeric label ids), the >= 1.3 per-user files, relation
extraction entities; compared with doccano-transformer's reference CoNLL outputs."""

from __future__ import annotations

import json
import warnings

import pytest

from spacy_anno_eval.errors import ConfigError, InputError
from spacy_anno_eval.io import detect_format, read_corpus
from spacy_anno_eval.io.doccano import read_doccano
from tests.conftest import shared_file

DC = ("formats", "doccano_jsonl")


def _spans(corpus, name):
    t = corpus.get_set(name)
    return sorted((corpus.doc_ids[d], int(s), int(e), t.labels[lab])
                  for d, s, e, lab in zip(t.doc, t.start, t.end, t.label, strict=True))


def _write_lines(path, records):
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
    return path


def _conll_spans(path, texts_by_doc):
    """doccano-transformer's CoNLL-2003 output (one document per -DOCSTART-) as character spans: each token is
    found in the document text after the previous one, and B-/I- runs become spans."""
    docs: list[list[tuple[str, str]]] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        token, *_, tag = line.split()
        if token == "-DOCSTART-":
            docs.append([])
        else:
            docs[-1].append((token, tag))
    spans = []
    for (doc_id, text), tokens in zip(texts_by_doc, docs, strict=False):
        pos, current = 0, None
        for token, tag in tokens:
            start = text.index(token, pos)
            pos = start + len(token)
            if tag.startswith("B-") or (tag.startswith("I-") and current is None):
                if current:
                    spans.append(current)
                current = [doc_id, start, pos, tag[2:]]
            elif tag.startswith("I-"):
                current[2] = pos
            else:
                if current:
                    spans.append(current)
                current = None
        if current:
            spans.append(current)
    return sorted(tuple(s) for s in spans)


def test_multi_user_export_matches_doccano_transformer() -> None:
    path = shared_file(*DC, "doccano-transformer_labeling.jsonl")
    assert detect_format(path) == "doccano"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        c = read_corpus(path)
    assert c.doc_ids == ["2578", "2580"]
    assert c.found_sets == c.annotator_sets == ["spans:user1", "spans:user2"]
    user1, user2 = _spans(c, "spans:user1"), _spans(c, "spans:user2")
    assert len(user1) == 5 and len(user2) == 11
    assert [s for s in user2 if s[0] == "2578"] == user1  # doc 2578: the same 5 spans from both users
    assert sum(s[0] == "2580" for s in user2) == 6
    assert {s[3] for s in user2} == {"12", "13", "14"}  # label ids stay labels
    # user 1 never annotated doc 2580: not covered, so it is left out of the pair, not counted as empty
    assert c.covered("spans:user1").tolist() == [True, False]
    assert c.covered("spans:user2").tolist() == [True, True]
    # the reference CoNLL outputs of doccano-transformer, one per user, give the same spans
    texts = list(zip(c.doc_ids, c.texts, strict=True))
    ref1 = _conll_spans(shared_file(*DC, "doccano-transformer_labeling.conll2003.user1"), texts[:1])
    ref2 = _conll_spans(shared_file(*DC, "doccano-transformer_labeling.conll2003.user2"), texts)
    assert user1 == ref1 and user2 == ref2
    assert ("2578", 79, 99, "12") in user1 and c.texts[0][79:99] == "United Arab Emirates"


def test_label_ids_are_named_by_a_table_or_mapping(tmp_path) -> None:
    path = shared_file(*DC, "doccano-transformer_labeling.jsonl")
    table = tmp_path / "labels.json"
    table.write_text(json.dumps([{"id": 12, "text": "LOC", "prefix_key": None, "suffix_key": "l"},
                                 {"id": 13, "text": "PER"}]), encoding="utf-8")
    with pytest.warns(UserWarning, match="label id.s. 14 are not in the label table"):
        c = read_doccano(path, labels=table)
    assert {s[3] for s in _spans(c, "spans:user2")} == {"LOC", "PER", "14"}
    c = read_corpus(path, labels={12: "LOC", 13: "PER", "14": "MISC"})
    assert _spans(c, "spans:user1")[0] == ("2578", 9, 14, "LOC")
    assert {s[3] for s in _spans(c, "spans:user2")} == {"LOC", "PER", "MISC"}
    with pytest.raises(ConfigError, match="non-empty name"):
        read_doccano(path, labels={12: ""})
    with pytest.raises(ConfigError, match="path of doccano's label JSON"):
        read_doccano(path, labels=12)
    table.write_text('[{"id": 12}]', encoding="utf-8")
    with pytest.raises(InputError, match=r"labels.json, item \[0\]"):
        read_doccano(path, labels=table)


def test_sequence_labeling_export() -> None:
    path = shared_file(*DC, "doccano_export_example_sequence_labeling.jsonl")
    c = read_corpus(path)
    name = "spans:doccano_export_example_sequence_labeling"  # a file is one set, named by its stem
    assert c.doc_ids == ["0", "1", "2"] and c.found_sets == ["ents", "spans", name]
    assert _spans(c, "ents") == _spans(c, name) == [("0", 0, 2, "ORG"), ("0", 11, 17, "MISC"),
                                                     ("1", 0, 15, "PERSON"), ("2", 10, 15, "PERSON")]
    assert c.texts[2][10:15] == "Obama"


def test_relation_extraction_entities() -> None:
    path = shared_file(*DC, "doccano_relation_extraction_example.jsonl")
    with pytest.warns(UserWarning, match="3 relation"):
        c = read_corpus(path)
    assert [(s, e, lab, c.texts[0][s:e]) for _, s, e, lab in _spans(c, "ents")] == [
        (0, 6, "ORG", "Google"), (22, 39, "DATE", "September 4, 1998"), (44, 54, "PERSON", "Larry Page"),
        (59, 70, "PERSON", "Sergey Brin")]


def test_latvian_file_counts_code_points() -> None:
    path = shared_file(*DC, "multileg_66624_lv.jsonl")
    c = read_corpus(path)
    records = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    assert len(c) == len(records) == 35
    expected = sorted((str(i), s, e, lab) for i, r in enumerate(records) for s, e, lab in r["label"])
    assert _spans(c, "ents") == expected and len(expected) == 25
    assert {s[3] for s in expected} == {"ORG", "LOC", "DATE", "PER", "NATIONALITY"}
    assert c.texts[0][73:80] == "Anglija" and c.covered("ents").all()  # every line covers its document


def test_per_user_files_in_a_folder_with_emoji(tmp_path) -> None:
    folder = tmp_path / "export"
    folder.mkdir()
    text = "\U0001F600 Paris"
    _write_lines(folder / "alice.jsonl", [{"id": 1, "text": text, "label": [[2, 7, "LOC"]]},
                                          {"id": 2, "text": "Nothing", "label": []}])
    _write_lines(folder / "bob.jsonl", [{"id": 1, "text": text, "label": [[2, 7, "GPE"]]}])
    assert detect_format(folder) == "doccano"
    c = read_corpus(folder)
    assert c.doc_ids == ["1", "2"] and c.annotator_sets == ["spans:alice", "spans:bob"]
    assert _spans(c, "spans:alice") == [("1", 2, 7, "LOC")] and c.texts[0][2:7] == "Paris"
    assert _spans(c, "spans:bob") == [("1", 2, 7, "GPE")]
    assert c.covered("spans:alice").tolist() == [True, True]  # an empty line is a finished document
    assert c.covered("spans:bob").tolist() == [True, False]
    _write_lines(folder / "carol.jsonl", [{"id": 1, "text": text + "!", "label": []}])
    with pytest.raises(InputError, match="carol.jsonl, document '1': the text differs"):
        read_corpus(folder)


def test_documents_without_ids_pair_by_position(tmp_path) -> None:
    folder = tmp_path / "export"
    folder.mkdir()
    _write_lines(folder / "a.jsonl", [{"text": "Ada", "label": [[0, 3, "PER"]]}, {"text": "Bob", "label": []}])
    _write_lines(folder / "b.jsonl", [{"text": "Ada", "label": []}, {"data": "Bob", "label": [[0, 3, "PER"]]}])
    c = read_doccano(folder)
    assert c.doc_ids == ["0", "1"] and c.texts == ["Ada", "Bob"]
    assert _spans(c, "spans:b") == [("1", 0, 3, "PER")]


def test_classification_labels_are_document_categories_not_spans(tmp_path) -> None:
    path = _write_lines(tmp_path / "all.jsonl", [{"id": 1, "text": "Good", "label": ["positive"]}])
    c = read_doccano(path, selectors=["spans:all"])
    assert len(c.get_set("spans:all")) == 0 and c.covered("spans:all").tolist() == [True]
    assert c.doc_cats("spans:all") == [{"positive": 1.0}]


@pytest.mark.parametrize(("content", "match"), [
    ('{"id": 1, "text": "Ada", "label": [[0, 3, "PER"]]\n', r"bad.jsonl, line 1: invalid JSON"),
    ('[1, 2]\n', r"line 1: expected a JSON object"),
    ('{"id": 1, "label": []}\n', r"line 1, document '1': the line has no \"text\""),
    ('{"id": 1, "text": 3}\n', r"a \"text\" of type int"),
    ('{"id": 1, "text": "Ada", "label": {}}\n', r"\"label\" must be a list"),
    ('{"id": 1, "text": "Ada", "label": [[0, 3]]}\n', r"label\[0\]: expected \[start, end, label\]"),
    ('{"id": 1, "text": "Ada", "label": [["0", 3, "P"]]}\n', r"the start offset must be an integer"),
    ('{"id": 1, "text": "Ada", "label": [[0, 9, "P"]]}\n', r"document '1', label\[0\]: span \[0, 9\) out of range"),
    ('{"id": 1, "text": "Ada", "label": [[0, 3, ""]]}\n', r"a span needs a label"),
    ('{"id": 1, "text": "Ada", "entities": [3]}\n', r"entities\[0\]: expected"),
    ('{"id": 1, "text": "Ada", "entities": {}}\n', r"\"entities\" must be a list"),
    ('{"id": 1, "text": "Ada", "annotations": 3}\n', r"\"annotations\" must be a list"),
    ('{"id": 1, "text": "Ada", "annotations": [[0, 3]]}\n', r"annotations\[0\]: expected"),
    ('{"id": 1, "text": "Ada", "annotations": [{"label": 1, "start_offset": 0, "end_offset": 3, "user": [1]}]}\n',
     r"\"user\" must be a user id"),
    ('{"id": 1, "text": "Ada", "annotations": [{"label": null, "start_offset": 0, "end_offset": 3, "user": 1}]}\n',
     r"a span needs a label"),
    ('{"id": 1, "text": "Ada", "label": []}\n{"id": 1, "text": "Bob", "label": []}\n', r"the text differs"),
    ("[" * 300 + "]" * 300 + "\n", r"nesting deeper"),
    (b'{"text": "\xff"}\n', r"UTF-8|utf-8"),
])
def test_malformed_input_raises_a_located_input_error(tmp_path, content, match) -> None:
    path = tmp_path / "bad.jsonl"
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    with pytest.raises(InputError, match=match) as info:
        read_doccano(path)
    assert "bad.jsonl" in str(info.value)


def test_missing_folder_and_unknown_option(tmp_path) -> None:
    with pytest.raises(InputError, match="no .jsonl files"):
        read_doccano(tmp_path)
    path = _write_lines(tmp_path / "a.jsonl", [{"text": "Ada", "label": []}])
    with pytest.raises(ConfigError, match="takes no option 'label_map'"):
        read_corpus(path, format="doccano", label_map={})
