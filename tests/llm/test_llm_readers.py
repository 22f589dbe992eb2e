"""The readers of generated extractions (spacy_anno_eval/llm/readers.py, spacy_llm.py): each format on files in
tmp_path, detection by content, errors located (file, line, field), the registry."""

from __future__ import annotations

import json
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest

from spacy_anno_eval.errors import ConfigError, InputError, ReaderNoteWarning
from spacy_anno_eval.llm import readers
from spacy_anno_eval.llm.readers import (
    GROUP,
    ReadExtractions,
    detect_llm_format,
    get_llm_reader,
    llm_formats,
    llm_reader_options,
    read_extractions,
    register_llm_reader,
    unregister_llm_reader,
)
from spacy_anno_eval.llm.spacy_llm import extractions_from_docs


def jsonl(path: Path, *records: object) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def pairs(found: ReadExtractions, doc: str) -> list[tuple[str, str]]:
    return [(e.label, e.text) for e in found.documents[doc]]


# -- llm-ner -------------------------------------------------------------------------------------------------------


def test_llm_ner_jsonl_v2_v3_output_and_shards(tmp_path):
    path = jsonl(tmp_path / "out.jsonl",
                 {"id": "d1", "response": "PER: Ada Lovelace, Charles Babbage\nLOC: London"},
                 {"doc_id": 7, "output": "1. Ada | True | per | a person\n2. wrote | False | ==NONE== | a verb"},
                 {"meta": {"id": "d3"}, "response": ["PER: Ada", "PER: Ada\nLOC: ==NONE=="]})
    found = read_extractions(path, "llm-ner")
    assert found.doc_ids == ["d1", "7", "d3"] and found.format == "llm-ner"
    assert pairs(found, "d1") == [("PER", "Ada Lovelace"), ("PER", "Charles Babbage"), ("LOC", "London")]
    assert pairs(found, "7") == [("per", "Ada")]  # no labels given: kept as written
    assert [(e.order, e.source, e.attrs["format"]) for e in found.documents["d1"]][1] == (1, f"{path}:1", "v2")
    assert [(e.order, e.attrs["shard"]) for e in found.documents["d3"]] == [(0, 0), (1, 1)]


def test_llm_ner_labels_map_and_unknown_labels_are_left_out_and_told(tmp_path):
    path = jsonl(tmp_path / "out.jsonl", {"id": "d1", "response": "per: Ada\nRANDOM: library\nOrg: UN"})
    with pytest.warns(ReaderNoteWarning, match=r"1 extraction left out, as spacy-llm leaves them out: .*'RANDOM'.*"
                                               r"out.jsonl:1, 'RANDOM': 'library'"):
        found = read_extractions(path, labels="PER,ORG")
    assert pairs(found, "d1") == [("PER", "Ada"), ("ORG", "UN")]
    assert [(e.label, e.text, e.source) for e in found.left_out] == [("RANDOM", "library", f"{path}:1")]
    with pytest.warns(ReaderNoteWarning, match="3 extractions left out"):
        assert read_extractions(path, labels=["PER", "ORG"], normalizer="strip").documents["d1"] == []
    forced = read_extractions(path, "llm-ner", response_format="v3")
    assert forced.documents["d1"] == []


def test_llm_ner_json_file_of_id_to_response(tmp_path):
    path = tmp_path / "responses.json"
    path.write_text(json.dumps({"a": "PER: Ada", "b": ["LOC: Rome", "1. Bob | True | PER | a man"]}, indent=2))
    found = read_extractions(path, "llm-ner")
    assert found.doc_ids == ["a", "b"] and pairs(found, "b") == [("LOC", "Rome"), ("PER", "Bob")]
    assert [e.attrs["format"] for e in found.documents["b"]] == ["v2", "v3"]


@pytest.mark.parametrize(("records", "message"), [
    ([{"id": "d1", "response": 5}], r"out.jsonl, line 1, document 'd1', \"response\": the response .* must be a "
                                    r"string, got 5"),
    ([{"id": "d1", "response": ["PER: a", None]}], r"line 1, document 'd1', \"response\"\[1\]: the response"),
    ([{"id": "d1", "text": "x"}], r"line 1, document 'd1': expected a record with the model's text in \"response\""),
])
def test_llm_ner_refusals_name_the_line_and_field(tmp_path, records, message):
    with pytest.raises(InputError, match=message):
        read_extractions(jsonl(tmp_path / "out.jsonl", *records), "llm-ner")


def test_llm_ner_settings_are_checked_before_reading(tmp_path):
    path = jsonl(tmp_path / "out.jsonl", {"id": "d1", "response": "PER: Ada"})
    with pytest.raises(ConfigError, match="normalizer must be one of"):
        read_extractions(path, "llm-ner", normalizer="upper")
    with pytest.raises(ConfigError, match="response_format must be one of auto, v2, v3"):
        read_extractions(path, "llm-ner", response_format="v9")
    with pytest.raises(ConfigError, match="component= names the spacy-llm component of a DocBin"):
        read_extractions(path, "llm-ner", component="llm")


def _docbin(path: Path, docs_io: list[tuple[str, dict | None]]) -> Path:
    import spacy
    from spacy.tokens import DocBin

    nlp = spacy.blank("en")
    bin_ = DocBin(store_user_data=True)
    for k, (text, io) in enumerate(docs_io):
        doc = nlp.make_doc(text)
        doc.user_data["doc_id"] = f"doc{k}"
        if io is not None:
            doc.user_data["llm_io"] = io
        bin_.add(doc)
    bin_.to_disk(path)
    return path


def test_llm_ner_reads_a_spacy_llm_docbin(tmp_path):
    """spacy_llm/pipeline/llm.py with save_io: user_data["llm_io"][component] = {"prompt", "response"}; a sharding
    task keeps a list of responses."""
    path = _docbin(tmp_path / "run.spacy", [
        ("Ada Lovelace met Babbage.", {"llm": {"prompt": ["..."], "response": ["PER: Ada Lovelace, Babbage"]}}),
        ("London calling.", {"llm": {"prompt": "...", "response": "1. London | True | LOC | a city"}}),
    ])
    assert detect_llm_format(path) == "llm-ner"
    found = read_extractions(path, labels="PER,LOC")
    assert found.doc_ids == ["doc0", "doc1"]
    assert pairs(found, "doc0") == [("PER", "Ada Lovelace"), ("PER", "Babbage")]
    assert pairs(found, "doc1") == [("LOC", "London")]
    assert found.texts == {"doc0": "Ada Lovelace met Babbage.", "doc1": "London calling."}
    folder = tmp_path / "shards"
    folder.mkdir()
    (folder / "a.spacy").write_bytes(path.read_bytes())
    assert detect_llm_format(folder) == "llm-ner"
    again = read_extractions(folder)
    assert [pairs(again, d) for d in again.doc_ids] == [pairs(found, d) for d in found.doc_ids]
    assert again.documents["doc0"][0].source == f"{folder / 'a.spacy'}, document 'doc0'"


def test_llm_ner_docbin_components_and_missing_io(tmp_path):
    two = _docbin(tmp_path / "two.spacy", [("Ada.", {"ner": {"response": "PER: Ada"}, "rel": {"response": "x"}})])
    with pytest.raises(ConfigError, match=r"two.spacy, document 'doc0': .* several spacy-llm components \(ner, rel\)"):
        read_extractions(two)
    assert pairs(read_extractions(two, component="ner"), "doc0") == [("PER", "Ada")]
    with pytest.raises(InputError, match=r"no response of the component 'spancat' .* \(it holds ner, rel\)"):
        read_extractions(two, component="spancat")
    none = _docbin(tmp_path / "none.spacy", [("Ada.", None)])
    with pytest.raises(InputError, match=r"none.spacy, document 'doc0': the Doc holds no spacy-llm I/O.*save_io"):
        read_extractions(none)
    (tmp_path / "junk.spacy").write_bytes(b"not a docbin")
    with pytest.raises(InputError, match="junk.spacy: not a spaCy DocBin"):
        read_extractions(tmp_path / "junk.spacy")


def test_extractions_from_docs_in_memory():
    import spacy

    doc = spacy.blank("en").make_doc("Ada wrote.")
    doc.user_data["llm_io"] = {"llm": {"prompt": "p", "response": "PER: Ada"}}
    found = extractions_from_docs([doc])
    assert found.doc_ids == ["0"] and pairs(found, "0") == [("PER", "Ada")] and found.texts == {"0": "Ada wrote."}


# -- llm-json ------------------------------------------------------------------------------------------------------


def test_llm_json_records_aliases_and_wrapped_outputs(tmp_path):
    path = jsonl(tmp_path / "out.jsonl",
                 {"id": "d1", "entities": [{"label": "PER", "text": "Ada", "score": 0.9},
                                           {"type": "LOC", "mention": "London", "start": 10, "end": 16}]},
                 {"id": "d2", "extractions": [{"entity_type": "ORG", "entity": "UN"}]},
                 {"id": "d3", "spans": [{"category": "PER", "span": "Bob"}]},
                 {"id": "d4", "output": [{"label": "PER", "text": "Eve"}]},
                 {"id": "d5", "response": 'Sure!\n```json\n[{"label": "LOC", "text": "Paris"}]\n```\nDone.'},
                 {"id": "d6", "response": '{"entities": [{"label": "PER", "text": "Ann"}]}'},
                 {"id": "d7", "response": '{"PER": ["Ann", "Bo"], "LOC": "Rome"}'},
                 {"id": "d8", "entities": []})
    assert detect_llm_format(path) == "llm-json"
    found = read_extractions(path)
    assert pairs(found, "d1") == [("PER", "Ada"), ("LOC", "London")]
    first, second = found.documents["d1"]
    assert dict(first.attrs) == {"score": 0.9} and (first.start, first.end) == (None, None)
    assert (second.start, second.end, second.order, second.source) == (10, 16, 1, f"{path}:1")
    assert pairs(found, "d2") == [("ORG", "UN")] and pairs(found, "d3") == [("PER", "Bob")]
    assert pairs(found, "d4") == [("PER", "Eve")] and pairs(found, "d5") == [("LOC", "Paris")]
    assert pairs(found, "d6") == [("PER", "Ann")]
    assert pairs(found, "d7") == [("PER", "Ann"), ("PER", "Bo"), ("LOC", "Rome")]
    assert found.documents["d8"] == [] and found.doc_ids[-1] == "d8"


def test_llm_json_file_layouts(tmp_path):
    by_id = tmp_path / "by_id.json"
    by_id.write_text(json.dumps({"a": [{"label": "PER", "text": "Ada"}], "b": []}, indent=2))
    assert detect_llm_format(by_id) == "llm-json"
    found = read_extractions(by_id)
    assert found.doc_ids == ["a", "b"] and pairs(found, "a") == [("PER", "Ada")]
    listed = tmp_path / "listed.json"
    listed.write_text(json.dumps([{"id": "x", "entities": [{"label": "L", "text": "t"}]}], indent=1))
    assert pairs(read_extractions(listed, "llm-json"), "x") == [("L", "t")]
    listed.write_text(json.dumps([{"id": "x", "entities": []}, {"id": "y", "entities": [{"label": "L"}]}]))
    with pytest.raises(InputError, match=r"listed.json, record \[1\], document 'y', \"entities\"\[0\]: the "
                                         r"extraction has no text"):
        read_extractions(listed, "llm-json")
    with pytest.raises(InputError, match=r"by_id.json, document 'a', \"the list\"|by_id.json, document 'a', the list"):
        by_id.write_text(json.dumps({"a": [5]}))
        read_extractions(by_id, "llm-json")
    bare = jsonl(tmp_path / "bare.jsonl", [{"label": "PER", "text": "Ada"}], [])
    found = read_extractions(bare)
    assert found.doc_ids == ["0", "1"] and pairs(found, "0") == [("PER", "Ada")]


@pytest.mark.parametrize(("record", "message"), [
    ({"id": "d1", "entities": [{"label": 3, "text": "Ada"}]},
     r"out.jsonl, line 2, document 'd1', \"entities\"\[0\]: \"label\" must be a non-empty string, got 3"),
    ({"id": "d1", "entities": [{"label": "PER", "text": ["Ada"]}]}, r"\"entities\"\[0\]: \"text\" must be a string"),
    ({"id": "d1", "entities": [{"text": "Ada"}]}, r"\[0\]: the extraction has no label \(one of label, type,"),
    ({"id": "d1", "entities": [{"label": "", "text": "Ada"}]}, "must be a non-empty string, got an empty string"),
    ({"id": "d1", "entities": [{"label": "P", "text": "A", "start": 5, "end": 2}]}, "claimed offsets start=5, end=2"),
    ({"id": "d1", "entities": {"PER": [1]}}, r"\"entities\"\['PER'\]: \"text\" must be a string, got 1"),
    ({"id": "d1", "response": "PER: Ada"}, r"line 2, document 'd1', the model output in \"response\", line 1: "
                                           r"invalid JSON"),
    ({"id": "d1", "notes": []}, "the record has none of the fields"),
    ({"id": "d1", "entities": "Ada"}, r"the model output in \"entities\""),
])
def test_llm_json_refusals_name_the_line_and_field(tmp_path, record, message):
    path = jsonl(tmp_path / "out.jsonl", {"id": "d0", "entities": []}, record)
    with pytest.raises(InputError, match=message):
        read_extractions(path, "llm-json")


def test_llm_json_invalid_output_read_as_empty_is_told(tmp_path):
    path = jsonl(tmp_path / "out.jsonl", {"id": "d1", "response": "I cannot help"},
                 {"id": "d2", "response": '[{"label": "PER", "text": "Ada"}]'})
    with pytest.raises(InputError, match="the model output in"):
        read_extractions(path, "llm-json")
    with pytest.warns(ReaderNoteWarning, match="1 extraction left out, model outputs that are no JSON"):
        found = read_extractions(path, "llm-json", invalid_output="empty")
    assert found.documents["d1"] == [] and pairs(found, "d2") == [("PER", "Ada")]
    assert [e.text for e in found.left_out] == ["I cannot help"]
    with pytest.raises(ConfigError, match="invalid_output must be 'refuse' or 'empty'"):
        read_extractions(path, "llm-json", invalid_output="skip")


# -- langextract ---------------------------------------------------------------------------------------------------

ROMEO = "ROMEO. But soft! What light through yonder window breaks? It is the east, and Juliet is the sun."


def test_langextract_annotated_documents(tmp_path):
    """The layout of lx.io.save_annotated_documents (data_lib.annotated_document_to_dict): langextract's README
    example, Romeo and Juliet."""
    record = {"extractions": [
        {"extraction_class": "character", "extraction_text": "ROMEO", "char_interval": {"start_pos": 0, "end_pos": 5},
         "alignment_status": "match_exact", "extraction_index": 1, "group_index": 0, "description": None,
         "attributes": {"emotional_state": "wonder"}},
        {"extraction_class": "emotion", "extraction_text": "But soft!", "char_interval": {"start_pos": 7,
         "end_pos": 16}, "alignment_status": "match_fuzzy", "extraction_index": 2, "group_index": 1,
         "description": None, "attributes": {"feeling": "gentle awe"}},
        {"extraction_class": "relationship", "extraction_text": "Juliet is the sun", "char_interval": None,
         "alignment_status": None, "extraction_index": 3, "group_index": 2, "description": None,
         "attributes": None}], "text": ROMEO, "document_id": "doc_8b1f2a3c"}
    path = jsonl(tmp_path / "extraction_results.jsonl", record)
    assert detect_llm_format(path) == "langextract"
    found = read_extractions(path)
    assert found.doc_ids == ["doc_8b1f2a3c"] and found.texts == {"doc_8b1f2a3c": ROMEO}
    romeo, soft, sun = found.documents["doc_8b1f2a3c"]
    assert (romeo.label, romeo.text, romeo.start, romeo.end) == ("character", "ROMEO", 0, 5)
    assert dict(romeo.attrs) == {"alignment_status": "match_exact", "attributes": {"emotional_state": "wonder"},
                                 "extraction_index": 1, "group_index": 0}
    assert soft.attrs["alignment_status"] == "match_fuzzy" and ROMEO[soft.start:soft.end] == "But soft!"
    assert (sun.start, sun.end, sun.order) == (None, None, 2) and "alignment_status" not in sun.attrs


@pytest.mark.parametrize(("extraction", "message"), [
    ({"extraction_class": "c", "extraction_text": 5}, r": \"extraction_text\" must be a string"),
    ({"extraction_class": None, "extraction_text": "x"}, r": \"extraction_class\" must be a non-empty string"),
    ({"extraction_class": "c", "extraction_text": "x", "char_interval": {"start_pos": "0", "end_pos": 1}},
     r", char_interval: claimed offsets start=\"0\", end=1"),
    ({"extraction_class": "c", "extraction_text": "x", "char_interval": {"start_pos": 0, "end_pos": None}},
     ", char_interval: claimed offsets start=0, end=null"),
    ({"extraction_class": "c", "extraction_text": "x", "alignment_status": "match_maybe"},
     r": \"alignment_status\" \"match_maybe\" is none of langextract's"),
])
def test_langextract_refusals(tmp_path, extraction, message):
    path = jsonl(tmp_path / "lx.jsonl", {"extractions": [extraction], "text": "x", "document_id": "d1"})
    with pytest.raises(InputError, match=rf"lx.jsonl, line 1, document 'd1', extractions\[0\]{message}"):
        read_extractions(path, "langextract")


# -- llm-relations -------------------------------------------------------------------------------------------------


def test_llm_relations_part_names_and_lists(tmp_path):
    path = jsonl(tmp_path / "rel.jsonl",
                 {"id": "d1", "relations": [{"head": "Ada", "relation": "met", "tail": "Babbage", "head_type": "PER",
                                             "tail_label": "PER"},
                                            {"subject": "Ada", "predicate": "born_in", "object": "London"}]},
                 {"id": "d2", "triples": [{"source": "UN", "type": "in", "target": "NYC"}, ["a", "r", "b"]]},
                 {"id": "d3", "relations": []})
    assert detect_llm_format(path) == "llm-relations"
    found = read_extractions(path)
    assert found.doc_ids == ["d1", "d2", "d3"] and found.documents == {}
    met, born = found.triples["d1"]
    assert (met.head, met.relation, met.tail, met.head_label, met.tail_label) == ("Ada", "met", "Babbage", "PER", "PER")
    assert (born.relation, born.order, born.source) == ("born_in", 1, f"{path}:1")
    assert [(t.head, t.relation, t.tail) for t in found.triples["d2"]] == [("UN", "in", "NYC"), ("a", "r", "b")]


@pytest.mark.parametrize(("record", "message"), [
    ({"id": "d1", "relations": [{"head": "a", "relation": 1, "tail": "b"}]}, r"\"relation\" must be a string"),
    ({"id": "d1", "relations": [{"head": "a", "tail": "b"}]}, "a triple names its parts head/relation/tail or"),
    ({"id": "d1", "relations": [["a", "r"]]}, r"expected \{\"head\", \"relation\", \"tail\"\} or \[head, relation"),
    ({"id": "d1", "relations": [["a", "r", None]]}, r"\[2\] \(tail\) must be a string, got nothing"),
    ({"id": "d1", "relations": [{"head": "a", "relation": "r", "tail": "b", "head_type": 1}]}, "\"head_type\" must"),
    ({"id": "d1", "links": []}, "the record has neither \"relations\" nor \"triples\""),
])
def test_llm_relations_refusals(tmp_path, record, message):
    with pytest.raises(InputError, match=rf"rel.jsonl, line 1, document 'd1'(, \"relations\"\[0\])?: {message}"):
        read_extractions(jsonl(tmp_path / "rel.jsonl", record), "llm-relations")


# -- ids, records, detection -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(("records", "message"), [
    ([{"id": "d1", "entities": []}, {"id": "d1", "entities": []}],
     r"line 2: the document id 'd1' is given twice \(first at .*line 1\)"),
    ([{"id": "d1", "entities": []}, {"entities": []}], r"line 2: the record has no id while the first .* gives one"),
    ([{"entities": []}, {"id": "d1", "entities": []}], r"line 2: the record has an id while the first .* has none"),
    ([{"id": True, "entities": []}], r"line 1: the document id \"id\" must be a non-empty string or a whole number"),
    ([{"id": "", "entities": []}], "must be a non-empty string or a whole number, got \"\""),
    ([{"meta": {"id": 1.5}, "entities": []}], r"the document id \"meta.id\" must be"),
])
def test_document_ids(tmp_path, records, message):
    with pytest.raises(InputError, match=message):
        read_extractions(jsonl(tmp_path / "ids.jsonl", *records), "llm-json")


def test_positional_ids_and_meta_id_precedence(tmp_path):
    path = jsonl(tmp_path / "ids.jsonl", {"meta": {"id": "m"}, "id": "i", "entities": []})
    assert read_extractions(path, "llm-json").doc_ids == ["m"]
    path = jsonl(tmp_path / "pos.jsonl", {"entities": []}, {"entities": []})
    assert read_extractions(path, "llm-json").doc_ids == ["0", "1"]


@pytest.mark.parametrize("fmt", ["llm-ner", "llm-json", "langextract", "llm-relations"])
def test_a_file_with_no_record_has_nothing_to_compare(tmp_path, fmt):
    path = tmp_path / "empty.jsonl"
    path.write_text("\n\n")
    with pytest.raises(InputError, match="empty.jsonl: nothing to compare"):
        read_extractions(path, fmt)
    listed = tmp_path / "empty.json"
    listed.write_text("[]")
    with pytest.raises(InputError, match="empty.json: nothing to compare"):
        read_extractions(listed, fmt)


def test_invalid_json_names_the_line(tmp_path):
    path = tmp_path / "bad.jsonl"
    path.write_text('{"id": "d1", "entities": []}\n{"id": "d2", "entities": [}\n')
    with pytest.raises(InputError, match=r"bad.jsonl, line 2: invalid JSON"):
        read_extractions(path, "llm-json")


def test_detection_by_content(tmp_path):
    cases = {
        "ner.jsonl": {"id": "a", "response": "PER: Ada"},
        "json_response.jsonl": {"id": "a", "response": "```json\n[]\n```"},
        "lx.jsonl": {"extractions": [], "text": "t", "document_id": "a"},
        "rel.jsonl": [["a", "r", "b"]],
    }
    expected = {"ner.jsonl": "llm-ner", "json_response.jsonl": "llm-json", "lx.jsonl": "langextract",
                "rel.jsonl": "llm-relations"}
    for name, record in cases.items():
        assert detect_llm_format(jsonl(tmp_path / name, record)) == expected[name], name
    big = tmp_path / "big.json"  # longer than the sniffer's head: its field names tell
    big.write_text(json.dumps({f"d{i}": [{"label": "PER", "text": "x" * 50}] for i in range(2000)}, indent=2))
    assert detect_llm_format(big) == "llm-json"
    long_ner = jsonl(tmp_path / "long_ner.jsonl", {"id": "a", "response": "PER: " + ", ".join(["Ada"] * 30000)})
    assert detect_llm_format(long_ner) == "llm-ner"
    long_json = jsonl(tmp_path / "long_json.jsonl", {"id": "a", "response": json.dumps(
        [{"label": "PER", "text": "Ada"}] * 3000)})
    assert detect_llm_format(long_json) == "llm-json"
    unknown = jsonl(tmp_path / "other.jsonl", {"text": "hello", "spans_x": 1})
    with pytest.raises(InputError, match="cannot tell the extraction format from the name or the content; name it"):
        read_extractions(unknown)


# -- the registry ----------------------------------------------------------------------------------------------------


def test_formats_unknown_format_and_unknown_option(tmp_path):
    assert {"llm-ner", "llm-json", "langextract", "llm-relations"} <= set(llm_formats())
    assert llm_reader_options("llm-ner") == ("labels", "normalizer", "response_format", "component", "encoding")
    path = jsonl(tmp_path / "x.jsonl", {"id": "a", "response": "PER: Ada"})
    with pytest.raises(ConfigError, match="unknown extraction format 'llm-xml': use one of .*langextract, llm-json"):
        read_extractions(path, "llm-xml")
    with pytest.raises(ConfigError, match="the llm-json extraction reader takes no option 'labels'; it takes "
                                          "invalid_output, encoding"):
        read_extractions(path, "llm-json", labels="PER")
    with pytest.raises(InputError, match="nosuch.jsonl: no such file or folder"):
        read_extractions(tmp_path / "nosuch.jsonl")
    with pytest.raises(ConfigError, match="path: the path of an extraction file"):
        read_extractions(3)  # type: ignore[arg-type]


def test_a_registered_reader_wins_its_suffix_and_goes_away(tmp_path):
    @register_llm_reader("tsv-ner", suffixes=".tsvner")
    def read_tsv(path, encoding="utf-8"):
        return ReadExtractions({"d": []}, source=str(path))

    try:
        path = tmp_path / "x.tsvner"
        path.write_text("d\n")
        assert detect_llm_format(path) == "tsv-ner" and "tsv-ner" in llm_formats()
        assert read_extractions(path).format == "tsv-ner"
    finally:
        unregister_llm_reader("tsv-ner")
    assert "tsv-ner" not in llm_formats()
    with pytest.raises(ConfigError, match="the format name must be a non-empty string"):
        register_llm_reader("  ")


def test_entry_point_plugins_are_loaded_when_named(monkeypatch):
    monkeypatch.setattr(readers.REGISTRY, "discovered", True)
    monkeypatch.setattr(readers.REGISTRY, "entry", {
        "json-again": EntryPoint("json-again", "spacy_anno_eval.llm.readers:read_llm_json", GROUP),
        "broken": EntryPoint("broken", "spacy_anno_eval.llm.nosuch_module:read", GROUP),
    })
    monkeypatch.setattr(readers.REGISTRY, "plugins", {})
    assert {"json-again", "broken"} <= set(llm_formats())
    assert get_llm_reader("json-again").function() is readers.read_llm_json
    with pytest.raises(ConfigError, match=r"the extraction reader plugin 'broken' .* cannot be loaded "
                                          r"\(ModuleNotFoundError"):
        get_llm_reader("broken")


def test_a_reader_that_returns_no_extractions_is_named(tmp_path):
    @register_llm_reader("wrongtype", suffixes=".wrong")
    def read_wrong(path):
        return []

    try:
        path = tmp_path / "x.wrong"
        path.write_text("x")
        with pytest.raises(ConfigError, match="the wrongtype reader returned a list, not Extractions"):
            read_extractions(path)
    finally:
        unregister_llm_reader("wrongtype")
