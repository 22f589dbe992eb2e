"""Relation triples a language model gave as strings, scored by ANNALIST's relation scoring.

:func:`score_relation_extractions` grounds each triple's head and tail in the key's text with the ladder of
:mod:`spacy_anno_eval.llm.grounding`, scores the grounded arguments as entities with the span engine (against
the key's entities; an argument that is not in the text is a spurious entity in its document's appendix, as
:mod:`spacy_anno_eval.workflows.llm` explains), builds the response relations over the grounded arguments and
scores them against the key's relations over that entity alignment
(:func:`spacy_anno_eval.annalist.relations.score_relations`, as ``anno-eval relations`` does).

**Arguments.** A string a document's triples name several times (``Ada`` as the head of three triples) is one
entity: each distinct string of a document is grounded once, in the order it first appears, with the first
label a triple gives it (``head_label`` / ``tail_label``), and every triple that names it points at the same
span. Two strings grounded to the same span are one entity (the first one's label). A string that no triple
labels *borrows* the label of the key entity at exactly its span (else ``ENTITY``), so that relation scoring,
which leaves a relation over a mislabelled entity unscored, judges the relation and not a label the producer
never claimed; the entity figures then say nothing about those labels, and the result counts the borrowed
labels (``borrowed_labels``).

With ``ground_all`` every occurrence of an argument is an entity and its triples point at the first.

**Ungrounded arguments.** A triple whose head or tail cannot be grounded is left *unscored*, as ANNALIST leaves
a relation over a missing entity unscored, and listed with the reason (``hallucinated head 'Grace Hopper': ...``)
in :attr:`LlmRelations.ungrounded`, and counted; its grounded argument still counts as an entity.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from ..annalist.relations import EntityAlignment, Relation, RelationScores, entity_id, score_relations
from ..annalist.relations_reader import read_relations
from ..errors import ConfigError
from ..llm.extractions import Extraction, Extractions
from ..spans.counts import Evaluation
from ..spans.engine import evaluate
from ..spans.settings import SpanSettings
from .llm import (
    HALLUCINATION,
    as_extractions,
    as_grounding_settings,
    document_outcomes,
    ground_in_key,
    grounding_dict,
    read_key,
    response_side,
)

#: the label of an argument whose triple gives none and whose span is no key entity's
NO_LABEL = "ENTITY"
UNGROUNDED_COLUMNS = ("doc", "relation", "name", "head", "tail", "reason")


@dataclass
class LlmRelations:
    """Triples scored against a key: ``entities``, the span engine's evaluation of the grounded arguments;
    ``relations``, ANNALIST's :class:`~spacy_anno_eval.annalist.relations.RelationScores`; ``grounding``, the
    grounding of the arguments; ``ungrounded``, one row per triple left unscored because an argument is not in
    the text (columns :data:`UNGROUNDED_COLUMNS`); ``borrowed_labels``, how many arguments took the key's
    label (module docstring)."""

    entities: Evaluation
    relations: RelationScores
    grounding: Any
    ungrounded: list[dict[str, Any]]
    borrowed_labels: int = 0

    def hallucination_rows(self) -> list[dict[str, Any]]:
        """The grounding's rows of the arguments not in the text, in document and argument order."""
        return [row for row in self.grounding.rows() if row["step"] == HALLUCINATION]

    def to_dict(self, rows: bool = False) -> dict[str, Any]:
        """JSON-ready: ``entities`` (the evaluation's report), ``relations``, ``grounding`` (its rows with
        ``rows``), ``ungrounded`` and its count ``n_ungrounded``, ``borrowed_labels``."""
        return {"entities": self.entities.report(), "relations": self.relations.to_dict(),
                "grounding": grounding_dict(self.grounding, rows),
                "ungrounded": [dict(r) for r in self.ungrounded], "n_ungrounded": len(self.ungrounded),
                "borrowed_labels": self.borrowed_labels}


def _arguments(found: Extractions) -> tuple[Extractions, dict[tuple[str, int], tuple[int, int]]]:
    """Every document's distinct argument strings as extractions, in the order they first appear, each with the
    first label a triple gives it (``""``: none does); and for each triple (``(doc, order)``) the indices of its
    head and tail among them."""
    docs: dict[str, list[Extraction]] = {}
    of_triple: dict[tuple[str, int], tuple[int, int]] = {}
    for doc, triples in found.triples.items():
        index: dict[str, int] = {}
        labels: dict[str, str] = {}
        first_source: dict[str, str] = {}
        for t in triples:
            ends = []
            for text, label in ((t.head, t.head_label), (t.tail, t.tail_label)):
                if text not in index:
                    index[text] = len(index)
                    first_source[text] = t.source
                if label and text not in labels:
                    labels[text] = label
                ends.append(index[text])
            of_triple[(doc, t.order)] = (ends[0], ends[1])
        docs[doc] = [Extraction(doc, labels.get(text, ""), text, k, first_source[text]) for text, k in index.items()]
    return Extractions(documents=docs, source=found.source, format=found.format), of_triple


def score_relation_extractions(key: Any, extractions: Any, *, key_set: str = "ents", grounding: Any = None,
                               settings: SpanSettings | None = None, key_format: str = "auto",
                               reader_options: Mapping[str, Any] | None = None, fmt: str | None = None,
                               extraction_options: Mapping[str, Any] | None = None, encoding: str = "utf-8",
                               alignment: str = "strict", partial_entities: str = "partial",
                               **values: Any) -> LlmRelations:
    """Score relation triples given as strings against the key's relations (module docstring).

    ``key``: a path (JSONL or DocBin with relations, as ``anno-eval relations`` reads them; ``key_format`` and
    ``reader_options`` for its span reader, ``encoding`` for its relations) or spaCy Docs; ``key_set``: the key's
    entities. ``extractions``: an :class:`~spacy_anno_eval.llm.extractions.Extractions` holding ``triples``, or a
    path read in ``fmt`` (``llm-relations``) with ``extraction_options``. ``grounding``: the ladder
    (:class:`~spacy_anno_eval.llm.grounding.GroundingSettings` or a string). ``alignment`` and
    ``partial_entities``: ANNALIST's (:func:`~spacy_anno_eval.annalist.relations.score_relations`); ``settings``
    and ``values``: the span engine's, for the entities (``beta``, ``zero_division`` also go to the relations).
    """
    if not isinstance(key, (str, os.PathLike)):
        from ..annotations.docs import as_docs

        key = as_docs(key, "key")
    span_settings = SpanSettings.of(settings, key_set=key_set, **values)
    ground_settings = as_grounding_settings(grounding)
    found = as_extractions(extractions, fmt, extraction_options)
    if not found.triples and len(found):
        raise ConfigError(f"{found.source or 'extractions'}: holds entities but no relation triples; score them "
                          f"with score_extractions (anno-eval score --format {found.format or 'llm-json'})")
    arguments, of_triple = _arguments(found)
    docs = key if isinstance(key, list) else None
    kc = read_key(key, span_settings.key_set, key_format, None, reader_options)
    texts = list(kc.texts)
    grounded = ground_in_key(kc, texts, arguments, docs, ground_settings)
    spans, entities_kept, borrowed = _argument_spans(kc, grounded, span_settings.key_set)
    side = response_side(kc, texts, _Relabelled(entities_kept), span_settings.key_set,
                         found.source or "triples")
    ev = evaluate(side.key, side.response, settings=span_settings.replace(fp_per="tokens"))
    ev = replace(ev, settings=span_settings)
    response, ungrounded = _response_relations(found, of_triple, spans)
    scored = score_relations(read_relations(key, encoding=encoding), response,
                             EntityAlignment.from_rows(ev.diff_rows()), alignment=alignment,
                             partial_entities=partial_entities, beta=span_settings.beta,
                             zero_division=span_settings.zero_division)
    return LlmRelations(ev, scored, grounded, ungrounded, borrowed)


class _Relabelled:
    """The arguments kept as entities (one per span, labels borrowed where no triple gave one), shaped as a
    grounding: what :func:`~spacy_anno_eval.workflows.llm.response_side` builds the response from."""

    def __init__(self, kept: Mapping[str, tuple[list[Any], list[Any]]]) -> None:
        self.documents = {doc: _Doc(g, h) for doc, (g, h) in kept.items()}


@dataclass
class _Doc:
    grounded: list[Any]
    hallucinations: list[Any]


def _argument_spans(kc: Any, grounding: Any, key_set: str) -> tuple[
        dict[str, dict[int, tuple[int, int] | str]], dict[str, tuple[list[Any], list[Any]]], int]:
    """Per document: each argument's span (its index -> ``(start, end)``, or the hallucination's reason), the
    grounded items kept as entities (one per span; labels borrowed, module docstring) and the hallucinations,
    and how many labels were borrowed."""
    table = kc.get_set(key_set)
    names = table.label_names()
    key_labels: dict[tuple[int, int, int], str] = {}
    for i in range(len(table)):
        key_labels.setdefault((int(table.doc[i]), int(table.start[i]), int(table.end[i])), str(names[i]))
    spans: dict[str, dict[int, tuple[int, int] | str]] = {}
    kept: dict[str, tuple[list[Any], list[Any]]] = {}
    borrowed = 0
    for d, doc_id in enumerate(kc.doc_ids):
        grounded, hallucinated = document_outcomes(grounding, doc_id)
        here: dict[int, tuple[int, int] | str] = {}
        seen: set[tuple[int, int]] = set()
        entities = []
        for g in grounded:
            span = (int(g.start), int(g.end))
            here.setdefault(g.extraction.order, span)  # with ground_all: its first occurrence
            if span in seen:
                continue
            seen.add(span)
            if not g.extraction.label:
                label = key_labels.get((d, *span))
                borrowed += label is not None
                g = g._replace(extraction=replace(g.extraction, label=label or NO_LABEL))
            entities.append(g)
        for h in hallucinated:
            here[h.extraction.order] = str(h.reason)
        hallucinated = [h if h.extraction.label else h._replace(extraction=replace(h.extraction, label=NO_LABEL))
                        for h in hallucinated]
        spans[doc_id] = here
        kept[doc_id] = (entities, hallucinated)
    return spans, kept, borrowed


def _response_relations(found: Extractions, of_triple: Mapping[tuple[str, int], tuple[int, int]],
                        spans: Mapping[str, Mapping[int, tuple[int, int] | str]]) -> tuple[list[Relation],
                                                                                         list[dict[str, Any]]]:
    """The response relations over the grounded arguments (``arg1`` the head, ``arg2`` the tail, as the key's
    relations are read), and a row per triple with an argument not in the text."""
    relations: list[Relation] = []
    ungrounded: list[dict[str, Any]] = []
    for doc, triples in found.triples.items():
        for t in triples:
            head, tail = of_triple[(doc, t.order)]
            where_ = spans.get(doc, {})
            ends = {"head": where_.get(head), "tail": where_.get(tail)}
            problems = [f"hallucinated {role} {text!r}: {ends[role]}"
                        for role, text in (("head", t.head), ("tail", t.tail)) if isinstance(ends[role], str)]
            if problems:
                ungrounded.append({"doc": doc, "relation": str(t.order), "name": t.relation, "head": t.head,
                                   "tail": t.tail, "reason": "; ".join(problems)})
                continue
            h, tl = ends["head"], ends["tail"]
            assert isinstance(h, tuple) and isinstance(tl, tuple)
            relations.append(Relation(doc, str(t.order), t.relation, {"arg1": entity_id(*h), "arg2": entity_id(*tl)}))
    return relations, ungrounded


__all__ = ["NO_LABEL", "UNGROUNDED_COLUMNS", "LlmRelations", "score_relation_extractions"]
