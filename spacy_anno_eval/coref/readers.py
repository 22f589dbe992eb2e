"""The registry of coreference readers: every format a coreference key or response can be read from.

A coreference reader is ``reader(path, **options) -> list[CorefDocument]``
(:class:`~spacy_anno_eval.coref.conll2012.CorefDocument`: tokens and entities, mentions as token positions), a
family of its own beside the span readers of :mod:`spacy_anno_eval.io` (whose readers return a ``Corpus`` of
character spans). Built in (name: suffixes, then what the first line tells):

- ``conll2012``: CoNLL-2011/2012 (``*_conll``, ``.conll``; a first line ``#begin document``),
  :func:`~spacy_anno_eval.coref.conll2012.read_conll2012`;
- ``corefud``: CorefUD 1.0 CoNLL-U (``.conllu``; a first line ``# newdoc``, ``# global.Entity``, ``# sent_id``),
  :func:`~spacy_anno_eval.coref.corefud.read_corefud`;
- ``docbin``: spaCy DocBin with spacy-experimental's span groups (``.spacy``, or a folder of them; zlib bytes),
  :func:`~spacy_anno_eval.coref.spacy_docs.read_coref_docbin`;
- ``jsonl``: e2e-coref jsonlines or text with character offsets (``.jsonl``, ``.jsonlines``; a first line that
  is a JSON object naming ``clusters``, ``sentences`` or ``doc_key``),
  :func:`~spacy_anno_eval.coref.jsonl.read_coref_jsonl`.

:func:`read_coref` reads a path in a named format, or, without one, in the format its suffix names, else the one
its beginning shows (:func:`detect_coref_format`, on :func:`spacy_anno_eval.io.parse.head_bytes`: the few bytes a
sniffer needs, never an error). Names are checked (DESIGN.md, Contracts): an unknown format is a
:class:`~spacy_anno_eval.errors.ConfigError` listing those that exist; an option the reader does not take is one
naming those it takes (:func:`coref_reader_options`); a read that finds no document is an
:class:`~spacy_anno_eval.errors.InputError` ("nothing to compare"), whatever reader returned it.

A user plugs in a reader of their own with :func:`register_coref_reader`, or through the entry point group
``spacy_anno_eval_coref_readers`` (``name = package.module:target``: a :class:`CorefReader`, which gives its
suffixes and sniff, or a read function, used when its name is given)::

    from spacy_anno_eval.coref.readers import register_coref_reader

    @register_coref_reader("myformat", suffixes=(".myf",))
    def read_myformat(path, encoding="utf-8"):
        ...
        return [CorefDocument(name, tokens, entities)]

Nothing is imported before it is used: listing the formats imports no reader and loads no entry point (their
names are enough); an entry point is loaded when its reader is asked for, or when a format is detected (a
plugin's suffixes must be known). A plugin that cannot be loaded is then a ``ConfigError`` naming it and saying
what to do; importing this module never raises.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from ..errors import InputError
from ..io.parse import head_bytes
from ..io.plugins import PluginReader, ReaderRegistry

GROUP = "spacy_anno_eval_coref_readers"
_M = "spacy_anno_eval.coref."
_HEAD = 4096


class CorefReader(PluginReader):
    """A registered coreference reader (module docstring; :class:`~spacy_anno_eval.io.plugins.PluginReader`):
    ``read`` and ``sniff`` / ``sample`` are ``"module:function"`` targets, imported on first use, or callables;
    ``suffixes`` the file names it reads; ``folders`` whether it reads a folder too; ``sniff(path) -> bool``
    whether a file of another suffix is of this format (its beginning); ``sample() -> bytes`` a small file of the
    format, which the contract suite tries the reader on."""


# -- sniffs: a file's first bytes ------------------------------------------------------------------------------------


def _first_line(path: Path) -> str:
    """The first non-blank line of ``path``'s first bytes, decoded leniently (a byte-order mark dropped)."""
    text = head_bytes(path, _HEAD).decode("utf-8", errors="replace").removeprefix("\ufeff")
    return next((line.strip() for line in text.splitlines() if line.strip()), "")


def is_conll2012(path: Path) -> bool:
    """A first line ``#begin document``."""
    return _first_line(path).startswith("#begin document")


def is_corefud(path: Path) -> bool:
    """A first line of CoNLL-U's document or sentence comments."""
    return _first_line(path).startswith(("# newdoc", "# global.Entity", "# sent_id"))


def is_coref_jsonl(path: Path) -> bool:
    """A first line that opens a JSON object naming a coreference field."""
    line = _first_line(path)
    return line.startswith("{") and any(f'"{k}"' in line for k in ("clusters", "sentences", "doc_key"))


def is_docbin(path: Path) -> bool:
    """zlib's two-byte header (a DocBin is zlib-compressed msgpack)."""
    head = head_bytes(path, 2)
    return len(head) == 2 and head[0] == 0x78 and (head[0] * 256 + head[1]) % 31 == 0


BUILTIN: tuple[CorefReader, ...] = (
    CorefReader("conll2012", _M + "conll2012:read_conll2012",
                ("_conll", ".conll"),
                sniff=is_conll2012, sample=_M + "samples:conll2012"),
    CorefReader("corefud", _M + "corefud:read_corefud", (".conllu",), sniff=is_corefud,
                sample=_M + "samples:corefud"),
    CorefReader("docbin", _M + "spacy_docs:read_coref_docbin", (".spacy",), folders=True, sniff=is_docbin,
                sample=_M + "samples:docbin"),
    CorefReader("jsonl", _M + "jsonl:read_coref_jsonl", (".jsonl", ".jsonlines"), sniff=is_coref_jsonl,
                sample=_M + "samples:jsonl"),
)
#: the registry (:class:`~spacy_anno_eval.io.plugins.ReaderRegistry`): built-ins, plugins, entry points
REGISTRY = ReaderRegistry("coreference", GROUP, BUILTIN, CorefReader, ", or a folder of .spacy files")


def register_coref_reader(name: str, suffixes: Sequence[str] = (), *, folders: bool = False,
                          sniff: Callable[[Path], bool] | None = None,
                          sample: Callable[[], bytes] | None = None) -> Callable[[Callable[..., Any]],
                                                                                 Callable[..., Any]]:
    """Decorator: register a read function as the coreference reader ``name`` for the file ``suffixes``
    (:class:`CorefReader` says what ``folders``, ``sniff`` and ``sample`` are). A built-in reader of that name is
    replaced for this process (:func:`unregister_coref_reader` brings it back)."""
    return REGISTRY.register(name, suffixes, folders=folders, sniff=sniff, sample=sample)


def unregister_coref_reader(name: str) -> None:
    """Remove the plugin reader ``name`` (a built-in one it replaced comes back); nothing happens for no plugin."""
    REGISTRY.unregister(name)


def coref_formats() -> list[str]:
    """The names of every coreference reader: built in, registered and installed (no plugin is loaded)."""
    return REGISTRY.formats()


def get_coref_reader(name: str) -> PluginReader:
    """The reader registered as ``name`` (a plugin's first); an unknown name is a ConfigError listing those that
    exist, a plugin that cannot be loaded one naming it."""
    return REGISTRY.get(name)


def coref_readers() -> list[PluginReader]:
    """Every reader (plugins loaded; a built-in replaced by a plugin of its name counts once, as the plugin)."""
    return REGISTRY.readers()


def coref_reader_options(name: str) -> tuple[str, ...] | None:
    """The options the reader ``name`` takes; ``None`` when it takes any."""
    return REGISTRY.options(name)


def detect_coref_format(path: str | os.PathLike) -> str:
    """The format of ``path``: a folder's by the files it holds (a folder reader's suffixes); a file's by its
    suffix (plugins first, then the longest built-in suffix), else by its beginning (each reader's sniff).
    :class:`InputError` when none tells it."""
    return REGISTRY.detect(path)


def read_coref(path: str | os.PathLike, fmt: str | None = None, **options: Any) -> list[Any]:
    """The documents of a coreference file (or folder) in the format ``fmt`` (``None`` or ``"auto"``: told by
    :func:`detect_coref_format`), read with ``options`` (those the reader takes: :func:`coref_reader_options`).

    Raise :class:`~spacy_anno_eval.errors.ConfigError` for an unknown format or option, :class:`InputError` for a
    missing path, a file the reader refuses, or no document.
    """
    reader, p = REGISTRY.reader_for(path, fmt, options)
    docs = list(reader(p, **options))
    if not docs:
        raise InputError(f"{p}: nothing to compare: no documents (read as {reader.name})")
    return docs


__all__ = ["BUILTIN", "GROUP", "REGISTRY", "CorefReader", "coref_formats", "coref_reader_options", "coref_readers",
           "detect_coref_format", "get_coref_reader", "is_conll2012", "is_coref_jsonl", "is_corefud", "is_docbin",
           "read_coref", "register_coref_reader", "unregister_coref_reader"]
