"""Krippendorff, K. (2004). *Content Analysis: An Introduction to Its Methodology*, 2nd ed., Sage
(``../shared/data/REFERENCE.md`` 1.3 and 2.3, as DKPro Statistics' Krippendorff2004Test /
Krippendorff1980Test and jucor/krippendorff's data-raw assert them).

- p. 224 (also Krippendorff 1980): binary "presence" data of 2 coders x 10 news items: percent agreement
  0.600, alpha 0.095 (Do 0.400, De 0.442).
- p. 246: two 3 x 3 tables of 100 items with the same observed agreement 0.46 but different marginals:
  table 4a: S 0.19, pi 0.186, kappa 0.186; table 4b: S 0.19, pi 0.186, kappa 0.258.
"""

from __future__ import annotations

import pytest

from spacy_anno_eval.agreement.coefficients import bennett_s, cohen_kappa, observed_agreement, scott_pi
from spacy_anno_eval.agreement.reliability import krippendorff_alpha

NEWS = [[1, 1, 0, 0, 0, 0, 0, 0, 0, 0],
        [0, 1, 1, 0, 0, 1, 0, 1, 0, 0]]
TABLE_4A = [[12, 9, 9], [9, 14, 9], [9, 9, 20]]
TABLE_4B = [[12, 18, 18], [0, 14, 18], [0, 0, 20]]


def test_p224_binary_presence():
    result = krippendorff_alpha(NEWS)
    assert round(result.value, 3) == 0.095
    assert (round(result.observed, 3), round(result.expected, 3)) == (0.400, 0.442)
    agreements = sum(a == b for a, b in zip(*NEWS, strict=True))
    assert agreements / 10 == 0.6


@pytest.mark.parametrize(("table", "kappa"), [(TABLE_4A, 0.186), (TABLE_4B, 0.258)], ids=["4a", "4b"])
def test_p246_tables(table, kappa):
    assert observed_agreement(table) == pytest.approx(0.46)
    assert round(bennett_s(table).value, 2) == 0.19
    assert round(scott_pi(table).value, 3) == 0.186
    assert round(cohen_kappa(table).value, 3) == kappa
