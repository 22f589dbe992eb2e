"""Units of reading a corpus stream: shard files and chunks of one big file, and the ids a whole stream gives.

A corpus too big for memory is read unit by unit: a shard file (a folder or a
glob of them) or a chunk of documents of one JSONL or CoNLL file
(:mod:`spacy_anno_eval.io.chunks`). :class:`StreamIds` gives every document
the id that reading the whole stream would give it.
"""

from __future__ import annotations

import glob as globlib
import os
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Union

from ..errors import InputError

if TYPE_CHECKING:
    from .chunks import Chunk

#: a unit of reading: a shard file's path, or a chunk of documents of a file (never a path)
Unit = Union[str, "Chunk"]

#: file suffixes a folder of shards may hold
SHARD_SUFFIXES = (".spacy", ".jsonl", ".conll", ".iob", ".iob2", ".bio", ".bioes", ".txt")


def shard_paths(source: str | os.PathLike) -> list[Path]:
    """The shard files of ``source``: a file, a folder (its shard files, sorted) or a glob pattern (sorted)."""
    text = os.fspath(source)
    p = Path(text)
    if p.is_file():
        return [p]
    if p.is_dir():
        files = sorted(f for f in p.iterdir() if f.is_file() and f.suffix.lower() in SHARD_SUFFIXES)
        if not files:
            raise InputError(f"{p}: no shard files ({', '.join(SHARD_SUFFIXES)}) in this folder")
        return files
    if any(ch in text for ch in "*?["):
        files = sorted(Path(f) for f in globlib.glob(text) if Path(f).is_file())
        if not files:
            raise InputError(f"{text}: the pattern matches no file")
        return files
    raise InputError(f"{p}: no such file, folder or pattern")


def shard_units(source: str | os.PathLike, fmt: str = "auto", docs_per_chunk: int | None = None,
                sharded: bool = True, **options: Any) -> list[Unit]:
    """The units ``source`` is read in: its shard files (:func:`shard_paths`; with ``sharded=False`` the
    source itself, even a folder, is one unit), each JSONL or CoNLL file cut into chunks of
    ``docs_per_chunk`` documents when that is given (:mod:`spacy_anno_eval.io.chunks`; ``options``: the
    reader options and ``selectors``, which tell the plan what a CoNLL document is)."""
    files = shard_paths(source) if sharded else [Path(source)]
    if not docs_per_chunk:
        return [str(f) if len(files) == 1 else ShardPath(f) for f in files]
    from .chunks import CHUNKABLE, plan_chunks

    units: list[Unit] = []
    for f in files:
        if not f.is_file():
            units.append(str(f) if len(files) == 1 else ShardPath(f))
            continue
        chunks = plan_chunks(f, fmt, docs_per_chunk, **options)
        if chunks[0].fmt not in CHUNKABLE:
            units.append(str(f) if len(files) == 1 else ShardPath(f))
        else:
            units.extend(replace(c, part=True) if len(files) > 1 or len(chunks) > 1 else c for c in chunks)
    return units


class ShardPath(str):
    """The path of one shard file of several (a plain ``str`` is a whole corpus): :func:`read_unit` marks its
    corpus as a :attr:`~spacy_anno_eval.annotations.table.Corpus.part`."""

    __slots__ = ()


def _is_part(unit: Unit) -> bool:
    """Whether ``unit`` is one part of a corpus: a shard of several, or a chunk of a file cut in several."""
    return isinstance(unit, ShardPath) or bool(getattr(unit, "part", False))


def read_unit(unit: Unit, selectors: Sequence[str], fmt: str = "auto", features: Sequence[str] | None = None,
              reader_options: dict[str, Any] | None = None,
              allow_empty: bool = True) -> tuple[Any, list[str | None] | None]:
    """A unit (a shard file's path or a chunk) read into a :class:`~spacy_anno_eval.annotations.table.Corpus`,
    and the ids its file gives its documents (``None`` per document whose id is its position; ``None``
    when the reader does not say). ``allow_empty``: a unit without documents is no error. A shard of several, or a
    chunk of a file cut in several, gives a corpus marked as a
    :attr:`~spacy_anno_eval.annotations.table.Corpus.part` (its set, type and feature names are checked over
    the whole stream, not unit by unit)."""
    if isinstance(unit, str):
        from . import read_corpus

        corpus = read_corpus(unit, fmt, selectors=selectors, features=features, allow_empty=allow_empty,
                             **(reader_options or {}))
        found = corpus.given_ids
    else:
        from .chunks import read_chunk

        corpus, found = read_chunk(unit, selectors=selectors, features=features, **(reader_options or {}))
    corpus.part = _is_part(unit)
    return corpus, found


class StreamIds:
    """The document ids reading the whole stream gives, built unit by unit: the id a document's file gives
    it, else its position in the stream; the comment ids of a chunked CoNLL file only when the whole file
    has unique ones (:func:`spacy_anno_eval.io.chunks.global_doc_ids`), which :meth:`final` settles once
    every unit has been added."""

    def __init__(self) -> None:
        self.ids: list[str] = []
        self._conll: dict[str, tuple[int, list[str | None]]] = {}   # chunked CoNLL file: first doc, found ids

    def add(self, unit: Any, found: list[str | None] | None, doc_ids: Sequence[str]) -> list[str]:
        """The ids of the next unit's documents (``doc_ids`` as its reader named them; ``found`` as
        :func:`read_unit` gives it: ``None`` keeps ``doc_ids``)."""
        offset = len(self.ids)
        if found is None:
            ids = list(doc_ids)
        else:
            ids = [str(offset + k) if f is None else f for k, f in enumerate(found)]
            if getattr(unit, "fmt", None) == "conll" and not isinstance(unit, str):
                self._conll.setdefault(unit.path, (offset, []))[1].extend(found)
        self.ids.extend(ids)
        return ids

    def final(self) -> list[str]:
        """Every document's id, a chunked CoNLL file's comment ids replaced by positions where the whole file
        lacks or repeats one."""
        from .chunks import global_doc_ids

        ids = list(self.ids)
        for path, (first, found) in self._conll.items():
            if global_doc_ids([found], "conll", path) != found:
                ids[first:first + len(found)] = [str(first + k) for k in range(len(found))]
        return ids


__all__ = ["SHARD_SUFFIXES", "ShardPath", "StreamIds", "Unit", "read_unit", "shard_paths", "shard_units"]
