"""EVALB bracket scoring: our ``spacy_anno_eval.trees.evalb`` against PYEVALB 0.1.3, on the same trees.

Both tools read the same bracket strings (one sentence per string) and score the test side against the
gold with labelled brackets and nothing deleted or made equal:

- PYEVALB (``pip install PYEVALB==0.1.3``; pure Python, LGPL):
  ``Scorer().score_corpus(gold_lines, test_lines)`` then ``summary.summary(results)``;
- ours: ``evaluate_trees(gold_lines, test_lines, EvalbParams())`` (``EvalbParams()`` is EVALB without a
  parameter file: no ``DELETE_LABEL``, no ``EQ_LABEL`` / ``EQ_WORD``, ``LABELED 1``).

A second pair of timings scores trees read beforehand (PYEVALB ``Scorer().score_trees`` on
``parser.create_from_bracket_string`` trees + ``summary.summary``; ours ``evaluate`` on
``parse_brackets`` trees), and one more row reads the whole text at once (``parse_brackets(text)``, as
our file reader does) before ``evaluate``.

The trees are generated (seeded): a root ``S`` over 5-40 words (the last one ``(. .)``), phrases
split into 2-4 children (NP, VP, PP, S, SBAR, ADJP, ADVP, QP, WHNP, with plausible tags and words),
unary chains (S -> VP, SBAR -> S, NP -> QP, ADJP -> ADVP, single-word phrases over a preterminal).
The test tree is a perturbed copy: ~8 % of the non-root phrases relabelled, ~6 % dropped (children
spliced into the parent), ~5 % moved (the last child moved out to the parent, the next sibling
taken in, or the next phrase's first child taken in, which crosses that phrase), ~4 % of the tags
changed; the words are the same, so no sentence is an error.

Where PYEVALB and EVALB define things differently, the data stays out of the way (each is shown on
a one-sentence probe at the end of a run):

- the Penn Treebank's empty outer bracket ``( (S ...))``: PYEVALB's parser keeps the inner label and
  drops its children (an empty sentence, then ``ZeroDivisionError``); EVALB counts it as a bracket
  with an empty label. The generated trees have a labelled root;
- function tags: EVALB strips ``NP-SBJ-1`` to ``NP``, PYEVALB compares labels as written. No function tags;
- duplicate brackets (a unary chain ``(NP (NP ...))``: same label, same span): PYEVALB intersects the
  two trees' brackets as *sets* (a node is equal to another of the same label and span), so the two
  copies match once; EVALB matches each copy. No same-span chain repeats a label;
- ``_`` in a word: PYEVALB splits ``word_tag`` at ``_`` (``a_x`` and ``a_y`` are the same word). None;
- a sentence that is a single preterminal ``(NN a)``: no brackets, PYEVALB divides by zero. None.

Punctuation, preterminals and the root are treated alike: nothing is deleted (punctuation brackets
and tags count), preterminals are tags and not brackets, the root bracket counts.

Run::

    python benchmarks/bench_trees.py                       # --sentences 10000 --seed 0 --repeat 3

Each time is the best of ``--repeat`` runs; the ratio is PYEVALB's time divided by ours. The last line
says whether every corpus figure agrees (within 1e-9 percent); when one does not, the sentences whose
counts differ are listed with the cause. Exit status 3 when a tool crashes; without PYEVALB ours is
timed alone (exit 0).
"""

from __future__ import annotations

import argparse
import gc
import random
import sys
import time
import traceback
import warnings
from collections import Counter
from collections.abc import Callable
from typing import Any

#: label -> (phrase labels of its children, tags of its preterminal children)
GRAMMAR: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "S": (("NP", "VP", "VP", "ADVP", "PP", "SBAR"), ("CC", "RB")),
    "VP": (("NP", "NP", "PP", "VP", "ADVP", "SBAR", "S", "ADJP"), ("VBD", "VBZ", "VB", "MD", "VBN", "VBG")),
    "NP": (("NP", "PP", "PP", "ADJP", "QP", "SBAR"), ("DT", "NN", "NN", "NNS", "NNP", "JJ", "CD", "PRP")),
    "PP": (("NP", "NP", "NP", "S"), ("IN", "TO")),
    "ADJP": (("ADVP", "PP", "NP"), ("JJ", "RB", "JJR")),
    "ADVP": (("PP", "NP"), ("RB", "RBR")),
    "SBAR": (("S", "S", "WHNP"), ("IN", "WDT")),
    "QP": (("NP",), ("CD", "IN", "RB", "CD")),
    "WHNP": (("NP",), ("WDT", "WP")),
}
PHRASES = tuple(GRAMMAR)
#: unary chains: a phrase that is sometimes the only child of another over the same words
UNARY = {"S": "VP", "SBAR": "S", "NP": "QP", "ADJP": "ADVP"}
WORDS: dict[str, tuple[str, ...]] = {
    "CC": ("and", "but", "or"), "RB": ("not", "also", "very", "still", "here"), "RBR": ("more", "less"),
    "VBD": ("said", "rose", "fell", "was", "sold"), "VBZ": ("is", "has", "says", "makes"),
    "VB": ("be", "buy", "sell", "take"), "MD": ("will", "would", "can"), "VBN": ("been", "made", "sold"),
    "VBG": ("making", "rising", "being"), "DT": ("the", "a", "this", "some"),
    "NN": ("company", "market", "year", "share", "price", "index"), "NNS": ("shares", "prices", "years"),
    "NNP": ("Mr.", "Vinken", "Nov.", "Elsevier", "Pierre"), "JJ": ("new", "last", "big", "Dutch"),
    "JJR": ("higher", "lower"), "CD": ("29", "1.5", "million", "one"), "PRP": ("it", "he", "they"),
    "IN": ("of", "in", "for", "on", "that", "as"), "TO": ("to",), "WDT": ("which", "that"),
    "WP": ("who", "what"), ".": (".",),
}
TAGS = tuple(t for t in WORDS if t != ".")

Tree = list  # a phrase: [label, [children]]; a preterminal: (tag, word)


# ---------------------------------------------------------------- generated trees


def _preterminal(rng: random.Random, label: str) -> tuple[str, str]:
    tag = rng.choice(GRAMMAR[label][1])
    return (tag, rng.choice(WORDS[tag]))


def _phrase(rng: random.Random, label: str, n: int, chain: frozenset[str]) -> Tree:
    """A phrase ``label`` over ``n`` words; ``chain`` holds the labels above it over the same words."""
    if n == 1:
        return [label, [_preterminal(rng, label)]]
    below = UNARY.get(label)
    if below and below not in chain and rng.random() < 0.08:
        return [label, [_phrase(rng, below, n, chain | {below})]]
    k = rng.randint(2, min(4, n))
    cuts = sorted(rng.sample(range(1, n), k - 1))
    kids: list[Any] = []
    for a, b in zip([0, *cuts], [*cuts, n], strict=True):
        if b - a == 1 and rng.random() < 0.6:
            kids.append(_preterminal(rng, label))
        else:
            child = rng.choice(GRAMMAR[label][0])
            kids.append(_phrase(rng, child, b - a, frozenset({child})))
    return [label, kids]


def _dedupe(node: Tree, chain: frozenset[str]) -> None:
    """Splice out a phrase whose label already labels the same words higher up (no duplicate brackets)."""
    while len(node[1]) == 1 and isinstance(node[1][0], list) and node[1][0][0] in chain:
        node[1] = node[1][0][1]
    only = len(node[1]) == 1
    for kid in node[1]:
        if isinstance(kid, list):
            _dedupe(kid, chain | {kid[0]} if only else frozenset({kid[0]}))


def _copy(node: Any) -> Any:
    return [node[0], [_copy(k) for k in node[1]]] if isinstance(node, list) else node


def _perturb(rng: random.Random, gold: Tree) -> Tree:
    """A copy of ``gold`` with relabelled, dropped and moved brackets and changed tags (same words)."""
    tree = _copy(gold)
    order: list[tuple[Tree, Tree]] = []  # (parent, phrase) in post-order: children before their parent

    def walk(node: Tree) -> None:
        for kid in node[1]:
            if isinstance(kid, list):
                walk(kid)
                order.append((node, kid))

    walk(tree)
    for parent, node in order:
        at = next((i for i, k in enumerate(parent[1]) if k is node), None)
        if at is None:  # moved elsewhere by an earlier change
            continue
        u = rng.random()
        if u < 0.08:
            node[0] = rng.choice([lab for lab in PHRASES if lab != node[0]])
        elif u < 0.14:
            parent[1][at:at + 1] = node[1]
        elif u < 0.19:
            nxt = parent[1][at + 1] if at + 1 < len(parent[1]) else None
            v = rng.random()
            if len(node[1]) > 1 and v < 1 / 3:  # lower attachment of its last child: out to the parent
                parent[1].insert(at + 1, node[1].pop())
            elif isinstance(nxt, list) and len(nxt[1]) > 1 and v < 2 / 3:  # take the next phrase's first child
                node[1].append(nxt[1].pop(0))  # (crosses the gold next phrase)
            elif nxt is not None:  # take the next sibling in
                node[1].append(parent[1].pop(at + 1))
    if rng.random() < 0.05:
        tree[0] = rng.choice(("SINV", "FRAG", "SQ"))

    def retag(node: Tree) -> None:
        for i, kid in enumerate(node[1]):
            if isinstance(kid, list):
                retag(kid)
            elif rng.random() < 0.04:
                node[1][i] = (rng.choice([t for t in TAGS if t != kid[0]]), kid[1])

    retag(tree)
    _dedupe(tree, frozenset({tree[0]}))
    return tree


def render(node: Any) -> str:
    if isinstance(node, tuple):
        return f"({node[0]} {node[1]})"
    return f"({node[0]} {' '.join(render(k) for k in node[1])})"


def make_corpus(n_sent: int, seed: int = 0) -> tuple[list[str], list[str]]:
    """Gold and test bracket strings, one sentence each (see the module docstring)."""
    rng = random.Random(seed)
    gold, test = [], []
    for _ in range(n_sent):
        n = rng.randint(5, 40)
        tree = _phrase(rng, "S", n - 1, frozenset({"S"}))
        if len(tree[1]) == 1 and isinstance(tree[1][0], tuple):  # keep the root a phrase over phrases
            tree[1] = [["NP", tree[1]]]
        tree[1].append((".", "."))
        _dedupe(tree, frozenset({"S"}))
        gold.append(render(tree))
        test.append(render(_perturb(rng, tree)))
    return gold, test


# ---------------------------------------------------------------- the two tools

FIGURES = (("recall", "bracket_recall", "Bracketing Recall"), ("precision", "bracket_prec", "Bracketing Precision"),
           ("fmeasure", "bracker_fmeasure", "Bracketing FMeasure"), ("complete_match", "complete_match",
                                                                    "Complete match"),
           ("average_crossing", "average_crossing", "Average crossing"), ("no_crossing", "no_crossing",
                                                                          "No crossing"),
           ("tagging_accuracy", "tagging_accuracy", "Tagging accuracy"))


def timed(fn: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    """Best wall time of ``repeat`` runs of ``fn`` and its last result."""
    best, result = float("inf"), None
    for _ in range(repeat):
        gc.collect()
        t0 = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - t0)
    return best, result


def _pyevalb() -> Any:
    try:
        from PYEVALB import parser, scorer, summary
    except ImportError:
        return None
    return parser, scorer, summary


def _explain(gold: str, test: str) -> str:
    """Which known definitional difference between PYEVALB and EVALB a sentence pair runs into."""
    from spacy_anno_eval.trees.brackets import parse_brackets

    causes = []
    for side, text in (("gold", gold), ("test", test)):
        tree = parse_brackets(text, layout="line")[0]
        dup = [b for b, c in Counter((b.label, b.start, b.end) for b in tree.brackets).items() if c > 1]
        if dup:
            causes.append(f"{side} repeats bracket {dup[0]}: PYEVALB matches brackets as a set (once), EVALB "
                          "each copy")
        if any(b.label == "" for b in tree.brackets):
            causes.append(f"{side} has an empty-label bracket: PYEVALB's parser drops the outer bracket's tree")
        if any(("-" in b.label.strip("-") or "=" in b.label) for b in tree.brackets):
            causes.append(f"{side} has function tags: EVALB strips them, PYEVALB compares labels as written")
        if any("_" in w for w in tree.words) or any("_" in t for t in tree.tags):
            causes.append(f"{side} has '_' in a word or tag: PYEVALB splits word_tag at '_'")
        if not tree.brackets:
            causes.append(f"{side} has no phrase bracket: PYEVALB divides by zero")
    return "; ".join(causes) or "UNEXPLAINED"


def _row(r: Any) -> tuple[int, ...]:
    return (r.matched, r.gold_brackets, r.test_brackets, r.crossing, r.correct_tags, r.words)


def _peer_row(r: Any) -> tuple[int, ...]:
    return (r.matched_brackets, r.gold_brackets, r.test_brackets, r.cross_brackets, r.correct_tags, r.words)


def probes(peer: Any, params: Any) -> None:
    """One-sentence probes of the definitions PYEVALB and EVALB differ on, or agree on."""
    from spacy_anno_eval.trees.evalb import evaluate_trees

    parser, scorer, _ = peer
    cases = (("outer empty bracket ( (S ...))", "( (S (NP (DT a) (NN b)) (VP (VBZ c))))", None),
             ("function tag NP-SBJ vs NP", "(S (NP-SBJ (NN a)) (VP (VBZ b)))", "(S (NP (NN a)) (VP (VBZ b)))"),
             ("unary duplicate (NP (NP ...)) both sides", "(S (NP (NP (NN a))) (VP (VBZ b)))", None),
             ("'_' in a word: a_x vs a_y", "(S (NP (NN a_x)) (VP (VBZ b)))", "(S (NP (NN a_y)) (VP (VBZ b)))"),
             ("punctuation moved into VP", "(S (NP (NN a)) (VP (VBZ b)) (. .))", "(S (NP (NN a)) (VP (VBZ b) (. .)))"),
             ("root relabelled S -> FRAG", "(S (NP (NN a)) (VP (VBZ b)))", "(FRAG (NP (NN a)) (VP (VBZ b)))"))
    print("probes (matched, gold, test brackets, crossing, correct tags, words):")
    for what, gold, test in cases:
        test = test or gold
        try:
            theirs = str(_peer_row(scorer.Scorer().score_trees(parser.create_from_bracket_string(gold),
                                                               parser.create_from_bracket_string(test))))
        except Exception as err:  # PYEVALB has no error path for these
            theirs = type(err).__name__
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            row = evaluate_trees([gold], [test], params).sentences[0]
        ours = str(_row(row)) + ("" if row.status == 0 else f" status {row.status}: {row.message}")
        print(f"  {what:42s} PYEVALB {theirs:22s} ours {ours:22s} {'same' if theirs == ours else 'differs'}")


def run(n_sent: int, seed: int, repeat: int, with_probes: bool = True) -> int:
    from spacy_anno_eval.trees.brackets import parse_brackets
    from spacy_anno_eval.trees.evalb import EvalbParams, evaluate, evaluate_trees

    params = EvalbParams()  # EVALB without a parameter file: nothing deleted, nothing equal, LABELED 1
    gold, test = make_corpus(n_sent, seed)
    gold_text, test_text = "\n".join(gold) + "\n", "\n".join(test) + "\n"
    gold_trees, test_trees = parse_brackets(gold_text, layout="line"), parse_brackets(test_text, layout="line")
    words = sum(len(t.words) for t in gold_trees)
    print(f"{n_sent} sentences (seed {seed}), {words} words, {sum(len(t.brackets) for t in gold_trees)} gold and "
          f"{sum(len(t.brackets) for t in test_trees)} test brackets; best of {repeat}")
    print(f"parameters: {params.to_dict()}")
    evaluate_trees(gold[:20], test[:20], params)  # warm-up: imports

    t_ours, ours = timed(lambda: evaluate_trees(gold, test, params), repeat)
    t_ours_s, ours_s = timed(lambda: evaluate(gold_trees, test_trees, params), repeat)
    t_text, _ = timed(lambda: evaluate(parse_brackets(gold_text, layout="line"),
                                       parse_brackets(test_text, layout="line"), params), repeat)
    peer = _pyevalb()
    if peer is None:
        print("  [skipped] PYEVALB not installed: pip install PYEVALB==0.1.3 (or pip install -e .[bench])")
        for what, sec in (("evaluate_trees (parse + score)", t_ours), ("evaluate (trees read before)", t_ours_s),
                          ("parse_brackets(text) + evaluate", t_text)):
            print(f"{'ours':8s} {what:42s} {sec:7.3f} s")
        return 0
    parser, scorer, summary = peer

    def peer_full() -> tuple[Any, list[Any]]:
        results = scorer.Scorer().score_corpus(gold, test)
        return summary.summary(results), results

    g_peer = [parser.create_from_bracket_string(s) for s in gold]
    t_peer_trees = [parser.create_from_bracket_string(s) for s in test]

    def peer_scoring() -> tuple[Any, list[Any]]:
        sc = scorer.Scorer()
        results = [sc.score_trees(g, t) for g, t in zip(g_peer, t_peer_trees, strict=True)]
        return summary.summary(results), results

    t_peer, (s_peer, rows_peer) = timed(peer_full, repeat)
    t_peer_s, (s_peer_s, _) = timed(peer_scoring, repeat)
    rows = (("PYEVALB", "score_corpus + summary (parse + score)", t_peer, None),
            ("ours", "evaluate_trees (parse + score)", t_ours, t_peer),
            ("PYEVALB", "score_trees + summary (trees read before)", t_peer_s, None),
            ("ours", "evaluate (trees read before)", t_ours_s, t_peer_s),
            ("ours", "parse_brackets(text) + evaluate", t_text, t_peer))
    for tool, what, sec, against in rows:
        ratio = f"   ratio {against / sec:5.2f}x" if against else ""
        print(f"{tool:8s} {what:42s} {sec:7.3f} s{ratio}")
    print("(ratio = PYEVALB time / ours; the last row against score_corpus)")

    figs, _ = ours.all.figures()
    figs_s, _ = ours_s.all.figures()
    print(f"\n  {'figure (percent; crossing per sentence)':42s} {'PYEVALB':>12s} {'ours':>12s}")
    agree = (s_peer == s_peer_s) and figs == figs_s
    for mine, theirs, title in FIGURES:
        a, b = getattr(s_peer, theirs), figs[mine]
        same = abs(a - b) < 1e-9
        agree &= same
        print(f"  {title:42s} {a:12.6f} {b:12.6f}  {'same' if same else 'DIFFERS'}")
    counts_peer = (int(s_peer.valid_sent_num), int(s_peer.error_sent_num), int(s_peer.skip_sent_num))
    counts_ours = (ours.all.valid, ours.all.error, ours.all.skip)
    print(f"  {'valid / error / skip sentences':42s} {str(counts_peer):>12s} {str(counts_ours):>12s}")
    agree &= counts_peer == counts_ours
    differing = [i for i, (r, p) in enumerate(zip(ours.sentences, rows_peer, strict=True)) if _row(r) != _peer_row(p)]
    if differing:
        causes = Counter(_explain(gold[i], test[i]) for i in differing)
        print(f"  {len(differing)} sentence(s) counted differently (first: {differing[0] + 1}):")
        for cause, n in causes.most_common():
            print(f"    {n:6d} x {cause}")
        for i in differing[:3]:
            print(f"    sentence {i + 1}: PYEVALB {_peer_row(rows_peer[i])} ours {_row(ours.sentences[i])}\n"
                  f"      gold {gold[i]}\n      test {test[i]}")
    print(f"figures agree (recall, precision, F, complete match, crossing, tagging accuracy; every sentence's "
          f"counts): {'yes' if agree and not differing else 'no'}")
    if with_probes:
        print()
        probes(peer, params)
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sentences", type=int, default=10_000, help="generated sentence pairs (default 10000)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--repeat", type=int, default=3, help="best of this many runs per tool (default 3)")
    ap.add_argument("--no-probes", action="store_true", help="skip the one-sentence definition probes")
    args = ap.parse_args(argv)
    try:
        return run(args.sentences, args.seed, args.repeat, not args.no_probes)
    except Exception:
        traceback.print_exc()
        return 3


if __name__ == "__main__":
    sys.exit(main())
