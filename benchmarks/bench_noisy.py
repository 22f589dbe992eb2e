"""Noisy-text NER evaluation: our ``spacy_anno_eval.noisy.evaluate.evaluate_files`` against teklia-nerval.

Both tools read the same two BIO files from disk and score them at threshold 0.30:

- nerval: ``nerval.evaluate.run(gold, pred, threshold, verbose=True)`` (teklia-nerval 0.3.3),
  its printed table and log lines suppressed;
- ours: ``spacy_anno_eval.noisy.evaluate.evaluate_files(gold, pred, threshold)``, which also builds the
  per-entity table and the MUC counts.

The files are generated (seeded): sentences of 3-14 random tokens (letters, accented letters,
digits, ``-'.,*``), ~30 % of positions starting an entity of 1-4 tokens (PER/LOC/ORG/DAT), blank
lines between sentences. The prediction corrupts every character with probability ``--noise``
(substitution, deletion, insertion in equal parts), splits or merges tokens, loses a token now and
then, and drops / retypes / adds entities with probability ``--tag-noise``.

Run::

    python benchmarks/bench_noisy.py --sentences 2000
    python benchmarks/bench_noisy.py --sentences 500 --sentences 2000 --sentences 5000 --repeat 3

Each figure is the best of ``--repeat`` runs; the last column is nerval's time divided by ours.
Both tools spend most of their time in the same edlib alignment of the whole texts (``align``
column: one ``edlib.align(..., task="path")`` call), which bounds the ratio. The last line says
whether every predicted / matched / support count and P/R/F agrees with nerval's.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import logging
import math
import random
import tempfile
import time
from pathlib import Path

CHARS = "abcdefghijklmnopqrstuvwxyzéèàçABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-'.,*"
TYPES = ("PER", "LOC", "ORG", "DAT")


def make_gold(rng: random.Random, n_sent: int) -> list[list[tuple[str, str]]]:
    sents = []
    for _ in range(n_sent):
        n = rng.randint(3, 14)
        words = ["".join(rng.choice(CHARS) for _ in range(rng.randint(1, 9))) for _ in range(n)]
        tags = ["O"] * n
        k = 0
        while k < n:
            if rng.random() < 0.3:
                ln = min(rng.randint(1, 4), n - k)
                t = rng.choice(TYPES)
                tags[k:k + ln] = ["B-" + t] + ["I-" + t] * (ln - 1)
                k += ln + 1
            else:
                k += 1
        sents.append(list(zip(words, tags, strict=True)))
    return sents


def corrupt(rng: random.Random, word: str, p: float) -> str:
    out = []
    for ch in word:
        u = rng.random()
        if u < p / 3:
            out.append(rng.choice(CHARS))
        elif u < 2 * p / 3:
            pass
        elif u < p:
            out.extend((ch, rng.choice(CHARS)))
        else:
            out.append(ch)
    return "".join(out) or rng.choice(CHARS)


def make_pred(rng: random.Random, gold: list, p: float, tag_noise: float) -> list:
    sents = []
    for sent in gold:
        out: list[tuple[str, str]] = []
        for w, t in sent:
            w = corrupt(rng, w, p)
            u = rng.random()
            if t != "O" and u < tag_noise:
                t = "O"
            elif t != "O" and u < 2 * tag_noise:
                t = t[:2] + rng.choice(TYPES)
            elif t == "O" and u < tag_noise / 2:
                t = "B-" + rng.choice(TYPES)
            v = rng.random()
            if v < p / 2 and len(w) > 1:
                cut = rng.randint(1, len(w) - 1)
                out += [(w[:cut], t), (w[cut:], "O" if t == "O" else "I-" + t[2:])]
            elif v < p and out:
                pw, pt = out.pop()
                out.append((pw + w, pt))
            else:
                out.append((w, t))
        if rng.random() < p / 2 and len(out) > 1:
            out.pop(rng.randrange(len(out)))
        sents.append(out)
    return sents


def write_bio(path: Path, sents: list) -> None:
    lines: list[str] = []
    for sent in sents:
        lines.extend(f"{w} {t}" for w, t in sent)
        lines.append("")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def best_of(repeat: int, fn) -> tuple[float, object]:
    best, out = math.inf, None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t0)
    return best, out


def run_nerval(gold: Path, pred: Path, threshold: float) -> dict:
    from nerval.evaluate import run

    with contextlib.redirect_stdout(io.StringIO()):
        return run(gold, pred, threshold, True)


def agree(ours: dict, theirs: dict) -> bool:
    rows = {"ALL": ours["all"], **ours["per_type"]}
    if set(rows) != set(theirs):
        return False
    for tag, want in theirs.items():
        for mine, name in (("predicted", "predicted"), ("matched", "matched"), ("support", "Support"),
                           ("p", "P"), ("r", "R"), ("f", "F1")):
            a, b = rows[tag][mine], want[name]
            if (a is None) != (b is None) or (a is not None and not math.isclose(a, b)):
                return False
    return True


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sentences", type=int, action="append", help="sentences per file (repeatable; default 2000)")
    ap.add_argument("--noise", type=float, default=0.1, help="character corruption probability (default 0.1)")
    ap.add_argument("--tag-noise", type=float, default=0.1, help="entity drop/retype/add probability (default 0.1)")
    ap.add_argument("--threshold", type=float, default=0.3)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()

    import edlib
    import nerval  # noqa: F401  (teklia-nerval)

    from spacy_anno_eval.noisy import evaluate_files, read_bio

    logging.disable(logging.INFO)  # nerval logs every file it parses
    print(f"{'sentences':>9} {'chars':>8} {'entities':>8} {'align s':>8} {'nerval s':>9} {'ours s':>8} "
          f"{'nerval/ours':>11}")
    all_agree = True
    with tempfile.TemporaryDirectory() as tmp:
        for n in args.sentences or [2000]:
            rng = random.Random(args.seed)
            gold_s = make_gold(rng, n)
            pred_s = make_pred(rng, gold_s, args.noise, args.tag_noise)
            gold, pred = Path(tmp, f"gold{n}.bio"), Path(tmp, f"pred{n}.bio")
            write_bio(gold, gold_s)
            write_bio(pred, pred_s)
            g, p = read_bio(gold), read_bio(pred)
            t_align, _ = best_of(args.repeat, lambda g=g, p=p: edlib.align(g.text, p.text, task="path"))
            t_nerval, theirs = best_of(args.repeat, lambda gold=gold, pred=pred: run_nerval(gold, pred, args.threshold))
            t_ours, ours = best_of(args.repeat, lambda gold=gold, pred=pred: evaluate_files(gold, pred, args.threshold))
            same = agree(ours, theirs)
            all_agree &= same
            print(f"{n:>9} {len(g.text):>8} {sum(g.counts.values()):>8} {t_align:>8.3f} {t_nerval:>9.3f} "
                  f"{t_ours:>8.3f} {t_nerval / t_ours:>11.2f}{'' if same else '  (DISAGREE)'}")
    print(f"all counts and P/R/F agree with nerval: {all_agree}")


if __name__ == "__main__":
    main()
