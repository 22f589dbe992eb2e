"""Krippendorff, K. (2011). "Computing Krippendorff's Alpha-Reliability". Annenberg School for Communication,
University of Pennsylvania, Departmental Papers (ASC) 43 (repository.upenn.edu/asc_papers/43), section C,
the worked example with missing data: 4 observers x 12 units, values 1..5 (the same matrix as Krippendorff
2004, p. 230, symbols B/L/P/C/F = 1..5; ``../shared/data/REFERENCE.md`` 1.1).

Published: alpha nominal 0.743, ordinal 0.815, interval 0.849, ratio 0.797; Do / De of the nominal (0.200 /
0.779) and interval (0.433 / 2.872) metrics as DKPro's Krippendorff2004Test prints them; n = 40 pairable values.
"""

from __future__ import annotations

import numpy as np
import pytest

from spacy_anno_eval.agreement.reliability import krippendorff_alpha

N = np.nan
K2011 = [[1, 2, 3, 3, 2, 1, 4, 1, 2, N, N, N],
         [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, N, 3],
         [N, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, N],
         [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, N]]


@pytest.mark.parametrize(("level", "alpha"), [("nominal", 0.743), ("ordinal", 0.815), ("interval", 0.849),
                                              ("ratio", 0.797)])
def test_alpha_of_every_metric(level, alpha):
    result = krippendorff_alpha(K2011, level)
    assert round(result.value, 3) == alpha
    assert result.n == 40  # unit 12 has one value only: not pairable


@pytest.mark.parametrize(("level", "do", "de"), [("nominal", 0.200, 0.779), ("interval", 0.433, 2.872)])
def test_observed_and_expected_disagreement(level, do, de):
    result = krippendorff_alpha(K2011, level)
    assert round(result.observed, 3) == do
    assert round(result.expected, 3) == de


def test_ordered_string_values():
    """The same data as words with an ordered value domain (DKPro's variant of the example)."""
    names = ["very low", "low", "mid", "high", "very high"]
    data = [[None if np.isnan(x) else names[int(x) - 1] for x in row] for row in K2011]
    assert round(krippendorff_alpha(data, "ordinal", value_domain=names).value, 3) == 0.815
    assert round(krippendorff_alpha(data, "nominal").value, 3) == 0.743
