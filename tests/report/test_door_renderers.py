"""The terminal renderers moved out of cli/ for issue 27 (agreement, sets, convert, iaa's notes, gamma's note,
trees' phrase summary, the "written to" lines): what each returns, and two commands printing exactly what they
printed before the move (the expected text below was taken from the commands at that time)."""

from __future__ import annotations

import io
from pathlib import Path

from typer.testing import CliRunner

from spacy_anno_eval.cli.app import app
from spacy_anno_eval.report.agreement_terminal import all_sets_note, documents_lines, summary_lines
from spacy_anno_eval.report.convert_terminal import written_line as convert_line
from spacy_anno_eval.report.gamma_terminal import sets_note_line
from spacy_anno_eval.report.iaa_terminal import matrix_written_line, note_lines, warning_lines
from spacy_anno_eval.report.sets_terminal import print_sets
from spacy_anno_eval.report.trees_terminal import evalb_lines, levels_lines, phrase_lines
from spacy_anno_eval.report.written_terminal import written_line, written_lines
from tests.conftest import shared_file

AGREEMENT_4RATERS_HEAD = """\
12 units, 4 annotators, 11 with two or more values
  observed_agreement    81.82 %
  bennett_s             0.7727
  scott_pi              0.7608
  cohen_kappa           0.7002
  fleiss_kappa          0.7608
  davies_fleiss_kappa   n/a
  krippendorff_alpha    0.7434
                        nominal; observed disagreement 0.2000, expected 0.7795
  chance-corrected, identity weights (irrCAC's analytic SE and CI):
  gwet_ac               0.7754  se 0.1429  95% CI [0.4608, 1.0000]
  brennan_prediger      0.7727  se 0.1447  95% CI [0.4542, 1.0000]
  conger_kappa          0.7628  se 0.1492  95% CI [0.4345, 1.0000]
  fleiss_kappa_averaged 0.7612  se 0.1530  95% CI [0.4244, 1.0000]
"""

DEMO_KEY = Path(__file__).resolve().parents[2] / "assets" / "demo" / "key.jsonl"
SETS_DEMO = """\
{source}: 16 documents, 1 set (read as jsonl)
┏━━━━━━┳━━━━━━━━━━━┳━━━━━━━━━━━┳━━━━━━┳━━━━━━━━━━━━━┓
┃      ┃           ┃ Documents ┃      ┃             ┃
┃ Set  ┃ Annotator ┃   covered ┃ Type ┃ Annotations ┃
┡━━━━━━╇━━━━━━━━━━━╇━━━━━━━━━━━╇━━━━━━╇━━━━━━━━━━━━━┩
│ ents │ no        │  16 of 16 │ all  │          44 │
│      │           │           │ LOC  │          19 │
│      │           │           │ ORG  │          12 │
│      │           │           │ PER  │           9 │
│      │           │           │ MISC │           4 │
└──────┴───────────┴───────────┴──────┴─────────────┘
features: none
"""


def _summary(**extra):
    """A small agreement summary with every line's figure set (made up, not computed from anything)."""
    base = {"n_units": 3, "n_annotators": 2, "n_pairable_units": 2, "observed_agreement": 0.5, "bennett_s": 0.25,
            "scott_pi": None, "cohen_kappa": 0.125, "fleiss_kappa": 0.1, "davies_fleiss_kappa": 0.2,
            "cohen_kappa_ci": {"low": 0.0, "high": 0.5, "confidence": 0.9},
            "krippendorff_alpha": {"value": 0.3, "observed_disagreement": 0.4, "expected_disagreement": 0.6},
            "warnings": ["twice", "once", "twice"]}
    return {**base, **extra}


def test_agreement_prints_the_irrcac_table_as_before():
    table = shared_file("chance_agreement", "irrcac", "raw_4raters.csv")
    result = CliRunner().invoke(app, ["agreement", str(table)])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith(AGREEMENT_4RATERS_HEAD)
    assert result.stdout.count("  note: ") == 4


def test_summary_lines_read_each_figure_and_print_each_note_once():
    lines = summary_lines(_summary(), "ordinal")
    assert lines[0] == "3 units, 2 annotators, 2 with two or more values"
    assert lines[1] == "  observed_agreement    50.00 %"
    assert lines[3] == "  scott_pi              n/a"
    assert lines[4] == "  cohen_kappa           0.1250  90% CI [0.0000, 0.5000]"
    assert lines[8] == "                        ordinal; observed disagreement 0.4000, expected 0.6000"
    assert lines[-2:] == ["  note: twice", "  note: once"]
    assert not any("chance-corrected" in line for line in lines)  # no family in the summary: no lines for it


def test_summary_lines_print_the_family_entries_the_summary_holds():
    family = {"weights": "identity", "gwet_ac": {"value": 0.5, "se": 0.1, "ci": {"low": 0.3, "high": 0.7}},
              "conger_kappa": {"value": 0.25, "se": None}}
    lines = summary_lines(_summary(chance_corrected=family, warnings=[]), "nominal")
    assert lines[-3:] == ["  chance-corrected, identity weights (irrCAC's analytic SE and CI):",
                          "  gwet_ac               0.5000  se 0.1000  95% CI [0.3000, 0.7000]",
                          "  conger_kappa          0.2500"]


def test_documents_lines_wrap_at_80_columns_without_breaking_a_count():
    units = {"unit": "document x label", "documents": {"n_documents": 10, "layout": "multi-label",
                                                       "covered": {f"spans:annotator-{i:02d}": i for i in range(6)}}}
    lines = documents_lines(units)
    assert lines[0] == "  units are documents x labels (multi-label: yes/no per label); documents covered:"
    assert all(len(line) <= 80 for line in lines[1:]) and len(lines) > 2  # the counts wrap
    assert "spans:annotator-00 0 of 10, spans:annotator-01 1 of 10," in lines[1]
    assert sum(line.count(" of 10") for line in lines) == 6 and lines[-1].startswith("    spans:")


def test_the_all_sets_note_is_one_wording_for_agreement_and_gamma():
    note = all_sets_note(["spans:a", "spans:b"])
    assert note == "note: comparing the annotator sets spans:a, spans:b (all the file holds; choose with --sets)"
    assert sets_note_line({"sets": ["spans:a", "spans:b"]}) == note


def test_convert_line_names_categories_only_when_a_set_carries_them():
    summary = {"n_docs": 3, "sets": ["spans:a", "spans:b"], "n_sets": 2, "n_annotations": 7, "n_categorised": None,
               "out": "x.spacy", "to": "docbin"}
    assert convert_line(summary) == "3 documents, 2 set(s), 7 annotations written to x.spacy (docbin)"
    assert convert_line({**summary, "n_categorised": 0}) == ("3 documents, 2 set(s), 7 annotations, categories of 0 "
                                                             "(set, document) pair(s) written to x.spacy (docbin)")


def test_written_lines_keep_the_order_and_add_the_suffix():
    assert written_line("report", "r.json") == "report written to r.json"
    assert written_lines({"json": "a.json", "html": "a.html"}, " report") == ["json report written to a.json",
                                                                             "html report written to a.html"]


def test_iaa_notes_warnings_and_the_matrix_line_read_the_result():
    labels = [f"l{i}" for i in range(12)]
    result = {"sets_note": "comparing 2 sets", "warnings": ["w1"], "pairs": [{}, {}, {}],
              "units": {"layout": "single-label", "labels": labels}}
    assert note_lines(result) == ["note: comparing 2 sets",
                                  "note: the units are documents (single-label: each document is an item, its "
                                  "category the label chosen; labels: l0, l1, l2, l3, l4, l5, l6, l7, l8, l9, ...)"]
    assert note_lines({"units": {"layout": "multi-label", "labels": ["a"]}}) == [
        "note: the units are documents (multi-label: each label is a type, its items the documents, yes/no; "
        "labels: a)"]
    assert note_lines({"warnings": []}) == []
    assert warning_lines(result) == ["warning: w1"]
    assert matrix_written_line("out/index.html", result) == "agreement matrix written to out/index.html (3 pair pages)"


def test_print_sets_prints_the_demo_table_as_before():
    result = CliRunner().invoke(app, ["sets", str(DEMO_KEY)], env={"COLUMNS": "100"})
    assert result.exit_code == 0, result.output
    assert result.stdout == SETS_DEMO.format(source=DEMO_KEY)


def test_print_sets_keeps_markup_as_text_and_wraps_features():
    from rich.console import Console

    out = io.StringIO()
    summary = {"source": "f.jsonl", "n_docs": 1, "format": "jsonl", "aliases": {"ents": "spans:[bold]x"},
               "sets": [{"name": "spans:[bold]x", "annotator": True, "documents_covered": 1, "annotations": 2,
                         "types": {"[red]T": 2}, "cats": {"yes": 1}, "documents_categorised": 1}],
               "features": [f"feature_{i}" for i in range(12)]}
    print_sets(summary, Console(file=out, width=80))
    text = out.getvalue()
    assert text.startswith("f.jsonl: 1 document, 1 set (read as jsonl)\n")
    assert "spans:[bold]x" in text and "[red]T" in text and "document: yes" in text
    assert "ents also reads spans:[bold]x (the file's only set)" in text
    features = text[text.index("features:"):].splitlines()
    assert len(features) == 2 and features[1].startswith("  feature_") and all(len(f) <= 80 for f in features)


def test_phrase_lines_choose_evalb_for_brackets_and_add_the_levels():
    block = {"sentences": 2, "error": 0, "skip": 1, "recall": 50.0, "precision": 100.0, "fmeasure": 66.666,
             "complete_match": 0.0, "average_crossing": 0.5, "no_crossing": 50.0, "two_or_less_crossing": 100.0,
             "tagging_accuracy": 99.999, "exact_match": 0.0, "pos_accuracy": 97.5,
             "counts": {"sentences": 2, "error": 0, "skip": 1, "gold_brackets": 7, "disc_gold": 1,
                        "test_brackets": 6, "disc_test": 0}}
    levels = {"n_compared": 2, "n_sentences": 2, "n_differing_sentences": 1,
              "table4": dict.fromkeys(("1_parent_node", "1_parent_category", "2_grammatical_function",
                                       "3_identical_nodes", "4_identical_nodes_labels",
                                       "5_identical_nodes_functions", "6_identical_structure",
                                       "7_identical_annotation"), 0.5)}
    data = {"all": block, "len_le_40": block, "params": {"labeled": True, "disc_only": False}, "brants_skut": levels}
    assert phrase_lines(data, "brackets", "p.prm") == [*evalb_lines(data, "p.prm"), *levels_lines(levels)]
    disco = phrase_lines(data, "export")
    assert disco[0] == "NEGRA export: 2 sentence(s), 0 error, 1 skip" and disco[-9:] == levels_lines(levels)
