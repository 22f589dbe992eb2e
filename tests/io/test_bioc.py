"""BioC XML and JSON (io/bioc.py), compared with the bioc package on the shared files."""

from __future__ import annotations

import json
import warnings

import pytest

from spacy_anno_eval.errors import CoveredTextWarning, DiscontinuousSpanWarning, InputError
from spacy_anno_eval.io import detect_format, read_corpus
from spacy_anno_eval.io.bioc import read_bioc
from tests.conftest import shared_file

FILES = ("bioc_everything.xml", "bioc_everything.json", "negbio_examples_2.xml",
         "inception_bioc_example-with-sentences.xml")


def _ours(corpus, name):
    t = corpus.get_set(name)
    return sorted((corpus.doc_ids[d], int(s), int(e), t.labels[lab])
                  for d, s, e, lab in zip(t.doc, t.start, t.end, t.label, strict=True))


def _peer(path):
    pytest.importorskip("bioc")
    from bioc import biocjson, biocxml

    with open(path, encoding="utf-8") as f:
        collection = (biocjson.load if str(path).endswith(".json") else biocxml.load)(f)
    found = []
    for doc in collection.documents:
        anns = list(doc.annotations)
        for passage in doc.passages:
            anns += passage.annotations
            for sentence in passage.sentences:
                anns += sentence.annotations
        for a in anns:
            loc = a.total_span
            found.append((doc.id, a.infons.get("annotator") or "default", loc.offset, loc.end,
                          a.infons.get("type", "annotation"), a.text))
    return sorted(found)


@pytest.mark.parametrize("name", FILES)
def test_same_annotations_as_the_bioc_package(name: str) -> None:
    path = shared_file("formats", "bioc", name)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        corpus = read_bioc(path)
    peer = _peer(path)
    ours = sorted((doc, s.split(":", 1)[1], start, end, label, corpus.texts[corpus.doc_ids.index(doc)][start:end])
                  for s in corpus.annotators() for doc, start, end, label in _ours(corpus, s))
    assert [x[:5] for x in ours] == [x[:5] for x in peer]
    if "inception" not in name:  # its offsets are sentence-relative, so the covered text differs
        assert [x[5] for x in ours] == [x[5] for x in peer]


def test_everything_xml_and_json_read_alike() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        xml = read_bioc(shared_file("formats", "bioc", "bioc_everything.xml"))
        js = read_bioc(shared_file("formats", "bioc", "bioc_everything.json"))
    assert xml.doc_ids == js.doc_ids == ["1", "2"]
    assert list(xml.texts) == list(js.texts)
    # document 2's passage starts at offset 27: the text before it is spaces, the sentences at their offsets
    assert xml.texts[1] == " " * 27 + "abcdefg" + "测试Non-ASCII"
    assert _ours(xml, "ents") == _ours(js, "ents")
    assert ("2", 34, 36, "annotation") in _ours(xml, "ents")  # "测试" counts 2 code points
    assert xml.annotator_sets == ["spans:default"] and xml.coverage is None


def test_negbio_annotator_infon_is_a_set_and_infons_are_features() -> None:
    with pytest.warns(UserWarning, match="no 'type' infon"):
        c = read_bioc(shared_file("formats", "bioc", "negbio_examples_2.xml"), features=["*"],
                      selectors=("spans:MetaMap",))
    t = c.get_set("spans:MetaMap")
    assert c.annotator_sets == ["spans:MetaMap"]
    assert c.texts[0][t.start[0]:t.end[0]] == "pneumothorax"
    assert t.features[0]["CUI"] == "C0032326" and t.features[0]["neg"] == "True"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        by_term = read_bioc(shared_file("formats", "bioc", "negbio_examples_2.xml"), label_feature="term")
    assert by_term.get_set("ents").labels == ["Pneumothorax"]


def test_inception_sentence_relative_offsets_are_noted() -> None:
    with pytest.warns(UserWarning) as record:
        read_bioc(shared_file("formats", "bioc", "inception_bioc_example-with-sentences.xml"))
    messages = [str(w.message) for w in record]
    assert any("outside the passage or sentence" in m for m in messages)
    assert any(issubclass(w.category, CoveredTextWarning) for w in record)


XML = """<?xml version='1.0' encoding='UTF-8'?>
<!DOCTYPE collection SYSTEM "BioC.dtd">
<collection><source>s</source><date>d</date><key>k</key>
<document><id>e1</id>
<passage><offset>0</offset><text>I \U0001F600 New York</text>
<annotation id="a1"><infon key="type">GPE</infon><infon key="annotator">alex</infon>
<location offset="4" length="8"/><text>New York</text></annotation>
<annotation id="a2"><infon key="type">EMO</infon><infon key="annotator">bea</infon>
<location offset="2" length="1"/><text>\U0001F600</text></annotation>
<annotation id="a3"><infon key="type">PAIR</infon><infon key="annotator">bea</infon>
<location offset="0" length="1"/><location offset="4" length="3"/><text>I New</text></annotation>
</passage></document>
<document><id>e2</id><passage><offset>0</offset><text>Nothing</text></passage></document>
</collection>
"""


def test_emoji_discontinuous_and_annotators(tmp_path) -> None:
    path = tmp_path / "e.xml"
    path.write_text(XML, encoding="utf-8")
    with pytest.warns(DiscontinuousSpanWarning, match="1 discontinuous"):
        c = read_bioc(path)
    assert c.annotator_sets == ["spans:alex", "spans:bea"]
    assert _ours(c, "spans:alex") == [("e1", 4, 12, "GPE")]
    assert _ours(c, "spans:bea") == [("e1", 0, 7, "PAIR"), ("e1", 2, 3, "EMO")]
    assert c.texts[0][2] == "\U0001F600"
    # a named annotator covers the documents it annotated; e2 has no annotation record of alex or bea
    assert c.coverage["spans:alex"].tolist() == [True, False]
    assert detect_format(path) == "bioc"
    with pytest.warns(DiscontinuousSpanWarning, match="1 discontinuous"):  # read_corpus warns as read_bioc does
        auto = read_corpus(path, selectors=("spans:bea",))
    assert _ours(auto, "spans:bea") == _ours(c, "spans:bea")


def test_bioc_json_emoji_agrees_with_the_bioc_package(tmp_path) -> None:
    bioc = pytest.importorskip("bioc")
    from bioc import biocjson

    collection = bioc.BioCCollection()
    doc = bioc.BioCDocument()
    doc.id = "j1"
    passage = bioc.BioCPassage()
    passage.offset, passage.text = 0, "\U0001F600 Ada"
    ann = bioc.BioCAnnotation()
    ann.id, ann.text, ann.infons["type"] = "1", "Ada", "PER"
    ann.add_location(bioc.BioCLocation(2, 3))
    passage.add_annotation(ann)
    doc.add_passage(passage)
    collection.add_document(doc)
    path = tmp_path / "c.json"
    with open(path, "w", encoding="utf-8") as f:
        biocjson.dump(collection, f)
    c = read_corpus(path)
    assert detect_format(path) == "bioc"
    assert _ours(c, "ents") == [("j1", 2, 5, "PER")]
    assert c.texts[0][2:5] == "Ada"


def test_folder_merges_documents_by_id(tmp_path) -> None:
    for who in ("alex", "bea"):
        (tmp_path / f"{who}.xml").write_text(
            "<collection><document><id>d</id><passage><offset>0</offset><text>Ada met Bob</text>"
            f"<annotation id='1'><infon key='type'>PER</infon><infon key='annotator'>{who}</infon>"
            "<location offset='0' length='3'/><text>Ada</text></annotation></passage></document></collection>",
            encoding="utf-8")
    c = read_bioc(tmp_path)
    assert c.doc_ids == ["d"] and c.annotator_sets == ["spans:alex", "spans:bea"]


@pytest.mark.parametrize("content, message", [
    ("<collection><document><id>d</id>", "invalid XML"),
    ("<collection><document><passage><offset>0</offset></passage></document></collection>", "no <id>"),
    ("<collection><document><id>d</id><passage><offset>x</offset></passage></document></collection>",
     "document 'd', passage 1: the passage <offset> must be an integer"),
    ("<collection><document><id>d</id><passage><offset>0</offset><text>abc</text><annotation id='A'>"
     "<location offset='1' length='9'/></annotation></passage></document></collection>",
     "annotation 'A', span \\[1, 10\\): the location is outside"),
    ("<collection><document><id>d</id><passage><offset>0</offset><text>abc</text><annotation id='A'>"
     "</annotation></passage></document></collection>", "annotation 'A': no location"),
    ("<collection><document><id>d</id><passage><offset>0</offset><text>abc</text></passage>"
     "<passage><offset>1</offset><text>xyz</text></passage></document></collection>", "overlaps"),
    ('<!DOCTYPE c [<!ENTITY x "y">]><collection/>', "entity"),
    ("<GateDocument/>", "root element"),
])
def test_malformed_xml_is_a_located_input_error(tmp_path, content, message) -> None:
    path = tmp_path / "bad.xml"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(InputError, match=message):
        read_bioc(path)


@pytest.mark.parametrize("value, message", [
    ('{"documents": [', "invalid JSON"),
    ('[1, 2]', "expected a BioC JSON collection"),
    ('{"documents": {}}', "must be a list"),
    ('{"documents": [{"id": "d", "passages": [{"offset": "a"}]}]}', "passage 1: the passage \"offset\""),
    ('{"documents": [{"id": "d", "passages": [{"offset": 0, "text": 5}]}]}', "\"text\" must be a string"),
    ('{"documents": [{"id": "d", "passages": [{"offset": 0, "text": "ab", "annotations": [{"id": "x", '
     '"locations": [{"offset": 0}]}]}]}]}', "annotation 'x': a location's \"length\""),
    ('{"documents": [{"passages": []}]}', "documents\\[0\\]: no \"id\""),
])
def test_malformed_json_is_a_located_input_error(tmp_path, value, message) -> None:
    path = tmp_path / "bad.json"
    path.write_text(value, encoding="utf-8")
    with pytest.raises(InputError, match=message):
        read_bioc(path)


def test_deep_json_is_refused(tmp_path) -> None:
    path = tmp_path / "deep.json"
    path.write_text(json.dumps({"documents": [[[[]]]]}).replace("[[[[]]]]", "[" * 300 + "]" * 300))
    with pytest.raises(InputError):
        read_bioc(path)
