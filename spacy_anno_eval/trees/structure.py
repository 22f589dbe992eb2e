"""Depth-one substructures of a tree: the sequences Brants & Skut's models read (1998, sections 3.1, 4.2).

Brants & Skut score an annotation phrase by phrase: "the probabilities of
each sub-structure of depth one are calculated separately" (section 4.2). A
:class:`Phrase` is one such substructure: a parent's *category* (which
Markov model reads it) and its children in word order, each child with its
category (the model's *output*: a word's part-of-speech tag, a node's
label) and its grammatical function (the model's *state*: the edge label).

Phrase structures (:class:`~.phrase.PhraseTree`): one phrase per node with
children, and one for the virtual root (category ``root_label``, else
``VROOT``), so that every word and every node is the child of exactly one
phrase. A child's position is its first word (a node with no word comes
last). An empty function is written ``--`` (NEGRA's "no label"). Trees read
from Penn brackets (every function empty) carry their function tags in the
labels: ``NP-SBJ-1`` is category ``NP`` with function ``SBJ`` (index and
``=`` gap numbers dropped; several tags joined: ``PP-LOC-CLR`` ->
``LOC-CLR``); a label starting with ``-`` is kept whole.

Dependency trees (:class:`~.conllu.Sentence`): one phrase per word (the
*head*), category its UPOS (XPOS when UPOS is ``_``), children its
dependents and the head itself at its own position, outputs their tags,
states their relations; the head is the output and state ``<HEAD>``, which
only it emits, so the model sees on which side each dependent is and how
many there are (a word without dependents is the phrase ``<HEAD>`` alone).
The root's phrase has category ``ROOT`` and the words whose head is 0.

The number of nodes ``n`` of section 4.2 (``n = n_nt + n_t``): nonterminals
plus words for a phrase structure (the virtual root is no node), the words
for a dependency tree.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ..errors import InputError
from .conllu import Sentence
from .phrase import ROOT, PhraseTree

#: the function of a child whose edge has no label
NO_FUNCTION = "--"
#: the output and state of a dependency head in its own dependents' sequence
HEAD = "<HEAD>"
#: the category of a dependency tree's root phrase
DEP_ROOT = "ROOT"
_PENN_SPLIT = re.compile(r"[-=]")


@dataclass(frozen=True)
class Phrase:
    """One depth-one substructure. ``children`` holds ``(node id, word)`` per child (one of them ``None``;
    words 1-based); ``decided[j]`` is False for a child whose state is no decision (the ``<HEAD>`` marker);
    ``node`` is the phrase's node id (phrase trees; ``None`` for the root), ``word`` its head word
    (dependency trees; ``None`` for the root); ``root``: the root's phrase (its category is no decision)."""

    category: str
    outputs: tuple[str, ...]
    states: tuple[str, ...]
    children: tuple[tuple[int | None, int | None], ...]
    decided: tuple[bool, ...]
    node: int | None = None
    word: int | None = None
    root: bool = False


def penn_label(label: str) -> tuple[str, str]:
    """``(category, function)`` of a Penn Treebank label.

    >>> penn_label("NP-SBJ-1"), penn_label("PP-LOC-CLR"), penn_label("NP=2"), penn_label("-NONE-")
    (('NP', 'SBJ'), ('PP', 'LOC-CLR'), ('NP', '--'), ('-NONE-', '--'))
    """
    if not label or label.startswith("-"):
        return label, NO_FUNCTION
    head, *rest = _PENN_SPLIT.split(label)
    tags = [t for t in rest if t and not t.isdigit()]
    return head, "-".join(tags) or NO_FUNCTION


def is_penn(tree: PhraseTree) -> bool:
    """Whether ``tree`` has no function at all (brackets): its labels then carry the functions."""
    return not any(tree.word_functions) and not any(n.function for n in tree.nodes)


def node_labels(tree: PhraseTree) -> dict[int, tuple[str, str]]:
    """Each node's ``(category, function)`` as the models see them (Penn labels split, empty -> ``--``)."""
    if is_penn(tree):
        return {n.id: penn_label(n.label) for n in tree.nodes}
    return {n.id: (n.label, n.function or NO_FUNCTION) for n in tree.nodes}


def root_category(tree: PhraseTree) -> str:
    return tree.root_label or "VROOT"


def _phrase_tree(tree: PhraseTree) -> list[Phrase]:
    labels = node_labels(tree)
    yields = tree.yields()
    first = {nid: (ys[0] if ys else len(tree.words)) for nid, ys in yields.items()}
    kids: dict[int, list[tuple[tuple[int, int, int], str, str, tuple[int | None, int | None]]]] = {
        ROOT: [], **{n.id: [] for n in tree.nodes}}
    for i, (tag, fn, p) in enumerate(zip(tree.tags, tree.word_functions, tree.word_parents, strict=True)):
        kids[p].append(((i, 0, 0), tag, fn or NO_FUNCTION, (None, i + 1)))
    for n in tree.nodes:
        cat, fn = labels[n.id]
        kids[n.parent].append(((first[n.id], 1, n.id), cat, fn, (n.id, None)))
    out = []
    for nid, children in kids.items():
        if not children:
            continue
        children.sort(key=lambda c: c[0])
        category = root_category(tree) if nid == ROOT else labels[nid][0]
        out.append(Phrase(category, tuple(c[1] for c in children), tuple(c[2] for c in children),
                          tuple(c[3] for c in children), (True,) * len(children),
                          node=None if nid == ROOT else nid, root=nid == ROOT))
    return out


def word_tag(word: Any) -> str:
    """A dependency word's category: UPOS, else XPOS (when UPOS is ``_``)."""
    return word.upos if word.upos != "_" else word.xpos


def _dependency_tree(sent: Sentence) -> list[Phrase]:
    words = sent.words
    n = len(words)
    # lists filled in word order, so each is sorted: word i joins its head's list and, as <HEAD>, its own
    outs: list[list[str]] = [[] for _ in range(n + 1)]
    states: list[list[str]] = [[] for _ in range(n + 1)]
    kids: list[list[tuple[None, int]]] = [[] for _ in range(n + 1)]
    decided: list[list[bool]] = [[] for _ in range(n + 1)]
    tags = [word_tag(w) for w in words]
    for i, w in enumerate(words, 1):
        h = w.head
        outs[h].append(tags[i - 1])
        states[h].append(w.deprel)
        kids[h].append((None, i))
        decided[h].append(True)
        outs[i].append(HEAD)
        states[i].append(HEAD)
        kids[i].append((None, i))
        decided[i].append(False)
    out = []
    if kids[0]:
        out.append(Phrase(DEP_ROOT, tuple(outs[0]), tuple(states[0]), tuple(kids[0]), tuple(decided[0]), root=True))
    for i in range(1, n + 1):
        out.append(Phrase(tags[i - 1], tuple(outs[i]), tuple(states[i]), tuple(kids[i]), tuple(decided[i]), word=i))
    return out


def substructures(tree: PhraseTree | Sentence) -> list[Phrase]:
    """The depth-one substructures of ``tree`` (see the module docstring), root phrase first for
    dependency trees, in node order otherwise."""
    if isinstance(tree, PhraseTree):
        return _phrase_tree(tree)
    if isinstance(tree, Sentence):
        return _dependency_tree(tree)
    raise InputError(f"{type(tree).__name__} is not a tree: a PhraseTree (NEGRA, TIGER-XML, brackets) or a "
                     f"CoNLL-U Sentence")


def tree_kind(tree: Any) -> str:
    """``"phrase"`` or ``"dependency"``; anything else is an :class:`InputError`."""
    if isinstance(tree, PhraseTree):
        return "phrase"
    if isinstance(tree, Sentence):
        return "dependency"
    raise InputError(f"{type(tree).__name__} is not a tree: a PhraseTree (NEGRA, TIGER-XML, brackets) or a "
                     f"CoNLL-U Sentence")


def n_nodes(tree: PhraseTree | Sentence) -> int:
    """Section 4.2's ``n``: nonterminals + words (phrase structure), words (dependency tree)."""
    if isinstance(tree, PhraseTree):
        return len(tree.words) + len(tree.nodes)
    return len(tree.words)


def label_keys(tree: PhraseTree | Sentence) -> dict[tuple, str]:
    """Every label of ``tree`` by a key that does not depend on node ids, for comparing two versions of
    one sentence: ``("function", "w", i)`` / ``("function", "n", yield, k)`` and ``("category", "n",
    yield, k)`` (``k``: the node's depth in a unary chain of equal yields); dependency trees: functions
    of words only (:func:`node_keys` maps node ids to their ``("n", yield, k)``)."""
    out: dict[tuple, str] = {}
    if isinstance(tree, Sentence):
        for w in tree.words:
            out[("function", "w", w.id)] = w.deprel
        return out
    keys = node_keys(tree)
    labels = node_labels(tree)
    for i, fn in enumerate(tree.word_functions):
        out[("function", "w", i + 1)] = fn or NO_FUNCTION
    for n in tree.nodes:
        cat, fn = labels[n.id]
        out[("function", *keys[n.id])] = fn
        out[("category", *keys[n.id])] = cat
    return out


def node_keys(tree: PhraseTree) -> dict[int, tuple]:
    """Each node id's key ``("n", yield, k)`` (see :func:`label_keys`)."""
    yields = tree.yields()
    parent = {n.id: n.parent for n in tree.nodes}
    out = {}
    for n in tree.nodes:
        k, p = 0, n.parent
        while p != ROOT and yields[p] == yields[n.id]:
            k, p = k + 1, parent[p]
        out[n.id] = ("n", yields[n.id], k)
    return out


def annotation_signature(tree: PhraseTree | Sentence) -> Any:
    """What the models read of an annotation, independent of node ids: two versions of a sentence *differ*
    when their signatures differ. Phrase trees: words' tags, every label (:func:`label_keys`) and every
    word's and node's parent (by key); dependency trees: every word's tag, head and relation."""
    if isinstance(tree, Sentence):
        return tuple((word_tag(w), w.head, w.deprel) for w in tree.words)
    keys = node_keys(tree)
    parents = tuple(keys.get(p, "root") for p in tree.word_parents)
    node_parents = frozenset((keys[n.id], keys.get(n.parent, "root")) for n in tree.nodes)
    return tree.tags, parents, node_parents, frozenset(label_keys(tree).items())


__all__ = ["DEP_ROOT", "HEAD", "NO_FUNCTION", "Phrase", "annotation_signature", "is_penn", "label_keys",
           "n_nodes", "node_keys", "node_labels", "penn_label", "substructures", "tree_kind", "word_tag"]
