"""Krippendorff's unitizing alpha (uα), the 2004 form (``spacy_anno_eval.gamma.unitizing``),
``../shared/data/REFERENCE-2.md`` B1 and B2.

Sources:

- Krippendorff, K. (2004). *Content Analysis: An Introduction to Its Methodology*, 2nd ed., Thousand Oaks, CA:
  Sage, on the reliability of unitizing, worked example p. 254: 2 coders, continuum [150, 450),
  categories c and k. Published: uα 0.8591; c: D_o 0.0144, D_e 0.0532, α 0.7286; k: D_o 0, D_e 0.0490,
  α 1.0; as DKPro Statistics asserts them in dkpro/dkpro-statistics@f7f4f89
  ``dkpro-statistics-agreement/src/test/java/org/dkpro/statistics/agreement/unitizing/Krippendorff2004Test.java``
  (uα ±0.0005, line 83; per category ±0.0001, lines 92-101), with its 9 distance-function checks
  (``testDistanceMetric1/2``; the file's assertions span lines 40-101).
- DKPro's simple example, same commit, ``UnitizingAgreementTest.java`` lines 42-51: continuum [0, 10),
  coder 0: A[1, 9); coder 1: A[2, 3), A[4, 5), A[6, 7). uα (2004) of A: D_o 0.9100, D_e 0.5351, α −0.7003.

The continua are read from ``../shared/data/unitizing/`` (the tests skip without it); the published numbers are
written here. The distance checks need no data and always run.

Deliberate differences: the book's 0.8591 is 1 − D_o / D_e over its *rounded* per-category figures
(0.0144 / (0.0532 + 0.0490)); unrounded the coefficient is 0.858665 (DKPro computes the same), inside the
published ±0.0005. Krippendorff, Mathet, Bouvry & Widlöcher (2016) uα (0.181818 on DKPro's simple example,
REFERENCE-2.md B2) is tested in test_krippendorff_2016_unitizing.py.
"""

from __future__ import annotations

import json
import warnings

import pytest

from spacy_anno_eval.gamma.continuum import Continuum
from spacy_anno_eval.gamma.unitizing import unitizing_alpha, unitizing_distance
from tests.conftest import shared_file


def alpha_of(name: str):
    """uα of a shared example: its units per coder, every coder covering the whole continuum."""
    data = json.loads(shared_file("unitizing", name).read_text(encoding="utf-8"))
    units = [(str(u["coder"]), u["begin"], u["begin"] + u["length"], u["category"]) for u in data["units"]]
    continuum = Continuum.from_units(units, annotators=[str(k) for k in range(data["coders"])])
    begin = data["continuum"]["begin"]
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # every figure here is defined
        return unitizing_alpha(continuum, extent=(begin, begin + data["continuum"]["length"]))


def test_book_example_overall():
    """Krippendorff (2004) p. 254: uα 0.8591 (±0.0005, Krippendorff2004Test.java line 83)."""
    result = alpha_of("krippendorff2004_example.json")
    assert result.extent == (150.0, 450.0)
    assert result.value == pytest.approx(0.8591, abs=0.0005)
    assert round(result.value, 6) == 0.858665  # DKPro's KrippendorffAlphaUnitizingAgreement, unrounded


@pytest.mark.parametrize(("category", "observed", "expected", "alpha", "dkpro"), [
    ("c", 0.0144, 0.0532, 0.7286, (0.014444, 0.053222, 0.728599)),
    ("k", 0.0, 0.0490, 1.0, (0.0, 0.048979, 1.0)),
])
def test_book_example_per_category(category, observed, expected, alpha, dkpro):
    """Krippendorff (2004) p. 254, per category (±0.0001, Krippendorff2004Test.java lines 92-101)."""
    got = alpha_of("krippendorff2004_example.json").per_category[category]
    assert got["observed"] == pytest.approx(observed, abs=1e-4)
    assert got["expected"] == pytest.approx(expected, abs=1e-4)
    assert got["value"] == pytest.approx(alpha, abs=1e-4)
    assert (round(got["observed"], 6), round(got["expected"], 6), round(got["value"], 6)) == dkpro


def test_book_rounded_figures_give_the_published_overall():
    assert 1 - (0.0144 + 0.0) / (0.0532 + 0.0490) == pytest.approx(0.8591, abs=5e-5)


# Krippendorff2004Test.java testDistanceMetric1/2: (begin, length, category) of two sections; None = a gap
DISTANCES = [
    ((225, 70, "c"), (220, 80, "c"), 50.0),
    ((370, 30, "c"), (355, 20, "c"), 850.0),
    ((400, 50, None), (400, 20, "c"), 400.0),
    ((5, 6, "X"), (4, 2, "X"), 26.0),
    ((5, 6, "X"), (5, 2, "X"), 16.0),
    ((5, 6, "X"), (6, 2, "X"), 10.0),
    ((5, 6, "X"), (7, 2, "X"), 8.0),
    ((5, 6, "X"), (6, 4, "X"), 2.0),
    ((5, 6, "X"), (5, 6, "X"), 0.0),
]


@pytest.mark.parametrize(("g", "h", "delta"), DISTANCES, ids=[f"{g}-{h}" for g, h, _ in DISTANCES])
def test_distance_function(g, h, delta):
    (b1, l1, c1), (b2, l2, c2) = g, h
    assert unitizing_distance(b1, b1 + l1, c1 is not None, b2, b2 + l2, c2 is not None) == delta
    assert unitizing_distance(b2, b2 + l2, c2 is not None, b1, b1 + l1, c1 is not None) == delta  # symmetric


def test_dkpro_simple_example():
    """UnitizingAgreementTest.java lines 42-51: D_o 0.9100, D_e 0.5351, uα −0.7003 (±0.0001; DKPro −0.700346)."""
    result = alpha_of("dkpro_simple_example.json")
    got = result.per_category["A"]
    assert got["observed"] == pytest.approx(0.9100, abs=1e-4)
    assert got["expected"] == pytest.approx(0.5351, abs=1e-4)
    assert got["value"] == pytest.approx(-0.7003, abs=1e-4)
    assert result.value == pytest.approx(got["value"])  # one category: the overall uα is A's
    assert round(result.value, 6) == -0.700346
