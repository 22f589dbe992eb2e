"""Character tags: a text with one entity type per character, from spans over the text.

Step 1 of noisy-text NER evaluation (see :mod:`spacy_anno_eval.noisy.evaluate`):
both texts become :class:`CharTags`, read from a BIO/BIOES file
(:mod:`spacy_anno_eval.noisy.reader`) or built from character spans such as
the spans of a spaCy Doc (:func:`char_tags_from_spans`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from ..errors import InputError, where
from .settings import OUTSIDE


@dataclass
class CharTags:
    """A text with one entity tag per character.

    ``types[i]`` is an index into ``labels`` (``labels[0] == "O"``),
    ``begins[i]`` whether character ``i`` begins an entity. ``counts`` is the
    number of entities (beginnings) per type, types without entity left out.
    """

    text: str
    types: np.ndarray
    begins: np.ndarray
    labels: list[str]
    counts: dict[str, int]

    def tags(self) -> list[str]:
        """The type of every character (``"O"`` outside entities), as in nerval's README."""
        names = np.asarray(self.labels, dtype=object)
        return names[self.types].tolist()

    def bio(self) -> list[str]:
        """``B-TYPE`` / ``I-TYPE`` / ``O`` per character, as nerval's parser labels them."""
        return [OUTSIDE if not t else ("B-" if b else "I-") + self.labels[t]
                for t, b in zip(self.types.tolist(), self.begins.tolist(), strict=True)]

    def recode(self, labels: list[str], index: dict[str, int]) -> CharTags:
        """The same tags with type indices into ``labels`` (extended in place with unseen types)."""
        table = np.empty(len(self.labels), dtype=np.int32)
        for i, name in enumerate(self.labels):
            if name not in index:
                index[name] = len(labels)
                labels.append(name)
            table[i] = index[name]
        return CharTags(self.text, table[self.types], self.begins, labels, self.counts)


def char_tags_from_spans(text: str, spans: Iterable[tuple[int, int, str]], source: str | None = None) -> CharTags:
    """Character tags of ``text`` from ``(start_char, end_char, label)`` spans.

    Characters of a span get its label (the whitespace inside it too), its
    first character begins an entity; exact duplicates count once. A span nested strictly inside another
    (starting after it) interrupts it as nerval's nested entities do; crossing
    spans, and spans sharing their start with an enclosing span, raise
    :class:`InputError`. Empty spans are ignored.
    """
    items = sorted({(int(s), int(e), str(lab)) for s, e, lab in spans if int(e) > int(s)},
                   key=lambda x: (x[0], -x[1], x[2]))
    labels = [OUTSIDE]
    index = {OUTSIDE: 0}
    types = np.zeros(len(text), dtype=np.int32)
    begins = np.zeros(len(text), dtype=bool)
    counts: dict[str, int] = {}
    stack: list[tuple[int, int, str]] = []
    for s, e, lab in items:
        if s < 0 or e > len(text):
            raise InputError(f"{where(source, span=(s, e))}: span out of range for a text of "
                                     f"{len(text)} characters")
        if not lab or lab == OUTSIDE:
            raise InputError(f"{where(source, span=(s, e))}: invalid entity label {lab!r}")
        while stack and stack[-1][1] <= s:
            stack.pop()
        if stack:
            ps, pe, plab = stack[-1]
            if s == ps or e > pe:
                how = "crosses" if e > pe else "shares its start with"
                raise InputError(
                    f"{where(source, span=(s, e))}: span {lab!r} {how} span {plab!r} [{ps}, {pe}); noisy-text "
                    f"matching needs one tag per character (nested spans must start inside their parent): "
                    f"resolve overlaps first, e.g. with spacy.util.filter_spans"
                )
        stack.append((s, e, lab))
        t = index.get(lab)
        if t is None:
            t = index[lab] = len(labels)
            labels.append(lab)
        types[s:e] = t
        begins[s] = True
        counts[lab] = counts.get(lab, 0) + 1
    return CharTags(text, types, begins, labels, counts)


__all__ = ["CharTags", "char_tags_from_spans"]
