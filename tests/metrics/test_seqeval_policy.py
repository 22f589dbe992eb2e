"""seqeval's API against the package's one policy for figures (spacy_anno_eval.figures).

The figures are figures.ratio / figures.fbeta; the warning keeps seqeval's rule (only
zero_division="warn" warns, only for the figures a function returns), where the package warns on
every ratio given zero_division. These tests show both: what is the same, and the deliberate difference.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from spacy_anno_eval import metrics
from spacy_anno_eval.errors import UndefinedFigureWarning
from spacy_anno_eval.figures import fbeta, ratio
from spacy_anno_eval.noisy.evaluate import evaluate_files

# type A: key and response agree; type B: only the response has it (R of B is 0/0); type C: only the key
TRUE = [["B-A", "O", "O", "B-C"]]
PRED = [["B-A", "O", "B-B", "O"]]


def caught(function, *args, **kwargs):
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        value = function(*args, **kwargs)
    return value, [w for w in seen if issubclass(w.category, UndefinedFigureWarning)]


@pytest.mark.parametrize("zero_division", [0, 1])
def test_an_explicit_zero_division_is_silent_as_in_seqeval(zero_division):
    p, r, f, _ = metrics.precision_recall_fscore_support(TRUE, PRED, zero_division=zero_division)
    _, seen = caught(metrics.precision_recall_fscore_support, TRUE, PRED, zero_division=zero_division)
    assert seen == []  # seqeval's rule: the caller chose the value
    # the figures are the package's ratio: zero_division where the denominator is 0 (R of B, P of C)
    assert r.tolist() == ratio([1, 0, 0], [1, 0, 1], zero_division).tolist()
    assert p.tolist() == ratio([1, 0, 0], [1, 1, 0], zero_division).tolist()


def test_the_package_warns_where_seqeval_with_an_explicit_zero_division_is_silent(tmp_path):
    gold, pred = tmp_path / "gold.bio", tmp_path / "pred.bio"
    gold.write_text("Tolkien B-PER\nwas O\n", encoding="utf8")
    pred.write_text("Tolkien O\nwas O\n", encoding="utf8")
    result, seen = caught(evaluate_files, gold, pred, zero_division=0.0)
    assert result["all"]["p"] == 0.0 and len(seen) == 1  # the policy: every zero_division ratio warns
    _, seen = caught(metrics.precision_score, [["B-PER", "O"]], [["O", "O"]], zero_division=0)
    assert seen == []  # seqeval's: only "warn" does


def test_warn_names_only_the_figures_the_function_returns():
    _, seen = caught(metrics.recall_score, TRUE, PRED, average=None)  # P of C undefined, but R is asked
    assert len(seen) == 1 and "recall" in str(seen[0].message) and "precision" not in str(seen[0].message)
    _, seen = caught(metrics.precision_score, TRUE, PRED, average=None)
    assert len(seen) == 1 and "precision" in str(seen[0].message) and "recall" not in str(seen[0].message)
    _, seen = caught(metrics.f1_score, [["B-A"]], [["B-A"]], average=None)  # nothing undefined: silent
    assert seen == []


def test_f_is_the_package_fbeta_zero_division_where_p_and_r_are_both_undefined():
    # neither side has an entity: P and R are both 0/0, so F is zero_division, as fbeta gives it
    f = metrics.f1_score([["O"]], [["O"]], average="micro", zero_division=1)
    assert f == float(fbeta(1.0, 1.0, undefined=True, zero_division=1.0)) == 1.0
    # P + R = 0 (nothing correct) gives 0, as seqeval and the package
    f = metrics.f1_score([["B-A"]], [["B-B"]], average="micro", zero_division=1)
    assert f == float(fbeta(0.0, 0.0)) == 0.0


def test_weighted_without_support_follows_scikit_learn_not_zero_division():
    # no key entity: R is zero_division, but P and F are 0 once anything was predicted (seqeval, scikit-learn)
    p, r, f, s = metrics.precision_recall_fscore_support([["O", "O"]], [["B-A", "O"]], average="weighted",
                                                         zero_division=1)
    assert (p, r, f, s) == (0.0, 1.0, 0.0, 0)
    p, r, f, s = metrics.precision_recall_fscore_support([["O"]], [["O"]], average="weighted", zero_division=1)
    assert (p, r, f, s) == (1.0, 1.0, 1.0, 0)


def test_macro_over_no_type_is_zero_division_and_warns_only_under_warn():
    value, seen = caught(metrics.f1_score, [["O"]], [["O"]], average="macro", zero_division=1)
    assert value == 1.0 and seen == []
    value, seen = caught(metrics.f1_score, [["O"]], [["O"]], average="macro")
    assert value == 0.0 and len(seen) == 1 and "macro average over no type" in str(seen[0].message)
    assert not np.isnan(value)  # seqeval: NaN
