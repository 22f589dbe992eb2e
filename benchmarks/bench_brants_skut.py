"""Speed of Brants & Skut's models: training and ``--resolve`` on 10,000 generated sentences (issue 31: < 10 s).

The sentences are NEGRA-like phrase trees (``treebank_gen.generate``: flat NPs and PPs, clauses in three word
orders, VPs under modal and auxiliary verbs, coordinations, relative clauses, crossing branches; about 11
words and 4 phrases each), seeded. B is a copy with label errors at ``--rate`` per decision
(``treebank_gen.corrupt``), so about half the sentences differ. Timed, each the best of ``--repeat`` runs:

- ``fit``: :meth:`StructureModel.fit` on the 10,000 trees of A;
- ``resolve (given model)``: :func:`~spacy_anno_eval.trees.resolution.resolve` of A and B with that model;
- ``resolve (10 folds)``: the same, cross-validated (``anno-eval trees A B --resolve``'s default: the models
  of both annotations of the other nine folds judge each sentence; training included);
- ``anno-eval trees A B --resolve``: the command end to end in a fresh process (Python start, imports,
  reading two NEGRA export files, disco-dop's and Brants & Skut's comparison, the models, the JSON);
- with ``--doubt``, also :func:`~spacy_anno_eval.trees.structure_model.doubts` (cross-validated) on B.

Run::

    python benchmarks/bench_brants_skut.py                 # --sentences 10000 --repeat 3
    python benchmarks/bench_brants_skut.py --doubt         # also time --doubt (slower)
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from timing import best_of  # noqa: E402
from treebank_gen import corrupt, export_text, generate  # noqa: E402

from spacy_anno_eval.files import write_text  # noqa: E402
from spacy_anno_eval.trees.resolution import resolve  # noqa: E402
from spacy_anno_eval.trees.structure_model import StructureModel, doubts  # noqa: E402

GOAL = 10.0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sentences", type=int, default=10_000)
    ap.add_argument("--rate", type=float, default=0.05)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--doubt", action="store_true", help="also time doubts() on B (cross-validated)")
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    a = generate(args.sentences, args.seed)
    b, errors = corrupt(a, args.rate, args.seed + 1)
    words = sum(len(t) for t in a)
    nodes = sum(len(t.nodes) for t in a)
    print(f"{len(a)} sentences, {words} words, {nodes} phrases; B: {len(errors)} label errors "
          f"(generated in {time.perf_counter() - t0:.2f} s)")
    rows = []
    t_fit, model = best_of(args.repeat, lambda: StructureModel.fit(a))
    rows.append(("fit (A)", t_fit))
    t_given, res = best_of(args.repeat, lambda: resolve(a, b, model=model))
    rows.append(("resolve (given model)", t_given))
    t_cv, res_cv = best_of(args.repeat, lambda: resolve(a, b, folds=10, seed=args.seed))
    rows.append(("resolve (10 folds, training included)", t_cv))
    with tempfile.TemporaryDirectory() as folder:
        pa, pb, out = Path(folder) / "a.export", Path(folder) / "b.export", Path(folder) / "r.json"
        write_text(pa, export_text(a))
        write_text(pb, export_text(b))
        cmd = [sys.executable, "-m", "spacy_anno_eval", "trees", str(pa), str(pb), "--resolve", "--json", str(out),
               "-q"]

        def command() -> None:
            done = subprocess.run(cmd, capture_output=True, text=True, check=False)
            if done.returncode:
                raise SystemExit(f"anno-eval failed ({done.returncode}): {done.stderr.strip()}")

        t_cli, _ = best_of(args.repeat, command)
        rows.append(("anno-eval trees A B --resolve (process)", t_cli))
    if args.doubt:
        t_doubt, found = best_of(1, lambda: doubts(b, folds=10, seed=args.seed))
        rows.append((f"doubts (10 folds, {len(found)} decisions, 1 run)", t_doubt))
    width = max(len(name) for name, _ in rows)
    for name, t in rows:
        print(f"{name:<{width}}  {t:8.3f} s")
    print(f"{len(res_cv.sentences)} of {res_cv.compared} sentences differ, {res_cv.to_dict()['suggested']} "
          f"with a suggestion")
    total = t_fit + t_given
    print(f"training + resolve: {total:.3f} s (given model), {t_cv:.3f} s (10 folds), command {t_cli:.3f} s; "
          f"goal < {GOAL:g} s: {'met' if max(total, t_cv, t_cli) < GOAL else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
