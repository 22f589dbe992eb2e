"""γ, γcat and γk with a stated precision.

**γ** (Mathet, Widlöcher & Métivier 2015): ``γ = 1 - δ_o / δ_e`` with
``δ_o`` the disorder of the best alignment (:mod:`.alignment`) and ``δ_e``
the mean best-alignment disorder of random continua (:mod:`.sampling`);
``γ = 1`` when ``δ_o = 0``.

**γcat, γk** (Mathet 2017, "The agreement measure γcat, a complement to γ
focused on categorization of a continuum", Computational Linguistics 43(3),
Algorithm 1): from an alignment, every pair of *real* units ``(u_i, u_j)`` of
a unitary alignment with ``n_v`` real units gets the weight::

    w = 1 / (n_v - 1)  *  max(0, 1 - α d_pos(u_i, u_j))        (value level x pairing confidence)

and the categorial disorder is ``Σ w d_cat / Σ w``. ``γcat = 1 - δcat_o / δcat_e``
(``δcat_e``: the mean over the same random continua, each from its own best
alignment). ``γk`` restricts the pairs to those with at least one unit of
category ``k``; it is ``None`` (NA) when no pair of the observed alignment
contains ``k``.

pygamma-agreement 0.5.9 departs from Algorithm 1 in an "experimental" way:
every (real unit, empty unit) pair also counts, with disorder ``Δ∅`` and
weight ``Δ∅``. ``empty_pairs="pygamma"`` reproduces it (to compare with its
numbers); the default ``"ignore"`` follows the seed. pygamma also reports
``γk = 1`` where no pair contains ``k``, which hides "no data"; we report
``None``.

**Precision** (Mathet et al. 2015, section 5.3; the Gamma software; pygamma's
``precision_level``): after ``n_samples`` random continua, with ``cv`` the
coefficient of variation of their disorders, ``ceil((z cv / precision)^2)``
samples give ``δ_e`` within ``precision`` (relative) at confidence ``z``
(1.96 for 95 %); more samples are drawn until that many are in hand (at most
``max_samples``). The interval on γ comes from the interval on ``δ_e``:
``[1 - δ_o / (δ_e - z s), 1 - δ_o / (δ_e + z s)]``, ``s`` the standard error.
Samples run in parallel processes with ``n_jobs``; each has its own seed, so
results do not depend on ``n_jobs``.
"""

from __future__ import annotations

import math
import os
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..errors import ConfigError
from .alignment import Alignment, best_alignment
from .continuum import Continuum, check_offsets
from .dissimilarity import Dissimilarity
from .sampling import make_sampler, sample_seeds
from .settings import EMPTY_PAIRS, GammaSettings

#: from this many units on, samples run in parallel processes by default
PARALLEL_UNITS = 2000


@dataclass
class CategorialDisorder:
    """Sums for γcat and γk of one alignment: ``Σ w d_cat`` and ``Σ w`` overall and per category."""

    disorder: float
    weight: float
    by_category_disorder: np.ndarray
    by_category_weight: np.ndarray

    @property
    def value(self) -> float:
        return self.disorder / self.weight if self.weight > 0 else 0.0


def categorial_disorder(alignment: Alignment, dissim: Dissimilarity, empty_pairs: str = "ignore"
                        ) -> CategorialDisorder:
    """The γcat / γk sums of ``alignment`` (see the module docstring)."""
    if empty_pairs not in EMPTY_PAIRS:
        raise ConfigError(f"empty_pairs must be one of {', '.join(EMPTY_PAIRS)}, got {empty_pairs!r}")
    c = alignment.continuum
    q = len(c.categories)
    t = alignment.tuples
    cat = dissim.category_matrix(c.categories)
    nv = (t >= 0).sum(axis=1)
    base = np.where(nv >= 2, 1.0 / np.maximum(nv - 1, 1), 0.0)
    num, den = 0.0, 0.0
    k_num, k_den = np.zeros(q), np.zeros(q)
    de = dissim.delta_empty
    n = t.shape[1]
    for a in range(n):
        for b in range(a + 1, n):
            ua, ub = t[:, a], t[:, b]
            both = (ua >= 0) & (ub >= 0)
            i, j = ua[both], ub[both]
            pos = dissim.alpha * dissim.positional(c.start[i], c.end[i], c.start[j], c.end[j])
            w = base[both] * np.maximum(0.0, 1.0 - pos)
            ci, cj = c.category[i], c.category[j]
            dc = cat[ci, cj]
            num += float((w * dc).sum())
            den += float(w.sum())
            k_num += np.bincount(ci, weights=w * dc, minlength=q)
            k_den += np.bincount(ci, weights=w, minlength=q)
            other = ci != cj
            k_num += np.bincount(cj[other], weights=(w * dc)[other], minlength=q)
            k_den += np.bincount(cj[other], weights=w[other], minlength=q)
            if empty_pairs == "pygamma":
                one = (ua >= 0) != (ub >= 0)
                real = np.where(ua >= 0, ua, ub)[one]
                num += de * de * len(real)
                den += de * len(real)
                k_num += np.bincount(c.category[real], minlength=q) * de * de
                k_den += np.bincount(c.category[real], minlength=q) * de
    return CategorialDisorder(num, den, k_num, k_den)


@dataclass
class SampleDisorders:
    """What each random continuum contributes: its best-alignment disorder and categorial sums."""

    disorder: np.ndarray
    cat: np.ndarray
    cat_k: np.ndarray  # samples x categories; NaN where no pair holds the category
    n_unitary_alignments: np.ndarray


def _sample_job(args: tuple) -> list[tuple[float, float, np.ndarray, int]]:
    sampler, dissim, seeds, categories, empty_pairs = args
    out = []
    for seq in seeds:
        sample = sampler.sample(np.random.default_rng(seq))
        al = best_alignment(sample, dissim)
        cd = categorial_disorder(al, dissim, empty_pairs)
        # the sample's categories may be a subset: map onto the reference's
        k = np.full(len(categories), np.nan)
        index = {name: i for i, name in enumerate(categories)}
        for pos, name in enumerate(sample.categories):
            if cd.by_category_weight[pos] > 0:
                k[index[name]] = cd.by_category_disorder[pos] / cd.by_category_weight[pos]
        out.append((al.disorder, cd.value, k, len(al)))
    return out


def _run_samples(sampler: Any, dissim: Dissimilarity, categories: list[str], empty_pairs: str, seed: int,
                 start: int, stop: int, n_jobs: int, progress: Any = None, client: Any = None) -> SampleDisorders:
    seeds = sample_seeds(seed, start, stop)
    if client is not None:
        futures = client.map(_sample_job, [(sampler, dissim, [s], categories, empty_pairs) for s in seeds],
                             pure=False, retries=2)
        results = [r for part in client.gather(futures) for r in part]
        if progress is not None:
            progress.update(len(seeds))
    elif n_jobs == 1 or len(seeds) < 2:
        results = []
        for s in seeds:
            results.extend(_sample_job((sampler, dissim, [s], categories, empty_pairs)))
            if progress is not None:
                progress.update(1)
    else:
        chunks = [seeds[k::n_jobs] for k in range(n_jobs) if seeds[k::n_jobs]]
        with ProcessPoolExecutor(max_workers=len(chunks)) as pool:
            parts = list(pool.map(_sample_job, [(sampler, dissim, ch, categories, empty_pairs) for ch in chunks]))
        # undo the round-robin split so sample i stays at position i
        results = [None] * len(seeds)
        for k, part in enumerate(parts):
            for m, r in enumerate(part):
                results[k + m * len(chunks)] = r
        if progress is not None:
            progress.update(len(seeds))
    return SampleDisorders(np.array([r[0] for r in results]), np.array([r[1] for r in results]),
                           np.array([r[2] for r in results]).reshape(len(results), len(categories)),
                           np.array([r[3] for r in results]))


@dataclass
class GammaResult:
    """γ, γcat, γk and what they were computed from."""

    gamma: float
    gamma_cat: float | None
    gamma_k: dict[str, float | None]
    observed_disorder: float
    expected_disorder: float
    observed_cat_disorder: float
    expected_cat_disorder: float
    n_unitary_alignments: int
    n_samples: int
    ci: dict[str, Any]
    settings: dict[str, Any]
    alignment: Alignment
    sample_disorders: np.ndarray = field(repr=False)
    warnings: list[str] = field(default_factory=list)
    options: GammaSettings | None = field(default=None, repr=False)  # the settings object (``settings``: its dict)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready figures (the alignment as ``unitary_alignments`` rows)."""
        return {
            "gamma": self.gamma,
            "gamma_cat": self.gamma_cat,
            "gamma_k": dict(self.gamma_k),
            "observed_disorder": self.observed_disorder,
            "expected_disorder": self.expected_disorder,
            "observed_cat_disorder": self.observed_cat_disorder,
            "expected_cat_disorder": self.expected_cat_disorder,
            "n_unitary_alignments": self.n_unitary_alignments,
            "n_samples": self.n_samples,
            "ci": dict(self.ci),
            "annotators": list(self.alignment.continuum.annotators),
            "n_units": len(self.alignment.continuum),
            "settings": dict(self.settings),
            "warnings": list(self.warnings),
            "unitary_alignments": self.alignment.to_rows(),
            # which documents were compared, and which left out for whom (a continuum read from documents)
            **({"documents": self.alignment.continuum.documents}
               if self.alignment.continuum.documents is not None else {}),
        }


def _ratio(observed: float, expected: float) -> float:
    if observed == 0:
        return 1.0
    if expected == 0:
        return 0.0
    return float(1.0 - observed / expected)


def gamma(data: Any, *, dissimilarity: Dissimilarity | None = None, alpha: float | None = None,
          beta: float | None = None, delta_empty: float | None = None, sampler: str = "statistical",
          n_samples: int = 30, precision: float | None = None, max_samples: int = 1000, confidence: float = 0.95,
          seed: int = 0, n_jobs: int | None = None, empty_pairs: str = "ignore",
          sets: Sequence[str] | str | None = None, unit: str = "char", sep: str | None = None,
          reference_annotators: list[str] | None = None, progress: bool = False,
          scheduler: str | None = None, client: Any = None) -> GammaResult:
    """γ, γcat and γk of ``data``: a :class:`Continuum`, a path (CSV, fixture JSON, TextGrid, EAF, DocBin) or
    spaCy Docs with ``sets`` (one span set per annotator, e.g. ``["spans:ann1", "spans:ann2"]``).

    ``alpha`` / ``beta`` / ``delta_empty`` build the default
    :class:`Dissimilarity` (absolute categories) unless ``dissimilarity`` is
    given. ``sampler``: ``statistical`` or ``shuffle``. ``precision``
    (relative, e.g. 0.02): sample until ``δ_e`` is known within it (see the
    module docstring). ``n_jobs``: processes for the samples (``-1``: all
    cores; ``None``: all cores from :data:`PARALLEL_UNITS` units on, else one,
    as starting processes costs more than small samples).
    ``reference_annotators``: sample chance from these annotators only.
    ``sep``: the delimiter of a CSV file (default ``,``). Unit positions must be
    finite and within ±1e15 (:data:`~spacy_anno_eval.gamma.continuum.MAX_OFFSET`).
    ``scheduler`` (``"local:N"`` or a Dask scheduler address) or ``client``
    (an open ``distributed.Client``): the samples run as Dask tasks instead,
    one per sample, with the same seeds (the same result).
    """
    if dissimilarity is None:
        dissimilarity = Dissimilarity(alpha=1.0 if alpha is None else alpha, beta=1.0 if beta is None else beta,
                                      delta_empty=1.0 if delta_empty is None else delta_empty)
    elif any(x is not None for x in (alpha, beta, delta_empty)):
        raise ConfigError("give either dissimilarity or alpha/beta/delta_empty, not both")
    settings = GammaSettings(dissimilarity, sampler, n_samples, precision, max_samples, confidence, seed, n_jobs,
                             empty_pairs)  # every value checked once, before anything is read
    return gamma_with(data, settings, sets=sets, unit=unit, sep=sep, reference_annotators=reference_annotators,
                      progress=progress, scheduler=scheduler, client=client)


def gamma_with(data: Any, settings: GammaSettings, *, sets: Sequence[str] | str | None = None, unit: str = "char",
               sep: str | None = None, reference_annotators: list[str] | None = None, progress: bool = False,
               scheduler: str | None = None, client: Any = None) -> GammaResult:
    """:func:`gamma` with its settings given as one :class:`~spacy_anno_eval.gamma.settings.GammaSettings`."""
    from ..cluster import check_scheduler

    if client is None and scheduler is not None:
        check_scheduler(scheduler)  # the address, before anything is read
    dissimilarity, sampler, n_samples = settings.dissimilarity, settings.sampler, settings.n_samples
    n_jobs, empty_pairs = settings.n_jobs, settings.empty_pairs
    continuum = check_offsets(_as_continuum(data, sets, unit, sep))
    if n_jobs is None:
        n_jobs = -1 if len(continuum) >= PARALLEL_UNITS else 1
    if n_jobs == -1:
        n_jobs = os.cpu_count() or 1
    n_jobs = max(1, int(n_jobs))
    z = _z(settings.confidence)
    alignment = best_alignment(continuum, dissimilarity)
    observed_cat = categorial_disorder(alignment, dissimilarity, empty_pairs)
    chance = make_sampler(sampler, continuum, reference_annotators)
    from ..progress import progress_bar

    bar = progress_bar(n_samples, "gamma samples", "sample", enabled=progress)
    from ..cluster import dask_client

    with dask_client(scheduler, client) as client:
        return _gamma(continuum, settings, chance, alignment, observed_cat, n_jobs, bar, client, z)


def _gamma(continuum: Continuum, settings: GammaSettings, chance: Any, alignment: Alignment,
           observed_cat: CategorialDisorder, n_jobs: int, bar: Any, client: Any, z: float) -> GammaResult:
    dissimilarity, n_samples, precision = settings.dissimilarity, settings.n_samples, settings.precision
    max_samples, confidence, seed = settings.max_samples, settings.confidence, settings.seed
    empty_pairs = settings.empty_pairs
    samples = _run_samples(chance, dissimilarity, continuum.categories, empty_pairs, seed, 0, n_samples, n_jobs, bar,
                           client)
    warnings_out: list[str] = []
    if precision is not None:
        while True:
            mean, sd = float(samples.disorder.mean()), float(samples.disorder.std())
            required = math.ceil((z * sd / mean / precision) ** 2) if mean > 0 else len(samples.disorder)
            have = len(samples.disorder)
            if required <= have:
                break
            if have >= max_samples:
                warnings_out.append(f"precision {precision} needs {required} samples; stopped at max_samples "
                                    f"{max_samples}")
                break
            stop = min(required, max_samples)
            bar.set_total(stop)
            more = _run_samples(chance, dissimilarity, continuum.categories, empty_pairs, seed, have, stop, n_jobs,
                                bar, client)
            samples = SampleDisorders(*(np.concatenate([getattr(samples, f), getattr(more, f)])
                                        for f in ("disorder", "cat", "cat_k", "n_unitary_alignments")))
    bar.close()
    obs = alignment.disorder
    exp = float(samples.disorder.mean())
    se = float(samples.disorder.std(ddof=1) / math.sqrt(len(samples.disorder)))
    lo_e, hi_e = exp - z * se, exp + z * se
    ci = {"low": _ratio(obs, lo_e) if lo_e > 0 else None, "high": _ratio(obs, hi_e), "confidence": confidence,
          "expected_disorder_low": lo_e, "expected_disorder_high": hi_e,
          "relative_precision": z * se / exp if exp > 0 else None}
    exp_cat = float(samples.cat.mean())
    gamma_cat = _ratio(observed_cat.value, exp_cat) if observed_cat.weight > 0 else None
    if gamma_cat is None:
        warnings_out.append("gamma_cat: no pair of aligned units in the best alignment")
    gamma_k: dict[str, float | None] = {}
    for k, name in enumerate(continuum.categories):
        if observed_cat.by_category_weight[k] <= 0:
            gamma_k[name] = None
            continue
        obs_k = observed_cat.by_category_disorder[k] / observed_cat.by_category_weight[k]
        col = samples.cat_k[:, k]
        col = col[np.isfinite(col)]
        gamma_k[name] = _ratio(obs_k, float(col.mean())) if len(col) else None
    return GammaResult(_ratio(obs, exp), gamma_cat, gamma_k, obs, exp, observed_cat.value, exp_cat, len(alignment),
                       len(samples.disorder), ci, settings.to_dict(), alignment, samples.disorder, warnings_out,
                       settings)


def _z(confidence: float) -> float:
    from scipy.stats import norm

    return float(norm.ppf(0.5 + confidence / 2))


def _as_continuum(data: Any, sets: Sequence[str] | str | None, unit: str, sep: str | None = None) -> Continuum:
    if isinstance(data, (str, os.PathLike)):
        from .readers import read_continuum

        return read_continuum(data, sets=sets, unit=unit, sep=sep)
    if sep is not None:
        raise ConfigError(f"sep is the delimiter of a CSV file; the data is a {type(data).__name__}, not a path")
    if isinstance(data, Continuum):
        return data
    from ..annotations.docs import as_docs

    docs = as_docs(data, "data")  # a clear ConfigError for None, a single Doc, a list of something else
    if sets is None:
        raise ConfigError("spaCy Docs need sets=[...]: one span set per annotator, e.g. "
                          "['spans:ann1', 'spans:ann2']")
    from .readers import from_docs

    return from_docs(docs, sets, unit=unit)


__all__ = ["EMPTY_PAIRS", "CategorialDisorder", "GammaResult", "categorial_disorder", "gamma"]
