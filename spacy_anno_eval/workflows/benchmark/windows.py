"""Scoring benchmark versions window by window: one shard of responses in memory at a time.

A stored baseline is a folder of DocBin shards of ``SHARD_SIZE`` documents
(or a ``predictions.jsonl``, read in chunks of as many documents), written in
the order of ``clean/``, which is the order of ``marked/``. So the baselines
of one benchmark split alike: window ``w`` holds the same documents in every
version. Each window is scored against the same documents of ``marked/``
(:meth:`Corpus.window <spacy_anno_eval.annotations.table.Corpus.window>`: columns,
no Docs) by the one engine, and only what the reports need is kept:

- the window's :class:`~spacy_anno_eval.spans.counts.Evaluation` without its pairs
  (merged at the end: :meth:`Evaluation.concat`);
- its per-document, per-type counts (the paired bootstrap resamples documents);
- with two versions, the annotations whose status changed
  (:func:`.compare.annotation_changes`);
- the first documents of the Annotation Diff and, for the verbose mode, the
  pairs that are not correct (GATE's list of non-coextensive annotations).

Every figure equals that of scoring the whole corpus at once. When the
versions are not split alike, or not in the order of ``marked/`` (a baseline
imported from elsewhere), :func:`score_windows` returns ``None`` and the
caller scores the whole corpus at once.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from ...annotations.table import Corpus
from ...spans.counts import Evaluation
from ..stream import SeenNames
from .settings import BenchmarkSettings


@dataclass
class VersionScore:
    """What a benchmark keeps of one version scored window by window."""

    evaluation: Evaluation                     # merged: counts per type and per document, no pairs
    doc_type_counts: np.ndarray                # (n_docs, len(labels), N_FIELDS), in the order ``labels``
    labels: list[str]
    diff: list[Any] = field(default_factory=list)        # DiffDocument, the first ``max_diff_docs``
    n_with_pairs: int = 0                                 # documents with pairs (the Diff's total)
    not_correct: list[dict[str, Any]] = field(default_factory=list)  # diff rows not correct (verbose mode)


def _units(source: Path, fmt: str, docs_per_chunk: int) -> list[Any]:
    from ...io.units import shard_units

    return shard_units(source, fmt, docs_per_chunk, sharded=source.is_dir())


def _read(unit: Any, fmt: str, settings: BenchmarkSettings) -> Corpus | None:
    """The responses of one unit (a shard file or a chunk); ``None`` for a chunk with a document that has no
    id of its own (its position in the chunk is not its position in the file)."""
    from ...io.units import read_unit

    corpus, found = read_unit(unit, [settings.response_set], fmt, settings.features, allow_empty=False)
    return None if not isinstance(unit, str) and any(i is None for i in found) else corpus


def _windows(marked: Corpus, versions: Sequence[tuple[Path, str]], settings: BenchmarkSettings,
             docs_per_chunk: int) -> Iterator[tuple[int, Corpus, list[Corpus]]] | None:
    """(first document, marked window, each version's responses) per window; ``None`` when the versions do
    not split alike."""
    units = [_units(path, fmt, docs_per_chunk) for path, fmt in versions]
    if len({len(u) for u in units}) != 1:
        return None

    def gen() -> Iterator[tuple[int, Corpus, list[Corpus]]]:
        a = 0
        for window in zip(*units, strict=True):
            responses = [_read(u, fmt, settings) for u, (_, fmt) in zip(window, versions, strict=True)]
            if any(r is None for r in responses):
                raise _NotAligned
            n = len(responses[0])
            if any(r.doc_ids != marked.doc_ids[a:a + n] for r in responses):
                raise _NotAligned
            yield a, marked.window(a, a + n), responses
            a += n
        if a != len(marked):
            raise _NotAligned

    return gen()


class _NotAligned(Exception):
    """The versions do not split like ``marked/``: score the whole corpus instead."""


def score_windows(marked: Corpus, versions: Sequence[tuple[Path, str]], settings: BenchmarkSettings, *,
                  max_diff_docs: int | None = 100, verbose: bool = False, docs_per_chunk: int = 10_000,
                  progress: bool = False) -> tuple[list[VersionScore], list[dict[str, Any]]] | None:
    """Score each version (``(data path, format)`` of a baseline) against ``marked`` window by window.

    Returns each version's :class:`VersionScore` and, with two versions, the
    annotation changes from the first to the second (document indices
    global); ``None`` when the versions are not split alike (see the module
    docstring).
    """
    from ...progress import progress_bar
    from .compare import annotation_changes, doc_type_counts

    windows = _windows(marked, versions, settings, docs_per_chunk)
    if windows is None:
        return None
    k = len(versions)
    evaluations: list[list[Evaluation]] = [[] for _ in range(k)]
    counts: list[list[tuple[list[str], np.ndarray]]] = [[] for _ in range(k)]
    kept = [_Kept() for _ in range(k)]
    changes: list[dict[str, Any]] = []
    seen = SeenNames()  # windows are parts: their names are checked once, over the whole corpus
    try:
        with progress_bar(len(marked), "scoring", "doc", enabled=progress) as bar:
            for a, key, responses in windows:
                for r in responses:
                    seen.add(SeenNames.of(key, r, settings.key_set, settings.response_set or settings.key_set))
                window_evs = [settings.evaluate(key, r) for r in responses]
                for v, ev in enumerate(window_evs):
                    kept[v].add(ev, a, max_diff_docs, verbose)
                    counts[v].append((list(ev.labels), doc_type_counts(ev, list(ev.labels))))
                if k == 2:
                    changes.extend(_shifted(row, a) for row in annotation_changes(*window_evs))
                for v, ev in enumerate(window_evs):
                    evaluations[v].append(ev.without_pairs())
                bar.update(len(key))
    except _NotAligned:
        return None
    seen.check(marked.source or "marked/", {"settings": settings.span})
    merged = [Evaluation.concat(evs) if len(evs) > 1 else evs[0] for evs in evaluations]
    labels = sorted({name for ev in merged for name in ev.labels})
    scores = [VersionScore(ev, _stack(c, labels), labels, kp.diff, kp.n_with_pairs, kp.not_correct)
              for ev, c, kp in zip(merged, counts, kept, strict=True)]
    return scores, changes


@dataclass
class _Kept:
    """What a version keeps of its windows for the reports: the first Diff documents, and (verbose) the
    pairs that are not correct."""

    diff: list[Any] = field(default_factory=list)
    n_with_pairs: int = 0
    not_correct: list[dict[str, Any]] = field(default_factory=list)

    def add(self, ev: Evaluation, a: int, max_diff_docs: int | None, verbose: bool) -> None:
        """Window ``ev``, whose first document is document ``a``: its Diff documents while there is room
        (as a QA shard gives them, :func:`~spacy_anno_eval.workflows.qa.collect_qa`)."""
        from ..qa import collect_qa

        room = None if max_diff_docs is None else max(max_diff_docs - len(self.diff), 0)
        shard = collect_qa(ev, max_docs=room, classify=None)
        self.diff.extend(replace(d, index=d.index + a) for d in shard.documents)
        self.n_with_pairs += shard.n_with_pairs
        if verbose:
            self.not_correct.extend(_shifted(row, a) for row in ev.diff_rows() if row["status"] != "correct")


def _shifted(row: dict[str, Any], a: int) -> dict[str, Any]:
    return {**row, "doc": row["doc"] + a}


def _stack(pieces: list[tuple[list[str], np.ndarray]], labels: list[str]) -> np.ndarray:
    """Windows' (n_docs, window labels, N) counts as one (n_docs, labels, N) array."""
    n_docs = sum(len(c) for _, c in pieces)
    n_fields = pieces[0][1].shape[2] if pieces else 0
    out = np.zeros((n_docs, len(labels), n_fields), dtype=np.int64)
    index = {name: i for i, name in enumerate(labels)}
    a = 0
    for names, c in pieces:
        out[a:a + len(c)][:, [index[n] for n in names], :] = c
        a += len(c)
    return out


__all__ = ["VersionScore", "score_windows"]
