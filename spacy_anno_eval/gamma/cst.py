"""The Corpus Shuffling Tool (CST): annotators made from a reference by controlled errors.

Mathet, Widlöcher, Fort, François, Galibert, Grouin, Kahn, Rosset & Zweigenbaum (2012), "Manual corpus
annotation: giving meaning to the evaluation metrics" (COLING 2012); Mathet, Widlöcher & Métivier (2015),
"The unified and holistic method gamma (γ) for inter-annotator agreement measure and alignment",
Computational Linguistics 41(3), section 5.

The CST takes a reference annotation (the "truth") and derives ``n`` annotators from it, each a copy of the
reference damaged by errors of a chosen *magnitude* ``m`` in ``[0, 1]``: ``m = 0`` gives exact copies of the
reference, ``m = 1`` the most damage each kind of error can do. Since the truth is known, a measure such as γ
can be checked to fall as the magnitude rises, and to weigh each kind of error as intended.

- :func:`reference_continuum` builds a synthetic reference (units one after another, normal lengths and gaps);
- :func:`shuffle` builds the damaged annotators.

Everything is numpy-vectorised per annotator and seeded through :class:`numpy.random.SeedSequence`
(no global random state).
"""

from __future__ import annotations

import numbers
from collections.abc import Sequence

import numpy as np

from ..errors import ConfigError, InputError
from .continuum import Continuum

#: The kinds of error, in the order :func:`shuffle` applies them.
ERROR_KINDS: tuple[str, ...] = ("false_negatives", "shift", "category", "split", "false_positives")

_MAX_REDRAWS = 100


def reference_continuum(n_units: int, *, categories: Sequence[str] = ("A", "B", "C", "D"),
                        category_weights: Sequence[float] | None = None, avg_length: float = 10,
                        std_length: float = 3, avg_gap: float = 5, std_gap: float = 2,
                        seed: int | np.random.SeedSequence | None = 0, annotator: str = "ref") -> Continuum:
    """A synthetic reference: ``n_units`` units of one annotator, laid one after another.

    For unit ``i``: ``length_i = max(1, N(avg_length, std_length))``, ``gap_i = max(0, N(avg_gap, std_gap))``
    and ``start_i = sum(gap_0..gap_i) + sum(length_0..length_{i-1})``, so units never overlap and the first one
    starts at ``gap_0 >= 0``. Categories are drawn independently with probabilities ``category_weights``
    (normalised; uniform when ``None``). As with :meth:`Continuum.from_units`, the continuum's ``categories``
    are the (sorted) names of the categories actually drawn.
    """
    if isinstance(n_units, bool) or not isinstance(n_units, numbers.Integral) or n_units < 0:
        raise ConfigError(f"n_units must be a whole number >= 0, not {n_units!r}")
    n_units = int(n_units)
    cats = [str(c) for c in categories]
    if not cats:
        raise ConfigError("categories must not be empty; give at least one category name")
    if len(set(cats)) != len(cats):
        raise ConfigError(f"categories must be distinct: {cats}")
    if category_weights is None:
        weights = np.full(len(cats), 1.0 / len(cats))
    else:
        weights = _floats("category_weights", category_weights)
        if weights.shape != (len(cats),) or not np.all(np.isfinite(weights)) or np.any(weights < 0) \
                or weights.sum() <= 0:
            raise ConfigError(f"category_weights must be {len(cats)} non-negative numbers (one per category "
                              f"{cats}) with a positive sum, got {category_weights!r}")
        weights = weights / weights.sum()
    for name, value in (("avg_length", avg_length), ("avg_gap", avg_gap)):
        _number(name, value, "a finite number")
    for name, value in (("std_length", std_length), ("std_gap", std_gap)):
        if not _number(name, value, "a finite number >= 0") >= 0:
            raise ConfigError(f"{name} must be a finite number >= 0, not {value!r}")
    rng = np.random.default_rng(seed)
    lengths = np.maximum(rng.normal(avg_length, std_length, n_units), 1.0)
    gaps = np.maximum(rng.normal(avg_gap, std_gap, n_units), 0.0)
    # One running sum over gap_0, length_0, gap_1, length_1, ...: each start is the previous end plus a gap >= 0
    # in floating point too, so units never overlap, even by rounding.
    bounds = np.cumsum(np.stack([gaps, lengths], axis=1).ravel())
    codes = rng.choice(len(cats), size=n_units, p=weights)
    return _build(np.zeros(n_units, dtype=np.int64), bounds[0::2], bounds[1::2], codes, cats, [str(annotator)])


def shuffle(reference: Continuum, n_annotators: int, *, magnitude: float = 0.0,
            shift: float | bool | None = None, false_positives: float | bool | None = None,
            false_negatives: float | bool | None = None, category: float | bool | None = None,
            split: float | bool | None = None, seed: int | np.random.SeedSequence | None = 0,
            categories: Sequence[str] | None = None, confusion: np.ndarray | Sequence[Sequence[float]] | None = None,
            min_length: float = 1e-3) -> Continuum:
    """Annotators ``annotator_1 .. annotator_<n>``, each a noisy copy of all of ``reference``'s units.

    Every unit of ``reference`` counts, whatever its annotator (several annotators are pooled). Each kind of
    error has its own magnitude in ``[0, 1]``: ``None`` (or ``True``) means "use ``magnitude``", ``0`` (or
    ``False``) switches the kind off. Below, ``m`` is the kind's magnitude and ``L = end - start`` the length of
    the reference unit. Each annotator gets its own random stream, and within it each kind of error its own
    sub-stream, so switching one kind on or off does not change the noise of the others. The kinds are applied
    in this order:

    1. **false negatives**: each reference unit is dropped with probability ``m`` (``m = 1`` drops every unit;
       the annotator is still listed, with no units).
    2. **shift**: each boundary moves independently, ``start' = start + U(-1, 1)·m·L`` and
       ``end' = end + U(-1, 1)·m·L``, so no boundary moves by more than ``m·L``. ``start'`` is raised to
       ``min(start, 0)`` if it falls below (so it stays ``>= 0`` when the reference does); a draw giving
       ``end' - start' < min(min_length, L)`` is redrawn (the unit keeps its reference boundaries should 100
       draws fail).
    3. **category**: with probability ``m`` a unit's category is replaced, uniformly by one of the *other*
       categories, or, when ``confusion`` is given, by a category ``j`` drawn with probability
       ``confusion[i, j]`` for the unit's true category ``i`` (a non-zero diagonal lets it keep ``i``).
    4. **split**: with probability ``m`` a unit ``[s, e)`` becomes the two contiguous units ``[s, c)`` and
       ``[c, e)``, ``c = s + δ + U(0, 1)·(L' - 2δ)`` with ``L' = e - s`` and ``δ = min(min_length, L'/4)``;
       both keep the unit's category.
    5. **false positives**: ``round(m · n)`` random units are added (``n`` = number of reference units), with
       ``length = clip(N(mean, std), shortest, hi - lo)`` where ``mean``, ``std`` and ``shortest`` are those of
       the reference lengths, ``start = lo + U(0, 1)·(hi - lo - length)`` so that the unit lies inside the
       reference's span ``[lo, hi]``, and categories drawn with the reference's category frequencies. These
       units undergo no other error.

    ``m = 0`` for every kind gives exact copies of the reference; ``m = 1`` drops every unit (false negatives),
    moves boundaries by up to a whole unit length (shift), relabels every unit (category), splits every unit
    (split) and adds as many random units as the reference has (false positives).

    ``categories`` lists the categories a relabelled unit may take (it must include every reference
    category; extra ones may be drawn by category errors but never by false positives); ``confusion`` is a
    ``k x k`` matrix of probabilities (rows sum to 1) whose rows and columns follow ``categories`` when given,
    else ``reference.categories`` (sorted names). As with :meth:`Continuum.from_units`, the result's
    ``categories`` are the sorted names of the categories its units use.

    ``seed`` (an int, a :class:`numpy.random.SeedSequence`, or ``None`` for fresh entropy) fixes everything:
    the same seed gives the same continuum.
    """
    if not isinstance(reference, Continuum):
        raise InputError(f"reference must be a Continuum (e.g. from reference_continuum() or "
                         f"Continuum.from_units()), not {type(reference).__name__}")
    if isinstance(n_annotators, bool) or not isinstance(n_annotators, numbers.Integral) or n_annotators < 1:
        raise ConfigError(f"n_annotators must be a positive integer, not {n_annotators!r}")
    n_annotators = int(n_annotators)
    base = _check_magnitude("magnitude", magnitude, 0.0)
    m = {kind: _check_magnitude(kind, value, base) for kind, value in
         zip(ERROR_KINDS, (false_negatives, shift, category, split, false_positives), strict=True)}
    if not _number("min_length", min_length, "a finite number > 0") > 0:
        raise ConfigError(f"min_length must be a finite number > 0, not {min_length!r}")

    pool = _category_pool(reference, categories)
    k = len(pool)
    lookup = np.array([pool.index(c) for c in reference.categories], dtype=np.int64)
    ref_cat = lookup[reference.category] if len(reference) else np.zeros(0, dtype=np.int64)
    ref_start, ref_end = reference.start.copy(), reference.end.copy()
    n = len(reference)
    cum_confusion = _check_confusion(confusion, pool) if confusion is not None else None

    n_false_pos = int(round(m["false_positives"] * n))
    if n:
        lengths = ref_end - ref_start
        lo, hi = float(ref_start.min()), float(ref_end.max())
        fp_stats = (float(lengths.mean()), float(lengths.std()), float(lengths.min()), lo, hi,
                    np.bincount(ref_cat, minlength=k) / n)
    else:
        fp_stats = None

    names = [f"annotator_{i + 1}" for i in range(n_annotators)]
    code_of = {name: code for code, name in enumerate(sorted(names))}
    root = seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(seed)
    columns: list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = []
    for name, child in zip(names, root.spawn(n_annotators), strict=True):
        rng = dict(zip(ERROR_KINDS, (np.random.default_rng(s) for s in child.spawn(len(ERROR_KINDS))),
                       strict=True))
        # Draws are made for every reference unit, dropped or not, so that each kind's noise does not depend
        # on whether the other kinds are on.
        keep = rng["false_negatives"].random(n) >= m["false_negatives"]
        start, end = _shift(rng["shift"], ref_start, ref_end, m["shift"], min_length)
        cat = _recategorise(rng["category"], ref_cat, m["category"], k, cum_confusion)
        split_draw, split_point = rng["split"].random(n), rng["split"].random(n)
        start, end, cat = start[keep], end[keep], cat[keep]
        start, end, cat = _split(start, end, cat, split_draw[keep] < m["split"], split_point[keep], min_length)
        if n_false_pos and fp_stats is not None:
            fs, fe, fc = _false_positives(rng["false_positives"], n_false_pos, *fp_stats)
            start, end, cat = np.concatenate([start, fs]), np.concatenate([end, fe]), np.concatenate([cat, fc])
        columns.append((np.full(len(start), code_of[name], dtype=np.int64), start, end, cat))
    ann, start, end, cat = (np.concatenate(col) for col in zip(*columns, strict=True))
    return _build(ann, start, end, cat, pool, sorted(names))


def _check_magnitude(name: str, value: float | bool | None, default: float) -> float:
    if value is None or value is True:
        return default
    if value is False:
        return 0.0
    number = _number(name, value, "a magnitude in [0, 1]")
    if not 0.0 <= number <= 1.0:
        raise ConfigError(f"{name} must be a magnitude in [0, 1], not {value!r}")
    return number


def _number(name: str, value: object, what: str) -> float:
    """``value`` as a finite float; raise :class:`ConfigError` saying it must be ``what``."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not np.isfinite(float(value)):
        raise ConfigError(f"{name} must be {what}, not {value!r}")
    return float(value)


def _floats(name: str, values: object) -> np.ndarray:
    """``values`` as a float array; raise :class:`ConfigError` naming ``name`` when they are not numbers."""
    try:
        return np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError):
        raise ConfigError(f"{name} must hold numbers, got {values!r}") from None


def _category_pool(reference: Continuum, categories: Sequence[str] | None) -> list[str]:
    if categories is None:
        return list(reference.categories)
    pool = [str(c) for c in categories]
    if len(set(pool)) != len(pool):
        raise ConfigError(f"categories must be distinct: {pool}")
    missing = sorted(set(reference.categories) - set(pool))
    if missing:
        raise ConfigError(f"categories must include every category of the reference "
                          f"({reference.categories}); missing {missing}")
    return pool


def _check_confusion(confusion: np.ndarray | Sequence[Sequence[float]], pool: list[str]) -> np.ndarray:
    """Validate ``confusion`` and return its row-wise cumulative sums, ready for :func:`_recategorise`."""
    k = len(pool)
    matrix = _floats("confusion", confusion)
    if matrix.shape != (k, k):
        raise ConfigError(f"confusion must be a {k} x {k} matrix (categories {pool}), not of shape {matrix.shape}")
    if not np.all(np.isfinite(matrix)) or np.any(matrix < 0):
        raise ConfigError("confusion must hold probabilities: finite, non-negative numbers (NaN refused)")
    sums = matrix.sum(axis=1)
    bad = np.flatnonzero(np.abs(sums - 1.0) > 1e-6)
    if len(bad):
        raise ConfigError(f"each row of confusion must sum to 1; row of {pool[bad[0]]!r} sums to {sums[bad[0]]}")
    cum = np.cumsum(matrix / sums[:, None], axis=1)
    # The drawn index is the number of entries <= U(0, 1); from a row's last non-zero entry on, entries are
    # infinite, so a category of zero probability is never drawn, even through rounding of the sums.
    last = k - 1 - np.argmax(matrix[:, ::-1] > 0, axis=1)
    return np.where(np.arange(k)[None, :] >= last[:, None], np.inf, cum)


def _shift(rng: np.random.Generator, start: np.ndarray, end: np.ndarray, m: float,
           min_length: float) -> tuple[np.ndarray, np.ndarray]:
    """Move each boundary by ``U(-1, 1)·m·L``; see :func:`shuffle`."""
    n = len(start)
    if m == 0 or n == 0:
        return start.copy(), end.copy()
    length = end - start
    bound = m * length
    min_len = np.minimum(min_length, length)
    floor = np.minimum(start, 0.0)
    new_start = np.maximum(start + rng.uniform(-1.0, 1.0, n) * bound, floor)
    new_end = end + rng.uniform(-1.0, 1.0, n) * bound
    bad = np.flatnonzero(new_end - new_start < min_len)
    for _ in range(_MAX_REDRAWS):
        if not len(bad):
            break
        new_start[bad] = np.maximum(start[bad] + rng.uniform(-1.0, 1.0, len(bad)) * bound[bad], floor[bad])
        new_end[bad] = end[bad] + rng.uniform(-1.0, 1.0, len(bad)) * bound[bad]
        bad = bad[new_end[bad] - new_start[bad] < min_len[bad]]
    new_start[bad], new_end[bad] = start[bad], end[bad]
    return new_start, new_end


def _recategorise(rng: np.random.Generator, cat: np.ndarray, m: float, k: int,
                  cum_confusion: np.ndarray | None) -> np.ndarray:
    """Replace each category with probability ``m``; see :func:`shuffle`."""
    n = len(cat)
    if m == 0 or n == 0:
        return cat.copy()
    hit, draw = rng.random(n) < m, rng.random(n)
    if cum_confusion is not None:
        new = (draw[:, None] >= cum_confusion[cat]).sum(axis=1)
    elif k < 2:
        return cat.copy()
    else:
        other = np.minimum((draw * (k - 1)).astype(np.int64), k - 2)
        new = other + (other >= cat)
    return np.where(hit, new, cat)


def _split(start: np.ndarray, end: np.ndarray, cat: np.ndarray, hit: np.ndarray, point: np.ndarray,
           min_length: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Cut the units of ``hit`` in two contiguous units; see :func:`shuffle`."""
    if not hit.any():
        return start, end, cat
    length = end[hit] - start[hit]
    margin = np.minimum(min_length, length / 4)
    cut = start[hit] + margin + point[hit] * (length - 2 * margin)
    first_end = end.copy()
    first_end[hit] = cut
    return (np.concatenate([start, cut]), np.concatenate([first_end, end[hit]]),
            np.concatenate([cat, cat[hit]]))


def _false_positives(rng: np.random.Generator, count: int, mean: float, std: float, shortest: float, lo: float,
                     hi: float, freq: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``count`` random units inside ``[lo, hi]``; see :func:`shuffle`."""
    span = hi - lo
    length = np.clip(rng.normal(mean, std, count), min(shortest, span), span)
    start = lo + rng.random(count) * (span - length)
    end = np.minimum(start + length, hi)
    cat = rng.choice(len(freq), size=count, p=freq)
    return start, end, cat.astype(np.int64)


def _build(ann: np.ndarray, start: np.ndarray, end: np.ndarray, cat: np.ndarray, pool: list[str],
           annotators: list[str]) -> Continuum:
    """A continuum whose categories are the sorted names of the pool categories that ``cat`` uses."""
    used = np.unique(cat)
    names = sorted(pool[i] for i in used.tolist())
    remap = np.zeros(len(pool), dtype=np.int64)
    remap[used] = [names.index(pool[i]) for i in used.tolist()]
    return Continuum(ann, start, end, remap[cat] if len(cat) else cat, annotators, names)


__all__ = ["ERROR_KINDS", "reference_continuum", "shuffle"]
