"""Read spaCy / Prodigy JSONL into a :class:`~spacy_anno_eval.annotations.table.Corpus`.

One JSON object per line (blank lines are skipped), as Prodigy writes
annotations (https://prodi.gy/docs/api-interfaces#ner_manual) and spaCy's
JSONL conventions use them (https://spacy.io/api/data-formats)::

    {"text": "Apple buys a UK startup",
     "spans": [{"start": 0, "end": 5, "label": "ORG"},
               {"start": 13, "end": 15, "label": "GPE", "kb_id": "Q145"}],
     "meta": {"id": "doc-1"}, "answer": "accept"}

- ``spans``: character offsets, ``end`` exclusive, and a ``label``; Prodigy's
  ``token_start`` / ``token_end`` are ignored. Without ``spans``, spaCy's older
  training format ``"entities": [[start, end, label], ...]`` is read instead;
  a line with neither has no annotations.
- Features (only those named in ``features`` are kept): a span's other keys
  (``kb_id``, ...) and the entries of its ``"features"`` dict, which win.
- Document id: ``meta["id"]``, else the top-level ``"id"``, else Prodigy's
  ``"_input_hash"``, else the document's position in the file (``"0"``,
  ``"1"``, ... counting the documents kept), which is what the DocBin reader
  and :func:`~spacy_anno_eval.annotations.table.corpus_from_docs` use too, so
  files without ids pair by order with any format.
- ``"cats"``: the document's categories, as spaCy's ``doc.cats`` and
  Prodigy's ``data-to-spacy`` write them (``{"POSITIVE": 1.0, "NEGATIVE":
  0.0}``), read into :attr:`Corpus.cats
  <spacy_anno_eval.annotations.table.Corpus.cats>` under the layer's
  selectors; when some line has them, a line without them has none (``{}``:
  JSONL cannot say that a line was not annotated). A value that is not a
  finite number is a located error.
- Prodigy's ``"answer"``: with ``skip_rejected=True`` (the default), lines
  whose answer is ``"reject"`` or ``"ignore"`` are left out, because their
  spans are not a judgement of the text; ``skip_rejected=False`` keeps them.

JSONL has one annotation layer, so the one :class:`SpanTable` is put under
every requested selector name: ``ents``, ``spans`` or ``spans:<NAME>``; any
other name (``column:2``) raises :class:`~spacy_anno_eval.errors.ConfigError`.
Errors raise :class:`~spacy_anno_eval.errors.InputError` naming the file, the line,
the document and the span: invalid JSON, JSON nested deeper than
:data:`MAX_JSON_DEPTH`, a line that is not an object, a
missing or non-string ``text``, a span without integer ``start``/``end`` or
without a ``label``, and a span with ``start >= end``, ``start < 0`` or
``end > len(text)``.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ..annotations.table import ALL_FEATURES, INDEX, Corpus, SpanTableBuilder, cats_value, one_layer_selectors
from ..errors import InputError, where
from .parse import MAX_DEPTH, excerpt, json_depth, json_lines, json_value

MAX_JSON_DEPTH = MAX_DEPTH
_EXPECTED = "expected one JSON object per line"

_SPAN_KEYS = {"start", "end", "label", "token_start", "token_end", "features"}
_SKIPPED_ANSWERS = {"reject", "ignore"}


def read_jsonl(path: str | os.PathLike, *, selectors: Sequence[str] = ("ents",),
               features: Sequence[str] | None = None, skip_rejected: bool = True, encoding: str = "utf-8",
               **options: Any) -> Corpus:
    """Read a spaCy / Prodigy JSONL file into a :class:`Corpus` (see the module docstring).

    ``options`` exist so that every reader is called alike; :func:`~spacy_anno_eval.io.read_corpus`
    refuses an option this reader does not take (``skip_rejected``, ``encoding``).
    """
    selectors = one_layer_selectors(selectors, str(path), "jsonl")
    corpus, _ = _corpus(_records(Path(path), encoding), str(path), selectors, features, skip_rejected)
    return corpus


def read_jsonl_lines(lines: Iterable[str], path: str | os.PathLike, *, first_line: int = 1,
                     selectors: Sequence[str] = ("ents",), features: Sequence[str] | None = None,
                     skip_rejected: bool = True, encoding: str = "utf-8",
                     **options: Any) -> tuple[Corpus, list[str | None]]:
    """:func:`read_jsonl` on ``lines``, a run of the file's lines that starts at line ``first_line``.

    The same record loop as :func:`read_jsonl` (errors name ``path`` and the
    file's own line numbers); ids without a ``meta.id`` / ``id`` /
    ``_input_hash`` are positions among the documents of ``lines``. Also
    returns, per document, the id the file gives it, or ``None`` where the
    id is positional. When ``first_line > 1`` the file position of such a
    document is unknown (rejected lines are left out), so error messages
    name it by its line only. Used by :mod:`.chunks` to read a file piece by piece.
    """
    p = Path(path)
    selectors = one_layer_selectors(selectors, str(path), "jsonl")
    return _corpus(_objects(_json_values(lines, p, encoding, first_line), p), str(path), selectors, features,
                   skip_rejected, name_positions=first_line == 1)


def _corpus(records: Iterable[tuple[int, dict[str, Any]]], source: str, selectors: Sequence[str],
            features: Sequence[str] | None, skip_rejected: bool,
            name_positions: bool = True) -> tuple[Corpus, list[str | None]]:
    """The :class:`Corpus` of ``records``, and each document's id as the file gives it (or ``None``).

    ``name_positions=False``: errors do not name a document whose id is its position.
    """
    wanted = tuple(features) if features else ()
    builder = SpanTableBuilder()
    found: list[str | None] = []
    doc_ids: list[str] = []
    texts: list[str] = []
    names: set[str] | None = set() if wanted else None  # every feature name seen, when features are asked for
    cats: list[dict[str, float]] = []
    has_cats = False
    for line_no, record in records:
        if skip_rejected and record.get("answer") in _SKIPPED_ANSWERS:
            continue
        d = len(texts)
        given = _found_id(record)
        doc_id = str(d) if given is None else given
        named = doc_id if given is not None or name_positions else None
        text = record.get("text")
        if not isinstance(text, str):
            problem = "has no \"text\"" if text is None else f"has a \"text\" of type {type(text).__name__}"
            raise InputError(f"{where(source, named, line_no)}: the record {problem}; every line "
                                     f"needs the document text as a string")
        for start, end, label, feats in _spans(record, source, line_no, named, len(text), wanted, names):
            builder.add(d, start, end, label, feats)
        if record.get("cats") is not None:
            has_cats = True
            cats.append(cats_value(record["cats"], where(source, named, line_no)))
        else:
            cats.append({})
        found.append(given)
        doc_ids.append(doc_id)
        texts.append(text)
    table = builder.build()
    lengths = np.fromiter(map(len, texts), dtype=INDEX, count=len(texts))
    selectors = tuple(selectors) or ("ents",)
    corpus = Corpus(doc_ids, texts, {s: table for s in selectors}, source,
                    text_lengths=lengths, given_ids=found, found_features=None if names is None else sorted(names),
                    cats={s: [dict(c) for c in cats] for s in selectors} if has_cats else None)
    return corpus, found


def _json_values(lines: Iterable[str], p: Path, encoding: str, first_line: int = 1) -> Iterator[tuple[int, Any]]:
    """(line number, parsed JSON value) for every non-blank line of ``lines``, by the rules of
    :func:`spacy_anno_eval.io.parse.json_lines`."""
    return json_lines(lines, str(p), encoding, first_line=first_line, expected=_EXPECTED)


def _records(p: Path, encoding: str) -> Iterator[tuple[int, dict[str, Any]]]:
    """(line number, JSON object) for every non-blank line."""
    return _objects(json_lines(p, encoding=encoding, expected=_EXPECTED), p)


def _objects(values: Iterable[tuple[int, Any]], p: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    """The (line number, value) pairs of ``values``; raise on a value that is not a JSON object."""
    for line_no, record in values:
        if not isinstance(record, dict):
            raise InputError(f"{where(str(p), line=line_no)}: expected a JSON object with "
                                     f"\"text\" and \"spans\", got {type(record).__name__}")
        yield line_no, record


def _doc_id(record: dict[str, Any], position: int) -> str:
    """The record's id (:func:`_found_id`), else its position."""
    given = _found_id(record)
    return str(position) if given is None else given


def _found_id(record: dict[str, Any]) -> str | None:
    """``meta["id"]``, else ``"id"``, else ``"_input_hash"`` (as a string); ``None`` when there is none."""
    meta = record.get("meta")
    if isinstance(meta, dict) and meta.get("id") is not None:
        return str(meta["id"])
    for key in ("id", "_input_hash"):
        if record.get(key) is not None:
            return str(record[key])
    return None


def _spans(record: dict[str, Any], source: str, line_no: int, doc_id: str | None, n_chars: int,
           wanted: tuple[str, ...], names: set[str] | None = None):
    """Validated (start, end, label, features) of a record's ``spans`` or ``entities``; ``names`` (when given)
    collects every feature name a span carries."""
    if record.get("spans") is not None:
        items, field = record["spans"], "spans"
    elif record.get("entities") is not None:
        items, field = record["entities"], "entities"
    else:
        return
    if not isinstance(items, list):
        raise InputError(f"{where(source, doc_id, line_no)}: \"{field}\" must be a list, "
                                 f"got {type(items).__name__}")
    for i, item in enumerate(items):
        start, end, label, extra = _span_fields(item, field, i, source, line_no, doc_id)
        loc = where(source, doc_id, line_no, (start, end))
        if not 0 <= start < end <= n_chars:
            raise InputError(f"{loc}: span out of range for a text of {n_chars} characters (a span needs "
                                     f"0 <= start < end <= len(text), character offsets, end exclusive)")
        if names is not None and extra:
            names.update(k for k in extra if k not in _SPAN_KEYS)
            if isinstance(extra.get("features"), dict):
                names.update(str(k) for k in extra["features"])
        yield start, end, label, _features(extra, wanted) if wanted else None


def _span_fields(item: Any, field: str, i: int, source: str, line_no: int,
                 doc_id: str | None) -> tuple[int, int, str, dict[str, Any]]:
    loc = f"{where(source, doc_id, line_no)}, {field}[{i}]"
    if isinstance(item, dict):
        start, end, label = item.get("start"), item.get("end"), item.get("label")
        extra = item
    elif isinstance(item, (list, tuple)) and len(item) == 3:
        (start, end, label), extra = item, {}
    else:
        raise InputError(f"{loc}: expected {{\"start\", \"end\", \"label\"}} or [start, end, label], "
                                 f"got {excerpt(item)}")
    for name, value in (("start", start), ("end", end)):
        if not isinstance(value, int) or isinstance(value, bool):
            raise InputError(f"{loc}: \"{name}\" must be an integer character offset, got {value!r}")
    if not isinstance(label, str) or not label:
        got = "no label" if label is None or label == "" else f"the label {label!r}"
        raise InputError(f"{where(source, doc_id, line_no, (start, end))}: the span has {got}; "
                                 f"every span needs a non-empty string \"label\"")
    return start, end, label, extra


def _features(extra: dict[str, Any], wanted: tuple[str, ...]) -> dict[str, Any]:
    nested = extra.get("features") if isinstance(extra.get("features"), dict) else {}
    if ALL_FEATURES in wanted:  # every feature: the span's other keys, then its "features" dict, which wins
        return {**{k: v for k, v in extra.items() if k not in _SPAN_KEYS}, **{str(k): v for k, v in nested.items()}}
    out = {}
    for name in wanted:
        if name in nested:
            out[name] = nested[name]
        elif name in extra and name not in _SPAN_KEYS:
            out[name] = extra[name]
    return out


def loads(text: str, location: str) -> Any:
    """``text`` decoded by :func:`spacy_anno_eval.io.parse.json_value` (``location``: the file, for messages)."""
    return json_value(text, location)


__all__ = ["MAX_JSON_DEPTH", "json_depth", "json_lines", "loads", "read_jsonl", "read_jsonl_lines"]
