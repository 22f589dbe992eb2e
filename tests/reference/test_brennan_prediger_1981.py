"""Brennan, R. L. & Prediger, D. J. (1981). "Coefficient Kappa: Some Uses, Misuses, and Alternatives".
*Educational and Psychological Measurement* 41(3), 687-699; examples 1 (p. 689) and 2 (p. 691), proportions
x 100, as DKPro Statistics' BrennanPrediger1981Test asserts them (``../shared/data/REFERENCE-2.md`` C3).

Published (two decimals): both tables po 0.60 and kappa_n (Bennett's S) 0.40 with pe 1/3; Cohen's kappa
0.27 (pe 0.45) for example 1 and 0.29 (pe 0.44) for example 2.
"""

from __future__ import annotations

import pytest

from spacy_anno_eval.agreement.coefficients import bennett_s, cohen_kappa, observed_agreement

EXAMPLE_1 = [[50, 0, 0], [10, 10, 10], [20, 0, 0]]
EXAMPLE_2 = [[50, 0, 10], [0, 10, 10], [10, 10, 0]]


@pytest.mark.parametrize(("table", "kappa", "pe"), [(EXAMPLE_1, 0.27, 0.45), (EXAMPLE_2, 0.29, 0.44)],
                         ids=["example-1", "example-2"])
def test_kappa_and_kappa_n(table, kappa, pe):
    assert observed_agreement(table) == pytest.approx(0.60)
    k = cohen_kappa(table)
    assert (round(k.value, 2), round(k.expected, 2)) == (kappa, pe)
    s = bennett_s(table)
    assert round(s.value, 2) == 0.40
    assert s.expected == pytest.approx(1 / 3)
