"""Readers: turn files into a :class:`~spacy_anno_eval.annotations.table.Corpus`.

Built-in formats (name: suffixes):

- ``docbin``: spaCy DocBin (``.spacy``), read by :mod:`.docbin`;
- ``jsonl``: spaCy / Prodigy JSONL (``.jsonl``), read by :mod:`.jsonl`;
- ``conll``: token-per-line with BIO-style tags (``.conll``, ``.iob``, ``.iob2``,
  ``.bio``, ``.bioes``, ``.tsv``, ``.txt``), read by :mod:`.conll`;
- ``brat``: brat standoff (``.ann`` beside ``.txt``, or a folder of them), read by :mod:`.brat`.

Every reader has the signature ``reader(path, *, selectors, features, **options) -> Corpus``.
``selectors`` are the annotation sets the caller wants (``ents``, ``spans:NAME``,
or a format's own names); readers of single-layer formats (JSONL spans, CoNLL
tags, brat entities) put that one layer under every requested selector.

A user plugs in a reader for their own format, as ANNALIST's plugin engine
allows, with :func:`register_reader` or through the ``spacy_anno_eval_readers``
entry point group (``name = package.module:function``)::

    from spacy_anno_eval.io import register_reader

    @register_reader("myformat", suffixes=(".myf",))
    def read_myformat(path, *, selectors=("ents",), features=None, **options):
        ...
        return Corpus(doc_ids, texts, {sel: table for sel in selectors}, source=str(path))
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Sequence
from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import InputError

if TYPE_CHECKING:
    from ..annotations.table import Corpus

Reader = Callable[..., "Corpus"]

# name -> (module, function, suffixes); modules are imported on first use
_BUILTIN: dict[str, tuple[str, str, tuple[str, ...]]] = {
    "docbin": ("docbin", "read_docbin", (".spacy",)),
    "jsonl": ("jsonl", "read_jsonl", (".jsonl",)),
    "conll": ("conll", "read_conll", (".conll", ".iob", ".iob1", ".iob2", ".bio", ".bioes", ".bilou",
                                      ".tsv", ".txt", ".annotated")),
    "brat": ("brat", "read_brat", (".ann",)),
}
_PLUGINS: dict[str, tuple[Reader, tuple[str, ...]]] = {}
_ENTRY_POINTS_LOADED = False
_ENTRY_POINTS_LOCK = threading.Lock()


def register_reader(name: str, suffixes: Sequence[str] = ()) -> Callable[[Reader], Reader]:
    """Decorator: register ``reader`` for format ``name`` and file ``suffixes``."""

    def decorate(reader: Reader) -> Reader:
        _PLUGINS[name] = (reader, tuple(s.lower() for s in suffixes))
        return reader

    return decorate


def _load_entry_points() -> None:
    """Register the readers of the ``spacy_anno_eval_readers`` entry points, once (under a lock: the key and
    the response may be read in two threads)."""
    global _ENTRY_POINTS_LOADED
    with _ENTRY_POINTS_LOCK:
        if _ENTRY_POINTS_LOADED:
            return
        from importlib.metadata import entry_points

        for ep in entry_points(group="spacy_anno_eval_readers"):
            if ep.name not in _PLUGINS:
                _PLUGINS[ep.name] = (ep.load(), ())
        _ENTRY_POINTS_LOADED = True


def formats() -> list[str]:
    """Names of every available format."""
    _load_entry_points()
    return sorted(set(_BUILTIN) | set(_PLUGINS))


def get_reader(name: str) -> Reader:
    """The reader registered for format ``name``."""
    _load_entry_points()
    if name in _PLUGINS:
        return _PLUGINS[name][0]
    if name in _BUILTIN:
        module, func, _ = _BUILTIN[name]
        return getattr(import_module(f"{__name__}.{module}"), func)
    raise InputError(f"unknown format {name!r}: use auto or one of {', '.join(formats())}")


def detect_format(path: str | os.PathLike) -> str:
    """Guess a file's format from its suffix (a folder of ``.ann`` files is brat)."""
    _load_entry_points()
    p = Path(path)
    if p.is_dir():
        if any(p.glob("*.ann")):
            return "brat"
        if any(p.glob("*.spacy")):
            return "docbin"
        raise InputError(f"{p}: cannot tell the format of this folder (no .ann or .spacy files); "
                                 f"pass --format")
    suffix = p.suffix.lower()
    if suffix == ".txt" and p.with_suffix(".ann").exists():
        return "brat"
    for name, (_, found) in _PLUGINS.items():
        if suffix in found:
            return name
    for name, (_, _, found) in _BUILTIN.items():
        if suffix in found:
            return name
    raise InputError(f"{p}: cannot tell the format from the suffix {suffix!r}; pass --format "
                             f"({', '.join(formats())})")


def read_corpus(path: str | os.PathLike, format: str = "auto", *, selectors: Sequence[str] = ("ents",),
                features: Sequence[str] | None = None, allow_empty: bool = False, **options: Any) -> Corpus:
    """Read ``path`` into a :class:`Corpus` holding the annotation sets ``selectors``.

    ``format="auto"`` picks the reader by suffix (:func:`detect_format`);
    ``options`` go to the reader (for CoNLL: ``scheme``, ``strict``, ...).
    Raise :class:`InputError` for a missing file or, unless
    ``allow_empty`` (one shard of many may be empty), an empty corpus.
    """
    p = Path(path)
    if not p.exists():
        raise InputError(f"{p}: no such file or folder")
    name = detect_format(p) if format == "auto" else format
    corpus = get_reader(name)(p, selectors=tuple(selectors), features=features, **options)
    if not len(corpus) and not allow_empty:
        raise InputError(f"{p}: the corpus has no documents (read as {name})")
    return corpus


__all__ = ["detect_format", "formats", "get_reader", "read_corpus", "register_reader"]
