"""Why a system fails: the error-analysis sections the score and qa doors add to a report.

Each section is asked of a result object, never computed here
(DESIGN.md, invariant 4):

- ``decisions``: the error taxonomy's counts
  (:meth:`~spacy_anno_eval.spans.counts.Evaluation.decision_counts`), always;
- ``confusion``: the label confusion matrix, coextensive pairs and any
  overlap (:meth:`~spacy_anno_eval.spans.counts.Evaluation.confusion`);
- ``intervals``: document-bootstrap intervals of every figure
  (:func:`spacy_anno_eval.resampling.intervals.bootstrap_intervals`);
- ``buckets``: P/R/F per bucket (:meth:`~spacy_anno_eval.spans.counts.Evaluation.buckets`), each with the
  bootstrap interval of its figures when intervals are asked for.

:class:`AnalysisSettings` holds what was asked, validated once, before any
work (:meth:`AnalysisSettings.check_evaluation` tells a streamed evaluation,
which keeps no pairs, what it cannot have).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..errors import ConfigError

#: the options that need the pairs, as the command line names them
NEEDS_PAIRS = {"errors": "--errors", "confusion": "--confusion", "buckets": "--buckets"}


@dataclass(frozen=True)
class AnalysisSettings:
    """What to add to a report: ``errors`` (``None``, ``"errors"`` or ``"all"``: the rows to write),
    ``confusion``, ``ci`` (bootstrap samples, or ``None``) with ``seed`` and ``confidence``, ``buckets`` with an
    optional ``train`` corpus (a path), and ``context`` (characters around each error row)."""

    errors: str | None = None
    confusion: bool = False
    ci: int | None = None
    seed: int = 0
    confidence: float = 0.95
    buckets: bool = False
    train: Any = None
    context: int = 40
    key_set: str = "ents"
    train_format: str = "auto"

    def __post_init__(self) -> None:
        from ..resampling.intervals import check_samples

        if self.errors not in (None, "errors", "all"):
            raise ConfigError(f"errors must be None, 'errors' or 'all', got {self.errors!r}")
        if self.ci is not None:
            check_samples(self.ci, self.confidence)
        if self.train is not None and not self.buckets:
            raise ConfigError("--train gives the training data of the frequency and consistency buckets; give "
                              "--buckets with it")
        from ..spans.decisions import check_context

        check_context(self.context, "--context")

    def read_train(self) -> Any:
        """The training corpus of ``train`` (in the key's format, its key set checked), or ``None``. Read where
        the buckets are computed, once a run: buckets need the corpus in one part."""
        if self.train is None:
            return None
        from ..io import read_corpus

        corpus = read_corpus(self.train, format=self.train_format, selectors=[self.key_set])
        corpus.check_sets([self.key_set], "training corpus")
        return corpus

    def needs_pairs(self, gathered: tuple[str, ...] = ()) -> list[str]:
        """The options asked for that need the pairs of the whole corpus (command-line names), less those a
        door ``gathered`` shard by shard (qa gathers ``errors`` and ``confusion``)."""
        asked = {"errors": self.errors is not None, "confusion": self.confusion, "buckets": self.buckets}
        return [flag for name, flag in NEEDS_PAIRS.items() if asked[name] and name not in gathered]

    def refuse_streaming(self, streamed: bool, gathered: tuple[str, ...] = ()) -> None:
        """A :class:`ConfigError` when options that need the pairs meet a streamed run (``--shards``,
        ``--dask``, ``--chunk-docs``), which keeps none at the end: before any work. Buckets need the whole
        corpus at once (their document edges are the corpus's quartiles)."""
        needs = self.needs_pairs(gathered)
        if streamed and needs:
            raise ConfigError(f"{', '.join(needs)} need the pairs of the whole corpus, and a streamed run "
                              f"(--shards, --dask, --chunk-docs) keeps none; run without streaming")


def analysis_sections(evaluation: Any, settings: AnalysisSettings, *, confusion: dict[str, Any] | None = None,
                      by_doc_type: tuple[list[str], Any] | None = None, buckets: list[Any] | None = None,
                      client: Any = None) -> dict[str, Any]:
    """The report sections ``settings`` asks for (see the module), JSON-ready. What a door gathered shard by
    shard while the pairs existed (qa) is given instead of being asked of the evaluation: ``confusion``
    (``{"coextensive"|"any": SpanConfusion}``), ``by_doc_type`` (labels and counts per document and type, for
    the intervals) and ``buckets``."""
    out: dict[str, Any] = {"decisions": evaluation.decision_counts()}
    if settings.confusion:
        if confusion is None:
            confusion = {mode: evaluation.confusion(mode) for mode in ("coextensive", "any")}
        out["confusion"] = {mode: m.to_dict() for mode, m in confusion.items()}
    if settings.ci is not None:
        from ..resampling.intervals import bootstrap_intervals

        out["intervals"] = bootstrap_intervals(evaluation, n_samples=settings.ci, seed=settings.seed,
                                               confidence=settings.confidence, client=client,
                                               by_doc_type=by_doc_type).to_dict()
    if settings.buckets:
        if buckets is None:
            buckets = evaluation.buckets(train=settings.read_train())
        out["buckets"] = bucket_sections(buckets, settings, client=client)
    return out


def bucket_sections(buckets: list[Any], settings: AnalysisSettings, *, client: Any = None) -> list[dict[str, Any]]:
    """Each feature's buckets as JSON, with the bootstrap interval of each bucket's figures when ``settings``
    asks for intervals."""
    sections = []
    for b in buckets:
        entry = b.to_dict()
        if settings.ci is not None:
            from ..resampling.intervals import bucket_intervals

            cis = bucket_intervals(b, n_samples=settings.ci, seed=settings.seed, confidence=settings.confidence,
                                   client=client)
            for name, figures in entry["buckets"].items():
                figures["ci"] = cis[name]
        sections.append(entry)
    return sections


def error_rows(evaluation: Any, settings: AnalysisSettings) -> list[dict[str, Any]]:
    """The rows of ``--errors`` (every error) or ``--errors-all`` (every decision)."""
    from ..spans.decisions import DECISIONS

    return evaluation.errors(which=DECISIONS if settings.errors == "all" else None, context=settings.context)


__all__ = ["AnalysisSettings", "analysis_sections", "error_rows"]
