"""The best alignment of a continuum: the partition of its units into unitary alignments of least disorder.

Mathet, Widlöcher & Métivier (2015), "The unified and holistic method gamma
(γ) for inter-annotator agreement measure and alignment", Computational
Linguistics 41(3), section 4.3. A *unitary alignment* holds at most one unit
of each of the ``n`` annotators (an absent annotator contributes the empty
unit ∅); its disorder is the mean dissimilarity over the ``C2 = n(n-1)/2``
annotator pairs::

    δ(ă) = (Σ_{real pairs} d(u, v) + (C2 - C(k, 2)) Δ∅) / C2      (k real units)

An alignment partitions the units into unitary alignments; its disorder is
``Σ δ(ă) / (number of units / n)`` (the mean number of units per annotator),
and the best alignment minimises it (pygamma-agreement's convention).

**Exact and fast.** A unit alone costs Δ∅, so a unitary alignment ă with
``k >= 2`` units can only be part of a best alignment (or be replaced without
loss by its units alone) when its *saving* ``k Δ∅ - δ(ă)`` is positive, that
is when ``Σ_{real pairs} d < B(k) = ((k - 1) C2 + C(k, 2)) Δ∅``. Every pair
inside such an ă then has ``d < B(n)``, which bounds how far apart (relative
to their lengths) two units may be: candidate pairs come from a sorted sweep
per annotator pair, never from all pairs. The best alignment is the
maximum-saving packing of the candidate unitary alignments (a weighted set
packing; the units left out stand alone):

- two annotators: an assignment problem with weights ``d - 2Δ∅``, solved
  exactly per connected component (``scipy.optimize.linear_sum_assignment``);
- more: the candidates are the cliques of the candidate-pair graph (one unit
  per annotator); those that share no unit with another are taken outright;
  the rest is a weighted set packing solved exactly with HiGHS: a binary
  program (``scipy.optimize.milp``, zero gap) when small; else its linear
  relaxation first (``scipy.optimize.linprog``), whose integral components are
  optimal as they stand, then each component left fractional on its own.

Ties: a unitary alignment whose saving is exactly 0 (grouping its units
costs what leaving them alone costs) is a candidate too, as in
pygamma-agreement; after the optimal packing, such candidates whose units
were all left alone are added (in document order), so that equal disorder
prefers grouping. Among alignments of equal disorder that differ otherwise,
the choice is the solver's (deterministic for a given input). The solver
runs with a zero optimality gap.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import ConfigError, InputError
from .continuum import Continuum
from .dissimilarity import Dissimilarity

#: savings within this (relative to Δ∅) of 0 are ties; also the bonus of a grouped unitary alignment
_TOL = 1e-9
#: the most candidate pairs to examine when alpha = 0 (no positional pruning)
MAX_PAIRS = 50_000_000


@dataclass
class Alignment:
    """A partition of a continuum's units into unitary alignments.

    ``tuples[t, a]`` is the row (in the continuum) of annotator ``a``'s unit
    in unitary alignment ``t``, or ``-1`` for the empty unit;
    ``disorders[t]`` its disorder δ.
    """

    continuum: Continuum
    tuples: np.ndarray
    disorders: np.ndarray

    @property
    def disorder(self) -> float:
        """``Σ δ / (units / annotators)``."""
        mean = self.continuum.mean_units_per_annotator()
        return float(self.disorders.sum() / mean) if mean else 0.0

    def __len__(self) -> int:
        return len(self.tuples)

    def to_rows(self) -> list[dict[str, Any]]:
        """One dict per unitary alignment: ``disorder`` and, per annotator, its unit ``[start, end, category]``
        or ``None``."""
        c = self.continuum
        rows = []
        for t, tup in enumerate(self.tuples.tolist()):
            units = {c.annotators[a]: (None if r < 0 else [float(c.start[r]), float(c.end[r]),
                                                           c.categories[int(c.category[r])]])
                     for a, r in enumerate(tup)}
            rows.append({"disorder": float(self.disorders[t]), "units": units})
        return rows


@dataclass
class CandidatePairs:
    """Pairs of units of different annotators with ``d < B(n)``: rows ``i < j`` and their dissimilarity."""

    i: np.ndarray
    j: np.ndarray
    d: np.ndarray


def saving_bound(n: int, k: int, delta_empty: float) -> float:
    """``B(k)``: a unitary alignment of ``k`` real units saves something only when its real pairs sum below it."""
    c2 = n * (n - 1) / 2
    return ((k - 1) * c2 + k * (k - 1) / 2) * delta_empty


def candidate_pairs(continuum: Continuum, dissim: Dissimilarity, bound: float) -> CandidatePairs:
    """Every pair of units of different annotators with ``d < bound``.

    With ``α > 0``: ``d >= α d_pos`` and ``|s_u - s_v| <= sqrt(d_pos / Δ∅) (L_u + L_v)``, so for each unit
    ``u`` only the units ``v`` of another annotator whose start lies within
    ``r (L_u + max L_v)`` of ``s_u`` (``r = sqrt(bound / (α Δ∅))``) are examined.
    """
    c = continuum
    offsets = c.offsets()
    lengths = c.end - c.start
    cat = dissim.category_matrix(c.categories)
    out_i, out_j = [], []
    for a in range(c.n_annotators):
        for b in range(a + 1, c.n_annotators):
            ra = np.arange(offsets[a], offsets[a + 1])
            rb = np.arange(offsets[b], offsets[b + 1])
            if not len(ra) or not len(rb):
                continue
            if dissim.alpha > 0:
                r = np.sqrt(bound / (dissim.alpha * dissim.delta_empty))
                width = r * (lengths[ra] + lengths[rb].max())
                starts_b = c.start[rb]  # sorted within an annotator
                lo = np.searchsorted(starts_b, c.start[ra] - width, side="left")
                hi = np.searchsorted(starts_b, c.start[ra] + width, side="right")
            else:
                if len(ra) * len(rb) > MAX_PAIRS:
                    raise ConfigError(f"alpha = 0 leaves no positional pruning: {len(ra)} x {len(rb)} unit "
                                      f"pairs between two annotators is too many (at most {MAX_PAIRS}); use "
                                      f"alpha > 0")
                lo = np.zeros(len(ra), dtype=np.int64)
                hi = np.full(len(ra), len(rb), dtype=np.int64)
            counts = hi - lo
            total = int(counts.sum())
            if not total:
                continue
            ii = np.repeat(ra, counts)
            first = np.repeat(lo - np.concatenate([[0], np.cumsum(counts)[:-1]]), counts)
            jj = rb[first + np.arange(total)]
            out_i.append(ii)
            out_j.append(jj)
    if not out_i:
        z = np.zeros(0, dtype=np.int64)
        return CandidatePairs(z, z.copy(), np.zeros(0))
    i, j = np.concatenate(out_i), np.concatenate(out_j)
    d = dissim.pairs(c, i, j, cat)
    keep = d <= bound * (1 + _TOL)
    return CandidatePairs(i[keep], j[keep], d[keep])


def _components(n_units: int, pairs: CandidatePairs) -> np.ndarray:
    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import connected_components

    graph = coo_matrix((np.ones(len(pairs.i)), (pairs.i, pairs.j)), shape=(n_units, n_units))
    return connected_components(graph, directed=False)[1]


def _two_annotators(c: Continuum, pairs: CandidatePairs, delta_empty: float) -> tuple[np.ndarray, np.ndarray]:
    """Best pairs for two annotators: per component, the assignment maximising ``Σ (2Δ∅ - d)``."""
    from scipy.optimize import linear_sum_assignment

    gain = 2 * delta_empty - pairs.d
    ok = gain > _TOL * delta_empty
    i, j, gain = pairs.i[ok], pairs.j[ok], gain[ok]
    if not len(i):
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    comp = _components(len(c), CandidatePairs(i, j, gain))[i]
    order = np.argsort(comp, kind="stable")
    i, j, gain, comp = i[order], j[order], gain[order], comp[order]
    bounds = np.flatnonzero(np.diff(comp)) + 1
    starts = np.concatenate([[0], bounds])
    ends = np.concatenate([bounds, [len(comp)]])
    single = (ends - starts) == 1
    # a component that is one candidate pair: take it
    take_i, take_j = [i[starts[single]]], [j[starts[single]]]
    for s, e in zip(starts[~single].tolist(), ends[~single].tolist(), strict=True):
        ci, cj, cg = i[s:e], j[s:e], gain[s:e]
        rows, ri = np.unique(ci, return_inverse=True)
        cols, rj = np.unique(cj, return_inverse=True)
        w = np.zeros((len(rows), len(cols)))
        w[ri, rj] = cg
        a, b = linear_sum_assignment(w, maximize=True)
        keep = w[a, b] > 0
        take_i.append(rows[a[keep]])
        take_j.append(cols[b[keep]])
    return np.concatenate(take_i), np.concatenate(take_j)


def _cliques(c: Continuum, pairs: CandidatePairs, bound_max: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every set of >= 2 units of distinct annotators, pairwise candidates, with real-pair sum < ``bound_max``:
    (members as an m x n array with -1, number of members, sum of d)."""
    n, big = c.n_annotators, len(c)
    code = pairs.i * big + pairs.j  # i < j always (rows sorted by annotator, pairs across annotators)
    order = np.argsort(code)
    code, d_sorted = code[order], pairs.d[order]
    pi, pj = pairs.i[order], pairs.j[order]
    # forward adjacency (i -> j, j of a later annotator) in CSR form, sorted by i
    fwd = np.argsort(pi, kind="stable")
    nbr = pj[fwd]
    nbr_d = d_sorted[fwd]
    indptr = np.concatenate([[0], np.cumsum(np.bincount(pi, minlength=big))])
    ann = c.annotator

    def lookup(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        key = np.minimum(x, y) * big + np.maximum(x, y)
        pos = np.minimum(np.searchsorted(code, key), max(len(code) - 1, 0))
        found = code[pos] == key if len(code) else np.zeros(len(key), bool)
        return found, d_sorted[pos] if len(code) else np.zeros(len(key))

    members = np.full((len(pi), n), -1, dtype=np.int64)
    members[np.arange(len(pi)), ann[pi]] = pi
    members[np.arange(len(pi)), ann[pj]] = pj
    total = d_sorted.copy()
    last = pj.copy()
    size = np.full(len(pi), 2, dtype=np.int64)
    out_m, out_k, out_s = [members], [size], [total]
    while len(last):
        counts = indptr[last + 1] - indptr[last]
        grow = int(counts.sum())
        if not grow:
            break
        parent = np.repeat(np.arange(len(last)), counts)
        first = np.repeat(indptr[last] - np.concatenate([[0], np.cumsum(counts)[:-1]]), counts)
        idx = first + np.arange(grow)
        v, dv = nbr[idx], nbr_d[idx]
        new_total = total[parent] + dv
        ok = np.ones(grow, dtype=bool)
        for col in range(n):
            m = members[parent, col]
            has = (m >= 0) & (m != last[parent])
            if not has.any():
                continue
            found, dd = lookup(m[has], v[has])
            sub = np.flatnonzero(has)
            ok[sub[~found]] = False
            new_total[sub] += np.where(found, dd, 0.0)
        ok &= new_total <= bound_max * (1 + _TOL)
        parent, v, new_total = parent[ok], v[ok], new_total[ok]
        members = members[parent].copy()
        members[np.arange(len(v)), ann[v]] = v
        total, last, size = new_total, v, size[parent] + 1
        out_m.append(members)
        out_k.append(size)
        out_s.append(total)
    return np.concatenate(out_m), np.concatenate(out_k), np.concatenate(out_s)


def _milp(members: np.ndarray, saving: np.ndarray) -> np.ndarray:
    """Exact maximum-saving packing of ``members`` (one binary program); indices of the chosen ones."""
    from scipy.optimize import LinearConstraint, milp

    a = _unit_matrix(members)
    res = milp(-saving, constraints=LinearConstraint(a, 0, 1), integrality=np.ones(len(members)), bounds=(0, 1),
               options={"mip_rel_gap": 0.0})
    if res.x is None:
        raise RuntimeError(f"the best-alignment program was not solved: {res.message}")
    return np.flatnonzero(res.x > 0.5)


def _unit_matrix(members: np.ndarray) -> Any:
    """Units x candidates incidence matrix (sparse) of the units the candidates use."""
    from scipy.sparse import csr_matrix

    r, col = np.nonzero(members >= 0)
    _, unit_row = np.unique(members[r, col], return_inverse=True)
    return csr_matrix((np.ones(len(r)), (unit_row.reshape(-1), r)), shape=(int(unit_row.max()) + 1, len(members)))


#: up to this many conflicting candidates, one binary program; above, the LP relaxation first
MILP_DIRECT = 1000
#: fractional components of at most this many candidates: branch and bound here (no solver start-up)
SMALL_COMPONENT = 40
#: in small problems, components of at most this many candidates: branch and bound here
TINY_COMPONENT = 12


def _small_packing(members: np.ndarray, saving: np.ndarray) -> np.ndarray:
    """Exact maximum-weight independent set of the candidates' conflict graph (shared units), by branch and
    bound on bitsets: branch on a vertex of highest degree (take it: drop its neighbours; or leave it),
    bound by the remaining total weight. For small components only."""
    m = len(members)
    owners: dict[int, int] = {}
    for t, row in enumerate(members.tolist()):
        for u in row:
            if u >= 0:
                owners[u] = owners.get(u, 0) | (1 << t)
    nbr = [0] * m
    for mask in owners.values():
        t = mask
        while t:
            low = t & -t
            nbr[low.bit_length() - 1] |= mask
            t ^= low
    nbr = [nb & ~(1 << t) for t, nb in enumerate(nbr)]
    w = saving.tolist()
    best = [0.0, 0]

    def weight(mask: int) -> float:
        total = 0.0
        while mask:
            low = mask & -mask
            total += w[low.bit_length() - 1]
            mask ^= low
        return total

    def solve(rest: int, taken: int, value: float) -> None:
        # vertices without neighbours in rest are taken at once
        lone, t = 0, rest
        while t:
            low = t & -t
            if not nbr[low.bit_length() - 1] & rest:
                lone |= low
            t ^= low
        if lone:
            value += weight(lone)
            taken |= lone
            rest &= ~lone
        if value > best[0]:
            best[0], best[1] = value, taken
        if not rest or value + weight(rest) <= best[0]:
            return
        t, pick, degree = rest, -1, -1
        while t:
            low = t & -t
            v = low.bit_length() - 1
            d = (nbr[v] & rest).bit_count()
            if d > degree:
                pick, degree = v, d
            t ^= low
        solve(rest & ~(1 << pick) & ~nbr[pick], taken | (1 << pick), value + w[pick])
        solve(rest & ~(1 << pick), taken, value)

    solve((1 << m) - 1, 0, 0.0)
    return np.array([t for t in range(m) if best[1] >> t & 1], dtype=np.int64)


#: x within this of 0 or 1 counts as integral in the LP relaxation
_INTEGRAL = 1e-6


def _pack(n_units: int, members: np.ndarray, saving: np.ndarray) -> np.ndarray:
    """Indices of a maximum-saving set of candidates that share no unit (weighted set packing).

    Candidates that share no unit with another are taken. Up to
    :data:`MILP_DIRECT` others: components (candidates linked by shared
    units) of at most :data:`TINY_COMPONENT` by branch and bound, the rest in
    one binary program. Beyond, the linear
    relaxation is solved first: it splits into independent components
    (candidates linked by shared units), and where its optimum is integral on
    a component that is an optimal packing of the component; each component
    left fractional is solved exactly on its own (branch and bound here when
    small, else a binary program).
    """
    from scipy.optimize import linprog
    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import connected_components

    if not len(members):
        return np.zeros(0, dtype=np.int64)
    rows, cols = np.nonzero(members >= 0)
    per_unit = np.bincount(members[rows, cols], minlength=n_units)
    conflict = (per_unit[members.clip(0)] > 1) & (members >= 0)
    free = ~conflict.any(axis=1)
    chosen = [np.flatnonzero(free)]
    hard = np.flatnonzero(~free)
    if not len(hard):
        return chosen[0]
    sub, sub_saving = members[hard], saving[hard]
    r, col = np.nonzero(sub >= 0)
    _, unit_row = np.unique(sub[r, col], return_inverse=True)
    n_rows = int(unit_row.max()) + 1
    graph = coo_matrix((np.ones(len(r)), (unit_row.reshape(-1), n_rows + r)),
                       shape=(n_rows + len(sub), n_rows + len(sub)))
    comp = connected_components(graph, directed=False)[1][n_rows:]
    order = np.argsort(comp, kind="stable")
    bounds = np.searchsorted(comp[order], np.arange(comp.max() + 2))
    if len(hard) <= MILP_DIRECT:
        # few: tiny components by branch and bound, the rest in one binary program
        sizes = np.diff(bounds)
        rest = []
        for c in np.flatnonzero(sizes).tolist():
            idx = order[bounds[c]:bounds[c + 1]]
            if len(idx) <= TINY_COMPONENT:
                chosen.append(hard[idx[_small_packing(sub[idx], sub_saving[idx])]])
            else:
                rest.append(idx)
        if rest:
            idx = np.concatenate(rest)
            chosen.append(hard[idx[_milp(sub[idx], sub_saving[idx])]])
        return np.concatenate(chosen)
    a = _unit_matrix(sub)
    res = linprog(-sub_saving, A_ub=a, b_ub=np.ones(a.shape[0]), bounds=(0, 1), method="highs")
    if res.x is None:
        raise RuntimeError(f"the best-alignment relaxation was not solved: {res.message}")
    x = res.x
    fractional = (x > _INTEGRAL) & (x < 1 - _INTEGRAL)
    bad = np.zeros(comp.max() + 1, dtype=bool)
    bad[comp[fractional]] = True
    chosen.append(hard[~bad[comp] & (x > 0.5)])
    for c in np.flatnonzero(bad).tolist():
        idx = order[bounds[c]:bounds[c + 1]]
        solver = _small_packing if len(idx) <= SMALL_COMPONENT else _milp
        chosen.append(hard[idx[solver(sub[idx], sub_saving[idx])]])
    return np.concatenate(chosen)


def _ties(c: Continuum, chosen: np.ndarray, members: np.ndarray, cost: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Zero-saving candidates whose units are all still alone, taken greedily in document order."""
    if not len(members):
        return members, cost
    covered = np.zeros(len(c), dtype=bool)
    covered[chosen[chosen >= 0]] = True
    first = np.where(members >= 0, c.start[members.clip(0)], np.inf).min(axis=1)
    take = []
    for t in np.argsort(first, kind="stable").tolist():
        rows = members[t][members[t] >= 0]
        if not covered[rows].any():
            covered[rows] = True
            take.append(t)
    return members[take], cost[take]


def best_alignment(continuum: Continuum, dissim: Dissimilarity | None = None) -> Alignment:
    """The exact best alignment of ``continuum`` under ``dissim`` (see the module docstring)."""
    c = continuum
    dissim = dissim or Dissimilarity()
    n = c.n_annotators
    if n < 2:
        raise InputError(f"the continuum has {n} annotator(s); agreement needs at least two")
    if not len(c):
        raise InputError("the continuum has no units; there is nothing to align")
    de = dissim.delta_empty
    c2 = n * (n - 1) / 2
    pairs = candidate_pairs(c, dissim, saving_bound(n, n, de))
    if n == 2:
        ti, tj = _two_annotators(c, pairs, de)
        tuples = np.full((len(ti), 2), -1, dtype=np.int64)
        tuples[np.arange(len(ti)), c.annotator[ti]] = ti
        tuples[np.arange(len(tj)), c.annotator[tj]] = tj
        disorders = _pair_d(pairs, ti, tj, len(c))  # C2 = 1 and no empty pair
        tie = np.abs(2 * de - pairs.d) <= _TOL * de
        tie_m = np.full((int(tie.sum()), 2), -1, dtype=np.int64)
        tie_m[np.arange(len(tie_m)), c.annotator[pairs.i[tie]]] = pairs.i[tie]
        tie_m[np.arange(len(tie_m)), c.annotator[pairs.j[tie]]] = pairs.j[tie]
        tie_t, tie_d = _ties(c, tuples, tie_m, pairs.d[tie])
        tuples, disorders = np.concatenate([tuples, tie_t]), np.concatenate([disorders, tie_d])
    else:
        members, k, total = _cliques(c, pairs, saving_bound(n, n, de))
        bounds = np.array([saving_bound(n, kk, de) for kk in range(n + 1)])
        useful = total <= bounds[k] + _TOL * de
        members, k, total = members[useful], k[useful], total[useful]
        cost = (total + (c2 - k * (k - 1) / 2) * de) / c2
        saving = k * de - cost
        gain = saving > _TOL * de
        pick = _pack(len(c), members[gain], saving[gain])
        tuples, disorders = members[gain][pick], cost[gain][pick]
        tie_t, tie_d = _ties(c, tuples, members[~gain], cost[~gain])
        tuples, disorders = np.concatenate([tuples, tie_t]), np.concatenate([disorders, tie_d])
    covered = np.zeros(len(c), dtype=bool)
    covered[tuples[tuples >= 0]] = True
    alone = np.flatnonzero(~covered)
    singles = np.full((len(alone), n), -1, dtype=np.int64)
    singles[np.arange(len(alone)), c.annotator[alone]] = alone
    tuples = np.concatenate([tuples, singles])
    disorders = np.concatenate([disorders, np.full(len(alone), de)])
    first = np.where(tuples >= 0, c.start[tuples.clip(0)], np.inf).min(axis=1)
    order = np.lexsort((np.where(tuples >= 0, tuples, len(c)).min(axis=1), first))
    return Alignment(c, tuples[order], disorders[order].astype(float))


def _pair_d(pairs: CandidatePairs, i: np.ndarray, j: np.ndarray, big: int) -> np.ndarray:
    """``d`` of the candidate pairs ``(i, j)`` (each one of ``pairs``)."""
    code = pairs.i * big + pairs.j
    order = np.argsort(code)
    pos = np.searchsorted(code[order], np.minimum(i, j) * big + np.maximum(i, j))
    return pairs.d[order][pos]


__all__ = ["Alignment", "CandidatePairs", "best_alignment", "candidate_pairs", "saving_bound"]
