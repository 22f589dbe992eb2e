"""Terminal output for people and for logs (issue 18, item 2): every command, its output piped at ``COLUMNS=80``,
prints every figure whole (no '…'), the same figures as its JSON (percentages with two decimals in the tables,
fractions in the JSON), no ``None``, no ``-0.00``, no note twice; every ``--help`` keeps its brackets."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import spacy
from spacy.tokens import DocBin, Span
from typer.testing import CliRunner

from spacy_anno_eval.cli.app import app
from spacy_anno_eval.workflows.benchmark.run import run_benchmark
from spacy_anno_eval.workflows.benchmark.settings import BenchmarkSettings
from tests.workflows.benchmark.test_run import make_bench, ruler

ROOT = Path(__file__).resolve().parents[2]
DEMO_KEY = ROOT / "assets" / "demo" / "key.jsonl"
DEMO_RESPONSE = ROOT / "assets" / "demo" / "response.jsonl"
NARROW = {"COLUMNS": "80", "LINES": "50", "TERM": "dumb"}
runner = CliRunner()
ANNOTATORS = ("spans:annotator_one", "spans:annotator_two", "spans:annotator_three")


@pytest.fixture(scope="module")
def inputs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """One input of each kind the commands read."""
    folder = tmp_path_factory.mktemp("terminal")
    files: dict[str, Path] = {}
    # iaa: three annotators whose set names share their first 8 characters
    nlp = spacy.blank("en")
    docs = []
    for i, text in enumerate(["Ada met Bob in London .", "Grace <b> joined IBM .", "Alan saw Turing in Rome ."]):
        doc = nlp(text)
        doc.user_data["doc_id"] = f"d{i}"
        gold = {0: [(0, 1, "PER"), (2, 3, "PER"), (4, 5, "LOC")], 1: [(0, 1, "PER"), (3, 4, "ORG")],
                2: [(0, 1, "PER"), (2, 3, "PER"), (4, 5, "LOC")]}[i]
        doc.spans["annotator_one"] = [Span(doc, s, e, lab) for s, e, lab in gold]
        doc.spans["annotator_two"] = [Span(doc, s, e, lab) for s, e, lab in gold[:-1]]
        third = [(s, e, "LOC" if lab == "ORG" else lab) for s, e, lab in gold]
        doc.spans["annotator_three"] = [Span(doc, s, e, lab) for s, e, lab in third]
        docs.append(doc)
    files["iaa"] = folder / "iaa.spacy"
    DocBin(docs=docs, store_user_data=True).to_disk(files["iaa"])
    # agreement: a table whose notes (warnings) come out
    files["table"] = folder / "table.csv"
    files["table"].write_text("a,b,c\nx,x,x\ny,x,y\ny,y,\nx,x,x\n,y,y\n", encoding="utf8")
    files["units"] = folder / "units.csv"
    files["units"].write_text("a,X,0,5\nb,X,0,6\na,Y,10,15\nb,Y,11,15\na,X,20,25\nb,Y,20,26\n", encoding="utf8")
    # noisy: LOC has no prediction (nerval prints None there)
    files["gold"] = folder / "gold.bio"
    files["gold"].write_text("Gérard B-PER\nde I-PER\nNerval I-PER\nwas O\nborn O\nin O\nParis B-LOC\nin O\n"
                             "1808 B-DAT\n. O\n", encoding="utf8")
    files["pred"] = folder / "pred.bio"
    files["pred"].write_text("G*rard B-PER\nde I-PER\n*N*erval I-PER\nbo*rn O\nin O\nParis B-***\nin O\n"
                             "1833 B-DAT\n*. O\n", encoding="utf8")
    # trees
    conllu = ("1\tAda\tAda\tPROPN\t_\t_\t2\tnsubj\t_\t_\n2\twrote\twrite\tVERB\t_\t_\t0\troot\t_\t_\n"
              "3\tcode\tcode\tNOUN\t_\t_\t2\tobj\t_\t_\n\n")
    files["tree_key"] = folder / "key.conllu"
    files["tree_key"].write_text(conllu, encoding="utf8")
    files["tree_response"] = folder / "response.conllu"
    files["tree_response"].write_text(conllu.replace("\tobj\t", "\tiobj\t"), encoding="utf8")
    files["taxonomy"] = folder / "tax.tsv"
    files["taxonomy"].write_text("PER\tENT\nORG\tENT\nLOC\tENT\n", encoding="utf8")
    # relations: two documents of Prodigy records
    text = "Ann Lee wrote Deep Nets in Paris"
    per, work, loc = ({"start": s, "end": e, "token_start": ts, "token_end": te, "label": lab}
                      for s, e, ts, te, lab in ((0, 7, 0, 1, "PER"), (14, 23, 3, 4, "WORK"), (27, 32, 6, 6, "LOC")))
    rel = {"head": 1, "child": 4, "head_span": per, "child_span": work, "label": "authorOf"}
    lives = {"head": 1, "child": 6, "label": "livesIn"}
    key = [{"text": text, "spans": [per, work, loc], "relations": [rel, lives], "meta": {"id": "p1"}}]
    response = [{"text": text, "spans": [per, work, loc], "relations": [rel], "meta": {"id": "p1"}}]
    files["rel_key"], files["rel_response"] = folder / "rel_key.jsonl", folder / "rel_response.jsonl"
    files["rel_key"].write_text("".join(json.dumps(r) + "\n" for r in key), encoding="utf8")
    files["rel_response"].write_text("".join(json.dumps(r) + "\n" for r in response), encoding="utf8")
    # benchmark: two stored baselines, v2 a regression from v1
    bench = make_bench(folder / "bench")
    fast = BenchmarkSettings(n_samples=50)
    run_benchmark("store", bench, nlp=ruler(), name="v1", settings=fast)
    run_benchmark("store", bench, nlp=ruler(drop=("LOC",)), name="v2", settings=fast)
    files["bench"] = bench
    files["out"] = folder / "out"
    files["out"].mkdir()
    return files


def run(args: list[Any], code: int = 0) -> str:
    result = runner.invoke(app, [str(a) for a in args], env=NARROW)
    assert result.exit_code == code, result.output
    return result.stdout


def check_readable(text: str, tables_only: bool = False) -> None:
    """Nothing cut, no None, no negative zero, no note twice, no line wider than 80 columns (``tables_only``:
    prose lines, notes and paths, may be longer)."""
    assert "…" not in text and "..." not in text, text
    assert "None" not in text, text
    assert not re.search(r"-0\.0+(?![0-9])", text), text
    assert all(len(line) <= 80 for line in text.splitlines() if not tables_only or "note:" not in line), text
    notes = Counter(line.strip() for line in text.splitlines()
                    if line.strip().lower().startswith(("note", "warning", "anno-eval: warning")))
    assert all(n == 1 for n in notes.values()), notes


def printed(name: str, args: list[Any]) -> str:
    """What ``anno-eval args`` prints piped at 80 columns, shown under ``name`` and checked readable."""
    text = run(args)
    show(name, text)
    check_readable(text)
    return text


def pct(value: float) -> str:
    text = f"{100 * value:.2f}"
    return "0.00" if text == "-0.00" else text


def show(name: str, text: str) -> None:
    if os.environ.get("SHOW_TERMINAL"):
        sys.stderr.write(f"\n===== {name}\n{text}")


# -- the span scorers: score, qa, benchmark -----------------------------------------------------------------------


def corpus_figures(report: dict[str, Any], measures: tuple[str, ...] = ("strict", "lenient", "average")) -> list[str]:
    """Every percentage the corpus tables show, from the JSON."""
    blocks = [*report["per_type"].values(), report["micro"], report["macro_types"], report["macro_docs"]]
    out = [pct(b[m][k]) for b in blocks for m in measures for k in "prf"]
    out += [pct(e[k]) for e in [report["muc"], *report["semeval"].values()] for k in "prf"]
    return out


def test_score_piped_at_80_columns_prints_every_figure(inputs: dict[str, Path]) -> None:
    """A real process with its stdout a pipe, as CI logs and ``| cat`` read it."""
    out = inputs["out"] / "score.json"
    done = subprocess.run([sys.executable, "-m", "spacy_anno_eval", "score", str(DEMO_KEY), str(DEMO_RESPONSE),
                           "--json", str(out)], capture_output=True, text=True, timeout=300,
                          env={**os.environ, **NARROW})
    assert done.returncode == 0, done.stderr
    show("score", done.stdout)
    check_readable(done.stdout)
    report = json.loads(out.read_text(encoding="utf8"))
    for figure in corpus_figures(report):
        assert figure in done.stdout, figure
    for label in report["per_type"]:
        assert label in done.stdout


def test_qa_prints_every_figure_and_the_classification(inputs: dict[str, Path]) -> None:
    out = inputs["out"] / "qa.json"
    text = printed("iaa", ["qa", DEMO_KEY, DEMO_RESPONSE, "--classify", "ORG:label", "--json", out])
    show("qa --classify", text)
    check_readable(text)
    report = json.loads(out.read_text(encoding="utf8"))
    for figure in corpus_figures(report):
        assert figure in text, figure
    classification = report["classification"]
    assert classification["cohen_kappa"] is not None and classification["scott_pi"] is not None
    assert f"{classification['cohen_kappa']:.4f}" in text and f"{classification['scott_pi']:.4f}" in text
    assert "kappa" in text.lower() and "pi" in text.lower()


def test_benchmark_prints_every_figure(inputs: dict[str, Path]) -> None:
    out = inputs["out"] / "bench.json"
    text = run(["benchmark", "default", inputs["bench"], "--name", "v1", "--against", "v2", "--samples", "50",
                "--json", out], code=1)
    show("benchmark default", text)
    check_readable(text)
    assert "REGRESSION" in text
    text = run(["benchmark", "marked-vs-stored", inputs["bench"], "--name", "v2", "--json", out])
    show("benchmark marked-vs-stored", text)
    check_readable(text)
    report = json.loads(out.read_text(encoding="utf8"))
    for figure in corpus_figures(report["stored"]["report"]):
        assert figure in text, figure


# -- agreement: iaa, agreement, gamma -----------------------------------------------------------------------------


def test_iaa_f_prints_full_set_names_and_every_figure(inputs: dict[str, Path]) -> None:
    out = inputs["out"] / "iaa.json"
    text = run(["iaa", inputs["iaa"], "--sets", ",".join(ANNOTATORS), "--json", out])
    for name in ANNOTATORS:
        assert name in text
    data = json.loads(out.read_text(encoding="utf8"))
    assert data["annotators"] == list(ANNOTATORS)  # commas as good as semicolons
    for row in data["matrix"]["micro"]:
        for v in row:
            assert v is None or pct(v) in text


def test_iaa_kappa_prints_its_bootstrap_intervals(inputs: dict[str, Path]) -> None:
    out = inputs["out"] / "kappa.json"
    text = printed("iaa kappa", ["iaa", inputs["iaa"], "--sets", ";".join(ANNOTATORS), "--measure", "kappa", "--types",
                "PER,LOC;ORG", "--bootstrap", "30", "--json", out])
    for name in ANNOTATORS:
        assert name in text
    data = json.loads(out.read_text(encoding="utf8"))
    intervals = [ci for ci in _find(data, "_ci") if isinstance(ci, dict) and ci.get("low") is not None]
    assert intervals, data
    for ci in intervals:
        assert f"{ci['low']:.4f}" in text and f"{ci['high']:.4f}" in text


def _find(data: Any, key: str) -> list[Any]:
    """Every value under a key ending with ``key`` anywhere in ``data``."""
    found = []
    if isinstance(data, dict):
        for k, v in data.items():
            found += [v] if k.endswith(key) else []
            found += _find(v, key)
    elif isinstance(data, list):
        for v in data:
            found += _find(v, key)
    return found


def test_agreement_prints_each_note_once_on_its_own_line(inputs: dict[str, Path]) -> None:
    out = inputs["out"] / "agreement.json"
    result = runner.invoke(app, ["agreement", str(inputs["table"]), "--bootstrap", "30", "--json", str(out)],
                           env=NARROW)
    assert result.exit_code == 0, result.output
    show("agreement", result.output)
    check_readable(result.output, tables_only=True)
    alpha_line = next(line for line in result.stdout.splitlines() if "alpha" in line)
    assert "note" not in alpha_line
    summary = json.loads(out.read_text(encoding="utf8"))
    assert pct(summary["observed_agreement"]) in result.stdout  # a proportion: a percentage
    ci = summary["krippendorff_alpha"]["ci"]
    assert f"{ci['low']:.4f}" in result.stdout and f"{ci['high']:.4f}" in result.stdout


def test_gamma_prints_its_interval(inputs: dict[str, Path]) -> None:
    out = inputs["out"] / "gamma.json"
    text = printed("gamma", ["gamma", inputs["units"], "--samples", "10", "--json", out])
    data = json.loads(out.read_text(encoding="utf8"))
    assert f"{data['gamma']:.4f}" in text


# -- the other families: align, relations, noisy, trees, bdm ------------------------------------------------------


def muc_figures(entries: list[dict[str, Any]], keys: tuple[str, str, str]) -> list[str]:
    return [pct(e[k]) for e in entries for k in keys]


def test_align_prints_percentages(inputs: dict[str, Path]) -> None:
    report = inputs["out"] / "align"
    text = printed("align", ["align", DEMO_KEY, DEMO_RESPONSE, "--report", report])
    data = json.loads((report / "scores.json").read_text(encoding="utf8"))
    for figure in muc_figures(list(data["entities"]["collection"].values()), ("REC", "PRE", "F")):
        assert figure in text, figure


def test_relations_prints_percentages(inputs: dict[str, Path]) -> None:
    report = inputs["out"] / "relations"
    text = printed("relations", ["relations", inputs["rel_key"], inputs["rel_response"], "--report", report])
    rel = json.loads((report / "scores.json").read_text(encoding="utf8"))["relations"]
    for figure in muc_figures([*rel["per_name"].values(), rel["all"]], ("r", "p", "f")):
        assert figure in text, figure


def test_noisy_prints_percentages_and_no_none(inputs: dict[str, Path]) -> None:
    out = inputs["out"] / "noisy.json"
    text = printed("noisy", ["noisy", inputs["gold"], inputs["pred"], "--json", out])
    data = json.loads(out.read_text(encoding="utf8"))
    assert data["per_type"]["LOC"]["predicted"] is None  # null in the JSON, as nerval prints it
    for figure in muc_figures([*data["per_type"].values(), data["all"]], ("p", "r", "f")):
        assert figure in text, figure


def test_trees_prints_percentages(inputs: dict[str, Path]) -> None:
    out = inputs["out"] / "trees.json"
    text = printed("trees", ["trees", inputs["tree_key"], inputs["tree_response"], "--json", out])
    data = json.loads(out.read_text(encoding="utf8"))
    for k in ("uas", "las", "label_accuracy"):
        assert pct(data[k]) in text


def test_bdm_prints_a_readable_line(inputs: dict[str, Path]) -> None:
    result = runner.invoke(app, ["bdm", str(inputs["taxonomy"]), "--out", str(inputs["out"] / "bdm.txt")],
                           env=NARROW)
    assert result.exit_code == 0, result.output
    check_readable(result.output.replace(str(inputs["out"]), "OUT"))
    assert "3 concepts" in result.output or "4 concepts" in result.output


def test_sets_prints_every_count_and_full_set_names(inputs: dict[str, Path]) -> None:
    out = inputs["out"] / "sets.json"
    text = printed("sets", ["sets", inputs["iaa"], "--json", out])
    data = json.loads(out.read_text(encoding="utf8"))
    assert [s["name"] for s in data["sets"]] == ["ents", *sorted(ANNOTATORS)]  # span groups by name
    for s in data["sets"]:
        assert s["name"] in text and f"{s['documents_covered']} of {data['n_docs']}" in text
        for label, count in s["types"].items():
            assert re.search(rf"{label}\s+│\s+{count}\s", text), (label, count)


def test_convert_prints_one_readable_line(inputs: dict[str, Path]) -> None:
    text = run(["convert", inputs["iaa"], inputs["out"] / "converted.spacy"])
    check_readable(text.replace(str(inputs["out"]), "OUT"))
    assert "3 documents, 3 set(s), 21 annotations written to" in text


# -- help texts ---------------------------------------------------------------------------------------------------


COMMANDS = ("score", "qa", "compare", "adjudicate", "agreement", "iaa", "bdm", "gamma", "align", "relations", "noisy",
            "trees", "coref", "coref-iaa", "benchmark", "sets", "convert")
BRACKETS = {"bdm": "[owl]", "benchmark": "[benchmark]"}


@pytest.mark.parametrize("command", COMMANDS)
def test_every_help_keeps_its_brackets_at_80_columns(command: str) -> None:
    result = runner.invoke(app, [command, "--help"], env=NARROW)
    assert result.exit_code == 0, result.output
    text = result.stdout
    assert "{" not in text.splitlines()[0] and text.startswith(f"Usage: anno-eval {command} [OPTIONS]")
    assert all(len(line) <= 80 for line in text.splitlines()), text
    if command in BRACKETS:
        assert BRACKETS[command] in " ".join(text.split())
    assert "needs the  extra" not in text and "( section)" not in text


def test_help_piped_in_a_real_process_keeps_its_brackets() -> None:
    done = subprocess.run([sys.executable, "-m", "spacy_anno_eval", "bdm", "--help"], capture_output=True, text=True,
                          timeout=300, env={**os.environ, **NARROW})
    assert done.returncode == 0, done.stderr
    assert "[owl]" in " ".join(done.stdout.split())


# -- lists take ',' or ';' alike ----------------------------------------------------------------------------------


@pytest.mark.parametrize("sep", [",", ";"])
def test_types_take_commas_and_semicolons_alike(inputs: dict[str, Path], sep: str) -> None:
    out = inputs["out"] / f"types{sep}.json"
    run(["score", DEMO_KEY, DEMO_RESPONSE, "--types", f"PER{sep}LOC", "--json", out, "-q"])
    assert set(json.loads(out.read_text(encoding="utf8"))["per_type"]) == {"PER", "LOC"}
    text = run(["qa", DEMO_KEY, DEMO_RESPONSE, "--types", f"PER{sep} LOC", "--measures", f"strict{sep}lenient"])
    assert "strict" in text and "lenient" in text and "average" not in text
    out = inputs["out"] / f"iaa{sep}.json"
    run(["iaa", inputs["iaa"], "--sets", sep.join(ANNOTATORS[:2]), "--types", f"PER{sep}LOC", "--json", out, "-q"])
    assert json.loads(out.read_text(encoding="utf8"))["annotators"] == list(ANNOTATORS[:2])


def test_qa_json_holds_the_classification(inputs: dict[str, Path]) -> None:
    out = inputs["out"] / "qa-only.json"
    run(["qa", DEMO_KEY, DEMO_RESPONSE, "--classify", "ORG:label", "--json", out, "-q"])
    classification = json.loads(out.read_text(encoding="utf8"))["classification"]
    assert {"cohen_kappa", "scott_pi"} <= set(classification)




def test_the_macro_line_says_which_documents_it_covers() -> None:
    text = run(["score", DEMO_KEY, DEMO_RESPONSE])
    assert ("macro (docs): the mean over 15 of 16 documents; 1 left out, because documents with no annotation "
            "on either side") in " ".join(text.split())
