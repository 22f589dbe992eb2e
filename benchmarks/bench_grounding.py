"""Grounding generated extractions: ``spacy_anno_eval.llm.grounding.ground`` against spacy-llm's own
substring-and-snap path, on one synthetic corpus.

The corpus is generated (``--seed``, default 0): ``--docs`` documents (default 10,000) of ~15 sentences built
from a pool of invented names (persons, places, organisations; a name often occurs twice in a text), and ~20
extractions per document. Each of the 15 mentions is listed in text order, as a model would: the name as
written, or with its case changed (8 %), a typo (6 %: one character replaced, dropped or doubled), an en dash
or a double space for the space of a two-word name (4 %); after 5 % of them an earlier extraction is listed again
(the model repeated itself); 0-2 hallucinated names per document (~5 % of the extractions) are put anywhere;
then mentions are listed again at random until there are 20 (out of text order: most documents need the
placement's chain, not its shortcut). The key's tokens are spaCy's (``spacy.blank("en")``), made before any
timing; both tools snap to them with ``alignment_mode="contract"``.

Timed (best of ``--repeat``):

- ``ours exact,casefold``: ``ground(..., settings=GroundingSettings(steps=("exact", "casefold")))``;
- ``ours full ladder``: the default settings (exact, casefold, normalized, fuzzy:0.8, contract, one occurrence
  per extraction in list order);
- ``ours as spacy-llm``: ``steps=("casefold",), ground_all=True``: spacy-llm's default rule (case-insensitive,
  every occurrence, contract) — the one to compare with the peer;
- ``ours + scoring``: the full ladder, the grounded spans put in a response corpus, and the span engine's
  ``evaluate(key, response).report()`` against the key's spans (the issue's goal: under 5 s for 10,000
  documents);
- ``spacy-llm``: for each document and label, ``spacy_llm.tasks.util.find_substrings(doc.text, phrases,
  case_sensitive=False, single_match=False)`` and ``doc.char_span(start, end, alignment_mode="contract",
  label=label)`` for each offset, as ``spacy_llm.tasks.span.parser.parse_responses`` does (the ``Doc`` objects
  are made before the timing). spacy-llm is imported from ``--peer-python`` (a Python with ``spacy-llm``
  installed; e.g. ``python -m venv --system-site-packages /tmp/spacyllm-venv && /tmp/spacyllm-venv/bin/pip
  install spacy-llm``), or from this Python when it has it. Without it, a plain Python loop doing the exact
  step (``str.find`` of each string, no snapping) is timed instead.

The last lines say whether the spans of ``ours as spacy-llm`` and spacy-llm's are the same set of
``(doc, start, end, label)`` (they must: the same rule on the same tokens; repeats aside, which spacy-llm drops
and we mark).

Run::

    python benchmarks/bench_grounding.py --docs 10000 --repeat 3 --peer-python /tmp/spacyllm-venv/bin/python
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from timing import best_of

SYLLABLES = ("ka", "lo", "mi", "ra", "ven", "dor", "al", "thi", "bu", "sen", "mar", "qua", "zel", "io", "pen")
FILLER = ("the", "report", "said", "that", "in", "a", "meeting", "with", "on", "Monday", "after", "talks",
          "about", "new", "plans", "for", "and", "was", "seen", "near", "later", "this", "week")
LABELS = ("PER", "LOC", "ORG")
TYPO = "abcdefghijklmnopqrstuvwxyz"


def _name(rng: random.Random, label: str) -> str:
    word = "".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 3))).capitalize()
    if label == "PER":
        return word + " " + "".join(rng.choice(SYLLABLES) for _ in range(2)).capitalize()
    if label == "ORG":
        return word + " " + rng.choice(("Group", "Labs", "Bank", "Trust"))
    return word


def _typo(rng: random.Random, s: str) -> str:
    i = rng.randrange(1, len(s) - 1)
    kind = rng.randrange(3)
    if kind == 0:
        return s[:i] + rng.choice(TYPO) + s[i + 1:]
    if kind == 1:
        return s[:i] + s[i + 1:]
    return s[:i] + s[i] + s[i:]


def make_corpus(n_docs: int, seed: int) -> tuple[dict[str, str], dict[str, list[tuple[str, str]]],
                                                  dict[str, list[tuple[int, int, str]]]]:
    """(texts, extractions per document as (label, string), the key's spans per document)."""
    rng = random.Random(seed)
    texts, extractions, gold = {}, {}, {}
    for d in range(n_docs):
        names = [(lab, _name(rng, lab)) for lab in rng.choices(LABELS, k=12)]
        parts: list[str] = []
        spans: list[tuple[int, int, str]] = []
        pos = 0
        mentions: list[tuple[str, str]] = []
        for _ in range(15):
            lab, name = rng.choice(names)
            words = rng.sample(FILLER, 4)
            sentence_head = " ".join(words[:2]).capitalize() + " "
            start = pos + len(sentence_head)
            sentence = sentence_head + name + " " + " ".join(words[2:]) + "."
            spans.append((start, start + len(name), lab))
            mentions.append((lab, name))
            parts.append(sentence)
            pos += len(sentence) + 1
        text = " ".join(parts)
        listed: list[tuple[str, str]] = []
        for lab, name in mentions:
            r = rng.random()
            if r < 0.08:
                listed.append((lab, name.upper() if rng.random() < 0.5 else name.lower()))
            elif r < 0.14:
                listed.append((lab, _typo(rng, name)))
            elif r < 0.18 and " " in name:
                listed.append((lab, name.replace(" ", "\u2013" if rng.random() < 0.5 else "  ", 1)))
            else:
                listed.append((lab, name))
            if rng.random() < 0.05 and listed:
                listed.append(rng.choice(listed))
        for _ in range(rng.choice((0, 1, 1, 2))):  # hallucinations (~5 %)
            listed.insert(rng.randrange(len(listed) + 1), (rng.choice(LABELS), _name(rng, "LOC") + "ia"))
        while len(listed) < 20:  # a few more names the text mentions, listed again later
            listed.append(rng.choice(mentions))
        texts[f"doc{d}"] = text
        extractions[f"doc{d}"] = listed
        gold[f"doc{d}"] = spans
    return texts, extractions, gold


PEER_SCRIPT = r"""
import json, sys, time
import spacy
from spacy_llm.tasks.util import find_substrings
data = json.load(open(sys.argv[1]))
repeat = int(sys.argv[2])
nlp = spacy.blank("en")
docs = {d: nlp.make_doc(t) for d, t in data["texts"].items()}
def run():
    spans = []
    for d, items in data["extractions"].items():
        doc = docs[d]
        by_label = {}
        for label, s in items:
            by_label.setdefault(label, []).append(s)
        for label, phrases in by_label.items():
            for start, end in find_substrings(doc.text, phrases, case_sensitive=False, single_match=False):
                span = doc.char_span(start, end, alignment_mode="contract", label=label)
                if span is not None:
                    spans.append((d, span.start_char, span.end_char, label))
    return spans
best = float("inf")
for _ in range(repeat):
    t0 = time.perf_counter(); spans = run(); best = min(best, time.perf_counter() - t0)
from importlib.metadata import version
print(json.dumps({"time": best, "spans": spans, "version": version("spacy-llm")}))
"""


def run_peer(python: str, texts: dict[str, str], extractions: dict[str, list[tuple[str, str]]],
             repeat: int) -> dict[str, Any] | None:
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "corpus.json"
        data.write_text(json.dumps({"texts": texts, "extractions": extractions}))
        script = Path(tmp) / "peer.py"
        script.write_text(PEER_SCRIPT)
        proc = subprocess.run([python, str(script), str(data), str(repeat)], capture_output=True, text=True,
                              check=False)
    if proc.returncode != 0:
        print(f"spacy-llm did not run with {python}: {proc.stderr.strip().splitlines()[-1:]}")
        return None
    return json.loads(proc.stdout)


def plain_exact(texts: dict[str, str], extractions: dict[str, list[tuple[str, str]]]) -> list[tuple[str, int, int]]:
    out = []
    for d, items in extractions.items():
        text = texts[d]
        for _, s in items:
            i = text.find(s)
            if i >= 0:
                out.append((d, i, i + len(s)))
    return out


def score(grounding: Any, key_corpus: Any, doc_index: dict[str, int]) -> Any:
    from spacy_anno_eval.annotations.table import Corpus, SpanTableBuilder
    from spacy_anno_eval.spans.engine import evaluate

    b = SpanTableBuilder()
    for d, dg in grounding.documents.items():
        i = doc_index[d]
        for g in dg.grounded:
            b.add(i, g.start, g.end, g.extraction.label)
    response = Corpus(key_corpus.doc_ids, key_corpus.texts, {"ents": b.build()}, source="llm")
    return evaluate(key_corpus, response, key_set="ents").report()


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--docs", type=int, default=10000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--peer-python", default=None, help="a Python with spacy-llm installed")
    args = ap.parse_args(argv)

    import spacy

    from spacy_anno_eval.annotations.table import Corpus, SpanTableBuilder
    from spacy_anno_eval.llm.extractions import Extraction
    from spacy_anno_eval.llm.grounding import GroundingSettings, ground

    texts, raw, gold = make_corpus(args.docs, args.seed)
    nlp = spacy.blank("en")
    tokens = {d: [(t.idx, t.idx + len(t)) for t in nlp.make_doc(text)] for d, text in texts.items()}
    documents = {d: [Extraction(d, lab, s, k) for k, (lab, s) in enumerate(items)] for d, items in raw.items()}
    n_ex = sum(len(v) for v in documents.values())
    print(f"{args.docs} documents, {n_ex} extractions ({n_ex / args.docs:.1f} per document), "
          f"{sum(len(t) for t in texts.values()) / args.docs:.0f} characters per text; best of {args.repeat}")

    ids = list(texts)
    doc_index = {d: i for i, d in enumerate(ids)}
    kb = SpanTableBuilder()
    for d in ids:
        for s, e, lab in sorted(gold[d]):
            kb.add(doc_index[d], s, e, lab)
    key_corpus = Corpus(ids, [texts[d] for d in ids], {"ents": kb.build()}, source="key")

    runs = {
        "ours exact,casefold": GroundingSettings(steps=("exact", "casefold")),
        "ours full ladder": GroundingSettings(),
        "ours as spacy-llm": GroundingSettings(steps=("casefold",), ground_all=True),
    }
    times: dict[str, float] = {}
    results: dict[str, Any] = {}
    for name, settings in runs.items():
        times[name], results[name] = best_of(args.repeat, lambda s=settings: ground(documents, texts, tokens=tokens,
                                                                                   settings=s))
    full = results["ours full ladder"]
    times["ours + scoring"], report = best_of(args.repeat, lambda: score(
        ground(documents, texts, tokens=tokens, settings=GroundingSettings()), key_corpus, doc_index))
    print("full ladder by step:", full.by_step, f"hallucination rate {full.hallucination_rate:.3f}")
    strict = report["micro"]["strict"]
    print(f"full ladder + scoring (grounded spans only; hallucinations have no span): strict P {strict['p']:.4f} "
          f"R {strict['r']:.4f} F {strict['f']:.4f}, counts {report['counts']}")

    peer_name, peer = None, None
    python = args.peer_python
    if python is None:
        try:
            import spacy_llm  # noqa: F401

            python = sys.executable
        except ImportError:
            python = None
    if python is not None:
        peer = run_peer(python, texts, raw, args.repeat)
    if peer is not None:
        peer_name = f"spacy-llm {peer['version']}"
        times[peer_name] = peer["time"]
    else:
        peer_name = "plain exact loop"
        times[peer_name], _ = best_of(args.repeat, lambda: plain_exact(texts, raw))

    base = times[peer_name]
    print(f"\n{'run':<24} {'seconds':>8} {peer_name + ' / ours':>28}")
    for name, t in times.items():
        ratio = "" if name == peer_name else f"{base / t:.2f}"
        print(f"{name:<24} {t:8.3f} {ratio:>28}")
    if peer is not None:
        ours = {(d, g.start, g.end, g.extraction.label) for d, dg in results["ours as spacy-llm"].documents.items()
                for g in dg.grounded}
        theirs = {tuple(s) for s in peer["spans"]}
        print(f"\nspans of 'ours as spacy-llm' and spacy-llm: {len(ours)} and {len(theirs)} distinct; "
              f"{'the same set' if ours == theirs else f'differ: {len(ours - theirs)} ours only, '}"
              f"{'' if ours == theirs else f'{len(theirs - ours)} theirs only'}")


if __name__ == "__main__":
    main()
