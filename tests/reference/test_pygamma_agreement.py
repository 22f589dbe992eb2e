"""Mathet, Y., Widlöcher, A. & Métivier, J.-P. (2015). "The Unified and Holistic Method Gamma (γ) for
Inter-Annotator Agreement Measure and Alignment". *Computational Linguistics* 41(3), 437-479, as reproduced
by pygamma-agreement 0.5.9 (Titeux & Riad 2021, MIT) in its test-suite and on its test data
(``../shared/data/REFERENCE.md`` section 4; data in ``../shared/data/pygamma_tests_data/``).

- Figure 10 positional dissimilarities (pygamma tests/test_dissimilarity.py, relative tolerance 0.1):
  22.2, 0, 3.2, 1.0, 0.11, 0.22, and scale invariance.
- The liza / pierrot continuum: the 20 sporadic (delta_empty 0.5) and combined (alpha 3, beta 1, precomputed
  categorical matrix) dissimilarities.
- Best-alignment disorders, pygamma 0.5.9 exact ILP: AlexPaulSuzan 0.653542 (alpha 1) and 0.960625 (alpha 3),
  6 unitary alignments; example_figure19 1.344 and 1.632, 4 unitary alignments; 2by1000: 1085 unitary
  alignments.
- Monte-Carlo ranges asserted by pygamma tests/test_gammas.py (alpha 3, beta 1, pygamma's empty-pair
  convention for γcat / γk): 2by1000 γ in [0.39, 0.42], γcat in [0.38, 0.42], γk Adj [.21, .25], Noun [.36, .39],
  Prep [.31, .35], Verb [.11, .15].
"""

from __future__ import annotations

import numpy as np
import pytest

from spacy_anno_eval.gamma import Continuum, Dissimilarity, gamma
from spacy_anno_eval.gamma.alignment import best_alignment
from spacy_anno_eval.gamma.readers import read_csv
from tests.conftest import shared_file


def pygamma_csv(name):
    return read_csv(shared_file("pygamma_tests_data", name))


def positional(a, b):
    d = Dissimilarity()
    return float(d.positional(np.float64(a[0]), np.float64(a[1]), np.float64(b[0]), np.float64(b[1])))


@pytest.mark.parametrize(("u", "v", "value"), [([4, 14], [40, 44], 22.2), ([4, 14], [20, 25], 3.2),
                                               ([4, 14], [14, 24], 1.0), ([20, 30], [20, 25], 0.11),
                                               ([20, 25], [14, 24], 0.22)])
def test_figure_10_positional_dissimilarities(u, v, value):
    assert positional(u, v) == pytest.approx(value, rel=0.1)


def test_figure_10_identity_and_scale_invariance():
    assert positional([4, 14], [4, 14]) == 0
    assert positional([0, 7], [0, 10]) == pytest.approx(positional([0, 21], [0, 30]))


LIZA = [("liza", 1, 5, "Carol"), ("liza", 6, 8, "Bob"), ("liza", 12, 18, "Carol"), ("liza", 7, 20, "Alice")]
PIERROT = [("pierrot", 2, 6, "Carol"), ("pierrot", 7, 8, "Bob"), ("pierrot", 12, 18, "Alice"),
           ("pierrot", 8, 10, "Alice"), ("pierrot", 7, 19, "Jeremy")]
# categories Alice, Bob, Carol, Jeremy
MATRIX = [[0, .6, .3, .7], [.6, 0, .5, .4], [.3, .5, 0, .7], [.7, .4, .7, 0]]
SPORADIC = [0.03125, 1.62, 0.78125, 2.0, 2.88, 0.5, 0.05555556, 0.36734694, 0.5, 2.0, 0.62456747, 0.36734694,
            0.0008, 0.26888889, 0.06786704, 2.42, 2.29591837, 0.05555556, 1.125, 0.0]
COMBINED = [0.09375, 5.11, 2.69375, 6.15, 8.79, 1.75, 0.16666667, 1.30204082, 1.8, 6.3, 2.02370242, 1.40204082,
            0.3524, 0.80666667, 0.20360111, 7.26, 7.1377551, 0.51666667, 3.525, 0.15]


def liza_by_pierrot():
    """Every liza x pierrot unit pair, each annotator's units in sorted order (pygamma's order)."""
    c = Continuum.from_units(LIZA + PIERROT)
    liza = np.flatnonzero(c.annotator == c.annotators.index("liza"))
    pierrot = np.flatnonzero(c.annotator == c.annotators.index("pierrot"))
    return c, np.repeat(liza, len(pierrot)), np.tile(pierrot, len(liza))


def test_liza_pierrot_sporadic_positional():
    c, i, j = liza_by_pierrot()
    d = Dissimilarity(beta=0, delta_empty=0.5)
    np.testing.assert_allclose(d.positional(c.start[i], c.end[i], c.start[j], c.end[j]), SPORADIC, rtol=1e-6)


def test_liza_pierrot_combined():
    c, i, j = liza_by_pierrot()
    d = Dissimilarity(alpha=3, beta=1, delta_empty=0.5, categorical=MATRIX)
    np.testing.assert_allclose(d.pairs(c, i, j), COMBINED, rtol=1e-6)


@pytest.mark.parametrize(("name", "alpha", "disorder", "n_unitary"), [
    ("AlexPaulSuzan.csv", 1, 0.653542, 6), ("AlexPaulSuzan.csv", 3, 0.960625, 6),
    ("example_figure19.csv", 1, 1.344, 4), ("example_figure19.csv", 3, 1.632, 4)])
def test_best_alignment_disorder(name, alpha, disorder, n_unitary):
    alignment = best_alignment(pygamma_csv(name), Dissimilarity(alpha=alpha, beta=1))
    assert alignment.disorder == pytest.approx(disorder, rel=1e-5)  # pygamma computes in float32
    assert len(alignment) == n_unitary


def test_2by1000_ranges():
    result = gamma(pygamma_csv("2by1000.csv"), alpha=3, beta=1, n_samples=200, seed=1, empty_pairs="pygamma")
    assert result.n_unitary_alignments == 1085
    assert 0.39 <= result.gamma <= 0.42
    assert 0.38 <= result.gamma_cat <= 0.42
    for category, (low, high) in {"Adj": (.21, .25), "Noun": (.36, .39), "Prep": (.31, .35),
                                  "Verb": (.11, .15)}.items():
        assert low <= result.gamma_k[category] <= high, category
