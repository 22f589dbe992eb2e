"""Agreement of any number of annotators, with missing values: Krippendorff's alpha, Fleiss' kappa,
Davies & Fleiss' kappa.

Input is *reliability data*: an annotators x units array, ``NaN`` (or
``None``) where an annotator gave no value — the convention of the
``krippendorff`` package's ``reliability_data`` — or, equivalently, a units x
values count matrix (``value_counts[u, c]`` = how many annotators gave unit
``u`` the value ``c``).

**Krippendorff's alpha** (Krippendorff 2011, "Computing Krippendorff's
alpha-reliability"; 2004, ch. 11). Only *pairable* values count: those of
units with ``m_u >= 2`` values. The coincidence matrix::

    o[c, k] = sum_u (n_uc * n_uk - [c == k] * n_uc) / (m_u - 1),   n_c = sum_k o[c, k],  n = sum_c n_c

and with a squared difference ``delta2[c, k]``::

    Do = sum_ck o[c, k] * delta2[c, k] / n
    De = sum_ck n_c * n_k * delta2[c, k] / (n * (n - 1))
    alpha = 1 - Do / De

``delta2`` by level of measurement (values ``v_c`` sorted): nominal
``[c != k]``; ordinal ``(sum_{g=c..k} n_g - (n_c + n_k) / 2) ** 2``; interval
``(v_c - v_k) ** 2``; ratio ``((v_c - v_k) / (v_c + v_k)) ** 2``; or a
callable ``distance(v_c, v_k)`` giving delta2. The ordinal and ratio
metrics use the values actually observed, as Krippendorff (2011) does.

**Fleiss' kappa** (Fleiss 1971), generalised to a varying number of ratings
per unit (units with fewer than two are left out): with ``m_u`` ratings of
unit ``u``, ``P_u = sum_c n_uc (n_uc - 1) / (m_u (m_u - 1))``, ``P = mean_u
P_u``, ``p_c = sum_u n_uc / sum_u m_u``, ``Pe = sum_c p_c ** 2``,
``kappa = (P - Pe) / (1 - Pe)``. Per category (Fleiss 1971, eq. 9, with a
constant number of ratings ``m``): ``kappa_c = 1 - sum_u n_uc (m - n_uc) /
(N m (m - 1) p_c (1 - p_c))``.

**Davies & Fleiss' kappa** (Davies & Fleiss 1982; GATE user guide eq. 10.4),
the multi-annotator Cohen's kappa (each annotator's own distribution), for
``I`` units all rated by the same ``J`` annotators::

    kappa = 1 - (I J**2 - sum_i sum_c Y_ic**2)
                / (I (J (J - 1) sum_c p_c (1 - p_c) + sum_c sum_j (p_cj - p_c) ** 2))

Every function returns an :class:`~spacy_anno_eval.agreement.coefficients.Agreement`
whose ``observed`` / ``expected`` hold the observed and expected *disagreement*
(alpha) or agreement (the kappas).

Undefined figures follow the package's one policy (:mod:`spacy_anno_eval.figures`):
a coefficient that does not exist (no pairable values, one category only:
``De = 0`` or ``Pe = 1``) is ``None`` (``null`` in JSON), and so is a part
(Do, De, P, Pe) that cannot be computed, with a
:class:`~spacy_anno_eval.errors.DegenerateAgreementWarning` (an
:class:`~spacy_anno_eval.errors.UndefinedFigureWarning`); ``undefined=``
gives another value. :func:`fleiss_kappa_per_category` returns an array:
NaN marks its undefined entries. Only outputs follow this policy: in the
input, NaN (or None) marks a missing value, as in the ``krippendorff``
package.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ..errors import ConfigError, DegenerateAgreementWarning, InputError
from ..samples import block_size_for, map_blocks
from .coefficients import Agreement, _check_bootstrap

LEVELS = ("nominal", "ordinal", "interval", "ratio")
_BATCH_CELLS = 1024  # bootstrap coincidences of a whole block in one matrix product up to q * q value pairs
_CELLS = 4_000_000  # float64 cells of per-unit parts held at once (32 MB)


def _warn(message: str, undefined: Any) -> None:
    """A :class:`DegenerateAgreementWarning` for the caller of the public function, saying what was reported."""
    import warnings

    shown = "None (null in JSON)" if undefined is None else undefined
    warnings.warn(f"{message}; reported as {shown}", DegenerateAgreementWarning, stacklevel=3)


def is_missing(x: Any) -> bool:
    """Whether ``x`` marks a missing value in reliability data: None or NaN (the ``krippendorff`` convention)."""
    return x is None or (isinstance(x, float) and x != x)


def reliability_counts(data: Any, value_domain: Sequence[Any] | None = None) -> tuple[np.ndarray, list[Any]]:
    """Units x values counts of annotators x units ``data`` (NaN / None missing), and the values in order.

    ``value_domain`` fixes the values and their order (needed for ordinal
    labels that are strings); otherwise the observed values, sorted.
    """
    arr = np.asarray(data, dtype=object if not isinstance(data, np.ndarray) else None)
    if arr.ndim != 2:
        raise InputError(f"reliability data must be annotators x units (2-D), got shape {arr.shape}")
    if arr.dtype.kind in "fiu" and value_domain is None:
        small = _small_integer_counts(arr.astype(float, copy=False))
        if small is not None:
            return small
    if arr.dtype.kind in "fiu":
        arr = arr.astype(float, copy=False)
        missing = np.isnan(arr)
        flat = arr[~missing]
        if np.isinf(flat).any():
            raise InputError(_not_finite(flat[np.isinf(flat)][0]))
        if value_domain is None:
            uniq, index = _codes(flat)
            values = uniq.tolist()
        else:
            values = list(value_domain)
            index = np.searchsorted(np.asarray(values, dtype=float), flat) if values else np.zeros(0, np.int64)
        if value_domain is not None:
            ok = (index < len(values)) & (np.asarray(values, dtype=float)[np.minimum(index, len(values) - 1)]
                                          == flat)
            if not ok.all():
                raise InputError(f"value {flat[~ok][0]!r} is not in value_domain; add it to value_domain")
    else:
        cells = arr.tolist()
        missing = np.array([[is_missing(x) for x in row] for row in cells], dtype=bool).reshape(arr.shape)
        flat_list = [x for row, mrow in zip(cells, missing.tolist(), strict=True)
                     for x, m in zip(row, mrow, strict=True) if not m]
        infinite = next((x for x in flat_list if isinstance(x, float | np.floating) and np.isinf(x)), None)
        if infinite is not None:
            raise InputError(_not_finite(infinite))
        values = list(value_domain) if value_domain is not None else sorted(set(flat_list))
        lookup = {v: i for i, v in enumerate(values)}
        try:
            index = np.array([lookup[x] for x in flat_list], dtype=np.int64)
        except KeyError as err:
            raise InputError(f"value {err.args[0]!r} is not in value_domain; add it to value_domain") from None
    units = np.nonzero(~missing)[1]
    q = max(len(values), 1)
    counts = np.bincount(units * q + index, minlength=arr.shape[1] * q).reshape(arr.shape[1], q)
    return counts[:, : len(values)].astype(np.int64), values


def _not_finite(value: Any) -> str:
    return (f"reliability data holds the value {float(value)!r}, which is not a finite number (an interval or "
            f"ratio distance to it does not exist); give finite values, and NaN or None for a missing one")


def _small_integer_counts(arr: np.ndarray, max_values: int = 32) -> tuple[np.ndarray, list[Any]] | None:
    """Counts by one comparison per value when the values are integers spanning at most ``max_values``.

    NaN compares unequal to everything, so missing values drop out by themselves.
    """
    lo, hi = np.fmin.reduce(arr, axis=None), np.fmax.reduce(arr, axis=None)
    if not (np.isfinite(lo) and np.isfinite(hi)) or hi - lo >= max_values or lo != np.floor(lo) or hi != np.floor(hi):
        return None
    candidates = np.arange(lo, hi + 1)
    # summing the comparisons in the narrowest integer type that holds the number of annotators is 3x faster
    small = np.uint8 if arr.shape[0] < 1 << 8 else np.uint16 if arr.shape[0] < 1 << 16 else np.int64
    # values x units, each row contiguous; returned transposed (a view), so callers see units x values
    counts = np.empty((len(candidates), arr.shape[1]), dtype=np.int64)
    for k, v in enumerate(candidates):
        counts[k] = (arr == v).sum(axis=0, dtype=small)
    totals = counts.sum(axis=1)
    if totals.sum() != arr.size - np.count_nonzero(np.isnan(arr)):
        return None  # some values are not integers
    used = totals > 0
    if used.all():
        return counts.T, candidates.tolist()
    return counts[used].T, candidates[used].tolist()


def _codes(flat: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Sorted distinct values of ``flat`` and each value's index; a direct table for small integers."""
    if len(flat) and np.all(flat == np.round(flat)):
        lo, hi = flat.min(), flat.max()
        if hi - lo < 1 << 16:
            shifted = (flat - lo).astype(np.int64)
            present = np.bincount(shifted, minlength=int(hi - lo) + 1) > 0
            code = np.cumsum(present) - 1
            return np.flatnonzero(present).astype(float) + lo, code[shifted]
    return np.unique(flat, return_inverse=True)


def coincidences(value_counts: np.ndarray) -> np.ndarray:
    """Krippendorff's coincidence matrix ``o`` of a units x values count matrix (pairable units only)."""
    # work on values x units rows (contiguous: reliability_counts returns such a transposed view)
    n = np.asarray(np.asarray(value_counts).T, dtype=float, order="C")
    m = n.sum(axis=0)
    weight = np.zeros_like(m)
    pairable = m >= 2
    weight[pairable] = 1.0 / (m[pairable] - 1.0)  # units with one value get weight 0
    weighted = n * weight
    o = weighted @ n.T
    o[np.diag_indices_from(o)] -= weighted.sum(axis=1)
    return o


def _delta2(level: str | Callable[[Any, Any], float], values: list[Any], n_c: np.ndarray) -> np.ndarray:
    q = len(values)
    if callable(level):
        return np.array([[float(level(a, b)) for b in values] for a in values])
    if level == "nominal":
        return 1.0 - np.eye(q)
    if level == "ordinal":
        cum = np.concatenate([[0.0], np.cumsum(n_c)])
        lo, hi = np.minimum.outer(np.arange(q), np.arange(q)), np.maximum.outer(np.arange(q), np.arange(q))
        return (cum[hi + 1] - cum[lo] - (n_c[:, None] + n_c[None, :]) / 2.0) ** 2
    v = np.asarray(values, dtype=float)
    if level == "interval":
        return (v[:, None] - v[None, :]) ** 2
    if level == "ratio":
        total = v[:, None] + v[None, :]
        with np.errstate(divide="ignore", invalid="ignore"):
            d = np.where(total == 0, 0.0, (v[:, None] - v[None, :]) / np.where(total == 0, 1, total))
        return d ** 2
    raise ConfigError(f"level must be one of {', '.join(LEVELS)} or a callable, got {level!r}")


def krippendorff_alpha(data: Any = None, level: str | Callable[[Any, Any], float] = "nominal", *,
                       value_counts: np.ndarray | None = None, value_domain: Sequence[Any] | None = None,
                       undefined: Any = None) -> Agreement:
    """Krippendorff's alpha of annotators x units ``data`` (or of ``value_counts``); see the module docstring.

    ``observed`` / ``expected`` are Do and De, ``n`` the number of pairable values; ``undefined`` (default
    None) where alpha does not exist.

    Krippendorff (2011), section C: 4 observers x 12 units with missing values
    (``tests/reference/test_krippendorff_2011.py``); published alpha 0.743
    (nominal), 0.815 (ordinal), 0.849 (interval), 0.797 (ratio):

    >>> N = float("nan")
    >>> data = [[1, 2, 3, 3, 2, 1, 4, 1, 2, N, N, N], [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, N, 3],
    ...         [N, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, N], [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, N]]
    >>> [round(krippendorff_alpha(data, level).value, 3) for level in ("nominal", "ordinal", "interval", "ratio")]
    [0.743, 0.815, 0.849, 0.797]
    """
    if value_counts is None:
        if data is None:
            raise ConfigError("give reliability data (annotators x units) or value_counts (units x values)")
        value_counts, values = reliability_counts(data, value_domain)
    else:
        value_counts = np.asarray(value_counts)
        values = list(value_domain) if value_domain is not None else list(range(1, value_counts.shape[1] + 1))
    if level in ("interval", "ratio") and not all(isinstance(v, (int, float, np.number)) for v in values):
        raise InputError(f"{level} alpha needs numeric values, got {values[:3]}...; use level='nominal' or "
                         f"'ordinal'")
    o = coincidences(value_counts)
    n_c = o.sum(axis=1)
    n = float(n_c.sum())
    d2 = _delta2(level, values, n_c)
    if n < 2:
        _warn("Krippendorff's alpha: fewer than two pairable values (every unit has at most one value)", undefined)
        return Agreement("krippendorff_alpha", undefined, None, None, int(n))
    do = float((o * d2).sum() / n)
    de = float((np.outer(n_c, n_c) * d2).sum() / (n * (n - 1.0)))
    if de == 0:
        _warn("Krippendorff's alpha: expected disagreement is 0 (all pairable values are alike)", undefined)
        return Agreement("krippendorff_alpha", undefined, do, de, int(n))
    return Agreement("krippendorff_alpha", 1.0 - do / de, do, de, int(n))


def fleiss_kappa(data: Any = None, *, value_counts: np.ndarray | None = None,
                 undefined: Any = None) -> Agreement:
    """Fleiss' kappa (overall) of annotators x units ``data`` or units x categories ``value_counts``.

    ``observed`` is P (mean agreement of the units with >= 2 ratings),
    ``expected`` Pe, ``n`` the number of such units.
    """
    counts = _counts(data, value_counts).astype(float)
    m = counts.sum(axis=1)
    keep = m >= 2
    counts, m = counts[keep], m[keep]
    if not len(m):
        _warn("Fleiss' kappa: no unit has two or more ratings", undefined)
        return Agreement("fleiss_kappa", undefined, None, None, 0)
    p_unit = ((counts * (counts - 1)).sum(axis=1)) / (m * (m - 1))
    observed = float(p_unit.mean())
    p_c = counts.sum(axis=0) / m.sum()
    expected = float((p_c ** 2).sum())
    if expected >= 1.0:
        _warn("Fleiss' kappa: one category only (Pe = 1)", undefined)
        return Agreement("fleiss_kappa", undefined, observed, expected, len(m))
    return Agreement("fleiss_kappa", (observed - expected) / (1 - expected), observed, expected, len(m))


def fleiss_kappa_per_category(data: Any = None, *, value_counts: np.ndarray | None = None,
                              undefined: float = float("nan")) -> np.ndarray:
    """Fleiss' (1971) kappa of each category (eq. 9); needs the same number of ratings on every unit.

    An array, one entry per category: ``undefined`` (NaN: an array holds no None) for a category that
    every rating or none uses.
    """
    counts = _counts(data, value_counts).astype(float)
    m = counts.sum(axis=1)
    counts = counts[m > 0]
    m = m[m > 0]
    if not len(m) or (m != m[0]).any() or m[0] < 2:
        raise InputError("per-category Fleiss' kappa needs every unit rated by the same number (>= 2) of "
                         "annotators")
    r, units = m[0], len(m)
    p_c = counts.sum(axis=0) / (units * r)
    den = units * r * (r - 1) * p_c * (1 - p_c)
    num = (counts * (r - counts)).sum(axis=0)
    out = np.full(len(p_c), undefined, dtype=float)
    ok = den > 0
    out[ok] = 1.0 - num[ok] / den[ok]
    if not ok.all():
        _warn("Fleiss' kappa per category: a category used by every rating or by none is undefined", undefined)
    return out


def davies_fleiss_kappa(data: Any, *, undefined: Any = None) -> Agreement:
    """Davies & Fleiss (1982) kappa (GATE eq. 10.4) of annotators x units ``data`` without missing values."""
    arr = np.asarray(data, dtype=object if not isinstance(data, np.ndarray) else None)
    if arr.ndim != 2:
        raise InputError(f"reliability data must be annotators x units (2-D), got shape {arr.shape}")
    j, i = arr.shape
    cells = arr.tolist()
    if any(is_missing(x) for row in cells for x in row):
        raise InputError("Davies & Fleiss' kappa needs every unit rated by every annotator (no missing values); "
                         "use Krippendorff's alpha or Fleiss' kappa for incomplete data")
    values = sorted({x for row in cells for x in row})
    index = {v: k for k, v in enumerate(values)}
    codes = np.array([[index[x] for x in row] for row in cells], dtype=np.int64)
    q = len(values)
    y = np.zeros((i, q))
    np.add.at(y, (np.tile(np.arange(i), j), codes.ravel()), 1)
    p_cj = np.stack([np.bincount(codes[a], minlength=q) / i for a in range(j)])  # annotators x categories
    p_c = p_cj.mean(axis=0)
    num = i * j ** 2 - (y ** 2).sum()
    den = i * (j * (j - 1) * (p_c * (1 - p_c)).sum() + ((p_cj - p_c) ** 2).sum())
    observed = float(((y * (y - 1)).sum(axis=1) / (j * (j - 1))).mean()) if j > 1 else None
    if j < 2 or den == 0:
        _warn("Davies & Fleiss' kappa: needs two or more annotators and more than one category", undefined)
        return Agreement("davies_fleiss_kappa", undefined, observed, None, i)
    value = 1.0 - num / den
    # kappa = (Ao - Ae) / (1 - Ae) with Ao the mean pairwise agreement: Ae follows from the value (not when 1)
    expected = float((observed - value) / (1.0 - value)) if value != 1 else None
    return Agreement("davies_fleiss_kappa", float(value), observed, expected, i)


def with_bootstrap(data: Any, coefficient: Callable[..., Agreement], *, n_samples: int = 1000, seed: int = 0,
                   confidence: float = 0.95, value_counts: np.ndarray | None = None,
                   value_domain: Sequence[Any] | None = None, client: Any = None, **options: Any) -> Agreement:
    """``coefficient`` of ``data`` with a percentile bootstrap interval over *units* (Hayes & Krippendorff
    2007 resample pairable values; resampling units keeps each unit's values together, as for kappa).

    ``coefficient`` is :func:`krippendorff_alpha` or :func:`fleiss_kappa` (anything taking
    ``value_counts=``); ``value_counts`` / ``value_domain`` may be given instead of ``data`` when they are
    at hand. Samples where the coefficient is undefined are left out of the interval and counted in
    ``n_undefined``.

    Seeded and drawn in blocks (:mod:`spacy_anno_eval.samples`); block ``i``
    draws from ``default_rng(SeedSequence(seed, spawn_key=(i,)))``. ``client``:
    an open ``distributed.Client`` to compute the blocks on, with the same
    result as in-process.

    For alpha and Fleiss' kappa (with no options but ``level``, ``value_domain``
    and ``undefined``) units with the same counts are interchangeable: with the
    ``P`` distinct count rows ("patterns") and how many units have each, a
    sample is how many units of each pattern it takes,
    ``Multinomial(units, frequency / units)`` (:func:`pattern_draws`), in
    blocks of ``block_size_for(2 * P + 4 * q * q)`` samples. A block is
    computed at once: a sample taking ``w_p`` units of pattern ``p`` has the
    coincidences ``o = sum_p w_p o_p`` (and Fleiss' sums likewise), matrix
    products of the block's weights with the patterns' integer parts, grouped
    by the number of values of a unit so that every sum is of integers (exact
    in any order). Any other coefficient is called once per sample on
    ``value_counts[idx]``, ``idx`` one row of :func:`unit_draws`, in blocks of
    ``block_size_for(units * (q + 1))`` samples.
    """
    import dataclasses

    _check_bootstrap(confidence, n_samples)
    if value_counts is None:
        value_counts, value_domain = reliability_counts(data)
    if coefficient is krippendorff_alpha:
        options = {**options, "value_domain": value_domain}
    point = coefficient(value_counts=value_counts, **options)
    counts = np.ascontiguousarray(value_counts)
    units, q = counts.shape
    alpha = coefficient is krippendorff_alpha and set(options) <= {"level", "value_domain", "undefined"}
    if alpha or (coefficient is fleiss_kappa and set(options) <= {"undefined"}):
        # units with the same counts are interchangeable: weights of distinct count rows ("patterns")
        patterns, frequency = np.unique(counts, axis=0, return_counts=True)
        block = block_size_for(2 * len(patterns) + 4 * q * q)
        resample = {"frequency": frequency, "patterns": patterns}
        if alpha:
            level = options.get("level", "nominal")
            values = list(value_domain) if value_domain is not None else list(range(1, q + 1))
            d2 = None if level == "ordinal" else _delta2(level, values, np.zeros(q))
            parts = map_blocks(_alpha_block, n_samples, seed, block, client=client, d2=d2, **resample)
        else:
            parts = map_blocks(_fleiss_block, n_samples, seed, block, client=client, **resample)
    else:
        block = block_size_for(units * (q + 1))
        parts = map_blocks(_coefficient_block, n_samples, seed, block, client=client, counts=counts,
                           coefficient=coefficient, options=options)
    arr = np.concatenate(parts)
    ok = np.isfinite(arr)
    tail = (1 - confidence) / 2
    low, high = np.quantile(arr[ok], [tail, 1 - tail]).tolist() if ok.any() else [None, None]
    ci = {"low": low, "high": high, "confidence": confidence, "n_samples": n_samples, "seed": seed,
          "n_undefined": int((~ok).sum())}
    return dataclasses.replace(point, ci=ci)


def unit_draws(rng: np.random.Generator, size: int, units: int) -> np.ndarray:
    """``size`` bootstrap samples of ``units`` unit indices (``size x units``), the draws of one block."""
    if not units:
        return np.zeros((size, 0), dtype=np.int64)
    return rng.integers(0, units, size=(size, units))


def pattern_draws(rng: np.random.Generator, size: int, frequency: np.ndarray) -> np.ndarray:
    """``size`` bootstrap samples of units, as how many units of each distinct count row ("pattern") each
    sample takes: ``Multinomial(units, frequency / units)``, ``size x len(frequency)``.

    Units with the same counts are interchangeable, so this is the law of
    resampling the units one by one (:func:`unit_draws`) at the cost of one
    draw per pattern instead of one per unit.
    """
    units = int(frequency.sum())
    if not units:
        return np.zeros((size, len(frequency)), dtype=np.int64)
    return rng.multinomial(units, frequency / units, size=size)


def _alpha_block(size: int, seed: Any, frequency: np.ndarray, patterns: np.ndarray,
                 d2: np.ndarray | None) -> np.ndarray:
    """Krippendorff's alpha of one block of unit resamples (NaN: undefined); ``patterns``: the distinct count rows
    (units x values), ``frequency``: how many units have each; ``d2`` None: ordinal."""
    q = patterns.shape[1]
    weights = pattern_draws(np.random.default_rng(seed), size, frequency).astype(float)
    o = _coincidence_block(weights, patterns)
    m = patterns.sum(axis=1)
    total = weights @ np.where(m >= 2, m, 0).astype(float)  # pairable values, exact
    n_c = o.sum(axis=2)
    if d2 is None:  # ordinal: the metric uses each sample's own n_c
        cum = np.concatenate([np.zeros((size, 1)), np.cumsum(n_c, axis=1)], axis=1)
        lo, hi = np.minimum.outer(np.arange(q), np.arange(q)), np.maximum.outer(np.arange(q), np.arange(q))
        d2 = (cum[:, hi + 1] - cum[:, lo] - (n_c[:, :, None] + n_c[:, None, :]) / 2.0) ** 2
    with np.errstate(divide="ignore", invalid="ignore"):
        do = (o * d2).sum(axis=(1, 2)) / total
        de = (n_c[:, :, None] * n_c[:, None, :] * d2).sum(axis=(1, 2)) / (total * (total - 1.0))
        value = 1.0 - do / de
    return np.where((total >= 2) & (de != 0), value, np.nan)


def _coincidence_block(weights: np.ndarray, patterns: np.ndarray) -> np.ndarray:
    """Coincidence matrices (``size x q x q``) of samples taking ``weights[b, p]`` units of count row ``p``.

    ``o = sum_mu (sum_{p: m_p = mu} w_p (n_p n_p^T - diag(n_p))) / (mu - 1)``: the inner sums are of
    integers, exact whatever order BLAS adds them in. Few values (``q * q <= _BATCH_CELLS``): one matrix
    product for the whole block (the patterns' ``n_p n_p^T`` as rows of ``q * q``); more: one per sample.
    """
    size, q = len(weights), patterns.shape[1]
    n = patterns.astype(float)
    m = patterns.sum(axis=1)
    o = np.zeros((size, q, q))
    diagonal = np.arange(q)
    for mu in np.unique(m[m >= 2]):
        rows = np.flatnonzero(m == mu)
        if q * q <= _BATCH_CELLS:
            pairs, singles = np.zeros((size, q * q)), np.zeros((size, q))
            step = _CELLS // (q * q)  # rows of n_p n_p^T held at once
            for part in (rows[i:i + step] for i in range(0, len(rows), step)):
                w = weights[:, part]
                pairs += w @ (n[part, :, None] * n[part, None, :]).reshape(len(part), q * q)
                singles += w @ n[part]
            pairs = pairs.reshape(size, q, q)
            pairs[:, diagonal, diagonal] -= singles
            o += pairs / (mu - 1.0)
            continue
        part, w = n[rows], weights[:, rows]
        for b in range(size):
            a = part.T * w[b]
            pairs = a @ part
            pairs[diagonal, diagonal] -= a.sum(axis=1)
            o[b] += pairs / (mu - 1.0)
    return o


def _fleiss_block(size: int, seed: Any, frequency: np.ndarray, patterns: np.ndarray) -> np.ndarray:
    """Fleiss' kappa of one block of unit resamples (NaN: undefined; ``patterns``, ``frequency``: as for alpha)."""
    q = patterns.shape[1]
    weights = pattern_draws(np.random.default_rng(seed), size, frequency).astype(float)
    counts = patterns
    m = counts.sum(axis=1)
    keep = m >= 2
    kept, km = counts[keep].astype(float), m[keep]
    groups = np.unique(km)
    agreeing = (kept * (kept - 1)).sum(axis=1)
    # integer columns: agreeing pairs per group of units with the same m, units, ratings, ratings per category
    parts = np.column_stack([agreeing * (km == g) for g in groups] + [np.ones(len(km)), km, kept]) \
        if len(km) else np.zeros((0, len(groups) + 2 + q))
    sums = weights[:, keep] @ parts
    g = len(groups)
    rated, ratings = sums[:, g], sums[:, g + 1]
    with np.errstate(divide="ignore", invalid="ignore"):
        observed = (sums[:, :g] / (groups * (groups - 1.0))).sum(axis=1) / rated
        expected = ((sums[:, g + 2:] / ratings[:, None]) ** 2).sum(axis=1)
        value = (observed - expected) / (1.0 - expected)
    return np.where((rated > 0) & (expected < 1.0), value, np.nan)


def _coefficient_block(size: int, seed: Any, counts: np.ndarray, coefficient: Callable[..., Agreement],
                       options: dict[str, Any]) -> np.ndarray:
    """Any ``coefficient(value_counts=...)`` of one block of unit resamples, one call per sample (NaN: undefined)."""
    import warnings

    idx = unit_draws(np.random.default_rng(seed), size, counts.shape[0])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateAgreementWarning)
        values = [coefficient(value_counts=counts[row], **options).value for row in idx]
    return np.array([np.nan if v is None else float(v) for v in values], dtype=float)


def _counts(data: Any, value_counts: np.ndarray | None) -> np.ndarray:
    if value_counts is not None:
        return np.asarray(value_counts)
    if data is None:
        raise ConfigError("give reliability data (annotators x units) or value_counts (units x values)")
    return reliability_counts(data)[0]


__all__ = ["LEVELS", "coincidences", "davies_fleiss_kappa", "fleiss_kappa", "fleiss_kappa_per_category",
           "is_missing", "krippendorff_alpha", "pattern_draws", "reliability_counts", "unit_draws", "with_bootstrap"]
