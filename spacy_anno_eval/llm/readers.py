"""The readers of what language models extract, as strings, and their registry.

Each reader is ``reader(path, **options) -> Extractions`` (:class:`~spacy_anno_eval.llm.extractions.Extractions`:
labelled strings and relation triples by document id, in file order). The key supplies the texts; documents
pair with it by id. Built in (how the format is told: the suffix ``.spacy``, else the first record's fields):

- ``llm-ner``: spacy-llm's NER and span-categorisation responses (``response`` per record, or a DocBin's
  ``llm_io``), parsed by spacy-llm's own rules (:func:`~spacy_anno_eval.llm.spacy_llm.read_llm_ner`);
- ``llm-json``: lists of ``{"label", "text"}`` objects per document (:func:`read_llm_json`);
- ``langextract``: langextract's saved annotated documents (:func:`read_langextract`);
- ``llm-relations``: relation triples given as strings (:func:`read_llm_relations`).

**Records.** A ``*.json`` file is one JSON value (a list of records, one record, or an object of document id ->
record or list); any other file is JSON lines, blank lines skipped; both read by the located loaders of
:mod:`spacy_anno_eval.io.parse` (a missing file, a folder, bytes that are not text, invalid JSON: named with the
line). A record's id is ``meta.id``, else ``id``, ``doc_id``, ``document_id`` (a string or a whole number); a
file whose records give none pairs by position (``"0"``, ``"1"``, ..., as the span readers do). Ids given to some
records only, an id given twice, an entry that is not a string: an :class:`~spacy_anno_eval.errors.InputError`
naming the file, the line (a JSON file: the document and entry) and the field; no record: "nothing to compare".
Nothing is dropped silently: what a reader reads but does not keep is on :attr:`ReadExtractions.left_out` and
told once per file (:class:`~spacy_anno_eval.errors.ReaderNoteWarning`).

**The registry** is shaped as :mod:`spacy_anno_eval.coref.readers`: :func:`read_extractions` reads a path in a
named format or the one it shows (:func:`detect_llm_format`); an unknown format or an option the reader does not
take is a :class:`~spacy_anno_eval.errors.ConfigError` listing what exists. Plugins: :func:`register_llm_reader`,
or the entry point group ``spacy_anno_eval_llm_readers`` (``name = module:target``, an :class:`LlmReader` or a
read function), loaded when named or when a format is detected; listing the formats loads nothing.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import Any

from ..errors import ConfigError
from ..io.parse import head_bytes, sniff_json
from ..io.plugins import PluginReader, ReaderRegistry
from .extractions import Extractions
from .records import (  # the records and three readers, re-exported: their home is records.py
    ALIGNMENT_STATUSES,
    ID_FIELDS,
    LABEL_FIELDS,
    LIST_FIELDS,
    RELATION_FIELDS,
    TEXT_FIELDS,
    TRIPLE_NAMES,
    DocIds,
    Entry,
    ReadExtractions,
    entries,
    given_id,
    looks_like_json,
    nothing_to_compare,
    read_langextract,
    read_llm_json,
    read_llm_relations,
)

GROUP = "spacy_anno_eval_llm_readers"
_M = "spacy_anno_eval.llm."
_HEAD = 1 << 16

# -- the registry ------------------------------------------------------------------------------------------------


class LlmReader(PluginReader):
    """A registered reader (module docstring; :class:`~spacy_anno_eval.io.plugins.PluginReader`):
    ``read``/``sniff``/``sample``, callables or ``"module:function"`` targets imported on first use; ``suffixes``
    the file names it claims (lower case); ``folders`` whether it reads a folder; ``sniff(path)`` whether a file's
    content is of its format; ``sample()`` a small file of it."""


def classify(path: Path) -> str | None:
    """The built-in format whose records ``path`` begins with (its first 64 KiB), or ``None``: a first record
    naming ``extraction_class`` is ``langextract``; ``relations``/``triples`` ``llm-relations``; a list of
    extractions or a ``response`` holding JSON ``llm-json``; a ``response``/``output`` of other text ``llm-ner``."""
    data = head_bytes(path, _HEAD)
    head, whole = data.decode("utf-8", errors="replace").removeprefix("\ufeff"), len(data) < _HEAD
    line = next((s for s in head.splitlines(keepends=True) if s.strip()), "")  # parsed only when whole
    value = sniff_json(line) if whole or line.endswith(("\n", "\r")) else None
    if value is None and whole:  # a JSON file (pretty-printed) that ends in the head
        value = sniff_json(head)
    if value is None:  # a record longer than the head: its field names tell (those of JSON in a string too)
        keys = set(re.findall(r'\\?"(\w+)\\?"\s*:', head))
        for name, fields in (("langextract", {"extraction_class"}), ("llm-relations", set(RELATION_FIELDS)),
                             ("llm-json", {*LABEL_FIELDS, *LIST_FIELDS}), ("llm-ner", {"response", "output"})):
            if keys & fields:
                return name
        return None
    return _kind(value)


def _kind(value: Any, depth: int = 0) -> str | None:
    if isinstance(value, list):
        first = next(iter(value), None)
        if isinstance(first, list) and len(first) == 3 and all(isinstance(v, str) for v in first):
            return "llm-relations"
        if isinstance(first, dict) and any(k in first for k in LABEL_FIELDS):
            return "llm-json"
        return _kind(first, depth + 1) if depth < 2 and isinstance(first, dict | list) else None
    if not isinstance(value, dict):
        return None
    items = value.get("extractions")
    first = items[0] if isinstance(items, list) and items else None
    if (isinstance(first, dict) and "extraction_class" in first) or ("document_id" in value and "extractions" in value):
        return "langextract"
    if any(k in value for k in RELATION_FIELDS):
        return "llm-relations"
    if any(isinstance(value.get(k), list | dict) for k in LIST_FIELDS):
        return "llm-json"
    text = value.get("response", value.get("output"))
    if isinstance(text, str | list):
        return "llm-json" if looks_like_json(text) else "llm-ner"
    if depth < 2 and value and not any(k in value for k in ("meta", *ID_FIELDS)):  # {doc_id: payload}
        return _kind(next(iter(value.values())), depth + 1)
    return None


def _is(name: str, path: Path) -> bool:
    return classify(path) == name


def _sample(name: str) -> bytes:
    return SAMPLES[name].encode("utf-8")


#: a small file of each built-in format (the same document ``d1``), for the contract suite and trying a reader
SAMPLES = {
    "llm-ner": '{"id": "d1", "response": "PER: Ada Lovelace, Charles Babbage\\nORG: ==NONE=="}\n{"id": "d2", '
               '"response": "1. London | True | LOC | is a city\\n2. wrote | False | ==NONE== | a verb"}\n',
    "llm-json": '{"id": "d1", "entities": [{"label": "PER", "text": "Ada Lovelace"}, '
                '{"type": "PER", "mention": "Charles Babbage"}]}\n'
                '{"id": "d2", "response": "```json\\n[{\\"label\\": \\"LOC\\", \\"text\\": \\"London\\"}]\\n```"}\n',
    "langextract": '{"extractions": [{"extraction_class": "PER", "extraction_text": "Ada Lovelace", '
                   '"char_interval": {"start_pos": 0, "end_pos": 12}, "alignment_status": "match_exact", '
                   '"extraction_index": 1, "group_index": 0, "description": null, "attributes": {"role": "author"}}, '
                   '{"extraction_class": "PER", "extraction_text": "Babbage", "char_interval": null, '
                   '"alignment_status": null, "extraction_index": 2, "group_index": 1, "description": null, '
                   '"attributes": null}], "text": "Ada Lovelace met Charles Babbage.", "document_id": "d1"}\n',
    "llm-relations": '{"id": "d1", "relations": [{"head": "Ada Lovelace", "relation": "met", '
                     '"tail": "Charles Babbage", "head_type": "PER", "tail_type": "PER"}]}\n'
                     '{"id": "d2", "triples": [["London", "capital_of", "England"]]}\n',
}

BUILTIN: tuple[LlmReader, ...] = tuple(
    LlmReader(name, read, (".spacy",) if name == "llm-ner" else (), name == "llm-ner", partial(_is, name),
              partial(_sample, name))
    for name, read in (("llm-ner", _M + "spacy_llm:read_llm_ner"), ("llm-json", read_llm_json),
                       ("langextract", read_langextract), ("llm-relations", read_llm_relations)))
#: the registry (:class:`~spacy_anno_eval.io.plugins.ReaderRegistry`): built-ins, plugins, entry points
REGISTRY = ReaderRegistry("extraction", GROUP, BUILTIN, LlmReader, " (a folder of .spacy files is read as llm-ner)")


def register_llm_reader(name: str, suffixes: Sequence[str] = (), *, folders: bool = False,
                        sniff: Callable[[Path], bool] | None = None,
                        sample: Callable[[], bytes] | None = None) -> Callable[[Callable[..., Any]], Any]:
    """Decorator: register a read function (``read(path, **options) -> Extractions``) as the reader ``name`` for
    the file ``suffixes`` (:class:`LlmReader` says what the rest are); a built-in reader of that name is replaced
    for this process (:func:`unregister_llm_reader` brings it back)."""
    return REGISTRY.register(name, suffixes, folders=folders, sniff=sniff, sample=sample)


def unregister_llm_reader(name: str) -> None:
    """Remove the plugin reader ``name`` (a built-in one it replaced comes back)."""
    REGISTRY.unregister(name)


def llm_formats() -> list[str]:
    """The names of every extraction reader: built in, registered and installed (no plugin is loaded)."""
    return REGISTRY.formats()


def get_llm_reader(name: str) -> PluginReader:
    """The reader ``name`` (a plugin's first); an unknown name is a ConfigError listing those that exist."""
    return REGISTRY.get(name)


def llm_readers() -> list[PluginReader]:
    """Every reader (plugins loaded; a built-in replaced by a plugin counts once, as the plugin)."""
    return REGISTRY.readers()


def llm_reader_options(name: str) -> tuple[str, ...] | None:
    """The options the reader ``name`` takes; ``None`` when it takes any."""
    return REGISTRY.options(name)


def detect_llm_format(path: str | os.PathLike) -> str:
    """The format of ``path``: a folder's by the files it holds (a folder reader's suffixes); a file's by its
    suffix (plugins first, then the longest), else by its content (each reader's sniff: a plugin's, then
    :func:`classify`). :class:`InputError` when none tells it."""
    return REGISTRY.detect(path)


def read_extractions(path: str | os.PathLike, fmt: str | None = None, **options: Any) -> Extractions:
    """The extractions of ``path`` in the format ``fmt`` (``None`` or ``"auto"``: :func:`detect_llm_format`),
    read with ``options`` (those the reader takes: :func:`llm_reader_options`).

    Raise :class:`ConfigError` for an unknown format or option, :class:`InputError` for a missing path, a file the
    reader refuses, or no document ("nothing to compare")."""
    reader, p = REGISTRY.reader_for(path, fmt, options)
    found = reader(p, **options)
    if not isinstance(found, Extractions):
        raise ConfigError(f"the {reader.name} reader returned a {type(found).__name__}, not Extractions; fix it")
    if not found.doc_ids:
        raise nothing_to_compare(str(p), f"no documents (read as {reader.name})")
    if not found.format:
        found.format = reader.name
    return found


__all__ = [
    "ALIGNMENT_STATUSES", "BUILTIN", "GROUP", "REGISTRY", "ID_FIELDS", "LABEL_FIELDS", "LIST_FIELDS",
    "RELATION_FIELDS", "SAMPLES", "TEXT_FIELDS", "TRIPLE_NAMES", "DocIds", "Entry", "LlmReader", "ReadExtractions",
    "classify", "detect_llm_format", "entries", "get_llm_reader", "given_id", "llm_formats", "llm_reader_options",
    "llm_readers", "read_extractions", "read_langextract", "read_llm_json", "read_llm_relations",
    "register_llm_reader", "unregister_llm_reader"
]
