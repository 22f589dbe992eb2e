"""spaCy scorers: strict, lenient and average span scores from ``Example`` objects.

Registered through the ``spacy_scorers`` entry point, so a training config
can use them without importing this package::

    [components.ner.scorer]
    @scorers = "spacy_anno_eval.spans_scorer.v1"
    spans_key = null

With ``spans_key = null`` the scorer reads ``doc.ents`` and is a drop-in for
the ``ner`` scorer (``spacy.scorer.get_ner_prf``): ``ents_p``/``ents_r``/
``ents_f`` are strict and equal to spaCy's figures, ``ents_per_type`` has
spaCy's ``p``/``r``/``f`` for the same labels. As in ``get_ner_prf``,
examples whose reference has no entity annotation at all are skipped, and a
predicted entity that touches a reference token with missing annotation
(IOB code 0) is neither right nor wrong: it is left out (its label still gets
a per-type row, as in spaCy).

With ``spans_key = "sc"`` it scores ``doc.spans["sc"]`` like spaCy's
``spancat`` scorer (``Scorer.score_spans`` with ``allow_overlap=True``): keys
``spans_sc_p`` ..., examples whose reference lacks the group are skipped, and
a span group is a set (exact duplicates count once; empty predicted spans,
which spaCy cannot align, are left out).

Differences from spaCy, on purpose:

- Where spaCy returns ``None`` (nothing to score: no entity on either side)
  we return 0.0 for every P/R/F key and ``{}`` for ``*_per_type``. spaCy's
  training loop drops a score-weight key whose value is ``None``, so a
  ``None`` at the first evaluation would take the key out of the weighted
  score; a float keeps the key.
- Spans compare by character offsets, so no token alignment is needed. The
  figures equal spaCy's whenever the predicted spans fall on token boundaries
  of the reference (always the case in ``spacy train``, where the predicted
  doc is the reference text tokenized by the pipeline). spaCy computes
  ``tp / (tp + fp + 1e-100)``; we compute the exact ratio, so values agree to
  floating-point rounding.
- ``beta``, ``labels`` and ``features`` have no spaCy counterpart. Keyword
  arguments that spaCy passes from the component's ``cfg`` (``labels``,
  ``spans_key``, ``threshold`` ...) are ignored: the scorer's own config wins.

Keys (``prefix`` defaults to ``ents`` or ``spans_<key>`` like spaCy):
``{prefix}_{p,r,f}`` (strict), ``{prefix}_{p,r,f}_{strict,lenient,average}``
(GATE user guide ch. 10: partial matches count as wrong, as right, or as
half), ``{prefix}_per_type`` (strict ``p``/``r``/``f`` plus
``{p,r,f}_lenient`` and ``{p,r,f}_average``), ``{prefix}_muc`` (MUC counts
and P/R/F, Chinchor 1992) and ``{prefix}_semeval`` (SemEval-2013 schemas).
Every flat key is a float, never ``None``.

Speed: entities are read with ``Doc.to_array`` (one call per doc) and aligned
with numpy over the whole batch; no ``Span`` object is created in the
``doc.ents`` mode without ``features``.
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
    beta (float): F-beta weight of recall (``>= 0``).
    labels (list[str] | None): score only these labels.
    features (list[str] | None): significant span attributes (``kb_id``, ``_.name``).
    prefix (str | None): key prefix; default ``ents`` or ``spans_<key>`` like spaCy.
    """
    if beta < 0:
        raise ValueError(f"spans_scorer: beta must be >= 0, got {beta!r}")
    if spans_key is not None and (not isinstance(spans_key, str) or not spans_key):
        raise ValueError(f"spans_scorer: spans_key must be a non-empty string or null, got {spans_key!r}")
    labels = list(labels) if labels else None
    features = list(features) if features else None

    def scorer(examples: Iterable[Any], **kwargs: Any) -> dict[str, Any]:
        # kwargs come from the component's cfg (spaCy's TrainablePipe.score); the config wins
        return score_spans(examples, spans_key=spans_key, beta=beta, labels=labels, features=features,
                           prefix=prefix)

    return scorer


def score_spans(examples: Iterable[Any], *, spans_key: str | None = None, beta: float = 1.0,
                labels: Sequence[str] | None = None, features: Sequence[str] | None = None,
                prefix: str | None = None, zero_division: float = 0.0) -> dict[str, Any]:
    """Score predicted spans against reference spans of spaCy ``Example`` objects.

    All measures come from one alignment of the character spans
    (:func:`spacy_anno_eval.align.align_spans`); see the module docstring for
    the keys and for where (and why) the result differs from spaCy's.
    """
    from ..spans.align import align_spans, select_types
    from ..spans.counts import Evaluation

    examples = list(examples)
    refs = [eg.reference for eg in examples]
    preds = [eg.predicted for eg in examples]
    features = list(features) if features else None
    if spans_key is None:
        key, response, ignored = _ents_tables(refs, preds, features)
        prefix = prefix or "ents"
    else:
        key, response, ignored = _spans_tables(refs, preds, spans_key, features)
        prefix = prefix or f"spans_{spans_key}"
    alignment = align_spans(select_types(key, labels), select_types(response, labels), features=features)
    ev = Evaluation.from_alignment(alignment, [str(i) for i in range(len(refs))],
                                   {"beta": beta, "zero_division": zero_division})
    report = ev.report(per_doc=False)
    out = format_scores(report, prefix)
    per_type = out[f"{prefix}_per_type"]
    if per_type:  # spaCy lists the labels of ignored predictions too, with zeros
        for label in ignored:
            if label not in per_type and (not labels or label in labels):
                per_type[label] = {name: 0.0 for name in _PER_TYPE_KEYS}
    return out


def _take(table: Any, keep: np.ndarray) -> Any:
    """The rows of a SpanTable where ``keep`` is true."""
    from ..annotations.table import SpanTable

    if keep.all():
        return table
    feats = [f for f, k in zip(table.features, keep, strict=True) if k] if table.features is not None else None
    return SpanTable(table.doc[keep], table.start[keep], table.end[keep], table.label[keep], table.labels, feats)


def _ents_tables(refs: list[Any], preds: list[Any],
                 features: list[str] | None) -> tuple[Any, Any, list[str]]:
    """Key and response entity tables as spaCy's ``get_ner_prf`` counts them.

    Returns the tables and the labels of the predictions left out because
    they touch a reference token without entity annotation.
    """
    from ..annotations.table import INDEX, SpanTable, _ents_columns, _table_from_hashes, spans_from_docs
    from ..spans.align import overlap_candidates

    doc, start, end, hashes, (bdoc, bstart, bend) = _ents_columns(refs, unannotated=True)
    # Doc.has_annotation("ENT_IOB"): some token has an IOB code other than 0
    sizes = np.fromiter(map(len, refs), dtype=INDEX, count=len(refs))
    annotated = np.bincount(bdoc, minlength=len(refs)) < sizes
    if features:
        key = spans_from_docs(refs, "ents", features)
        response = spans_from_docs(preds, "ents", features)
    else:
        key = _table_from_hashes(doc, start, end, hashes, refs[0].vocab.strings if refs else None)
        pdoc, pstart, pend, phashes = _ents_columns(preds)
        response = _table_from_hashes(pdoc, pstart, pend, phashes, preds[0].vocab.strings if preds else None)
    if not len(response):
        return key, response, []
    keep = annotated[response.doc]
    ignored: list[str] = []
    on_blank = annotated[bdoc]
    if on_blank.any():
        blank = SpanTable(bdoc[on_blank], bstart[on_blank], bend[on_blank], np.zeros(int(on_blank.sum())), ["-"])
        hit, _ = overlap_candidates(response, blank)
        hit = hit[keep[hit]]
        if len(hit):
            ignored = sorted({response.labels[i] for i in np.unique(response.label[hit])})
            keep[hit] = False
    return key, _take(response, keep), ignored


def _spans_tables(refs: list[Any], preds: list[Any], spans_key: str,
                  features: list[str] | None) -> tuple[Any, Any, list[str]]:
    """Key and response tables of ``doc.spans[spans_key]`` as spaCy's spancat scorer counts them.

    Returns the tables and the labels of the empty predicted spans left out
    (spaCy cannot align them, but lists their labels).
    """
    from ..annotations.table import spans_from_docs

    has = np.fromiter((spans_key in d.spans for d in refs), dtype=bool, count=len(refs))
    selector = f"spans:{spans_key}"
    key = spans_from_docs(refs, selector, features)
    response = spans_from_docs(preds, selector, features)
    ignored: list[str] = []
    if len(response):
        in_scope = has[response.doc]
        empty = in_scope & (response.end <= response.start)
        if empty.any():
            ignored = sorted({response.labels[i] for i in np.unique(response.label[empty])})
        response = _take(response, in_scope & ~empty)
    if not features:
        key, response = _unique_rows(key), _unique_rows(response)
    return key, response, ignored


def _unique_rows(table: Any) -> Any:
    """Leave out exact duplicates (same document, offsets and label), as a set does."""
    if len(table) < 2:
        return table
    rows = np.stack([table.doc, table.start, table.end, table.label], axis=1)
    _, first = np.unique(rows, axis=0, return_index=True)
    if len(first) == len(table):
        return table
    keep = np.zeros(len(table), dtype=bool)
    keep[first] = True
    return _take(table, keep)


_PER_TYPE_KEYS = ("p", "r", "f", "p_lenient", "r_lenient", "f_lenient", "p_average", "r_average", "f_average")


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
