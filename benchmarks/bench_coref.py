"""Coreference on a generated CorefUD 1.0 corpus: ``anno-eval coref`` beside the CorefUD scorer, time and values.

The peer is the CorefUD scorer (ufal/corefud-scorer, the official scorer of the CRAC shared tasks), run as its
README says: ``python corefud-scorer.py KEY SYS [-s] -a MATCH``. It is cloned from a local mirror of its
repository (``--peer-repo``, a git directory) into a temporary folder, and run by a Python that has its
``requirements.txt`` installed: a venv made once and cached under ``~/.cache/spacy-anno-eval-bench/``
(``$XDG_CACHE_HOME`` if set; keyed by the hash of ``requirements.txt``, so reruns start at once), or the
Python given as ``--peer-python``.

Data (seeded, written to a temporary folder): ``--docs`` documents of 10-30 sentences of 10-30 words; about
20 % of the words in mentions (1-6 words; about one in ten inside another, mostly with a head of its own;
about 3 % discontinuous ``e5[1/2]`` ... ``e5[2/2]``; every one with its head index); entities of 1-8
mentions (half of them singletons); ``# newdoc id``, ``# global.Entity = eid-etype-head-other``,
``# sent_id``, ``# text``. The response perturbs the key: about
8 % of the mentions dropped, 12 % with a boundary moved by a word (so partial and head matching pair what
exact matching does not), 3 % with another head, 6 % moved to another entity, 4 % of the entities merged
into another and 5 % split, and about 7 % spurious mentions added. Both files keep the mentions well nested
(no two crossing brackets) and never write one word set twice: the CorefUD scorer keeps a mention written in
two entities in the last one, a rule of its own (``shared/data/coreference/README.md``, "Where
implementations disagree"), which this benchmark does not test. No empty nodes (zero mentions).

Timed, each the best of ``--repeat`` runs of a whole process (start-up, reading both files, scoring,
printing), for every matching (``--match``: exact, and head when ``anno-eval coref --help`` offers
``--match``) and singleton setting (``--singletons``: kept, ``-s`` / ``--keep-singletons``; removed, no
``-s`` / ``--no-singletons``):

- peer: ``python corefud-scorer.py key.conllu response.conllu [-s] -a MATCH``;
- ours: ``anno-eval coref key.conllu response.conllu --format corefud [--match MATCH]
  --keep-singletons|--no-singletons --json out.json``.

Values: the peer prints R, P and F of each metric as percentages with two decimals and the CoNLL score;
they are compared with our JSON (tolerance ``--tolerance``, 1e-4, plus the 5e-5 of the printed rounding).
Then (untimed; ``--no-precise`` skips it) one more process runs the peer's own reader and evaluator on the
same files for every setting, in full precision, over the whole corpus and per document, and compares
those too: totals within ``--tolerance``, each document within 1e-9. A difference anywhere is printed
loudly, with the smallest document (fewest mentions) where it appears: its mentions on both sides and the
two one-document files, which are scored again by both tools to confirm; the script then exits 1.

Run::

    python benchmarks/bench_coref.py --docs 100                 # a quick check
    python benchmarks/bench_coref.py                            # --docs 2000 --repeat 1
    python benchmarks/bench_coref.py --peer-python /venv/bin/python --repeat 3 --keep
    python benchmarks/bench_coref.py --match exact --match head --match partial --singletons keep

Exit status: 0 when every value agrees, 1 when one differs, 2 when a tool fails.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

PEER_REPO = Path("/work/.mirror/ufal+corefud-scorer/repo")
METRICS = ("muc", "bcub", "ceafe", "ceafm", "blanc", "lea")
SHOWN = METRICS + ("conll",)
NAMES = {"muc": "MUC", "bcub": "B-cubed", "ceafe": "CEAFe", "ceafm": "CEAFm", "blanc": "BLANC", "lea": "LEA",
         "conll": "CoNLL"}
PRINTED = 5e-5  #: the peer prints percentages with two decimals: fractions rounded to 5e-5
PER_DOC_TOL = 1e-9

WORDS = tuple(
    "the a of and to in is was for on that with by as at from it his her their this an be are were has had "
    "have not but or which one all new said after first two other city river company team year state party "
    "group house north south world member John Mary Paris Berlin Acme Corp United Nations Ada Lovelace London "
    "Google Amazon Thames Rhine Europe Asia Smith Jones Apple Microsoft Tokyo Cairo Nile Alps".split()
)
ETYPES = ("person", "organization", "place", "object", "event", "abstract")
LENGTHS, LENGTH_WEIGHTS = (1, 2, 3, 4, 5, 6), (45, 22, 14, 9, 6, 4)
SIZES, SIZE_WEIGHTS = (1, 2, 3, 4, 5, 6, 7, 8), (50, 16, 10, 7, 6, 4, 4, 3)
DISCONTINUOUS = 0.15  #: of the mentions of 4+ words: a gap of 1-2 words inside (about 3 % of all)
SHARED_HEAD = 0.1     #: a mention around another may take its head (else a head of its own where it can)

#: run by the peer's Python in its clone: its own reader and evaluator on the files, every setting, in full
#: precision, the whole corpus and each document; the files are read once (udapi) for all the settings
PEER_PRECISE = r"""
import contextlib, importlib, io, json, sys
sys.path.insert(0, ".")
cu = importlib.import_module("corefud-scorer")
ua = importlib.import_module("ua-scorer")
from scorer.corefud.reader import CorefUDReader
from scorer.eval import evaluator
key, response, out = sys.argv[1:4]
settings = json.loads(sys.argv[4])
loaded, load = {}, CorefUDReader.load_conllu
def load_once(self, path):
    if path not in loaded:
        loaded[path] = load(self, path)
    return loaded[path]
CorefUDReader.load_conllu = load_once
results = {}
for match, keep in settings:
    args = cu.corefud_to_ua_args({"key_file": key, "sys_file": response, "keep_singletons": keep, "match": match,
                                  "exact_match": False, "zero_match_method": "dependent",
                                  "metrics": ["muc", "bcub", "ceafe", "ceafm", "blanc", "lea"]})
    with contextlib.redirect_stdout(io.StringIO()):
        ua.process_arguments(args)
    reader = CorefUDReader(**args)
    reader.get_coref_infos(key, response)
    infos = reader.doc_coref_infos
    total, per_doc = {}, {str(d): {} for d in infos}
    for name, metric in args["metrics"]:
        total[name] = evaluator.evaluate_documents(infos, metric, beta=1)
        for d in infos:
            per_doc[str(d)][name] = evaluator.evaluate_documents({d: infos[d]}, metric, beta=1)
    results[f"{match}/{keep}"] = {"total": total, "per_doc": per_doc}
with open(out, "w") as f:
    json.dump(results, f)
"""


# ---------------------------------------------------------------------------------------------------- the data

Mention = tuple[int, tuple[int, ...], int]  #: (sentence, its words' 0-based positions in it, sorted; head word)


@dataclass
class Doc:
    name: str
    sentences: list[list[str]]
    entities: dict[str, tuple[str, list[Mention]]] = field(default_factory=dict)  #: eid -> (etype, mentions)

    def n_mentions(self) -> int:
        return sum(len(ms) for _, ms in self.entities.values())


def runs(words: tuple[int, ...]) -> list[tuple[int, int]]:
    """The contiguous parts ``(first, last)`` of a sorted word tuple."""
    out: list[tuple[int, int]] = []
    for w in words:
        if out and out[-1][1] == w - 1:
            out[-1] = (out[-1][0], w)
        else:
            out.append((w, w))
    return out


def fits(placed: list[tuple[int, int]], parts: list[tuple[int, int]]) -> bool:
    """Whether every part is disjoint from or strictly nested with every interval already placed."""
    for a, b in parts:
        for c, d in placed:
            if b < c or d < a:
                continue
            if (a, b) == (c, d) or not ((a <= c and d <= b) or (c <= a and b <= d)):
                return False
    return True


def envelope_free(taken: list[tuple[int, int]], words: tuple[int, ...]) -> bool:
    """Whether the mention's first-to-last stretch overlaps none of an entity's other mentions in the sentence."""
    a, b = words[0], words[-1]
    return all(b < c or d < a for c, d in taken)


def make_key(rng: random.Random, d: int) -> Doc:
    """One key document (see the module)."""
    name = f"doc{d:05d}"
    sentences = [[rng.choice(WORDS) for _ in range(rng.randint(10, 30))] for _ in range(rng.randint(10, 30))]
    n_words = sum(map(len, sentences))
    placed: list[list[tuple[int, int]]] = [[] for _ in sentences]
    spans: list[tuple[int, tuple[int, ...]]] = []
    covered = tries = 0
    while covered < 0.2 * n_words and tries < 20 * n_words:
        tries += 1
        s = rng.randrange(len(sentences))
        n = len(sentences[s])
        length = rng.choices(LENGTHS, LENGTH_WEIGHTS)[0]
        if length > n:
            continue
        a = rng.randrange(n - length + 1)
        b = a + length - 1
        words = tuple(range(a, b + 1))
        if length >= 4 and rng.random() < DISCONTINUOUS:
            g = rng.randint(a + 1, b - 1)
            gap = rng.randint(1, min(2, b - g))
            words = tuple(w for w in words if not g <= w < g + gap)
        parts = runs(words)
        if not fits(placed[s], parts):
            continue
        placed[s].extend(parts)
        spans.append((s, words))
        covered += len(words)
    # heads, inner mentions first: a mention around others takes a word that is not their head, mostly
    heads: dict[tuple[int, tuple[int, ...]], int] = {}
    for s, words in sorted(spans, key=lambda m: len(m[1])):
        inner = {h for (t, ws), h in heads.items() if t == s and set(ws) < set(words)}
        free = [w for w in words if w not in inner]
        pool = free if free and rng.random() >= SHARED_HEAD else list(words)
        heads[(s, words)] = pool[-1] if rng.random() < 0.6 else rng.choice(pool)
    mentions: list[Mention] = [(s, words, heads[(s, words)]) for s, words in spans]
    rng.shuffle(mentions)
    doc = Doc(name, sentences)
    groups: list[list[Mention]] = []
    i = 0
    while i < len(mentions):
        size = rng.choices(SIZES, SIZE_WEIGHTS)[0]
        groups.append(mentions[i:i + size])
        i += size
    for group in list(groups):  # an entity's mentions never overlap (unambiguous brackets): else one moves out
        taken: dict[int, list[tuple[int, int]]] = {}
        for m in list(group):
            if envelope_free(taken.setdefault(m[0], []), m[1]):
                taken[m[0]].append((m[1][0], m[1][-1]))
            else:
                group.remove(m)
                groups.append([m])
    for k, group in enumerate(groups):
        doc.entities[f"d{d}e{k + 1}"] = (rng.choice(ETYPES), sorted(group))
    return doc


def reshape(rng: random.Random, n: int, words: tuple[int, ...], head: int) -> tuple[tuple[int, ...], int]:
    """A word more or less at one end (a boundary error); the head kept if still inside, else the nearest word."""
    a, b = words[0], words[-1]
    op = rng.randrange(4)
    if op == 0 and a > 0:
        words = (a - 1,) + words
    elif op == 1 and b < n - 1:
        words = words + (b + 1,)
    elif op == 2 and len(words) > 1:
        words = words[1:]
    elif op == 3 and len(words) > 1:
        words = words[:-1]
    if head not in words:
        head = min(words, key=lambda w: (abs(w - head), w))
    return words, head


def perturb(rng: random.Random, key: Doc, d: int) -> Doc:
    """The response of one document: the key with errors (see the module)."""
    eids = list(key.entities)
    owner: dict[str, str] = {e: e for e in eids}
    for e in eids:  # merged into another entity
        if len(eids) > 1 and rng.random() < 0.04:
            owner[e] = rng.choice([x for x in eids if x != e])
    new = 0

    def fresh() -> str:
        nonlocal new
        new += 1
        return f"d{d}r{new}"

    # (eid, sentence, words, head, fallback words and head or None), key mentions first, then spurious ones
    candidates: list[tuple[str, int, tuple[int, ...], int, tuple[tuple[int, ...], int] | None]] = []
    for e in eids:
        _, mentions = key.entities[e]
        split = fresh() if len(mentions) > 1 and rng.random() < 0.05 else None
        for s, words, head in mentions:
            target = owner[e]
            if split is not None and rng.random() < 0.5:
                target = split
            u = rng.random()
            if u < 0.08:
                continue  # missed
            original = (words, head)
            if u < 0.20:
                words, head = reshape(rng, len(key.sentences[s]), words, head)
            elif u < 0.23 and len(words) > 1:
                head = rng.choice([w for w in words if w != head])
            if rng.random() < 0.06 and len(eids) > 1:
                target = owner[rng.choice(eids)]
            candidates.append((target, s, words, head, original if (words, head) != original else None))
    targets = sorted({c[0] for c in candidates})
    last_new: str | None = None
    for _ in range(round(0.07 * key.n_mentions())):
        s = rng.randrange(len(key.sentences))
        n = len(key.sentences[s])
        length = min(n, rng.choices(LENGTHS, LENGTH_WEIGHTS)[0])
        a = rng.randrange(n - length + 1)
        words = tuple(range(a, a + length))
        u = rng.random()
        if u < 0.5 and targets:
            target = rng.choice(targets)
        elif u < 0.65 and last_new is not None:
            target = last_new
        else:
            target = last_new = fresh()
        candidates.append((target, s, words, words[-1], None))
    response = Doc(key.name, key.sentences)
    placed: list[list[tuple[int, int]]] = [[] for _ in key.sentences]
    taken: dict[tuple[str, int], list[tuple[int, int]]] = {}
    for target, s, words, head, fallback in candidates:
        for ws, h in [(words, head)] + ([fallback] if fallback else []):
            parts = runs(ws)
            lane = taken.setdefault((target, s), [])
            if fits(placed[s], parts) and envelope_free(lane, ws):
                placed[s].extend(parts)
                lane.append((ws[0], ws[-1]))
                etype = key.entities[target][0] if target in key.entities else rng.choice(ETYPES)
                response.entities.setdefault(target, (etype, []))[1].append((s, ws, h))
                break
    for _, mentions in response.entities.values():
        mentions.sort()
    return response


def make_corpus(n_docs: int, seed: int) -> tuple[list[Doc], list[Doc]]:
    rng = random.Random(seed)
    keys = [make_key(rng, d) for d in range(n_docs)]
    return keys, [perturb(rng, k, d) for d, k in enumerate(keys)]


def entity_column(doc: Doc) -> list[list[str]]:
    """The ``Entity=`` value of every word of every sentence ('' for none)."""
    opens = [[[] for _ in sent] for sent in doc.sentences]   # (-length, text)
    singles = [[[] for _ in sent] for sent in doc.sentences]
    closes = [[[] for _ in sent] for sent in doc.sentences]  # (-start, text)
    for eid, (etype, mentions) in doc.entities.items():
        for s, words, head in mentions:
            parts = runs(words)
            h = words.index(head) + 1
            for k, (a, b) in enumerate(parts, 1):
                label = eid if len(parts) == 1 else f"{eid}[{k}/{len(parts)}]"
                if a == b:
                    singles[s][a].append(f"({label}-{etype}-{h})")
                else:
                    opens[s][a].append((a - b, f"({label}-{etype}-{h}"))
                    closes[s][b].append((-a, f"{label})"))
    return [["".join(t for _, t in sorted(o)) + "".join(sg) + "".join(t for _, t in sorted(c))
             for o, sg, c in zip(os_, ss, cs, strict=True)]
            for os_, ss, cs in zip(opens, singles, closes, strict=True)]


def write_conllu(docs: list[Doc], path: Path) -> None:
    """CorefUD 1.0 CoNLL-U: a chain of ``dep`` relations under word 1, the mentions in MISC."""
    out: list[str] = []
    for i, doc in enumerate(docs):
        out.append(f"# newdoc id = {doc.name}\n")
        if i == 0:
            out.append("# global.Entity = eid-etype-head-other\n")
        for s, (sent, ents) in enumerate(zip(doc.sentences, entity_column(doc), strict=True)):
            out.append(f"# sent_id = {doc.name}-{s + 1}\n# text = {' '.join(sent)}\n")
            for w, (form, ent) in enumerate(zip(sent, ents, strict=True)):
                misc = f"Entity={ent}" if ent else "_"
                out.append(f"{w + 1}\t{form}\t{form.lower()}\tX\t_\t_\t{w}\t{'dep' if w else 'root'}\t_\t{misc}\n")
            out.append("\n")
    path.write_text("".join(out), encoding="utf-8")


def describe(doc: Doc) -> list[str]:
    """One line per entity: its mentions as ``sentence:first-last`` (1-based word ids, ``,`` between the parts
    of a discontinuous one) with the head's id and the words."""
    lines = []
    for eid, (etype, mentions) in sorted(doc.entities.items(), key=lambda e: min(e[1][1])):
        shown = []
        for s, words, head in mentions:
            span = ",".join(f"{a + 1}-{b + 1}" if a != b else f"{a + 1}" for a, b in runs(words))
            text = " ".join(doc.sentences[s][w] for w in words)
            shown.append(f"s{s + 1}:{span} h{head + 1} '{text}'")
        lines.append(f"    {eid} {etype} ({len(mentions)}): " + "; ".join(shown))
    return lines


# --------------------------------------------------------------------------------------------------- the tools

def git_head(repo: Path) -> str:
    return subprocess.run(["git", "-C", str(repo), "rev-parse", "HEAD"], capture_output=True, text=True,
                          check=True).stdout.strip()


def peer_venv(clone: Path) -> Path:
    """A Python with the peer's requirements: a venv cached by the hash of its requirements.txt."""
    requirements = (clone / "requirements.txt").read_bytes()
    digest = hashlib.sha256(requirements).hexdigest()[:12]
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "spacy-anno-eval-bench"
    venv = base / f"corefud-scorer-venv-{digest}"
    python = venv / "bin" / "python"
    if (venv / ".complete").exists() and python.exists():
        print(f"peer venv: {venv} (cached)")
        return python
    print(f"peer venv: creating {venv} with {clone / 'requirements.txt'} (once; later runs reuse it)", flush=True)
    shutil.rmtree(venv, ignore_errors=True)
    base.mkdir(parents=True, exist_ok=True)
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    subprocess.run([str(python), "-m", "pip", "install", "-q", "-r", str(clone / "requirements.txt")], check=True)
    (venv / ".complete").write_text(requirements.decode())
    return python


def our_command() -> list[str]:
    """``anno-eval``: the console script beside this Python (not a shim that looks it up on every start),
    else the one on PATH, else ``python -m spacy_anno_eval``."""
    beside = Path(sys.executable).parent / "anno-eval"
    exe = str(beside) if beside.exists() else shutil.which("anno-eval")
    return [exe] if exe else [sys.executable, "-m", "spacy_anno_eval"]


def our_matches() -> list[str]:
    """The matchings ``anno-eval coref`` offers with ``--match`` ([] when it has no such option)."""
    text = subprocess.run(our_command() + ["coref", "--help"], capture_output=True, text=True,
                          env={**os.environ, "COLUMNS": "200", "NO_COLOR": "1"}).stdout
    text = re.sub(r"\x1b\[[0-9;]*m", "", text)
    if "--match" not in text:
        return []
    found = re.search(r"--match\s*(?:[A-Z]+\s*)?<?\[?([a-z|,]+)", text)
    return found.group(1).replace(",", "|").split("|") if found else ["exact"]


def run(cmd: list[str], cwd: Path | None = None) -> tuple[float, subprocess.CompletedProcess]:
    """Wall time of one whole process and its result; a failure is reported and ends the script (2)."""
    t0 = time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True, cwd=cwd)
    seconds = time.perf_counter() - t0
    if done.returncode != 0:
        print(f"FAILED ({done.returncode}): {' '.join(cmd)}\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}",
              file=sys.stderr)
        sys.exit(2)
    return seconds, done


def best_of(cmd: list[str], repeat: int, cwd: Path | None = None) -> tuple[list[float], str]:
    times, out = [], ""
    for _ in range(repeat):
        seconds, done = run(cmd, cwd)
        times.append(seconds)
        out = done.stdout
    return times, out


def parse_peer(stdout: str) -> dict[str, dict[str, float]]:
    """The peer's printed figures as fractions: ``{metric: {r, p, f}}`` and ``conll: {f}``."""
    out: dict[str, dict[str, float]] = {}
    name = None
    for line in stdout.splitlines():
        line = line.strip()
        found = re.match(r"Recall:\s*([\d.]+)\s+Precision:\s*([\d.]+)\s+F1:\s*([\d.]+)", line)
        if found and name:
            out[name] = {k: float(v) / 100 for k, v in zip("rpf", found.groups(), strict=True)}
            name = None
        elif line.startswith("CoNLL score:"):
            out["conll"] = {"f": float(line.split(":")[1]) / 100}
        elif re.fullmatch(r"[a-z]+", line):
            name = line
    missing = [m for m in SHOWN if m not in out]
    if missing:
        print(f"could not read {', '.join(missing)} in the peer's output:\n{stdout}", file=sys.stderr)
        sys.exit(2)
    return out


def figures(result: dict[str, Any]) -> list[tuple[str, str, float]]:
    """``(metric, r|p|f, value)`` of a ``{metric: {r, p, f}}`` mapping, in the table's order."""
    return [(m, k, result[m][k]) for m in SHOWN for k in ("r", "p", "f") if k in result[m]]


def peer_tuple(values: list[float]) -> dict[str, float]:
    r, p, f = values
    return {"r": r, "p": p, "f": f}


def with_conll(total: dict[str, list[float]]) -> dict[str, dict[str, float]]:
    out = {m: peer_tuple(v) for m, v in total.items()}
    out["conll"] = {"f": (out["muc"]["f"] + out["bcub"]["f"] + out["ceafe"]["f"]) / 3}
    return out


# ----------------------------------------------------------------------------------------------------- the run

@dataclass
class Setting:
    match: str
    keep: bool

    @property
    def label(self) -> str:
        return f"{self.match} matching, singletons {'kept' if self.keep else 'removed'}"

    @property
    def key(self) -> str:
        return f"{self.match}/{self.keep}"


def table(peer: dict[str, dict[str, float]], ours: dict[str, Any], tol: float, what: str) -> list[str]:
    """Rows of both values per figure and the difference; a figure off by more than ``tol`` is marked."""
    rows = [f"  {'metric':<8} {'':1} {what:>10} {'ours':>10} {'diff':>10}"]
    for m, k, ref in figures(peer):
        mine = ours[m][k]
        diff = mine - ref
        mark = "  <-- DIFFERS" if abs(diff) > tol else ""
        rows.append(f"  {NAMES[m]:<8} {k.upper():1} {ref * 100:10.4f} {mine * 100:10.4f} {diff * 100:+10.4f}{mark}")
    return rows


def differing_docs(peer_docs: dict[str, dict[str, list[float]]], ours: dict[str, Any]
                   ) -> dict[str, list[tuple[str, str, float, float]]]:
    """Per document: the figures where ours and the peer's differ by more than 1e-9."""
    mine = {row["id"]: row for row in ours.get("per_doc", [])}
    out: dict[str, list[tuple[str, str, float, float]]] = {}
    for name, values in peer_docs.items():
        row = mine.get(name)
        if row is None:
            out[name] = [("document", "missing in our per-document figures", 0.0, 0.0)]
            continue
        for m in METRICS:
            for k, ref in peer_tuple(values[m]).items():
                if abs(row[m][k] - ref) > PER_DOC_TOL:
                    out.setdefault(name, []).append((m, k, ref, row[m][k]))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--docs", type=int, default=2000, help="documents (default 2000)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--repeat", type=int, default=1, help="runs of each process; the best is kept (default 1)")
    ap.add_argument("--match", action="append", choices=["exact", "partial", "head"],
                    help="matching to run (repeatable; default: exact, and head when anno-eval offers --match)")
    ap.add_argument("--singletons", default="keep,remove", help="'keep', 'remove' or both (default keep,remove)")
    ap.add_argument("--peer-repo", type=Path, default=PEER_REPO,
                    help=f"the peer's git repository (default {PEER_REPO})")
    ap.add_argument("--peer-python", help="a Python with the peer's requirements (default: a cached venv)")
    ap.add_argument("--tolerance", type=float, default=1e-4, help="per figure, on the whole corpus (default 1e-4)")
    ap.add_argument("--no-precise", action="store_true", help="skip the full-precision, per-document comparison")
    ap.add_argument("--keep", action="store_true", help="keep the temporary folder (its path is printed)")
    args = ap.parse_args(argv)

    work = Path(tempfile.mkdtemp(prefix="bench-coref-"))
    try:
        return bench(args, work)
    finally:
        if args.keep:
            print(f"files kept in {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)


def bench(args: argparse.Namespace, work: Path) -> int:
    t0 = time.perf_counter()
    keys, responses = make_corpus(args.docs, args.seed)
    key_path, response_path = work / "key.conllu", work / "response.conllu"
    write_conllu(keys, key_path)
    write_conllu(responses, response_path)
    n_words = sum(len(s) for doc in keys for s in doc.sentences)
    n_sents = sum(len(doc.sentences) for doc in keys)
    key_words = sum(len(w) for doc in keys for _, ms in doc.entities.values() for _, w, _ in ms)
    discontinuous = sum(len(runs(w)) > 1 for doc in keys for _, ms in doc.entities.values() for _, w, _ in ms)
    print(f"{args.docs} documents, {n_sents} sentences, {n_words} words (seed {args.seed}; generated in "
          f"{time.perf_counter() - t0:.1f} s, {key_path.stat().st_size / 1e6:.1f} MB each file)")
    print(f"  key: {sum(d.n_mentions() for d in keys)} mentions ({key_words / n_words:.1%} of the words; "
          f"{discontinuous} discontinuous) in {sum(len(d.entities) for d in keys)} entities; response: "
          f"{sum(d.n_mentions() for d in responses)} mentions in {sum(len(d.entities) for d in responses)} entities")

    clone = work / "corefud-scorer"
    subprocess.run(["git", "clone", "-q", str(args.peer_repo), str(clone)], check=True)
    commit = git_head(clone)
    python = args.peer_python or str(peer_venv(clone))
    versions = subprocess.run([python, "-c", "import importlib.metadata as m; print(', '.join(f'{p} ' + "
                               "m.version(p) for p in ('udapi', 'numpy', 'scipy')))"],
                              capture_output=True, text=True).stdout.strip()
    print(f"peer: ufal/corefud-scorer {commit[:7]} ({python}; {versions})")

    offered = our_matches()
    matches = args.match or (["exact", "head"] if "head" in offered else ["exact"])
    if not offered:
        print("ours: anno-eval coref has no --match option yet: exact matching only (its only matching)")
        if any(m != "exact" for m in matches):
            print(f"  asked for {', '.join(m for m in matches if m != 'exact')}: not run", file=sys.stderr)
            matches = ["exact"]
    else:
        print(f"ours: anno-eval coref --match offers {', '.join(offered)}")
        skipped = [m for m in matches if m not in offered]
        if skipped:
            print(f"  not offered by ours, not run: {', '.join(skipped)}", file=sys.stderr)
            matches = [m for m in matches if m in offered]
    keeps = [{"keep": True, "remove": False}[s.strip()] for s in args.singletons.split(",") if s.strip()]
    settings = [Setting(m, k) for m in matches for k in keeps]

    failures: list[str] = []
    summary: list[tuple[str, float, float]] = []
    ours_results: dict[str, dict[str, Any]] = {}
    for st in settings:
        peer_cmd = [python, "corefud-scorer.py", str(key_path), str(response_path), "-a", st.match] + \
                   (["-s"] if st.keep else [])
        out_json = work / f"ours-{st.match}-{'keep' if st.keep else 'remove'}.json"
        our_cmd = our_command() + ["coref", str(key_path), str(response_path), "--format", "corefud"] + \
            (["--match", st.match] if offered else []) + \
            ["--keep-singletons" if st.keep else "--no-singletons", "--json", str(out_json)]
        print(f"\n== {st.label}")
        print("  peer: " + " ".join(["python", "corefud-scorer.py", "key.conllu", "response.conllu"] + peer_cmd[4:]))
        print("  ours: " + " ".join(["anno-eval"] + our_cmd[len(our_command()):]).replace(str(work) + "/", ""),
              flush=True)
        peer_times, peer_out = best_of(peer_cmd, args.repeat, cwd=clone)
        our_times, _ = best_of(our_cmd, args.repeat)
        peer = parse_peer(peer_out)
        ours = json.loads(out_json.read_text())
        ours_results[st.key] = ours
        print(f"  peer {min(peer_times):8.2f} s  (runs: {', '.join(f'{t:.2f}' for t in peer_times)})")
        print(f"  ours {min(our_times):8.2f} s  (runs: {', '.join(f'{t:.2f}' for t in our_times)})")
        print(f"  ratio peer / ours: {min(peer_times) / min(our_times):.1f}x")
        print("  values in %, the peer as printed (two decimals):")
        rows = table(peer, ours, args.tolerance + PRINTED, "peer")
        print("\n".join(rows))
        bad = [r for r in rows if "DIFFERS" in r]
        if bad:
            failures.append(f"{st.label}: {len(bad)} figure(s) differ from the peer's printed values")
        summary.append((st.label, min(peer_times), min(our_times)))

    if not args.no_precise:
        print("\n== full precision: the peer's reader and evaluator in one process, every setting (untimed)",
              flush=True)
        precise_path = work / "peer-precise.json"
        run([python, "-c", PEER_PRECISE, str(key_path), str(response_path), str(precise_path),
             json.dumps([[st.match, st.keep] for st in settings])], cwd=clone)
        precise = json.loads(precise_path.read_text())
        by_name = {k.name: (k, r) for k, r in zip(keys, responses, strict=True)}
        for st in settings:
            got = precise[st.key]
            ours = ours_results[st.key]
            total = with_conll(got["total"])
            worst = max(abs(ours[m][k] - v) for m, k, v in figures(total))
            rows = table(total, ours, args.tolerance, "peer")
            docs = differing_docs(got["per_doc"], ours)
            print(f"  {st.label}: largest difference {worst:.2e} on the corpus; "
                  f"{len(docs)} of {len(got['per_doc'])} documents differ")
            if worst > args.tolerance:
                print("\n".join(rows))
                failures.append(f"{st.label}: the corpus figures differ from the peer's (full precision) by up to "
                                f"{worst:.2e}")
            if docs:
                failures.append(f"{st.label}: {len(docs)} documents' figures differ from the peer's")
                report_document(st, docs, by_name, work, python, clone, offered)

    print("\n== summary")
    print(f"  {'setting':<42} {'peer s':>8} {'ours s':>8} {'ratio':>7}")
    for label, p, o in summary:
        print(f"  {label:<42} {p:8.2f} {o:8.2f} {p / o:6.1f}x")
    if failures:
        print("\n" + "!" * 100)
        print("MISMATCH between anno-eval coref and the CorefUD scorer:")
        for f in failures:
            print(f"  - {f}")
        print("!" * 100)
        return 1
    print(f"\nequal: every figure of {', '.join(NAMES[m] for m in SHOWN)} agrees with the CorefUD scorer "
          f"(corpus within {args.tolerance:g}" + ("" if args.no_precise else ", every document within 1e-9") +
          f") in {len(settings)} settings")
    return 0


def report_document(st: Setting, docs: dict[str, list[tuple[str, str, float, float]]],
                    by_name: dict[str, tuple[Doc, Doc]], work: Path, python: str, clone: Path,
                    offered: list[str]) -> None:
    """The smallest document (fewest mentions) where the figures differ: its values, its mentions, and its
    two one-document files scored again by both tools."""
    name = min(docs, key=lambda n: (by_name[n][0].n_mentions() + by_name[n][1].n_mentions(), n))
    key, response = by_name[name]
    print(f"  smallest differing document: {name} ({len(key.sentences)} sentences, key {key.n_mentions()} "
          f"mentions in {len(key.entities)} entities, response {response.n_mentions()} in "
          f"{len(response.entities)}); also differing: {', '.join(sorted(docs)[:10])}"
          + (" ..." if len(docs) > 10 else ""))
    for m, k, ref, mine in docs[name]:
        print(f"    {NAMES.get(m, m)} {k.upper()}: peer {ref:.6f} ours {mine:.6f} ({mine - ref:+.6f})")
    print("  key entities (sentence:words, 1-based; h = head):")
    print("\n".join(describe(key)))
    print("  response entities:")
    print("\n".join(describe(response)))
    one_key, one_response = work / f"{name}.key.conllu", work / f"{name}.response.conllu"
    write_conllu([key], one_key)
    write_conllu([response], one_response)
    _, done = run([python, "corefud-scorer.py", str(one_key), str(one_response), "-a", st.match]
                  + (["-s"] if st.keep else []), cwd=clone)
    out_json = work / f"{name}.ours.json"
    run(our_command() + ["coref", str(one_key), str(one_response), "--format", "corefud"]
        + (["--match", st.match] if offered else [])
        + ["--keep-singletons" if st.keep else "--no-singletons", "--json", str(out_json)])
    print(f"  that document alone ({one_key}, {one_response}; --keep to keep them):")
    print("\n".join(table(parse_peer(done.stdout), json.loads(out_json.read_text()), PRINTED * 2, "peer")))


if __name__ == "__main__":
    sys.exit(main())
