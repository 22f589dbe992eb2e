"""Corpus QA over shards: the reports of a corpus read shard by shard (in-process or on Dask) equal, byte for
byte, those of the whole corpus at once; the Annotation Diff is spooled to disk as the shards come."""

from __future__ import annotations

import json

import numpy as np
import pytest
import spacy
from spacy.tokens import Span
from typer.testing import CliRunner

from spacy_anno_eval.agreement.classification import classification_table
from spacy_anno_eval.cli.app import app
from spacy_anno_eval.report import write_reports
from spacy_anno_eval.report.html import DiffDocument
from spacy_anno_eval.report.streamed import StreamedDiff
from spacy_anno_eval.spans.engine import evaluate
from spacy_anno_eval.workflows.qa import run_qa
from tests.shards import write_sharded

WORDS = ["Paris", "is", "<b>big</b>", "&", "Ann", "met", "Bob", "in", "2020", "\"quoted\""]
N_SHARDS, DOCS_PER_SHARD = 5, 12


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    """5 shards of 12 documents (key and response; some documents without annotations) and the whole corpus."""
    nlp = spacy.blank("en")
    rng = np.random.default_rng(7)

    def pair(s, i):
        words = [str(w) for w in rng.choice(WORDS, 16)]
        k = spacy.tokens.Doc(nlp.vocab, words=words)
        r = spacy.tokens.Doc(nlp.vocab, words=words)
        k.user_data["doc_id"] = r.user_data["doc_id"] = f"s{s}-d{i}"
        if i % 5 != 4:  # every fifth document has no annotation at all
            starts = sorted(rng.choice(14, 4, replace=False).tolist())
            k.ents = spacy.util.filter_spans([Span(k, a, a + int(rng.integers(1, 3)), str(rng.choice(["A", "B"])))
                                              for a in starts])
            r.ents = spacy.util.filter_spans([Span(r, a + int(rng.integers(0, 2)), a + 2,
                                                   str(rng.choice(["A", "B"]))) for a in starts[1:]])
        return k, r

    return write_sharded(tmp_path_factory.mktemp("qa_shards"),
                         ((pair(s, i) for i in range(DOCS_PER_SHARD)) for s in range(N_SHARDS)))


def whole_reports(corpus, out, max_diff_docs):
    ev = evaluate(str(corpus / "all_key.spacy"), str(corpus / "all_resp.spacy"))
    classification = classification_table(ev, "A", "label")
    paths = {f: out / f"whole.{f}" for f in ("json", "md", "html")}
    write_reports(ev, paths=paths, classification=classification, max_diff_docs=max_diff_docs)
    return {f: p.read_bytes() for f, p in paths.items()}


def streamed_reports(corpus, out, max_diff_docs, **options):
    paths = {f: out / f"streamed.{f}" for f in ("json", "md", "html")}
    run_qa(corpus / "key", corpus / "resp", paths=paths, measures=["strict", "lenient", "average"],
           classify=("A", "label"), max_diff_docs=max_diff_docs, sharded=True, **options)
    return {f: p.read_bytes() for f, p in paths.items()}


@pytest.mark.parametrize("max_diff_docs", [100, 15, 1])
def test_shards_give_the_reports_of_the_whole_corpus(corpus, tmp_path, max_diff_docs):
    whole = whole_reports(corpus, tmp_path, max_diff_docs)
    streamed = streamed_reports(corpus, tmp_path, max_diff_docs)
    assert streamed == whole
    html = whole["html"].decode("utf8")
    assert html.count('<section class="doc"') == min(max_diff_docs, 50)  # 50 documents have annotations
    assert "&lt;b&gt;big&lt;/b&gt;" in html and "<b>big</b>" not in html
    if max_diff_docs < 50:
        assert f"Showing the first {max_diff_docs} of 50 documents" in html
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(f"{w}.{f}" for w in ("whole", "streamed")
                                                               for f in ("json", "md", "html"))


def test_the_diff_crosses_shard_boundaries_with_global_indices(corpus, tmp_path):
    html = streamed_reports(corpus, tmp_path, 15)["html"].decode("utf8")
    # shard 0 has 10 annotated documents (0-3, 5-8, 10, 11); the next five come from shard 1: 12-15 and 17
    assert all(f'id="doc-{d}"' in html for d in (11, 12, 15, 17)) and "<code>s1-d0</code>" in html
    assert all(f'id="doc-{d}"' not in html for d in (4, 16, 18))


def test_dask_gives_the_same_reports(corpus, tmp_path):
    pytest.importorskip("distributed")
    assert streamed_reports(corpus, tmp_path, 15, scheduler="local:2") == whole_reports(corpus, tmp_path, 15)


def test_a_failure_leaves_no_report_and_no_spool(corpus, tmp_path):
    (tmp_path / "streamed.html").write_text("earlier report", encoding="utf8")
    with pytest.raises(ValueError, match="unknown annotation type 'Nope'"):
        run_qa(corpus / "key", corpus / "resp", paths={"html": tmp_path / "streamed.html"}, measures=["strict"],
               classify=("Nope", "label"), sharded=True)
    assert [p.name for p in tmp_path.iterdir()] == ["streamed.html"]
    assert (tmp_path / "streamed.html").read_text(encoding="utf8") == "earlier report"


def test_the_diff_is_written_to_disk_as_documents_come(tmp_path):
    diff = StreamedDiff(tmp_path / "r.html", max_docs=None)
    spool = next(tmp_path.glob(".r.html.*.diff.tmp"))
    row = {"doc": 0, "doc_id": "x", "status": "missing", "key": {"start": 0, "end": 1, "label": "A", "text": "a"},
           "response": None}
    diff.add([DiffDocument(3, "x", [row], "a b", None)], 1)
    diff._spool.flush()
    assert spool.stat().st_size > 0 and diff.n_rows == 1 and diff.n_shown == 1
    report = {"counts": {}, "micro": {}, "per_type": {}, "macro_types": {}, "macro_docs": {}, "muc": {},
              "semeval": {}, "per_doc": [], "n_docs": 4, "settings": {}}
    diff.discard()
    assert not spool.exists() and not (tmp_path / "r.html").exists()
    assert report["n_docs"] == 4


def test_cli_qa_shards(corpus, tmp_path):
    result = CliRunner().invoke(app, ["qa", str(corpus / "key"), str(corpus / "resp"), "--shards", "--classify",
                                      "A:label", "--html", str(tmp_path / "q.html"), "--json",
                                      str(tmp_path / "q.json"), "--max-diff-docs", "0", "--quiet"])
    assert result.exit_code == 0, result.output
    ev = evaluate(str(corpus / "all_key.spacy"), str(corpus / "all_resp.spacy"))
    whole = {**ev.report(), "classification": classification_table(ev, "A", "label"),  # --classify: in the JSON too
             "decisions": ev.decision_counts()}  # qa always counts the decisions
    assert json.loads((tmp_path / "q.json").read_text()) == json.loads(json.dumps(whole))
    html = (tmp_path / "q.html").read_text(encoding="utf8")
    assert html.count('<section class="doc"') == 50 and "Classification" in html
    bad = CliRunner().invoke(app, ["qa", str(corpus / "key"), str(corpus / "resp"), "--shards", "--max-diff-docs",
                                   "-1"])
    assert bad.exit_code == 2 and "--max-diff-docs" in bad.output
