"""Does Brants & Skut's perplexity test pick the right annotation, and do its doubts find the wrong labels?

A synthetic study (issue 31): take treebanks, inject known label errors into a copy, and measure

(a) ``resolve`` (``anno-eval trees A B --resolve``, models cross-validated with ``--folds``, both
    annotations of a sentence in one fold): over the sentences where the copy differs, how often the
    uncorrupted annotation has the lower perplexity (Table 5's accuracy; chance is 50 %: each sentence's
    corrupted version is put on side A or B by a coin), with the precision/recall curve over minimum
    perplexity differences;
(b) ``doubt`` (``anno-eval trees COPY --doubt``, cross-validated on the corrupted copy itself, theta1 = 5,
    theta2 = 100): precision (doubted labels that are injected errors) and recall (injected errors doubted),
    against the base rate (the share of wrong labels among all decisions: a random list of the same length
    has that precision), and the recall per kind of error.

Errors (``treebank_gen.corrupt``, ``corrupt_dependencies``; seeded, ``--rate`` per decision, default 5 %):
two siblings' functions swapped, a function replaced by another seen under the same parent category, a
phrase's category replaced (dependency trees: a word's UPOS replaced; the dependency model makes no
category decisions, so ``doubt`` cannot see those, ``resolve`` can).

Corpora (the shared ones are skipped when ``../shared/data`` is absent):

- ``negra-samples``: the shared NEGRA export samples (disco-dop's Alpino sentences, treetools' wh-question)
  and the tests' NEGRA sentence: a handful of sentences, far too few to train anything; shown for
  completeness;
- ``ud-ewt-dep``: the first 300 test sentences of UD English-EWT r2.16 as dependency trees;
- ``ud-ewt-phrase``: the same converted into phrase trees (a word with dependents heads a node ``UPOS+P``);
- ``generated``: ``--generated`` NEGRA-like phrase trees (``treebank_gen.generate``), written as NEGRA
  export and read back;
- ``ud-ewt-revisions`` (a real case, no injection): r2.10 against r2.16 of the same 300 sentences, r2.16 as
  gold, resolved cross-validated and with models trained on either release alone (the other folds).

Run::

    python benchmarks/study_brants_skut.py                  # --rate 0.05 --folds 10 --seed 0 --generated 2000
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
import warnings
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from treebank_gen import (  # noqa: E402
    corrupt,
    corrupt_dependencies,
    dependency_to_phrase,
    export_text,
    generate,
)

from spacy_anno_eval.errors import UndefinedFigureWarning  # noqa: E402
from spacy_anno_eval.files import write_text  # noqa: E402
from spacy_anno_eval.trees.conllu import Sentence, read_conllu  # noqa: E402
from spacy_anno_eval.trees.readers import read_phrase_trees  # noqa: E402
from spacy_anno_eval.trees.resolution import check_doubts, resolve  # noqa: E402
from spacy_anno_eval.trees.structure import annotation_signature  # noqa: E402
from spacy_anno_eval.trees.structure_model import cross_validated_models, doubts, fold_assignment  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "data"
UD = SHARED / "ud_ewt"
NEGRA_SAMPLES = [SHARED / "treebank" / "disc_alpino3" / "gold.export",
                 SHARED / "treebank" / "disc_wh_continuous" / "gold.export",
                 ROOT / "tests" / "trees" / "data" / "sample.export"]


def corpora(n_generated: int, seed: int) -> list[tuple[str, list]]:
    out: list[tuple[str, list]] = []
    samples = [t for p in NEGRA_SAMPLES if p.exists() for t in read_phrase_trees(p, "export")]
    if samples:
        out.append(("negra-samples", [t.__class__(**{**_fields(t), "sent_id": str(i + 1)})
                                      for i, t in enumerate(samples)]))
    ud16 = UD / "en_ewt-ud-test.first300.r2.16.conllu"
    if ud16.exists():
        dep = list(read_conllu(ud16))
        out.append(("ud-ewt-dep", dep))
        out.append(("ud-ewt-phrase", [dependency_to_phrase(s) for s in dep]))
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "generated.export"
        write_text(path, export_text(generate(n_generated, seed)))
        out.append(("generated", read_phrase_trees(path, "export")))
    return out


def _fields(t: Any) -> dict[str, Any]:
    return {f: getattr(t, f) for f in ("words", "tags", "word_parents", "word_functions", "nodes", "lemmas",
                                       "sent_id", "source", "line", "root_label")}


def injected_keys(errors: list, trees: list) -> dict[tuple, str]:
    """(sent_id, label kind, word 1-based or node id) -> error kind, for the injected errors."""
    out = {}
    for e in errors:
        sid = trees[e.sentence].sent_id
        where, at = e.target
        key = (sid, e.label, "w", at + 1) if where == "word" else (sid, e.label, "n", at)
        out[key] = e.kind
    return out


def study(name: str, trees: list, rate: float, folds: int, seed: int) -> dict[str, Any]:
    dependency = isinstance(trees[0], Sentence)
    bad, errors = (corrupt_dependencies if dependency else corrupt)(trees, rate, seed + 1)
    rng = random.Random(seed + 2)
    a, b = [], []
    for t, c in zip(trees, bad, strict=True):  # a coin puts the corrupted version on side A or B
        (a.append(t), b.append(c)) if rng.random() < 0.5 else (a.append(c), b.append(t))
    t0 = time.perf_counter()
    res = resolve(a, b, folds=folds, seed=seed, gold=trees)
    t_resolve = time.perf_counter() - t0
    t0 = time.perf_counter()
    found = doubts(bad, folds=folds, seed=seed, theta1=5.0, theta2=100.0)
    t_doubt = time.perf_counter() - t0
    check = check_doubts(found, bad, trees)
    listed = [d for d in found if d.contradicts]
    keys = injected_keys(errors, trees)
    doubted = {(d.sent_id, d.kind, "w", d.word) if d.word is not None else (d.sent_id, d.kind, "n", d.node)
               for d in listed}
    per_kind: dict[str, list[int]] = {}
    for key, kind in keys.items():
        hit = per_kind.setdefault(kind, [0, 0])
        hit[1] += 1
        hit[0] += key in doubted
    kinds = {d.kind for d in found}
    decisions = len(found)
    judged_errors = sum(1 for k in keys if k[1] in kinds)
    return {"name": name, "sentences": len(trees), "differing": len(res.sentences), "decidable": res.decidable,
            "accuracy": res.accuracy, "curve": res.curve, "errors": len(errors), "decisions": decisions,
            "listed": len(listed), "check": check, "base_rate": judged_errors / decisions if decisions else 0.0,
            "listed_share": len(listed) / decisions if decisions else 0.0, "per_kind": per_kind,
            "t_resolve": t_resolve, "t_doubt": t_doubt}


def revisions(folds: int, seed: int) -> list[str]:
    """UD-EWT r2.10 against r2.16 (gold), cross-validated on both and on each release alone."""
    a = list(read_conllu(UD / "en_ewt-ud-test.first300.r2.16.conllu"))
    b = list(read_conllu(UD / "en_ewt-ud-test.first300.r2.10.conllu"))
    res = resolve(a, b, folds=folds, seed=seed, gold=a)
    lines = [f"  A = r2.16 (gold), B = r2.10: {len(res.sentences)} of {res.compared} sentences differ; "
             f"cross-validated on both releases: accuracy {100 * res.accuracy:.2f} %"]
    groups = fold_assignment(len(a), folds, seed)
    for release, train in (("r2.16", a), ("r2.10", b)):
        models = cross_validated_models(train, groups=groups)
        won = total = 0
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            if annotation_signature(x) != annotation_signature(y):
                total += 1
                won += models[i].log_prob(x) > models[i].log_prob(y)  # same words: same n
        lines.append(f"  models trained on {release} alone (other folds): r2.16 has the lower perplexity in "
                     f"{won} of {total} ({100 * won / total:.2f} %)")
    found = doubts(b, folds=folds, seed=seed)
    c = check_doubts(found, b, a)
    lines.append(f"  doubts of r2.10 (cross-validated on r2.10), checked against r2.16: {c['wrong']} of "
                 f"{c['listed']} doubted relations changed in r2.16 (precision {100 * c['precision']:.2f} %, "
                 f"base rate {100 * c['errors'] / len(found):.2f} %), recall {100 * c['recall']:.2f} %")
    return lines


def report(r: dict[str, Any]) -> list[str]:
    acc = "-" if r["accuracy"] is None else f"{100 * r['accuracy']:.2f} %"
    c = r["check"]
    lines = [f"{r['name']}: {r['sentences']} sentences, {r['errors']} injected errors, {r['decisions']} decisions",
             f"  (a) resolve: {r['differing']} sentences differ, {r['decidable']} decidable; accuracy {acc} "
             f"(chance 50 %) [{r['t_resolve']:.2f} s]",
             f"      {'min. difference':>16}{'suggested':>11}{'correct':>9}{'precision %':>13}{'recall %':>10}"]
    for p in r["curve"]:
        lines.append(f"      {p['min_difference']:>16g}{p['suggested']:>11}{p['correct']:>9}"
                     f"{100 * p['precision']:>13.2f}{100 * p['recall']:>10.2f}")
    lines.append(f"  (b) doubt (theta1 5, theta2 100): {c['listed']} listed ({100 * r['listed_share']:.2f} % of "
                 f"decisions); precision {100 * c['precision']:.2f} % (base rate {100 * r['base_rate']:.2f} %), "
                 f"recall {100 * c['recall']:.2f} % of {c['errors']} wrong labels [{r['t_doubt']:.2f} s]")
    per = ", ".join(f"{k} {hit}/{n}" for k, (hit, n) in sorted(r["per_kind"].items()))
    lines.append(f"      injected errors doubted, by kind (both labels of a swap count): {per}")
    return lines


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rate", type=float, default=0.05, help="probability that a decision is corrupted")
    ap.add_argument("--folds", type=int, default=10)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--generated", type=int, default=2000, help="generated sentences")
    args = ap.parse_args(argv)
    warnings.simplefilter("ignore", UndefinedFigureWarning)
    print(f"Brants & Skut study: error rate {args.rate:g} per decision, {args.folds} folds, seed {args.seed}")
    for name, trees in corpora(args.generated, args.seed):
        print()
        try:
            print("\n".join(report(study(name, trees, args.rate, args.folds, args.seed))))
        except Exception as err:  # noqa: BLE001 - a corpus too small to cross-validate is reported, not fatal
            print(f"{name}: {len(trees)} sentences: {type(err).__name__}: {err}")
    if (UD / "en_ewt-ud-test.first300.r2.10.conllu").exists():
        print("\nud-ewt-revisions (no injection; the differences are the releases' own)")
        print("\n".join(revisions(args.folds, args.seed)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
