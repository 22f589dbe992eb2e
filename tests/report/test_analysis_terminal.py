"""The error analysis on the terminal (issue 28): 80 columns whatever the labels, long labels shortened with "…"
and named in a legend, never cut silently."""

from __future__ import annotations

from spacy_anno_eval.report.analysis_terminal import confusion_lines, decision_lines, interval_lines

LONG = ["PERSON_NAME_OF_A_VERY_LONG_KIND", "ORGANISATION", "GEO_POLITICAL_ENTITY", "LOC", "DATE_OR_TIME",
        "PRODUCT", "EVENT", "WORK_OF_ART", "LAW", "LANGUAGE", "none"]


def matrix(n: int, big: int = 1234) -> list[list[int]]:
    return [[big if i == j else (i + j) % 3 for j in range(n)] for i in range(n)]


def test_a_wide_confusion_matrix_fits_80_columns_and_names_every_shortened_label():
    lines = confusion_lines({"overlap": "coextensive", "labels": LONG, "matrix": matrix(len(LONG))})
    assert all(len(line) <= 80 for line in lines), [line for line in lines if len(line) > 80]
    start = next(i for i, line in enumerate(lines) if line.startswith("  labels: "))
    legend = " ".join(line.strip() for line in lines[start:])
    for label in LONG:
        shown = label in lines[1].split() or f"= {label};" in legend + ";"
        assert shown, label  # either written in full in the header, or named in the legend
    assert "…" in lines[1] and "1234" in lines[2]


def test_short_labels_need_no_legend():
    names = ["LOC", "ORG", "PER", "none"]
    lines = confusion_lines({"overlap": "any", "labels": names, "matrix": matrix(4, 7)})
    assert not lines[-1].startswith("  labels:") and lines[1].split() == names
    assert lines[2].split() == ["LOC", "7", "1", "2", "0"]


def test_the_decision_line_wraps_at_80_columns_without_splitting_an_item():
    counts = {"correct": 123456, "label_error": 23456, "boundary_error": 3456, "boundary_and_label_error": 456,
              "missing": 56789, "spurious": 67890}
    lines = decision_lines({"micro": counts})
    assert all(len(line) <= 80 for line in lines) and len(lines) == 2
    text = " ".join(lines)
    assert "boundary+label errors 456" in text and "spurious 67890" in text


def test_interval_notes_wrap():
    lines = interval_lines({"confidence": 0.95, "method": "document bootstrap, percentile", "n_samples": 100,
                            "seed": 0, "micro": {"strict": {"p": [0.1, 0.2], "r": [0.3, 0.4], "f": [0.2, 0.3]}},
                            "left_out": ["per_type and macro_types: " + "a long reason " * 10]})
    assert all(len(line) <= 80 for line in lines) and lines[1].startswith("  strict  P [0.1000, 0.2000]")
