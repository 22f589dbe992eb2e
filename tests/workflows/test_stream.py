"""Shard-by-shard scoring (spacy_anno_eval.workflows.stream): one stream, 7 shards merged and a 2-worker Dask
LocalCluster give byte-identical reports; a worker that dies mid-run is retried and the result stays exact."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
import spacy
from spacy.tokens import DocBin, Span
from typer.testing import CliRunner

from spacy_anno_eval.cli.app import app
from spacy_anno_eval.errors import ConfigError, InputError
from spacy_anno_eval.io.units import shard_paths
from spacy_anno_eval.report.json import write_json
from spacy_anno_eval.spans.engine import evaluate
from spacy_anno_eval.workflows.stream import pair_shards, score_shards
from tests.shards import write_sharded


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    """7 shards of 30 documents (key and response) and the same documents as one DocBin each."""
    nlp = spacy.blank("en")
    rng = np.random.default_rng(0)

    def pair(s, i):
        k, r = nlp(" ".join(["w"] * 20)), nlp(" ".join(["w"] * 20))
        k.user_data["doc_id"] = r.user_data["doc_id"] = f"s{s}d{i}"
        starts = sorted(rng.choice(18, 4, replace=False).tolist())
        k.ents = spacy.util.filter_spans([Span(k, a, a + int(rng.integers(1, 3)), str(rng.choice(list("ABC"))))
                                          for a in starts])
        r.ents = spacy.util.filter_spans([Span(r, a, a + int(rng.integers(1, 3)), str(rng.choice(list("ABC"))))
                                          for a in starts[:3]])
        return k, r

    return write_sharded(tmp_path_factory.mktemp("shards"), ((pair(s, i) for i in range(30)) for s in range(7)))


def json_bytes(ev, path):
    write_json(ev.report(), path)
    return path.read_bytes()


def test_one_stream_seven_shards_and_dask_are_byte_identical(corpus, tmp_path):
    pytest.importorskip("distributed")
    one = json_bytes(evaluate(str(corpus / "all_key.spacy"), str(corpus / "all_resp.spacy")), tmp_path / "a.json")
    shards = json_bytes(score_shards(corpus / "key", corpus / "resp"), tmp_path / "b.json")
    assert len(shard_paths(corpus / "key")) == 7
    dask = json_bytes(score_shards(corpus / "key", corpus / "resp", scheduler="local:2"), tmp_path / "c.json")
    assert one == shards == dask
    assert json.loads(one)["n_docs"] == 210


def test_a_worker_that_dies_is_retried(corpus, tmp_path):
    pytest.importorskip("distributed")
    from tests.stream_faults import die_once

    one = json_bytes(score_shards(corpus / "key", corpus / "resp"), tmp_path / "a.json")
    marker = corpus / "key" / "03.died"
    marker.unlink(missing_ok=True)
    survived = score_shards(corpus / "key", corpus / "resp", scheduler="local:2", task=die_once)
    assert marker.exists()  # the first attempt did kill its worker
    assert json_bytes(survived, tmp_path / "b.json") == one


def test_shard_pairing_errors_and_glob(corpus, tmp_path):
    assert [Path(p).name for p, _ in pair_shards(str(corpus / "key" / "0[0-2].spacy"),
                                           str(corpus / "resp" / "0[0-2].spacy"))] == ["00.spacy", "01.spacy",
                                                                                        "02.spacy"]
    with pytest.raises(InputError, match="7 shards"):
        pair_shards(corpus / "key", str(corpus / "resp" / "00.spacy"))
    with pytest.raises(InputError, match="matches no file"):
        shard_paths(str(tmp_path / "*.spacy"))
    with pytest.raises(ConfigError, match="local:N"):  # a bad setting
        score_shards(corpus / "key", corpus / "resp", scheduler="local:0")


def test_cli_score_shards(corpus, tmp_path):
    result = CliRunner().invoke(app, ["score", str(corpus / "key"), str(corpus / "resp"), "--shards", "--json",
                                      str(tmp_path / "s.json"), "--quiet"])
    assert result.exit_code == 0, result.output
    ev = evaluate(str(corpus / "all_key.spacy"), str(corpus / "all_resp.spacy"))
    whole = {**ev.report(), "decisions": ev.decision_counts()}  # score always counts the decisions
    assert json.loads((tmp_path / "s.json").read_text()) == json.loads(json.dumps(whole))


def test_gamma_samples_on_dask_equal_in_process():
    """γ's random continua as Dask tasks: the same seeds per sample, so the same expected disorder."""
    pytest.importorskip("distributed")
    from spacy_anno_eval.gamma import gamma
    from spacy_anno_eval.gamma.cst import reference_continuum, shuffle

    c = shuffle(reference_continuum(40, seed=1), 3, magnitude=0.2, seed=2)
    here = gamma(c, alpha=3, n_samples=12, seed=5, n_jobs=1)
    there = gamma(c, alpha=3, n_samples=12, seed=5, scheduler="local:2")
    np.testing.assert_array_equal(here.sample_disorders, there.sample_disorders)
    assert here.to_dict() == there.to_dict()


def test_iaa_over_shards_equals_the_whole(tmp_path):
    """Pairwise F of three annotators over 3 shards equals the same corpus in one file (counts are sums)."""
    from spacy_anno_eval.agreement.iaa import pairwise_f, to_json

    nlp = spacy.blank("en")
    rng = np.random.default_rng(3)
    whole = DocBin(store_user_data=True)
    (tmp_path / "shards").mkdir()
    for s in range(3):
        db = DocBin(store_user_data=True)
        for i in range(10):
            doc = nlp(" ".join(["w"] * 15))
            doc.user_data["doc_id"] = f"s{s}d{i}"
            for a in ("a1", "a2", "a3"):
                starts = sorted(rng.choice(13, 3, replace=False).tolist())
                doc.spans[a] = [Span(doc, x, x + 1, str(rng.choice(list("XY")))) for x in starts]
            db.add(doc)
            whole.add(doc)
        db.to_disk(tmp_path / "shards" / f"{s}.spacy")
    whole.to_disk(tmp_path / "whole.spacy")
    sets = "spans:a1;spans:a2;spans:a3"
    one = to_json(pairwise_f(tmp_path / "whole.spacy", sets, consensus=None))
    sharded = to_json(pairwise_f(tmp_path / "shards", sets, shards=True))
    assert json.dumps(one, sort_keys=True) == json.dumps(sharded, sort_keys=True)
    result = CliRunner().invoke(app, ["iaa", str(tmp_path / "shards"), "--sets", sets, "--shards", "--html",
                                      str(tmp_path / "m"), "--quiet"])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "m" / "pair-0-1.html").is_file()


def test_shards_without_ids_number_documents_as_the_whole_corpus(tmp_path):
    """DocBins without doc ids: each shard numbers its documents from 0, the merged report from the first
    document of the whole corpus, as reading the folder at once does; an id a document does carry is kept."""
    nlp = spacy.blank("en")
    for side in ("key", "resp"):
        (tmp_path / side).mkdir()
    for s in range(3):
        kb, rb = DocBin(store_user_data=True), DocBin(store_user_data=True)
        for i in range(4):
            k, r = nlp("a b c d"), nlp("a b c d")
            k.ents = [Span(k, i % 3, i % 3 + 1, "X")]
            r.ents = [Span(r, 1, 2, "X")]
            if (s, i) == (2, 1):
                k.user_data["doc_id"] = r.user_data["doc_id"] = "named"
            kb.add(k)
            rb.add(r)
        kb.to_disk(tmp_path / "key" / f"{s}.spacy")
        rb.to_disk(tmp_path / "resp" / f"{s}.spacy")
    whole = evaluate(str(tmp_path / "key"), str(tmp_path / "resp"))
    merged = score_shards(tmp_path / "key", tmp_path / "resp")
    assert merged.doc_ids == whole.doc_ids == [str(i) for i in range(9)] + ["named", "10", "11"]
    assert json_bytes(merged, tmp_path / "a.json") == json_bytes(whole, tmp_path / "b.json")
