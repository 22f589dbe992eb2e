"""``anno-eval iaa --verbosity 0|1|2`` (GATE's IAA ``verbosity``): overall figures only; and per type and pair (the
default); and per document. Piped in a real process and at 80 columns, every figure whole and taken from the JSON."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import spacy
from spacy.tokens import DocBin, Span
from typer.testing import CliRunner

from spacy_anno_eval.agreement.iaa import pairwise_f, pairwise_kappa
from spacy_anno_eval.cli.app import app
from spacy_anno_eval.errors import ConfigError
from spacy_anno_eval.report.iaa_terminal import check_verbosity, iaa_lines
from tests.cli.test_terminal_output import NARROW, check_readable, pct

runner = CliRunner()
ANNOTATORS = ("spans:annotator_one", "spans:annotator_two", "spans:annotator_three")
SETS = ";".join(ANNOTATORS)


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Three documents, three annotators (long set names: the matrix numbers them); one document id too long
    for its column."""
    nlp = spacy.blank("en")
    docs = []
    ids = ["d0", "d1", "a-document-id-far-too-long-for-the-document-column-of-the-table"]
    for i, text in enumerate(["Ada met Bob in London .", "Grace <b> joined IBM .", "Alan saw Turing in Rome ."]):
        doc = nlp(text)
        doc.user_data["doc_id"] = ids[i]
        gold = {0: [(0, 1, "PER"), (2, 3, "PER"), (4, 5, "LOC")], 1: [(0, 1, "PER"), (3, 4, "ORG")],
                2: [(0, 1, "PER"), (2, 3, "PER"), (4, 5, "LOC")]}[i]
        doc.spans["annotator_one"] = [Span(doc, s, e, lab) for s, e, lab in gold]
        doc.spans["annotator_two"] = [Span(doc, s, e, lab) for s, e, lab in gold[:-1]]
        third = [(s, e, "LOC" if lab == "ORG" else lab) for s, e, lab in gold]
        doc.spans["annotator_three"] = [Span(doc, s, e, lab) for s, e, lab in third]
        docs.append(doc)
    path = tmp_path_factory.mktemp("verbosity") / "iaa.spacy"
    DocBin(docs=docs, store_user_data=True).to_disk(path)
    return path


def piped(args: list[Any]) -> str:
    """``anno-eval args`` in a real process, stdout a pipe, at 80 columns."""
    done = subprocess.run([sys.executable, "-m", "spacy_anno_eval", *map(str, args)], capture_output=True, text=True,
                          timeout=300, env={**os.environ, **NARROW})
    assert done.returncode == 0, done.stderr
    return done.stdout


def narrow(args: list[Any]) -> str:
    result = runner.invoke(app, [str(a) for a in args], env=NARROW)
    assert result.exit_code == 0, result.output
    return result.stdout


def f_figures(data: dict[str, Any]) -> dict[str, list[str]]:
    """The figures each level must show, from the JSON."""
    overall = [pct(data["mean_of_pairs"][m]["f"]) for m in data["mean_of_pairs"]]
    per_type = [pct(v) for fs in data["per_type"].values() for v in fs.values()]
    docs = [pct(d["strict"]["f"]) for p in data["pairs"] for d in p["report"]["per_doc"]]
    return {"overall": overall, "per_type": per_type, "per_doc": docs}


@pytest.mark.parametrize("run", [piped, narrow], ids=["pipe", "80-columns"])
def test_fmeasure_levels(corpus: Path, tmp_path: Path, run: Any) -> None:
    out = tmp_path / "f.json"
    texts = {v: run(["iaa", corpus, "--sets", SETS, "--json", out, "--verbosity", v]) for v in (0, 1, 2)}
    assert run(["iaa", corpus, "--sets", SETS]) == texts[1]  # 1 is the default
    assert run(["iaa", corpus, "--sets", SETS, "-v", "2"]) == texts[2]
    data = json.loads(out.read_text(encoding="utf8"))
    figures = f_figures(data)
    for text in texts.values():
        check_readable(text)
        assert all(f"F {x}" in text for x in figures["overall"])
    # 0: the overall figures only
    assert len(texts[0].splitlines()) == 2 and "per type" not in texts[0] and "#1" not in texts[0]
    # 1: and the matrix and the figures per type
    assert "per type" in texts[1] and "per document" not in texts[1]
    assert all(x in texts[1] for x in figures["per_type"])
    for name in ANNOTATORS:
        assert name in texts[1]
    # 2: and each pair's figures per document (a long id on a line of its own)
    assert texts[2].startswith(texts[1])
    assert texts[2].count("per document,") == 3
    assert all(x in texts[2] for x in figures["per_doc"])
    lines = texts[2].splitlines()
    long_id = "a-document-id-far-too-long-for-the-document-column-of-the-table"
    at = lines.index(f"  {long_id}")
    assert lines[at + 1].split() == ["2", "0", "1", "0", "80.00", "80.00"]  # one / two: two misses Rome


@pytest.mark.parametrize("run", [piped, narrow], ids=["pipe", "80-columns"])
def test_kappa_levels(corpus: Path, tmp_path: Path, run: Any) -> None:
    out = tmp_path / "k.json"
    texts = {v: run(["iaa", corpus, "--sets", SETS, "--measure", "kappa", "--json", out, "-v", v]) for v in (0, 1, 2)}
    data = json.loads(out.read_text(encoding="utf8"))
    family = data["chance_corrected"]
    for text in texts.values():
        check_readable(text)
        assert f"observed_agreement {pct(data['mean_of_pairs']['observed_agreement'])} %" in text
        for k, v in family["mean_of_pairs"].items():
            assert f"{v:.4f}" in text, k
        assert f"Conger kappa {family['mean_over_types']['conger_kappa']:.4f}" in text
    assert "per type" not in texts[0] and "#1" not in texts[0]
    assert "per type" in texts[1] and "chance-corrected per pair" in texts[1] and "majority" in texts[1]
    for t, f in family["per_type"].items():
        row = next(line for line in texts[1].splitlines() if line.startswith(f"  {t} "))
        assert row.split()[-4:] == [("n/a" if f[k]["value"] is None else f"{f[k]['value']:.4f}")
                                    for k in ("gwet_ac", "brennan_prediger", "conger_kappa",
                                              "fleiss_kappa_averaged")]
    for p in data["pairs"]:
        means = p["chance_corrected"]["mean_over_types"]
        row = next(line for line in texts[1].splitlines() if line.startswith(f"  #{p['i'] + 1} / #{p['j'] + 1}"))
        assert row.split()[-3:] == [f"{means[k]:.4f}" for k in ("gwet_ac", "brennan_prediger", "pabak")]
    assert "per document" not in texts[1] and "items" not in texts[1]
    assert texts[2].startswith(texts[1])
    pair = data["pairs"][0]
    loc = pair["per_type"]["LOC"]
    assert f"{pair['a']} / {pair['b']}, LOC: {loc['n']} items" in texts[2]
    assert "prevalence index" in texts[2] and "bias index" in texts[2]
    for d in loc["per_doc"]:
        assert any(line.split()[:2] == [d["doc_id"], str(d["n"])] or line.split()[:1] == [str(d["n"])]
                   for line in texts[2].splitlines())


def test_python_api_levels_and_checks(corpus: Path) -> None:
    f = pairwise_f(corpus, SETS)
    k = pairwise_kappa(corpus, SETS)
    assert iaa_lines(f, 1, 80) == iaa_lines(f)
    assert len(iaa_lines(f, 0)) < len(iaa_lines(f, 1)) < len(iaa_lines(f, 2))
    assert len(iaa_lines(k, 0)) < len(iaa_lines(k, 1)) < len(iaa_lines(k, 2))
    wide = iaa_lines(f, 1, 200)
    assert any(line.split()[:3] == list(ANNOTATORS) for line in wide)  # full names as headers when they fit
    for bad in (3, -1, True, "1", 1.5):
        with pytest.raises(ConfigError, match="verbosity must be 0"):
            check_verbosity(bad)
    result = runner.invoke(app, ["iaa", str(corpus), "--sets", SETS, "-v", "3"])
    assert result.exit_code == 2
    assert "verbosity" in result.stderr.lower()
