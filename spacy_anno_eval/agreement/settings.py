"""The agreement summary's settings: one typed, frozen object that validates every value once, at construction.

:func:`~spacy_anno_eval.agreement.summary.agreement_summary` (the Python API
and ``anno-eval agreement``) builds it before any coefficient is computed,
and the summary it returns carries it (``summary.settings``). A bad value is
a :class:`~spacy_anno_eval.errors.ConfigError` naming it (DESIGN.md,
Contracts, "Values are checked"):

- ``level``: Krippendorff's α metric, ``nominal``, ``ordinal``, ``interval``
  or ``ratio`` (or a callable ``δ²(c, k)``, the Python API's own metric);
- ``bootstrap``: how many bootstrap samples for the intervals, a whole
  number >= 0 (0: none);
- ``seed``: the seed of the samples, a whole number >= 0;
- ``confidence``: the intervals' confidence level, in (0, 1).
"""

from __future__ import annotations

import numbers
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..errors import ConfigError
from ..figures import check_count, check_fraction
from .reliability import LEVELS


@dataclass(frozen=True)
class AgreementSettings:
    """The settings of an agreement summary (module docstring); ``AgreementSettings(**kwargs)`` validates them."""

    level: str | Callable[[Any, Any], float] = "nominal"
    bootstrap: int = 0
    seed: int = 0
    confidence: float = 0.95

    def __post_init__(self) -> None:
        if not callable(self.level) and self.level not in LEVELS:
            raise ConfigError(f"level must be one of {', '.join(LEVELS)} or a callable, got {self.level!r}")
        if isinstance(self.seed, bool) or not isinstance(self.seed, numbers.Integral) or self.seed < 0:
            raise ConfigError(f"seed must be a whole number >= 0, got {self.seed!r}")
        object.__setattr__(self, "bootstrap", check_count("bootstrap", self.bootstrap, low=0))
        object.__setattr__(self, "seed", int(self.seed))
        object.__setattr__(self, "confidence", check_fraction("confidence", self.confidence, open_ends=True,
                                                              example="0.95"))

    def to_dict(self) -> dict[str, Any]:
        """The settings as JSON-ready data (a callable level by its name)."""
        level = self.level if isinstance(self.level, str) else getattr(self.level, "__name__", "callable")
        return {"level": level, "bootstrap": self.bootstrap, "seed": self.seed, "confidence": self.confidence}


__all__ = ["AgreementSettings"]
