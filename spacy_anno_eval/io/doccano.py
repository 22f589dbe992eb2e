"""doccano JSONL exports: the ≤ 1.2 multi-user file and the ≥ 1.3 per-user files.

Format (doccano ``backend/data_export/pipeline/examples/<task>/example.jsonl``; the old multi-user layout in
doccano-transformer's ``tests/data`` and README): one JSON object per line (blank lines skipped), the text
under ``text`` (``data`` in some 1.x exports). Three layouts of its spans are read:

- **doccano ≤ 1.2, several users in one file**::

      {"id": 2578, "text": "...", "annotations": [{"label": 12, "start_offset": 9, "end_offset": 14,
                                                     "user": 1}]}

  Each ``user`` is one set, ``user<ID>`` (``user1``, ``user2``, ...). ``label`` is doccano's numeric label id;
  the export does not hold the id -> name table, so ids stay labels (``"12"``) unless ``labels`` names them:
  the path of the label JSON doccano exports from the project's label page (a list of ``{"id": 12, "text":
  "LOC", ...}``), or a mapping ``{12: "LOC"}``. An id the table lacks stays a number and a note counts them.
  An annotation without ``user`` belongs to the file's set (below). A document covers a user only where the
  user has an annotation in it: the format cannot tell a document a user saw and left empty from one the
  user never opened, so both count as not annotated by that user (``--missing-as-empty`` reads them as
  empty).
- **doccano ≥ 1.3, sequence labeling**: ``"label": [[start, end, "LABEL"], ...]`` (``labels`` alike).
- **doccano ≥ 1.3, relation extraction**: ``"entities": [{"id", "start_offset", "end_offset", "label"}]``
  with ``"relations"``; relations are left out with a note.
- **Document classification** (doccano's text classification projects): ``"label": ["positive", ...]`` (≥ 1.3,
  the export example ``{"text": "Terrible customer service.", "label": ["negative"]}``; several labels in a
  multi-label project), and in the ≤ 1.2 file an annotation without offsets, ``{"label": 17, "user": 1}``
  (the numeric id named by ``labels`` as above). Each label is a document category of the set
  (:attr:`Corpus.cats <spacy_anno_eval.annotations.table.Corpus.cats>`: ``{"negative": 1.0}``), not a span;
  a line of a per-user file with ``"label": []`` is a document the user covers with no category. doccano's
  sequence-to-sequence export has the same layout (``"label": ["こんにちは！"]``): its texts read as categories.

In the ≥ 1.3 layouts one file is one user's (doccano exports ``<username>.jsonl`` per user, or one merged
file): the file is one set named after its stem (``alice.jsonl`` -> ``alice``), and every line covers its
document for that set, even with no span. A folder of ``.jsonl`` files (read in sorted order) gives one set
per file, and its documents are merged by id: the line's ``id``, else its position among the file's
records (``"0"``, ``"1"``, ... as the JSONL and DocBin readers count, so documents pair by order with other
files), and the builder checks that the users' copies of a document have the same text (merging by text
would conflate repeated sentences).

Offsets are Python code points, end exclusive (the backend is Python); offsets beyond the text raise a
located :class:`InputError`, as do invalid JSON and every wrong structure. ``features`` and
``label_feature`` are taken for the shared contract; doccano spans carry no features.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ..annotations.table import Corpus
from ..errors import ConfigError, InputError, where
from .multiset import MultiSetBuilder, export_files
from .parse import excerpt, json_file, json_lines


def declared_inputs(path: Path, *, labels: Any = None, **options: Any) -> list[Path]:
    """Every file :func:`read_doccano` opens: the export (a file or folder) and the label table ``labels`` when it
    is a path (:mod:`spacy_anno_eval.io.registry`)."""
    return [path] + ([Path(labels)] if isinstance(labels, str | os.PathLike) else [])


def read_doccano(path: str | os.PathLike, *, selectors: Sequence[str] = ("ents",),
                 features: Sequence[str] | None = None, label_feature: str | None = None,
                 labels: str | os.PathLike | Mapping[Any, str] | None = None, **options: Any) -> Corpus:
    """Read a doccano JSONL export (a file or a folder of ``.jsonl`` files) into a :class:`Corpus` with one set
    per user (see the module docstring). ``labels``: doccano's label JSON (a path) or a mapping naming the
    numeric label ids of a ≤ 1.2 export."""
    p = Path(path)
    names = _label_names(labels)
    files = export_files(p, (".jsonl",), recursive=False, hint=" (a doccano export is a .jsonl file)")
    builder = MultiSetBuilder(str(p), features=features, label_feature=label_feature)
    reader = _Reader(builder, names)
    for f in files:
        reader.read_file(f)
    reader.notes()
    return builder.build(selectors)


def _label_names(labels: Any) -> dict[str, str] | None:
    """The label id -> name table of ``labels`` (a path of doccano's label JSON, or a mapping)."""
    if labels is None:
        return None
    if isinstance(labels, Mapping):
        table = {str(k): v for k, v in labels.items()}
        bad = [v for v in table.values() if not isinstance(v, str) or not v]
        if bad:
            raise ConfigError(f"labels: every label id must map to a non-empty name, got {bad[0]!r}")
        return table
    if not isinstance(labels, (str, os.PathLike)):
        raise ConfigError(f"labels must be the path of doccano's label JSON or a mapping of label ids to names, got "
                          f"{type(labels).__name__}")
    p = Path(labels)
    value = json_file(p, expected="the label table is the JSON list doccano exports from the project's labels")
    if isinstance(value, dict) and all(isinstance(v, str) for v in value.values()):
        return {str(k): v for k, v in value.items()}
    if not isinstance(value, list):
        raise InputError(f"{p}: the label table must be a list of {{\"id\", \"text\"}} objects, got "
                         f"{type(value).__name__}")
    table = {}
    for i, item in enumerate(value):
        name = item.get("text", item.get("name")) if isinstance(item, dict) else None
        if not isinstance(item, dict) or item.get("id") is None or not isinstance(name, str) or not name:
            raise InputError(f"{p}, item [{i}]: a label needs an \"id\" and a \"text\", got {excerpt(item)}")
        table[str(item["id"])] = name
    return table


def _int(value: Any, what: str, loc: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise InputError(f"{loc}: {what} must be an integer character offset, got {value!r}")
    return value


class _Reader:
    """Reads lines into one builder, counting what is left out."""

    def __init__(self, builder: MultiSetBuilder, names: dict[str, str] | None) -> None:
        self.b = builder
        self.names = names
        self.relations = 0
        self.unnamed: set[str] = set()

    def read_file(self, p: Path) -> None:
        file_set = p.stem or "default"
        source = str(p)
        position = 0
        for line_no, record in json_lines(p):
            if not isinstance(record, dict):
                raise InputError(f"{where(source, line=line_no)}: expected a JSON object with \"text\", got "
                                 f"{type(record).__name__}")
            doc_id = str(record["id"]) if record.get("id") is not None else str(position)
            position += 1
            text = record.get("text")
            if text is None and isinstance(record.get("data"), str):
                text = record["data"]
            if not isinstance(text, str):
                got = "no \"text\"" if text is None else f"a \"text\" of type {type(text).__name__}"
                raise InputError(f"{where(source, doc_id, line_no)}: the line has {got}; every line needs the "
                                 f"document text as a string")
            d = self.b.document(doc_id, text, source)
            self.read_record(record, d, doc_id, text, file_set, source, line_no)

    def read_record(self, record: dict[str, Any], d: int, doc_id: str, text: str, file_set: str, source: str,
                    line_no: int) -> None:
        loc = where(source, doc_id, line_no)
        anns = record.get("annotations")
        if anns is not None:  # doccano <= 1.2
            if not isinstance(anns, list):
                raise InputError(f"{loc}: \"annotations\" must be a list, got {type(anns).__name__}")
            for i, a in enumerate(anns):
                where_i = f"{loc}, annotations[{i}]"
                if not isinstance(a, dict):
                    raise InputError(f"{where_i}: expected {{\"label\", \"start_offset\", \"end_offset\", \"user\"}}, "
                                     f"got {excerpt(a)}")
                user = a.get("user")
                if isinstance(user, bool) or not (user is None or isinstance(user, (int, str))):
                    raise InputError(f"{where_i}: \"user\" must be a user id, got {user!r}")
                if user is None:
                    name = file_set
                    self.b.cover(name, d)
                else:
                    name = f"user{user}" if isinstance(user, int) or user.isdigit() else user
                if "start_offset" not in a and "end_offset" not in a:  # text classification: a document label
                    self.b.categorise(name, d, self.label(a.get("label"), where_i, ids=True), loc=where_i)
                    continue
                self.span(name, d, text, a.get("start_offset"), a.get("end_offset"), a.get("label"), where_i,
                          ids=True)
            return
        self.b.cover(file_set, d)  # a line of a per-user file covers its document, even with no span
        for key in ("label", "labels"):
            items = record.get(key)
            if items is None:
                continue
            if not isinstance(items, list):
                raise InputError(f"{loc}: \"{key}\" must be a list of [start, end, label], got "
                                 f"{type(items).__name__}")
            for i, item in enumerate(items):
                where_i = f"{loc}, {key}[{i}]"
                if isinstance(item, str):  # text classification: a document label
                    self.b.categorise(file_set, d, self.label(item, where_i), loc=where_i)
                    continue
                if not isinstance(item, list) or len(item) != 3:
                    raise InputError(f"{where_i}: expected [start, end, label], got {excerpt(item)}")
                self.span(file_set, d, text, item[0], item[1], item[2], where_i)
        entities = record.get("entities")
        if entities is not None:
            if not isinstance(entities, list):
                raise InputError(f"{loc}: \"entities\" must be a list, got {type(entities).__name__}")
            for i, e in enumerate(entities):
                where_i = f"{loc}, entities[{i}]"
                if not isinstance(e, dict):
                    raise InputError(f"{where_i}: expected {{\"start_offset\", \"end_offset\", \"label\"}}, got "
                                     f"{excerpt(e)}")
                self.span(file_set, d, text, e.get("start_offset"), e.get("end_offset"), e.get("label"), where_i)
        relations = record.get("relations")
        if isinstance(relations, list):
            self.relations += len(relations)

    def span(self, name: str, d: int, text: str, start: Any, end: Any, label: Any, loc: str,
             ids: bool = False) -> None:
        """Add one span; ``ids``: the label is doccano's label id (the <= 1.2 layout), named by the table."""
        start, end = _int(start, "the start offset", loc), _int(end, "the end offset", loc)
        if not 0 <= start <= end <= len(text):
            raise InputError(f"{loc}: span [{start}, {end}) out of range for a text of {len(text)} characters "
                             f"(code points, end exclusive); check the file")
        self.b.add(name, d, start, end, self.label(label, loc, ids, what="a span"))

    def label(self, label: Any, loc: str, ids: bool = False, what: str = "a document category") -> str:
        """A span's or document's label as a name; ``ids``: doccano's label id (the <= 1.2 layout), named by the
        table. Raise :class:`InputError` for a label that is neither a name nor an id."""
        if isinstance(label, int) and not isinstance(label, bool):
            label = str(label)
        if ids and isinstance(label, str):
            if self.names is not None:
                if label in self.names:
                    label = self.names[label]
                else:
                    self.unnamed.add(label)
        if not isinstance(label, str) or not label:
            raise InputError(f"{loc}: {what} needs a label (a name or doccano's label id), got {label!r}")
        return label

    def notes(self) -> None:
        if self.relations:
            self.b.note(f"{self.relations} relation(s) left out (only the entity spans are read)")
        if self.unnamed:
            self.b.note(f"label id(s) {', '.join(sorted(self.unnamed, key=lambda s: (len(s), s)))} are not in the "
                        f"label table and stay numbers")


__all__ = ["read_doccano"]
