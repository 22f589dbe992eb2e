"""Lay out a benchmark folder (GATE user guide 10.4.1) from a gold JSONL file.

``clean/texts.jsonl`` gets each document's text and id without its spans;
``marked/gold.jsonl`` the gold as it is; ``processed/`` is created empty (the
baselines go there). Files are written atomically.

::

    python scripts/make_benchmark_dir.py assets/demo/key.jsonl corpus/benchmark
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from spacy_anno_eval.files import write_text
from spacy_anno_eval.io.jsonl import json_lines


def make_benchmark_dir(gold: Path, root: Path) -> int:
    """Write ``root/{clean,marked,processed}`` from ``gold``; return the number of documents."""
    clean, gold_lines = [], []
    for _, record in json_lines(gold):
        clean.append(json.dumps({"text": record["text"], "meta": record.get("meta", {})}, ensure_ascii=False))
        gold_lines.append(json.dumps(record, ensure_ascii=False))
    write_text(root / "clean" / "texts.jsonl", "\n".join(clean) + "\n")
    write_text(root / "marked" / "gold.jsonl", "\n".join(gold_lines) + "\n")
    (root / "processed").mkdir(parents=True, exist_ok=True)
    return len(clean)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("gold", type=Path, help="gold JSONL (text, spans, meta.id)")
    parser.add_argument("root", type=Path, help="the benchmark folder to write")
    args = parser.parse_args(argv)
    n = make_benchmark_dir(args.gold, args.root)
    print(f"{n} documents -> {args.root}/clean, {args.root}/marked")
    return 0


if __name__ == "__main__":
    sys.exit(main())
