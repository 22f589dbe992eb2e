"""Samples of ANNALIST's readers (:meth:`spacy_anno_eval.io.registry.Reader.sample`): relations and mentions.

- **relations**: Prodigy ``rel.manual`` JSONL: one document whose first two
  words are entities and one relation between them labelled ``case.label``,
  ``head_span`` / ``child_span`` giving their offsets; the id in
  ``meta.id``. No number (``None`` for a case with one); the depth nests the
  line's ``meta``.
- **mentions**: ANNALIST's mentions JSONL: one document ``case.doc_id`` with
  its text and one mention of the first word labelled ``case.label``;
  ``case.number`` is its ``start`` and ``end`` (offsets are optional there, so
  a careless writer's ``NaN`` must not pass for "no offset"); the depth nests
  the mention's ``extra``.

``empty``: an empty file. A lone surrogate is written as a JSON escape.
"""

from __future__ import annotations

from typing import Any

from ..io.registry import Files, Sample
from ..io.samples import json_bytes, nested, sample_words


def relations(case: Sample) -> Files | None:
    """Prodigy ``rel.manual`` JSONL (``relations.jsonl``)."""
    if case.number is not None:
        return None
    if case.empty:
        return {"relations.jsonl": b""}
    words = sample_words(case.text)
    tokens = [{"text": w, "start": s, "end": e, "id": k, "ws": True} for k, (s, e, w) in enumerate(words)]
    spans = [{"start": s, "end": e, "token_start": k, "token_end": k, "label": "ENT"}
             for k, (s, e, _) in enumerate(words[:2])]
    relation: dict[str, Any] = {"head": 0, "child": len(spans) - 1, "label": case.label,
                                "head_span": spans[0], "child_span": spans[-1]}
    record: dict[str, Any] = {"text": case.text, "tokens": tokens, "spans": spans, "relations": [relation],
                              "answer": "accept", "meta": {"id": case.doc_id}}
    if case.depth:
        record["meta"]["extra"] = nested(case.depth)
    return {"relations.jsonl": json_bytes(record) + b"\n"}


def mentions(case: Sample) -> Files | None:
    """ANNALIST's mentions JSONL (``mentions.jsonl``)."""
    if case.empty:
        return {"mentions.jsonl": b""}
    start, end = case.span
    mention: dict[str, Any] = {"id": "m1", "label": case.label, "text": case.text[start:end], "start": start,
                               "end": end}
    if case.number is not None:
        mention["start"] = mention["end"] = float(case.number)
    if case.depth:
        mention["extra"] = nested(case.depth)
    return {"mentions.jsonl": json_bytes({"id": case.doc_id, "text": case.text, "mentions": [mention]}) + b"\n"}
