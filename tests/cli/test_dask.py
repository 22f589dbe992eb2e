"""The --dask doors of the CLI: bootstrap and significance samples drawn on a local Dask cluster give the
same output as in-process, and --dask without samples to spread is refused."""

from __future__ import annotations

import json

import numpy as np
import pytest
import spacy
from spacy.tokens import DocBin, Span
from typer.testing import CliRunner

from spacy_anno_eval.cli.app import app
from tests.workflows.benchmark.test_run import make_bench, ruler

pytest.importorskip("distributed")


def run(*args):
    result = CliRunner().invoke(app, [str(a) for a in args])
    assert result.exit_code in (0, 1), result.output
    return result


def test_agreement_bootstrap_on_dask(tmp_path):
    rng = np.random.default_rng(0)
    rows = ["a,b,c"] + [",".join(str(v) if rng.random() > 0.1 else "" for v in rng.integers(0, 3, 3))
                        for _ in range(300)]
    (tmp_path / "t.csv").write_text("\n".join(rows) + "\n", encoding="utf8")
    run("agreement", tmp_path / "t.csv", "--bootstrap", 300, "--json", tmp_path / "a.json", "--quiet")
    run("agreement", tmp_path / "t.csv", "--bootstrap", 300, "--dask", "local:2", "--json", tmp_path / "b.json",
        "--quiet")
    a = json.loads((tmp_path / "a.json").read_text())
    assert a == json.loads((tmp_path / "b.json").read_text())
    assert a["krippendorff_alpha"]["ci"]["n_samples"] == 300
    bad = CliRunner().invoke(app, ["agreement", str(tmp_path / "t.csv"), "--dask", "local:2"])
    assert bad.exit_code == 2 and "--bootstrap" in bad.output


def test_iaa_kappa_over_shards_with_bootstrap_on_dask(tmp_path):
    nlp = spacy.blank("en")
    rng = np.random.default_rng(1)
    (tmp_path / "shards").mkdir()
    whole = DocBin(store_user_data=True)
    for s in range(3):
        part = DocBin(store_user_data=True)
        for i in range(10):
            doc = nlp(" ".join(["w"] * 12))
            doc.user_data["doc_id"] = f"s{s}d{i}"
            starts = sorted(rng.choice(10, 4, replace=False).tolist())
            for name in ("a", "b"):
                doc.spans[name] = [Span(doc, t, t + 1, str(rng.choice(["X", "Y"]))) for t in starts]
            part.add(doc)
            whole.add(doc)
        part.to_disk(tmp_path / "shards" / f"{s}.spacy")
    whole.to_disk(tmp_path / "all.spacy")
    common = ["--sets", "spans:a;spans:b", "--types", "*", "--measure", "kappa", "--bootstrap", 200, "--quiet"]
    run("iaa", tmp_path / "all.spacy", *common, "--json", tmp_path / "a.json")
    run("iaa", tmp_path / "shards", "--shards", *common, "--dask", "local:2", "--json", tmp_path / "b.json")
    a = (tmp_path / "a.json").read_text()
    assert a == (tmp_path / "b.json").read_text() and '"cohen_kappa_ci"' in a
    bad = CliRunner().invoke(app, ["iaa", str(tmp_path / "all.spacy"), "--sets", "spans:a;spans:b", "--dask",
                                   "local:2"])
    assert bad.exit_code == 2 and "--bootstrap" in bad.output


def test_benchmark_significance_on_dask(tmp_path):
    from spacy_anno_eval.workflows.benchmark.run import run_benchmark
    from spacy_anno_eval.workflows.benchmark.settings import BenchmarkSettings

    bench = make_bench(tmp_path / "bench")
    fast = BenchmarkSettings(n_samples=200)
    run_benchmark("store", bench, nlp=ruler(), name="v1", settings=fast)
    run_benchmark("store", bench, nlp=ruler(drop=("LOC",)), name="v2", settings=fast)
    for out, extra in (("a.json", []), ("b.json", ["--dask", "local:2"])):
        run("benchmark", "default", bench, "--name", "v1", "--against", "v2", "--samples", 200, "--json",
            tmp_path / out, "--quiet", *extra)
    a = json.loads((tmp_path / "a.json").read_text())
    assert a == json.loads((tmp_path / "b.json").read_text())
    assert a["comparison"]["verdict"] == "regression"
