"""A continuum: every annotator's units on one axis (characters, tokens or seconds).

A unit is ``(annotator, start, end, category)`` with ``start < end``. A
:class:`Continuum` holds all units as numpy columns, sorted by annotator,
then ``(start, end, category)`` — the order pygamma-agreement and the DKPro
fixtures number units in (``unit index`` = position within its annotator).
Annotators and categories are integer codes into ``annotators`` and
``categories`` (both sorted, as pygamma sorts them).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..errors import InputError

#: the largest |start| or |end| of a unit. Up to 1e15 (below 2**50) sums and differences of a few positions
#: are exact in a float and the dissimilarities' squares stay finite; beyond, γ would come from rounded or
#: overflowing numbers (an end of 1e300 gave overflow warnings and γ = 0.5)
MAX_OFFSET = 1e15


def offset_problem(value: float) -> str | None:
    """Why ``value`` cannot be a unit's start or end (not finite, or beyond :data:`MAX_OFFSET`); None if it can.

    >>> offset_problem(1e300)
    'is beyond ±1e+15, too large for exact float arithmetic; use coarser units or shift the positions'
    """
    if not math.isfinite(value):
        return "is not a finite number"
    if abs(value) > MAX_OFFSET:
        return f"is beyond ±{MAX_OFFSET:g}, too large for exact float arithmetic; use coarser units or shift " \
               f"the positions"
    return None


def check_offsets(continuum: Continuum, source: str = "") -> Continuum:
    """``continuum``, after checking every start and end with :func:`offset_problem` (a :class:`Continuum`
    made from arrays skips :meth:`Continuum.from_units`' check); raise :class:`InputError` naming the first
    bad unit."""
    if len(continuum):
        bad = ~(np.isfinite(continuum.start) & np.isfinite(continuum.end)) \
            | (np.abs(continuum.start) > MAX_OFFSET) | (np.abs(continuum.end) > MAX_OFFSET)
        if bad.any():
            i = int(np.argmax(bad))
            s, e = float(continuum.start[i]), float(continuum.end[i])
            name, value = ("start", s) if offset_problem(s) else ("end", e)
            raise InputError(f"{source or 'continuum'}: unit {i + 1} of annotator "
                             f"{continuum.annotators[int(continuum.annotator[i])]!r}: {name} {value!r} "
                             f"{offset_problem(value)}")
    return continuum


@dataclass
class Continuum:
    """Units as columns; see the module docstring.

    ``annotator[i]`` indexes ``annotators``, ``category[i]`` indexes
    ``categories``; ``start`` / ``end`` are floats. Rows are sorted by
    (annotator, start, end, category name).
    """

    annotator: np.ndarray
    start: np.ndarray
    end: np.ndarray
    category: np.ndarray
    annotators: list[str]
    categories: list[str]
    #: what a continuum read from a corpus of documents holds (set by the readers of
    #: :mod:`.readers`): ``n_documents``, ``n_compared``, ``left_out`` (document ids), ``not_covered``
    #: (``[{"doc", "sets"}]``: the documents some set has no annotation record for), ``covered`` (documents per
    #: set), ``sets`` (in the order given), ``missing_as_empty``; ``None`` for units without documents (CSV, ...)
    documents: dict[str, Any] | None = field(default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        self.annotator = np.asarray(self.annotator, dtype=np.int64)
        self.start = np.asarray(self.start, dtype=np.float64)
        self.end = np.asarray(self.end, dtype=np.float64)
        self.category = np.asarray(self.category, dtype=np.int64)
        n = len(self.annotator)
        if not (len(self.start) == len(self.end) == len(self.category) == n):
            raise InputError(f"Continuum columns must have the same length: annotator {n}, start "
                             f"{len(self.start)}, end {len(self.end)}, category {len(self.category)}")
        if n:
            cat_rank = np.argsort(np.argsort(np.asarray(self.categories, dtype=object)))
            order = np.lexsort((cat_rank[self.category], self.end, self.start, self.annotator))
            if not np.array_equal(order, np.arange(n)):
                self.annotator, self.start, self.end, self.category = (
                    self.annotator[order], self.start[order], self.end[order], self.category[order])

    @classmethod
    def from_units(cls, units: Iterable[tuple[str, float, float, str]],
                   annotators: Sequence[str] | None = None, source: str = "") -> Continuum:
        """From ``(annotator, start, end, category)`` tuples; ``annotators`` may add annotators without units
        (and fixes nothing else: codes are always sorted names). Raise on ``start >= end``."""
        rows = list(units)
        for k, row in enumerate(rows):
            at = f"{source or 'continuum'}: unit {k + 1}"
            try:
                ann, s, e, _ = row
                start, end = float(s), float(e)
            except (TypeError, ValueError):
                raise InputError(f"{at}: expected (annotator, start, end, category) with numeric start and end, "
                                 f"got {row!r}") from None
            for name, value in (("start", start), ("end", end)):
                if offset_problem(value):
                    raise InputError(f"{at} of annotator {ann!r}: {name} {value!r} {offset_problem(value)}")
            if not start < end:
                raise InputError(f"{at} of annotator {ann!r} has start {s} >= end {e}; a unit needs start < end")
        names = sorted(set(annotators or ()) | {str(r[0]) for r in rows})
        cats = sorted({str(r[3]) for r in rows})
        a_index = {a: i for i, a in enumerate(names)}
        c_index = {c: i for i, c in enumerate(cats)}
        return cls(np.array([a_index[str(r[0])] for r in rows], dtype=np.int64),
                   np.array([float(r[1]) for r in rows]), np.array([float(r[2]) for r in rows]),
                   np.array([c_index[str(r[3])] for r in rows], dtype=np.int64), names, cats)

    def __len__(self) -> int:
        return len(self.annotator)

    @property
    def n_annotators(self) -> int:
        return len(self.annotators)

    def sizes(self) -> np.ndarray:
        """Number of units of each annotator."""
        return np.bincount(self.annotator, minlength=self.n_annotators)

    def offsets(self) -> np.ndarray:
        """Row of each annotator's first unit (length ``n_annotators + 1``)."""
        return np.concatenate([[0], np.cumsum(self.sizes())]).astype(np.int64)

    def mean_units_per_annotator(self) -> float:
        return len(self) / self.n_annotators if self.n_annotators else 0.0

    def units(self) -> list[tuple[str, float, float, str]]:
        """``(annotator, start, end, category)`` tuples in row order."""
        return [(self.annotators[a], s, e, self.categories[c]) for a, s, e, c in
                zip(self.annotator.tolist(), self.start.tolist(), self.end.tolist(), self.category.tolist(),
                    strict=True)]

    def category_names(self) -> np.ndarray:
        return np.asarray(self.categories, dtype=object)[self.category] if len(self) else np.zeros(0, object)

    def to_dict(self) -> dict[str, Any]:
        return {"annotators": list(self.annotators), "categories": list(self.categories),
                "units": [list(u) for u in self.units()]}


__all__ = ["MAX_OFFSET", "Continuum", "check_offsets", "offset_problem"]
