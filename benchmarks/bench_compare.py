"""Comparing systems: ``compare_systems`` of three systems, and one pair and one figure against art.

Data (seeded, built as tables directly, as the tests do): ``--docs`` synthetic documents of about 50
words (space-joined, so a span's character offsets are a word's), 10 key entities each (1-3 words,
labels PER/ORG/LOC/MISC), and three systems of slightly rising quality, drawn from the same random
numbers for 90 % of the entities (so that a better system fixes some of a worse one's errors, as two
versions of one system do) and drawn anew for 10 % (so that it also breaks some).
Each system keeps an entity (A 70 %, B 70.5 %, C 71.5 %), and otherwise shifts a boundary (33 % of the
errors), relabels it (27 %), drops it (25 %) or extends it (15 %); after ~29-30 % of the entities it
adds a spurious one-word entity. Key and responses are
:class:`~spacy_anno_eval.annotations.table.Corpus` objects holding one ``ents``
:class:`~spacy_anno_eval.annotations.table.SpanTable` each.

Timed (each the best of ``--repeat`` runs; every run is printed, so the spread shows):

- ``compare_systems(key, [A, B, C], n_samples=S)``: scoring three responses, three pairs, every figure
  (strict, lenient, average × P/R/F, overall and per type: 45 per pair) with the paired bootstrap and
  approximate randomization over documents, Holm's correction, per-document changes and changed
  annotations;
- one pair: ``compare_evaluations`` of two evaluations already scored (every figure of that pair);
- one figure: ``paired_test`` on the per-document counts ``(correct, key, correct, response)`` of that
  pair (strict), statistic strict F1 (it draws the bootstrap too);
- art (smartschat/art, ``--art PATH`` of a local checkout; skipped without it):
  ``ApproximateRandomizationTest(Scores(A), Scores(B), aggregators.f_1, trials=S).run()`` on the same
  per-document counts, one ``Score([correct, key, correct, response])`` per document, as its README's F1
  input (recall numerator/denominator, precision numerator/denominator). art is pure Python and takes
  minutes at 10,000 documents × 10,000 trials; it runs once (``--art-repeat``), or with ``--art-trials``
  fewer trials, its time then scaled to ``S`` trials (it is linear in the trials) and said so.

Both approximate-randomization p-values of the figure are printed; they estimate the same p and differ
by Monte Carlo error only (art draws with ``random``, seeded here; we with numpy).

Run::

    python benchmarks/bench_compare.py --art /path/to/art          # --docs 10000 --samples 10000 --repeat 3
    python benchmarks/bench_compare.py --no-peers --profile        # cProfile of the whole compare

This is a benchmark, not a test: nothing is asserted.
"""

from __future__ import annotations

import argparse
import gc
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

LABELS = ("PER", "ORG", "LOC", "MISC")
WORDS = tuple(
    "the a of and to in is was for on that with by as at from it his her their this an be are were has had "
    "have not but or which one all new said after first two other city river company team year state party "
    "group house north south world member John Mary Paris Berlin Acme Corp United Nations Ada Lovelace London "
    "Google Amazon Thames Rhine Europe Asia Smith Jones Apple Microsoft Tokyo Cairo Nile Alps".split()
)
#: per system: (share kept, share of entities followed by a spurious one-word entity)
SYSTEMS = {"A": (0.700, 0.300), "B": (0.705, 0.295), "C": (0.715, 0.290)}


def make_data(n_docs: int, seed: int = 0, ents_per_doc: int = 10) -> tuple[Any, dict[str, Any]]:
    """The key and the systems' responses as Corpus objects over the same texts (see the module)."""
    from spacy_anno_eval.annotations.table import Corpus, SpanTable

    rng = np.random.default_rng(seed)
    words_arr = np.array(WORDS, dtype=object)
    texts: list[str] = []
    key_rows: list[tuple[int, int, int, int]] = []
    sys_rows: dict[str, list[tuple[int, int, int, int]]] = {name: [] for name in SYSTEMS}
    for d in range(n_docs):
        gaps = rng.integers(1, 5, size=ents_per_doc + 1)
        lens = rng.integers(1, 4, size=ents_per_doc)
        labels = rng.integers(0, len(LABELS), size=ents_per_doc)
        starts = np.cumsum(gaps[:-1]) + np.concatenate([[0], np.cumsum(lens)[:-1]])
        n_tok = int(gaps.sum() + lens.sum())
        words = words_arr[rng.integers(0, len(WORDS), size=n_tok)].tolist()
        offsets = np.concatenate([[0], np.cumsum([len(w) + 1 for w in words])])  # word i: [off[i], off[i+1]-1)
        texts.append(" ".join(words))

        def chars(s: int, e: int, off: np.ndarray = offsets) -> tuple[int, int]:
            return int(off[s]), int(off[e] - 1)

        ents = [(int(s), int(s + n), int(lab)) for s, n, lab in zip(starts, lens, labels, strict=True)]
        key_rows += [(d, *chars(s, e), lab) for s, e, lab in ents]
        draws = rng.random((ents_per_doc, 5))  # shared by the systems: a better one fixes a worse one's errors
        for name, (keep, spurious) in SYSTEMS.items():
            out: list[tuple[int, int, int]] = []
            own = rng.random((ents_per_doc, 2))  # 10 % of the entities are drawn anew per system
            for (s, e, lab), (u, z, v, w, x), (o, u_own) in zip(ents, draws, own, strict=True):
                n, after = e - s, e
                u = u_own if o < 0.1 else u
                if u < keep:
                    pass
                elif z < 0.33:      # a boundary moves by one word
                    if v < 0.5:
                        s = max(0, s + (1 if (n > 1 and w < 0.5) else -1))
                    else:
                        e = min(n_tok, e + (-1 if (n > 1 and w < 0.5) else 1))
                elif z < 0.60:      # another label
                    lab = (lab + 1 + int(w * (len(LABELS) - 1))) % len(LABELS)
                elif z < 0.85:      # dropped
                    s = e = -1
                else:               # extended by a word
                    e = min(n_tok, e + 1)
                if s >= 0 and e > s:
                    out.append((s, e, lab))
                if x < spurious and after < n_tok:
                    out.append((after, after + 1, int(v * len(LABELS)) % len(LABELS)))
            taken = np.zeros(n_tok + 1, dtype=bool)   # no overlaps within a response: first come, first kept
            for s, e, lab in sorted(out):
                if not taken[s:e].any():
                    taken[s:e] = True
                    sys_rows[name].append((d, *chars(s, e), lab))

    def corpus(rows: list[tuple[int, int, int, int]]) -> Any:
        cols = np.array(rows, dtype=np.int64).reshape(-1, 4)
        table = SpanTable(cols[:, 0], cols[:, 1], cols[:, 2], cols[:, 3], list(LABELS))
        return Corpus(ids, texts, {"ents": table})

    ids = [f"d{i}" for i in range(n_docs)]
    return corpus(key_rows), {name: corpus(rows) for name, rows in sys_rows.items()}


def timed(fn: Callable[[], Any], repeat: int) -> tuple[list[float], Any]:
    """Wall time of each of ``repeat`` runs of ``fn`` and the last result."""
    times, result = [], None
    for _ in range(repeat):
        gc.collect()
        t0 = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - t0)
    return times, result


def spread(times: list[float]) -> str:
    return f"best {min(times):.3f} s (runs: {', '.join(f'{t:.3f}' for t in times)})"


def strict_f1(sums: np.ndarray) -> np.ndarray:
    """F1 of summed ``(correct, key, correct, response)`` counts, shape (batch, 4) -> (batch, 1)."""
    r = np.divide(sums[:, 0], sums[:, 1], out=np.zeros(len(sums)), where=sums[:, 1] > 0)
    p = np.divide(sums[:, 2], sums[:, 3], out=np.zeros(len(sums)), where=sums[:, 3] > 0)
    return np.divide(2 * p * r, p + r, out=np.zeros(len(sums)), where=(p + r) > 0)[:, None]


def f1_counts(evaluation: Any) -> np.ndarray:
    """Per-document ``(correct, key, correct, response)`` (strict) of an evaluation, int64 (n_docs, 4)."""
    from spacy_anno_eval.spans.measures import gate_counts

    c = gate_counts(evaluation.by_doc)
    key = c["correct"] + c["partial"] + c["missing"]
    response = c["correct"] + c["partial"] + c["spurious"]
    return np.stack([c["correct"], key, c["correct"], response], axis=1).astype(np.int64)


def run_art(art_path: Path, old: np.ndarray, new: np.ndarray, trials: int, seed: int) -> tuple[float, float]:
    """art's approximate randomization of F1 on per-document counts: (seconds, p)."""
    sys.path.insert(0, str(art_path))
    from art import aggregators, scores, significance_tests

    a = scores.Scores([scores.Score(row) for row in old.tolist()])
    b = scores.Scores([scores.Score(row) for row in new.tolist()])
    test = significance_tests.ApproximateRandomizationTest(a, b, aggregators.f_1, trials=trials)
    random.seed(seed)
    gc.collect()
    t0 = time.perf_counter()
    p = test.run()
    return time.perf_counter() - t0, float(p)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--docs", type=int, default=10_000, help="documents (default 10000)")
    ap.add_argument("--samples", type=int, default=10_000,
                    help="bootstrap and randomization samples, and art's trials (default 10000)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--repeat", type=int, default=3, help="runs of each of our timings (default 3)")
    ap.add_argument("--art", type=Path, help="a local checkout of smartschat/art (the folder holding art/)")
    ap.add_argument("--art-trials", type=int,
                    help="run art with this many trials and scale its time to --samples (default: --samples)")
    ap.add_argument("--art-repeat", type=int, default=1, help="runs of art (default 1: it takes minutes)")
    ap.add_argument("--no-peers", action="store_true", help="skip art even when --art is given")
    ap.add_argument("--profile", action="store_true", help="cProfile one whole compare of three systems")
    args = ap.parse_args(argv)

    from spacy_anno_eval.resampling.paired import paired_test
    from spacy_anno_eval.spans.engine import evaluate
    from spacy_anno_eval.workflows.benchmark.compare import compare_evaluations
    from spacy_anno_eval.workflows.benchmark.settings import BenchmarkSettings
    from spacy_anno_eval.workflows.compare import compare_systems

    t0 = time.perf_counter()
    key, systems = make_data(args.docs, args.seed)
    print(f"{args.docs} documents, {len(key.sets['ents'])} key entities; responses "
          + ", ".join(f"{n} {len(c.sets['ents'])}" for n, c in systems.items())
          + f" (generated in {time.perf_counter() - t0:.1f} s); {args.samples} samples; 2 CPU cores shared")
    names = list(systems)
    responses = [systems[n] for n in names]
    compare_systems(key, responses[:2], names=names[:2], n_samples=50, seed=args.seed)  # warm-up (imports)

    def whole() -> Any:
        return compare_systems(key, responses, names=names, n_samples=args.samples, seed=args.seed)

    t_whole, comparison = timed(whole, args.repeat)
    print(f"\ncompare_systems, 3 systems (3 pairs x 45 figures): {spread(t_whole)}"
          f"  [goal < 5 s: {'met' if min(t_whole) < 5 else 'NOT met'}]")
    for p in comparison.pairs:
        f = p["overall"]["strict"]["f"]
        print(f"  {p['old']} -> {p['new']}: strict F {f['old']:.4f} -> {f['new']:.4f}, delta {f['delta']:+.4f}, "
              f"p_boot {f['p_bootstrap']:.4g}, p_rand {f['p_randomization']:.4g}, "
              f"p_rand_holm {f['p_randomization_holm']:.4g}; {len(p['changes'])} annotations changed")

    ev_a, ev_b = comparison.evaluations[0], comparison.evaluations[1]
    settings = BenchmarkSettings().replace(n_samples=args.samples, seed=args.seed)
    t_score, _ = timed(lambda: [evaluate(key, r) for r in responses], args.repeat)
    print(f"  of which scoring the 3 responses (evaluate): {spread(t_score)}")
    t_pair, _ = timed(lambda: compare_evaluations(ev_a, ev_b, settings, old_name="A", new_name="B", per_doc=False),
                      args.repeat)
    print(f"one pair (compare_evaluations A, B; 45 figures, changes): {spread(t_pair)}")
    old, new = f1_counts(ev_a), f1_counts(ev_b)
    t_fig, test = timed(lambda: paired_test(old, new, strict_f1, n_samples=args.samples, seed=args.seed),
                        args.repeat)
    ours_p = float(test.p_randomization[0])
    print(f"one figure (paired_test, strict F1 of A, B; bootstrap + randomization): {spread(t_fig)}; "
          f"F1 {test.old[0]:.6f} -> {test.new[0]:.6f}, p_rand {ours_p:.4g}, p_boot {test.p_bootstrap[0]:.4g}")

    if args.art is not None and not args.no_peers:
        if not (args.art / "art" / "significance_tests.py").is_file():
            print(f"  [skipped] art: no art/significance_tests.py under {args.art}")
        else:
            trials = args.art_trials or args.samples
            runs = [run_art(args.art, old, new, trials, args.seed + i) for i in range(args.art_repeat)]
            scale = args.samples / trials
            art_times = [t * scale for t, _ in runs]
            scaled = f" (ran {trials} trials, time scaled x{scale:g})" if trials != args.samples else ""
            print(f"art ApproximateRandomizationTest, f_1, {args.samples} trials: {spread(art_times)}{scaled}; "
                  f"p {', '.join(f'{p:.4g}' for _, p in runs)} (ours {ours_p:.4g})")
            best = min(art_times)
            print(f"  art / ours, one figure: {best / min(t_fig):.0f}x; art (one figure) / ours (one pair, "
                  f"45 figures): {best / min(t_pair):.0f}x  [goal >= 20x per pair: "
                  f"{'met' if best / min(t_pair) >= 20 else 'NOT met'}]")
    elif args.art is None and not args.no_peers:
        print("  [skipped] art: give --art PATH (a checkout of smartschat/art)")

    if args.profile:
        import cProfile
        import pstats

        prof = cProfile.Profile()
        prof.runcall(whole)
        stats = pstats.Stats(prof)
        stats.sort_stats("cumulative").print_stats(30)
        stats.sort_stats("tottime").print_stats(15)
    return 0


if __name__ == "__main__":
    sys.exit(main())
