"""GATE's IAA plugin options in ``iaa --measure fmeasure``: a significant feature per type (``Per->label;Org``, user
guide 10.5) and GATE's leaving out of annotations that lack their type's feature."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import pytest
import spacy
from spacy.tokens import DocBin, Span
from typer.testing import CliRunner

from spacy_anno_eval.agreement.iaa import MissingFeatureWarning, pairwise_f, pairwise_kappa, to_json
from spacy_anno_eval.cli.app import app
from spacy_anno_eval.errors import ConfigError, InputError

runner = CliRunner()


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    """One document, annotators a and b: same spans everywhere; PER "Ada" linked Q1 / Q2 (differs), PER "Bob" Q3 /
    Q3, ORG "IBM" Q4 / Q5 (differs), LOC "Rome" Q6 for a, no link for b; b's PER "Cy" has no link and a has no
    "Cy" at all."""
    nlp = spacy.blank("en")
    doc = nlp("Ada met Bob at IBM in Rome with Cy")
    doc.user_data["doc_id"] = "d0"
    doc.spans["a"] = [Span(doc, 0, 1, "PER", kb_id="Q1"), Span(doc, 2, 3, "PER", kb_id="Q3"),
                      Span(doc, 4, 5, "ORG", kb_id="Q4"), Span(doc, 6, 7, "LOC", kb_id="Q6")]
    doc.spans["b"] = [Span(doc, 0, 1, "PER", kb_id="Q2"), Span(doc, 2, 3, "PER", kb_id="Q3"),
                      Span(doc, 4, 5, "ORG", kb_id="Q5"), Span(doc, 6, 7, "LOC"), Span(doc, 8, 9, "PER")]
    path = tmp_path / "kb.spacy"
    DocBin(docs=[doc], store_user_data=True).to_disk(path)
    return path


def counts(result, type_=None):
    report = result["pairs"][0]["report"]
    c = report["per_type"][type_]["counts"] if type_ else report["counts"]
    return {k: c[k] for k in ("correct", "missing", "spurious")}


def test_a_feature_is_significant_for_its_type_only(corpus: Path) -> None:
    with pytest.warns(MissingFeatureWarning):  # b's PER "Cy" has no kb_id
        result = pairwise_f(corpus, "spans:a;spans:b", types="PER->kb_id;ORG")
    assert result["type_features"] == {"PER": "kb_id", "ORG": None}
    # PER: Bob agrees, Ada's links differ (one missing + one spurious); ORG: IBM agrees by span and type
    assert counts(result, "PER") == {"correct": 1, "missing": 1, "spurious": 1}
    assert counts(result, "ORG") == {"correct": 1, "missing": 0, "spurious": 0}
    # the other way round: ORG's link is significant, PER's are not
    result = pairwise_f(corpus, "spans:a;spans:b", types="PER,ORG->kb_id")
    assert counts(result, "PER") == {"correct": 2, "missing": 0, "spurious": 1}  # b's Cy is spurious
    assert counts(result, "ORG") == {"correct": 0, "missing": 1, "spurious": 1}
    # '*->kb_id': every type's link is significant (and every type is compared)
    with pytest.warns(MissingFeatureWarning):
        result = pairwise_f(corpus, "spans:a;spans:b", types="*->kb_id")
    assert set(result["pairs"][0]["report"]["per_type"]) == {"PER", "ORG", "LOC"}
    assert counts(result, "ORG") == {"correct": 0, "missing": 1, "spurious": 1}


def test_missing_feature_drop_is_gates_default_and_never_silent(corpus: Path) -> None:
    with pytest.warns(MissingFeatureWarning) as caught:
        result = pairwise_f(corpus, "spans:a;spans:b", types="PER->kb_id;LOC->kb_id")
    # b's LOC Rome and PER Cy lack kb_id: left out; a's LOC Rome then has no partner
    assert result["left_out"] == {"spans:a": 0, "spans:b": 2}
    assert result["missing_feature"] == "drop"
    assert counts(result, "LOC") == {"correct": 0, "missing": 1, "spurious": 0}
    assert counts(result, "PER") == {"correct": 1, "missing": 1, "spurious": 1}
    message = str(caught[0].message)
    assert "spans:a 0, spans:b 2" in message and "PER->kb_id; LOC->kb_id" in message and "keep" in message
    assert result["warnings"] == [message]
    json.dumps(to_json(result), allow_nan=False)


def test_missing_feature_keep_compares_them_by_span_and_type(corpus: Path) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error", MissingFeatureWarning)
        result = pairwise_f(corpus, "spans:a;spans:b", types="PER->kb_id;LOC->kb_id", missing_feature="keep")
    assert result["left_out"] == {"spans:a": 0, "spans:b": 0} and result["warnings"] == []
    # a key with the feature and a response without: GATE's subsumption wants the key's value in the response
    assert counts(result, "LOC") == {"correct": 0, "missing": 1, "spurious": 1}
    assert counts(result, "PER") == {"correct": 1, "missing": 1, "spurious": 2}
    with pytest.raises(ConfigError, match="missing_feature must be one of drop, keep"):
        pairwise_f(corpus, "spans:a;spans:b", types="PER->kb_id", missing_feature="gate")


def test_kappa_keeps_featureless_annotations_as_non_cat(corpus: Path) -> None:
    result = pairwise_kappa(corpus, "spans:a;spans:b", types="LOC->kb_id")
    confusion = result["pairs"][0]["per_type"]["LOC->kb_id"]["confusion"]
    assert confusion == {"categories": ["Q6", "Non-cat"], "matrix": [[0, 1], [0, 0]]}


def test_names_that_match_nothing_are_refused_listing_what_exists(corpus: Path, tmp_path: Path) -> None:
    nlp = spacy.blank("en")
    doc = nlp("Ada met Bob")
    doc.spans["a"] = [Span(doc, 0, 1, "PER", kb_id="Q1"), Span(doc, 2, 3, "ORG")]
    doc.spans["b"] = [Span(doc, 0, 1, "PER", kb_id="Q1"), Span(doc, 2, 3, "ORG")]
    path = tmp_path / "org.spacy"
    DocBin(docs=[doc]).to_disk(path)
    for compute in (pairwise_f, pairwise_kappa):
        with pytest.raises(InputError, match=r"no annotation of type 'ORG' carries the feature 'kb_id' \(annotations "
                                             r"of PER do\); the features of ORG are: none"):
            compute(path, "spans:a;spans:b", types="PER;ORG->kb_id")
        with pytest.raises(InputError, match="no annotation carries the feature 'kind'; the features are: kb_id"):
            compute(corpus, "spans:a;spans:b", types="PER->kind;ORG")
        with pytest.raises(InputError, match="NOPE"):
            compute(corpus, "spans:a;spans:b", types="NOPE->kb_id")
    with pytest.raises(InputError, match="types must be distinct"):
        pairwise_f(corpus, "spans:a;spans:b", types="PER->kb_id;PER")
    result = runner.invoke(app, ["iaa", str(path), "--sets", "spans:a;spans:b", "--types", "PER;ORG->kb_id", "-q"])
    assert result.exit_code == 2
    assert "no annotation of type 'ORG' carries the feature 'kb_id'" in result.stderr


@pytest.mark.parametrize("sep", [";", ","])
def test_cli_types_json_and_warning(corpus: Path, tmp_path: Path, sep: str) -> None:
    out = tmp_path / f"f{sep}.json"
    result = runner.invoke(app, ["iaa", str(corpus), "--sets", f"spans:a{sep}spans:b", "--types",
                                 f"PER->kb_id{sep}ORG", "--json", str(out)])
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text(encoding="utf8"))
    assert data["type_features"] == {"PER": "kb_id", "ORG": None}
    assert data["left_out"] == {"spans:a": 0, "spans:b": 1}
    assert data["pairs"][0]["report"]["per_type"]["ORG"]["counts"]["correct"] == 1
    assert "anno-eval: warning:" in result.stderr and "spans:b 1" in result.stderr
    out = tmp_path / f"keep{sep}.json"
    result = runner.invoke(app, ["iaa", str(corpus), "--sets", f"spans:a{sep}spans:b", "--types",
                                 f"PER->kb_id{sep}ORG", "--missing-feature", "keep", "--json", str(out), "-q"])
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text(encoding="utf8"))
    assert data["missing_feature"] == "keep" and data["left_out"] == {"spans:a": 0, "spans:b": 0}
    assert "warning" not in result.stderr


def test_cli_missing_feature_is_for_fmeasure_only(corpus: Path) -> None:
    result = runner.invoke(app, ["iaa", str(corpus), "--sets", "spans:a;spans:b", "--measure", "kappa",
                                 "--missing-feature", "keep", "-q"])
    assert result.exit_code == 2
    assert "--missing-feature applies to --measure fmeasure" in result.stderr
    result = runner.invoke(app, ["iaa", str(corpus), "--sets", "spans:a;spans:b", "--missing-feature", "maybe"])
    assert result.exit_code == 2
