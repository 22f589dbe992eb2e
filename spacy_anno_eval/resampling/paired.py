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
from collections.abc import Callable
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
    if isinstance(confidence, bool) or not isinstance(confidence, numbers.Real) or not 0 < confidence < 1:
        raise ConfigError(f"confidence must be a number in (0, 1), e.g. 0.95, got {confidence!r}")
    if isinstance(n_samples, bool) or not isinstance(n_samples, numbers.Integral) or n_samples < 1:
        raise ConfigError(f"n_samples must be a whole number >= 1, e.g. 1000, got {n_samples!r}")
    n_docs, cell = old.shape[0], old.shape[1:]
    flat_old, flat_new = old.reshape(n_docs, -1), new.reshape(n_docs, -1)
    obs = _figures(statistic, cell, np.stack([flat_old.sum(axis=0), flat_new.sum(axis=0)]))
    delta = obs[1] - obs[0]
    size_of = np.abs(delta) - TOLERANCE
    block = block_size_for(max(n_docs, flat_old.shape[1], len(delta)), max_cells=_CHUNK_CELLS)
    parts = map_blocks(_paired_block, n_samples, seed, block, client=client, flat_old=flat_old, flat_new=flat_new,
                       statistic=statistic, cell=cell, size_of=size_of)
    boot_delta = np.concatenate([boot for boot, _ in parts])
    hits = np.sum([h for _, h in parts], axis=0)
    tail = (1.0 - confidence) / 2.0
    ci_low, ci_high = np.quantile(boot_delta, [tail, 1.0 - tail], axis=0)
    p_boot = (1.0 + (np.abs(boot_delta - delta) >= size_of).sum(axis=0)) / (n_samples + 1.0)
    p_rand = (1.0 + hits) / (n_samples + 1.0)
    zero = np.abs(delta) <= TOLERANCE
    p_boot[zero] = p_rand[zero] = 1.0
    return PairedTest(obs[0], obs[1], delta, ci_low, ci_high, p_boot, p_rand, int(n_samples), int(seed),
                      float(confidence))


def _figures(statistic: Callable[[np.ndarray], np.ndarray], cell: tuple[int, ...], sums: np.ndarray) -> np.ndarray:
    return np.asarray(statistic(sums.reshape((len(sums), *cell))), dtype=float)


def _paired_block(size: int, seed: Any, flat_old: np.ndarray, flat_new: np.ndarray,
                  statistic: Callable[[np.ndarray], np.ndarray], cell: tuple[int, ...],
                  size_of: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """One block: the bootstrap deltas (``size x M``) and the randomization hits per figure (``M``)."""
    rng = np.random.default_rng(seed)
    n_docs = len(flat_old)
    weights = document_weights(rng, n_docs, size)
    boot = _figures(statistic, cell, weights @ flat_new) - _figures(statistic, cell, weights @ flat_old)
    swap = rng.integers(0, 2, size=(size, n_docs)).astype(float)
    moved = swap @ (flat_new - flat_old)
    shuffled = (_figures(statistic, cell, flat_new.sum(axis=0) - moved)
                - _figures(statistic, cell, flat_old.sum(axis=0) + moved))
    return boot, (np.abs(shuffled) >= size_of).sum(axis=0)


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
