"""``anno-eval score``'s error analysis (issue 28): decision counts always, every error as a row (--errors),
label confusion (--confusion), intervals (--ci) and buckets (--buckets, --train); read in a pipe at 80
columns, and refused before any work where the options do not fit."""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from spacy_anno_eval.cli.app import app
from spacy_anno_eval.spans.decisions import COLUMNS, DECISIONS
from spacy_anno_eval.spans.engine import evaluate

ROOT = Path(__file__).resolve().parents[2]
KEY = ROOT / "assets" / "demo" / "key.jsonl"
RESPONSE = ROOT / "assets" / "demo" / "response.jsonl"
TRAIN = ROOT / "assets" / "demo" / "train.jsonl"
runner = CliRunner()


@pytest.fixture(scope="module")
def evaluation():
    return evaluate(str(KEY), str(RESPONSE))


def test_the_decision_counts_are_in_the_json_and_on_the_terminal(tmp_path, evaluation):
    out = tmp_path / "r.json"
    result = runner.invoke(app, ["score", str(KEY), str(RESPONSE), "--json", str(out)])
    assert result.exit_code == 0, result.output
    assert json.loads(out.read_text(encoding="utf8"))["decisions"] == evaluation.decision_counts()
    micro = evaluation.decision_counts()["micro"]
    assert f"decisions: correct {micro['correct']}, label errors {micro['label_error']}," in result.stdout


@pytest.mark.parametrize("suffix", [".jsonl", ".csv", ".tsv"])
def test_errors_are_written_as_rows_by_suffix(tmp_path, evaluation, suffix):
    path = tmp_path / f"errors{suffix}"
    result = runner.invoke(app, ["score", str(KEY), str(RESPONSE), "--errors", str(path), "-q"])
    assert result.exit_code == 0, result.output
    text = path.read_text(encoding="utf8")
    if suffix == ".jsonl":
        rows = [json.loads(line) for line in text.splitlines()]
        assert rows == evaluation.errors()
    else:
        rows = list(csv.DictReader(text.splitlines(), delimiter="," if suffix == ".csv" else "\t"))
        assert list(rows[0]) == list(COLUMNS)
        assert [r["key_text"] or None for r in rows] == [e["key_text"] for e in evaluation.errors()]
    counts = evaluation.decision_counts()["micro"]
    assert len(rows) == sum(counts.values()) - counts["correct"]


def test_errors_all_writes_every_decision(tmp_path, evaluation):
    path = tmp_path / "all.jsonl"
    result = runner.invoke(app, ["score", str(KEY), str(RESPONSE), "--errors", str(path), "--errors-all",
                                 "--context", "0", "-q"])
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in path.read_text(encoding="utf8").splitlines()]
    assert {r["decision"] for r in rows} <= set(DECISIONS) and len(rows) == len(evaluation.alignment)
    assert all(r["left_context"] == "" for r in rows)


def test_confusion_intervals_and_buckets_in_a_pipe_at_80_columns(tmp_path):
    out = tmp_path / "r.json"
    done = subprocess.run([sys.executable, "-m", "spacy_anno_eval", "score", str(KEY), str(RESPONSE), "--confusion",
                           "--ci", "300", "--seed", "3", "--buckets", "--train", str(TRAIN), "--json", str(out)],
                          capture_output=True, text=True, timeout=300, env={**os.environ, "COLUMNS": "80"})
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert all(len(line) <= 80 for line in lines), [line for line in lines if len(line) > 80]
    data = json.loads(out.read_text(encoding="utf8"))
    matrix = data["confusion"]["coextensive"]
    assert matrix["labels"][-1] == "none"
    diagonal = sum(matrix["matrix"][i][i] for i in range(len(matrix["labels"]) - 1))
    assert diagonal == data["decisions"]["micro"]["correct"] == data["counts"]["correct"]
    assert any(line.startswith("label confusion (coextensive") for line in lines)
    low, high = data["intervals"]["micro"]["strict"]["f"]
    assert low <= data["micro"]["strict"]["f"] <= high and data["intervals"]["seed"] == 3
    features = [b["feature"] for b in data["buckets"]]
    assert features == ["span_length", "label", "doc_length", "density", "train_frequency", "label_consistency"]
    assert "ci" in data["buckets"][0]["buckets"]["1"] and "by train frequency:" in lines


@pytest.mark.parametrize("args, message", [
    (["--ci", "0"], "bootstrap samples"),
    (["--ci", "100", "--confidence", "1.2"], "confidence"),
    (["--train", str(TRAIN)], "give --buckets with it"),
    (["--errors-all"], "give --errors FILE"),
    (["--errors", "{tmp}/e.jsonl", "--shards"], "keeps none"),
    (["--confusion", "--chunk-docs", "5"], "keeps none"),
])
def test_options_that_do_not_fit_are_exit_2_in_one_line(tmp_path, args, message):
    args = [a.replace("{tmp}", str(tmp_path)) for a in args]
    result = runner.invoke(app, ["score", str(KEY), str(RESPONSE), *args])
    assert result.exit_code == 2, result.output
    assert message in result.stderr and len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert not (tmp_path / "e.jsonl").exists()


def test_the_errors_file_may_not_be_an_input(tmp_path):
    key = tmp_path / "key.jsonl"
    key.write_bytes(KEY.read_bytes())
    result = runner.invoke(app, ["score", str(key), str(RESPONSE), "--errors", str(key)])
    assert result.exit_code == 2 and key.read_bytes() == KEY.read_bytes()


@pytest.mark.parametrize("chunks", [[], ["--chunk-docs", "5"]], ids=["whole", "in chunks"])
def test_qa_gathers_the_same_sections_shard_by_shard_as_score(tmp_path, chunks):
    """qa keeps the pairs of one shard at a time: the confusion matrices, the error rows and the per-type
    intervals it gathers equal score's on the whole corpus."""
    qa_json, qa_err = tmp_path / "qa.json", tmp_path / "qa.jsonl"
    sc_json, sc_err = tmp_path / "sc.json", tmp_path / "sc.jsonl"
    common = ["--confusion", "--ci", "200", "--seed", "1", "-q"]
    result = runner.invoke(app, ["qa", str(KEY), str(RESPONSE), *common, "--json", str(qa_json), "--errors",
                                 str(qa_err), *chunks])
    assert result.exit_code == 0, result.output
    result = runner.invoke(app, ["score", str(KEY), str(RESPONSE), *common, "--json", str(sc_json), "--errors",
                                 str(sc_err)])
    assert result.exit_code == 0, result.output
    qa, sc = (json.loads(p.read_text(encoding="utf8")) for p in (qa_json, sc_json))
    for section in ("decisions", "confusion", "intervals"):
        assert qa[section] == sc[section], section
    assert qa["intervals"]["left_out"] == [] and "per_type" in qa["intervals"]
    assert qa_err.read_text(encoding="utf8") == sc_err.read_text(encoding="utf8")


def test_qa_buckets_equal_scores_and_are_refused_in_chunks(tmp_path):
    out_qa, out_score = tmp_path / "qa.json", tmp_path / "score.json"
    args = ["--buckets", "--train", str(TRAIN), "--ci", "100", "-q"]
    assert runner.invoke(app, ["qa", str(KEY), str(RESPONSE), *args, "--json", str(out_qa)]).exit_code == 0
    assert runner.invoke(app, ["score", str(KEY), str(RESPONSE), *args, "--json", str(out_score)]).exit_code == 0
    qa, score = (json.loads(p.read_text(encoding="utf8"))["buckets"] for p in (out_qa, out_score))
    assert qa == score and len(qa) == 6
    result = runner.invoke(app, ["qa", str(KEY), str(RESPONSE), "--buckets", "--chunk-docs", "4"])
    assert result.exit_code == 2 and "--buckets need the pairs of the whole corpus" in result.stderr
