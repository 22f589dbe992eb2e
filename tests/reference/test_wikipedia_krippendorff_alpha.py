"""Wikipedia, "Krippendorff's alpha", section "A computational example" (en.wikipedia.org/wiki/
Krippendorff's_alpha): 3 coders x 15 units with missing values (``../shared/data/REFERENCE.md`` 1.2).

Published: nominal alpha 0.691, interval alpha 0.811 (0.691358 / 0.810845 as the fast-krippendorff
documentation prints them); the same result from the units x values count form.
"""

from __future__ import annotations

import numpy as np
import pytest

from spacy_anno_eval.agreement.reliability import krippendorff_alpha, reliability_counts

N = np.nan
DATA = [[N, N, N, N, N, 3, 4, 1, 2, 1, 1, 3, 3, N, 3],
        [1, N, 2, 1, 3, 3, 4, 3, N, N, N, N, N, N, N],
        [N, N, 2, 1, 3, 4, 4, N, 2, 1, 1, 3, 3, N, 4]]
COUNTS = [[1, 0, 0, 0], [0, 0, 0, 0], [0, 2, 0, 0], [2, 0, 0, 0], [0, 0, 2, 0], [0, 0, 2, 1], [0, 0, 0, 3],
          [1, 0, 1, 0], [0, 2, 0, 0], [2, 0, 0, 0], [2, 0, 0, 0], [0, 0, 2, 0], [0, 0, 2, 0], [0, 0, 0, 0],
          [0, 0, 1, 1]]


@pytest.mark.parametrize(("level", "alpha"), [("nominal", 0.691358), ("interval", 0.810845)])
def test_alpha(level, alpha):
    assert krippendorff_alpha(DATA, level).value == pytest.approx(alpha, abs=5e-7)


@pytest.mark.parametrize(("level", "alpha"), [("nominal", 0.691358), ("interval", 0.810845)])
def test_value_count_form(level, alpha):
    assert np.array_equal(reliability_counts(DATA)[0], COUNTS)
    assert krippendorff_alpha(value_counts=np.array(COUNTS), level=level).value == pytest.approx(alpha, abs=5e-7)
