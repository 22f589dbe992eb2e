"""Time budgets of single operations that have no peer to run beside: the timings the test suite used to
assert (a test asserts what a result is, not how long it took; a shared CI machine makes a timed test flaky).

Each line prints the operation, its best time of ``--repeat`` runs and the budget the test used to hold it
to, with ``ok`` or ``OVER``. Nothing is asserted; the exit code is 0 either way.

    python benchmarks/bench_budgets.py [--repeat 3]
"""

from __future__ import annotations

import argparse
import json
import random
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data"


def best(fn: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def conll_10k(folder: Path) -> Callable[[], object]:
    from spacy_anno_eval.io.conll import read_conll

    path = folder / "big.conll"
    sentence = "\n".join(f"w{i}\t{t}" for i, t in enumerate(["B-PER", "I-PER", "O", "B-LOC", "O"] * 3))
    path.write_text((sentence + "\n\n") * 10_000, encoding="utf-8")
    return lambda: read_conll(path)


def plan_30mb(folder: Path) -> Callable[[], object]:
    from spacy_anno_eval.io.chunks import plan_chunks

    line = (json.dumps({"text": "Apple buys a UK startup for $1 billion " * 3,
                        "spans": [{"start": 0, "end": 5, "label": "ORG"}]}) + "\n").encode()
    path = folder / "big.jsonl"
    path.write_bytes(line * (30_000_000 // len(line)))
    return lambda: plan_chunks(path, docs_per_chunk=50_000)


def bdm_500(folder: Path) -> Callable[[], object]:
    from spacy_anno_eval.bdm.distance import compute_bdm
    from spacy_anno_eval.bdm.taxonomy import Taxonomy

    rng = random.Random(0)
    tax = Taxonomy.from_edges([("c0", None)] + [(f"c{i}", f"c{rng.randrange(i)}") for i in range(1, 500)])
    return lambda: compute_bdm(tax)


def cst_10k(folder: Path) -> Callable[[], object]:
    from spacy_anno_eval.gamma.cst import reference_continuum, shuffle

    ref = reference_continuum(10_000)
    shuffle(ref, 3, magnitude=0.5)  # warm-up
    return lambda: shuffle(ref, 3, magnitude=0.5, seed=1)


def ewt_300(folder: Path) -> Callable[[], object] | None:
    from spacy_anno_eval.trees.conllu import read_conllu
    from spacy_anno_eval.trees.dependencies import compare_treebanks

    files = sorted((SHARED / "ud_ewt").glob("*.conllu")) if (SHARED / "ud_ewt").is_dir() else []
    if len(files) < 2:
        return None
    key, response = read_conllu(files[0]), read_conllu(files[1])
    return lambda: compare_treebanks(key, response).to_dict()


#: name, what is timed, the budget (seconds) the test suite used to assert
BUDGETS = [
    ("read_conll", "10,000 sentences of 15 tokens", conll_10k, 5.0),
    ("plan_chunks", "a 30 MB JSONL file, 50,000 documents a chunk", plan_30mb, 2.0),
    ("compute_bdm", "every pair of 500 concepts", bdm_500, 10.0),
    ("cst shuffle", "3 annotators of 10,000 units", cst_10k, 1.0),
    ("compare_treebanks", "300 UD EWT sentences, two releases", ewt_300, 1.0),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        for name, what, make, budget in BUDGETS:
            fn = make(Path(tmp))
            if fn is None:
                print(f"{name:18} {what}: skipped (../shared/data not found)")
                continue
            seconds = best(fn, args.repeat)
            verdict = "ok" if seconds <= budget else "OVER"
            print(f"{name:18} {seconds:8.3f} s  budget {budget:5.1f} s  {verdict}  ({what})")


if __name__ == "__main__":
    main()
