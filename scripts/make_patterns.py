"""Write entity-ruler patterns from the gold entities of a training DocBin.

Every distinct surface form in ``doc.ents`` becomes one phrase pattern
(``{"label": ..., "pattern": ...}``, spaCy's EntityRuler format). A name
annotated with more than one label gets its most frequent label (ties: the
label seen first), so the rule-based model, like a gazetteer, cannot tell a
team from its country. Forms shorter than ``--min-length`` characters are
left out. Output is sorted, so the file is the same on every run, and written
atomically: a JSON list for a ``.json`` file (what ``configs/rules.cfg`` reads
with ``srsly.read_json.v1``: the entity ruler's ``initialize`` wants a list,
and ``srsly.read_jsonl.v1`` gives a generator), else one pattern per line.

::

    python scripts/make_patterns.py corpus/demo/train.spacy corpus/demo/patterns.json
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter, defaultdict
from pathlib import Path

import spacy
from spacy.tokens import DocBin

from spacy_anno_eval.files import write_bytes


def collect(path: Path, lang: str = "en") -> dict[str, Counter]:
    """Surface form -> Counter of its gold labels, in order of first occurrence."""
    nlp = spacy.blank(lang)
    forms: dict[str, Counter] = defaultdict(Counter)
    for doc in DocBin().from_disk(path).get_docs(nlp.vocab):
        for ent in doc.ents:
            forms[ent.text][ent.label_] += 1
    return forms


def patterns(forms: dict[str, Counter], min_length: int = 2) -> list[dict[str, str]]:
    """One pattern per form: its most frequent label (Counter keeps first-seen order for ties)."""
    out = [{"label": labels.most_common(1)[0][0], "pattern": form}
           for form, labels in forms.items() if len(form) >= min_length]
    return sorted(out, key=lambda p: (p["label"], p["pattern"]))


def write_patterns(rows: list[dict], path: Path) -> None:
    """A JSON list (``.json``) or JSON lines (any other suffix), written atomically."""
    if path.suffix == ".json":
        text = "[\n" + ",\n".join(json.dumps(row, ensure_ascii=False) for row in rows) + "\n]\n"
    else:
        text = "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows)
    write_atomic(text.encode("utf8"), path)


def write_atomic(data: bytes, path: Path) -> None:
    """Write ``data`` to ``path`` atomically (:func:`spacy_anno_eval.files.write_bytes`)."""
    write_bytes(path, data)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("input", type=Path, help="training DocBin (.spacy) with gold doc.ents")
    parser.add_argument("output", type=Path, help="patterns file to write (.json or .jsonl)")
    parser.add_argument("--min-length", type=int, default=2, help="leave out shorter forms (default 2 characters)")
    parser.add_argument("--lang", default="en", help="language of the blank vocab (default en)")
    args = parser.parse_args(argv)
    forms = collect(args.input, args.lang)
    rows = patterns(forms, args.min_length)
    write_patterns(rows, args.output)
    print(f"{args.input}: {len(rows)} patterns ({len(forms)} surface forms) -> {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
