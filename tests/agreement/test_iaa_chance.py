"""``iaa --measure kappa`` reports the chance-corrected family (spacy_anno_eval.agreement.chance): per pair and type
from the pair's table, and of all annotators together per type; numbers by hand and against the functions of
:mod:`spacy_anno_eval.agreement.chance` on the same tables and ratings."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import spacy
from spacy.tokens import DocBin, Span
from typer.testing import CliRunner

from spacy_anno_eval.agreement.chance import chance_agreement, majority_agreement, pabak, specific_agreements
from spacy_anno_eval.agreement.iaa import pairwise_kappa, to_json
from spacy_anno_eval.cli.app import app
from spacy_anno_eval.report.matrix import write_matrix_reports

NARROW = {"COLUMNS": "80", "LINES": "50", "TERM": "dumb"}


def items_corpus(path: Path, items: list[tuple[str | None, ...]], per_doc: int = 25, label: str = "X") -> Path:
    """One annotation per item and annotator on its own token, ``kb_id`` its category (``None``: not annotated),
    ``per_doc`` items per document; sets ``spans:a``, ``spans:b``, ..."""
    nlp = spacy.blank("en")
    names = "abcdefg"[:len(items[0])]
    docs = []
    for d in range(0, len(items), per_doc):
        chunk = items[d:d + per_doc]
        doc = nlp(" ".join(f"w{k}" for k in range(len(chunk))))
        doc.user_data["doc_id"] = f"d{d // per_doc}"
        for g, name in enumerate(names):
            doc.spans[name] = [Span(doc, k, k + 1, label, kb_id=item[g] if item[g] != "-" else "")
                               for k, item in enumerate(chunk) if item[g] is not None]
        docs.append(doc)
    DocBin(docs=docs, store_user_data=True).to_disk(path)
    return path


#: Brennan & Prediger's (1981) table [[50, 0, 0], [10, 10, 10], [20, 0, 0]] as items: A's category, B's category,
#: None where that annotator made no annotation (Non-cat)
BP_ITEMS = [("x", "x")] * 50 + [("y", "x")] * 10 + [("y", "y")] * 10 + [("y", None)] * 10 + [(None, "x")] * 20


@pytest.fixture
def bp_corpus(tmp_path: Path) -> Path:
    return items_corpus(tmp_path / "bp.spacy", BP_ITEMS)


def test_brennan_prediger_table_by_hand(bp_corpus: Path) -> None:
    result = pairwise_kappa(bp_corpus, "spans:a;spans:b", types="X->kb_id")
    f = result["pairs"][0]["per_type"]["X->kb_id"]
    assert f["confusion"] == {"categories": ["x", "y", "Non-cat"], "matrix": [[50, 0, 0], [10, 10, 10], [20, 0, 0]]}
    family = f["chance_corrected"]
    # pa = 0.6, q = 3: BP (0.6 - 1/3) / (2/3) = 0.4; PABAK (3 * 0.6 - 1) / 2 = 0.4
    assert family["brennan_prediger"]["value"] == pytest.approx(0.4)
    assert family["brennan_prediger"]["pe"] == pytest.approx(1 / 3)
    assert family["pabak"]["pabak"] == pytest.approx(0.4)
    assert "prevalence_index" not in family["pabak"]  # three categories: no Byrt indices
    # Gwet: pi = (.65, .2, .15), pe = sum pi (1 - pi) / (q - 1) = .515 / 2; AC1 = (.6 - .2575) / .7425
    assert family["gwet_ac"]["pe"] == pytest.approx(0.2575)
    assert family["gwet_ac"]["value"] == pytest.approx(0.3425 / 0.7425)
    # positive specific agreement of x: 2 * 50 / (50 + 80); negative: 2 * 40 / (50 + 80 ... against the rest)
    assert family["specific_agreement"]["x"]["positive"] == pytest.approx(100 / 130)
    assert family["specific_agreement"] == specific_agreements([[50, 0, 0], [10, 10, 10], [20, 0, 0]],
                                                                ["x", "y", "Non-cat"])
    # the mean over the one type, and the mean of the one pair
    assert result["pairs"][0]["chance_corrected"]["mean_over_types"] == pytest.approx(
        {"gwet_ac": 0.3425 / 0.7425, "brennan_prediger": 0.4, "pabak": 0.4})
    assert result["chance_corrected"]["mean_of_pairs"] == result["pairs"][0]["chance_corrected"]["mean_over_types"]


def test_two_annotators_overall_equals_the_pair(bp_corpus: Path) -> None:
    """All annotators = the one pair: Conger's kappa is Cohen's, Fleiss' (averaged shares) Scott's pi, AC1 and BP
    the table's."""
    result = pairwise_kappa(bp_corpus, "spans:a;spans:b", types="X->kb_id")
    pair = result["pairs"][0]["per_type"]["X->kb_id"]
    overall = result["chance_corrected"]["per_type"]["X->kb_id"]
    assert overall["n_units"] == 100
    assert pair["cohen_kappa"] == pytest.approx(0.15 / 0.55)  # pe = .5*.8 + .3*.1 + .2*.1 = .45
    assert overall["conger_kappa"]["value"] == pytest.approx(pair["cohen_kappa"])
    assert pair["scott_pi"] == pytest.approx(0.115 / 0.515)  # pe = .65**2 + .2**2 + .15**2 = .485
    assert overall["fleiss_kappa_averaged"]["value"] == pytest.approx(pair["scott_pi"])
    assert overall["gwet_ac"]["value"] == pytest.approx(pair["chance_corrected"]["gwet_ac"]["value"])
    assert overall["brennan_prediger"]["value"] == pytest.approx(0.4)
    assert overall["majority"]["annotators"]["spans:a"]["observed_agreement"] == pytest.approx(0.6)
    assert result["chance_corrected"]["majority_per_annotator"] == pytest.approx({"spans:a": 0.6, "spans:b": 0.6})
    over = result["chance_corrected"]["mean_over_types"]
    assert over["brennan_prediger"] == pytest.approx(0.4) and over["majority"] == pytest.approx(0.6)


def test_pabak_with_prevalence_and_bias_on_two_categories(tmp_path: Path) -> None:
    """A type without a feature: categories Anns and Non-cat; table [[8, 2], [1, 0]] (8 both, 2 only A, 1 only B)."""
    items = [("-", "-")] * 8 + [("-", None)] * 2 + [(None, "-")]
    result = pairwise_kappa(items_corpus(tmp_path / "two.spacy", items, per_doc=11), "spans:a;spans:b")
    f = result["pairs"][0]["per_type"]["X"]
    assert f["confusion"]["matrix"] == [[8, 2], [1, 0]]
    pb = f["chance_corrected"]["pabak"]
    assert pb["pabak"] == pytest.approx(2 * 8 / 11 - 1)
    assert pb["prevalence_index"] == pytest.approx(8 / 11) and pb["bias_index"] == pytest.approx(1 / 11)
    assert pb == pytest.approx(pabak([[8, 2], [1, 0]]))
    assert pb["positive_agreement"] == pytest.approx(16 / 19) and pb["negative_agreement"] == 0.0


def test_three_annotators_against_the_functions_on_the_same_ratings(tmp_path: Path) -> None:
    items = ([("x", "x", "x")] * 6 + [("x", "y", "x")] * 3 + [("y", "y", None)] * 4 + [(None, "x", "y")] * 2
             + [("y", None, None)] * 2 + [("x", "x", "y")] * 3)
    result = pairwise_kappa(items_corpus(tmp_path / "three.spacy", items, per_doc=10), "spans:a;spans:b;spans:c",
                            types="X->kb_id")
    rows = [[("Non-cat" if item[g] is None else item[g]) for item in items] for g in range(3)]
    cats = ["x", "y", "Non-cat"]
    overall = result["chance_corrected"]["per_type"]["X->kb_id"]
    assert overall["n_units"] == len(items)
    for key, measure in (("gwet_ac", "gwet"), ("brennan_prediger", "brennan_prediger"), ("conger_kappa", "conger"),
                         ("fleiss_kappa_averaged", "fleiss")):
        expected = chance_agreement(rows, measure, categories=cats)
        assert overall[key]["value"] == pytest.approx(expected.value), key
        assert overall[key]["se"] == pytest.approx(expected.se), key
    names = ["spans:a", "spans:b", "spans:c"]
    assert overall["majority"] == majority_agreement(rows, names)
    # Fleiss by hand: every unit has 3 ratings; pa = mean over units of agreeing pairs / 3
    agree = {("x", "x", "x"): 3, ("x", "y", "x"): 1, ("y", "y", None): 1, (None, "x", "y"): 0, ("y", None, None): 1,
             ("x", "x", "y"): 1}
    pa = sum(agree[i] for i in items) / 3 / len(items)
    shares = {c: sum(r[u] == c for r in rows for u in range(len(items))) / (3 * len(items)) for c in cats}
    pe = sum(v * v for v in shares.values())
    assert overall["fleiss_kappa_averaged"]["value"] == pytest.approx((pa - pe) / (1 - pe))
    # each pair's figures come from its own table
    for pair in result["pairs"]:
        table = pair["per_type"]["X->kb_id"]["confusion"]["matrix"]
        got = pair["per_type"]["X->kb_id"]["chance_corrected"]
        assert got["pabak"] == pytest.approx(pabak(table))
    assert result["chance_corrected"]["mean_of_pairs"]["pabak"] == pytest.approx(
        sum(p["chance_corrected"]["mean_over_types"]["pabak"] for p in result["pairs"]) / 3)


def test_a_document_an_annotator_did_not_cover_gives_missing_ratings(tmp_path: Path) -> None:
    nlp = spacy.blank("en")
    docs = []
    for d in range(2):
        doc = nlp("Ada met Bob")
        doc.user_data["doc_id"] = f"d{d}"
        doc.spans["a"] = [Span(doc, 0, 1, "PER"), Span(doc, 2, 3, "PER")]
        if d == 0:  # b has no span group in d1: it never annotated it
            doc.spans["b"] = [Span(doc, 0, 1, "PER")]
        docs.append(doc)
    path = tmp_path / "cover.spacy"
    DocBin(docs=docs, store_user_data=True).to_disk(path)
    with pytest.warns(UserWarning):
        result = pairwise_kappa(path, "spans:a;spans:b")
    overall = result["chance_corrected"]["per_type"]["PER"]
    assert overall["n_units"] == 4  # every position, rated by a; by b only in d0
    assert overall["majority"]["annotators"]["spans:a"]["n_units"] == 2  # d0 only: b rated those


def test_json_cli_terminal_and_html_hold_the_family(bp_corpus: Path, tmp_path: Path) -> None:
    out = tmp_path / "kappa.json"
    result = CliRunner().invoke(app, ["iaa", str(bp_corpus), "--sets", "spans:a;spans:b", "--measure", "kappa",
                                      "--types", "X->kb_id", "--json", str(out), "--html", str(tmp_path / "html")],
                                env=NARROW)
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text(encoding="utf8"))
    family = data["chance_corrected"]
    assert family["per_type"]["X->kb_id"]["brennan_prediger"]["value"] == pytest.approx(0.4)
    assert data["pairs"][0]["per_type"]["X->kb_id"]["chance_corrected"]["pabak"]["pabak"] == pytest.approx(0.4)
    text = result.stdout
    assert "Brennan-Prediger 0.4000" in text and "PABAK 0.4000" in text
    assert f"Gwet AC1 {0.3425 / 0.7425:.4f}" in text and f"Conger kappa {0.15 / 0.55:.4f}" in text
    assert all(len(line) <= 80 for line in text.splitlines()), text
    index = (tmp_path / "html" / "index.html").read_text(encoding="utf8")
    assert "Brennan-Prediger" in index and "0.400" in index and "Conger&#x27;s kappa" in index
    page = (tmp_path / "html" / "pair-0-1.html").read_text(encoding="utf8")
    assert "PABAK 0.400" in page and "negative" in page


def test_the_json_has_no_nan_when_figures_are_undefined(tmp_path: Path) -> None:
    """Both annotators made the same annotations: kappa, Conger and Fleiss do not exist (one category used)."""
    items = [("-", "-")] * 5
    result = pairwise_kappa(items_corpus(tmp_path / "same.spacy", items, per_doc=5), "spans:a;spans:b")
    text = json.dumps(to_json(result), allow_nan=False)
    overall = result["chance_corrected"]["per_type"]["X"]
    assert overall["conger_kappa"]["value"] is None and overall["fleiss_kappa_averaged"]["value"] is None
    assert overall["brennan_prediger"]["value"] == pytest.approx(1.0)  # q = 2 (Anns, Non-cat): pe = 1/2
    assert any("conger_kappa" in n for n in result["chance_corrected"]["notes"])
    assert any(w.startswith("chance-corrected family:") for w in result["warnings"])
    assert '"chance_corrected"' in text
    write_matrix_reports(result, tmp_path / "html")  # renders with undefined figures
