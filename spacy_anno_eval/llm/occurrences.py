"""Finding a string in a document's text, and choosing among its occurrences: the searches of the grounding
ladder (:mod:`spacy_anno_eval.llm.grounding`), edlib's infix alignment and the order-preserving chain.

Written for the llm family (families do not import each other); the ideas are those of the noisy-text room's
edlib aligner (Šošić & Šikić 2017, ``edlib``) and of ANNALIST's order-level alignment (Demetriou, Gaizauskas,
Sun & Roberts 2008).
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from typing import Any

from ..edits import levenshtein
from .normalize import TextMap


def occurrences(text: str, s: str) -> list[tuple[int, int]]:
    """Non-overlapping occurrences of ``s`` in ``text``, left to right (as spacy-llm's ``find_substrings``)."""
    out = []
    n = len(s)
    i = text.find(s)
    while i >= 0:
        out.append((i, i + n))
        i = text.find(s, i + n)
    return out


def mapped(form: TextMap, q: str) -> list[tuple[int, int]]:
    """Occurrences of ``q`` in a form of the text that are whole (begin and end on its pieces' boundaries),
    as original offsets; non-overlapping, left to right."""
    if not q:
        return []
    text, n, out = form.text, len(q), []
    i = text.find(q)
    while i >= 0:
        if form.whole(i, i + n):
            out.append(form.original(i, i + n))
            i = text.find(q, i + n)
        else:
            i = text.find(q, i + 1)
    return out


def distinct(candidates: list[tuple[tuple[int, int], float]]) -> list[tuple[tuple[int, int], float]]:
    """Candidates ``((start, end), similarity)`` in text order, the first of each span kept."""
    if len(candidates) < 2:
        return candidates
    seen: set[tuple[int, int]] = set()
    out = []
    for c in sorted(candidates, key=lambda c: c[0]):
        if c[0] not in seen:
            seen.add(c[0])
            out.append(c)
    return out


def infix(query: str, target: str) -> dict[str, Any] | None:
    """``edlib.align(query, target, mode="HW", task="path")``; with more than 256 distinct characters, the
    characters of ``target`` not in ``query`` are first written as one (they match nothing either way)."""
    import edlib

    try:
        return edlib.align(query, target, mode="HW", task="path")
    except ValueError:
        alphabet = {c: chr(i + 1) for i, c in enumerate(dict.fromkeys(query))}
        if len(alphabet) > 255:
            return None
        return edlib.align("".join(alphabet[c] for c in query), "".join(alphabet.get(c, "\0") for c in target),
                           mode="HW", task="path")


def best_locations(locations: Sequence[tuple[int, int]], n: int, text: str) -> list[tuple[int, int]]:
    """edlib's best locations (inclusive ends) as ``[a, b)``: overlapping ones grouped (the one whose length is
    nearest ``n``, then the first, kept), then trimmed of white space at either end."""
    groups: list[list[tuple[int, int]]] = []
    for a, z in sorted((int(a), int(z) + 1) for a, z in locations if a is not None):
        if groups and a < max(b for _, b in groups[-1]):
            groups[-1].append((a, z))
        else:
            groups.append([(a, z)])
    out = []
    for group in groups:
        a, b = min(group, key=lambda s: (abs(s[1] - s[0] - n), s[0]))
        while a < b and text[a].isspace():
            a += 1
        while b > a and text[b - 1].isspace():
            b -= 1
        if a < b:
            out.append((a, b))
    return out


def longest_chain(cands: list[list[tuple[tuple[int, int], float]]],
                  width: int | None = None) -> dict[int, tuple[tuple[int, int], float]]:
    """A longest chain of extractions with strictly increasing ``(start, end)`` occurrences, each extraction
    taking the first occurrence that still completes a longest chain.

    ``F(i, c)``, the longest chain that starts with extraction ``i`` at occurrence ``c``, is computed from the
    last extraction back (longest increasing subsequence with a set of choices per element: ``neg[L]`` holds
    minus the latest start of a chain of length ``L + 1`` among the extractions after ``i``, an increasing
    list, so ``F(i, c) = 1 + #{L: neg[L] < -key(c)}``, by bisection); then, reading forward, each extraction
    takes its first occurrence after the previous one with ``F`` equal to the length still needed. ``width``:
    more than every ``end`` (the text's length + 1), so that ``start · width + end`` orders the occurrences.

    >>> a, b, c = ((0, 1), 1.0), ((3, 4), 1.0), ((5, 6), 1.0)
    >>> sorted(longest_chain([[a, c], [b], [a, c]]).items())
    [(0, ((0, 1), 1.0)), (1, ((3, 4), 1.0)), (2, ((5, 6), 1.0))]
    """
    if width is None:
        width = max((c[0][1] for cs in cands for c in cs), default=0) + 1
    n = len(cands)
    keys: list[list[int]] = [[]] * n
    best: list[list[int]] = [[]] * n
    neg: list[int] = []  # minus the key of the latest start of a chain of each length, increasing
    for i in range(n - 1, -1, -1):
        cs = cands[i]
        if len(cs) == 1:  # the common case, without the list comprehensions
            span = cs[0][0]
            k = span[0] * width + span[1]
            length = bisect_left(neg, -k) + 1
            keys[i], best[i] = [k], [length]
            if length > len(neg):
                neg.append(-k)
            elif -k < neg[length - 1]:
                neg[length - 1] = -k
            continue
        ks = keys[i] = [c[0][0] * width + c[0][1] for c in cs]
        f = best[i] = [bisect_left(neg, -k) + 1 for k in ks]
        for k, length in zip(ks, f, strict=True):
            if length > len(neg):
                neg.append(-k)
            elif -k < neg[length - 1]:
                neg[length - 1] = -k
    need, prev = len(neg), -1
    chosen: dict[int, tuple[tuple[int, int], float]] = {}
    for i in range(n):
        if need == 0:
            break
        ks = keys[i]
        for j, length in enumerate(best[i]):
            if length == need and ks[j] > prev:
                chosen[i] = cands[i][j]
                prev, need = ks[j], need - 1
                break
    return chosen


__all__ = ["best_locations", "distinct", "infix", "levenshtein", "longest_chain", "mapped", "occurrences"]
