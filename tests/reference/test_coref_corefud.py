"""The CorefUD scorer's exact-matching cases (ufal/corefud-scorer tests/unittests-corefud.py, and that scorer run on
the same files), as shipped in ``../shared/data/coreference/corefud/``: the CoNLL cases converted to CorefUD 1.0
and TC-O (Cai & Strube's B³ example), 24 cases, every value to 1e-4, singletons kept, BLANC by the CorefUD
scorer's rule. Head and partial matching (the HMA and NCM cases) are not read yet."""

from __future__ import annotations

import json
import warnings

import pytest

from spacy_anno_eval.coref.corefud import read_corefud
from spacy_anno_eval.coref.metrics import score_documents
from tests.conftest import shared_file

EXACT = ["A1", "A2", "A3", "A4", "A5", "A6", "A7", "A10", "A11", "A12", "A13", "B1", "C1", "F1", "G1", "H1", "I1",
         "M1", "M2", "M3", "M4", "M5", "M6", "O1"]


def expected() -> dict:
    return json.loads(shared_file("coreference", "corefud", "expected.json").read_text(encoding="utf8"))


def read(relative: str):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # repeated mentions: counted by the reader's own test
        return read_corefud(shared_file("coreference", "corefud", *relative.split("/")))


@pytest.mark.parametrize("case", EXACT)
def test_corefud_scorer_values_exact_matching(case):
    spec = expected()["cases"][case]
    assert spec["match"] == "exact" and spec["singletons"] is True
    figures = score_documents(read(spec["key"]), read(spec["response"]), blanc="corefud").figures()
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


def test_the_exact_cases_are_all_the_exact_cases():
    assert sorted(c for c, s in expected()["cases"].items() if s["match"] == "exact") == sorted(EXACT)


def test_the_two_blanc_rules_differ_where_the_key_lacks_a_kind_of_link():
    """M3: the key is one entity (no non-coreference links), the response has some. The CoNLL-2012 Perl scorer
    scores coreference links alone (R 0.26667); the CorefUD scorer averages in a 0 for the missing kind
    (R 0.13333). Each format follows its own official scorer by default."""
    spec = expected()["cases"]["M3"]
    key, response = read(spec["key"]), read(spec["response"])
    conll = score_documents(key, response, blanc="conll").figures()["blanc"]
    corefud = score_documents(key, response, blanc="corefud").figures()["blanc"]
    assert corefud["r"] == pytest.approx(conll["r"] / 2) and corefud["r"] == pytest.approx(0.13333, abs=1e-4)
