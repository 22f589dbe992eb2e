"""γ's settings: one typed, frozen object that validates every value once, at construction.

:func:`~spacy_anno_eval.gamma.measure.gamma` (the Python API and ``anno-eval
gamma``) builds it before the continuum is read or any sample drawn, and the
:class:`~spacy_anno_eval.gamma.measure.GammaResult` carries it. A bad value is
a :class:`~spacy_anno_eval.errors.ConfigError` naming it (DESIGN.md,
Contracts, "Values are checked"):

- ``dissimilarity``: the :class:`~spacy_anno_eval.gamma.dissimilarity.Dissimilarity`
  (α, β of the positional part, Δ∅; validated by its own constructor);
- ``sampler``: ``statistical`` or ``shuffle``; ``empty_pairs``: ``ignore``
  or ``pygamma``;
- ``n_samples``: random continua drawn first, a whole number >= 2 (a spread
  is needed); ``max_samples``: at most this many, >= ``n_samples``;
- ``precision``: sample until the expected disorder is known within this
  relative precision, in (0, 1), or ``None``; ``confidence``: its level and
  that of the interval, in (0, 1);
- ``seed``: a whole number >= 0; ``n_jobs``: processes, a whole number >= 1,
  ``-1`` (all cores) or ``None`` (chosen by the continuum's size).
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass, field
from typing import Any

from ..errors import ConfigError
from .dissimilarity import Dissimilarity
from .sampling import SAMPLERS

EMPTY_PAIRS = ("ignore", "pygamma")


def _whole(value: Any) -> bool:
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def _real(value: Any) -> bool:
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


@dataclass(frozen=True)
class GammaSettings:
    """The settings of a γ computation (module docstring); ``GammaSettings(**kwargs)`` validates them."""

    dissimilarity: Dissimilarity = field(default_factory=Dissimilarity)
    sampler: str = "statistical"
    n_samples: int = 30
    precision: float | None = None
    max_samples: int = 1000
    confidence: float = 0.95
    seed: int = 0
    n_jobs: int | None = None
    empty_pairs: str = "ignore"

    def __post_init__(self) -> None:
        if not isinstance(self.dissimilarity, Dissimilarity):
            raise ConfigError(f"dissimilarity must be a Dissimilarity, got {type(self.dissimilarity).__name__}")
        if not _whole(self.n_samples) or self.n_samples < 2:
            raise ConfigError(f"n_samples (--samples) must be a whole number >= 2 (a spread is needed), got "
                              f"{self.n_samples!r}")
        if not _whole(self.max_samples) or self.max_samples < self.n_samples:
            raise ConfigError(f"max_samples (--max-samples) must be a whole number >= n_samples ({self.n_samples}), "
                              f"got {self.max_samples!r}")
        if self.precision is not None and not (_real(self.precision) and 0 < self.precision < 1):
            raise ConfigError(f"precision (--precision) must be a number in (0, 1), e.g. 0.02 for 2 %, got "
                              f"{self.precision!r}")
        if not (_real(self.confidence) and 0 < self.confidence < 1):
            raise ConfigError(f"confidence must be a number in (0, 1), e.g. 0.95, got {self.confidence!r}")
        if not _whole(self.seed) or self.seed < 0:
            raise ConfigError(f"seed (--seed) must be a whole number >= 0, got {self.seed!r}")
        if self.n_jobs is not None and (not _whole(self.n_jobs) or (self.n_jobs < 1 and self.n_jobs != -1)):
            raise ConfigError(f"n_jobs (--jobs) must be a whole number >= 1, or -1 for all cores (None: chosen by the "
                              f"number of units), got {self.n_jobs!r}")
        if self.sampler not in SAMPLERS:
            raise ConfigError(f"sampler must be one of {', '.join(SAMPLERS)}, got {self.sampler!r}")
        if self.empty_pairs not in EMPTY_PAIRS:
            raise ConfigError(f"empty_pairs must be one of {', '.join(EMPTY_PAIRS)}, got {self.empty_pairs!r}")
        for name, cast in (("n_samples", int), ("max_samples", int), ("seed", int), ("confidence", float)):
            object.__setattr__(self, name, cast(getattr(self, name)))
        if self.precision is not None:
            object.__setattr__(self, "precision", float(self.precision))

    def to_dict(self) -> dict[str, Any]:
        """What a result records under ``"settings"`` (the keys γ's JSON always held)."""
        return {**self.dissimilarity.to_dict(), "sampler": self.sampler, "seed": self.seed,
                "precision": self.precision, "empty_pairs": self.empty_pairs, "n_samples_min": self.n_samples,
                "max_samples": self.max_samples}


__all__ = ["EMPTY_PAIRS", "GammaSettings"]
