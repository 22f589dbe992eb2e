"""Read relations (for :mod:`spacy_anno_eval.annalist.relations`) from spaCy Docs or Prodigy JSONL.

Every relation is binary: attribute ``arg1`` is the head entity and ``arg2``
the child entity, each named by its character offsets, ``"start-end"``
(:func:`~spacy_anno_eval.annalist.relations.entity_id`), so that relations
meet an offset-based entity alignment such as
``EntityAlignment.from_rows(evaluation.diff_rows())``. Relation ids are the
relation's ``"id"`` when a dict has one, else its position in the
document's list (``"0"``, ``"1"``, ...).

**spaCy Docs.** ``doc._.relations`` when the Doc extension ``relations`` is
registered and set, else ``doc.user_data["relations"]``: a list of
``(head, child, label)`` triples, where ``head`` and ``child`` are spaCy
Spans (or ``[start_char, end_char]`` pairs), or of dicts
``{"head": [start_char, end_char], "child": [start_char, end_char],
"label": ...}`` (``head`` / ``child`` may be Spans there too). Document ids
are ``user_data["doc_id"]`` (else ``user_data["id"]``), else the position,
by the one rule (:func:`~spacy_anno_eval.annotations.docs.doc_id`). A
``.spacy`` file is read as a DocBin (saved with ``store_user_data=True``; its
relations must then be lists or dicts, since Spans do not serialise).

**Prodigy JSONL** (the ``rel.manual`` output): one document per line with
``text``, ``spans`` and ``relations``, each relation
``{"head": int, "child": int, "label": str, "head_span": {...},
"child_span": {...}}``, where ``head`` / ``child`` are token indices (the
last token of the span) and ``head_span`` / ``child_span`` carry the span's
character ``start`` and ``end``, which give the entity ids. A relation without
``head_span`` (or ``child_span``) is resolved through ``spans``: the span whose
``token_end`` is the token index, else the one whose
``token_start``..``token_end`` contains it, else the token's own offsets from
``tokens``. Document ids and the skipping of rejected lines are those of
:func:`~spacy_anno_eval.io.jsonl.read_jsonl` (``meta.id``, ``id``,
``_input_hash``, else the position among the documents kept; ``answer``
reject or ignore is skipped), so the ids agree with an entity evaluation of
the same file. Bad input raises
:class:`~spacy_anno_eval.errors.InputError` naming the file, the line
and the relation.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ..annotations.docs import doc_id as docs_doc_id
from ..annotations.docs import doc_relations
from ..errors import InputError, where
from ..io.jsonl import _doc_id, _records
from ..io.parse import excerpt
from .relations import Relation, entity_id

_SKIPPED_ANSWERS = {"reject", "ignore"}


def read_relations(source: str | os.PathLike | Iterable[Any], *, encoding: str = "utf-8",
                   skip_rejected: bool = True) -> list[Relation]:
    """Relations from a ``.jsonl`` file, a ``.spacy`` DocBin, or spaCy Docs (one Doc or several)."""
    if isinstance(source, (str, os.PathLike)):
        p = Path(source)
        if not p.is_file():
            raise InputError(f"{p}: no such file")
        suffix = p.suffix.lower()
        if suffix == ".jsonl":
            return read_relations_jsonl(p, encoding=encoding, skip_rejected=skip_rejected)
        if suffix == ".spacy":
            docs = _docbin_docs(p)
            if not docs:
                raise InputError(f"{p}: nothing to compare: the DocBin holds no documents")
            return relations_from_docs(docs, source=str(p))
        raise InputError(f"{p}: relations are read from .jsonl (Prodigy) or .spacy (DocBin) files, "
                                 f"got {suffix or 'no suffix'!r}")
    if hasattr(source, "user_data") and hasattr(source, "text"):
        return relations_from_docs([source])
    return relations_from_docs(source)


def _docbin_docs(p: Path) -> list[Any]:
    from spacy.tokens import DocBin
    from spacy.vocab import Vocab

    from ..io.parse import read_bytes

    data = read_bytes(p)  # a missing or unreadable file is named as such
    try:
        db = DocBin(store_user_data=True).from_bytes(data)
    except Exception as exc:  # spaCy raises ValueError, msgpack its own errors
        raise InputError(f"{p}: not a readable DocBin ({exc})") from exc
    return list(db.get_docs(Vocab()))


# ---------------------------------------------------------------- spaCy Docs


def relations_from_docs(docs: Iterable[Any], source: str = "") -> list[Relation]:
    """Relations of spaCy Docs (see the module docstring for where they are stored)."""
    out: list[Relation] = []
    for i, doc in enumerate(docs):
        doc_id = docs_doc_id(doc, i)
        items = doc_relations(doc)
        if items is None:
            continue
        if not isinstance(items, (list, tuple)):
            raise InputError(f"{where(source, doc_id)}: relations must be a list of (head, child, label) "
                                     f"triples or {{\"head\", \"child\", \"label\"}} dicts, got "
                                     f"{type(items).__name__}")
        n_chars = len(doc.text)
        for j, item in enumerate(items):
            loc = f"{where(source, doc_id)}, relations[{j}]"
            rel_id = str(j)
            if isinstance(item, dict):
                head, child, label = item.get("head"), item.get("child"), item.get("label")
                if item.get("id") is not None:
                    rel_id = str(item["id"])
            elif isinstance(item, (list, tuple)) and len(item) == 3:
                head, child, label = item
            else:
                raise InputError(f"{loc}: expected (head, child, label) or {{\"head\", \"child\", "
                                         f"\"label\"}}, got {_show(item)}")
            label = _label(label, loc)
            args = {"arg1": _doc_offsets(head, "head", loc, n_chars), "arg2": _doc_offsets(child, "child", loc,
                                                                                           n_chars)}
            out.append(Relation(doc_id, rel_id, label, args))
    return out


def _doc_offsets(value: Any, role: str, loc: str, n_chars: int) -> str:
    if hasattr(value, "start_char") and hasattr(value, "end_char"):
        start, end = value.start_char, value.end_char
    elif isinstance(value, dict) and "start" in value and "end" in value:
        start, end = value["start"], value["end"]
    elif isinstance(value, (list, tuple)) and len(value) == 2:
        start, end = value
    else:
        raise InputError(f"{loc}: the {role} must be a Span or [start_char, end_char], got {_show(value)}")
    return _checked_id(start, end, role, loc, n_chars)


# ---------------------------------------------------------------- Prodigy JSONL


def read_relations_jsonl(path: str | os.PathLike, *, encoding: str = "utf-8",
                         skip_rejected: bool = True) -> list[Relation]:
    """Relations of a Prodigy relations JSONL file (see the module docstring)."""
    p = Path(path)
    source = str(path)
    out: list[Relation] = []
    position = skipped = 0
    for line_no, record in _records(p, encoding):
        if skip_rejected and record.get("answer") in _SKIPPED_ANSWERS:
            skipped += 1
            continue
        doc_id = _doc_id(record, position)
        position += 1
        text = record.get("text")
        n_chars = len(text) if isinstance(text, str) else None
        items = record.get("relations")
        if items is None:
            continue
        if not isinstance(items, list):
            raise InputError(f"{where(source, doc_id, line_no)}: \"relations\" must be a list, got "
                                     f"{type(items).__name__}")
        for j, item in enumerate(items):
            loc = f"{where(source, doc_id, line_no)}, relations[{j}]"
            if not isinstance(item, dict):
                raise InputError(f"{loc}: expected {{\"head\", \"child\", \"label\", \"head_span\", "
                                         f"\"child_span\"}}, got {_show(item)}")
            label = _label(item.get("label"), loc)
            args = {"arg1": _jsonl_offsets(record, item, "head", loc, n_chars),
                    "arg2": _jsonl_offsets(record, item, "child", loc, n_chars)}
            rel_id = str(item["id"]) if item.get("id") is not None else str(j)
            out.append(Relation(doc_id, rel_id, label, args))
    if not position:
        why = f" ({skipped} line(s) rejected or ignored, left out)" if skipped else " (the file holds no JSON line)"
        raise InputError(f"{source}: nothing to compare: no documents{why}")
    return out


def _jsonl_offsets(record: dict[str, Any], item: dict[str, Any], role: str, loc: str, n_chars: int | None) -> str:
    span = item.get(f"{role}_span")
    if span is not None:
        if not isinstance(span, dict) or "start" not in span or "end" not in span:
            raise InputError(f"{loc}: \"{role}_span\" must be a dict with character \"start\" and "
                                     f"\"end\", got {_show(span)}")
        return _checked_id(span["start"], span["end"], f"{role}_span", loc, n_chars)
    token = item.get(role)
    if not _is_int(token):
        raise InputError(f"{loc}: no \"{role}_span\" and no integer token index \"{role}\" "
                                 f"(got {token!r})")
    found = _span_of_token(record.get("spans"), token) or _token(record.get("tokens"), token)
    if found is None:
        raise InputError(f"{loc}: no \"{role}_span\", and token {token} is in no span of \"spans\" "
                                 f"and not in \"tokens\"; add \"{role}_span\" with character offsets")
    return _checked_id(found.get("start"), found.get("end"), role, loc, n_chars)


def _span_of_token(spans: Any, token: int) -> dict[str, Any] | None:
    if not isinstance(spans, list):
        return None
    spans = [s for s in spans if isinstance(s, dict) and _is_int(s.get("token_start")) and _is_int(s.get("token_end"))]
    for s in spans:
        if s["token_end"] == token:
            return s
    for s in spans:
        if s["token_start"] <= token <= s["token_end"]:
            return s
    return None


def _token(tokens: Any, token: int) -> dict[str, Any] | None:
    if not isinstance(tokens, list):
        return None
    for i, t in enumerate(tokens):
        if isinstance(t, dict) and t.get("id", i) == token:
            return t
    return None


# ---------------------------------------------------------------- shared


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _checked_id(start: Any, end: Any, role: str, loc: str, n_chars: int | None) -> str:
    if not (_is_int(start) and _is_int(end)):
        raise InputError(f"{loc}: the {role} needs integer character offsets, got start={start!r}, "
                                 f"end={end!r}")
    if not 0 <= start < end or (n_chars is not None and end > n_chars):
        limit = "" if n_chars is None else f" for a text of {n_chars} characters"
        raise InputError(f"{loc}: the {role} [{start}, {end}) is out of range{limit} (a span needs "
                                 f"0 <= start < end <= len(text), end exclusive)")
    return entity_id(start, end)


def _label(label: Any, loc: str) -> str:
    if not isinstance(label, str) or not label:
        raise InputError(f"{loc}: the relation needs a non-empty string \"label\", got {label!r}")
    return label


def _show(value: Any) -> str:
    text = excerpt(value, 200)
    return text if len(text) <= 80 else text[:77] + "..."


__all__ = ["read_relations", "read_relations_jsonl", "relations_from_docs"]
