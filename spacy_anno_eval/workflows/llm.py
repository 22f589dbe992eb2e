"""What a language model extracted, as strings, scored by the span engine: grounded, hallucinations counted.

:func:`score_extractions` reads the key corpus, pairs the model's documents with it by id, grounds every
extracted string in the key's text by the ladder of :mod:`spacy_anno_eval.llm.grounding` (exact, casefold,
normalized, fuzzy; snapped to the key's tokens), and gives the grounded spans to the span engine
(:func:`~spacy_anno_eval.spans.engine.evaluate`) unchanged: strict, lenient, average, MUC, SemEval, the error
rate and the confusion matrix all come from that one alignment. Beside it, the *set* mode
(:func:`spacy_anno_eval.llm.sets.set_scores`) compares normalised (text, label) pairs and needs no grounding.

**Why an appendix.** An extraction the ladder cannot find in the text is a *hallucination*, and the issue wants
it to count as a spurious response in every measure, exactly as a wrong answer lowers precision. The engine
takes spans with offsets in the document's text and refuses a zero-width or out-of-range span, so a
hallucination has nowhere to sit. Rather than teach the engine a second kind of response, each document with
hallucinations gets, on both sides, the same extended text: its own text, then a marked appendix::

    <the document's text>\\n\\n⟦not in the text⟧ Grace Hopper · Alan Turing

and the response carries each hallucination as a span over its string there (label: the extraction's label;
features ``grounding = "hallucination"`` and ``reason``). The key has no annotation in the appendix, so each
is spurious, in the document it was extracted for: per-document and per-type figures stay right, and the engine
(alignment, counts, measures, merging) runs as it does for any corpus. The key and the response carry the same
extended text, so the engine's text check passes; the key's :attr:`~spacy_anno_eval.annotations.table.Corpus.tokens`
(a CoNLL key's) are dropped from the extended corpus (they describe the text without its appendix), and the
false-positive rate's ``c`` (tokens or sentences, GATE eq. 10.8) is counted on the key as read, without the
appendix (:func:`~spacy_anno_eval.spans.units.doc_units`), so the appendix adds no token to it. A reader of the
Annotation Diff (HTML report) sees, under the document's own text, the marker ``⟦not in the text⟧`` followed by
the hallucinated strings, each highlighted as a spurious response with its label; the Diff table lists them
with the features that say why. (The document-length buckets of ``--buckets`` measure the extended text.)

**How grounded annotations are marked.** Every response annotation carries the feature ``grounding``: the
step that found it (``claimed``, ``exact``, ``casefold``, ``normalized``, ``fuzzy``) or ``hallucination``; a
``similarity`` where it is below 1 (a fuzzy match, a span that snapping changed); ``repeat = True`` where the
ladder marked it a repeat: a string listed again after every occurrence of it in the text was taken (grounded
again to its first occurrence), or, with ``ground_all``, an occurrence an earlier extraction already holds. A
repeat is a duplicate span, and the engine pairs one to one: of two identical response spans at most one pairs
with the key's annotation (the first in document order) and the other is a spurious response (checked in
``tests/workflows/test_llm_scoring.py``), so a model that names a person twice where the text names them once
loses precision for it. These features are not significant unless asked for (``features``); the key carries
none of them, so asking for them changes nothing (GATE's compatibility asks the response for the key's
significant features only).

Relations (:mod:`spacy_anno_eval.workflows.llm_relations`) use the same grounding and the same appendix.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from ..annotations.table import Corpus, SpanTableBuilder
from ..errors import ConfigError, InputError, ReaderNoteWarning, where
from ..llm.extractions import Extraction, Extractions
from ..llm.grounding import HALLUCINATION
from ..spans.counts import Evaluation
from ..spans.credit import CreditRule
from ..spans.engine import evaluate, load, options_per_source
from ..spans.settings import SpanSettings
from ..spans.units import doc_units

#: the marker that opens the appendix of hallucinated strings (module docstring)
MARKER = "⟦not in the text⟧"
#: what separates the document's text from the marker, and one hallucinated string from the next
OPENING = "\n\n" + MARKER + " "
SEPARATOR = " · "
#: what stands in the appendix for an extracted string that is empty or white space (a span needs a character)
EMPTY = "⟦empty⟧"


# -- the appendix -----------------------------------------------------------------------------------------------


def with_appendix(text: str, strings: Sequence[str]) -> tuple[str, list[tuple[int, int]]]:
    """``text`` followed by the marked appendix of ``strings`` (module docstring), and each string's span there
    (an empty or white-space-only string is written as :data:`EMPTY`, so that a reader sees it). No strings:
    ``text`` unchanged and no span.

    >>> with_appendix("Ada met Bob.", ["Alan", "Grace"])
    ('Ada met Bob.\\n\\n⟦not in the text⟧ Alan · Grace', [(32, 36), (39, 44)])
    """
    if not strings:
        return text, []
    parts = [text, OPENING]
    spans = []
    at = len(text) + len(OPENING)
    for i, s in enumerate(strings):
        s = s if s.strip() else EMPTY
        if i:
            parts.append(SEPARATOR)
            at += len(SEPARATOR)
        parts.append(s)
        spans.append((at, at + len(s)))
        at += len(s)
    return "".join(parts), spans


# -- grounding results, as the workflow reads them ------------------------------------------------------------------


def document_outcomes(grounding: Any, doc_id: str) -> tuple[list[Any], list[Any]]:
    """The grounded extractions and the hallucinations of one document of a
    :class:`~spacy_anno_eval.llm.grounding.Grounding` (``([], [])`` for a document it does not hold)."""
    doc = grounding.documents.get(doc_id)
    if doc is None:
        return [], []
    return list(doc.grounded), list(doc.hallucinations)


def grounded_features(item: Any) -> dict[str, Any]:
    """The features of a grounded annotation (module docstring): ``grounding`` (the step), ``similarity`` where
    it is below 1 (a fuzzy match, or a span that snapping changed), ``repeat`` for a repeat."""
    out: dict[str, Any] = {"grounding": item.step}
    if item.similarity < 1.0:
        out["similarity"] = round(float(item.similarity), 4)
    if item.repeat:
        out["repeat"] = True
    return out


def hallucination_features(item: Any) -> dict[str, Any]:
    """The features of a hallucination's annotation in the appendix: ``grounding = "hallucination"`` and the
    ``reason`` the ladder gave."""
    return {"grounding": HALLUCINATION, "reason": str(item.reason)}


@dataclass(frozen=True)
class ResponseSide:
    """The response corpus built from a grounding, and the extended key: ``key`` is the key corpus with the
    appendices (the same object as read when no document has a hallucination), ``response`` the grounded spans
    over the same texts, ``appendix_at`` the length of each extended document's own text (where its appendix
    begins)."""

    key: Corpus
    response: Corpus
    appendix_at: dict[str, int]


def response_side(kc: Corpus, texts: Sequence[str], grounding: Any, selector: str, source: str) -> ResponseSide:
    """Build the response corpus of ``grounding`` (a :class:`~spacy_anno_eval.llm.grounding.Grounding`, or
    anything whose ``documents`` map ids to ``grounded`` and ``hallucinations`` lists) over the key corpus ``kc``
    (``texts``: its texts, built), under the set name ``selector``, and the key extended with the appendices
    (module docstring)."""
    builder = SpanTableBuilder()
    extended: list[str] | None = None
    appendix_at: dict[str, int] = {}
    for d, doc_id in enumerate(kc.doc_ids):
        grounded, hallucinated = document_outcomes(grounding, doc_id)
        for g in grounded:
            if not 0 <= g.start < g.end <= len(texts[d]):  # the ladder's contract: a found span is in the text
                raise AssertionError(f"{where(source, doc_id)}: grounded span [{g.start}, {g.end}) is not in the "
                                     f"text of {len(texts[d])} characters")
            builder.add(d, int(g.start), int(g.end), g.extraction.label, grounded_features(g))
        if hallucinated:
            text, spans = with_appendix(texts[d], [h.extraction.text for h in hallucinated])
            if extended is None:
                extended = list(texts)
            extended[d] = text
            appendix_at[doc_id] = len(texts[d])
            for h, (a, b) in zip(hallucinated, spans, strict=True):
                builder.add(d, a, b, h.extraction.label, hallucination_features(h))
    table = builder.build()
    if extended is None:
        key = kc
        out_texts: Sequence[str] = kc.texts
    else:
        key = replace(kc, texts=extended, text_fingerprints=None, text_lengths=None, tokens=None)
        out_texts = extended
    response = Corpus(list(kc.doc_ids), out_texts, {selector: table}, source=source,
                      found_sets=[selector], found_features=sorted(carried(table.features)))
    return ResponseSide(key, response, appendix_at)


def carried(features: Iterable[Mapping[str, Any]] | None) -> set[str]:
    """The feature names some row of ``features`` carries."""
    return {name for row in features or () for name in row}


# -- the key and the documents ---------------------------------------------------------------------------------


def read_key(key: Any, key_set: str, key_format: str, features: Sequence[str] | None,
             reader_options: Mapping[str, Any] | None) -> Corpus:
    """The key corpus: a path (any span format, ``key_format`` ``auto`` by default, ``reader_options`` those its
    reader takes), a :class:`Corpus`, or spaCy Docs; the set ``key_set`` checked to exist."""
    options = dict(reader_options or {})
    if isinstance(key, (str, os.PathLike)):
        options = options_per_source([key], key_format, options)[0]
    elif options:
        raise ConfigError(f"reader_options {sorted(options)} read a key file; the key here is already read "
                          f"({type(key).__name__})")
    kc = load(key, [key_set], key_format, features, what="key", **options)
    if not len(kc):
        raise InputError(f"{kc.source or 'key'}: the corpus has no documents")
    return kc


def key_tokens(kc: Corpus, docs: Sequence[Any] | None = None) -> dict[str, list[tuple[int, int]]] | None:
    """Each key document's tokens as ``(start, end)`` offsets: a token-per-line key's
    (:attr:`Corpus.tokens`), spaCy Docs' own (``docs``); ``None`` otherwise (the ladder then snaps to the word
    rule of :mod:`spacy_anno_eval.llm.snap`)."""
    if docs is not None:
        from ..annotations.docs import token_offsets

        return {doc_id: token_offsets(doc) for doc_id, doc in zip(kc.doc_ids, docs, strict=True)}
    tokens = kc.tokens
    if tokens is None:
        return None
    first = np.asarray(tokens.doc_first)
    start, end = np.asarray(tokens.start).tolist(), np.asarray(tokens.end).tolist()
    return {doc_id: list(zip(start[int(first[d]):int(first[d + 1])], end[int(first[d]):int(first[d + 1])],
                             strict=True))
            for d, doc_id in enumerate(kc.doc_ids)}


def check_documents(kc: Corpus, doc_ids: Iterable[str], source: str, what: str = "response") -> None:
    """Raise :class:`InputError` for a document of the model's output (``doc_ids``) that the key lacks, naming
    it and listing some key ids (documents pair by id; the key supplies the texts)."""
    known = set(kc.doc_ids)
    missing = [d for d in doc_ids if d not in known]
    if missing:
        shown = ", ".join(map(repr, kc.doc_ids[:5])) + (", ..." if len(kc) > 5 else "")
        more = f" (and {len(missing) - 1} more)" if len(missing) > 1 else ""
        raise InputError(f"{where(source or what, missing[0])}: no key document has this id{more}; the key "
                         f"{kc.source or ''} has {len(kc)} documents ({shown}); documents pair with the key by "
                         f"id (the key supplies the texts)")


def check_given_texts(kc: Corpus, texts: Sequence[str], extractions: Any) -> None:
    """Warn once (:class:`ReaderNoteWarning`) when the model's file records a document's text (langextract does)
    and it is not the key's: the strings are grounded in the key's text all the same, but offsets the file
    claims are then likely wrong."""
    given = getattr(extractions, "texts", None) or {}
    index = {d: i for i, d in enumerate(kc.doc_ids)}
    differ = [d for d, t in given.items() if d in index and t != texts[index[d]]]
    if differ:
        warnings.warn(f"{extractions.source or 'the extractions'}: the text recorded for {len(differ)} "
                      f"document(s) is not the key's (first: {differ[0]!r}); the strings are grounded in the key's "
                      f"text, and the offsets the file claims are checked there", ReaderNoteWarning, stacklevel=3)


def as_extractions(extractions: Any, fmt: str | None, options: Mapping[str, Any] | None) -> Extractions:
    """``extractions`` as :class:`Extractions`: read from a path (:func:`~spacy_anno_eval.llm.readers.
    read_extractions` in ``fmt`` with ``options``), taken as they are, or built from a mapping of document id ->
    extractions."""
    if isinstance(extractions, (str, os.PathLike)):
        from ..llm.readers import read_extractions

        return read_extractions(extractions, fmt, **dict(options or {}))
    if options:
        raise ConfigError(f"extraction_options {sorted(options)} read a file of extractions; these are already "
                          f"read ({type(extractions).__name__})")
    if isinstance(extractions, Extractions):
        return extractions
    if isinstance(extractions, Mapping):
        docs: dict[str, list[Extraction]] = {}
        for doc, items in extractions.items():
            items = list(items)
            bad = next((x for x in items if not isinstance(x, Extraction)), None)
            if bad is not None:
                raise ConfigError(f"extractions[{doc!r}]: expected Extraction objects, got {type(bad).__name__}")
            docs[str(doc)] = items
        return Extractions(documents=docs)
    raise ConfigError(f"extractions: a path, an Extractions, or a mapping of document id -> Extraction list, got "
                      f"{type(extractions).__name__}")


# -- the result ---------------------------------------------------------------------------------------------------


@dataclass
class LlmEvaluation:
    """Extractions scored against a key: ``evaluation``, the span engine's
    :class:`~spacy_anno_eval.spans.counts.Evaluation` of the grounded spans (hallucinations spurious, in their
    documents' appendices); ``grounding``, the :class:`~spacy_anno_eval.llm.grounding.Grounding` (per step
    counts, hallucinations, rows); ``sets``, the set mode's :class:`~spacy_anno_eval.llm.sets.SetScores`
    (``None`` when not asked); ``appendix_at``, where each document's appendix begins."""

    evaluation: Evaluation
    grounding: Any
    sets: Any
    appendix_at: dict[str, int]

    def grounding_dict(self, rows: bool = False) -> dict[str, Any]:
        """The grounding's figures (``steps``, hallucinations count and rate, ...), with every row when ``rows``."""
        return grounding_dict(self.grounding, rows)

    def hallucination_rows(self) -> list[dict[str, Any]]:
        """The grounding's rows of the hallucinations (``doc``, ``order``, ``label``, ``text``, ``reason``,
        ``similarity``, ``source``, ...), in document and extraction order."""
        return [row for row in self.grounding.rows() if row["step"] == HALLUCINATION]

    def report(self, per_doc: bool = True, lazy: bool = False, rows: bool = False) -> dict[str, Any]:
        """The evaluation's report (:meth:`Evaluation.report`) with ``grounding`` and ``sets`` added."""
        out = self.evaluation.report(per_doc=per_doc, lazy=lazy)
        out["grounding"] = self.grounding_dict(rows)
        out["sets"] = None if self.sets is None else self.sets.to_dict()
        return out

    def to_dict(self, rows: bool = False) -> dict[str, Any]:
        """JSON-ready: :meth:`report` with every per-document row."""
        return self.report(rows=rows)


def grounding_dict(grounding: Any, rows: bool = False) -> dict[str, Any]:
    """The grounding table of ``grounding`` (:meth:`~spacy_anno_eval.llm.grounding.Grounding.to_dict` without
    the documents: settings, extractions, annotations, hallucinations and their rate, repeats, ``by_step`` and
    ``by_step_share``, ``by_label``), with ``rows`` (:meth:`~spacy_anno_eval.llm.grounding.Grounding.rows`)
    when asked."""
    out = grounding.to_dict(documents=False)
    if rows:
        out["rows"] = grounding.rows()
    return out


def as_grounding_settings(grounding: Any) -> Any:
    from ..llm.grounding import GroundingSettings, parse_ground

    if grounding is None:
        return GroundingSettings()
    if isinstance(grounding, str):
        return parse_ground(grounding)
    if not isinstance(grounding, GroundingSettings):
        raise ConfigError(f"grounding must be a GroundingSettings (or a ladder such as "
                          f"'exact,casefold,normalized,fuzzy:0.8'), got {type(grounding).__name__}")
    return grounding


def ground_in_key(kc: Corpus, texts: Sequence[str], extractions: Extractions, docs: Sequence[Any] | None,
                  settings: Any) -> Any:
    """Ground ``extractions`` in the key's ``texts`` (and tokens) with ``settings``: every key document, those
    without extractions with none."""
    from ..llm.grounding import ground

    check_documents(kc, extractions.doc_ids, extractions.source)
    check_given_texts(kc, texts, extractions)
    documents = {doc_id: list(extractions.documents.get(doc_id, ())) for doc_id in kc.doc_ids}
    by_id = dict(zip(kc.doc_ids, texts, strict=True))
    return ground(documents, by_id, tokens=key_tokens(kc, docs), settings=settings)


def key_pairs(kc: Corpus, texts: Sequence[str], key_set: str) -> dict[str, list[tuple[str, str]]]:
    """Each key document's annotations of ``key_set`` as ``(text, label)`` pairs, the text ``text[start:end]``
    (what the set mode compares)."""
    table = kc.get_set(key_set)
    out: dict[str, list[tuple[str, str]]] = {doc_id: [] for doc_id in kc.doc_ids}
    names = table.label_names()
    for i in range(len(table)):
        d = int(table.doc[i])
        out[kc.doc_ids[d]].append((texts[d][int(table.start[i]):int(table.end[i])], str(names[i])))
    return out


def response_pairs(kc: Corpus, extractions: Extractions) -> dict[str, list[tuple[str, str]]]:
    """Each document's extractions as ``(text, label)`` pairs, every key document present."""
    return {doc_id: [(x.text, x.label) for x in extractions.documents.get(doc_id, ())] for doc_id in kc.doc_ids}


def score_extractions(key: Any, extractions: Any, *, key_set: str = "ents", grounding: Any = None,
                      settings: SpanSettings | None = None, key_format: str = "auto",
                      reader_options: Mapping[str, Any] | None = None, fmt: str | None = None,
                      extraction_options: Mapping[str, Any] | None = None, sets: bool = True,
                      normalize: str = "universalner", credit: CreditRule | None = None,
                      **values: Any) -> LlmEvaluation:
    """Score what a language model extracted (strings with labels) against a key corpus.

    ``key``: a path (any span format; ``key_format``, ``auto`` by default, and ``reader_options`` for its
    reader), a :class:`Corpus` or spaCy Docs; ``key_set`` the key's annotation set. ``extractions``: an
    :class:`~spacy_anno_eval.llm.extractions.Extractions`, a mapping of document id -> list of
    :class:`~spacy_anno_eval.llm.extractions.Extraction`, or a path read in ``fmt`` (``llm-ner``, ``llm-json``,
    ``langextract``; ``None``: detected) with ``extraction_options`` (``labels`` for ``llm-ner``, ...).
    ``grounding``: a :class:`~spacy_anno_eval.llm.grounding.GroundingSettings` or a ladder string
    (``"exact,casefold,normalized,fuzzy:0.8"``, the default). ``settings`` and ``values``: the span engine's
    settings (:class:`~spacy_anno_eval.spans.settings.SpanSettings`: ``beta``, ``types``, ``features``,
    ``pairing``, ``zero_division``, ``min_overlap``, ``fp_per``; ``key_set`` replaces the settings' own); the
    response set is the key's, and the evaluation records the settings as given (``fp_per`` included). ``sets``: add
    the set mode (:func:`~spacy_anno_eval.llm.sets.set_scores` with ``normalize``). ``credit``: a credit rule
    (BDM), as :func:`~spacy_anno_eval.spans.engine.evaluate` takes.

    Documents pair by id: a model's document that the key lacks is an :class:`InputError` naming it; a key
    document without extractions has no response annotation. Hallucinations are spurious responses (module
    docstring). Returns a :class:`LlmEvaluation`.
    """
    if "response_set" in values and values["response_set"] not in (None, key_set):
        raise ConfigError("response_set: the extractions are one set, scored against key_set; leave it out")
    values.pop("response_set", None)
    span_settings = SpanSettings.of(settings, key_set=key_set, **values)
    key_set = span_settings.key_set
    ground_settings = as_grounding_settings(grounding)
    found = as_extractions(extractions, fmt, extraction_options)
    if found.triples and not len(found):
        raise ConfigError(f"{found.source or 'extractions'}: holds relation triples and no entities; score them "
                          f"with score_relation_extractions (anno-eval relations --format llm-relations)")
    docs = None
    if not isinstance(key, (str, os.PathLike, Corpus)):
        from ..annotations.docs import as_docs

        docs = key = as_docs(key, "key")
    features = list(span_settings.features) if span_settings.features else None
    kc = read_key(key, key_set, key_format, features, reader_options)
    texts = list(kc.texts)
    result = ground_in_key(kc, texts, found, docs, ground_settings)
    side = response_side(kc, texts, result, key_set, found.source or "extractions")
    units = doc_units(key, kc, span_settings.fp_per)  # c of the false-positive rate, without the appendices
    ev = evaluate(side.key, side.response, settings=span_settings.replace(fp_per="tokens"), credit=credit)
    ev = replace(ev, settings=span_settings, units=units)
    scores = None
    if sets:
        from ..llm.sets import set_scores

        scores = set_scores(key_pairs(kc, texts, key_set), response_pairs(kc, found), normalize=normalize,
                            zero_division=span_settings.zero_division)
    return LlmEvaluation(ev, result, scores, side.appendix_at)


__all__ = ["EMPTY", "HALLUCINATION", "MARKER", "LlmEvaluation", "ResponseSide", "check_documents", "key_tokens",
           "read_key", "response_side", "score_extractions", "with_appendix"]
