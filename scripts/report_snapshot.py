"""Snapshot the JSON reports of every main command on the demo corpus, and compare two snapshots.

A restructuring must not change a number. This script runs ``score``, ``qa``,
``iaa`` (F-measure and kappa), ``agreement``, ``gamma`` and ``benchmark`` on
inputs built from ``assets/demo/`` (with spaCy and numpy only, so any version
of the package can be snapshotted) and keeps each command's JSON report::

    python scripts/report_snapshot.py run before/                 # with the package on sys.path
    PYTHONPATH=/path/to/old/checkout python scripts/report_snapshot.py run before/
    python scripts/report_snapshot.py run after/
    python scripts/report_snapshot.py compare before/ after/      # exit 1 on a difference

Fields that vary from run to run (times, stored paths, package versions) are
left out of the comparison; everything else must be equal.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEMO = ROOT / "assets" / "demo"
#: keys whose values change from run to run, left out of the comparison
VOLATILE = {"created", "time", "timestamp", "stored_at", "path", "folder", "spacy_version", "version",
            "anno_eval_version", "python", "source", "key_source", "response_source", "duration"}


def _spans(record: dict) -> list[tuple[int, int, str]]:
    return [(s["start"], s["end"], s["label"]) for s in record.get("spans", [])]


def build_inputs(folder: Path) -> None:
    """Write the inputs: a DocBin with three annotators' span groups, a ratings CSV, a benchmark folder."""
    import numpy as np
    import spacy
    from spacy.tokens import DocBin

    key = [json.loads(line) for line in (DEMO / "key.jsonl").read_text(encoding="utf8").splitlines() if line]
    resp = [json.loads(line) for line in (DEMO / "response.jsonl").read_text(encoding="utf8").splitlines() if line]
    nlp = spacy.blank("en")
    db = DocBin(store_user_data=True)
    for k, r in zip(key, resp, strict=True):
        doc = nlp.make_doc(k["text"])
        doc.user_data["doc_id"] = k["meta"]["id"]
        for name, spans in (("a", _spans(k)), ("b", _spans(r)), ("c", _spans(k)[::2] + _spans(r)[1::2])):
            group = [doc.char_span(s, e, label=lab, alignment_mode="expand") for s, e, lab in spans]
            doc.spans[name] = sorted({(g.start, g.end, g.label_): g for g in group if g is not None}.values(),
                                     key=lambda g: (g.start, g.end, g.label_))
        db.add(doc)
    folder.mkdir(parents=True, exist_ok=True)
    db.to_disk(folder / "iaa.spacy")
    rng = np.random.default_rng(7)
    lines = ["a,b,c"]
    for _ in range(120):
        base = int(rng.integers(1, 5))
        cells = [str(base if rng.random() < 0.7 else int(rng.integers(1, 5))) if rng.random() > 0.1 else ""
                 for _ in range(3)]
        lines.append(",".join(cells))
    (folder / "ratings.csv").write_text("\n".join(lines) + "\n", encoding="utf8")
    bench = folder / "bench"
    (bench / "clean").mkdir(parents=True, exist_ok=True)
    (bench / "marked").mkdir(parents=True, exist_ok=True)
    (bench / "processed").mkdir(parents=True, exist_ok=True)
    (bench / "clean" / "texts.jsonl").write_text(
        "".join(json.dumps({"text": k["text"], "meta": k["meta"]}) + "\n" for k in key), encoding="utf8")
    (bench / "marked" / "gold.jsonl").write_text((DEMO / "key.jsonl").read_text(encoding="utf8"), encoding="utf8")


def commands(inputs: Path, out: Path) -> dict[str, list[list[str]]]:
    """Each snapshot name and the anno-eval calls that write ``out/NAME.json`` (the last call writes it)."""
    key, resp, iaa = str(DEMO / "key.jsonl"), str(DEMO / "response.jsonl"), str(inputs / "iaa.spacy")
    bench = str(inputs / "bench")
    return {
        "score": [["score", key, resp, "--quiet", "--json", str(out / "score.json")]],
        "score_gate_beta2": [["score", key, resp, "--quiet", "--pairing", "gate", "--beta", "2",
                              "--json", str(out / "score_gate_beta2.json")]],
        "qa": [["qa", key, resp, "--quiet", "--json", str(out / "qa.json")]],
        "iaa_f": [["iaa", iaa, "--sets", "spans:a;spans:b;spans:c", "--quiet", "--json", str(out / "iaa_f.json")]],
        "iaa_kappa": [["iaa", iaa, "--sets", "spans:a;spans:b;spans:c", "--measure", "kappa", "--types", "*",
                       "--bootstrap", "200", "--quiet", "--json", str(out / "iaa_kappa.json")]],
        "agreement": [["agreement", str(inputs / "ratings.csv"), "--level", "ordinal", "--bootstrap", "200",
                       "--quiet", "--json", str(out / "agreement.json")]],
        "gamma": [["gamma", iaa, "--sets", "spans:a;spans:b;spans:c", "--samples", "30", "--jobs", "1",
                   "--quiet", "--json", str(out / "gamma.json")]],
        "benchmark": [
            ["benchmark", "store", bench, "--predictions", resp, "--name", "sys-a", "--force", "--quiet"],
            ["benchmark", "store", bench, "--predictions", key, "--name", "sys-b", "--force", "--quiet"],
            ["benchmark", "default", bench, "--name", "sys-a", "--against", "sys-b", "--samples", "200",
             "--quiet", "--json", str(out / "benchmark.json")],
        ],
    }


def run(out: Path) -> int:
    """Build the inputs and run every command; return the number of failed commands."""
    inputs = out / "inputs"
    build_inputs(inputs)
    failed = 0
    for name, calls in commands(inputs, out).items():
        for call in calls:
            proc = subprocess.run([sys.executable, "-m", "spacy_anno_eval", *call], capture_output=True, text=True,
                                  env={**os.environ, "PYTHONHASHSEED": "0"})
            if proc.returncode not in (0, 1):
                print(f"{name}: exit {proc.returncode}: {proc.stderr.strip()[-500:]}", file=sys.stderr)
                failed += 1
                break
    return failed


def _strip(value):
    if isinstance(value, dict):
        return {k: _strip(v) for k, v in value.items() if k not in VOLATILE}
    if isinstance(value, list):
        return [_strip(v) for v in value]
    return value


def _first_difference(a, b, where: str = "") -> str | None:
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                return f"{where}/{k}: only in {'after' if k not in a else 'before'}"
            found = _first_difference(a[k], b[k], f"{where}/{k}")
            if found:
                return found
        return None
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return f"{where}: {len(a)} items before, {len(b)} after"
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            found = _first_difference(x, y, f"{where}[{i}]")
            if found:
                return found
        return None
    return None if a == b else f"{where}: {a!r} before, {b!r} after"


def compare(before: Path, after: Path) -> int:
    """Print each snapshot's verdict; return the number that differ."""
    differ = 0
    for path in sorted(before.glob("*.json")):
        other = after / path.name
        if not other.exists():
            print(f"{path.stem}: missing after")
            differ += 1
            continue
        found = _first_difference(_strip(json.loads(path.read_text("utf8"))),
                                  _strip(json.loads(other.read_text("utf8"))))
        print(f"{path.stem}: {'identical' if found is None else 'differs at ' + found}")
        differ += found is not None
    return differ


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="action", required=True)
    sub.add_parser("run").add_argument("out", type=Path)
    cmp_ = sub.add_parser("compare")
    cmp_.add_argument("before", type=Path)
    cmp_.add_argument("after", type=Path)
    args = parser.parse_args(argv)
    if args.action == "run":
        return 1 if run(args.out) else 0
    return 1 if compare(args.before, args.after) else 0


if __name__ == "__main__":
    sys.exit(main())
