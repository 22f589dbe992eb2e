"""Phrase-structure trees with crossing branches: words, tags, and nodes that point to their parents.

Brants and Skut (1998, "Automation of Treebank Annotation", section 4.1)
compare phrase structures "possibly containing crossing branches": a
non-terminal node's *yield* is "the ordered set of terminals that are
(directly or indirectly) dominated by X. The yield need not be contiguous".
A :class:`PhraseTree` holds one such sentence the way the NEGRA export format
and TIGER-XML write it: every word and every node names its parent node and
the *function* (edge label) it has there; a word or node whose parent is
``0`` hangs from the virtual root (NEGRA's ``VROOT``). Nothing requires the
yields to be contiguous, so a discontinuous constituent is as ordinary as a
contiguous one (:meth:`PhraseTree.constituents`).

Readers: :mod:`~.negra` (export format 3 and 4), :mod:`~.tiger` (TIGER-XML),
:mod:`~.discbracket` (disco-dop's discontinuous brackets), and
:func:`from_brackets` for Penn Treebank brackets (:mod:`~.brackets`).

>>> t = PhraseTree(words=("Who", "likes", "Fritz"), tags=("PWS", "VVFIN", "NE"),
...                word_parents=(500, 501, 501), word_functions=("OA", "HD", "SB"),
...                nodes=(PhraseNode(500, "VP", "OC", 501), PhraseNode(501, "S", "--", 0)))
>>> [(c.label, c.positions) for c in t.constituents()]
[('VP', (0,)), ('S', (0, 1, 2))]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from ..errors import InputError
from .brackets import BracketTree, Constituent

#: the parent id of a word or node that hangs from the (virtual) root
ROOT = 0


class PhraseNode(NamedTuple):
    """A non-terminal: its ``id`` (unique in the tree, never 0), category ``label``, the ``function`` (edge
    label) it has in its parent, and the parent's id (``0``: the virtual root)."""

    id: int
    label: str
    function: str
    parent: int


@dataclass(frozen=True)
class PhraseTree:
    """One sentence: words with tags (``lemmas`` when the format has them), each word's parent node id and
    function, and the non-terminal nodes. ``sent_id`` is the sentence's id in its file (NEGRA ``#BOS n``,
    TIGER ``<s id>``, else its number), ``source`` and ``line`` locate it for messages."""

    words: tuple[str, ...]
    tags: tuple[str, ...]
    word_parents: tuple[int, ...]
    word_functions: tuple[str, ...] = ()
    nodes: tuple[PhraseNode, ...] = ()
    lemmas: tuple[str, ...] = ()
    sent_id: str = ""
    source: str = ""
    line: int | None = None
    root_label: str = "VROOT"
    _yields: dict[int, tuple[int, ...]] = field(default=None, init=False, repr=False, compare=False)

    def __post_init__(self):
        if not self.word_functions:
            object.__setattr__(self, "word_functions", ("",) * len(self.words))
        n = len(self.words)
        if not (len(self.tags) == len(self.word_parents) == len(self.word_functions) == n) or (
                self.lemmas and len(self.lemmas) != n):
            raise InputError(f"{self._at()}: words, tags, parents and functions differ in number")
        ids = [node.id for node in self.nodes]
        if len(set(ids)) != len(ids) or ROOT in ids:
            dup = sorted({i for i in ids if ids.count(i) > 1 or i == ROOT})
            raise InputError(f"{self._at()}: node id(s) {', '.join(map(str, dup))} used twice or equal to the "
                             f"root's 0")
        known = set(ids) | {ROOT}
        for what, parent in [*((f"word {i + 1} {w!r}", p) for i, (w, p) in
                                enumerate(zip(self.words, self.word_parents, strict=True))),
                             *((f"node #{node.id}", node.parent) for node in self.nodes)]:
            if parent not in known:
                raise InputError(f"{self._at()}: {what} points to parent #{parent}, which is not a node of the "
                                 f"sentence (nodes: {', '.join(f'#{i}' for i in ids) or 'none'}; 0 is the root)")
        self._check_cycles()

    def _at(self) -> str:
        parts = [p for p in (self.source, f"line {self.line}" if self.line else "",
                             f"sentence {self.sent_id}" if self.sent_id else "") if p]
        return ", ".join(parts) or "tree"

    def _check_cycles(self) -> None:
        """Every node leads to the root: one walk up per node, stopping at a node already known to (linear in
        the number of nodes, however deep the tree; no recursion)."""
        parent = {node.id: node.parent for node in self.nodes}
        leads_to_root = {ROOT}
        for start in parent:
            path, seen, at = [], set(), start
            while at not in leads_to_root:
                if at in seen:
                    raise InputError(f"{self._at()}: node #{start}'s parents form a cycle; a tree's nodes must "
                                     f"lead to the root (0)")
                seen.add(at)
                path.append(at)
                at = parent[at]
            leads_to_root.update(path)

    def __len__(self) -> int:
        return len(self.words)

    def yields(self) -> dict[int, tuple[int, ...]]:
        """Each node's yield: the sorted positions (0-based) of the words it dominates."""
        if self._yields is None:
            parent = {node.id: node.parent for node in self.nodes}
            found: dict[int, list[int]] = {node.id: [] for node in self.nodes}
            for i, p in enumerate(self.word_parents):
                while p != ROOT:
                    found[p].append(i)
                    p = parent[p]
            object.__setattr__(self, "_yields", {k: tuple(sorted(v)) for k, v in found.items()})
        return self._yields

    def constituents(self) -> list[Constituent]:
        """The nodes that dominate a word, as :class:`~.brackets.Constituent` (label and yield), in file
        order; the virtual root is not one."""
        ys = self.yields()
        return [Constituent(node.label, ys[node.id]) for node in self.nodes if ys[node.id]]

    def parent_labels(self) -> tuple[str, ...]:
        """Each word's parent category (the root's label for a word under the root)."""
        label = {node.id: node.label for node in self.nodes}
        return tuple(label.get(p, self.root_label) for p in self.word_parents)

    def children(self) -> dict[int, list[int]]:
        """Each node's child nodes (ids, file order); key ``0`` holds the root's."""
        out: dict[int, list[int]] = {ROOT: [], **{node.id: [] for node in self.nodes}}
        for node in self.nodes:
            out[node.parent].append(node.id)
        return out


def is_discontinuous(positions: Sequence[int]) -> bool:
    """A yield with a gap: ``(0, 2)`` is, ``(1, 2, 3)`` is not."""
    return bool(positions) and positions[-1] - positions[0] + 1 != len(positions)


def from_brackets(tree: BracketTree, source: str = "") -> PhraseTree:
    """A Penn Treebank bracketed tree as a :class:`PhraseTree`: each bracket a node (ids 500, 501, ... in
    preorder), its parent the nearest enclosing bracket, each word's parent the innermost bracket around it.
    The empty outer bracket ``( (S ...))`` becomes the root; labels are kept as written (``NP-SBJ``), and
    functions are empty (brackets have no edge labels).

    >>> from spacy_anno_eval.trees.brackets import parse_brackets
    >>> t = from_brackets(parse_brackets("( (S (NP (DT The) (NN cat)) (VP (VBD sat))))")[0])
    >>> [(n.id, n.label, n.parent) for n in t.nodes], t.word_parents
    ([(500, 'S', 0), (501, 'NP', 500), (502, 'VP', 500)], (501, 501, 502))
    """
    nodes: list[PhraseNode] = []
    stack: list[tuple[int, int, int]] = []  # (start, end, node id) of the open brackets
    word_parents = [ROOT] * len(tree.words)
    for i, b in enumerate(tree.brackets):
        # preorder: the parent is the last bracket still open whose span holds this one (the outer one of a
        # unary chain, since it comes first)
        while stack and not (stack[-1][0] <= b.start and b.end <= stack[-1][1]):
            stack.pop()
        parent = stack[-1][2] if stack else ROOT
        if b.label == "" and i in tree.outer:
            node_id = ROOT
        else:
            node_id = 500 + len(nodes)
            nodes.append(PhraseNode(node_id, b.label, "", parent))
        for w in range(b.start, b.end):
            word_parents[w] = node_id
        stack.append((b.start, b.end, node_id))
    return PhraseTree(words=tree.words, tags=tree.tags, word_parents=tuple(word_parents), nodes=tuple(nodes),
                      sent_id=str(tree.number), source=source, line=tree.line, root_label="")


def trees_by_id(trees: Iterable[PhraseTree]) -> dict[str, PhraseTree]:
    """Index sentences by ``sent_id``; a repeated id is an :class:`InputError` naming both places."""
    out: dict[str, PhraseTree] = {}
    for t in trees:
        if t.sent_id in out:
            raise InputError(f"{t._at()}: sentence id {t.sent_id!r} repeats (first at line {out[t.sent_id].line})")
        out[t.sent_id] = t
    return out


__all__ = ["ROOT", "PhraseNode", "PhraseTree", "from_brackets", "is_discontinuous", "trees_by_id"]
