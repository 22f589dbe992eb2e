"""Byrt, T., Bishop, J. & Carlin, J. B. (1993). "Bias, prevalence and kappa". *Journal of Clinical
Epidemiology* 46(5), 423-429: PABAK = 2 po - 1 for a 2 x 2 table, prevalence index PI = (a - d) / n, bias
index BI = (b - c) / n, and the identity kappa = (PABAK - PI^2 + BI^2) / (1 - PI^2 + BI^2).

Applied to the "paradox" table [[80, 7], [8, 5]] of DKPro's Gwet fixture 01 (``../shared/data/REFERENCE-2.md``
C3): po 0.85, PABAK 0.70, PI 0.75, BI -0.01, kappa 0.314442 (DKPro's CohenKappaAgreement gives the same).
The paper's own tables are not in the shared data; these values are derived from its definitions.
"""

from __future__ import annotations

import pytest

from spacy_anno_eval.agreement.coefficients import bennett_s, cohen_kappa, observed_agreement

PARADOX = [[80, 7], [8, 5]]


def test_pabak_is_bennett_s_of_a_2x2_table():
    assert observed_agreement(PARADOX) == pytest.approx(0.85)
    assert bennett_s(PARADOX).value == pytest.approx(0.70)


def test_kappa_through_the_prevalence_and_bias_identity():
    (a, b), (c, d) = PARADOX
    n = a + b + c + d
    pabak, pi, bi = 2 * 0.85 - 1, (a - d) / n, (b - c) / n
    assert (pi, bi) == pytest.approx((0.75, -0.01))
    kappa = cohen_kappa(PARADOX).value
    assert kappa == pytest.approx((pabak - pi**2 + bi**2) / (1 - pi**2 + bi**2))
    assert round(kappa, 6) == 0.314442
