"""Global character alignment of a gold and a predicted text (edlib), with the tags carried over.

Step 2 of noisy-text NER evaluation (see :mod:`spacy_anno_eval.noisy.evaluate`):
``edlib.align(gold, pred, mode="NW", task="path")``, a global alignment of
minimal Levenshtein distance (Levenshtein 1966); gaps are written ``-`` in
the aligned strings. A gap takes the type of the previous character of its
own string, as a continuation; a gap before the first character or after the
last one is ``O`` (nerval's ``get_labels_aligned``). ``edlib`` is imported
when first needed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from ..edits import levenshtein
from ..errors import InputError
from .settings import GAP
from .tags import CharTags

_CIGAR = re.compile(r"(\d+)([=XID])")


@dataclass
class NoisyAlignment:
    """Global character alignment of a gold and a predicted text, with aligned tags.

    ``gold_index[k]`` / ``pred_index[k]`` is the character of each text at
    aligned position ``k``, -1 for a gap; ``gold_types`` ... ``pred_begins``
    the aligned tags (type indices into ``labels``).
    """

    gold: CharTags
    pred: CharTags
    labels: list[str]
    gold_index: np.ndarray
    pred_index: np.ndarray
    gold_types: np.ndarray
    gold_begins: np.ndarray
    pred_types: np.ndarray
    pred_begins: np.ndarray
    distance: int

    def __len__(self) -> int:
        return len(self.gold_index)

    @property
    def gold_aligned(self) -> str:
        """The gold text with ``-`` for gaps."""
        return _aligned_string(self.gold.text, self.gold_index)

    @property
    def pred_aligned(self) -> str:
        """The predicted text with ``-`` for gaps."""
        return _aligned_string(self.pred.text, self.pred_index)

    def gold_tags(self) -> list[str]:
        """Type name per aligned gold position."""
        return np.asarray(self.labels, dtype=object)[self.gold_types].tolist()

    def pred_tags(self) -> list[str]:
        """Type name per aligned predicted position."""
        return np.asarray(self.labels, dtype=object)[self.pred_types].tolist()


def _aligned_string(text: str, idx: np.ndarray) -> str:
    return "".join(np.asarray(list(text) + [GAP], dtype=object)[idx].tolist()) if len(idx) else ""


def _cigar_ops(gold: str, pred: str, source: str | None) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """(counts, consumes_gold, consumes_pred, distance) of edlib's global alignment path."""
    if not gold or not pred:
        n = max(len(gold), len(pred))
        return (np.array([n] if n else [], dtype=np.int64), np.array([bool(gold)] if n else [], dtype=bool),
                np.array([bool(pred)] if n else [], dtype=bool), n)
    import edlib

    try:
        res = edlib.align(gold, pred, mode="NW", task="path")
    except ValueError as e:  # more than 256 distinct characters
        raise InputError(f"{source or 'texts'}: edlib cannot align these texts ({e})") from None
    ops = _CIGAR.findall(res["cigar"])
    counts = np.fromiter((int(c) for c, _ in ops), dtype=np.int64, count=len(ops))
    codes = np.asarray([op for _, op in ops])
    # '=' and 'X' use a character of both texts, 'I' one of the gold text (query), 'D' one of the prediction
    return counts, codes != "D", codes != "I", int(res["editDistance"])


def _aligned_index(real: np.ndarray, n: int) -> np.ndarray:
    idx = np.full(len(real), -1, dtype=np.int64)
    idx[real] = np.arange(n, dtype=np.int64)
    return idx


def _aligned_tags(tags: CharTags, real: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Tags of the aligned string, as nerval's ``get_labels_aligned``.

    A gap continues the type of the previous character of its string (never
    begins an entity); a gap before the first or after the last character is O.
    """
    n = len(tags.text)
    if not len(real) or not n:
        return np.zeros(len(real), dtype=np.int32), np.zeros(len(real), dtype=bool)
    used = np.cumsum(real)
    prev = np.maximum(used - 1, 0)
    inside = (used > 0) & (real | (used < n))
    types = np.where(inside, tags.types[prev], 0).astype(np.int32)
    begins = real & tags.begins[prev]
    return types, begins


def align_char_tags(gold: CharTags, pred: CharTags, source: str | None = None) -> NoisyAlignment:
    """Align two tagged texts with edlib (global, Levenshtein) and carry the tags over (nerval's way)."""
    labels: list[str] = []
    index: dict[str, int] = {}
    gold = gold.recode(labels, index)
    pred = pred.recode(labels, index)
    counts, g_use, p_use, distance = _cigar_ops(gold.text, pred.text, source)
    g_real = np.repeat(g_use, counts)
    p_real = np.repeat(p_use, counts)
    gt, gb = _aligned_tags(gold, g_real)
    pt, pb = _aligned_tags(pred, p_real)
    return NoisyAlignment(gold, pred, labels, _aligned_index(g_real, len(gold.text)),
                          _aligned_index(p_real, len(pred.text)), gt, gb, pt, pb, distance)


__all__ = ["NoisyAlignment", "align_char_tags", "levenshtein"]
