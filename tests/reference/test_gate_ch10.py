"""GATE user guide, chapter 10 "Performance Evaluation of Language Analysers" (GATE Developer 9.x
documentation, https://gate.ac.uk/sale/tao/splitch10.html; seed ``gate-ch10-performance-evaluation.txt``).

- Section 10.1.2, table 10.2 (contingency table of two annotators, two categories, 10 decisions), table 10.3
  (Cohen's expected agreement 0.12 + 0.42 = 0.54), table 10.4 (Siegel & Castellan's / Scott's expected
  agreement 218/400 = 0.545), equations 10.1 (observed agreement), 10.2 (specific agreement), 10.3 (kappa)
  and 10.4 (Davies & Fleiss' multi-annotator kappa, which is Cohen's for two annotators).
- Section 10.6, the worked line of the BDM computation plugin:
  ``key=Service, response=Object, bdm=0.6617647, msca=Object, cp=1, dpk=1, dpr=0, n0=2.0, n1=2.0,
  n2=2.8333333, bran=1.9565217``; the guide does not print its ontology, so a taxonomy is built that has
  every printed parameter (the same construction as ``tests/bdm/test_distance.py``).

The chapter prints no worked strict / lenient / average P/R/F example, so none is checked here.
"""

from __future__ import annotations

import numpy as np
import pytest

from spacy_anno_eval.agreement.coefficients import cohen_kappa, observed_agreement, scott_pi, specific_agreement
from spacy_anno_eval.agreement.reliability import davies_fleiss_kappa
from tests.reference._api import api

# table 10.2: rows annotator 1, columns annotator 2, categories (cat1, cat2)
TABLE_10_2 = [[1, 2], [3, 4]]


def test_table_10_3_cohen_expected_agreement():
    # annotator 1: 3/10 = 0.3 and 7/10 = 0.7; annotator 2: 4/10 = 0.4 and 6/10 = 0.6
    kappa = cohen_kappa(TABLE_10_2)
    assert kappa.expected == pytest.approx(0.3 * 0.4 + 0.7 * 0.6) == pytest.approx(0.54)
    assert kappa.observed == pytest.approx(0.5)  # eq. 10.1: (a + d) / n = 5 / 10
    assert kappa.value == pytest.approx((0.5 - 0.54) / (1 - 0.54))  # eq. 10.3
    assert kappa.n == 10


def test_table_10_4_scott_pi_expected_agreement():
    # joint proportions 7/20 and 13/20; squared: 49/400 = 0.1225 and 169/400 = 0.4225; total 218/400 = 0.545
    pi = scott_pi(TABLE_10_2)
    assert pi.expected == pytest.approx(0.1225 + 0.4225) == pytest.approx(0.545)
    assert pi.observed == pytest.approx(0.5)
    assert pi.value == pytest.approx((0.5 - 0.545) / (1 - 0.545))


def test_equation_10_1_and_10_2_observed_and_specific_agreement():
    assert observed_agreement(TABLE_10_2) == pytest.approx(0.5)
    # A_cat1 = 2a / (2a + b + c) = 2/7; A_cat2 = 2d / (b + c + 2d) = 8/13
    np.testing.assert_allclose(specific_agreement(TABLE_10_2), [2 / 7, 8 / 13])


def test_equation_10_4_davies_fleiss_of_two_annotators_is_cohen():
    pairs = [("cat1", "cat1")] * 1 + [("cat1", "cat2")] * 2 + [("cat2", "cat1")] * 3 + [("cat2", "cat2")] * 4
    data = [[a for a, _ in pairs], [b for _, b in pairs]]
    assert davies_fleiss_kappa(data).value == pytest.approx((0.5 - 0.54) / 0.46)


def gate_guide_taxonomy():
    """Entity -> {Object, Abstract}; Object has 9 children (Service, Agent and 7 leaves); Agent has 7
    (Organization and 6 leaves); Organization 4 (Company and 3 leaves); Company 1 (Startup); plus 7 concepts
    with neither parent nor child. Branching 23 / 5 non-leaves = 4.6, bran = 9 / 4.6 = 45/23; 18 leaf chains
    through Object with 51 edges: n2 = 17/6; all 26 leaf chains 52 edges: n0 = 2; Service at depth 2: n1 = 2."""
    taxonomy = api("Taxonomy", "spacy_anno_eval.bdm")
    edges = [("Object", "Entity"), ("Abstract", "Entity"), ("Service", "Object"), ("Agent", "Object"),
             ("Organization", "Agent"), ("Company", "Organization"), ("Startup", "Company")]
    edges += [(f"ObjectLeaf{i}", "Object") for i in range(1, 8)]
    edges += [(f"AgentLeaf{i}", "Agent") for i in range(1, 7)]
    edges += [(f"OrganizationLeaf{i}", "Organization") for i in range(1, 4)]
    edges += [(f"Unplaced{i}", None) for i in range(1, 8)]
    return taxonomy.from_edges(edges, name="gate-guide")


def test_section_10_6_bdm_line():
    bdm_pair = api("bdm_pair", "spacy_anno_eval.bdm")
    format_bdm_line = api("format_bdm_line", "spacy_anno_eval.bdm")
    rec = bdm_pair(gate_guide_taxonomy(), "Service", "Object")
    assert (rec.msca, rec.cp, rec.dpk, rec.dpr) == ("Object", 1, 1, 0)
    assert (rec.n0, rec.n1) == (2.0, 2.0)
    assert rec.n2 == pytest.approx(2.8333333, abs=5e-8)
    assert rec.bran == pytest.approx(1.9565217, abs=5e-8)
    assert rec.bdm == pytest.approx(0.6617647, abs=5e-8)
    assert format_bdm_line(rec) == ("key=Service, response=Object, bdm=0.6617647, msca=Object, cp=1, dpk=1, "
                                    "dpr=0, n0=2.0, n1=2.0, n2=2.8333333, bran=1.9565217")
