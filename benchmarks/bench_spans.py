"""Side-by-side timing of span scorers on one synthetic NER corpus.

Tools, all on the same data:

- spaCy ``Scorer.score_spans(examples, "ents")`` (strict only), once with the
  ``Example`` alignments already computed (cached) and once on fresh Examples;
- our registered scorer ``spacy_anno_eval.spans_scorer.v1`` (strict, lenient,
  average, per type, MUC, SemEval);
- nervaluate 1.2.1 ``Evaluator(true, pred, tags, loader="list")`` on IOB2 tags;
- seqeval ``classification_report`` on IOB2 tags;
- our file path: ``spacy_anno_eval.spans.engine.evaluate(key.spacy, response.spacy).report()``
  on DocBin files written to a temporary directory.

Run::

    python benchmarks/bench_spans.py --docs 1000 --docs 10000 --density dense --density sparse
    python benchmarks/bench_spans.py --docs 10000 --tokens 40 --ents 2

This is a benchmark, not a test: nothing is asserted, but the last line of each
run says whether strict micro F agrees between the tools.
"""

from __future__ import annotations

import argparse
import gc
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

LABELS = ("PER", "ORG", "LOC", "MISC")
WORDS = tuple(
    "the a of and to in is was for on that with by as at from it his her their this an "
    "be are were has had have not but or which one all new said after first two other "
    "city river company team year state party group house north south world member "
    "John Mary Paris Berlin Acme Corp United Nations Ada Lovelace London Google Amazon "
    "Thames Rhine Europe Asia Smith Jones Apple Microsoft Tokyo Cairo Nile Alps".split()
)


#: name -> (tokens per document, entities per document); tokens 0 = as the entities need (about 4.5 per entity)
DENSITIES = {"dense": (0, 10), "sparse": (40, 2)}


def make_corpus(n_docs: int, ents_per_doc: int = 10, seed: int = 0,
                tokens: int = 0) -> tuple[list[Any], list[Any]]:
    """Reference and predicted Docs (same tokens) with seeded random entities.

    Each reference doc has ``ents_per_doc`` entities of 1-3 tokens separated by
    1-4 outside tokens; with ``tokens`` > 0 the outside stretch after the last
    entity is lengthened so that a document has at least ``tokens`` tokens.
    Each prediction keeps an entity (70%), shifts one boundary
    by a token (10%), changes its label (8%) or drops it (7%), or
    extends it by a token (5%); after ~30% of the entities it adds a spurious
    one-token entity. Overlapping predictions are resolved by
    ``spacy.util.filter_spans``.
    """
    import spacy
    from spacy.tokens import Doc, Span
    from spacy.util import filter_spans

    rng = np.random.default_rng(seed)
    nlp = spacy.blank("en")
    vocab = nlp.vocab
    words_arr = np.array(WORDS, dtype=object)
    refs, preds = [], []
    for _ in range(n_docs):
        gaps = rng.integers(1, 5, size=ents_per_doc + 1)
        lens = rng.integers(1, 4, size=ents_per_doc)
        labels = rng.integers(0, len(LABELS), size=ents_per_doc)
        starts = np.cumsum(gaps[:-1]) + np.concatenate([[0], np.cumsum(lens)[:-1]])
        n_tok = max(int(gaps.sum() + lens.sum()), tokens)
        words = list(words_arr[rng.integers(0, len(WORDS), size=n_tok)])
        ref = Doc(vocab, words=words)
        pred = Doc(vocab, words=words)
        ref.ents = [Span(ref, int(s), int(s + n), LABELS[lab]) for s, n, lab in zip(starts, lens, labels, strict=True)]
        out = []
        draws = rng.random((ents_per_doc, 3))
        for (s, n, lab), (u, v, w) in zip(zip(starts, lens, labels, strict=True), draws, strict=True):
            s, e, lab = int(s), int(s + n), int(lab)
            after = e  # first token after the reference entity
            if u < 0.70:
                pass
            elif u < 0.80:
                if v < 0.5:
                    s = max(0, s + (1 if (n > 1 and w < 0.5) else -1))
                else:
                    e = min(n_tok, e + (-1 if (n > 1 and w < 0.5) else 1))
            elif u < 0.88:
                lab = (lab + 1 + int(w * (len(LABELS) - 1))) % len(LABELS)
            elif u < 0.95:
                s = e = -1
            else:
                e = min(n_tok, e + 1)
            if s >= 0 and e > s:
                out.append(Span(pred, s, e, LABELS[lab]))
            if w < 0.3 and after < n_tok:  # a spurious one-token entity just after it
                out.append(Span(pred, after, after + 1, LABELS[int(v * len(LABELS)) % len(LABELS)]))
        pred.ents = filter_spans(out)
        refs.append(ref)
        preds.append(pred)
    return refs, preds


def iob_tags(docs: list[Any]) -> list[list[str]]:
    """IOB2 tag lists (``B-PER``, ``I-PER``, ``O``) of the docs' entities."""
    out = []
    for doc in docs:
        out.append([f"{t.ent_iob_}-{t.ent_type_}" if t.ent_iob_ in ("B", "I") else "O" for t in doc])
    return out


def timed(fn: Callable[[], Any], repeat: int = 1) -> tuple[float, Any]:
    """Best wall time of ``repeat`` runs of ``fn`` and its last result."""
    best, result = float("inf"), None
    for _ in range(repeat):
        gc.collect()
        t0 = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - t0)
    return best, result


def run(n_docs: int, seed: int = 0, repeat: int = 1, with_peers: bool = True,
        density: tuple[int, int] = DENSITIES["dense"]) -> dict[str, tuple[float, float | None]]:
    """Time every tool on ``n_docs`` documents of ``density`` = (tokens, entities) each;
    return {tool: (seconds, strict micro F)}."""
    import spacy
    from spacy.scorer import Scorer
    from spacy.tokens import DocBin
    from spacy.training import Example

    tokens, ents = density
    refs, preds = make_corpus(n_docs, ents_per_doc=ents, seed=seed, tokens=tokens)
    _warm_up()
    results: dict[str, tuple[float, float | None]] = {}

    def fresh_examples() -> list[Any]:
        return [Example(p, r) for p, r in zip(preds, refs, strict=True)]

    cached = fresh_examples()
    for eg in cached:
        _ = eg.alignment  # computed once, cached on the Example
    t, s = timed(lambda: Scorer.score_spans(cached, "ents"), repeat)
    results["spacy score_spans (cached alignment)"] = (t, s["ents_f"])
    t, s = timed(lambda: Scorer.score_spans(fresh_examples(), "ents"), repeat)
    results["spacy score_spans (fresh Examples)"] = (t, s["ents_f"])

    scorer = spacy.registry.scorers.get("spacy_anno_eval.spans_scorer.v1")()
    t, s = timed(lambda: scorer(cached), repeat)
    results["ours: spans_scorer.v1 (all measures)"] = (t, s["ents_f"])

    with tempfile.TemporaryDirectory() as tmp:
        key_path, resp_path = Path(tmp) / "key.spacy", Path(tmp) / "response.spacy"
        DocBin(docs=refs, attrs=["ENT_IOB", "ENT_TYPE"]).to_disk(key_path)
        DocBin(docs=preds, attrs=["ENT_IOB", "ENT_TYPE"]).to_disk(resp_path)
        try:
            from spacy_anno_eval.spans.engine import evaluate

            def from_files() -> dict[str, Any]:
                return evaluate(key_path, resp_path).report()

            t, rep = timed(from_files, repeat)
            results["ours: evaluate(DocBin files).report()"] = (t, rep["micro"]["strict"]["f"])
        except Exception as err:  # the DocBin reader may not exist yet
            print(f"  [skipped] evaluate on DocBin files: {type(err).__name__}: {err}")

    if with_peers:
        true_tags, pred_tags = iob_tags(refs), iob_tags(preds)
        try:
            from nervaluate import Evaluator

            def nerv() -> Any:
                return Evaluator(true_tags, pred_tags, tags=list(LABELS), loader="list").evaluate()

            t, r = timed(nerv, repeat)
            results["nervaluate 1.2.1 (list loader)"] = (t, r["overall"]["strict"].f1)
        except ImportError:
            print("  [skipped] nervaluate not installed")
        try:
            from seqeval.metrics import classification_report

            def seq() -> Any:
                return classification_report(true_tags, pred_tags, output_dict=True, zero_division=0)

            t, r = timed(seq, repeat)
            results["seqeval classification_report"] = (t, r["micro avg"]["f1-score"])
        except ImportError:
            print("  [skipped] seqeval not installed")
    return results


def _warm_up() -> None:
    """Run every tool once on a tiny corpus, so that no timing includes a first import."""
    import spacy
    from spacy.scorer import Scorer
    from spacy.training import Example

    refs, preds = make_corpus(3, seed=1)
    egs = [Example(p, r) for p, r in zip(preds, refs, strict=True)]
    Scorer.score_spans(egs, "ents")
    spacy.registry.scorers.get("spacy_anno_eval.spans_scorer.v1")()(egs)


def print_table(n_docs: int, results: dict[str, tuple[float, float | None]], label: str = "") -> None:
    ours_scorer = results.get("ours: spans_scorer.v1 (all measures)", (None,))[0]
    ours_files = results.get("ours: evaluate(DocBin files).report()", (None,))[0]
    print(f"\n{n_docs} documents{label}")
    print(f"  {'tool':42s} {'seconds':>9s} {'/ scorer':>9s} {'/ files':>9s}  strict F")
    for name, (sec, f) in results.items():
        r1 = f"{sec / ours_scorer:9.1f}" if ours_scorer else f"{'-':>9s}"
        r2 = f"{sec / ours_files:9.1f}" if ours_files else f"{'-':>9s}"
        print(f"  {name:42s} {sec:9.3f} {r1} {r2}  {f if f is None else round(f, 6)}")
    spacy_cached = results.get("spacy score_spans (cached alignment)", (None,))[0]
    nerv = results.get("nervaluate 1.2.1 (list loader)", (None,))[0]
    if spacy_cached and ours_scorer:
        print(f"  our scorer is {spacy_cached / ours_scorer:.1f}x faster than spaCy's score_spans (cached)")
    if nerv and ours_files:
        print(f"  evaluate() on DocBin files is {nerv / ours_files:.1f}x faster than nervaluate")
    fs = [f for _, f in results.values() if f is not None]
    agree = bool(fs) and max(fs) - min(fs) < 1e-9
    print(f"  strict micro F agrees between tools: {agree} "
          f"(min {min(fs):.9f}, max {max(fs):.9f})" if fs else "  no F to compare")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--docs", type=int, action="append",
                        help="corpus size(s) in documents; repeat the option (default 1000 and 10000)")
    parser.add_argument("--density", choices=sorted(DENSITIES), action="append",
                        help="documents of ~45 tokens and 10 entities (dense) or of 40 tokens and 2 entities "
                             "(sparse); repeat the option (default: both)")
    parser.add_argument("--tokens", type=int, help="tokens per document (at least; overrides --density)")
    parser.add_argument("--ents", type=int, help="entities per document (overrides --density)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--repeat", type=int, default=1, help="best of this many runs per tool")
    parser.add_argument("--no-peers", action="store_true", help="skip nervaluate and seqeval")
    parser.add_argument("--profile", action="store_true", help="cProfile our scorer on the largest corpus")
    args = parser.parse_args(argv)
    sizes = args.docs or [1000, 10000]
    if args.tokens is not None or args.ents is not None:
        densities = {"custom": (args.tokens or 0, args.ents if args.ents is not None else 10)}
    else:
        densities = {name: DENSITIES[name] for name in (args.density or ["dense", "sparse"])}
    for name, density in densities.items():
        for n in sizes:
            label = f", {name}: {density[0] or 'about 4.5 per entity'} tokens, {density[1]} entities each"
            print_table(n, run(n, args.seed, args.repeat, not args.no_peers, density), label)
    if args.profile:
        import cProfile
        import pstats

        import spacy
        from spacy.training import Example

        refs, preds = make_corpus(max(sizes), seed=args.seed)
        egs = [Example(p, r) for p, r in zip(preds, refs, strict=True)]
        scorer = spacy.registry.scorers.get("spacy_anno_eval.spans_scorer.v1")()
        prof = cProfile.Profile()
        prof.runcall(scorer, egs)
        pstats.Stats(prof).sort_stats("cumulative").print_stats(25)


if __name__ == "__main__":
    main()
