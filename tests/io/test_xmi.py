"""UIMA CAS XMI (io/xmi.py): the shared INCEpTION/cassis files against dkpro-cassis, UTF-16 offsets, layouts."""

from __future__ import annotations

import io
import json
import warnings
import zipfile
from pathlib import Path

import pytest

from spacy_anno_eval.errors import InputError, ReaderNoteWarning
from spacy_anno_eval.io import detect_format, read_corpus
from spacy_anno_eval.io.xmi import STRUCTURAL_PACKAGES, read_xmi
from tests.conftest import shared_file

cassis = pytest.importorskip("cassis")

FOLDER = ("formats", "uima_cas_xmi")
#: each shared XMI with the type system that loads it in cassis
SHARED = [("cassis_small_cas.xmi", "cassis_small_typesystem.xml"),
          ("inception_mergecas_stackedrel1.xmi", "TypeSystem.merged.xml"),
          ("inception_mergecas_stackedrel2.xmi", "TypeSystem.merged.xml"),
          ("inception_mergecas_stackedmerge.xmi", "TypeSystem.merged.xml")]

EMOJI_TYPES = """<?xml version="1.0" encoding="UTF-8"?>
<typeSystemDescription xmlns="http://uima.apache.org/resourceSpecifier"><types>
  <typeDescription><name>custom.Span</name><supertypeName>uima.tcas.Annotation</supertypeName><features>
    <featureDescription><name>value</name><rangeTypeName>uima.cas.String</rangeTypeName></featureDescription>
    <featureDescription><name>score</name><rangeTypeName>uima.cas.Double</rangeTypeName></featureDescription>
    <featureDescription><name>rank</name><rangeTypeName>uima.cas.Integer</rangeTypeName></featureDescription>
    <featureDescription><name>sure</name><rangeTypeName>uima.cas.Boolean</rangeTypeName></featureDescription>
  </features></typeDescription>
</types></typeSystemDescription>
"""

# "I 😀 met Ada in New York 😀 ok": the emoji is 2 UTF-16 units, so "Ada" is [9, 12) in the file, [8, 11) in Python
EMOJI_TEXT = "I \U0001F600 met Ada in New York \U0001F600 ok"


def emoji_xmi(spans: str = "", text: str = EMOJI_TEXT, prolog: str = "") -> str:
    return f"""<?xml version="1.0" encoding="UTF-8"?>{prolog}
<xmi:XMI xmlns:xmi="http://www.omg.org/XMI" xmlns:cas="http:///uima/cas.ecore"
  xmlns:tcas="http:///uima/tcas.ecore" xmlns:custom="http:///custom.ecore" xmi:version="2.0">
  <cas:NULL xmi:id="0"/>
  <tcas:DocumentAnnotation xmi:id="1" sofa="9" begin="0" end="30" language="en"/>
  {spans or '''<custom:Span xmi:id="2" sofa="9" begin="9" end="12" value="PER" score="0.5" rank="1" sure="true"/>
  <custom:Span xmi:id="3" sofa="9" begin="16" end="24" value="LOC" sure="false"/>
  <custom:Span xmi:id="4" sofa="9" begin="28" end="30"/>'''}
  <cas:Sofa xmi:id="9" sofaNum="1" sofaID="_InitialView" mimeType="text" sofaString="{text}"/>
  <cas:View sofa="9" members="1 2 3 4"/>
</xmi:XMI>
"""


def _quiet(fn, *args, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(*args, **kw)


def _ours(corpus, selector="ents") -> list[tuple]:
    t = corpus.get_set(selector)
    return sorted((t.labels[t.label[i]], int(t.start[i]), int(t.end[i]), tuple(sorted(t.features[i].items())))
                  for i in range(len(t)))


def _cassis(xmi: Path, ts_path: Path) -> tuple[str, list[tuple]]:
    """What cassis reads, filtered by our documented rules (no structural types, no Governor/Dependent links)."""
    with open(ts_path, "rb") as f:
        ts = cassis.load_typesystem(f)
    with open(xmi, "rb") as f:
        cas = cassis.load_cas_from_xmi(f, typesystem=ts)
    out = []
    for a in cas.select_all_annotations():
        t = a.type
        names = {f.name for f in t.all_features}
        if t.name.startswith(STRUCTURAL_PACKAGES) or ts.subsumes("uima.tcas.DocumentAnnotation", t.name):
            continue
        if {"Governor", "Dependent"} <= names:
            continue
        feats = {}
        for f in t.all_features:
            if f.name in ("sofa", "begin", "end") or not ts.is_primitive(f.rangeType):
                continue
            if a.get(f.name) is not None:
                feats[f.name] = a.get(f.name)
        out.append((t.short_name, a.begin, a.end, tuple(sorted(feats.items()))))
    return cas.sofa_string, sorted(out)


@pytest.mark.parametrize(("name", "ts_name"), SHARED)
def test_shared_file_same_annotations_as_cassis(name: str, ts_name: str) -> None:
    xmi, ts = shared_file(*FOLDER, name), shared_file(*FOLDER, ts_name)
    text, theirs = _cassis(xmi, ts)
    corpus = _quiet(read_xmi, xmi, typesystem=ts, features=["*"])
    assert corpus.texts == [text]
    assert corpus.doc_ids == [xmi.stem] and corpus.found_sets == ["ents", "spans", "spans:default"]
    assert _ours(corpus) == theirs and theirs  # type, code-point begin/end and typed feature values


def test_shared_counts_and_typed_values() -> None:
    ts = shared_file(*FOLDER, "cassis_small_typesystem.xml")
    corpus = _quiet(read_xmi, shared_file(*FOLDER, "cassis_small_cas.xmi"), typesystem=ts, features=["*"])
    t = corpus.get_set("ents")
    assert len(t) == 13 and sorted(t.labels) == ["Sentence", "Token"]  # cassis.Token is no DKPro segmentation type
    assert t.features[0] == {"id": 0, "pos": "NNP"}  # id is a uima.cas.Integer
    # without a type system every attribute stays a string
    plain = _quiet(read_xmi, shared_file(*FOLDER, "cassis_small_cas.xmi"), features=["*"])
    assert plain.get_set("ents").features[0] == {"id": "0", "pos": "NNP"}


def test_relations_and_structural_are_left_out_with_a_note() -> None:
    xmi = shared_file(*FOLDER, "inception_mergecas_stackedrel2.xmi")
    with pytest.warns(UserWarning) as record:
        corpus = read_xmi(xmi, typesystem=shared_file(*FOLDER, "TypeSystem.merged.xml"))
    messages = " | ".join(str(w.message) for w in record)
    assert "4 relation annotation(s)" in messages and "13 structural annotation(s)" in messages
    assert corpus.get_set("ents").labels == ["Multivalspan"] and len(corpus.get_set("ents")) == 4
    both = _quiet(read_xmi, xmi, relations=True, structural=True)
    assert sorted(both.get_set("ents").labels) == ["DocumentMetaData", "Multivalrel", "Multivalspan", "Sentence",
                                                   "Token"]


def test_label_feature() -> None:
    xmi = shared_file(*FOLDER, "inception_mergecas_stackedrel1.xmi")
    corpus = _quiet(read_xmi, xmi, label_feature="f1")
    t = corpus.get_set("ents")
    assert sorted(t.labels[i] for i in t.label) == ["A", "A", "B", "C"]


def test_emoji_offsets_are_utf16_in_the_file_and_agree_with_cassis(tmp_path: Path) -> None:
    xmi, ts = tmp_path / "doc.xmi", tmp_path / "types.xml"
    xmi.write_text(emoji_xmi(), encoding="utf-8")
    ts.write_text(EMOJI_TYPES, encoding="utf-8")
    corpus = _quiet(read_xmi, xmi, typesystem=ts, features=["*"])
    t = corpus.get_set("ents")
    covered = [EMOJI_TEXT[s:e] for s, e in zip(t.start, t.end, strict=True)]
    assert covered == ["Ada", "New York", "ok"]
    assert t.features[0] == {"value": "PER", "score": 0.5, "rank": 1, "sure": True}
    assert t.features[1] == {"value": "LOC", "sure": False}
    assert _ours(corpus) == _cassis(xmi, ts)[1]  # cassis converts UTF-16 to code points on load too
    by_value = _quiet(read_xmi, xmi, label_feature="value")
    assert by_value.get_set("ents").labels == ["PER", "LOC", "Span"]  # no value: the type stays the label


def test_typesystem_beside_the_file_is_used(tmp_path: Path) -> None:
    (tmp_path / "doc.xmi").write_text(emoji_xmi(), encoding="utf-8")
    (tmp_path / "TypeSystem.xml").write_text(EMOJI_TYPES, encoding="utf-8")
    corpus = _quiet(read_xmi, tmp_path / "doc.xmi", features=["rank"])
    assert corpus.get_set("ents").features[0] == {"rank": 1}


def _export(root: Path) -> None:
    """An INCEpTION-like project export: two annotators and the curation of document ``tale.txt``, one
    annotator of ``other.txt``; a project JSON with anno2 told to skip ``other.txt``."""
    ts = shared_file(*FOLDER, "TypeSystem.merged.xml").read_bytes()
    files = {"annotation/tale.txt/anno1.xmi": "inception_mergecas_stackedrel1.xmi",
             "annotation/tale.txt/anno2.xmi": "inception_mergecas_stackedrel2.xmi",
             "curation/tale.txt/CURATION_USER.xmi": "inception_mergecas_stackedmerge.xmi",
             "annotation/other.txt/anno1.xmi": "cassis_small_cas.xmi",
             "annotation/other.txt/anno2.xmi": "cassis_small_cas.xmi"}
    for target, name in files.items():
        f = root / target
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_bytes(shared_file(*FOLDER, name).read_bytes())
        (f.parent / "TypeSystem.xml").write_bytes(
            ts if "tale" in target else shared_file(*FOLDER, "cassis_small_typesystem.xml").read_bytes())
    (root / "exportedproject1.json").write_text(json.dumps({"annotation_documents": [
        {"name": "other.txt", "user": "anno2", "state": "IGNORE"},
        {"name": "tale.txt", "user": "anno1", "state": "FINISHED"}]}))


def _check_export(corpus) -> None:
    assert corpus.doc_ids == ["other.txt", "tale.txt"]
    assert corpus.found_sets == ["spans:anno1", "spans:anno2", "spans:CURATION_USER"]
    assert corpus.annotator_sets == ["spans:anno1", "spans:anno2"]  # the curation is readable, not an annotator
    assert corpus.covered("spans:anno1").tolist() == [True, True]
    assert corpus.covered("spans:anno2").tolist() == [False, True]  # IGNORE in the project JSON
    assert corpus.covered("spans:CURATION_USER").tolist() == [False, True]
    a2 = corpus.get_set("spans:anno2")
    assert len(a2) == 4 and set(a2.doc.tolist()) == {1}
    assert len(corpus.get_set("spans:anno1")) == 13 + 4


def test_project_export_folder_one_set_per_annotator(tmp_path: Path) -> None:
    _export(tmp_path / "export")
    with (pytest.warns(ReaderNoteWarning, match=r"export: 1 annotator file\(s\) whose document state is IGNORE"),
          pytest.warns(ReaderNoteWarning, match=r"export: 41 structural annotation\(s\) .* left out"),
          pytest.warns(ReaderNoteWarning, match=r"export: 8 relation annotation\(s\) \(Governor/Dependent\) left out")):
        corpus = read_xmi(tmp_path / "export")
    _check_export(corpus)
    assert detect_format(tmp_path / "export") == "xmi"
    # reading the annotation folder alone still sees the layout
    part = _quiet(read_xmi, tmp_path / "export" / "annotation")
    assert part.found_sets == ["spans:anno1", "spans:anno2"]


def test_project_export_zip_read_in_memory(tmp_path: Path) -> None:
    _export(tmp_path / "export")
    buf = tmp_path / "project.zip"
    with zipfile.ZipFile(buf, "w") as z:
        for f in sorted((tmp_path / "export").rglob("*")):
            rel = f.relative_to(tmp_path / "export").as_posix()
            if f.is_file() and rel != "annotation/tale.txt/anno2.xmi":
                z.write(f, rel)
        inner = io.BytesIO()  # INCEpTION's per-annotator ZIP: the XMI and its type system
        with zipfile.ZipFile(inner, "w") as zi:
            zi.write(tmp_path / "export/annotation/tale.txt/anno2.xmi", "tale.xmi")
            zi.write(tmp_path / "export/annotation/tale.txt/TypeSystem.xml", "TypeSystem.xml")
        z.writestr("annotation/tale.txt/anno2.zip", inner.getvalue())
    corpus = _quiet(read_xmi, buf)
    _check_export(corpus)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["export", "project.zip"]  # nothing extracted


def test_flat_folder_is_one_default_set(tmp_path: Path) -> None:
    for name in ("a", "b"):
        (tmp_path / f"{name}.xmi").write_text(emoji_xmi(), encoding="utf-8")
    corpus = _quiet(read_xmi, tmp_path)
    assert corpus.doc_ids == ["a", "b"] and corpus.found_sets == ["ents", "spans", "spans:default"]
    assert len(corpus.get_set("ents")) == 6


def test_read_corpus_detects_xmi(tmp_path: Path) -> None:
    xmi = shared_file(*FOLDER, "inception_mergecas_stackedrel1.xmi")
    assert detect_format(xmi) == "xmi"
    corpus = _quiet(read_corpus, xmi, label_feature="f2", typesystem=shared_file(*FOLDER, "TypeSystem.merged.xml"))
    assert sorted(corpus.get_set("ents").labels) == ["B", "C", "D"]
    (tmp_path / "doc.xml").write_text(emoji_xmi(), encoding="utf-8")  # an .xml file whose root is xmi:XMI
    assert detect_format(tmp_path / "doc.xml") == "xmi"


def test_entity_declaration_is_refused(tmp_path: Path) -> None:
    f = tmp_path / "evil.xmi"
    f.write_text(emoji_xmi(text="&lol;", prolog='<!DOCTYPE x [<!ENTITY lol "lol">]>'), encoding="utf-8")
    with pytest.raises(InputError, match="entity"):
        read_xmi(f)


BAD = {
    "truncated": emoji_xmi()[:300],
    "garbage": "this is not XML at all \x00",
    "wrong root": "<?xml version='1.0'?><GateDocument/>",
    "no sofa": '<xmi:XMI xmlns:xmi="http://www.omg.org/XMI"/>',
    "sofa without text": emoji_xmi().replace(' sofaString="', ' sofaURI="'),
    "begin not an integer": emoji_xmi('<custom:Span xmi:id="2" sofa="9" begin="x" end="3"/>'),
    "end missing": emoji_xmi('<custom:Span xmi:id="2" sofa="9" begin="3"/>'),
    "beyond the text": emoji_xmi('<custom:Span xmi:id="2" sofa="9" begin="3" end="99"/>'),
    "end before begin": emoji_xmi('<custom:Span xmi:id="2" sofa="9" begin="5" end="3"/>'),
    "inside the emoji": emoji_xmi('<custom:Span xmi:id="2" sofa="9" begin="3" end="8"/>'),
    "bad boolean": emoji_xmi('<custom:Span xmi:id="2" sofa="9" begin="9" end="12" sure="yes"/>'),
    "bad integer": emoji_xmi('<custom:Span xmi:id="2" sofa="9" begin="9" end="12" rank="one"/>'),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_malformed_input_is_a_located_input_error(tmp_path: Path, case: str) -> None:
    f = tmp_path / "bad.xmi"
    f.write_text(BAD[case], encoding="utf-8")
    (tmp_path / "TypeSystem.xml").write_text(EMOJI_TYPES, encoding="utf-8")
    with pytest.raises(InputError, match="bad.xmi") as err:
        _quiet(read_xmi, f)
    if case in ("begin not an integer", "beyond the text", "inside the emoji", "bad boolean"):
        assert "xmi:id=2" in str(err.value)


def test_bad_zip_and_bad_typesystem(tmp_path: Path) -> None:
    (tmp_path / "x.zip").write_bytes(b"PK\x03\x04 not really")
    with pytest.raises(InputError, match="ZIP"):
        read_xmi(tmp_path / "x.zip")
    (tmp_path / "doc.xmi").write_text(emoji_xmi(), encoding="utf-8")
    (tmp_path / "ts.xml").write_text("<notatypesystem/>", encoding="utf-8")
    with pytest.raises(InputError, match="type system"):
        read_xmi(tmp_path / "doc.xmi", typesystem=tmp_path / "ts.xml")
    with pytest.raises(InputError, match="no such type system"):
        read_xmi(tmp_path / "doc.xmi", typesystem=tmp_path / "missing.xml")


def test_crlf_character_references_in_the_sofa_are_kept(tmp_path: Path) -> None:
    f = tmp_path / "crlf.xmi"
    f.write_text(emoji_xmi('<custom:Span xmi:id="2" sofa="9" begin="4" end="7"/>', text="ab&#13;&#10;Ada"),
                 encoding="utf-8")
    corpus = _quiet(read_xmi, f)
    t = corpus.get_set("ents")
    assert corpus.texts == ["ab\r\nAda"] and corpus.texts[0][t.start[0]:t.end[0]] == "Ada"


def test_read_corpus_reads_a_zip_with_format_xmi(tmp_path: Path) -> None:
    with zipfile.ZipFile(tmp_path / "doc.zip", "w") as z:  # INCEpTION's one-document XMI export
        z.writestr("doc.xmi", emoji_xmi())
        z.writestr("TypeSystem.xml", EMOJI_TYPES)
    corpus = _quiet(read_corpus, tmp_path / "doc.zip", format="xmi", features=["score"])
    assert corpus.doc_ids == ["doc"] and corpus.get_set("ents").features[0] == {"score": 0.5}
