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

**Files.** :func:`read_taxonomy` reads a tab-separated ``child<TAB>parent``
list or an RDF/OWL ontology (with rdflib). :func:`write_bdm_file` and
:func:`read_bdm_file` write and read GATE's BDM file: a ``##`` header naming
the ontology, then one line per pair such as (one line in the file)::

    key=Service, response=Object, bdm=0.6617647, msca=Object, cp=1, dpk=1, dpr=0,
    n0=2.0, n1=2.0, n2=2.8333333, bran=1.9565217

with floats printed as Java's ``Float.toString`` does (the shortest decimal
of the float32 value) and ``msca=null`` for disconnected pairs.
"""

from __future__ import annotations

import functools
import math
import os
import re
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from .. import files
from ..errors import InputError

MAX_CHAINS = 10_000
RDF_SUFFIXES = {".owl": "xml", ".rdf": "xml", ".xml": "xml", ".ttl": "turtle", ".n3": "n3", ".nt": "nt",
                ".jsonld": "json-ld"}
HEADER = "##The following are the BDM scores for each pair of concepts in the ontology named {name}."
FIELDS = ("key", "response", "bdm", "msca", "cp", "dpk", "dpr", "n0", "n1", "n2", "bran")
_FLOAT_FIELDS = ("bdm", "n0", "n1", "n2", "bran")
_INT_FIELDS = ("cp", "dpk", "dpr")


# ----------------------------------------------------------------------------------------------------------------
# Taxonomy


class Taxonomy:
    """Concepts and their direct subclass edges (child -> parents), acyclic; read-only once built.

    Build with :meth:`from_edges` or :func:`read_taxonomy`. Concepts are
    strings; :attr:`concepts` is sorted. The chain statistics (``n0``,
    ``chain_len``, ``avg_branch``) are computed on first use and cached.
    """

    __slots__ = ("_name", "_parents", "_children", "_concepts", "_stats")

    def __init__(self, parents: Mapping[str, Iterable[str]], name: str = "taxonomy") -> None:
        """``parents`` maps each concept to its direct parents (an empty iterable for a top concept).

        Parents missing as keys become top concepts. Raises
        :class:`InputError` on a self loop or a cycle.
        """
        edges: list[tuple[str, str | None, str | None]] = []
        for child, ps in parents.items():
            edges.append((child, None, None))
            edges.extend((child, p, None) for p in ([ps] if isinstance(ps, str) else ps))
        self._setup(edges, name)

    def _setup(self, edges: Iterable[tuple[str, str | None, str | None]], name: str) -> None:
        self._name = name
        self._parents, self._children = _build(edges, name)
        self._concepts = tuple(sorted(self._parents))
        self._stats: _Stats | None = None

    @classmethod
    def from_edges(cls, pairs: Iterable[tuple[str, str | None]], name: str = "taxonomy") -> Taxonomy:
        """A taxonomy from ``(child, parent)`` pairs; ``parent`` None or ``""`` declares a concept with no parent."""
        return _from_located_edges(((c, p, None) for c, p in pairs), name)

    # --- structure -------------------------------------------------------------------------------------------
    @property
    def name(self) -> str:
        return self._name

    @property
    def concepts(self) -> tuple[str, ...]:
        """All concepts, sorted."""
        return self._concepts

    @property
    def tops(self) -> tuple[str, ...]:
        """Concepts without parents, sorted."""
        return tuple(c for c in self._concepts if not self._parents[c])

    @property
    def leaves(self) -> tuple[str, ...]:
        """Concepts without children, sorted."""
        return tuple(c for c in self._concepts if not self._children[c])

    @property
    def edges(self) -> tuple[tuple[str, str], ...]:
        """All ``(child, parent)`` edges, sorted."""
        return tuple((c, p) for c in self._concepts for p in self._parents[c])

    @property
    def is_tree(self) -> bool:
        """True when no concept has more than one parent (a forest)."""
        return all(len(ps) <= 1 for ps in self._parents.values())

    def parents(self, concept: str) -> tuple[str, ...]:
        """Direct parents of ``concept``, sorted."""
        return self._parents[self._check(concept)]

    def children(self, concept: str) -> tuple[str, ...]:
        """Direct children of ``concept``, sorted."""
        return self._children[self._check(concept)]

    def __contains__(self, concept: object) -> bool:
        return concept in self._parents

    def __len__(self) -> int:
        return len(self._concepts)

    def __iter__(self) -> Iterator[str]:
        return iter(self._concepts)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Taxonomy) and self._parents == other._parents

    def __hash__(self) -> int:
        return hash(self.edges)

    def __repr__(self) -> str:
        return f"Taxonomy(name={self._name!r}, concepts={len(self._concepts)}, edges={len(self.edges)})"

    def _check(self, concept: str) -> str:
        if concept not in self._parents:
            raise InputError(f"concept {concept!r} is not in taxonomy {self._name!r}; "
                                     f"use one of its {len(self._concepts)} concepts (Taxonomy.concepts)")
        return concept

    # --- chain statistics ------------------------------------------------------------------------------------
    @property
    def _s(self) -> _Stats:
        if self._stats is None:
            self._stats = _Stats(self)
        return self._stats

    def chain_count(self, concept: str) -> int:
        """The number of chains (paths up to a top concept) of ``concept``."""
        return self._s.up[self._s.index[self._check(concept)]]

    def chains(self, concept: str, max_chains: int = MAX_CHAINS) -> list[tuple[str, ...]]:
        """The chains ``(concept, parent, ..., top)`` of ``concept``, ordered by the parents' sorted names."""
        s = self._s
        i = s.index[self._check(concept)]
        s.guard(i, max_chains)
        return [tuple(s.names[x] for x in reversed(ch)) for ch in s.chains_of(i)]

    @property
    def mean_leaf_chain_length(self) -> float:
        """``n0``: the mean length of the chains of all leaf concepts (0.0 for an empty taxonomy)."""
        return self._s.n0

    def chain_length(self, concept: str) -> float:
        """``chain_len[concept]``: the mean length of the leaf chains that pass through ``concept``."""
        return self._s.chain_len[self._s.index[self._check(concept)]]

    def branching(self, concept: str) -> int:
        """The number of direct children of ``concept``."""
        return len(self._children[self._check(concept)])

    @property
    def mean_branching(self) -> float:
        """``avg_branch``: the mean number of children of the non-leaf concepts (0.0 when there are none)."""
        s = self._s
        return s.n_children / s.n_nonleaf if s.n_nonleaf else 0.0


def _from_located_edges(edges: Iterable[tuple[str, str | None, str | None]], name: str) -> Taxonomy:
    """A :class:`Taxonomy` from ``(child, parent or None, location or None)`` triples."""
    tax = Taxonomy.__new__(Taxonomy)
    tax._setup(edges, name)
    return tax


def _build(edges: Iterable[tuple[str, str | None, str | None]], name: str
           ) -> tuple[dict[str, tuple[str, ...]], dict[str, tuple[str, ...]]]:
    """Validated parents and children maps (sorted tuples) from located edges."""
    parents: dict[str, set[str]] = {}
    where: dict[tuple[str, str], str | None] = {}
    for child, parent, loc in edges:
        at = f"{loc}: " if loc else ""
        if not isinstance(child, str) or not child:
            raise InputError(f"{at}taxonomy {name!r}: concept names must be non-empty strings, "
                                     f"got {child!r}")
        if parent is not None and not isinstance(parent, str):
            raise InputError(f"{at}taxonomy {name!r}: the parent of {child!r} must be a string or None, "
                                     f"got {parent!r}")
        parents.setdefault(child, set())
        if not parent:
            continue
        if parent == child:
            raise InputError(f"{at}taxonomy {name!r}: concept {child!r} is its own parent; "
                                     "remove this edge")
        parents.setdefault(parent, set())
        parents[child].add(parent)
        where.setdefault((child, parent), loc)
    sorted_parents = {c: tuple(sorted(ps)) for c, ps in parents.items()}
    children: dict[str, list[str]] = {c: [] for c in parents}
    for c, ps in sorted_parents.items():
        for p in ps:
            children[p].append(c)
    cycle = _find_cycle(sorted_parents)
    if cycle:
        steps = list(zip(cycle, cycle[1:], strict=False))
        locs = list(dict.fromkeys(loc for loc in (where.get(step) for step in steps) if loc))
        at = f"{locs[0]}: " if locs else ""
        on = f" (edges at {', '.join(locs)})" if len(locs) > 1 else ""
        raise InputError(f"{at}taxonomy {name!r}: subclass cycle {' -> '.join(cycle)}{on}; "
                                 "a taxonomy must be acyclic: remove one of these edges")
    return sorted_parents, {c: tuple(sorted(ch)) for c, ch in children.items()}


def _find_cycle(parents: Mapping[str, tuple[str, ...]]) -> list[str] | None:
    """A cycle ``[a, b, ..., a]`` along parent edges, or None (iterative depth-first search)."""
    state: dict[str, int] = {}  # 1 = on the stack, 2 = done
    for start in sorted(parents):
        if start in state:
            continue
        stack: list[tuple[str, Iterator[str]]] = [(start, iter(parents[start]))]
        state[start] = 1
        while stack:
            node, it = stack[-1]
            nxt = next(it, None)
            if nxt is None:
                state[node] = 2
                stack.pop()
            elif state.get(nxt) == 1:
                path = [n for n, _ in stack]
                return path[path.index(nxt):] + [nxt]
            elif nxt not in state:
                state[nxt] = 1
                stack.append((nxt, iter(parents[nxt])))
    return None


class _Stats:
    """Chain counts, chain lengths and branching of a taxonomy, on concept indices."""

    def __init__(self, tax: Taxonomy) -> None:
        names = tax._concepts
        self.tax = tax
        self.names = names
        self.index = {c: i for i, c in enumerate(names)}
        n = len(names)
        self.parents = [tuple(self.index[p] for p in tax._parents[c]) for c in names]
        self.children = [tuple(self.index[ch] for ch in tax._children[c]) for c in names]
        self.branch = [len(ch) for ch in self.children]
        self.n_nonleaf = sum(1 for b in self.branch if b)
        self.n_children = sum(self.branch)
        # topological order, parents first (Kahn, from the tops down)
        waiting = [len(ps) for ps in self.parents]
        order = [i for i in range(n) if not waiting[i]]
        for i in order:
            for ch in self.children[i]:
                waiting[ch] -= 1
                if not waiting[ch]:
                    order.append(ch)
        self.rank = [0] * n
        for pos, i in enumerate(order):
            self.rank[i] = pos
        # up: chains of c (paths to a top) and their total length; down: paths to a leaf and their total length
        up, up_len = [0] * n, [0] * n
        for i in order:
            if self.parents[i]:
                up[i] = sum(up[p] for p in self.parents[i])
                up_len[i] = sum(up_len[p] + up[p] for p in self.parents[i])
            else:
                up[i] = 1
        down, down_len = [0] * n, [0] * n
        for i in reversed(order):
            if self.children[i]:
                down[i] = sum(down[ch] for ch in self.children[i])
                down_len[i] = sum(down_len[ch] + down[ch] for ch in self.children[i])
            else:
                down[i] = 1
        self.up = up
        self.up_len = up_len
        # leaf chains through c = up-paths of c x down-paths of c; exact integer sums, one rounding
        self.chain_len = [(up_len[i] * down[i] + down_len[i] * up[i]) / (up[i] * down[i]) for i in range(n)]
        leaves = [i for i in range(n) if not self.children[i]]
        total = sum(up[i] for i in leaves)
        self.n0 = sum(up_len[i] for i in leaves) / total if total else 0.0
        self._chains: dict[int, list[tuple[int, ...]]] = {}

    def guard(self, i: int, max_chains: int) -> None:
        if self.up[i] > max_chains:
            raise InputError(
                f"taxonomy {self.tax.name!r}: concept {self.names[i]!r} has {self.up[i]} chains (paths to a top "
                f"concept), more than max_chains={max_chains}; multiple inheritance multiplies chains: remove "
                "redundant subclass edges or raise max_chains")

    def chains_of(self, i: int) -> list[tuple[int, ...]]:
        """Chains of concept ``i`` top-down ``(top, ..., i)``, ordered by the parents' sorted names (cached).

        Iterative, parents before children, so a deep taxonomy cannot exhaust the recursion limit.
        """
        got = self._chains.get(i)
        if got is not None:
            return got
        todo, seen, stack = [], {i}, [i]
        while stack:  # the ancestors of i whose chains are not listed yet
            x = stack.pop()
            if x in self._chains:
                continue
            todo.append(x)
            for p in self.parents[x]:
                if p not in seen:
                    seen.add(p)
                    stack.append(p)
        for x in sorted(todo, key=self.rank.__getitem__):
            ps = self.parents[x]
            self._chains[x] = [ch + (x,) for p in ps for ch in self._chains[p]] if ps else [(x,)]
        return self._chains[i]


# ----------------------------------------------------------------------------------------------------------------
# Reading taxonomies


def read_taxonomy(path: str | os.PathLike, name: str | None = None) -> Taxonomy:
    """A taxonomy from a file, by extension: RDF / OWL (``.owl .rdf .ttl .n3 .nt .xml .jsonld``) or text (others).

    Text: one ``child<TAB>parent`` per line; a line with one field declares a
    concept without parent; blank lines and ``#`` lines are skipped. RDF:
    see :func:`read_rdf_taxonomy`. ``name`` defaults to the file's stem.
    """
    p = Path(path)
    if not p.is_file():
        raise InputError(f"{p}: no such file")
    if p.suffix.lower() in RDF_SUFFIXES:
        return read_rdf_taxonomy(p, name=name)
    return read_tsv_taxonomy(p, name=name)


def _read_text(p: Path, what: str) -> str:
    """The UTF-8 text of ``p`` (a BOM dropped); a one-line error naming the file otherwise."""
    try:
        return p.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise InputError(f"{p}: no such file") from None
    except UnicodeDecodeError as err:
        raise InputError(f"{p}: not UTF-8 text ({err.reason} at byte {err.start}); "
                                 f"save {what} as UTF-8") from None


def read_tsv_taxonomy(path: str | os.PathLike, name: str | None = None) -> Taxonomy:
    """A taxonomy from a text file of ``child<TAB>parent`` lines (see :func:`read_taxonomy`)."""
    p = Path(path)
    text = _read_text(p, "the taxonomy")
    edges: list[tuple[str, str | None, str | None]] = []
    for lineno, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        fields = [f.strip() for f in line.split("\t")]
        loc = f"{p}:{lineno}"
        if len(fields) > 2:
            empty = " (some empty: two tabs in a row?)" if not all(fields) else ""
            raise InputError(f"{loc}: {len(fields)} tab-separated fields{empty}; a taxonomy line is "
                                     "'child<TAB>parent' or a single concept name")
        edges.append((fields[0], fields[1] if len(fields) == 2 else None, loc))
    return _from_located_edges(edges, name if name is not None else p.stem)


def _local_name(iri: str) -> str:
    for sep in ("#", "/"):
        if sep in iri:
            tail = iri.rsplit(sep, 1)[1]
            return tail if tail else iri
    return iri


def read_rdf_taxonomy(path: str | os.PathLike, name: str | None = None, rdf_format: str | None = None
                      ) -> Taxonomy:
    """A taxonomy from an RDF / OWL file's ``rdfs:subClassOf`` edges (needs rdflib).

    Concepts are the IRIs (not blank nodes, so not restrictions) that are
    subject or object of ``rdfs:subClassOf`` or typed ``owl:Class`` /
    ``rdfs:Class``. ``owl:Thing`` is not a concept: a class directly under it
    is a top concept, as in GATE; a class declared its own subclass is
    harmless in RDF and ignored. A concept is named by its local name (after
    the last ``#``, else after the last ``/``), except that concepts whose
    different IRIs share a local name keep their full IRI. ``rdf_format`` is
    rdflib's format name; by default from the extension (``.owl`` is RDF/XML).
    """
    try:
        import rdflib
        from rdflib.namespace import OWL, RDF, RDFS
    except ImportError:
        raise InputError(f"{path}: reading an RDF / OWL taxonomy needs rdflib: "
                                 'pip install "spacy-anno-eval[owl]" (or pip install rdflib)') from None
    p = Path(path)
    if not p.is_file():
        raise InputError(f"{p}: no such file")
    fmt = rdf_format or RDF_SUFFIXES.get(p.suffix.lower(), "xml")
    graph = rdflib.Graph()
    try:
        graph.parse(str(p), format=fmt)
    except Exception as err:  # rdflib raises parser-specific exceptions
        first = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
        raise InputError(f"{p}: not a valid RDF file in format {fmt!r}: {first}; check the file, or "
                                 "call read_rdf_taxonomy(path, rdf_format=...) if its extension misleads") from None
    thing = OWL.Thing
    iris: set[str] = set()
    links: set[tuple[str, str]] = set()
    for s, o in graph.subject_objects(RDFS.subClassOf):
        s_ok = isinstance(s, rdflib.URIRef) and s != thing
        o_ok = isinstance(o, rdflib.URIRef) and o != thing
        if s_ok:
            iris.add(str(s))
        if o_ok:
            iris.add(str(o))
        if s_ok and o_ok and s != o:
            links.add((str(s), str(o)))
    for cls in (OWL.Class, RDFS.Class):
        for s in graph.subjects(RDF.type, cls):
            if isinstance(s, rdflib.URIRef) and s != thing:
                iris.add(str(s))
    by_local: dict[str, set[str]] = {}
    for iri in iris:
        by_local.setdefault(_local_name(iri), set()).add(iri)
    label = {iri: (local if len(group) == 1 else iri) for local, group in by_local.items() for iri in group}
    edges: list[tuple[str, str | None, str | None]] = [(label[i], None, str(p)) for i in sorted(iris)]
    edges += [(label[s], label[o], str(p)) for s, o in sorted(links)]
    return _from_located_edges(edges, name if name is not None else p.stem)


# ----------------------------------------------------------------------------------------------------------------
# BDM


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

    def __init__(self, stats: _Stats, max_chains: int) -> None:
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
    s = taxonomy._s
    return _Engine(s, max_chains).pair(s.index[taxonomy._check(key)], s.index[taxonomy._check(response)])


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
    s = taxonomy._s
    engine = _Engine(s, max_chains)
    n = len(s.names)
    for i in range(n):
        s.guard(i, max_chains)
    pairs = [engine.pair(i, j) for i in range(n) for j in range(i, n)]
    return BDMScores(pairs, name=name if name is not None else taxonomy.name, concepts=s.names)


# ----------------------------------------------------------------------------------------------------------------
# GATE's BDM file


def java_float(x: float) -> str:
    """``x`` as Java's ``Float.toString`` prints it: the shortest decimal of its float32 value (``2.0``, ``1.0E-4``)."""
    return _java_float(float(x))


@functools.lru_cache(maxsize=1 << 16)
def _java_float(x: float) -> str:
    f = np.float32(x)
    v = float(f)
    if v != v:
        return "NaN"
    if math.isinf(v):
        return "Infinity" if v > 0 else "-Infinity"
    if v == 0 or 1e-3 <= abs(v) < 1e7:
        text = np.format_float_positional(f, unique=True, trim="0")
        return "-0.0" if text == "0.0" and math.copysign(1.0, v) < 0 else text
    return np.format_float_scientific(f, unique=True, trim="0", exp_digits=1).replace("e+", "E").replace("e", "E")


def format_bdm_line(rec: BDMPair) -> str:
    """One line of GATE's BDM file (no line end)."""
    for concept in (rec.key, rec.response, rec.msca):
        if concept is not None and ("\n" in concept or "\r" in concept):
            raise InputError(f"concept {concept!r}: a name with a line break cannot be written to a BDM file")
    return (f"key={rec.key}, response={rec.response}, bdm={java_float(rec.bdm)}, "
            f"msca={'null' if rec.msca is None else rec.msca}, cp={rec.cp}, dpk={rec.dpk}, dpr={rec.dpr}, "
            f"n0={java_float(rec.n0)}, n1={java_float(rec.n1)}, n2={java_float(rec.n2)}, bran={java_float(rec.bran)}")


def write_bdm_file(scores: BDMScores, path: str | os.PathLike) -> Path:
    """Write ``scores`` in GATE's BDM file format, atomically; return the path."""
    lines = [HEADER.format(name=scores.name)] + [format_bdm_line(rec) for rec in scores.pairs]
    return files.write_text(path, "\n".join(lines) + "\n")


_FIELD_START = re.compile(r"(" + "|".join(FIELDS) + r")=")
_NAME = r"((?:[^,]|,(?! ))*)"  # a concept name without ", " (other names take the slow path)
_CANONICAL_LINE = re.compile(rf"key={_NAME}, response={_NAME}, bdm=([^,\s]+), msca={_NAME}, cp=(-?\d+), "
                             r"dpk=(-?\d+), dpr=(-?\d+), n0=([^,\s]+), n1=([^,\s]+), n2=([^,\s]+), bran=([^,\s]+)")
_HEADER_NAME = re.compile(r"ontology named (.*?)\.?\s*$")


def parse_bdm_line(line: str, where: str = "BDM line") -> BDMPair:
    """A :class:`BDMPair` from one line of a BDM file; ``where`` prefixes error messages (e.g. ``path:line``).

    The line is split on ``", "`` into ``field=value`` parts; a part that does
    not start with a known field name continues the previous value (a concept
    name with ``", "`` in it).
    """
    line = line.strip()
    m = _CANONICAL_LINE.fullmatch(line)
    if m:  # fast path: the fields in GATE's order
        key, response, value, msca, cp, dpk, dpr, n0, n1, n2, bran = m.groups()
        try:
            return BDMPair(key, response, float(value), None if msca == "null" else msca, int(cp), int(dpk),
                           int(dpr), float(n0), float(n1), float(n2), float(bran))
        except ValueError:
            pass  # the slow path below says which field is wrong
    values: dict[str, str] = {}
    last: str | None = None
    for part in line.split(", "):
        m = _FIELD_START.match(part)
        if m and m.group(1) not in values:
            last = m.group(1)
            values[last] = part[m.end():]
        elif m:
            raise InputError(f"{where}: field {m.group(1)!r} appears twice; a BDM line has the fields "
                                     f"{', '.join(FIELDS)} once each")
        elif last is None:
            raise InputError(f"{where}: does not start with 'key='; expected a line like 'key=A, "
                                     "response=B, bdm=0.5, msca=C, cp=1, dpk=1, dpr=1, n0=2.0, n1=2.0, n2=2.0, "
                                     "bran=1.0'")
        else:
            values[last] += ", " + part
    missing = [f for f in FIELDS if f not in values]
    if missing:
        raise InputError(f"{where}: missing field(s) {', '.join(missing)}; a BDM line has the fields "
                                 f"{', '.join(FIELDS)}")
    out: dict[str, Any] = {"key": values["key"], "response": values["response"],
                           "msca": None if values["msca"] == "null" else values["msca"]}
    for f in _FLOAT_FIELDS:
        try:
            out[f] = float(values[f])
        except ValueError:
            raise InputError(f"{where}: {f}={values[f]!r} is not a number") from None
    for f in _INT_FIELDS:
        try:
            out[f] = int(values[f])
        except ValueError:
            raise InputError(f"{where}: {f}={values[f]!r} is not an integer") from None
    return BDMPair(**out)


def read_bdm_file(path: str | os.PathLike) -> BDMScores:
    """Read a BDM file (as :func:`write_bdm_file` or GATE's BDM plugin writes it).

    A first line starting with ``##`` is the header (it gives the ontology
    name; otherwise the file's stem is used); blank lines are skipped. A pair
    listed twice (in either order) must have the same BDM.
    """
    p = Path(path)
    text = _read_text(p, "the BDM file")
    name = p.stem
    pairs: list[BDMPair] = []
    seen: dict[tuple[str, str], tuple[int, float]] = {}
    for lineno, line in enumerate(text.splitlines(), 1):
        if lineno == 1 and line.startswith("##"):
            m = _HEADER_NAME.search(line)
            if m and m.group(1).strip():
                name = m.group(1).strip()
            continue
        if not line.strip():
            continue
        rec = parse_bdm_line(line, f"{p}:{lineno}")
        pair_id = (rec.key, rec.response) if rec.key <= rec.response else (rec.response, rec.key)
        if pair_id in seen:
            first_line, first_bdm = seen[pair_id]
            if np.float32(first_bdm) != np.float32(rec.bdm) and not (rec.bdm != rec.bdm and first_bdm != first_bdm):
                raise InputError(f"{p}:{lineno}: pair {rec.key!r} / {rec.response!r} was given "
                                         f"bdm={java_float(first_bdm)} on line {first_line}, now "
                                         f"bdm={java_float(rec.bdm)}; keep one of the two lines")
            continue
        seen[pair_id] = (lineno, rec.bdm)
        pairs.append(rec)
    return BDMScores(pairs, name=name)
