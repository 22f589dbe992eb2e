"""The official CoNLL-2012 coreference scorer's test cases (v8.01, conll/reference-coreference-scorers
test/CorefMetricTestConfig.pm) and coval's unit tests (ns-moosavi/coval unittests.py), as shipped in
``../shared/data/coreference/conll2012/`` with their expected values: 25 cases, 408 values of MUC, B³, CEAFm,
CEAFe, BLANC and LEA, exact matching, singletons kept, to 1e-4 (the published values have 5 decimals)."""

from __future__ import annotations

import json
import warnings

import pytest

from spacy_anno_eval.coref.conll2012 import read_conll2012
from spacy_anno_eval.coref.metrics import score_documents
from spacy_anno_eval.errors import CorefWarning
from tests.conftest import shared_file

CASES = ["A1", "A2", "A3", "A4", "A5", "A6", "A7", "A8", "A9", "A10", "A11", "A12", "A13", "B1", "C1", "F1",
         "G1", "H1", "I1", "M1", "M2", "M3", "M4", "M5", "M6"]


def expected() -> dict:
    return json.loads(shared_file("coreference", "conll2012", "expected_coref.json").read_text(encoding="utf8"))


def read(name: str):
    path = shared_file("coreference", "conll2012", "DataFiles", name)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        docs = read_conll2012(path)
    return docs, [w for w in caught if issubclass(w.category, CorefWarning)]


@pytest.mark.parametrize("case", CASES)
def test_official_and_coval_values(case):
    spec = expected()["cases"][case]
    key, _ = read(spec["key"])
    response, _ = read(spec["response"])
    figures = score_documents(key, response).figures()
    checked = 0
    for metric, values in spec["metrics"].items():
        got = figures[metric.removesuffix("_coval")]
        for ours, theirs in (("r", "R"), ("p", "P"), ("f", "F")):
            assert got[ours] == pytest.approx(values[theirs], abs=1e-4), (metric, ours, values["source"])
            checked += 1
    assert checked == 3 * len(spec["metrics"])


def test_every_case_and_value_is_checked():
    cases = expected()["cases"]
    assert sorted(cases) == sorted(CASES)
    assert sum(3 * len(c["metrics"]) for c in cases.values()) == 408


def test_a9_repeated_mentions_are_kept_once_and_scored_as_a7():
    """A9 repeats one mention ten times in entity 3 beside entity 1: kept once, in entity 1 (opened first), it
    scores as A7 (the official scorer refuses to score it past B³; coval and our reader keep it once)."""
    a9, caught = read("TC-A-9.response")
    a7, caught_a7 = read("TC-A-7.response")  # A7 writes one mention twice in the same entity
    assert len(caught) == 1 and "10 repeated mentions" in str(caught[0].message)
    assert "the official scorer v8.01 refuses a response with more than 10" in str(caught[0].message)
    assert "refuses" not in str(caught_a7[0].message)
    assert len(caught_a7) == 1 and "1 repeated mention " in str(caught_a7[0].message)
    assert a9[0].entities == a7[0].entities
