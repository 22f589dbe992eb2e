"""The spacy project workflow (project.yml), run for real in a temporary copy of the repository.

``spacy project run evaluate`` builds the two model versions from the shipped
demo corpus (v1 assembled from rules, v2 trained for a few seeded steps), runs
them over the test documents and writes the reports of v0 (the shipped
response), v1 and v2 under ``metrics/``, and the report of the imaginary
language model's answers (``assets/llm``, step ``llm-report``). The subprocesses run with every
Internet socket blocked (a ``sitecustomize`` on ``PYTHONPATH``), so a step that
tried to download anything would fail the test.

The WNUT-17 path reads the licensed copy in ``../shared/data/wnut17`` (through
``--vars.wnut_dir``) and is skipped when it is absent; nothing is downloaded.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import srsly

from tests.conftest import SHARED_DATA

ROOT = Path(__file__).resolve().parents[1]
DEMO = ROOT / "assets" / "demo"
VERSIONS = ("v0", "v1", "v2")
FORMATS = ("json", "md", "html")
WNUT_FILES = ("wnut17train.conll", "emerging.dev.conll", "emerging.test.annotated")

pytestmark = pytest.mark.slow

OFFLINE_SITECUSTOMIZE = '''\
"""Installed by tests/test_project.py: no Internet access for this process tree."""
import socket

_connect, _connect_ex = socket.socket.connect, socket.socket.connect_ex


def _inet(sock):
    return sock.family in (socket.AF_INET, socket.AF_INET6)


def connect(self, address):
    if _inet(self):
        raise OSError(f"network access blocked by tests/test_project.py: {address!r}")
    return _connect(self, address)


def connect_ex(self, address):
    if _inet(self):
        raise OSError(f"network access blocked by tests/test_project.py: {address!r}")
    return _connect_ex(self, address)


socket.socket.connect, socket.socket.connect_ex = connect, connect_ex
'''


def copy_project(dest: Path) -> Path:
    """What a fresh clone holds for the workflow: project.yml, configs, scripts, assets (no extra assets)."""
    dest.mkdir(parents=True)
    shutil.copy2(ROOT / "project.yml", dest / "project.yml")
    ignore = shutil.ignore_patterns("__pycache__", "wnut17", "*.pyc")
    for name in ("configs", "scripts", "assets"):
        shutil.copytree(ROOT / name, dest / name, ignore=ignore)
    return dest


def offline_env(tmp: Path) -> dict[str, str]:
    site = tmp / "offline_site"
    site.mkdir(exist_ok=True)
    (site / "sitecustomize.py").write_text(OFFLINE_SITECUSTOMIZE, encoding="utf8")
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(site), *filter(None, [env.get("PYTHONPATH")])])
    env["HF_HUB_OFFLINE"] = env["TRANSFORMERS_OFFLINE"] = "1"
    return env


def spacy_project(project: Path, env: dict[str, str], *args: str, timeout: int = 600) -> subprocess.CompletedProcess:
    result = subprocess.run([sys.executable, "-m", "spacy", "project", *args], cwd=project, env=env,
                            capture_output=True, text=True, timeout=timeout)
    assert result.returncode == 0, f"spacy project {' '.join(args)} failed:\n{result.stdout[-4000:]}\n" \
                                   f"{result.stderr[-4000:]}"
    return result


def read_jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf8").splitlines() if line.strip()]


def span_set(records: list[dict]) -> set[tuple[str, int, int, str]]:
    return {(r["meta"]["id"], s["start"], s["end"], s["label"]) for r in records for s in r["spans"]}


def predicted_set(path: Path) -> set[tuple[str, int, int, str]]:
    """Entities of a predicted DocBin, read with spaCy itself (not with spacy_anno_eval's reader)."""
    import spacy
    from spacy.tokens import DocBin

    vocab = spacy.blank("en").vocab
    out = set()
    for i, doc in enumerate(DocBin().from_disk(path).get_docs(vocab)):
        doc_id = str(doc.user_data.get("doc_id", i))
        out |= {(doc_id, e.start_char, e.end_char, e.label_) for e in doc.ents}
    return out


def totals(report: dict) -> tuple[int, int]:
    c = report["counts"]
    return c["correct"] + c["partial"] + c["missing"], c["correct"] + c["partial"] + c["spurious"]


# ---------------------------------------------------------------------------
# the offline demo path


@pytest.fixture(scope="module")
def evaluated(tmp_path_factory) -> tuple[Path, dict[str, str], subprocess.CompletedProcess]:
    """A copy of the repository in which ``spacy project run evaluate`` has run once."""
    tmp = tmp_path_factory.mktemp("project")
    project = copy_project(tmp / "repo")
    env = offline_env(tmp)
    result = spacy_project(project, env, "run", "evaluate")
    return project, env, result


def test_project_yml_runs_on_a_fresh_clone():
    """Every step of ``evaluate`` needs only shipped files or the outputs of an earlier step."""
    from weasel.util import substitute_project_variables, validate_project_commands

    raw = srsly.read_yaml(ROOT / "project.yml")
    validate_project_commands(raw)
    config = substitute_project_variables(raw)  # weasel's load_project_config would create directories
    commands = {c["name"]: c for c in config["commands"]}
    for name, steps in config["workflows"].items():
        assert all(step in commands for step in steps), name
    assert config["workflows"]["all"] == config["workflows"]["evaluate"]
    produced: set[str] = set()
    for step in config["workflows"]["evaluate"]:
        command = commands[step]
        for dep in command.get("deps", []):
            assert dep in produced or (ROOT / dep).exists(), f"{step}: {dep} is neither shipped nor made earlier"
            assert not dep.startswith(("corpus/", "training/", "metrics/")) or dep in produced, (step, dep)
        produced |= set(command.get("outputs", []))
    assert {f"metrics/{v}/report.{f}" for v in VERSIONS for f in FORMATS} <= produced
    assert {"metrics/llm/report.json", "metrics/llm/report.html", "metrics/llm/grounding.jsonl"} <= produced


def test_evaluate_writes_every_report(evaluated):
    project, _, result = evaluated
    for version in VERSIONS:
        for fmt in FORMATS:
            path = project / "metrics" / version / f"report.{fmt}"
            assert path.is_file() and path.stat().st_size > 0, path
        assert (project / "metrics" / version / "report.html").read_text(encoding="utf8").lstrip().lower() \
            .startswith("<!doctype html")
        assert "| micro" in (project / "metrics" / version / "report.md").read_text(encoding="utf8").replace("**", "")
    assert "Running workflow 'evaluate'" in result.stdout
    # nothing was fetched: no extra assets in the copy
    assert not (project / "assets" / "wnut17").exists()


def test_v0_report_holds_the_demo_figures(evaluated):
    project, _, _ = evaluated
    report = json.loads((project / "metrics" / "v0" / "report.json").read_text())
    key, response = read_jsonl(DEMO / "key.jsonl"), read_jsonl(DEMO / "response.jsonl")
    gold, pred = span_set(key), span_set(response)
    key_total, response_total = len(gold), len(pred)
    correct = len(gold & pred)
    # coextensive pairs with another label: MUC's incorrect
    incorrect = len({span[:3] for span in gold} & {span[:3] for span in pred}) - correct
    assert (key_total, response_total, correct, incorrect) == (44, 43, 29, 4)
    c = report["counts"]
    assert (c["correct"], c["incorrect"]) == (correct, incorrect)
    assert c["partial"] == 5  # d01 Babbage's, d03 Navy reserve, d05 Nobel Prize, d08 Nordwind, d11 Tim Berners
    assert totals(report) == (key_total, response_total)
    strict = report["micro"]["strict"]
    assert strict["p"] == pytest.approx(correct / response_total)
    assert strict["r"] == pytest.approx(correct / key_total)
    lenient = report["micro"]["lenient"]
    assert lenient["p"] == pytest.approx((correct + 5) / response_total)
    assert lenient["r"] == pytest.approx((correct + 5) / key_total)
    assert [row["id"] for row in report["per_doc"]] == [f"d{i:02d}" for i in range(1, 17)]


@pytest.mark.parametrize("version", ["v1", "v2"])
def test_model_reports_match_their_predictions(evaluated, version):
    """The reports of v1 and v2 agree with a plain set comparison of their predicted DocBins and the gold."""
    project, _, _ = evaluated
    report = json.loads((project / "metrics" / version / "report.json").read_text())
    gold = span_set(read_jsonl(DEMO / "key.jsonl"))
    pred = predicted_set(project / "corpus" / "demo" / f"{version}.spacy")
    assert pred, f"{version} predicted nothing"
    assert {d for d, *_ in pred} <= {f"d{i:02d}" for i in range(1, 17)}
    assert totals(report) == (len(gold), len(pred))
    assert report["counts"]["correct"] == len(gold & pred)
    for measure in ("strict", "lenient", "average"):
        for value in report["micro"][measure].values():
            assert 0.0 <= value <= 1.0
    assert [row["id"] for row in report["per_doc"]] == [f"d{i:02d}" for i in range(1, 17)]


def test_v1_is_a_gazetteer_of_the_training_names(evaluated):
    """v1 only finds names it was given: every prediction is a pattern, with its label."""
    project, _, _ = evaluated
    patterns = {(p["pattern"], p["label"]) for p in srsly.read_json(project / "corpus" / "demo" / "patterns.json")}
    train_ids = [r["meta"]["id"] for i, r in enumerate(read_jsonl(DEMO / "train.jsonl"), 1) if i % 4]
    assert len(train_ids) == 36
    texts = {r["meta"]["id"]: r["text"] for r in read_jsonl(DEMO / "key.jsonl")}
    pred = predicted_set(project / "corpus" / "demo" / "v1.spacy")
    assert {(texts[d][s:e], label) for d, s, e, label in pred} <= patterns
    # rules are deterministic: 12 names found, 11 right; the wrong one is "Mekong" (LOC in training)
    # inside "Mekong River Commission" (ORG): another type, so missing + spurious, not partial
    c = json.loads((project / "metrics" / "v1" / "report.json").read_text())["counts"]
    assert (c["correct"], c["partial"], c["missing"], c["spurious"]) == (11, 0, 33, 1)
    assert pred - span_set(read_jsonl(DEMO / "key.jsonl")) == {("d15", 4, 10, "LOC")}


def test_v2_was_trained_with_the_registered_scorer(evaluated):
    project, _, _ = evaluated
    meta = srsly.read_json(project / "training" / "demo" / "v2" / "model-best" / "meta.json")
    assert {"ents_f", "ents_f_lenient", "ents_f_average"} <= set(meta["performance"])
    # a seeded, tiny model still learns something from 36 documents (0.6 strict F on the machine that wrote this)
    report = json.loads((project / "metrics" / "v2" / "report.json").read_text())
    assert report["micro"]["strict"]["f"] > 0.2


def test_benchmark_gates_v2_on_the_stored_v1(evaluated):
    """benchmark-store stored v1 (once, under its name); benchmark compared v2 with it and found no regression."""
    project, _, _ = evaluated
    processed = project / "corpus" / "benchmark" / "processed"
    assert sorted(p.name for p in processed.iterdir()) == ["v1"]
    manifest = json.loads((processed / "v1" / "manifest.json").read_text())
    assert manifest["n_docs"] == 16 and manifest["source"] == "model"
    result = json.loads((project / "metrics" / "benchmark" / "v1-vs-v2.json").read_text())
    comparison = result["comparison"]
    assert comparison["verdict"] == "ok" and not comparison["regressions"]
    v1 = json.loads((project / "metrics" / "v1" / "report.json").read_text())
    v2 = json.loads((project / "metrics" / "v2" / "report.json").read_text())
    strict_f = comparison["overall"]["strict"]["f"]
    assert strict_f["old"] == pytest.approx(v1["micro"]["strict"]["f"])
    assert strict_f["new"] == pytest.approx(v2["micro"]["strict"]["f"])
    assert strict_f["direction"] == "up"
    html = (project / "metrics" / "benchmark" / "v1-vs-v2.html").read_text(encoding="utf8")
    assert html.lstrip().lower().startswith("<!doctype html")


def test_llm_report_scores_the_imaginary_answers(evaluated):
    """llm-report: the spacy-llm answers of assets/llm grounded in the key's texts; the two hallucinations are
    spurious responses, shown in the HTML report (figures: tests/test_llm_example.py)."""
    project, _, result = evaluated
    report = json.loads((project / "metrics" / "llm" / "report.json").read_text())
    grounding = report["grounding"]
    assert grounding["by_step"] == {"claimed": 0, "exact": 39, "casefold": 3, "normalized": 1, "fuzzy": 3,
                                    "hallucination": 2}
    assert report["counts"]["correct"] == 37
    rows = read_jsonl(project / "metrics" / "llm" / "grounding.jsonl")
    assert len(rows) == 48
    hallucinated = [r["text"] for r in rows if r["step"] == "hallucination"]
    assert hallucinated == ["Lord Byron", "Phnom Penh"]
    html = (project / "metrics" / "llm" / "report.html").read_text(encoding="utf8")
    assert html.lstrip().lower().startswith("<!doctype html")
    assert all(s in html for s in ("not in the text", *hallucinated))
    assert "not in the text: 2 of 48 extractions" in result.stdout


def test_second_run_skips_every_step(evaluated):
    project, env, _ = evaluated
    before = {p: p.stat().st_mtime_ns for p in (project / "metrics").rglob("report.*")}
    result = spacy_project(project, env, "run", "evaluate")
    assert result.stdout.count("Skipping") == 10, result.stdout
    assert {p: p.stat().st_mtime_ns for p in before} == before


def test_assets_without_extra_fetch_nothing(evaluated):
    project, env, _ = evaluated
    spacy_project(project, env, "assets")
    assert not (project / "assets" / "wnut17").exists()


# ---------------------------------------------------------------------------
# the WNUT-17 path (extra assets), pointed at the licensed copy beside the checkout


@pytest.fixture(scope="module")
def wnut_dir() -> Path:
    path = SHARED_DATA / "wnut17"
    if not all((path / name).is_file() for name in WNUT_FILES):
        pytest.skip(f"WNUT-17 not found at {path}")
    return path


def test_wnut_assets_point_at_the_original_repository(wnut_dir):
    config = srsly.read_yaml(ROOT / "project.yml")
    assets = {Path(a["dest"]).name: a for a in config["assets"]}
    assert set(assets) == set(WNUT_FILES)
    for name, asset in assets.items():
        assert asset["extra"] is True
        assert asset["url"].startswith("https://raw.githubusercontent.com/leondz/emerging_entities_17/")
        assert asset["url"].endswith(f"/{name}")
        assert asset["checksum"] == hashlib.md5((wnut_dir / name).read_bytes()).hexdigest()


def test_wnut_workflow(tmp_path, wnut_dir):
    project = copy_project(tmp_path / "repo")
    env = offline_env(tmp_path)
    spacy_project(project, env, "run", "wnut", ".", f"--vars.wnut_dir={wnut_dir}", "--vars.wnut_train_steps=150")
    assert not (project / "assets" / "wnut17").exists()
    for version in ("v1", "v2"):
        for fmt in FORMATS:
            assert (project / "metrics" / "wnut" / version / f"report.{fmt}").is_file()
        report = json.loads((project / "metrics" / "wnut" / version / "report.json").read_text())
        pred = predicted_set(project / "corpus" / "wnut" / f"{version}.spacy")
        assert report["n_docs"] == 1287
        assert totals(report) == (1079, len(pred))  # the test set's 1079 gold entities
        assert set(report["per_type"]) <= {"person", "location", "group", "creative-work", "corporation",
                                           "product"}
    # WNUT-17's test sentences contain none of the training set's names, so the gazetteer finds nothing
    v1 = json.loads((project / "metrics" / "wnut" / "v1" / "report.json").read_text())
    assert v1["counts"]["correct"] == 0
