"""Agreement on document labels (issue 26, item 6): ``anno-eval agreement FILE`` and ``anno-eval iaa FILE
--measure kappa`` read a document classification export directly, documents as units (GATE's IAA for
classification, user guide 10.5).

Every figure is computed by hand in the test (Cohen 1960: kappa = (Ao - Ae) / (1 - Ae) with Ae the sum over
categories of the product of the two coders' shares; Scott 1955: pi with the pooled shares) and checked against
scikit-learn's ``cohen_kappa_score`` on the same labels."""

from __future__ import annotations

import json
import warnings
from fractions import Fraction
from pathlib import Path

import pytest
from sklearn.metrics import cohen_kappa_score
from typer.testing import CliRunner

from spacy_anno_eval.agreement.iaa import pairwise_kappa, pairwise_kappa_documents
from spacy_anno_eval.agreement.units import NONE, UNITS, document_units, units_kind
from spacy_anno_eval.cli.agreement import UnitKind
from spacy_anno_eval.cli.app import app
from spacy_anno_eval.errors import InputError
from spacy_anno_eval.io import read_corpus

runner = CliRunner()
NARROW = {"COLUMNS": "80", "LINES": "50", "TERM": "dumb"}

#: ten documents, two annotators: Ao 7/10; Ae = (5*5 + 3*4 + 2*1) / 100 = 39/100, kappa = 31/61;
#: pooled shares 10/20, 7/20, 3/20: Ae = 79/200, pi = 61/121
ALICE = ["pos", "pos", "neg", "neg", "pos", "neu", "pos", "neg", "pos", "neu"]
BOB = ["pos", "neg", "neg", "neg", "pos", "neu", "pos", "pos", "pos", "neg"]
KAPPA, PI = Fraction(31, 61), Fraction(61, 121)
IDS = {"pos": 1, "neg": 2, "neu": 3}


def _jsonl(path: Path, records: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def doccano_old(tmp_path: Path) -> tuple[Path, Path]:
    """doccano <= 1.2: one file, each annotation ``{"label": <id>, "user": <id>}``, and the label table."""
    path = _jsonl(tmp_path / "export.jsonl", [
        {"id": 100 + i, "text": f"Review number {i}.", "meta": {}, "annotation_approver": None,
         "annotations": [{"id": 2 * i, "label": IDS[a], "user": 1, "prob": 0.0},
                         {"id": 2 * i + 1, "label": IDS[b], "user": 2, "prob": 0.0}]}
        for i, (a, b) in enumerate(zip(ALICE, BOB, strict=True))])
    labels = tmp_path / "labels.json"
    labels.write_text(json.dumps([{"id": v, "text": k, "prefix_key": None, "suffix_key": k[0]}
                                  for k, v in IDS.items()]), encoding="utf-8")
    return path, labels


def labelstudio(tmp_path: Path) -> Path:
    """Three users' sentiment choices on six tasks; user 3 cancelled task 4.

    user1 / user2: Ao 4/6, Ae (9 + 9) / 36 = 1/2, kappa 1/3; user1 / user3 (tasks 1-3, 5, 6): kappa 1;
    user2 / user3: Ao 3/5, Ae (9 + 4) / 25 = 13/25, kappa 1/6; mean of pairs 1/2."""
    u1, u2, u3 = "AABBAB", "ABBBAA", "AAB.AB"
    tasks = []
    for t in range(6):
        annotations = []
        for user, choices in ((1, u1), (2, u2), (3, u3)):
            cancelled = choices[t] == "."
            annotations.append({"id": 10 * t + user, "completed_by": user, "was_cancelled": cancelled,
                                "result": [] if cancelled else [
                                    {"id": f"c{t}{user}", "type": "choices", "from_name": "sentiment",
                                     "to_name": "text", "origin": "manual",
                                     "value": {"choices": ["Positive" if choices[t] == "A" else "Negative"]}}]})
        tasks.append({"id": 1 + t, "data": {"text": f"Tweet {t}"}, "annotations": annotations, "predictions": []})
    path = tmp_path / "project-1.json"
    path.write_text(json.dumps(tasks), encoding="utf-8")
    return path


def _read(path: Path, **options):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return read_corpus(path, **options)


def _quiet(function, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return function(*args, **kwargs)


# -- the units table and the kappa accumulator ---------------------------------------------------------------------


def test_doccano_documents_give_cohen_kappa_and_scott_pi_by_hand(tmp_path) -> None:
    path, labels = doccano_old(tmp_path)
    corpus = _read(path, labels=str(labels))
    table = document_units(corpus)
    assert table.unit == "document" and table.values == [ALICE, BOB]
    result = _quiet(pairwise_kappa_documents, corpus)
    figures = result["pairs"][0]["per_type"]["document->category"]
    assert figures["cohen_kappa"] == pytest.approx(float(KAPPA))
    assert figures["scott_pi"] == pytest.approx(float(PI))
    assert figures["observed_agreement"] == pytest.approx(0.7)
    assert figures["cohen_kappa"] == pytest.approx(cohen_kappa_score(ALICE, BOB))
    assert figures["confusion"]["categories"] == ["neg", "neu", "pos"]  # no Non-cat: every document has a label
    assert result["units"]["layout"] == "single-label" and result["units"]["unit"] == "document"


def test_labelstudio_pairs_mean_and_all_annotators_by_hand(tmp_path) -> None:
    corpus = _read(labelstudio(tmp_path))
    result = _quiet(pairwise_kappa_documents, corpus)
    kappa = {(p["a"], p["b"]): p["mean_over_types"]["cohen_kappa"] for p in result["pairs"]}
    assert kappa == {("spans:user1", "spans:user2"): pytest.approx(1 / 3),
                     ("spans:user1", "spans:user3"): pytest.approx(1.0),
                     ("spans:user2", "spans:user3"): pytest.approx(1 / 6)}
    assert result["mean_of_pairs"]["cohen_kappa"] == pytest.approx(0.5)
    docs = {(p["a"], p["b"]): p["docs_covered"] for p in result["pairs"]}
    assert docs[("spans:user2", "spans:user3")] == 5  # the documents both annotated
    u2, u3 = "ABBAA", "AABAB"  # tasks 1-3, 5, 6
    assert kappa[("spans:user2", "spans:user3")] == pytest.approx(cohen_kappa_score(list(u2), list(u3)))
    # Brennan-Prediger counts q = 2 categories (no Non-cat among documents): (Ao - 1/2) / (1 - 1/2) = 1/3
    family = result["pairs"][0]["per_type"]["document->category"]["chance_corrected"]
    assert family["brennan_prediger"]["value"] == pytest.approx(1 / 3)


def test_multi_label_documents_are_document_x_label_binary_units(tmp_path) -> None:
    folder = tmp_path / "export"
    folder.mkdir()
    texts = ["one", "two", "three", "four"]
    for user, labels in (("alice", [["X", "Y"], ["X"], [], ["Y"]]), ("bob", [["X"], ["X", "Y"], ["Y"], ["Y"]])):
        _jsonl(folder / f"{user}.jsonl", [{"id": i, "text": t, "label": lab}
                                          for i, (t, lab) in enumerate(zip(texts, labels, strict=True))])
    corpus = _read(folder)
    table = document_units(corpus)
    assert table.unit == "document x label" and table.labels == ["X", "Y"] * 4
    alice, bob = table.values
    assert alice == ["yes", "yes", "yes", "no", "no", "no", "no", "yes"]
    # pooled over the 8 units: Ao 5/8, Ae (4/8)(5/8) + (4/8)(3/8) = 1/2, kappa 1/4
    pooled = _quiet(runner.invoke, app, ["agreement", str(folder), "--json", str(tmp_path / "a.json")], env=NARROW)
    assert pooled.exit_code == 0, pooled.stderr
    data = json.loads((tmp_path / "a.json").read_text(encoding="utf-8"))
    assert data["cohen_kappa"] == pytest.approx(0.25) == pytest.approx(cohen_kappa_score(alice, bob))
    assert data["units"]["unit"] == "document x label"
    # per label in iaa: X agrees fully (kappa 1); Y: Ao 1/4, Ae 1/2, kappa -1/2
    result = _quiet(pairwise_kappa_documents, corpus)
    per_type = result["pairs"][0]["per_type"]
    assert per_type["X->chosen"]["cohen_kappa"] == pytest.approx(1.0)
    assert per_type["Y->chosen"]["cohen_kappa"] == pytest.approx(-0.5)
    assert result["mean_of_pairs"]["cohen_kappa"] == pytest.approx(0.25)


def test_a_document_an_annotator_did_not_cover_is_missing_or_none_when_asked(tmp_path) -> None:
    corpus = _read(labelstudio(tmp_path))
    table = document_units(corpus)
    assert table.values[2][3] is None  # user 3 cancelled task 4
    empty = document_units(corpus, missing_as_empty=True)
    assert empty.values[2][3] == NONE
    assert empty.documents["missing_as_empty"] is True


def test_units_auto_reads_documents_only_when_the_sets_hold_no_span(tmp_path) -> None:
    corpus = _read(labelstudio(tmp_path))
    names = corpus.annotators()
    assert units_kind(corpus, names) == "documents" and units_kind(corpus, names, "spans") == "spans"
    assert tuple(UnitKind.__args__) == UNITS  # the CLI's choices are the module's
    spans = _read(_jsonl(tmp_path / "plain.jsonl", [{"text": "Ada", "spans": [{"start": 0, "end": 3,
                                                                               "label": "PER"}]}]))
    with pytest.raises(InputError, match="--units documents: none of the sets ents carries document categories"):
        units_kind(spans, ["ents"], "documents")


def test_pairwise_kappa_on_a_classification_export_falls_back_to_documents_only_with_auto(tmp_path) -> None:
    path = labelstudio(tmp_path)
    auto = _quiet(pairwise_kappa, str(path), units="auto")
    assert auto["mean_of_pairs"]["cohen_kappa"] == pytest.approx(0.5) and "units" in auto
    with pytest.raises(InputError, match=r"hold no annotations \(but document categories: spans:user1"):
        _quiet(pairwise_kappa, str(path))


# -- the CLI, end to end ----------------------------------------------------------------------------------------


def test_agreement_reads_a_doccano_export_directly(tmp_path) -> None:
    path, labels = doccano_old(tmp_path)
    result = runner.invoke(app, ["agreement", str(path), "-O", f"labels={labels}", "--json", str(tmp_path / "a.json")],
                           env=NARROW)
    assert result.exit_code == 0, result.stderr
    assert f"cohen_kappa           {float(KAPPA):.4f}" in result.stdout  # 0.5082
    assert f"scott_pi              {float(PI):.4f}" in result.stdout  # 0.5041
    assert "units are documents" in result.stdout
    data = json.loads((tmp_path / "a.json").read_text(encoding="utf-8"))
    assert data["cohen_kappa"] == pytest.approx(float(KAPPA)) and data["n_units"] == 10
    assert data["units"]["documents"]["labels"] == ["neg", "neu", "pos"]


def test_iaa_kappa_reads_a_labelstudio_export_directly(tmp_path) -> None:
    path = labelstudio(tmp_path)
    out = tmp_path / "iaa.json"
    result = runner.invoke(app, ["iaa", str(path), "--measure", "kappa", "--json", str(out)], env=NARROW)
    assert result.exit_code == 0, result.stderr
    assert "cohen_kappa 0.5000" in result.stdout  # the mean of the three pairs
    assert "the units are documents (single-label" in result.stderr
    data = json.loads(out.read_text(encoding="utf-8"))
    assert [p["mean_over_types"]["cohen_kappa"] for p in data["pairs"]] == pytest.approx([1 / 3, 1.0, 1 / 6])
    explicit = runner.invoke(app, ["iaa", str(path), "--measure", "kappa", "--units", "documents", "--sets",
                                   "spans:user2,spans:user3", "-q", "--json", str(tmp_path / "two.json")], env=NARROW)
    assert explicit.exit_code == 0, explicit.stderr
    two = json.loads((tmp_path / "two.json").read_text(encoding="utf-8"))
    assert two["mean_of_pairs"]["cohen_kappa"] == pytest.approx(1 / 6)


@pytest.mark.parametrize(("args", "message"), [
    (["iaa", "{path}"], "hold no span annotation; nothing to compare with --measure fmeasure"),
    (["iaa", "{path}", "--units", "documents"], "give --measure kappa"),
    (["iaa", "{path}", "--measure", "kappa", "--units", "documents", "--types", "Positive"], "--types selects"),
    (["agreement", "{path}", "--units", "spans"], "--units documents compares those"),
    (["agreement", "{path}", "--types", "Positive"], "--types selects the span types"),
])
def test_document_labels_refuse_what_they_cannot_compare_with_one_line(tmp_path, args, message) -> None:
    path = labelstudio(tmp_path)
    result = runner.invoke(app, [a.format(path=path) for a in args], env=NARROW)
    assert result.exit_code == 2, (result.stdout, result.stderr)
    assert message in result.stderr and result.stderr.count("anno-eval: error:") == 1


def test_sets_with_spans_and_labels_compare_spans_unless_documents_are_asked_for(tmp_path) -> None:
    def region(start: int, end: int, label: str) -> dict:
        return {"type": "labels", "from_name": "ner", "to_name": "text",
                "value": {"start": start, "end": end, "labels": [label]}}

    def choice(label: str) -> dict:
        return {"type": "choices", "from_name": "sentiment", "to_name": "text", "value": {"choices": [label]}}

    tasks = [{"id": 1, "data": {"text": "Ada met Bob"}, "annotations": [
                 {"completed_by": 1, "result": [region(0, 3, "PER"), choice("Positive")]},
                 {"completed_by": 2, "result": [region(0, 3, "PER"), choice("Negative")]}]},
             {"id": 2, "data": {"text": "Bob left"}, "annotations": [
                 {"completed_by": 1, "result": [region(0, 3, "PER"), choice("Negative")]},
                 {"completed_by": 2, "result": [choice("Negative")]}]}]
    path = tmp_path / "both.json"
    path.write_text(json.dumps(tasks), encoding="utf-8")
    spans = runner.invoke(app, ["agreement", str(path), "--json", str(tmp_path / "s.json")], env=NARROW)
    assert spans.exit_code == 0, spans.stderr
    assert "units are span positions" in spans.stdout
    assert "also carry document categories: --units documents compares those" in spans.stdout
    docs = runner.invoke(app, ["agreement", str(path), "--units", "documents", "--json", str(tmp_path / "d.json")],
                         env=NARROW)
    assert docs.exit_code == 0, docs.stderr
    data = json.loads((tmp_path / "d.json").read_text(encoding="utf-8"))
    assert data["units"]["unit"] == "document" and data["n_units"] == 2 and data["observed_agreement"] == 0.5
    kappa = runner.invoke(app, ["iaa", str(path), "--measure", "kappa", "-v", "0"], env=NARROW)
    assert kappa.exit_code == 0 and "--units documents compares those" in kappa.stderr
    on_docs = runner.invoke(app, ["iaa", str(path), "--measure", "kappa", "--units", "documents", "-q", "--json",
                                  str(tmp_path / "k.json")], env=NARROW)
    assert on_docs.exit_code == 0, on_docs.stderr
    pair = json.loads((tmp_path / "k.json").read_text(encoding="utf-8"))["pairs"][0]
    assert pair["per_type"]["document->category"]["observed_agreement"] == 0.5
