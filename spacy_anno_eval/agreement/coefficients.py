"""Agreement between two annotators on a classification, from a contingency table.

Two annotators (coders) A and B each put the same ``n`` items into one of
``q`` categories. Their decisions add up to a ``q x q`` contingency table
(confusion matrix) ``t``: ``t[i, j]`` is the number of items A put into
category ``i`` and B into category ``j`` (rows A = key, columns B =
response). With ``p = t / n``, the row and column marginals
``pA[k] = sum_j p[k, j]`` and ``pB[k] = sum_i p[i, k]``:

- observed agreement (GATE user guide 10.1.2, eq. 10.1)::

      Ao = sum_k p[k, k]

- the chance-corrected coefficients share one form and differ in the
  agreement expected by chance ``Ae`` (Artstein & Poesio 2008, section 2.4)::

      coefficient = (Ao - Ae) / (1 - Ae)

  - Bennett, Alpert & Goldstein's S (1954): ``Ae = 1 / q``, every category
    equally likely;
  - Scott's pi (1955): ``Ae = sum_k ((pA[k] + pB[k]) / 2) ** 2``, one
    distribution pooled over both coders (GATE table 10.4, where it is
    Siegel & Castellan's kappa for two annotators);
  - Cohen's kappa (1960): ``Ae = sum_k pA[k] * pB[k]``, each coder's own
    distribution (GATE table 10.3).

- weighted kappa (Cohen 1968; Artstein & Poesio 2008, section 2.6) with
  disagreement weights ``w`` (``w[k, k] = 0``)::

      kappa_w = 1 - Do / De,   Do = sum_ij w[i, j] p[i, j],   De = sum_ij w[i, j] pA[i] pB[j]

  reported as agreements ``Ao = 1 - Do / max(w)`` and ``Ae = 1 - De / max(w)``
  (so that ``kappa_w = (Ao - Ae) / (1 - Ae)`` as for the others). ``linear``
  weights are ``|i - j|``, ``quadratic`` ``(i - j) ** 2``, in the order of the
  table's categories, as in ``sklearn.metrics.cohen_kappa_score``.

- specific agreement per category (GATE 10.1.2, eq. 10.2; Hripcsak & Heitjan
  2002): positive ``2 t[k, k] / (tA[k] + tB[k])`` (``tA``, ``tB`` the row and
  column sums), negative ``2 d / (2 d + b + c)`` where the table is collapsed
  to "k" against "not k" with ``d`` items that neither coder put into ``k``.

Every function takes a table as an array-like of shape ``(q, q)``, or a stack
of tables of shape ``(..., q, q)`` (one per document or per coder pair),
computed at once; figures are then arrays of shape ``(...)``, else Python
floats. A :class:`ContingencyTable` (from :func:`confusion_matrix`) works
wherever a table does.

Undefined figures follow the package's one policy (:mod:`spacy_anno_eval.figures`):

- a coefficient does not exist (0/0) for an empty table (``n = 0``) and
  when ``Ae = 1``, which happens exactly when both coders used one and the
  same category for every item (then ``Ao = 1`` too), or, for S, when the
  table has a single category. It is then ``None`` (``null`` in JSON), and a
  :class:`~spacy_anno_eval.errors.DegenerateAgreementWarning` (an
  :class:`~spacy_anno_eval.errors.UndefinedFigureWarning`) says so. For an
  empty table ``Ao`` and ``Ae`` of the :class:`Agreement` are ``None`` too.
  In a stack of tables a float array cannot hold ``None``: undefined entries
  are NaN there, and :meth:`Agreement.to_dict` writes them as ``None``.
  ``undefined=`` gives another value (e.g. NaN for arithmetic).
- observed agreement and specific agreement are ratios: with a zero
  denominator (no item; a category used by neither coder) they are
  ``zero_division`` (default 0.0), with the same warning.

References:
  E. M. Bennett, R. Alpert, A. C. Goldstein (1954). Communications through
  limited-response questioning. Public Opinion Quarterly 18(3): 303-308.
  W. A. Scott (1955). Reliability of content analysis: the case of nominal
  scale coding. Public Opinion Quarterly 19(3): 321-325.
  J. Cohen (1960). A coefficient of agreement for nominal scales. Educational
  and Psychological Measurement 20(1): 37-46.
  J. Cohen (1968). Weighted kappa. Psychological Bulletin 70(4): 213-220.
  G. Hripcsak, D. F. Heitjan (2002). Measuring agreement in medical
  informatics reliability studies. J. Biomedical Informatics 35(2): 99-110.
  R. Artstein, M. Poesio (2008). Inter-coder agreement for computational
  linguistics. Computational Linguistics 34(4): 555-596.
"""

from __future__ import annotations

import warnings
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import ConfigError, DegenerateAgreementWarning, InputError
from ..figures import check_count, check_fraction, check_zero_division, json_safe, ratio
from ..samples import block_size_for, map_blocks

#: Ae closer to 1 than this counts as 1 (the coefficient is 0/0)
_AE_TOL = 1e-12

WEIGHTS = ("linear", "quadratic")


@dataclass(frozen=True, eq=False)
class ContingencyTable:
    """Counts of two coders' decisions: ``matrix[i, j]`` items put into
    ``categories[i]`` by coder A (key, rows) and ``categories[j]`` by coder B
    (response, columns). Usable wherever a table array is expected."""

    matrix: np.ndarray
    categories: tuple[Any, ...]

    def __array__(self, dtype: Any = None, copy: bool | None = None) -> np.ndarray:
        return self.matrix if dtype is None else self.matrix.astype(dtype)

    @property
    def n(self) -> int:
        """Number of items."""
        return int(self.matrix.sum())

    def to_dict(self) -> dict[str, Any]:
        """``{"categories": [...], "matrix": [[int]]}`` as plain Python values."""
        return {"categories": list(self.categories), "matrix": self.matrix.astype(np.int64).tolist()}


@dataclass(frozen=True, eq=False)
class Agreement:
    """A chance-corrected coefficient with its parts.

    ``value = (observed - expected) / (1 - expected)``; ``observed`` is Ao,
    ``expected`` Ae, ``n`` the number of items. Floats for one table (``None``
    where undefined), arrays for a stack of tables (NaN where undefined).
    """

    measure: str
    value: Any
    observed: Any
    expected: Any
    n: Any
    #: a bootstrap interval ``{"low", "high", "confidence", "n_samples", "seed"}`` when one was asked for
    ci: dict[str, Any] | None = None

    def _repr_html_(self) -> str:
        """A notebook's view: the value with its parts (:func:`spacy_anno_eval.report.notebook.agreement_html`)."""
        from ..report.notebook import agreement_html

        return agreement_html(self)

    def __float__(self) -> float:
        """The value as a float: NaN when the coefficient is undefined (``None``), for arithmetic."""
        return float("nan") if self.value is None else float(self.value)

    def to_dict(self) -> dict[str, Any]:
        """The figures as JSON-ready Python numbers (lists for a stack of tables), ``None`` where undefined."""
        def plain(x: Any) -> Any:
            return json_safe(np.asarray(x).tolist()) if x is not None else None

        out = {"measure": self.measure, "value": plain(self.value), "observed": plain(self.observed),
               "expected": plain(self.expected), "n": plain(self.n)}
        if self.ci is not None:
            out["ci"] = dict(self.ci)
        return out


# ---------------------------------------------------------------------------
# tables


def confusion_matrix(a: Sequence[Hashable], b: Sequence[Hashable],
                     categories: Sequence[Hashable] | None = None) -> ContingencyTable:
    """The contingency table of two coders' labels for the same items.

    ``a[i]`` and ``b[i]`` are coder A's and coder B's category for item ``i``.
    ``categories`` fixes the categories and their order (rows and columns;
    the order matters for weighted kappa); a label outside it raises
    :class:`~spacy_anno_eval.errors.InputError`. By default the categories are the labels that occur,
    sorted (in order of first occurrence when they do not sort, e.g. mixed
    types).
    """
    a, b = list(a), list(b)
    if len(a) != len(b):
        raise InputError(f"the two coders label different numbers of items ({len(a)} and {len(b)}); "
                         f"give one label per item to each")
    if categories is None:
        seen = list(dict.fromkeys(a + b))
        try:
            cats = tuple(sorted(seen))
        except TypeError:
            cats = tuple(seen)
    else:
        cats = tuple(categories)
        if len(set(cats)) != len(cats):
            raise ConfigError(f"categories must be distinct, got {list(cats)}")
    index = {c: i for i, c in enumerate(cats)}
    q = len(cats)
    try:
        ia = np.fromiter(map(index.__getitem__, a), dtype=np.int64, count=len(a))
        ib = np.fromiter(map(index.__getitem__, b), dtype=np.int64, count=len(b))
    except KeyError as err:
        raise InputError(f"label {err.args[0]!r} is not one of the categories {list(cats)}; "
                         f"add it to categories") from None
    counts = np.bincount(ia * q + ib, minlength=q * q) if q else np.zeros(0, dtype=np.int64)
    return ContingencyTable(counts.astype(np.int64).reshape(q, q), cats)


def as_table(table: Any) -> np.ndarray:
    """The table(s) as a float array of shape (..., q, q); raise for anything else."""
    arr = np.asarray(table, dtype=float)
    if arr.ndim < 2 or arr.shape[-1] != arr.shape[-2]:
        raise InputError(f"a contingency table must be square (q x q, or a stack ... x q x q), "
                         f"got shape {arr.shape}")
    if arr.size and (not np.isfinite(arr).all() or (arr < 0).any()):
        raise InputError("a contingency table holds counts: finite numbers >= 0")
    return arr


def _out(x: np.ndarray) -> Any:
    """A 0-d result as a Python float, else the array."""
    return float(x) if np.ndim(x) == 0 else x


def _where_undefined(x: np.ndarray, mask: np.ndarray, undefined: Any) -> Any:
    """``x`` with ``undefined`` where ``mask``: for one table a float or ``undefined`` itself (default None);
    for a stack an array, NaN where ``undefined`` is None (a float array holds no None)."""
    if np.ndim(x) == 0:
        return undefined if bool(mask) else float(x)
    return np.where(mask, np.nan if undefined is None else undefined, x)


def _count(n: np.ndarray) -> Any:
    """Item counts: ints when the table holds whole numbers (floats otherwise); an array for a stack."""
    whole = bool(np.all(n == np.round(n)))
    if np.ndim(n) == 0:
        return int(n) if whole else float(n)
    return n.astype(np.int64) if whole else n


def _parts(t: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(n, proportions p, row marginals pA, column marginals pB) of table(s) ``t``; p = 0 when n = 0."""
    n = t.sum(axis=(-2, -1))
    safe = np.where(n > 0, n, 1.0)
    p = t / safe[..., None, None]
    return n, p, p.sum(axis=-1), p.sum(axis=-2)


def _warn(message: str, stacklevel: int = 3) -> None:
    """Warn the caller of the public function (``stacklevel`` counts from here)."""
    warnings.warn(message, DegenerateAgreementWarning, stacklevel=stacklevel)


def _coefficient(measure: str, n: np.ndarray, ao: np.ndarray, ae: np.ndarray, undefined: Any) -> Agreement:
    """(Ao - Ae) / (1 - Ae), ``undefined`` (default None) where it does not exist, with a warning."""
    empty = n == 0
    flat = ~empty & (1.0 - ae <= _AE_TOL)
    with np.errstate(divide="ignore", invalid="ignore"):
        value = (ao - ae) / (1.0 - ae)
    shown = "None (null in JSON)" if undefined is None else undefined
    if empty.any():
        _warn(f"{measure}: the contingency table is empty (no items), so Ao, Ae and {measure} are undefined; "
              f"reported as {shown}", stacklevel=4)
    if flat.any():
        _warn(f"{measure}: expected agreement Ae = 1 (a single category, so every agreement is expected by "
              f"chance) and {measure} = 0/0 is undefined; reported as {shown}", stacklevel=4)
    return Agreement(measure, _where_undefined(value, empty | flat, undefined), _where_undefined(ao, empty, undefined),
                     _where_undefined(ae, empty, undefined), _count(n))


# ---------------------------------------------------------------------------
# measures


def observed_agreement(table: Any, *, zero_division: float = 0.0) -> Any:
    """Observed agreement ``Ao = sum_k t[k, k] / n`` (GATE 10.1.2, eq. 10.1).

    A float (an array for a stack of tables); a ratio, so ``zero_division``
    (default 0.0) with a :class:`DegenerateAgreementWarning` for an empty table.

    Artstein & Poesio (2008), example 1 (p. 558; ``tests/reference/test_artstein_poesio_2008.py``):

    >>> observed_agreement([[20, 10], [20, 50]])
    0.7
    """
    zero_division = check_zero_division(zero_division)
    t = as_table(table)
    n, p, _, _ = _parts(t)
    empty = n == 0
    if empty.any():
        _warn(f"observed agreement: the contingency table is empty (no items); reported as zero_division = "
              f"{zero_division}")
    return _out(np.where(empty, zero_division, np.trace(p, axis1=-2, axis2=-1)))


def specific_agreement(table: Any, *, positive: bool = True, zero_division: float = 0.0) -> np.ndarray:
    """Specific agreement of each category (GATE 10.1.2, eq. 10.2; Hripcsak & Heitjan 2002).

    Positive (default): ``2 t[k, k] / (tA[k] + tB[k])``, with ``tA``/``tB``
    the row/column sums: of the decisions for ``k`` by either coder, the share
    that the other coder matched. Negative (``positive=False``): the same for
    "not k", ``2 d / (2 n - tA[k] - tB[k])`` with ``d = n - tA[k] - tB[k] + t[k, k]``.

    Returns an array with one value per category (shape ``(..., q)``), in
    the table's order. A ratio, so a category with no decision (0/0) gets
    ``zero_division`` (default 0.0) with a :class:`DegenerateAgreementWarning`.
    """
    zero_division = check_zero_division(zero_division)
    t = as_table(table)
    n = t.sum(axis=(-2, -1))[..., None]
    diag = np.diagonal(t, axis1=-2, axis2=-1)
    margins = t.sum(axis=-1) + t.sum(axis=-2)
    if positive:
        num, den = 2.0 * diag, margins
    else:
        num, den = 2.0 * (n - margins + diag), 2.0 * n - margins
    out = ratio(num, den, zero_division)
    zero = den == 0
    if zero.any():
        _warn(f"specific agreement: {int(zero.sum())} categor{'y has' if zero.sum() == 1 else 'ies have'} "
              f"no {'decisions' if positive else 'decisions against them'} (0/0); reported as zero_division = "
              f"{zero_division}")
    return out


def bennett_s(table: Any, *, undefined: Any = None) -> Agreement:
    """Bennett, Alpert & Goldstein's S (1954): ``Ae = 1 / q``, every category equally likely.

    ``q`` is the number of categories of the table, used or not (Artstein &
    Poesio 2008, section 2.4). Same as Janson & Vegelius' C and Brennan &
    Prediger's kappa_n for two coders.

    Artstein & Poesio (2008), example 1 (p. 558; ``tests/reference/test_artstein_poesio_2008.py``):

    >>> round(bennett_s([[20, 10], [20, 50]]).value, 3)
    0.4
    """
    t = as_table(table)
    n, p, _, _ = _parts(t)
    q = t.shape[-1]
    ao = np.trace(p, axis1=-2, axis2=-1)
    ae = np.full(n.shape, 1.0 / q if q else 1.0)
    return _coefficient("S", n, ao, ae, undefined)


def scott_pi(table: Any, *, undefined: Any = None) -> Agreement:
    """Scott's pi (1955): ``Ae = sum_k ((pA[k] + pB[k]) / 2) ** 2``.

    Chance agreement from one distribution pooled over both coders (GATE
    10.1.2, table 10.4, where it is Siegel & Castellan's kappa for two
    annotators; Artstein & Poesio 2008, section 2.4).

    Artstein & Poesio (2008), example 1 (p. 558; ``tests/reference/test_artstein_poesio_2008.py``):

    >>> pi = scott_pi([[20, 10], [20, 50]])
    >>> round(pi.value, 3), round(pi.expected, 3)
    (0.341, 0.545)
    """
    t = as_table(table)
    n, p, pa, pb = _parts(t)
    ao = np.trace(p, axis1=-2, axis2=-1)
    ae = (((pa + pb) / 2.0) ** 2).sum(axis=-1)
    return _coefficient("pi", n, ao, ae, undefined)


def kappa_weights(q: int, weights: Any) -> np.ndarray:
    """The ``q x q`` disagreement weight matrix for ``weights``.

    ``"linear"``: ``|i - j|``; ``"quadratic"``: ``(i - j) ** 2``; a matrix:
    checked (square ``q x q``, finite, >= 0, 0 on the diagonal, not all 0)
    and returned as floats.
    """
    if isinstance(weights, str):
        if weights not in WEIGHTS:
            raise ConfigError(f"unknown weights {weights!r}: use None, 'linear', 'quadratic' or a q x q matrix")
        d = np.abs(np.subtract.outer(np.arange(q), np.arange(q))).astype(float)
        return d if weights == "linear" else d**2
    w = np.asarray(weights, dtype=float)
    if w.shape != (q, q):
        raise ConfigError(f"the weight matrix must be {q} x {q} (one row and column per category), got {w.shape}")
    if not np.isfinite(w).all() or (w < 0).any():
        raise ConfigError("weights must be finite and >= 0")
    if np.diagonal(w).any():
        raise ConfigError("weights are disagreement weights: 0 on the diagonal (a category agrees with itself); "
                         "for agreement weights a (1 on the diagonal) pass max(a) - a")
    if q > 1 and not w.any():
        raise ConfigError("the weights are all 0: every disagreement would count as agreement")
    return w


def cohen_kappa(table: Any, weights: Any = None, *, undefined: Any = None) -> Agreement:
    """Cohen's kappa (1960): ``Ae = sum_k pA[k] * pB[k]``, each coder's own distribution.

    GATE 10.1.2, table 10.3; Artstein & Poesio 2008, section 2.4.
    ``weights`` (Cohen 1968): ``None`` (unweighted), ``"linear"``,
    ``"quadratic"`` or a ``q x q`` matrix of disagreement weights (see
    :func:`kappa_weights`); weighted kappa is ``1 - Do / De`` and its
    ``observed`` / ``expected`` parts are the weighted agreements
    ``1 - Do / max(w)`` and ``1 - De / max(w)``. Equal to
    ``sklearn.metrics.cohen_kappa_score`` with the same ``weights``.

    Artstein & Poesio (2008), example 1 (p. 558; ``tests/reference/test_artstein_poesio_2008.py``):

    >>> kappa = cohen_kappa([[20, 10], [20, 50]])
    >>> round(kappa.value, 3), round(kappa.expected, 3)
    (0.348, 0.54)
    """
    t = as_table(table)
    n, p, pa, pb = _parts(t)
    if weights is None:
        ao = np.trace(p, axis1=-2, axis2=-1)
        ae = (pa * pb).sum(axis=-1)
        return _coefficient("kappa", n, ao, ae, undefined)
    q = t.shape[-1]
    w = kappa_weights(q, weights)
    scale = float(w.max()) if q > 1 else 1.0
    do = (w * p).sum(axis=(-2, -1))
    de = np.einsum("ij,...i,...j->...", w, pa, pb)
    name = f"kappa ({weights} weights)" if isinstance(weights, str) else "kappa (weighted)"
    return _coefficient(name, n, 1.0 - do / scale, 1.0 - de / scale, undefined)


def table_bootstrap(table: Any, coefficient: Any, *, n_samples: int = 1000, seed: int = 0,
                    confidence: float = 0.95, client: Any = None, **options: Any) -> Agreement:
    """``coefficient(table)`` with a percentile bootstrap interval over the table's items.

    ``coefficient`` is :func:`cohen_kappa`, :func:`scott_pi` or
    :func:`bennett_s` (``options`` such as ``weights`` go to it). Resampling
    the ``n`` items with replacement draws a new table from
    ``Multinomial(n, t / n)`` (Efron & Tibshirani 1993, ch. 6: the
    nonparametric bootstrap of i.i.d. items); the samples of a block are
    drawn and computed at once as a stack of tables. Samples where the
    coefficient is undefined (Ae = 1) are left out and counted in
    ``ci["n_undefined"]``; ``low`` and ``high`` are None when every sample
    is. One table only.

    Seeded and drawn in blocks (:mod:`spacy_anno_eval.samples`): block ``i``
    of ``block_size_for(4 * q * q)`` tables draws from
    ``default_rng(SeedSequence(seed, spawn_key=(i,)))``. ``client``: an open
    ``distributed.Client`` to compute the blocks on, with the same result as
    in-process.
    """
    import dataclasses

    _check_bootstrap(confidence, n_samples)
    t = as_table(table)
    if t.ndim != 2:
        raise InputError(f"table_bootstrap takes one q x q table, got shape {t.shape}")
    n = int(round(t.sum()))
    if n == 0 or t.sum() != n:
        raise InputError("table_bootstrap needs a non-empty table of whole counts (items to resample)")
    point = coefficient(t, undefined=options.pop("undefined", None), **options)
    block = block_size_for(4 * t.size)
    values = np.concatenate(map_blocks(_table_block, n_samples, seed, block, client=client, table=t,
                                       coefficient=coefficient, options=options))
    ok = np.isfinite(values)
    tail = (1 - confidence) / 2
    low, high = np.quantile(values[ok], [tail, 1 - tail]).tolist() if ok.any() else [None, None]
    ci = {"low": low, "high": high, "confidence": confidence, "n_samples": n_samples, "seed": seed,
          "n_undefined": int((~ok).sum())}
    return dataclasses.replace(point, ci=ci)


def _check_bootstrap(confidence: Any, n_samples: Any) -> None:
    """Validate a bootstrap's settings: ``confidence`` in (0, 1), ``n_samples`` a whole number >= 1 (NaN,
    booleans and strings refused; :mod:`spacy_anno_eval.figures`)."""
    check_fraction("confidence", confidence, open_ends=True, example="0.95")
    check_count("n_samples", n_samples)


def _table_block(size: int, seed: Any, table: np.ndarray, coefficient: Any, options: dict[str, Any]) -> np.ndarray:
    """``coefficient`` of one block of ``size`` tables drawn from ``Multinomial(n, table / n)`` (NaN: undefined)."""
    n = int(round(table.sum()))
    draws = np.random.default_rng(seed).multinomial(n, (table / n).ravel(), size=size).reshape((size,) + table.shape)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateAgreementWarning)
        return np.asarray(coefficient(draws, undefined=float("nan"), **options).value, dtype=float).reshape(size)


__all__ = ["Agreement", "ContingencyTable", "DegenerateAgreementWarning", "bennett_s", "cohen_kappa",
           "confusion_matrix", "kappa_weights", "observed_agreement", "scott_pi", "specific_agreement",
           "table_bootstrap"]
