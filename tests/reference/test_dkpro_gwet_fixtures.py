"""Gwet's AC1 and AC2 on DKPro Statistics' Gwet fixtures, with the values of R irrCAC 1.4 (K. L. Gwet, irrCAC:
Computing Chance-Corrected Agreement Coefficients, CRAN, https://CRAN.R-project.org/package=irrCAC, GPL >= 2;
``gwet.ac1.raw``), as ``../shared/data/REFERENCE-2.md`` C2 prints them.

Coefficients: Gwet, K. L. (2008). "Computing inter-rater reliability and its variance in the presence of high
agreement". *British Journal of Mathematical and Statistical Psychology* 61(1), 29-48 (AC1); Gwet (2014),
*Handbook of Inter-Rater Reliability*, 4th ed., Advanced Analytics, ch. 3 (AC2, weighted).
Tables: fixture 01 is a skewed "paradox" 2 x 2 table; fixtures 02 and 03 are Cohen, J. (1960). "A coefficient of
agreement for nominal scales". *Educational and Psychological Measurement* 20(1), 37-46, p. 37 and p. 45.

| fixture | table | AC1 (pa, pe) | AC2 quadratic (pa, pe) |
|---|---|---|---|
| 01 paradox 2x2 | [[80,7],[8,5]] | 0.808 (0.85, 0.21875) | 0.808 (0.85, 0.21875) |
| 02 Cohen 1960 p.37 | [[25,12,3],[13,2,15],[12,16,2]] | -0.04797 (0.29, 0.3225) | 0.1831 (0.71, 0.645) |
| 03 Cohen 1960 p.45 | [[88,14,18],[10,40,10],[2,6,12]] | 0.57597 (0.70, 0.2925) | 0.63855 (0.85, 0.585) |

Checked: each coefficient at the digits the fixture gives it, pa and pe exactly (to 1e-9). The tables are
written inline (they are the papers' numbers), so these tests need no shared data and never skip. With two
categories quadratic weights are the identity, so fixture 01's AC2 is its AC1 (the toolkit names it AC1).
The quadratic weights are over the category scores 1..q, as irrCAC's ``table`` module ranks rows and columns.
``tests/reference/test_gwet_irrcac.py`` checks fixtures 02 and 03's pa from the shared JSON; this file checks
all three fixtures' coefficients, pa and pe.
"""

from __future__ import annotations

import pytest

from spacy_anno_eval.agreement.chance import table_agreement

PARADOX = [[80, 7], [8, 5]]
COHEN_P37 = [[25, 12, 3], [13, 2, 15], [12, 16, 2]]
COHEN_P45 = [[88, 14, 18], [10, 40, 10], [2, 6, 12]]

CASES = [  # fixture, table, weights, coefficient (as R irrCAC 1.4 printed it), pa, pe, coefficient name
    ("01-paradox", PARADOX, "identity", 0.808, 0.85, 0.21875, "gwet_ac1"),
    ("01-paradox", PARADOX, "quadratic", 0.808, 0.85, 0.21875, "gwet_ac1"),
    ("02-cohen-p37", COHEN_P37, "identity", -0.04797, 0.29, 0.3225, "gwet_ac1"),
    ("02-cohen-p37", COHEN_P37, "quadratic", 0.1831, 0.71, 0.645, "gwet_ac2"),
    ("03-cohen-p45", COHEN_P45, "identity", 0.57597, 0.70, 0.2925, "gwet_ac1"),
    ("03-cohen-p45", COHEN_P45, "quadratic", 0.63855, 0.85, 0.585, "gwet_ac2"),
]


def _digits(value: float) -> int:
    return len(repr(value).split(".")[1])


@pytest.mark.parametrize(("fixture", "table", "weights", "coefficient", "pa", "pe", "name"), CASES,
                         ids=[f"{c[0]}-{'AC1' if c[2] == 'identity' else 'AC2-quadratic'}" for c in CASES])
def test_gwet_ac_of_the_fixture(fixture, table, weights, coefficient, pa, pe, name):
    result = table_agreement(table, "gwet", weights, categories=list(range(1, len(table) + 1)))
    assert result.coefficient == name
    assert round(result.value, _digits(coefficient)) == coefficient
    assert result.pa == pytest.approx(pa, abs=1e-9)
    assert result.pe == pytest.approx(pe, abs=1e-9)
    assert result.value == pytest.approx((pa - pe) / (1 - pe), abs=1e-12)
