"""Fuzzing every reader and every command door (DESIGN.md, Contracts).

Hypothesis feeds random bytes, random JSON lines, random CoNLL, random CSV,
random standoff and random settings to the ``anno-eval`` commands. Whatever it
gives, the outcome is exit 0, or exit 2 with exactly one line on stderr
(``anno-eval: error: ...``); never a traceback, never exit 1 or 3, and nothing
written but the named output. The number of examples comes from the
hypothesis profile: ``ci`` (the default here, a few minutes in all) or
``ANNO_EVAL_FUZZ=deep`` for a long run.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import warnings
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from spacy_anno_eval.cli.app import app

settings.register_profile("ci", max_examples=100, deadline=None, derandomize=True,
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                                 HealthCheck.function_scoped_fixture])
settings.register_profile("deep", max_examples=1000, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                                 HealthCheck.function_scoped_fixture])
PROFILE = os.environ.get("ANNO_EVAL_FUZZ", "ci")
runner = CliRunner()

LABELS = st.sampled_from(["PER", "ORG", "LOC", "per", "", " ", "[/bold]", "<b>", "é", "\u2028", "X" * 40])
TEXT = st.text(alphabet=st.characters(blacklist_categories=["Cs"]), max_size=40)
WORDS = st.lists(st.text(alphabet="abcAB é\t", min_size=0, max_size=6), max_size=12)


def check(args: list[str], folder: Path, outputs: tuple[str, ...] = ()) -> None:
    """Run ``anno-eval args`` in ``folder``: exit 0, or 2 with one line; only ``outputs`` may appear."""
    before = {p.name for p in folder.iterdir()}
    cwd = os.getcwd()
    os.chdir(folder)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            result = runner.invoke(app, args, catch_exceptions=True)
    finally:
        os.chdir(cwd)
    errors = [line for line in result.stderr.splitlines() if line.startswith("anno-eval: error")]
    assert "Traceback" not in result.output, (args, result.output[-2000:])
    assert result.exception is None or isinstance(result.exception, SystemExit), (args, repr(result.exception))
    assert result.exit_code in (0, 2), (args, result.exit_code, result.stderr[-2000:])
    if result.exit_code == 2:
        assert len(errors) == 1, (args, result.stderr)
    new = {p.name for p in folder.iterdir()} - before
    assert new <= set(outputs), (args, new)
    if result.exit_code == 0 and "out.json" in new:
        json.loads((folder / "out.json").read_text(encoding="utf8"))  # valid JSON (no NaN, no Infinity)


@pytest.fixture
def folder():
    path = Path(tempfile.mkdtemp(prefix="anno-eval-fuzz-"))
    yield path
    shutil.rmtree(path, ignore_errors=True)


def fresh(folder: Path) -> Path:
    """An empty sub-folder for one example (hypothesis reuses the fixture across examples)."""
    sub = Path(tempfile.mkdtemp(dir=folder))
    return sub


# --------------------------------------------------------------------------- random bytes, every reader

SUFFIXES = [".jsonl", ".conll", ".spacy", ".csv", ".tsv", ".conllu", ".bio", ".ann", ".txt", ".xml", ".json", ".xmi",
            ".ttl", ".bdocjs"]


@settings(settings.get_profile(PROFILE))
@given(data=st.binary(max_size=400), suffix=st.sampled_from(SUFFIXES),
       command=st.sampled_from(["score", "qa", "agreement", "gamma", "noisy", "trees", "iaa", "relations",
                                "adjudicate", "align", "bdm", "sets", "convert"]))
def test_random_bytes(folder, data, suffix, command):
    sub = fresh(folder)
    path = sub / f"in{suffix}"
    path.write_bytes(data)
    args = {
        "score": ["score", path.name, path.name, "--json", "out.json", "-q"],
        "qa": ["qa", path.name, path.name, "--json", "out.json", "-q"],
        "agreement": ["agreement", path.name, "--json", "out.json", "-q"],
        "gamma": ["gamma", path.name, "--json", "out.json", "-q", "--samples", "5"],
        "noisy": ["noisy", path.name, path.name, "--json", "out.json", "-q"],
        "trees": ["trees", path.name, path.name, "--json", "out.json", "-q"],
        "iaa": ["iaa", path.name, "--sets", "spans:a;spans:b", "--json", "out.json", "-q"],
        "relations": ["relations", path.name, path.name, "--report", "out", "-q"],
        "adjudicate": ["adjudicate", path.name, path.name, "--out", "out.spacy", "-q"],
        "align": ["align", path.name, path.name, "--report", "out", "-q"],
        "bdm": ["bdm", path.name, "--out", "out.txt", "--json", "out.json", "-q"],
        "sets": ["sets", path.name, "--json", "out.json"],
        "convert": ["convert", path.name, "out.spacy", "-q"],
    }[command]
    check(args, sub, ("out.json", "out", "out.spacy", "out.txt"))


# --------------------------------------------------------------------------- random JSON lines

SPAN = st.fixed_dictionaries({"start": st.integers(-3, 60), "end": st.integers(-3, 60), "label": LABELS})
RECORD = st.one_of(
    st.fixed_dictionaries({"text": TEXT, "spans": st.lists(SPAN, max_size=4)},
                          optional={"id": st.one_of(st.text(max_size=4), st.integers(), st.none()),
                                    "answer": st.sampled_from(["accept", "reject", "ignore", "x"])}),
    st.recursive(st.none() | st.booleans() | st.integers() | TEXT,
                 lambda inner: st.lists(inner, max_size=3) | st.dictionaries(TEXT, inner, max_size=3), max_leaves=8),
)


@settings(settings.get_profile(PROFILE))
@given(key=st.lists(RECORD, max_size=4), response=st.lists(RECORD, max_size=4),
       options=st.lists(st.sampled_from([["--types", "PER"], ["--types", "per,NOPE"], ["--beta", "2"],
                                         ["--beta", "inf"], ["--pairing", "greedy"], ["--min-overlap", "50"],
                                         ["--key-set", "spans"], ["--features", "kb_id"],
                                         ["--zero-division", "1"]]), max_size=2))
def test_random_jsonl_score(folder, key, response, options):
    sub = fresh(folder)
    for name, records in (("k.jsonl", key), ("r.jsonl", response)):
        (sub / name).write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf8")
    check(["score", "k.jsonl", "r.jsonl", "--json", "out.json", "-q", *sum(options, [])], sub, ("out.json",))


# --------------------------------------------------------------------------- random CoNLL

TAG = st.sampled_from(["O", "B-PER", "I-PER", "B-ORG", "I-ORG", "E-PER", "S-LOC", "U-LOC", "L-ORG", "I-", "B-",
                       "-", "X", ""])


@settings(settings.get_profile(PROFILE))
@given(rows=st.lists(st.one_of(st.tuples(WORDS.map(lambda w: "".join(w) or "w"), TAG, TAG), st.just(None)),
                     max_size=25),
       scheme=st.sampled_from(["auto", "IOB1", "IOB2", "IOBES", "BILOU"]), strict=st.booleans())
def test_random_conll(folder, rows, scheme, strict):
    sub = fresh(folder)
    lines = ["" if r is None else f"{r[0].replace(' ', '_') or 'w'}\t{r[1]}\t{r[2]}" for r in rows]
    (sub / "t.conll").write_text("\n".join(lines) + "\n", encoding="utf8")
    args = ["score", "t.conll", "t.conll", "--key-set", "column:1", "--response-set", "column:2", "--scheme",
            scheme, "--json", "out.json", "-q"] + (["--strict-scheme"] if strict else [])
    check(args, sub, ("out.json",))


# --------------------------------------------------------------------------- random CSV

CELL = st.one_of(st.just(""), st.integers(-3, 5).map(str), st.sampled_from(["a", "b", "1.0", "1", "inf", "nan",
                                                                             "x,y", '"q"']))


@settings(settings.get_profile(PROFILE))
@given(header=st.lists(st.sampled_from(["a", "b", "c", "", "a"]), min_size=0, max_size=4),
       rows=st.lists(st.lists(CELL, min_size=0, max_size=5), max_size=8),
       level=st.sampled_from(["nominal", "ordinal", "interval", "ratio"]),
       bootstrap=st.sampled_from(["0", "20"]))
def test_random_csv_agreement(folder, header, rows, level, bootstrap):
    sub = fresh(folder)
    text = "\n".join(",".join(r) for r in [header, *rows]) + "\n"
    (sub / "t.csv").write_text(text, encoding="utf8")
    check(["agreement", "t.csv", "--level", level, "--bootstrap", bootstrap, "--json", "out.json", "-q"], sub,
          ("out.json",))


UNIT = st.tuples(st.sampled_from(["a", "b", "c"]), st.integers(-2, 30), st.integers(-2, 30),
                 st.sampled_from(["X", "Y", ""]))


@settings(settings.get_profile(PROFILE))
@given(units=st.lists(UNIT, max_size=10), samples=st.sampled_from(["3", "10"]))
def test_random_units_gamma(folder, units, samples):
    sub = fresh(folder)
    text = "\n".join(",".join(map(str, u)) for u in units) + "\n"
    (sub / "u.csv").write_text(text, encoding="utf8")
    check(["gamma", "u.csv", "--samples", samples, "--json", "out.json", "-q"], sub, ("out.json",))


# --------------------------------------------------------------------------- random brat standoff


@settings(settings.get_profile(PROFILE))
@given(text=TEXT, entries=st.lists(st.tuples(st.sampled_from(["T", "R", "A", "#", "E", "X"]), st.integers(1, 5),
                                             LABELS, st.integers(-2, 45), st.integers(-2, 45)), max_size=6))
def test_random_brat(folder, text, entries):
    sub = fresh(folder)
    (sub / "d.txt").write_text(text, encoding="utf8")
    lines = [f"{kind}{i}\t{label} {a} {b}\t{text[max(a, 0):max(b, 0)]}" for kind, i, label, a, b in entries]
    (sub / "d.ann").write_text("\n".join(lines) + "\n", encoding="utf8")
    check(["score", "d.ann", "d.ann", "--json", "out.json", "-q"], sub, ("out.json",))


# --------------------------------------------------------------------------- random settings on good input

DEMO = Path(__file__).resolve().parents[2] / "assets" / "demo"
NUMBER = st.sampled_from(["0", "1", "-1", "0.5", "2", "nan", "inf", "-inf", "1e308", "abc", ""])


@settings(settings.get_profile(PROFILE))
@given(command=st.sampled_from(["score", "qa", "iaa"]), beta=NUMBER, zero=NUMBER, overlap=NUMBER,
       types=st.sampled_from(["PER", "per", "NOPE", "PER,ORG", ",", ""]),
       key_set=st.sampled_from(["ents", "spans", "spans:nope", "column:2", "nope"]))
def test_random_settings(folder, command, beta, zero, overlap, types, key_set):
    sub = fresh(folder)
    key, response = str(DEMO / "key.jsonl"), str(DEMO / "response.jsonl")
    if command == "iaa":
        args = ["iaa", key, "--sets", f"{key_set};{key_set}", "--beta", beta, "--types", types]
    else:
        args = [command, key, response, "--beta", beta, "--types", types, "--key-set", key_set]
        if command == "score":
            args += ["--zero-division", zero, "--min-overlap", overlap]
    check(args + ["--json", "out.json", "-q"], sub, ("out.json",))


# --------------------------------------------------------------------------- a benchmark folder of random files


@settings(settings.get_profile(PROFILE))
@given(clean=st.binary(max_size=200), marked=st.lists(RECORD, max_size=3),
       clean_suffix=st.sampled_from([".jsonl", ".txt", ".spacy"]),
       marked_suffix=st.sampled_from([".jsonl", ".spacy", ".ann"]),
       mode=st.sampled_from(["marked-vs-stored", "store", "default"]))
def test_random_benchmark_folder(folder, clean, marked, clean_suffix, marked_suffix, mode):
    sub = fresh(folder)
    bench = sub / "bench"
    (bench / "clean").mkdir(parents=True)
    (bench / "marked").mkdir()
    (bench / "clean" / f"texts{clean_suffix}").write_bytes(clean)
    (bench / "marked" / f"gold{marked_suffix}").write_text("".join(json.dumps(r) + "\n" for r in marked),
                                                          encoding="utf8")
    before = sorted(p.relative_to(bench) for p in bench.rglob("*"))
    check(["benchmark", mode, "bench", "--against", "nope", "--json", "out.json", "-q"], sub, ("out.json",))
    after = sorted(p.relative_to(bench) for p in bench.rglob("*"))
    assert after == before  # nothing stored (no model was given)

