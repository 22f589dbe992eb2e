"""The error-analysis sections in the Markdown report (issue 28): the count of each decision on one line, and the
coextensive label confusion matrix as a table whose cells are the matrix's, labels escaped for Markdown pipes."""

from __future__ import annotations

import re
from pathlib import Path

import spacy
from spacy.tokens import Span

from spacy_anno_eval import evaluate
from spacy_anno_eval.report.markdown import render_markdown

DEMO = Path(__file__).resolve().parents[2] / "assets" / "demo"


def with_analysis(evaluation) -> dict:
    """The report with the sections the score and qa doors add (as ``analysis_sections`` asks them)."""
    report = evaluation.report()
    report["decisions"] = evaluation.decision_counts()
    report["confusion"] = {mode: evaluation.confusion(mode).to_dict() for mode in ("coextensive", "any")}
    return report


def cells(line: str) -> list[str]:
    """The cells of a Markdown table row: split at the pipes that are not escaped."""
    return [c.strip() for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]]


def table_after(text: str, heading: str) -> list[list[str]]:
    """The rows (header first, the alignment row left out) of the first table after the line starting with
    ``heading``."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(heading))
    first = next(i for i in range(start, len(lines)) if lines[i].startswith("|"))
    rows = []
    for line in lines[first:]:
        if not line.startswith("|"):
            break
        rows.append(cells(line))
    return [rows[0], *rows[2:]]


def test_the_demo_confusion_matrix_is_a_table_with_its_cells():
    ev = evaluate(str(DEMO / "key.jsonl"), str(DEMO / "response.jsonl"))
    report = with_analysis(ev)
    text = render_markdown(report)
    assert "## Error analysis" in text
    # the demo: 29 correct, 4 label errors, 5 boundary, 3 boundary and label, 3 missing, 2 spurious
    assert ("Decisions (all types): Correct 29 · Label error 4 · Boundary error 5 · Boundary and label error 3 · "
            "Missing 3 · Spurious 2") in text.splitlines()
    table = table_after(text, "Label confusion, same span")
    assert table == [["key \\\\ response", "LOC", "MISC", "ORG", "PER", "none"],
                     ["**LOC**", "16", "0", "1", "0", "2"],
                     ["**MISC**", "0", "1", "0", "0", "3"],
                     ["**ORG**", "2", "0", "6", "1", "3"],
                     ["**PER**", "0", "0", "0", "6", "3"],
                     ["**none**", "2", "3", "3", "2", "0"]]
    matrix = report["confusion"]["coextensive"]["matrix"]
    assert [[int(c) for c in row[1:]] for row in table[1:]] == matrix  # every cell is the report's, as written


def test_labels_with_pipes_are_escaped_and_keep_the_table_shape():
    nlp = spacy.blank("en")
    key, resp = nlp("Ada met Bob in Rome"), nlp("Ada met Bob in Rome")
    key.ents = [Span(key, 0, 1, "A|B"), Span(key, 2, 3, "<b>"), Span(key, 4, 5, "A|B")]
    resp.ents = [Span(resp, 0, 1, "A|B"), Span(resp, 2, 3, "A|B")]
    report = with_analysis(evaluate([key], [resp]))
    text = render_markdown(report)
    table = table_after(text, "Label confusion, same span")
    names = report["confusion"]["coextensive"]["labels"]
    assert names == ["<b>", "A|B", "none"]
    assert table[0] == ["key \\\\ response", "&lt;b&gt;", "A\\|B", "none"]
    assert all(len(row) == 4 for row in table)  # no pipe in a label splits a cell
    assert table[1:] == [["**&lt;b&gt;**", "0", "1", "0"], ["**A\\|B**", "0", "1", "1"], ["**none**", "0", "0", "0"]]
    assert "<b>" not in text


def test_a_report_without_the_sections_has_no_error_analysis():
    ev = evaluate(str(DEMO / "key.jsonl"), str(DEMO / "response.jsonl"))
    report = ev.report()
    assert "Error analysis" not in render_markdown(report)
    report["decisions"] = ev.decision_counts()  # decisions alone: the line, no table
    text = render_markdown(report)
    assert "Decisions (all types): Correct 29" in text and "Label confusion" not in text
