"""``anno-eval compare`` (issue 28, item 4): JSON in the benchmark's pair layout, a terminal table that fits 80
columns in a pipe, exit 0 whatever the verdict, and the contract's errors."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

from spacy_anno_eval.cli.app import app

ROOT = Path(__file__).resolve().parents[2]
DEMO_KEY = ROOT / "assets" / "demo" / "key.jsonl"
DEMO_RESPONSE = ROOT / "assets" / "demo" / "response.jsonl"
runner = CliRunner()


def _systems(tmp_path: Path) -> list[Path]:
    """v0 (the demo response), gold (the key itself) and half (v0 with its first 8 documents emptied), written
    in ``tmp_path`` (made when missing); test_compare_html.py uses them too."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    rows = [json.loads(line) for line in DEMO_RESPONSE.read_text(encoding="utf8").splitlines() if line.strip()]
    v0, gold, half = tmp_path / "v0.jsonl", tmp_path / "gold.jsonl", tmp_path / "half.jsonl"
    v0.write_text(DEMO_RESPONSE.read_text(encoding="utf8"), encoding="utf8")
    gold.write_text(DEMO_KEY.read_text(encoding="utf8"), encoding="utf8")
    half.write_text("".join(json.dumps({**r, "spans": [] if i < 8 else r["spans"]}) + "\n"
                            for i, r in enumerate(rows)), encoding="utf8")
    return [v0, gold, half]


def test_three_systems_json_and_a_table_that_fits_80_columns_in_a_pipe(tmp_path):
    systems = _systems(tmp_path)
    out = tmp_path / "cmp.json"
    done = subprocess.run([sys.executable, "-m", "spacy_anno_eval", "compare", str(DEMO_KEY), *map(str, systems),
                           "--samples", "1000", "--json", str(out)], capture_output=True, text=True, timeout=300,
                          env={**os.environ, "COLUMNS": "80"})
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert all(len(line) <= 80 for line in lines), "\n".join(line for line in lines if len(line) > 80)
    assert lines[0] == "systems (strict micro F): v0 0.6667, gold 1.0000, half 0.4762"
    assert "v0 vs gold" in lines and "v0 vs half" in lines and "gold vs half" in lines
    strict_f = next(line for line in lines[lines.index("v0 vs gold"):] if line.strip().startswith("strict F"))
    assert strict_f.split()[2:5] == ["0.6667", "1.0000", "+0.3333"] and strict_f.endswith("gold better")
    data = json.loads(out.read_text(encoding="utf8"))
    assert data["correction"] == "holm" and len(data["pairs"]) == 3
    entry = data["pairs"][0]["overall"]["strict"]["f"]
    assert {"old", "new", "delta", "ci", "p_bootstrap", "p_randomization", "p_bootstrap_holm",
            "p_randomization_holm"} <= set(entry)
    assert data["pairs"][0]["old"] == "v0" and data["pairs"][0]["new"] == "gold"
    assert "comparison written to" in done.stderr


def test_names_quiet_and_exit_0_when_the_second_is_worse(tmp_path):
    v0, _, half = _systems(tmp_path)
    out = tmp_path / "q.json"
    result = runner.invoke(app, ["compare", str(DEMO_KEY), str(v0), str(half), "--names", "base,new",
                                 "--samples", "300", "--json", str(out), "-q"])
    assert result.exit_code == 0, result.output
    assert result.stdout == ""
    pair = json.loads(out.read_text(encoding="utf8"))["pairs"][0]
    assert (pair["old"], pair["new"]) == ("base", "new") and pair["overall"]["strict"]["f"]["delta"] < 0
    assert "regressions" not in pair and "verdict" not in pair


def test_one_response_a_bad_name_list_or_a_mismatched_corpus_is_exit_2_in_one_line(tmp_path):
    v0, _, half = _systems(tmp_path)
    train = ROOT / "assets" / "demo" / "train.jsonl"
    for args, message in ((["compare", str(DEMO_KEY), str(v0)], "two or more RESPONSE"),
                          (["compare", str(DEMO_KEY), str(v0), str(half), "--names", "a"], "1 names for 2 systems"),
                          (["compare", str(DEMO_KEY), str(v0), str(train)], "system train:"),
                          (["compare", str(DEMO_KEY), str(v0), str(half), "--confidence", "1.5"], "confidence"),
                          (["compare", str(DEMO_KEY), str(v0), str(half), "--alpha", "0"], "alpha")):
        result = runner.invoke(app, args)
        assert result.exit_code == 2, (args, result.output)
        assert result.stderr.startswith("anno-eval: error:") and message in result.stderr, result.stderr
        assert len(result.stderr.strip().splitlines()) == 1


def test_an_output_may_not_be_one_of_the_systems(tmp_path):
    v0, gold, _ = _systems(tmp_path)
    before = gold.read_bytes()
    result = runner.invoke(app, ["compare", str(DEMO_KEY), str(v0), str(gold), "--json", str(gold)])
    assert result.exit_code == 2 and gold.read_bytes() == before
