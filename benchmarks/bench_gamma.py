"""γ: us vs pygamma-agreement 0.5.9 on the same continua, side by side.

For each continuum both compute γ the default way (best alignment + 30 random
continua from the statistical sampler, α = 3, β = 1, Δ∅ = 1) and the script
prints seconds, the observed (best-alignment) disorder of each — which must
be equal: both are exact — γ of each (Monte-Carlo: close, not equal), and the
ratio of the times. Continua: pygamma's ``3by100`` and ``2by1000`` (from
``../shared/data/pygamma_tests_data`` when present) and continua made by the
Corpus Shuffling Tool, 3 annotators x K reference units (magnitude 0.2).
pygamma runs only up to ``--pygamma-max`` units per annotator (its cost grows
steeply: minutes at a few hundred); above, our time alone is printed.

    python benchmarks/bench_gamma.py [--sizes 100,1000,10000] [--jobs N] [--pygamma-max 100]

Both tools are warmed up first (imports, pygamma's numba compilation).
"""

from __future__ import annotations

import argparse
import logging
import time
from pathlib import Path

from spacy_anno_eval.gamma import Dissimilarity, gamma
from spacy_anno_eval.gamma.cst import reference_continuum, shuffle

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data" / "pygamma_tests_data"


def ours(continuum, jobs: int, samples: int):
    t = time.perf_counter()
    r = gamma(continuum, dissimilarity=Dissimilarity(alpha=3, beta=1), n_samples=samples, seed=0, n_jobs=jobs)
    return time.perf_counter() - t, r.observed_disorder, r.gamma


def theirs(continuum, samples: int):
    import numpy as np
    import pygamma_agreement as pg
    from pyannote.core import Segment

    logging.getLogger().setLevel(logging.ERROR)
    np.random.seed(0)
    c = pg.Continuum()
    for ann, s, e, cat in continuum.units():
        c.add(ann, Segment(s, e), cat)
    t = time.perf_counter()
    r = c.compute_gamma(pg.CombinedCategoricalDissimilarity(alpha=3, beta=1), n_samples=samples)
    return time.perf_counter() - t, r.observed_disorder, r.gamma


def row(name: str, continuum, args, peer: bool | None = None) -> None:
    t_us, obs_us, g_us = ours(continuum, args.jobs, args.samples)
    per = len(continuum) / continuum.n_annotators
    line = (f"{name:<22} {len(continuum):>7} units  ours {t_us:8.2f} s  disorder {obs_us:.6f}  gamma {g_us:.4f}")
    if peer if peer is not None else per <= args.pygamma_max:
        try:
            t_pg, obs_pg, g_pg = theirs(continuum, args.samples)
            line += (f" | pygamma {t_pg:8.2f} s  disorder {obs_pg:.6f}  gamma {g_pg:.4f}"
                     f"  -> {t_pg / t_us:.0f}x faster")
        except ImportError:
            line += " | pygamma-agreement not installed"
    print(line, flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="100,1000,10000")
    parser.add_argument("--jobs", type=int, default=None, help="processes for our random continua (default: "
                                                                "all cores from 2,000 units on)")
    parser.add_argument("--samples", type=int, default=30)
    parser.add_argument("--pygamma-max", type=int, default=150,
                        help="generated continua: run pygamma only up to this many units per annotator")
    parser.add_argument("--no-files", action="store_true", help="skip 3by100 and 2by1000")
    args = parser.parse_args()
    from spacy_anno_eval.gamma.readers import read_csv

    warm = shuffle(reference_continuum(5, seed=0), 2, magnitude=0.2, seed=0)
    ours(warm, 1, 3)  # imports and first calls, for both tools
    try:
        theirs(warm, 3)
    except ImportError:
        pass
    for name in () if args.no_files else ("3by100.csv", "2by1000.csv"):
        if (SHARED / name).is_file():
            row(name, read_csv(SHARED / name), args, peer=True)
    for k in (int(x) for x in args.sizes.split(",")):
        row(f"CST 3 x {k}", shuffle(reference_continuum(k, seed=1), 3, magnitude=0.2, seed=2), args)


if __name__ == "__main__":
    main()
