"""What the coreference readers of spaCy's formats share: documents that keep their text, and one rule for a
mention listed twice.

:class:`TextCorefDocument` is a :class:`~spacy_anno_eval.coref.conll2012.CorefDocument` that also keeps the
document's text and each token's character offsets in it, so that a mention can be shown as the text it covers
(:func:`mention_text`) where its tokens alone would lose the spacing (``Obama's`` read as ``Obama ' s``). The
text and offsets take no part in equality: two documents are equal when their names, tokens and entities are.

:func:`entities_of` turns clusters, in the order a file lists them, into a document's entities as
:mod:`~spacy_anno_eval.coref.conll2012` builds them: each entity's mentions sorted, the entities in the order of
their first mention, and a mention listed twice (in one cluster or in two) kept once, in the first cluster that
lists it, as the CoNLL-2012 reader keeps a bracket written twice (the official scorer's test case A9).
:class:`Repeats` counts such mentions over a file and warns once with a
:class:`~spacy_anno_eval.errors.CorefWarning` that says where the first was.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from ..errors import CorefWarning
from .conll2012 import CorefDocument

Mention = tuple[int, ...]


@dataclass(frozen=True)
class TextCorefDocument(CorefDocument):
    """A :class:`CorefDocument` read from a format that holds the text (spaCy's DocBin, JSONL): ``text`` and
    ``offsets``, the ``(start, end)`` character offsets of each token in ``text`` (end exclusive). Neither takes
    part in equality or in the repr."""

    text: str = field(default="", compare=False, repr=False)
    offsets: tuple[tuple[int, int], ...] = field(default=(), compare=False, repr=False)


def mention_text(doc: CorefDocument, mention: Mention) -> str:
    """The text a mention covers: the slice of the document's text from its first token's start to its last
    token's end where the document keeps them (:class:`TextCorefDocument`), else its words joined by spaces (a
    discontinuous CorefUD mention: its words, ``...`` where tokens are left out). An empty node (CorefUD, at a
    fractional position between tokens) gives its form; passing over one that is not in the mention is no gap,
    passing over a token is.

    >>> doc = TextCorefDocument("d", ("Obama", "'", "s", "wife"), ((0, 2),), text="Obama's wife",
    ...                         offsets=((0, 5), (5, 6), (6, 7), (8, 12)))
    >>> mention_text(doc, (0, 2)), mention_text(CorefDocument("d", ("a", "b", "c"), ()), (0, 1))
    ("Obama's", 'a b')
    >>> ud = CorefDocument("d", ("a", "b", "c"), (), contiguous=False, empty=frozenset({0.001, 1.001}),
    ...                    empty_forms={0.001: "pro", 1.001: "it"})
    >>> mention_text(ud, (0, 0.001, 1)), mention_text(ud, (0.001, 1.001)), mention_text(ud, (0, 2))
    ('a pro b', 'pro ... it', 'a ... c')
    """
    offsets = getattr(doc, "offsets", ())
    if doc.contiguous and offsets and len(offsets) == len(doc.tokens):
        return doc.text[offsets[mention[0]][0]:offsets[mention[-1]][1]]  # type: ignore[attr-defined]
    words = doc.words(mention)
    out: list[str] = []
    for i, w in enumerate(words):
        if i and math.floor(words[i - 1]) + 1 < w:  # a token (an integer position) lies between them
            out.append("...")
        out.append(doc.form(w))
    return " ".join(out)


@dataclass
class Repeats:
    """The mentions of a file listed more than once (kept once), and where the first was."""

    count: int = 0
    first: str = ""

    def add(self, count: int, where: str) -> None:
        if count and not self.count:
            self.first = where
        self.count += count

    def warn(self, source: str, kept: str = "in the first cluster that lists it") -> None:
        """One :class:`CorefWarning` for the file ``source`` when some mention was listed again."""
        if self.count:
            n = self.count
            warnings.warn(f"{source}: {n} repeated mention{'s' if n > 1 else ''} (the same tokens listed again) kept "
                          f"once, {kept}; the first: {self.first}", CorefWarning, stacklevel=3)


def entities_of(clusters: Iterable[Sequence[Mention]]) -> tuple[tuple[tuple[Mention, ...], ...], Mention | None, int]:
    """A document's entities from its ``clusters`` (each a sequence of mentions, in file order; module docstring),
    the first mention listed again (``None`` when none was) and how many were. An empty cluster, or one whose
    every mention an earlier cluster holds, is left out."""
    seen: set[Mention] = set()
    entities: list[tuple[Mention, ...]] = []
    first: Mention | None = None
    repeats = 0
    for cluster in clusters:
        kept: list[Mention] = []
        for mention in cluster:
            if mention in seen:
                repeats += 1
                first = first or mention
                continue
            seen.add(mention)
            kept.append(mention)
        if kept:
            entities.append(tuple(sorted(kept)))
    entities.sort(key=lambda ms: ms[0])
    return tuple(entities), first, repeats


__all__ = ["Mention", "Repeats", "TextCorefDocument", "entities_of", "mention_text"]
