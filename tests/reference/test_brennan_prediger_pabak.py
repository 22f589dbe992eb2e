"""Brennan-Prediger's coefficient and PABAK through the chance-agreement API (``spacy_anno_eval.agreement.chance``),
``../shared/data/REFERENCE-2.md`` C3 and C5.

Sources:

- Brennan, R. L. & Prediger, D. J. (1981). "Coefficient Kappa: Some Uses, Misuses, and Alternatives".
  *Educational and Psychological Measurement* 41(3), 687-699: example 1 (p. 689) [[50,0,0],[10,10,10],[20,0,0]]
  and example 2 (p. 691) [[50,0,10],[0,10,10],[10,10,0]] (proportions x 100): po 0.60, Cohen's kappa 0.27 / 0.29
  (pe 0.45 / 0.44), kappa_n = Bennett's S = BP 0.40 (pe 1/3); tolerance 0.01, as DKPro Statistics'
  ``BrennanPrediger1981Test.java`` (l. 40-73) asserts them. PABAK for q categories, (q po - 1) / (q - 1), is
  0.40 as well.
- Byrt, T., Bishop, J. & Carlin, J. B. (1993). "Bias, prevalence and kappa". *Journal of Clinical
  Epidemiology* 46(5), 423-429: PABAK = 2 po - 1, prevalence index PI = (a - d) / n, bias index
  BI = (b - c) / n, kappa = (PABAK - PI^2 + BI^2) / (1 - PI^2 + BI^2). On the paradox table [[80,7],[8,5]]
  (DKPro's Gwet fixture 01): po 0.85, PABAK 0.70, PI 0.75, BI -0.01, kappa 0.314442, and Gwet's AC1 0.808
  (R irrCAC 1.4). These are derived from the definitions, not printed in the paper (its tables are not in the
  shared data); DKPro's ``BennettSAgreement`` / ``CohenKappaAgreement`` and Python irrCAC's ``table bp`` give
  the same (BP 0.4 / 0.4 / 0.7; kappa 0.272727 / 0.285714 / 0.314442).
- statsmodels 0.15.0, ``statsmodels/stats/tests/test_inter_rater.py::test_fleis_randolph`` (BSD-3-Clause),
  subjects x categories count tables, tolerance 6e-6: Fleiss' kappa (Fleiss, J. L. (1971). "Measuring nominal
  scale agreement among many raters". *Psychological Bulletin* 76(5), 378-382) and Randolph's free-marginal
  kappa (Randolph, J. J. (2005). "Free-marginal multirater kappa (multirater kappa_free): an alternative to
  Fleiss' fixed-marginal multirater kappa". Joensuu Learning and Instruction Symposium), the many-rater
  Brennan-Prediger / PABAK: [[7,1],[3,5]] 0.161905 / 0.214286; [[6,1,0],[0,7,0]] 0.708333 / 0.785714;
  [[6.99,0.01],[6.99,0.01]] -0.166667 / 0.993343.

All tables are written inline (they are the published numbers), so nothing here needs the shared data.
``test_brennan_prediger_1981.py``, ``test_byrt_1993.py`` and ``test_statsmodels_fleiss.py`` check the
same examples through ``agreement.coefficients`` / ``agreement.reliability``; this file checks them through
``table_agreement``, ``pabak``, ``brennan_prediger`` and ``fleiss_kappa_missing``, and adds Randolph's kappa.
"""

from __future__ import annotations

import pytest

from spacy_anno_eval.agreement.chance import brennan_prediger, fleiss_kappa_missing, pabak, table_agreement

EXAMPLE_1 = [[50, 0, 0], [10, 10, 10], [20, 0, 0]]
EXAMPLE_2 = [[50, 0, 10], [0, 10, 10], [10, 10, 0]]
PARADOX = [[80, 7], [8, 5]]


@pytest.mark.parametrize(("table", "kappa", "kappa_pe", "dkpro_kappa"),
                         [(EXAMPLE_1, 0.27, 0.45, 0.272727), (EXAMPLE_2, 0.29, 0.44, 0.285714)],
                         ids=["example-1-p689", "example-2-p691"])
def test_brennan_prediger_1981_examples(table, kappa, kappa_pe, dkpro_kappa):
    bp = table_agreement(table, "brennan_prediger")
    assert bp.pa == pytest.approx(0.60, abs=0.01)
    assert bp.value == pytest.approx(0.40, abs=0.01)
    assert bp.pe == pytest.approx(1 / 3)
    cohen = table_agreement(table, "cohen")
    assert cohen.value == pytest.approx(kappa, abs=0.01)
    assert cohen.pe == pytest.approx(kappa_pe, abs=0.01)
    assert round(cohen.value, 6) == dkpro_kappa  # DKPro's CohenKappaAgreement
    out = pabak(table)
    assert (out["q"], out["po"]) == (3, pytest.approx(0.60))
    assert out["pabak"] == pytest.approx(0.40, abs=0.01)
    assert out["pabak"] == pytest.approx(bp.value)  # (q po - 1) / (q - 1) is BP with identity weights


def test_paradox_table_pabak_prevalence_and_bias():
    out = pabak(PARADOX)
    assert out["po"] == pytest.approx(0.85)
    assert out["pabak"] == pytest.approx(0.70)
    assert out["prevalence_index"] == pytest.approx(0.75)
    assert out["bias_index"] == pytest.approx(-0.01)
    assert round(out["cohen_kappa"], 6) == 0.314442  # through Byrt's identity
    assert table_agreement(PARADOX, "brennan_prediger").value == pytest.approx(0.70)


def test_paradox_table_kappa_identity_and_ac1():
    kappa = table_agreement(PARADOX, "cohen").value
    assert round(kappa, 6) == 0.314442
    assert kappa == pytest.approx(pabak(PARADOX)["cohen_kappa"], abs=1e-12)
    assert round(table_agreement(PARADOX, "gwet").value, 3) == 0.808


@pytest.mark.parametrize(("table", "fleiss", "randolph"), [
    ([[7, 1], [3, 5]], 0.161905, 0.214286),
    ([[6, 1, 0], [0, 7, 0]], 0.708333, 0.785714),
    ([[6.99, 0.01], [6.99, 0.01]], -0.166667, 0.993343),
], ids=["2x2", "2x3", "near-unanimous"])
def test_statsmodels_fleiss_and_randolph(table, fleiss, randolph):
    assert fleiss_kappa_missing(value_counts=table).value == pytest.approx(fleiss, abs=6e-6)
    assert brennan_prediger(value_counts=table).value == pytest.approx(randolph, abs=6e-6)
