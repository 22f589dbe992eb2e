"""spaCy scorers: strict, lenient and average span scores from ``Example`` objects.

Registered through the ``spacy_scorers`` entry point, so a training config
can use them without importing this package::

    [components.ner.scorer]
    @scorers = "spacy_anno_eval.spans_scorer.v1"
    spans_key = null

With ``spans_key = null`` the scorer reads ``doc.ents`` and is a drop-in for
the ``ner`` scorer: ``ents_p``/``ents_r``/``ents_f`` are strict and equal to
spaCy's own figures (``spacy.scorer.get_ner_prf``) whenever the predicted
entities fall on token boundaries of the reference (always the case in
``spacy train``). The differences are deliberate: spans compare by
character offsets, so no token alignment is needed; and where spaCy returns
``None`` (no entity on either side) we return 0.0, because spaCy drops a
score-weight key that is ``None`` at the first evaluation for the rest of
training.

Extra keys: ``{prefix}_{p,r,f}_{strict,lenient,average}`` (GATE user guide
ch. 10), ``{prefix}_per_type`` (strict ``p``/``r``/``f`` plus
``{p,r,f}_lenient`` and ``{p,r,f}_average``), ``{prefix}_muc`` (MUC counts
and P/R/F, Chinchor 1992) and ``{prefix}_semeval`` (SemEval-2013 schemas).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

import numpy as np

MODES = ("strict", "lenient", "average")


def make_spans_scorer(spans_key: str | None = None, beta: float = 1.0, labels: Sequence[str] | None = None,
                      features: Sequence[str] | None = None,
                      prefix: str | None = None) -> Callable[..., dict[str, Any]]:
    """Build the scorer registered as ``spacy_anno_eval.spans_scorer.v1``.

    spans_key (str | None): ``doc.spans`` key to score; ``None`` scores ``doc.ents``.
    beta (float): F-beta weight of recall.
    labels (list[str] | None): score only these labels.
    features (list[str] | None): significant span attributes (``kb_id``, ``_.name``).
    prefix (str | None): key prefix; default ``ents`` or ``spans_<key>`` like spaCy.
    """

    def scorer(examples: Iterable[Any], **kwargs: Any) -> dict[str, Any]:
        return score_spans(examples, spans_key=spans_key, beta=beta, labels=labels, features=features,
                           prefix=prefix)

    return scorer


def _ents_docs(examples: Iterable[Any]) -> tuple[list[Any], list[Any]]:
    """Reference and predicted docs of the examples whose reference has entity annotation
    (as spaCy's ``get_ner_prf`` skips the others)."""
    refs, preds = [], []
    for eg in examples:
        ref = eg.reference
        if ref.has_annotation("ENT_IOB"):
            refs.append(ref)
            preds.append(eg.predicted)
    return refs, preds


def score_spans(examples: Iterable[Any], *, spans_key: str | None = None, beta: float = 1.0,
                labels: Sequence[str] | None = None, features: Sequence[str] | None = None,
                prefix: str | None = None, zero_division: float = 0.0) -> dict[str, Any]:
    """Score predicted spans against reference spans of spaCy ``Example`` objects.

    All measures come from one alignment of the character spans
    (:func:`spacy_anno_eval.align.align_spans`); see the module docstring for
    the keys.
    """
    from .align.offsets import align_spans, select_types
    from .annotations import spans_from_docs
    from .corpus import Evaluation

    if spans_key is None:
        refs, preds = _ents_docs(examples)
        selector = "ents"
        prefix = prefix or "ents"
    else:
        refs, preds = [], []
        for eg in examples:
            if spans_key in eg.reference.spans:
                refs.append(eg.reference)
                preds.append(eg.predicted)
        selector = f"spans:{spans_key}"
        prefix = prefix or f"spans_{spans_key}"
    if spans_key is None and not features:
        key, blank = _ents_with_blanks(refs)
        response = spans_from_docs(preds, selector)
        response = _drop_on_blanks(response, blank)
    else:
        key = spans_from_docs(refs, selector, features)
        response = spans_from_docs(preds, selector, features)
    alignment = align_spans(select_types(key, labels), select_types(response, labels), features=features)
    ev = Evaluation.from_alignment(alignment, [str(i) for i in range(len(refs))],
                                   {"beta": beta, "zero_division": zero_division})
    return format_scores(ev.report(per_doc=False), prefix)


def _ents_with_blanks(refs: list[Any]) -> tuple[Any, Any]:
    """Reference entities, and the reference tokens that carry no entity annotation."""
    from .annotations import SpanTable, _ents_columns, _table_from_hashes

    doc, start, end, hashes, blank = _ents_columns(refs, unannotated=True)
    strings = refs[0].vocab.strings if refs else None
    z = np.zeros(len(blank[0]), dtype=np.int64)
    return _table_from_hashes(doc, start, end, hashes, strings), SpanTable(*blank, z, ["-"])


def _drop_on_blanks(table: Any, blank: Any) -> Any:
    """Leave out predicted entities that touch a reference token with no entity
    annotation (IOB code 0), as spaCy's ``get_ner_prf`` ignores them."""
    if not len(blank) or not len(table):
        return table
    from .align.offsets import overlap_candidates
    from .annotations import SpanTable

    hit, _ = overlap_candidates(table, blank)
    keep = np.ones(len(table), dtype=bool)
    keep[hit] = False
    return SpanTable(table.doc[keep], table.start[keep], table.end[keep], table.label[keep], table.labels)


def format_scores(report: dict[str, Any], prefix: str) -> dict[str, Any]:
    """Flatten a report into spaCy's flat score dict with prefixed keys."""
    micro = report["micro"]
    out: dict[str, Any] = {
        f"{prefix}_p": micro["strict"]["p"],
        f"{prefix}_r": micro["strict"]["r"],
        f"{prefix}_f": micro["strict"]["f"],
    }
    for mode in MODES:
        for k in "prf":
            out[f"{prefix}_{k}_{mode}"] = micro[mode][k]
    per_type = {}
    for label, entry in report["per_type"].items():
        row = {k: entry["strict"][k] for k in "prf"}
        for mode in ("lenient", "average"):
            row.update({f"{k}_{mode}": entry[mode][k] for k in "prf"})
        per_type[label] = row
    out[f"{prefix}_per_type"] = per_type
    out[f"{prefix}_muc"] = report["muc"]
    out[f"{prefix}_semeval"] = report["semeval"]
    return out
