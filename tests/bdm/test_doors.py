"""Every door offers BDM credit, and every door gives the figures of ``anno-eval score --bdm``.

``score --bdm`` (the whole corpus), ``score --shards --bdm``, ``score --chunk-docs --bdm``,
``qa --bdm`` (whole and sharded), ``iaa --shards --bdm`` and the ``anno_eval``
pipeline component (config ``bdm``) all ask the result object for its credit
sum (:class:`spacy_anno_eval.bdm.credit.BdmCreditSum`); none computes BDM itself.
"""

from __future__ import annotations

import json
import warnings

import pytest
import spacy
from spacy.tokens import DocBin, Span
from typer.testing import CliRunner

from spacy_anno_eval.cli.app import app
from spacy_anno_eval.errors import ConfigError, UnknownConceptWarning


def run(*args: str) -> dict:
    result = CliRunner().invoke(app, [*map(str, args), "--quiet"])
    assert result.exit_code == 0, result.output
    return result


def bdm_of(path) -> dict:
    return json.loads(path.read_text(encoding="utf8"))["bdm"]


@pytest.fixture(scope="module")
def by_score(corpus, tmp_path_factory):
    out = tmp_path_factory.mktemp("score") / "s.json"
    run("score", corpus / "all_key.spacy", corpus / "all_resp.spacy", "--bdm", corpus / "tree.bdm", "--json", out)
    figures = bdm_of(out)
    assert figures["micro"]["lenient"]["f"] > json.loads(out.read_text())["micro"]["lenient"]["f"]  # near misses
    assert figures["unknown_concepts"]  # the concept the taxonomy does not know is listed, not dropped
    return figures


@pytest.mark.parametrize("how", [("--shards",), ("--chunk-docs", "7")])
def test_score_on_shards_or_chunks_gives_the_figures_of_the_whole(corpus, by_score, tmp_path, how):
    out = tmp_path / "s.json"
    if how[0] == "--shards":
        run("score", corpus / "key", corpus / "resp", "--shards", "--bdm", corpus / "tree.bdm", "--json", out)
    else:  # chunks of a JSONL file: convert the corpus first
        key, resp = tmp_path / "k.jsonl", tmp_path / "r.jsonl"
        for src, dst in ((corpus / "all_key.spacy", key), (corpus / "all_resp.spacy", resp)):
            docs = DocBin().from_disk(src).get_docs(spacy.blank("en").vocab)
            dst.write_text("".join(json.dumps({"id": d.user_data.get("doc_id"), "text": d.text,
                                               "spans": [{"start": e.start_char, "end": e.end_char,
                                                          "label": e.label_} for e in d.ents]}) + "\n"
                                   for d in docs), encoding="utf8")
        run("score", key, resp, *how, "--key-set", "spans", "--bdm", corpus / "tree.bdm", "--json", out)
    assert bdm_of(out) == by_score


@pytest.mark.parametrize("sharded", [False, True])
def test_qa_gives_the_figures_of_score(corpus, by_score, tmp_path, sharded):
    out = tmp_path / "qa.json"
    inputs = (corpus / "key", corpus / "resp", "--shards") if sharded else (corpus / "all_key.spacy",
                                                                             corpus / "all_resp.spacy")
    run("qa", *inputs, "--bdm", corpus / "tree.bdm", "--json", out)
    assert bdm_of(out) == by_score


def test_the_component_gives_the_figures_of_score(corpus, by_score, tmp_path):
    nlp = spacy.blank("en")
    qa = nlp.add_pipe("anno_eval", config={"key": "spans:key", "response": "ents", "bdm": str(corpus / "tree.bdm")})
    keys = list(DocBin().from_disk(corpus / "all_key.spacy").get_docs(nlp.vocab))
    resps = list(DocBin().from_disk(corpus / "all_resp.spacy").get_docs(nlp.vocab))
    for k, r in zip(keys, resps, strict=True):
        r.spans["key"] = [Span(r, e.start, e.end, e.label_) for e in k.ents]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UnknownConceptWarning)
        list(nlp.pipe(resps))
    assert json.loads(json.dumps(qa.last_report["bdm"])) == by_score


def test_the_component_reads_the_concept_from_a_feature(tmp_path):
    from spacy_anno_eval.bdm.distance import compute_bdm
    from spacy_anno_eval.bdm.gatefile import write_bdm_file
    from spacy_anno_eval.bdm.taxonomy import Taxonomy

    scores = compute_bdm(Taxonomy.from_edges([("Politician", "Person"), ("Artist", "Person")], name="t"))
    write_bdm_file(scores, tmp_path / "t.bdm")
    nlp = spacy.blank("en")
    doc = nlp("Ada met Bob .")
    doc.spans["gold"] = [Span(doc, 0, 1, "PER", kb_id="Politician"), Span(doc, 2, 3, "PER", kb_id="Artist")]
    doc.ents = [Span(doc, 0, 1, "PER", kb_id="Artist"), Span(doc, 2, 3, "PER", kb_id="Artist")]
    qa = nlp.add_pipe("anno_eval", config={"features": ["kb_id"], "bdm": str(tmp_path / "t.bdm"),
                                           "bdm_feature": "kb_id"})
    list(nlp.pipe([doc]))
    near = scores.get("Politician", "Artist")
    assert qa.last_report["micro"]["strict"]["p"] == 0.5
    assert qa.last_report["bdm"]["micro"]["strict"]["p"] == pytest.approx((1 + near) / 2)
    # the same Docs through score --bdm --bdm-feature
    DocBin(docs=[doc], store_user_data=True).to_disk(tmp_path / "d.spacy")
    out = tmp_path / "s.json"
    run("score", tmp_path / "d.spacy", tmp_path / "d.spacy", "--key-set", "spans:gold", "--response-set", "ents",
        "--features", "kb_id", "--bdm", tmp_path / "t.bdm", "--bdm-feature", "kb_id", "--json", out)
    assert bdm_of(out) == json.loads(json.dumps(qa.last_report["bdm"]))


def test_iaa_on_shards_gives_the_figures_of_the_whole(corpus, tmp_path):
    nlp = spacy.blank("en")
    whole, folder = DocBin(), tmp_path / "shards"
    folder.mkdir()
    for s, (kp, rp) in enumerate(zip(sorted((corpus / "key").iterdir()), sorted((corpus / "resp").iterdir()),
                                     strict=True)):
        shard = DocBin()
        for k, r in zip(DocBin().from_disk(kp).get_docs(nlp.vocab), DocBin().from_disk(rp).get_docs(nlp.vocab),
                        strict=True):
            k.spans["a"] = list(k.ents)
            k.spans["b"] = [Span(k, e.start, e.end, e.label_) for e in r.ents]
            shard.add(k)
            whole.add(k)
        shard.to_disk(folder / f"{s:02d}.spacy")
    whole.to_disk(tmp_path / "all.spacy")
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    run("iaa", tmp_path / "all.spacy", "--sets", "spans:a;spans:b", "--bdm", corpus / "tree.bdm", "--json", a)
    run("iaa", folder, "--shards", "--sets", "spans:a;spans:b", "--bdm", corpus / "tree.bdm", "--json", b)
    whole_f, shard_f = json.loads(a.read_text()), json.loads(b.read_text())
    assert whole_f["mean_of_pairs_bdm"] == shard_f["mean_of_pairs_bdm"]
    assert whole_f["pairs"][0]["bdm"] == shard_f["pairs"][0]["bdm"]
    assert whole_f["mean_of_pairs_bdm"]["lenient"]["f"] > whole_f["mean_of_pairs"]["lenient"]["f"]


def test_a_bdm_feature_must_be_significant(corpus, tmp_path):
    bad = CliRunner().invoke(app, ["score", str(corpus / "all_key.spacy"), str(corpus / "all_resp.spacy"), "--bdm",
                                   str(corpus / "tree.bdm"), "--bdm-feature", "kb_id"])
    assert bad.exit_code == 2 and "--features kb_id" in bad.output
    nlp = spacy.blank("en")
    with pytest.raises(ConfigError, match="bdm_feature 'kb_id' must also be one of features"):
        nlp.add_pipe("anno_eval", config={"bdm": str(corpus / "tree.bdm"), "bdm_feature": "kb_id"})
    with pytest.raises(ConfigError, match="no such file"):
        spacy.blank("en").add_pipe("anno_eval", config={"bdm": str(tmp_path / "nope.bdm")})
