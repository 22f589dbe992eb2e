"""van Cranenburgh's disco-dop ``discodop eval`` with ``proper.prm`` on discontinuous treebanks
(``../shared/data/REFERENCE-2.md`` A2 and A3; andreasvc/disco-dop@dd181a6 and wmaier/evalb-lcfrs@64bf3d7 give
the same bracket figures). The treebanks are GPL test data read from ``../shared/data/treebank/``, never copied;
only the numbers are written here.

- A2 ``disc_wh_continuous``: treetools' "Who did Fritz tell Hans that Manfred likes ?" with VP{Who, likes}
  discontinuous, against the continuous analysis (Who under S). Labeled and unlabeled 2/5 -> R = P = F = 40.00,
  exact match 0.00, POS 100.00, discontinuous brackets gold 3 / test 0; ``--disconly``: R 0.00, P undefined.
- A3 ``disc_alpino3``: three Alpino sentences with crossing branches and three edits. Labeled 45/47 -> 95.74
  (per sentence 16/17, 12/13, 17/17), unlabeled 46/47 -> 97.87; exact match 33.33 / 66.67; POS 98.57 (69/70
  non-punctuation words; evalb-lcfrs prints 90.79 = 69/76 because it keeps punctuation in the denominator, a
  definitional difference); discontinuous brackets gold 2 / test 1; ``--disconly``: R 50.00, P 100.00,
  F 66.67, exact match 50.00 over 2 sentences.
"""

from __future__ import annotations

import dataclasses

import pytest

from spacy_anno_eval.errors import UndefinedFigureWarning
from spacy_anno_eval.trees.disco import evaluate_files
from spacy_anno_eval.trees.evalb import EvalbParams
from tests.conftest import shared_file


def _run(case: str, prm: str = "proper.prm", disc_only: bool = False):
    gold = shared_file("treebank", case, "gold.export")
    test = shared_file("treebank", case, "test.export")
    params = EvalbParams.read(shared_file("treebank", "params", prm))
    return evaluate_files(gold, test, dataclasses.replace(params, disc_only=disc_only))


def _rounded(result) -> dict[str, float]:
    return {k: round(v, 2) for k, v in result.figures().items()}


def test_a2_wh_continuous_labeled_and_unlabeled():
    for prm in ("proper.prm", "proper_unlabeled.prm"):
        r = _run("disc_wh_continuous", prm)
        assert (r.all.matched, r.all.gold_brackets, r.all.test_brackets) == (2, 5, 5)
        assert _rounded(r) == {"recall": 40.0, "precision": 40.0, "fmeasure": 40.0, "exact_match": 0.0,
                               "pos_accuracy": 100.0}
        assert (r.all.disc_gold, r.all.disc_test) == (3, 0)


def test_a2_brackets_are_the_published_sets():
    """REFERENCE-2.md lists the bracket sets (0-based, VROOT and "?" removed): the gold-only ones are the three
    discontinuous nodes, the test-only ones their continuous counterparts."""
    row = _run("disc_wh_continuous").sentences[0]
    assert sorted(row.gold_only) == [("SBAR", (0, 5, 6, 7)), ("VP", (0, 3, 4, 5, 6, 7)), ("VP", (0, 7))]
    assert sorted(row.test_only) == [("SBAR", (5, 6, 7)), ("VP", (3, 4, 5, 6, 7)), ("VP", (7,))]


def test_a2_disconly_precision_is_undefined():
    with pytest.warns(UndefinedFigureWarning, match="precision"):
        r = _run("disc_wh_continuous", disc_only=True)
    assert r.all.figures()[1] == ["precision"]  # disco-dop prints nan
    assert (r.all.matched, r.all.gold_brackets, r.all.test_brackets, r.all.scored) == (0, 3, 0, 1)
    assert _rounded(r)["recall"] == 0.0 and _rounded(r)["exact_match"] == 0.0


def test_a3_alpino_labeled():
    r = _run("disc_alpino3")
    assert (r.all.matched, r.all.gold_brackets, r.all.test_brackets) == (45, 47, 47)
    assert [(s.matched, s.gold_brackets, s.test_brackets) for s in r.sentences] == [(16, 17, 17), (12, 13, 13),
                                                                                     (17, 17, 17)]
    assert _rounded(r) == {"recall": 95.74, "precision": 95.74, "fmeasure": 95.74, "exact_match": 33.33,
                           "pos_accuracy": 98.57}
    assert (r.all.correct_tags, r.all.words) == (69, 70)
    assert (r.all.disc_gold, r.all.disc_test) == (2, 1)


def test_a3_alpino_unlabeled():
    r = _run("disc_alpino3", "proper_unlabeled.prm")
    assert r.all.matched == 46
    assert _rounded(r) == {"recall": 97.87, "precision": 97.87, "fmeasure": 97.87, "exact_match": 66.67,
                           "pos_accuracy": 98.57}


def test_a3_alpino_disconly():
    r = _run("disc_alpino3", disc_only=True)
    assert r.all.scored == 2
    assert _rounded(r) | {"pos_accuracy": None} == {"recall": 50.0, "precision": 100.0, "fmeasure": 66.67,
                                                    "exact_match": 50.0, "pos_accuracy": None}
