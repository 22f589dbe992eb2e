"""The one policy for figures: ratios, F-beta, undefined values, and what JSON may hold.

- A ratio whose denominator is 0 is ``zero_division`` (default 0.0, as
  scikit-learn's ``zero_division`` outcome; :func:`ratio`), and F is
  ``zero_division`` where both P and R were undefined.
- F-beta = (1 + β²)·P·R / (β²·P + R) (van Rijsbergen 1979); 0 when P + R = 0;
  β = inf gives R, as scikit-learn's ``fbeta_score`` does. β must be finite
  and >= 0, or inf (:func:`check_beta`).
- A coefficient that does not exist (κ with one category, α without
  pairable values) is ``None`` in Python and ``null`` in JSON, with an
  :class:`~spacy_anno_eval.errors.UndefinedFigureWarning`.
- Both warn with :class:`~spacy_anno_eval.errors.UndefinedFigureWarning`
  (or a subclass), once per call: :func:`warn_zero_division` names the
  ratios that got ``zero_division``, :func:`undefined` the coefficient that
  does not exist.
- No NaN and no Infinity ever reaches a JSON file: :func:`json_safe` turns
  them into ``None`` (``null``).

The names every door shares live here too: :data:`MEASURES` (GATE's strict,
lenient, average).
"""

from __future__ import annotations

import math
import numbers
import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np

from .errors import ConfigError, UndefinedFigureWarning

#: GATE's three ways of counting a partial match (user guide 10.2.2): as wrong, as right, as half right
MEASURES = ("strict", "lenient", "average")
#: the figures of each measure, in report order
FIGURES = ("p", "r", "f")


def check_beta(beta: Any) -> float:
    """Validate β of F-beta: a finite number >= 0, or ``inf`` (F = recall). NaN and strings are refused.

    >>> check_beta(2)
    2.0
    >>> check_beta(float("inf"))
    inf
    """
    if isinstance(beta, bool) or not isinstance(beta, int | float | np.integer | np.floating):
        raise ConfigError(f"beta must be a number >= 0 (or inf, meaning recall), got {beta!r}")
    value = float(beta)
    if math.isnan(value) or value < 0:
        raise ConfigError(f"beta must be a number >= 0 (or inf, meaning recall), got {beta!r}")
    return value


def check_fraction(name: str, value: Any, *, open_ends: bool = False, example: str = "") -> float:
    """Validate a probability, threshold or confidence level ``name``: a number in [0, 1] (in (0, 1) with
    ``open_ends``). NaN, booleans and strings are refused with a :class:`ConfigError` naming ``name``.

    >>> check_fraction("confidence", 0.95, open_ends=True)
    0.95
    """
    ok = not isinstance(value, bool) and isinstance(value, numbers.Real)
    v = float(value) if ok else math.nan
    if not (0.0 < v < 1.0 if open_ends else 0.0 <= v <= 1.0):  # NaN fails both
        interval = "(0, 1)" if open_ends else "[0, 1]"
        raise ConfigError(f"{name} must be a number in {interval}{f', e.g. {example}' if example else ''}, "
                          f"got {value!r}")
    return v


def check_count(name: str, value: Any, low: int = 1) -> int:
    """Validate a count ``name`` (samples, draws): a whole number >= ``low``; booleans, fractions, NaN and
    strings are refused with a :class:`ConfigError` naming ``name``.

    >>> check_count("n_samples", 1000)
    1000
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < low:
        raise ConfigError(f"{name} must be a whole number >= {low}, got {value!r}")
    return int(value)


def check_zero_division(zero_division: float) -> float:
    """Validate ``zero_division``: a number in [0, 1]."""
    try:
        value = float(zero_division)
    except (TypeError, ValueError):
        value = float("nan")
    if not 0.0 <= value <= 1.0:
        raise ConfigError(f"zero_division must be a number in [0, 1], got {zero_division!r}")
    return value


def ratio(num: np.ndarray, den: np.ndarray, zero_division: float = 0.0) -> np.ndarray:
    """``num / den`` elementwise, ``zero_division`` where ``den == 0``."""
    num = np.asarray(num, dtype=float)
    den = np.asarray(den, dtype=float)
    out = np.full(np.broadcast(num, den).shape, float(zero_division))
    np.divide(num, den, out=out, where=den != 0)
    return out


def fbeta(p: np.ndarray, r: np.ndarray, beta: float = 1.0, *, undefined: np.ndarray | None = None,
          zero_division: float = 0.0) -> np.ndarray:
    """F-beta = (1 + beta^2) P R / (beta^2 P + R) (van Rijsbergen 1979); 0 when P + R = 0; R when beta = inf.

    ``undefined`` marks entries where both P and R had a zero denominator:
    their F is ``zero_division``.

    >>> float(fbeta(0.5, 1.0, 1.0)), float(fbeta(0.5, 1.0, float("inf")))
    (0.6666666666666666, 1.0)
    """
    beta = check_beta(beta)
    p = np.asarray(p, dtype=float)
    r = np.asarray(r, dtype=float)
    if math.isinf(beta):
        f = np.broadcast_to(r, np.broadcast(p, r).shape).astype(float)
    else:
        b2 = beta * beta
        f = ratio((1 + b2) * p * r, b2 * p + r, 0.0)
    if undefined is not None:
        f = np.where(undefined, float(zero_division), f)
    return f


def json_safe(value: Any) -> Any:
    """``value`` with every NaN or infinite float (numpy's included) replaced by ``None``, recursively through
    dicts, lists and tuples; numpy scalars become Python numbers. What JSON may hold.

    >>> json_safe({"kappa": float("nan"), "f": [0.5, float("inf")]})
    {'kappa': None, 'f': [0.5, None]}
    """
    if isinstance(value, dict):
        return {k: json_safe(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [json_safe(v) for v in value]
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def undefined(name: str, why: str, *, category: type[Warning] = UndefinedFigureWarning,
              stacklevel: int = 2) -> None:
    """Warn that the coefficient ``name`` does not exist, because ``why``, and return ``None`` (its value).

    ``stacklevel`` counts from the caller of this function (2: the caller's caller).

    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     undefined("kappa", "one category only")
    >>> str(caught[0].message)
    'kappa is undefined (one category only); reported as None (null in JSON)'
    """
    warnings.warn(f"{name} is undefined ({why}); reported as None (null in JSON)", category, stacklevel=stacklevel + 1)
    return None


def warn_zero_division(figures: Sequence[str], zero_division: float, *, stacklevel: int = 2) -> None:
    """One :class:`~spacy_anno_eval.errors.UndefinedFigureWarning` naming the ratios in ``figures`` whose
    denominator was 0 and that were given ``zero_division``; nothing when ``figures`` is empty.

    ``stacklevel`` counts from the caller of this function (2: the caller's caller).
    """
    if not figures:
        return
    shown = ", ".join(figures[:8]) + (f" and {len(figures) - 8} more" if len(figures) > 8 else "")
    warnings.warn(f"{len(figures)} ratio{'s' if len(figures) > 1 else ''} with a zero denominator reported as "
                  f"zero_division = {zero_division}: {shown}", UndefinedFigureWarning, stacklevel=stacklevel + 1)


def none_if_undefined(value: Any) -> float | None:
    """A figure as a float, or ``None`` when it is missing, NaN or infinite."""
    if value is None:
        return None
    v = float(value)
    return v if math.isfinite(v) else None


__all__ = ["FIGURES", "MEASURES", "check_beta", "check_count", "check_fraction", "check_zero_division", "fbeta",
           "json_safe", "none_if_undefined", "ratio", "undefined", "warn_zero_division"]
