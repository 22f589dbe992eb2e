"""NIF (io/nif.py): an annotation resource that carries several ``itsrdf:taAnnotatorsRef`` values is in each
annotator's set, not in the first one's only (issue 26: readers keep everything a user would expect)."""

from __future__ import annotations

import warnings

import pytest

from spacy_anno_eval.io import read_corpus
from spacy_anno_eval.io.nif import read_nif
from tests.conftest import shared_file

pytest.importorskip("rdflib")

# Two annotators agree on "Berlin" (one resource, two taAnnotatorsRef); only bo marked "Ada".
TWO_ANNOTATORS = """\
@prefix nif: <http://persistence.uni-leipzig.org/nlp2rdf/ontologies/nif-core#> .
@prefix itsrdf: <http://www.w3.org/2005/11/its/rdf#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .

<http://ex.org/doc#char=0,19> a nif:Context , nif:String ;
    nif:isString "Ada lives in Berlin" ;
    nif:beginIndex "0"^^xsd:nonNegativeInteger ; nif:endIndex "19"^^xsd:nonNegativeInteger .

<http://ex.org/doc#char=13,19> a nif:String , nif:Phrase ;
    nif:referenceContext <http://ex.org/doc#char=0,19> ;
    nif:anchorOf "Berlin" ;
    nif:beginIndex "13"^^xsd:nonNegativeInteger ; nif:endIndex "19"^^xsd:nonNegativeInteger ;
    itsrdf:taIdentRef <http://dbpedia.org/resource/Berlin> ;
    itsrdf:taAnnotatorsRef <http://ex.org/people/alex> , <http://ex.org/people/bo> .

<http://ex.org/doc#char=0,3> a nif:String , nif:Phrase ;
    nif:referenceContext <http://ex.org/doc#char=0,19> ;
    nif:anchorOf "Ada" ;
    nif:beginIndex "0"^^xsd:nonNegativeInteger ; nif:endIndex "3"^^xsd:nonNegativeInteger ;
    itsrdf:taIdentRef <http://dbpedia.org/resource/Ada_Lovelace> ;
    itsrdf:taAnnotatorsRef <http://ex.org/people/bo> .
"""


def _spans(corpus, name: str) -> list[tuple[int, int, str]]:
    t = corpus.get_set(name)
    return sorted((int(s), int(e), (t.features[i] if t.features else {}).get("taIdentRef", ""))
                  for i, (s, e) in enumerate(zip(t.start, t.end, strict=True)))


def test_a_resource_with_two_annotators_is_in_both_sets(tmp_path) -> None:
    path = tmp_path / "two.ttl"
    path.write_text(TWO_ANNOTATORS, encoding="utf-8")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # nothing is left out, nothing to warn about
        corpus = read_nif(path, features=["taIdentRef", "taAnnotatorsRef"])
    assert sorted(corpus.annotator_sets) == ["spans:alex", "spans:bo"]
    assert _spans(corpus, "spans:alex") == [(13, 19, "http://dbpedia.org/resource/Berlin")]
    assert _spans(corpus, "spans:bo") == [(0, 3, "http://dbpedia.org/resource/Ada_Lovelace"),
                                          (13, 19, "http://dbpedia.org/resource/Berlin")]
    berlin = corpus.get_set("spans:alex").features[0]
    assert berlin["taAnnotatorsRef"] == "http://ex.org/people/alex http://ex.org/people/bo"  # who said so: both


def test_two_annotators_who_agree_compare_as_agreeing(tmp_path) -> None:
    """The shared annotation counts for both: scoring bo against alex finds Berlin correct, not missing."""
    from spacy_anno_eval.spans.engine import evaluate

    path = tmp_path / "two.ttl"
    path.write_text(TWO_ANNOTATORS, encoding="utf-8")
    alex = read_corpus(path, selectors=["spans:alex"])
    bo = read_corpus(path, selectors=["spans:bo"])
    counts = evaluate(alex, bo, key_set="spans:alex", response_set="spans:bo").report()["counts"]
    assert (counts["correct"], counts["missing"], counts["spurious"]) == (1, 0, 1)


def test_annotators_with_the_same_local_name_are_one_set(tmp_path) -> None:
    path = tmp_path / "same.ttl"
    path.write_text(TWO_ANNOTATORS.replace("<http://ex.org/people/alex> , <http://ex.org/people/bo>",
                                              "<http://ex.org/people/alex> , <http://other.org/alex>"),
                    encoding="utf-8")
    corpus = read_nif(path)
    assert sorted(corpus.annotator_sets) == ["spans:alex", "spans:bo"]
    assert len(corpus.get_set("spans:alex")) == 1  # Berlin once, not twice


def test_kore50_still_reads_its_144_mentions_into_default() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # KORE50's anchorOf mismatches (tests/io/test_nif.py checks them)
        corpus = read_nif(shared_file("formats", "nif_turtle", "kore50.ttl"))
    assert corpus.annotator_sets == ["spans:default"]
    assert len(corpus.get_set("ents")) == 144
