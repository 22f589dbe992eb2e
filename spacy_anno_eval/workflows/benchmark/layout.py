"""The benchmark folder: ``clean/``, ``marked/``, ``processed/`` (GATE user guide 10.4.1).

- ``clean/``: the documents without the annotations in question. Either
  ``.txt`` files (one document each, its id the file name without ``.txt``),
  DocBin files (``.spacy``: tokens kept, annotations dropped, ids from
  ``doc.user_data["doc_id"]``, else ``["id"]``, else the position:
  :func:`~spacy_anno_eval.annotations.docs.doc_id`) or one JSONL file of texts
  (``text`` and ``meta.id``; spans ignored).
- ``marked/``: the gold annotations, in any format the readers know: a folder
  of brat ``.ann`` files, DocBin files, or one JSONL / CoNLL file.
- ``processed/``: one folder per stored baseline (:mod:`.store`).

``clean/`` and ``marked/`` each hold one corpus: a ``marked/`` with two
(``gold.jsonl`` beside ``gold.spacy``) is refused, naming both files, and so
is a hidden file of texts or annotations (``.d1.txt``), which one side's
reader would take and the other's not (:func:`visible_files`).

The *corpus hash* identifies the texts, not their file names or order: the
SHA-256 of the sorted SHA-256 digests of the document texts. A baseline made
from ``clean/`` and the gold in ``marked/`` must have the same hash, or their
character offsets do not compare.
"""

from __future__ import annotations

import codecs
import hashlib
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...annotations.docs import doc_id
from ...errors import InputError
from ...files import json_text
from ...io.parse import decode, read_bytes

CLEAN, MARKED, PROCESSED = "clean", "marked", "processed"
TEXT_SUFFIXES = (".txt",)
#: the suffixes of annotated corpora the readers know (a .txt goes with a brat .ann, or is a text of clean/)
CORPUS_SUFFIXES = frozenset((".spacy", ".jsonl", ".json", ".ann", ".conll", ".conllu", ".iob", ".iob1", ".iob2",
                             ".bio", ".bioes", ".bilou", ".tsv", ".annotated"))


@dataclass(frozen=True)
class BenchmarkDir:
    """A benchmark folder and its three parts."""

    root: Path

    @classmethod
    def open(cls, path: str | os.PathLike, *, need: Iterable[str] = ()) -> BenchmarkDir:
        """The benchmark folder ``path``; raise when it or one of the parts in ``need`` is missing."""
        root = Path(path)
        if not root.is_dir():
            raise InputError(f"{root}: no such benchmark folder (it should hold clean/, marked/ and "
                                     f"processed/)")
        bench = cls(root)
        for part in need:
            if not (root / part).is_dir():
                raise InputError(f"{root / part}: missing; a benchmark folder holds clean/ (texts), "
                                         f"marked/ (gold) and processed/ (stored results)")
        return bench

    @property
    def clean(self) -> Path:
        return self.root / CLEAN

    @property
    def marked(self) -> Path:
        return self.root / MARKED

    @property
    def processed(self) -> Path:
        return self.root / PROCESSED

    def marked_source(self) -> tuple[Path, str]:
        """The gold corpus in ``marked/`` and its reader format (brat, docbin, or one file's)."""
        folder = self.marked
        if not folder.is_dir():
            raise InputError(f"{folder}: missing; put the gold annotations there")
        files = visible_files(folder)
        for kind, own in (("brat", (".ann", ".txt")), ("docbin", (".spacy",))):
            mine = [p for p in files if p.suffix.lower() == own[0]]
            other = [p for p in files if p.suffix.lower() in CORPUS_SUFFIXES and p.suffix.lower() not in own]
            if mine and other:
                raise InputError(f"{folder}: holds both {mine[0].name} and {other[0].name}, two gold corpora; "
                                 f"marked/ holds one: brat .ann files, DocBin .spacy files, or exactly one "
                                 f"JSONL/CoNLL file; move the other out")
            if mine:
                return folder, kind
        if len(files) == 1:
            return files[0], "auto"
        names = ", ".join(p.name for p in files[:5]) or "nothing"
        raise InputError(f"{folder}: cannot tell which gold corpus to read (found {names}); marked/ "
                                 f"holds brat .ann files, DocBin .spacy files, or exactly one JSONL/CoNLL file")


@dataclass
class CleanDocument:
    """One document of ``clean/``: its id, its text, and its words when a DocBin fixed them."""

    doc_id: str
    text: str
    words: list[str] | None = None
    spaces: list[bool] | None = None


def clean_documents(folder: str | os.PathLike, vocab: Any = None) -> list[CleanDocument]:
    """The documents of ``clean/`` (see the module docstring), in a stable order, as a list.

    ``folder`` may also be one such file (a ``.txt``, ``.spacy`` or ``.jsonl``).
    :class:`CleanCorpus` reads them lazily instead.
    """
    corpus = CleanCorpus(folder, vocab)
    corpus.scan()
    return list(corpus)


class CleanCorpus:
    """The documents of ``clean/``, read from disk each time they are iterated (never all in memory).

    Opening checks the folder holds one kind of input; :meth:`scan` reads the
    documents once to check that they exist and their ids are unique, and
    gives their number and the corpus hash (:func:`corpus_hash`), keeping
    only one digest per document.
    """

    def __init__(self, folder: str | os.PathLike, vocab: Any = None) -> None:
        self.folder = Path(folder)
        self.vocab = vocab
        self._kind, self._files = _clean_files(self.folder)
        self._scanned: tuple[int, str] | None = None

    def __iter__(self) -> Iterator[CleanDocument]:
        if self._kind == "docbin":
            yield from _docbin_documents(self._files, self.vocab)
        elif self._kind == "txt":
            yield from (CleanDocument(p.name[: -len(p.suffix)], _read_text(p)) for p in self._files)
        else:
            yield from _jsonl_documents(self._files[0])

    def scan(self) -> tuple[int, str]:
        """(number of documents, corpus hash), read once; raise for no documents or a repeated id."""
        if self._scanned is None:
            seen: set[str] = set()
            digests = []
            for d in self:
                if d.doc_id in seen:
                    raise InputError(f"{self.folder}: document id {d.doc_id!r} occurs twice; ids must be "
                                             f"unique")
                seen.add(d.doc_id)
                digests.append(_digest(d.text))
            if not digests:
                raise InputError(f"{self.folder}: no documents")
            self._scanned = (len(digests), _hash_of_digests(digests))
        return self._scanned

    def __len__(self) -> int:
        return self.scan()[0]


def _clean_files(folder: Path) -> tuple[str, list[Path]]:
    """The kind of input of ``clean/`` (docbin, txt or jsonl) and its files; raise for a mixed folder."""
    if folder.is_file():
        files = [folder]
    elif folder.is_dir():
        files = visible_files(folder)
    else:
        raise InputError(f"{folder}: missing; put the texts to annotate there")
    docbins = [p for p in files if p.suffix == ".spacy"]
    texts = [p for p in files if p.suffix in TEXT_SUFFIXES]
    jsonl = [p for p in files if p.suffix == ".jsonl"]
    kinds = [k for k, found in (("DocBin", docbins), (".txt", texts), ("JSONL", jsonl)) if found]
    if len(kinds) != 1:
        what = " and ".join(kinds) if kinds else "no .txt, .spacy or .jsonl file"
        raise InputError(f"{folder}: found {what}; clean/ holds one kind of input: .txt files, "
                                 f"DocBin files or one JSONL file")
    if jsonl and len(jsonl) > 1:
        raise InputError(f"{folder}: {len(jsonl)} JSONL files; put the texts in one")
    return ("docbin", docbins) if docbins else ("txt", texts) if texts else ("jsonl", jsonl)


def visible_files(folder: Path) -> list[Path]:
    """The files of ``folder`` (sorted) that clean/ and marked/ read. A hidden file holding texts or
    annotations by its suffix (``.d1.txt``, macOS's ``._d1.txt``) is refused, naming it: the readers of
    marked/ would take it and clean/ would not, and the texts would then differ. Other hidden files
    (``.DS_Store``, ``.gitkeep``) are left out."""
    files = []
    for p in sorted(folder.iterdir()):
        if not p.is_file():
            continue
        if p.name.startswith("."):
            if p.suffix.lower() in CORPUS_SUFFIXES or p.suffix.lower() in TEXT_SUFFIXES:
                raise InputError(f"{p}: a hidden file of texts or annotations; the benchmark reads no hidden "
                                 f"file: rename it without the leading dot, or move it out of {folder.name}/")
            continue
        files.append(p)
    return files


def _read_text(path: Path) -> str:
    """The text of a ``.txt`` file of clean/, read by :mod:`spacy_anno_eval.io.parse` (UTF-8; a file that cannot
    be read, or is not UTF-8, is an :class:`InputError` naming it, and the line and byte). As ``Path.read_text``
    gave it, since the corpus hash of stored baselines is made from it: CRLF and CR line ends read as ``"\\n"``,
    and a leading byte-order mark kept as a character (:func:`~spacy_anno_eval.io.parse.decode` drops it)."""
    data = read_bytes(path)
    text = decode(data, path, fix="save it as UTF-8 (the texts of clean/ are read as UTF-8)")
    if data.startswith(codecs.BOM_UTF8):
        text = "\ufeff" + text
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _docbin_documents(files: list[Path], vocab: Any) -> Iterator[CleanDocument]:
    from spacy.tokens import DocBin
    from spacy.vocab import Vocab

    vocab = vocab if vocab is not None else Vocab()
    position = 0
    for f in files:
        try:
            docs = DocBin().from_bytes(read_bytes(f)).get_docs(vocab)  # as from_disk reads it, located
            for doc in docs:
                yield CleanDocument(doc_id(doc, position), doc.text, [t.text for t in doc],
                                    [bool(t.whitespace_) for t in doc])
                position += 1
        except (ValueError, KeyError, OSError) as err:
            raise InputError(f"{f}: not a readable DocBin ({err})") from err


def _jsonl_documents(path: Path) -> Iterator[CleanDocument]:
    from ...io.jsonl import json_lines

    for position, (line_no, record) in enumerate(json_lines(path)):
        if not isinstance(record, dict) or not isinstance(record.get("text"), str):
            raise InputError(f"{path}, line {line_no}: a JSON object with a string 'text' is needed")
        meta = record.get("meta") if isinstance(record.get("meta"), dict) else {}
        doc_id = meta.get("id", record.get("id", position))
        yield CleanDocument(str(doc_id), record["text"])


def corpus_hash(texts: Iterable[str]) -> str:
    """SHA-256 over the sorted SHA-256 digests of ``texts`` (order and names do not matter)."""
    return _hash_of_digests([_digest(t) for t in texts])


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _hash_of_digests(digests: list[str]) -> str:
    return hashlib.sha256(json_text(sorted(digests)).encode("ascii")).hexdigest()
