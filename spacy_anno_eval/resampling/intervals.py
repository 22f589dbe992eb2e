"""Document-bootstrap percentile intervals of one system's figures.

A corpus is a sample of documents, so a figure's uncertainty is that of
drawing other documents (Koehn 2004; Efron & Tibshirani 1993, ch. 13). Draw
``B`` samples of ``n`` documents with replacement; for each, add up the
per-document (and per document and type) counts of the sample and compute
every figure again:

- micro P/R/F of each measure (strict, lenient, average) from the summed
  counts; per type likewise from that type's summed counts;
- macro over types: the mean of the per-type figures over the types that
  have an annotation in the sample;
- macro over documents: the mean of the documents' own figures over the
  sampled documents that have an annotation, each counted as often as drawn.

The interval at confidence ``c`` is the percentile interval of the ``B``
values: their ``(1 − c)/2`` and ``(1 + c)/2`` quantiles (numpy's default,
linear interpolation). Samples are drawn in seeded blocks
(:mod:`spacy_anno_eval.samples`): the same seed gives the same intervals
in-process and on Dask (``client``).

Per-type intervals need the pairs (the counts per document *and* type); an
evaluation without them (streamed, merged) gets micro and macro-over-documents
intervals only, and says so in ``left_out``.
"""

from __future__ import annotations

import numbers
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from ..errors import ConfigError
from ..figures import FIGURES
from ..samples import block_size_for, document_weights, map_blocks
from ..spans.counts import count_pairs_by_doc_and_type
from ..spans.measures import MODES, gate_prf

if TYPE_CHECKING:
    from ..spans.counts import Evaluation

_CHUNK_CELLS = 4_000_000  # float64 cells of one block's sums (32 MB)


def check_samples(n_samples: Any, confidence: Any) -> tuple[int, float]:
    """``(n_samples, confidence)`` when ``n_samples`` is a whole number >= 1 and ``confidence`` a number in
    (0, 1); else :class:`ConfigError` saying what is wanted."""
    if isinstance(n_samples, bool) or not isinstance(n_samples, numbers.Integral) or n_samples < 1:
        raise ConfigError(f"the number of bootstrap samples must be a whole number >= 1, e.g. 1000, "
                          f"got {n_samples!r}")
    if isinstance(confidence, bool) or not isinstance(confidence, numbers.Real) or not 0 < confidence < 1:
        raise ConfigError(f"confidence must be a number in (0, 1), e.g. 0.95, got {confidence!r}")
    return int(n_samples), float(confidence)


def _table(raw: np.ndarray, beta: float, zd: float) -> np.ndarray:
    """Figures (..., measures, 3) of raw counts (..., N_FIELDS)."""
    prf = gate_prf(raw, beta, zd)
    return np.stack([np.stack([prf[m][k] for k in FIGURES], axis=-1) for m in MODES], axis=-2)


def _statistics(doc_sums: np.ndarray, type_sums: np.ndarray | None, doc_weights: np.ndarray,
                doc_figures: np.ndarray, doc_present: np.ndarray, beta: float, zd: float) -> dict[str, np.ndarray]:
    """Every figure of each sample: ``doc_sums`` (B, F) summed counts; ``type_sums`` (B, T, F) or None;
    ``doc_weights`` (B, n_docs) how often each document was drawn."""
    out = {"micro": _table(doc_sums, beta, zd)}
    present_w = doc_weights @ doc_present                                          # (B,)
    mean = np.einsum("bd,dmk->bmk", doc_weights, doc_figures * doc_present[:, None, None])
    with np.errstate(invalid="ignore", divide="ignore"):
        out["macro_docs"] = np.where(present_w[:, None, None] > 0, mean / present_w[:, None, None], zd)
    if type_sums is not None:
        per_type = _table(type_sums, beta, zd)                                     # (B, T, M, 3)
        present = type_sums.any(axis=2).astype(float)                              # (B, T)
        n = present.sum(axis=1)
        total = np.einsum("bt,btmk->bmk", present, per_type)
        with np.errstate(invalid="ignore", divide="ignore"):
            out["macro_types"] = np.where(n[:, None, None] > 0, total / n[:, None, None], zd)
        out["per_type"] = per_type
    return out


def _resample(size: int, seed: Any, n_docs: int) -> np.ndarray:
    """One block's document weights: ``size`` resamples of ``n_docs`` documents from the block's generator."""
    return document_weights(np.random.default_rng(seed), n_docs, size)


def _summed(weights: np.ndarray, per_doc: np.ndarray) -> np.ndarray:
    """Each resample's sums of ``per_doc`` (``(n_docs, ...)`` counts): ``(size, ...)``."""
    return (weights @ per_doc.reshape(len(per_doc), -1)).reshape(len(weights), *per_doc.shape[1:])


def _block(size: int, seed: Any, by_doc: np.ndarray, by_doc_type: np.ndarray | None, doc_figures: np.ndarray,
           doc_present: np.ndarray, beta: float, zd: float) -> dict[str, np.ndarray]:
    """One block of ``size`` samples: the figures of each (see :func:`_statistics`)."""
    weights = _resample(size, seed, len(by_doc))
    type_sums = None if by_doc_type is None else _summed(weights, by_doc_type)
    return _statistics(weights @ by_doc, type_sums, weights, doc_figures, doc_present, beta, zd)


def _percentile_block(size: int, seed: Any, per_doc: np.ndarray, statistic: Callable[[np.ndarray], np.ndarray]
                      ) -> np.ndarray:
    """One block of :func:`percentile_bootstrap`: the statistic of each of ``size`` resampled sums."""
    return np.asarray(statistic(_summed(_resample(size, seed, len(per_doc)), per_doc)), dtype=float)


def percentile_bootstrap(per_doc: np.ndarray, statistic: Callable[[np.ndarray], np.ndarray], *,
                         n_samples: int = 1000, seed: int = 0, confidence: float = 0.95,
                         client: Any = None) -> tuple[np.ndarray, np.ndarray]:
    """``(low, high)``: the document-bootstrap percentile interval of every figure ``statistic`` computes from
    summed per-document counts. ``per_doc``: counts of shape ``(n_docs, ...)``; ``statistic`` maps sums of
    shape ``(batch, ...)`` to figures ``(batch, ...)`` (module-level, or a ``functools.partial`` of one, to run
    on ``client``). Drawn as :func:`bootstrap_intervals` draws (seeded blocks, the same on Dask)."""
    n_samples, confidence = check_samples(n_samples, confidence)
    per_doc = np.asarray(per_doc, dtype=float)
    if not len(per_doc):
        raise ConfigError("bootstrap intervals need at least one document; there are none")
    block = block_size_for(max(per_doc.size, 1), max_cells=_CHUNK_CELLS)
    parts = map_blocks(_percentile_block, n_samples, seed, block, client=client, per_doc=per_doc,
                       statistic=statistic)
    tail = (1.0 - confidence) / 2.0
    low, high = np.quantile(np.concatenate(parts), [tail, 1.0 - tail], axis=0)
    return low, high


@dataclass(frozen=True)
class BootstrapIntervals:
    """Percentile intervals of an evaluation's figures: ``low`` and ``high`` per part (``micro``,
    ``macro_docs``, ``macro_types``, ``per_type``), each an array (..., measures, 3) in the order of
    :data:`~spacy_anno_eval.spans.measures.MODES` and :data:`FIGURES`."""

    labels: tuple[str, ...]
    low: dict[str, np.ndarray]
    high: dict[str, np.ndarray]
    n_samples: int
    seed: int
    confidence: float
    left_out: list[str] = field(default_factory=list)

    def interval(self, part: str, measure: str = "strict", figure: str = "f", label: str | None = None
                 ) -> tuple[float, float]:
        """``(low, high)`` of one figure: ``part`` micro, macro_docs, macro_types or per_type (with
        ``label``). A name that matches nothing is a :class:`ConfigError` listing what exists."""
        if part not in self.low:
            raise ConfigError(f"no intervals for {part!r}; these have them: {', '.join(self.low)}")
        if measure not in MODES or figure not in FIGURES:
            raise ConfigError(f"measure must be one of {', '.join(MODES)} and figure one of "
                              f"{', '.join(FIGURES)}, got {measure!r} and {figure!r}")
        index: tuple[int, ...] = (MODES.index(measure), FIGURES.index(figure))
        if part == "per_type":
            if label not in self.labels:
                raise ConfigError(f"no type {label!r}; the types are {', '.join(self.labels)}")
            index = (self.labels.index(label), *index)
        return float(self.low[part][index]), float(self.high[part][index])

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: ``{part: {measure: {figure: [low, high]}}}`` (``per_type``: one level more, by type),
        with the settings and ``left_out``."""
        def cells(low: np.ndarray, high: np.ndarray) -> dict[str, Any]:
            return {m: {k: [float(low[i, j]), float(high[i, j])] for j, k in enumerate(FIGURES)}
                    for i, m in enumerate(MODES)}

        out: dict[str, Any] = {"method": "document bootstrap, percentile", "n_samples": self.n_samples,
                               "seed": self.seed, "confidence": self.confidence}
        for part in ("micro", "macro_types", "macro_docs"):
            if part in self.low:
                out[part] = cells(self.low[part], self.high[part])
        if "per_type" in self.low:
            out["per_type"] = {label: cells(self.low["per_type"][t], self.high["per_type"][t])
                               for t, label in enumerate(self.labels)}
        out["left_out"] = list(self.left_out)
        return out


def bootstrap_intervals(evaluation: Evaluation, *, n_samples: int = 1000, seed: int = 0, confidence: float = 0.95,
                        beta: float | None = None, zero_division: float | None = None,
                        client: Any = None, by_doc_type: tuple[list[str], np.ndarray] | None = None
                        ) -> BootstrapIntervals:
    """Document-bootstrap percentile intervals of every micro, macro and per-type P/R/F of ``evaluation``
    (see the module). ``beta`` and ``zero_division`` default to the evaluation's settings; ``client``: an open
    ``distributed.Client`` to draw the blocks on. ``by_doc_type``: ``(labels, counts)``, the counts per document
    and type (``(n_docs, len(labels), N_FIELDS)``) when the evaluation keeps no pairs but they were kept shard by
    shard (qa)."""
    n_samples, confidence = check_samples(n_samples, confidence)
    settings = evaluation.settings
    beta = settings.beta if beta is None else beta
    zd = settings.zero_division if zero_division is None else zero_division
    if not evaluation.doc_ids:
        raise ConfigError("bootstrap intervals need at least one document; this evaluation has none")
    by_doc = evaluation.by_doc.astype(float)
    left_out = []
    given, by_doc_type = by_doc_type, None
    if given is not None:
        labels_given, counts = given
        by_doc_type = np.asarray(counts, dtype=float)
        if by_doc_type.shape[:2] != (len(evaluation.doc_ids), len(labels_given)):
            raise ConfigError(f"by_doc_type holds {by_doc_type.shape[:2]} documents x types; the evaluation has "
                              f"{len(evaluation.doc_ids)} documents and {len(labels_given)} labels were named")
    elif evaluation.has_pairs:
        by_doc_type = count_pairs_by_doc_and_type(evaluation.alignment, len(evaluation.doc_ids)).astype(float)
    else:
        left_out.append("per_type and macro_types: the evaluation keeps no pairs (streamed or merged), so its "
                        "counts per document and type are not known")
    doc_figures = _table(by_doc, beta, zd)
    doc_present = by_doc.any(axis=1).astype(float)
    cells = by_doc.size + (0 if by_doc_type is None else by_doc_type.size // len(by_doc) * 4)
    block = block_size_for(max(cells, 1), max_cells=_CHUNK_CELLS)
    parts = map_blocks(_block, n_samples, seed, block, client=client, by_doc=by_doc, by_doc_type=by_doc_type,
                       doc_figures=doc_figures, doc_present=doc_present, beta=beta, zd=zd)
    tail = (1.0 - confidence) / 2.0
    low, high = {}, {}
    for name in parts[0]:
        values = np.concatenate([p[name] for p in parts])
        low[name], high[name] = np.quantile(values, [tail, 1.0 - tail], axis=0)
    labels = (tuple(given[0]) if given is not None else tuple(evaluation.alignment.labels)
              if by_doc_type is not None else tuple(evaluation.labels))
    return BootstrapIntervals(labels, low, high, n_samples, int(seed), confidence, left_out)


def bucket_intervals(buckets: Any, *, n_samples: int = 1000, seed: int = 0, confidence: float = 0.95,
                     client: Any = None) -> dict[str, dict[str, dict[str, list[float]]]]:
    """``{bucket: {"strict"|"lenient": {"p"|"r"|"f": [low, high]}}}``: the document-bootstrap percentile
    intervals of a :class:`~spacy_anno_eval.spans.buckets.Buckets`' figures (:func:`percentile_bootstrap` on
    its per-document counts)."""
    from functools import partial

    from ..spans.buckets import bucket_figures

    statistic = partial(bucket_figures, beta=buckets.beta, zero_division=buckets.zero_division)
    low, high = percentile_bootstrap(buckets.counts, statistic, n_samples=n_samples, seed=seed,
                                     confidence=confidence, client=client)
    return {name: {mode: {k: [float(low[b, m, j]), float(high[b, m, j])] for j, k in enumerate(FIGURES)}
                   for m, mode in enumerate(("strict", "lenient"))}
            for b, name in enumerate(buckets.names)}


__all__ = ["FIGURES", "BootstrapIntervals", "bootstrap_intervals", "bucket_intervals", "check_samples",
           "percentile_bootstrap"]
