"""The worked example of issue 30: an imaginary language model's answers for the demo corpus (``assets/llm``),
made by ``scripts/make_llm_output.py`` and scored by the ``llm-report`` command of ``project.yml``.

The figures below were measured on the shipped files and are pinned: the 48 extractions ground 39 exact,
3 case-folded (``alan turing``, ``madrid``, ``mekong river commission``), 1 normalized (``Tim Berners‐Lee``, a
U+2010 hyphen), 3 fuzzy (``Coligne``, ``Norddwind Energy``, ``Braislava``), and 2 are hallucinations
(``Lord Byron``, ``Phnom Penh``); 2 grounded annotations are repeats (``Vienna`` twice; ``CERN`` as ORG, then
as LOC).
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
import srsly
from typer.testing import CliRunner

from spacy_anno_eval.cli.app import app

ROOT = Path(__file__).resolve().parents[1]
KEY = ROOT / "assets" / "demo" / "key.jsonl"
LLM = ROOT / "assets" / "llm"
FILES = {"llm-ner": "demo_llm.jsonl", "llm-json": "demo_llm_entities.jsonl"}
SCRIPT = ROOT / "scripts" / "make_llm_output.py"
runner = CliRunner()

BY_STEP = {"claimed": 0, "exact": 39, "casefold": 3, "normalized": 1, "fuzzy": 3, "hallucination": 2}
HALLUCINATIONS = {("d01", "PER", "Lord Byron"), ("d15", "LOC", "Phnom Penh")}


def read_jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf8").splitlines() if line.strip()]


def score(tmp_path: Path, fmt: str) -> tuple[dict, list[dict]]:
    """``anno-eval score KEY FILE --format fmt``: the JSON report and the grounding rows."""
    out, rows = tmp_path / f"{fmt}.json", tmp_path / f"{fmt}.grounding.jsonl"
    result = runner.invoke(app, ["score", str(KEY), str(LLM / FILES[fmt]), "--format", fmt, "--json", str(out),
                                 "--grounding", str(rows), "--quiet"])
    assert result.exit_code == 0, result.output
    return json.loads(out.read_text(encoding="utf8")), read_jsonl(rows)


@pytest.fixture(scope="module")
def scored(tmp_path_factory) -> dict[str, tuple[dict, list[dict]]]:
    tmp = tmp_path_factory.mktemp("llm")
    return {fmt: score(tmp, fmt) for fmt in FILES}


def test_shipped_files_are_the_scripts_output(tmp_path):
    subprocess.run([sys.executable, str(SCRIPT), "--out", str(tmp_path)], check=True, cwd=tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(FILES.values())
    for name in FILES.values():
        assert (tmp_path / name).read_bytes() == (LLM / name).read_bytes(), name


def test_both_files_hold_the_same_extractions():
    """Read without the package's readers: spacy-llm's v2 lines (``LABEL: a, b``) and the JSON lists name the
    same strings with the same labels, document by document, and every key document once."""
    ner = {r["id"]: Counter((line.split(":", 1)[0], s.strip()) for line in r["response"].split("\n")
                            for s in line.split(":", 1)[1].split(",") if s.strip())
           for r in read_jsonl(LLM / FILES["llm-ner"])}
    entities = {r["id"]: Counter((e["label"], e["text"]) for e in r["entities"])
                for r in read_jsonl(LLM / FILES["llm-json"])}
    assert ner == entities
    assert list(ner) == [r["meta"]["id"] for r in read_jsonl(KEY)]
    assert sum(sum(c.values()) for c in ner.values()) == 48


def test_hallucinations_are_in_no_text():
    texts = " ".join(r["text"] for r in read_jsonl(KEY)).casefold()
    for _, _, string in HALLUCINATIONS:
        assert string.casefold() not in texts
        assert not set(string.casefold().split()) & set(texts.replace(".", " ").split())


@pytest.mark.parametrize("fmt", list(FILES))
def test_grounding_counts(scored, fmt):
    report, rows = scored[fmt]
    g = report["grounding"]
    assert g["by_step"] == BY_STEP
    assert (g["extractions"], g["annotations"], g["hallucinations"], g["repeats"]) == (48, 46, 2, 2)
    assert g["hallucination_rate"] == pytest.approx(2 / 48)
    assert {(r["doc"], r["label"], r["text"]) for r in rows if r["step"] == "hallucination"} == HALLUCINATIONS
    assert {(r["doc"], r["text"]) for r in rows if r["repeat"]} == {("d10", "Vienna"), ("d11", "CERN")}
    fuzzy = {r["text"]: (r["matched"], round(r["similarity"], 4)) for r in rows if r["step"] == "fuzzy"}
    assert fuzzy == {"Coligne": ("Cologne", 0.8571), "Norddwind Energy": ("Nordwind Energy", 0.9375),
                     "Braislava": ("Bratislava", 0.8889)}
    assert {r["text"] for r in rows if r["step"] == "normalized"} == {"Tim Berners\u2010Lee"}


@pytest.mark.parametrize("fmt", list(FILES))
def test_scores(scored, fmt):
    """Hallucinations and repeats are spurious responses: 37 correct of 48 responses and 44 key entities."""
    report, _ = scored[fmt]
    assert report["counts"] == {"correct": 37, "partial": 1, "missing": 6, "spurious": 10, "incorrect": 3}
    muc = report["muc"]
    assert (muc["COR"], muc["PAR"], muc["INC"], muc["MIS"], muc["SPU"], muc["POS"], muc["ACT"]) == \
        (37, 1, 3, 3, 7, 44, 48)
    strict, lenient = report["micro"]["strict"], report["micro"]["lenient"]
    assert (strict["p"], strict["r"]) == (pytest.approx(37 / 48), pytest.approx(37 / 44))
    assert strict["f"] == pytest.approx(0.8043, abs=1e-4)
    assert (lenient["p"], lenient["r"]) == (pytest.approx(38 / 48), pytest.approx(38 / 44))
    assert lenient["f"] == pytest.approx(0.8261, abs=1e-4)


def test_formats_agree(scored):
    (ner, ner_rows), (js, js_rows) = scored["llm-ner"], scored["llm-json"]
    for part in ("counts", "micro", "muc", "per_type"):
        assert ner[part] == js[part], part
    drop = ("order", "source")  # the place in each file differs: spacy-llm's answer groups strings by label
    assert sorted(json.dumps({k: v for k, v in r.items() if k not in drop}, sort_keys=True) for r in ner_rows) == \
        sorted(json.dumps({k: v for k, v in r.items() if k not in drop}, sort_keys=True) for r in js_rows)


def test_project_yml_scores_the_example():
    config = srsly.read_yaml(ROOT / "project.yml")
    commands = {c["name"]: c for c in config["commands"]}
    command = commands["llm-report"]
    for workflow in ("evaluate", "all"):
        assert "llm-report" in config["workflows"][workflow]
    assert command["deps"] == ["assets/demo/key.jsonl", "assets/llm/demo_llm.jsonl"]
    assert all((ROOT / dep).is_file() for dep in command["deps"])
    assert command["outputs"] == ["metrics/llm/report.json", "metrics/llm/report.html", "metrics/llm/grounding.jsonl"]
    (script,) = command["script"]
    words = script.split()
    assert words[:4] == ["python", "-m", "spacy_anno_eval", "score"]
    assert words[4:6] == command["deps"]
    assert words[words.index("--format") + 1] == "llm-ner"
    assert [words[words.index(option) + 1] for option in ("--json", "--html", "--grounding")] == command["outputs"]
