"""The differences between two dependency annotations, sentence by sentence: rows and rendering.

Brants and Skut (1998, "Automation of Treebank Annotation", section 4.1,
figures 5 and 6) mark the nodes and edges in which two annotations of a
sentence differ. :func:`~spacy_anno_eval.trees.dependencies.compare_treebanks`
records them per sentence: the words whose head or DEPREL differs
(:class:`EdgeDiff`, figure 6's marked edges) and the nodes whose yield is in
one tree only (``key_only``, ``response_only``), or in both but headed by
different words (``head_word``) or with a different DEPREL (``function``)
(:class:`NodeDiff`): 4.1's "if Y exists: emit different labels if any; if Y
does not exist: emit X", run both ways; those records live in
:mod:`~.records`. This module turns them into flat rows (:func:`diff_rows`,
:func:`write_diff`: JSON lines or TSV) and into text (:func:`render_diff`);
it computes no figure.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol

from ..files import write_rows
from .records import EdgeDiff, NodeDiff, SentenceResult, arrow, format_ids, yield_text

DIFF_COLUMNS = ("sentence", "sent_id", "kind", "status", "id", "form", "key_head", "response_head", "key_deprel",
                "response_deprel", "yield", "key_word", "response_word")


class Differences(Protocol):
    """What the functions below read of a comparison: a
    :class:`~spacy_anno_eval.trees.dependencies.TreeComparison` is one."""

    @property
    def key_source(self) -> str: ...

    @property
    def response_source(self) -> str: ...

    @property
    def sentences(self) -> Sequence[SentenceResult]: ...


def diff_rows(comparison: Differences, nodes: bool = True) -> list[dict[str, Any]]:
    """The differences as flat rows with the columns :data:`DIFF_COLUMNS`, for JSON lines or TSV.

    ``sentence`` is the 1-based position, ``sent_id`` the key's id.
    ``kind="edge"`` rows: one per word whose head or DEPREL differs;
    ``id`` / ``form`` the word, ``key_head`` / ``response_head`` its head
    IDs (0 = root), ``key_deprel`` / ``response_deprel`` its DEPRELs,
    ``status`` ``head``, ``deprel`` or ``head+deprel``. ``kind="node"``
    rows: ``yield`` the node's word IDs (``"2-3,5"``), ``form`` its
    words (``…`` at gaps), ``key_word`` / ``response_word`` the word
    heading it in each tree (``None`` where absent), ``key_deprel`` /
    ``response_deprel`` that word's DEPREL, ``status`` ``key_only``,
    ``response_only``, ``head_word`` or ``function``.
    """
    rows = []
    for s in comparison.sentences:
        for e in s.edges:
            rows.append({"sentence": s.index + 1, "sent_id": s.sent_id, "kind": "edge", "status": e.status,
                         "id": e.id, "form": e.form, "key_head": e.key_head, "response_head": e.response_head,
                         "key_deprel": e.key_deprel, "response_deprel": e.response_deprel, "yield": None,
                         "key_word": None, "response_word": None})
        if nodes:
            for d in s.nodes:
                rows.append({"sentence": s.index + 1, "sent_id": s.sent_id, "kind": "node", "status": d.status,
                             "id": None, "form": yield_text(s, d.ids, limit=10**9), "key_head": None,
                             "response_head": None, "key_deprel": d.key_deprel,
                             "response_deprel": d.response_deprel, "yield": d.span, "key_word": d.key_word,
                             "response_word": d.response_word})
    return rows


def render_diff(comparison: Differences, *, nodes: bool = True, max_sentences: int | None = None,
                max_form: int = 20, notes: Mapping[int, Sequence[str]] | None = None) -> str:
    """The differences as text, sentence by sentence (only sentences that differ).

    Each sentence: ``# sentence i/n  sent_id = X  UAS a/n  LAS b/n``,
    ``# text = ...``, the sentence's ``notes`` (by 0-based index: lines that
    other results add, such as both annotations' perplexities, each shown
    after ``# ``; a sentence with a note is shown even when its heads and
    relations agree), then one line per differing word
    (``3 dog  head 2→4  nsubj→obj``; an arrow marks each key→response
    difference, an unchanged value stands alone), then one line per
    differing node (``node 2-3,5  key only  head word 3 dog, nsubj  "big dog … into"``).
    """
    lines = [f"# differences {comparison.key_source} → {comparison.response_source} (key→response; word IDs from 1, "
             f"head 0 = root)"]
    shown = 0
    total = len(comparison.sentences)
    notes = notes or {}
    for s in comparison.sentences:
        if not (s.edges or (nodes and s.nodes) or s.index in notes):
            continue
        if max_sentences is not None and shown >= max_sentences:
            rest = sum(1 for x in comparison.sentences[s.index:] if x.edges or (nodes and x.nodes) or x.index in notes)
            lines += ["", f"# ... {rest} more differing sentences"]
            break
        shown += 1
        lines += ["", f"# sentence {s.index + 1}/{total}  sent_id = {s.sent_id}  UAS {s.head_correct}/"
                      f"{s.n_words}  LAS {s.las_correct}/{s.n_words}", f"# text = {s.text}"]
        lines += [f"# {note}" for note in notes.get(s.index, ())]
        idw = len(str(s.n_words))
        formw = min(max_form, max((len(e.form) for e in s.edges), default=1))
        heads = [arrow(e.key_head, e.response_head) for e in s.edges]
        headw = max((len(h) for h in heads), default=1)
        for e, h in zip(s.edges, heads, strict=True):
            form = e.form if len(e.form) <= formw else e.form[: formw - 1] + "…"
            lines.append(f"  {e.id:>{idw}} {form:<{formw}}  head {h:<{headw}}  "
                         f"{arrow(e.key_deprel, e.response_deprel)}")
        if nodes and s.nodes:
            spanw = max(len(d.span) for d in s.nodes)
            for d in s.nodes:
                lines.append(f"  node {d.span:<{spanw}}  {_node_text(s, d)}  \"{yield_text(s, d.ids)}\"")
    if shown == 0:
        lines += ["", "# no differences"]
    return "\n".join(lines) + "\n"


def write_diff(comparison: Differences, path: str | os.PathLike, nodes: bool = True) -> Path:
    """Write :func:`diff_rows` atomically: JSON lines for ``.jsonl``, else TSV with a header."""
    return write_rows(path, diff_rows(comparison, nodes=nodes), DIFF_COLUMNS)


def _word(s: SentenceResult, i: int | None) -> str:
    return f"{i} {s.forms[i - 1]}" if i else "-"


def _node_text(s: SentenceResult, d: NodeDiff) -> str:
    if d.status == "key_only":
        return f"key only       head word {_word(s, d.key_word)}, {d.key_deprel}"
    if d.status == "response_only":
        return f"response only  head word {_word(s, d.response_word)}, {d.response_deprel}"
    if d.status == "head_word":
        return (f"head word      {_word(s, d.key_word)}→{_word(s, d.response_word)}, "
                f"{arrow(d.key_deprel, d.response_deprel)}")
    return f"function       {arrow(d.key_deprel, d.response_deprel)} (head word {_word(s, d.key_word)})"


__all__ = ["DIFF_COLUMNS", "EdgeDiff", "NodeDiff", "arrow", "diff_rows", "format_ids", "render_diff", "write_diff",
           "yield_text"]
