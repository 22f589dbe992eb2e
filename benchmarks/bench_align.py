"""Timing of the DP alignment engine (:func:`spacy_anno_eval.annalist.dp.dp_align`).

Synthetic sequences (seeded): the key is ``n`` labels drawn from 40 values,
each with a class (``value % 4``); the response copies the key, dropping 5 %
of the items, relabelling 5 % and inserting a random item after 5 %, so it
has about ``n`` items too. Match: equal labels 2 (correct), same class 1
(partial), else -1 (incorrect); gap 1 (and ``--gap-open`` / ``--gap-extend``
for the affine runs).

Timed, each the best of ``--repeat`` runs:

- ``n = 1,000``: full matrix (``band=None``);
- ``n = 10,000``, ``band=None`` (above the full-matrix limit: the automatic band);
- ``n = 10,000``, ``band=200``;
- the same three with affine gaps;
- a plain Python O(n·m) DP with traceback on ``n = 1,000`` (not on 10,000), for
  the ratio; its score and path must equal ours.

Run::

    python benchmarks/bench_align.py
    python benchmarks/bench_align.py --sizes 1000 --sizes 10000 --repeat 3

This is a benchmark, not a test: nothing is asserted.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable

import numpy as np
from timing import best_of

from spacy_anno_eval.annalist.dp import DPAlignment, dp_align


def make_pair(n: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Key labels and a noisy response copy (drops, relabels, insertions of ~5 % each)."""
    rng = np.random.default_rng(seed)
    key = rng.integers(0, 40, n)
    response = []
    for label in key.tolist():
        r = rng.random()
        if r < 0.05:
            continue
        response.append(int(rng.integers(0, 40)) if r < 0.10 else label)
        if rng.random() < 0.05:
            response.append(int(rng.integers(0, 40)))
    return key, np.array(response, dtype=np.int64)


def make_match(key: np.ndarray, response: np.ndarray) -> Callable[[np.ndarray, np.ndarray], np.ndarray]:
    def match(i: np.ndarray, j: np.ndarray) -> np.ndarray:
        k, r = key[i], response[j]
        return np.where(k == r, 2.0, np.where(k % 4 == r % 4, 1.0, -1.0))

    return match


def python_dp(key: list[int], response: list[int], gap: float = 1.0) -> tuple[float, list[tuple[int, int]]]:
    """Plain Python DP over the full matrix with traceback: the score and the path as (key, response) steps.

    Same recurrence, match scores and tie order (pair, then key gap, then response gap) as ``dp_align``.
    """
    n, m = len(key), len(response)
    score = [[0.0] * (m + 1) for _ in range(n + 1)]
    move = [[0] * (m + 1) for _ in range(n + 1)]
    for j in range(1, m + 1):
        score[0][j] = -j * gap
        move[0][j] = 2
    for i in range(1, n + 1):
        k = key[i - 1]
        prev, cur, mv = score[i - 1], score[i], move[i]
        cur[0] = -i * gap
        mv[0] = 1
        for j in range(1, m + 1):
            r = response[j - 1]
            best = prev[j - 1] + (2.0 if k == r else (1.0 if k % 4 == r % 4 else -1.0))
            step = 0
            if prev[j] - gap > best:
                best, step = prev[j] - gap, 1
            if cur[j - 1] - gap > best:
                best, step = cur[j - 1] - gap, 2
            cur[j] = best
            mv[j] = step
    path = []
    i, j = n, m
    while i or j:
        step = move[i][j]
        if step == 0:
            path.append((i - 1, j - 1))
            i, j = i - 1, j - 1
        elif step == 1:
            path.append((i - 1, -1))
            i -= 1
        else:
            path.append((-1, j - 1))
            j -= 1
    return score[n][m], path[::-1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, action="append", help="key lengths (default 1000 and 10000)")
    parser.add_argument("--band", type=int, default=200, help="explicit band for the large sizes (default 200)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--gap-open", type=float, default=2.0)
    parser.add_argument("--gap-extend", type=float, default=0.5)
    parser.add_argument("--no-python", action="store_true", help="skip the plain Python reference")
    args = parser.parse_args()
    sizes = args.sizes or [1000, 10000]

    rows: list[tuple[str, int, int, str, float, DPAlignment]] = []
    for n in sizes:
        key, response = make_pair(n)
        match = make_match(key, response)
        m = len(response)
        settings: list[tuple[str, dict]] = [("None", {})]
        if n * m > 4_000_000:
            settings.append((str(args.band), {"band": args.band}))
        for gaps, extra in (("linear", {"gap": 1.0}),
                            ("affine", {"gap_open": args.gap_open, "gap_extend": args.gap_extend})):
            for band_name, band in settings:
                seconds, result = best_of(
                    args.repeat, lambda n=n, m=m, match=match, k=extra, b=band: dp_align(n, m, match, **k, **b))
                rows.append((gaps, n, m, band_name, seconds, result))

    print(f"{'gaps':7} {'n':>6} {'m':>6} {'band arg':>8} {'band used':>9} {'seconds':>8} {'score':>10} "
          f"{'pairs':>6} {'MB trace':>8}")
    for gaps, n, m, band_name, seconds, result in rows:
        used = "full" if result.band is None else str(result.band)
        pairs = int(np.sum((result.key_index >= 0) & (result.response_index >= 0)))
        cells = _band_cells(n, m, result.band)
        print(f"{gaps:7} {n:6d} {m:6d} {band_name:>8} {used:>9} {seconds:8.3f} {result.score:10.1f} {pairs:6d} "
              f"{cells / 1e6:8.2f}")

    end_to_end(max(sizes), args.repeat)

    if not args.no_python and 1000 in sizes:
        key, response = make_pair(1000)
        py_seconds, (py_score, py_path) = best_of(1, lambda: python_dp(key.tolist(), response.tolist()))
        ours = next(r for r in rows if r[0] == "linear" and r[1] == 1000 and r[3] == "None")
        same_path = py_path == list(zip(ours[5].key_index.tolist(), ours[5].response_index.tolist(), strict=True))
        print(f"plain Python DP with traceback, 1000 x {len(response)}: {py_seconds:.3f} s, score {py_score:.1f}; "
              f"dp_align {ours[4]:.3f} s: {py_seconds / ours[4]:.1f}x faster; "
              f"scores {'agree' if py_score == ours[5].score else 'DIFFER'}, "
              f"paths {'agree' if same_path else 'DIFFER'}")


def _band_cells(n: int, m: int, band: int | None) -> int:
    """Number of traceback bytes (band cells) that dp_align stores."""
    from spacy_anno_eval.annalist.dp import _diagonal_ranges

    lo, hi = _diagonal_ranges(n, m, m if band is None else band)
    return int(np.sum(hi - lo + 1))


def end_to_end(n: int, repeat: int) -> None:
    """ANNALIST alignment of n x ~n mentions in one document, DP, through ``align_mentions`` (reading the
    mentions' offsets or values included): the issue's 10,000 x 10,000 target."""
    from spacy_anno_eval.annalist.align import Mention, Settings, align_mentions

    rng = np.random.default_rng(1)
    key, resp, pos = [], [], 0
    for k in range(n):
        start, length = pos + int(rng.integers(1, 5)), int(rng.integers(1, 8))
        pos = start + length
        value = f"w{int(rng.integers(0, 500))}"
        if rng.random() < 0.95:
            key.append(Mention("d", f"k{k}", "E", value, start, start + length))
        if rng.random() < 0.95:
            shift = int(rng.integers(0, 2)) if rng.random() < 0.1 else 0
            resp.append(Mention("d", f"r{k}", "E", value, start + shift, start + length))
    for level in ("offset", "order"):
        seconds, out = best_of(repeat, lambda lv=level: align_mentions(key, resp, Settings(level=lv,
                                                                                           algorithm="dp")))
        print(f"align_mentions DP, level {level:6}: {len(key)} x {len(resp)} mentions in {seconds:.2f} s "
              f"({sum(d.status == 'correct' for d in out)} correct)")


if __name__ == "__main__":
    main()
