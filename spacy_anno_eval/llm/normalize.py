"""The text maps of the grounding ladder: a document's text case-folded or normalised once, each character of
the new text mapped back to the characters of the original it came from.

Two forms (:mod:`spacy_anno_eval.llm.grounding` searches them):

- **casefold**: ``str.casefold`` character by character. Case folding may lengthen a character (``'ß'`` ->
  ``'ss'``, ``'İ'`` -> ``'i̇'``), never shorten one, so a text whose folded form is as long as itself maps
  one-to-one and needs no map.
- **normalized**: the text cut into *pieces* -- a maximal run of white space, or one character with the
  combining marks that follow it -- and each piece rewritten as ``NFKC(casefold(QUOTES(NFKC(piece))))``:
  Unicode compatibility normalisation (UAX #15: ``'ﬁ'`` -> ``'fi'``, ``'１'`` -> ``'1'``, no-break space -> space,
  ``'e'`` + combining acute -> ``'é'``), the typographic quotes and dashes of :data:`QUOTES_AND_DASHES` as ASCII,
  case folding; then every run of white space (``str.isspace``) is one space ``' '``. The normalised form
  includes case folding, so the ladder's steps find ever more: exact ⊂ casefold ⊂ normalized.

A map is two lists, ``starts[k]`` / ``ends[k]``: the original characters ``text[starts[k]:ends[k]]`` that
character ``k`` of the new form came from (every character of one piece maps to the whole piece). A match
``[a, b)`` in the new form is the original span ``[starts[a], ends[b - 1])``; it is *whole* when it neither
begins nor ends inside a piece (``a`` is the first character of its piece and ``b - 1`` the last), so that
``'SS'`` does not match half of a ``'ß'`` and a span never cuts a ligature; the ladder takes whole matches
only (the fuzzy step takes the covering piece instead).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

#: typographic quotes and dashes written as ASCII by the normalized form (after NFKC, which already maps the
#: full-width ``＂＇－``, the small em dash and the non-breaking hyphen onto these or onto ASCII)
QUOTES_AND_DASHES: dict[str, str] = {
    # single quotes, apostrophes and primes -> '
    "\u2018": "'", "\u2019": "'", "\u201a": "'", "\u201b": "'", "\u2039": "'", "\u203a": "'",
    "\u02bc": "'", "\u2032": "'", "\u2035": "'",
    # double quotes -> "
    "\u201c": '"', "\u201d": '"', "\u201e": '"', "\u201f": '"', "\u00ab": '"', "\u00bb": '"',
    "\u301d": '"', "\u301e": '"', "\u301f": '"',
    # hyphens, dashes and the minus sign -> -
    "\u2010": "-", "\u2012": "-", "\u2013": "-", "\u2014": "-", "\u2015": "-", "\u2212": "-",
    "\u2043": "-", "\u2e3a": "-", "\u2e3b": "-",
}
_TABLE = str.maketrans(QUOTES_AND_DASHES)
_WHITE = re.compile(r"\s+")
_RUNS = re.compile(r"\s\s+|[^\S ]")  # white space other than one plain space
_PIECES = re.compile(r"\s+|\S+")


@dataclass(frozen=True)
class TextMap:
    """A form of a text (``text``) and where each of its characters came from in the original (``starts``,
    ``ends``; both ``None`` when the form maps one-to-one, character ``k`` from character ``k``)."""

    text: str
    starts: list[int] | None = None
    ends: list[int] | None = None

    def original(self, a: int, b: int) -> tuple[int, int]:
        """The original span of the match ``[a, b)`` of this form (``b > a``), covering the pieces it touches."""
        if self.starts is None or self.ends is None:
            return a, b
        return self.starts[a], self.ends[b - 1]

    def whole(self, a: int, b: int) -> bool:
        """Whether the match ``[a, b)`` begins and ends on the boundaries of pieces (see the module docstring).

        >>> m = casefold_map("Straße")
        >>> m.text, m.whole(4, 6), m.whole(5, 7)
        ('strasse', True, False)
        """
        s = self.starts
        if s is None:
            return True
        return (a == 0 or s[a] != s[a - 1]) and (b == len(s) or s[b] != s[b - 1])


def _piece(chunk: str) -> str:
    """One piece of the normalized form: ``NFKC(casefold(QUOTES(NFKC(chunk))))``."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", chunk).translate(_TABLE).casefold())


def normalize(text: str) -> str:
    """The normalized form of an extracted string (see the module docstring), without leading or trailing white
    space.

    >>> normalize("  \u201cAda\u00a0 Lovelace\u201d \u2013 ﬁrst  ")
    '"ada lovelace" - first'
    """
    if text.isascii():
        return _WHITE.sub(" ", text.lower()).strip()
    return normalized_map(text).text.strip()


def casefold_map(text: str) -> TextMap:
    """The case-folded form of ``text`` and its map (``None`` lists when folding keeps every length).

    >>> casefold_map("Maß").text, casefold_map("Maß").starts
    ('mass', [0, 1, 2, 2])
    """
    folded = text.casefold()
    if len(folded) == len(text):
        return TextMap(folded)
    starts: list[int] = []
    for i, ch in enumerate(text):
        starts.extend([i] * len(ch.casefold()))
    return TextMap(folded, starts, [i + 1 for i in starts])


def normalized_map(text: str) -> TextMap:
    """The normalized form of ``text`` and its map (see the module docstring).

    >>> m = normalized_map("A  \u201cB\u201d")
    >>> m.text, m.original(2, 5), m.original(1, 2)
    ('a "b"', (3, 6), (1, 3))
    """
    if text.isascii():
        return _ascii_map(text)
    out: list[str] = []
    starts: list[int] = []
    ends: list[int] = []
    for m in _PIECES.finditer(text):
        s, e = m.span()
        seg = m.group()
        if seg[0].isspace():
            _space(out, starts, ends, s, e)
        elif seg.isascii():
            out.append(seg.lower())
            starts.extend(range(s, e))
            ends.extend(range(s + 1, e + 1))
        else:
            _non_ascii(seg, s, out, starts, ends)
    return TextMap("".join(out), starts, ends)


def _space(out: list[str], starts: list[int], ends: list[int], s: int, e: int) -> None:
    """Append one space for the original white space ``[s, e)``, or lengthen the space just before it."""
    if out and out[-1] and out[-1][-1] == " ":
        ends[-1] = e
    else:
        out.append(" ")
        starts.append(s)
        ends.append(e)


def _non_ascii(seg: str, offset: int, out: list[str], starts: list[int], ends: list[int]) -> None:
    """Append the pieces of a run without white space that holds a non-ASCII character."""
    i, n = 0, len(seg)
    while i < n:
        j = i + 1
        while j < n and unicodedata.combining(seg[j]):
            j += 1
        s, e = offset + i, offset + j
        for ch in _piece(seg[i:j]):
            if ch.isspace():  # NFKC writes some spacing marks with a space ('´' -> ' ́')
                _space(out, starts, ends, s, e)
            else:
                out.append(ch)
                starts.append(s)
                ends.append(e)
        i = j


def _ascii_map(text: str) -> TextMap:
    """The normalized form of an ASCII text: lower case, runs of white space as one space."""
    low = text.lower()
    if _RUNS.search(low) is None:
        return TextMap(low)
    out: list[str] = []
    starts: list[int] = []
    ends: list[int] = []
    pos = 0
    for m in _RUNS.finditer(low):
        s, e = m.span()
        out.append(low[pos:s])
        starts.extend(range(pos, s))
        ends.extend(range(pos + 1, s + 1))
        out.append(" ")
        starts.append(s)
        ends.append(e)
        pos = e
    out.append(low[pos:])
    starts.extend(range(pos, len(low)))
    ends.extend(range(pos + 1, len(low) + 1))
    return TextMap("".join(out), starts, ends)


__all__ = ["QUOTES_AND_DASHES", "TextMap", "casefold_map", "normalize", "normalized_map"]
