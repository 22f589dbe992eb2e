"""Read spaCy DocBin files (``.spacy``) into a :class:`~spacy_anno_eval.annotations.table.Corpus`.

A DocBin (https://spacy.io/api/docbin, defined in ``spacy/tokens/_serialize.py``)
is a zlib-compressed msgpack map of token columns, strings, categories, span
groups and user data (its layout: :mod:`.docbin_wire`).

A path may also be a folder: its ``*.spacy`` files (shards) are read in name
order and concatenated.

Two paths:

- **fast** (selector ``ents`` only, no ``features``): the message is decoded
  without building spaCy ``Doc`` objects (:mod:`.docbin_wire`). Token offsets
  come from the lengths of the ORTH strings plus the SPACY flags; entities
  from the ENT_IOB / ENT_TYPE columns, decoded with numpy exactly as
  ``Doc.ents`` reads them (a ``B`` with an empty type counts as ``O``; an
  ``I`` that continues no entity is an error, as in spaCy). Texts are built
  only when indexed (:class:`~.lazy_texts.LazyTexts`); ``text_fingerprints``
  (a 64-bit hash of each document's ORTH hashes and spaces,
  :func:`~.lazy_texts.text_fingerprints`) and ``text_lengths`` let the engine
  check key and response texts without building them. The ``tokens`` field
  is streamed out of zlib and only its ORTH / ENT_IOB / ENT_TYPE columns are
  kept; string hashes are resolved with a numpy hash table
  (:class:`~.docbin_wire.KeyIndex`). Reading 10k documents / 400k tokens
  takes about 0.08 s, of which zlib's inflate is about 0.05 s.
- **spaCy** (``spans:<key>`` selectors, ``features``, the option
  ``fast=False``, or a message the fast path does not recognise: a
  ``version`` other than ``KNOWN_VERSIONS``, or a field it reads missing or
  of another type): ``DocBin.get_docs`` and
  :func:`~spacy_anno_eval.annotations.docs.corpus_from_docs`.

Document ids, on both paths: ``user_data["doc_id"]`` (else ``user_data["id"]``)
when the DocBin stores user data, else the position in the corpus (``"0"``,
``"1"``, ... across all shards). The fast path decodes only the user data
blobs that can hold such a key (a byte search for the msgpack key), so ids
cost nothing when absent.

Reader options: ``fast`` (default True; False forces the spaCy path).
:func:`~spacy_anno_eval.io.read_corpus` refuses any other; when one set of
options goes to a key and a response of different formats, each reader gets
those it takes (:func:`~spacy_anno_eval.io.split_options`).

On both paths the corpus records the sets its documents hold
(``found_sets``: ``ents`` and every span group some document has, even
empty), so a ``spans:<key>`` that no document has is refused, and which
documents each span group covers (``coverage``, :mod:`.coverage`): a document
in which a span group key is absent is not covered by ``spans:<key>`` (an
annotator who never annotated it), while a group that is present but empty
covers it (an annotation with nothing in it). Only groups that miss some
document get an entry; ``ents`` covers every document. The fast path reads
the group keys from the ``span_groups`` field without building the groups: a
document without groups costs a byte comparison, one with groups a msgpack
decode of its key map (10k documents of 40 tokens: no groups, 0.07 s as
before; three groups each, 0.064 s instead of 0.043 s).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ..annotations.docs import corpus_cats, corpus_from_docs, decode_iob, id_or_position
from ..annotations.table import INDEX, Corpus, SpanTable, parse_selector
from ..errors import InputError
from .coverage import cats_keys, docs_coverage, docs_per_key, span_group_coverage
from .docbin_wire import (
    EXPECTED,
    KNOWN_VERSIONS,
    U64,
    KeyIndex,
    Shard,
    decode_shards,
    docbin_bytes,
    not_utf8_error,
    string_keys,
    string_positions,
)
from .lazy_texts import LazyTexts, text_fingerprints


def read_docbin(path: str | os.PathLike, *, selectors: Sequence[str] = ("ents",),
                features: Sequence[str] | None = None, fast: bool = True, **options: Any) -> Corpus:
    """Read a ``.spacy`` file, or a folder of ``.spacy`` shards, into a :class:`Corpus`.

    ``selectors``: ``ents`` and/or ``spans:<key>``. ``features`` names span
    attributes kept as features (see :func:`~spacy_anno_eval.annotations.docs.span_features`).
    Raise :class:`InputError` for a file that is not a DocBin.
    """
    selectors = tuple(selectors) or ("ents",)
    source = str(path)
    kinds = {_kind(s, source) for s in selectors}
    files = docbin_files(path)
    if fast and not features and kinds == {"ents"}:
        shards = decode_shards(files)
        if shards is not None:  # else another DocBin version or layout: spaCy's own reader decides
            return _read_fast(shards, selectors, source)
    return _read_with_spacy(files, selectors, features, source)


def _kind(selector: str, source: str) -> str:
    """The kind of a selector (``ents`` or ``spans``); :class:`InputError` naming what a DocBin holds for another."""
    try:
        return parse_selector(selector)[0]
    except InputError:
        raise InputError(f"{source}: the docbin reader takes no annotation selector {selector!r}; a DocBin holds "
                         f"ents and span groups: use ents or spans:NAME") from None


def docbin_files(path: str | os.PathLike) -> list[Path]:
    """The file itself, or a folder's ``*.spacy`` files sorted by name."""
    p = Path(path)
    if p.is_dir():
        files = sorted(f for f in p.glob("*.spacy") if f.is_file())
        if not files:
            raise InputError(f"{p}: no .spacy files in this folder (expected DocBin shards)")
        return files
    if not p.exists():
        raise InputError(f"{p}: no such file or folder")
    return [p]


# ---------------------------------------------------------------------------
# spaCy path


def docbin_docs(files: Sequence[Path], *, user_data: bool = True) -> list[tuple[Any, str]]:
    """Every Doc of the DocBin ``files`` (:func:`docbin_files`), in order, each with its file; with
    ``user_data``, the Docs keep what the DocBin stored of it. An empty file is "nothing to compare", bytes that
    are not a DocBin or a document spaCy cannot rebuild an :class:`InputError` naming the file (and the
    document); the one loop every reader of Docs from DocBins goes through."""
    from spacy.tokens import DocBin
    from spacy.vocab import Vocab

    vocab = Vocab()
    docs: list[tuple[Any, str]] = []
    for f in files:
        data = docbin_bytes(f)
        if not data:
            raise InputError(f"{f}: nothing to compare: the file is empty (expected {EXPECTED})")
        try:
            docbin = DocBin(store_user_data=user_data).from_bytes(data)
        except UnicodeDecodeError as exc:
            raise not_utf8_error(f, exc) from None
        except Exception as exc:  # noqa: BLE001 - zlib, msgpack, missing keys, bad shapes: spaCy's own errors
            raise InputError(f"{f}: not {EXPECTED} ({type(exc).__name__}: {exc})") from None
        try:
            docs.extend((doc, str(f)) for doc in docbin.get_docs(vocab))
        except UnicodeDecodeError as exc:
            raise not_utf8_error(f, exc, f"document {len(docs)}") from None
        except Exception as exc:  # noqa: BLE001 - a damaged message that spaCy half decodes
            raise InputError(f"{f}: document {len(docs)} cannot be rebuilt by spaCy ({type(exc).__name__}: "
                             f"{exc}); write the DocBin again from its source") from None
    return docs


def _read_with_spacy(files: list[Path], selectors: tuple[str, ...], features: Sequence[str] | None,
                     source: str) -> Corpus:
    docs = [doc for doc, _ in docbin_docs(files, user_data=False)]
    corpus = corpus_from_docs(docs, selectors, features, source=source)
    corpus.coverage = docs_coverage(docs, cats=True)
    return corpus


# ---------------------------------------------------------------------------
# fast path: the DocBin message without Doc objects


def _read_fast(shards: list[Shard], selectors: tuple[str, ...], source: str) -> Corpus:
    """The corpus of the decoded DocBin files ``shards``, concatenated in order."""
    sizes = _concat([s.sizes for s in shards])
    orth = _concat([s.orth for s in shards])
    spaces = _concat([s.spaces for s in shards])
    strings = shards[0].strings if len(shards) == 1 else [x for s in shards for x in s.strings]
    index = KeyIndex(_concat([s.keys for s in shards]))
    orth_idx = string_positions(index, orth, source, "ORTH")
    str_len = np.fromiter(map(len, strings), dtype=INDEX, count=len(strings))
    tok_len = str_len[orth_idx]
    starts = np.zeros(len(sizes) + 1, dtype=INDEX)
    np.cumsum(sizes, out=starts[1:])
    # character offset of every token within its document
    with_space = tok_len + spaces
    cum = np.zeros(len(with_space) + 1, dtype=INDEX)
    np.cumsum(with_space, out=cum[1:])
    doc_char0 = cum[starts[:-1]]
    text_lengths = cum[starts[1:]] - doc_char0
    given = _given_ids(shards, len(sizes))
    doc_ids = [id_or_position(d, i) for i, d in enumerate(given)]  # the one doc-id rule
    table = _ents_table(shards, starts, cum, doc_char0, tok_len, doc_ids, index, strings, source)
    texts = LazyTexts(strings, orth_idx, spaces, starts)
    present: dict[str, list[int]] = {}
    offset = 0
    for s in shards:
        for key, docs in s.group_docs.items():
            present.setdefault(key, []).extend(d + offset for d in docs)
        for key, docs in docs_per_key(map(cats_keys, s.set_cats or ()), offset).items():
            present.setdefault(key, []).extend(docs)  # a set's categories cover their document too
        offset += len(s.sizes)
    found = ["ents", *(f"spans:{k}" for k in sorted(present))]
    cats = None
    if any(s.cats is not None or s.set_cats is not None for s in shards):
        cats = corpus_cats([c for s in shards for c in (s.cats or [None] * len(s.sizes))],
                           [c for s in shards for c in (s.set_cats or [None] * len(s.sizes))], doc_ids, source)
    return Corpus(doc_ids, texts, {s: table for s in selectors}, source,
                  text_fingerprints=text_fingerprints(orth, spaces, starts), text_lengths=text_lengths,
                  given_ids=given, found_sets=found, coverage=span_group_coverage(present, len(sizes)), cats=cats)


def _concat(arrays: list[np.ndarray]) -> np.ndarray:
    return arrays[0] if len(arrays) == 1 else np.concatenate(arrays)


def _given_ids(shards: list[Shard], n_docs: int) -> list[str | None]:
    """Each document's id from its ``user_data``, ``None`` where it has none (its id is then its position)."""
    if all(s.doc_ids is None for s in shards):
        return [None] * n_docs
    return [d for s in shards for d in (s.doc_ids or [None] * len(s.sizes))]


# -- entities


def _ents_table(shards: list[Shard], starts: np.ndarray, cum: np.ndarray, doc_char0: np.ndarray,
                tok_len: np.ndarray, doc_ids: list[str], index: KeyIndex, strings: list[str],
                source: str) -> SpanTable:
    """doc.ents of every document as a :class:`SpanTable` (``cum``: character offset of each token in the corpus)."""
    if all(s.iob is None for s in shards):
        return SpanTable.empty()
    iob = _concat([s.iob if s.iob is not None else np.zeros(len(s.orth), np.uint8) for s in shards])
    etype = _concat([s.etype if s.etype is not None else np.zeros(len(s.orth), U64) for s in shards])
    doc, first, last = decode_iob(iob, etype, starts, doc_ids, source)
    label, labels = _labels(string_positions(index, etype[first], source, "ENT_TYPE"), index.keys, strings)
    char0 = doc_char0[doc]
    return SpanTable(doc, cum[first] - char0, cum[last] + tok_len[last] - char0, label, labels)


def _labels(pos: np.ndarray, keys: np.ndarray, strings: list[str]) -> tuple[np.ndarray, list[str]]:
    """Label ids and names from positions in ``strings``, without sorting every entity.

    Labels are ordered by their hash, as ``np.unique`` over the hashes (and
    :func:`~spacy_anno_eval.annotations.docs.spans_from_docs`) orders them; the
    same label in several shards' string tables becomes one label.
    """
    present = np.zeros(len(strings), dtype=bool)
    present[pos] = True
    used = np.flatnonzero(present)
    used = used[np.argsort(keys[used], kind="stable")]
    used_keys = keys[used]
    group = np.zeros(len(used), dtype=INDEX)
    if len(used) > 1:
        np.cumsum(used_keys[1:] != used_keys[:-1], out=group[1:])
    remap = np.zeros(len(strings), dtype=INDEX)
    remap[used] = group
    first_of_group = np.ones(len(used), dtype=bool)
    first_of_group[1:] = group[1:] != group[:-1]
    return remap[pos], [strings[int(i)] for i in used[first_of_group]]


__all__ = ["EXPECTED", "KNOWN_VERSIONS", "KeyIndex", "LazyTexts", "docbin_docs", "docbin_files", "read_docbin",
           "span_group_coverage", "string_keys", "text_fingerprints"]
