"""Label Studio JSON exports: users' annotations and model versions' predictions as sets, 0.x completions,
cancelled annotations, code-point offsets checked against ``value.text``."""

from __future__ import annotations

import json
import warnings

import pytest

from spacy_anno_eval.errors import ConfigError, CoveredTextWarning, InputError
from spacy_anno_eval.io import detect_format, read_corpus
from spacy_anno_eval.io.labelstudio import read_labelstudio
from tests.conftest import shared_file

LS = ("formats", "label_studio_json")


def _spans(corpus, name):
    t = corpus.get_set(name)
    return [(corpus.doc_ids[d], int(s), int(e), t.labels[lab])
            for d, s, e, lab in zip(t.doc, t.start, t.end, t.label, strict=True)]


def _region(start, end, text, *labels, from_name="ner", **extra):
    return {"type": "labels", "from_name": from_name, "to_name": "text",
            "value": {"start": start, "end": end, "text": text, "labels": list(labels)}, **extra}


def _write(tmp_path, value, name="export.json"):
    p = tmp_path / name
    p.write_text(json.dumps(value, ensure_ascii=False), encoding="utf-8")
    return p


# -- the shared files, compared with what plain json reads ---------------------------------------------------


def _labels_regions(task, key):
    """(start, end, label, value.text) of every labels region of a task's annotations/predictions, as plain
    json reads them."""
    out = []
    for ann in task.get(key, []):
        for r in ann["result"]:
            if r["type"] == "labels":
                v = r["value"]
                out += [(v["start"], v["end"], lab, v["text"]) for lab in v["labels"]]
    return sorted(out)


def test_v0x_completions_file_matches_plain_json() -> None:
    path = shared_file(*LS, "lsconv_v0x_completions_348.json")
    task = json.loads(path.read_text(encoding="utf-8"))
    expected = _labels_regions(task, "completions")
    assert len(expected) == 38
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # every value.text matches: no warning
        c = read_corpus(path)
    assert detect_format(path) == "labelstudio"
    assert c.doc_ids == ["348"] and len(c.texts[0]) == 920
    assert c.annotator_sets == ["spans:annotator"]  # 0.x completions say nobody's name
    got = sorted((s, e, lab, c.texts[0][s:e]) for _, s, e, lab in _spans(c, "spans:annotator"))
    assert got == expected
    assert got[0][3] == "Aqua (Water)" and {g[2] for g in got} == {"INGREDIENT"}
    assert sum(t.endswith(",") for *_, t in got) == 30  # the spans keep their trailing commas


def test_prediction_and_annotation_of_the_editor_example() -> None:
    pred_path = shared_file(*LS, "lsf_named_entity_tasks.json")
    ann_path = shared_file(*LS, "lsf_named_entity_annotation_1.json")
    pred = read_corpus(pred_path, features=["score", "from_name"])
    assert pred.found_sets == ["ents", "spans", "spans:model:model 1"]
    assert pred.annotator_sets == []  # a model is no annotator
    assert _spans(pred, "spans:model:model 1") == [("0", 343, 354, "Date")]
    assert pred.texts[0][343:354] == "February 22" and len(pred.texts[0]) == 915
    assert pred.get_set("ents").features == [{"from_name": "ner"}]
    ann = read_corpus(ann_path)
    assert ann.doc_ids == ["1"] and ann.texts[0] == pred.texts[0]
    assert _spans(ann, "spans:annotator") == [("1", 343, 354, "Date")]


def test_choices_only_export_covers_the_task_with_a_category_and_no_span() -> None:
    path = shared_file(*LS, "lsconv_csv_test_history.json")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # nothing is left out
        c = read_corpus(path, allow_empty=True)
    assert c.doc_cats("spans:sergei@heartex.e2e") == [{"Positive": 1.0}]
    assert c.doc_ids == ["6141"]
    assert c.found_sets == ["ents", "spans", "spans:sergei@heartex.e2e"]  # completed_by's email
    assert len(c.get_set("spans:sergei@heartex.e2e")) == 0
    assert c.covered("spans:sergei@heartex.e2e").tolist() == [True]  # a finished annotation, no span


# -- users, predictions, coverage -----------------------------------------------------------------------------


def _export():
    return [
        {"id": 1, "data": {"text": "\U0001F600 Paris and Rome"},
         "annotations": [
             {"id": 10, "completed_by": 3, "result": [_region(2, 7, "Paris", "LOC"),
                                                      _region(12, 16, "Rome", "LOC", "CITY")]},
             {"id": 11, "completed_by": {"id": 4, "email": "ann@example.org"},
              "result": [_region(2, 7, "Paris", "LOC"), {"type": "choices", "value": {"choices": ["x"]}},
                         {"type": "relation", "from_id": "a", "to_id": "b"}]}],
         "predictions": [{"model_version": "v2", "score": 0.5,
                          "result": [_region(2, 7, "Paris", "LOC", score=0.9), _region(12, 16, "Rome", "LOC")]}]},
        {"id": 2, "data": {"text": "Nothing here"},
         "annotations": [{"completed_by": 3, "result": []},
                         {"completed_by": {"id": 4, "email": "ann@example.org"}, "was_cancelled": True,
                          "result": [_region(0, 7, "Nothing", "LOC")]}]},
        {"id": 3, "data": {"text": "Berlin"}, "annotations": [{"completed_by": 3, "result": [
            _region(0, 6, "Berlin", "LOC")]}]},
    ]


def test_users_predictions_and_coverage(tmp_path) -> None:
    path = _write(tmp_path, _export())
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        c = read_labelstudio(path, features=["from_name", "score"])
    notes = " ".join(str(w.message) for w in caught)
    assert "1 task(s) cancelled" in notes and "(1 relation)" in notes
    assert c.doc_cats("spans:ann@example.org") == [{"x": 1.0}, None, None]  # the choices: a document category
    assert c.doc_ids == ["1", "2", "3"]
    assert c.found_sets == ["spans:user3", "spans:ann@example.org", "spans:model:v2"]
    assert c.annotator_sets == ["spans:user3", "spans:ann@example.org"]
    # the emoji is one code point: start 2 end 7 covers "Paris"
    assert c.texts[0][2:7] == "Paris"
    assert sorted(_spans(c, "spans:user3")) == [("1", 2, 7, "LOC"), ("1", 12, 16, "CITY"), ("1", 12, 16, "LOC"),
                                                ("3", 0, 6, "LOC")]
    assert _spans(c, "spans:ann@example.org") == [("1", 2, 7, "LOC")]
    # user3 finished doc 2 with no span: covered; ann cancelled it and never saw doc 3: not covered
    assert c.covered("spans:user3").tolist() == [True, True, True]
    assert c.covered("spans:ann@example.org").tolist() == [True, False, False]
    assert c.covered("spans:model:v2").tolist() == [True, False, False]
    pred = c.get_set("spans:model:v2")
    assert [f["score"] for f in pred.features] == [0.9, 0.5]  # the region's own score, else the prediction's
    assert all(f["from_name"] == "ner" for f in pred.features)


def test_label_feature_and_unknown_selector(tmp_path) -> None:
    path = _write(tmp_path, _export())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        c = read_labelstudio(path, label_feature="from_name")
        assert {lab for *_, lab in _spans(c, "spans:user3")} == {"ner"}
        with pytest.raises(InputError, match="spans:user3, spans:ann@example.org, spans:model:v2"):
            read_labelstudio(path).get_set("spans:user9")


def test_a_later_annotation_of_the_same_user_wins(tmp_path) -> None:
    task = {"id": 7, "data": {"text": "Ada Lovelace"}, "annotations": [
        {"completed_by": 1, "result": [_region(0, 3, "Ada", "PER")]},
        {"completed_by": 1, "result": [_region(0, 12, "Ada Lovelace", "PER")]},
        {"completed_by": 1, "was_cancelled": True, "result": []}]}
    with pytest.warns(UserWarning, match="2 annotation.s. left out because the same user"):
        c = read_labelstudio(_write(tmp_path, task))  # one task object, no list
    assert _spans(c, "ents") == [("7", 0, 12, "PER")]
    assert c.covered("ents").tolist() == [True]


def test_v0x_extra_result_nesting_and_skipped(tmp_path) -> None:
    tasks = [{"id": 5, "data": {"text": "Ada Lovelace met Babbage"}, "completions": [
        {"id": 1, "result": [[_region(0, 12, "Ada Lovelace", "PER")], [_region(17, 24, "Babbage", "PER")]]}]},
        {"id": 6, "data": {"text": "skipped"}, "completions": [{"id": 2, "skipped": True, "result": []}]}]
    with pytest.warns(UserWarning, match="1 task.s. cancelled"):
        c = read_labelstudio(_write(tmp_path, tasks))
    assert _spans(c, "spans:annotator") == [("5", 0, 12, "PER"), ("5", 17, 24, "PER")]
    assert c.covered("spans:annotator").tolist() == [True, False]


def test_value_text_mismatch_warns_once_with_the_count(tmp_path) -> None:
    # offsets in UTF-16 units (an old export): after the emoji they are one too far
    tasks = [{"id": 1, "data": {"text": "\U0001F600 Paris, \U0001F600 Rome and more"}, "annotations": [
        {"completed_by": 1, "result": [_region(3, 8, "Paris", "LOC"), _region(13, 17, "Rome", "LOC")]}]}]
    with pytest.warns(CoveredTextWarning, match=r"2 annotations whose value.text differs.*'aris,'.*'Paris'") as rec:
        c = read_labelstudio(_write(tmp_path, tasks))
    assert len([w for w in rec if w.category is CoveredTextWarning]) == 1
    assert _spans(c, "ents") == [("1", 3, 8, "LOC"), ("1", 13, 17, "LOC")]  # offsets kept


def test_text_key_and_data_fields(tmp_path) -> None:
    two = [{"id": 1, "data": {"title": "T", "body": "Ada"}, "annotations": [
        {"completed_by": 1, "result": [_region(0, 3, "Ada", "PER")]}]}]
    path = _write(tmp_path, two)
    with pytest.raises(InputError, match=r"task \[0\] \(id '1'\).*'title', 'body'.*text_key"):
        read_labelstudio(path)
    assert _spans(read_labelstudio(path, text_key="body"), "ents") == [("1", 0, 3, "PER")]
    with pytest.raises(InputError, match="data\\['nope'\\].*no such field"):
        read_labelstudio(path, text_key="nope")
    one = [{"data": {"sentence": "Ada", "n": 3}, "annotations": [{"result": [_region(0, 3, "Ada", "PER")]}]},
           {"text": "Bob"}]  # one string field; a bare task without data
    c = read_labelstudio(_write(tmp_path, one, "one.json"))
    assert c.doc_ids == ["0", "1"] and c.texts == ["Ada", "Bob"]
    assert c.covered("ents").tolist() == [True, False]
    with pytest.raises(ConfigError, match="text_key"):
        read_labelstudio(path, text_key="")
    with pytest.raises(ConfigError, match="takes no option 'txt_key'"):
        read_corpus(path, txt_key="body")


def test_a_folder_of_task_files(tmp_path) -> None:
    folder = tmp_path / "completions"
    folder.mkdir()
    _write(folder, {"id": 1, "data": {"text": "Ada"}, "completions": [{"result": [_region(0, 3, "Ada", "PER")]}]},
           "1.json")
    _write(folder, {"id": 2, "data": {"text": "Bob"}, "completions": [{"result": []}]}, "2.json")
    c = read_corpus(folder, format="labelstudio")
    assert detect_format(folder) == "labelstudio"
    assert c.doc_ids == ["1", "2"] and _spans(c, "ents") == [("1", 0, 3, "PER")]


def test_region_on_another_field_is_left_out(tmp_path) -> None:
    tasks = [{"id": 1, "data": {"text": "Ada", "title": "Bob"}, "annotations": [{"completed_by": 1, "result": [
        _region(0, 3, "Bob", "PER", source="$title"), _region(0, 3, "Ada", "PER", source="$text")]}]}]
    with pytest.warns(UserWarning, match="1 region"):
        c = read_labelstudio(_write(tmp_path, tasks))
    assert _spans(c, "ents") == [("1", 0, 3, "PER")]


# -- malformed input: located InputError, never a crash --------------------------------------------------------


@pytest.mark.parametrize(("content", "match"), [
    ('[{"id": 1, "data": {"text": "Ada"}', r"bad\.json, line 1: invalid JSON"),
    ("[1, 2]", r"task \[0\]: expected a task object"),
    ('[{"id": 1, "data": "Ada"}]', r"\"data\" must be an object"),
    ('[{"id": 1, "data": {"text": 5}}]', r"data\['text'\] must be the task's text, got a int"),
    ('[{"id": 1, "data": {"text": "Ada"}, "annotations": {}}]', r"\"annotations\" must be a list"),
    ('[{"id": 1, "data": {"text": "Ada"}, "annotations": [3]}]', r"annotations\[0\]: expected an annotation"),
    ('[{"id": 1, "data": {"text": "Ada"}, "annotations": [{"result": 3}]}]', r"\"result\" must be a list"),
    ('[{"id": 1, "data": {"text": "Ada"}, "annotations": [{"result": ["x"]}]}]', r"result\[0\]: expected a region"),
    ('[{"id": 1, "data": {"text": "Ada"}, "annotations": [{"result": [{"type": "labels"}]}]}]',
     r"needs a \"value\" object"),
    ('[{"id": 1, "data": {"text": "Ada"}, "annotations": [{"result": [{"type": "labels", "value": '
     '{"start": "0", "end": 3, "labels": ["P"]}}]}]}]', r"value.start must be an integer"),
    ('[{"id": 1, "data": {"text": "Ada"}, "annotations": [{"result": [{"type": "labels", "value": '
     '{"start": 0, "end": 9, "labels": ["P"]}}]}]}]', r"id '1'\), annotations\[0\], result\[0\]: span \[0, 9\) out of"),
    ('[{"id": 1, "data": {"text": "Ada"}, "annotations": [{"result": [{"type": "labels", "value": '
     '{"start": 0, "end": 3, "labels": "P"}}]}]}]', None),  # one label as a string is read
    ('[{"id": 1, "data": {"text": "Ada"}, "annotations": [{"result": [{"type": "labels", "value": '
     '{"start": 0, "end": 3, "labels": [7]}}]}]}]', r"a label must be a non-empty string"),
    ('[{"id": 1, "data": {"text": "Ada"}, "annotations": [{"completed_by": [1], "result": []}]}]',
     r"\"completed_by\" must be a user id"),
    ('[{"id": 1, "data": {"text": "Ada"}}, {"id": 1, "data": {"text": "Bob"}}]', r"the text differs"),
    ("[" * 300 + "]" * 300, r"nesting deeper"),
    (b"\xff\xfe[]", r"not .*UTF-8|utf-8"),
])
def test_malformed_input_raises_a_located_input_error(tmp_path, content, match) -> None:
    path = tmp_path / "bad.json"
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    if match is None:
        assert len(read_labelstudio(path).get_set("ents")) == 1
        return
    with pytest.raises(InputError, match=match) as info:
        read_labelstudio(path)
    assert "bad.json" in str(info.value)
