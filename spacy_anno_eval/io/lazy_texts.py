"""Texts of a DocBin without building them: :class:`LazyTexts` and :func:`text_fingerprints`.

The fast path of :mod:`.docbin` keeps each document as its tokens' positions
in the strings table and their SPACY flags; a text is built only when indexed
(:class:`LazyTexts`), and its length, its token count
(:meth:`LazyTexts.token_counts`) and a 64-bit fingerprint of it
(:func:`text_fingerprints`) are computed from the tokens, so that the engine
can check key and response texts without building them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np

from ..annotations.table import INDEX

U64 = np.uint64


class LazyTexts(Sequence[str]):
    """Document texts of a DocBin, each built from its tokens when first asked for.

    A text is the concatenation of each token's ORTH string followed by a
    space where the SPACY flag is set, exactly as ``Doc(vocab, words, spaces)``
    builds it.
    """

    def __init__(self, strings: list[str], orth_idx: np.ndarray, spaces: np.ndarray, starts: np.ndarray):
        self._strings = strings
        self._orth_idx = orth_idx
        self._spaces = spaces
        self._starts = starts

    def __len__(self) -> int:
        return len(self._starts) - 1

    def __getitem__(self, i: int | slice) -> Any:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        n = len(self)
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError("document index out of range")
        lo, hi = int(self._starts[i]), int(self._starts[i + 1])
        words = [self._strings[k] for k in self._orth_idx[lo:hi].tolist()]
        return "".join([w + " " if s else w for w, s in zip(words, self._spaces[lo:hi].tolist(), strict=True)])

    def __iter__(self) -> Iterator[str]:
        return (self[i] for i in range(len(self)))

    def token_counts(self, count: Callable[[str], int], word: re.Pattern) -> np.ndarray:
        """``count(text)`` of every document without building the texts, when ``count`` counts regex matches of
        word runs (``word``, e.g. ``\\w``) and single other characters: each distinct token string is counted
        once, and a word run split across two tokens with no space between (``do`` + ``n't``) is counted once.
        """
        n_str = len(self._strings)
        idx = np.asarray(self._orth_idx, dtype=np.int64)
        if any(not self._strings[k] for k in np.unique(idx).tolist()):  # an empty token joins its neighbours
            return np.fromiter((count(t) for t in self), dtype=np.int64, count=len(self))
        per = np.fromiter((count(x) for x in self._strings), dtype=np.int64, count=n_str)
        head = np.fromiter((bool(x) and word.match(x[0]) is not None for x in self._strings), dtype=bool,
                           count=n_str)
        tail = np.fromiter((bool(x) and word.match(x[-1]) is not None for x in self._strings), dtype=bool,
                           count=n_str)
        starts = np.asarray(self._starts, dtype=np.int64)
        tokens = per[idx]
        if len(idx) > 1:
            joined = tail[idx[:-1]] & head[idx[1:]] & ~np.asarray(self._spaces[:-1], dtype=bool)
            last = np.zeros(len(idx) - 1, dtype=bool)  # the last token of a document joins nothing
            ends = starts[1:-1] - 1
            last[ends[(ends >= 0) & (ends < len(idx) - 1)]] = True
            tokens = tokens.copy()
            tokens[1:] -= (joined & ~last).astype(np.int64)
        cumulative = np.concatenate(([0], np.cumsum(tokens)))
        sums = cumulative[starts[1:]] - cumulative[starts[:-1]]
        return sums.astype(np.int64)


def _mix(x: np.ndarray) -> np.ndarray:
    """splitmix64's finaliser, vectorised (uint64 arithmetic wraps)."""
    x = x ^ (x >> U64(30))
    x = x * U64(0xBF58476D1CE4E5B9)
    x = x ^ (x >> U64(27))
    x = x * U64(0x94D049BB133111EB)
    return x ^ (x >> U64(31))


def text_fingerprints(orth: np.ndarray, spaces: np.ndarray, starts: np.ndarray) -> np.ndarray:
    """A 64-bit fingerprint of each document's text, from its ORTH hashes and SPACY flags.

    A document's text is determined by its token strings (ORTH hashes) and
    spaces. Token ``p`` of a document adds ``(orth + space * K) * m[p]``
    (mod 2**64), with a random constant ``K`` and pseudo-random odd
    multipliers ``m[p]``; the sum and the token count are mixed into the
    fingerprint. Changing one token or one space changes the sum unless two
    string hashes differ by exactly ``K`` (``m[p]`` is odd, so invertible);
    any other change leaves it equal with probability about 2**-64. So equal
    fingerprints mean equal texts.
    """
    sizes = np.diff(starts)
    if not len(orth):
        return _mix(np.full(len(sizes), 0x9E3779B97F4A7C15, dtype=U64))
    mult = _mix(np.arange(1, int(sizes.max()) + 1, dtype=U64)) | U64(1)
    pos = np.arange(len(orth), dtype=INDEX)
    pos -= np.repeat(starts[:-1], sizes)
    tok = spaces * U64(0xD6E8FEB86659FD93)
    tok += orth
    tok *= mult[pos]
    cum = np.zeros(len(orth) + 1, dtype=U64)
    np.cumsum(tok, out=cum[1:])
    per_doc = cum[starts[1:]] - cum[starts[:-1]]
    return _mix(per_doc ^ _mix(sizes.astype(U64) + U64(0x9E3779B97F4A7C15)))


__all__ = ["LazyTexts", "text_fingerprints"]
