"""The label confusion matrix for spans (issue 28, item 2): both readings of "the same annotation", totals,
merging, and checked names."""

from __future__ import annotations

import numpy as np
import pytest

from spacy_anno_eval.errors import ConfigError
from spacy_anno_eval.spans.confusion import NONE, SpanConfusion
from spacy_anno_eval.spans.engine import evaluate

from .one_of_each import KEY, RESPONSE, corpus


@pytest.fixture
def evaluation():
    return evaluate(corpus(KEY), corpus(RESPONSE))


def test_coextensive_pairs_only_are_cells_overlapping_ones_are_missing_and_spurious(evaluation):
    m = evaluation.confusion()
    assert m.names == ["DATE", "LOC", "PER", NONE]
    assert m.cell("PER", "PER") == 1          # Ada Lovelace
    assert m.cell("PER", "LOC") == 1          # Charles Babbage: the label error
    assert m.cell("LOC", "LOC") == 0          # London vs "in London" only overlaps
    assert m.cell("LOC", NONE) == 1 and m.cell(NONE, "LOC") == 2  # London; "in London" and "on Monday"
    assert m.cell("DATE", NONE) == 1
    assert m.cell("PER", NONE) == 1 and m.cell(NONE, "PER") == 1  # Mary Somerville missing, Byron spurious
    assert m.cell(NONE, NONE) == 0
    # the diagonal is the correct count (no significant features)
    assert int(np.trace(m.matrix[:-1, :-1])) == evaluation.decision_counts()["micro"]["correct"]


def test_any_overlap_makes_every_pair_a_cell(evaluation):
    m = evaluation.confusion("any")
    assert m.cell("LOC", "LOC") == 1          # London / in London: the boundary error
    assert m.cell("DATE", "LOC") == 1         # Monday / on Monday: the boundary and label error
    assert m.cell("LOC", NONE) == 0 and m.cell(NONE, "LOC") == 0
    assert m.confusions() == [("DATE", "LOC", 1), ("PER", "LOC", 1), ("PER", NONE, 1), (NONE, "PER", 1)]


@pytest.mark.parametrize("overlap", ["coextensive", "any"])
def test_rows_add_up_to_the_key_and_columns_to_the_response(evaluation, overlap):
    m = evaluation.confusion(overlap)
    key_per_label = {lab: sum(1 for *_, k in KEY if k == lab) for lab in m.labels}
    resp_per_label = {lab: sum(1 for *_, r in RESPONSE if r == lab) for lab in m.labels}
    assert dict(zip(m.labels, m.row_totals[:-1].tolist(), strict=True)) == key_per_label
    assert dict(zip(m.labels, m.column_totals[:-1].tolist(), strict=True)) == resp_per_label
    out = m.to_dict()
    assert out["total"] == int(m.matrix.sum()) and out["labels"][-1] == NONE and out["overlap"] == overlap


def test_matrices_merge_by_adding_over_the_union_of_labels(evaluation):
    m = evaluation.confusion()
    other = SpanConfusion(("ORG", "PER"), np.array([[2, 0, 1], [0, 4, 0], [1, 0, 0]]))
    merged = m.merge(other)
    assert merged.names == ["DATE", "LOC", "ORG", "PER", NONE]
    assert merged.cell("PER", "PER") == 5 and merged.cell("ORG", "ORG") == 2 and merged.cell("ORG", NONE) == 1
    assert merged.cell("PER", "LOC") == 1 and int(merged.matrix.sum()) == int(m.matrix.sum()) + 8
    with pytest.raises(ConfigError, match="overlap"):
        m.merge(evaluation.confusion("any"))


def test_a_label_that_is_not_there_and_an_unknown_overlap_are_refused(evaluation):
    with pytest.raises(ConfigError, match="no label 'ORG'.*DATE, LOC, PER, none"):
        evaluation.confusion().cell("ORG", "PER")
    with pytest.raises(ConfigError, match="coextensive, any"):
        evaluation.confusion("partial")
    with pytest.raises(ConfigError, match="keeps no pairs"):
        evaluation.without_pairs().confusion()
