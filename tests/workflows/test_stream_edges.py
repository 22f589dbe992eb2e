"""Edge cases of the streamed paths found in review: each gives what the whole corpus gives, or a clear error."""

from __future__ import annotations

import json

import numpy as np
import pytest
import spacy
from spacy.tokens import DocBin, Span

from spacy_anno_eval.agreement.classification import classification_counts, classification_table
from spacy_anno_eval.agreement.iaa import pairwise_f
from spacy_anno_eval.annotations.table import Corpus, SpanTable
from spacy_anno_eval.errors import InputError
from spacy_anno_eval.report import write_reports
from spacy_anno_eval.spans.engine import evaluate
from spacy_anno_eval.workflows.qa import run_qa
from spacy_anno_eval.workflows.stream import score_shards

MEASURES = ["strict", "lenient", "average"]


def record(text, spans, answer=None, doc_id=None):
    out = {"text": text, "spans": [{"start": a, "end": b, "label": lab} for a, b, lab in spans]}
    if answer:
        out["answer"] = answer
    if doc_id:
        out["meta"] = {"id": doc_id}
    return json.dumps(out)


def write(path, lines):
    path.write_text("\n".join(lines) + "\n", encoding="utf8")
    return path


def test_a_chunk_of_rejected_lines_only_is_skipped(tmp_path):
    lines = [record("Ann met Bob", [(0, 3, "PER")], answer="reject"), record("Ann met Bob", [(8, 11, "PER")]),
             record("Bob is here", [(0, 3, "PER")]), record("Cy and Di", [(0, 2, "PER"), (7, 9, "PER")])]
    key = write(tmp_path / "k.jsonl", lines)
    whole = evaluate(str(key), str(key)).report()
    for size in (1, 2):
        assert score_shards(key, key, sharded=False, docs_per_chunk=size).report() == whole
        paths = {"json": tmp_path / f"q{size}.json", "html": tmp_path / f"q{size}.html"}
        run_qa(key, key, paths=paths, measures=MEASURES, docs_per_chunk=size)
        assert json.loads(paths["json"].read_text()) == json.loads(json.dumps(whole))
    # JSONL has one layer, which every set name reads: two names, the same annotations, 3 documents kept
    assert pairwise_f(str(key), ["ents", "spans:x"], docs_per_chunk=1)["n_docs"] == 3


def test_rejected_lines_on_one_side_only_name_the_chunk(tmp_path):
    ok = [record("Ann met Bob", [(0, 3, "PER")]), record("Bob is here", [(0, 3, "PER")])]
    key = write(tmp_path / "k.jsonl", [record("x", [], answer="reject"), *ok])
    resp = write(tmp_path / "r.jsonl", ok + [record("y", [])])
    with pytest.raises(InputError, match=r"chunk 1 of .*k\.jsonl \(from line 1\).*reject/ignore lines"):
        score_shards(key, resp, sharded=False, docs_per_chunk=2)


@pytest.mark.filterwarnings("ignore::spacy_anno_eval.agreement.coefficients.DegenerateAgreementWarning")
def test_classification_feature_seen_on_another_type_in_another_shard(tmp_path):
    nlp = spacy.blank("en")
    docs = []
    for text, label in (("a b", "P"), ("c d", "Q"), ("e f", "P")):
        doc = nlp(text)
        doc.spans["sc"] = [Span(doc, 0, 1, label)]  # feature f="x" is set on the Q span below
        docs.append(doc)
    base = evaluate(docs, docs, key_set="spans:sc")
    table = base.alignment.key
    feats = [{"f": "x"} if table.labels[int(lab)] == "Q" else {} for lab in table.label]
    key = SpanTable(table.doc, table.start, table.end, table.label, table.labels, feats)
    corpus = Corpus(base.doc_ids, [d.text for d in docs], {"k": key})
    whole = evaluate(corpus, corpus, key_set="k", features=["f"])
    shards = [evaluate(corpus.window(a, a + 1), corpus.window(a, a + 1), key_set="k", features=["f"])
              for a in range(3)]
    merged = classification_counts(shards[0], "P", "f")
    for ev in shards[1:]:
        merged = merged.merge(classification_counts(ev, "P", "f"))
    assert merged.table() == classification_table(whole, "P", "f")
    assert merged.table()["categories"] == ["<none>"]


def test_qa_without_diff_documents_still_counts_them(tmp_path):
    lines = [record("Ann met Bob", [(0, 3, "PER")]), record("Bob is here", [(0, 3, "PER")])]
    key = write(tmp_path / "k.jsonl", lines)
    ev = evaluate(str(key), str(key))
    write_reports(ev, paths={"html": tmp_path / "a.html"}, max_diff_docs=0)
    run_qa(key, key, paths={"html": tmp_path / "b.html"}, measures=MEASURES, max_diff_docs=0)
    a, b = (tmp_path / "a.html").read_text(), (tmp_path / "b.html").read_text()
    assert a == b and "Showing the first 0 of 2 documents" in b


def test_window_past_the_end_is_empty():
    z = np.zeros(0, dtype=np.int64)
    corpus = Corpus(["a", "b", "c"], ["x", "y", "z"], {"ents": SpanTable(z, z, z, z, [])})
    assert len(corpus.window(5, 10)) == 0 and corpus.window(1, 10).doc_ids == ["b", "c"]


def test_benchmark_against_checks_both_baselines(tmp_path):
    from spacy_anno_eval.workflows.benchmark.run import run_benchmark
    from spacy_anno_eval.workflows.benchmark.settings import BenchmarkSettings
    from tests.workflows.benchmark.test_run import make_bench, ruler

    bench = make_bench(tmp_path / "bench")
    fast = BenchmarkSettings(n_samples=50)
    run_benchmark("store", bench, nlp=ruler(), name="v1", settings=fast)
    run_benchmark("store", bench, nlp=ruler(), name="v2", settings=fast)
    manifest = bench / "processed" / "v1" / "manifest.json"
    data = json.loads(manifest.read_text())
    manifest.write_text(json.dumps({**data, "corpus_hash": "0" * 64}))
    for name, against in (("v1", "v2"), ("v2", "v1")):
        with pytest.raises(InputError, match="baseline 'v1' was made from a corpus"):
            run_benchmark("default", bench, name=name, against=against, settings=fast)


def test_an_empty_shard_is_skipped_as_the_whole_folder_reads_it(tmp_path):
    nlp = spacy.blank("en")
    for side in ("k", "r"):
        (tmp_path / side).mkdir()
        full = DocBin()
        doc = nlp("a b")
        doc.ents = [Span(doc, 0, 1, "X")]
        full.add(doc)
        full.to_disk(tmp_path / side / "0.spacy")
        DocBin().to_disk(tmp_path / side / "1.spacy")
    whole = evaluate(str(tmp_path / "k"), str(tmp_path / "r")).report()
    assert score_shards(tmp_path / "k", tmp_path / "r").report() == whole and whole["counts"]["correct"] == 1
    with pytest.raises(InputError, match="no documents in any shard"):
        score_shards(tmp_path / "k" / "1.spacy", tmp_path / "r" / "1.spacy")


def test_iaa_skips_an_empty_shard(tmp_path):
    from spacy_anno_eval.agreement.iaa import pairwise_kappa, to_json

    nlp = spacy.blank("en")
    (tmp_path / "s").mkdir()
    full = DocBin(store_user_data=True)
    for i in range(3):
        doc = nlp("a b c d")
        doc.spans["a"] = [Span(doc, 0, 1, "X"), Span(doc, 2, 3, "Y")]
        doc.spans["b"] = [Span(doc, 0, 1, "X"), Span(doc, 2, 3, "X" if i else "Y")]
        full.add(doc)
    full.to_disk(tmp_path / "s" / "0.spacy")
    DocBin().to_disk(tmp_path / "s" / "1.spacy")
    sets = ["spans:a", "spans:b"]
    for measure, options in ((pairwise_f, {}), (pairwise_kappa, {"types": "*"})):
        whole = json.dumps(to_json(measure(str(tmp_path / "s"), sets, **options)), sort_keys=True)
        shards = json.dumps(to_json(measure(str(tmp_path / "s"), sets, shards=True, **options)), sort_keys=True)
        assert whole == shards and '"n_docs": 3' in whole
