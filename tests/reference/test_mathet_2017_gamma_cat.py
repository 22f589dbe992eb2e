"""Mathet, Y. (2017). "The Agreement Measure γcat a Complement to γ Focused on Categorization of a Continuum".
*Computational Linguistics* 43(3), 661-681 (seed ``gamma-cat-categorial-agreement.txt``), section 5.1 "Start
Point: Predefined Items with Missing Values": Krippendorff (2011)'s example (4 annotators, 12 items, 7 missing
values) translated into a continuum, item i on [i, i + 1]. Published: "γcat obtains exactly the same observed
value as α" (observed disagreement 0.2) and "α = 0.743 and 0.74 < γcat < 0.76".
"""

from __future__ import annotations

import numpy as np

from spacy_anno_eval.agreement.reliability import krippendorff_alpha
from spacy_anno_eval.gamma import Continuum, gamma

N = np.nan
K2011 = np.array([[1, 2, 3, 3, 2, 1, 4, 1, 2, N, N, N],
                  [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, N, 3],
                  [N, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, N],
                  [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, N]])


def test_gamma_cat_on_krippendorff_2011_items():
    units = [(annotator, i, i + 1, str(int(K2011[a, i]))) for a, annotator in enumerate("ABCD") for i in range(12)
             if not np.isnan(K2011[a, i])]
    assert len(units) == 41  # 48 cells, 7 missing
    result = gamma(Continuum.from_units(units), alpha=3, beta=1, sampler="shuffle", n_samples=300, seed=1)
    alpha = krippendorff_alpha(K2011)
    assert round(alpha.value, 3) == 0.743
    assert round(result.observed_cat_disorder, 12) == round(alpha.observed, 12) == 0.2
    assert 0.74 < result.gamma_cat < 0.76
