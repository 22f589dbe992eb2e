"""Which response mention is which key mention: exact, partial and head matching, as the CorefUD scorer does it.

Under ``exact`` matching a response mention is a key mention when it covers
the same words. ``partial`` and ``head`` follow the CorefUD scorer (v1.2,
ufal/corefud-scorer ``scorer/base/reader.py`` ``find_mention_alignment``;
Popel et al., CRAC 2022/2023 shared tasks), one-to-one:

1. Mentions identical in both files are paired first: the same words
   (``partial``), the same words **and** the same head (``head``).
2. The rest are paired by one maximum-weight one-to-one matching
   (``scipy.optimize.linear_sum_assignment``) of the remaining key mentions K
   and response mentions R, both sorted by first word, last word, length (the
   scorer's order, which breaks ties), with weight

   - ``partial``: |R| / |K| when R ⊆ K and the head of K is in R, else 0;
   - ``head``: |K ∩ R| / |K| when K and R have the same head, else 0;

   a pair of weight 0 is no pair.

A mention's head is the word its bracket names (CorefUD's ``Entity=`` third
field); without one, its first word, as the scorer takes it. Every metric then
counts an aligned response mention as its key mention; a response mention left
unaligned is a mention of its own, which no key mention equals (``(-1, *words)``,
so that it cannot collide with a key mention of the same words but another head).
Mention detection's R and P are the aligned pairs over key and over response
mentions.

Before matching, as the scorer orders it: entities of one mention are removed
from both sides when singletons are not kept; then zero mentions (whose head is
an empty node) when zeros are not kept, an entity left empty dropped. Zeros that
are kept match like other mentions, by position (the scorer's ``linear``
method; its default ``dependent`` method pairs zeros by their enhanced
dependencies first, which this package does not read).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..errors import ConfigError

MATCHES = ("exact", "partial", "head")
Mention = tuple[int, ...]


@dataclass(frozen=True)
class AlignedDocument:
    """One document's key and response entities ready for the metrics (the response's aligned mentions
    renamed to their key mentions), and ``pairs``: under partial and head matching, each aligned response
    mention (as read) -> its key mention, identical ones included (empty under exact matching, where a
    response mention is the key mention of the same words)."""

    name: str
    key: list[tuple[Mention, ...]]
    response: list[tuple[Mention, ...]]
    pairs: dict[Mention, Mention] = field(default_factory=dict)


def check_match(match: str) -> str:
    """``match`` if it is one of :data:`MATCHES`, else a :class:`ConfigError` listing them."""
    if match not in MATCHES:
        raise ConfigError(f"mention matching must be one of {', '.join(MATCHES)}, got {match!r}")
    return match


def kept_entities(doc: Any, keep_singletons: bool = True, keep_zeros: bool = True) -> list[tuple[Mention, ...]]:
    """A document's entities after removing singletons (unless kept), then zero mentions (unless kept), in the
    CorefUD scorer's order."""
    entities = list(doc.entities) if keep_singletons else [e for e in doc.entities if len(e) > 1]
    if not keep_zeros and doc.empty:
        entities = [kept for kept in (tuple(m for m in e if not doc.is_zero(m)) for e in entities) if kept]
    return entities


def _order(mention: Mention) -> tuple[int, int, int]:
    return mention[0], mention[-1], len(mention)


def _weights(key: list[Mention], response: list[Mention], key_doc: Any, response_doc: Any,
             match: str) -> np.ndarray:
    """The weight of every (remaining key, remaining response) pair, zero where they cannot match."""
    weights = np.zeros((len(key), len(response)))
    containing: dict[int, list[int]] = {}
    if match == "partial":
        for j, r in enumerate(response):
            for w in r:
                containing.setdefault(w, []).append(j)
    else:
        for j, r in enumerate(response):
            containing.setdefault(response_doc.head(r), []).append(j)
    for i, k in enumerate(key):
        head, words = key_doc.head(k), set(k)
        for j in containing.get(head, ()):
            r = response[j]
            if match == "partial":
                if words.issuperset(r):
                    weights[i, j] = len(r) / len(k)
            else:
                weights[i, j] = len(words.intersection(r)) / len(k)
    return weights


def align_mentions(key_doc: Any, response_doc: Any, key: Sequence[Sequence[Mention]],
                   response: Sequence[Sequence[Mention]], match: str) -> dict[Mention, Mention]:
    """Every aligned response mention -> its key mention (identical pairs included), by the rules of the
    module."""
    key_mentions = {m for e in key for m in e}
    response_mentions = {m for e in response for m in e}
    if match == "exact":
        return {m: m for m in key_mentions & response_mentions}
    pairs: dict[Mention, Mention] = {}
    for m in key_mentions & response_mentions:
        if match != "head" or key_doc.head(m) == response_doc.head(m):
            pairs[m] = m
    rest_key = sorted((m for m in key_mentions if m not in pairs), key=_order)
    rest_response = sorted((m for m in response_mentions if m not in pairs), key=_order)
    if rest_key and rest_response:
        from scipy.optimize import linear_sum_assignment

        weights = _weights(rest_key, rest_response, key_doc, response_doc, match)
        if weights.any():
            rows, cols = linear_sum_assignment(-weights)
            for i, j in zip(rows, cols, strict=True):
                if weights[i, j] > 0:
                    pairs[rest_response[j]] = rest_key[i]
    return pairs


def align_document(key_doc: Any, response_doc: Any, *, match: str = "exact", keep_singletons: bool = True,
                   keep_zeros: bool = True) -> AlignedDocument:
    """One document pair ready for the metrics (see the module)."""
    key = kept_entities(key_doc, keep_singletons, keep_zeros)
    response = kept_entities(response_doc, keep_singletons, keep_zeros)
    if match == "exact":
        return AlignedDocument(key_doc.name, key, response)
    pairs = align_mentions(key_doc, response_doc, key, response, match)
    renamed = [tuple(pairs.get(m, (-1, *m)) for m in e) for e in response]
    return AlignedDocument(key_doc.name, key, renamed, pairs)


__all__ = ["MATCHES", "AlignedDocument", "align_document", "align_mentions", "check_match", "kept_entities"]
