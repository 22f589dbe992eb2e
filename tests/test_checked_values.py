"""Values are checked (DESIGN.md, Contracts; issue 17, item 3): one test per case.

Each case through the command line (exit code 2, exactly one line on stderr
naming what was wrong, where and what to do, and no JSON file written) and
through the Python API (a :class:`ConfigError` or :class:`InputError`). And
what must keep working: β = inf is F = recall everywhere, and no JSON holds
NaN or Infinity.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from typer.testing import CliRunner

from spacy_anno_eval.cli.app import app
from spacy_anno_eval.errors import ConfigError, InputError

ROOT = Path(__file__).resolve().parents[1]
KEY = ROOT / "assets" / "demo" / "key.jsonl"
RESPONSE = ROOT / "assets" / "demo" / "response.jsonl"
RECORDS = [json.loads(line) for line in KEY.read_text(encoding="utf8").splitlines() if line.strip()]
runner = CliRunner()


def run(*args: object):
    return runner.invoke(app, [str(a) for a in args])


def refused(result, *words: str) -> str:
    """Assert the contract of a refusal: exit 2, one line on stderr holding ``words``; return the line."""
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert result.exit_code == 2, result.output
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("anno-eval: error: ")
    for word in words:
        assert word in lines[0], lines[0]
    return lines[0]


def strict_json(path: Path) -> dict:
    """The JSON of ``path``, refusing NaN and Infinity (which are not JSON)."""
    def constant(name: str) -> None:
        raise AssertionError(f"{path} holds {name}")

    return json.loads(path.read_text(encoding="utf8"), parse_constant=constant)


def iaa_corpus(tmp_path: Path) -> Path:
    from tests.agreement.test_iaa import three_annotators

    return three_annotators(tmp_path)


# ---------------------------------------------------------------------------
# β: finite >= 0, or inf (F = recall); NaN refused at every door


@pytest.mark.parametrize("command", ["score", "qa", "iaa"])
@pytest.mark.parametrize("beta", ["nan", "-1", "-inf"])
def test_cli_refuses_a_beta_that_is_nan_or_negative(tmp_path, command, beta):
    out = tmp_path / "r.json"
    args = [KEY, RESPONSE] if command != "iaa" else [iaa_corpus(tmp_path), "--sets", "spans:a1;spans:a3"]
    line = refused(run(command, *args, "--beta", beta, "--json", out), "beta must be", "inf, meaning recall")
    assert "got" in line and not out.exists()


@pytest.mark.parametrize("command", ["score", "qa", "iaa"])
def test_beta_inf_is_recall_and_the_json_stays_json(tmp_path, command):
    out = tmp_path / "r.json"
    args = [KEY, RESPONSE] if command != "iaa" else [iaa_corpus(tmp_path), "--sets", "spans:a1;spans:a3"]
    result = run(command, *args, "--beta", "inf", "--json", out, "-q")
    assert result.exit_code == 0, result.output
    report = strict_json(out)
    if command == "iaa":
        figures = [f for pair in report["pairs"] for f in pair["report"]["micro"].values()]
        figures += list(report["mean_of_pairs"].values())
    else:
        figures = [report["micro"][m] for m in ("strict", "lenient", "average")]
        figures += [t[m] for t in report["per_type"].values() for m in ("strict", "lenient", "average")]
        assert report["settings"]["beta"] is None  # inf has no JSON form: null (the one policy)
    assert figures and all(f["f"] == f["r"] for f in figures)


def test_python_doors_share_one_beta_check(tmp_path):
    from spacy_anno_eval.agreement.iaa import pairwise_f
    from spacy_anno_eval.figures import check_beta
    from spacy_anno_eval.pipeline.scorers import make_spans_scorer
    from spacy_anno_eval.spans.engine import evaluate
    from spacy_anno_eval.workflows.benchmark.settings import BenchmarkSettings
    from spacy_anno_eval.workflows.qa import run_qa

    corpus = iaa_corpus(tmp_path)
    doors = [
        lambda b: check_beta(b),
        lambda b: evaluate(str(KEY), str(RESPONSE), beta=b),
        lambda b: evaluate(str(KEY), str(RESPONSE)).report(beta=b),
        lambda b: run_qa(KEY, RESPONSE, paths={}, measures=["strict"], beta=b),
        lambda b: pairwise_f(str(corpus), "spans:a1;spans:a3", beta=b),
        lambda b: make_spans_scorer(beta=b),
        lambda b: BenchmarkSettings(beta=b),
    ]
    for door in doors:
        for bad in (math.nan, -1, "1", True):
            with pytest.raises(ConfigError, match="beta"):
                door(bad)
    ev = evaluate(str(KEY), str(RESPONSE), beta=math.inf)
    micro = ev.report()["micro"]["strict"]
    assert micro["f"] == micro["r"] != micro["p"]
    assert make_spans_scorer(beta=math.inf).beta == math.inf
    assert BenchmarkSettings(beta=math.inf).beta == math.inf


# ---------------------------------------------------------------------------
# the benchmark: β = NaN in the config or on the command line no longer turns the gate off


def bench_folder(root: Path) -> Path:
    """clean/ and marked/ from the demo corpus, and two stored baselines: v1 perfect, v2 with one entity."""
    from tests.workflows.benchmark.test_run import make_bench

    bench = make_bench(root / "bench")
    for name, keep in (("v1", None), ("v2", 1)):
        pred = root / f"{name}.jsonl"
        pred.write_text("".join(json.dumps({"text": r["text"], "spans": r["spans"][:keep] if keep else r["spans"],
                                            "meta": r["meta"]}) + "\n" for r in RECORDS), encoding="utf8")
        result = run("benchmark", "store", bench, "--predictions", pred, "--name", name, "-q")
        assert result.exit_code == 0, result.output
    return bench


@pytest.fixture(scope="module")
def bench(tmp_path_factory) -> Path:
    return bench_folder(tmp_path_factory.mktemp("checked"))


def test_benchmark_config_beta_nan_is_refused_naming_the_file_and_line(bench, tmp_path):
    config = tmp_path / "benchmark.cfg"
    config.write_text("[benchmark]\nn_samples = 50\nbeta = NaN\n", encoding="utf8")
    out = tmp_path / "r.json"
    refused(run("benchmark", "default", bench, "--against", "v2", "--config", config, "--json", out),
            f"{config}, line 3", "beta=nan", "inf (F = recall)")
    assert not out.exists()
    refused(run("benchmark", "default", bench, "--against", "v2", "--beta", "nan", "--json", out), "beta=nan")
    assert not out.exists()


def test_benchmark_beta_inf_gates_on_recall(bench, tmp_path):
    out = tmp_path / "r.json"
    result = run("benchmark", "default", bench, "--against", "v2", "--beta", "inf", "--samples", "50",
                 "--json", out, "-q")
    assert result.exit_code == 1, result.output  # a regression: recall fell by 66 points (15 of 44 kept)
    report = strict_json(out)
    assert report["comparison"]["verdict"] == "regression"
    micro = report["new"]["report"]["micro"]["strict"]
    assert micro["f"] == micro["r"] == 15 / 44 and micro["p"] == 1.0


def test_a_garbage_benchmark_config_names_the_line(tmp_path):
    from spacy_anno_eval.workflows.benchmark.settings import load_settings

    config = tmp_path / "benchmark.cfg"
    for text, line, words in [
        ("beta = 1\n", 1, "comes before any [section] header"),
        ("[benchmark]\nbeta = 1\ngarbage\n", 3, "'garbage' is neither 'name = value' nor a [section] header"),
        ("[benchmark]\nbeta = 1\nbeta = 2\n", 3, "beta is set twice in [benchmark]"),
        ("[benchmark]\ntypes = [\"PER\"\n", 2, "is not a valid list"),
    ]:
        config.write_text(text, encoding="utf8")
        with pytest.raises(ConfigError, match=rf"benchmark\.cfg, line {line}\b.*{__import__('re').escape(words)}"):
            load_settings(config)
        refused(run("benchmark", "default", tmp_path, "--config", config), f"line {line}", words)
    config.write_bytes(b"[benchmark]\nkey_set = \"caf\xe9\"\n")
    refused(run("benchmark", "default", tmp_path, "--config", config), "benchmark.cfg, line 2: not UTF-8 text",
            "save the settings file as UTF-8")


# ---------------------------------------------------------------------------
# probabilities, thresholds and confidence levels lie in [0, 1]; NaN anywhere in settings is refused


@pytest.mark.parametrize("args, words", [
    (["benchmark", "default", "{bench}", "--against", "v2", "--threshold", "1.5"], "threshold=1.5"),
    (["benchmark", "default", "{bench}", "--against", "v2", "--threshold", "nan"], "threshold=nan"),
    (["benchmark", "default", "{bench}", "--against", "v2", "--confidence", "nan"], "confidence=nan"),
    (["benchmark", "default", "{bench}", "--against", "v2", "--max-drop", "nan"], "max_drop=nan"),
    (["agreement", "{table}", "--bootstrap", "10", "--confidence", "1.5"], "confidence must be a number in (0, 1)"),
    (["agreement", "{table}", "--confidence", "nan"], "confidence must be a number in (0, 1)"),
    (["gamma", "{units}", "--precision", "nan"], "precision (--precision) must be a number in (0, 1)"),
    (["gamma", "{units}", "--alpha", "nan"], "alpha must be a finite number"),
    (["score", "{key}", "{key}", "--min-overlap", "nan"], "min_overlap must be a percentage in [0, 100]"),
    (["score", "{key}", "{key}", "--zero-division", "nan"], "zero_division must be a number in [0, 1]"),
    (["noisy", "{key}", "{key}", "--threshold", "nan"], "--threshold"),
])
def test_cli_refuses_probabilities_outside_0_1_and_nan(bench, tmp_path, args, words):
    table = tmp_path / "t.csv"
    table.write_text("A,B\nx,x\ny,x\n", encoding="utf8")
    units = tmp_path / "u.csv"
    units.write_text("a,X,0,10\nb,X,0,9\n", encoding="utf8")
    out = tmp_path / "r.json"
    given = [a.format(bench=bench, table=table, units=units, key=KEY) for a in args]
    refused(run(*given, "--json", out), words)
    assert not out.exists()


def test_python_refuses_probabilities_outside_0_1_and_nan():
    from spacy_anno_eval.agreement.coefficients import cohen_kappa, table_bootstrap
    from spacy_anno_eval.agreement.reliability import fleiss_kappa, with_bootstrap
    from spacy_anno_eval.agreement.summary import agreement_summary
    from spacy_anno_eval.figures import check_fraction
    from spacy_anno_eval.workflows.benchmark.settings import BenchmarkSettings

    data = [[1, 2, 1, 2], [1, 2, 2, 2]]
    for bad in (math.nan, 1.5, -0.1, "0.9", None, 1.0):
        with pytest.raises(ConfigError, match="confidence"):
            agreement_summary(data, confidence=bad)
        with pytest.raises(ConfigError, match="confidence"):
            table_bootstrap([[3, 1], [0, 4]], cohen_kappa, confidence=bad)
        with pytest.raises(ConfigError, match="confidence"):
            with_bootstrap(data, fleiss_kappa, confidence=bad)
        with pytest.raises(ConfigError, match="confidence"):
            BenchmarkSettings(confidence=bad)
    for name in ("threshold", "max_drop"):
        for bad in (math.nan, 1.5, -0.1, "0.5"):
            with pytest.raises(ConfigError, match=name):
                BenchmarkSettings(**{name: bad})
    assert check_fraction("p", 1) == 1.0
    with pytest.raises(ConfigError, match=r"p must be a number in \[0, 1\], got nan"):
        check_fraction("p", math.nan)


# ---------------------------------------------------------------------------
# sample counts are consistent


def test_gamma_refuses_fewer_max_samples_than_samples(tmp_path):
    from spacy_anno_eval.gamma.continuum import Continuum
    from spacy_anno_eval.gamma.measure import gamma

    units = tmp_path / "u.csv"
    units.write_text("a,X,0,10\nb,X,0,9\na,Y,20,30\nb,Y,21,30\n", encoding="utf8")
    out = tmp_path / "r.json"
    refused(run("gamma", units, "--samples", "50", "--max-samples", "10", "--json", out),
            "max_samples (--max-samples) must be a whole number >= n_samples (50), got 10")
    assert not out.exists()
    c = Continuum.from_units([("a", 0, 10, "X"), ("b", 0, 9, "X")])
    for kwargs in ({"n_samples": 50, "max_samples": 10}, {"n_samples": 1.5}, {"n_samples": True}):
        with pytest.raises(ConfigError, match="samples"):
            gamma(c, **kwargs)
    from spacy_anno_eval.agreement.summary import agreement_summary

    with pytest.raises(ConfigError, match="bootstrap must be a whole number >= 0"):
        agreement_summary([[1, 2], [1, 2]], bootstrap=2.5)


# ---------------------------------------------------------------------------
# γ: unit offsets are finite and small enough for exact float arithmetic


def test_gamma_refuses_an_offset_too_large_naming_the_file_and_line(tmp_path):
    from spacy_anno_eval.gamma.continuum import Continuum
    from spacy_anno_eval.gamma.measure import gamma

    units = tmp_path / "u.csv"
    units.write_text("annotator,category,start,end\na,X,0,10\nb,X,0,1e300\na,Y,20,30\n", encoding="utf8")
    out = tmp_path / "r.json"
    refused(run("gamma", units, "--json", out), f"{units}, line 3: end 1e300 is beyond ±1e+15",
            "use coarser units")
    assert not out.exists()
    fixture = tmp_path / "u.json"
    fixture.write_text(json.dumps({"continuum": [{"annotator": "a", "start": 0, "end": 10, "category": "X"},
                                                 {"annotator": "b", "start": -1e16, "end": 9, "category": "X"}]}),
                       encoding="utf8")
    refused(run("gamma", fixture), "u.json, continuum, unit 2: start -1e+16 is beyond ±1e+15")
    with pytest.raises(InputError, match="unit 2 of annotator 'b': end 1e\\+300 is beyond"):
        Continuum.from_units([("a", 0, 10, "X"), ("b", 0, 1e300, "X")])
    arrays = Continuum([0, 1], [0.0, 0.0], [10.0, math.inf], [0, 0], ["a", "b"], ["X"])  # made without a check
    with pytest.raises(InputError, match="end inf is not a finite number"):
        gamma(arrays)


# ---------------------------------------------------------------------------
# agreement: non-finite numbers refused, category names keep their printed form


def test_agreement_refuses_an_infinite_value_naming_the_line(tmp_path):
    from spacy_anno_eval.agreement.reliability import krippendorff_alpha
    from spacy_anno_eval.agreement.summary import read_table

    table = tmp_path / "t.csv"
    table.write_text("A,B\n1,1\n2,2\ninf,1\n", encoding="utf8")
    out = tmp_path / "r.json"
    refused(run("agreement", table, "--level", "interval", "--json", out),
            f"{table}, line 4: the value 'inf' is not a finite number", "leave a cell empty for a missing value")
    assert not out.exists()
    with pytest.raises(InputError, match="line 4"):
        read_table(table)
    with pytest.raises(InputError, match="not a finite number"):
        krippendorff_alpha([[1, 2, math.inf], [1, 2, 2]], level="interval")


def test_agreement_category_names_keep_their_printed_form(tmp_path):
    from spacy_anno_eval.agreement.summary import agreement_summary, read_table

    table = tmp_path / "t.csv"
    table.write_text("A,B\n1,1\n2,2\n1,2.0\n01,1\n", encoding="utf8")
    out = tmp_path / "r.json"
    result = run("agreement", table, "--level", "interval", "--json", out, "-q")
    assert result.exit_code == 0, result.output
    report = strict_json(out)
    assert set(report["per_category"]) == {"1", "2"}  # "2.0" and "01" are the numbers 2 and 1, named as first seen
    assert set(report["pairwise"][0]["specific_agreement"]) == {"1", "2"}
    names, data = read_table(table)
    assert agreement_summary(data, "interval", names) == report
    assert data[0][0] == 1.0 and str(data[0][0]) == "1"


# ---------------------------------------------------------------------------
# --encoding and --sep exist wherever a reader takes them, and the messages name them


@pytest.mark.parametrize("command, options", [
    ("score", ("--encoding", "--sep")), ("qa", ("--encoding", "--sep")), ("iaa", ("--encoding", "--sep")),
    ("agreement", ("--encoding", "--sep")), ("align", ("--encoding", "--sep")),
    ("relations", ("--encoding", "--sep")), ("adjudicate", ("--encoding", "--sep")),
    ("benchmark", ("--encoding", "--sep")), ("gamma", ("--sep",)),
])
def test_the_commands_offer_encoding_and_sep(command, options):
    result = runner.invoke(app, [command, "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    for option in options:
        assert option in result.output


def test_a_latin1_corpus_names_the_option_and_reads_with_it(tmp_path):
    from spacy_anno_eval.spans.engine import evaluate

    key, response = tmp_path / "k.jsonl", tmp_path / "r.jsonl"
    record = {"text": "Café de Flore", "spans": [{"start": 0, "end": 13, "label": "LOC"}]}
    for path in (key, response):
        path.write_bytes(("\n" + json.dumps(record, ensure_ascii=False) + "\n").encode("latin-1"))
    out = tmp_path / "r.json"
    refused(run("score", key, response, "--json", out), f"{key}, line 2: not UTF-8 text",
            "pass its encoding with --encoding", "--encoding latin-1")
    assert not out.exists()
    result = run("score", key, response, "--encoding", "latin-1", "--json", out, "-q")
    assert result.exit_code == 0, result.output
    assert strict_json(out)["micro"]["strict"]["f"] == 1.0
    refused(run("score", key, response, "--encoding", "no-such-codec"), "--encoding 'no-such-codec'",
            "unknown encoding")
    with pytest.raises(InputError, match="--encoding"):
        evaluate(str(key), str(response))
    assert evaluate(str(key), str(response), reader_options={"encoding": "latin-1"}).report()["micro"]["strict"][
        "f"] == 1.0


def test_a_conll_file_with_spaces_in_tokens_names_sep_and_reads_with_it(tmp_path):
    conll = tmp_path / "k.conll"
    conll.write_text("Paris\tB-LOC\nis\tO\n\nin\tO\nNew York\tB-LOC\n", encoding="utf8")
    refused(run("score", conll, conll), "k.conll, line 5: 3 columns", "--sep tab")
    result = run("score", conll, conll, "--sep", "tab", "--json", tmp_path / "r.json", "-q")
    assert result.exit_code == 0, result.output
    assert strict_json(tmp_path / "r.json")["counts"]["correct"] == 2


def test_agreement_and_gamma_read_other_delimiters_and_encodings(tmp_path):
    table = tmp_path / "t.csv"
    table.write_bytes("A;B\ncafé;café\nthé;café\n".encode("latin-1"))
    refused(run("agreement", table), "t.csv, line 2: not UTF-8 text", "--encoding latin-1")
    refused(run("agreement", table, "--encoding", "latin-1"), "t.csv, line 1: one column ('A;B')", "--sep")
    out = tmp_path / "a.json"
    result = run("agreement", table, "--encoding", "latin-1", "--sep", ";", "--json", out, "-q")
    assert result.exit_code == 0, result.output
    assert set(strict_json(out)["per_category"]) == {"café", "thé"}
    units = tmp_path / "u.csv"
    units.write_text("a;X;0;10\nb;X;0;9\na;Y;20;30\nb;Y;21;30\n", encoding="utf8")
    refused(run("gamma", units), "u.csv, line 1: 1 field, expected 4")
    result = run("gamma", units, "--sep", ";", "--samples", "5", "--json", tmp_path / "g.json", "-q")
    assert result.exit_code == 0, result.output
    assert strict_json(tmp_path / "g.json")["n_units"] == 4


# ---------------------------------------------------------------------------
# --bdm: a file that is not UTF-8 is named, with its line


@pytest.mark.parametrize("content", [
    "Person\tAgent\nCafé\tPlace\n",                                       # a taxonomy
    "key=Person, response=Agent, bdm=0.5\nkey=Café, response=Place, bdm=0.1\n",  # BDM scores
])
def test_bdm_that_is_not_utf8_names_the_file_and_line(tmp_path, content):
    from spacy_anno_eval.bdm.credit import load_concept_scores

    bdm = tmp_path / "scores.txt"
    bdm.write_bytes(content.encode("latin-1"))
    out = tmp_path / "r.json"
    refused(run("score", KEY, RESPONSE, "--bdm", bdm, "--json", out), f"{bdm}, line 2: not UTF-8 text",
            "as UTF-8")
    assert not out.exists()
    with pytest.raises(InputError, match="line 2: not UTF-8 text"):
        load_concept_scores(bdm)
    refused(run("bdm", bdm, "--out", tmp_path / "o.txt"), "line 2: not UTF-8 text")


@pytest.mark.parametrize("penalty", ["inf", "nan"])
def test_align_refuses_a_gap_penalty_that_is_not_finite(penalty):
    from spacy_anno_eval.annalist.align import Settings

    line = refused(run("align", KEY, KEY, "--level", "order", "--algorithm", "dp", "--gap-penalty", penalty, "-q"),
                   "--gap-penalty")
    assert penalty in line
    with pytest.raises(ConfigError, match="gap_penalty"):
        Settings(gap_penalty=float(penalty))
