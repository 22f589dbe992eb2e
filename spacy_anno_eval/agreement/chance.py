"""The chance-corrected family beyond kappa/pi/alpha, with irrCAC's analytic standard errors.

Gwet's AC1/AC2, Brennan-Prediger, Conger's kappa, Fleiss' kappa with missing
ratings and Krippendorff's alpha (Gwet's form) on *raw* ratings with missing
values; Cohen's kappa, Scott's pi, AC1/AC2, Brennan-Prediger, Krippendorff's
alpha and percent agreement on a two-rater contingency table; PABAK with
Byrt, Bishop & Carlin's prevalence and bias indices; positive and negative
specific agreement; each annotator against the majority opinion of the others.

Every coefficient takes a weighting (:mod:`.weights`: identity, linear,
quadratic, ordinal, radical, ratio, circular, bipolar, or a custom matrix),
and returns a :class:`ChanceAgreement` with the percent agreement ``pa``,
chance agreement ``pe``, the standard error, a confidence interval and
p-values, as irrCAC reports them.

**Raw ratings** (Gwet 2014, *Handbook of Inter-Rater Reliability*, 4th ed.,
ch. 5 and ch. 2; irrCAC ``raw``). Input as :func:`~.summary.agreement_summary`
takes it: annotators x units (``rows="units"`` for units x annotators, as
irrCAC), None or NaN for a missing rating; or a units x categories count table
``value_counts``. Units rated by nobody are dropped (``n`` counts the others).
With ``r_ik`` the number of raters who put unit ``i`` into ``k``, ``r_i`` its
ratings, ``r*_ik = sum_l w_kl r_il``, the ``n2`` units with ``r_i >= 2``::

    pa_i = sum_k r_ik (r*_ik - 1) / (r_i (r_i - 1)),     pa = mean of pa_i over the n2 units
    pi_k = (1/n) sum_i r_ik / r_i                        (averaged shares, every rated unit)
    coefficient = (pa - pe) / (1 - pe),  with
      Gwet AC1/AC2:      pe = T_w / (q (q - 1)) sum_k pi_k (1 - pi_k),  T_w = sum_kl w_kl   (Gwet 2008; 2014 ch. 5)
      Brennan-Prediger:  pe = T_w / q**2                                                    (Brennan & Prediger 1981)
      Fleiss:            pe = sum_kl w_kl pi_k pi_l                                         (Fleiss 1971)
      Conger:            pe = sum_kl w_kl (pbar_k pbar_l - s_kl / r)                        (Conger 1980)

where for Conger ``p_gk`` is rater ``g``'s share of category ``k`` among the
units that rater rated, ``pbar_k`` its mean over the ``r`` raters and ``s_kl``
the covariance of ``p_gk`` and ``p_gl`` over raters (divisor ``r - 1``).

Variance (Gwet 2014, ch. 5; Gwet 2008; irrCAC's per-unit ``variance`` terms): per unit::

    c_i  = (n / n2) (pa_i - pe [r_i >= 2]) / (1 - pe)
    c*_i = c_i - 2 (1 - c) (pe_i - pe) / (1 - pe)
    v    = (1 - f) / (n (n - 1)) sum_i (c*_i - c) ** 2,      se = sqrt(v)

with ``pe_i`` the unit's share of chance agreement (AC: ``T_w / (q (q - 1))
sum_k (r_ik / r_i)(1 - pi_k)``; Fleiss: ``sum_k (r_ik / r_i) (W pi + W' pi)_k / 2``;
BP: ``pe``; Conger: Gwet's ``lambda_ig`` form) and ``f = n / N`` the sampling
fraction of a finite population of ``N`` units (``population_size``; default
infinite, ``f = 0``, as irrCAC). The interval is ``c -/+ t_{n-1} se`` with the
upper end capped at 1 (irrCAC caps only that end); ``p_value`` is two-sided
(H0: the coefficient is 0; Student t with ``n - 1`` degrees of freedom) and
``p_value_one_sided`` is ``P(T >= c / se)``. irrCAC 0.4.4's ``bp()`` reports
the one-sided value where its other methods report the two-sided one.

**Fleiss' kappa with missing ratings: averaged or pooled shares.** irrCAC
(Gwet 2014, ch. 2) estimates the chance shares as the mean over units of
each unit's shares, ``pi_k = mean_i r_ik / r_i`` (every rated unit counts once);
:func:`~.reliability.fleiss_kappa` pools the ratings,
``pi_k = sum_i r_ik / sum_i r_i`` over the units with two or more ratings.
Both equal Fleiss (1971) when every unit has the same number of ratings.
Here the default is **averaged** (``shares="averaged"``): it is the form whose
variance Gwet derives and that irrCAC and R irrCAC publish, so ``se``, the
interval and the p-value are exact for it; ``shares="pooled"`` reproduces
:func:`~.reliability.fleiss_kappa` (and :func:`~.summary.agreement_summary`),
with the same linearised variance evaluated at the pooled shares (an
approximation no reference publishes).

**Contingency tables** (two raters; Gwet 2014, ch. 2-3; irrCAC ``table``):
``p = t / n``, ``pa = sum_kl w_kl p_kl``, marginals ``pA``, ``pB``, ``pi =
(pA + pB) / 2``: Cohen ``pe = sum w_kl pA_k pB_l``; Scott and Krippendorff
``pe = sum w_kl pi_k pi_l`` (Krippendorff's ``pa`` is ``(1 - e) pa + e`` with
``e = 1 / (2n)``); Gwet and BP as above. The variance is
``(1 - f) / (n (1 - pe)**2) (sum_kl p_kl u_kl**2 - (pa - 2 (1 - c) pe)**2)``
with ``u_kl = w_kl - (1 - c)(d pe / d p_kl)`` (Gwet 2014, ch. 2-3; irrCAC ``table``).

Undefined figures follow :mod:`spacy_anno_eval.figures`: no pairable unit,
``pe = 1`` (one category), or one unit only (no variance) give ``None`` with
an :class:`~spacy_anno_eval.errors.UndefinedFigureWarning`.

References:
  K. L. Gwet (2014). Handbook of Inter-Rater Reliability, 4th ed. Advanced Analytics.
  K. L. Gwet (2008). Computing inter-rater reliability and its variance in the presence of high
  agreement. British J. of Mathematical and Statistical Psychology 61: 29-48.
  R. L. Brennan, D. J. Prediger (1981). Coefficient kappa: some uses, misuses, and alternatives.
  Educational and Psychological Measurement 41: 687-699.
  A. J. Conger (1980). Integration and generalization of kappas for multiple raters. Psychological
  Bulletin 88(2): 322-328.
  T. Byrt, J. Bishop, J. B. Carlin (1993). Bias, prevalence and kappa. J. Clinical Epidemiology
  46(5): 423-429.
  J. J. Randolph (2005). Free-marginal multirater kappa. (BP for many raters: statsmodels' ``randolph``.)
"""

from __future__ import annotations

import math
import numbers
import warnings
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..errors import ConfigError, InputError, UndefinedFigureWarning
from ..figures import check_fraction, json_safe, undefined
from .coefficients import as_table, cohen_kappa, confusion_matrix, specific_agreement
from .reliability import is_missing, reliability_counts
from .weights import weight_matrix, weights_name

#: measures on raw ratings (annotators x units with missing values)
RAW_MEASURES = ("gwet", "brennan_prediger", "conger", "fleiss", "krippendorff")
#: measures on a two-rater contingency table
TABLE_MEASURES = ("gwet", "brennan_prediger", "cohen", "scott", "krippendorff", "percent")
#: Fleiss' chance shares with missing ratings (see the module docstring)
SHARES = ("averaged", "pooled")
_PE_TOL = 1e-12


@dataclass(frozen=True)
class ChanceAgreement:
    """A chance-corrected coefficient with irrCAC's inference figures.

    ``value = (pa - pe) / (1 - pe)``; ``se`` the analytic standard error;
    ``ci`` ``(low, high)`` at ``confidence`` (Student t, ``df`` degrees of
    freedom, high capped at 1); ``p_value`` two-sided, ``p_value_one_sided``
    for H1: coefficient > 0. ``None`` where a figure does not exist.
    """

    coefficient: str
    value: float | None
    pa: float | None
    pe: float | None
    se: float | None
    ci: tuple[float, float] | None
    p_value: float | None
    p_value_one_sided: float | None
    n_units: int
    df: int
    confidence: float
    weights: str
    categories: list[Any]
    population_size: float | None = None
    notes: tuple[str, ...] = field(default=())

    def __float__(self) -> float:
        return float("nan") if self.value is None else float(self.value)

    def to_dict(self) -> dict[str, Any]:
        """The figures as JSON-ready Python values (``None`` where undefined)."""
        return json_safe({
            "coefficient": self.coefficient, "value": self.value, "pa": self.pa, "pe": self.pe, "se": self.se,
            "ci": {"low": self.ci[0], "high": self.ci[1], "confidence": self.confidence} if self.ci else None,
            "p_value": self.p_value, "p_value_one_sided": self.p_value_one_sided, "n_units": self.n_units,
            "df": self.df, "weights": self.weights,
            "categories": [c if isinstance(c, str) else str(c) if hasattr(c, "text") else c for c in self.categories],
            "population_size": self.population_size, "notes": list(self.notes)})


# ---------------------------------------------------------------------------
# checks and inputs


def _check_settings(confidence: Any, population_size: Any) -> tuple[float, float | None]:
    conf = check_fraction("confidence", confidence, open_ends=True, example="0.95")
    if population_size is None:
        return conf, None
    ok = not isinstance(population_size, bool) and isinstance(population_size, numbers.Real)
    size = float(population_size) if ok else math.nan
    if not size >= 1:  # NaN fails too; inf means infinite (f = 0)
        raise ConfigError(f"population_size must be a number >= 1 (the units in the population; None or inf: "
                          f"infinite), got {population_size!r}")
    return conf, size


def _rows(data: Any, rows: str) -> list[list[Any]]:
    """Annotators x units lists of ``data`` (annotators x units, or units x annotators with ``rows="units"``)."""
    if rows not in ("annotators", "units"):
        raise ConfigError(f"rows must be 'annotators' (annotators x units) or 'units' (units x annotators, as "
                          f"irrCAC), got {rows!r}")
    if hasattr(data, "to_numpy") and not isinstance(data, np.ndarray):  # a pandas DataFrame
        data = data.to_numpy(dtype=object)
    if isinstance(data, (str, bytes)) or not isinstance(data, (np.ndarray, Sequence)) or \
            any(isinstance(r, (str, bytes)) or not hasattr(r, "__len__") for r in data):
        raise ConfigError(f"data must be {'annotators x units' if rows == 'annotators' else 'units x annotators'} "
                          f"(a list of rows, or a 2-D array; None for a missing value), got "
                          f"{type(data).__name__} {data!r:.60}; read a file with read_table(path)")
    table = [list(r) for r in (data.tolist() if isinstance(data, np.ndarray) else data)]
    if len({len(r) for r in table}) > 1:
        raise InputError(f"data rows differ in length ({sorted({len(r) for r in table})}); every row needs one cell "
                         f"per {'unit' if rows == 'annotators' else 'annotator'}, None for a missing value")
    return [list(c) for c in zip(*table, strict=True)] if rows == "units" else table


def _domain(categories: Sequence[Any] | None) -> list[Any] | None:
    if categories is None:
        return None
    cats = list(categories)
    if len(set(cats)) != len(cats) or any(is_missing(c) for c in cats):
        raise ConfigError(f"categories must be distinct values without None or NaN, got {cats!r:.80}")
    if all(isinstance(c, numbers.Real) and not isinstance(c, bool) for c in cats):
        cats = sorted(cats)
    return cats


def rating_indicators(data: Any, *, rows: str = "annotators",
                      categories: Sequence[Any] | None = None) -> tuple[np.ndarray, list[Any]]:
    """``(delta, categories)``: ``delta[g, i, k] = 1`` when annotator ``g`` put unit ``i`` into category ``k``
    (annotators x units x categories, units rated by nobody dropped) and the categories in order.

    Category coding is :func:`~.reliability.reliability_counts`'s (sorted observed values, or ``categories``).
    """
    table = _rows(data, rows)
    n_ann = len(table)
    n_units = len(table[0]) if table else 0
    flat = [x for r in table for x in r]
    counts, values = reliability_counts([flat], value_domain=_domain(categories))
    delta = counts.reshape(n_ann, n_units, len(values))
    rated = delta.sum(axis=(0, 2)) > 0
    return delta[:, rated], values


def _inference(coefficient: str, value: float, pa: float, pe: float, var: float | None, n: int, df: int,
               confidence: float, weights: Any, categories: list[Any], size: float | None,
               notes: tuple[str, ...] = ()) -> ChanceAgreement:
    from scipy import stats

    se = ci = p2 = p1 = None
    if var is None or df < 1:
        undefined(f"{coefficient} standard error", "fewer than two units", stacklevel=3)
    else:
        se = math.sqrt(max(var, 0.0))
        tq = float(stats.t.ppf(1 - (1 - confidence) / 2, df))
        ci = (value - tq * se, min(1.0, value + tq * se))
        if se > 0:
            t = value / se
            p2 = float(2 * stats.t.sf(abs(t), df))
            p1 = float(stats.t.sf(t, df))
        elif value != 0:
            p2, p1 = 0.0, (0.0 if value > 0 else 1.0)
        else:
            undefined(f"{coefficient} p-value", "the coefficient and its standard error are both 0", stacklevel=3)
    return ChanceAgreement(coefficient, float(value), float(pa), float(pe), se, ci, p2, p1, n, df, confidence,
                           weights_name(weights), list(categories), size, notes)


def _undefined_result(coefficient: str, why: str, n: int, confidence: float, weights: Any,
                      categories: list[Any], size: float | None, pa: float | None = None,
                      pe: float | None = None) -> ChanceAgreement:
    undefined(coefficient, why, stacklevel=3)
    return ChanceAgreement(coefficient, None, pa, pe, None, None, None, None, n, max(n - 1, 0), confidence,
                           weights_name(weights), list(categories), size)


# ---------------------------------------------------------------------------
# raw ratings


def chance_agreement(data: Any = None, measure: str = "gwet", weights: Any = "identity", *,
                     value_counts: Any = None, rows: str = "annotators", categories: Sequence[Any] | None = None,
                     confidence: float = 0.95, population_size: float | None = None,
                     shares: str = "averaged") -> ChanceAgreement:
    """One chance-corrected coefficient of raw ratings with missing values, with irrCAC's standard error.

    ``measure``: one of :data:`RAW_MEASURES` (formulas in the module docstring;
    Gwet 2014, ch. 2 and 5). ``data``: annotators x units (``rows="units"``:
    units x annotators), None / NaN missing; or ``value_counts``, a units x
    categories count table (not for Conger, which needs each rater's ratings).
    ``categories`` fixes the categories (unused ones count in ``q``).
    ``shares`` (Fleiss only): ``"averaged"`` (default, irrCAC) or ``"pooled"``
    (:func:`~.reliability.fleiss_kappa`). ``population_size``: ``N`` of the
    finite population correction ``f = n / N`` (default None: ``f = 0``).

    irrCAC's ``raw_4raters`` dataset (Gwet's R irrCAC data; irrCAC raw.py's docstring), AC1 0.77544, se 0.14295:

    >>> ratings = [[1, 2, 3, 3, 2, 1, 4, 1, 2, None, None, None],
    ...            [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, None, None],
    ...            [None, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, 3],
    ...            [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, None]]
    >>> ac1 = chance_agreement(ratings, "gwet")
    >>> round(ac1.value, 5), round(ac1.se, 5), [round(x, 5) for x in ac1.ci]
    (0.77544, 0.14295, [0.46081, 1.0])
    """
    confidence, size = _check_settings(confidence, population_size)
    if measure not in RAW_MEASURES:
        raise ConfigError(f"measure must be one of {', '.join(RAW_MEASURES)}, got {measure!r}")
    if shares not in SHARES:
        raise ConfigError(f"shares must be one of {', '.join(SHARES)}, got {shares!r}")
    if (data is None) == (value_counts is None):
        raise ConfigError("give either data (annotators x units) or value_counts (units x categories), not both")
    delta = None
    if value_counts is not None:
        if measure == "conger":
            raise ConfigError("Conger's kappa needs each rater's ratings (data), not value_counts")
        counts = np.asarray(value_counts, dtype=float)
        if counts.ndim != 2 or not np.isfinite(counts).all() or (counts < 0).any():
            raise InputError("value_counts must be a units x categories table of finite counts >= 0")
        values = list(categories) if categories is not None else list(range(1, counts.shape[1] + 1))
        if len(values) != counts.shape[1]:
            raise ConfigError(f"categories names {len(values)} categories but value_counts has {counts.shape[1]} "
                              f"columns")
        counts = counts[counts.sum(axis=1) > 0]
    else:
        delta, values = rating_indicators(data, rows=rows, categories=categories)
        counts = delta.sum(axis=0).astype(float)
    w = weight_matrix(weights, values)
    name = _raw_name(measure, w)
    q = len(values)
    r = counts.sum(axis=1)
    n = len(r)
    two = r >= 2
    n2 = int(two.sum())
    if n2 == 0:
        return _undefined_result(name, "no unit has two or more ratings", n, confidence, weights, values, size)
    if measure == "krippendorff":
        return _krippendorff_raw(counts[two], w, n, confidence, weights, values, size)
    f = 0.0 if size is None else n / size
    rw = counts @ w.T
    pa_i = np.zeros(n)
    pa_i[two] = (counts[two] * (rw[two] - 1)).sum(axis=1) / (r[two] * (r[two] - 1))
    pa = float(pa_i[two].mean())
    share = counts / r[:, None]
    pi = share.mean(axis=0)
    tw = float(w.sum())
    notes: tuple[str, ...] = ()
    if measure in ("gwet", "brennan_prediger") and q < 2:
        return _undefined_result(name, "fewer than two categories", n, confidence, weights, values, size, pa=pa)
    if measure == "gwet":
        scale = tw / (q * (q - 1))
        pe = float(scale * (pi * (1 - pi)).sum())
        pe_i = scale * (share * (1 - pi)).sum(axis=1)
    elif measure == "brennan_prediger":
        pe = tw / q ** 2
        pe_i = np.full(n, pe)
    elif measure == "fleiss":
        if shares == "pooled":
            pi = counts[two].sum(axis=0) / r[two].sum()
        pe = float(pi @ w @ pi)
        pe_i = share @ ((w @ pi + w.T @ pi) / 2)
    else:
        pe, pe_i, notes = _conger_chance(delta, w)
        if pe is None:
            return _undefined_result(name, "fewer than two raters with ratings", n, confidence, weights, values,
                                     size, pa=pa)
    if 1 - pe <= _PE_TOL:
        return _undefined_result(name, "chance agreement pe = 1 (one category only)", n, confidence, weights,
                                 values, size, pa=pa, pe=pe)
    value = (pa - pe) / (1 - pe)
    c_i = (n / n2) * (pa_i - pe * two) / (1 - pe) - 2 * (1 - value) * (pe_i - pe) / (1 - pe)
    var = (1 - f) / (n * (n - 1)) * float(((c_i - value) ** 2).sum()) if n > 1 else None
    return _inference(name, value, pa, pe, var, n, n - 1, confidence, weights, values, size, notes)


def _raw_name(measure: str, w: np.ndarray) -> str:
    if measure == "gwet":
        return "gwet_ac1" if np.array_equal(w, np.eye(len(w))) else "gwet_ac2"
    return {"brennan_prediger": "brennan_prediger", "conger": "conger_kappa", "fleiss": "fleiss_kappa",
            "krippendorff": "krippendorff_alpha"}[measure]


def _conger_chance(delta: np.ndarray, w: np.ndarray) -> tuple[Any, Any, tuple[str, ...]]:
    """Conger's pe and per-unit pe_i (Gwet 2014, ch. 5; irrCAC ``conger``) from rater x unit x category
    indicators; raters without any rating are left out (their shares do not exist)."""
    notes: tuple[str, ...] = ()
    ng = delta.sum(axis=(1, 2)).astype(float)
    if (ng == 0).any():
        notes = (f"conger_kappa: {int((ng == 0).sum())} rater(s) without any rating left out",)
        delta, ng = delta[ng > 0], ng[ng > 0]
    n_r, n = delta.shape[0], delta.shape[1]
    if n_r < 2:
        return None, None, notes
    d = delta.astype(float)
    pgk = d.sum(axis=1) / ng[:, None]
    pbar = pgk.mean(axis=0)
    s2 = (pgk.T @ pgk - n_r * np.outer(pbar, pbar)) / (n_r - 1)
    pe = float((w * (np.outer(pbar, pbar) - s2 / n_r)).sum())
    eps = d.sum(axis=2)  # rater g rated unit i
    a = d @ w.T - (eps - (ng / n)[:, None])[:, :, None] * (pgk @ w.T)[:, None, :]  # g x i x k
    a *= (n / ng)[:, None, None]
    lam = (a * (n_r * pbar[None, :] - pgk)[:, None, :]).sum(axis=2)  # g x i
    pe_i = lam.sum(axis=0) / (n_r * (n_r - 1))
    return pe, pe_i, notes


def _krippendorff_raw(counts: np.ndarray, w: np.ndarray, n_all: int, confidence: float, weights: Any,
                      values: list[Any], size: float | None) -> ChanceAgreement:
    """Krippendorff's alpha in Gwet's form (Gwet 2014, ch. 5; irrCAC ``krippendorff``), pairable units."""
    r = counts.sum(axis=1)
    n = len(r)
    rbar = float(r.mean())
    eps = 1.0 / r.sum()
    sum_q = (counts * (counts @ w.T - 1)).sum(axis=1)
    pa_prime = float((sum_q / (rbar * (r - 1))).sum() / n)
    pa = (1 - eps) * pa_prime + eps
    pi = (counts / rbar).mean(axis=0)
    pe = float(pi @ w @ pi)
    if 1 - pe <= _PE_TOL:
        return _undefined_result("krippendorff_alpha", "chance agreement pe = 1 (one category only)", n,
                                 confidence, weights, values, size, pa=pa, pe=pe)
    value = (pa - pe) / (1 - pe)
    prime = (pa_prime - pe) / (1 - pe)
    pa_i = sum_q / (rbar * (r - 1)) - pa * (r - rbar) / rbar
    pe_i = counts @ ((w @ pi + w.T @ pi) / 2) / rbar - pe * (r - rbar) / rbar
    k_i = (pa_i - pe) / (1 - pe) - 2 * (1 - prime) * (pe_i - pe) / (1 - pe)
    f = 0.0 if size is None else n_all / size
    var = (1 - f) / (n * (n - 1)) * float(((k_i - prime) ** 2).sum()) if n > 1 else None
    return _inference("krippendorff_alpha", value, pa, pe, var, n, n - 1, confidence, weights, values, size)


def gwet_ac(data: Any = None, weights: Any = "identity", **options: Any) -> ChanceAgreement:
    """Gwet's AC1 (identity weights) or AC2 (any other) of raw ratings (Gwet 2008; 2014, ch. 5).

    ``pe = T_w / (q (q - 1)) sum_k pi_k (1 - pi_k)``; options as :func:`chance_agreement`. irrCAC's
    ``raw_4raters`` with bipolar weights: AC2 0.90037.
    """
    return chance_agreement(data, "gwet", weights, **options)


def brennan_prediger(data: Any = None, weights: Any = "identity", **options: Any) -> ChanceAgreement:
    """Brennan & Prediger's coefficient (1981; Gwet 2014, ch. 5): ``pe = T_w / q**2``; with identity
    weights Bennett's S and Randolph's free-marginal kappa. Options as :func:`chance_agreement`.

    statsmodels' ``test_fleis_randolph``: 2 units, 8 raters, [[7, 1], [3, 5]] gives 0.214286.

    >>> round(brennan_prediger(value_counts=[[7, 1], [3, 5]]).value, 6)
    0.214286
    """
    return chance_agreement(data, "brennan_prediger", weights, **options)


def conger_kappa(data: Any = None, weights: Any = "identity", **options: Any) -> ChanceAgreement:
    """Conger's kappa (1980; Gwet 2014, ch. 5): Fleiss' ``pa`` with the mean of the raters' Cohen-type
    chance agreements, ``pe = sum_kl w_kl (pbar_k pbar_l - s_kl / r)``. Options as :func:`chance_agreement`."""
    return chance_agreement(data, "conger", weights, **options)


def fleiss_kappa_missing(data: Any = None, weights: Any = "identity", **options: Any) -> ChanceAgreement:
    """Fleiss' kappa with missing ratings and weights (Fleiss 1971; Gwet 2014, ch. 2 and 5), averaged shares by
    default (``shares="pooled"``: the pooled form of :func:`~.reliability.fleiss_kappa`; see the module
    docstring for why averaged is the default). Options as :func:`chance_agreement`.

    statsmodels' ``test_fleis_randolph``: [[7, 1], [3, 5]] gives 0.161905.

    >>> round(fleiss_kappa_missing(value_counts=[[7, 1], [3, 5]]).value, 6)
    0.161905
    """
    return chance_agreement(data, "fleiss", weights, **options)


def krippendorff_alpha_gwet(data: Any = None, weights: Any = "identity", **options: Any) -> ChanceAgreement:
    """Krippendorff's alpha in Gwet's form with its standard error (Gwet 2014, ch. 5; irrCAC), for
    cross-checking :func:`~.reliability.krippendorff_alpha`. Options as :func:`chance_agreement`."""
    return chance_agreement(data, "krippendorff", weights, **options)


# ---------------------------------------------------------------------------
# contingency tables


def table_agreement(table: Any, measure: str = "gwet", weights: Any = "identity", *,
                    categories: Sequence[Any] | None = None, confidence: float = 0.95,
                    population_size: float | None = None) -> ChanceAgreement:
    """One coefficient of a two-rater ``q x q`` contingency table (rows rater A, columns rater B), with irrCAC's
    standard error (Gwet 2014, ch. 2-3; formulas in the module docstring).

    ``measure``: one of :data:`TABLE_MEASURES`. Weights are computed on the
    ranks ``1..q`` of the rows unless ``categories`` gives numeric scores.
    The degrees of freedom are ``n - 1``.

    DKPro's fixture of R irrCAC 1.4, Cohen (1960, p. 45): AC1 0.57597.

    >>> round(table_agreement([[88, 14, 18], [10, 40, 10], [2, 6, 12]], "gwet").value, 5)
    0.57597
    """
    confidence, size = _check_settings(confidence, population_size)
    if measure not in TABLE_MEASURES:
        raise ConfigError(f"measure must be one of {', '.join(TABLE_MEASURES)}, got {measure!r}")
    t = as_table(table).astype(float)
    if t.ndim != 2:
        raise InputError(f"table must be one q x q contingency table, got shape {t.shape}")
    q = t.shape[0]
    values = list(categories) if categories is not None else list(range(1, q + 1))
    if len(values) != q:
        raise ConfigError(f"categories names {len(values)} categories but the table has {q}")
    w = weight_matrix(weights, values)
    name = {"gwet": "gwet_ac1" if np.array_equal(w, np.eye(q)) else "gwet_ac2", "cohen": "cohen_kappa",
            "scott": "scott_pi", "krippendorff": "krippendorff_alpha", "percent": "percent_agreement",
            "brennan_prediger": "brennan_prediger"}[measure]
    n = float(t.sum())
    n_int = int(round(n))
    if n <= 0:
        return _undefined_result(name, "the table is empty", 0, confidence, weights, values, size)
    f = 0.0 if size is None else n / size
    p = t / n
    pa = float((w * p).sum())
    pA, pB = p.sum(axis=1), p.sum(axis=0)
    pi = (pA + pB) / 2
    tw = float(w.sum())
    if measure == "percent":
        var = (1 - f) / n * (float((p * w ** 2).sum()) - pa ** 2)
        return _inference(name, pa, pa, 0.0, var, n_int, n_int - 1, confidence, weights, values, size)
    if measure in ("gwet", "brennan_prediger") and q < 2:
        return _undefined_result(name, "fewer than two categories", n_int, confidence, weights, values, size, pa=pa)
    pa_used = pa
    if measure == "cohen":
        pe = float(pA @ w @ pB)
    elif measure in ("scott", "krippendorff"):
        pe = float(pi @ w @ pi)
        if measure == "krippendorff":
            e = 1 / (2 * n)
            pa_used = (1 - e) * pa + e
    elif measure == "gwet":
        pe = tw / (q * (q - 1)) * float((pi * (1 - pi)).sum())
    else:
        pe = tw / q ** 2
    if 1 - pe <= _PE_TOL:
        return _undefined_result(name, "chance agreement pe = 1 (one category only)", n_int, confidence, weights,
                                 values, size, pa=pa_used, pe=pe)
    value = (pa_used - pe) / (1 - pe)
    c = (pa - pe) / (1 - pe)  # Krippendorff's variance uses the coefficient without the 1/(2n) correction
    if measure == "cohen":
        row, col = w @ pB, w.T @ pA  # d pe / d pA_k, d pe / d pB_l
        u = w - (1 - c) * (row[:, None] + col[None, :])
    elif measure in ("scott", "krippendorff"):
        s = w.T @ pi  # irrCAC's form (sum_m w_mk pi_m); equal to d pe / d pi for symmetric weights
        u = w - (1 - c) * (s[:, None] + s[None, :])
    elif measure == "gwet":
        u = w - 2 * (1 - c) * tw / (q * (q - 1)) * (1 - (pi[:, None] + pi[None, :]) / 2)
    else:
        u = w
    centre = pa - 2 * (1 - c) * pe if measure != "brennan_prediger" else pa
    var = (1 - f) / (n * (1 - pe) ** 2) * (float((p * u ** 2).sum()) - centre ** 2)
    return _inference(name, value, pa_used, pe, var, n_int, n_int - 1, confidence, weights, values, size)


# ---------------------------------------------------------------------------
# PABAK, specific agreement, majority opinion


def pabak(table: Any) -> dict[str, Any]:
    """Prevalence-adjusted bias-adjusted kappa with Byrt, Bishop & Carlin's (1993) indices.

    For a ``q x q`` table with observed agreement ``po``: ``PABAK = (q po - 1) / (q - 1)`` (``2 po - 1`` for
    two categories; Brennan-Prediger with identity weights). For a 2 x 2 table ``[[a, b], [c, d]]`` (first
    row and column: the "positive" category) also the prevalence index ``PI = (a - d) / n``, the bias index
    ``BI = (b - c) / n`` (signed; Byrt et al. use their absolute values), Cohen's kappa through Byrt's
    identity ``kappa = (PABAK - PI**2 + BI**2) / (1 - PI**2 + BI**2)``, and positive / negative specific
    agreement ``2a / (2a + b + c)``, ``2d / (2d + b + c)`` (GATE user guide 10.1.2, eq. 10.2).

    The paradox table of DKPro's fixture 01, [[80, 7], [8, 5]]:

    >>> out = pabak([[80, 7], [8, 5]])
    >>> round(out["pabak"], 6), round(out["prevalence_index"], 6), round(out["bias_index"], 6)
    (0.7, 0.75, -0.01)
    >>> round(out["cohen_kappa"], 6)
    0.314442
    """
    t = as_table(table).astype(float)
    if t.ndim != 2:
        raise InputError(f"table must be one q x q contingency table, got shape {t.shape}")
    q = t.shape[0]
    n = float(t.sum())
    out: dict[str, Any] = {"n": n, "q": q, "po": None, "pabak": None}
    if n <= 0 or q < 2:
        undefined("pabak", "the table is empty" if n <= 0 else "fewer than two categories")
        return out
    po = float(np.trace(t)) / n
    out["po"] = po
    out["pabak"] = (q * po - 1) / (q - 1)
    if q == 2:
        (a, b), (c, d) = (float(x) for x in t[0]), (float(x) for x in t[1])
        pi_, bi = (a - d) / n, (b - c) / n
        den = 1 - pi_ ** 2 + bi ** 2
        out.update(prevalence_index=pi_, bias_index=bi,
                   cohen_kappa=(out["pabak"] - pi_ ** 2 + bi ** 2) / den if den > 0 else None,
                   positive_agreement=2 * a / (2 * a + b + c) if 2 * a + b + c > 0 else None,
                   negative_agreement=2 * d / (2 * d + b + c) if 2 * d + b + c > 0 else None)
        if den <= 0:
            undefined("cohen_kappa", "both raters used one and the same category")
        for key in ("positive_agreement", "negative_agreement"):
            if out[key] is None:
                undefined(key, "no decision for the category (0/0)")
    return json_safe(out)


def specific_agreements(table: Any, categories: Sequence[Any] | None = None) -> dict[str, dict[str, float]]:
    """Positive and negative specific agreement of every category of a contingency table (GATE 10.1.2,
    eq. 10.2; Hripcsak & Heitjan 2002): ``{category: {"positive": ..., "negative": ...}}``, the category
    against all others; a 0/0 ratio is 0.0 with a warning (:func:`~.coefficients.specific_agreement`).

    >>> specific_agreements([[80, 7], [8, 5]], ["yes", "no"])["yes"]["negative"]
    0.4
    """
    t = as_table(table)
    names = list(categories) if categories is not None else list(range(1, t.shape[-1] + 1))
    pos = specific_agreement(t)
    neg = specific_agreement(t, positive=False)
    return {str(c): {"positive": float(pos[k]), "negative": float(neg[k])} for k, c in enumerate(names)}


def majority_agreement(data: Any, annotators: Sequence[str] | None = None, *, rows: str = "annotators",
                       ties: str = "exclude") -> dict[str, Any]:
    """Each annotator against the majority opinion of the others (GATE user guide 10.1.2, after Fleiss 1975).

    For annotator ``a`` and a unit ``a`` rated and at least one other annotator
    rated, the *majority label* is the most frequent label among the others'
    ratings. A tie (two or more labels share the top count) is handled by
    ``ties``: ``"exclude"`` (default) leaves the unit out of ``a``'s figures and
    counts it in ``ties``; ``"fraction"`` credits ``1 / t`` when ``a``'s label is
    one of the ``t`` tied labels (the chance of agreeing with a label drawn from
    the tie). Per annotator: ``n_units``, ``agreements``, ``observed_agreement``
    (``agreements / n_units``; None with a warning when ``n_units`` is 0),
    ``ties`` and ``cohen_kappa`` of the annotator against the majority labels
    (units without a tie). ``mean``: the mean observed agreement over annotators.

    >>> out = majority_agreement([["x", "x", "y"], ["x", "y", "y"], ["x", "x", "x"]], ["A", "B", "C"])
    >>> out["annotators"]["A"]["observed_agreement"], out["annotators"]["B"]["ties"]
    (1.0, 1)
    """
    if ties not in ("exclude", "fraction"):
        raise ConfigError(f"ties must be 'exclude' or 'fraction', got {ties!r}")
    table = _rows(data, rows)
    names = list(annotators) if annotators is not None else [f"a{i + 1}" for i in range(len(table))]
    if len(names) != len(table) or len(set(names)) != len(names):
        raise ConfigError(f"annotators must name each of the {len(table)} annotators once, got {names!r}")
    if len(table) < 2:
        raise InputError("the majority opinion of the others needs two or more annotators")
    columns = list(zip(*table, strict=True))
    per: dict[str, Any] = {}
    for g, name in enumerate(names):
        n_units = tie_count = 0
        credit = 0.0
        pairs: list[tuple[Any, Any]] = []
        for unit in columns:
            mine = unit[g]
            others = [x for h, x in enumerate(unit) if h != g and not is_missing(x)]
            if is_missing(mine) or not others:
                continue
            counts = Counter(others).most_common()
            top = [label for label, c in counts if c == counts[0][1]]
            if len(top) > 1:
                tie_count += 1
                if ties == "exclude":
                    continue
                n_units += 1
                credit += (mine in top) / len(top)
                continue
            n_units += 1
            credit += mine == top[0]
            pairs.append((mine, top[0]))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UndefinedFigureWarning)
            kappa = cohen_kappa(confusion_matrix([a for a, _ in pairs], [b for _, b in pairs])).value \
                if pairs else None
        if not n_units:
            undefined(f"observed agreement of {name} with the majority", "no unit to compare")
        per[name] = {"n_units": n_units, "agreements": credit, "ties": tie_count,
                     "observed_agreement": credit / n_units if n_units else None, "cohen_kappa": kappa}
    defined = [v["observed_agreement"] for v in per.values() if v["observed_agreement"] is not None]
    return json_safe({"ties": ties, "annotators": per, "mean": float(np.mean(defined)) if defined else None})


__all__ = ["RAW_MEASURES", "SHARES", "TABLE_MEASURES", "ChanceAgreement", "brennan_prediger", "chance_agreement",
           "conger_kappa", "fleiss_kappa_missing", "gwet_ac", "krippendorff_alpha_gwet", "majority_agreement",
           "pabak", "rating_indicators", "specific_agreements", "table_agreement"]
