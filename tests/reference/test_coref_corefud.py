"""The CorefUD scorer's cases (ufal/corefud-scorer tests/unittests-corefud.py, and that scorer run on the same files),
as shipped in ``../shared/data/coreference/corefud/``, every value to 1e-4, singletons kept, BLANC by the CorefUD
scorer's rule: exact matching on the CoNLL cases converted to CorefUD 1.0 and TC-O (Cai & Strube's B³ example), 24
cases; partial matching on discontinuous mentions (TC-NCMA-1..7, TC-NCMB-1..8) and head matching (TC-HMA-1..5),
20 cases."""

from __future__ import annotations

import json
import warnings

import pytest

from spacy_anno_eval.coref.corefud import read_corefud
from spacy_anno_eval.coref.metrics import score_documents
from tests.conftest import shared_file

EXACT = ["A1", "A2", "A3", "A4", "A5", "A6", "A7", "A10", "A11", "A12", "A13", "B1", "C1", "F1", "G1", "H1", "I1",
         "M1", "M2", "M3", "M4", "M5", "M6", "O1"]

PARTIAL = [f"NCMA{i}" for i in range(1, 8)] + [f"NCMB{i}" for i in range(1, 9)]
HEAD = [f"HMA{i}" for i in range(1, 6)]


def expected() -> dict:
    return json.loads(shared_file("coreference", "corefud", "expected.json").read_text(encoding="utf8"))


def read(relative: str):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # repeated mentions: counted by the reader's own test
        return read_corefud(shared_file("coreference", "corefud", *relative.split("/")))


@pytest.mark.parametrize("case", EXACT + PARTIAL + HEAD)
def test_corefud_scorer_values(case):
    spec = expected()["cases"][case]
    assert spec["match"] == ("exact" if case in EXACT else "partial" if case in PARTIAL else "head")
    assert spec["singletons"] is True
    figures = score_documents(read(spec["key"]), read(spec["response"]), blanc="corefud",
                              match=spec["match"]).figures()
    for source in ("metrics", "scorer_run"):
        for metric, values in spec[source].items():
            if metric == "mor":  # CRAC 2022's mention overlap ratio: not one of ours
                continue
            if metric == "conll":
                assert figures["conll"]["f"] == pytest.approx(values, abs=1e-4)
                continue
            got = figures[metric]
            for ours, theirs in (("r", "R"), ("p", "P"), ("f", "F")):
                assert got[ours] == pytest.approx(values[theirs], abs=1e-4), (source, metric, ours)


def test_every_case_of_the_suite_is_scored():
    assert sorted(expected()["cases"]) == sorted(EXACT + PARTIAL + HEAD)


def test_exact_matching_misses_what_partial_and_head_matching_find():
    """The NCMA and HMA responses shorten or lengthen the key's mentions: exact matching finds fewer mentions."""
    for case in ("NCMA2", "NCMB2", "HMA2", "HMA3"):
        spec = expected()["cases"][case]
        key, response = read(spec["key"]), read(spec["response"])
        exact = score_documents(key, response, match="exact").figures()["mentions"]["r"]
        fuzzy = score_documents(key, response, match=spec["match"]).figures()["mentions"]["r"]
        assert exact < fuzzy, case


def test_the_two_blanc_rules_differ_where_the_key_lacks_a_kind_of_link():
    """M3: the key is one entity (no non-coreference links), the response has some. The CoNLL-2012 Perl scorer
    scores coreference links alone (R 0.26667); the CorefUD scorer averages in a 0 for the missing kind
    (R 0.13333). Each format follows its own official scorer by default."""
    spec = expected()["cases"]["M3"]
    key, response = read(spec["key"]), read(spec["response"])
    conll = score_documents(key, response, blanc="conll").figures()["blanc"]
    corefud = score_documents(key, response, blanc="corefud").figures()["blanc"]
    assert corefud["r"] == pytest.approx(conll["r"] / 2) and corefud["r"] == pytest.approx(0.13333, abs=1e-4)
