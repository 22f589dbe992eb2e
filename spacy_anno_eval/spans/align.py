"""One-to-one pairing of key and response annotations by character offsets.

Relations between a key ``k`` and a response ``r`` (GATE user guide 10.1.1):
coextensive when ``k.start == r.start and k.end == r.end``; overlapping when
``k.start < r.end and r.start < k.end``; *type-compatible* when the labels are
equal and the key's significant features are subsumed by the response's.

Every pair gets one status:

=============  ===============================================  ==============
status         relation                                         GATE / MUC
=============  ===============================================  ==============
``correct``    coextensive, type-compatible                     Correct / COR
``partial``    overlapping, not coextensive, type-compatible    Partial / PAR
``incorrect``  coextensive, not type-compatible                 M + S / INC
``overlap``    overlapping, not coextensive, not compatible     M + S / MIS+SPU
``missing``    key without a response                           Missing / MIS
``spurious``   response without a key                           Spurious / SPU
=============  ===============================================  ==============

The default pairing (``pairing="optimal"``) chooses, among all one-to-one
pairings, one that maximises lexicographically the number of correct pairs,
then partial, then incorrect, then overlap pairs, then the total number of
overlapping characters. Exact matches are found by hashing; overlapping
candidates by a sorted sweep over the whole corpus at once; only connected
groups of ambiguous candidates go to an assignment solver
(``scipy.optimize.linear_sum_assignment``, Jonker-Volgenant) with integer
weights that encode the lexicographic order exactly (see :func:`_assign`).

Ties break by document order: identical annotations (same offsets and label,
when no significant features are given) pair first, the j-th key copy with
the j-th response copy; then, within each connected group, each key in
document order takes the earliest response (in document order) that still
allows an optimal pairing, and stays unpaired only when no such response
exists. (Groups of more than :data:`TIEBREAK_MAX_EDGES` candidate pairs keep
the solver's own optimal choice, which is deterministic too.)

``min_overlap`` (percent, as nervaluate's ``min_overlap_percentage``): an
overlapping, non-coextensive pair is a candidate only when
``overlap / key_length * 100 >= min_overlap``, with ``overlap`` and
``key_length`` in the units of the offsets. nervaluate counts tokens with
inclusive ends: its ``[s, e]`` is our ``[s, e + 1)``, so its
``e - s + 1`` is our ``end - start`` and its overlap
``min(e) - max(s) + 1`` is our ``min(end) - max(start)``; on token offsets the
two percentages are the same number (computed with the same floating-point
expression). On character offsets the percentage is one of characters,
including the spaces inside the spans. ``0`` (the default) keeps every
overlapping pair; nervaluate's default is ``1`` (which, unlike 0, drops a
one-token overlap with a key of more than 100 tokens). A pair below the
threshold is no candidate: its key may stay missing and its response spurious.

``pairing="gate"`` reproduces GATE's AnnotationDiffer choice instead (see
:mod:`spacy_anno_eval.spans.gate`).
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..annotations.table import INDEX, SpanTable, name_list
from ..errors import ConfigError, FeatureTypeWarning
from .settings import PAIRINGS, check_min_overlap

CORRECT, PARTIAL, INCORRECT, OVERLAP, MISSING, SPURIOUS = range(6)
STATUS_NAMES = ("correct", "partial", "incorrect", "overlap", "missing", "spurious")


@dataclass
class PairTable:
    """The pairs of one key/response comparison over a corpus.

    ``key`` and ``response`` share one label vocabulary ``labels``.
    Row ``i`` of the pair columns: ``key_row[i]`` / ``response_row[i]`` index
    the tables (``-1`` when absent), ``status[i]`` is one of the codes above,
    ``doc[i]`` the document.
    """

    key: SpanTable
    response: SpanTable
    labels: list[str]
    doc: np.ndarray
    key_row: np.ndarray
    response_row: np.ndarray
    status: np.ndarray

    def __len__(self) -> int:
        return len(self.status)

    def key_label(self) -> np.ndarray:
        """Label id of each pair's key (-1 for spurious rows)."""
        out = np.full(len(self), -1, dtype=INDEX)
        has = self.key_row >= 0
        out[has] = self.key.label[self.key_row[has]]
        return out

    def response_label(self) -> np.ndarray:
        """Label id of each pair's response (-1 for missing rows)."""
        out = np.full(len(self), -1, dtype=INDEX)
        has = self.response_row >= 0
        out[has] = self.response.label[self.response_row[has]]
        return out


def relabel(table: SpanTable, labels: Sequence[str]) -> SpanTable:
    """The same annotations with label ids into the vocabulary ``labels``."""
    index = {name: i for i, name in enumerate(labels)}
    mapping = np.array([index[name] for name in table.labels], dtype=INDEX)
    label = mapping[table.label] if len(table) else table.label
    return SpanTable(table.doc, table.start, table.end, label, list(labels), table.features)


def select_types(table: SpanTable, types: Sequence[str] | None) -> SpanTable:
    """Keep only the annotations whose label is in ``types`` (all when None; a string is one type)."""
    types = name_list(types, "types")
    if not types:
        return table
    wanted = set(types)
    keep_ids = np.array([i for i, name in enumerate(table.labels) if name in wanted], dtype=INDEX)
    keep = np.isin(table.label, keep_ids)
    if keep.all():
        return table
    feats = [f for f, k in zip(table.features, keep, strict=True) if k] if table.features else None
    return SpanTable(table.doc[keep], table.start[keep], table.end[keep], table.label[keep],
                     table.labels, feats)


def align_spans(key: SpanTable, response: SpanTable, *, features: Sequence[str] | None = None,
                pairing: str = "optimal", min_overlap: float = 0.0) -> PairTable:
    """Pair key and response annotations one-to-one within each document.

    ``features`` names the significant features (GATE); ``None`` or empty
    means labels and offsets alone decide. ``min_overlap`` (0-100, percent of
    the key's length) is the least overlap of a non-coextensive pair. See the
    module docstring for the statuses, the objective and ``min_overlap``.
    """
    for what, table in (("key", key), ("response", response)):
        if not isinstance(table, SpanTable):
            raise ConfigError(f"align_spans: the {what} must be a SpanTable (Corpus.get_set gives one), got "
                              f"{type(table).__name__}")
    if pairing not in PAIRINGS:
        raise ConfigError(f"unknown pairing {pairing!r}: use one of {', '.join(PAIRINGS)}")
    min_overlap = check_min_overlap(min_overlap)
    labels = sorted(set(key.labels) | set(response.labels))
    key = relabel(key, labels)
    response = relabel(response, labels)
    features = name_list(features, "features") or []
    use_features = bool(features) and (key.features is not None or response.features is not None)
    compat = _FeatureCheck(key, response, features) if use_features else None

    if pairing == "gate":
        kr, rr = _gate_pairs(key, response, features if use_features else None, min_overlap)
    else:
        kr, rr = _optimal_pairs(key, response, compat, min_overlap)
    return _assemble(key, response, labels, kr, rr, compat)


def sufficient_overlap(key: SpanTable, response: SpanTable, kr: np.ndarray, rr: np.ndarray,
                       min_overlap: float) -> np.ndarray:
    """Whether each overlapping pair meets ``min_overlap`` (coextensive pairs always do).

    ``(overlap / key_length) * 100.0 >= min_overlap``, the expression of
    nervaluate's ``_calculate_overlap_percentage`` on inclusive token ends
    (see the module docstring for the offset mapping).
    """
    if min_overlap <= 0 or not len(kr):
        return np.ones(len(kr), dtype=bool)
    ks, ke, rs, re_ = key.start[kr], key.end[kr], response.start[rr], response.end[rr]
    overlap = np.minimum(ke, re_) - np.maximum(ks, rs)
    pct = (overlap / (ke - ks)) * 100.0
    return ((ks == rs) & (ke == re_)) | (pct >= min_overlap)


# ---------------------------------------------------------------------------
# statuses


class _FeatureCheck:
    """GATE subsumption of significant features for candidate pairs."""

    def __init__(self, key: SpanTable, response: SpanTable, names: Sequence[str]) -> None:
        from .gate import features_compatible, type_only_mismatch

        self.kf = key.features or [{}] * len(key)
        self.rf = response.features or [{}] * len(response)
        self.names = list(names)
        self._compatible = features_compatible
        self._type_only = type_only_mismatch

    def __call__(self, kr: np.ndarray, rr: np.ndarray) -> np.ndarray:
        kf, rf, names = self.kf, self.rf, self.names
        ok = np.fromiter((self._compatible(kf[k], rf[r], names) for k, r in zip(kr, rr, strict=True)),
                         dtype=bool, count=len(kr))
        return ok

    def warn_type_only(self, kr: np.ndarray, rr: np.ndarray) -> None:
        n = sum(self._type_only(self.kf[k], self.rf[r], self.names) for k, r in zip(kr, rr, strict=True))
        if n:
            warnings.warn(
                f"{n} feature mismatch(es) differ only by value type (e.g. '5' vs 5); values compare "
                f"by type and value as in GATE, so these pairs do not match. Convert the features to "
                f"one type if they should.", FeatureTypeWarning, stacklevel=3)


def _classify(key: SpanTable, response: SpanTable, kr: np.ndarray, rr: np.ndarray,
              compat: _FeatureCheck | None) -> np.ndarray:
    """Status code of each candidate pair (kr[i], rr[i]); they must overlap."""
    coext = (key.start[kr] == response.start[rr]) & (key.end[kr] == response.end[rr])
    typed = key.label[kr] == response.label[rr]
    if compat is not None and len(kr):
        typed &= compat(kr, rr)
    status = np.where(coext, np.where(typed, CORRECT, INCORRECT), np.where(typed, PARTIAL, OVERLAP))
    return status.astype(np.int8)


def _assemble(key: SpanTable, response: SpanTable, labels: list[str], kr: np.ndarray, rr: np.ndarray,
              compat: _FeatureCheck | None) -> PairTable:
    status = _classify(key, response, kr, rr, compat)
    if compat is not None:
        # feature mismatches of same-label pairs (coextensive or overlapping)
        same = ((status == INCORRECT) | (status == OVERLAP)) & (key.label[kr] == response.label[rr])
        compat.warn_type_only(kr[same], rr[same])
    missing = np.setdiff1d(np.arange(len(key), dtype=INDEX), kr, assume_unique=True)
    spurious = np.setdiff1d(np.arange(len(response), dtype=INDEX), rr, assume_unique=True)
    doc = np.concatenate([key.doc[kr], key.doc[missing], response.doc[spurious]])
    key_row = np.concatenate([kr, missing, np.full(len(spurious), -1, INDEX)])
    resp_row = np.concatenate([rr, np.full(len(missing), -1, INDEX), spurious])
    codes = np.concatenate([status, np.full(len(missing), MISSING, np.int8),
                            np.full(len(spurious), SPURIOUS, np.int8)])
    # document order: by doc, then by the first offset of the pair
    first = np.where(key_row >= 0, key.start[np.maximum(key_row, 0)] if len(key) else 0,
                     response.start[np.maximum(resp_row, 0)] if len(response) else 0)
    order = _document_order(doc, first, key_row, resp_row)
    return PairTable(key, response, labels, doc[order], key_row[order], resp_row[order], codes[order])


def _document_order(doc: np.ndarray, first: np.ndarray, key_row: np.ndarray, resp_row: np.ndarray) -> np.ndarray:
    """The permutation that sorts pairs by (doc, first offset, key row, response row).

    Equal to ``np.lexsort((resp_row, key_row, first, doc))`` (a spurious row,
    key row -1, comes before a keyed row at the same offset); computed as one
    argsort of a unique int64 code when it fits, which is ~10x faster.
    """
    if not len(doc):
        return np.zeros(0, dtype=INDEX)
    has_key = (key_row >= 0).astype(INDEX)
    width = int(max(key_row.max(), resp_row.max())) + 1
    stride = int(first.max()) + 1
    if (int(doc.max()) + 1) * stride * 2 * width >= 2**62:
        return np.lexsort((resp_row, key_row, first, doc))
    code = ((doc * stride + first) * 2 + has_key) * width + np.where(has_key == 1, key_row, resp_row)
    return np.argsort(code, kind="stable")


# ---------------------------------------------------------------------------
# optimal pairing


def _optimal_pairs(key: SpanTable, response: SpanTable, compat: _FeatureCheck | None,
                   min_overlap: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    if compat is None:
        ek, er = _exact_pairs(key, response)
    else:
        ek = er = np.zeros(0, dtype=INDEX)
    free_k = np.setdiff1d(np.arange(len(key), dtype=INDEX), ek, assume_unique=True)
    free_r = np.setdiff1d(np.arange(len(response), dtype=INDEX), er, assume_unique=True)
    ck, cr = overlap_candidates(key, response, free_k, free_r)
    if min_overlap > 0 and len(ck):
        keep = sufficient_overlap(key, response, ck, cr, min_overlap)
        ck, cr = ck[keep], cr[keep]
    if not len(ck):
        return ek, er
    status = _classify(key, response, ck, cr, compat)
    ok, orr = _solve_candidates(key, response, ck, cr, status)
    return np.concatenate([ek, ok]), np.concatenate([er, orr])


def _exact_pairs(key: SpanTable, response: SpanTable) -> tuple[np.ndarray, np.ndarray]:
    """Pairs of identical (doc, start, end, label) rows; the j-th duplicate of a
    key pairs with the j-th duplicate of the response."""
    if not len(key) or not len(response):
        z = np.zeros(0, dtype=INDEX)
        return z, z
    code_k, code_r = _row_codes(key, response)
    # occurrence number among equal rows, so duplicates pair in order
    rank_k, rank_r = _rank_within(code_k), _rank_within(code_r)
    width = int(max(rank_k.max(), rank_r.max())) + 1
    if width > 1:
        code_k, code_r = code_k * width + rank_k, code_r * width + rank_r
    _, ik, ir = np.intersect1d(code_k, code_r, assume_unique=True, return_indices=True)
    return ik.astype(INDEX), ir.astype(INDEX)


def _row_codes(key: SpanTable, response: SpanTable) -> tuple[np.ndarray, np.ndarray]:
    """One integer per row such that equal (doc, start, end, label) rows get equal codes.

    A mixed-radix number when it fits in 62 bits, else dense ids from ``np.unique``.
    """
    n_end = int(max(key.end.max(), response.end.max())) + 1
    n_lab = max(len(key.labels), 1)
    n_doc = int(max(key.doc.max(), response.doc.max())) + 1
    if n_doc * n_end * n_end * n_lab * (len(key) + len(response) + 1) < 2**62:
        def code(t: SpanTable) -> np.ndarray:
            return ((t.doc * n_end + t.start) * n_end + t.end) * n_lab + t.label
        return code(key), code(response)
    rows = np.concatenate([np.stack([t.doc, t.start, t.end, t.label], axis=1) for t in (key, response)])
    _, group = np.unique(rows, axis=0, return_inverse=True)
    group = group.reshape(-1).astype(INDEX)
    return group[:len(key)], group[len(key):]


def _rank_within(codes: np.ndarray) -> np.ndarray:
    """Occurrence number of each element among equal codes (0, 1, ...), in order."""
    order = np.argsort(codes, kind="stable")
    sorted_c = codes[order]
    new_run = np.r_[True, sorted_c[1:] != sorted_c[:-1]]
    if new_run.all():
        return np.zeros(len(codes), dtype=INDEX)
    starts = np.flatnonzero(new_run)
    first = np.repeat(starts, np.diff(np.r_[starts, len(sorted_c)]))
    rank = np.empty(len(codes), dtype=INDEX)
    rank[order] = np.arange(len(codes)) - first
    return rank


def overlap_candidates(key: SpanTable, response: SpanTable, rows_k: np.ndarray | None = None,
                       rows_r: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Every (key row, response row) pair of the same document whose spans overlap.

    A sorted sweep over the corpus: responses are ordered by (doc, start); for a
    key, candidates start before ``key.end`` and after ``key.start - Lmax``
    (``Lmax`` the longest response), found by binary search, then filtered on
    ``response.end > key.start``.
    """
    rows_k = np.arange(len(key), dtype=INDEX) if rows_k is None else rows_k
    rows_r = np.arange(len(response), dtype=INDEX) if rows_r is None else rows_r
    z = np.zeros(0, dtype=INDEX)
    if not len(rows_k) or not len(rows_r):
        return z, z
    stride = int(max(key.end[rows_k].max(), response.end[rows_r].max())) + 1
    r_start = response.start[rows_r]
    r_pos = response.doc[rows_r] * stride + r_start  # rows_r are in (doc, start) order
    lmax = int((response.end[rows_r] - r_start).max())
    k_doc, k_start, k_end = key.doc[rows_k], key.start[rows_k], key.end[rows_k]
    hi = np.searchsorted(r_pos, k_doc * stride + k_end, side="left")
    lo = np.searchsorted(r_pos, k_doc * stride + np.maximum(k_start - lmax + 1, 0), side="left")
    counts = np.maximum(hi - lo, 0)
    total = int(counts.sum())
    if not total:
        return z, z
    ki = np.repeat(np.arange(len(rows_k), dtype=INDEX), counts)
    offsets = np.arange(total, dtype=INDEX) - np.repeat(np.cumsum(counts) - counts, counts)
    ri = np.repeat(lo, counts) + offsets
    ck, cr = rows_k[ki], rows_r[ri]
    keep = response.end[cr] > key.start[ck]
    return ck[keep], cr[keep]


_WEIGHT_RANK = {CORRECT: 4, PARTIAL: 3, INCORRECT: 2, OVERLAP: 1}
#: groups with more candidate pairs keep the solver's choice among optimal pairings
TIEBREAK_MAX_EDGES = 256
_EXACT_LIMIT = 2**50  # integer weights whose sums stay exact in float64


def _solve_candidates(key: SpanTable, response: SpanTable, ck: np.ndarray, cr: np.ndarray,
                      status: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Maximum-weight one-to-one choice among candidate pairs.

    Connected groups with a single candidate pair are taken as they are (the
    common case); larger groups are solved exactly by
    ``linear_sum_assignment`` with lexicographic weights.
    """
    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import connected_components

    uk, ik = np.unique(ck, return_inverse=True)
    ur, ir = np.unique(cr, return_inverse=True)
    nk, nr = len(uk), len(ur)
    graph = coo_matrix((np.ones(len(ck)), (ik, nk + ir)), shape=(nk + nr, nk + nr))
    _, comp = connected_components(graph, directed=False)
    edge_comp = comp[ik]
    edges_per_comp = np.bincount(edge_comp, minlength=comp.max() + 1)
    single = edges_per_comp[edge_comp] == 1
    out_k = [ck[single]]
    out_r = [cr[single]]
    multi = np.flatnonzero(~single)
    if len(multi):
        overlap = (np.minimum(key.end[ck], response.end[cr]) - np.maximum(key.start[ck], response.start[cr]))
        order = multi[np.argsort(edge_comp[multi], kind="stable")]
        bounds = np.flatnonzero(np.diff(edge_comp[order])) + 1
        for group in np.split(order, bounds):
            gk, gr = _assign(ik[group], ir[group], status[group], overlap[group])
            out_k.append(uk[gk])
            out_r.append(ur[gr])
    return np.concatenate(out_k).astype(INDEX), np.concatenate(out_r).astype(INDEX)


def _assign(ik: np.ndarray, ir: np.ndarray, status: np.ndarray,
            overlap: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The optimal one-to-one choice within one connected group of candidates.

    With ``m = min(#keys, #responses) + 1`` (so a pairing has at most
    ``m - 1`` pairs, and each count is below ``m``) and
    ``B = (m - 1) * max_overlap + 1`` (above the total overlap of any
    pairing), a candidate of status rank ``q`` (correct 4, partial 3,
    incorrect 2, overlap 1) weighs ``m**(q - 1) * B + overlap``. The total
    weight of a pairing is then the number
    ``((((C*m + Pa)*m + INC)*m + OV) * B + total_overlap`` with every digit
    below its base, so comparing totals compares (C, Pa, INC, OV, overlap)
    lexicographically. The weights are integers; while ``m**4 * B < 2**50``
    every sum is exact in float64, the solver's number type. Beyond that
    (huge groups) the overlap term is scaled below 1 and may lose precision.
    """
    from scipy.optimize import linear_sum_assignment

    rows, row_of = np.unique(ik, return_inverse=True)
    cols, col_of = np.unique(ir, return_inverse=True)
    m = min(len(rows), len(cols)) + 1
    rank = np.vectorize(_WEIGHT_RANK.get, otypes=[np.int64])(status)
    ov = np.asarray(overlap, dtype=np.int64)
    base = (m - 1) * int(ov.max()) + 1
    exact = m**4 * base < _EXACT_LIMIT
    weight = np.zeros((len(rows), len(cols)))
    if exact:
        weight[row_of, col_of] = (np.int64(m) ** (rank - 1) * base + ov).astype(float)
    else:
        weight[row_of, col_of] = np.float64(m) ** (rank - 1) + ov / (float(ov.max()) * m + 1.0)
    r, c = linear_sum_assignment(weight, maximize=True)
    keep = weight[r, c] > 0
    r, c = r[keep], c[keep]
    if exact and len(ik) <= TIEBREAK_MAX_EDGES:
        best = float(weight[r, c].sum())
        fr, fc = _first_in_document_order(weight, best)
        if float(weight[fr, fc].sum()) == best:  # always so with exact weights; else keep the solver's choice
            r, c = fr, fc
    return rows[r], cols[c]


def _best_total(weight: np.ndarray) -> float:
    from scipy.optimize import linear_sum_assignment

    if not weight.size:
        return 0.0
    r, c = linear_sum_assignment(weight, maximize=True)
    return float(weight[r, c].sum())


def _first_in_document_order(weight: np.ndarray, best: float) -> tuple[np.ndarray, np.ndarray]:
    """Among the pairings of total ``best``, the first in document order.

    Rows (keys) and columns (responses) are in document order. Each row in
    turn takes the first column that still allows a total of ``best`` (the
    remaining rows and columns re-solved without them), else stays unpaired.
    Exact because the weights are integers below 2**50.
    """
    n_rows, n_cols = weight.shape
    free_rows = list(range(n_rows))
    free_cols = list(range(n_cols))
    out_r: list[int] = []
    out_c: list[int] = []
    remaining = best
    for row in range(n_rows):
        free_rows.remove(row)
        sub_rows = np.array(free_rows, dtype=np.int64)
        for col in free_cols:
            w = weight[row, col]
            if w <= 0:
                continue
            others = [x for x in free_cols if x != col]
            rest = _best_total(weight[np.ix_(sub_rows, np.array(others, dtype=np.int64))])
            if w + rest == remaining:
                out_r.append(row)
                out_c.append(col)
                free_cols = others
                remaining -= w
                break
    return np.array(out_r, dtype=np.int64), np.array(out_c, dtype=np.int64)


# ---------------------------------------------------------------------------
# GATE pairing


def _gate_pairs(key: SpanTable, response: SpanTable, features: Sequence[str] | None,
                min_overlap: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    from .gate import gate_pairs

    docs = np.union1d(key.doc, response.doc)
    out_k: list[int] = []
    out_r: list[int] = []
    kf = key.features or [{}] * len(key)
    rf = response.features or [{}] * len(response)
    for d in docs:
        krows, rrows = key.rows(int(d)), response.rows(int(d))
        ks = [(int(key.start[i]), int(key.end[i]), key.labels[key.label[i]], kf[i]) for i in krows]
        rs = [(int(response.start[i]), int(response.end[i]), response.labels[response.label[i]], rf[i])
              for i in rrows]
        for ki, ri, _ in gate_pairs(ks, rs, features, min_overlap=min_overlap):
            out_k.append(krows[ki])
            out_r.append(rrows[ri])
    return np.array(out_k, dtype=INDEX), np.array(out_r, dtype=INDEX)
