"""What ``anno-eval agreement`` asks of the agreement family (issue 27): the corpus's units table with its notes
(:func:`corpus_units`) and the finished summary of a table (:func:`table_summary`)."""

from __future__ import annotations

import json

import pytest
import spacy
from spacy.tokens import DocBin, Span

from spacy_anno_eval.agreement.summary import RatingsTable, agreement_summary, table_summary
from spacy_anno_eval.agreement.units import DOCUMENT_UNIT, SPAN_UNIT, UnitsTable, corpus_units, read_annotators
from spacy_anno_eval.errors import ConfigError

NOTE = "the sets spans:ann1, spans:ann2 also carry document categories: --units documents compares those"


@pytest.fixture
def spans_and_cats(tmp_path):
    """Prodigy answers of two annotators on three documents: a PER span each, and a document label."""
    rows = []
    for i, text in enumerate(["Anna met Bob.", "Carl left.", "Rome is old."]):
        for ann in ("ann1", "ann2"):
            rows.append({"text": text, "meta": {"id": f"d{i}"}, "_annotator_id": ann, "_input_hash": i,
                         "_task_hash": 10 * i + len(ann), "answer": "accept",
                         "spans": [{"start": 0, "end": 4 if ann == "ann1" or i else 3, "label": "PER"}],
                         "accept": ["POS" if (i + (ann == "ann2")) % 2 else "NEG"],
                         "options": [{"id": "POS"}, {"id": "NEG"}]})
    path = tmp_path / "answers.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def test_corpus_units_notes_the_categories_only_when_units_are_auto(spans_and_cats):
    table = corpus_units(spans_and_cats)
    assert table.unit == SPAN_UNIT and table.annotators == ["spans:ann1", "spans:ann2"]
    assert table.notes == [NOTE]
    assert NOTE not in corpus_units(spans_and_cats, units="spans").notes
    documents = corpus_units(spans_and_cats, units="documents")
    assert documents.unit == DOCUMENT_UNIT and len(documents) == 3 and NOTE not in documents.notes


def test_corpus_units_refuses_feature_types_and_types_on_documents(spans_and_cats):
    with pytest.raises(ConfigError, match="TYPE->FEATURE"):
        corpus_units(spans_and_cats, types="PER->gender")
    with pytest.raises(ConfigError, match="--types selects the span types"):
        corpus_units(spans_and_cats, types=["PER"], units="documents")


def test_read_annotators_asks_a_docbin_again_for_its_annotator_sets(tmp_path):
    nlp = spacy.blank("en")
    doc = nlp("Ada met Bob .")
    doc.spans["one"] = [Span(doc, 0, 1, "PER")]
    doc.spans["two"] = [Span(doc, 2, 3, "PER")]
    path = tmp_path / "anns.spacy"
    DocBin(docs=[doc], store_user_data=True).to_disk(path)
    # the DocBin reader reads only the sets asked for: without selectors, the annotator sets are read again
    assert sorted(read_annotators(path).sets) == ["spans:one", "spans:two"]
    assert list(read_annotators(path, selectors=["spans:two"]).sets) == ["spans:two"]


def test_table_summary_of_a_units_table_leads_with_its_notes_once_and_adds_its_units():
    table = UnitsTable(["a", "b"], ["d", "d", "d"], [0, 5, 9], [3, 8, 12], [["X", "Y", "X"], ["X", "Y", "Y"]],
                       {"n_documents": 1}, notes=["first", "first", "second"])
    summary = table_summary(table, "nominal")
    plain = agreement_summary(table.values, "nominal", table.annotators)
    assert summary["krippendorff_alpha"] == plain["krippendorff_alpha"]
    assert summary["units"] == table.to_dict()
    assert summary["warnings"] == list(dict.fromkeys(["first", "second", *plain["warnings"]]))


def test_table_summary_of_a_ratings_table_adds_unit_ids_and_the_note():
    ratings = RatingsTable(["r1", "r2"], [["a", "b", "a"], ["a", "b", "b"]], unit_ids=["u1", "u2", "u3"],
                           id_column="Units", set_aside=["Units"], note="'Units' holds the unit ids")
    summary = table_summary(ratings, "nominal")
    assert summary["units"]["ids"] == ["u1", "u2", "u3"] and summary["units"]["id_column"] == "Units"
    assert summary["warnings"][0] == "'Units' holds the unit ids"
    bare = table_summary(RatingsTable(["r1", "r2"], [["a", "b", "a"], ["a", "b", "b"]]), "nominal")
    assert "units" not in bare and "'Units' holds the unit ids" not in bare["warnings"]
    assert bare["cohen_kappa"] == summary["cohen_kappa"]
