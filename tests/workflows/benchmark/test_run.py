"""The corpus benchmark (GATE user guide 10.4): layout, store, the four modes, significance, CI exit codes.

The benchmark folders are built from the demo corpus (``assets/demo/key.jsonl``,
16 documents, 44 gold entities: 19 LOC, 12 ORG, 9 PER, 4 MISC). The pipelines
are entity rulers made from the gold itself, so version 1 is perfect and a
version that drops one label's patterns is worse on that label only.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from pathlib import Path

import numpy as np
import pytest
import spacy
from spacy.language import Language
from spacy.tokens import DocBin
from typer.testing import CliRunner

from spacy_anno_eval.cli.app import app
from spacy_anno_eval.errors import ConfigError, InputError
from spacy_anno_eval.spans.engine import evaluate
from spacy_anno_eval.workflows.benchmark.compare import compare_evaluations
from spacy_anno_eval.workflows.benchmark.layout import BenchmarkDir, clean_documents, corpus_hash
from spacy_anno_eval.workflows.benchmark.run import EXIT_OK, EXIT_REGRESSION, run_benchmark
from spacy_anno_eval.workflows.benchmark.settings import BenchmarkSettings, load_settings
from spacy_anno_eval.workflows.benchmark.store import check_name, get_baseline, list_baselines, model_label
from tests.conftest import shared_file

ROOT = Path(__file__).resolve().parents[3]
GOLD = ROOT / "assets" / "demo" / "key.jsonl"
RECORDS = [json.loads(line) for line in GOLD.read_text(encoding="utf8").splitlines() if line.strip()]
FAST = BenchmarkSettings(n_samples=300)


def ruler(drop: tuple[str, ...] = (), version: str = "1.0.0", name: str = "demo") -> Language:
    """An entity ruler that knows every gold name except those of the labels in ``drop``."""
    nlp = spacy.blank("en")
    nlp.meta["name"], nlp.meta["version"] = name, version
    patterns = [{"label": s["label"], "pattern": r["text"][s["start"]:s["end"]]}
                for r in RECORDS for s in r["spans"] if s["label"] not in drop]
    nlp.add_pipe("entity_ruler").add_patterns(patterns)
    return nlp


def make_bench(root: Path, clean: str = "jsonl") -> Path:
    """A benchmark folder with the demo texts in clean/ (as ``clean``) and the gold in marked/."""
    (root / "clean").mkdir(parents=True)
    (root / "marked").mkdir()
    if clean == "jsonl":
        lines = [json.dumps({"text": r["text"], "meta": r["meta"]}) for r in RECORDS]
        (root / "clean" / "texts.jsonl").write_text("\n".join(lines) + "\n", encoding="utf8")
    elif clean == "txt":
        for r in RECORDS:
            (root / "clean" / f"{r['meta']['id']}.txt").write_text(r["text"], encoding="utf8")
    elif clean == "docbin":
        nlp = spacy.blank("en")
        docs = []
        for r in RECORDS:
            doc = nlp(r["text"])
            doc.user_data["doc_id"] = r["meta"]["id"]
            docs.append(doc)
        DocBin(docs=docs, store_user_data=True).to_disk(root / "clean" / "texts.spacy")
    shutil.copy(GOLD, root / "marked" / "gold.jsonl")
    return root


def tree_bytes(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture()
def bench(tmp_path) -> Path:
    return make_bench(tmp_path / "bench")


# ---------------------------------------------------------------------------
# settings


def test_settings_file_then_command_line(tmp_path):
    cfg = tmp_path / "b.cfg"
    cfg.write_text('[benchmark]\nthreshold = 0.5\ntypes = ["PER", "LOC"]\nmax_drop = 0.02\n', encoding="utf8")
    s = load_settings(cfg, threshold=0.9)
    assert (s.threshold, s.types, s.max_drop, s.beta) == (0.9, ["PER", "LOC"], 0.02, 1.0)
    shipped = load_settings(ROOT / "configs" / "benchmark.cfg")
    assert shipped == BenchmarkSettings()


@pytest.mark.parametrize(("text", "message"), [
    ("[benchmark]\ntreshold = 0.5\n", "unknown setting(s) treshold"),
    ("[benchmark]\nthreshold = 1.5\n", "threshold=1.5: must be a number in [0, 1]"),
    ("[benchmark]\ngate = [\"x\"]\n", "gate="),
    ("[other]\nx = 1\n", "no [benchmark] section"),
])
def test_settings_errors_name_the_setting(tmp_path, text, message):
    cfg = tmp_path / "b.cfg"
    cfg.write_text(text, encoding="utf8")
    with pytest.raises(ConfigError, match=message.replace("[", r"\[").replace("(", r"\(")
                       .replace(")", r"\)")):
        load_settings(cfg)


# ---------------------------------------------------------------------------
# layout


@pytest.mark.parametrize("kind", ["jsonl", "txt", "docbin"])
def test_clean_documents_in_every_kind(tmp_path, kind):
    root = make_bench(tmp_path / kind, clean=kind)
    docs = clean_documents(root / "clean")
    assert sorted(d.doc_id for d in docs) == [r["meta"]["id"] for r in RECORDS]
    assert {d.doc_id: d.text for d in docs} == {r["meta"]["id"]: r["text"] for r in RECORDS}
    assert (docs[0].words is not None) == (kind == "docbin")


def test_clean_refuses_mixed_inputs_and_duplicate_ids(tmp_path):
    root = make_bench(tmp_path / "b")
    (root / "clean" / "extra.txt").write_text("x", encoding="utf8")
    with pytest.raises(InputError, match="found .txt and JSONL"):
        clean_documents(root / "clean")
    (root / "clean" / "extra.txt").unlink()
    lines = (root / "clean" / "texts.jsonl").read_text().splitlines()
    (root / "clean" / "texts.jsonl").write_text("\n".join(lines + lines[:1]) + "\n")
    with pytest.raises(InputError, match="'d01' occurs twice"):
        clean_documents(root / "clean")


def test_marked_source_and_corpus_hash(bench):
    path, fmt = BenchmarkDir.open(bench).marked_source()
    assert (path.name, fmt) == ("gold.jsonl", "auto")
    texts = [r["text"] for r in RECORDS]
    assert corpus_hash(texts) == corpus_hash(texts[::-1]) != corpus_hash(texts[1:])
    (bench / "marked" / "other.conll").write_text("a O\n")
    with pytest.raises(InputError, match="cannot tell which gold corpus"):
        BenchmarkDir.open(bench).marked_source()


def test_missing_parts_are_named(tmp_path):
    with pytest.raises(InputError, match="no such benchmark folder"):
        run_benchmark("marked-vs-stored", tmp_path / "nope")
    (tmp_path / "b" / "clean").mkdir(parents=True)
    with pytest.raises(InputError, match=r"marked: missing"):
        run_benchmark("marked-vs-current", tmp_path / "b", nlp=ruler())


# ---------------------------------------------------------------------------
# store


def test_store_writes_docs_and_manifest(bench):
    nlp = ruler()
    result = run_benchmark("store", bench, nlp=nlp, model="some/path", settings=FAST)
    baseline = get_baseline(BenchmarkDir(bench))
    assert baseline.name == model_label(nlp) == "en_demo-1.0.0"
    m = baseline.manifest
    assert result.report["baseline"] == m
    assert (m["model"]["name"], m["model"]["version"], m["model"]["path"]) == ("demo", "1.0.0", "some/path")
    assert m["config_hash"] == hashlib.sha256(nlp.config.to_str().encode()).hexdigest()
    assert m["spacy_version"] == spacy.__version__
    assert m["corpus_hash"] == corpus_hash(r["text"] for r in RECORDS)
    assert (m["n_docs"], m["n_entities"], m["source"]) == (16, 44, "model")
    docs = list(DocBin().from_disk(baseline.data / "docs-00000.spacy").get_docs(nlp.vocab))
    assert [d.user_data["doc_id"] for d in docs] == [r["meta"]["id"] for r in RECORDS]
    # nothing temporary is left behind
    assert [p.name for p in (bench / "processed").iterdir()] == ["en_demo-1.0.0"]


def test_two_stores_keep_two_baselines_and_newest_wins(bench):
    first = run_benchmark("store", bench, nlp=ruler(), settings=FAST).report["baseline"]
    before = tree_bytes(bench / "processed" / first["name"])
    second = run_benchmark("store", bench, nlp=ruler(), settings=FAST).report["baseline"]
    assert (first["name"], second["name"]) == ("en_demo-1.0.0", "en_demo-1.0.0@2")
    assert second["sequence"] == first["sequence"] + 1
    assert tree_bytes(bench / "processed" / first["name"]) == before
    assert [b.name for b in list_baselines(BenchmarkDir(bench))] == ["en_demo-1.0.0", "en_demo-1.0.0@2"]
    assert get_baseline(BenchmarkDir(bench)).name == "en_demo-1.0.0@2"


def test_force_replaces_a_named_baseline(bench):
    run_benchmark("store", bench, nlp=ruler(), name="v1", settings=FAST)
    run_benchmark("store", bench, nlp=ruler(drop=("LOC",)), name="v1", force=True, settings=FAST)
    assert [b.name for b in list_baselines(BenchmarkDir(bench))] == ["v1"]
    assert get_baseline(BenchmarkDir(bench)).manifest["n_entities"] == 44 - 19
    assert sorted(p.name for p in (bench / "processed").iterdir()) == ["v1"]


class Boom(RuntimeError):
    pass


@Language.component("boom_after_half")
def boom_after_half(doc):
    boom_after_half.seen += 1
    if boom_after_half.seen > len(RECORDS) // 2:
        raise Boom("a component failed half-way")
    return doc


def test_interrupted_store_leaves_the_previous_baseline_intact(bench):
    run_benchmark("store", bench, nlp=ruler(), name="v1", settings=FAST)
    before = tree_bytes(bench / "processed")
    nlp = ruler()
    nlp.add_pipe("boom_after_half")
    boom_after_half.seen = 0
    for force in (False, True):
        boom_after_half.seen = 0
        with pytest.raises(Boom):
            run_benchmark("store", bench, nlp=nlp, name="v1", force=force, settings=FAST)
        assert boom_after_half.seen == len(RECORDS) // 2 + 1
        assert tree_bytes(bench / "processed") == before
        assert sorted(p.name for p in (bench / "processed").iterdir()) == ["v1"]


@pytest.mark.parametrize("name", ["../evil", "a/b", ".hidden", "", "x" * 200, "-rf", "@2"])
def test_unsafe_baseline_names_are_refused(bench, name):
    with pytest.raises(ConfigError, match="baseline name"):
        check_name(name)
    with pytest.raises(ConfigError, match="baseline name"):
        run_benchmark("store", bench, nlp=ruler(), name=name, settings=FAST)
    assert not (bench / "processed").exists() or not any((bench / "processed").iterdir())
    assert not (bench / "evil").exists()


def test_store_imports_predictions_from_a_file(bench, tmp_path):
    pred = tmp_path / "pred.jsonl"
    lines = [json.dumps({"text": r["text"], "spans": [s for s in r["spans"] if s["label"] != "PER"],
                         "meta": r["meta"]}) for r in RECORDS]
    pred.write_text("\n".join(lines) + "\n", encoding="utf8")
    with pytest.raises(ConfigError, match="needs --name"):
        run_benchmark("store", bench, predictions=pred, settings=FAST)
    run_benchmark("store", bench, predictions=pred, name="imported", settings=FAST)
    report = run_benchmark("marked-vs-stored", bench, settings=FAST).report["stored"]["report"]
    assert report["per_type"]["PER"]["counts"]["missing"] == 9
    assert report["counts"]["correct"] == 44 - 9


# ---------------------------------------------------------------------------
# marked vs stored / current


def test_marked_vs_stored_equals_the_engine(bench):
    run_benchmark("store", bench, nlp=ruler(drop=("ORG",)), settings=FAST)
    result = run_benchmark("marked-vs-stored", bench, settings=FAST)
    assert result.exit_code == EXIT_OK
    stored = result.report["stored"]
    docs = list(ruler(drop=("ORG",)).pipe(r["text"] for r in RECORDS))
    for doc, r in zip(docs, RECORDS, strict=True):
        doc.user_data["doc_id"] = r["meta"]["id"]
    expected = evaluate(GOLD, docs).report()
    assert stored["report"]["micro"] == expected["micro"]
    assert stored["report"]["per_type"] == expected["per_type"]
    assert stored["report"]["per_type"]["ORG"]["counts"]["missing"] == 12


def test_marked_vs_current_runs_in_a_temporary_place(bench, tmp_path, monkeypatch):
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    monkeypatch.setattr("tempfile.tempdir", str(scratch))
    result = run_benchmark("marked-vs-current", bench, nlp=ruler(drop=("MISC",)), settings=FAST)
    report = result.report["current"]["report"]
    assert report["per_type"]["MISC"]["counts"]["missing"] == 4
    assert report["counts"]["correct"] == 40
    assert list(scratch.iterdir()) == []  # the temporary results were removed
    assert not (bench / "processed").exists()  # and nothing was stored


def test_a_pipeline_loaded_from_a_path_works(bench, tmp_path):
    ruler(version="3.1.4").to_disk(tmp_path / "model")
    result = run_benchmark("marked-vs-current", bench, model=str(tmp_path / "model"), settings=FAST)
    assert result.report["current"]["report"]["micro"]["strict"]["f"] == 1.0
    assert result.report["current"]["manifest"]["model"]["version"] == "3.1.4"
    with pytest.raises(InputError, match="cannot load the pipeline"):
        run_benchmark("marked-vs-current", bench, model=str(tmp_path / "nope"), settings=FAST)
    with pytest.raises(ConfigError, match="give --model"):
        run_benchmark("marked-vs-current", bench, settings=FAST)


def test_a_baseline_of_another_corpus_is_refused(bench):
    run_benchmark("store", bench, nlp=ruler(), settings=FAST)
    gold = bench / "marked" / "gold.jsonl"
    records = [json.loads(line) for line in gold.read_text().splitlines()]
    records[3]["text"] = records[3]["text"].replace("a", "o")
    gold.write_text("\n".join(json.dumps(r) for r in records) + "\n")
    with pytest.raises(InputError, match=r"baseline 'en_demo-1.0.0' was made from a corpus with hash "
                                                  r"\w+\.\.\. but the texts of .*marked hash to"):
        run_benchmark("marked-vs-stored", bench, settings=FAST)


def test_verbose_lists_annotations_below_the_threshold(bench):
    run_benchmark("store", bench, nlp=ruler(drop=("PER",)), settings=FAST)
    result = run_benchmark("marked-vs-stored", bench, verbose=True, settings=FAST)
    low = result.report["stored"]["below_threshold"]
    assert set(low) == {"PER"}
    assert low["PER"]["figures"] == {"strict.r": 0.0, "lenient.r": 0.0, "average.r": 0.0}
    texts = sorted(row["key"]["text"] for row in low["PER"]["annotations"])
    gold_per = sorted(r["text"][s["start"]:s["end"]] for r in RECORDS for s in r["spans"] if s["label"] == "PER")
    assert texts == gold_per and all(row["status"] == "missing" for row in low["PER"]["annotations"])


# ---------------------------------------------------------------------------
# default mode: the regression gate


def test_worse_on_one_label_is_a_regression(bench):
    run_benchmark("store", bench, nlp=ruler(), name="v1", settings=FAST)
    result = run_benchmark("default", bench, nlp=ruler(drop=("LOC",), version="2.0.0"), name="v1", settings=FAST)
    assert result.exit_code == EXIT_REGRESSION
    comparison = result.report["comparison"]
    assert comparison["verdict"] == "regression"
    flagged = {(r["scope"], r["measure"], r["figure"]) for r in comparison["regressions"]}
    assert {("LOC", m, "f") for m in ("strict", "lenient", "average")} <= flagged
    assert not {scope for scope, _, _ in flagged} - {"LOC", "overall"}
    loc = comparison["per_type"]["LOC"]["strict"]["f"]
    assert (loc["old"], loc["new"], loc["delta"], loc["direction"]) == (1.0, 0.0, -1.0, "down")
    assert loc["p_bootstrap"] < 0.05 and loc["p_randomization"] < 0.05
    assert loc["ci"][1] < 0
    for label in ("PER", "ORG", "MISC"):
        entry = comparison["per_type"][label]["strict"]["f"]
        assert (entry["delta"], entry["direction"], entry["regression"]) == (0.0, "same", False)
    changes = comparison["changes"]
    assert len(changes) == 19 and {c["change"] for c in changes} == {"broken"}
    assert {c["key"]["label"] for c in changes} == {"LOC"}
    assert all(c["old"]["status"] == "correct" and c["new"]["status"] == "missing" for c in changes)
    assert comparison["significance"]["n_samples"] == 300
    assert {row["id"] for row in comparison["per_doc"]} == {r["meta"]["id"] for r in RECORDS
                                                          if any(s["label"] == "LOC" for s in r["spans"])}


def test_identical_versions_pass_with_zero_deltas(bench):
    run_benchmark("store", bench, nlp=ruler(drop=("MISC",)), name="v1", settings=FAST)
    result = run_benchmark("default", bench, nlp=ruler(drop=("MISC",)), name="v1", settings=FAST)
    assert result.exit_code == EXIT_OK
    comparison = result.report["comparison"]
    cells = [fig for block in [comparison["overall"], *comparison["per_type"].values()]
             for measure in block.values() for fig in measure.values()]
    assert len(cells) == 5 * 3 * 3
    assert all(c["delta"] == 0.0 and c["direction"] == "same" and c["p_bootstrap"] == 1.0
               and c["p_randomization"] == 1.0 and not c["regression"] for c in cells)
    assert comparison["changes"] == [] and comparison["per_doc"] == [] and comparison["verdict"] == "ok"


def test_an_improvement_is_not_a_regression_and_lists_fixes(bench):
    run_benchmark("store", bench, nlp=ruler(drop=("ORG",)), name="v1", settings=FAST)
    result = run_benchmark("default", bench, nlp=ruler(), name="v1", settings=FAST)
    assert result.exit_code == EXIT_OK
    comparison = result.report["comparison"]
    assert comparison["per_type"]["ORG"]["strict"]["f"]["direction"] == "up"
    assert {c["change"] for c in comparison["changes"]} == {"fixed"} and len(comparison["changes"]) == 12


def test_max_drop_tolerates_small_drops(bench):
    run_benchmark("store", bench, nlp=ruler(), name="v1", settings=FAST)
    nlp = ruler(drop=("MISC",))
    strict = run_benchmark("default", bench, nlp=nlp, name="v1", settings=FAST)
    overall = strict.report["comparison"]["overall"]["strict"]["f"]
    assert -0.1 < overall["delta"] < 0
    lenient = run_benchmark("default", bench, nlp=nlp, name="v1",
                            settings=FAST.replace(max_drop=0.5, gate=["f"]))
    # MISC drops by 1.0 > 0.5: still flagged; the overall drop (< 0.1) no longer is
    scopes = {r["scope"] for r in lenient.report["comparison"]["regressions"]}
    assert scopes == {"MISC"}


def test_default_against_another_stored_baseline(bench):
    run_benchmark("store", bench, nlp=ruler(), name="v1", settings=FAST)
    run_benchmark("store", bench, nlp=ruler(drop=("PER",)), name="v2", settings=FAST)
    result = run_benchmark("default", bench, against="v2", settings=FAST)
    assert (result.report["comparison"]["old"], result.report["comparison"]["new"]) == ("v1", "v2")
    assert result.exit_code == EXIT_REGRESSION
    assert {r["scope"] for r in result.report["comparison"]["regressions"]} >= {"PER"}


def test_resampling_is_seeded(bench):
    run_benchmark("store", bench, nlp=ruler(), name="v1", settings=FAST)
    nlp = ruler(drop=("MISC",))
    a = run_benchmark("default", bench, nlp=nlp, name="v1", settings=FAST).report["comparison"]
    b = run_benchmark("default", bench, nlp=nlp, name="v1", settings=FAST).report["comparison"]
    c = run_benchmark("default", bench, nlp=nlp, name="v1", settings=FAST.replace(seed=7)).report["comparison"]
    assert a["overall"] == b["overall"]
    assert a["overall"]["strict"]["f"]["ci"] != c["overall"]["strict"]["f"]["ci"]


def test_compare_needs_the_same_documents(bench):
    docs = list(ruler().pipe(r["text"] for r in RECORDS))
    for doc, r in zip(docs, RECORDS, strict=True):
        doc.user_data["doc_id"] = r["meta"]["id"]
    ev = evaluate(GOLD, docs)
    with pytest.raises(ValueError, match="same documents"):
        compare_evaluations(ev, evaluate(GOLD, docs).merge(ev), FAST)


# ---------------------------------------------------------------------------
# the command line: exit codes for CI


def run_cli(*args: str):
    return CliRunner().invoke(app, ["benchmark", *map(str, args)])


def test_cli_gates_a_regression(bench, tmp_path):
    good, bad = tmp_path / "good", tmp_path / "bad"
    ruler().to_disk(good)
    ruler(drop=("LOC",), version="2.0.0").to_disk(bad)
    stored = run_cli("store", bench, "--model", good, "--quiet")
    assert stored.exit_code == 0, stored.output
    assert (bench / "processed" / "en_demo-1.0.0" / "manifest.json").is_file()
    same = run_cli("default", bench, "--model", good, "--samples", 200, "--quiet")
    assert same.exit_code == 0, same.output
    out = tmp_path / "out"
    worse = run_cli("default", bench, "--model", bad, "--samples", 200, "--json", out / "r.json",
                    "--html", out / "r.html", "--md", out / "r.md")
    assert worse.exit_code == 1, worse.output
    data = json.loads((out / "r.json").read_text())
    assert data["comparison"]["verdict"] == "regression"
    assert "LOC" in {r["scope"] for r in data["comparison"]["regressions"]}
    assert (out / "r.html").read_text(encoding="utf8").lstrip().lower().startswith("<!doctype html")
    assert "LOC" in (out / "r.md").read_text(encoding="utf8")


def test_cli_settings_file_in_the_folder_and_flags(bench, tmp_path):
    model = tmp_path / "m"
    ruler(drop=("MISC",)).to_disk(model)
    (bench / "benchmark.cfg").write_text("[benchmark]\nmax_drop = 0.5\nn_samples = 100\n", encoding="utf8")
    assert run_cli("store", bench, "--model", model, "--name", "v1", "-q").exit_code == 0
    ruler().to_disk(tmp_path / "full")
    # against the folder's settings (max_drop 0.5) a full-score model is no regression, and flags still win
    result = run_cli("default", bench, "--model", tmp_path / "full", "--json", tmp_path / "r.json", "-q",
                     "--seed", "3")
    assert result.exit_code == 0, result.output
    settings = json.loads((tmp_path / "r.json").read_text())["settings"]
    assert (settings["max_drop"], settings["n_samples"], settings["seed"]) == (0.5, 100, 3)


@pytest.mark.parametrize("args", [
    ("nonsense-mode", "{bench}"),
    ("marked-vs-stored", "{bench}"),                      # nothing stored yet
    ("marked-vs-stored", "{bench}", "--name", "../x"),
    ("default", "{bench}", "--threshold", "2"),
    ("store", "{bench}/nope", "--model", "x"),
    ("default", "{bench}", "--config", "{bench}/missing.cfg"),
    ("default", "{bench}", "--model", "x", "--against", "y"),
    ("marked-vs-current", "{bench}", "--predictions", "{bench}/marked/gold.jsonl"),
])
def test_cli_bad_input_exits_2(bench, args):
    result = run_cli(*(a.format(bench=bench) for a in args))
    assert result.exit_code == 2, result.output
    assert "anno-eval: error:" in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_cli_verbose_prints_the_annotations(bench, tmp_path):
    ruler(drop=("PER",)).to_disk(tmp_path / "m")
    result = run_cli("marked-vs-current", bench, "--model", tmp_path / "m", "--verbose")
    assert result.exit_code == 0, result.output
    assert "PER below 0.7" in result.output and "Ada Lovelace" in result.output


# ---------------------------------------------------------------------------
# WNUT-17: two shared-task submissions as two versions


def wnut_predictions(tmp_path: Path, gold: Path, submission: Path) -> Path:
    """The gold tokens with the submission's tags (the submissions re-spell a few tokens)."""
    def sentences(path: Path) -> list[list[list[str]]]:
        out, cur = [], []
        for line in path.read_text(encoding="utf8").splitlines():
            if not line.strip():
                if cur:
                    out.append(cur)
                cur = []
            else:
                cur.append(line.split("\t"))
        if cur:
            out.append(cur)
        return out

    g, s = sentences(gold), sentences(submission)
    assert [len(x) for x in g] == [len(x) for x in s]
    path = tmp_path / f"{submission.name}.conll"
    path.write_text("\n\n".join("\n".join(f"{gt[0]}\t{st[-1]}" for gt, st in zip(gs, ss, strict=True))
                                for gs, ss in zip(g, s, strict=True)) + "\n", encoding="utf8")
    return path


def test_wnut17_two_submissions_as_two_versions(tmp_path):
    gold = shared_file("wnut17", "emerging.test.annotated")
    root = tmp_path / "wnut"
    (root / "marked").mkdir(parents=True)
    os.symlink(gold, root / "marked" / "test.conll")
    names = ("mic-cis.txt", "spinningbytes.txt")
    for name in names:
        pred = wnut_predictions(tmp_path, gold, shared_file("wnut17", "submissions", name))
        run_benchmark("store", root, predictions=pred, name=name.removesuffix(".txt"), settings=FAST)
    result = run_benchmark("default", root, name="mic-cis", against="spinningbytes",
                           settings=BenchmarkSettings(n_samples=500))
    comparison = result.report["comparison"]
    types = {"person", "location", "group", "creative-work", "corporation", "product"}
    assert set(comparison["per_type"]) == types
    old_report = result.report["old"]["report"]
    new_report = result.report["new"]["report"]
    for label in types:
        f = comparison["per_type"][label]["strict"]["f"]
        assert f["old"] == pytest.approx(old_report["per_type"][label]["strict"]["f"])
        assert f["new"] == pytest.approx(new_report["per_type"][label]["strict"]["f"])
        assert f["delta"] == pytest.approx(f["new"] - f["old"])
        assert 0 < f["p_bootstrap"] <= 1 and 0 < f["p_randomization"] <= 1
        assert f["ci"][0] <= f["ci"][1]
    overall = comparison["overall"]["strict"]["f"]
    assert overall["old"] == pytest.approx(old_report["micro"]["strict"]["f"])
    # each version's figures equal those of scoring the submission directly
    for name, report in zip(names, (old_report, new_report), strict=True):
        direct = evaluate(gold, tmp_path / f"{name}.conll", reader_options={"sep": "\t"}).report()
        assert report["micro"] == direct["micro"]
    assert comparison["significance"]["n_samples"] == 500
    assert result.exit_code in (EXIT_OK, EXIT_REGRESSION)
    assert (result.exit_code == EXIT_REGRESSION) == bool(comparison["regressions"])
    changed = {c["change"] for c in comparison["changes"]}
    assert changed <= {"fixed", "broken", "changed"} and {"fixed", "broken"} <= changed
    assert np.isfinite([overall["ci"][0], overall["ci"][1]]).all()
