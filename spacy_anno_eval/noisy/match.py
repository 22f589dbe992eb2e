"""Matching gold entities through the alignment, as nerval's ``compute_matches``; MUC classes; spurious entities.

Step 3 of noisy-text NER evaluation (see :mod:`spacy_anno_eval.noisy.evaluate`):
for each gold entity, the predicted characters of the same type over its
aligned span (extended to the beginning of that predicted entity and over its
continuation) form the predicted entity; it is matched when
``levenshtein(gold, pred) / len(gold) <= threshold`` (``<`` with
``boundary="exclusive"``; see :mod:`spacy_anno_eval.noisy`) and neither text is
empty. Each predicted character is used by at most one continuation. Every
row also gets its MUC class (Chinchor 1992): COR, PAR, INC or MIS;
:func:`spurious` counts the predicted entities that touch no gold entity (SPU).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .align import NoisyAlignment, levenshtein
from .settings import ALL, DEFAULT_BOUNDARY, DEFAULT_THRESHOLD, passes


@dataclass
class EntityMatch:
    """One scored gold entity (a row of the ``entities`` table)."""

    type: str
    gold_text: str
    pred_text: str
    distance: int
    matched: bool
    muc: str | None
    gold_start: int | None
    gold_end: int | None
    pred_start: int | None
    pred_end: int | None
    doc: int = 0

    @property
    def ratio(self) -> float | None:
        """``distance / len(gold_text)``: the figure compared with the threshold (None for an empty text)."""
        return self.distance / len(self.gold_text) if self.gold_text else None

    def to_dict(self) -> dict[str, Any]:
        ratio = self.ratio
        return {"doc": self.doc, "type": self.type, "gold_text": self.gold_text, "pred_text": self.pred_text,
                "distance": self.distance, "ratio": ratio, "cer": ratio, "matched": self.matched,
                "muc": self.muc, "gold_start": self.gold_start, "gold_end": self.gold_end,
                "pred_start": self.pred_start, "pred_end": self.pred_end}


def _further(index: int, tag: int, types: list[int], begins: list[bool], n: int) -> tuple[int, list[int]]:
    """The continuation of an entity of type ``tag`` after ``index`` (nerval's ``look_for_further_entity_part``).

    Skips characters of other entity types, takes continuation characters of
    ``tag``, and repeats while that makes progress and ends on ``tag``. Returns
    the end of the text to add (``index`` itself when nothing is added) and the
    positions of the ``tag`` characters taken (marked used even when nothing is
    added, as nerval does).
    """
    start = last = index
    taken: list[int] = []
    while True:
        while index < n and types[index] and types[index] != tag:
            index += 1
        while index < n and types[index] == tag and not begins[index]:
            taken.append(index)
            index += 1
        if index == last or types[index - 1] != tag:
            break
        last = index
    return (index if types[index - 1] == tag else start), taken


def match_entities(al: NoisyAlignment, threshold: float = DEFAULT_THRESHOLD,
                   doc: int = 0, boundary: str = DEFAULT_BOUNDARY) -> tuple[list[EntityMatch], dict[str, int]]:
    """Score every gold entity against the aligned prediction, as nerval's ``compute_matches``.

    ``boundary``: ``"inclusive"`` (ratio <= threshold, nerval 0.3.3) or ``"exclusive"`` (ratio < threshold).
    Returns the rows (one per scored gold entity, in text order) and the
    matched count per type, with ``ALL`` (which includes nerval's type-``O``
    artefacts).
    """
    gt = al.gold_types.tolist()
    gb = al.gold_begins.tolist()
    pt = al.pred_types.tolist()
    pb = al.pred_begins.tolist()
    gi = al.gold_index.tolist()
    pi = al.pred_index.tolist()
    n = len(gt)
    gold_chars = np.asarray(list(al.gold.text) + [""], dtype=object)[al.gold_index].tolist()
    pred_chars = np.asarray(list(al.pred.text) + [""], dtype=object)[al.pred_index].tolist()
    used_gold = bytearray(n)
    used_pred = bytearray(n)
    rows: list[EntityMatch] = []
    matched = [0] * len(al.labels)
    n_all = 0
    last = 0  # type of the current gold entity (0 after an O character)
    ref: list[int] = []
    comp: list[int] = []
    found_begin = found_end = False
    for i in np.flatnonzero(al.gold_types).tolist():
        if used_gold[i]:
            continue
        if i and not gt[i - 1]:
            last = 0
        t = gt[i]
        if gb[i]:
            ref, comp = [], []
            last = t
            found_begin = found_end = False
        ref.append(i)
        if not found_end and pt[i] == t:
            if used_pred[i]:
                continue  # nerval skips the rest of this character, end-of-entity check included
            if len(ref) == 1 and not pb[i]:
                # the predicted entity started earlier: back to its beginning
                j = i - 1
                while j >= 0 and pt[j] == t and not pb[j] and not used_pred[j]:
                    j -= 1
                if j >= 0:
                    comp.extend(range(j if (pb[j] and pt[j] == t and not used_pred[j]) else j + 1, i))
                elif not (pb[-1] and pt[-1] == t):  # nerval reads labels[-1] here: an empty slice if it begins
                    comp.extend(range(0, i))
            found_begin = True
            comp.append(i)
        elif found_begin:
            found_end = True
        if i + 1 == n or gt[i + 1] != last:
            if not found_end:
                stop, taken = _further(i + 1, t, pt, pb, n)
                comp.extend(range(i + 1, stop))
                for k in taken:
                    used_pred[k] = 1
            stop, taken = _further(i + 1, t, gt, gb, n)
            ref.extend(range(i + 1, stop))
            for k in taken:
                used_gold[k] = 1
            gold_text = "".join([gold_chars[k] for k in ref])
            pred_text = "".join([pred_chars[k] for k in comp])
            distance = levenshtein(gold_text, pred_text)
            ok = bool(gold_text) and bool(pred_text) and passes(distance / len(gold_text), threshold, boundary)
            if ok:
                matched[last] += 1
                n_all += 1
            rows.append(_row(gi, pi, pt, al.labels, last, ref, comp, gold_text, pred_text, distance, ok, doc))
            ref, comp = [], []
    out = {al.labels[t]: c for t, c in enumerate(matched) if t and c}
    out[ALL] = n_all
    return rows, out


def _span_of(index: list[int], positions: list[int]) -> tuple[int | None, int | None]:
    """First and last+1 text offsets of aligned ``positions`` (ascending), gaps skipped."""
    first = next((index[k] for k in positions if index[k] >= 0), None)
    if first is None:
        return None, None
    last = next(index[k] for k in reversed(positions) if index[k] >= 0)
    return first, last + 1


def _row(gi: list[int], pi: list[int], pt: list[int], labels: list[str], t: int, ref: list[int], comp: list[int],
         gold_text: str, pred_text: str, distance: int, ok: bool, doc: int) -> EntityMatch:
    if not t:
        muc = None
    elif ok:
        muc = "COR"
    else:
        over = {pt[k] for k in ref}
        muc = "PAR" if t in over else "INC" if over - {0} else "MIS"
    gs, ge = _span_of(gi, ref)
    ps, pe = _span_of(pi, comp)
    return EntityMatch(labels[t], gold_text, pred_text, distance, ok, muc, gs, ge, ps, pe, doc)


def spurious(al: NoisyAlignment) -> np.ndarray:
    """Count per type of predicted entities with no aligned character inside a gold entity."""
    pt, pb = al.pred_types, al.pred_begins
    if not pb.any():
        return np.zeros(len(al.labels), dtype=np.int64)
    cont = np.zeros(len(pt), dtype=bool)
    cont[1:] = (pt[1:] == pt[:-1]) & ~pb[1:] & (pt[1:] != 0)
    seg = np.cumsum(~cont) - 1
    n_seg = int(seg[-1]) + 1
    first = np.flatnonzero(~cont)
    is_entity = pb[first]
    hits = np.bincount(seg, weights=(al.gold_types != 0), minlength=n_seg)
    spu = is_entity & (hits == 0)
    return np.bincount(pt[first[spu]], minlength=len(al.labels)).astype(np.int64)


__all__ = ["EntityMatch", "match_entities", "spurious"]
