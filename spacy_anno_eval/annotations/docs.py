"""spaCy Docs and Examples -> annotation columns: the only code that reads Docs for annotations.

Three ways in, one set of rules:

- **Docs** (:func:`spans_from_docs`, :func:`corpus_from_docs`, :func:`span_rows`):
  the set a selector names (``ents`` or ``spans:<key>``, see
  :func:`~spacy_anno_eval.annotations.table.parse_selector`) as a
  :class:`~spacy_anno_eval.annotations.table.SpanTable` in character offsets.
- **Examples** (:func:`example_sets`): the reference and the predicted spans
  of spaCy ``Example`` objects, counted as spaCy's own scorers count them
  (``spacy/scorer.py``), for every scoring door (the registered scorer and
  the ``anno_eval`` component's ``score()``).
- **Document ids** (:func:`doc_id`): ``doc.user_data["doc_id"]``, else
  ``["id"]``, else the position in the stream (:func:`id_or_position` for
  ids already read). Every reader of Docs (corpus, component, DocBin,
  relations, γ, benchmark, the scorers, noisy text, treebanks) uses this one
  rule.
- **Plain data for the families** (:func:`doc_spans`, :func:`doc_sentences`,
  :func:`sentence_counts`, :func:`entity_count`, :func:`example_cats`): what
  noisy-text NER, the treebank reader, GATE's false-positive rate, the
  benchmark store and the categories scorer read from Docs and Examples, as
  lists, numpy arrays and the small :class:`DocSentence`, so that they walk
  no Doc themselves.
- **Document categories** (:func:`corpus_cats`, the one layout, which
  :func:`~spacy_anno_eval.io.convert.corpus_to_docs` writes):
  ``doc.user_data["cats"]`` is ``{KEY: {label: value}}``, the categories of
  set ``spans:KEY`` (``ents`` for the key ``"ents"``), and a document without
  the key is not covered by that set; ``doc.cats`` is the categories of
  ``ents`` (a Doc has one ``doc.cats`` and no coverage for it, so every
  document is covered), unless ``user_data["cats"]`` has the key ``"ents"``.

Entities are read with one ``Doc.to_array`` call per document and decoded
with numpy over the whole batch (:func:`decode_iob`); no ``Span`` object is
made for ``doc.ents`` unless features are asked for.
"""

from __future__ import annotations

import gc
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import ConfigError, InputError, where
from .table import ALL_FEATURES, INDEX, Corpus, SpanTable, SpanTableBuilder, cats_value, parse_selector

#: the ``user_data`` keys that give a document its id, in order of precedence
DOC_ID_KEYS = ("doc_id", "id")
#: the ``user_data`` key under which a Doc keeps each set's document categories, ``{KEY: {label: value}}``
CATS_KEY = "cats"


# ---------------------------------------------------------------------------
# the doc-id rule


def given_id(user_data: Mapping[Any, Any] | None) -> str | None:
    """The id a document's ``user_data`` gives it: ``["doc_id"]``, else ``["id"]``; ``None`` when neither is set.

    >>> given_id({"id": 7}), given_id({"doc_id": "a", "id": "b"}), given_id({})
    ('7', 'a', None)
    """
    if not user_data:
        return None
    for key in DOC_ID_KEYS:
        value = user_data.get(key)
        if value is not None:
            return str(value)
    return None


def doc_id(doc: Any, position: int) -> str:
    """A Doc's id: :func:`given_id` of its ``user_data``, else its ``position`` in the stream (as a string)."""
    return id_or_position(given_id(doc.user_data), position)


def id_or_position(given: str | None, position: int) -> str:
    """The rule's last step, for ids already read (:func:`given_id`, or a DocBin's raw ``user_data``): ``given``,
    else the document's ``position`` in the stream as a string.

    >>> id_or_position("a", 3), id_or_position(None, 3)
    ('a', '3')
    """
    return str(position) if given is None else given


# ---------------------------------------------------------------------------
# IOB columns -> entities


def decode_iob(iob: np.ndarray, etype: np.ndarray, starts: np.ndarray, doc_ids: Sequence[str] = (),
               source: str = "") -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Entities of token columns as (doc, first token, last token), as ``Doc.ents`` reads them.

    ``iob`` holds spaCy's ENT_IOB codes (0 missing, 1 I, 2 O, 3 B) and
    ``etype`` the ENT_TYPE hashes of all documents, concatenated; document
    ``d`` has the tokens ``starts[d]:starts[d + 1]``. An entity starts at a
    ``B`` with a non-empty type and runs over the ``I`` tokens after it; a
    ``B`` with an empty type counts as ``O``. An ``I`` that continues no
    entity raises :class:`InputError`, as spaCy raises E093.
    """
    inside = iob == 1
    begin = (iob == 3) & (etype != 0)
    in_entity = begin | inside
    # an I must follow a token of an entity in the same document
    bad = np.flatnonzero(inside[1:] & ~in_entity[:-1]) + 1
    nonempty = starts[:-1][starts[:-1] < starts[1:]]
    first_bad = np.flatnonzero(inside[nonempty])
    if len(bad) or len(first_bad):
        t = int(min(bad[0] if len(bad) else len(iob), nonempty[first_bad[0]] if len(first_bad) else len(iob)))
        d = int(np.searchsorted(starts, t, side="right") - 1)
        name = doc_ids[d] if d < len(doc_ids) else d
        raise InputError(f"{where(source, name)}: token {t - int(starts[d])} has the entity tag I "
                         f"but continues no entity (spaCy's E093); fix the ENT_IOB annotation")
    begins = np.flatnonzero(begin)
    # the last token of each entity: an entity token not followed by an I
    ends_here = in_entity.copy()
    ends_here[:-1] &= ~inside[1:]
    last = np.flatnonzero(ends_here)
    doc = np.searchsorted(starts, begins, side="right") - 1
    return doc.astype(INDEX), begins.astype(INDEX), last.astype(INDEX)


def _token_columns(docs: Sequence[Any], attrs: Sequence[int]) -> tuple[np.ndarray, np.ndarray]:
    """``Doc.to_array(attrs)`` of every doc, concatenated (uint64, one row per token), and each doc's first row.

    ``starts`` has one more entry than ``docs``: document ``d`` has the rows
    ``starts[d]:starts[d + 1]``.
    """
    attrs = list(attrs)
    gc_was_enabled = gc.isenabled()
    gc.disable()  # thousands of small arrays and no cycle: a collection here would walk every Doc for nothing
    try:
        arrays = [d.to_array(attrs) for d in docs]
    finally:
        if gc_was_enabled:
            gc.enable()
    starts = np.zeros(len(arrays) + 1, dtype=INDEX)
    np.cumsum(np.fromiter(map(len, arrays), dtype=INDEX, count=len(arrays)), out=starts[1:])
    if not starts[-1]:
        return np.zeros((0, len(attrs)), dtype=np.uint64), starts
    return np.concatenate(arrays).astype(np.uint64, copy=False), starts


def compiled_reader() -> Any:
    """The compiled token-column reader (:mod:`._tokens`) when it was built against the running spaCy, else
    None (then ``Doc.to_array`` reads the same columns)."""
    global _COMPILED
    if _COMPILED is False:
        try:
            from spacy.about import __version__ as running

            from . import _tokens
        except ImportError:
            _COMPILED = None
        else:
            _COMPILED = _tokens if _tokens.SPACY_VERSION == running else None
    return _COMPILED


_COMPILED: Any = False


def ent_token_columns(docs: Sequence[Any]) -> tuple[np.ndarray, ...]:
    """``(orth, idx, length, ent_iob, ent_type, starts)`` of every token of ``docs`` (one row per token;
    ``starts[d]:starts[d + 1]`` are document ``d``'s rows): the columns of ``Doc.to_array([ORTH, IDX, LENGTH,
    ENT_IOB, ENT_TYPE])``, read in one compiled pass when :func:`compiled_reader` is available."""
    reader = compiled_reader()
    if reader is not None:
        return reader.ent_columns(docs if isinstance(docs, list) else list(docs))
    from spacy.attrs import ENT_IOB, ENT_TYPE, IDX, LENGTH, ORTH

    tok, starts = _token_columns(docs, [ORTH, IDX, LENGTH, ENT_IOB, ENT_TYPE])
    return (tok[:, 0], tok[:, 1].astype(np.int64), tok[:, 2].astype(np.int64), tok[:, 3].astype(np.uint8),
            tok[:, 4], starts.astype(np.int64))


def _ents_columns(docs: Sequence[Any], doc_ids: Sequence[str] = (), source: str = "") -> tuple[np.ndarray, ...]:
    """doc.ents of every doc as (doc, start_char, end_char, label_hash), vectorised.

    Reads ``Doc.to_array([IDX, LENGTH, ENT_IOB, ENT_TYPE])`` and decodes the
    IOB codes with :func:`decode_iob` (``doc_ids`` and ``source`` name a document
    whose annotation spaCy would refuse), instead of creating a ``Span`` per entity.
    """
    _, idx, length, iob, etype, starts = ent_token_columns(docs)
    doc, first, last = decode_iob(iob, etype, starts.astype(INDEX, copy=False), doc_ids, source)
    idx = idx.astype(INDEX, copy=False)
    return doc, idx[first], idx[last] + length[last].astype(INDEX), etype[first]


# ---------------------------------------------------------------------------
# Docs -> SpanTable / Corpus


def _selected(doc: Any, kind: str, key: str | None) -> Iterable[Any]:
    """The spans a parsed selector names in ``doc`` (``doc.ents`` or ``doc.spans[key]``, empty when absent)."""
    return doc.ents if kind == "ents" else doc.spans.get(key, ())


def span_rows(docs: Iterable[Any], selector: str, *, unit: str = "char") -> list[tuple[int, int, int, str]]:
    """``(document, start, end, label)`` of every span a selector names, in each document's own order.

    ``unit="char"`` gives character offsets, ``unit="token"`` token offsets.
    """
    kind, key = parse_selector(selector)
    token = unit == "token"
    return [(d, *((span.start, span.end) if token else (span.start_char, span.end_char)), span.label_)
            for d, doc in enumerate(docs) for span in _selected(doc, kind, key)]


def spans_from_docs(docs: Sequence[Any], selector: str = "ents",
                    features: Sequence[str] | None = None, *, doc_ids: Sequence[str] = (),
                    source: str = "") -> SpanTable:
    """Build a :class:`SpanTable` (character offsets) from spaCy Docs by a selector string.

    ``features`` names span attributes to read as features: ``kb_id``,
    ``id`` or a custom extension ``_.<name>``; empty values are left out.
    ``doc_ids`` and ``source`` name a document in errors (an ``I`` tag that
    continues no entity raises :class:`InputError`, as spaCy's E093).
    """
    kind, key = parse_selector(selector)
    if kind == "ents" and not features:
        doc, start, end, hashes = _ents_columns(docs, doc_ids, source)
        return _table_from_hashes(doc, start, end, hashes, docs[0].vocab.strings if len(docs) else None)
    builder = SpanTableBuilder()
    for d, doc in enumerate(docs):
        for span in _selected(doc, kind, key):
            builder.add(d, span.start_char, span.end_char, span.label_,
                        span_features(span, features) if features else None)
    return builder.build()


def span_features(span: Any, names: Iterable[str]) -> dict[str, Any]:
    """The named attributes of a spaCy Span as a feature dict (empty values left out); ``*``
    (:data:`~.table.ALL_FEATURES`) names ``kb_id``, ``id`` and every Span extension."""
    out: dict[str, Any] = {}
    if ALL_FEATURES in names:
        from spacy.tokens.underscore import Underscore

        names = ["kb_id", "id", *(f"_.{ext}" for ext in Underscore.span_extensions)]
    for name in names:
        if name.startswith("_."):
            ext = name[2:]
            value = getattr(span._, ext) if span.has_extension(ext) else None
        elif name in ("kb_id", "id"):
            value = getattr(span, name + "_") or None
        else:
            value = getattr(span, name, None)
        if value is not None and value != "":
            out[name] = value
    return out


def _table_from_hashes(doc: np.ndarray, start: np.ndarray, end: np.ndarray,
                       hashes: np.ndarray, strings: Any) -> SpanTable:
    """A table whose labels are spaCy string hashes, named through ``strings`` (labels ordered by hash)."""
    uniq, inverse = np.unique(hashes, return_inverse=True)
    labels = [strings[int(h)] for h in uniq] if strings is not None else []
    return SpanTable(doc, start, end, inverse.astype(INDEX), labels)


def corpus_from_docs(docs: Iterable[Any], selectors: Iterable[str] = ("ents",),
                     features: Sequence[str] | None = None, source: str = "") -> Corpus:
    """A :class:`Corpus` from spaCy Docs with the sets named by ``selectors``; ids by :func:`doc_id`.

    The corpus records the sets its documents hold (``found_sets``: ``ents``
    and every span group some document has, empty or not) and, when
    ``features`` are asked for, every feature name the selected spans carry
    (``found_features``), so that a name matching nothing can be refused."""
    docs = as_docs(docs, source or "docs")
    selectors = list(selectors)
    for s in selectors:
        parse_selector(s)
    given = [given_id(d.user_data) for d in docs]
    ids = [id_or_position(g, i) for i, g in enumerate(given)]
    texts = [d.text for d in docs]
    sets = {s: spans_from_docs(docs, s, features, doc_ids=ids, source=source) for s in selectors}
    found = span_feature_names(docs, selectors) if features else None
    cats = corpus_cats([d.cats for d in docs], [d.user_data.get(CATS_KEY) for d in docs], ids, source)
    return Corpus(ids, texts, sets, source, given_ids=given, found_sets=found_selectors(docs), found_features=found,
                  cats=cats)


def corpus_cats(doc_cats: Sequence[Mapping[str, Any] | None], per_set: Sequence[Any], doc_ids: Sequence[str] = (),
                source: str = "") -> dict[str, list[dict[str, float] | None]] | None:
    """The :attr:`~.table.Corpus.cats` of documents whose ``doc.cats`` are ``doc_cats`` and whose
    ``user_data["cats"]`` are ``per_set`` (``None`` where a document has none), by the one layout (module
    docstring): ``spans:KEY`` for every key of ``user_data["cats"]`` (``None`` where a document lacks it), and
    ``ents`` from ``doc.cats`` when some document has a category there. ``None`` when no set carries one. Raise
    :class:`InputError` naming the document (``doc_ids``, ``source``) for categories that are not a mapping of
    labels to numbers."""
    n = len(doc_cats)

    def loc(d: int) -> str:
        return where(source, doc_ids[d] if d < len(doc_ids) else str(d))

    out: dict[str, list[dict[str, float] | None]] = {}
    for d, given in enumerate(per_set):
        if given is None:
            continue
        if not isinstance(given, Mapping):
            raise InputError(f"{loc(d)}: user_data[{CATS_KEY!r}] must map each set (span group key) to its "
                             f"categories, {{\"alice\": {{\"POSITIVE\": 1.0}}}}, got {type(given).__name__}")
        for key, cats in given.items():
            if not isinstance(key, str) or not key:
                raise InputError(f"{loc(d)}: user_data[{CATS_KEY!r}] has the key {key!r}; a key is a set's name")
            name = "ents" if key == "ents" else f"spans:{key}"
            out.setdefault(name, [None] * n)[d] = cats_value(cats, f"{loc(d)}, user_data[{CATS_KEY!r}][{key!r}]")
    if "ents" not in out and any(doc_cats):
        out["ents"] = [cats_value(c or {}, f"{loc(d)}, doc.cats") for d, c in enumerate(doc_cats)]
    return out or None


def as_docs(value: Any, what: str = "docs") -> list[Any]:
    """``value`` as a list of spaCy Docs; :class:`ConfigError` saying what was given when it is not one (``None``,
    a single Doc, a string, a list holding something else). ``what`` names the argument."""
    tokens = sys.modules.get("spacy.tokens")
    doc_class = getattr(tokens, "Doc", None)
    if doc_class is not None and isinstance(value, doc_class):
        raise ConfigError(f"{what}: got a single spaCy Doc; pass a list of Docs ([doc])")
    if value is None or isinstance(value, (str, bytes, dict)) or not isinstance(value, Iterable):
        raise ConfigError(f"{what}: expected a path or a list of spaCy Docs, got {type(value).__name__} "
                          f"{value!r:.60}")
    docs = list(value)
    for i, d in enumerate(docs):
        if doc_class is None or not isinstance(d, doc_class):
            raise ConfigError(f"{what}: item {i} is a {type(d).__name__}, not a spaCy Doc; pass a sequence of Docs")
    return docs


def found_selectors(docs: Iterable[Any]) -> list[str]:
    """The selectors the Docs hold: ``ents`` (every Doc has it) and ``spans:<key>`` for every span group some Doc
    has (present but empty counts) and every set whose categories some Doc keeps (``user_data["cats"]``),
    sorted."""
    keys: set[str] = set()
    for doc in docs:
        keys.update(doc.spans.keys())
        cats = doc.user_data.get(CATS_KEY)
        if isinstance(cats, Mapping):
            keys.update(k for k in cats if isinstance(k, str) and k and k != "ents")
    return ["ents", *(f"spans:{k}" for k in sorted(keys))]


def span_feature_names(docs: Iterable[Any], selectors: Iterable[str]) -> list[str]:
    """Every feature name :func:`span_features` finds on the spans of ``selectors``: ``kb_id`` and ``id`` where
    some span has one, ``_.<name>`` for every Span extension some span gives a value, sorted."""
    from spacy.tokens.underscore import Underscore

    extensions = list(Underscore.span_extensions)
    found: set[str] = set()
    kinds = [parse_selector(s) for s in selectors]
    for doc in docs:
        for kind, key in kinds:
            for span in _selected(doc, kind, key):
                found.update(name for name in ("kb_id", "id") if getattr(span, name + "_"))
                found.update(f"_.{name}" for name in extensions
                             if f"_.{name}" not in found and getattr(span._, name) not in (None, ""))
    return sorted(found)


def doc_spans(doc: Any, selector: str) -> list[tuple[int, int, str]]:
    """``(start_char, end_char, label)`` of every span a selector names in one Doc, in the Doc's order (empty when
    the Doc lacks the span group); :class:`InputError` for a selector that is not ``ents`` or ``spans:<key>``."""
    kind, key = parse_selector(selector)
    return [(s.start_char, s.end_char, s.label_) for s in _selected(doc, kind, key)]


def token_offsets(doc: Any) -> list[tuple[int, int]]:
    """``(start_char, end_char)`` of every token of a Doc, in order (what a string found in its text snaps to, as
    spaCy's ``Doc.char_span`` snaps it: :mod:`spacy_anno_eval.llm.snap`)."""
    return [(t.idx, t.idx + len(t)) for t in doc]


def entity_count(doc: Any) -> int:
    """The number of entities of a Doc (``len(doc.ents)``)."""
    return len(doc.ents)


@dataclass(frozen=True, slots=True)
class DocSentence:
    """One sentence of a parsed Doc as plain columns, one entry per token (:func:`doc_sentences`).

    ``start``/``end`` are the Doc positions of its first token and one past its
    last (token ``k`` of the sentence is token ``start + k`` of the Doc);
    ``heads`` are Doc positions too (a root is its own head, as spaCy stores
    it); ``deps``, ``lemmas``, ``pos``, ``tags`` are ``dep_``, ``lemma_``,
    ``pos_``, ``tag_`` (``""`` when unset); ``space_after`` is whether the
    token is followed by whitespace.
    """

    start: int
    end: int
    text: str
    forms: tuple[str, ...]
    heads: tuple[int, ...]
    deps: tuple[str, ...]
    lemmas: tuple[str, ...]
    pos: tuple[str, ...]
    tags: tuple[str, ...]
    space_after: tuple[bool, ...]


def doc_sentences(doc: Any) -> list[DocSentence] | None:
    """The sentences of a parsed Doc (``doc.sents``, which spaCy derives from the parse), in order: ``[]`` for an
    empty Doc, ``None`` for a Doc without a dependency parse (``not doc.has_annotation("DEP")``)."""
    if len(doc) == 0:
        return []
    if not doc.has_annotation("DEP"):
        return None
    out = []
    for sent in doc.sents:
        rows = [(t.text, t.head.i, t.dep_, t.lemma_, t.pos_, t.tag_, bool(t.whitespace_)) for t in sent]
        out.append(DocSentence(sent.start, sent.end, sent.text, *(zip(*rows, strict=True) if rows else ((),) * 7)))
    return out


def sentence_counts(docs: Iterable[Any]) -> np.ndarray:
    """The number of sentences (``doc.sents``) of every Doc (int64, in order): 0 for an empty Doc, ``-1`` for a
    non-empty Doc without sentence boundaries (``not doc.has_annotation("SENT_START")``, whose ``doc.sents``
    spaCy refuses)."""
    counts = [(sum(1 for _ in d.sents) if d.has_annotation("SENT_START") else -1) if len(d) else 0 for d in docs]
    return np.asarray(counts, dtype=INDEX)


def example_cats(examples: Iterable[Any]) -> list[tuple[dict[str, float], dict[str, float]]]:
    """``(reference cats, predicted cats)`` (``eg.reference.cats``, ``eg.predicted.cats``) of every Example whose
    reference has categories, in order; Examples whose reference has none are left out."""
    return [(eg.reference.cats, eg.predicted.cats) for eg in examples if eg.reference.cats]


def example_docs(examples: Iterable[Any]) -> tuple[list[Any], list[Any]]:
    """``(references, predictions)``: the reference and the predicted Doc of every Example, in order (for the
    scorers whose Docs may hold different texts, such as the noisy-text one, which align the texts themselves)."""
    pairs = [(eg.reference, eg.predicted) for eg in examples]
    return [r for r, _ in pairs], [p for _, p in pairs]


def example_clusters(examples: Iterable[Any], prefix: str) -> list[tuple[str, list[Any], list[Any]]]:
    """``(doc id, reference clusters, predicted clusters)`` of every Example, in order: each cluster a span group
    whose key starts with ``prefix`` (spacy-experimental's coref convention, ``coref_clusters_1``, ...), as the
    tuple of its mentions' character offsets ``(start_char, end_char)`` (so a predicted Doc's own tokenization
    does not matter); empty groups are left out."""
    def clusters(doc: Any) -> list[Any]:
        return [tuple((s.start_char, s.end_char) for s in group)
                for key, group in sorted(doc.spans.items()) if key.startswith(prefix) and len(group)]

    return [(doc_id(eg.reference, i), clusters(eg.reference), clusters(eg.predicted))
            for i, eg in enumerate(examples)]


def doc_relations(doc: Any) -> Any:
    """The raw relations a Doc carries: ``doc._.relations`` when that extension is set, else
    ``doc.user_data["relations"]`` (``None`` when neither is)."""
    from spacy.tokens import Doc

    if Doc.has_extension("relations"):
        value = doc._.relations
        if value is not None:
            return value
    return doc.user_data.get("relations")


# ---------------------------------------------------------------------------
# Examples, as spaCy's scorers count them


@dataclass
class ExampleSets:
    """The reference and predicted spans of a batch of Examples, ready to align.

    Offsets are **reference token** offsets ``[start, end)``; document ``d``
    is the ``d``-th Example, whose id ``doc_ids[d]`` is :func:`doc_id` of its
    reference Doc. ``response`` holds only the predictions that count;
    ``ignored`` names the labels of predictions left out, which spaCy still
    lists per type (with zeros).
    """

    key: SpanTable
    response: SpanTable
    ignored: list[str]
    n_docs: int
    doc_ids: list[str]


def example_sets(examples: Iterable[Any], spans_key: str | None = None,
                 features: Sequence[str] | None = None) -> ExampleSets:
    """Reference and predicted spans of spaCy ``Example`` objects, following spaCy's scorers.

    With ``spans_key=None``, ``doc.ents`` as ``spacy.scorer.get_ner_prf``
    counts them:

    - an Example whose reference has no entity annotation at all
      (``not eg.reference.has_annotation("ENT_IOB")``) is skipped;
    - a predicted entity is mapped onto the reference through the Example's
      token alignment (``eg.alignment.x2y``): it covers the reference tokens
      from the first to the last one its tokens align to. When both sides
      have the same tokens (the usual case, checked per Example by comparing
      the ORTH columns) the alignment is the identity and is not computed;
    - a predicted entity whose tokens align to nothing, or whose reference
      tokens include one with missing annotation (IOB code 0), is neither
      right nor wrong: it is left out, its label listed in ``ignored``.

    With ``spans_key="sc"``, ``doc.spans[key]`` as spaCy's spancat scorer
    (``Scorer.score_spans`` with ``allow_overlap=True``) counts them: an
    Example whose reference lacks the group is skipped; a predicted span is
    mapped with ``eg.get_aligned_spans_x2y`` (kept only when the aligned
    reference text equals its own, ignoring case and spaces; an empty span
    never aligns); a group is a set, so exact duplicates count once (unless
    ``features`` are compared).
    """
    examples = list(examples)
    ids = [doc_id(eg.reference, i) for i, eg in enumerate(examples)]
    if spans_key is None and not features:
        return _ents_sets_fast(examples, ids)
    return _sets_from_spans(examples, ids, spans_key, list(features) if features else None)


def _same_tokens(x_orth: np.ndarray, x_starts: np.ndarray, y_orth: np.ndarray, y_starts: np.ndarray) -> np.ndarray:
    """Per Example, whether the predicted and reference docs have the same tokens (equal ORTH columns)."""
    x_sizes, y_sizes = np.diff(x_starts), np.diff(y_starts)
    same = x_sizes == y_sizes
    if same.any():
        x_rows = np.repeat(same, x_sizes)
        y_rows = np.repeat(same, y_sizes)
        differs = x_orth[x_rows] != y_orth[y_rows]
        if differs.any():
            docs_same = np.flatnonzero(same)
            doc_of_row = np.repeat(docs_same, x_sizes[same])
            same[np.unique(doc_of_row[differs])] = False
    return same


def _ents_sets_fast(examples: list[Any], ids: list[str]) -> ExampleSets:
    """:func:`example_sets` for ``doc.ents`` without features: one ``to_array`` per doc, numpy for the rest."""
    n = len(examples)
    y_orth, _, _, y_iob, y_type, y_starts = ent_token_columns([eg.y for eg in examples])
    x_orth, _, _, x_iob, x_type, x_starts = ent_token_columns([eg.x for eg in examples])
    y_starts, x_starts = y_starts.astype(INDEX, copy=False), x_starts.astype(INDEX, copy=False)
    strings = examples[0].y.vocab.strings if n else None
    kdoc, kfirst, klast = decode_iob(y_iob, y_type, y_starts)
    key = _table_from_hashes(kdoc, kfirst - y_starts[kdoc], klast + 1 - y_starts[kdoc], y_type[kfirst], strings)
    pdoc, pfirst, plast = decode_iob(x_iob, x_type, x_starts)
    plabel = x_type[pfirst]
    # Doc.has_annotation("ENT_IOB"): an empty doc, or some token with a code other than 0
    blank_before = np.zeros(len(y_iob) + 1, dtype=INDEX)
    np.cumsum(y_iob == 0, out=blank_before[1:])
    y_sizes = np.diff(y_starts)
    annotated = (y_sizes == 0) | (blank_before[y_starts[1:]] - blank_before[y_starts[:-1]] < y_sizes)
    keep = annotated[pdoc]
    start = pfirst - x_starts[pdoc]
    end = plast + 1 - x_starts[pdoc]
    same = _same_tokens(x_orth, x_starts, y_orth, y_starts)
    moved = keep & ~same[pdoc]
    if moved.any():
        start, end, aligned = _map_through_alignment(examples, pdoc, start, end, moved)
    else:
        aligned = np.ones(len(pdoc), dtype=bool)
    # the reference tokens under a prediction must all carry annotation
    base = y_starts[pdoc]
    touches_blank = aligned & (blank_before[base + np.maximum(end, start)] > blank_before[base + start])
    counted = keep & aligned & ~touches_blank
    x_strings = examples[0].x.vocab.strings if n else None
    response = _table_from_hashes(pdoc[counted], start[counted], end[counted], plabel[counted], x_strings)
    left_out = keep & ~counted
    ignored = sorted({x_strings[int(h)] for h in np.unique(plabel[left_out])}) if left_out.any() else []
    return ExampleSets(key, response, ignored, n, ids)


def _map_through_alignment(examples: list[Any], doc: np.ndarray, start: np.ndarray, end: np.ndarray,
                           rows: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Predicted token spans mapped onto reference tokens through ``eg.alignment.x2y`` (``rows`` only).

    As ``get_ner_prf``: the span covers the reference tokens from the first
    to the last index its tokens align to; ``aligned`` is False where they
    align to none.
    """
    start, end = start.copy(), end.copy()
    aligned = np.ones(len(doc), dtype=bool)
    for d in np.unique(doc[rows]).tolist():
        at = np.flatnonzero(rows & (doc == d))
        x2y = examples[d].alignment.x2y
        data, lo_of, hi_of = np.asarray(x2y.data), np.asarray(x2y.starts), np.asarray(x2y.ends)
        s, e = start[at], end[at]
        nonempty = e > s
        lo = np.where(nonempty, lo_of[s], 0)
        hi = np.where(nonempty, hi_of[np.maximum(e - 1, 0)], 0)
        ok = hi > lo
        aligned[at] = ok
        start[at] = np.where(ok, data[np.where(ok, lo, 0)], 0)
        end[at] = np.where(ok, data[np.where(ok, hi - 1, 0)] + 1, 0)
    return start, end, aligned


def _sets_from_spans(examples: list[Any], ids: list[str], spans_key: str | None,
                     features: list[str] | None) -> ExampleSets:
    """:func:`example_sets` through Span objects: span groups, or entities with features."""
    ents = spans_key is None
    kind, key = ("ents", None) if ents else ("spans", spans_key)
    ref_rows, resp_rows, ignored = SpanTableBuilder(), SpanTableBuilder(), set()
    for d, eg in enumerate(examples):
        y, x = eg.y, eg.x
        if not (y.has_annotation("ENT_IOB") if ents else key in y.spans):
            continue
        for span in _selected(y, kind, key):
            ref_rows.add(d, span.start, span.end, span.label_, span_features(span, features) if features else None)
        predicted = list(_selected(x, kind, key))
        if not predicted:
            continue
        mapped = _aligned(eg, predicted, ents)
        for span, target in zip(predicted, mapped, strict=True):
            if target is None:
                ignored.add(span.label_)
                continue
            resp_rows.add(d, target[0], target[1], span.label_, span_features(span, features) if features else None)
    key_table, response = ref_rows.build(), resp_rows.build()
    if not ents and not features:
        key_table, response = unique_rows(key_table), unique_rows(response)
    return ExampleSets(key_table, response, sorted(ignored), len(examples), ids)


def _aligned(eg: Any, spans: list[Any], ents: bool) -> list[tuple[int, int] | None]:
    """Where each predicted span lands on the reference tokens, ``None`` where spaCy's scorer drops it."""
    x, y = eg.x, eg.y
    identical = len(x) == len(y) and all(a.orth == b.orth for a, b in zip(x, y, strict=True))
    if identical:
        bounds = [(s.start, s.end) for s in spans]
    else:
        x2y = eg.alignment.x2y
        bounds = []
        for s in spans:
            idx = x2y[s.start:s.end]
            bounds.append((int(idx[0]), int(idx[-1]) + 1) if len(idx) else (0, 0))
    out: list[tuple[int, int] | None] = []
    for span, (a, b) in zip(spans, bounds, strict=True):
        if b <= a:  # aligns to nothing (an empty span included)
            out.append(None)
        elif ents:  # get_ner_prf: a reference token without annotation makes the prediction neither right nor wrong
            out.append((a, b) if all(t.ent_iob != 0 for t in y[a:b]) else None)
        elif identical or _same_text(y[a:b].text, span.text):  # Example._get_aligned_spans
            out.append((a, b))
        else:
            out.append(None)
    return out


def _same_text(a: str, b: str) -> bool:
    return a.lower().strip().replace(" ", "") == b.lower().strip().replace(" ", "")


def unique_rows(table: SpanTable) -> SpanTable:
    """Leave out exact duplicates (same document, offsets and label), as a set does."""
    if len(table) < 2:
        return table
    rows = np.stack([table.doc, table.start, table.end, table.label], axis=1)
    _, first = np.unique(rows, axis=0, return_index=True)
    if len(first) == len(table):
        return table
    keep = np.zeros(len(table), dtype=bool)
    keep[first] = True
    return take_rows(table, keep)


def take_rows(table: SpanTable, keep: np.ndarray) -> SpanTable:
    """The rows of a table where ``keep`` is true."""
    if keep.all():
        return table
    feats = [f for f, k in zip(table.features, keep, strict=True) if k] if table.features is not None else None
    return SpanTable(table.doc[keep], table.start[keep], table.end[keep], table.label[keep], table.labels, feats)


__all__ = ["CATS_KEY", "DOC_ID_KEYS", "DocSentence", "ExampleSets", "as_docs", "corpus_cats", "corpus_from_docs",
           "decode_iob", "doc_id", "doc_relations", "doc_sentences", "doc_spans", "entity_count", "example_cats",
           "example_sets", "found_selectors", "given_id", "id_or_position", "sentence_counts", "span_feature_names",
           "span_features", "span_rows", "spans_from_docs", "take_rows", "unique_rows"]
