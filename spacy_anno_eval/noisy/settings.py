"""The names and settings of noisy-text NER evaluation, and the check of its threshold.

Kept free of numpy so that the spaCy scorer (:mod:`spacy_anno_eval.pipeline.noisy_scorer`)
can name its defaults without importing the evaluation.
"""

from __future__ import annotations

import math
from typing import Any

from ..errors import ConfigError

#: the key of the micro average over types, as nerval names it
ALL = "ALL"
#: the tag of a character outside every entity
OUTSIDE = "O"
#: a gap in an aligned string
GAP = "-"
#: nerval's default: an entity is recognised when edit distance / gold entity length <= 0.30
DEFAULT_THRESHOLD = 0.30
#: aligned strings longer than this are left out of the result (``alignment`` is None for that document)
DEFAULT_MAX_ALIGNMENT_CHARS = 2000
#: how a ratio equal to the threshold counts: "inclusive" (``<=``, nerval 0.3.3's code) or "exclusive"
#: (``<``, the "< 0.3" of nerval's README and paper)
BOUNDARIES = ("inclusive", "exclusive")
DEFAULT_BOUNDARY = "inclusive"


def check_boundary(boundary: Any) -> str:
    """Validate the threshold boundary: ``"inclusive"`` (ratio <= threshold) or ``"exclusive"`` (ratio < threshold).

    >>> check_boundary("exclusive")
    'exclusive'
    """
    if boundary not in BOUNDARIES:
        raise ConfigError(f"boundary must be 'inclusive' (edit distance / gold length <= threshold, as nerval "
                          f"0.3.3's code) or 'exclusive' (< threshold, as nerval's README), got {boundary!r}")
    return str(boundary)


def passes(ratio: float, threshold: float, boundary: str = DEFAULT_BOUNDARY) -> bool:
    """Whether an edit distance / gold length ``ratio`` is within ``threshold`` under ``boundary``.

    >>> passes(0.3, 0.3), passes(0.3, 0.3, "exclusive")
    (True, False)
    """
    return ratio <= threshold if boundary == "inclusive" else ratio < threshold


def check_threshold(threshold: Any) -> float:
    """Validate the matching threshold (edit distance / gold entity length): a number in [0, 1].

    >>> check_threshold(0.3)
    0.3
    """
    try:
        value = float(threshold)
    except (TypeError, ValueError):
        value = math.nan
    if isinstance(threshold, bool) or not 0.0 <= value <= 1.0:
        raise ConfigError(f"threshold must be a number in [0, 1] (the most edit distance / gold entity length of a "
                          f"match; nerval's default is {DEFAULT_THRESHOLD}), got {threshold!r}")
    return value


__all__ = ["ALL", "BOUNDARIES", "DEFAULT_BOUNDARY", "DEFAULT_MAX_ALIGNMENT_CHARS", "DEFAULT_THRESHOLD", "GAP",
           "OUTSIDE", "check_boundary", "check_threshold", "passes"]
