"""nerval, Teklia's NER evaluation on noisy text (teklia-nerval 0.3.3, gitlab.com/teklia/nerval): the blog
post / README "Metric description" (seed ``nerval-noisy-text-ner.txt``) and its demo files, re-typed in
``../shared/data/nerval_examples/`` (``../shared/data/REFERENCE.md`` 5.7).

Published in the seed (Tolkien example, "Tolkien was a writer ." against "Tolkieene xas writear ,."):
edit_distance("Tolkien", "Tolkieene") = 2, 2/7 = 0.29 < 0.3; edit_distance("writer", "writear") = 1,
1/6 = 0.17 < 0.3; PER, OCC and ALL: P = R = F1 = 1. Peer-computed with nerval 0.3.3 (REFERENCE 5.7): at
threshold 0.25 Tolkien is not matched (ALL 0.5); the Nerval example (ALL 1/3, LOC recall 0, DAT 0, "***"
precision 0) and nerval's tests/test_align.py alignment; the Hugone example matched at 0.30 (7/24 = 0.2917),
not at 0.25.
"""

from __future__ import annotations

import pytest

from spacy_anno_eval.errors import UndefinedFigureWarning
from tests.conftest import shared_file
from tests.reference._api import api

evaluate_files = api("evaluate_files", "spacy_anno_eval.noisy")


#: nerval prints None where a denominator is 0 (no LOC predicted, no *** in the gold); ours is zero_division, warned
NERVAL_UNDEFINED = (r"2 ratios with a zero denominator .*: "
                    r"P of LOC \(no predicted entity\), R of \*\*\* \(no gold entity\)")


def example(name):
    return shared_file("nerval_examples", f"{name}.bio")


def figures(entry):
    return entry["p"], entry["r"], entry["f"]


def test_seed_tolkien_example():
    result = evaluate_files(example("tolkien_annot"), example("tolkien_predict"), 0.3)
    entities = {e["type"]: e for e in result["entities"]}
    assert (entities["PER"]["gold_text"], entities["PER"]["pred_text"]) == ("Tolkien", "Tolkieene")
    assert entities["PER"]["distance"] == 2 and round(entities["PER"]["ratio"], 2) == 0.29
    assert (entities["OCC"]["gold_text"], entities["OCC"]["pred_text"]) == ("writer", "writear")
    assert entities["OCC"]["distance"] == 1 and round(entities["OCC"]["ratio"], 2) == 0.17
    assert figures(result["per_type"]["PER"]) == figures(result["per_type"]["OCC"]) == (1.0, 1.0, 1.0)
    assert figures(result["all"]) == (1.0, 1.0, 1.0)
    assert (result["all"]["predicted"], result["all"]["matched"], result["all"]["support"]) == (2, 2, 2)


def test_tolkien_at_threshold_025():
    result = evaluate_files(example("tolkien_annot"), example("tolkien_predict"), 0.25)
    assert figures(result["per_type"]["PER"]) == (0.0, 0.0, 0.0)  # 2/7 = 0.286 > 0.25
    assert figures(result["per_type"]["OCC"]) == (1.0, 1.0, 1.0)
    assert figures(result["all"]) == (0.5, 0.5, 0.5)


@pytest.mark.parametrize("threshold", [0.30, 0.25])
def test_nerval_example(threshold):
    with pytest.warns(UndefinedFigureWarning, match=NERVAL_UNDEFINED):
        result = evaluate_files(example("nerval_annot"), example("nerval_predict"), threshold)
    assert (result["all"]["predicted"], result["all"]["matched"], result["all"]["support"]) == (3, 1, 3)
    assert figures(result["all"]) == pytest.approx((1 / 3, 1 / 3, 1 / 3))
    per = result["per_type"]
    assert figures(per["PER"]) == (1.0, 1.0, 1.0)
    assert per["LOC"]["r"] == 0.0 and per["LOC"]["predicted"] is None
    assert (per["DAT"]["p"], per["DAT"]["r"]) == (0.0, 0.0)
    assert per["***"]["p"] == 0.0 and per["***"]["support"] is None


def test_nerval_example_alignment():
    """nerval tests/test_align.py: the edlib alignment of the two texts."""
    with pytest.warns(UndefinedFigureWarning, match=NERVAL_UNDEFINED):
        result = evaluate_files(example("nerval_annot"), example("nerval_predict"))
    assert result["alignment"] == [{"gold_aligned": "Gérard de -N-erval was bo-rn in Paris in 1808 -.",
                                    "pred_aligned": "G*rard de *N*erval ----bo*rn in Paris in 1833 *."}]


@pytest.mark.parametrize("threshold", [0.30, 0.25])
def test_nested_example_is_perfect(threshold):
    result = evaluate_files(example("nested"), example("nested"), threshold)
    assert (result["all"]["predicted"], result["all"]["matched"], result["all"]["support"]) == (3, 3, 3)
    assert figures(result["per_type"]["PER"]) == figures(result["per_type"]["LOC"]) == (1.0, 1.0, 1.0)


@pytest.mark.parametrize(("threshold", "matched"), [(0.30, True), (0.25, False)])
def test_hugone_example(threshold, matched):
    result = evaluate_files(example("hugone_annot"), example("hugone_predict"), threshold)
    (entity,) = result["entities"]
    assert entity["distance"] == 7 and len(entity["gold_text"]) == 24
    assert round(entity["ratio"], 4) == 0.2917
    assert entity["matched"] is matched
    assert figures(result["all"]) == ((1.0, 1.0, 1.0) if matched else (0.0, 0.0, 0.0))
