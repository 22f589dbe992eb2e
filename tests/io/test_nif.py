"""NIF Turtle (io/nif.py), compared with a plain rdflib query on the shared files."""

from __future__ import annotations

import sys
import warnings

import pytest

from spacy_anno_eval.errors import ConfigError, CoveredTextWarning, InputError, ReaderNoteWarning
from spacy_anno_eval.io import detect_format, read_corpus
from spacy_anno_eval.io.nif import read_nif
from tests.conftest import shared_file

rdflib = pytest.importorskip("rdflib")

PEER_QUERY = """
PREFIX nif: <http://persistence.uni-leipzig.org/nlp2rdf/ontologies/nif-core#>
PREFIX itsrdf: <http://www.w3.org/2005/11/its/rdf#>
SELECT DISTINCT ?s ?ctx ?b ?e ?ident WHERE {
  ?s nif:referenceContext ?ctx ; nif:beginIndex ?b ; nif:endIndex ?e .
  { ?s itsrdf:taIdentRef ?ident } UNION { ?s itsrdf:taClassRef ?c . OPTIONAL { ?s itsrdf:taIdentRef ?ident } }
}"""


def _peer(path):
    g = rdflib.Graph()
    g.parse(path, format="turtle")
    return sorted({(str(r.ctx), int(r.b), int(r.e), str(r.ident) if r.ident is not None else None)
                   for r in g.query(PEER_QUERY)})


def _ours(corpus, name="ents", feature="taIdentRef"):
    t = corpus.get_set(name)
    return sorted((corpus.doc_ids[d], int(s), int(e), (t.features[i] if t.features else {}).get(feature))
                  for i, (d, s, e) in enumerate(zip(t.doc, t.start, t.end, strict=True)))


def test_kore50_same_mentions_as_rdflib_and_anchor_mismatches_warned() -> None:
    path = shared_file("formats", "nif_turtle", "kore50.ttl")
    with (pytest.warns(CoveredTextWarning, match="58 annotations whose nif:anchorOf differs"),
          pytest.warns(ReaderNoteWarning, match=r"kore50.ttl: 50 string\(s\) without an entity annotation")):
        c = read_nif(path, features=["taIdentRef"])
    assert len(c) == 1 and len(c.texts[0]) == 3777  # the URI says 3779: the escaped-quote bug
    ours = _ours(c)
    assert len(ours) == 144
    assert ours == _peer(path)
    assert c.get_set("ents").labels == ["Entity"]
    assert c.annotator_sets == ["spans:default"]
    t = c.get_set("ents")
    assert c.texts[0][t.start[0]:t.end[0]] == "David"


def test_kore50_entity_links_as_labels() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        c = read_nif(shared_file("formats", "nif_turtle", "kore50.ttl"), label_feature="taIdentRef")
    labels = c.get_set("ents").labels
    assert "http://dbpedia.org/resource/David_Beckham" in labels
    assert len(labels) > 100


def test_dkpro_example_classes_and_links() -> None:
    path = shared_file("formats", "nif_turtle", "dkpro_nif_example.ttl")
    with pytest.warns(UserWarning, match="several itsrdf:taClassRef"):
        c = read_corpus(path, features=["*"])
    assert detect_format(path) == "nif"
    assert _ours(c) == _peer(path)
    t = c.get_set("ents")
    got = [(int(s), int(e), t.labels[lab], c.texts[0][s:e]) for s, e, lab in zip(t.start, t.end, t.label, strict=True)]
    assert got == [(0, 5, "Country", "Japan"), (42, 68, "Archipelago", "stratovolcanic archipelago")]
    assert t.features[0]["taClassRef"] == "Country StratovolcanicArchipelago"  # rdfs:Class of the second left out
    assert t.features[1]["taClassRef"] == "Archipelago"
    assert "日本" in c.texts[0]


TTL = """@prefix nif: <http://persistence.uni-leipzig.org/nlp2rdf/ontologies/nif-core#> .
@prefix itsrdf: <http://www.w3.org/2005/11/its/rdf#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
<http://ex.org/d#char=0,{end}> a nif:Context ; nif:beginIndex "0"^^xsd:nonNegativeInteger ;
    nif:endIndex "{end}"^^xsd:nonNegativeInteger ; nif:isString "I \U0001F600 New York" .
<http://ex.org/d#a> a nif:Phrase ; nif:referenceContext <http://ex.org/d#char=0,{end}> ;
    nif:beginIndex "{b}"^^xsd:nonNegativeInteger ; nif:endIndex "{e}"^^xsd:nonNegativeInteger ;
    nif:anchorOf "New York" ; itsrdf:taClassRef <http://dbpedia.org/ontology/Place> {extra} .
<http://ex.org/d#s> a nif:Sentence ; nif:referenceContext <http://ex.org/d#char=0,{end}> ;
    nif:beginIndex "0"^^xsd:nonNegativeInteger ; nif:endIndex "{end}"^^xsd:nonNegativeInteger .
"""


def test_emoji_in_code_points(tmp_path) -> None:
    path = tmp_path / "e.ttl"
    path.write_text(TTL.format(end=12, b=4, e=12, extra=""), encoding="utf-8")
    with pytest.warns(UserWarning, match="1 string"):
        c = read_nif(path)
    t = c.get_set("ents")
    assert (int(t.start[0]), int(t.end[0]), t.labels[0]) == (4, 12, "Place")
    assert c.texts[0][4:12] == "New York"
    assert c.doc_ids == ["http://ex.org/d#char=0,12"]


def test_emoji_in_utf16_from_a_java_writer(tmp_path) -> None:
    path = tmp_path / "j.ttl"
    path.write_text(TTL.format(end=13, b=5, e=13, extra=""), encoding="utf-8")
    with (pytest.warns(ReaderNoteWarning, match=r"1 context\(s\) count offsets in UTF-16 code units"),
          pytest.warns(ReaderNoteWarning, match=r"j.ttl: 1 string\(s\) without an entity annotation")):
        c = read_nif(path)
    t = c.get_set("ents")
    assert c.texts[0][t.start[0]:t.end[0]] == "New York"
    with pytest.raises(InputError, match="beyond the context"):
        read_nif(path, unit="codepoints")
    with pytest.raises(ConfigError, match="unit"):
        read_nif(path, unit="bytes")


def test_annotators_are_sets(tmp_path) -> None:
    path = tmp_path / "a.ttl"
    path.write_text(TTL.format(end=12, b=4, e=12, extra="; itsrdf:taAnnotatorsRef <http://ex.org/people/alex>"),
                    encoding="utf-8")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        c = read_nif(path)
    assert c.annotator_sets == ["spans:alex"]
    assert _ours(c, "spans:alex")[0][1:3] == (4, 12)


@pytest.mark.parametrize("content, message", [
    ("@prefix nif: <x> .\n<a> nif:isString \"unterminated .", "not valid RDF"),
    ("this is not turtle", "not valid RDF"),
    (TTL.format(end=12, b=4, e=40, extra=""), "span \\[4, 40\\): beyond the context"),
    (TTL.format(end=12, b="x", e=12, extra=""), "beginIndex must be a non-negative integer"),
    (TTL.replace("a nif:Context ;", "a nif:Context ; nif:isString \"other\" ;").format(end=12, b=4, e=12, extra=""),
     "different nif:isString"),
    ("@prefix nif: <http://persistence.uni-leipzig.org/nlp2rdf/ontologies/nif-core#> .\n"
     "<http://ex.org/x> nif:referenceContext <http://ex.org/missing> .", "no context of this file"),
])
def test_malformed_input_is_a_located_input_error(tmp_path, content, message) -> None:
    path = tmp_path / "bad.ttl"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(InputError, match=message):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            read_nif(path)


def test_missing_rdflib_names_the_extra(tmp_path, monkeypatch) -> None:
    path = tmp_path / "e.ttl"
    path.write_text(TTL.format(end=12, b=4, e=12, extra=""), encoding="utf-8")
    monkeypatch.setitem(sys.modules, "rdflib", None)
    with pytest.raises(ConfigError, match=r'pip install "spacy-anno-eval\[nif\]"'):
        read_nif(path)
