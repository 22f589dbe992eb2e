"""Which documents each annotation set covers: the one computation of span-group coverage.

A document in which a span group key is absent is not covered by
``spans:<key>`` (an annotator who never annotated it), while a group that is
present but empty covers it (an annotation with nothing in it). The result is
:attr:`~spacy_anno_eval.annotations.table.Corpus.coverage`: ``{"spans:KEY":
bool array}`` for the groups that miss some document (``ents`` covers every
document).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from ..annotations.table import INDEX


def span_group_coverage(present: dict[str, Sequence[int]], n_docs: int) -> dict[str, np.ndarray] | None:
    """Which documents each span group covers, from the documents that hold each group key (``present``: key ->
    document indices; present but empty counts): ``{"spans:KEY": bool array}`` for the groups some document
    lacks; ``None`` when every group is in every document (or there are none)."""
    coverage = {}
    for key in sorted(present):
        mask = np.zeros(n_docs, dtype=bool)
        mask[np.asarray(present[key], dtype=INDEX)] = True
        if not mask.all():
            coverage[f"spans:{key}"] = mask
    return coverage or None


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


__all__ = ["cats_keys", "docs_per_key", "span_group_coverage"]
