"""Dissimilarities between units of a continuum (Mathet, Widlöcher & Métivier 2015, section 4.2).

For units ``u = (s_u, e_u, c_u)`` and ``v`` of two different annotators::

    d_pos(u, v) = ((|s_u - s_v| + |e_u - e_v|) / ((e_u - s_u) + (e_v - s_v)))^2 * Δ∅
    d_cat(u, v) = M[c_u, c_v] * Δ∅
    d(u, v)     = α d_pos(u, v) + β d_cat(u, v)
    d(u, ∅) = d(∅, ∅) = Δ∅

``M`` is 0 on the diagonal: ``absolute`` (1 off the diagonal), ``ordinal``
(``|p_i - p_j| / max(1, max |p_i - p_j|)`` with positions ``p`` = the rank of
each category, or given values), ``numeric`` (the categories read as
numbers, same formula) or a user matrix over the sorted categories. These are
the conventions of pygamma-agreement 0.5.9 (PositionalSporadicDissimilarity,
Absolute/Ordinal/Numerical/PrecomputedCategoricalDissimilarity,
CombinedCategoricalDissimilarity; ../shared/data/REFERENCE.md section 4),
including ``d(∅, ∅) = Δ∅``: in a unitary alignment every annotator pair with
an empty side counts Δ∅, so a unit left alone costs exactly Δ∅.
"""

from __future__ import annotations

import numbers
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..errors import ConfigError, InputError

CATEGORICAL = ("absolute", "ordinal", "numeric")


@dataclass(frozen=True)
class Dissimilarity:
    """The combined dissimilarity ``α d_pos + β d_cat`` with empty-unit cost ``delta_empty`` (Δ∅).

    ``categorical``: ``"absolute"`` (default), ``"ordinal"``, ``"numeric"``,
    or a square matrix (nested lists or an array), 0 on the diagonal.
    ``category_values``: for ``"ordinal"``, the position of each category,
    default 0, 1, 2, ... ``category_names`` names the rows of the matrix and
    the entries of ``category_values`` (default: the continuum's categories,
    sorted); a continuum may then use any subset of them.
    """

    alpha: float = 1.0
    beta: float = 1.0
    delta_empty: float = 1.0
    categorical: Any = "absolute"
    category_values: Sequence[float] | None = field(default=None)
    category_names: Sequence[str] | None = field(default=None)

    def __post_init__(self) -> None:
        for name in ("alpha", "beta", "delta_empty"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, numbers.Real) or not np.isfinite(value) \
                    or value < 0:
                raise ConfigError(f"{name} must be a finite number >= 0, got {value!r}")
        if self.delta_empty == 0:
            raise ConfigError("delta_empty must be > 0 (the cost of leaving a unit unaligned), e.g. 1.0")
        if isinstance(self.categorical, str) and self.categorical not in CATEGORICAL:
            raise ConfigError(f"categorical dissimilarity must be one of {', '.join(CATEGORICAL)} or a "
                              f"matrix, got {self.categorical!r}")

    def to_dict(self) -> dict[str, Any]:
        cat = self.categorical if isinstance(self.categorical, str) else np.asarray(self.categorical).tolist()
        out = {"alpha": self.alpha, "beta": self.beta, "delta_empty": self.delta_empty, "categorical": cat}
        if self.category_names is not None:
            out["category_names"] = list(self.category_names)
        return out

    def positional(self, s1: np.ndarray, e1: np.ndarray, s2: np.ndarray, e2: np.ndarray) -> np.ndarray:
        """``d_pos`` elementwise (Δ∅ included, α not)."""
        ratio = (np.abs(s1 - s2) + np.abs(e1 - e2)) / ((e1 - s1) + (e2 - s2))
        return ratio * ratio * self.delta_empty

    def category_matrix(self, categories: Sequence[str]) -> np.ndarray:
        """``M * Δ∅`` over ``categories`` (sorted names, as in a :class:`Continuum`)."""
        names = list(self.category_names) if self.category_names is not None else list(categories)
        missing = [c for c in categories if c not in names]
        if missing:
            raise ConfigError(f"categories {missing} are not in category_names {names}; add them, or leave "
                              f"category_names out to use the continuum's categories")
        q = len(names)
        if not isinstance(self.categorical, str):
            try:
                m = np.asarray(self.categorical, dtype=float)
            except (TypeError, ValueError):
                raise ConfigError(f"the categorical matrix must hold numbers, got {self.categorical!r}") from None
            if m.shape != (q, q):
                raise ConfigError(f"the categorical matrix must be {q} x {q} (categories {names}"
                                  f"{'' if self.category_names is not None else ', sorted'}), got shape "
                                  f"{m.shape}")
            if not np.isfinite(m).all() or (m < 0).any() or np.diagonal(m).any():
                raise ConfigError("the categorical matrix must be finite, >= 0 and 0 on the diagonal")
        elif self.categorical == "absolute":
            m = 1.0 - np.eye(q)
        else:
            if self.categorical == "numeric":
                try:
                    p = np.array([float(c) for c in names])
                except ValueError as err:
                    raise InputError(f"numeric categorical dissimilarity needs numbers as categories ({err}); "
                                     f"use categorical='ordinal' for named categories") from None
            elif self.category_values is not None:
                try:
                    p = np.asarray(self.category_values, dtype=float)
                except (TypeError, ValueError):
                    raise ConfigError(f"category_values must be numbers, got {self.category_values!r}") from None
                if p.shape != (q,):
                    raise ConfigError(f"category_values needs one number per category ({q}: {names}), got "
                                      f"{self.category_values!r}")
            else:
                p = np.arange(q, dtype=float)
            m = np.abs(p[:, None] - p[None, :])
            m = m / max(1.0, float(m.max()) if q else 1.0)
        index = [names.index(c) for c in categories]
        return m[np.ix_(index, index)] * self.delta_empty

    def pairs(self, continuum: Any, i: np.ndarray, j: np.ndarray, cat: np.ndarray | None = None) -> np.ndarray:
        """``d(u_i, u_j)`` for rows ``i`` and ``j`` of ``continuum`` (``cat``: its category matrix, if at hand)."""
        c = continuum
        if cat is None:
            cat = self.category_matrix(c.categories)
        pos = self.positional(c.start[i], c.end[i], c.start[j], c.end[j]) if self.alpha else 0.0
        return self.alpha * pos + self.beta * cat[c.category[i], c.category[j]]


__all__ = ["CATEGORICAL", "Dissimilarity"]
