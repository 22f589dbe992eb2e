"""A spaCy scorer for coreference, where spacy-experimental's coref scorer goes, with every standard metric.

Registered as ``spacy_anno_eval.coref_scorer.v1``::

    [components.coref.scorer]
    @scorers = "spacy_anno_eval.coref_scorer.v1"
    span_cluster_prefix = "coref_clusters"   # spacy-experimental's setting: one span group per cluster
    keep_singletons = true

The clusters are the span groups whose key starts with ``span_cluster_prefix``
(``coref_clusters_1``, ``coref_clusters_2``, ...), in the reference and the
predicted Doc of each Example (read by
:func:`spacy_anno_eval.annotations.docs.example_clusters`); mentions match by
character offsets. Keys: ``coref_f`` (the CoNLL average, the mean F of MUC, B³
and CEAFe; spacy-experimental's scorer reports LEA's F there), ``coref_p`` and
``coref_r`` (LEA's, as spacy-experimental's), and ``coref_{metric}_{p,r,f}`` for
``muc``, ``bcub``, ``ceafm``, ``ceafe``, ``blanc``, ``lea`` and ``mentions``
(:mod:`spacy_anno_eval.coref.metrics`, micro over the Examples).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from ..errors import ConfigError


def score_coref_examples(examples: Iterable[Any], span_cluster_prefix: str = "coref_clusters",
                         keep_singletons: bool = True) -> dict[str, float]:
    """Score Examples whose span groups hold the clusters (keys: see the module)."""
    from ..annotations.docs import example_clusters
    from ..coref.metrics import METRICS, CorefScores, without_singletons

    scores = CorefScores()
    for name, key, response in example_clusters(examples, span_cluster_prefix):
        if not keep_singletons:
            key, response = without_singletons(key), without_singletons(response)
        scores.add(key, response, name)
    figures = scores.figures()
    out = {"coref_f": float(figures["conll"]["f"]), "coref_p": float(figures["lea"]["p"]),
           "coref_r": float(figures["lea"]["r"])}
    for metric in METRICS:
        for k in ("p", "r", "f"):
            out[f"coref_{metric}_{k}"] = float(figures[metric][k])
    return out


def make_coref_scorer(span_cluster_prefix: str = "coref_clusters",
                      keep_singletons: bool = True) -> Callable[..., dict[str, float]]:
    """Build the scorer registered as ``spacy_anno_eval.coref_scorer.v1``.

    span_cluster_prefix (str): the span-group key prefix of the clusters (spacy-experimental's setting).
    keep_singletons (bool): score single-mention clusters (default), or leave them out on both sides.
    """
    if not isinstance(span_cluster_prefix, str) or not span_cluster_prefix:
        raise ConfigError(f"coref_scorer: span_cluster_prefix must be a non-empty string, got "
                          f"{span_cluster_prefix!r}")
    if not isinstance(keep_singletons, bool):
        raise ConfigError(f"coref_scorer: keep_singletons must be true or false, got {keep_singletons!r}")

    def scorer(examples: Iterable[Any], **kwargs: Any) -> dict[str, float]:
        # kwargs come from the component's cfg (spaCy's TrainablePipe.score); the config wins
        return score_coref_examples(examples, span_cluster_prefix, keep_singletons)

    return scorer


__all__ = ["make_coref_scorer", "score_coref_examples"]
