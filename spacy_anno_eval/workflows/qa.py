"""Corpus QA (GATE's Corpus Quality Assurance, user guide 10.3) of a corpus of any size.

The corpus is read shard by shard (a single file is one shard; JSONL and
CoNLL files can be cut into chunks of documents), scored by the one engine
(:func:`spacy_anno_eval.workflows.stream.scan_shards`), and each shard gives, while its
pairs are still there, its Annotation Diff documents and its classification
counts (:func:`collect_qa`). The counts are merged; the Diff goes to the HTML
report as the shards come (:class:`~spacy_anno_eval.report.streamed.StreamedDiff`);
the tables come from the merged report. Memory holds one shard's pairs and
the Diff's counters, whatever the corpus size, and the reports equal those
of the whole corpus scored at once.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from ..report.html import MAX_DIFF_DOCS, MAX_DOC_ROWS
from ..spans.counts import Evaluation


@dataclass
class QAShard:
    """What one shard gives the QA report besides its counts."""

    n_docs: int
    documents: list[Any]          # DiffDocument, indices local to the shard
    n_with_pairs: int
    classification: Any = None    # ClassificationCounts
    confusion: dict[str, Any] | None = None      # {"coextensive"|"any": SpanConfusion}
    errors: list[dict[str, Any]] | None = None   # the error rows (--errors)
    doc_type: tuple[list[str], Any] | None = None  # labels and counts per document and type (--ci)
    buckets: list[Any] | None = None             # spans.buckets.Buckets (--buckets: one shard only)


def collect_qa(evaluation: Evaluation | None, *, max_docs: int | None,
               classify: tuple[str, str] | None, analysis: Any = None) -> QAShard:
    """A shard's Annotation Diff documents (at most ``max_docs``; ``0``: no Diff), classification counts and,
    with ``analysis`` (:class:`~spacy_anno_eval.workflows.analysis.AnalysisSettings`), what the error analysis
    needs of its pairs (``evaluation`` ``None``: a shard without documents)."""
    from ..report.html import diff_documents

    if evaluation is None:
        return QAShard(0, [], 0, None)

    if max_docs == 0:
        documents, n_with_pairs = [], len(evaluation.docs_with_pairs())
    else:
        documents, n_with_pairs = diff_documents(evaluation, evaluation.doc_rows(), max_docs)
    counts = None
    if classify is not None:
        from ..agreement.classification import classification_counts

        counts = classification_counts(evaluation, *classify)
    shard = QAShard(len(evaluation.doc_ids), documents, n_with_pairs, counts)
    if analysis is not None:
        from ..spans.counts import count_pairs_by_doc_and_type
        from .analysis import error_rows

        if analysis.confusion:
            shard.confusion = {mode: evaluation.confusion(mode) for mode in ("coextensive", "any")}
        if analysis.errors is not None:
            shard.errors = error_rows(evaluation, analysis)
        if analysis.ci is not None:
            shard.doc_type = (list(evaluation.labels),
                              count_pairs_by_doc_and_type(evaluation.alignment, len(evaluation.doc_ids)))
        if analysis.buckets:  # the CLI refuses --buckets when streaming: this shard is the corpus
            shard.buckets = evaluation.buckets(train=analysis.read_train())
    return shard


def _doc_type_counts(parts: list[tuple[list[str], Any]]) -> tuple[list[str], Any]:
    """The shards' counts per document and type put together over the union of their labels."""
    import numpy as np

    from ..spans.counts import N_FIELDS, counts_in_labels

    labels = sorted({name for names, _ in parts for name in names})
    blocks = [counts_in_labels(counts, names, labels) for names, counts in parts]
    return labels, np.concatenate(blocks) if blocks else np.zeros((0, len(labels), N_FIELDS), dtype=np.int64)


def run_qa(key: str | os.PathLike, response: str | os.PathLike, *, paths: dict[str, str | os.PathLike],
           measures: list[str], classify: tuple[str, str] | None = None,
           max_diff_docs: int | None = MAX_DIFF_DOCS,
           max_doc_rows: int = MAX_DOC_ROWS, scheduler: str | None = None, docs_per_chunk: int | None = None,
           sharded: bool = False, progress: bool = False, credit: Any = None, analysis: Any = None,
           **settings: Any) -> tuple[dict[str, Any], dict[str, Any] | None, dict[str, Path]]:
    """Score ``response`` against ``key`` shard by shard and write the reports of ``paths``
    (``{"json"|"md"|"html": file}``); return the report, the classification table (``classify`` =
    ``(type, feature)``; see :mod:`spacy_anno_eval.agreement.classification`) and the written files. ``settings``
    go to :func:`~spacy_anno_eval.spans.engine.evaluate`; the report's ``per_doc`` is a
    :class:`~spacy_anno_eval.spans.counts.PerDocRows` (rows built when read). ``max_diff_docs``: documents
    shown in the HTML Annotation Diff (``None``: all); ``max_doc_rows``: rows of the HTML and
    Markdown document tables (the JSON holds every document). ``sharded``: ``key`` and ``response`` are folders or
    globs of shard files (:func:`~spacy_anno_eval.io.units.shard_paths`), else one corpus each. ``credit``: a credit
    rule (e.g. :class:`spacy_anno_eval.bdm.credit.BdmCredit`) whose figures the report carries (``"bdm"``).
    ``analysis``: an :class:`~spacy_anno_eval.workflows.analysis.AnalysisSettings`; the report then carries the
    decision counts, and the confusion matrices and intervals it asks for, gathered shard by shard (the HTML
    shows them in its Errors tab), and ``paths["errors"]`` receives the error rows."""
    from dataclasses import replace

    from ..report import write_reports
    from ..report.streamed import StreamedDiff
    from .stream import scan_shards

    max_docs = max_diff_docs
    diff = StreamedDiff(paths["html"], measures=measures, max_docs=max_docs) if "html" in paths else None
    merged: list[Any] = []
    gathered: dict[str, Any] = {"confusion": None, "errors": [], "doc_type": [], "buckets": []}
    offset = 0

    def consume(shard: QAShard) -> None:
        nonlocal offset
        if diff is not None:
            diff.add([replace(d, index=d.index + offset) for d in shard.documents], shard.n_with_pairs)
            collect.keywords["max_docs"] = diff.room()  # shards still to come build only what is shown
        if shard.classification is not None:
            merged[:] = [shard.classification if not merged else merged[0].merge(shard.classification)]
        if shard.confusion is not None:
            before = gathered["confusion"]
            gathered["confusion"] = shard.confusion if before is None else \
                {mode: before[mode].merge(m) for mode, m in shard.confusion.items()}
        gathered["errors"].extend(shard.errors or ())
        if shard.doc_type is not None:
            gathered["doc_type"].append(shard.doc_type)
        if shard.buckets is not None:
            gathered["buckets"].append(shard.buckets)
        offset += shard.n_docs

    collect = partial(collect_qa, max_docs=max_docs if diff is not None else 0, classify=classify,
                      analysis=analysis)
    try:
        ev, _ = scan_shards(key, response, collect=collect, consume=consume, scheduler=scheduler,
                            docs_per_chunk=docs_per_chunk, sharded=sharded, progress=progress, credit=credit,
                            **settings)
        classification = merged[0].table() if merged else None
        report = ev.report(lazy=True)  # per-document rows built when written, a chunk at a time
        if classification is not None:  # the JSON holds what the HTML and the terminal show
            report["classification"] = classification
        written: dict[str, Path] = {}
        if analysis is not None:
            report.update(_sections(ev, analysis, gathered))
            if "errors" in paths:
                from ..files import write_rows
                from ..spans.decisions import COLUMNS

                written["errors"] = write_rows(paths["errors"], gathered["errors"], COLUMNS)
        if diff is not None:  # first: a failure leaves every earlier report as it was
            written["html"] = diff.write(report, ev.doc_ids, classification=classification,
                                         max_doc_rows=max_doc_rows)
        others = {fmt: p for fmt, p in paths.items() if fmt not in ("html", "errors")}
        if others:
            written.update(write_reports(ev, paths=others, measures=measures, classification=classification,
                                         report=report, max_doc_rows=max_doc_rows))
    except BaseException:
        if diff is not None:
            diff.discard()
        raise
    return report, classification, written


def _sections(evaluation: Evaluation, analysis: Any, gathered: dict[str, Any]) -> dict[str, Any]:
    """The error-analysis sections of the merged evaluation, with what the shards gathered
    (:func:`~spacy_anno_eval.workflows.analysis.analysis_sections`)."""
    from .analysis import analysis_sections

    if analysis.buckets and len(gathered["buckets"]) != 1:
        from ..errors import ConfigError

        raise ConfigError("--buckets needs the whole corpus in one part (its document edges are the corpus's "
                          "quartiles); run without --shards, --dask or --chunk-docs")
    by_doc_type = _doc_type_counts(gathered["doc_type"]) if analysis.ci is not None else None
    return analysis_sections(evaluation, analysis, confusion=gathered["confusion"], by_doc_type=by_doc_type,
                             buckets=gathered["buckets"][0] if analysis.buckets else None)


__all__ = ["QAShard", "collect_qa", "run_qa"]
