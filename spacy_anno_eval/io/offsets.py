"""Offsets in one unit: Python code points, converted from UTF-16 and checked against covered text.

Annotation tools count offsets differently. Java tools (GATE, UIMA/INCEpTION,
WebAnno TSV3) count UTF-16 code units, so a character outside the Basic
Multilingual Plane (an emoji, U+1F600) counts 2; Python, Label Studio,
doccano, BioC (as the bioc package writes it) and NIF count code points, so
it counts 1. Every reader converts to code points with :class:`Utf16Offsets`
and checks what the file records of the covered text with
:class:`CoveredText`:

>>> o = Utf16Offsets("I \\U0001F600 NY")
>>> o.to_code_point(5), len(o)
(4, 7)
"""

from __future__ import annotations

import warnings

import numpy as np

from ..errors import CoveredTextWarning, InputError, where


class Utf16Offsets:
    """Converts UTF-16 code-unit offsets of ``text`` to code-point offsets (and back).

    A text wholly in the Basic Multilingual Plane needs no table: both units agree. Otherwise one array of
    ``len(utf16) + 1`` entries maps each UTF-16 offset to its code point, ``-1`` inside a surrogate pair.
    """

    def __init__(self, text: str) -> None:
        self.text = text
        self._n_cp = len(text)
        wide = [i for i, c in enumerate(text) if ord(c) > 0xFFFF]
        self._n_u16 = self._n_cp + len(wide)
        self._map: np.ndarray | None = None
        self._cp_to_u16: np.ndarray | None = None
        if wide:
            units = np.ones(self._n_cp, dtype=np.int64)
            units[wide] = 2
            cp_to_u16 = np.zeros(self._n_cp + 1, dtype=np.int64)
            np.cumsum(units, out=cp_to_u16[1:])
            u16_to_cp = np.full(self._n_u16 + 1, -1, dtype=np.int64)
            u16_to_cp[cp_to_u16] = np.arange(self._n_cp + 1)
            self._map, self._cp_to_u16 = u16_to_cp, cp_to_u16

    def __len__(self) -> int:
        """The text's length in UTF-16 code units."""
        return self._n_u16

    @property
    def identity(self) -> bool:
        """Whether both units agree (no character outside the BMP)."""
        return self._map is None

    def to_code_point(self, offset: int, source: str = "", doc: str | None = None, line: int | None = None) -> int:
        """The code-point offset of UTF-16 ``offset``; :class:`InputError` (located by ``source``, ``doc``,
        ``line``) for one beyond the text or inside a surrogate pair."""
        if not 0 <= offset <= self._n_u16:
            raise InputError(f"{where(source, doc, line)}: offset {offset} is beyond the text of {self._n_u16} "
                             f"UTF-16 code units; check the file")
        if self._map is None:
            return offset
        cp = int(self._map[offset])
        if cp < 0:
            raise InputError(f"{where(source, doc, line)}: UTF-16 offset {offset} falls inside the character "
                             f"{self.text[int(self._map[offset - 1])]!r} (a surrogate pair); check the file")
        return cp

    def span(self, start: int, end: int, source: str = "", doc: str | None = None,
             line: int | None = None) -> tuple[int, int]:
        """A UTF-16 ``[start, end)`` as code points."""
        return (self.to_code_point(start, source, doc, line), self.to_code_point(end, source, doc, line))

    def to_utf16(self, offset: int) -> int:
        """The UTF-16 offset of code-point ``offset`` (for writers)."""
        return offset if self._cp_to_u16 is None else int(self._cp_to_u16[offset])


def utf16_length(text: str) -> int:
    """The length of ``text`` in UTF-16 code units."""
    return len(text) + sum(1 for c in text if ord(c) > 0xFFFF)


class CoveredText:
    """Collects one file's covered-text mismatches; :meth:`warn` warns once, with the count and the first example.

    ``field`` names what the file records (``anchorOf``, ``value.text``, ...).
    """

    def __init__(self, source: str, field: str) -> None:
        self.source, self.field = source, field
        self.count = 0
        self.first: str | None = None

    def check(self, text: str, start: int, end: int, recorded: str | None, doc: str | None = None,
              line: int | None = None) -> bool:
        """Whether ``recorded`` (``None``: nothing recorded) equals ``text[start:end]``; a mismatch is counted."""
        if recorded is None or text[start:end] == recorded:
            return True
        self.count += 1
        if self.first is None:
            self.first = (f"{where(self.source, doc, line, (start, end))}: the text there is "
                          f"{text[start:end][:60]!r}, {self.field} says {recorded[:60]!r}")
        return False

    def warn(self) -> None:
        """One :class:`CoveredTextWarning` when some annotation did not match."""
        if self.count:
            s = "s" if self.count > 1 else ""
            warnings.warn(f"{self.source}: {self.count} annotation{s} whose {self.field} differs from the document "
                          f"text at its offsets (offsets kept); first: {self.first}", CoveredTextWarning,
                          stacklevel=3)


def check_range(start: int, end: int, n_chars: int, source: str = "", doc: str | None = None,
                line: int | None = None, unit: str = "code points") -> None:
    """Raise a located :class:`InputError` unless ``0 <= start <= end <= n_chars``."""
    if not 0 <= start <= end <= n_chars:
        raise InputError(f"{where(source, doc, line, (start, end))}: annotation out of range for a text of "
                         f"{n_chars} characters ({unit}, end exclusive); check the file")


__all__ = ["CoveredText", "CoveredTextWarning", "Utf16Offsets", "check_range", "utf16_length"]
