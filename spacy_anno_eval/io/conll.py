"""CoNLL-style token-per-line files with BIO-style tags (IOB1, IOB2, IOE, IOBES, BILOU).

File layout (as conlleval.pl reads it, CoNLL-2000/2003):

- one token per line, columns separated by whitespace (or ``sep``); the token
  is column ``token_column`` (default the first), the tags of the ``ents`` set
  are column ``column`` (default the last);
- a blank line ends a sentence;
- a line whose token is ``-DOCSTART-`` starts a new document. When the file
  has such lines, a document is everything between two of them; otherwise
  every sentence is a document;
- a line starting with ``#`` *before the first token of a sentence* is a
  comment (CoNLL-U style: ``# sent_id = s1``, ``# text = ...``) unless its tag
  column holds a well-formed tag (``O`` or ``B-X`` ...): then it is a token,
  as in WNUT-17's ``#<TAB>O`` lines. Inside a sentence a ``#`` line is always
  a token.

Document ids: for sentence documents, ``# sent_id = X`` (or ``# id = X``);
for ``-DOCSTART-`` documents, ``# doc_id = X`` (or ``# newdoc id = X``)
between the ``-DOCSTART-`` line and the document's first token. When some
document has no id, or ids repeat, every id is positional (``"0"``, ``"1"``...).

Text: the tokens of a sentence joined by one space, the sentences of a
document joined by ``"\\n"``; an entity's character offsets follow from that.
The corpus keeps its tokens (:attr:`Corpus.tokens`), so that a response that
re-spells some of the key's tokens, with the same sentences and token counts,
is paired with the key by position as conlleval does, with a warning
(:mod:`spacy_anno_eval.spans.by_position`).

Selectors: ``ents`` (and ``spans``, ``spans:<NAME>``) read the tags of
column ``column``; ``column:N`` reads column ``N`` (negative counts from the
end), so conlleval's ``token POS gold guess`` file gives the key as
``column:-2`` and the response as ``column:-1``. Any other name raises
:class:`~spacy_anno_eval.errors.ConfigError`.

Decoding (``scheme``, ``strict``): the tags of a column become spans by
:mod:`spacy_anno_eval.io.schemes`: by default conlleval.pl's chunk rules (as
seqeval's default mode; ``scheme`` only restricts which prefixes are
allowed), with ``strict=True`` (an explicit scheme needed) seqeval's strict
mode. The schemes (IOB1, IOB2, IOE, IOE1, IOE2, IOBES, BILOU, ``auto``) and
their aliases are listed there.
"""

from __future__ import annotations

import gc
import os
import re
import warnings
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, NamedTuple

import numpy as np

from ..annotations.table import INDEX, Corpus, SpanTable, Tokens, one_layer_selectors
from ..errors import InputError, where
from .parse import check_separator, read_text
from .schemes import (
    ALLOWED,
    FOLD,
    INVALID,
    PREFIX_CODES,
    O,
    decode_conlleval,
    decode_strict,
    normalise_scheme,
    prefix_of,
)

DOCSTART = "-DOCSTART-"

_ID_SENT = re.compile(r"^#\s*(?:sent_id|id)\s*[=:]?\s*(\S.*?)\s*$")
_ID_DOC = re.compile(r"^#\s*(?:doc_id|newdoc id|newdoc_id)\s*[=:]?\s*(\S.*?)\s*$")
_WELL_FORMED = re.compile(r"^(?:O|[BIESLU]-\S+)$")


# ---------------------------------------------------------------------------
# parsing


class _Column:
    """The tags of one requested column: a tag id per token, ids into ``names``."""

    def __init__(self, index: int, rows: list[list[str]]) -> None:
        self.index = index
        tags = [r[index] for r in rows]
        self.names: dict[str, int] = {t: i for i, t in enumerate(dict.fromkeys(tags))}
        self.ids = np.fromiter(map(self.names.__getitem__, tags), dtype=INDEX, count=len(tags))


class _Parsed:
    """Tokens of a file, flattened, with sentence and document boundaries."""

    def __init__(self) -> None:
        self.rows: list[list[str]] = []       # the fields of each token line
        self.lines: list[int] = []            # line number of each token
        self.sent_starts: list[int] = []      # first token of each sentence
        self.sent_ids: list[str | None] = []
        self.doc_starts: list[int] = []       # first sentence of each document (DOCSTART mode)
        self.doc_ids: list[str | None] = []
        self.has_docstart = False
        self.tokens: list[str] = []
        self.columns: dict[int, _Column] = {}

    def finish(self, columns: Sequence[int], token_column: int, source: str) -> None:
        """Pull the token and tag columns out of the rows (after the line loop)."""
        self.tokens = [r[token_column] for r in self.rows]
        if "" in self.tokens:
            i = self.tokens.index("")
            raise InputError(f"{where(source, line=self.lines[i])}: empty token")
        self.columns = {c: _Column(c, self.rows) for c in columns}
        self.rows = []


def _selector_columns(selectors: Sequence[str], column: int, source: str) -> dict[str, int]:
    """Tag column of each selector: ``column:N`` -> N; ``ents``, ``spans`` and ``spans:<NAME>`` -> ``column``;
    any other name raises :class:`~spacy_anno_eval.errors.ConfigError`."""
    out = {}
    for sel in one_layer_selectors(selectors, source, "conll", more=("column:",)):
        if sel.startswith("column:"):
            try:
                out[sel] = int(sel[len("column:"):])
            except ValueError:
                raise InputError(f"{source}: bad selector {sel!r}; use column:N with an integer N "
                                         f"(negative counts from the last column)") from None
        else:
            out[sel] = int(column)
    return out


def _splitter(sep: str | None) -> Callable[[str], list[str]]:
    """The function that splits a line into its fields; a blank line gives ``[]``.

    Without ``sep`` fields are separated by any whitespace (``str.split``);
    with it, each field is stripped and a line of only separators and
    whitespace is blank.
    """
    if not sep:
        return str.split

    def split(line: str) -> list[str]:
        fields = [f.strip() for f in line.split(sep)]
        return fields if any(fields) else []

    return split


def _is_comment(line: str, fields: list[str], columns: Sequence[int], token_column: int) -> bool:
    """Whether a line read at a sentence head is a comment (see the module docstring)."""
    return line.startswith("#") and not _looks_like_token(fields, columns, token_column)


def is_docstart(line: str, fields: list[str], columns: Sequence[int], token_column: int) -> bool:
    """Whether :func:`_parse_lines` reads ``line`` (split into ``fields``) as a ``-DOCSTART-`` line.

    Its token column holds ``-DOCSTART-`` and it is not a comment. (Inside a
    sentence such a line is a ``-DOCSTART-`` too when its column count is the
    sentence's, and an error otherwise.)
    """
    n = len(fields)
    return (n > 0 and -n <= token_column < n and fields[token_column] == DOCSTART
            and not _is_comment(line, fields, columns, token_column))


def _looks_like_token(fields: list[str], columns: Sequence[int], token_column: int) -> bool:
    """Whether a ``#`` line at a sentence head is a token line (its tag columns hold tags)."""
    n = len(fields)
    if n < 2:
        return False
    for c in columns:
        if not -n <= c < n or c % n == token_column % n:
            return False
        if not _WELL_FORMED.match(fields[c]):
            return False
    return True


@contextmanager
def _gc_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector while many small lists are created.

    The line loop allocates one list per token line; CPython's generational
    collector would otherwise rescan them again and again (2-3x slower).
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _parse_lines(text: str, source: str, columns: Sequence[int], token_column: int,
                 sep: str | None, first_line: int = 1) -> _Parsed:
    """Split a file's lines into tokens, sentences and documents (one pass, plain Python).

    ``text`` starts at line ``first_line`` of the file ``source``.
    """
    out = _Parsed()
    split = _splitter(sep)
    rows, lines = out.rows, out.lines
    n_fields = 0            # column count of the current sentence (0: sentence not started)
    pending_sent_id = None
    pending_doc_id = None
    doc_open = False        # DOCSTART seen and no token yet in this document

    for lineno, line in enumerate(text.split("\n"), first_line):
        fields = split(line)
        if not fields:
            n_fields = 0
            continue
        n = len(fields)
        if n_fields:
            if n != n_fields:
                raise InputError(
                    f"{where(source, line=lineno)}: {n} columns, but the sentence's earlier lines have "
                    f"{n_fields}: {line!r} (check the separator, or a token that contains a space; "
                    f"for tab-separated files pass --sep tab (Python: sep='\\t'))")
            if fields[token_column] != DOCSTART:
                rows.append(fields)
                lines.append(lineno)
                continue
        if _is_comment(line, fields, columns, token_column):
            m = _ID_SENT.match(line)
            if m:
                pending_sent_id = m.group(1)
            m = _ID_DOC.match(line)
            if m and doc_open:
                pending_doc_id = m.group(1)
            continue
        if not -n <= token_column < n:
            raise InputError(f"{where(source, line=lineno)}: no token column {token_column} in a "
                                     f"line of {n} columns: {line!r}")
        if fields[token_column] == DOCSTART:
            out.has_docstart = True
            out.doc_starts.append(len(out.sent_starts))
            out.doc_ids.append(None)
            doc_open = True
            pending_doc_id = None
            n_fields = 0
            continue
        # the first token line of a sentence
        _check_columns(fields, columns, token_column, source, lineno, line)
        n_fields = n
        out.sent_starts.append(len(rows))
        out.sent_ids.append(pending_sent_id)
        pending_sent_id = None
        if doc_open:
            out.doc_ids[-1] = pending_doc_id
            doc_open = False
        rows.append(fields)
        lines.append(lineno)
    out.finish(columns, token_column, source)
    return out


def _check_columns(fields: list[str], columns: Sequence[int], token_column: int, source: str,
                   lineno: int, line: str) -> None:
    n = len(fields)
    for c in columns:
        if not -n <= c < n or c % n == token_column % n:
            raise InputError(
                f"{where(source, line=lineno)}: no tag column {c} in a line of {n} columns "
                f"(the token is column {token_column}): {line!r}")


# ---------------------------------------------------------------------------
# tag codes, with located errors (the decoders are in .schemes)


def _tag_codes(names: dict[str, int], scheme: str, source: str, parsed: _Parsed,
               col: _Column) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """Prefix code and type id of each distinct tag; raise on a tag the scheme does not allow."""
    allowed = ALLOWED[scheme]
    prefix = np.zeros(len(names), dtype=np.int8)
    type_id = np.full(len(names), -1, dtype=INDEX)
    types: dict[str, int] = {}
    for tag, tid in names.items():
        code = prefix_of(tag)
        if code == INVALID or code not in allowed:
            _raise_bad_tag(tag, tid, scheme, source, parsed, col)
        prefix[tid] = code
        if code != O:
            typ = tag[2:]
            type_id[tid] = types.setdefault(typ, len(types))
    return prefix, type_id, list(types)


def _raise_bad_tag(tag: str, tid: int, scheme: str, source: str, parsed: _Parsed, col: _Column) -> None:
    i = int(np.flatnonzero(col.ids == tid)[0])
    allowed = "".join(p for p, c in PREFIX_CODES.items() if c in ALLOWED[scheme])
    raise InputError(
        f"{where(source, line=parsed.lines[i])}: tag {tag!r} (column {col.index}) is not allowed by "
        f"scheme {scheme}: a tag is 'O' or PREFIX-TYPE with PREFIX one of {', '.join(allowed.replace('O', ''))}")


# ---------------------------------------------------------------------------
# the reader


def read_conll(path: str | os.PathLike, *, selectors: Sequence[str] = ("ents",),
               features: Sequence[str] | None = None, scheme: str = "auto", strict: bool = False,
               column: int = -1, sep: str | None = None, token_column: int = 0,
               encoding: str = "utf-8", **options: Any) -> Corpus:
    """Read a CoNLL/BIO file into a :class:`Corpus` (see the module docstring).

    ``scheme``: ``auto``, ``IOB1``, ``IOB2``, ``IOE``, ``IOBES`` or ``BILOU``;
    ``strict``: seqeval's strict decoding (needs an explicit scheme), else
    conlleval.pl's; ``column``: the tag column of ``ents`` (default the last);
    ``sep``: column separator (default any whitespace); ``token_column``: the
    token's column (default 0; 1 for UNER's ``index token tag ...``).
    ``features`` is accepted for the reader contract; CoNLL tags carry none.
    Raise :class:`InputError` naming file and line for an unknown
    scheme, a tag the scheme does not allow, a line whose column count differs
    from its sentence's, a missing column, and for a file without tokens.
    """
    source = str(path)
    _refuse_options(options, source)
    settings = _Settings.check(source, selectors, scheme, strict, column, sep, token_column)
    # the located loader (missing, folder, not text in the encoding: named); line ends as universal newlines
    text = read_text(path, encoding).replace("\r\n", "\n").replace("\r", "\n")
    corpus, _ = _corpus(text, source, settings, first_line=1, warn=True)
    return corpus


def read_conll_text(load: Callable[[], str], path: str | os.PathLike, *, first_line: int = 1,
                    selectors: Sequence[str] = ("ents",), features: Sequence[str] | None = None,
                    scheme: str = "auto", strict: bool = False, column: int = -1, sep: str | None = None,
                    token_column: int = 0, encoding: str = "utf-8",
                    **options: Any) -> tuple[Corpus, list[str | None]]:
    """:func:`read_conll` on a run of the file's lines that starts at line ``first_line``.

    ``load()`` gives the run's text, decoded, with ``"\n"`` line ends (and no
    BOM); it is called after the options are checked, so errors come in
    :func:`read_conll`'s order. The same parser and decoders as
    :func:`read_conll`; errors name ``path`` and the file's own line numbers.
    Document ids follow :func:`document_ids` within the run, without its
    warning. Also returns, per document, its id from a comment or ``None``.
    Used by :mod:`.chunks` to read a file piece by piece.
    """
    source = str(path)
    _refuse_options(options, source)
    settings = _Settings.check(source, selectors, scheme, strict, column, sep, token_column)
    return _corpus(load(), source, settings, first_line=first_line, warn=False)


def _refuse_options(options: dict[str, Any], source: str) -> None:
    """Raise :class:`~spacy_anno_eval.errors.ConfigError` for options this reader does not take."""
    if options:
        from . import check_options

        check_options("conll", options, source)


class _Settings(NamedTuple):
    """Checked reader options."""

    scheme: str
    strict: bool
    by_selector: dict[str, int]   # selector -> tag column
    columns: list[int]            # the distinct tag columns
    sep: str | None
    token_column: int

    @classmethod
    def check(cls, source: str, selectors: Sequence[str], scheme: str, strict: bool, column: int,
              sep: str | None, token_column: int) -> _Settings:
        """Validate the options; raise :class:`InputError` naming ``source`` (a ``sep`` that is not None or a
        delimiter within a line: :class:`~spacy_anno_eval.errors.ConfigError`)."""
        sep = check_separator(sep, what=f"{source}: sep")  # the one rule (io.parse)
        scheme = normalise_scheme(scheme, source)
        if strict and scheme == "auto":
            raise InputError(f"{source}: strict decoding needs an explicit scheme "
                                     f"(IOB1, IOB2, IOE, IOBES or BILOU), not auto")
        by_selector = _selector_columns(tuple(selectors) or ("ents",), column, source)
        columns = list(dict.fromkeys(by_selector.values()))
        return cls(scheme, strict, by_selector, columns, sep, token_column)


def _corpus(text: str, source: str, settings: _Settings, first_line: int,
            warn: bool) -> tuple[Corpus, list[str | None]]:
    """Parse and decode ``text``: the :class:`Corpus` and each document's id from a comment (or ``None``)."""
    with _gc_paused():
        parsed = _parse_lines(text, source, settings.columns, settings.token_column, settings.sep, first_line)
    if not parsed.tokens:
        raise InputError(f"{source}: no tokens found (an empty CoNLL file, or only comments)")
    layout = _Layout(parsed)
    tables = {c: _decode_column(parsed, parsed.columns[c], layout, settings.scheme, settings.strict, source)
              for c in settings.columns}
    found = list(parsed.doc_ids if parsed.has_docstart else parsed.sent_ids)
    doc_ids = document_ids(found, source, warn=warn, stacklevel=4)
    sets = {sel: tables[c] for sel, c in settings.by_selector.items()}
    given: list[str | None] = list(doc_ids) if doc_ids == found else [None] * len(doc_ids)
    tokens = Tokens(np.append(layout.doc_first_tok, len(parsed.tokens)).astype(INDEX), layout.sent_first,
                    layout.tok_start, layout.tok_end, np.asarray(parsed.lines, dtype=INDEX))
    return Corpus(doc_ids, layout.texts(parsed.tokens), sets, source, text_lengths=layout.doc_lengths,
                  given_ids=given, found_features=[], tokens=tokens), found


class _Layout:
    """Token offsets in their document's text, and the documents' extents."""

    def __init__(self, parsed: _Parsed) -> None:
        n_tok = len(parsed.tokens)
        self.sent_first = np.asarray(parsed.sent_starts, dtype=INDEX)
        self.sent_last = np.append(self.sent_first[1:], n_tok) - 1
        if parsed.has_docstart:
            doc_sent = np.asarray(parsed.doc_starts, dtype=INDEX)
            # sentences before the first DOCSTART form a document of their own
            if not len(doc_sent) or doc_sent[0] > 0:
                doc_sent = np.insert(doc_sent, 0, 0)
                parsed.doc_ids.insert(0, None)
            # drop documents without sentences
            n_sent = len(self.sent_first)
            keep = np.append(doc_sent[1:], n_sent) > doc_sent
            parsed.doc_ids[:] = [d for d, k in zip(parsed.doc_ids, keep, strict=True) if k]
            self.doc_first_sent = doc_sent[keep]
        else:
            self.doc_first_sent = np.arange(len(self.sent_first), dtype=INDEX)
        self.doc_first_tok = self.sent_first[self.doc_first_sent]
        lengths = np.fromiter(map(len, parsed.tokens), dtype=INDEX, count=n_tok)
        step = lengths + 1                       # one separator (" " or "\n") after each token
        global_start = np.cumsum(step) - step
        self.doc_of_tok = np.repeat(np.arange(len(self.doc_first_tok), dtype=INDEX),
                                    np.diff(np.append(self.doc_first_tok, n_tok)))
        self.tok_start = global_start - global_start[self.doc_first_tok][self.doc_of_tok]
        self.tok_end = self.tok_start + lengths
        doc_last_tok = np.append(self.doc_first_tok[1:], n_tok) - 1
        self.doc_lengths = self.tok_end[doc_last_tok]

    def texts(self, tokens: list[str]) -> list[str]:
        """Each document's text: tokens joined by " ", sentences by "\\n"."""
        bounds = list(self.sent_first) + [len(tokens)]
        sents = [" ".join(tokens[a:b]) for a, b in zip(bounds[:-1], bounds[1:], strict=True)]
        dbounds = list(self.doc_first_sent) + [len(sents)]
        return ["\n".join(sents[a:b]) for a, b in zip(dbounds[:-1], dbounds[1:], strict=True)]


def _decode_column(parsed: _Parsed, col: _Column, layout: _Layout, scheme: str, strict: bool,
                   source: str) -> SpanTable:
    """Decode one tag column into a :class:`SpanTable` of character spans."""
    prefix_of_tag, type_of_tag, labels = _tag_codes(col.names, scheme, source, parsed, col)
    ids = col.ids
    prefix = prefix_of_tag[ids]
    types = type_of_tag[ids]
    if strict:
        first, last = decode_strict(prefix, types, layout.sent_first, layout.sent_last, scheme)
    else:
        first, last = decode_conlleval(FOLD[prefix], types, layout.sent_first, layout.sent_last)
    return SpanTable(layout.doc_of_tok[first], layout.tok_start[first], layout.tok_end[last],
                     types[first], labels)


def document_ids(found: Sequence[str | None], source: str = "", *, warn: bool = True,
                 stacklevel: int = 2) -> list[str]:
    """Ids from ``# sent_id`` / ``# doc_id`` comments when every document has a unique one.

    ``found`` holds each document's id from a comment, or ``None``. Otherwise
    every id is positional (``"0"``, ``"1"``, ...), with a warning (when
    ``warn``) if some comment ids were found; ``stacklevel`` as for
    :func:`warnings.warn`, counted from this function.
    """
    n = len(found)
    if all(found) and len(set(found)) == n:
        return [str(d) for d in found]
    if warn and any(found):
        warnings.warn(f"{source}: document ids from comments are missing or repeated; "
                      f"using positional ids", stacklevel=stacklevel)
    return [str(i) for i in range(n)]


__all__ = ["document_ids", "is_docstart", "read_conll", "read_conll_text"]
