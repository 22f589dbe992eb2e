"""Precision, recall and F-beta from pair counts: GATE, MUC and SemEval-2013.

Every function works on numpy arrays of counts (one row per type, document,
or a single total) and returns arrays of the same shape, so per-type,
per-document and micro figures come from one code path.

Raw counts (the last axis of a count array, see :data:`FIELDS`) are taken
from the alignment (:mod:`spacy_anno_eval.spans.align`):
``correct``, ``partial``, ``incorrect``, ``overlap`` and ``missing`` are
counted under the key's label; ``spurious``, ``incorrect_r`` and
``overlap_r`` under the response's label. Per-type tables therefore add up to
the overall table even when labels are confused.

GATE (user guide ch. 10, eq. 10.5-10.7), with C correct, Pa partial,
M missing (+ incorrect + overlap pairs), S spurious (+ incorrect + overlap)::

    strict   P = C / (C + Pa + S)           R = C / (C + Pa + M)
    lenient  P = (C + Pa) / (C + Pa + S)    R = (C + Pa) / (C + Pa + M)
    average  P = (P_strict + P_lenient)/2   R = (R_strict + R_lenient)/2
             F = (F_strict + F_lenient)/2   (GATE's AnnotationDiffer.getFMeasureAverage)
    F-beta = (1 + b^2) P R / (b^2 P + R)

MUC (Chinchor 1992, "MUC-4 evaluation metrics"): POS = COR+PAR+INC+MIS,
ACT = COR+PAR+INC+SPU, P = (COR + PAR/2) / ACT, R = (COR + PAR/2) / POS; here
INC is a coextensive pair whose label (or significant features) differ, and an
overlapping pair with different labels counts as MIS + SPU.

SemEval-2013 task 9.1 schemas (Segura-Bedmar et al. 2013; names as in
nervaluate): ``strict`` (boundaries and type), ``exact`` (boundaries only),
``partial`` (overlap, half credit for inexact boundaries), ``type`` (overlap
and type). P = (COR + PAR/2) / ACT, R = (COR + PAR/2) / POS.

``zero_division`` (default 0.0, as scikit-learn's default outcome) is the value
of a ratio whose denominator is 0: P with no response, R with no key, and F
when both P and R are undefined. F is 0 when P + R = 0 otherwise.
"""

from __future__ import annotations

import numpy as np

from ..figures import MEASURES, fbeta, ratio

FIELDS = ("correct", "partial", "incorrect", "overlap", "missing", "spurious", "incorrect_r", "overlap_r")
(F_CORRECT, F_PARTIAL, F_INCORRECT, F_OVERLAP, F_MISSING, F_SPURIOUS,
 F_INCORRECT_R, F_OVERLAP_R) = range(len(FIELDS))
MODES = MEASURES


def gate_counts(raw: np.ndarray) -> dict[str, np.ndarray]:
    """GATE's Correct, Partial, Missing, Spurious (+ MUC's incorrect) from raw counts."""
    raw = np.asarray(raw)
    return {
        "correct": raw[..., F_CORRECT],
        "partial": raw[..., F_PARTIAL],
        "missing": raw[..., F_MISSING] + raw[..., F_INCORRECT] + raw[..., F_OVERLAP],
        "spurious": raw[..., F_SPURIOUS] + raw[..., F_INCORRECT_R] + raw[..., F_OVERLAP_R],
        "incorrect": raw[..., F_INCORRECT],
    }


def gate_prf(raw: np.ndarray, beta: float = 1.0, zero_division: float = 0.0) -> dict[str, dict]:
    """Strict, lenient and average P/R/F (GATE eq. 10.5-10.7) for each row of ``raw``."""
    c = gate_counts(raw)
    n_resp = c["correct"] + c["partial"] + c["spurious"]
    n_key = c["correct"] + c["partial"] + c["missing"]
    undefined = (n_resp == 0) & (n_key == 0)
    out = {}
    for mode, hits in (("strict", c["correct"]), ("lenient", c["correct"] + c["partial"])):
        p = ratio(hits, n_resp, zero_division)
        r = ratio(hits, n_key, zero_division)
        out[mode] = {"p": p, "r": r, "f": fbeta(p, r, beta, undefined=undefined, zero_division=zero_division)}
    out["average"] = {k: (out["strict"][k] + out["lenient"][k]) / 2 for k in ("p", "r", "f")}
    return out


def error_rate(raw: np.ndarray, zero_division: float = 0.0) -> dict[str, np.ndarray]:
    """GATE's error rate (user guide §10.1.3), "the inverse of precision": the items identified incorrectly as a
    share of the items identified, per criterion, for each row of ``raw``::

        strict   E = (Pa + S) / (C + Pa + S)
        lenient  E = S / (C + Pa + S)
        average  E = (E_strict + E_lenient) / 2

    so E = 1 - P under the same criterion wherever P is defined; ``zero_division`` where nothing was identified.
    """
    c = gate_counts(raw)
    n_resp = c["correct"] + c["partial"] + c["spurious"]
    strict = ratio(c["partial"] + c["spurious"], n_resp, zero_division)
    lenient = ratio(c["spurious"], n_resp, zero_division)
    return {"strict": strict, "lenient": lenient, "average": (strict + lenient) / 2}


def prf(cor, par, inc, mis, spu, beta: float = 1.0, zero_division: float = 0.0) -> dict[str, np.ndarray]:
    """MUC-style counts and P/R/F-beta from the counts COR, PAR, INC, MIS, SPU (numbers or arrays of one shape),
    as MUC (Chinchor 1992) and SemEval-2013 compute them::

        POS = COR + PAR + INC + MIS    ACT = COR + PAR + INC + SPU
        P = (COR + PAR/2) / ACT        R = (COR + PAR/2) / POS      F-beta = (1 + b^2) P R / (b^2 P + R)

    ``zero_division`` for a ratio whose denominator is 0 (F too when POS = ACT = 0; :mod:`spacy_anno_eval.figures`).
    Returns the five counts, ``POS``, ``ACT``, ``p``, ``r`` and ``f``. :func:`muc_prf` and :func:`semeval_prf`
    call it on raw counts; other families (noisy-text NER's MUC table) call it on counts of their own.

    >>> r = prf(np.array([6]), np.array([2]), np.array([1]), np.array([1]), np.array([1]))
    >>> int(r["POS"][0]), int(r["ACT"][0]), float(r["p"][0]), float(r["r"][0])
    (10, 10, 0.7, 0.7)
    """
    pos = cor + par + inc + mis
    act = cor + par + inc + spu
    hits = cor + 0.5 * par
    p = ratio(hits, act, zero_division)
    r = ratio(hits, pos, zero_division)
    f = fbeta(p, r, beta, undefined=(pos == 0) & (act == 0), zero_division=zero_division)
    return {"COR": cor, "PAR": par, "INC": inc, "MIS": mis, "SPU": spu, "POS": pos, "ACT": act,
            "p": p, "r": r, "f": f}


def muc_prf(raw: np.ndarray, beta: float = 1.0, zero_division: float = 0.0) -> dict[str, np.ndarray]:
    """MUC counts COR, PAR, INC, MIS, SPU, POS, ACT and P/R/F (Chinchor 1992)."""
    raw = np.asarray(raw)
    return prf(raw[..., F_CORRECT], raw[..., F_PARTIAL], raw[..., F_INCORRECT],
               raw[..., F_MISSING] + raw[..., F_OVERLAP],
               raw[..., F_SPURIOUS] + raw[..., F_OVERLAP_R], beta, zero_division)


def semeval_prf(raw: np.ndarray, beta: float = 1.0, zero_division: float = 0.0) -> dict[str, dict]:
    """SemEval-2013 strict / exact / partial / type counts and P/R/F.

    From the one alignment (one pairing for all four schemas), with our pair
    statuses: correct (coextensive, same type), incorrect (coextensive, other
    type), partial (overlapping, same type), overlap (overlapping, other type)::

        strict   COR = correct            INC = incorrect + partial + overlap
        exact    COR = correct+incorrect  INC = partial + overlap
        partial  COR = correct+incorrect  PAR = partial + overlap
        type     COR = correct+partial    INC = incorrect + overlap

    MIS and SPU are the unpaired keys and responses in every schema. On
    corpora where each key overlaps at most one response and vice versa this
    equals nervaluate's four strategies (``ent_type`` is our ``type``); where
    several pairings are possible nervaluate pairs greedily, per prediction in
    order and per strategy, while here one optimal pairing serves all four.

    Per type, a pair counts under the key's label and a spurious response
    under its own, so the per-type tables add up to the overall table, also
    when labels are confused. nervaluate's do not: nervaluate 1.x scores each
    type on the entities of that type alone, so a key PER with a coextensive
    response LOC is one INC in its overall strict table but MIS (PER table) +
    SPU (LOC table) per type; nervaluate 0.x added every spurious response to
    every type's table. Either way its per-type counts do not sum to its
    overall counts; here they do, and the overall figures agree with its
    overall figures.
    """
    raw = np.asarray(raw)
    cor, par, inc, ovl = (raw[..., i] for i in (F_CORRECT, F_PARTIAL, F_INCORRECT, F_OVERLAP))
    mis, spu = raw[..., F_MISSING], raw[..., F_SPURIOUS]
    zero = np.zeros_like(cor)
    return {
        "strict": prf(cor, zero, inc + par + ovl, mis, spu, beta, zero_division),
        "exact": prf(cor + inc, zero, par + ovl, mis, spu, beta, zero_division),
        "partial": prf(cor + inc, par + ovl, zero, mis, spu, beta, zero_division),
        "type": prf(cor + par, zero, inc + ovl, mis, spu, beta, zero_division),
    }
