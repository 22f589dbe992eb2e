"""Which labels a system confuses: the key label × response label matrix over the aligned pairs.

Rows are the key's labels, columns the response's, each with a last ``none``
row and column: a missing key counts in (its label, ``none``), a spurious
response in (``none``, its label); the (``none``, ``none``) cell is always 0.
Two readings of "the same annotation" (``overlap``):

- ``"coextensive"``: only pairs with the same offsets count as a (key label,
  response label) cell (the engine's correct and incorrect pairs); a pair that
  only overlaps counts as a missing key and a spurious response, as spaCy's
  and seqeval's exact-match scorers see it;
- ``"any"``: every pair of the alignment counts as a cell, overlapping ones
  too (the engine's partial and overlap pairs).

So in ``"coextensive"`` mode, without significant features, the diagonal is
the correct count and every off-diagonal cell of the label block is a label
error (:mod:`.decisions`). With significant features a same-label pair whose
features differ is on the diagonal too: the matrix is one of labels.
Every row sums to the key annotations of that label, every column to the
response annotations, in both modes. A matrix is a sum (:meth:`SpanConfusion.merge`), so
shards and windows add up.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from ..errors import ConfigError
from .align import CORRECT, INCORRECT, MISSING, OVERLAP, PARTIAL, SPURIOUS

if TYPE_CHECKING:
    from .align import PairTable

#: the readings of "the same annotation"
OVERLAPS = ("coextensive", "any")
#: the name of the row and column of unpaired annotations
NONE = "none"


def check_overlap(overlap: Any) -> str:
    """``overlap`` when it is one of :data:`OVERLAPS`, else :class:`ConfigError` listing them."""
    if overlap not in OVERLAPS:
        raise ConfigError(f"overlap must be one of {', '.join(OVERLAPS)}, got {overlap!r}")
    return overlap


@dataclass(frozen=True)
class SpanConfusion:
    """A label confusion matrix: ``matrix[i, j]`` counts key label ``labels[i]`` against response label
    ``labels[j]``; the last row and column (index ``len(labels)``) are :data:`NONE`."""

    labels: tuple[str, ...]
    matrix: np.ndarray
    overlap: str = "coextensive"

    @classmethod
    def from_pairs(cls, alignment: PairTable, overlap: str = "coextensive") -> SpanConfusion:
        """The matrix of ``alignment``'s pairs under ``overlap`` (see the module)."""
        check_overlap(overlap)
        n = len(alignment.labels)
        status = alignment.status
        klab = np.where(alignment.key_row >= 0, alignment.key_label(), n)
        rlab = np.where(alignment.response_row >= 0, alignment.response_label(), n)
        together = (CORRECT, INCORRECT) if overlap == "coextensive" else (CORRECT, INCORRECT, PARTIAL, OVERLAP)
        paired = np.isin(status, together)
        key_alone = (status == MISSING) | (~paired & np.isin(status, (PARTIAL, OVERLAP)))
        response_alone = (status == SPURIOUS) | (~paired & np.isin(status, (PARTIAL, OVERLAP)))
        rows = np.concatenate([klab[paired], klab[key_alone], np.full(int(response_alone.sum()), n)])
        cols = np.concatenate([rlab[paired], np.full(int(key_alone.sum()), n), rlab[response_alone]])
        size = n + 1
        flat = np.bincount(rows.astype(np.int64) * size + cols.astype(np.int64), minlength=size * size)
        return cls(tuple(alignment.labels), flat.reshape(size, size).astype(np.int64), overlap)

    @property
    def names(self) -> list[str]:
        """The row and column names: the labels, then :data:`NONE`."""
        return [*self.labels, NONE]

    @property
    def row_totals(self) -> np.ndarray:
        """Key annotations per key label (and the spurious responses in the ``none`` row)."""
        return self.matrix.sum(axis=1)

    @property
    def column_totals(self) -> np.ndarray:
        """Response annotations per response label (and the missing keys in the ``none`` column)."""
        return self.matrix.sum(axis=0)

    def cell(self, key: str, response: str) -> int:
        """The count of key label ``key`` against response label ``response`` (:data:`NONE` for unpaired);
        a name that is not a label is a :class:`ConfigError` listing them."""
        names = self.names
        for name in (key, response):
            if name not in names:
                raise ConfigError(f"no label {name!r} in the confusion matrix; its labels are {', '.join(names)}")
        return int(self.matrix[names.index(key), names.index(response)])

    def confusions(self) -> list[tuple[str, str, int]]:
        """The off-diagonal cells that are not 0, as ``(key label, response label, count)``, most frequent
        first (ties in label order)."""
        names = self.names
        size = len(names)
        cells = [(names[i], names[j], int(self.matrix[i, j])) for i in range(size) for j in range(size)
                 if i != j and self.matrix[i, j]]
        return sorted(cells, key=lambda c: -c[2])

    def merge(self, other: SpanConfusion) -> SpanConfusion:
        """The sum of two matrices, over the union of their labels (sorted when they differ); matrices of
        another ``overlap`` do not add up (:class:`ConfigError`)."""
        if not isinstance(other, SpanConfusion):
            raise ConfigError(f"a confusion matrix merges with a confusion matrix, got {type(other).__name__}")
        if other.overlap != self.overlap:
            raise ConfigError(f"cannot merge confusion matrices of overlap {self.overlap!r} and {other.overlap!r}")
        labels = self.labels if self.labels == other.labels else tuple(sorted(set(self.labels) | set(other.labels)))
        size = len(labels) + 1
        out = np.zeros((size, size), dtype=np.int64)
        for part in (self, other):
            where = np.array([labels.index(name) for name in part.labels] + [len(labels)], dtype=np.int64)
            out[np.ix_(where, where)] += part.matrix
        return SpanConfusion(labels, out, self.overlap)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: ``labels`` (with :data:`NONE` last), ``matrix`` (rows key, columns response), the
        totals and ``overlap``."""
        return {"overlap": self.overlap, "labels": self.names, "matrix": self.matrix.tolist(),
                "row_totals": self.row_totals.tolist(), "column_totals": self.column_totals.tolist(),
                "total": int(self.matrix.sum())}


__all__ = ["NONE", "OVERLAPS", "SpanConfusion", "check_overlap"]
