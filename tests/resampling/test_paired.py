"""Paired bootstrap and approximate randomization (spacy_anno_eval.resampling.paired).

Checked against exact answers where they exist (every one of the 2^n swaps
enumerated for a small corpus), against scipy's paired percentile bootstrap on
the same data, and against the normal approximation of a linear statistic.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from spacy_anno_eval.resampling.paired import paired_test

RNG = np.random.default_rng(12345)


def recall(sums: np.ndarray) -> np.ndarray:
    """Columns: correct, key -> recall, one figure per batch row."""
    return (sums[:, 0] / sums[:, 1])[:, None]


def corpus(n_docs: int, p_old: float, p_new: float) -> tuple[np.ndarray, np.ndarray]:
    key = RNG.integers(1, 12, size=n_docs)
    old = np.stack([RNG.binomial(key, p_old), key], axis=1)
    new = np.stack([RNG.binomial(key, p_new), key], axis=1)
    return old, new


def test_randomization_p_matches_exact_enumeration():
    old, new = corpus(10, 0.5, 0.8)
    test = paired_test(old, new, recall, n_samples=40000, seed=1)
    observed = test.delta[0]
    hits = 0
    for swap in itertools.product((0, 1), repeat=len(old)):
        s = np.array(swap)[:, None]
        a, b = np.where(s, new, old).sum(axis=0), np.where(s, old, new).sum(axis=0)
        hits += abs(b[0] / b[1] - a[0] / a[1]) >= abs(observed) - 1e-12
    exact = hits / 2 ** len(old)
    assert test.p_randomization[0] == pytest.approx(exact, abs=0.01)


def test_bootstrap_interval_matches_scipy():
    stats = pytest.importorskip("scipy.stats")
    old, new = corpus(200, 0.55, 0.6)
    ours = paired_test(old, new, recall, n_samples=20000, seed=2, confidence=0.9)

    def stat(c_old, k_old, c_new, k_new, axis=-1):
        return c_new.sum(axis=axis) / k_new.sum(axis=axis) - c_old.sum(axis=axis) / k_old.sum(axis=axis)

    theirs = stats.bootstrap((old[:, 0], old[:, 1], new[:, 0], new[:, 1]), stat, paired=True, vectorized=True,
                             n_resamples=20000, confidence_level=0.9, method="percentile",
                             random_state=np.random.default_rng(3))
    assert ours.ci_low[0] == pytest.approx(theirs.confidence_interval.low, abs=0.004)
    assert ours.ci_high[0] == pytest.approx(theirs.confidence_interval.high, abs=0.004)
    assert ours.delta[0] == pytest.approx(stat(old[:, 0], old[:, 1], new[:, 0], new[:, 1]))


def test_bootstrap_of_a_sum_has_the_analytic_spread():
    """For a linear statistic (the sum of per-document differences) the bootstrap sd is sqrt(n) * sd(diff)."""
    diff = RNG.normal(0.3, 2.0, size=400)
    old, new = np.zeros((400, 1)), diff[:, None]
    test = paired_test(old, new, lambda s: s, n_samples=20000, seed=4, confidence=0.6827)
    half_width = (test.ci_high[0] - test.ci_low[0]) / 2
    assert half_width == pytest.approx(np.sqrt(400) * diff.std(), rel=0.05)
    assert test.delta[0] == pytest.approx(diff.sum())


def test_identical_systems_give_p_one_and_a_zero_interval():
    old, _ = corpus(30, 0.5, 0.5)
    test = paired_test(old, old.copy(), recall, n_samples=500, seed=0)
    assert test.delta[0] == 0.0 and test.p_bootstrap[0] == 1.0 and test.p_randomization[0] == 1.0
    assert test.ci_low[0] == test.ci_high[0] == 0.0


def test_a_clear_difference_is_significant_and_seeded():
    old, new = corpus(100, 0.3, 0.7)
    a = paired_test(old, new, recall, n_samples=999, seed=5)
    b = paired_test(old, new, recall, n_samples=999, seed=5)
    assert a.p_bootstrap[0] == b.p_bootstrap[0] == 1 / 1000
    assert a.p_randomization[0] == 1 / 1000
    assert a.ci_low[0] > 0
    assert np.array_equal(a.ci_low, b.ci_low)


def test_many_figures_at_once_and_chunking(monkeypatch):
    """Several figures in one call equal separate calls; chunked resampling equals one chunk."""
    old, new = corpus(50, 0.4, 0.6)
    both = np.concatenate([old, new], axis=1)

    def two(sums: np.ndarray) -> np.ndarray:
        return np.concatenate([recall(sums[:, :2]), recall(sums[:, 2:])], axis=1)

    whole = paired_test(both, both[:, [2, 3, 0, 1]], two, n_samples=300, seed=6)
    assert whole.delta[0] == pytest.approx(-whole.delta[1])
    monkeypatch.setattr("spacy_anno_eval.resampling.paired._CHUNK_CELLS", 60)
    chunked = paired_test(both, both[:, [2, 3, 0, 1]], two, n_samples=300, seed=6)
    # smaller blocks draw from other block seeds (the block size is part of the result, like the seed):
    # the same distribution, not the same draws
    assert chunked.delta == pytest.approx(whole.delta)
    assert abs(chunked.ci_low[0] - whole.ci_low[0]) < 0.08


def test_bad_arguments():
    old, new = corpus(5, 0.5, 0.5)
    with pytest.raises(ValueError, match="differ in shape"):
        paired_test(old, new[:3], recall)
    with pytest.raises(ValueError, match="confidence"):
        paired_test(old, new, recall, confidence=1.0)
    with pytest.raises(ValueError, match="n_samples"):
        paired_test(old, new, recall, n_samples=0)


def test_holm_equals_statsmodels_multipletests():
    """Holm's step-down adjustment, on random families of 1 to 7 p-values (ties included), and along the last
    axis of a 2-D array (one family per row)."""
    multitest = pytest.importorskip("statsmodels.stats.multitest")
    from spacy_anno_eval.resampling.paired import holm

    rng = np.random.default_rng(0)
    for _ in range(300):
        p = np.round(rng.random(int(rng.integers(1, 8))) ** 3, 2)
        assert np.allclose(holm(p), multitest.multipletests(p, method="holm")[1]), p
    rows = rng.random((5, 4))
    assert np.allclose(holm(rows), [multitest.multipletests(r, method="holm")[1] for r in rows])


def test_paired_tests_of_three_systems_equal_each_pairs_own_test():
    """One draw for every pair: each pair's result equals paired_test of that pair alone, same seed."""
    from spacy_anno_eval.resampling.paired import paired_tests

    a, b = corpus(300, 0.6, 0.7)
    _, c = corpus(300, 0.6, 0.65)
    pairs = [(0, 1), (0, 2), (1, 2)]
    together = paired_tests([a, b, c], pairs, recall, n_samples=700, seed=4)
    systems = [a, b, c]
    for (i, j), got in zip(pairs, together, strict=True):
        alone = paired_test(systems[i], systems[j], recall, n_samples=700, seed=4)
        for name in ("old", "new", "delta", "ci_low", "ci_high", "p_bootstrap", "p_randomization"):
            assert np.array_equal(getattr(got, name), getattr(alone, name)), (i, j, name)
    with pytest.raises(Exception, match="differ in shape"):
        paired_tests([a, b[:10]], [(0, 1)], recall)
