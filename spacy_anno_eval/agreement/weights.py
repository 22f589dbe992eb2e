"""Agreement weights for chance-corrected coefficients, as Gwet (2014) and irrCAC define them.

A weight matrix ``w`` (``q x q``) gives the credit for a pair of ratings
``(k, l)``: ``w[k, k] = 1`` (full agreement), ``0 <= w[k, l] <= 1`` for a
disagreement. The schemes work on the category *scores* ``x_1 < ... < x_q``:
the sorted category values when every category is a number, else the ranks
``1..q`` of the categories in their given order (irrCAC's rule). With
``x_min``, ``x_max`` the smallest and largest score (Gwet 2014, *Handbook of
Inter-Rater Reliability*, 4th ed., ch. 3; irrCAC ``weights``):

- identity: ``w = [k == l]`` (the unweighted coefficients: AC1, kappa, ...);
- linear: ``1 - |x_k - x_l| / (x_max - x_min)``;
- quadratic: ``1 - (x_k - x_l)**2 / (x_max - x_min)**2``;
- ordinal: ``1 - M_kl / max M`` with ``M_kl = C(|k - l| + 1, 2)`` on the ranks ``k, l``;
- radical: ``1 - sqrt|x_k - x_l| / sqrt(x_max - x_min)``;
- ratio: ``1 - ((x_k - x_l) / (x_k + x_l))**2 / ((x_max - x_min) / (x_max + x_min))**2``
  (scores must be positive: a score 0 makes ``x_k + x_l`` vanish);
- circular: ``1 - d_kl / max d`` with ``d_kl = sin(pi (x_k - x_l) / (x_max - x_min + 1))**2``;
- bipolar: ``1 - d_kl / max d`` with ``d_kl = (x_k - x_l)**2 / ((x_k + x_l - 2 x_min)(2 x_max - x_k - x_l))``
  for ``k != l``, 0 on the diagonal;
- custom: any ``q x q`` matrix of finite numbers in the categories' order.

Contingency tables use the ranks ``1..q`` of their rows (irrCAC's ``table`` module).
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..errors import ConfigError

#: the weighting schemes irrCAC names (Gwet 2014, ch. 3), besides a custom matrix
WEIGHTS = ("identity", "linear", "quadratic", "ordinal", "radical", "ratio", "circular", "bipolar")


def category_scores(categories: Sequence[Any]) -> np.ndarray:
    """The scores the weights are computed on: the categories themselves when all are numbers (booleans are
    not), else their ranks ``1..q`` in the given order.

    >>> category_scores([1.0, 2.0, 5.0]).tolist(), category_scores(["a", "b"]).tolist()
    ([1.0, 2.0, 5.0], [1.0, 2.0])
    """
    numeric = all(isinstance(c, numbers.Real) and not isinstance(c, bool) for c in categories)
    if numeric and categories:
        return np.asarray([float(c) for c in categories], dtype=float)
    return np.arange(1, len(categories) + 1, dtype=float)


def _normalised(d: np.ndarray) -> np.ndarray:
    """``1 - d / max d``; all ones (identity-free agreement) cannot happen for q >= 2 distinct scores."""
    top = d.max() if d.size else 0.0
    return 1.0 - d / top if top > 0 else np.ones_like(d)


def weight_matrix(weights: Any, categories: Sequence[Any]) -> np.ndarray:
    """The ``q x q`` agreement weights of ``weights`` (a name of :data:`WEIGHTS`, or a custom matrix) over
    ``categories``; see the module docstring for the formulas (Gwet 2014, ch. 3).

    A name needs distinct scores (at least two for every scheme but identity); ``ratio`` needs positive scores.
    A custom matrix must be ``q x q`` and finite; it is used as given (irrCAC does not check it either).

    >>> weight_matrix("quadratic", [1, 2, 3]).tolist()
    [[1.0, 0.75, 0.0], [0.75, 1.0, 0.75], [0.0, 0.75, 1.0]]
    >>> weight_matrix("ordinal", ["low", "mid", "high"]).round(4).tolist()
    [[1.0, 0.6667, 0.0], [0.6667, 1.0, 0.6667], [0.0, 0.6667, 1.0]]
    """
    q = len(categories)
    if not isinstance(weights, str):
        if weights is None:
            return np.eye(q)
        try:
            w = np.asarray(weights, dtype=float)
        except (TypeError, ValueError):
            raise ConfigError(f"weights must be one of {', '.join(WEIGHTS)} or a q x q matrix of numbers, got "
                              f"{weights!r:.60}") from None
        if w.shape != (q, q):
            raise ConfigError(f"a custom weight matrix must be {q} x {q} (one row and column per category, "
                              f"{list(categories)!r:.80}), got shape {w.shape}")
        if not np.isfinite(w).all():
            raise ConfigError("a custom weight matrix must hold finite numbers (no NaN or inf)")
        return w
    if weights not in WEIGHTS:
        raise ConfigError(f"weights must be one of {', '.join(WEIGHTS)} or a q x q matrix, got {weights!r}")
    if weights == "identity" or q < 2:
        return np.eye(q)
    x = category_scores(categories)
    if len(np.unique(x)) != q:
        raise ConfigError(f"weights {weights!r} need distinct category scores, got {x.tolist()}")
    lo, hi = float(x.min()), float(x.max())
    diff = x[:, None] - x[None, :]
    if weights == "linear":
        return 1.0 - np.abs(diff) / (hi - lo)
    if weights == "quadratic":
        return 1.0 - diff ** 2 / (hi - lo) ** 2
    if weights == "radical":
        return 1.0 - np.sqrt(np.abs(diff)) / math.sqrt(hi - lo)
    if weights == "ordinal":
        ranks = np.arange(q, dtype=float)
        m = np.abs(ranks[:, None] - ranks[None, :]) + 1
        return _normalised(m * (m - 1) / 2)
    if weights == "ratio":
        if lo <= 0:
            raise ConfigError(f"ratio weights need positive category scores, got {lo:g}; shift the scores or "
                              f"choose another weighting")
        total = x[:, None] + x[None, :]
        return 1.0 - (diff / total) ** 2 / ((hi - lo) / (hi + lo)) ** 2
    if weights == "circular":
        return _normalised(np.sin(math.pi * diff / (hi - lo + 1)) ** 2)
    # bipolar
    total = x[:, None] + x[None, :]
    den = (total - 2 * lo) * (2 * hi - total)
    d = np.zeros((q, q))
    off = ~np.eye(q, dtype=bool)
    d[off] = diff[off] ** 2 / den[off]
    return _normalised(d)


def weights_name(weights: Any) -> str:
    """The scheme's name for reports: the name itself, ``"identity"`` for None, ``"custom"`` for a matrix."""
    if weights is None:
        return "identity"
    return weights if isinstance(weights, str) else "custom"


__all__ = ["WEIGHTS", "category_scores", "weight_matrix", "weights_name"]
