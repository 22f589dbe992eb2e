"""Paired significance of the difference between two systems scored on the same documents.

Both tests resample *documents* (the unit a corpus is drawn in), keep the
pairing of the two systems' counts on each document, and recompute every
corpus-level figure from summed counts, so a figure's test reflects how the
micro-averaged figure itself varies (Koehn 2004; Berg-Kirkpatrick, Burkett &
Klein 2012; Dror et al. 2018).

Let ``x_d`` and ``y_d`` be the count vectors of document ``d`` for the old and
the new system, ``m(.)`` a figure computed from summed counts, and
``δ = m(Σ y_d) − m(Σ x_d)``.

- **Paired bootstrap**: draw ``B`` samples of ``n`` documents with replacement
  (one multiset of documents for both systems); ``δ*_b`` is the delta on
  sample ``b``. Interval: the percentile interval of ``δ*`` at the stated
  confidence (Efron & Tibshirani 1993, 13.3). p-value (two-sided, from the
  bootstrap distribution shifted to the null, Berg-Kirkpatrick et al. 2012
  sec. 2.3): ``p = (1 + #{|δ*_b − δ| ≥ |δ|}) / (B + 1)``.
- **Approximate randomization** (Noreen 1989; Yeh 2000; Riezler & Maxwell
  2005): in each of ``R`` shuffles every document's pair of count vectors is
  swapped between the systems with probability 1/2;
  ``p = (1 + #{|δ_r| ≥ |δ|}) / (R + 1)``.

With ``δ = 0`` both p-values are 1 and the interval contains 0. Everything is
seeded and vectorised: the resampled sums are matrix products of the
per-document counts with weight matrices, computed in blocks of samples to
bound memory; each block draws from its own generator
(:mod:`spacy_anno_eval.samples`), so the blocks can run on Dask workers with
the same result.
"""

from __future__ import annotations

import numbers
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import ConfigError, InputError
from ..samples import block_size_for, document_weights, map_blocks

TOLERANCE = 1e-12
_CHUNK_CELLS = 4_000_000  # float64 cells of one weight or result matrix per block (32 MB)


@dataclass
class PairedTest:
    """Old and new values of ``M`` figures, their deltas and the tests' results (arrays of length M)."""

    old: np.ndarray
    new: np.ndarray
    delta: np.ndarray
    ci_low: np.ndarray
    ci_high: np.ndarray
    p_bootstrap: np.ndarray
    p_randomization: np.ndarray
    n_samples: int
    seed: int
    confidence: float


def paired_test(old: np.ndarray, new: np.ndarray, statistic: Callable[[np.ndarray], np.ndarray], *,
                n_samples: int = 1000, seed: int = 0, confidence: float = 0.95, client: Any = None) -> PairedTest:
    """Paired bootstrap and approximate randomization for every figure ``statistic`` gives.

    ``old`` and ``new``: per-document counts, shape ``(n_docs, ...)``, row
    ``d`` of both belonging to the same document. ``statistic`` maps summed
    counts of shape ``(batch, ...)`` (the trailing shape of ``old``) to
    figures of shape ``(batch, M)``. Returns a :class:`PairedTest`.

    Seeded and drawn in blocks (:mod:`spacy_anno_eval.samples`): block ``i``
    of ``block_size_for(max(n_docs, cells, M), max_cells=_CHUNK_CELLS)``
    samples draws its bootstrap weights and then its swaps from
    ``default_rng(SeedSequence(seed, spawn_key=(i,)))``. ``client``: an open
    ``distributed.Client`` to compute the blocks on (``statistic`` must then
    pickle: a module-level function, a ``functools.partial`` of one, or a
    closure, which Dask pickles by value); the result is the same as
    in-process. With whole counts every resampled sum is a sum of integers,
    exact in any order, so the figures do not depend on how BLAS splits the
    matrix products either.
    """
    old = np.asarray(old, dtype=float)
    new = np.asarray(new, dtype=float)
    if old.shape != new.shape:
        raise InputError(f"paired_test: old counts {old.shape} and new counts {new.shape} differ in shape; give "
                         f"both per-document counts of the same documents and labels")
    return paired_tests([old, new], [(0, 1)], statistic, n_samples=n_samples, seed=seed, confidence=confidence,
                        client=client)[0]


def paired_tests(systems: Sequence[np.ndarray], pairs: Sequence[tuple[int, int]],
                 statistic: Callable[[np.ndarray], np.ndarray], *, n_samples: int = 1000, seed: int = 0,
                 confidence: float = 0.95, client: Any = None) -> list[PairedTest]:
    """:func:`paired_test` of each pair ``(i, j)`` of ``systems`` (``i`` old, ``j`` new), all drawn from one
    set of samples: every block draws its weights and swaps once, and each system's resampled sums are
    computed once for all the pairs it is in. Each result equals ``paired_test(systems[i], systems[j], ...)``
    with the same seed (the draws are the same), at a fraction of the cost for three systems or more.
    ``systems``: per-document counts of the same shape ``(n_docs, ...)``."""
    if isinstance(confidence, bool) or not isinstance(confidence, numbers.Real) or not 0 < confidence < 1:
        raise ConfigError(f"confidence must be a number in (0, 1), e.g. 0.95, got {confidence!r}")
    if isinstance(n_samples, bool) or not isinstance(n_samples, numbers.Integral) or n_samples < 1:
        raise ConfigError(f"n_samples must be a whole number >= 1, e.g. 1000, got {n_samples!r}")
    arrays = [np.asarray(x, dtype=float) for x in systems]
    shapes = {a.shape for a in arrays}
    if len(shapes) != 1:
        raise InputError(f"paired_tests: the systems' counts differ in shape ({sorted(shapes)}); give "
                         f"per-document counts of the same documents and labels")
    n_docs, cell = arrays[0].shape[0], arrays[0].shape[1:]
    flats = np.stack([a.reshape(n_docs, -1) for a in arrays])            # (systems, n_docs, cells)
    totals = flats.sum(axis=1)
    obs = _figures(statistic, cell, totals)                             # (systems, M)
    pairs = [(int(i), int(j)) for i, j in pairs]
    deltas = np.stack([obs[j] - obs[i] for i, j in pairs]) if pairs else np.zeros((0, obs.shape[1]))
    size_of = np.abs(deltas) - TOLERANCE
    block = block_size_for(max(n_docs, flats.shape[2], obs.shape[1]), max_cells=_CHUNK_CELLS)
    parts = map_blocks(_paired_block, n_samples, seed, block, client=client, flats=flats, totals=totals,
                       pairs=pairs, statistic=statistic, cell=cell, size_of=size_of)
    tail = (1.0 - confidence) / 2.0
    out = []
    for k, (i, j) in enumerate(pairs):
        boot_delta = np.concatenate([boot[k] for boot, _ in parts])
        hits = np.sum([h[k] for _, h in parts], axis=0)
        delta = deltas[k]
        ci_low, ci_high = np.quantile(boot_delta, [tail, 1.0 - tail], axis=0)
        p_boot = (1.0 + (np.abs(boot_delta - delta) >= size_of[k]).sum(axis=0)) / (n_samples + 1.0)
        p_rand = (1.0 + hits) / (n_samples + 1.0)
        zero = np.abs(delta) <= TOLERANCE
        p_boot[zero] = p_rand[zero] = 1.0
        out.append(PairedTest(obs[i], obs[j], delta, ci_low, ci_high, p_boot, p_rand, int(n_samples), int(seed),
                              float(confidence)))
    return out


def _figures(statistic: Callable[[np.ndarray], np.ndarray], cell: tuple[int, ...], sums: np.ndarray) -> np.ndarray:
    return np.asarray(statistic(sums.reshape((len(sums), *cell))), dtype=float)


def _paired_block(size: int, seed: Any, flats: np.ndarray, totals: np.ndarray, pairs: list[tuple[int, int]],
                  statistic: Callable[[np.ndarray], np.ndarray], cell: tuple[int, ...],
                  size_of: np.ndarray) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """One block: per pair, the bootstrap deltas (``size x M``) and the randomization hits per figure (``M``).
    The weights, then the swaps, are drawn once; each system's resampled sums are computed once; ``totals``:
    each system's sums over all documents."""
    rng = np.random.default_rng(seed)
    n_docs = flats.shape[1]
    weights = document_weights(rng, n_docs, size)
    used = sorted({s for pair in pairs for s in pair})
    boot_figures = {s: _figures(statistic, cell, weights @ flats[s]) for s in used}
    swap = rng.integers(0, 2, size=(size, n_docs)).astype(float)
    swapped = {s: swap @ flats[s] for s in used}
    boots, hits = [], []
    for k, (i, j) in enumerate(pairs):
        boots.append(boot_figures[j] - boot_figures[i])
        moved = swapped[j] - swapped[i]
        shuffled = (_figures(statistic, cell, totals[j] - moved) - _figures(statistic, cell, totals[i] + moved))
        hits.append((np.abs(shuffled) >= size_of[k]).sum(axis=0))
    return boots, hits


def holm(p_values: np.ndarray) -> np.ndarray:
    """Holm's (1979) step-down adjusted p-values of one family of tests, along the last axis: with the ``m``
    p-values sorted, ``p_(1) <= ... <= p_(m)``, the adjusted ``p~_(i) = max_{j <= i} min(1, (m − j + 1) p_(j))``,
    put back in the original order. Rejecting where ``p~ <= α`` controls the family-wise error rate at α under
    any dependence between the tests (statsmodels' ``multipletests(method="holm")``).

    >>> holm(np.array([0.01, 0.04, 0.03])).tolist()
    [0.03, 0.06, 0.06]
    """
    p = np.asarray(p_values, dtype=float)
    m = p.shape[-1]
    order = np.argsort(p, axis=-1, kind="stable")
    ranked = np.take_along_axis(p, order, axis=-1) * (m - np.arange(m))
    adjusted = np.minimum(np.maximum.accumulate(ranked, axis=-1), 1.0)
    out = np.empty_like(adjusted)
    np.put_along_axis(out, order, adjusted, axis=-1)
    return out
