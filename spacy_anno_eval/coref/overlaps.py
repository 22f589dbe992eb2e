"""Every coreference metric's counts of one document from one table: how many mentions each key entity shares
with each response entity.

With ``n_ij = |k_i ∩ r_j|`` (only the pairs that share a mention are stored), the sizes ``|k_i|`` and ``|r_j|``,
and ``C(n) = n (n − 1) / 2`` the number of links among n mentions, the definitions of
:mod:`spacy_anno_eval.coref.metrics` become sums over that table, O(mentions) instead of O(mentions²):

- **MUC**: the parts a response cuts ``k_i`` into are the response entities it meets plus its mentions in no
  response entity: ``p(k_i) = #{j : n_ij > 0} + |k_i| − Σ_j n_ij``.
- **B³**: R numerator ``Σ_ij n_ij² / |k_i|``, P numerator ``Σ_ij n_ij² / |r_j|``.
- **CEAF**: φ over the pairs that share mentions (φ is 0 elsewhere, so the optimal alignment's similarity is that
  of the rows and columns with a non-zero entry, solved by ``linear_sum_assignment`` on them alone).
- **LEA**: the key links resolved in ``k_i`` are ``Σ_j C(n_ij)``; a key singleton is resolved when its mention
  is alone in its response entity too (``n_ij = 1`` and ``|r_j| = 1``).
- **BLANC** (Recasens & Hovy 2011; Luo et al. 2014): coreference links ``Σ_i C(|k_i|)`` and ``Σ_j C(|r_j|)``,
  common ``Σ_ij C(n_ij)``; non-coreference links ``C(M) − Σ_i C(|k_i|)`` of a side with M mentions; the
  non-coreference links of both are the pairs of the s = Σ n_ij common mentions in two key entities and in two
  response entities: ``C(s) − Σ_i C(s_i) − Σ_j C(s_j) + Σ_ij C(n_ij)`` (inclusion–exclusion), where
  ``s_i = Σ_j n_ij`` and ``s_j = Σ_i n_ij`` count a side's entity's common mentions.
- **mentions**: s over the mentions of each side.

:func:`document_counts` gives exactly the counts of the per-metric functions of
:mod:`~spacy_anno_eval.coref.metrics` (a test checks both on every official case and on random documents).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np


def _links(n: int) -> int:
    return n * (n - 1) // 2


def document_counts(key: Sequence[Sequence[Any]], response: Sequence[Sequence[Any]]) -> dict[str, tuple[float, ...]]:
    """Every metric's four counts (BLANC's eight) of one document, from its key and response entities (each a
    collection of hashable mentions; a mention in one entity per side)."""
    key_sets = [frozenset(e) for e in key if e]
    response_sets = [frozenset(e) for e in response if e]
    owner = {m: j for j, e in enumerate(response_sets) for m in e}
    ksize = [len(e) for e in key_sets]
    rsize = [len(e) for e in response_sets]
    overlap: dict[tuple[int, int], int] = {}
    for i, e in enumerate(key_sets):
        for m in e:
            j = owner.get(m)
            if j is not None:
                overlap[i, j] = overlap.get((i, j), 0) + 1
    k_shared = [0] * len(key_sets)   # s_i: mentions of k_i that the response has
    r_shared = [0] * len(response_sets)
    k_meets = [0] * len(key_sets)    # response entities k_i meets
    r_meets = [0] * len(response_sets)
    b_r = b_p = 0.0
    common_links = 0
    k_resolved = [0] * len(key_sets)  # LEA: links of k_i inside one response entity
    r_resolved = [0] * len(response_sets)
    for (i, j), n in overlap.items():
        k_shared[i] += n
        r_shared[j] += n
        k_meets[i] += 1
        r_meets[j] += 1
        b_r += n * n / ksize[i]
        b_p += n * n / rsize[j]
        links = _links(n)
        common_links += links
        k_resolved[i] += links
        r_resolved[j] += links
    shared = sum(k_shared)
    muc = (float(sum(s - (m + s - c) for s, m, c in zip(ksize, k_meets, k_shared, strict=True))),
           float(sum(s - 1 for s in ksize)),
           float(sum(s - (m + s - c) for s, m, c in zip(rsize, r_meets, r_shared, strict=True))),
           float(sum(s - 1 for s in rsize)))
    bcub = (b_r, float(sum(ksize)), b_p, float(sum(rsize)))
    lea = (_lea(ksize, k_resolved, overlap, rsize, 0), float(sum(ksize)),
           _lea(rsize, r_resolved, overlap, ksize, 1), float(sum(rsize)))
    k_links, r_links = sum(_links(s) for s in ksize), sum(_links(s) for s in rsize)
    k_non = _links(sum(ksize)) - k_links
    r_non = _links(sum(rsize)) - r_links
    common_non = (_links(shared) - sum(_links(s) for s in k_shared) - sum(_links(s) for s in r_shared)
                  + common_links)
    blanc = (float(common_links), float(k_links), float(common_links), float(r_links),
             float(common_non), float(k_non), float(common_non), float(r_non))
    return {"muc": muc, "bcub": bcub, "ceafm": _ceaf(overlap, ksize, rsize, "m"),
            "ceafe": _ceaf(overlap, ksize, rsize, "e"), "blanc": blanc, "lea": lea,
            "mentions": (float(shared), float(sum(ksize)), float(shared), float(sum(rsize)))}


def _lea(sizes: list[int], resolved: list[int], overlap: dict[tuple[int, int], int], other: list[int],
         side: int) -> float:
    """LEA's numerator of one side: Σ |e| · resolved links / links; a singleton resolved when alone on the other
    side too."""
    alone = set()
    if 1 in sizes:
        for (i, j), n in overlap.items():
            mine, theirs = (i, j) if side == 0 else (j, i)
            if n == 1 and sizes[mine] == 1 and other[theirs] == 1:
                alone.add(mine)
    total = 0.0
    for e, (size, links) in enumerate(zip(sizes, resolved, strict=True)):
        total += (1.0 if e in alone else 0.0) if size == 1 else size * links / _links(size)
    return total


def _ceaf(overlap: dict[tuple[int, int], int], ksize: list[int], rsize: list[int],
          kind: str) -> tuple[float, float, float, float]:
    """CEAFm (``m``) or CEAFe (``e``) counts: the optimal alignment's similarity over the pairs that share
    mentions (see the module), over each side's self-similarity."""
    rd = float(sum(ksize)) if kind == "m" else float(len(ksize))
    pd = float(sum(rsize)) if kind == "m" else float(len(rsize))
    if not overlap:
        return 0.0, rd, 0.0, pd
    rows = sorted({i for i, _ in overlap})
    cols = sorted({j for _, j in overlap})
    at_row = {i: n for n, i in enumerate(rows)}
    at_col = {j: n for n, j in enumerate(cols)}
    sim = np.zeros((len(rows), len(cols)))
    for (i, j), n in overlap.items():
        sim[at_row[i], at_col[j]] = n if kind == "m" else 2.0 * n / (ksize[i] + rsize[j])
    if len(rows) == len(cols) == len(overlap):
        best = float(sim.sum())  # every row meets one column and every column one row: the alignment is given
    else:
        from scipy.optimize import linear_sum_assignment

        r, c = linear_sum_assignment(sim, maximize=True)
        best = float(sim[r, c].sum())
    return best, rd, best, pd


__all__ = ["document_counts"]
