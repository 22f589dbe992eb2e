"""Read one big JSONL or CoNLL file lazily, in chunks of whole documents.

A corpus larger than memory is scored chunk by chunk: :func:`plan_chunks`
makes one pass over the file's bytes (read in blocks, never whole) and cuts
it into :class:`Chunk` descriptions (path, byte range, first line number;
small and picklable, for Dask workers); :func:`read_chunk` reads one byte
range with the very reader code of the whole file; :func:`global_doc_ids`
gives the document ids of the whole file. The chunks' documents put back
together are exactly the corpus of :func:`~spacy_anno_eval.io.jsonl.read_jsonl`
/ :func:`~spacy_anno_eval.io.conll.read_conll` (texts, spans, ids, and errors
with the file's own line numbers). The rules come from those readers'
docstrings:

- Chunks start at document boundaries. JSONL: a document is a line, so a
  chunk starts every ``docs_per_chunk`` non-blank lines (a Prodigy
  ``reject`` / ``ignore`` line counts here, though the reader leaves it out).
  CoNLL: when the file has a ``-DOCSTART-`` line (recognised by the parser's
  own rule, :func:`~spacy_anno_eval.io.conll.is_docstart`), documents are
  ``-DOCSTART-`` segments and a chunk starts right before a ``-DOCSTART-``
  line, never the first one (the sentences before it are a document of their
  own, read with the segment after); otherwise documents are sentences and a
  chunk starts at the first line after a run of blank lines, so that the
  ``# sent_id`` comments stay with the sentence they precede. A place is used
  only where the parser's state is fresh: after a blank line (or a
  ``-DOCSTART-``) whose previous non-blank line is a token line, never after
  a comment (its id would be lost) nor inside a sentence (a column-count
  error would be lost); and only when a token line follows, so no chunk is
  empty. Lines are judged by the parser's own rules (blank, comment, token).
  Since the pass cannot know in advance whether a ``-DOCSTART-`` will come,
  it collects both kinds of places and chooses at the end. The cuts are chosen greedily: the first usable place once the
  chunk holds ``docs_per_chunk`` documents, so a chunk may hold more.
- Document ids are decided globally: each chunk reports, per document, the
  id the file gives it (JSONL ``meta.id`` / ``id`` / ``_input_hash``, CoNLL
  ``# sent_id`` / ``# doc_id``) or ``None``; positions and the CoNLL
  all-or-nothing rule (every document has an id and they are unique, else
  all positional, with a warning) are applied to the whole file by
  :func:`global_doc_ids`. A chunk's own :class:`Corpus` has chunk-local ids
  (the same rules within the chunk, positions from 0), which pair a key chunk
  with a response chunk.
- Line ends and encodings as the readers see them: line numbers count
  ``"\\n"``, ``"\\r\\n"`` and a lone ``"\\r"`` (Python's universal newlines); a
  BOM is handled only at byte 0. Files are cut only after a ``b"\\n"``, which
  needs UTF-8 or a one-byte-per-character extension of ASCII (latin-1,
  cp1252, ...); in any other encoding, and for every other format (DocBin,
  brat, plugins), the plan is one chunk: the whole file.
"""

from __future__ import annotations

import codecs
import io
import numbers
import os
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import accumulate
from typing import Any

from ..annotations.docs import id_or_position
from ..annotations.table import Corpus
from ..errors import InputError
from . import check_options, detect_format, get_reader
from .conll import (
    DOCSTART,
    _is_comment,
    _selector_columns,
    _splitter,
    document_ids,
    is_docstart,
    read_conll,
    read_conll_text,
)
from .jsonl import read_jsonl, read_jsonl_lines
from .parse import open_binary

CHUNKABLE = ("jsonl", "conll")
_BLOCK = 1 << 20  # bytes read at a time while planning
# kinds of CoNLL lines, as the parser reads them: blank; a -DOCSTART- line; a "#" line that is a comment at a
# sentence head and a token inside a sentence; a comment anywhere (its token is -DOCSTART-); a token line
_BLANK, _DOCSTART, _HEAD_COMMENT, _COMMENT, _TOKEN = range(5)
_LONE_CR = re.compile(rb"\r(?!\n)")


@dataclass(frozen=True)
class Chunk:
    """One piece of a file: the lines in bytes ``[start, end)`` (``end=None``: to the end of the file).

    ``first_line`` is the 1-based line number of its first line in the file,
    ``index`` its number in the file (from 0), ``n_docs`` the documents the
    plan counted in it (for progress bars; ``None`` when unknown). ``fmt`` is
    the format name; a format that is not in :data:`CHUNKABLE` is read whole.
    """

    path: str
    fmt: str
    start: int
    end: int | None
    first_line: int
    index: int
    n_docs: int | None
    #: one part of a corpus read in several (set by :func:`~spacy_anno_eval.io.units.shard_units`): its corpus
    #: is a :attr:`~spacy_anno_eval.annotations.table.Corpus.part`
    part: bool = False


def plan_chunks(path: str | os.PathLike, fmt: str = "auto", docs_per_chunk: int = 10_000,
                **options: Any) -> list[Chunk]:
    """Cut ``path`` into chunks of about ``docs_per_chunk`` whole documents (see the module docstring).

    ``fmt="auto"`` picks the format by suffix
    (:func:`~spacy_anno_eval.io.detect_format`). ``options`` are the reader
    options that :func:`read_chunk` will get; the plan uses ``encoding`` and,
    for CoNLL, ``sep``, ``token_column``, ``column`` and ``selectors`` (which
    decide what a ``-DOCSTART-`` line or a blank line is), and ignores the
    others. Raise :class:`InputError` for ``docs_per_chunk < 1`` or
    an unreadable file.
    """
    if not isinstance(docs_per_chunk, numbers.Integral) or docs_per_chunk < 1:
        raise InputError(f"{path}: docs_per_chunk must be a positive integer, got {docs_per_chunk!r}")
    source = str(path)
    name = detect_format(source) if fmt == "auto" else fmt
    encoding = options.get("encoding", "utf-8")
    if not _chunkable(name) or not _cuts_after_newline(encoding):
        return [Chunk(source, name, 0, None, 1, 0, None)]
    if name == "jsonl":
        cuts = _plan_jsonl(source, int(docs_per_chunk))
    else:
        cuts = _plan_conll(source, int(docs_per_chunk), encoding, options)
    return cuts.chunks(source, name)


def read_chunk(chunk: Chunk, *, selectors: Sequence[str] = ("ents",), features: Sequence[str] | None = None,
               **options: Any) -> tuple[Corpus, list[str | None]]:
    """Read one chunk: its :class:`Corpus` (chunk-local ids) and the ids the file gives its documents.

    The second item holds, per document, the file's own id (JSONL ``meta.id``
    / ``id`` / ``_input_hash``; CoNLL the comment id) or ``None``; pass the
    lists of all chunks to :func:`global_doc_ids`. Only bytes
    ``[chunk.start, chunk.end)`` are read; ``options`` go to the reader as
    for the whole file, and errors name the file and its own line numbers.
    A format outside :data:`CHUNKABLE` is read whole by its reader. An option
    the reader does not take raises :class:`~spacy_anno_eval.errors.ConfigError`.
    """
    check_options(chunk.fmt, options, chunk.path)
    if not _chunkable(chunk.fmt):
        return _read_whole(chunk, tuple(selectors), features, options)
    encoding = options.get("encoding", "utf-8")
    if (chunk.start or chunk.end is not None) and not _cuts_after_newline(encoding):
        raise InputError(f"{chunk.path}: a file in {encoding} cannot be read in pieces; "
                                 f"plan the chunks with encoding={encoding!r} (one whole-file chunk)")
    data = _read_range(chunk)
    if chunk.fmt == "jsonl":
        with io.TextIOWrapper(io.BytesIO(data), encoding=_range_encoding(encoding, chunk.start)) as lines:
            return read_jsonl_lines(lines, chunk.path, first_line=chunk.first_line, selectors=selectors,
                                    features=features, **options)
    return read_conll_text(lambda: _conll_text(data, chunk, encoding), chunk.path, first_line=chunk.first_line,
                           selectors=selectors, features=features, **options)


def global_doc_ids(found: Sequence[list[str | None]], fmt: str, source: str = "") -> list[str]:
    """The whole file's document ids from each chunk's ``found`` list (in chunk order).

    As the whole-file readers give them: JSONL (and other formats) the found
    id, else the position among all the file's documents; CoNLL the found ids
    when every document has one and they are unique over the whole file,
    else positions for all, with :func:`~spacy_anno_eval.io.conll.read_conll`'s
    warning (naming ``source``) when some were found.
    """
    flat = [f for part in found for f in part]
    if fmt == "conll":
        return document_ids(flat, source, warn=True, stacklevel=3)
    return [id_or_position(f, i) for i, f in enumerate(flat)]  # the one doc-id rule's last step


# ---------------------------------------------------------------------------
# planning


class _Cuts:
    """Chunk starts chosen greedily: the first place offered once a chunk holds ``size`` documents."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.starts: list[tuple[int, int, int]] = [(0, 1, 0)]  # (byte offset, line number, documents before)
        self.total = 0

    def offer(self, offset: int, line_no: int, docs_before: int) -> None:
        """A place where a chunk may start, after ``docs_before`` documents."""
        if docs_before - self.starts[-1][2] >= self.size:
            self.starts.append((offset, line_no, docs_before))

    def chunks(self, path: str, fmt: str, last_line: int | None = None, total: int | None = None) -> list[Chunk]:
        """The chunks; starts after ``last_line`` (the last token line) are dropped.

        ``total``: the documents of the file, if not ``self.total``.
        """
        starts = [s for s in self.starts if last_line is None or s[1] <= last_line] or self.starts[:1]
        ends = [(s[0], s[2]) for s in starts[1:]] + [(None, self.total if total is None else total)]
        return [Chunk(path, fmt, offset, end, line_no, i, n_after - before)
                for i, ((offset, line_no, before), (end, n_after)) in enumerate(zip(starts, ends, strict=True))]


class _ConllCuts:
    """Both kinds of CoNLL chunk starts, collected in one pass over the file's lines."""

    def __init__(self, size: int) -> None:
        self.by_sentence = _Cuts(size)
        self.by_docstart = _Cuts(size)
        self.prev = self.prev_filled = _BLANK   # kind of the previous line / previous non-blank line
        self.in_sentence = False
        self.docstarts = 0
        self.segment_has_token = False           # a token line since the last -DOCSTART-
        self.last_token = 0                      # line number of the last token line

    def feed(self, kind: int, offset: int | None, line_no: int) -> None:
        """Take the next line; ``offset`` is ``None`` where the file cannot be cut (after a lone CR)."""
        if kind == _HEAD_COMMENT and self.in_sentence:
            kind = _TOKEN
        if kind == _BLANK:
            self.in_sentence = False
        else:
            if offset is not None and self.prev == _BLANK and self.prev_filled == _TOKEN:
                self.by_sentence.offer(offset, line_no, self.by_sentence.total)
            if kind == _TOKEN:
                self.by_sentence.total += not self.in_sentence
                self.in_sentence = self.segment_has_token = True
                self.last_token = line_no
            elif kind == _DOCSTART:
                self._docstart(offset, line_no)
            self.prev_filled = kind
        self.prev = kind

    def feed_tokens(self, offset: int, line_no: int, last_line: int) -> None:
        """Take a run of token lines, lines ``line_no`` to ``last_line``: only the first can change the state."""
        self.feed(_TOKEN, offset, line_no)
        self.last_token = last_line

    def _docstart(self, offset: int | None, line_no: int) -> None:
        docs = self.by_docstart
        docs.total += self.segment_has_token
        if offset is not None and self.docstarts and self.prev in (_BLANK, _DOCSTART):
            docs.offer(offset, line_no, docs.total)
        self.docstarts += 1
        self.segment_has_token = self.in_sentence = False

    def chunks(self, path: str, fmt: str) -> list[Chunk]:
        """-DOCSTART- segments when the file has a -DOCSTART- line, else sentences."""
        if self.docstarts:
            total = self.by_docstart.total + self.segment_has_token  # the last segment
            return self.by_docstart.chunks(path, fmt, self.last_token, total)
        return self.by_sentence.chunks(path, fmt, self.last_token)


def _plan_jsonl(path: str, size: int) -> _Cuts:
    """A chunk start every ``size`` non-blank lines, counted block by block."""
    cuts = _Cuts(size)
    for offset, line_no, data in _blocks(path):
        lines = data.split(b"\n")
        if data.endswith(b"\n"):
            lines.pop()
        stripped = list(map(bytes.strip, lines))
        filled = [i for i, line in enumerate(stripped) if line] if b"" in stripped else range(len(lines))
        first = cuts.total
        cuts.total += len(filled)
        wanted = cuts.starts[-1][2] + size
        if wanted < cuts.total:
            ends = list(accumulate(map(len, lines)))   # line i starts at ends[i - 1] + i
            lone_crs = _lone_crs(data, 0, len(data))
            for k in range(wanted, cuts.total, size):
                i = filled[k - first]
                at = ends[i - 1] + i if i else 0
                cuts.offer(offset + at, line_no + i + (lone_crs and _lone_crs(data, 0, at)), k)
    return cuts


def _plan_conll(path: str, size: int, encoding: str, options: dict[str, Any]) -> _ConllCuts:
    """Sentence and ``-DOCSTART-`` chunk starts (see the module docstring)."""
    lines = _ConllLines(path, encoding, options)
    cuts = _ConllCuts(size)
    for offset, line_no, data in _blocks(path):
        lines.feed(cuts, offset, line_no, data)
    return cuts


class _ConllLines:
    """The kind of each line as :func:`~spacy_anno_eval.io.conll._parse_lines` reads it.

    A line that starts with a printable ASCII byte other than ``#`` (and not
    part of ``sep``), without ``-DOCSTART-`` or a lone CR, is a token line:
    runs of them are taken at once. A blank line is told from its bytes. Any
    other line (``#``, ``-DOCSTART-``, a lone CR, another first byte, the
    file's first line with its BOM) is decoded and split as the parser does,
    and judged by the parser's own rules (``_is_comment``, ``is_docstart``).
    """

    def __init__(self, path: str, encoding: str, options: dict[str, Any]) -> None:
        self.encoding = encoding
        sep = options.get("sep")
        self.split = _splitter(sep)
        self.token_column = int(options.get("token_column", 0))
        selectors = tuple(options.get("selectors", ("ents",))) or ("ents",)
        self.columns = list(dict.fromkeys(_selector_columns(selectors, options.get("column", -1), path).values()))
        sep_bytes = set((sep or "").encode(encoding, "replace"))
        self.plain = frozenset(b for b in range(0x21, 0x7F) if b != 0x23 and b not in sep_bytes)
        self.other_start = re.compile(rb"\n(?=[^" + re.escape(bytes(sorted(self.plain))) + rb"])")

    def feed(self, cuts: _ConllCuts, offset: int, line_no: int, data: bytes) -> None:
        """Feed the lines of ``data`` (whole lines from byte ``offset``, line ``line_no``) to ``cuts``."""
        pos = 0
        for at in self._others(data, offset):
            if at > pos:
                line_no = self._run(cuts, data, offset, pos, at, line_no)
            end = data.find(b"\n", at)
            end = len(data) if end < 0 else end
            kinds = self.of(data[at:end], offset + at)
            for i, kind in enumerate(kinds):
                cuts.feed(kind, None if i else offset + at, line_no + i)
            line_no += len(kinds)
            pos = end + 1
        if pos < len(data):
            self._run(cuts, data, offset, pos, len(data), line_no)

    def _others(self, data: bytes, offset: int) -> list[int]:
        """Where the lines that are not plain token lines start in ``data``, in order."""
        starts = [m.end() for m in self.other_start.finditer(data)]
        if not offset or data[0] not in self.plain:
            starts.append(0)
        at = data.find(b"-DOCSTART-")
        while at >= 0:
            starts.append(data.rfind(b"\n", 0, at) + 1)
            at = data.find(b"-DOCSTART-", at + 1)
        if _lone_crs(data, 0, len(data)):
            starts.extend(data.rfind(b"\n", 0, m.start()) + 1 for m in _LONE_CR.finditer(data))
        return sorted(set(starts))

    @staticmethod
    def _run(cuts: _ConllCuts, data: bytes, offset: int, start: int, end: int, line_no: int) -> int:
        """Feed the plain token lines in ``data[start:end]``; the line number after them."""
        n = data.count(b"\n", start, end) + (not data.endswith(b"\n", start, end))
        cuts.feed_tokens(offset + start, line_no, line_no + n - 1)
        return line_no + n

    def of(self, line: bytes, offset: int) -> tuple[int, ...]:
        """Kinds of the lines in ``line`` (up to a ``b"\\n"``; more than one when it holds a lone CR)."""
        lone_cr = line.find(b"\r", 0, len(line) - 1) >= 0
        if not lone_cr and offset and b"-DOCSTART-" not in line:
            if not line.strip():
                return (_BLANK,)
            if line[0] in self.plain:
                return (_TOKEN,)
        text = line.decode(_range_encoding(self.encoding, offset), "replace")
        if not offset:
            text = text.removeprefix("\ufeff")
        return tuple(map(self._kind, text.removesuffix("\r").split("\r")))

    def _kind(self, text: str) -> int:
        fields = self.split(text)
        if not fields:
            return _BLANK
        if is_docstart(text, fields, self.columns, self.token_column):
            return _DOCSTART
        if not _is_comment(text, fields, self.columns, self.token_column):
            return _TOKEN
        n = len(fields)  # inside a sentence, a "#" line is a token unless its token is -DOCSTART-
        return _COMMENT if -n <= self.token_column < n and fields[self.token_column] == DOCSTART else _HEAD_COMMENT


def _blocks(path: str) -> Iterator[tuple[int, int, bytes]]:
    """(byte offset, line number, bytes) of the file's lines, a block of whole lines at a time.

    Line numbers count line ends as Python's text mode does (``"\\n"``,
    ``"\\r\\n"`` and a lone ``"\\r"``), so they are the readers' line numbers.
    """
    offset, line_no = 0, 1
    with open_binary(path) as handle:
        for data in _whole_lines(handle):
            yield offset, line_no, data
            offset += len(data)
            line_no += data.count(b"\n") + _lone_crs(data, 0, len(data))


def _whole_lines(handle: io.BufferedReader) -> Iterator[bytes]:
    """The file in pieces of about ``_BLOCK`` bytes that end after a ``b"\\n"`` (the last may not)."""
    pending: list[bytes] = []
    while block := handle.read(_BLOCK):
        cut = block.rfind(b"\n") + 1
        if not cut:
            pending.append(block)
            continue
        yield b"".join([*pending, block[:cut]]) if pending else block[:cut]
        pending = [block[cut:]]
    if tail := b"".join(pending):
        yield tail


def _lone_crs(data: bytes, start: int, end: int) -> int:
    """CRs not followed by LF in ``data[start:end]`` (which ends at a line start or the file's end)."""
    if data.find(b"\r", start, end) < 0:
        return 0
    return data.count(b"\r", start, end) - data.count(b"\r\n", start, end)


# ---------------------------------------------------------------------------
# reading


def _read_whole(chunk: Chunk, selectors: tuple[str, ...], features: Sequence[str] | None,
                options: dict[str, Any]) -> tuple[Corpus, list[str | None]]:
    """A whole-file chunk read by the format's own reader; its ids count as found."""
    if chunk.start or chunk.end is not None:
        raise InputError(f"{chunk.path}: the format {chunk.fmt!r} is read whole, but the chunk is "
                                 f"bytes [{chunk.start}, {chunk.end}); plan it with plan_chunks")
    corpus = get_reader(chunk.fmt)(chunk.path, selectors=selectors, features=features, **options)
    return corpus, list(corpus.doc_ids)


def _read_range(chunk: Chunk) -> bytes:
    """Bytes ``[chunk.start, chunk.end)`` of the file."""
    with open_binary(chunk.path) as handle:
        handle.seek(chunk.start)
        return handle.read() if chunk.end is None else handle.read(chunk.end - chunk.start)


def _conll_text(data: bytes, chunk: Chunk, encoding: str) -> str:
    """The chunk's text as :func:`~spacy_anno_eval.io.conll.read_conll` makes the file's (BOM at byte 0 only)."""
    try:
        text = data.decode(_range_encoding(encoding, chunk.start))
    except UnicodeDecodeError as err:
        from .encoding import undecodable

        raise undecodable(chunk.path, encoding, err=err) from None  # as reading the file whole says it
    if not chunk.start:
        text = text.removeprefix("\ufeff")
    return text.replace("\r\n", "\n").replace("\r", "\n")


# ---------------------------------------------------------------------------
# formats and encodings


def _chunkable(fmt: str) -> bool:
    """Whether ``fmt`` is read by the built-in JSONL or CoNLL reader (a plugin may replace them)."""
    return fmt in CHUNKABLE and get_reader(fmt) in (read_jsonl, read_conll)


@lru_cache(maxsize=32)
def _cuts_after_newline(encoding: str) -> bool:
    """Whether a file in ``encoding`` may be cut after any ``b"\\n"`` and read from there.

    True for UTF-8 (an ASCII byte is never part of another character) and for
    encodings of one byte per character that extend ASCII; false for UTF-16,
    stateful and multi-byte encodings, and unknown names.
    """
    try:
        name = codecs.lookup(encoding).name
    except LookupError:
        return False
    if name in ("utf-8", "utf-8-sig"):
        return True
    ascii_bytes = bytes(range(128))
    try:
        if ascii_bytes.decode(encoding) != ascii_bytes.decode("ascii"):
            return False
    except UnicodeDecodeError:
        return False
    decoder = codecs.getincrementaldecoder(encoding)(errors="replace")
    return all(decoder.decode(bytes([b])) for b in range(256))


def _range_encoding(encoding: str, start: int) -> str:
    """The codec for bytes from ``start``: a BOM is stripped only at byte 0 (``utf-8-sig`` -> ``utf-8``)."""
    if start and codecs.lookup(encoding).name == "utf-8-sig":
        return "utf-8"
    return encoding


__all__ = ["CHUNKABLE", "Chunk", "global_doc_ids", "plan_chunks", "read_chunk"]
