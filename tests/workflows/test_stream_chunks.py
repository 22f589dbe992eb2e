"""One big JSONL or CoNLL file read lazily in chunks of documents (in-process or on Dask) gives the report of
the whole file read at once, byte for byte: the same documents, ids, counts and HTML."""

from __future__ import annotations

import json

import numpy as np
import pytest
from typer.testing import CliRunner

from spacy_anno_eval.cli.app import app
from spacy_anno_eval.errors import InputError
from spacy_anno_eval.report import write_reports
from spacy_anno_eval.report.json import write_json
from spacy_anno_eval.spans.engine import evaluate
from spacy_anno_eval.workflows.qa import run_qa
from spacy_anno_eval.workflows.stream import pair_shards, score_shards

WORDS = ["Paris", "is", "big", "<i>", "Ann", "met", "Bob", "in", "2020", "&"]


def jsonl_pair(folder, n_docs, seed, ids="some"):
    """Key and response JSONL of ``n_docs`` documents; ``ids``: all, none or some documents carry an id."""
    rng = np.random.default_rng(seed)
    key, resp = [], []
    for d in range(n_docs):
        words = [str(w) for w in rng.choice(WORDS, 12)]
        text = " ".join(words)
        bounds = np.cumsum([0] + [len(w) + 1 for w in words])
        spans = []
        for a in sorted(rng.choice(11, 3, replace=False).tolist()):
            spans.append({"start": int(bounds[a]), "end": int(bounds[a] + len(words[a])),
                          "label": str(rng.choice(["PER", "LOC"]))})
        record = {"text": text}
        if ids == "all" or (ids == "some" and d % 3 == 0):
            record["meta"] = {"id": f"doc-{d}"}
        key.append({**record, "spans": spans})
        resp.append({**record, "spans": [s for s in spans if rng.random() < 0.7]})
    for name, records in (("key.jsonl", key), ("resp.jsonl", resp)):
        (folder / name).write_text("\n".join(json.dumps(r) for r in records) + "\n\n", encoding="utf8")
    return folder / "key.jsonl", folder / "resp.jsonl"


def conll_pair(folder, n_sents, seed):
    rng = np.random.default_rng(seed)
    key, resp = [], []
    for s in range(n_sents):
        if s % 4 == 0:
            key.append("-DOCSTART- O\n")
            resp.append("-DOCSTART- O\n")
        rows_k, rows_r = [], []
        for w in rng.choice(WORDS, 8):
            tag = str(rng.choice(["O", "O", "B-PER", "I-PER", "B-LOC"]))
            rows_k.append(f"{w} {tag}")
            rows_r.append(f"{w} {tag if rng.random() < 0.8 else 'O'}")
        key.append("\n".join(rows_k) + "\n")
        resp.append("\n".join(rows_r) + "\n")
    (folder / "key.conll").write_text("\n".join(key), encoding="utf8")
    (folder / "resp.conll").write_text("\n".join(resp), encoding="utf8")
    return folder / "key.conll", folder / "resp.conll"


def report_bytes(ev, path):
    write_json(ev.report(), path)
    return path.read_bytes()


@pytest.mark.parametrize("ids", ["all", "none", "some"])
@pytest.mark.parametrize("size", [1, 7, 50, 1000])
def test_jsonl_in_chunks_equals_the_whole_file(tmp_path, ids, size):
    key, resp = jsonl_pair(tmp_path, 120, seed=len(ids) + size, ids=ids)
    whole = report_bytes(evaluate(str(key), str(resp)), tmp_path / "a.json")
    chunked = score_shards(key, resp, sharded=False, docs_per_chunk=size)
    assert report_bytes(chunked, tmp_path / "b.json") == whole
    assert len(pair_shards(key, resp, docs_per_chunk=size, sharded=False)) == -(-120 // size)
    if ids == "none":
        assert chunked.doc_ids == [str(i) for i in range(120)]


@pytest.mark.parametrize("size", [1, 3, 10, 500])
def test_conll_in_chunks_equals_the_whole_file(tmp_path, size):
    key, resp = conll_pair(tmp_path, 90, seed=size)
    whole = report_bytes(evaluate(str(key), str(resp)), tmp_path / "a.json")
    assert report_bytes(score_shards(key, resp, sharded=False, docs_per_chunk=size), tmp_path / "b.json") == whole
    assert json.loads(whole)["n_docs"] == 23  # 90 sentences, a DOCSTART every fourth


def test_chunks_on_dask_and_the_qa_html(tmp_path):
    pytest.importorskip("distributed")
    key, resp = jsonl_pair(tmp_path, 200, seed=3)
    ev = evaluate(str(key), str(resp))
    whole = report_bytes(ev, tmp_path / "a.json")
    assert report_bytes(score_shards(key, resp, sharded=False, docs_per_chunk=30, scheduler="local:2"),
                        tmp_path / "b.json") == whole
    write_reports(ev, paths={"html": tmp_path / "a.html"}, max_diff_docs=40)
    run_qa(key, resp, paths={"html": tmp_path / "b.html"}, measures=["strict", "lenient", "average"],
           max_diff_docs=40, docs_per_chunk=30, scheduler="local:2")
    assert (tmp_path / "a.html").read_bytes() == (tmp_path / "b.html").read_bytes()


def test_key_and_response_must_chunk_alike(tmp_path):
    key, _ = jsonl_pair(tmp_path, 40, seed=1)
    (tmp_path / "short").mkdir()
    _, resp = jsonl_pair(tmp_path / "short", 25, seed=1)
    with pytest.raises(InputError, match="the same documents in the same order"):
        score_shards(key, resp, sharded=False, docs_per_chunk=10)


def test_cli_score_and_qa_with_chunk_docs(tmp_path):
    key, resp = jsonl_pair(tmp_path, 60, seed=5)
    ev = evaluate(str(key), str(resp))
    whole = {**ev.report(), "decisions": ev.decision_counts()}  # both always count the decisions
    for command in ("score", "qa"):
        out = tmp_path / f"{command}.json"
        result = CliRunner().invoke(app, [command, str(key), str(resp), "--chunk-docs", "8", "--json", str(out),
                                          "--quiet"])
        assert result.exit_code == 0, result.output
        assert json.loads(out.read_text()) == json.loads(json.dumps(whole))
    bad = CliRunner().invoke(app, ["score", str(key), str(resp), "--chunk-docs", "0"])
    assert bad.exit_code == 2 and "--chunk-docs" in bad.output
