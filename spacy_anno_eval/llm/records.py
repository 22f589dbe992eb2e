"""The records of generated extractions, and the built-in readers of JSON lists, langextract's annotated
documents and relation triples (:mod:`spacy_anno_eval.llm.readers` registers them; its docstring says how records
are read, how ids are given and what is refused)."""

from __future__ import annotations

import os
import re
import warnings
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import ConfigError, InputError, ReaderNoteWarning, where
from ..io.parse import check_encoding, excerpt, json_file, json_lines, json_value
from .extractions import Extraction, Extractions, Triple

#: a record's id, in order of precedence (``meta.id`` first)
ID_FIELDS = ("id", "doc_id", "document_id")
#: the field of an ``llm-json`` record that holds its list of extractions (the first present)
LIST_FIELDS = ("entities", "extractions", "spans", "output")
#: the fields an ``llm-json`` extraction may name its label and its text by (the first present)
LABEL_FIELDS = ("label", "type", "entity_type", "category")
TEXT_FIELDS = ("text", "span", "entity", "mention")
#: the field of an ``llm-relations`` record that holds its triples, and the names a triple's parts may have
RELATION_FIELDS = ("relations", "triples")
TRIPLE_NAMES = (("head", "relation", "tail"), ("subject", "predicate", "object"), ("source", "type", "target"))
#: a model's output in a Markdown code fence (```json ... ```), text around it allowed
_FENCE = re.compile(r"```[ \t]*(?:json|JSON)?[ \t]*\r?\n?(.*?)```", re.DOTALL)
_EXPECTED = "expected one JSON record per line"


@dataclass
class ReadExtractions(Extractions):
    """:class:`Extractions` as a reader returns them, with what the file holds beside: ``texts``, each document's
    text where the format records it (langextract's ``text``, a DocBin's Docs), for checking against the key's;
    ``left_out``, what was read but not kept (module docstring), each with its ``source``."""

    texts: dict[str, str] = field(default_factory=dict)
    left_out: list[Extraction] = field(default_factory=list)


# -- records -----------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Entry:
    """A document's record in a file: ``value`` (a record, or a bare list), the id its place gives (``key``: a JSON
    object's key), its ``line`` in a JSON-lines file, ``loc``: where it is, for messages."""

    value: Any
    key: str | None
    line: int | None
    loc: str


def entries(path: str | os.PathLike, encoding: str = "utf-8", *,
            is_record: Callable[[dict[str, Any]], bool] = lambda d: True) -> Iterator[Entry]:
    """Every document's record of ``path`` (module docstring, **Records**). ``is_record`` tells a JSON file's
    single record from an object of document id -> record."""
    source = str(path)
    check_encoding(encoding)
    if Path(path).suffix.lower() != ".json":
        for line_no, value in json_lines(path, encoding=encoding, expected=_EXPECTED):
            yield Entry(value, None, line_no, where(source, line=line_no))
        return
    data = json_file(path, encoding, expected="expected a JSON list of records, or an object of id -> record")
    if isinstance(data, list):
        for i, value in enumerate(data):
            yield Entry(value, None, None, f"{source}, record [{i}]")
    elif isinstance(data, dict) and is_record(data):
        yield Entry(data, None, None, source)
    elif isinstance(data, dict):
        for key, value in data.items():
            yield Entry(value, key, None, where(source, key))
    else:
        raise InputError(f"{source}: expected a JSON list of records, or an object of document id -> record, got "
                         f"{excerpt(data, 40)}")


def given_id(record: Any, loc: str) -> str | None:
    """The id a record gives itself (``meta.id``, ``id``, ``doc_id``, ``document_id``), ``None`` when none; an
    id that is not a non-empty string or a whole number is an :class:`InputError` naming the field."""
    if not isinstance(record, dict):
        return None
    meta = record.get("meta")
    found = [("meta.id", meta["id"])] if isinstance(meta, dict) and meta.get("id") is not None else []
    found += [(name, record[name]) for name in ID_FIELDS if record.get(name) is not None]
    if not found:
        return None
    name, value = found[0]
    if isinstance(value, bool) or not isinstance(value, str | int) or value == "":
        raise InputError(f"{loc}: the document id \"{name}\" must be a non-empty string or a whole number, got "
                         f"{excerpt(value, 40)}")
    return str(value)


class DocIds:
    """Each record's document id by the module's rule: its own id, else its position; an id given twice, or a
    file that gives ids to some records only, is an :class:`InputError` naming both places."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.seen: dict[str, str] = {}
        self.with_id: tuple[bool, str] | None = None  # whether the first record had an id, and where it was

    def take(self, entry: Entry) -> tuple[str, str, str]:
        """The id of ``entry``'s document, where it is for messages (its id named), and for
        :attr:`Extraction.source` (``file:line``); raises as the class says."""
        given = entry.key if entry.key is not None else given_id(entry.value, entry.loc)
        if self.with_id is None:
            self.with_id = (given is not None, entry.loc)
        elif self.with_id[0] != (given is not None):
            has, other = ("has no", "gives one") if given is None else ("has an", "has none")
            raise InputError(f"{entry.loc}: the record {has} id while the first ({self.with_id[1]}) {other}; give "
                             f"every record an id ({', '.join(('meta.id', *ID_FIELDS))}), or none (documents then "
                             f"pair with the key by position)")
        doc = given if given is not None else str(len(self.seen))
        if doc in self.seen:
            raise InputError(f"{entry.loc}: the document id {doc!r} is given twice (first at {self.seen[doc]}); each "
                             f"document is one record")
        self.seen[doc] = entry.loc
        if entry.line is None:
            loc = entry.loc if entry.key is not None else f"{entry.loc}, document {doc!r}"
            return doc, loc, loc
        return doc, where(self.source, doc, entry.line), f"{self.source}:{entry.line}"


def string(value: Any, loc: str, name: str, *, empty: bool = True) -> str:
    """``value`` when it is a string (non-empty unless ``empty``); else an :class:`InputError` naming ``name``."""
    if isinstance(value, str) and (empty or value.strip()):
        return value
    got = "nothing" if value is None else "an empty string" if isinstance(value, str) else excerpt(value, 60)
    raise InputError(f"{loc}: {name} must be a{'' if empty else ' non-empty'} string, got {got}")


def first_field(item: dict[str, Any], names: Sequence[str]) -> tuple[str | None, Any]:
    """The first of ``names`` that ``item`` holds (not null), and its value; ``(None, None)`` when none."""
    return next(((n, item[n]) for n in names if item.get(n) is not None), (None, None))


def nothing_to_compare(source: str, what: str = "no record") -> InputError:
    return InputError(f"{source}: nothing to compare: {what}")  # the words every reader's refusal uses


def note_left_out(source: str, left: Sequence[Extraction], why: str, fix: str) -> None:
    """One :class:`ReaderNoteWarning` for the extractions ``left`` out of ``source``, naming the first."""
    if left:
        first = left[0]
        s = "s" if len(left) > 1 else ""
        warnings.warn(f"{source}: {len(left)} extraction{s} left out, {why} (the first: {first.source}, "
                      f"{first.label!r}: {first.text[:60]!r}); {fix}", ReaderNoteWarning, stacklevel=3)


def model_json(text: str, loc: str, name: str) -> Any:
    """A model's output ``text`` read as JSON: the first Markdown code fence if there is one, else the text
    itself; invalid JSON is an :class:`InputError` naming ``loc``, the field ``name`` and the line of the output."""
    fenced = _FENCE.search(text)
    body = (fenced.group(1) if fenced else text).strip()
    return json_value(body, f"{loc}, the model output in {name}",
                      expected="expected a JSON list of {\"label\", \"text\"} objects, possibly in a ```json fence")


def looks_like_json(text: Any) -> bool:
    """Whether a model's output string holds JSON (a fence, or text starting with ``[`` or ``{``)."""
    return isinstance(text, str) and (bool(_FENCE.search(text)) or text.lstrip()[:1] in ("[", "{"))


# -- llm-json ----------------------------------------------------------------------------------------------------


def _json_record(d: dict[str, Any]) -> bool:
    return any(k in d for k in (*LIST_FIELDS, "response", "meta", *ID_FIELDS))


def read_llm_json(path: str | os.PathLike, *, invalid_output: str = "refuse",
                  encoding: str = "utf-8") -> ReadExtractions:
    """Lists of ``{"label", "text"}`` objects per document, in JSON or JSON lines (module docstring, **Records**):
    a record ``{"id": ..., "entities": [...]}`` (the list in ``entities``, ``extractions``, ``spans`` or ``output``,
    the first present), a bare list (documents by position), or an entry of a ``.json`` object ``{doc_id: [...]}``.
    An extraction's label is its ``label``, ``type``, ``entity_type`` or ``category``, its text its ``text``,
    ``span``, ``entity`` or ``mention`` (the first present); integer ``start``/``end`` are offsets it claims; other
    fields go to ``attrs``. A list may be an object ``{label: [texts]}``, as models often answer. A model's output
    kept as text (``response``, or a string in a list field) is read as JSON, in a ```json fence or not;
    ``invalid_output="empty"`` reads one that is no JSON as no extraction (left out, told), ``"refuse"`` refuses it.
    """
    if invalid_output not in ("refuse", "empty"):
        raise ConfigError(f"invalid_output must be 'refuse' or 'empty', got {invalid_output!r}")
    source = str(path)
    out = ReadExtractions(source=source, format="llm-json")
    ids = DocIds(source)
    for entry in entries(path, encoding, is_record=_json_record):
        doc, loc, src = ids.take(entry)
        items, name = _extraction_list(entry.value, loc)
        if isinstance(items, str):
            try:
                items = model_json(items, loc, name)
            except InputError:
                if invalid_output == "refuse":
                    raise
                out.documents[doc] = []
                out.left_out.append(Extraction(doc, "", items, 0, f"{loc}, {name} (no JSON)"))
                continue
            inner, value = first_field(items, LIST_FIELDS) if isinstance(items, dict) else (None, None)
            items, name = (value, f"{name}.{inner}") if inner is not None else (items, name)
        out.documents[doc] = _extractions(items, doc, loc, name, src)
    if not ids.seen:
        raise nothing_to_compare(source)
    note_left_out(source, out.left_out, "model outputs that are no JSON, read as documents without extractions",
                  "fix the outputs, or use invalid_output='refuse' to stop at the first")
    return out


def _extraction_list(value: Any, loc: str) -> tuple[Any, str]:
    """A record's list of extractions (or the model's output text holding it), and the field it is in."""
    if isinstance(value, list | str):
        return value, "the list" if isinstance(value, list) else "the value"
    if not isinstance(value, dict):
        raise InputError(f"{loc}: expected a record {{\"id\", \"entities\": [...]}} or a list of {{\"label\", "
                         f"\"text\"}} objects, got {excerpt(value, 60)}")
    name, items = first_field(value, LIST_FIELDS)
    if name is None and value.get("response") is not None:
        name, items = "response", value["response"]
    if name is None:
        fields = ", ".join(f'"{n}"' for n in (*LIST_FIELDS, "response"))
        raise InputError(f"{loc}: the record has none of the fields {fields}; put the extractions in one of them")
    return items, f'"{name}"'


def _extractions(items: Any, doc: str, loc: str, name: str, src: str) -> list[Extraction]:
    if isinstance(items, dict):  # {label: [texts]}
        found = [({"label": k, "text": t}, f"[{k!r}]") for k, ts in items.items()
                 for t in (ts if isinstance(ts, list) else [ts])]
    elif isinstance(items, list):
        found = [(item, f"[{i}]") for i, item in enumerate(items)]
    else:
        raise InputError(f"{loc}: {name} must be a list of {{\"label\", \"text\"}} objects, got "
                         f"{excerpt(items, 60)}")
    out = []
    for i, (item, index) in enumerate(found):
        at = f"{loc}, {name}{index}"
        if not isinstance(item, dict):
            raise InputError(f"{at}: expected an object {{\"label\", \"text\"}}, got {excerpt(item, 60)}")
        lname, label = first_field(item, LABEL_FIELDS)
        tname, text = first_field(item, TEXT_FIELDS)
        if lname is None or tname is None:
            missing = "label" if lname is None else "text"
            names = LABEL_FIELDS if lname is None else TEXT_FIELDS
            raise InputError(f"{at}: the extraction has no {missing} (one of {', '.join(names)}); got "
                             f"{excerpt(item, 60)}")
        label = string(label, at, f'"{lname}"', empty=False).strip()
        text = string(text, at, f'"{tname}"')
        start, end = _claimed(item.get("start"), item.get("end"), at)
        attrs = {k: v for k, v in item.items() if k not in (lname, tname, "start", "end")}
        out.append(Extraction(doc, label, text, i, src, start, end, attrs))
    return out


def _claimed(start: Any, end: Any, at: str) -> tuple[int | None, int | None]:
    """Offsets an extraction claims: both whole numbers, 0 <= start <= end, or both missing."""
    if start is None and end is None:
        return None, None
    ok = all(isinstance(v, int) and not isinstance(v, bool) for v in (start, end))
    if not ok or start < 0 or start > end:
        raise InputError(f"{at}: claimed offsets start={excerpt(start, 20)}, end={excerpt(end, 20)}: give whole "
                         f"numbers 0 <= start <= end (characters, end exclusive), or neither")
    return start, end


# -- langextract -------------------------------------------------------------------------------------------------

#: langextract's ``AlignmentStatus`` values (``langextract/core/data.py``)
ALIGNMENT_STATUSES = ("match_exact", "match_greater", "match_lesser", "match_fuzzy")
_LX_ATTRS = ("alignment_status", "attributes", "extraction_index", "group_index", "description")


def read_langextract(path: str | os.PathLike, *, encoding: str = "utf-8") -> ReadExtractions:
    """langextract's annotated documents, one per line, as ``lx.io.save_annotated_documents`` writes them
    (``langextract/io.py``, ``data_lib.annotated_document_to_dict``: the dataclasses of ``langextract/core/data.py``
    as dicts, private fields left out)::

        {"extractions": [{"extraction_class": "character", "extraction_text": "ROMEO", "char_interval":
            {"start_pos": 0, "end_pos": 5}, "alignment_status": "match_exact", "extraction_index": 1, "group_index":
            0, "description": null, "attributes": {"emotional_state": "wonder"}}], "text": "ROMEO. But soft! ...",
         "document_id": "doc_8b1f2a3c"}

    ``extraction_class`` is the label, ``extraction_text`` the string; the ``char_interval`` langextract's
    resolver claims (``null``: it could not align the string) goes to ``start``/``end`` (``end_pos`` exclusive),
    to be checked by the grounding, never trusted; ``alignment_status``, ``attributes``, ``extraction_index``,
    ``group_index`` and ``description`` (where not null) to ``attrs``. The record's ``text`` is kept in
    :attr:`ReadExtractions.texts`. ``order`` is the position in the list, which langextract sorts by
    ``extraction_index`` within a chunk.
    """
    source = str(path)
    out = ReadExtractions(source=source, format="langextract")
    ids = DocIds(source)
    for entry in entries(path, encoding, is_record=lambda d: "extractions" in d):
        if not isinstance(entry.value, dict):
            raise InputError(f"{entry.loc}: expected a langextract annotated document (an object with "
                             f"\"document_id\", \"text\", \"extractions\"), got {excerpt(entry.value, 60)}")
        doc, loc, src = ids.take(entry)
        if entry.value.get("text") is not None:
            out.texts[doc] = string(entry.value["text"], loc, '"text"')
        items = entry.value.get("extractions") or []
        if not isinstance(items, list):
            raise InputError(f"{loc}: \"extractions\" must be a list, got {excerpt(items, 60)}")
        found = out.documents[doc] = []
        for i, item in enumerate(items):
            at = f"{loc}, extractions[{i}]"
            if not isinstance(item, dict):
                raise InputError(f"{at}: expected an extraction object, got {excerpt(item, 60)}")
            label = string(item.get("extraction_class"), at, '"extraction_class"', empty=False)
            text = string(item.get("extraction_text"), at, '"extraction_text"')
            interval = {} if item.get("char_interval") is None else item["char_interval"]
            if not isinstance(interval, dict):
                raise InputError(f"{at}: \"char_interval\" must be {{\"start_pos\", \"end_pos\"}} or null, got "
                                 f"{excerpt(interval, 40)}")
            start, end = _claimed(interval.get("start_pos"), interval.get("end_pos"), f"{at}, char_interval")
            status = item.get("alignment_status")
            if status is not None and status not in ALIGNMENT_STATUSES:
                raise InputError(f"{at}: \"alignment_status\" {excerpt(status, 30)} is none of langextract's "
                                 f"({', '.join(ALIGNMENT_STATUSES)}, or null)")
            attrs = {k: item[k] for k in _LX_ATTRS if item.get(k) is not None}
            found.append(Extraction(doc, label, text, i, src, start, end, attrs))
    if not ids.seen:
        raise nothing_to_compare(source)
    return out


# -- llm-relations -----------------------------------------------------------------------------------------------


def read_llm_relations(path: str | os.PathLike, *, encoding: str = "utf-8") -> ReadExtractions:
    """Relation triples given as strings, one record per document (module docstring, **Records**)::

        {"id": "d1", "relations": [{"head": "Ada Lovelace", "relation": "worked_with", "tail": "Charles Babbage",
                                    "head_type": "PER", "tail_type": "PER"}]}

    The list is in ``relations`` or ``triples`` (or the record is the bare list); a triple names its parts
    ``head``/``relation``/``tail``, ``subject``/``predicate``/``object`` or ``source``/``type``/``target``, with
    optional ``head_type``/``tail_type`` (also ``head_label``/``tail_label``), or is a list
    ``[head, relation, tail]``. Each part must be a string. The triples go to :attr:`Extractions.triples`.
    """
    source = str(path)
    out = ReadExtractions(source=source, format="llm-relations")
    ids = DocIds(source)
    for entry in entries(path, encoding, is_record=lambda d: any(k in d for k in (*RELATION_FIELDS, *ID_FIELDS))):
        doc, loc, src = ids.take(entry)
        value, name = entry.value, "the list"
        if isinstance(value, dict):
            name, value = first_field(value, RELATION_FIELDS)
            if name is None:
                raise InputError(f"{loc}: the record has neither \"relations\" nor \"triples\"; put its triples in "
                                 f"one of them")
            name = f'"{name}"'
        if not isinstance(value, list):
            raise InputError(f"{loc}: {name} must be a list of triples, got {excerpt(value, 60)}")
        out.triples[doc] = [_triple(item, doc, i, f"{loc}, {name}[{i}]", src) for i, item in enumerate(value)]
    if not ids.seen:
        raise nothing_to_compare(source)
    return out


def _triple(item: Any, doc: str, i: int, at: str, src: str) -> Triple:
    if isinstance(item, list) and len(item) == 3:
        head, relation, tail = (string(v, at, f"[{n}] ({part})") for n, (v, part) in
                                enumerate(zip(item, TRIPLE_NAMES[0], strict=True)))
        return Triple(doc, head, relation, tail, i, src)
    if not isinstance(item, dict):
        raise InputError(f"{at}: expected {{\"head\", \"relation\", \"tail\"}} or [head, relation, tail], got "
                         f"{excerpt(item, 60)}")
    names = next((n for n in TRIPLE_NAMES if all(k in item for k in n)), None)
    if names is None:
        raise InputError(f"{at}: a triple names its parts " + " or ".join("/".join(n) for n in TRIPLE_NAMES)
                         + f"; got the fields {', '.join(map(repr, item))}")
    head, relation, tail = (string(item[k], at, f'"{k}"') for k in names)
    found = [first_field(item, (f"{side}_type", f"{side}_label")) for side in ("head", "tail")]
    labels = [None if name is None else string(value, at, f'"{name}"') for name, value in found]
    return Triple(doc, head, relation, tail, i, src, *labels)


__all__ = [
    "ALIGNMENT_STATUSES", "DocIds", "Entry", "ID_FIELDS", "LABEL_FIELDS", "LIST_FIELDS", "RELATION_FIELDS",
    "ReadExtractions", "TEXT_FIELDS", "TRIPLE_NAMES", "entries", "first_field", "given_id", "looks_like_json",
    "model_json", "note_left_out", "nothing_to_compare", "read_langextract", "read_llm_json", "read_llm_relations",
    "string"
]
