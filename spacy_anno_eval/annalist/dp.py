"""Order-preserving global alignment of two annotation sequences by dynamic programming.

ANNALIST's DP alignment (Demetriou, Gaizauskas, Sun & Roberts 2008, "ANNALIST:
ANNotation ALIgnment and Scoring Tool", LREC, section 5), a variation of Gotoh
(1982, "An improved algorithm for matching biological sequences", J. Mol. Biol.
162). This module is the generic engine: it knows nothing about annotations;
the caller gives the number of key and response items and a match function.

**Recurrence.** Keys ``1..n``, responses ``1..m``, gap penalty ``P >= 0``::

    S(0, 0) = 0,   S(i, 0) = -i·P,   S(0, j) = -j·P,
    S(i, j) = max( S(i-1, j)   - P        key i to a gap (missing),
                   S(i, j-1)   - P        response j to a gap (spurious),
                   S(i-1, j-1) + M(i, j)  key i with response j )

``M`` is ``match(i, j)``, a vectorised function of two equally long 0-based
index arrays returning float scores (the caller maps correct / partial /
incorrect to numbers; ``-inf`` forbids a pair, e.g. different entity names).
NaN and ``+inf`` are rejected.

**Affine gaps** (Gotoh): ``gap_open`` G_o and ``gap_extend`` G_e; a maximal
run of ``L`` consecutive gaps of the same kind (all missing, or all spurious)
costs ``G_o + (L-1)·G_e``. Three matrices: ``D`` (path ends with a pair),
``X`` (ends with a key gap), ``Y`` (ends with a response gap)::

    D(i, j) = max(D, X, Y)(i-1, j-1) + M(i, j)
    X(i, j) = max(D(i-1, j) - G_o,  X(i-1, j) - G_e,  Y(i-1, j) - G_o)
    Y(i, j) = max(D(i, j-1) - G_o,  X(i, j-1) - G_o,  Y(i, j-1) - G_e)

with ``D(0, 0) = 0`` and every other out-of-matrix value ``-inf``. Both default
to ``gap``; ``G_o == G_e`` runs the single-matrix linear recurrence above,
which gives the same score and the same path.

**Ties** are broken in the traceback, which starts at ``(n, m)`` and at every
cell takes the first optimal move in the order: diagonal (a pair), key gap
(missing), response gap (spurious); the affine matrices choose their
predecessor state in the same order (``D``, ``X``, ``Y``). Reading the path
forwards, among equally scoring alignments pairs are therefore taken as late
as possible, and a missing/spurious couple at the same place comes out as
spurious first, then missing. The result is deterministic.

``ties="early"`` reverses the preference: the traceback takes a gap whenever a
gap is as good as the pair (key gap, then response gap, then the pair; the
affine matrices prefer ``X``, ``Y``, then ``D`` for the best state), so reading
forwards, among equally scoring alignments each pair is taken as early as
possible: a response pairs with the first key (in order of occurrence) that
matches it as well as any later one. ANNALIST's DP uses it (see
:mod:`spacy_anno_eval.annalist.align`, the ``match`` objective).

**Band.** With ``band=b`` only cells with ``|i·m/n - j| <= b`` are computed (a
band around the straight line from ``(0, 0)`` to ``(n, m)``; cells outside
count as ``-inf``), with ``b`` raised to at least ``max(|n - m|, 1)``. That
always contains the two corners and an all-gap path between them (in row
``i`` the band holds an integer ``j`` in ``[(i+1)·m/n - b, i·m/n + b]``, an
interval of length ``2b - m/n >= 1``, or it holds ``j = i + 1`` when
``m = n + 1``), so the score is finite; it is the optimum over the
alignments inside the band, which is the global optimum whenever some optimal
path stays inside. ``band=None``: the full matrix when ``n·m <=``
:data:`FULL_MAX_CELLS` (4e6), otherwise the automatic band
``max(AUTO_BAND, 2·|n - m|)`` with :data:`AUTO_BAND` = 200 (a path must stray
about ``|n - m|`` from the line anyway to put all its surplus gaps in one
place; twice that, or 200 items, is the slack). :attr:`DPAlignment.band`
reports the band used (``None``: full matrix).

**Computation.** Cells with ``i + j = d`` (an anti-diagonal) depend only on the
diagonals ``d-1`` and ``d-2``, so the loop runs over the ``n + m`` diagonals
and each diagonal is one set of numpy operations on its band cells; the band
of a diagonal is a contiguous range of ``i``. ``match`` is called once per
chunk of consecutive diagonals (about :data:`CHUNK_CELLS` cells per call)
with the interior cells' indices. Scores are kept for the last two or three
diagonals only (arrays of length ``n + 2``); the traceback keeps one
``uint8`` per band cell (the linear move, or the three affine predecessor
states packed in 2-bit fields), so memory is linear in the band: about
``2·b·n`` bytes (at most ``n·m``), 4 MB for 10,000 x 10,000 with ``b = 200``.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ..errors import ConfigError

FULL_MAX_CELLS = 4_000_000
"""``band=None`` computes the full matrix up to this many cells (``n·m``)."""
AUTO_BAND = 200
"""Minimum half-width of the automatic band (see the module docstring)."""
CHUNK_CELLS = 1 << 17
"""About this many cells per call of the match function."""

MatchFunction = Callable[[np.ndarray, np.ndarray], np.ndarray]

_NEG = -np.inf
_DECODE = (0, 1, 2, 2)  # 2-bit field -> state 0 (pair / D), 1 (key gap / X), 2 (response gap / Y)
_EARLY_STATE = np.array([1, 2, 0, 0], dtype=np.uint8)  # _choose(X, Y, D) -> the field of that state


@dataclass
class DPAlignment:
    """An optimal monotone alignment, as one row per step of the path, in order.

    ``key_index[s]`` / ``response_index[s]`` are the 0-based items of step
    ``s`` (``-1`` for a gap: a missing key has ``response_index == -1``, a
    spurious response ``key_index == -1``). Every key and every response
    occurs exactly once, both in increasing order. ``score`` is the optimal
    total: the sum of ``match`` over the pairs minus the gap costs. ``band``
    is the band half-width used, or ``None`` when the full matrix was computed.
    """

    key_index: np.ndarray
    response_index: np.ndarray
    score: float
    band: int | None = None


TIES = ("late", "early")
"""Tie-breaking rules of :func:`dp_align` (see the module docstring)."""


def dp_align(n: int, m: int, match: MatchFunction, *, gap: float = 1.0, gap_open: float | None = None,
             gap_extend: float | None = None, band: int | None = None, ties: str = "late") -> DPAlignment:
    """Globally align keys ``0..n-1`` with responses ``0..m-1``, preserving order.

    ``match(i, j)`` takes two int64 arrays of equal length (0-based key and
    response indices) and returns their float match scores (``-inf`` forbids
    a pair). ``gap`` (``P``) is the cost of one missing key or spurious
    response; ``gap_open`` / ``gap_extend`` (default ``gap``) make it affine.
    ``band`` restricts the computed cells (see the module docstring).
    ``ties``: ``"late"`` (pairs as late as possible among equal scores) or
    ``"early"`` (as early as possible; see the module docstring).
    Raises :class:`~spacy_anno_eval.errors.ConfigError` (a ``ValueError``)
    on bad parameters and when ``match`` returns NaN, ``+inf`` or the wrong
    shape.
    """
    n = _count(n, "n", "key")
    m = _count(m, "m", "response")
    gap = _penalty(gap, "gap")
    g_open = gap if gap_open is None else _penalty(gap_open, "gap_open")
    g_ext = gap if gap_extend is None else _penalty(gap_extend, "gap_extend")
    if band is not None:
        band = _band(band)
    if ties not in TIES:
        raise ConfigError(f"ties must be one of {', '.join(TIES)}, got {ties!r}")
    early = ties == "early"

    if n == 0 or m == 0:
        length = n + m
        score = -(g_open + (length - 1) * g_ext) if length else 0.0
        key_index = np.arange(n, dtype=np.int64) if n else np.full(m, -1, dtype=np.int64)
        response_index = np.arange(m, dtype=np.int64) if m else np.full(n, -1, dtype=np.int64)
        return DPAlignment(key_index, response_index, float(score), None)

    if band is None:
        used = None if n * m <= FULL_MAX_CELLS else max(AUTO_BAND, 2 * abs(n - m))
    else:
        used = max(band, abs(n - m), 1)
    lo, hi = _diagonal_ranges(n, m, m if used is None else used)
    if g_open == g_ext:
        score, key_index, response_index = _linear(n, m, match, g_open, lo, hi, early)
    else:
        score, key_index, response_index = _affine(n, m, match, g_open, g_ext, lo, hi, early)
    return DPAlignment(key_index, response_index, score, used)


def _count(value: object, name: str, what: str) -> int:
    try:
        count = operator.index(value)
    except TypeError:
        count = -1
    if count < 0:
        raise ConfigError(f"{name} (the number of {what} items) must be an integer >= 0, got {value!r}")
    return count


def _penalty(value: object, name: str) -> float:
    try:
        penalty = float(value)
    except (TypeError, ValueError):
        penalty = math.nan
    if not (math.isfinite(penalty) and penalty >= 0.0):
        raise ConfigError(f"{name} must be a finite number >= 0 (a penalty, subtracted from the score), "
                          f"got {value!r}")
    return penalty


def _band(value: object) -> int:
    try:
        band = operator.index(value)
    except TypeError:
        band = -1
    if band < 0:
        raise ConfigError(f"band must be an integer >= 0 (half-width of the band of computed cells around "
                          f"the diagonal) or None, got {value!r}")
    return band


def _diagonal_ranges(n: int, m: int, b: int) -> tuple[np.ndarray, np.ndarray]:
    """First and last key index ``i`` of the band cells on each anti-diagonal ``d = i + j``.

    ``|i·m/n - j| <= b`` with ``j = d - i`` is ``(d - b)·n <= i·(n + m) <= (d + b)·n``.
    """
    d = np.arange(n + m + 1, dtype=np.int64)
    lo = -((-(d - b) * n) // (n + m))
    hi = ((d + b) * n) // (n + m)
    lo = np.maximum(lo, np.maximum(d - m, 0))
    hi = np.minimum(hi, np.minimum(d, n))
    return lo, hi


def _match_chunks(match: MatchFunction, lo: np.ndarray, hi: np.ndarray, off: np.ndarray):
    """Yield ``(first diagonal, end diagonal, scores)`` with the match scores of the band cells, -inf on the borders."""
    n_diag = len(lo)
    d0 = 0
    while d0 < n_diag:
        d1 = int(np.searchsorted(off, off[d0] + CHUNK_CELLS, side="right")) - 1
        d1 = min(max(d1, d0 + 1), n_diag)
        counts = hi[d0:d1] - lo[d0:d1] + 1
        diag = np.repeat(np.arange(d0, d1, dtype=np.int64), counts)
        i = np.arange(off[d0], off[d1], dtype=np.int64) - np.repeat(off[d0:d1] - lo[d0:d1], counts)
        j = diag - i
        inner = (i >= 1) & (j >= 1)
        scores = np.full(len(i), _NEG)
        ki, rj = i[inner] - 1, j[inner] - 1
        if len(ki):
            try:
                values = np.broadcast_to(np.asarray(match(ki, rj), dtype=np.float64), ki.shape)
            except ValueError as err:
                raise ConfigError(f"match(i, j) must return one float score per index pair ({len(ki)} here): "
                                  f"{err}") from err
            bad = ~(values < np.inf)
            if bad.any():
                s = int(np.argmax(bad))
                raise ConfigError(f"match(i, j) must return finite scores or -inf; got {values[s]} for key "
                                  f"{ki[s]}, response {rj[s]}")
            scores[inner] = values
        yield d0, d1, scores
        d0 = d1


def _offsets(lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    off = np.zeros(len(lo) + 1, dtype=np.int64)
    np.cumsum(hi - lo + 1, out=off[1:])
    return off


def _linear(n: int, m: int, match: MatchFunction, gap: float, lo_a: np.ndarray, hi_a: np.ndarray,
            early: bool = False):
    """Single-matrix DP; traceback codes: bit 1 response gap, else bit 0 key gap, else pair (``early``: the bits
    are exclusive, and a gap is chosen whenever it ties with the best)."""
    off_a = _offsets(lo_a, hi_a)
    trace = np.zeros(int(off_a[-1]), dtype=np.uint8)
    lo, hi, off = lo_a.tolist(), hi_a.tolist(), off_a.tolist()
    # score buffers of diagonals d, d-1, d-2 (rotating), cell i at position i + 1
    h = [np.full(n + 2, _NEG) for _ in range(3)]
    h[0][1] = 0.0
    chunks = _match_chunks(match, lo_a, hi_a, off_a)
    c_end = 0
    for d in range(1, n + m + 1):
        if d >= c_end:
            c_start, c_end, scores = next(chunks)
            base = off[c_start]
        a, b = lo[d], hi[d]
        cur, p1, p2 = h[d % 3], h[(d - 1) % 3], h[(d - 2) % 3]
        if d >= 3:
            cur[lo[d - 3] + 1:hi[d - 3] + 2] = _NEG
        pair = p2[a:b + 1] + scores[off[d] - base:off[d + 1] - base]
        gaps = p1[a:b + 2] - gap
        key_gap, resp_gap = gaps[:-1], gaps[1:]
        t = trace[off[d]:off[d + 1]]
        if early:
            best = np.maximum(np.maximum(pair, key_gap), resp_gap)
            up = key_gap >= best
            left = ~up & (resp_gap >= best)
            cur[a + 1:b + 2] = best
        else:
            up = key_gap > pair
            best = np.maximum(pair, key_gap)
            left = resp_gap > best
            np.maximum(best, resp_gap, out=cur[a + 1:b + 2])
        np.left_shift(left, 1, out=t, casting="unsafe")
        np.bitwise_or(t, up, out=t)
    score = float(h[(n + m) % 3][n + 1])
    _check_finite(score)

    codes = trace.tobytes()
    keys, resps = [], []
    i, j = n, m
    while i or j:
        d = i + j
        c = codes[off[d] + i - lo[d]]
        if c & 2:
            keys.append(-1)
            resps.append(j - 1)
            j -= 1
        elif c & 1:
            keys.append(i - 1)
            resps.append(-1)
            i -= 1
        else:
            keys.append(i - 1)
            resps.append(j - 1)
            i -= 1
            j -= 1
    return score, np.array(keys[::-1], dtype=np.int64), np.array(resps[::-1], dtype=np.int64)


def _affine(n: int, m: int, match: MatchFunction, g_open: float, g_ext: float, lo_a: np.ndarray,
            hi_a: np.ndarray, early: bool = False):
    """Gotoh's three matrices; traceback code bits 0-1: state of the best of D/X/Y, 2-3: Y's predecessor, 4-5: X's."""
    off_a = _offsets(lo_a, hi_a)
    trace = np.zeros(int(off_a[-1]), dtype=np.uint8)
    lo, hi, off = lo_a.tolist(), hi_a.tolist(), off_a.tolist()
    h = [np.full(n + 2, _NEG) for _ in range(3)]  # max(D, X, Y) on diagonals d, d-1, d-2
    dm = [np.full(n + 2, _NEG) for _ in range(2)]  # D, X, Y on diagonals d, d-1
    xm = [np.full(n + 2, _NEG) for _ in range(2)]
    ym = [np.full(n + 2, _NEG) for _ in range(2)]
    h[0][1] = 0.0
    dm[0][1] = 0.0
    chunks = _match_chunks(match, lo_a, hi_a, off_a)
    c_end = 0
    for d in range(1, n + m + 1):
        if d >= c_end:
            c_start, c_end, scores = next(chunks)
            base = off[c_start]
        a, b = lo[d], hi[d]
        hc, h2 = h[d % 3], h[(d - 2) % 3]
        dc, xc, yc = dm[d % 2], xm[d % 2], ym[d % 2]
        dp, xp, yp = dm[(d - 1) % 2], xm[(d - 1) % 2], ym[(d - 1) % 2]
        if d >= 3:
            hc[lo[d - 3] + 1:hi[d - 3] + 2] = _NEG
        if d >= 2:
            r = slice(lo[d - 2] + 1, hi[d - 2] + 2)
            dc[r] = _NEG
            xc[r] = _NEG
            yc[r] = _NEG
        t = trace[off[d]:off[d + 1]]
        dv = dc[a + 1:b + 2]
        np.add(h2[a:b + 1], scores[off[d] - base:off[d + 1] - base], out=dv)
        d_open = dp[a:b + 2] - g_open
        x_open = xp[a:b + 2] - g_open
        # X: from (i-1, j), position i on diagonal d-1; Y: from (i, j-1), position i + 1
        xd, xx, xy = d_open[:-1], xp[a:b + 1] - g_ext, yp[a:b + 1] - g_open
        yd, yx, yy = d_open[1:], x_open[1:], yp[a + 1:b + 2] - g_ext
        xv, yv = xc[a + 1:b + 2], yc[a + 1:b + 2]
        code = _choose(xd, xx, xy, xv)
        code <<= 2
        code |= _choose(yd, yx, yy, yv)
        code <<= 2
        if early:  # best state: X, then Y, then D on ties; the 2-bit field as _DECODE reads it
            code |= _EARLY_STATE[_choose(xv, yv, dv, hc[a + 1:b + 2])]
        else:
            code |= _choose(dv, xv, yv, hc[a + 1:b + 2])
        t[:] = code
    score = float(h[(n + m) % 3][n + 1])
    _check_finite(score)

    codes = trace.tobytes()
    keys, resps = [], []
    i, j = n, m
    state = _DECODE[codes[off[n + m] + n - lo[n + m]] & 3]
    while i or j:
        d = i + j
        c = codes[off[d] + i - lo[d]]
        if state == 0:
            keys.append(i - 1)
            resps.append(j - 1)
            i -= 1
            j -= 1
            d -= 2
            state = _DECODE[codes[off[d] + i - lo[d]] & 3]
        elif state == 1:
            keys.append(i - 1)
            resps.append(-1)
            i -= 1
            state = _DECODE[(c >> 4) & 3]
        else:
            keys.append(-1)
            resps.append(j - 1)
            j -= 1
            state = _DECODE[(c >> 2) & 3]
    return score, np.array(keys[::-1], dtype=np.int64), np.array(resps[::-1], dtype=np.int64)


def _choose(first: np.ndarray, second: np.ndarray, third: np.ndarray, out: np.ndarray) -> np.ndarray:
    """Write the elementwise max to ``out``; return the 2-bit choice (0, 1, or 2/3 for the third), first wins ties."""
    over_first = second > first
    best = np.maximum(first, second)
    over_best = third > best
    np.maximum(best, third, out=out)
    code = over_best.astype(np.uint8)
    code <<= 1
    code |= over_first
    return code


def _check_finite(score: float) -> None:
    if score == _NEG:  # cannot happen: the band always holds an all-gap path
        raise RuntimeError("internal error: no alignment path inside the band")
