"""Prodigy JSONL exports (``prodigy db-out``) with several annotators: one set per annotator.

Format (prodi.gy/docs; field names as in explosion/prodigy-recipes): one JSON
object per line, one line per decision of one annotator on one task::

    {"text": "...", "_input_hash": 364583976, "_task_hash": -2053011513,
     "spans": [{"start": 0, "end": 4, "label": "ORG", "token_start": 0, "token_end": 0}],
     "answer": "accept", "_timestamp": 1694858511,
     "_annotator_id": "ner_news-alex", "_session_id": "ner_news-alex"}

Choices:

- **Sets**: one per annotator, named by ``_annotator_id`` verbatim; without
  it by ``_session_id``; without both the one set ``default``. Prodigy
  names a named session's annotator ``DATASET-NAME`` (``ner_news-alex``):
  the id is kept whole, since the dataset part cannot be told apart from a
  name that holds a hyphen.
- **Documents** are the inputs: keyed by ``_input_hash`` (id: the hash as a
  string); without it by ``meta["id"]`` / ``"id"``; without those by the text
  (id: the position among the file's texts, ``"0"``, ``"1"``, ...). Two
  records of one input must carry the same text.
- **Repeated answers**: the same annotator answering the same task
  (``_task_hash``; without it the same input) again: the last one wins, by
  ``_timestamp`` where both records carry one, else by order in the file; a
  note says how many answers were dropped. Answers to different tasks of one
  input (binary ``ner`` suggestions) are all kept, and their spans merged.
- **answer**: ``accept`` (or none) covers the document with the record's
  spans. ``ignore`` does not cover it: the annotator declined to judge.
  ``reject`` in a span task does not cover it either: it says the spans shown
  were wrong, not which are right. A note counts the answers that cover
  nothing.
- **Document categories** (:attr:`Corpus.cats
  <spacy_anno_eval.annotations.table.Corpus.cats>`, spaCy's ``doc.cats``
  layout), never spans: a classification task (a top-level ``label`` and no
  spans: ``textcat.teach``, the binary ``classification`` view, the PyData
  crowd task ``{"text", "label": "new-dataset", "answer": "accept"}``) gives
  the category ``label`` 1.0 on accept and 0.0 on reject (the judgement "not
  this label", which covers the document). A choice task (``textcat.manual``:
  ``"options": [{"id": "A", "text": ...}, ...]``, ``"accept": ["A"]``, the
  chosen option ids) gives every option a category, 1.0 when chosen and 0.0
  when offered and not chosen; a reject or ignore of a choice task covers
  nothing, as a span task's. A record's ``"cats"`` (``{"A": 1.0, ...}``, as
  ``anno-eval convert`` and spaCy's JSONL write them) are read as they are.
  Answers to several tasks of one input (one label per task) are merged into
  one set of categories per annotator.
- **Spans**: ``start``/``end`` are code points (Python offsets); a span's
  ``text``, where present, is checked against the document text (one
  :class:`CoveredTextWarning` per file). A span with only ``token_start`` /
  ``token_end`` (``token_end`` inclusive) is placed through the record's
  ``tokens`` (their ``start``/``end``); without tokens it is an error. The
  label is the span's ``label`` (``label_feature`` names another key); its
  other keys (``kb_id``, ``source``, ...) are features.
- **Files**: one ``.jsonl`` file or a folder of them (read in sorted order;
  "the last answer" then follows that order).

Errors are located :class:`InputError` s (file, line, document, span).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..annotations.table import Corpus, cats_value
from ..errors import InputError, where
from .multiset import MultiSetBuilder, export_files
from .parse import json_lines

DEFAULT_SET = "default"
_SPAN_KEYS = {"start", "end", "token_start", "token_end", "label", "text"}
_ANSWERS = ("accept", "reject", "ignore")


class _Record:
    __slots__ = ("source", "line", "order", "value", "doc", "set_name")

    def __init__(self, source: str, line: int, order: int, value: dict[str, Any], doc: int, set_name: str) -> None:
        self.source, self.line, self.order, self.value, self.doc, self.set_name = \
            source, line, order, value, doc, set_name


def _name(value: Any) -> str | None:
    if value is None or value == "":
        return None
    if isinstance(value, (str, int)) and not isinstance(value, bool):
        return str(value)
    return None


def read_prodigy(path: str | os.PathLike, *, selectors: Sequence[str] = ("ents",),
                 features: Sequence[str] | None = None, label_feature: str | None = None,
                 encoding: str = "utf-8", **options: Any) -> Corpus:
    """Read a Prodigy JSONL export (or a folder of them) into a :class:`Corpus`, one set per annotator (see the
    module docstring)."""
    p = Path(path)
    builder = MultiSetBuilder(str(p), features=features, label_feature=label_feature, covered_field="span text")
    keys: dict[Any, str] = {}
    latest: dict[tuple[str, Any], _Record] = {}
    order = dropped = 0
    for f in export_files(p, (".jsonl",)):
        source = str(f)
        for line, value in json_lines(f, encoding=encoding):
            if not isinstance(value, dict):
                raise InputError(f"{where(source, line=line)}: expected a JSON object (one Prodigy task), got "
                                 f"{type(value).__name__}")
            d = _document(builder, keys, value, source, line)
            set_name = _name(value.get("_annotator_id")) or _name(value.get("_session_id")) or DEFAULT_SET
            builder.declare_set(set_name)
            task = value.get("_task_hash")
            key = (set_name, ("task", d, task) if _name(task) is not None else ("input", d))
            record = _Record(source, line, order, value, d, set_name)
            order += 1
            if key in latest:
                dropped += 1
                if not _later(record, latest[key]):
                    continue
            latest[key] = record
    skipped = {"reject": 0, "ignore": 0}
    for record in sorted(latest.values(), key=lambda r: r.order):
        _answer(builder, record, skipped)
    if not builder.set_names():
        builder.declare_set(DEFAULT_SET)
    if dropped:
        builder.note(f"{dropped} repeated answer(s) (the same annotator, the same task) dropped; the last one wins")
    if skipped["reject"] or skipped["ignore"]:
        builder.note(f"{skipped['ignore']} 'ignore' and {skipped['reject']} span-task 'reject' answer(s) cover no "
                     f"document: it is left out of that annotator's pairs")
    return builder.build(selectors)


def _later(new: _Record, old: _Record) -> bool:
    """Whether ``new`` replaces ``old``: a later ``_timestamp`` where both have one, else the later record."""
    a, b = new.value.get("_timestamp"), old.value.get("_timestamp")
    if isinstance(a, (int, float)) and isinstance(b, (int, float)) and not isinstance(a, bool) \
            and not isinstance(b, bool) and a != b:
        return a > b
    return True


def _document(builder: MultiSetBuilder, keys: dict[Any, str], value: dict[str, Any], source: str, line: int) -> int:
    text = value.get("text")
    input_hash = _name(value.get("_input_hash"))
    meta = value.get("meta")
    given = _name(meta.get("id")) if isinstance(meta, dict) else None
    given = given or _name(value.get("id"))
    if not isinstance(text, str):
        problem = "has no \"text\"" if text is None else f"has a \"text\" of type {type(text).__name__}"
        raise InputError(f"{where(source, input_hash or given, line)}: the task {problem}; every line needs the "
                         f"document text as a string")
    if input_hash is not None:
        doc_id = input_hash
    elif given is not None:
        doc_id = given
    else:
        doc_id = keys.setdefault(text, str(len(keys)))
    return builder.document(doc_id, text, f"{source}, line {line}")


def _answer(builder: MultiSetBuilder, record: _Record, skipped: dict[str, int]) -> None:
    value, source, line = record.value, record.source, record.line
    doc_id = builder.doc_ids[record.doc]
    text = builder.texts[record.doc]
    answer = value.get("answer", "accept")
    if answer not in _ANSWERS:
        raise InputError(f"{where(source, doc_id, line)}: \"answer\" must be one of {', '.join(_ANSWERS)}, got "
                         f"{answer!r}")
    spans = value.get("spans")
    if spans is not None and not isinstance(spans, list):
        raise InputError(f"{where(source, doc_id, line)}: \"spans\" must be a list, got {type(spans).__name__}")
    label = value.get("label")
    options = value.get("options")
    choice = isinstance(options, list) and "accept" in value
    classification = isinstance(label, str) and bool(label) and not spans and not choice
    if answer == "ignore" or (answer == "reject" and not classification):
        skipped[answer] += 1
        return
    builder.cover(record.set_name, record.doc)
    here = where(source, doc_id, line)
    if classification:  # "not this label" on reject
        builder.categorise(record.set_name, record.doc, label, 1.0 if answer == "accept" else 0.0, loc=here)
        return
    if answer == "reject":
        return
    if choice:
        chosen = value.get("accept")
        if not isinstance(chosen, list):
            raise InputError(f"{here}: \"accept\" must be the list of chosen option ids, got "
                             f"{type(chosen).__name__}")
        for i, option in enumerate(options):
            option_id = _name(option.get("id")) if isinstance(option, dict) else None
            if option_id is None:
                raise InputError(f"{here}, options[{i}]: an option needs an \"id\" (a string or an integer), got "
                                 f"{option!r:.60}")
            builder.categorise(record.set_name, record.doc, option_id, 0.0, loc=here)
        for option in chosen:
            if _name(option) is None:
                raise InputError(f"{here}: a chosen option id must be a string or an integer, got {option!r}")
            builder.categorise(record.set_name, record.doc, str(option), 1.0, loc=here)
    if value.get("cats") is not None:
        for name, score in cats_value(value["cats"], here).items():
            builder.categorise(record.set_name, record.doc, name, score, loc=here)
    for i, span in enumerate(spans or ()):
        start, end, span_label, feats, recorded = _span(span, i, value, text, source, doc_id, line)
        builder.add(record.set_name, record.doc, start, end, span_label, feats, recorded=recorded, line=line)


def _span(span: Any, i: int, value: dict[str, Any], text: str, source: str, doc_id: str,
          line: int) -> tuple[int, int, str, dict[str, Any], str | None]:
    loc = f"{where(source, doc_id, line)}, spans[{i}]"
    if not isinstance(span, dict):
        raise InputError(f"{loc}: expected an object with \"start\", \"end\" and \"label\", got "
                         f"{type(span).__name__}")
    start, end = span.get("start"), span.get("end")
    if start is None and end is None:
        start, end = _from_tokens(span, value, loc)
    for name, v in (("start", start), ("end", end)):
        if not isinstance(v, int) or isinstance(v, bool):
            raise InputError(f"{loc}: \"{name}\" must be an integer character offset, got {v!r}")
    if not 0 <= start <= end <= len(text):
        raise InputError(f"{where(source, doc_id, line, (start, end))}: span out of range for a text of {len(text)} "
                         f"characters (code points, end exclusive)")
    label = span.get("label")
    if not isinstance(label, str) or not label:
        raise InputError(f"{where(source, doc_id, line, (start, end))}: the span has no label (got {label!r}); "
                         f"every span needs a non-empty string \"label\"")
    recorded = span.get("text")
    feats = {k: v for k, v in span.items() if k not in _SPAN_KEYS}
    return start, end, label, feats, recorded if isinstance(recorded, str) else None


def _from_tokens(span: dict[str, Any], value: dict[str, Any], loc: str) -> tuple[int, int]:
    """A token-only span's character offsets, through the record's ``tokens`` (``token_end`` inclusive)."""
    first, last = span.get("token_start"), span.get("token_end")
    if first is None or last is None:
        raise InputError(f"{loc}: the span has no \"start\"/\"end\" and no \"token_start\"/\"token_end\"")
    tokens = value.get("tokens")
    if not isinstance(tokens, list):
        raise InputError(f"{loc}: a span given by tokens only (token_start/token_end) needs the task's \"tokens\"")
    for name, v in (("token_start", first), ("token_end", last)):
        if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v < len(tokens):
            raise InputError(f"{loc}: \"{name}\" {v!r} is no token of the task's {len(tokens)} tokens")
    a, b = tokens[first], tokens[last]
    if not (isinstance(a, dict) and isinstance(b, dict)):
        raise InputError(f"{loc}: the task's tokens must be objects with \"start\" and \"end\"")
    return a.get("start"), b.get("end")


__all__ = ["DEFAULT_SET", "read_prodigy"]
