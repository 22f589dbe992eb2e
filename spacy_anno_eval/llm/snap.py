"""Snapping a found span to token boundaries, as spaCy's ``Doc.char_span(start, end, alignment_mode=...)``.

Tokens are given per document as ``(start, end)`` character offsets (the key's tokens, e.g. a DocBin's), or,
when none are given, by the **word rule**: a token is a maximal run of word characters (``\\w``: letters,
digits, marks of letters and ``_``, i.e. ``str.isalnum()`` or ``'_'``) or any other single character that is
not white space (regular expression ``\\w+|[^\\w\\s]``): ``"Jean-Jacques's"`` is ``Jean``, ``-``, ``Jacques``,
``'``, ``s``.

A token *owns* the characters from its start to the next token's start (its trailing white space, as spaCy's
``token_by_char`` counts ``idx + len + whitespace``); the last token owns its own characters and one white
space character after it. With ``i`` the token owning ``start`` and ``j`` the one owning ``end - 1``
(spaCy 3.8, ``spacy/tokens/doc.pyx``, ``Doc.char_span``):

- ``strict``: the span is kept when ``start`` is a token's start and ``end`` a token's end, else refused;
- ``contract``: the tokens wholly inside: ``i`` moves right when it starts before ``start``, ``j`` left when it
  ends after ``end``; refused when no token is left;
- ``expand``: every token the span touches, from ``i`` (or the next token, when ``start`` is exactly where
  ``i`` ends) to ``j``;
- ``none``: the character offsets as found.

A span that falls on token boundaries is returned unchanged by every mode. A span none of whose characters a
token owns (white space before the first token) is refused, as spaCy returns ``None``. With tokens from a
spaCy ``Doc`` (every character owned, white space tokens included) :meth:`Tokens.snap` gives the offsets of
``doc.char_span(start, end, alignment_mode=mode)`` or ``None`` where it gives ``None``
(``tests/llm/test_grounding.py`` checks every span of several texts).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence
from itertools import chain

from ..errors import InputError

#: how a found span becomes an annotation (see the module docstring)
SNAP_MODES = ("strict", "contract", "expand", "none")
#: the word rule: the tokens of a text when the caller gives none
WORD_TOKENS = re.compile(r"\w+|[^\w\s]")


def _word(ch: str) -> bool:
    return ch.isalnum() or ch == "_"


class Tokens:
    """The token boundaries of one document's ``text``: ``given`` as ``(start, end)`` offsets, or by the word
    rule (``None``). Lists and sets are built on first need, once per document."""

    __slots__ = ("_ends", "_given", "_owned_end", "_starts", "_start_set", "_end_set", "doc_id", "text")

    def __init__(self, text: str, given: Sequence[tuple[int, int]] | None = None, doc_id: str = "") -> None:
        self.text = text
        self.doc_id = doc_id
        self._given = given
        self._starts: list[int] | None = None
        self._ends: list[int] = []
        self._start_set: set[int] | frozenset[int] = frozenset()
        self._end_set: set[int] | frozenset[int] = frozenset()
        self._owned_end = 0

    def aligned(self, start: int, end: int) -> bool:
        """Whether ``start`` is a token's start and ``end`` a token's end (``0 <= start < end <= len(text)``)."""
        if self._given is None:  # the word rule, read off the characters themselves
            t = self.text
            a, z = t[start], t[end - 1]
            if a.isspace() or z.isspace():
                return False
            if start and _word(a) and _word(t[start - 1]):
                return False
            return not (end < len(t) and _word(z) and _word(t[end]))
        if self._starts is None:
            self._build()
        return start in self._start_set and end in self._end_set

    def snap(self, start: int, end: int, mode: str) -> tuple[int, int] | None:
        """The span ``[start, end)`` snapped by ``mode`` (see the module docstring), or ``None`` when refused.

        >>> t = Tokens("Jean Jacques and Jaime")
        >>> t.snap(5, 9, "strict"), t.snap(5, 9, "contract"), t.snap(5, 9, "expand"), t.snap(0, 6, "contract")
        (None, None, (5, 12), (0, 4))
        """
        if mode == "none" or self.aligned(start, end):
            return start, end
        if mode == "strict":
            return None
        if self._starts is None:
            self._build()
        starts, ends = self._starts, self._ends
        assert starts is not None
        i, j = self._owner(start), self._owner(end - 1)
        if i < 0 or j < 0:
            return None
        if mode == "contract":
            if starts[i] < start:
                i += 1
            if end < ends[j]:
                j -= 1
        elif start == ends[i]:  # expand: trailing white space is not part of the token before it
            i += 1
        if j < i:
            return None
        return starts[i], ends[j]

    def _owner(self, c: int) -> int:
        """The token that owns character ``c`` (see the module docstring), -1 for none."""
        starts = self._starts
        assert starts is not None
        i = bisect_right(starts, c) - 1
        if i < 0 or (i == len(starts) - 1 and c >= self._owned_end):
            return -1
        return i

    def _build(self) -> None:
        text = self.text
        if self._given is None:
            flat = [x for m in WORD_TOKENS.finditer(text) for x in m.span()]
        else:
            flat = list(chain.from_iterable(self._given))
            # start_0 <= end_0 <= start_1 <= ... within the text: one comparison with the sorted list (in C)
            if len(flat) % 2 or (flat and (flat[0] < 0 or flat[-1] > len(text) or flat != sorted(flat))):
                raise InputError(f"document {self.doc_id!r}: its tokens are not sorted, non-overlapping (start, "
                                 f"end) character offsets within its text of {len(text)} characters; give each "
                                 f"document's tokens as the key's (start, end) offsets, in order")
        self._starts = starts = flat[0::2]
        self._ends = ends = flat[1::2]
        self._start_set = set(starts)
        self._end_set = set(ends)
        last = ends[-1] if ends else 0
        self._owned_end = last + (1 if last < len(text) and text[last].isspace() else 0)


__all__ = ["SNAP_MODES", "WORD_TOKENS", "Tokens"]
