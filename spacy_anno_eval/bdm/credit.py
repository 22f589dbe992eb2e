"""BDM-weighted (augmented) precision, recall and F: partial credit for a near-miss concept.

Maynard, Peters & Li (2006), "Metrics for evaluation of ontology-based
information extraction" (EON workshop, WWW 2006), section 5: a response whose
span is right but whose concept is only close to the key's earns the BDM of
the two concepts (:mod:`spacy_anno_eval.bdm.distance`) instead of nothing::

    AP = BDM / (n + Spurious)        AR = BDM / (n + Missing)

where ``BDM`` is the sum of the BDM scores of the ``n`` matched pairs (an
exact match scores 1). Every response is either in a matched pair or
spurious, every key in a matched pair or missing, so ``n + Spurious`` is the
number of responses and ``n + Missing`` the number of keys; the scores are
read from the pairs of the engine's alignment (:mod:`spacy_anno_eval.spans.align`):

=============  =================  =================
pair status    strict credit      lenient credit
=============  =================  =================
``correct``    1                  1
``partial``    0                  1
``incorrect``  BDM(key, resp)     BDM(key, resp)
``overlap``    0                  BDM(key, resp)
=============  =================  =================

(``incorrect``: same span, different concept; ``overlap``: overlapping
spans, different concept.) ``average`` is the mean of the strict and lenient
P, R and F, as GATE averages them. The concept of an annotation is its label,
or the value of one feature (``feature=``, GATE's ``Mention->class``). A pair
whose concepts are equal scores 1 even when other significant features made
it ``incorrect``; a concept missing from the taxonomy earns 0 and is listed in
``unknown_concepts``.

Per type, a pair's credit counts towards the recall of the key's type and the
precision of the response's type (so per-type figures add up to the micro
figures); ``macro`` is the mean over types.

GATE's Corpus QA (``gate.util.OntologyMeasures``) differs in two ways, on
purpose: it divides by Correct + Spurious, which leaves partially correct
responses out of the denominator (the two agree when there is no partial
match), and it averages the per-type figures (our ``macro``) where we also
give the micro figures.
"""

from __future__ import annotations

import warnings
from typing import Any, Protocol

import numpy as np

from ..errors import UnknownConceptWarning
from ..figures import MEASURES as MODES
from ..figures import fbeta, ratio
from ..spans.align import CORRECT, INCORRECT, OVERLAP, PARTIAL, PairTable


class ConceptScores(Protocol):
    """Anything with ``get(a, b)``: the BDM of two concepts, or None when either is unknown."""

    def get(self, a: str, b: str) -> float | None: ...


def _concepts(table: Any, labels: list[str], rows: np.ndarray, feature: str | None) -> list[str | None]:
    if feature is None:
        return [labels[int(table.label[r])] for r in rows]
    feats = table.features
    return [None if feats is None or feats[r].get(feature) is None else str(feats[r][feature]) for r in rows]


def pair_credit(alignment: PairTable, scores: ConceptScores, *, feature: str | None = None
                ) -> tuple[np.ndarray, np.ndarray, dict[tuple[str, str], int]]:
    """Strict and lenient credit of every pair of ``alignment`` (0 for missing and spurious rows), and the
    concept pairs that had no score, with how often they occurred."""
    status = alignment.status
    strict = np.zeros(len(status))
    lenient = np.zeros(len(status))
    strict[status == CORRECT] = 1.0
    lenient[(status == CORRECT) | (status == PARTIAL)] = 1.0
    near = np.flatnonzero((status == INCORRECT) | (status == OVERLAP))
    unknown: dict[tuple[str, str], int] = {}
    if len(near):
        keys = _concepts(alignment.key, alignment.labels, alignment.key_row[near], feature)
        resps = _concepts(alignment.response, alignment.labels, alignment.response_row[near], feature)
        cache: dict[tuple[str, str], float | None] = {}
        credit = np.zeros(len(near))
        for k, (a, b) in enumerate(zip(keys, resps, strict=True)):
            if a is None or b is None:
                value = None
            elif (a, b) in cache:
                value = cache[(a, b)]
            else:
                value = cache[(a, b)] = scores.get(a, b)
            if value is None:
                pair = (str(a), str(b))
                unknown[pair] = unknown.get(pair, 0) + 1
            else:
                credit[k] = value
        lenient[near] = credit
        strict[near] = np.where(status[near] == INCORRECT, credit, 0.0)
    return strict, lenient, unknown


def bdm_prf(alignment: PairTable, scores: ConceptScores, *, feature: str | None = None, beta: float = 1.0,
            zero_division: float = 0.0) -> dict[str, Any]:
    """Augmented (BDM-weighted) strict, lenient and average P/R/F of an alignment; see the module docstring.

    Returns JSON-ready ``{"micro": {mode: {"p", "r", "f"}}, "macro": ...,
    "per_type": {type: {mode: {"p", "r", "f"}}}, "counts": {"keys",
    "responses", "bdm_strict", "bdm_lenient"}, "unknown_concepts":
    [{"key", "response", "count"}]}`` (``bdm_*`` are the credit sums).
    """
    strict, lenient, unknown = pair_credit(alignment, scores, feature=feature)
    if unknown:
        sample = ", ".join(f"{a}/{b}" for a, b in list(unknown)[:3])
        warnings.warn(f"BDM: {sum(unknown.values())} near-miss pairs have a concept missing from the BDM "
                      f"scores ({sample}...); they earn no credit", UnknownConceptWarning, stacklevel=2)
    n_types = len(alignment.labels)
    key_label = alignment.key_label()
    resp_label = alignment.response_label()
    has_key, has_resp = key_label >= 0, resp_label >= 0
    n_key = np.bincount(key_label[has_key], minlength=n_types).astype(float)
    n_resp = np.bincount(resp_label[has_resp], minlength=n_types).astype(float)
    per_type_fig, micro = {}, {}
    for mode, credit in (("strict", strict), ("lenient", lenient)):
        by_key = np.bincount(key_label[has_key], weights=credit[has_key], minlength=n_types)
        by_resp = np.bincount(resp_label[has_resp], weights=credit[has_resp], minlength=n_types)
        undefined = (n_key == 0) & (n_resp == 0)
        p = ratio(by_resp, n_resp, zero_division)
        r = ratio(by_key, n_key, zero_division)
        per_type_fig[mode] = (p, r, fbeta(p, r, beta, undefined=undefined, zero_division=zero_division))
        total = float(credit.sum())
        mp = float(ratio(total, n_resp.sum(), zero_division))
        mr = float(ratio(total, n_key.sum(), zero_division))
        mf = float(fbeta(mp, mr, beta, undefined=np.asarray(n_key.sum() == 0 and n_resp.sum() == 0),
                         zero_division=zero_division))
        micro[mode] = {"p": mp, "r": mr, "f": mf}
    micro["average"] = {k: (micro["strict"][k] + micro["lenient"][k]) / 2 for k in "prf"}
    per_type: dict[str, Any] = {}
    for t, name in enumerate(alignment.labels):
        row = {mode: dict(zip("prf", (float(x[t]) for x in per_type_fig[mode]), strict=True))
               for mode in ("strict", "lenient")}
        row["average"] = {k: (row["strict"][k] + row["lenient"][k]) / 2 for k in "prf"}
        per_type[name] = row
    macro = {mode: {k: float(np.mean([per_type[t][mode][k] for t in per_type])) if per_type else
                    float(zero_division) for k in "prf"} for mode in MODES}
    return {
        "micro": micro,
        "macro": macro,
        "per_type": per_type,
        "counts": {"keys": int(n_key.sum()), "responses": int(n_resp.sum()), "bdm_strict": float(strict.sum()),
                   "bdm_lenient": float(lenient.sum())},
        "feature": feature,
        "unknown_concepts": [{"key": a, "response": b, "count": c} for (a, b), c in unknown.items()],
    }


def load_concept_scores(path: Any) -> ConceptScores:
    """BDM scores from ``path``: a BDM score file (``anno-eval bdm``'s or GATE's: lines ``key=..., response=...,
    bdm=...``), or a taxonomy (``child<TAB>parent`` lines, or OWL/RDF) whose scores are computed."""
    from pathlib import Path

    from .distance import compute_bdm, read_bdm_file, read_taxonomy

    p = Path(path)
    with p.open(encoding="utf-8-sig") as handle:
        for line in handle:
            if line.strip() and not line.startswith("#"):
                break
        else:
            line = ""
    if line.startswith("key="):
        return read_bdm_file(p)
    return compute_bdm(read_taxonomy(p))


__all__ = ["ConceptScores", "UnknownConceptWarning", "bdm_prf", "load_concept_scores", "pair_credit"]
