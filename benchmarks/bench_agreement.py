"""Krippendorff's alpha (nominal), 5 annotators x 100,000 units, 10 % missing: us vs krippendorff vs NLTK.

Runs each peer on the same seeded data and prints the time, the value and the
ratio. NLTK's time is that of ``AnnotationTask(data=triples).alpha()`` (building
the task indexes the data, as our counting does; making the triples is not
timed), measured once on the full data (about 2 s). ``--nltk-units N`` limits
NLTK to the first N units and scales its time linearly instead (an
underestimate: NLTK's cost grows faster than linearly).

    python benchmarks/bench_agreement.py [--units 100000] [--repeat 3] [--nltk-units N]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from spacy_anno_eval.agreement.reliability import krippendorff_alpha


def data(units: int, annotators: int = 5, q: int = 6, missing: float = 0.1, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    truth = rng.integers(1, q + 1, size=units)
    noise = rng.integers(1, q + 1, size=(annotators, units))
    out = np.where(rng.random((annotators, units)) < 0.7, truth, noise).astype(float)
    out[rng.random((annotators, units)) < missing] = np.nan
    return out


def best(fn, repeat: int) -> tuple[float, float]:
    times, value = [], None
    for _ in range(repeat):
        t = time.perf_counter()
        value = fn()
        times.append(time.perf_counter() - t)
    return min(times), float(value)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--units", type=int, default=100_000)
    parser.add_argument("--nltk-units", type=int, default=0, help="0: all units")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    d = data(args.units)
    ours, value = best(lambda: krippendorff_alpha(d, "nominal").value, args.repeat)
    print(f"spacy_anno_eval  {ours:8.3f} s  alpha {value:.6f}")
    try:
        import krippendorff

        theirs, v2 = best(lambda: krippendorff.alpha(reliability_data=d, level_of_measurement="nominal"),
                          args.repeat)
        print(f"krippendorff     {theirs:8.3f} s  alpha {v2:.6f}  -> we are {theirs / ours:.1f}x faster")
    except ImportError:
        print("krippendorff not installed (pip install krippendorff)")
    try:
        from nltk.metrics.agreement import AnnotationTask

        units = args.nltk_units or args.units
        sub = d[:, :units]
        triples = [(f"c{a}", f"u{u}", str(int(sub[a, u]))) for a in range(sub.shape[0])
                   for u in range(sub.shape[1]) if not np.isnan(sub[a, u])]
        t = time.perf_counter()
        v3 = AnnotationTask(data=triples).alpha()
        nltk_time = time.perf_counter() - t
        v4 = krippendorff_alpha(sub, "nominal").value
        scaled = nltk_time * args.units / units
        note = f" on {units} units, scaled to {args.units}: {scaled:.2f} s" if units < args.units else ""
        print(f"nltk             {nltk_time:8.3f} s  alpha {v3:.6f} (ours {v4:.6f}){note} "
              f"-> we are {scaled / ours:.0f}x faster")
    except ImportError:
        print("nltk not installed (pip install nltk)")


if __name__ == "__main__":
    main()
