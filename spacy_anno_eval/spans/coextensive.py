"""One-to-one pairing of two annotation sets by identical offsets (GATE's IAA plugin, measure ``kappa``).

For agreement coefficients on spans (GATE user guide 10.5), two annotators'
annotations are the same *item* when they are coextensive (same document,
same ``start`` and ``end``) and of the same group (the annotation type). Each
item is then classified by both annotators; an annotation that only one of
them made is an item the other left unclassified (GATE's ``Non-cat``).

Several coextensive annotations of one group on both sides pair one-to-one:
first those with the same category (the j-th copy with the j-th copy, in
table order), then the rest in table order. The result is deterministic and
pairs as many equal categories as possible within each span.

Everything runs on whole columns with numpy: rows get an integer code per
``(doc, start, end, group[, category])`` and a rank among equal codes, and
``(code, rank)`` keys are intersected.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..annotations.table import INDEX, SpanTable


@dataclass
class CoextensivePairs:
    """Pairs of rows of tables ``a`` and ``b``: ``a_row[i]`` / ``b_row[i]`` (``-1`` when that side made no
    annotation there), ``doc[i]`` the document. Paired rows come first, then a-only, then b-only rows."""

    doc: np.ndarray
    a_row: np.ndarray
    b_row: np.ndarray

    def __len__(self) -> int:
        return len(self.doc)

    def take(self, values_a: np.ndarray, values_b: np.ndarray, missing: int) -> tuple[np.ndarray, np.ndarray]:
        """Each pair's value on either side: ``values_a[a_row]`` and ``values_b[b_row]`` (one value per row of
        ``a`` / ``b``), ``missing`` where that side made no annotation."""
        def side(values: np.ndarray, rows: np.ndarray) -> np.ndarray:
            values = np.asarray(values, dtype=np.int64)
            found = values[np.maximum(rows, 0)] if len(values) else np.zeros(len(rows), dtype=np.int64)
            return np.where(rows >= 0, found, missing).astype(np.int64)

        return side(values_a, self.a_row), side(values_b, self.b_row)


def _codes(columns_a: list[np.ndarray], columns_b: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """An integer code per row, equal for rows equal in every column, shared by both sides."""
    na = len(columns_a[0])
    stacked = np.stack([np.concatenate([x, y]).astype(INDEX) for x, y in zip(columns_a, columns_b, strict=True)],
                       axis=1)
    if not len(stacked):
        z = np.zeros(0, dtype=INDEX)
        return z, z.copy()
    _, inverse = np.unique(stacked, axis=0, return_inverse=True)
    inverse = inverse.reshape(-1).astype(INDEX)
    return inverse[:na], inverse[na:]


def _ranked(codes: np.ndarray, n: int) -> np.ndarray:
    """``code * n + rank``: the rank of each row among rows with the same code (in row order); ``n`` must
    exceed every rank (the same ``n`` for both sides)."""
    order = np.argsort(codes, kind="stable")
    sorted_codes = codes[order]
    first = np.searchsorted(sorted_codes, sorted_codes, side="left")
    rank = np.empty(len(codes), dtype=INDEX)
    rank[order] = np.arange(len(codes), dtype=INDEX) - first
    return codes * n + rank


def _match(a_rows: np.ndarray, b_rows: np.ndarray, a_cols: list[np.ndarray],
           b_cols: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """Pair rows ``a_rows`` with rows ``b_rows`` whose columns are equal, copy by copy."""
    ca, cb = _codes([c[a_rows] for c in a_cols], [c[b_rows] for c in b_cols])
    n = len(ca) + len(cb) + 1
    _, ia, ib = np.intersect1d(_ranked(ca, n), _ranked(cb, n), assume_unique=True, return_indices=True)
    return a_rows[ia], b_rows[ib]


def pair_coextensive(a: SpanTable, b: SpanTable, group_a: np.ndarray, group_b: np.ndarray,
                     category_a: np.ndarray | None = None,
                     category_b: np.ndarray | None = None) -> CoextensivePairs:
    """Pair the rows of ``a`` and ``b`` that have the same document, offsets and group.

    ``group_*`` (one integer per row, shared vocabulary; ``-1`` leaves a row
    out) is usually the type; ``category_*`` (optional, shared vocabulary)
    makes equal categories pair first within a span.
    """
    group_a, group_b = np.asarray(group_a, dtype=INDEX), np.asarray(group_b, dtype=INDEX)
    rows_a, rows_b = np.flatnonzero(group_a >= 0), np.flatnonzero(group_b >= 0)
    base_a = [a.doc, a.start, a.end, group_a]
    base_b = [b.doc, b.start, b.end, group_b]
    done_a, done_b = [], []
    if category_a is not None and category_b is not None:
        pa, pb = _match(rows_a, rows_b, base_a + [np.asarray(category_a, dtype=INDEX)],
                        base_b + [np.asarray(category_b, dtype=INDEX)])
        done_a.append(pa)
        done_b.append(pb)
        rows_a, rows_b = np.setdiff1d(rows_a, pa), np.setdiff1d(rows_b, pb)
    pa, pb = _match(rows_a, rows_b, base_a, base_b)
    done_a.append(pa)
    done_b.append(pb)
    only_a, only_b = np.setdiff1d(rows_a, pa), np.setdiff1d(rows_b, pb)
    paired_a, paired_b = np.concatenate(done_a), np.concatenate(done_b)
    none_a = np.full(len(only_b), -1, dtype=INDEX)
    none_b = np.full(len(only_a), -1, dtype=INDEX)
    a_row = np.concatenate([paired_a, only_a, none_a]).astype(INDEX)
    b_row = np.concatenate([paired_b, none_b, only_b]).astype(INDEX)
    doc = np.where(a_row >= 0, a.doc[np.maximum(a_row, 0)] if len(a) else -1,
                   b.doc[np.maximum(b_row, 0)] if len(b) else -1).astype(INDEX)
    return CoextensivePairs(doc, a_row, b_row)


__all__ = ["CoextensivePairs", "pair_coextensive"]
