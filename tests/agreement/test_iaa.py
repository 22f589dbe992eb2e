"""N-annotator IAA on spans (spacy_anno_eval.agreement.iaa) and the agreement matrix report."""

from __future__ import annotations

import json
import re

import pytest
import spacy
from spacy.tokens import DocBin, Span
from typer.testing import CliRunner

from spacy_anno_eval.agreement.iaa import (
    MissingFeatureWarning,
    pairwise_f,
    pairwise_kappa,
    parse_type_features,
    parse_types,
    to_json,
)
from spacy_anno_eval.cli.app import app
from spacy_anno_eval.errors import InputError
from spacy_anno_eval.report.matrix import cell_colour, render_matrix_html, write_matrix_reports
from spacy_anno_eval.spans.engine import evaluate
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
        doc.spans["a1"] = [Span(doc, s, e, lab, kb_id="loc" if lab == "LOC" else "") for s, e, lab in gold]
        doc.spans["a2"] = [Span(doc, s, e, lab, kb_id="loc" if lab == "LOC" else "") for s, e, lab in gold]
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
    with pytest.warns(MissingFeatureWarning, match="spans:a3 1"):  # a3's LOC IBM has no kb_id: left out (GATE)
        result = pairwise_f(path, ["spans:a2", "spans:a3"], consensus="spans:a1", types="PER;LOC->kb_id")
    assert result["types"] == ["PER", "LOC"] and result["features"] == ["kb_id"]
    assert result["type_features"] == {"PER": None, "LOC": "kb_id"}
    assert result["left_out"] == {"spans:a2": 0, "spans:a3": 1, "spans:a1": 0}
    assert result["consensus"]["annotators"]["spans:a2"]["strict"]["f"] == 1.0
    with pytest.raises(InputError, match="no annotation carries the feature 'kind'; the features are: kb_id"):
        pairwise_f(path, ["spans:a2", "spans:a3"], consensus="spans:a1", types="PER;LOC->kind")
    assert parse_types("Per->label;Org") == (["Per", "Org"], ["label"])
    with pytest.raises(InputError, match="two or more"):
        pairwise_f(path, "spans:a1")
    with pytest.raises(InputError, match="also listed"):
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
    bad = CliRunner().invoke(app, ["iaa", str(path), "--sets", "spans:a1;spans:a2", "--measure", "alpha"])
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


# --- measure kappa (GATE's AGREEMENTANDKAPPA) ---------------------------------

def test_kappa_labels_as_categories_by_hand_and_against_sklearn(tmp_path):
    """Type '*': the label is the category. a1 vs a3: Ada, Bob, Grace PER/PER; London LOC/Non-cat; IBM ORG/LOC."""
    from sklearn.metrics import cohen_kappa_score

    result = pairwise_kappa(three_annotators(tmp_path), "spans:a1;spans:a3", types="*")
    f = result["pairs"][0]["per_type"]["*"]
    assert f["confusion"]["categories"] == ["LOC", "ORG", "PER", "Non-cat"]
    assert f["confusion"]["matrix"] == [[0, 0, 0, 1], [1, 0, 0, 0], [0, 0, 3, 0], [0, 0, 0, 0]]
    assert f["observed_agreement"] == pytest.approx(0.6)
    # Cohen: Ae = .2*.2 + .6*.6 = .4 -> kappa = .2/.6; Scott: pooled (.2, .1, .6, .1) -> Ae = .42
    assert f["cohen_kappa"] == pytest.approx(1 / 3)
    assert f["scott_pi"] == pytest.approx(0.18 / 0.58)
    a = ["PER", "PER", "LOC", "PER", "ORG"]
    b = ["PER", "PER", "Non-cat", "PER", "LOC"]
    assert f["cohen_kappa"] == pytest.approx(cohen_kappa_score(a, b))
    assert [d["observed_agreement"] for d in f["per_doc"]] == pytest.approx([2 / 3, 0.5])
    assert f["specific_agreement"]["PER"] == 1.0
    assert sorted((i["category_a"], i["category_b"]) for i in result["items"][(0, 1)]) == [
        ("LOC", "Non-cat"), ("ORG", "LOC")]


def test_kappa_per_type_without_feature_uses_anns_and_non_cat(tmp_path):
    """GATE: without a feature the labels are Anns and Non-cat; total agreement is a single category (undefined)."""
    result = pairwise_kappa(three_annotators(tmp_path), "spans:a1;spans:a2;spans:a3")
    assert result["types"] == ["LOC", "ORG", "PER"]
    pair13 = next(p for p in result["pairs"] if (p["a"], p["b"]) == ("spans:a1", "spans:a3"))
    loc = pair13["per_type"]["LOC"]
    # London: (Anns, Non-cat); a3's IBM LOC: (Non-cat, Anns) -> Ao 0, Cohen Ae .5, kappa -1
    assert loc["confusion"] == {"categories": ["Anns", "Non-cat"], "matrix": [[0, 1], [1, 0]]}
    assert loc["observed_agreement"] == 0.0 and loc["cohen_kappa"] == pytest.approx(-1.0)
    assert pair13["per_type"]["PER"]["cohen_kappa"] is None  # every item Anns/Anns: Ae = 1
    assert any("spans:a1 / spans:a3, PER" in w for w in result["warnings"])
    assert result["matrix"]["micro"][0][1] is None  # a1 and a2 agree perfectly on every type: undefined
    json.dumps(to_json(result))  # no NaN, no tuples as keys


def test_kappa_with_a_feature_and_gate_non_cat(tmp_path):
    """PER->kb_id: the feature value is the category; an annotation without the feature is Non-cat (GATE 10.5.2)."""
    nlp = spacy.blank("en")
    doc = nlp("Ada met Bob and Cy and Di .")
    doc.spans["x"] = [Span(doc, 0, 1, "PER", kb_id="Q1"), Span(doc, 2, 3, "PER", kb_id="Q2"),
                      Span(doc, 4, 5, "PER", kb_id="Q3"), Span(doc, 6, 7, "PER")]
    doc.spans["y"] = [Span(doc, 0, 1, "PER", kb_id="Q1"), Span(doc, 2, 3, "PER", kb_id="Q3"),
                      Span(doc, 4, 5, "PER"), Span(doc, 6, 7, "PER")]
    path = tmp_path / "f.spacy"
    DocBin(docs=[doc]).to_disk(path)
    assert parse_type_features("PER->kb_id;ORG") == [("PER", "kb_id"), ("ORG", None)]
    f = pairwise_kappa(path, "spans:x;spans:y", types="PER->kb_id")["pairs"][0]["per_type"]["PER->kb_id"]
    assert f["confusion"]["categories"] == ["Q1", "Q2", "Q3", "Non-cat"]
    # items: Q1/Q1, Q2/Q3, Q3/Non-cat, Non-cat/Non-cat
    assert f["confusion"]["matrix"] == [[1, 0, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1], [0, 0, 0, 1]]
    assert f["observed_agreement"] == 0.5


def test_kappa_bootstrap_cli_html_and_escaping(tmp_path):
    path = three_annotators(tmp_path)
    out = tmp_path / "k"
    result = CliRunner().invoke(app, ["iaa", str(path), "--sets", "spans:a1;spans:a2;spans:a3", "--types", "*",
                                      "--measure", "kappa", "--bootstrap", "200", "--seed", "3", "--html", str(out),
                                      "--json", str(tmp_path / "k.json")])
    assert result.exit_code == 0, result.output
    data = json.loads((tmp_path / "k.json").read_text())
    f = data["pairs"][1]["per_type"]["*"]
    assert f["cohen_kappa_ci"]["n_samples"] == 200 and f["cohen_kappa_ci"]["low"] <= f["cohen_kappa"]
    assert "items" not in data and "texts" not in data
    index = (out / "index.html").read_text(encoding="utf8")
    assert "Cohen&#x27;s kappa" in index or "Cohen's kappa" in index
    page = (out / "pair-0-2.html").read_text(encoding="utf8")
    # the fixture tokenizes "<b>" as "<", "b", ">": a1 ORG / a3 LOC sit on the ">" token
    assert "<mark>&gt;</mark>" in page and "<mark>London</mark>" in page and "Disagreements (2)" in page
    assert "Grace &lt;b<mark>" in page  # document text escaped
    assert "<b> joined" not in page


def test_wnut17_kappa_against_a_naive_pairing_and_sklearn(tmp_path):
    """Seven WNUT-17 submissions: kappa ('*', labels as categories) equals scikit-learn's on items paired by a
    plain dict of (document, start, end); the matrix is symmetric."""
    from sklearn.metrics import cohen_kappa_score

    from spacy_anno_eval.spans.engine import load

    test_wnut17_seven_submissions_as_seven_annotators(tmp_path)  # writes seven.conll (skips without the data)
    path = tmp_path / "seven.conll"
    sets = [f"column:{i}" for i in range(1, 8)]
    result = pairwise_kappa(path, ";".join(sets), types="*")
    micro = result["matrix"]["micro"]
    assert all(micro[a][b] == pytest.approx(micro[b][a]) for a in range(7) for b in range(7))
    corpus = load(str(path), sets[:2])

    def items(name):
        t = corpus.get_set(name)
        columns = zip(t.doc.tolist(), t.start.tolist(), t.end.tolist(), t.label.tolist(), strict=True)
        return {(d, s, e): t.labels[lab] for d, s, e, lab in columns}

    x, y = items(sets[0]), items(sets[1])
    keys = sorted(set(x) | set(y))
    expected = cohen_kappa_score([x.get(k, "Non-cat") for k in keys], [y.get(k, "Non-cat") for k in keys])
    assert result["pairs"][0]["per_type"]["*"]["cohen_kappa"] == pytest.approx(expected)
    assert result["pairs"][0]["per_type"]["*"]["n"] == len(keys)
