"""Edit distance between two strings, the one implementation the families share (noisy text's match, the
grounding of generated strings): edlib's Levenshtein distance, with a plain dynamic programme for the strings
edlib refuses (more than 256 distinct characters).

>>> levenshtein("kitten", "sitting"), levenshtein("", "abc"), levenshtein("same", "same")
(3, 3, 0)
"""

from __future__ import annotations


def levenshtein(a: str, b: str) -> int:
    """Levenshtein distance (unit costs) between two strings."""
    if not a or not b:
        return len(a) + len(b)
    if a == b:
        return 0
    import edlib

    try:
        return int(edlib.align(a, b)["editDistance"])
    except ValueError:  # more than 256 distinct characters: plain dynamic programming
        prev = list(range(len(b) + 1))
        for i, ca in enumerate(a, 1):
            cur = [i]
            for j, cb in enumerate(b, 1):
                cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb)))
            prev = cur
        return prev[-1]


__all__ = ["levenshtein"]
