"""What differs between a key's and a response's coreference of one document: each entity and each mention.

A mention is **aligned** when it has a counterpart on the other side: under
exact matching the identical mention; otherwise the pairs a matching gives
(``pairs``: response mention -> key mention, one-to-one, identical pairs
included; :func:`spacy_anno_eval.coref.matching.align_mentions` gives them).

Key entities are aligned one-to-one with response entities by the **CEAFm
alignment** (Luo 2005): the one that maximises the number of aligned mentions
the paired entities share (the Hungarian algorithm,
``scipy.optimize.linear_sum_assignment``), the alignment that CEAFm scores, so
the picture and the figure tell one story. Among alignments that share as many
mentions, the one whose paired entities' first shared mentions come earliest
(the smallest sum of their ranks in document order) wins: an entity split in
two halves of the same size stays with the half holding its first mention, and
the result is deterministic. An entity that shares no mention with any entity of
the other side is aligned to none.

Every mention then gets one status:

- ``correct``: aligned, and its response entity is aligned to its key entity;
- ``moved``: aligned, but its response entity is aligned to another key entity,
  or to none (the response put it in another cluster: of an entity split in two,
  the smaller half is moved);
- ``missing``: a key mention with no response counterpart;
- ``spurious``: a response mention with no key counterpart.

A key and a response mention that are aligned are one row of
:attr:`CorefDiff.mentions`, so the key's mentions are correct + moved +
missing and the response's correct + moved + spurious.

In CorefUD documents a mention's words may include **empty nodes**, at fractional
positions between tokens (``3.001``: the first empty node after the 4th token;
:class:`~spacy_anno_eval.coref.conll2012.CorefDocument`): a mention is within its
document when each of its words is one of its tokens or one of its own empty
nodes (a key and a response may have different empty nodes, since systems
predict their own zeros, but the same tokens). A zero mention is compared like
any other, by its position.

Colours: key entity *i* has colour *i*; a response entity aligned to key
entity *k* shares *k*'s colour, so that a cluster both sides agree on looks
the same on both; the response entities aligned to none get the colours after
the key's, in their order. A colour is an index; a renderer picks the hue.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from ..errors import InputError
from .conll2012 import CorefDocument
from .documents import mention_text
from .matching import kept_entities

Mention = tuple[int, ...]
STATUSES = ("correct", "moved", "missing", "spurious")


@dataclass(frozen=True)
class MentionRow:
    """One mention, or an aligned pair of mentions: the key's and the response's (``None`` where a side has
    none), their entities (indices into each document's ``entities``), the words each covers (positions; an
    empty node's fractional), the text (the key mention's where there is one, by
    :func:`~spacy_anno_eval.coref.documents.mention_text`: ``...`` marks left-out tokens) and the status."""

    key: Mention | None
    response: Mention | None
    key_entity: int | None
    response_entity: int | None
    key_words: tuple[float, ...]
    response_words: tuple[float, ...]
    text: str
    status: str

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready (mentions as lists)."""
        return {"key": None if self.key is None else list(self.key),
                "response": None if self.response is None else list(self.response),
                "key_entity": self.key_entity, "response_entity": self.response_entity, "text": self.text,
                "status": self.status}


@dataclass(frozen=True)
class EntityRow:
    """One colour: a key entity and the response entity aligned to it (either may be ``None``), their sizes,
    how many mentions they share (``correct``), the key's mentions moved out of it (``key_moved``), the
    response's moved into it (``response_moved``), the missing and the spurious; ``text``: its first
    mention's."""

    colour: int
    key_entity: int | None
    response_entity: int | None
    key_mentions: int
    response_mentions: int
    correct: int
    key_moved: int
    response_moved: int
    missing: int
    spurious: int
    text: str

    @property
    def agrees(self) -> bool:
        """Both sides have this cluster, with the same (aligned) mentions."""
        return self.correct == self.key_mentions == self.response_mentions > 0

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready."""
        return {name: getattr(self, name) for name in self.__dataclass_fields__} | {"agrees": self.agrees}


@dataclass(frozen=True)
class CorefDiff:
    """The difference of one document (see the module): the entity alignment (key entity, response entity),
    each response entity's colour, a row per colour and per mention (sorted by position), and the number of
    mention rows of each status."""

    name: str
    n_key_entities: int
    alignment: tuple[tuple[int, int], ...]
    response_colours: tuple[int, ...]
    entities: tuple[EntityRow, ...]
    mentions: tuple[MentionRow, ...]
    counts: Mapping[str, int]

    @property
    def n_agreeing(self) -> int:
        """How many clusters both sides have with the same mentions (:attr:`EntityRow.agrees`)."""
        return sum(e.agrees for e in self.entities)

    @property
    def n_colours(self) -> int:
        """How many colours the document uses (key entities, then response entities aligned to none)."""
        return len(self.entities)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready."""
        return {"name": self.name, "counts": dict(self.counts), "agreeing": self.n_agreeing,
                "alignment": [list(p) for p in self.alignment], "response_colours": list(self.response_colours),
                "entities": [e.to_dict() for e in self.entities], "mentions": [m.to_dict() for m in self.mentions]}


def _within(doc: CorefDocument, words: Sequence[float]) -> bool:
    """Whether every word is one of the document's tokens (an integer position) or one of its empty nodes."""
    n = len(doc.tokens)
    return bool(words) and all(w in doc.empty if isinstance(w, float) else 0 <= w < n for w in words)


def _owners(doc: CorefDocument, side: str) -> dict[Mention, int]:
    """Each mention's entity (its index); a mention in two entities, or outside the document (a word that is
    neither one of its tokens nor one of its empty nodes), is refused."""
    owner: dict[Mention, int] = {}
    for i, entity in enumerate(doc.entities):
        for m in entity:
            words = doc.words(m)
            if not _within(doc, words):
                n = len(doc.empty)
                nodes = f" and {n} empty node{'' if n == 1 else 's'}" if n else ""
                raise InputError(f"document {doc.name!r}: the {side}'s mention {m} is not within its "
                                 f"{len(doc.tokens)} tokens{nodes}")
            if owner.setdefault(m, i) != i:
                raise InputError(f"document {doc.name!r}: the {side}'s mention {m} is in entities {owner[m] + 1} "
                                 f"and {i + 1}; a mention belongs to one entity")
    return owner


def _checked_pairs(pairs: Mapping[Mention, Mention], key: dict[Mention, int], response: dict[Mention, int],
                   name: str) -> dict[Mention, Mention]:
    """``pairs`` (response -> key) turned round (key -> response), each mention checked."""
    seen: dict[Mention, Mention] = {}
    for r, k in pairs.items():
        r, k = tuple(r), tuple(k)
        if r not in response or k not in key:
            raise InputError(f"document {name!r}: the pair {r} -> {k} names a mention that is not in the "
                             f"{'response' if r not in response else 'key'}; pairs map response mentions to key "
                             f"mentions")
        if k in seen:
            raise InputError(f"document {name!r}: the key mention {k} is paired with {seen[k]} and {r}; pairs are "
                             f"one-to-one")
        seen[k] = r
    return seen


def _components(edges: Sequence[tuple[int, int]]) -> list[list[tuple[int, int]]]:
    """The edges (key entity, response entity) grouped by connected component of the bipartite graph."""
    parent: dict[tuple[str, int], tuple[str, int]] = {}

    def find(x: tuple[str, int]) -> tuple[str, int]:
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for k, r in edges:
        parent[find(("k", k))] = find(("r", r))
    groups: dict[tuple[str, int], list[tuple[int, int]]] = {}
    for k, r in edges:
        groups.setdefault(find(("k", k)), []).append((k, r))
    return list(groups.values())


def align_entities(shared: Mapping[tuple[int, int], int], first: Mapping[tuple[int, int], int]
                   ) -> dict[int, int]:
    """Key entity -> response entity, one-to-one, maximising the shared mentions (``shared[(k, r)]``); ties
    go to the pairs whose first shared mention comes first (``first[(k, r)]``: its rank, distinct per pair).
    Each connected group of entities is solved alone (most are a single pair)."""
    from scipy.optimize import linear_sum_assignment

    out: dict[int, int] = {}
    for group in _components(sorted(shared)):
        if len(group) == 1:
            out[group[0][0]] = group[0][1]
            continue
        rows = sorted({k for k, _ in group})
        cols = sorted({r for _, r in group})
        row_of, col_of = {k: i for i, k in enumerate(rows)}, {r: j for j, r in enumerate(cols)}
        ranks = [first[p] for p in group]
        # one more shared mention outweighs any sum of ranks: exact integers (float64 holds them up to 2**53)
        big = min(len(rows), len(cols)) * (max(ranks) + 1) + 1
        weights = np.zeros((len(rows), len(cols)), dtype=np.int64)
        for k, r in group:
            weights[row_of[k], col_of[r]] = shared[(k, r)] * big - first[(k, r)]
        for i, j in zip(*linear_sum_assignment(weights, maximize=True), strict=True):
            if weights[i, j] > 0:
                out[rows[i]] = cols[j]
    return out


def _position(words: tuple[float, ...]) -> tuple[Any, ...]:
    """Document order: by first word, the longer (outer) mention first."""
    return words[0], -words[-1], words


def document_diff(key: CorefDocument, response: CorefDocument,
                  pairs: Mapping[Mention, Mention] | None = None) -> CorefDiff:
    """The difference of one document's key and response (see the module). ``pairs``: each aligned response
    mention -> its key mention (one-to-one); ``None``: exact matching. Documents of different lengths, a
    mention in two entities of one side, a mention outside its document (a word neither one of its tokens
    nor one of its empty nodes) and pairs naming mentions the documents do not have are
    :class:`~spacy_anno_eval.errors.InputError`."""
    if len(key.tokens) != len(response.tokens):
        raise InputError(f"document {key.name!r}: the key has {len(key.tokens)} tokens, the response "
                         f"{len(response.tokens)}; the files must hold the same tokens")
    key_owner, response_owner = _owners(key, "key"), _owners(response, "response")
    if pairs is None:
        counterpart = {m: m for m in key_owner if m in response_owner}  # key -> response
    else:
        counterpart = _checked_pairs(pairs, key_owner, response_owner, key.name)
    rank = {m: i for i, m in enumerate(sorted(key_owner))}
    shared: Counter[tuple[int, int]] = Counter()
    first: dict[tuple[int, int], int] = {}
    for k, r in counterpart.items():
        edge = (key_owner[k], response_owner[r])
        shared[edge] += 1
        first[edge] = min(first.get(edge, rank[k]), rank[k])
    alignment = align_entities(shared, first)
    aligned_to = {r: k for k, r in alignment.items()}

    n_key = len(key.entities)
    colours, extra = [], n_key
    for j in range(len(response.entities)):
        if j in aligned_to:
            colours.append(aligned_to[j])
        else:
            colours.append(extra)
            extra += 1

    rows: list[MentionRow] = []
    for k, ke in key_owner.items():
        words = key.words(k)
        r = counterpart.get(k)
        if r is None:
            rows.append(MentionRow(k, None, ke, None, words, (), mention_text(key, k), "missing"))
            continue
        re_ = response_owner[r]
        status = "correct" if alignment.get(ke) == re_ else "moved"
        rows.append(MentionRow(k, r, ke, re_, words, response.words(r), mention_text(key, k), status))
    paired = set(counterpart.values())
    for r, re_ in response_owner.items():
        if r not in paired:
            rows.append(MentionRow(None, r, None, re_, (), response.words(r), mention_text(response, r), "spurious"))
    rows.sort(key=lambda m: _position(m.key_words or m.response_words) + (m.key is None,))

    entities = _entity_rows(key, response, rows, colours)
    counts = Counter(m.status for m in rows)
    return CorefDiff(key.name, n_key, tuple(sorted(alignment.items())), tuple(colours), entities, tuple(rows),
                     {s: counts.get(s, 0) for s in STATUSES})


def _entity_rows(key: CorefDocument, response: CorefDocument, rows: Sequence[MentionRow],
                 colours: Sequence[int]) -> tuple[EntityRow, ...]:
    """A row per colour, its counts tallied from the mention rows."""
    n = max([len(key.entities) - 1, *colours], default=-1) + 1
    by_colour: list[dict[str, Any]] = [{"key_entity": c if c < len(key.entities) else None,
                                        "response_entity": None} for c in range(n)]
    for j, c in enumerate(colours):
        by_colour[c]["response_entity"] = j
    tally: list[Counter[str]] = [Counter() for _ in range(n)]
    for m in rows:
        if m.key_entity is not None:
            tally[m.key_entity]["key_moved" if m.status == "moved" else m.status] += 1
        if m.response_entity is not None and m.status in ("moved", "spurious"):
            tally[colours[m.response_entity]]["response_moved" if m.status == "moved" else m.status] += 1
    out = []
    for c, entry in enumerate(by_colour):
        ke, re_ = entry["key_entity"], entry["response_entity"]
        ks = key.entities[ke] if ke is not None else ()
        rs = response.entities[re_] if re_ is not None else ()
        text = mention_text(key, ks[0]) if ks else mention_text(response, rs[0]) if rs else ""
        t = tally[c]
        out.append(EntityRow(c, ke, re_, len(ks), len(rs), t["correct"], t["key_moved"], t["response_moved"],
                             t["missing"], t["spurious"], text))
    return tuple(out)


def kept(doc: CorefDocument, keep_singletons: bool = True, keep_zeros: bool = True) -> CorefDocument:
    """The document as it was scored: its entities by
    :func:`~spacy_anno_eval.coref.matching.kept_entities` (the one rule the scores use); the document itself
    when that removes nothing."""
    entities = tuple(kept_entities(doc, keep_singletons, keep_zeros))
    return doc if entities == doc.entities else replace(doc, entities=entities)


def document_diffs(key_docs: Sequence[CorefDocument], response_docs: Sequence[CorefDocument],
                   pairs: Sequence[Mapping[Mention, Mention] | None] | None = None, *,
                   keep_singletons: bool = True, keep_zeros: bool = True) -> list[CorefDiff]:
    """:func:`document_diff` of each document pair, the documents first reduced as they were scored
    (:func:`kept`); a pair naming a mention so removed is left out. ``pairs``: one mapping (or ``None``:
    exact) per document."""
    if len(key_docs) != len(response_docs):
        raise InputError(f"the key has {len(key_docs)} documents and the response {len(response_docs)}; compare "
                         f"the response of the same documents")
    if pairs is not None and len(pairs) != len(key_docs):
        raise InputError(f"{len(pairs)} mention pairings for {len(key_docs)} documents; give one per document")
    out = []
    for i, (k, r) in enumerate(zip(key_docs, response_docs, strict=True)):
        k, r = kept(k, keep_singletons, keep_zeros), kept(r, keep_singletons, keep_zeros)
        p = None if pairs is None else pairs[i]
        if p is not None and (k is not key_docs[i] or r is not response_docs[i]):
            km, rm = set(k.mentions), set(r.mentions)
            p = {a: b for a, b in p.items() if tuple(a) in rm and tuple(b) in km}
        out.append(document_diff(k, r, p))
    return out


def total_counts(diffs: Sequence[CorefDiff]) -> dict[str, int]:
    """The mention rows of each status over documents."""
    return {s: sum(d.counts[s] for d in diffs) for s in STATUSES}


__all__ = ["STATUSES", "CorefDiff", "EntityRow", "MentionRow", "align_entities", "document_diff", "document_diffs",
           "kept", "total_counts"]
