"""Which of two or more coreference systems is better: every metric's difference, with paired significance.

Every system is scored against one key (:func:`spacy_anno_eval.coref.metrics.score_documents`, the same
settings for all). Each document gives one vector of counts per system, every metric's recall and precision
numerators and denominators (:func:`~spacy_anno_eval.coref.metrics.counts_vector`); the paired bootstrap and
approximate randomization over documents (:func:`spacy_anno_eval.resampling.paired.paired_tests`, the
machinery of the span ``compare``) resample those vectors and recompute every figure from summed counts
(:func:`~spacy_anno_eval.coref.metrics.figures_array`), so each p-value and interval is that of the
micro-averaged figure itself (Koehn 2004; Berg-Kirkpatrick et al. 2012). With three systems or more, each
figure's p-values are Holm-adjusted across the pairs (``*_holm``); a difference is *significant* when its
(adjusted) randomization p-value is at most ``alpha``, as in the span ``compare``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import partial
from itertools import combinations
from typing import Any

import numpy as np

from ..coref.metrics import FIGURE_NAMES, CorefScores, counts_vector, figures_array, score_documents
from ..errors import ConfigError
from ..resampling.paired import holm, paired_tests

ALPHA = 0.05


@dataclass
class CorefComparison:
    """Each system's scores and, for every pair (old, new), each figure's old and new value, delta, interval and
    p-values (:data:`~spacy_anno_eval.coref.metrics.FIGURE_NAMES`)."""

    names: list[str]
    scores: list[CorefScores]
    pairs: list[dict[str, Any]]
    settings: dict[str, Any] = field(default_factory=dict)
    alpha: float = ALPHA
    notes: list[str] = field(default_factory=list)

    @property
    def corrected(self) -> bool:
        """Whether the p-values are Holm-adjusted across pairs (three systems or more)."""
        return len(self.names) > 2

    def significant(self, entry: dict[str, Any]) -> bool:
        """Whether one figure's difference is significant (see the module)."""
        p = entry["p_randomization_holm"] if self.corrected else entry["p_randomization"]
        return entry["delta"] != 0 and p <= self.alpha

    def to_dict(self, per_doc: bool = False) -> dict[str, Any]:
        """JSON-ready: the systems' figures, every pair's tests, the settings."""
        return {"systems": {name: s.to_dict(per_doc=per_doc) for name, s in zip(self.names, self.scores,
                                                                                  strict=True)},
                "pairs": self.pairs, "alpha": self.alpha, "correction": "holm" if self.corrected else None,
                "settings": self.settings, "notes": self.notes}


def compare_coref(key_docs: Sequence[Any], systems: Sequence[Sequence[Any]], *, names: Sequence[str],
                  n_samples: int = 1000, seed: int = 0, confidence: float = 0.95, alpha: float = ALPHA,
                  client: Any = None, **settings: Any) -> CorefComparison:
    """Score each system's documents against ``key_docs`` (``settings``: those of
    :func:`~spacy_anno_eval.coref.metrics.score_documents`) and test every pair (see the module)."""
    if len(systems) < 2:
        raise ConfigError("comparing coreference systems needs two or more responses")
    if len(names) != len(systems) or len(set(names)) != len(names):
        raise ConfigError(f"give one distinct name per system, got {list(names)!r} for {len(systems)} systems")
    if isinstance(alpha, bool) or not isinstance(alpha, (int, float)) or not 0 < alpha < 1:
        raise ConfigError(f"alpha must be a number in (0, 1), e.g. 0.05, got {alpha!r}")
    scores = [score_documents(key_docs, docs, **settings) for docs in systems]
    counts = [np.stack([counts_vector(c) for _, c in s.per_doc]) for s in scores]
    pairs = list(combinations(range(len(systems)), 2))
    blanc = scores[0].blanc
    tests = paired_tests(counts, pairs, partial(figures_array, blanc=blanc), n_samples=n_samples, seed=seed,
                         confidence=confidence, client=client)
    out = []
    for (i, j), test in zip(pairs, tests, strict=True):
        figures = {name: {"old": float(test.old[k]), "new": float(test.new[k]), "delta": float(test.delta[k]),
                          "ci_low": float(test.ci_low[k]), "ci_high": float(test.ci_high[k]),
                          "p_bootstrap": float(test.p_bootstrap[k]),
                          "p_randomization": float(test.p_randomization[k])}
                   for k, name in enumerate(FIGURE_NAMES)}
        out.append({"old": names[i], "new": names[j], "figures": figures})
    for name in FIGURE_NAMES:
        for p in ("p_bootstrap", "p_randomization"):
            adjusted = holm(np.array([pair["figures"][name][p] for pair in out]))
            for pair, value in zip(out, adjusted.tolist(), strict=True):
                pair["figures"][name][f"{p}_holm"] = value
    run = {"n_samples": n_samples, "seed": seed, "confidence": confidence, **settings}
    return CorefComparison(list(names), scores, out, run, alpha, _notes(len(key_docs), alpha))


def _notes(n_docs: int, alpha: float) -> list[str]:
    """What the reader must know: with few documents no difference can be significant. Approximate
    randomization swaps whole documents, so its smallest two-sided p-value is about 2 / 2^n."""
    smallest = 2.0 ** (1 - n_docs)
    if smallest <= alpha:
        return []
    return [f"with {n_docs} document{'s' if n_docs != 1 else ''} no difference can reach p <= {alpha}: the "
            f"tests resample whole documents (the smallest randomization p is about {smallest:.3g}); score more "
            f"documents"]


__all__ = ["ALPHA", "CorefComparison", "compare_coref"]
