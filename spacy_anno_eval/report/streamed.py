"""The HTML report of a corpus scored shard by shard, its Annotation Diff written as the shards come.

A corpus too large for memory is scored one shard at a time
(:mod:`spacy_anno_eval.workflows.stream`); each shard's pairs are dropped once its
documents of the Annotation Diff are rendered. :class:`StreamedDiff` writes
those documents (the same :func:`~spacy_anno_eval.report.html.diff_section`
as the one-piece report) to a spool file beside the target, keeping only
counters in memory; :meth:`StreamedDiff.write` then writes the page around
them (the tables need the merged report, so they come last in time but first
in the page) and replaces the target atomically. The page equals, byte for
byte, :func:`~spacy_anno_eval.report.html.render_html` of the whole corpus.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from .html import (
    MAX_DIFF_DOCS,
    MAX_DOC_ROWS,
    MAX_TEXT_CHARS,
    DiffDocument,
    diff_head,
    diff_labels,
    diff_section,
    esc,
    render_html,
)
from .rows import MEASURES, check_measures


class StreamedDiff:
    """The Annotation Diff of ``path`` (an HTML report to come), spooled to disk shard by shard.

    Call :meth:`add` with each shard's documents in corpus order (their
    ``index`` already global), then :meth:`write` once with the merged report;
    or :meth:`discard` on failure. Documents beyond ``max_docs`` are counted,
    not written.
    """

    def __init__(self, path: str | os.PathLike, *, measures: Sequence[str] = MEASURES,
                 max_docs: int | None = MAX_DIFF_DOCS, max_text_chars: int = MAX_TEXT_CHARS) -> None:
        self.path = Path(path)
        self.measures = check_measures(measures)
        self.max_docs, self.max_text_chars = max_docs, max_text_chars
        self.n_shown = self.n_rows = self.n_with_pairs = 0
        self.labels: set[str] = set()
        from ..files import spool

        # beside the target; the system's folder for standard output, a device, a FIFO
        self._spool, self._spool_path = spool(self.path, ".diff.tmp")
        self._sizes: list[int] = []                        # bytes of each spooled section
        self._indices: list[int] = []                      # and its document's index in the corpus
        self._id_mark = f"anno-eval-doc-id-{secrets.token_hex(16)}"  # escapes to itself; no text holds it

    def room(self) -> int | None:
        """How many more documents the Diff shows (``None``: no limit)."""
        return None if self.max_docs is None else max(self.max_docs - self.n_shown, 0)

    def add(self, documents: Sequence[DiffDocument], n_with_pairs: int) -> None:
        """A shard's documents with pairs (the first of them, in order) and how many it has in all."""
        self.n_with_pairs += n_with_pairs
        room = self.room()
        for doc in documents if room is None else documents[:room]:
            # the document's id is written at the end: a chunk's positional ids are only known then
            section = diff_section(replace(doc, doc_id=self._id_mark), self.measures, self.max_text_chars)
            data = section.encode("utf8")
            self._spool.write(data)
            self._sizes.append(len(data))
            self._indices.append(doc.index)
            self.n_shown += 1
            self.n_rows += len(doc.rows)
            self.labels |= diff_labels({}, [doc])

    def write(self, report: dict[str, Any], doc_ids: Sequence[str], *, classification: dict[str, Any] | None = None,
              title: str | None = None, max_doc_rows: int = MAX_DOC_ROWS) -> Path:
        """Write the page (tables from ``report``, the spooled Diff with the documents' ids ``doc_ids``, those
        of the merged evaluation) to the target atomically."""
        from ..files import open_atomic

        self._spool.close()
        try:
            marker = f"<!--diff-{secrets.token_hex(16)}-->"
            page = render_html(report, None, measures=self.measures, classification=classification, title=title,
                               max_doc_rows=max_doc_rows, max_text_chars=self.max_text_chars, diff_html=marker,
                               diff_docs=set(self._indices))
            before, after = page.split(marker)
            head = diff_head(self.labels | set(report.get("per_type", {})), self.n_rows, self.n_shown,
                             self.n_with_pairs)
            with open_atomic(self.path) as out, self._spool_path.open("rb") as spool:
                out.write((before + head).encode("utf8"))
                mark = self._id_mark.encode("utf8")
                for size, index in zip(self._sizes, self._indices, strict=True):
                    out.write(spool.read(size).replace(mark, esc(doc_ids[index]).encode("utf8"), 1))
                out.write(after.encode("utf8"))
        finally:
            self._spool_path.unlink(missing_ok=True)
        return self.path

    def discard(self) -> None:
        """Remove the spool (the target is left as it was)."""
        self._spool.close()
        self._spool_path.unlink(missing_ok=True)


__all__ = ["StreamedDiff"]
