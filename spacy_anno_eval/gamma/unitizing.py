"""Krippendorff's unitizing α (uα), the 2004 form, overall and per category.

Source: K. Krippendorff (2004), *Content Analysis: An Introduction to Its
Methodology*, 2nd ed., Sage, section on the reliability of unitizing, worked
example p. 254 (two coders, continuum [150, 450), categories c and k:
uα 0.8591, c 0.7286, k 1.0); the same coefficient in K. Krippendorff (2004),
"Measuring the reliability of qualitative text analysis data", *Quality &
Quantity* 38: 787–800. It extends Krippendorff (1995), *Sociological
Methodology* 25: 47–76. This is the form DKPro Statistics implements as
``KrippendorffAlphaUnitizingAgreement``; it reproduces that class's tests.

Definitions. The continuum is the integer positions ``[B, B + L)`` (the
``extent``); ``m`` annotators each cover all of it. For one category ``c``,
each annotator's continuum splits into *sections*: its units of ``c`` (which
must not overlap one another) and the *gaps* between them (maximal stretches
holding no unit of ``c``; units of other categories count as gap). For two
sections ``g`` (annotator i) and ``h`` (annotator j), with starts ``b``,
ends ``e`` and lengths ``l``::

    δ(g, h) = (b_g − b_h)² + (e_g − e_h)²   both units of c, overlapping (b_g < e_h and b_h < e_g)
            = l_g²                          g a unit of c lying inside the gap h
            = l_h²                          h a unit of c lying inside the gap g
            = 0                             otherwise (two gaps; sections that do not overlap)

Observed disagreement of ``c`` (over every ordered pair of annotators i ≠ j
and every section of each)::

    uD_o(c) = Σ_{i≠j} Σ_g Σ_h δ(g, h) / (m (m − 1) L²)

Expected disagreement of ``c``, with ``N_c`` units of ``c`` over all
annotators, ``l`` a unit's length and the gaps taken over all annotators::

    numerator(c)   = (2 / L) Σ_{units u of c} [ (N_c − 1)(2 l_u³ − 3 l_u² + l_u) / 3
                                              + l_u² Σ_{gaps h with l_h ≥ l_u} (l_h − l_u + 1) ]
    denominator(c) = m L (m L − 1) − Σ_{units u of c} l_u (l_u − 1)
    uD_e(c)        = numerator(c) / denominator(c)

(``(2 l³ − 3 l² + l) / 3 = 2 Σ_{k=1}^{l−1} k²``). Then ``uα(c) = 1 − uD_o(c) / uD_e(c)`` and, over the categories
that have units, ``uα = 1 − Σ_c uD_o(c) / Σ_c uD_e(c)``. The ``observed`` and
``expected`` figures of the overall result are the means over those
categories (as DKPro reports them; the ratio is the same).

The book's 0.8591 comes from its rounded intermediate figures (D_o 0.0144,
D_e 0.0532 + 0.0490); unrounded, uα is 0.858665, as DKPro also computes.

Positions are counted in whole units (characters, tokens): the formula's
``+ 1`` and squared lengths depend on the unit of measure, so non-integer
positions are refused (express seconds as milliseconds, for instance).

Undefined figures (:mod:`spacy_anno_eval.figures`): with fewer than two
annotators, no units, or an expected disagreement of 0, uα (or uα of a
category) is ``None`` with one
:class:`~spacy_anno_eval.errors.UndefinedFigureWarning` per call. DKPro
returns 0.0 where ``D_o = D_e = 0``; here that is ``None``.

The 2016 form (:func:`unitizing_alpha_2016`; Krippendorff, Mathet, Bouvry &
Widlöcher 2016, "On the reliability of unitizing textual continua: Further
developments", *Quality & Quantity* 50: 2347–2364) takes each annotator's
continuum as a sequence of *segments*: its units, each with its category, and
the gaps between them (the value "no unit"). Observed coincidences over every
ordered pair of annotators i ≠ j and their segments ``g``, ``h``::

    o_ck = Σ_{i≠j} Σ_{g of value c, h of value k} |g ∩ h| / (m − 1),   l.. = Σ o_ck = m L

expected coincidences, a gap of length ``ℓ`` counting as ``ℓ`` segments of
length 1 (so it adds ``ℓ``, not ``ℓ²``)::

    e_ck = l.. (l_c. l_.k − [c = k] Σ_{segments of value c} ℓ_s²) / (l..² − Σ_{all segments} ℓ_s²)

and ``uα = 1 − (l.. − Σ_c o_cc) / (l.. − Σ_c e_cc)`` (nominal; the gap is a
value like the categories). It needs one value per position and annotator: a
unit overlapping another of its annotator, in any category, is refused.
``dkpro_simple_example.json`` gives 2/11 = 0.181818 (REFERENCE-2.md B2: the
same in two independent implementations, zeljkobekcic/KrippendorffUnitizedAlpha
and lindanna/unitized_alpha, and by hand: o_AA 6, o_A0 5, o_00 4, l.. 20,
e_AA = 20·54/324, e_00 = 20·72/324).

Left out: the 2016 variants cuα, |cuα and (k)α: no published worked example
and no independent implementation was run here to check them against.

>>> from spacy_anno_eval.gamma.continuum import Continuum
>>> units = [("0", 225, 295, "c"), ("0", 370, 400, "c"), ("1", 220, 300, "c"), ("1", 355, 375, "c"),
...          ("1", 400, 420, "c"), ("0", 180, 240, "k"), ("0", 300, 350, "k"), ("1", 180, 240, "k"),
...          ("1", 300, 350, "k")]
>>> result = unitizing_alpha(Continuum.from_units(units), extent=(150, 450))  # Krippendorff 2004, p. 254
>>> round(result.value, 3), round(result.per_category["c"]["value"], 4), result.per_category["k"]["value"]
(0.859, 0.7286, 1.0)
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np

from .. import figures
from ..errors import ConfigError, InputError
from ..figures import json_safe
from .continuum import Continuum, check_offsets


def unitizing_distance(start1: float, end1: float, is_unit1: bool, start2: float, end2: float,
                       is_unit2: bool) -> float:
    """Krippendorff's (2004) δ between two sections, each a unit of the category (``is_unit``) or a gap.

    >>> unitizing_distance(225, 295, True, 220, 300, True)   # both units, overlapping: 5² + 5²
    50.0
    >>> unitizing_distance(400, 450, False, 400, 420, True)  # a unit inside a gap: its length squared
    400.0
    """
    if is_unit1 and is_unit2:
        if start1 < end2 and start2 < end1:
            return float((start1 - start2) ** 2 + (end1 - end2) ** 2)
        return 0.0
    if is_unit1 and not is_unit2 and start2 <= start1 and end1 <= end2:
        return float((end1 - start1) ** 2)
    if is_unit2 and not is_unit1 and start1 <= start2 and end2 <= end1:
        return float((end2 - start2) ** 2)
    return 0.0


@dataclass
class UnitizingAlphaResult:
    """Krippendorff's (2004) uα of a continuum (see the module docstring).

    ``value``: uα over all categories (``None`` when undefined);
    ``observed`` / ``expected``: the mean of the categories' uD_o / uD_e;
    ``per_category``: for each category with units, ``{"value", "observed",
    "expected", "n_units"}``; ``extent``: ``(begin, end)`` of the continuum.
    """

    value: float | None
    observed: float | None
    expected: float | None
    per_category: dict[str, dict[str, Any]]
    extent: tuple[float, float] | None
    annotators: list[str]
    n_units: int
    warnings: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready figures (no NaN, no infinity)."""
        return json_safe({
            "measure": "krippendorff2004_u_alpha",
            "value": self.value,
            "observed_disagreement": self.observed,
            "expected_disagreement": self.expected,
            "per_category": {c: dict(v) for c, v in self.per_category.items()},
            "extent": list(self.extent) if self.extent is not None else None,
            "annotators": list(self.annotators),
            "n_units": self.n_units,
            "warnings": list(self.warnings),
        })


def _whole(value: float) -> bool:
    return math.isfinite(value) and float(value).is_integer()


def _check_extent(continuum: Continuum, extent: Any, source: str) -> tuple[float, float] | None:
    """``(begin, end)``: ``extent`` checked, or the smallest start and largest end; None without units and extent."""
    if extent is None:
        if not len(continuum):
            return None
        return float(continuum.start.min()), float(continuum.end.max())
    try:
        begin, end = (float(x) for x in extent)
    except (TypeError, ValueError):
        raise ConfigError(f"extent must be (begin, end) of the continuum, two whole numbers, got {extent!r}") from None
    if not (_whole(begin) and _whole(end)) or not begin < end:
        raise ConfigError(f"extent must be (begin, end) with whole numbers begin < end, got {extent!r}")
    if len(continuum):
        outside = (continuum.start < begin) | (continuum.end > end)
        if outside.any():
            i = int(np.argmax(outside))
            raise InputError(f"{_unit_at(continuum, i, source)} lies outside the extent [{begin:g}, {end:g}); "
                             f"widen the extent or leave it out (default: smallest start to largest end)")
    return begin, end


def _unit_at(continuum: Continuum, row: int, source: str) -> str:
    a = int(continuum.annotator[row])
    index = row - int(np.flatnonzero(continuum.annotator == a)[0])
    return (f"{source or 'continuum'}: unit {index + 1} of annotator {continuum.annotators[a]!r} "
            f"([{continuum.start[row]:g}, {continuum.end[row]:g}), category "
            f"{continuum.categories[continuum.category[row]]!r})")


def _check_units(continuum: Continuum, source: str) -> None:
    """Whole-number positions; no two units of one annotator and category overlap."""
    if not len(continuum):
        return
    fractional = ~(np.floor(continuum.start) == continuum.start) | ~(np.floor(continuum.end) == continuum.end)
    if fractional.any():
        i = int(np.argmax(fractional))
        raise InputError(f"{_unit_at(continuum, i, source)} has a fractional position; Krippendorff's uα counts "
                         f"positions in whole units (characters, tokens): scale the positions (seconds to "
                         f"milliseconds, for instance)")
    order = np.lexsort((continuum.start, continuum.category, continuum.annotator))
    a, c = continuum.annotator[order], continuum.category[order]
    s, e = continuum.start[order], continuum.end[order]
    same = (a[1:] == a[:-1]) & (c[1:] == c[:-1])
    # sorted by start, a unit overlapping any earlier one of its annotator and category overlaps the one before it
    clash = np.flatnonzero(same & (s[1:] < e[:-1]))
    if len(clash):
        k = int(clash[0]) + 1
        earlier = int(order[k - 1])
        raise InputError(f"{_unit_at(continuum, int(order[k]), source)} overlaps unit "
                         f"[{continuum.start[earlier]:g}, {continuum.end[earlier]:g}) of the same annotator and "
                         f"category; Krippendorff's uα needs the units of one annotator and category not to overlap "
                         f"(merge them, or give them different categories)")


def _gaps(starts: np.ndarray, ends: np.ndarray, begin: float, end: float) -> np.ndarray:
    """Lengths of the stretches of ``[begin, end)`` that the sorted, non-overlapping units do not cover."""
    left = np.concatenate([[begin], ends])
    right = np.concatenate([starts, [end]])
    lengths = right - left
    return lengths[lengths > 0]


def _pair_disagreement(s1: np.ndarray, e1: np.ndarray, s2: np.ndarray, e2: np.ndarray) -> float:
    """Σ δ over the sections of two annotators (one category): overlapping units, and units inside a gap."""
    lo = np.searchsorted(e2, s1, side="right")  # first unit of 2 ending after unit 1 starts
    hi = np.searchsorted(s2, e1, side="left")  # first unit of 2 starting at or after unit 1's end
    count = np.maximum(hi - lo, 0)
    first = np.repeat(np.arange(len(s1)), count)
    second = np.repeat(lo, count) + (np.arange(int(count.sum())) - np.repeat(np.cumsum(count) - count, count))
    total = float(np.sum((s1[first] - s2[second]) ** 2 + (e1[first] - e2[second]) ** 2))
    total += float(np.sum(((e1 - s1) ** 2)[count == 0]))  # a unit of 1 overlapping no unit of 2: inside a gap
    matched = np.zeros(len(s2), dtype=bool)
    matched[second] = True
    total += float(np.sum(((e2 - s2) ** 2)[~matched]))
    return total


def _category(per_annotator: list[tuple[np.ndarray, np.ndarray]], begin: float, end: float) -> tuple[float, float]:
    """(uD_o, uD_e) of one category, from each annotator's sorted (starts, ends) of its units."""
    m, length = len(per_annotator), end - begin
    observed = 0.0
    for i in range(m):
        for j in range(i + 1, m):
            observed += _pair_disagreement(*per_annotator[i], *per_annotator[j])
    observed = 2.0 * observed / (m * (m - 1) * length * length)
    lengths = np.concatenate([e - s for s, e in per_annotator])
    gaps = np.sort(np.concatenate([_gaps(s, e, begin, end) for s, e in per_annotator]))
    n_c = len(lengths)
    suffix = np.concatenate([np.cumsum(gaps[::-1])[::-1], [0.0]])  # suffix[k] = Σ gaps[k:]
    at = np.searchsorted(gaps, lengths, side="left")  # gaps[at:] >= l
    fitting = suffix[at] - (lengths - 1) * (len(gaps) - at)  # Σ_{gaps h >= l} (l_h − l + 1)
    shifted = (n_c - 1) * (2 * lengths ** 3 - 3 * lengths ** 2 + lengths) / 3
    numerator = 2.0 / length * float(np.sum(shifted + lengths ** 2 * fitting))
    denominator = m * length * (m * length - 1) - float(np.sum(lengths * (lengths - 1)))
    return observed, numerator / denominator


def unitizing_alpha(continuum: Continuum, *, extent: tuple[float, float] | None = None,
                    source: str = "") -> UnitizingAlphaResult:
    """Krippendorff's (2004) uα of ``continuum``, overall and per category; see the module docstring.

    ``extent``: ``(begin, end)`` of the continuum every annotator covered
    (whole numbers; default: the smallest start to the largest end). Every
    annotator of ``continuum.annotators`` counts as having annotated all of
    it: one without units of a category has one gap over the whole extent.
    ``source`` names the input in error messages.

    Raises :class:`InputError` for fractional positions, a unit outside
    ``extent``, or two overlapping units of one annotator and category.
    """
    if not isinstance(continuum, Continuum):
        raise ConfigError(f"unitizing_alpha takes a Continuum (spacy_anno_eval.gamma.readers reads one), got "
                          f"{type(continuum).__name__}")
    check_offsets(continuum, source)
    _check_units(continuum, source)
    bounds = _check_extent(continuum, extent, source)
    m = continuum.n_annotators
    undefined: list[str] = []  # the figures that do not exist, and why
    whys: list[str] = []
    zero: list[str] = []  # the categories whose expected disagreement is 0
    per_category: dict[str, dict[str, Any]] = {}
    observed = expected = value = None
    if m < 2:
        undefined.append("uα")
        whys.append(f"{m} annotator{'' if m == 1 else 's'}; it compares two or more")
    elif bounds is None or not len(continuum):
        undefined.append("uα")
        whys.append("no units")
    else:
        begin, end = bounds
        sums = [0.0, 0.0]
        codes = np.unique(continuum.category)
        for code in codes.tolist():
            rows = continuum.category == code
            mine = [rows & (continuum.annotator == a) for a in range(m)]
            units = [(continuum.start[k], continuum.end[k]) for k in mine]  # sorted by start within an annotator
            d_o, d_e = _category(units, begin, end)
            name = continuum.categories[code]
            alpha = 1.0 - d_o / d_e if d_e > 0 else None
            if alpha is None:
                zero.append(name)
            per_category[name] = {"value": alpha, "observed": d_o, "expected": d_e, "n_units": int(rows.sum())}
            sums[0] += d_o
            sums[1] += d_e
        observed, expected = sums[0] / len(codes), sums[1] / len(codes)
        if expected > 0:
            value = 1.0 - observed / expected
        else:
            undefined.append("uα")
        if zero:
            undefined.append(f"uα of categor{'y' if len(zero) == 1 else 'ies'} {', '.join(map(repr, zero))}")
            whys.append("expected disagreement 0")
    messages = []
    if undefined:
        name = " and ".join(undefined)
        messages.append(f"{name} is undefined ({'; '.join(whys)}); reported as None (null in JSON)")
        figures.undefined(name, "; ".join(whys), stacklevel=2)
    return UnitizingAlphaResult(value, observed, expected, per_category, bounds, list(continuum.annotators),
                                len(continuum), messages)


GAP = "(gap)"

#: why a 2016 uα is ``None`` (:attr:`UnitizingAlpha2016Result.undefined_because`): units of one annotator overlap
#: (asked for with ``on_overlap="undefined"``), fewer than two annotators, no units, expected disagreement 0
UNDEFINED_2016 = ("overlap", "annotators", "no units", "expected disagreement 0")


@dataclass
class UnitizingAlpha2016Result:
    """Krippendorff et al.'s (2016) uα (see the module docstring): ``value`` (``None`` when undefined), the
    observed and expected disagreement ``l.. − Σ o_cc`` and ``l.. − Σ e_cc``, the diagonal coincidences per
    value (the gap as ``"(gap)"``), ``total`` = l.., the extent and the annotators.

    ``undefined_because``: ``None`` when ``value`` is a number, else one of :data:`UNDEFINED_2016`, and
    ``warnings`` says it in words. Under ``"overlap"`` nothing was computed: the figures are ``None`` and
    :meth:`to_dict` holds the measure, the value and the warnings only.
    """

    value: float | None
    observed: float | None
    expected: float | None
    coincidences: dict[str, float]
    expected_coincidences: dict[str, float]
    total: float | None
    extent: tuple[float, float] | None
    annotators: list[str]
    warnings: list[str] = field(default_factory=list)
    undefined_because: str | None = None

    @classmethod
    def overlapping(cls, message: str, extent: tuple[float, float] | None,
                    annotators: list[str]) -> UnitizingAlpha2016Result:
        """The result when units of one annotator overlap: no figure, ``message`` (the error's) as its warning."""
        return cls(None, None, None, {}, {}, None, extent, list(annotators), [message], undefined_because="overlap")

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready figures (no NaN, no infinity); under ``"overlap"`` the measure, ``value`` null and the
        warnings only."""
        if self.undefined_because == "overlap":
            return json_safe({"measure": "krippendorff2016_u_alpha", "value": None, "warnings": list(self.warnings)})
        return json_safe({"measure": "krippendorff2016_u_alpha", "value": self.value,
                          "observed_disagreement": self.observed, "expected_disagreement": self.expected,
                          "coincidences": dict(self.coincidences),
                          "expected_coincidences": dict(self.expected_coincidences), "total": self.total,
                          "extent": list(self.extent) if self.extent is not None else None,
                          "annotators": list(self.annotators), "warnings": list(self.warnings)})


def _segments(continuum: Continuum, a: int, begin: float, end: float, source: str
              ) -> list[tuple[float, float, int]]:
    """Annotator ``a``'s units and gaps over ``[begin, end)`` as ``(start, end, value)``; value -1 is the gap.
    Two overlapping units of the annotator (any categories) are an :class:`InputError`."""
    rows = np.flatnonzero(continuum.annotator == a)
    rows = rows[np.argsort(continuum.start[rows], kind="stable")]
    out: list[tuple[float, float, int]] = []
    at = begin
    for r in rows.tolist():
        s, e = float(continuum.start[r]), float(continuum.end[r])
        if s < at and out and out[-1][2] != -1:
            raise InputError(f"{_unit_at(continuum, r, source)} overlaps another unit of its annotator; the 2016 "
                             f"uα needs one value per position and annotator (merge the units, or use the 2004 "
                             f"uα, which takes categories one at a time)")
        if s > at:
            out.append((at, s, -1))
        out.append((s, e, int(continuum.category[r])))
        at = e
    if at < end:
        out.append((at, end, -1))
    return out


def unitizing_alpha_2016(continuum: Continuum, *, extent: tuple[float, float] | None = None,
                         source: str = "", on_overlap: Literal["raise", "undefined"] = "raise"
                         ) -> UnitizingAlpha2016Result:
    """Krippendorff et al.'s (2016) uα of ``continuum``; see the module docstring. ``extent`` as for
    :func:`unitizing_alpha`.

    Raises :class:`InputError` as :func:`unitizing_alpha` does, and when two units of one annotator overlap
    (in any categories): the 2016 form needs one value per position and annotator. With
    ``on_overlap="undefined"`` that case is a result instead, ``value`` None, ``undefined_because="overlap"``
    and the error's message as its warning (no warning is issued: the caller asked for the result; the 2004
    form, which takes categories one at a time, still applies). Other undefined values (fewer than two
    annotators, no units, expected disagreement 0) warn with
    :class:`~spacy_anno_eval.errors.UndefinedFigureWarning` and say why in ``undefined_because``.

    >>> from spacy_anno_eval.gamma.continuum import Continuum
    >>> units = [("0", 1, 9, "A"), ("1", 2, 3, "A"), ("1", 4, 5, "A"), ("1", 6, 7, "A")]
    >>> r = unitizing_alpha_2016(Continuum.from_units(units), extent=(0, 10))  # REFERENCE-2.md B2
    >>> round(r.value, 6), r.coincidences, r.total
    (0.181818, {'(gap)': 4.0, 'A': 6.0}, 20.0)
    """
    if not isinstance(continuum, Continuum):
        raise ConfigError(f"unitizing_alpha_2016 takes a Continuum (spacy_anno_eval.gamma.readers reads one), got "
                          f"{type(continuum).__name__}")
    if on_overlap not in ("raise", "undefined"):
        raise ConfigError(f"on_overlap must be 'raise' or 'undefined', got {on_overlap!r}")
    check_offsets(continuum, source)
    _check_units(continuum, source)
    bounds = _check_extent(continuum, extent, source)
    m = continuum.n_annotators
    because = "annotators" if m < 2 else "no units" if bounds is None or not len(continuum) else None
    if because is not None:
        why = "fewer than two annotators" if because == "annotators" else because
        figures.undefined("uα (2016)", why, stacklevel=2)
        return UnitizingAlpha2016Result(None, 0.0, 0.0, {}, {}, 0.0, bounds, list(continuum.annotators),
                                        [f"uα (2016) is undefined ({why}); reported as None (null in JSON)"],
                                        undefined_because=because)
    begin, end = bounds
    try:
        segments = [_segments(continuum, a, begin, end, source) for a in range(m)]
    except InputError as err:  # _segments' one error: units of one annotator overlap
        if on_overlap == "raise":
            raise
        return UnitizingAlpha2016Result.overlapping(str(err), bounds, list(continuum.annotators))
    cuts = sorted({x for segs in segments for s, e, _ in segs for x in (s, e)})
    values: dict[int, int] = {}  # category code (-1 gap) -> row
    for segs in segments:
        for _, _, v in segs:
            values.setdefault(v, len(values))
    k = len(values)
    observed = np.zeros((k, k))
    pointers = [0] * m
    for left, right in zip(cuts[:-1], cuts[1:], strict=True):
        here = []
        for a, segs in enumerate(segments):
            while segs[pointers[a]][1] <= left:
                pointers[a] += 1
            here.append(values[segs[pointers[a]][2]])
        width = right - left
        for i in range(m):
            for j in range(m):
                if i != j:
                    observed[here[i], here[j]] += width / (m - 1)
    total = float(observed.sum())
    margins = observed.sum(axis=1)
    squares = np.zeros(k)
    for segs in segments:
        for s, e, v in segs:
            squares[values[v]] += (e - s) if v == -1 else (e - s) ** 2
    denominator = total ** 2 - float(squares.sum())
    expected_diag = total * (margins ** 2 - squares) / denominator if denominator > 0 else np.zeros(k)
    d_o = total - float(np.trace(observed))
    d_e = total - float(expected_diag.sum())
    name = {row: (GAP if v == -1 else continuum.categories[v]) for v, row in values.items()}
    messages = []
    value = 1.0 - d_o / d_e if d_e > 0 else None
    if value is None:
        figures.undefined("uα (2016)", "expected disagreement 0", stacklevel=2)
        messages.append("uα (2016) is undefined (expected disagreement 0); reported as None (null in JSON)")
    order = sorted(range(k), key=lambda r: name[r])
    return UnitizingAlpha2016Result(value, d_o, d_e, {name[r]: float(observed[r, r]) for r in order},
                                    {name[r]: float(expected_diag[r]) for r in order}, total, bounds,
                                    list(continuum.annotators), messages,
                                    undefined_because=None if value is not None else "expected disagreement 0")


@dataclass
class UnitizingAlphas:
    """Both unitizing alphas of one continuum over one extent, as ``anno-eval gamma --ualpha`` reports them:
    ``alpha_2004`` (:func:`unitizing_alpha`) and ``alpha_2016`` (:func:`unitizing_alpha_2016`; units of one
    annotator that overlap leave it undefined, ``undefined_because="overlap"``, while the 2004 form, which takes
    categories one at a time, still applies)."""

    alpha_2004: UnitizingAlphaResult
    alpha_2016: UnitizingAlpha2016Result

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: ``unitizing_alpha`` (the 2004 form) and ``unitizing_alpha_2016``, each its result's
        ``to_dict()``."""
        return {"unitizing_alpha": self.alpha_2004.to_dict(), "unitizing_alpha_2016": self.alpha_2016.to_dict()}


def unitizing_extent(continuum: Continuum, extent: tuple[float, float] | None = None) -> tuple[float, float] | None:
    """The stretch the unitizing alphas of ``continuum`` compare: ``extent`` when given; else, for a continuum
    laid out from documents (:attr:`Continuum.documents`) that holds units, the positions its compared documents
    span (``documents["extent"]``: a stretch nobody marked counts as gaps); else ``None`` (the smallest start to
    the largest end)."""
    if extent is not None:
        return extent
    documents = continuum.documents
    return tuple(documents["extent"]) if documents is not None and len(continuum) else None


def unitizing_alphas(continuum: Continuum, *, extent: tuple[float, float] | None = None,
                     source: str = "") -> UnitizingAlphas:
    """Krippendorff's 2004 and 2016 uα of ``continuum`` over :func:`unitizing_extent` (``extent`` when given),
    the 2004 form first; ``source`` names the input in error messages. Raises as :func:`unitizing_alpha` does;
    overlapping units of one annotator make the 2016 value undefined, not an error (:class:`UnitizingAlphas`)."""
    bounds = unitizing_extent(continuum, extent)
    return UnitizingAlphas(unitizing_alpha(continuum, extent=bounds, source=source),
                           unitizing_alpha_2016(continuum, extent=bounds, source=source, on_overlap="undefined"))


def gamma_report(result: Any, unitizing: UnitizingAlphas | None = None) -> dict[str, Any]:
    """The JSON of ``anno-eval gamma``: the γ result's ``to_dict()``
    (:class:`~spacy_anno_eval.gamma.measure.GammaResult`), then, when computed, the unitizing alphas' keys
    (:meth:`UnitizingAlphas.to_dict`)."""
    out = result.to_dict()
    if unitizing is not None:
        out.update(unitizing.to_dict())
    return out


__all__ = ["GAP", "UNDEFINED_2016", "UnitizingAlpha2016Result", "UnitizingAlphaResult", "UnitizingAlphas",
           "gamma_report", "unitizing_alpha", "unitizing_alpha_2016", "unitizing_alphas", "unitizing_distance",
           "unitizing_extent"]
