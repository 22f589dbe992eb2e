"""Which documents each annotation set covers: the one computation of span-group coverage.

A document in which a span group key is absent is not covered by
``spans:<key>`` (an annotator who never annotated it), while a group that is
present but empty covers it (an annotation with nothing in it). The result is
:attr:`~spacy_anno_eval.annotations.table.Corpus.coverage`: ``{"spans:KEY":
bool array}`` for the groups that miss some document (``ents`` covers every
document).

:func:`docs_coverage` is the one computation for spaCy Docs (the DocBin
reader's spaCy path, span IAA on Docs, γ on Docs); the DocBin reader's fast
path, which reads the group keys without building Docs, gives
:func:`span_group_coverage` the documents holding each key itself.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from ..annotations.docs import CATS_KEY
from ..annotations.table import INDEX


def span_group_coverage(present: dict[str, Sequence[int]], n_docs: int, *,
                        every: bool = False) -> dict[str, np.ndarray] | None:
    """Which documents each span group covers, from the documents that hold each group key (``present``: key ->
    document indices; present but empty counts): ``{"spans:KEY": bool array}`` for the groups some document
    lacks; ``None`` when every group is in every document (or there are none). With ``every``: for every key of
    ``present``, the groups in every document too (``{}`` when there are none)."""
    coverage = {}
    for key in sorted(present):
        mask = np.zeros(n_docs, dtype=bool)
        mask[np.asarray(present[key], dtype=INDEX)] = True
        if every or not mask.all():
            coverage[f"spans:{key}"] = mask
    return coverage if every else coverage or None


def docs_coverage(docs: Iterable[Any], *, cats: bool = False, every: bool = False) -> dict[str, np.ndarray] | None:
    """Which spaCy Docs each span group covers: :func:`span_group_coverage` of the keys of each Doc's
    ``doc.spans`` (a group present but empty covers its Doc, an absent one does not), in the form of
    :attr:`~spacy_anno_eval.annotations.table.Corpus.coverage` (``None`` when every group is in every Doc);
    with ``every``, a mask for every group some Doc holds (a group no Doc holds has none: it covers no Doc).
    With ``cats``, a set whose categories a Doc keeps (``user_data["cats"]``, :func:`cats_keys`) covers that
    Doc too, as the DocBin reader records it."""
    docs = docs if isinstance(docs, Sequence) else list(docs)
    if cats:
        keys: Iterable[Iterable[str]] = ([*doc.spans.keys(), *cats_keys(doc.user_data.get(CATS_KEY))]
                                         for doc in docs)
    else:
        keys = (doc.spans.keys() for doc in docs)
    return span_group_coverage(docs_per_key(keys), len(docs), every=every)


def docs_per_key(keys_per_doc: Iterable[Iterable[str]], offset: int = 0) -> dict[str, list[int]]:
    """Key -> the documents (numbered from ``offset``) whose key list holds it."""
    present: dict[str, list[int]] = {}
    for d, keys in enumerate(keys_per_doc, offset):
        for key in keys:
            present.setdefault(key, []).append(d)
    return present


def cats_keys(set_cats: Any) -> list[str]:
    """The sets (span group keys) whose categories a document's ``user_data["cats"]`` holds (``ents`` aside:
    its coverage is not recorded)."""
    if not isinstance(set_cats, dict):
        return []
    return [k for k in set_cats if isinstance(k, str) and k and k != "ents"]


__all__ = ["cats_keys", "docs_coverage", "docs_per_key", "span_group_coverage"]
