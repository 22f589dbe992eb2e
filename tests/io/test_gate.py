"""GATE XML and bdoc JSON (io/gate.py), compared with gatenlp on the same files."""

from __future__ import annotations

import json
import warnings
from collections import Counter
from pathlib import Path

import pytest

from spacy_anno_eval.errors import CoveredTextWarning, InputError
from spacy_anno_eval.io import detect_format, read_corpus
from spacy_anno_eval.io.gate import read_gate
from tests.conftest import shared_file

SHARED = ("gatecore_iaa_beijing-opera.xml", "gateplugin-evaluation_doc1.xml", "python-gatenlp_saveddoc.xml",
          "python-gatenlp_testdoc1.bdocjs", "python-gatenlp_testdoc1.xml")
EMOJI = "\U0001F600"


def _gatenlp(path: Path):
    gatenlp = pytest.importorskip("gatenlp")
    fmt = "bdocjs" if path.suffix == ".bdocjs" else "gatexml"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return gatenlp.Document.load(str(path), fmt=fmt)


def _read(path, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return read_gate(path, **kw)


def _rows(corpus, name: str, doc: int = 0) -> Counter:
    t = corpus.get_set(name)
    return Counter((t.labels[t.label[i]], int(t.start[i]), int(t.end[i])) for i in range(len(t)) if t.doc[i] == doc)


def _peer_rows(gdoc, set_name: str) -> Counter:
    return Counter((a.type, a.start, a.end) for a in gdoc.annset(set_name) if a.start < a.end)


def _ours(set_name: str) -> str:
    return f"spans:{set_name or 'default'}"


def _gate_xml(text_with_nodes: str, sets: str, head: str = "") -> bytes:
    return (f"<?xml version='1.0' encoding='UTF-8'?>{head}\n<GateDocument version=\"3\">\n"
            f"<GateDocumentFeatures/>\n<TextWithNodes>{text_with_nodes}</TextWithNodes>\n{sets}\n"
            f"</GateDocument>\n").encode()


def _feature(name: str, value: str, cls: str = "java.lang.String") -> str:
    return (f'<Feature><Name className="java.lang.String">{name}</Name>'
            f'<Value className="{cls}">{value}</Value></Feature>')


# -- the shared files, against gatenlp ------------------------------------------------------------------------


@pytest.mark.parametrize("name", SHARED)
def test_shared_file_reads_as_gatenlp_does(name: str) -> None:
    path = shared_file("formats", "gate_xml", name)
    peer = _gatenlp(path)
    corpus = _read(path, features=["*"])
    assert corpus.texts[0] == peer.text
    assert corpus.found_sets[-len(list(peer.annset_names())):] == [_ours(n) for n in peer.annset_names()]
    n_compared = 0
    for set_name in peer.annset_names():
        assert _rows(corpus, _ours(set_name)) == _peer_rows(peer, set_name), set_name
        # features: every scalar gatenlp gives (lists and maps stay GATE's text here, see the module docstring)
        t = corpus.get_set(_ours(set_name))
        ours = Counter((t.labels[t.label[i]], int(t.start[i]), int(t.end[i]), k, v)
                       for i in range(len(t)) for k, v in t.features[i].items()
                       if isinstance(v, (str, int, float, bool)) and v != "" and not str(v).startswith("<?xml"))
        theirs = Counter((a.type, a.start, a.end, k, v) for a in peer.annset(set_name) if a.start < a.end
                         for k, v in a.features.items() if isinstance(v, (str, int, float, bool)))
        assert ours == theirs, set_name
        n_compared += sum(ours.values())
    if name == "gatecore_iaa_beijing-opera.xml":  # an empty java.lang.String: "" here, dropped by gatenlp
        t = corpus.get_set("spans:ann1")
        empty = [i for i in range(len(t)) if t.features[i].get("Op") == ""]
        assert [(int(t.start[i]), int(t.end[i])) for i in empty] == [(141, 241)]
        assert "Op" not in next(a for a in peer.annset("ann1") if (a.start, a.end) == (141, 241)).features
    if name == "python-gatenlp_saveddoc.xml":
        assert n_compared > 50  # ANNIE's Token features, compared one by one


def test_beijing_opera_sets_annotators_and_counts() -> None:
    path = shared_file("formats", "gate_xml", "gatecore_iaa_beijing-opera.xml")
    assert detect_format(path) == "gate"
    corpus = read_corpus(path)
    for s in ("spans:ann1", "spans:ann2", "spans:ann3", "spans:Original markups", "spans:default"):
        assert s in corpus.found_sets
    # Original markups and the (empty) default set are readable, but no annotators
    assert corpus.annotators() == ["spans:ann2", "spans:ann3", "spans:ann1"]
    counts = Counter(corpus.get_set("spans:ann1").labels[i] for i in corpus.get_set("spans:ann1").label)
    assert counts == {"Location": 14, "Os": 5, "sent": 19}
    assert len(corpus.get_set("spans:ann2")) == 22 and len(corpus.get_set("spans:ann3")) == 23
    assert corpus.coverage is None  # every set covers the one document


def test_bdocjs_and_gate_xml_of_one_document_agree() -> None:
    a = _read(shared_file("formats", "gate_xml", "python-gatenlp_testdoc1.xml"))
    b = _read(shared_file("formats", "gate_xml", "python-gatenlp_testdoc1.bdocjs"))
    assert detect_format(shared_file("formats", "gate_xml", "python-gatenlp_testdoc1.bdocjs")) == "gate"
    assert a.texts == b.texts and a.found_sets == b.found_sets == ["spans:default", "spans:Set2"]
    for s in a.found_sets:
        assert _rows(a, s) == _rows(b, s)


def test_features_type_arrow_and_label_feature() -> None:
    path = shared_file("formats", "gate_xml", "gateplugin-evaluation_doc1.xml")
    every = _read(path, features=["*"])
    assert set(every.found_features) >= {"id", "c"}
    resp = every.get_set("spans:Resp1")
    assert all("id" in f for f in resp.features) and any("c" in f for f in resp.features)
    only_c = _read(path, features=["Mention->c"]).get_set("spans:Resp1")
    assert [set(f) <= {"c"} for f in only_c.features] == [True] * len(resp) and any(only_c.features)
    assert _read(path).get_set("spans:Resp1").features is None
    by_c = _read(path, label_feature="c").get_set("spans:Resp1")
    expected = Counter(f.get("c", "Mention") for f in resp.features)
    assert Counter(by_c.labels[i] for i in by_c.label) == expected and len(expected) > 1
    with pytest.raises(InputError, match="spans:NAME"):
        _read(path, selectors=["Key"])


# -- synthetic files: UTF-16 node ids, feature classes ---------------------------------------------------------


def test_emoji_before_an_annotation_uses_node_places(tmp_path: Path) -> None:
    # "I 😀 met Ada Lovelace." : the emoji is one code point and two UTF-16 units, so GATE's node ids run 1 ahead
    twn = f'<Node id="0"/>I<Node id="1"/> {EMOJI} met <Node id="9"/>Ada Lovelace<Node id="21"/>.<Node id="22"/>'
    sets = ('<AnnotationSet Name="ann1"><Annotation Id="1" Type="Person" StartNode="9" EndNode="21">'
            f'{_feature("ok", "true", "java.lang.Boolean")}</Annotation>'
            '<Annotation Id="2" Type="Pron" StartNode="0" EndNode="1"/></AnnotationSet>')
    path = tmp_path / "emoji.xml"
    path.write_bytes(_gate_xml(twn, sets))
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # node ids fit their UTF-16 places: nothing to warn
        corpus = read_corpus(path, features=["*"])
    text = corpus.texts[0]
    t = corpus.get_set("ents")
    spans = {t.labels[t.label[i]]: text[t.start[i]:t.end[i]] for i in range(len(t))}
    assert spans == {"Person": "Ada Lovelace", "Pron": "I"}
    peer = _gatenlp(path)
    assert peer.text == text and _rows(corpus, "spans:ann1") == _peer_rows(peer, "ann1")
    assert t.features[1] == {"ok": True} and peer.annset("ann1").with_type("Person").first().features["ok"] is True


def test_node_ids_counting_code_points_are_warned(tmp_path: Path) -> None:
    twn = f'<Node id="0"/>{EMOJI} <Node id="2"/>Ada<Node id="5"/>'  # ids count the emoji as 1: not GATE's
    path = tmp_path / "bad_ids.xml"
    path.write_bytes(_gate_xml(twn, '<AnnotationSet><Annotation Id="1" Type="P" StartNode="2" EndNode="5"/>'
                                    '</AnnotationSet>'))
    with pytest.warns(CoveredTextWarning, match="2 Node id"):
        corpus = read_gate(path)
    t = corpus.get_set("spans:default")
    assert corpus.texts[0][t.start[0]:t.end[0]] == "Ada"  # the places win, as in gatenlp


def test_feature_classes(tmp_path: Path) -> None:
    feats = "".join([_feature("s", "x y"), _feature("i", "42", "java.lang.Integer"),
                     _feature("l", "-7", "java.lang.Long"),
                     _feature("d", "0.25", "java.lang.Double"), _feature("f", "1.5", "java.lang.Float"),
                     _feature("t", "true", "java.lang.Boolean"), _feature("n", "false", "java.lang.Boolean"),
                     _feature("w", "&lt;list/&gt;", "gate.corpora.ObjectWrapper"),
                     _feature("u", "whatever", "com.example.Unknown"),
                     '<Feature><Name className="java.lang.String">null</Name></Feature>'])
    path = tmp_path / "f.xml"
    path.write_bytes(_gate_xml('<Node id="0"/>Ada<Node id="3"/>',
                               f'<AnnotationSet><Annotation Id="0" Type="P" StartNode="0" EndNode="3">{feats}'
                               f'</Annotation></AnnotationSet>'))
    got = read_gate(path, features=["*"]).get_set("ents").features[0]
    assert got == {"s": "x y", "i": 42, "l": -7, "d": 0.25, "f": 1.5, "t": True, "n": False, "w": "<list/>",
                   "u": "whatever"}
    assert type(got["i"]) is int and type(got["d"]) is float
    peer = _gatenlp(path).annset("").first().features
    assert all(peer[k] == got[k] for k in ("s", "i", "l", "t"))
    assert peer["n"] is True  # gatenlp 1.0.8 reads java.lang.Boolean "false" with bool(text); we read False


@pytest.mark.parametrize("offset_type", ["j", "p", None])
def test_bdocjs_offset_types(tmp_path: Path, offset_type: str | None) -> None:
    text = f"I {EMOJI} met Ada."
    start, end = (9, 12) if offset_type == "j" else (8, 11)
    doc = {"text": text, "features": {}, "annotation_sets": {
        "": {"name": "", "annotations": []},
        "ann1": {"name": "ann1", "annotations": [
            {"type": "Person", "start": start, "end": end, "id": 0, "features": {"ok": False, "n": [1, 2]}}]}}}
    if offset_type:
        doc["offset_type"] = offset_type
    path = tmp_path / "d.bdocjs"
    path.write_text(json.dumps(doc), encoding="utf-8")
    corpus = read_corpus(path, features=["*"])
    t = corpus.get_set("spans:ann1")
    assert text[t.start[0]:t.end[0]] == "Ada" and t.features[0] == {"ok": False, "n": [1, 2]}
    assert corpus.annotators() == ["spans:ann1"]  # the empty default set is no annotator
    assert _rows(corpus, "spans:ann1") == _peer_rows(_gatenlp(path), "ann1")


# -- folders -----------------------------------------------------------------------------------------------------


def _write_doc(path: Path, text: str, set_name: str, spans: list[tuple[int, int, str]]) -> None:
    anns = [{"type": t, "start": s, "end": e, "id": i, "features": {}} for i, (s, e, t) in enumerate(spans)]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"text": text, "offset_type": "p", "annotation_sets": {
        set_name: {"name": set_name, "annotations": anns}}}), encoding="utf-8")


def test_folder_merges_documents_and_sets(tmp_path: Path) -> None:
    _write_doc(tmp_path / "u1" / "d1.bdocjs", "Ada met Bob", "u1", [(0, 3, "PER")])
    _write_doc(tmp_path / "u1" / "d2.bdocjs", "Nobody", "u1", [])
    _write_doc(tmp_path / "u2" / "d1.bdocjs", "Ada met Bob", "u2", [(0, 3, "PER"), (8, 11, "PER")])
    (tmp_path / "u2" / "d3.xml").write_bytes(_gate_xml('<Node id="0"/>Cy<Node id="2"/>',
        '<AnnotationSet Name="u2"><Annotation Id="0" Type="PER" StartNode="0" EndNode="2"/></AnnotationSet>'))
    (tmp_path / "notes.xml").write_text("<other/>", encoding="utf-8")
    with pytest.warns(UserWarning, match="1 file"):
        corpus = read_corpus(tmp_path)
    assert corpus.doc_ids == ["d1", "d2", "d3"]
    assert corpus.found_sets == ["spans:u1", "spans:u2"]
    assert corpus.covered("spans:u1").tolist() == [True, True, False]
    assert corpus.covered("spans:u2").tolist() == [True, False, True]
    assert len(corpus.get_set("spans:u2")) == 3


def test_folder_refuses_one_set_twice_and_different_texts(tmp_path: Path) -> None:
    _write_doc(tmp_path / "a" / "d1.bdocjs", "Ada", "u1", [(0, 3, "PER")])
    _write_doc(tmp_path / "b" / "d1.bdocjs", "Ada", "u1", [(0, 3, "PER")])
    with pytest.raises(InputError, match="read from .* already"):
        read_gate(tmp_path)
    _write_doc(tmp_path / "b" / "d1.bdocjs", "Bob", "u2", [])
    with pytest.raises(InputError, match="text differs"):
        read_gate(tmp_path)


def test_a_set_named_default_keeps_both(tmp_path: Path) -> None:
    path = tmp_path / "d.xml"
    ann = '<Annotation Id="{}" Type="{}" StartNode="0" EndNode="3"/>'
    path.write_bytes(_gate_xml('<Node id="0"/>Ada<Node id="3"/>',
                               f'<AnnotationSet>{ann.format(0, "A")}</AnnotationSet>'
                               f'<AnnotationSet Name="default">{ann.format(1, "B")}</AnnotationSet>'))
    with pytest.warns(UserWarning, match="_default"):
        corpus = read_gate(path)
    assert corpus.found_sets == ["spans:_default", "spans:default"]
    assert corpus.get_set("spans:_default").labels == ["A"] and corpus.get_set("spans:default").labels == ["B"]


# -- malformed input -----------------------------------------------------------------------------------------------

_OK_TWN = '<Node id="0"/>Ada<Node id="3"/>'
_OK_SET = '<AnnotationSet><Annotation Id="0" Type="P" StartNode="0" EndNode="3"/></AnnotationSet>'


@pytest.mark.parametrize("data, message", [
    (b"this is not XML", "invalid XML"),
    (_gate_xml(_OK_TWN, _OK_SET)[:-40], "invalid XML"),
    (b"<?xml version='1.0'?><Other/>", "not <GateDocument>"),
    (b"<GateDocument>" + _OK_SET.encode() + b"</GateDocument>", "TextWithNodes"),
    (_gate_xml(_OK_TWN, _OK_SET.replace('EndNode="3"', 'EndNode="4"')), "EndNode='4' names no Node"),
    (_gate_xml(_OK_TWN, _OK_SET.replace(' Type="P"', "")), "no Type"),
    (_gate_xml('<Node id="x"/>Ada', ""), "integers"),
    (_gate_xml('<Node id="0"/>A<b>d</b>a', ""), "only <Node"),
    (_gate_xml(_OK_TWN, _OK_SET.replace("/></A", ">" + _feature("n", "4x", "java.lang.Integer") + "</Annotation></A")),
     "not a number"),
    (_gate_xml(_OK_TWN, _OK_SET.replace("/></A", ">" + _feature("b", "yes", "java.lang.Boolean") + "</Annotation></A")),
     "neither true nor false"),
    (_gate_xml(_OK_TWN, _OK_SET + _OK_SET), "appears twice"),
    (_gate_xml(_OK_TWN, _OK_SET.replace("<Annotation ", "<Note ")), "only <Annotation>"),
    (_gate_xml(_OK_TWN, "", head='<!DOCTYPE GateDocument [<!ENTITY x "boom">]>'), "entit"),
])
def test_malformed_gate_xml_is_a_located_input_error(tmp_path: Path, data: bytes, message: str) -> None:
    path = tmp_path / "bad.xml"
    path.write_bytes(data)
    with pytest.raises(InputError, match=message) as err:
        read_gate(path)
    assert str(path) in str(err.value)


@pytest.mark.parametrize("doc, message", [
    ('{"text": "Ada", "annotation_sets": {', "invalid JSON"),
    ("[1, 2]", "is an object"),
    ('{"annotation_sets": {}}', "no text"),
    ('{"text": "Ada", "offset_type": "x"}', "offset_type"),
    ('{"text": "Ada", "annotation_sets": []}', "must be an object"),
    ('{"text": "Ada", "annotation_sets": {"a": {"annotations": [{"type": "P", "start": "0", "end": 3}]}}}',
     "integers"),
    ('{"text": "Ada", "annotation_sets": {"a": {"annotations": [{"start": 0, "end": 3}]}}}', "needs a type"),
    ('{"text": "Ada", "annotation_sets": {"a": {"annotations": [{"type": "P", "start": 0, "end": 9}]}}}',
     "out of range"),
    ('{"text": "Ada", "annotation_sets": {"a": {"annotations": [{"type": "P", "start": 2, "end": 1}]}}}',
     "out of range"),
    ('{"text": "\\ud83d\\ude00A", "offset_type": "j", "annotation_sets": {"a": {"annotations": '
     '[{"type": "P", "start": 1, "end": 3}]}}}', "surrogate pair"),
    ('{"text": "Ada", "annotation_sets": {"a": {"annotations": [7]}}}', "must be an object"),
])
def test_malformed_bdocjs_is_a_located_input_error(tmp_path: Path, doc: str, message: str) -> None:
    path = tmp_path / "bad.bdocjs"
    path.write_text(doc, encoding="utf-8")
    with pytest.raises(InputError, match=message) as err:
        read_gate(path)
    assert str(path) in str(err.value)


def test_folder_json_with_a_long_text_before_its_sets(tmp_path: Path) -> None:
    text = "word " * 3000  # the key annotation_sets comes after the first 8 KiB
    (tmp_path / "long.json").write_text(json.dumps({"text": text, "annotation_sets": {"u1": {"annotations": [
        {"type": "W", "start": 5, "end": 9, "id": 0}]}}}), encoding="utf-8")
    corpus = read_gate(tmp_path)
    assert corpus.doc_ids == ["long"] and _rows(corpus, "spans:u1") == Counter({("W", 5, 9): 1})
