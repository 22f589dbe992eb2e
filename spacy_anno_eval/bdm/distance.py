"""The Balanced Distance Metric (BDM) between the concepts of a taxonomy.

Source: Maynard, Peters & Li (2006), "Metrics for evaluation of
ontology-based information extraction", WWW 2006 workshop EON; GATE user
guide section 10.6 (the BDM computation plugin, ``gate.bdmComp.BDMTool``),
whose definitions are reproduced here.

**Taxonomy.** Concepts with direct subclass edges child -> parent; a concept
may have several parents (a DAG). A *top* concept has no parent, a *leaf* no
child. A *chain* of concept ``c`` is a path ``(c, parent, ..., top)`` up the
parent edges; its length is its number of edges. A concept with several
parents (or ancestors with several parents) has several chains.

**Parameters.**

- ``n0``: the mean length of all chains of all leaves (one number per taxonomy);
- ``chain_len[c]``: the mean length of the leaf chains that pass through
  ``c`` (``n1`` for the key concept, ``n2`` for the response concept);
- ``branch[c]``: the number of direct children of ``c``; ``avg_branch``: the
  mean of ``branch`` over the non-leaf concepts.

Chain counts and chain lengths come from path counting over the DAG (a leaf
chain through ``c`` is an up-path of ``c`` joined to a down-path of ``c``),
so ``n0`` and ``chain_len`` never list the leaf chains.

**BDM of key ``k`` and response ``r``.** For each pair (chain of ``k``, chain
of ``r``), the common part is the longest common suffix of the two chains
(compared from the top down); when it is empty (different tops) the chain
pair scores 0. Otherwise the MSCA (most specific common abstraction) is the
deepest concept of the common part and::

    cp   = edges from the top down to the MSCA   (a top concept has cp = 0)
    dpk  = edges from the MSCA down to k on k's chain
    dpr  = edges from the MSCA down to r on r's chain
    bran = mean(branch[x] for x in {MSCA} | {concepts strictly between k and the MSCA on k's chain}
                                          | {concepts strictly between r and the MSCA on r's chain})
           / avg_branch                      (k and r themselves are left out of the two "between" sets)

    BDM  = (bran * cp / n0) / (bran * cp / n0 + dpk / n1 + dpr / n2)

so a pair whose MSCA is a top concept scores 0. The pair's BDM is the
maximum over all chain pairs, and the reported ``msca``, ``cp``, ``dpk``,
``dpr`` and ``bran`` are those of the maximising chain pair; ties go to the
first maximising chain pair, chains being ordered by their parents' sorted
names (the key's chains in the outer loop), and a chain pair that shares a
top beats one that does not. Two deliberate departures from GATE's code:
GATE reports the MSCA (and cp, dpk, dpr, bran) of the *last* chain pair it
tried rather than of the best one, and a later chain pair with no common top
can overwrite a better BDM found before it; neither is reproduced.

Special cases: ``k == r`` gives BDM 1.0, ``msca = k``, ``cp`` = length of
``k``'s shortest chain, ``dpk = dpr = 0``, ``n1 = n2 = 1``, ``bran = 1``.
No chain pair with a common top (disconnected concepts) gives BDM 0,
``msca = None``, ``cp = -1``, ``dpk`` / ``dpr`` = length of the shortest chain
of ``k`` / ``r``, ``n1`` / ``n2`` as defined, ``bran = 1``.

Multiple inheritance can multiply chains; a concept with more than
``max_chains`` (10,000) chains is refused. The pair loop costs the product
of the two concepts' chain counts, so it is fast on trees and near-trees.

The taxonomy and its readers are :mod:`spacy_anno_eval.bdm.taxonomy`; GATE's
BDM file (read and write) is :mod:`spacy_anno_eval.bdm.gatefile`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any, NamedTuple

from .taxonomy import MAX_CHAINS, ChainStats, Taxonomy

FIELDS = ("key", "response", "bdm", "msca", "cp", "dpk", "dpr", "n0", "n1", "n2", "bran")


class BDMPair(NamedTuple):
    """The BDM of one pair of concepts and the parameters it came from (GATE's fields, in GATE's order).

    An immutable record (a named tuple: cheap to build by the hundred thousand).
    """

    key: str
    response: str
    bdm: float
    msca: str | None
    cp: int
    dpk: int
    dpr: int
    n0: float
    n1: float
    n2: float
    bran: float

    def to_dict(self) -> dict[str, Any]:
        return dict(zip(FIELDS, self, strict=True))


class BDMScores:
    """BDM records of pairs of concepts, with a symmetric lookup.

    :func:`compute_bdm` gives one record per unordered pair of concepts,
    identity pairs included, ``key`` being the first of the two in sorted
    order; :func:`read_bdm_file` keeps the records of the file as they are.
    """

    __slots__ = ("name", "pairs", "concepts", "_index", "_known")

    def __init__(self, pairs: Iterable[BDMPair], name: str = "taxonomy", concepts: Iterable[str] | None = None
                 ) -> None:
        self.name = name
        self.pairs: tuple[BDMPair, ...] = tuple(pairs)
        known = set(concepts) if concepts is not None else set()
        self._index: dict[tuple[str, str], BDMPair] = {}
        for rec in self.pairs:
            known.update((rec.key, rec.response))
            self._index.setdefault((rec.key, rec.response), rec)
            self._index.setdefault((rec.response, rec.key), rec)
        self.concepts: tuple[str, ...] = tuple(sorted(known))
        self._known = frozenset(known)

    def pair(self, a: str, b: str) -> BDMPair | None:
        """The record of ``a`` and ``b`` in either order (its key may be ``b``), or None."""
        return self._index.get((a, b))

    def get(self, a: str, b: str) -> float | None:
        """The BDM of ``a`` and ``b`` (symmetric); None when either concept is unknown or the pair is not listed.

        A known concept with itself is 1.0 even when a file does not list it.
        """
        rec = self._index.get((a, b))
        if rec is not None:
            return rec.bdm
        if a == b and a in self._known:
            return 1.0
        return None

    def __len__(self) -> int:
        return len(self.pairs)

    def __iter__(self) -> Iterator[BDMPair]:
        return iter(self.pairs)

    def __repr__(self) -> str:
        return f"BDMScores(name={self.name!r}, concepts={len(self.concepts)}, pairs={len(self.pairs)})"

    def to_rows(self) -> list[dict[str, Any]]:
        """One dict per record, with the fields of :class:`BDMPair`."""
        return [rec.to_dict() for rec in self.pairs]

    def to_dataframe(self) -> Any:
        """The records as a pandas DataFrame (needs pandas)."""
        import pandas as pd

        return pd.DataFrame(self.to_rows(), columns=list(FIELDS))


class _Engine:
    """The BDM of pairs of concept indices over the statistics of one taxonomy."""

    def __init__(self, stats: ChainStats, max_chains: int) -> None:
        self.s = stats
        self.max_chains = max_chains
        self.fast_bran = stats.tax.is_tree  # no concept twice below an MSCA: prefix sums of branching suffice
        self._chains: dict[int, list[tuple[tuple[int, ...], list[int]]]] = {}

    def chains(self, i: int) -> list[tuple[tuple[int, ...], list[int]]]:
        """The chains of concept ``i`` (top-down), each with the prefix sums of its branching."""
        got = self._chains.get(i)
        if got is None:
            self.s.guard(i, self.max_chains)
            branch = self.s.branch
            got = []
            for chain in self.s.chains_of(i):
                sums = [0]
                for x in chain:
                    sums.append(sums[-1] + branch[x])
                got.append((chain, sums))
            self._chains[i] = got
        return got

    def pair(self, i: int, j: int) -> BDMPair:
        s = self.s
        names = s.names
        ci, cj = self.chains(i), self.chains(j)
        if i == j:
            return BDMPair(names[i], names[i], 1.0, names[i], min(len(c) for c, _ in ci) - 1, 0, 0, s.n0,
                           1.0, 1.0, 1.0)
        n0, n1, n2 = s.n0, s.chain_len[i], s.chain_len[j]
        branch, nonleaf, nchild, fast = s.branch, s.n_nonleaf, s.n_children, self.fast_bran
        best: tuple[float, int, int, int, int, float] | None = None
        for a, pa in ci:
            la = len(a)
            for b, pb in cj:
                lb = len(b)
                m = la if la < lb else lb
                common = 0
                while common < m and a[common] == b[common]:
                    common += 1
                if not common:
                    continue  # different tops
                cp, dpk, dpr = common - 1, la - common, lb - common
                msca = a[cp]
                if fast:  # tree: the two "between" runs are disjoint and hold neither k nor r
                    total = branch[msca]
                    count = 1
                    if dpk > 1:
                        total += pa[la - 1] - pa[common]
                        count += dpk - 1
                    if dpr > 1:
                        total += pb[lb - 1] - pb[common]
                        count += dpr - 1
                else:
                    members = set(a[common:la - 1])
                    members.update(b[common:lb - 1])
                    members.discard(i)
                    members.discard(j)
                    members.add(msca)
                    total, count = sum(branch[x] for x in members), len(members)
                bran = (total * nonleaf) / (count * nchild)  # (total / count) / avg_branch, one rounding
                x = bran * cp / n0
                value = x / (x + (dpk / n1 + dpr / n2))
                if best is None or value > best[0]:
                    best = (value, msca, cp, dpk, dpr, bran)
        if best is None:
            return BDMPair(names[i], names[j], 0.0, None, -1, min(len(c) for c, _ in ci) - 1,
                           min(len(c) for c, _ in cj) - 1, n0, n1, n2, 1.0)
        value, msca, cp, dpk, dpr, bran = best
        return BDMPair(names[i], names[j], value, names[msca], cp, dpk, dpr, n0, n1, n2, bran)


def bdm_pair(taxonomy: Taxonomy, key: str, response: str, *, max_chains: int = MAX_CHAINS) -> BDMPair:
    """The BDM record of ``key`` and ``response`` in this order (``dpk`` / ``n1`` belong to ``key``)."""
    s = taxonomy.chain_stats
    return _Engine(s, max_chains).pair(s.index[taxonomy.check(key)], s.index[taxonomy.check(response)])


def bdm(taxonomy: Taxonomy, key: str, response: str, *, max_chains: int = MAX_CHAINS) -> float:
    """The BDM of two concepts (symmetric)."""
    return bdm_pair(taxonomy, key, response, max_chains=max_chains).bdm


def compute_bdm(taxonomy: Taxonomy, *, name: str | None = None, max_chains: int = MAX_CHAINS) -> BDMScores:
    """The BDM of every unordered pair of concepts, identity pairs included.

    Each record's ``key`` is the first of the two concepts in sorted order.
    ``name`` (default: the taxonomy's) names the ontology in
    :func:`write_bdm_file`. Raises :class:`InputError` when a concept
    has more than ``max_chains`` chains.
    """
    s = taxonomy.chain_stats
    engine = _Engine(s, max_chains)
    n = len(s.names)
    for i in range(n):
        s.guard(i, max_chains)
    pairs = [engine.pair(i, j) for i in range(n) for j in range(i, n)]
    return BDMScores(pairs, name=name if name is not None else taxonomy.name, concepts=s.names)


__all__ = ["FIELDS", "BDMPair", "BDMScores", "bdm", "bdm_pair", "compute_bdm"]
