"""Our ``Evaluation.buckets()`` beside ExplainaBoard's NER buckets, on its CoNLL-2003 system outputs.

ExplainaBoard (neulab/ExplainaBoard) ships ``data/system_outputs/conll2003/conll2003-dataset.conll``
(the CoNLL-2003 test set: token and gold tag, 3,453 sentences, no ``-DOCSTART-`` lines) and two
systems' outputs (``conll2003-elmo-output.conll``, ``conll2003-flair-output.conll``: token and
predicted tag). The data cannot ship with this project (CoNLL-2003's licence), so this script takes a
checkout: ``--explainaboard PATH``. It is a comparison, not a test.

Ours: both files read with ``read_corpus(..., format="conll")`` (no ``-DOCSTART-``: every sentence is
a document), ``evaluate(key, response).buckets()``.

ExplainaBoard: with ``--peer-python PY`` (a Python where ExplainaBoard's dependencies import; the
checkout is put on ``PYTHONPATH``) its ``NERProcessor`` is run on the same two files, as its
``cli_test.py::test_ner_custom`` does (custom dataset, no training set), and its buckets are read
from the result. Without it the buckets recorded from such a run (ExplainaBoard b8c1dad7, elmo output)
are printed. Its ``integration_tests/ner_test.py`` asserts one bucket (``span_econ``, the second of
three: interval [0.00746, 0.857], 1,050 spans, F1 0.91216), computed with the CoNLL-2003 *training*
set fetched from DataLab at run time; no training set is at hand here, so that one is printed but not
recomputed.

Three columns per bucket: ExplainaBoard's F1; ours (strict F of our bucket with our definition and
edges); and "ours, EB rule": our alignment's strict hits bucketed by ExplainaBoard's definition of the
feature (CoNLL tokens, entity tokens per token, the gold label of the span position) and its edges.
Where the last column equals ExplainaBoard's, the difference from ours is the definition, not the
counting.

Run::

    python benchmarks/explainaboard_buckets.py --explainaboard /path/to/ExplainaBoard
    python benchmarks/explainaboard_buckets.py --explainaboard PATH --peer-python /venv/bin/python
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np

DATA = Path("data/system_outputs/conll2003")

#: what ExplainaBoard b8c1dad7 gave for the elmo output (custom dataset, no training set), from a run of its
#: NERProcessor: feature -> [(bucket, n cases, F1)]; the bucket is a name or a closed interval [lo, hi]
RECORDED_ELMO: dict[str, list[tuple[Any, int, float]]] = {
    "span_true_label": [("LOC", 1668, 0.945477), ("MISC", 702, 0.857357), ("O", 250, 0.0),
                        ("ORG", 1661, 0.94034), ("PER", 1617, 0.97879)],
    "span_length": [((1, 1), 3679, 0.927989), ((2, 2), 1873, 0.923421), ((3, 3), 267, 0.848233),
                    ((4, 6), 79, 0.846715)],
    "text_length": [((1, 5), 874, 0.916816), ((6, 9), 1063, 0.935346), ((10, 22), 794, 0.907112),
                    ((23, 124), 722, 0.925207)],
    "span_density": [((0.0, 0.05555555555555555), 868, 0.831296),
                     ((0.05714285714285714, 0.16666666666666666), 877, 0.920132),
                     ((0.1702127659574468, 0.4), 879, 0.913674), ((0.41025641025641024, 1.0), 829, 0.946217)],
}

#: run inside ExplainaBoard's Python: its NERProcessor on the two files, the buckets printed as JSON
PEER = r"""
import json, sys
from explainaboard import FileType, get_processor_class, Source, TaskType
from explainaboard.analysis.analyses import BucketAnalysisDetails
from explainaboard.loaders.loader_factory import get_loader_class
from explainaboard.metrics.metric import Score
dataset, output = sys.argv[1:3]
loader = get_loader_class(TaskType.named_entity_recognition)(
    dataset, output, Source.local_filesystem, Source.local_filesystem, FileType.conll, FileType.conll)
data = loader.load().samples
info = get_processor_class(TaskType.named_entity_recognition)().process(
    {"task_name": "named-entity-recognition", "metric_names": ["F1Score"]}, data, skip_failed_analyses=True)
out = {"overall": {lev: r["F1"].get_value(Score, "score").value for lev, r in info.results.overall.items()}}
for a in info.results.analyses:
    if a is not None and isinstance(a.details, BucketAnalysisDetails):
        out[a.name] = [(b.bucket_interval or b.bucket_name, b.n_samples,
                        b.results["F1"].get_value(Score, "score").value) for b in a.details.bucket_performances]
print("@@" + json.dumps(out))
"""


def run_peer(python: str, checkout: Path, dataset: Path, output: Path) -> dict[str, Any]:
    env = dict(os.environ, PYTHONPATH=str(checkout), TQDM_DISABLE="1")
    done = subprocess.run([python, "-c", PEER, str(dataset), str(output)], capture_output=True, text=True,
                          env=env, cwd=checkout, timeout=1200)
    line = next((x for x in done.stdout.splitlines() if x.startswith("@@")), None)
    if done.returncode or line is None:
        raise RuntimeError(f"ExplainaBoard failed ({done.returncode}): {done.stderr[-2000:]}")
    got = json.loads(line[2:])
    return {k: [(tuple(b) if isinstance(b, list) else b, n, f) for b, n, f in v] if k != "overall" else v
            for k, v in got.items()}


def expected_from_test(checkout: Path) -> str:
    """The bucket ``integration_tests/ner_test.py`` asserts, as one line (read from the file)."""
    path = checkout / "integration_tests" / "ner_test.py"
    if not path.is_file():
        return "integration_tests/ner_test.py not found"
    text = path.read_text()
    lo, hi = re.findall(r"second_bucket_interval\[\d\],\s*([0-9.]+)", text)[:2] or ("?", "?")
    n = re.search(r"second_bucket\.n_samples,\s*(\d+)", text)
    f1 = re.search(r"get_value\(Score, \"score\"\)\)\.value,\s*([0-9.]+)", text)
    return (f"span_econ (training set from DataLab), bucket 2 of 3: [{lo}, {hi}], "
            f"{n.group(1) if n else '?'} spans, F1 {f1.group(1) if f1 else '?'}")


def sides(ev: Any) -> list[dict[str, np.ndarray]]:
    """Per side (key, response): each annotation's document, start, end, label id and strict hit."""
    from spacy_anno_eval.spans.align import CORRECT

    al = ev.require_pairs("the comparison")
    out = []
    for table, rows in ((al.key, al.key_row), (al.response, al.response_row)):
        has = rows >= 0
        r = rows[has]
        out.append({"doc": al.doc[has], "start": table.start[r], "end": table.end[r], "label": table.label[r],
                    "hit": al.status[has] == CORRECT})
    return out


def f1(side_in: list[np.ndarray], both: list[dict[str, np.ndarray]]) -> tuple[float, int, int]:
    """Strict F1 of the annotations selected by ``side_in`` (a mask per side); key and response counts."""
    key, resp = both
    nk, nr = int(side_in[0].sum()), int(side_in[1].sum())
    hk, hr = int((key["hit"] & side_in[0]).sum()), int((resp["hit"] & side_in[1]).sum())
    r = hk / nk if nk else 0.0
    p = hr / nr if nr else 0.0
    return (2 * p * r / (p + r) if p + r else 0.0), nk, nr


def conll_span_tokens(corpus: Any, side: dict[str, np.ndarray]) -> np.ndarray:
    """CoNLL tokens of each annotation (the file's tokens it covers)."""
    tok = corpus.tokens
    first = np.asarray(tok.doc_first)
    starts = np.asarray(tok.start)
    out = np.empty(len(side["doc"]), dtype=np.int64)
    for i, (d, s, e) in enumerate(zip(side["doc"].tolist(), side["start"].tolist(), side["end"].tolist(),
                                      strict=True)):
        doc_starts = starts[first[d]:first[d + 1]]
        out[i] = np.searchsorted(doc_starts, e, "left") - np.searchsorted(doc_starts, s, "left")
    return out


def eb_rule(feature: str, bucket: Any, key_corpus: Any, both: list[dict[str, np.ndarray]], names: list[str],
            cache: dict[str, Any]) -> float | None:
    """Strict F1 of one of ExplainaBoard's buckets, from our pairs, by its definition of the feature
    (``names``: the evaluation's labels, which the label ids of ``both`` index)."""
    key, resp = both
    if feature == "span_length":
        lens = cache.setdefault("span_tokens", [conll_span_tokens(key_corpus, s) for s in both])
        return f1([(x >= bucket[0]) & (x <= bucket[1]) for x in lens], both)[0]
    if feature in ("text_length", "span_density"):
        tok = key_corpus.tokens
        n_tok = np.diff(np.asarray(tok.doc_first))
        if feature == "text_length":
            value = n_tok.astype(float)
        else:  # entity tokens (gold tag not O) per token of the sentence
            ent_tok = np.bincount(key["doc"], weights=cache.setdefault(
                "key_tokens", conll_span_tokens(key_corpus, key)), minlength=len(n_tok))
            value = ent_tok / n_tok
        inside = (value >= bucket[0] - 1e-12) & (value <= bucket[1] + 1e-12)
        return f1([inside[s["doc"]] for s in both], both)[0]
    if feature == "span_true_label":
        # a case is a span position; its bucket the gold label there (O where the key has no span there)
        gold = {(d, s, e): lab for d, s, e, lab in zip(key["doc"].tolist(), key["start"].tolist(),
                                                          key["end"].tolist(), key["label"].tolist(), strict=True)}
        where = [gold.get(k, -1) for k in zip(resp["doc"].tolist(), resp["start"].tolist(), resp["end"].tolist(),
                                                strict=True)]
        want = -1 if bucket == "O" else names.index(bucket) if bucket in names else -2
        return f1([key["label"] == want, np.array(where) == want], both)[0]
    return None


def ours_table(ev: Any) -> dict[str, dict[str, Any]]:
    return {b.feature: b.figures() for b in ev.buckets()}


#: ExplainaBoard feature -> our feature (None: no counterpart)
MATCH = {"span_true_label": "label", "span_length": "span_length", "text_length": "doc_length",
         "span_density": "density", "span_capitalness": None, "span_rel_pos": None, "span_chars": None}


def ours_for(feature: str, bucket: Any, ours: dict[str, dict[str, Any]]) -> tuple[str, float | None, str]:
    """Our bucket that corresponds to ExplainaBoard's (same name, or same interval), its strict F and counts."""
    mine = MATCH.get(feature)
    if mine is None or mine not in ours:
        return "-", None, ""
    table = ours[mine]
    if isinstance(bucket, str):
        name = bucket if bucket in table else None
    elif mine == "span_length":
        lo = int(bucket[0])
        name = str(lo) if lo < 4 else "4+"
    else:
        name = None
        for candidate in table:  # our names are "lo–hi" or "v"
            lo, _, hi = candidate.partition("–")
            if abs(float(lo) - bucket[0]) < 5e-4 and abs(float(hi or lo) - bucket[1]) < 5e-4:
                name = candidate
    if name is None:
        return "(no such bucket)", None, ""
    entry = table[name]
    return name, entry["strict"]["f"], f"{entry['key']}/{entry['response']}"


def agree(a: float | None, b: float | None) -> str:
    """To how many decimals two figures agree (rounded alike), or how far apart they are."""
    if a is None or b is None:
        return ""
    for places in range(6, 3, -1):
        if round(a, places) == round(b, places):
            return f"= to {places} dp"
    return f"differs by {b - a:+.4f}"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--explainaboard", type=Path, required=True, help="a checkout of neulab/ExplainaBoard")
    ap.add_argument("--system", choices=("elmo", "flair"), default="elmo", help="which system output (default elmo)")
    ap.add_argument("--peer-python", help="a Python that imports ExplainaBoard's dependencies: run it (else the "
                                          "buckets recorded from a run on the elmo output are shown)")
    args = ap.parse_args(argv)

    from spacy_anno_eval.io import read_corpus
    from spacy_anno_eval.spans.engine import evaluate

    dataset = args.explainaboard / DATA / "conll2003-dataset.conll"
    output = args.explainaboard / DATA / f"conll2003-{args.system}-output.conll"
    for path in (dataset, output):
        if not path.is_file():
            print(f"not found: {path}", file=sys.stderr)
            return 2
    key = read_corpus(dataset, format="conll")
    response = read_corpus(output, format="conll")
    ev = evaluate(key, response)
    micro = ev.report(per_doc=False)["micro"]["strict"]
    print(f"{args.system}: {len(key)} sentences (documents), {len(key.sets['ents'])} key and "
          f"{len(response.sets['ents'])} response entities; our strict micro F {micro['f']:.6f}")

    if args.peer_python:
        eb = run_peer(args.peer_python, args.explainaboard.resolve(), dataset.resolve(), output.resolve())
        span_f = eb["overall"].get("span")
        print(f"ExplainaBoard (run now): span-level F1 {span_f:.6f} ({agree(span_f, micro['f']) or 'n/a'} with "
              f"our strict micro F), example-level {eb['overall'].get('example', float('nan')):.6f}")
    elif args.system == "elmo":
        eb = RECORDED_ELMO
        print("ExplainaBoard: recorded buckets (b8c1dad7, elmo); give --peer-python to run it")
    else:
        print("no recorded ExplainaBoard buckets for flair: give --peer-python", file=sys.stderr)
        return 2
    print(f"ner_test.py asserts: {expected_from_test(args.explainaboard)} (not recomputed: no training set)")

    ours = ours_table(ev)
    both = sides(ev)
    cache: dict[str, Any] = {}
    header = (f"{'feature':17s} {'EB bucket':>24s} {'EB n':>6s} {'EB F1':>9s} | {'our bucket':>13s} "
              f"{'key/resp':>10s} {'our F':>9s} {'':14s} | {'ours, EB rule':>13s} {'':12s}")
    print("\n" + header)
    print("-" * len(header))
    for feature in ("span_true_label", "span_length", "text_length", "span_density"):
        for bucket, n, f_eb in eb.get(feature, []):
            name, f_ours, counts = ours_for(feature, bucket, ours)
            f_rule = eb_rule(feature, bucket, key, both, list(ev.labels), cache)
            if isinstance(bucket, str):
                shown = bucket
            elif feature == "span_density":
                shown = f"[{bucket[0]:.3f}, {bucket[1]:.3f}]"
            else:
                shown = f"[{bucket[0]:g}, {bucket[1]:g}]"
            print(f"{feature:17s} {shown:>24s} {n:6d} {f_eb:9.6f} | {name:>13s} {counts:>10s} "
                  f"{'' if f_ours is None else f'{f_ours:9.6f}':>9s} {agree(f_eb, f_ours):14s} | "
                  f"{'' if f_rule is None else f'{f_rule:13.6f}':>13s} {agree(f_eb, f_rule):12s}")
    print("\nOur buckets with no ExplainaBoard bucket of the same edges:")
    for feature in ("doc_length", "density"):
        print(f"  {feature}: " + "; ".join(f"{name} ({e['key']}/{e['response']}) F {e['strict']['f']:.6f}"
                                           for name, e in ours[feature].items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
