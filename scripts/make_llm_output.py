"""Write an imaginary language model's output for the demo corpus, as strings, in two formats.

The model was "asked" for the PER, ORG, LOC and MISC entities of each of the 16 test documents of
``assets/demo/key.jsonl`` and "answered" with strings, no offsets. Nothing was run and nothing is downloaded:
this script makes the answer from the gold, with the mistakes such a model makes:

- most gold names given as written, listed in text order;
- the planned mistakes below (``PLAN``): labels confused, a name cut short, a typographic hyphen (found at the
  ``normalized`` step of the grounding), strings that are in the text but are no gold entity, names listed
  twice (the text names each once), and exactly two **hallucinations**: names that are in no document
  (Ada Lovelace's father, a capital on the Mekong);
- chosen by a seeded random generator (``--seed``, default :data:`SEED`) among the other gold names: a few
  missed, a few with their case changed (found at the ``casefold`` step) and a few with a one-character typo
  (found only at the ``fuzzy`` step; every chosen name has at least 6 characters, so one edit keeps the
  similarity ``1 - 1/len`` above the default threshold 0.8).

Two files, the same extractions in both:

- ``assets/llm/demo_llm.jsonl`` (``--format llm-ner``): spacy-llm's NER v2 response per document,
  ``{"id": "d01", "response": "PER: Ada Lovelace, ...\\nORG:\\nLOC: London\\nMISC: ..."}``, one line per label in
  the task's order (PER, ORG, LOC, MISC), the label's strings in the order of the model's list;
- ``assets/llm/demo_llm_entities.jsonl`` (``--format llm-json``): ``{"id": "d01", "entities": [{"label",
  "text"}, ...]}``, the model's list in its order.

Run ``python scripts/make_llm_output.py`` to rebuild the files (``--out DIR`` writes elsewhere, atomically); the
project ships its output, and ``python -m spacy project run llm-report`` scores it. The files are in the licence
of the demo corpus (CC0 1.0).
"""

from __future__ import annotations

import argparse
import json
import random
from dataclasses import dataclass
from pathlib import Path

from spacy_anno_eval.files import write_text

ROOT = Path(__file__).resolve().parents[1]
KEY = ROOT / "assets" / "demo" / "key.jsonl"
OUT_DIR = ROOT / "assets" / "llm"
NER_FILE, JSON_FILE = "demo_llm.jsonl", "demo_llm_entities.jsonl"
SEED = 0
LABELS = ("PER", "ORG", "LOC", "MISC")  # the task's labels, in the order of spacy-llm's prompt
N_MISSED, N_RECASED, N_TYPOS = 3, 3, 3
TYPO_MIN_LENGTH = 6

# The planned mistakes, by document. A gold name (by its text) may be relabelled or rewritten; other strings
# are added: "spurious" (in the text, no gold entity; placed where the text has them), "repeat" (a name listed
# again, at the end of the list), "hallucination" (in no text; placed after the name given as "after").
PLAN: dict[str, dict] = {
    "d01": {"hallucination": [("Lord Byron", "PER", "Ada Lovelace")]},
    "d04": {"relabel": {"Nigeria": "LOC", "Ghana": "LOC"}},  # the teams read as the countries
    "d05": {"rewrite": {"Nobel Prize in Chemistry": "Nobel Prize"}, "spurious": [("1911", "MISC")]},
    "d07": {"relabel": {"Bletchley Park": "ORG"}},
    "d10": {"repeat": [("Vienna", "LOC")]},
    "d11": {"rewrite": {"Tim Berners-Lee": "Tim Berners\u2010Lee"},  # U+2010 HYPHEN, as typeset text has it
            "repeat": [("CERN", "LOC")]},  # CERN given as ORG, then again as a place
    "d13": {"spurious": [("frequency-hopping system", "MISC")]},
    "d14": {"spurious": [("cup final", "MISC")]},
    "d15": {"hallucination": [("Phnom Penh", "LOC", "Vientiane")]},
}

# one-character typos: a neighbouring key on a QWERTY keyboard
_ROWS = ("qwertyuiop", "asdfghjkl", "zxcvbnm")
NEIGHBOURS = {c: "".join(row[j] for j in (i - 1, i + 1) if 0 <= j < len(row)) for row in _ROWS
              for i, c in enumerate(row)}


@dataclass
class Item:
    """One extraction of the model's list: ``at`` orders the list (a character offset of the text)."""

    at: float
    label: str
    text: str


def read_key(path: Path = KEY) -> list[tuple[str, str, list[tuple[str, str, int]]]]:
    """``(id, text, [(name, label, start)])`` of every key document, in file order."""
    docs = []
    for line in path.read_text(encoding="utf8").splitlines():
        if line.strip():
            record = json.loads(line)
            text = record["text"]
            spans = [(text[s["start"]:s["end"]], s["label"], s["start"]) for s in record["spans"]]
            docs.append((record["meta"]["id"], text, spans))
    return docs


def recase(name: str, rng: random.Random) -> str:
    """``name`` with its case changed as models change it: all lower, all upper, each word capitalised, or only
    the first word's first letter capitalised."""
    sentence = name[:1].upper() + name[1:].lower()
    variants = [v for v in (name.lower(), name.upper(), name.title(), sentence) if v != name]
    return rng.choice(sorted(set(variants)))


def typo(name: str, rng: random.Random) -> str:
    """``name`` with one character changed (a letter dropped, doubled, or struck with its keyboard neighbour),
    never a word's first letter."""
    places = [i for i, c in enumerate(name) if c.isalpha() and i > 0 and name[i - 1].isalpha()]
    i = rng.choice(places)
    kind = rng.choice(("drop", "double", "neighbour"))
    if kind == "drop":
        return name[:i] + name[i + 1:]
    if kind == "double":
        return name[:i] + name[i] + name[i:]
    c = name[i].lower()
    struck = rng.choice(NEIGHBOURS[c]) if c in NEIGHBOURS else "e"
    return name[:i] + (struck.upper() if name[i].isupper() else struck) + name[i + 1:]


def model_output(docs: list[tuple[str, str, list[tuple[str, str, int]]]],
                 seed: int = SEED) -> dict[str, list[Item]]:
    """The model's list of extractions per document (document order kept)."""
    rng = random.Random(seed)
    planned = {(d, name) for d, plan in PLAN.items() for part in ("relabel", "rewrite") for name in plan.get(part, {})}
    planned |= {(d, name) for d, plan in PLAN.items() for name, _ in plan.get("repeat", [])}  # kept as written
    free = [(d, name) for d, _, spans in docs for name, _, _ in spans if (d, name) not in planned]
    missed = set(rng.sample(free, N_MISSED))
    free = [x for x in free if x not in missed]
    recased = set(rng.sample(free, N_RECASED))
    free = [x for x in free if x not in recased and len(x[1]) >= TYPO_MIN_LENGTH]
    typos = set(rng.sample(free, N_TYPOS))
    out: dict[str, list[Item]] = {}
    for d, text, spans in docs:
        plan = PLAN.get(d, {})
        items = []
        for name, label, start in spans:
            if (d, name) in missed:
                continue
            written = plan.get("rewrite", {}).get(name, name)
            if (d, name) in recased:
                written = recase(name, rng)
            elif (d, name) in typos:
                written = typo(name, rng)
            items.append(Item(start, plan.get("relabel", {}).get(name, label), written))
        items += [Item(text.index(s), label, s) for s, label in plan.get("spurious", [])]
        items += [Item(text.index(after) + 0.5, label, s) for s, label, after in plan.get("hallucination", [])]
        items += [Item(len(text) + k, label, s) for k, (s, label) in enumerate(plan.get("repeat", []))]
        out[d] = sorted(items, key=lambda item: item.at)
    return out


def ner_response(items: list[Item]) -> str:
    """spacy-llm's NER v2 answer: ``LABEL: a, b`` per label of the task, in the prompt's order."""
    lines = []
    for label in LABELS:
        lines.append(f"{label}: {', '.join(i.text for i in items if i.label == label)}".rstrip())
    return "\n".join(lines)


def jsonl(records: list[dict]) -> str:
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records)


def main(out_dir: Path = OUT_DIR, seed: int = SEED, key: Path = KEY) -> None:
    output = model_output(read_key(key), seed)
    for items in output.values():
        assert all("," not in i.text for i in items), "a string with a comma cannot go in spacy-llm's v2 answer"
    ner = [{"id": d, "response": ner_response(items)} for d, items in output.items()]
    entities = [{"id": d, "entities": [{"label": i.label, "text": i.text} for i in items]}
                for d, items in output.items()]
    write_text(out_dir / NER_FILE, jsonl(ner))  # atomically, as the project's other scripts write
    write_text(out_dir / JSON_FILE, jsonl(entities))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=OUT_DIR, help="the folder to write both files to")
    parser.add_argument("--seed", type=int, default=SEED, help="the seed of the misses, case changes and typos")
    args = parser.parse_args()
    main(args.out, args.seed)
