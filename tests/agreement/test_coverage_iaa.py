"""Partial coverage in span IAA (issue 19, items 3 and 4): a document an annotator never annotated is left out of
that annotator's pairs, every report says how many documents each pair covers, ``--missing-as-empty`` restores
the old count, and ``iaa`` without ``--sets`` compares every annotator set of the file and says so."""

from __future__ import annotations

import json
import warnings
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
import spacy
import srsly
from spacy.tokens import DocBin, Span
from typer.testing import CliRunner

from spacy_anno_eval.agreement.iaa import pairwise_f, pairwise_kappa, to_json
from spacy_anno_eval.cli.app import app
from spacy_anno_eval.errors import CoverageWarning, InputError
from spacy_anno_eval.io.docbin import read_docbin
from spacy_anno_eval.io.docbin_wire import _group_docs
from spacy_anno_eval.io.multiset import MultiSetBuilder
from spacy_anno_eval.report.matrix import render_matrix_html, write_matrix_reports

NARROW = {"COLUMNS": "80", "LINES": "50", "TERM": "dumb"}
runner = CliRunner()
nlp = spacy.blank("en")

# doc 1: both annotate Ada, Bob, Cy; A has Rome, B has Oslo: C 3, M 1, S 1 -> F 75.00
# doc 2: both annotate Eve: with it, C 4, M 1, S 1 -> F 80.00 (the number)
DOC1 = ("Ada met Bob and Cy in Rome near Oslo .", [(0, 1, "PER"), (2, 3, "PER"), (4, 5, "PER"), (6, 7, "LOC")],
        [(0, 1, "PER"), (2, 3, "PER"), (4, 5, "PER"), (8, 9, "LOC")])
DOC2 = ("Eve slept .", [(0, 1, "PER")], [(0, 1, "PER")])


def _doc(text: str, groups: dict[str, list[tuple[int, int, str]] | None], doc_id: str):
    doc = nlp(text)
    doc.user_data["doc_id"] = doc_id
    for key, spans in groups.items():
        if spans is not None:  # None: the group is absent (not present-but-empty)
            doc.spans[key] = [Span(doc, s, e, lab) for s, e, lab in spans]
    return doc


def example(path: Path, *, b_in_doc2: bool = False, only_doc1: bool = False) -> Path:
    """The issue's example: annotator B's span group deleted from document 2 (unless ``b_in_doc2``)."""
    docs = [_doc(DOC1[0], {"a": DOC1[1], "b": DOC1[2]}, "d1")]
    if not only_doc1:
        docs.append(_doc(DOC2[0], {"a": DOC2[1], "b": DOC2[2] if b_in_doc2 else None}, "d2"))
    DocBin(docs=docs, store_user_data=True).to_disk(path)
    return path


def strict_f(result: dict, pair: int = 0) -> float:
    return result["pairs"][pair]["report"]["micro"]["strict"]["f"]


# -- the DocBin reader records coverage ------------------------------------------------------------------------


def test_docbin_absent_group_is_not_covered_and_an_empty_group_covers(tmp_path: Path) -> None:
    docs = [_doc("Ada met Bob .", {"a": [(0, 1, "PER")], "b": [(0, 1, "PER")]}, "d0"),
            _doc("Bob saw Ada .", {"a": [(0, 1, "PER")]}, "d1"),  # b absent
            _doc("Nothing here .", {"a": [], "b": []}, "d2")]  # both present but empty
    path = tmp_path / "c.spacy"
    DocBin(docs=docs, store_user_data=True).to_disk(path)
    for selectors in (["ents"], ["spans:a", "spans:b"]):  # the fast path and spaCy's
        c = read_docbin(path, selectors=selectors)
        assert c.found_sets == ["ents", "spans:a", "spans:b"]
        assert set(c.coverage) == {"spans:b"}  # only sets that miss a document
        assert c.covered("spans:b").tolist() == [True, False, True]
        assert c.covered("spans:a").all() and c.covered("ents").all()
        assert c.annotators() == ["spans:a", "spans:b"]
    # a folder of shards: coverage over the documents of every shard, in order
    folder = tmp_path / "shards"
    folder.mkdir()
    DocBin(docs=docs[:2], store_user_data=True).to_disk(folder / "0.spacy")
    DocBin(docs=docs[2:], store_user_data=True).to_disk(folder / "1.spacy")
    assert read_docbin(folder).covered("spans:b").tolist() == [True, False, True]
    # no span group anywhere: nothing recorded
    plain = tmp_path / "plain.spacy"
    DocBin(docs=[nlp("One ."), nlp("Two .")]).to_disk(plain)
    assert read_docbin(plain).coverage is None and read_docbin(plain).found_sets == ["ents"]


def test_group_keys_read_from_both_serialisations_of_doc_spans() -> None:
    doc = _doc("Ada met Bob .", {"a": [(0, 1, "PER")], "b": []}, "d0")
    current = doc.spans.to_bytes()  # {group bytes: [keys]} (spaCy >= 3.4)
    old = srsly.msgpack_dumps([g.to_bytes() for g in doc.spans.values()])  # [group bytes] (spaCy < 3.4)
    assert _group_docs([current, b"\x90", old], 3) == {"a": [0, 2], "b": [0, 2]}


# -- pairwise F and kappa on the documents both annotated -------------------------------------------------------


def test_pairwise_f_compares_only_the_documents_both_annotated(tmp_path: Path) -> None:
    full = pairwise_f(example(tmp_path / "full.spacy", b_in_doc2=True), "spans:a;spans:b")
    doc1 = pairwise_f(example(tmp_path / "doc1.spacy", only_doc1=True), "spans:a;spans:b")
    path = example(tmp_path / "cut.spacy")
    assert round(100 * strict_f(full), 2) == 80.0 and round(100 * strict_f(doc1), 2) == 75.0
    with pytest.warns(CoverageWarning, match=r"spans:a / spans:b 1\b"):
        cut = pairwise_f(path, "spans:a;spans:b")
    assert strict_f(cut) == strict_f(doc1)  # not 66.67: document 2 is left out, not counted as empty
    pair = cut["pairs"][0]
    assert (pair["docs_covered"], pair["docs_total"], pair["report"]["n_docs"], cut["n_docs"]) == (1, 2, 1, 2)
    assert cut["matrix"]["docs_covered"] == [[2, 1], [1, 1]]  # the diagonal: each annotator's own documents
    assert cut["pairs"][0]["report"]["counts"] == doc1["pairs"][0]["report"]["counts"]
    with warnings.catch_warnings():
        warnings.simplefilter("error", CoverageWarning)  # the old count: no coverage warning
        old = pairwise_f(path, "spans:a;spans:b", missing_as_empty=True)
    assert round(100 * strict_f(old), 2) == 66.67 and old["pairs"][0]["docs_covered"] == 2
    assert old["missing_as_empty"] is True and cut["missing_as_empty"] is False
    # the pair page keeps its Annotation Diff, on the covered documents
    assert cut["evaluations"][(0, 1)].doc_ids == ["d1"] and cut["evaluations"][(0, 1)].has_pairs


def test_pairwise_kappa_compares_only_the_documents_both_annotated(tmp_path: Path) -> None:
    doc1 = pairwise_kappa(example(tmp_path / "doc1.spacy", only_doc1=True), "spans:a;spans:b", types="*")
    path = example(tmp_path / "cut.spacy")
    with pytest.warns(CoverageWarning, match="spans:a / spans:b 1"):
        cut = pairwise_kappa(path, "spans:a;spans:b", types="*")
    old = pairwise_kappa(path, "spans:a;spans:b", types="*", missing_as_empty=True)
    got, want, was = (r["pairs"][0]["per_type"]["*"] for r in (cut, doc1, old))
    assert got["n"] == want["n"] == 5 and was["n"] == 6  # Eve (PER / Non-cat) is no item any more
    assert got["cohen_kappa"] == want["cohen_kappa"] != was["cohen_kappa"]
    assert got["confusion"] == want["confusion"]
    assert (cut["pairs"][0]["docs_covered"], cut["pairs"][0]["docs_total"]) == (1, 2)
    assert old["pairs"][0]["docs_covered"] == 2
    assert [d["doc_id"] for d in got["per_doc"]] == ["d1"]


def test_a_pair_sharing_no_document_has_no_figures_and_stays_out_of_the_means(tmp_path: Path) -> None:
    docs = [_doc(DOC1[0], {"a": DOC1[1], "b": DOC1[2], "c": DOC1[2]}, "d1"),
            _doc(DOC2[0], {"a": DOC2[1], "c": DOC2[2]}, "d2")]
    docs[0].spans.pop("c")  # c annotated d2 only, b d1 only
    path = tmp_path / "three.spacy"
    DocBin(docs=docs, store_user_data=True).to_disk(path)
    with pytest.warns(CoverageWarning, match="1 share no document"):
        r = pairwise_f(path, "spans:a;spans:b;spans:c")
    by_pair = {(p["a"], p["b"]): p for p in r["pairs"]}
    assert by_pair[("spans:b", "spans:c")]["docs_covered"] == 0
    assert r["matrix"]["micro"][1][2] is None and r["n_pairs_in_means"] == 2
    shared = [strict_f(r, k) for k, p in enumerate(r["pairs"]) if p["docs_covered"]]
    assert r["mean_of_pairs"]["strict"]["f"] == pytest.approx(sum(shared) / 2)
    with pytest.warns(CoverageWarning):
        k = pairwise_kappa(path, "spans:a;spans:b;spans:c", types="*")
    assert k["matrix"]["micro"][1][2] is None and k["pairs"][2]["per_type"] == {}
    assert "pair-1-2.html" in write_matrix_reports(r, tmp_path / "html")  # its page still renders
    with pytest.raises(InputError, match="no two of the sets"), pytest.warns(CoverageWarning):
        pairwise_f(path, "spans:b;spans:c")


def test_consensus_comparisons_cover_the_documents_both_annotated(tmp_path: Path) -> None:
    docs = [_doc(DOC1[0], {"a": DOC1[1], "b": DOC1[2], "gold": DOC1[1]}, "d1"),
            _doc(DOC2[0], {"a": DOC2[1], "b": DOC2[2]}, "d2")]  # no gold for d2
    path = tmp_path / "gold.spacy"
    DocBin(docs=docs, store_user_data=True).to_disk(path)
    with pytest.warns(CoverageWarning, match="spans:gold / spans:a 1"):
        r = pairwise_f(path, "spans:a;spans:b", consensus="spans:gold")
    assert r["pairs"][0]["docs_covered"] == 2
    assert r["consensus"]["annotators"]["spans:a"]["docs_covered"] == 1
    assert r["consensus"]["annotators"]["spans:a"]["strict"]["f"] == 1.0  # d2, without gold, is no miss
    assert r["annotators"] == ["spans:a", "spans:b"]


def test_shards_and_in_memory_give_the_same_result(tmp_path: Path) -> None:
    docs = [_doc(DOC1[0], {"a": DOC1[1], "b": DOC1[2], "c": DOC1[1]}, "d1"),
            _doc(DOC2[0], {"a": DOC2[1], "c": []}, "d2"),
            _doc(DOC1[0], {"b": DOC1[1], "c": DOC1[2]}, "d3"),
            _doc(DOC2[0], {"a": DOC2[1], "b": DOC2[2], "c": DOC2[2]}, "d4")]
    whole = tmp_path / "whole.spacy"
    DocBin(docs=docs, store_user_data=True).to_disk(whole)
    folder = tmp_path / "shards"
    folder.mkdir()
    for k in range(2):
        DocBin(docs=docs[2 * k:2 * k + 2], store_user_data=True).to_disk(folder / f"{k}.spacy")
    sets = "spans:a;spans:b;spans:c"
    with pytest.warns(CoverageWarning):
        one = to_json(pairwise_f(whole, sets))
    with pytest.warns(CoverageWarning):
        parts = to_json(pairwise_f(folder, sets, shards=True))
    with pytest.warns(CoverageWarning):
        memory = to_json(pairwise_f(list(DocBin().from_disk(whole).get_docs(nlp.vocab)), sets))
    for other in (parts, memory):
        assert other["matrix"] == one["matrix"] and other["mean_of_pairs"] == one["mean_of_pairs"]
        for p, q in zip(other["pairs"], one["pairs"], strict=True):
            assert (p["docs_covered"], p["docs_total"]) == (q["docs_covered"], q["docs_total"])
            assert p["report"]["counts"] == q["report"]["counts"]
            assert p["report"]["per_doc"] == q["report"]["per_doc"]
    assert one["matrix"]["docs_covered"] == [[3, 2, 3], [2, 3, 3], [3, 3, 4]]
    with pytest.warns(CoverageWarning):
        k_one = pairwise_kappa(whole, sets, types="*")
    with pytest.warns(CoverageWarning):
        k_parts = pairwise_kappa(folder, sets, types="*", shards=True)
    assert to_json(k_parts)["pairs"] == to_json(k_one)["pairs"]


# -- an annotation tool's corpus (MultiSetBuilder) --------------------------------------------------------------


def tool_corpus():
    """Three annotators and a set that is no annotator: ann3 never opened d1; ann2 finished d1 empty."""
    b = MultiSetBuilder("export.json")
    d0 = b.document("d0", "Ada Lovelace met Babbage")
    d1 = b.document("d1", "Grace Hopper wrote code")
    b.add("ann1", d0, 0, 12, "PER")
    b.add("ann1", d0, 17, 24, "PER")
    b.add("ann1", d1, 0, 12, "PER")
    b.add("ann2", d0, 0, 12, "PER")
    b.add("ann2", d0, 17, 24, "PER")
    b.cover("ann2", d1)  # a finished, empty annotation: covered, and counted
    b.add("ann3", d0, 0, 12, "PER")
    b.add("markup", d0, 0, 24, "p", annotator=False)
    b.add("markup", d1, 0, 23, "p", annotator=False)
    return b.build()


def test_an_annotation_tool_corpus_compares_its_annotators_on_what_each_pair_annotated() -> None:
    corpus = tool_corpus()
    with pytest.warns(CoverageWarning) as caught:
        r = pairwise_f(corpus)  # no sets: the annotator sets, not the markup
    assert r["annotators"] == ["spans:ann1", "spans:ann2", "spans:ann3"]
    assert r["sets_note"] == ("comparing the 3 annotator sets of export.json: spans:ann1, spans:ann2, spans:ann3; "
                              "name others with --sets")
    assert "spans:ann1 / spans:ann3 1" in str(caught[0].message) and "spans:ann1 / spans:ann2" not in \
        str(caught[0].message)
    cov = {(p["a"], p["b"]): p["docs_covered"] for p in r["pairs"]}
    assert cov == {("spans:ann1", "spans:ann2"): 2, ("spans:ann1", "spans:ann3"): 1, ("spans:ann2", "spans:ann3"): 1}
    f = {(p["a"], p["b"]): p["report"]["micro"]["strict"]["f"] for p in r["pairs"]}
    assert f[("spans:ann1", "spans:ann2")] == pytest.approx(0.8)  # ann2's empty d1 misses Grace Hopper
    assert f[("spans:ann1", "spans:ann3")] == pytest.approx(2 / 3)  # d0 only: ann3 misses Babbage
    with pytest.warns(CoverageWarning):
        k = pairwise_kappa(corpus, types="*")
    assert [p["docs_covered"] for p in k["pairs"]] == [2, 1, 1]
    with pytest.raises(InputError, match="the sets: spans:ann1, spans:ann2, spans:ann3, spans:markup"):
        pairwise_f(replace(corpus, annotator_sets=["spans:ann1"]))


# -- the CLI: default sets, the options, what each output says ----------------------------------------------------


def run(args: list, code: int = 0):
    result = runner.invoke(app, [str(a) for a in args], env=NARROW)
    assert result.exit_code == code, (result.stdout, result.stderr)
    return result


def test_iaa_without_sets_compares_every_annotator_set_and_says_which(tmp_path: Path) -> None:
    path = example(tmp_path / "ex.spacy")
    result = run(["iaa", path, "--json", tmp_path / "r.json"])  # -q prints no note (tests/test_contract_holes.py)
    assert f"comparing the 2 annotator sets of {path}: spans:a, spans:b; name others with --sets" in result.stderr
    assert "anno-eval: warning:" in result.stderr and "spans:a / spans:b 1" in result.stderr
    data = json.loads((tmp_path / "r.json").read_text(encoding="utf8"))
    assert data["annotators"] == ["spans:a", "spans:b"] and "sets_note" in data
    # one set: a clear error listing the sets
    one = tmp_path / "one.spacy"
    DocBin(docs=[_doc("Ada met Bob .", {"only": [(0, 1, "PER")]}, "d0")]).to_disk(one)
    err = run(["iaa", one], code=2).stderr
    assert "IAA needs two or more annotator sets" in err and "spans:only" in err and "--sets" in err


def test_iaa_missing_as_empty_and_label_feature_reach_the_computation_and_the_reader(tmp_path: Path) -> None:
    path = example(tmp_path / "ex.spacy")
    run(["iaa", path, "--sets", "spans:a,spans:b", "--missing-as-empty", "-q", "--json", tmp_path / "old.json"])
    old = json.loads((tmp_path / "old.json").read_text(encoding="utf8"))
    assert round(100 * strict_f(old), 2) == 66.67 and old["pairs"][0]["docs_covered"] == 2
    err = run(["iaa", path, "--label-feature", "value"], code=2).stderr  # a DocBin reader takes no such option
    assert "label_feature" in err


def test_json_terminal_and_html_say_how_many_documents_each_pair_covers(tmp_path: Path) -> None:
    path = example(tmp_path / "ex.spacy")
    out, html = tmp_path / "r.json", tmp_path / "html"
    text = run(["iaa", path, "--json", out, "--html", html]).stdout
    data = json.loads(out.read_text(encoding="utf8"))
    assert (data["pairs"][0]["docs_covered"], data["pairs"][0]["docs_total"]) == (1, 2)
    assert data["matrix"]["docs_covered"] == [[2, 1], [1, 1]]
    assert "evaluations" not in data
    lines = text.splitlines()
    assert all(len(line) <= 80 for line in lines), text
    at = next(i for i, line in enumerate(lines) if line.startswith("documents both annotated, per pair (of 2;"))
    assert lines[at + 2].split() == ["spans:a", "2", "1"] and lines[at + 3].split() == ["spans:b", "1", "1"]
    assert "75.00" in text and "66.67" not in text
    index = (html / "index.html").read_text(encoding="utf8")
    assert "1/2 docs" in index and "documents both annotated: 1 of 2 documents" in index
    assert "1 of 2 documents both annotated" in (html / "pair-0-1.html").read_text(encoding="utf8")
    # kappa: the same in its JSON, terminal table and pair page
    text = run(["iaa", path, "--measure", "kappa", "--types", "*", "--json", out, "--html", html]).stdout
    data = json.loads(out.read_text(encoding="utf8"))
    assert data["pairs"][0]["docs_covered"] == 1 and "documents both annotated, per pair (of 2;" in text
    assert all(len(line) <= 80 for line in text.splitlines()), text
    assert "1 of 2 documents (both annotated)" in (html / "pair-0-1.html").read_text(encoding="utf8")
    # every pair on every document: no coverage matrix, the cells say so in their title
    full = example(tmp_path / "full.spacy", b_in_doc2=True)
    text = run(["iaa", full, "--json", out]).stdout
    assert "documents both annotated" not in text
    page = render_matrix_html(json.loads(out.read_text(encoding="utf8")))
    assert "all 2 documents" in page and "docs</small>" not in page


def test_a_matrix_from_before_coverage_still_renders() -> None:
    r = {"annotators": ["a", "b"], "n_docs": 3, "measure": "fmeasure",
         "matrix": {"measure": "strict", "micro": [[1.0, 0.5], [0.5, 1.0]], "macro_docs": [[1.0, 0.5], [0.5, 1.0]],
                    "annotator_mean_micro": [0.5, 0.5], "annotator_mean_macro_docs": [0.5, 0.5]},
         "mean_of_pairs": {"strict": {"p": 0.5, "r": 0.5, "f": 0.5}}, "per_type": {}, "pairs": []}
    assert "all 3 documents" in render_matrix_html(r)
    assert np.asarray(r["matrix"]["micro"]).shape == (2, 2)
