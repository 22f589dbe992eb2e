"""Every decision of an alignment as a row, in one error taxonomy.

Each pair or lone annotation of the one alignment (:mod:`.align`) is one
*decision*, named by what went wrong (the taxonomy of error-analysis tools
such as ExplainaBoard and nervaluate's per-category lists)::

    decision                  relation (the engine's status)                MUC        GATE                SemEval
    correct                   coextensive, type-compatible (correct)        COR        Correct             COR
    label_error               coextensive, not type-compatible (incorrect)  INC        Missing + Spurious  INC
    boundary_error            overlapping, not coextensive, same type       PAR        Partial             INC
                              (partial)
    boundary_and_label_error  overlapping, not coextensive, other type      MIS + SPU  Missing + Spurious  INC
                              (overlap)
    missing                   key without a response (missing)              MIS        Missing             MIS
    spurious                  response without a key (spurious)             SPU        Spurious            SPU

"Type-compatible" is GATE's (user guide §10.1.1): the same label and the
key's significant features subsumed by the response's, so a coextensive pair
whose significant feature differs is a ``label_error`` too. The MUC column
follows Chinchor (1992) as :func:`~spacy_anno_eval.spans.measures.muc_prf`
counts it; the SemEval column is the strict schema of Segura-Bedmar et al.
(2013) as :func:`~spacy_anno_eval.spans.measures.semeval_prf` counts it.

The counts come from the raw counts of an evaluation (:func:`decision_counts`),
so a streamed or merged evaluation has them too; the rows need the pairs
(:func:`decision_rows`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..errors import ConfigError
from .align import CORRECT, INCORRECT, MISSING, OVERLAP, PARTIAL, SPURIOUS
from .measures import F_CORRECT, F_INCORRECT, F_MISSING, F_OVERLAP, F_PARTIAL, F_SPURIOUS

#: the decisions, the correct one first
DECISIONS = ("correct", "label_error", "boundary_error", "boundary_and_label_error", "missing", "spurious")
#: the decisions that are errors
ERRORS = DECISIONS[1:]
#: the engine's pair status (:data:`~spacy_anno_eval.spans.align.STATUS_NAMES`) -> decision
DECISION_OF_STATUS = {CORRECT: "correct", INCORRECT: "label_error", PARTIAL: "boundary_error",
                      OVERLAP: "boundary_and_label_error", MISSING: "missing", SPURIOUS: "spurious"}
#: the raw-count field (:data:`~spacy_anno_eval.spans.measures.FIELDS`) of each decision, counted under the key's
#: label (a spurious response under its own)
_FIELD = {"correct": F_CORRECT, "label_error": F_INCORRECT, "boundary_error": F_PARTIAL,
          "boundary_and_label_error": F_OVERLAP, "missing": F_MISSING, "spurious": F_SPURIOUS}
#: how each decision counts in MUC, GATE and SemEval's strict schema (the table above)
MAPPING = {
    "correct": {"muc": "COR", "gate": "Correct", "semeval_strict": "COR"},
    "label_error": {"muc": "INC", "gate": "Missing + Spurious", "semeval_strict": "INC"},
    "boundary_error": {"muc": "PAR", "gate": "Partial", "semeval_strict": "INC"},
    "boundary_and_label_error": {"muc": "MIS + SPU", "gate": "Missing + Spurious", "semeval_strict": "INC"},
    "missing": {"muc": "MIS", "gate": "Missing", "semeval_strict": "MIS"},
    "spurious": {"muc": "SPU", "gate": "Spurious", "semeval_strict": "SPU"},
}
#: the columns of a decision row, in order
COLUMNS = ("doc_id", "decision", "key_start", "key_end", "key_label", "key_text",
           "response_start", "response_end", "response_label", "response_text", "left_context", "right_context")
#: characters of context on each side of a decision, by default
CONTEXT = 40


def counts_of(raw: np.ndarray) -> dict[str, int]:
    """The number of each decision in raw counts (one row of an evaluation's ``by_type``/``by_doc``, or their
    sum): a pair counts once, under its key's label.

    >>> counts_of(np.array([3, 1, 2, 0, 4, 5, 2, 0]))["label_error"]
    2
    """
    raw = np.asarray(raw)
    return {name: int(raw[..., f].sum()) for name, f in _FIELD.items()}


def decision_counts(evaluation: Any) -> dict[str, Any]:
    """``{"micro": {decision: n}, "per_type": {label: {decision: n}}}`` of ``evaluation`` (an
    :class:`~spacy_anno_eval.spans.counts.Evaluation`, which asks this module: hence no import of it), from its counts
    (pairs not needed: merged and streamed evaluations have them too). A decision counts under its key's
    label; a spurious response under its own. Types with no decision are left out."""
    per_type = {label: counts_of(row) for label, row in zip(evaluation.labels, evaluation.by_type, strict=True)
                if row.any()}
    return {"micro": counts_of(evaluation.by_type.sum(axis=0)), "per_type": per_type}


def check_context(context: Any, what: str = "context") -> int:
    """``context`` (characters of text on each side of a row) when it is a whole number >= 0, else
    :class:`ConfigError` naming ``what``."""
    if isinstance(context, bool) or not isinstance(context, (int, np.integer)) or context < 0:
        raise ConfigError(f"{what} must be a whole number of characters >= 0, got {context!r}")
    return int(context)


def _check_which(which: Sequence[str] | None) -> tuple[str, ...]:
    if which is None:
        return ERRORS
    chosen = tuple(which)
    unknown = [w for w in chosen if w not in DECISIONS]
    if unknown:
        raise ConfigError(f"unknown decision(s) {', '.join(map(repr, unknown))}; the decisions are "
                          f"{', '.join(DECISIONS)}")
    return chosen


def decision_rows(evaluation: Any, *, which: Sequence[str] | None = None,
                  context: int = CONTEXT) -> list[dict[str, Any]]:
    """One row per decision of ``evaluation``'s alignment, in document order (:data:`COLUMNS`).

    ``which``: the decisions to keep (default :data:`ERRORS`, every error; :data:`DECISIONS` for all).
    ``context``: characters of the key's text before and after the decision (the union of its two spans)
    in ``left_context`` / ``right_context``; the texts are ``None`` when the evaluation does not know them.
    A side that is absent (the response of a missing key, the key of a spurious response) has ``None`` in its
    columns. Raises :class:`~spacy_anno_eval.errors.ConfigError` when the evaluation keeps no pairs.
    """
    wanted = _check_which(which)
    width = check_context(context)
    al = evaluation.require_pairs("the decision rows (errors())")
    codes = [s for s, name in DECISION_OF_STATUS.items() if name in wanted]
    keep = np.flatnonzero(np.isin(al.status, codes))
    texts = evaluation.texts
    labels = evaluation.labels
    rows = []
    for i in keep.tolist():
        doc, k, r = int(al.doc[i]), int(al.key_row[i]), int(al.response_row[i])
        text = texts[doc] if texts is not None else None
        row: dict[str, Any] = {"doc_id": evaluation.doc_ids[doc], "decision": DECISION_OF_STATUS[int(al.status[i])]}
        bounds = []
        for side, table, j in (("key", al.key, k), ("response", al.response, r)):
            if j < 0:
                row.update({f"{side}_start": None, f"{side}_end": None, f"{side}_label": None, f"{side}_text": None})
                continue
            start, end = int(table.start[j]), int(table.end[j])
            bounds.append((start, end))
            row.update({f"{side}_start": start, f"{side}_end": end, f"{side}_label": labels[int(table.label[j])],
                        f"{side}_text": None if text is None else text[start:end]})
        first, last = min(b[0] for b in bounds), max(b[1] for b in bounds)
        row["left_context"] = None if text is None else text[max(0, first - width):first]
        row["right_context"] = None if text is None else text[last:last + width]
        rows.append(row)
    return rows


__all__ = ["COLUMNS", "CONTEXT", "DECISIONS", "DECISION_OF_STATUS", "ERRORS", "MAPPING", "check_context", "counts_of",
           "decision_counts", "decision_rows"]
