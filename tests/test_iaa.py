"""N-annotator IAA on spans (spacy_anno_eval.iaa) and the agreement matrix report."""

from __future__ import annotations

import json
import re

import pytest
import spacy
from spacy.tokens import DocBin, Span
from typer.testing import CliRunner

from spacy_anno_eval.cli import app
from spacy_anno_eval.engine import evaluate
from spacy_anno_eval.errors import AnnoEvalInputError
from spacy_anno_eval.iaa import pairwise_f, parse_types, to_json
from spacy_anno_eval.report.matrix import cell_colour, render_matrix_html, write_matrix_reports
from tests.conftest import shared_file

SUBMISSIONS = ("arcada", "drexel_cci", "flytxt", "mic-cis.txt", "sjtu_adapt.txt", "spinningbytes.txt", "uh_ritual")


def three_annotators(tmp_path):
    """Two documents, three annotators in doc.spans['a1'|'a2'|'a3']; a3 misses one and mislabels one."""
    nlp = spacy.blank("en")
    docs = []
    for i, text in enumerate(["Ada met Bob in London .", "Grace <b> joined IBM ."]):
        doc = nlp(text)
        doc.user_data["doc_id"] = f"d{i}"
        gold = [(0, 1, "PER"), (2, 3, "PER"), (4, 5, "LOC")] if i == 0 else [(0, 1, "PER"), (3, 4, "ORG")]
        doc.spans["a1"] = [Span(doc, s, e, lab) for s, e, lab in gold]
        doc.spans["a2"] = [Span(doc, s, e, lab) for s, e, lab in gold]
        third = gold[:-1] if i == 0 else [(0, 1, "PER"), (3, 4, "LOC")]
        doc.spans["a3"] = [Span(doc, s, e, lab) for s, e, lab in third]
        docs.append(doc)
    path = tmp_path / "iaa.spacy"
    DocBin(docs=docs, store_user_data=True).to_disk(path)
    return path


def test_pairwise_f_equals_the_engine_and_is_symmetric(tmp_path):
    path = three_annotators(tmp_path)
    result = pairwise_f(path, "spans:a1;spans:a2;spans:a3")
    micro = result["matrix"]["micro"]
    assert micro[0][1] == micro[1][0] == 1.0
    a1_a3 = evaluate(path, path, key_set="spans:a1", response_set="spans:a3").report()["micro"]["strict"]["f"]
    a3_a1 = evaluate(path, path, key_set="spans:a3", response_set="spans:a1").report()["micro"]["strict"]["f"]
    assert micro[0][2] == micro[2][0] == pytest.approx(a1_a3) == pytest.approx(a3_a1)
    # a1 vs a3: 5 vs 4 annotations, 3 correct -> P 3/4, R 3/5, F 2/3
    assert a1_a3 == pytest.approx(2 / 3)
    assert result["mean_of_pairs"]["strict"]["f"] == pytest.approx((1 + 2 / 3 + 2 / 3) / 3)
    assert result["matrix"]["annotator_mean_micro"] == pytest.approx([(1 + 2 / 3) / 2, (1 + 2 / 3) / 2, 2 / 3])
    assert set(result["per_type"]) == {"PER", "LOC", "ORG"}
    json.dumps(to_json(result))  # JSON-ready


def test_consensus_and_types(tmp_path):
    path = three_annotators(tmp_path)
    result = pairwise_f(path, ["spans:a2", "spans:a3"], consensus="spans:a1", types="PER;LOC->kind")
    assert result["types"] == ["PER", "LOC"] and result["features"] == ["kind"]
    assert result["consensus"]["annotators"]["spans:a2"]["strict"]["f"] == 1.0
    assert parse_types("Per->label;Org") == (["Per", "Org"], ["label"])
    with pytest.raises(AnnoEvalInputError, match="two or more"):
        pairwise_f(path, "spans:a1")
    with pytest.raises(AnnoEvalInputError, match="also listed"):
        pairwise_f(path, "spans:a1;spans:a2", consensus="spans:a1")


def test_matrix_colours_links_and_escaping(tmp_path):
    assert cell_colour(1.0) == "#50be64" and cell_colour(0.5) == "#ffffff" and cell_colour(0.0) == "#e65050"
    path = three_annotators(tmp_path)
    result = pairwise_f(path, "spans:a1;spans:a2;spans:a3")
    result["annotators"][2] = "<img src=x onerror=alert(1)>"
    page = render_matrix_html(result)
    assert "<img src=x" not in page and "&lt;img src=x" in page
    assert sorted(set(re.findall(r'href="([^"]+)"', page))) == ["pair-0-1.html", "pair-0-2.html", "pair-1-2.html"]
    written = write_matrix_reports(result, tmp_path / "matrix")
    assert sorted(written) == ["index.html", "pair-0-1.html", "pair-0-2.html", "pair-1-2.html"]
    pair = (tmp_path / "matrix" / "pair-0-2.html").read_text(encoding="utf8")
    # the pair page shows the disagreement in context; "<b>" in the text is escaped
    assert "Annotation Diff" in pair and "&lt;b" in pair and "Grace</mark> <b" not in pair
    assert "mismatch (type)" in pair  # a3 labelled a span differently from a1


def test_cli_iaa(tmp_path):
    path = three_annotators(tmp_path)
    result = CliRunner().invoke(app, ["iaa", str(path), "--sets", "spans:a1;spans:a2;spans:a3", "--html",
                                      str(tmp_path / "out"), "--json", str(tmp_path / "iaa.json")])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "out" / "index.html").is_file()
    data = json.loads((tmp_path / "iaa.json").read_text())
    assert data["matrix"]["micro"][0][1] == 1.0 and "evaluations" not in data
    bad = CliRunner().invoke(app, ["iaa", str(path), "--sets", "spans:a1;spans:a2", "--measure", "kappa"])
    assert bad.exit_code == 2


def test_wnut17_seven_submissions_as_seven_annotators(tmp_path):
    gold = shared_file("wnut17", "emerging.test.annotated")
    columns = []
    for name in SUBMISSIONS:
        text = shared_file("wnut17", "submissions", name).read_text(encoding="utf8")
        columns.append([line.split()[-1] if line.strip() else "" for line in text.splitlines()])
    tokens = [line.split()[0] if line.strip() else "" for line in gold.read_text(encoding="utf8").splitlines()]
    n = min(len(tokens), *(len(c) for c in columns))
    lines = []
    for k in range(n):
        lines.append("" if not tokens[k] else "\t".join([tokens[k], *(c[k] for c in columns)]))
    path = tmp_path / "seven.conll"
    path.write_text("\n".join(lines) + "\n", encoding="utf8")
    sets = ";".join(f"column:{i}" for i in range(1, 8))
    result = pairwise_f(path, sets)
    micro = result["matrix"]["micro"]
    assert len(result["pairs"]) == 21
    for a in range(7):
        for b in range(7):
            assert micro[a][b] == pytest.approx(micro[b][a])
            assert 0.0 < micro[a][b] <= 1.0
    write_matrix_reports(result, tmp_path / "matrix")
    page = (tmp_path / "matrix" / "index.html").read_text(encoding="utf8")
    assert page.count('href="pair-') == 42
