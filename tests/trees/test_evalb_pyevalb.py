"""EVALB against PYEVALB 0.1.3 (a test extra), on the same trees: every sentence's counts are equal where the
two define things alike (the benchmark's generated corpus: no function tags, no repeated unary brackets, no
empty outer bracket). Where they differ on purpose, one probe each shows the case: PYEVALB compares labels
as written (EVALB strips ``NP-SBJ`` to ``NP``) and matches brackets as a set (EVALB counts a repeated
``(NP (NP ...))`` twice); we follow EVALB, whose ``sample.rsl`` we reproduce."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from spacy_anno_eval.trees.evalb import EvalbParams, evaluate_trees

pyevalb = pytest.importorskip("PYEVALB.scorer")
parser = pytest.importorskip("PYEVALB.parser")


def _bench():
    path = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_trees.py"
    spec = importlib.util.spec_from_file_location("bench_trees", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _theirs(gold: str, test: str) -> tuple[int, ...]:
    r = pyevalb.Scorer().score_trees(parser.create_from_bracket_string(gold), parser.create_from_bracket_string(test))
    return r.matched_brackets, r.gold_brackets, r.test_brackets, r.cross_brackets, r.correct_tags, r.words


def _ours(gold: str, test: str) -> tuple[int, ...]:
    s = evaluate_trees([gold], [test], EvalbParams()).sentences[0]
    return s.matched, s.gold_brackets, s.test_brackets, s.crossing, s.correct_tags, s.words


def test_generated_corpus_sentence_by_sentence():
    gold, test = _bench().make_corpus(300, seed=7)
    for g, t in zip(gold, test, strict=True):
        assert _ours(g, t) == _theirs(g, t), (g, t)


@pytest.mark.parametrize(("gold", "test", "ours", "theirs"), [
    ("(S (NP-SBJ (NN a)) (VP (VBZ b)))", "(S (NP (NN a)) (VP (VBZ b)))", 3, 2),
    ("(S (NP (NP (NN a))) (VP (VBZ b)))", "(S (NP (NP (NN a))) (VP (VBZ b)))", 4, 3),
], ids=["function-tag", "repeated-unary"])
def test_deliberate_differences(gold, test, ours, theirs):
    assert _ours(gold, test)[0] == ours and _theirs(gold, test)[0] == theirs
