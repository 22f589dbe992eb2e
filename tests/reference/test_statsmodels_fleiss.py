"""statsmodels 0.15.0, ``statsmodels/stats/tests/test_inter_rater.py::test_fleis_randolph`` (BSD-3-Clause):
Fleiss' kappa (Fleiss 1971, "Measuring nominal scale agreement among many raters", *Psychological Bulletin*
76(5)) of subjects x categories count tables (``../shared/data/REFERENCE-2.md`` C5), asserted to 6e-6.

Fleiss (1971)'s own table (30 subjects x 6 raters) is not in the shared data, so it is not checked here.
Randolph's free-marginal kappa, also in that test, has no counterpart in the toolkit.
"""

from __future__ import annotations

import numpy as np
import pytest

from spacy_anno_eval.agreement.reliability import fleiss_kappa


@pytest.mark.parametrize(("table", "kappa"), [
    ([[7, 1], [3, 5]], 0.161905),
    ([[6, 1, 0], [0, 7, 0]], 0.708333),
    ([[6.99, 0.01], [6.99, 0.01]], -0.166667),
])
def test_fleiss_kappa_of_count_tables(table, kappa):
    assert fleiss_kappa(value_counts=np.array(table)).value == pytest.approx(kappa, abs=6e-6)
