"""GATE's AnnotationDiffer pairing and feature subsumption.

Written from a reading of GATE's ``gate.util.AnnotationDiffer.calculateDiff``
and ``gate.util.SimpleFeatureMapImpl.subsumes(FeatureMap, Set)``
(GateNLP/gate-core, ``src/main/java/gate/util/``, LGPL; no code copied), and
the GATE user guide, chapter 10 (10.1.1 annotation relations, 10.2.3 and
10.3.6 on feature value types).

AnnotationDiffer in short
-------------------------

1. **Choices.** Every key ``i`` and response ``j`` (key-major order: ``i``,
   then ``j``) that overlap make one *choice* with a value:

   ========================  =====  ==========================================
   relation                  value  outcome when chosen
   ========================  =====  ==========================================
   coextensive, compatible     3    correct
   overlapping, compatible     2    partially correct
   coextensive, incompatible   1    mismatch: the key missing, the response
                                    spurious
   overlapping, incompatible   0    "wrong": the key missing, the response
                                    spurious
   ========================  =====  ==========================================

   GATE compares one annotation type at a time; here several labels are
   compared at once, so *compatible* also requires equal labels (a pair of
   different labels is a mismatch or wrong choice, never partial).

2. **Scores.** A choice's score is its value minus the values of every *other*
   choice that shares its key or its response (its conflict set). Scores are
   computed once, on the initial conflict sets, and never updated.

3. **Order.** Choices are sorted by score, ascending, with a stable sort, and
   the list is then reversed. The comparator's second and third criteria
   (pairing type, completeness) are equal for every choice at that point (no
   type is set yet; every choice has both a key and a response), so the
   result is: highest score first, and among equal scores the choice created
   *last* (largest key index, then largest response index) first.

4. **Greedy pick.** The first remaining choice is taken and every other
   choice sharing its key or response is removed; repeat until no choice is
   left. A taken "wrong" (value 0) or mismatch (value 1) choice still uses up
   its key and response. Keys and responses never taken are missing /
   spurious.

The greedy pick maximises nothing in particular: it can miss a correct or a
partial pair that the optimal pairing (:func:`spacy_anno_eval.spans.align.align_spans`)
finds. Use ``pairing="gate"`` to reproduce GATE's Annotation Diff and Corpus QA
counts.

GATE iterates its annotation sets in annotation-id order; here keys and
responses come in document order (start, end), which is the same whenever the
annotations were created in document order.
"""

from __future__ import annotations

import math
from bisect import bisect_left
from collections.abc import Iterable, Sequence
from typing import Any

CORRECT_VALUE, PARTIAL_VALUE, MISMATCH_VALUE, WRONG_VALUE = 3, 2, 1, 0
#: status name of a taken choice, by its value (names of :mod:`.offsets`)
STATUS_OF_VALUE = {CORRECT_VALUE: "correct", PARTIAL_VALUE: "partial",
                   MISMATCH_VALUE: "incorrect", WRONG_VALUE: "overlap"}

Annotation = tuple[int, int, str, dict]


def java_equals(a: Any, b: Any) -> bool:
    """Equality by type and value, as Java's ``Object.equals`` on feature values.

    ``"5"`` differs from ``5``, ``True`` from ``1`` and ``5`` from ``5.0``
    (Python's ``==`` says the last two are equal; Java's ``Integer.equals``,
    ``Boolean.equals`` and ``Double.equals`` do not). Floats compare as
    ``Double.equals`` does: NaN equals NaN, ``0.0`` differs from ``-0.0``.
    Lists, tuples and dicts compare element by element with the same rule.
    """
    if type(a) is not type(b):
        return False
    if isinstance(a, float):
        if math.isnan(a) or math.isnan(b):
            return math.isnan(a) and math.isnan(b)
        return a == b and math.copysign(1.0, a) == math.copysign(1.0, b)
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(java_equals(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(java_equals(a[k], b[k]) for k in a)
    return bool(a == b)


def _subsumes(kf: dict, rf: dict, names: Iterable[str], equal: Any) -> bool:
    for name in names:
        if name not in kf:
            continue  # the key does not have it: nothing to subsume
        kv, rv = kf[name], rf.get(name)
        if (kv is None) != (rv is None):
            return False
        if kv is not None and not equal(kv, rv):
            return False
    return True


def features_compatible(kf: dict | None, rf: dict | None, names: Iterable[str] | None) -> bool:
    """Whether the response's features subsume the key's significant features.

    GATE's ``subsumes(keyFeatures, significantNames)`` called on the response's
    feature map: every feature named in ``names`` that the key has must be
    present in the response with an equal value (:func:`java_equals`: by type
    and value). A key value of ``None`` matches only an absent or ``None``
    response value. Features the key lacks are ignored; features only the
    response has are ignored. ``names`` empty or ``None`` means no feature is
    significant (always compatible; GATE's empty set, not its ``null``).
    """
    if not names or not kf:
        return True
    return _subsumes(kf, rf or {}, names, java_equals)


def _str_equal(a: Any, b: Any) -> bool:
    return str(a) == str(b)


def type_only_mismatch(kf: dict | None, rf: dict | None, names: Iterable[str] | None) -> bool:
    """Whether the features mismatch by type only: incompatible under
    :func:`features_compatible` but compatible when values compare as strings
    (``"5"`` vs ``5``; GATE user guide 10.2.3, 10.3.6)."""
    if not names or not kf:
        return False
    names = list(names)
    rf = rf or {}
    return not _subsumes(kf, rf, names, java_equals) and _subsumes(kf, rf, names, _str_equal)


def _value(k: Annotation, r: Annotation, names: Sequence[str] | None) -> int | None:
    """The AnnotationDiffer value of the pair, or None when the spans do not overlap."""
    ks, ke, kl, kf = k
    rs, re_, rl, rf = r
    if not (ks < re_ and rs < ke):
        return None
    compatible = kl == rl and features_compatible(kf, rf, names)
    if ks == rs and ke == re_:
        return CORRECT_VALUE if compatible else MISMATCH_VALUE
    return PARTIAL_VALUE if compatible else WRONG_VALUE


def _overlap_percent_ok(k: Annotation, r: Annotation, min_overlap: float) -> bool:
    if min_overlap <= 0 or (k[0] == r[0] and k[1] == r[1]):
        return True
    overlap = min(k[1], r[1]) - max(k[0], r[0])
    return (overlap / (k[1] - k[0])) * 100.0 >= min_overlap


def gate_pairs(keys: Sequence[Annotation], responses: Sequence[Annotation],
               features: Sequence[str] | None = None, *,
               min_overlap: float = 0.0) -> list[tuple[int, int, str]]:
    """GATE's AnnotationDiffer pairing of one document's annotations.

    ``keys`` and ``responses`` are ``(start, end, label, features)`` tuples
    (end exclusive). Returns the taken choices as ``(key_index,
    response_index, status)`` with status ``correct``, ``partial``,
    ``incorrect`` (GATE's mismatch) or ``overlap`` (GATE's wrong choice);
    keys and responses not listed are missing / spurious. ``min_overlap``
    (percent of the key's length) drops overlapping, non-coextensive pairs
    below it before any choice is made (GATE has no such threshold; 0 keeps
    GATE's behaviour). See the module docstring for the algorithm.
    """
    # 1) choices, in GATE's creation order (key-major); a sweep over responses
    #    sorted by start finds the overlapping ones without an n*m loop.
    by_start = sorted(range(len(responses)), key=lambda j: (responses[j][0], j))
    starts = [responses[j][0] for j in by_start]
    longest = max((r[1] - r[0] for r in responses), default=0)
    choices: list[tuple[int, int, int]] = []
    for i, k in enumerate(keys):
        # a response overlaps the key iff it starts in (k.start - longest, k.end) and ends after k.start
        lo = bisect_left(starts, k[0] - longest + 1)
        hi = bisect_left(starts, k[1])
        js = sorted(j for j in by_start[lo:hi] if responses[j][1] > k[0])
        for j in js:
            if not _overlap_percent_ok(k, responses[j], min_overlap):
                continue
            value = _value(k, responses[j], features)
            if value is not None:
                choices.append((i, j, value))
    if not choices:
        return []

    # 2) scores: value minus the values of the other choices on the same key or response
    key_sum: dict[int, int] = {}
    resp_sum: dict[int, int] = {}
    for i, j, v in choices:
        key_sum[i] = key_sum.get(i, 0) + v
        resp_sum[j] = resp_sum.get(j, 0) + v
    scores = [v - (key_sum[i] - v) - (resp_sum[j] - v) for i, j, v in choices]

    # 3) stable ascending sort by score, then reversed: best score first, and
    #    among equal scores the later-created choice first
    order = sorted(range(len(choices)), key=lambda c: scores[c])
    order.reverse()

    # 4) greedy: take a choice unless its key or response is already used
    used_k: set[int] = set()
    used_r: set[int] = set()
    taken = []
    for c in order:
        i, j, v = choices[c]
        if i in used_k or j in used_r:
            continue
        used_k.add(i)
        used_r.add(j)
        taken.append((i, j, STATUS_OF_VALUE[v]))
    return taken
