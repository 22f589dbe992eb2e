"""Relations of two corpus files scored, as ``anno-eval relations`` reports them: the entities aligned by offsets
with the span engine, then the relations of each file scored over that alignment (:mod:`.relations`, read by
:mod:`.relations_reader`). Its own module: :mod:`.relations_reader` imports :mod:`.relations`."""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

from .relations import EntityAlignment, RelationScores, score_relations
from .relations_reader import read_relations


@dataclass
class RelationsResult:
    """Relations of two corpora scored over their entity alignment (:func:`score_relation_files`):
    ``entities``, the span engine's :class:`~spacy_anno_eval.spans.counts.Evaluation` of the entities, and
    ``relations``, the :class:`RelationScores` over its alignment."""

    entities: Any
    relations: RelationScores

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: ``entities`` (the evaluation's report) and ``relations`` (:meth:`RelationScores.to_dict`),
        the scores file of ``anno-eval relations``."""
        return {"entities": self.entities.report(), "relations": self.relations.to_dict()}


def score_relation_files(key: str | os.PathLike, response: str | os.PathLike, *, key_set: str = "ents",
                         response_set: str | None = None, fmt: str = "auto",
                         reader_options: dict[str, Any] | None = None, encoding: str = "utf-8",
                         alignment: str = "strict", partial_entities: str = "partial") -> RelationsResult:
    """Score the relations of the ``response`` corpus against the ``key`` corpus (JSONL or DocBin, the same
    documents): their entities (``key_set`` / ``response_set``) aligned by offsets with the span engine
    (:func:`~spacy_anno_eval.spans.engine.evaluate`; ``fmt`` and ``reader_options`` for its reader), then the
    relations of each (:func:`~spacy_anno_eval.annalist.relations_reader.read_relations`, in ``encoding``) scored
    over that alignment (:func:`score_relations` with ``alignment`` and ``partial_entities``)."""
    from ..spans.engine import evaluate

    ev = evaluate(str(key), str(response), key_set=key_set, response_set=response_set, fmt=fmt,
                  reader_options=reader_options)
    entities = EntityAlignment.from_rows(ev.diff_rows())
    scored = score_relations(read_relations(key, encoding=encoding), read_relations(response, encoding=encoding),
                             entities, alignment=alignment, partial_entities=partial_entities)
    return RelationsResult(ev, scored)


__all__ = ["RelationsResult", "score_relation_files"]
