"""Artstein, R. & Poesio, M. (2008). "Inter-Coder Agreement for Computational Linguistics". *Computational
Linguistics* 34(4), 555-596; example 1, p. 558 (table 1 and section 2.4): 100 utterances coded STAT / IReq by
two coders (``../shared/data/REFERENCE.md`` 2.1; DKPro ArtsteinPoesio2008Test asserts the same).

Published: Ao 0.7; S 0.4 (Ae 0.5); pi 0.341 (Ae 0.545); kappa 0.348 (Ae 0.54).
"""

from __future__ import annotations

import pytest

from spacy_anno_eval.agreement.coefficients import bennett_s, cohen_kappa, observed_agreement, scott_pi
from spacy_anno_eval.agreement.reliability import davies_fleiss_kappa, fleiss_kappa

# rows coder A, columns coder B: (STAT, IReq)
TABLE = [[20, 10], [20, 50]]


def test_example_1_table():
    assert observed_agreement(TABLE) == pytest.approx(0.7)
    s, pi, kappa = bennett_s(TABLE), scott_pi(TABLE), cohen_kappa(TABLE)
    assert (s.value, s.expected) == pytest.approx((0.4, 0.5))
    assert round(pi.value, 3) == 0.341 and pi.expected == pytest.approx(0.545)
    assert round(kappa.value, 3) == 0.348 and kappa.expected == pytest.approx(0.54)
    assert s.n == pi.n == kappa.n == 100


def test_example_1_as_coder_data():
    """The multi-coder forms reduce to the two-coder ones: Fleiss' kappa is pi, Davies & Fleiss' is kappa."""
    cells = [("STAT", "STAT", 20), ("STAT", "IReq", 10), ("IReq", "STAT", 20), ("IReq", "IReq", 50)]
    data = [[a for a, _, k in cells for _ in range(k)], [b for _, b, k in cells for _ in range(k)]]
    assert round(fleiss_kappa(data).value, 3) == 0.341
    assert round(davies_fleiss_kappa(data).value, 3) == 0.348
