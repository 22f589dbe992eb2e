"""DKPro Statistics' γ validation fixtures (dkpro/dkpro-statistics@f7f4f89,
``dkpro-statistics-agreement/src/test/resources/pygamma/fixture_0[1-6]_*.json``, Apache-2.0), generated with
pygamma-agreement 0.5.9; read from ``../shared/data/dkpro_pygamma_fixtures/``.

Tier 1: every pair's positional and combined dissimilarity and the best-alignment disorder (deterministic,
float32: relative tolerance 1e-5). Tier 2: ten sampled continua with their best-alignment disorders, so that
γ = 1 - observed / mean(sampled) replays without Monte-Carlo noise. The recorded best-alignment disorders are
written inline in ``OBSERVED`` as well, so that a changed fixture file cannot pass silently.
"""

from __future__ import annotations

import numpy as np
import pytest

from spacy_anno_eval.gamma import Dissimilarity
from spacy_anno_eval.gamma.alignment import best_alignment
from spacy_anno_eval.gamma.readers import fixture_samples, read_fixture
from tests.conftest import shared_file

FIXTURES = ["fixture_01_two_annotators_simple", "fixture_02_unequal_counts", "fixture_03_identical_perfect",
            "fixture_04_three_annotators", "fixture_05_larger_two_annotators", "fixture_06_weighted_alpha3_beta2"]


def load(name):
    return read_fixture(shared_file("dkpro_pygamma_fixtures", f"{name}.json"))


@pytest.mark.parametrize("name", FIXTURES)
def test_tier1_dissimilarities_and_best_alignment(name):
    c, data = load(name)
    p = data["params"]
    dissim = Dissimilarity(alpha=p["alpha"], beta=p["beta"], delta_empty=p["deltaEmpty"])
    offsets = c.offsets()
    for pair in data["tier1"]["pairDissimilarities"]:
        a, b = c.annotators.index(pair["annotatorA"]), c.annotators.index(pair["annotatorB"])
        i, j = np.array([offsets[a] + pair["unitIndexA"]]), np.array([offsets[b] + pair["unitIndexB"]])
        assert float(dissim.pairs(c, i, j)[0]) == pytest.approx(pair["combined"], rel=1e-5, abs=1e-7)
        assert float(dissim.positional(c.start[i], c.end[i], c.start[j], c.end[j])[0]) == \
            pytest.approx(pair["positional"], rel=1e-5, abs=1e-7)
    assert best_alignment(c, dissim).disorder == \
        pytest.approx(data["tier1"]["bestAlignmentDisorder"], rel=1e-5, abs=1e-7)


@pytest.mark.parametrize("name", FIXTURES)
def test_tier2_gamma_replay(name):
    c, data = load(name)
    p = data["params"]
    dissim = Dissimilarity(alpha=p["alpha"], beta=p["beta"], delta_empty=p["deltaEmpty"])
    disorders = [best_alignment(s, dissim).disorder for s in fixture_samples(data)]
    recorded = [s["bestAlignmentDisorder"] for s in data["tier2"]["sampledContinua"]]
    np.testing.assert_allclose(disorders, recorded, rtol=1e-5)
    observed = best_alignment(c, dissim).disorder
    assert 1 - observed / np.mean(disorders) == \
        pytest.approx(1 - data["tier1"]["bestAlignmentDisorder"] / np.mean(recorded), rel=1e-4)


# tier1 bestAlignmentDisorder of each fixture (float32 values as pygamma 0.5.9 wrote them)
OBSERVED = {"fixture_01_two_annotators_simple": 0.0625, "fixture_02_unequal_counts": 0.70833331,
            "fixture_03_identical_perfect": 0.0, "fixture_04_three_annotators": 0.40875643,
            "fixture_05_larger_two_annotators": 1.07438016, "fixture_06_weighted_alpha3_beta2": 1.02777779}


@pytest.mark.parametrize("name", FIXTURES)
def test_recorded_observed_disorders(name):
    c, data = load(name)
    p = data["params"]
    dissim = Dissimilarity(alpha=p["alpha"], beta=p["beta"], delta_empty=p["deltaEmpty"])
    assert best_alignment(c, dissim).disorder == pytest.approx(OBSERVED[name], rel=1e-5, abs=1e-7)
