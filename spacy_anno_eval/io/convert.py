"""The sets a file holds, and any readable file turned into a spaCy DocBin or a JSONL (``anno-eval sets``,
``anno-eval convert``).

**Which sets a file holds** (:func:`listed_sets`): the sets its reader records (``Corpus.found_sets``); a file
of an annotation tool with one set lists that set once (its aliases ``ents`` and ``spans`` are not sets of
their own); a one-layer format (JSONL, CoNLL, brat) holds one set, listed as ``ents``.
:func:`describe_sets` counts, per set, the documents it covers, those where it has annotations, its
annotations and its annotations per type (label); and the feature names found.

**DocBin** (:func:`corpus_to_docs`, :func:`write_docbin`): one spaCy ``Doc`` per document, tokenised by a
blank pipeline of language ``lang`` (default ``xx``, spaCy's multi-language tokenizer):

- ``spans:NAME`` -> ``doc.spans[NAME]``; ``ents`` -> ``doc.ents`` (tokens outside the entities ``O``;
  overlapping entities, which ``doc.ents`` cannot hold, are an :class:`InputError` that points to
  ``--sets spans:NAME``).
- **Coverage**: a set that does not cover a document (``Corpus.coverage``: the annotator never annotated,
  skipped or cancelled it) gets *no* span group in that Doc (absent, not empty); for ``ents`` the entity
  annotation is left unset (missing, not ``O``). A covered document without annotations gets an empty group.
- **Document id**: ``doc.user_data["doc_id"]``, the key the doc-id rule reads first
  (:data:`~spacy_anno_eval.annotations.docs.DOC_ID_KEYS`); left out where the input's id is the document's
  position, which the DocBin reader then gives it again.
- **Features** of a span: ``kb_id`` and ``id`` (string values) become the span's own ``kb_id`` and ``id``,
  which span groups keep. Every feature is also stored where spaCy keeps a ``Span`` extension's value,
  ``doc.user_data[("._.", NAME, start_char, end_char)]``, so that ``span._.NAME`` reads it back once
  ``Span.set_extension(NAME, default=None)`` is registered (the DocBin reader reads extensions as features
  named ``_.NAME``). That key has no room for the set or the label: two spans with the same offsets (two
  annotators) and different values of one feature keep the last, and a warning says how many. So every
  feature is also kept exactly, per group and span, in ``doc.user_data["span_features"]``:
  ``{group: [features of span 0, of span 1, ...]}`` in the group's order (``ents``: in ``doc.ents`` order).
  Values that msgpack and JSON cannot hold (anything but None, bool, int, float, str, lists and string-keyed
  dicts of them) are written as their ``str()``, with a warning.
- **Document categories** (:attr:`Corpus.cats <spacy_anno_eval.annotations.table.Corpus.cats>`, the layout
  of :mod:`spacy_anno_eval.annotations.docs`, which reads them back): each set's categories of a document it
  covers go to ``doc.user_data["cats"][NAME]`` (``ents`` for ``ents``), so that coverage survives; when the
  file holds one set they are also the Doc's own ``doc.cats``, which spaCy's textcat trains on.
- **Tokens**: ``align="expand"`` (the default) makes each span with ``doc.char_span(..., alignment_mode=
  "expand")``; a span whose start or end is not a token boundary grows to whole tokens, and one warning says
  how many did and shows the first. ``align="split"`` keeps every offset exact instead: tokens are also cut at
  every span boundary (tokens a tokenizer would not make; fine for evaluation, less so for training).

**JSONL** (:func:`corpus_to_records`, :func:`write_jsonl`): spaCy / Prodigy records that this project's
JSONL reader reads back: ``{"text", "spans": [{"start", "end", "label", "features": {...}}], "meta":
{"id"}}`` (the reader takes a span's ``features`` dict as its features, by their names), and ``"cats":
{label: value}`` where the set carries document categories (as spaCy's and Prodigy's JSONL hold them). One set
gives one record per document; a document the set does not cover is still written (JSONL has no coverage),
with no spans and no cats, and a warning counts them. Several sets give Prodigy's multi-annotator layout: one record per
document *and* set covering it, with ``"_annotator_id": NAME``, ``"_session_id": NAME`` and ``"answer":
"accept"``, so that coverage survives (a set's missing record is a document it does not cover); the
``prodigy`` reader reads one set per annotator from such a file.
"""

from __future__ import annotations

import os
import warnings
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ..annotations.docs import CATS_KEY
from ..annotations.table import ALL_FEATURES, Corpus, chosen_labels, parse_selector
from ..errors import ConfigError, ConversionWarning, InputError, where

#: the ``user_data`` key under which every span's features are kept exactly, per span group
FEATURES_KEY = "span_features"
#: the ``user_data`` key of a document's id (the first of the doc-id rule's keys)
DOC_ID_KEY = "doc_id"
ALIGNMENTS = ("expand", "split")
TARGETS = ("docbin", "jsonl")


# -- reading every set ----------------------------------------------------------------------------------------


def listed_sets(corpus: Corpus) -> list[str]:
    """The sets ``corpus`` holds, as selectors (module docstring): ``found_sets`` without the aliases of a lone
    set; ``["ents"]`` for a one-layer format."""
    found = corpus.found_sets
    if found is None:
        return ["ents"]
    if "spans" in found:  # an annotation tool's file with one set: ents and spans name it too
        return [s for s in found if s.startswith("spans:")]
    return list(found)


def aliases(corpus: Corpus) -> dict[str, str]:
    """``{"ents": "spans:NAME", "spans": "spans:NAME"}`` for a file with one set readable under those names too."""
    found = corpus.found_sets or []
    named = [s for s in found if s.startswith("spans:")]
    return {"ents": named[0], "spans": named[0]} if "spans" in found and len(named) == 1 else {}


def read_sets(path: str | os.PathLike, fmt: str = "auto", *, sets: Sequence[str] | None = None,
              features: Sequence[str] | None = None, **options: Any) -> tuple[Corpus, list[str], str]:
    """Read ``path`` with every set it holds (or the ``sets`` named, each checked to exist); return the corpus,
    the sets and the format read."""
    from . import detect_format, read_corpus, reader_options

    name = detect_format(path) if fmt == "auto" else fmt
    opts = dict(options)
    if "fast" in (reader_options(name) or ()):
        opts.setdefault("fast", False)  # the DocBin reader records its span groups on spaCy's path only
    if sets:
        corpus = read_corpus(path, name, selectors=tuple(sets), features=features, **opts)
        corpus.check_sets(list(sets))
        return corpus, list(sets), name
    corpus = read_corpus(path, name, selectors=("ents",), features=features, **opts)
    listed = listed_sets(corpus)
    if any(s not in corpus.sets for s in listed):
        corpus = read_corpus(path, name, selectors=tuple(listed), features=features, **opts)
    return corpus, listed, name


def describe_sets(corpus: Corpus, sets: Sequence[str], fmt: str = "") -> dict[str, Any]:
    """What ``anno-eval sets`` shows: per set its documents covered and annotated, its annotations and its
    annotations per type, and for a set that carries document categories the documents it gives one
    (``documents_categorised``) and the documents per chosen category (``cats``); the feature names found
    (``None`` when the reader does not say)."""
    n = len(corpus)
    annotators = set(corpus.annotators())
    rows = []
    for name in sets:
        table = corpus.get_set(name)
        counts = np.bincount(table.label, minlength=len(table.labels)).tolist() if len(table) else []
        order = sorted(range(len(counts)), key=lambda i: (-counts[i], table.labels[i]))
        row = {"name": name, "annotator": name in annotators, "documents_covered": int(corpus.covered(name).sum()),
               "documents_annotated": int(len(np.unique(table.doc))), "annotations": int(len(table)),
               "types": {table.labels[i]: int(counts[i]) for i in order if counts[i]}}
        cats = corpus.doc_cats(name)
        if cats is not None:
            per_label = Counter(label for c in cats for label in chosen_labels(c))
            row["documents_categorised"] = categorised(corpus, name)
            row["cats"] = dict(sorted(per_label.items(), key=lambda kv: (-kv[1], kv[0])))
        rows.append(row)
    return {"source": corpus.source, "format": fmt, "n_docs": n, "sets": rows, "aliases": aliases(corpus),
            "features": corpus.found_features}


# -- values that msgpack and JSON hold ------------------------------------------------------------------------


class _Plain:
    """Feature values made plain (None, bool, int, float, str, lists, string-keyed dicts); counts the others."""

    def __init__(self) -> None:
        self.texts = 0
        self.first: str | None = None

    def __call__(self, value: Any) -> Any:
        if value is None or isinstance(value, (bool, int, float, str)):
            return value
        if isinstance(value, (list, tuple)):
            return [self(v) for v in value]
        if isinstance(value, dict) and all(isinstance(k, str) for k in value):
            return {k: self(v) for k, v in value.items()}
        if isinstance(value, np.generic):
            return value.item()
        self.texts += 1
        self.first = self.first or f"{type(value).__name__} {value!r:.40}"
        return str(value)

    def warn(self, target: str) -> None:
        if self.texts:
            warnings.warn(f"{self.texts} feature value(s) that {target} cannot hold were written as text (first: "
                          f"{self.first})", ConversionWarning, stacklevel=3)


def _group(selector: str) -> str | None:
    """The span group of a selector (``spans:NAME`` -> ``NAME``); ``None`` for ``ents``."""
    if selector == "spans":
        raise ConfigError("the set 'spans' names no span group; name the set as spans:NAME (anno-eval sets FILE "
                          "lists them)")
    kind, key = parse_selector(selector)
    return key


def _doc_spans(corpus: Corpus, sets: Sequence[str], d: int, tables: dict[str, Any]) -> dict[str, list[tuple]]:
    """``{set: [(start, end, label, features), ...]}`` of document ``d`` for the sets covering it."""
    out = {}
    for s in sets:
        if not corpus.covered(s)[d]:
            continue
        t = tables[s]
        out[s] = [(int(t.start[i]), int(t.end[i]), t.labels[int(t.label[i])],
                   t.features[i] if t.features is not None else {}) for i in t.rows(d)]
    return out


# -- DocBin ---------------------------------------------------------------------------------------------------


def corpus_to_docs(corpus: Corpus, sets: Sequence[str], *, lang: str = "xx", align: str = "expand") -> list[Any]:
    """spaCy Docs holding ``sets`` of ``corpus`` (module docstring); warns what changed."""
    import spacy

    if align not in ALIGNMENTS:
        raise ConfigError(f"align must be one of {', '.join(ALIGNMENTS)}, got {align!r}")
    groups = {s: _group(s) for s in sets}
    try:
        nlp = spacy.blank(lang)
    except Exception as exc:  # spaCy's ImportError / KeyError for a language it does not know
        raise ConfigError(f"--lang {lang!r}: spaCy has no language of that code ({type(exc).__name__}); use an "
                          f"ISO code such as en, de, fr, or xx (multi-language)") from None
    tables = {s: corpus.get_set(s) for s in sets}
    cats = {s: c for s in sets if (c := corpus.doc_cats(s)) is not None}
    plain = _Plain()
    expanded: list[str] = []
    dropped: list[str] = []
    shared_keys = 0
    docs = []
    for d, (doc_id, text) in enumerate(zip(corpus.doc_ids, corpus.texts, strict=True)):
        spans = _doc_spans(corpus, sets, d, tables)
        doc = nlp.make_doc(text)
        if align == "split":
            doc = _split_at(doc, {b for rows in spans.values() for r in rows for b in r[:2]})
        ext: dict[tuple, Any] = {}
        record: dict[str, list[dict[str, Any]]] = {}
        for s, rows in spans.items():
            made = []
            for start, end, label, feats in rows:
                kb_id, span_id = feats.get("kb_id"), feats.get("id")
                options = dict(label=label, kb_id=kb_id if isinstance(kb_id, str) else "",
                               span_id=span_id if isinstance(span_id, str) else "")
                span = doc.char_span(start, end, **options)
                if span is None:
                    span = doc.char_span(start, end, alignment_mode="expand", **options)
                    shown = f"document {doc_id!r} {start}-{end} {text[start:end]!r}"
                    if span is None:
                        dropped.append(shown)
                        continue
                    expanded.append(f"{shown} -> {span.start_char}-{span.end_char} {span.text!r}")
                feats = {str(k): plain(v) for k, v in feats.items()}
                for k, v in feats.items():
                    key = ("._.", k, span.start_char, span.end_char)
                    shared_keys += key in ext and ext[key] != v
                    ext[key] = v
                made.append((span, feats))
            if groups[s] is None:
                made = _as_ents(doc, made, corpus.source, doc_id)
            else:
                doc.spans[groups[s]] = [m[0] for m in made]
            if any(f for _, f in made):
                record[groups[s] or "ents"] = [f for _, f in made]
        doc.user_data.update(ext)
        if record:
            doc.user_data[FEATURES_KEY] = record
        given = {groups[s] or "ents": dict(c[d]) for s, c in cats.items() if c[d] is not None}
        if given:
            doc.user_data[CATS_KEY] = given
            if len(sets) == 1:
                doc.cats = dict(next(iter(given.values())))
        if corpus.given_ids is None or corpus.given_ids[d] is not None:
            doc.user_data[DOC_ID_KEY] = doc_id
        docs.append(doc)
    plain.warn("a DocBin")
    if expanded:
        warnings.warn(f"{len(expanded)} span(s) did not start or end on a token boundary of spaCy's {lang!r} "
                      f"tokenizer and were expanded to whole tokens (first: {expanded[0]}); --align split keeps "
                      f"their offsets", ConversionWarning, stacklevel=2)
    if dropped:
        warnings.warn(f"{len(dropped)} span(s) cover no token (only spaces) and were left out (first: "
                      f"{dropped[0]})", ConversionWarning, stacklevel=2)
    if shared_keys:
        warnings.warn(f"{shared_keys} feature value(s) replace another span's value of the same feature at the same "
                      f"offsets (another set or label) in span._, which keeps the last; "
                      f"doc.user_data[{FEATURES_KEY!r}] keeps every value per span group", ConversionWarning,
                      stacklevel=2)
    return docs


def _as_ents(doc: Any, made: list[tuple[Any, dict]], source: str, doc_id: str) -> list[tuple[Any, dict]]:
    """Set ``doc.ents`` (every other token ``O``); the (span, features) pairs in ``doc.ents`` order."""
    made = sorted(made, key=lambda m: (m[0].start, m[0].end))
    for (a, _), (b, _) in zip(made, made[1:], strict=False):
        if b.start < a.end:
            raise InputError(f"{where(source, doc_id, span=(b.start_char, b.end_char))}: this span overlaps "
                             f"{a.start_char}-{a.end_char} (after alignment to tokens), and doc.ents cannot hold "
                             f"overlapping entities; write the set to a span group with --sets spans:NAME")
    doc.set_ents([m[0] for m in made], default="outside")
    return made


def _split_at(doc: Any, bounds: set[int]) -> Any:
    """``doc`` re-made with a token boundary at every offset of ``bounds`` (the text unchanged): the tokenizer's
    tokens, cut further where a span starts or ends inside one (or inside the space after one)."""
    from spacy.tokens import Doc

    text = doc.text
    cuts = {0, len(text)} | {t.idx for t in doc} | {t.idx + len(t.text) for t in doc} | \
        {b for b in bounds if 0 < b < len(text)}
    cuts = sorted(cuts)
    words: list[str] = []
    spaces: list[bool] = []
    for a, b in zip(cuts, cuts[1:], strict=False):
        piece = text[a:b]
        if piece == " " and words and not spaces[-1] and a not in bounds and b not in bounds:
            spaces[-1] = True  # the space after a word, no span boundary in it
            continue
        words.append(piece)
        spaces.append(False)
    new = Doc(doc.vocab, words=words, spaces=spaces)
    if new.text != text:  # pragma: no cover - a bug above
        raise RuntimeError("the split tokens do not rebuild the text")
    return new


def write_docbin(docs: Iterable[Any], path: str | os.PathLike) -> Path:
    """Write ``docs`` to a DocBin (``.spacy``) with their user data, atomically, through the one writer
    (:func:`spacy_anno_eval.files.write_bytes`); return the path written.

    The bytes go to a temporary file beside ``path``, which then replaces
    ``path`` (``os.replace``): a reader never sees a half-written file, and on
    any error the temporary file is removed and ``path`` is left as it was.
    ``convert`` and the adjudication workflow both write with it.
    """
    from spacy.tokens import DocBin

    from ..files import write_bytes

    return write_bytes(path, DocBin(store_user_data=True, docs=docs).to_bytes())


# -- JSONL ----------------------------------------------------------------------------------------------------


def corpus_to_records(corpus: Corpus, sets: Sequence[str]) -> list[dict[str, Any]]:
    """The JSONL records of ``sets`` of ``corpus`` (module docstring)."""
    for s in sets:
        if s != "ents":
            _group(s)
    tables = {s: corpus.get_set(s) for s in sets}
    cats = {s: c for s in sets if (c := corpus.doc_cats(s)) is not None}
    plain = _Plain()
    several = len(sets) > 1
    uncovered = 0
    records = []
    for d, (doc_id, text) in enumerate(zip(corpus.doc_ids, corpus.texts, strict=True)):
        spans = _doc_spans(corpus, sets, d, tables)
        meta = {"id": doc_id} if corpus.given_ids is None or corpus.given_ids[d] is not None else {}
        if not several and not spans:
            uncovered += 1
            spans = {sets[0]: []}
        for s, rows in spans.items():
            record: dict[str, Any] = {"text": text, "spans": [
                {"start": a, "end": b, "label": label, **({"features": plain(dict(f))} if f else {})}
                for a, b, label, f in rows]}
            if s in cats and cats[s][d] is not None:
                record["cats"] = dict(cats[s][d])
            if meta:
                record["meta"] = dict(meta)
            if several:
                name = _group(s) or s
                record.update({"_annotator_id": name, "_session_id": name, "answer": "accept"})
            records.append(record)
    plain.warn("JSON")
    if uncovered:
        warnings.warn(f"{uncovered} document(s) that {sets[0]} does not cover are written with no spans and no "
                      f"cats (a JSONL of one set cannot tell 'not annotated' from 'annotated with nothing')",
                      ConversionWarning, stacklevel=2)
    return records


def write_jsonl(records: Sequence[dict[str, Any]], path: str | os.PathLike) -> Path:
    """Write ``records`` as JSON lines, atomically."""
    from ..files import rows_as_jsonl, write_text

    return write_text(path, rows_as_jsonl(records))


def convert(source: str | os.PathLike, out: str | os.PathLike, fmt: str = "auto", *, to: str | None = None,
            sets: Sequence[str] | None = None, features: Sequence[str] | None = (ALL_FEATURES,), lang: str = "xx",
            align: str = "expand", **options: Any) -> dict[str, Any]:
    """Read ``source`` (every set, or ``sets``) and write it to ``out`` as a DocBin or a JSONL (``to``; default:
    by ``out``'s suffix, ``.spacy`` or ``.jsonl``). Returns a summary (:func:`convert_summary`): documents, sets,
    annotations written, and their totals."""
    to = to or target_of(out)
    if to not in TARGETS:
        raise ConfigError(f"--to must be one of {', '.join(TARGETS)}, got {to!r}")
    corpus, chosen, name = read_sets(source, fmt, sets=sets, features=features, **options)
    if not sets:
        chosen = _worth_writing(corpus, chosen)
    if to == "docbin":
        docs = corpus_to_docs(corpus, chosen, lang=lang, align=align)
        write_docbin(docs, out)
    else:
        write_jsonl(corpus_to_records(corpus, chosen), out)
    return convert_summary(corpus, chosen, source=source, fmt=name, out=out, to=to)


def convert_summary(corpus: Corpus, sets: Sequence[str], *, source: str | os.PathLike, fmt: str,
                    out: str | os.PathLike, to: str) -> dict[str, Any]:
    """What :func:`convert` wrote of ``corpus`` (read from ``source`` in format ``fmt``): the sets ``sets`` to
    ``out`` as ``to``. Per set, its annotations (``annotations``) and, for a set that carries document
    categories, the documents it gives a chosen category (``categorised``, :func:`categorised`); and their totals,
    the figures ``anno-eval convert`` prints: ``n_sets``, ``n_annotations`` and ``n_categorised`` (``None`` when
    no set carries categories)."""
    annotations = {s: len(corpus.get_set(s)) for s in sets}
    cats = {s: categorised(corpus, s) for s in sets if corpus.doc_cats(s) is not None}
    return {"source": str(source), "format": fmt, "out": str(out), "to": to, "n_docs": len(corpus),
            "sets": list(sets), "annotations": annotations, "categorised": cats, "n_sets": len(sets),
            "n_annotations": sum(annotations.values()), "n_categorised": sum(cats.values()) if cats else None}


def categorised(corpus: Corpus, name: str) -> int:
    """The documents to which set ``name`` gives a chosen category (:func:`~.table.chosen_labels`)."""
    return sum(1 for c in corpus.doc_cats(name) or () if chosen_labels(c))


def _worth_writing(corpus: Corpus, sets: list[str]) -> list[str]:
    """The sets written when none are named: every set, but ``ents`` of a DocBin only when it has entities or
    is the only set (an empty ``doc.ents`` written would turn 'no entity annotation' into 'all O')."""
    if "ents" in sets and len(sets) > 1 and not len(corpus.get_set("ents")):
        return [s for s in sets if s != "ents"]
    return sets


def target_of(out: str | os.PathLike) -> str:
    """``docbin`` or ``jsonl`` by the suffix of ``out``; :class:`ConfigError` for another."""
    suffix = Path(out).suffix.lower()
    if suffix == ".spacy":
        return "docbin"
    if suffix == ".jsonl":
        return "jsonl"
    raise ConfigError(f"{os.fspath(out)}: cannot tell the output format from the suffix {suffix!r}; name the file "
                      f".spacy or .jsonl, or pass --to docbin or --to jsonl")


__all__ = ["ALIGNMENTS", "DOC_ID_KEY", "FEATURES_KEY", "TARGETS", "ConversionWarning", "aliases", "convert",
           "convert_summary", "corpus_to_docs", "corpus_to_records", "describe_sets", "listed_sets", "read_sets",
           "target_of", "write_docbin", "write_jsonl"]
