"""A taxonomy of concepts (direct subclass edges, a DAG) and its readers: TSV and RDF / OWL.

Concepts with direct subclass edges child -> parent; a concept may have
several parents. A *top* concept has no parent, a *leaf* no child. A *chain*
of concept ``c`` is a path ``(c, parent, ..., top)`` up the parent edges; its
length is its number of edges. :class:`Taxonomy` gives the chains and the
statistics the Balanced Distance Metric needs (Maynard, Peters & Li 2006;
GATE user guide 10.6; the measure is :mod:`spacy_anno_eval.bdm.distance`):

- ``n0``: the mean length of all chains of all leaves (one number per taxonomy);
- ``chain_len[c]``: the mean length of the leaf chains that pass through ``c``;
- ``branch[c]``: the number of direct children of ``c``; ``avg_branch``: the
  mean of ``branch`` over the non-leaf concepts.

Chain counts and chain lengths come from path counting over the DAG (a leaf
chain through ``c`` is an up-path of ``c`` joined to a down-path of ``c``),
so ``n0`` and ``chain_len`` never list the leaf chains. Multiple inheritance
can multiply chains; listing the chains of a concept with more than
``max_chains`` (:data:`MAX_CHAINS`, 10,000) is refused.

**Files.** :func:`read_taxonomy` reads a tab-separated ``child<TAB>parent``
list (:func:`read_tsv_taxonomy`) or an RDF/OWL ontology's
``rdfs:subClassOf`` edges (:func:`read_rdf_taxonomy`, with rdflib).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path

from ..errors import InputError
from ..io.parse import open_binary, read_text

MAX_CHAINS = 10_000
RDF_SUFFIXES = {".owl": "xml", ".rdf": "xml", ".xml": "xml", ".ttl": "turtle", ".n3": "n3", ".nt": "nt",
                ".jsonld": "json-ld"}


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
        self._stats: ChainStats | None = None

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
        return self._parents[self.check(concept)]

    def children(self, concept: str) -> tuple[str, ...]:
        """Direct children of ``concept``, sorted."""
        return self._children[self.check(concept)]

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

    def check(self, concept: str) -> str:
        """``concept``, or :class:`InputError` when it is not in the taxonomy."""
        if concept not in self._parents:
            raise InputError(f"concept {concept!r} is not in taxonomy {self._name!r}; "
                                     f"use one of its {len(self._concepts)} concepts (Taxonomy.concepts)")
        return concept

    # --- chain statistics ------------------------------------------------------------------------------------
    @property
    def chain_stats(self) -> ChainStats:
        """The chain statistics on concept indices (computed on first use, then cached)."""
        if self._stats is None:
            self._stats = ChainStats(self)
        return self._stats

    def chain_count(self, concept: str) -> int:
        """The number of chains (paths up to a top concept) of ``concept``."""
        return self.chain_stats.up[self.chain_stats.index[self.check(concept)]]

    def chains(self, concept: str, max_chains: int = MAX_CHAINS) -> list[tuple[str, ...]]:
        """The chains ``(concept, parent, ..., top)`` of ``concept``, ordered by the parents' sorted names."""
        s = self.chain_stats
        i = s.index[self.check(concept)]
        s.guard(i, max_chains)
        return [tuple(s.names[x] for x in reversed(ch)) for ch in s.chains_of(i)]

    @property
    def mean_leaf_chain_length(self) -> float:
        """``n0``: the mean length of the chains of all leaf concepts (0.0 for an empty taxonomy)."""
        return self.chain_stats.n0

    def chain_length(self, concept: str) -> float:
        """``chain_len[concept]``: the mean length of the leaf chains that pass through ``concept``."""
        return self.chain_stats.chain_len[self.chain_stats.index[self.check(concept)]]

    def branching(self, concept: str) -> int:
        """The number of direct children of ``concept``."""
        return len(self._children[self.check(concept)])

    @property
    def mean_branching(self) -> float:
        """``avg_branch``: the mean number of children of the non-leaf concepts (0.0 when there are none)."""
        s = self.chain_stats
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


class ChainStats:
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
    A file that holds no concept (empty, only comments, an ontology without
    classes) raises :class:`InputError`: nothing to compare.
    """
    p = Path(path)
    if not p.is_file():
        raise InputError(f"{p}: no such file")
    taxonomy = read_rdf_taxonomy(p, name=name) if p.suffix.lower() in RDF_SUFFIXES else read_tsv_taxonomy(p, name=name)
    if not taxonomy.concepts:
        raise InputError(f"{p}: nothing to compare: the taxonomy holds no concept (no child<TAB>parent line, no "
                         f"class); give a file with at least one")
    return taxonomy


def read_tsv_taxonomy(path: str | os.PathLike, name: str | None = None) -> Taxonomy:
    """A taxonomy from a text file of ``child<TAB>parent`` lines (see :func:`read_taxonomy`)."""
    p = Path(path)
    text = read_text(p, fix="save the taxonomy as UTF-8")  # a byte-order mark dropped
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
    # the bytes through the located loader; the base IRI of relative IRIs is the file's, as rdflib gives a path
    with open_binary(p, what="a taxonomy") as handle:
        try:
            graph.parse(file=handle, format=fmt, publicID=Path(os.path.abspath(p)).as_uri())
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


__all__ = ["MAX_CHAINS", "RDF_SUFFIXES", "ChainStats", "Taxonomy", "read_rdf_taxonomy", "read_taxonomy",
           "read_tsv_taxonomy"]
