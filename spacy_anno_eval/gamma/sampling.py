"""Random continua for γ's expected disorder (chance agreement).

γ = 1 - δ_observed / δ_expected, where δ_expected is the mean best-alignment
disorder of continua drawn "by chance" from the observed one (Mathet,
Widlöcher & Métivier 2015, section 4.4 and 5.2). Two samplers:

- :class:`StatisticalSampler` (pygamma-agreement's ``StatisticalContinuumSampler``):
  for each annotator, a number of units ``|int(N(μ_n, σ_n))|`` (at least one
  unit in the whole sample), each unit after the previous one with a gap
  ``N(μ_gap, σ_gap)`` and a length ``|N(μ_len, σ_len)|``, and a category drawn
  with the observed frequencies. ``μ``/``σ`` are the observed means and
  standard deviations (gaps include each annotator's first start, and a 0).
- :class:`ShuffleSampler` (the Gamma software's sampler, Mathet et al. 2015,
  section 5.2; pygamma's ``ShuffleContinuumSampler`` with integer pivots): for
  each annotator slot, the units of a randomly chosen annotator, all shifted
  by a random pivot (circularly within the continuum's bounds), pivots kept at
  least half a mean unit length apart.

Each sample is drawn from its own generator, ``numpy.random.default_rng``
of ``SeedSequence(seed).spawn(...)[index]``, so sample ``i`` is the same
whatever the number of processes or batches.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..errors import ConfigError, InputError
from .continuum import Continuum

SAMPLERS = ("statistical", "shuffle")
#: shortest unit a sampler makes (pygamma's segment precision)
MIN_LENGTH = 1e-6


@dataclass(frozen=True)
class StatisticalSampler:
    """Continua with the observed statistics of units per annotator, gaps, lengths and categories."""

    annotators: tuple[str, ...]
    categories: tuple[str, ...]
    category_p: tuple[float, ...]
    n_mean: float
    n_std: float
    gap_mean: float
    gap_std: float
    length_mean: float
    length_std: float

    @classmethod
    def from_continuum(cls, c: Continuum, annotators: list[str] | None = None) -> StatisticalSampler:
        if not len(c):
            raise InputError("cannot sample from an empty continuum")
        offsets = c.offsets()
        gaps = [0.0]
        for a in range(c.n_annotators):
            lo, hi = offsets[a], offsets[a + 1]
            if hi > lo:
                gaps.extend((c.start[lo + 1:hi] - c.end[lo:hi - 1]).tolist())
                if c.start[lo] > 0:
                    gaps.append(float(c.start[lo]))
        sizes = c.sizes()
        lengths = c.end - c.start
        p = np.bincount(c.category, minlength=len(c.categories)) / len(c)
        names = tuple(annotators or c.annotators)
        return cls(names, tuple(c.categories), tuple(p.tolist()), float(sizes.mean()), float(sizes.std()),
                   float(np.mean(gaps)), float(np.std(gaps)), float(lengths.mean()), float(lengths.std()))

    def sample(self, rng: np.random.Generator) -> Continuum:
        ann, start, end, cat = [], [], [], []
        counts = np.abs(rng.normal(self.n_mean, self.n_std, size=len(self.annotators)).astype(np.int64))
        if not counts.sum():
            counts[0] = 1
        for a, n in enumerate(counts.tolist()):
            if not n:
                continue
            gap = rng.normal(self.gap_mean, self.gap_std, size=n)
            length = np.abs(rng.normal(self.length_mean, self.length_std, size=n))
            short = length < MIN_LENGTH
            while short.any():
                length[short] = np.abs(rng.normal(self.length_mean, self.length_std, size=int(short.sum())))
                short = length < MIN_LENGTH
            # start_k = end_{k-1} + gap_k with end_0 = 0: cumulative sums of gap + length
            ends = np.cumsum(gap + length)
            starts = ends - length
            ann.append(np.full(n, a))
            start.append(starts)
            end.append(ends)
            cat.append(rng.choice(len(self.categories), size=n, p=np.asarray(self.category_p)))
        return Continuum(np.concatenate(ann), np.concatenate(start), np.concatenate(end), np.concatenate(cat),
                         list(self.annotators), list(self.categories))


@dataclass(frozen=True)
class ShuffleSampler:
    """Continua made of observed annotators' units shifted by random pivots (the Gamma software's sampler)."""

    reference: Continuum
    annotators: tuple[int, ...]

    @classmethod
    def from_continuum(cls, c: Continuum, annotators: list[str] | None = None) -> ShuffleSampler:
        if not len(c):
            raise InputError("cannot sample from an empty continuum")
        chosen = annotators or c.annotators
        missing = [a for a in chosen if a not in c.annotators]
        if missing:
            raise InputError(f"reference annotators {missing} are not in the continuum; its annotators: "
                             f"{', '.join(c.annotators)}")
        return cls(c, tuple(c.annotators.index(a) for a in chosen))

    def sample(self, rng: np.random.Generator) -> Continuum:
        c = self.reference
        lo, hi = float(c.start.min()), float(c.end.max())
        min_dist = float((c.end - c.start).mean()) / 2
        offsets = c.offsets()
        free = [(lo, hi)]
        ann, start, end, cat = [], [], [], []
        for slot in range(len(c.annotators)):
            if free:
                widths = np.array([b - a for a, b in free])
                k = int(rng.choice(len(free), p=widths / widths.sum())) if widths.sum() > 0 else 0
                a, b = free[k]
                pivot = float(int(rng.uniform(a, b)))
                free = [piece for seg in free for piece in _cut(seg, pivot - min_dist, pivot + min_dist)]
            else:
                pivot = float(rng.uniform(lo, hi))
            src = self.annotators[int(rng.integers(len(self.annotators)))]
            rows = np.arange(offsets[src], offsets[src + 1])
            s, e = c.start[rows] + pivot, c.end[rows] + pivot
            wrap = s > hi
            s, e = np.where(wrap, s + lo - hi, s), np.where(wrap, e + lo - hi, e)
            ann.append(np.full(len(rows), slot))
            start.append(s)
            end.append(e)
            cat.append(c.category[rows])
        out = Continuum(np.concatenate(ann), np.concatenate(start), np.concatenate(end), np.concatenate(cat),
                        [f"sample_{k}" for k in range(len(c.annotators))], list(c.categories))
        return out if len(out) else self.sample(rng)


def _cut(segment: tuple[float, float], a: float, b: float) -> list[tuple[float, float]]:
    """``segment`` minus ``[a, b]``."""
    s, e = segment
    out = []
    if s < a:
        out.append((s, min(e, a)))
    if e > b:
        out.append((max(s, b), e))
    return [(x, y) for x, y in out if y > x]


def make_sampler(kind: str, continuum: Continuum, annotators: list[str] | None = None
                 ) -> StatisticalSampler | ShuffleSampler:
    """The sampler ``kind`` (``statistical`` or ``shuffle``) for ``continuum``."""
    if kind == "statistical":
        return StatisticalSampler.from_continuum(continuum, annotators)
    if kind == "shuffle":
        return ShuffleSampler.from_continuum(continuum, annotators)
    raise ConfigError(f"sampler must be one of {', '.join(SAMPLERS)}, got {kind!r}")


def sample_seeds(seed: int, start: int, stop: int) -> list[np.random.SeedSequence]:
    """The seed sequences of samples ``start`` .. ``stop - 1`` (independent of batching)."""
    return np.random.SeedSequence(seed).spawn(stop)[start:stop]


__all__ = ["SAMPLERS", "ShuffleSampler", "StatisticalSampler", "make_sampler", "sample_seeds"]
