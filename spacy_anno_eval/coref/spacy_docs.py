"""Coreference clusters of spaCy Docs: a DocBin file (``.spacy``), a folder of them, or Docs in memory.

Format: spacy-experimental's coreference components (``experimental_coref``, ``span_resolver``;
https://github.com/explosion/spacy-experimental, ``spacy_experimental/coref``) write each cluster as one span
group of the Doc, named a prefix and a number: ``doc.spans["coref_clusters_1"]``, ``["coref_clusters_2"]``, ...
(the coref component's head-only clusters go under ``coref_head_clusters_N``). spaCy's own training data for
those components is a DocBin holding the same groups (https://spacy.io/api/docbin).

What we do: every group whose name starts with ``prefix`` (default ``coref_clusters``, as the pipeline scorer
reads them: :func:`~spacy_anno_eval.annotations.docs.example_clusters`) is one entity; a span is a mention
``(start, end)``, the indices of its first and last token, inclusive (the CoNLL-2012 reader's mentions, so the
two formats score against each other). The groups are taken in the order of their number (``_2`` before
``_10``); an empty group is left out; a span listed twice is kept once, in the first group that lists it, with a
:class:`~spacy_anno_eval.errors.CorefWarning` per file; an empty span (no token) is an
:class:`~spacy_anno_eval.errors.InputError`. A document's name is its id by the package's one rule
(``user_data["doc_id"]``, else ``["id"]``, else its position: :func:`~spacy_anno_eval.annotations.docs.doc_id`),
its tokens the token texts, its text and token offsets kept for showing a mention
(:class:`~spacy_anno_eval.coref.documents.TextCorefDocument`), its sentences those the Doc has (when it has
sentence boundaries).

Why refuse a prefix that names nothing: a response DocBin whose clusters sit under another name (``coref_1``,
``clusters``) would otherwise read as a document without mentions and score zero, silently. A prefix that no
group of the whole file starts with is an :class:`~spacy_anno_eval.errors.InputError` listing the span-group
names the file has (DESIGN.md, Contracts: names are checked).

The DocBin bytes are read by :func:`spacy_anno_eval.io.parse.read_bytes` (missing, a folder, unreadable: named)
and decoded by spaCy's ``DocBin().from_bytes`` into a fresh ``Vocab``; bytes that are not a DocBin, and a
document spaCy cannot rebuild, are an ``InputError`` naming the file.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from typing import Any

from ..annotations.docs import doc_id
from ..errors import ConfigError, InputError, where
from ..io.parse import check_encoding
from .documents import Mention, Repeats, TextCorefDocument, entities_of

#: spacy-experimental's span group prefix of the resolved clusters
PREFIX = "coref_clusters"
_NUMBER = re.compile(r"(\d+)")


def read_coref_docbin(path: str | os.PathLike, *, prefix: str = PREFIX,
                      encoding: str = "utf-8") -> list[TextCorefDocument]:
    """The documents of a DocBin file, or of a folder's ``*.spacy`` files in name order, with the span groups
    whose name starts with ``prefix`` as their entities (see the module). ``encoding`` is taken so that every
    coreference reader is called alike; a DocBin's strings are UTF-8, whatever it says (an unknown codec is
    still a :class:`~spacy_anno_eval.errors.ConfigError`)."""
    check_encoding(encoding)
    _check_prefix(prefix)
    from ..io.docbin import docbin_docs, docbin_files

    source = str(path)
    docs = docbin_docs(docbin_files(path))
    if not docs:
        raise InputError(f"{source}: nothing to compare: the DocBin holds no documents")
    return _documents(docs, prefix, source)


def coref_documents_from_docs(docs: Iterable[Any], prefix: str = PREFIX, *,
                              source: str = "the Docs") -> list[TextCorefDocument]:
    """The documents of spaCy Docs in memory, read as :func:`read_coref_docbin` reads a DocBin's (``source``
    names them in messages). No Doc, or a prefix that no span group starts with, is an
    :class:`~spacy_anno_eval.errors.InputError`."""
    _check_prefix(prefix)
    found = [(doc, source) for doc in docs]
    if not found:
        raise InputError(f"{source}: nothing to compare: no Doc given")
    return _documents(found, prefix, source)


def _check_prefix(prefix: Any) -> None:
    if not isinstance(prefix, str) or not prefix:
        raise ConfigError(f"prefix: the start of the span-group names that hold the clusters (such as "
                          f"{PREFIX!r}, spacy-experimental's), got {prefix!r}")


def _group_order(key: str) -> list[Any]:
    """Sort key of a span-group name: its numbers as numbers (``coref_clusters_2`` before ``coref_clusters_10``)."""
    return [int(p) if p.isdigit() else p for p in _NUMBER.split(key)]


def _documents(docs: list[tuple[Any, str]], prefix: str, source: str) -> list[TextCorefDocument]:
    """The documents of ``(Doc, file)`` pairs; the prefix checked against every group name of them all."""
    out: list[TextCorefDocument] = []
    names: set[str] = set()
    matched = False
    seen: dict[str, int] = {}
    repeats = Repeats()
    for i, (doc, f) in enumerate(docs):
        name = doc_id(doc, i)
        if name in seen:
            raise InputError(f"{where(f, name)}: documents {seen[name]} and {i} have the same id; give each "
                             f"document its own user_data['doc_id'], or none (its position is then its id)")
        seen[name] = i
        names.update(doc.spans.keys())
        keys = sorted((k for k in doc.spans.keys() if k.startswith(prefix)), key=_group_order)
        matched = matched or bool(keys)
        clusters = [_mentions(doc.spans[k], k, f, name) for k in keys]
        entities, first, count = entities_of(clusters)
        if count:
            repeats.add(count, f"{where(f, name)}, tokens {list(first or ())} (in the span groups of {prefix!r})")
        offsets = tuple((t.idx, t.idx + len(t)) for t in doc)
        sentences = tuple((s.start, str(n)) for n, s in enumerate(doc.sents, 1)) \
            if doc.has_annotation("SENT_START") else ()
        out.append(TextCorefDocument(name, tuple(t.text for t in doc), entities, sentences=sentences,
                                     text=doc.text, offsets=offsets))
    if not matched:
        held = ", ".join(sorted(names)) or "none"
        raise InputError(f"{source}: no span group's name starts with {prefix!r} in the {len(out)} document(s) "
                         f"(the span groups: {held}); pass the prefix of the groups that hold the clusters "
                         f"(prefix=, one group per cluster, as spacy-experimental writes {PREFIX}_1, "
                         f"{PREFIX}_2, ...)")
    repeats.warn(source, "in the first span group that lists it")
    return out


def _mentions(group: Any, key: str, f: str, name: str) -> list[Mention]:
    """The mentions ``(start, end)`` (inclusive token indices) of the span group ``key``."""
    out: list[Mention] = []
    for j, span in enumerate(group):
        if span.end <= span.start:
            raise InputError(f"{where(f, name)}, span group {key!r}[{j}]: an empty span (tokens {span.start} to "
                             f"{span.end}, end exclusive); a mention covers at least one token")
        out.append((span.start, span.end - 1))
    return out


__all__ = ["PREFIX", "coref_documents_from_docs", "read_coref_docbin"]
