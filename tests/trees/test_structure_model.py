"""Brants & Skut's statistical models on trees (:mod:`~spacy_anno_eval.trees.structure_model`,
:mod:`~spacy_anno_eval.trees.resolution`): substructures, reliability levels at the thresholds, resolution of a
swapped function, cross-validation folds, dependency trees, and the errors."""

from __future__ import annotations

import json
import math
import random

import numpy as np
import pytest

from spacy_anno_eval.errors import ConfigError, InputError, UndefinedFigureWarning
from spacy_anno_eval.trees.brackets import parse_brackets
from spacy_anno_eval.trees.conllu import parse_conllu
from spacy_anno_eval.trees.phrase import PhraseNode, PhraseTree, from_brackets
from spacy_anno_eval.trees.resolution import check_doubts, resolve
from spacy_anno_eval.trees.structure import HEAD, substructures
from spacy_anno_eval.trees.structure_model import (
    StructureModel,
    _Bank,
    cross_validated_models,
    doubts,
    fold_assignment,
    reliability,
)


def _sentence(rng: random.Random, sid: int) -> PhraseTree:
    """S over NP/SB, VVFIN/HD and (sometimes) NP/OA in varying order; NP = ART (ADJA) NN, all NK."""
    tags, parents, fns, nodes = [], [], [], [PhraseNode(500, "S", "--", 0)]

    def np_(fn):
        nid = 501 + len(nodes) - 1
        nodes.append(PhraseNode(nid, "NP", fn, 500))
        for t in ["ART"] + (["ADJA"] if rng.random() < 0.4 else []) + ["NN"]:
            tags.append(t), parents.append(nid), fns.append("NK")

    for x in rng.choice(["SVO", "OVS", "SV", "VSO"]):
        if x == "V":
            tags.append("VVFIN"), parents.append(500), fns.append("HD")
        else:
            np_("SB" if x == "S" else "OA")
    return PhraseTree(tuple(t.lower() for t in tags), tuple(tags), tuple(parents), tuple(fns), tuple(nodes),
                      sent_id=str(sid))


def _corpus(n: int, seed: int = 0) -> list[PhraseTree]:
    rng = random.Random(seed)
    return [_sentence(rng, i + 1) for i in range(n)]


def _swap(tree: PhraseTree) -> PhraseTree:
    """The first SB/OA node's function swapped."""
    nodes = list(tree.nodes)
    i = next(i for i, n in enumerate(nodes) if n.function in ("SB", "OA"))
    nodes[i] = nodes[i]._replace(function={"SB": "OA", "OA": "SB"}[nodes[i].function])
    return PhraseTree(tree.words, tree.tags, tree.word_parents, tree.word_functions, tuple(nodes),
                      sent_id=tree.sent_id)


CONLLU = """# sent_id = d1
1\tDogs\tdog\tNOUN\tNNS\t_\t2\tnsubj\t_\t_
2\tchase\tchase\tVERB\tVBP\t_\t0\troot\t_\t_
3\tcats\tcat\tNOUN\tNNS\t_\t2\tobj\t_\t_

# sent_id = d2
1\tthe\tthe\tDET\tDT\t_\t2\tdet\t_\t_
2\tcat\tcat\tNOUN\tNN\t_\t3\tnsubj\t_\t_
3\tsees\tsee\tVERB\tVBZ\t_\t0\troot\t_\t_
4\tdogs\tdog\tNOUN\tNNS\t_\t3\tobj\t_\t_

"""


def _dep_corpus(n: int) -> list:
    text = "".join(CONLLU.replace("sent_id = d1", f"sent_id = a{i}").replace("sent_id = d2", f"sent_id = b{i}")
                   for i in range(n))
    return list(parse_conllu(text))


# -- substructures --------------------------------------------------------------------------------------------

def test_substructures_of_a_phrase_tree():
    t = _corpus(1, seed=3)[0]
    phrases = substructures(t)
    assert sum(len(p.states) for p in phrases) == len(t.words) + len(t.nodes)  # every word and node once
    root = next(p for p in phrases if p.root)
    assert (root.category, root.outputs, root.states) == ("VROOT", ("S",), ("--",))


def test_penn_function_tags_are_functions():
    tree = from_brackets(parse_brackets("( (S (NP-SBJ-1 (DT The) (NN cat)) (VP (VBD sat) (PP-LOC (IN on) "
                                        "(NP (DT the) (NN mat))))))")[0])
    s = next(p for p in substructures(tree) if p.category == "S")
    assert (s.outputs, s.states) == (("NP", "VP"), ("SBJ", "--"))
    vp = next(p for p in substructures(tree) if p.category == "VP")
    assert (vp.outputs, vp.states) == (("VBD", "PP"), ("--", "LOC"))


def test_dependency_substructures_include_the_head():
    sent = _dep_corpus(1)[0]
    phrases = {p.word: p for p in substructures(sent)}
    assert (phrases[None].category, phrases[None].outputs, phrases[None].states) == ("ROOT", ("VERB",), ("root",))
    assert phrases[2].outputs == ("NOUN", HEAD, "NOUN") and phrases[2].states == ("nsubj", HEAD, "obj")
    assert phrases[2].decided == (True, False, True)
    assert phrases[1].outputs == (HEAD,)  # a word without dependents


# -- reliability levels -----------------------------------------------------------------------------------------

@pytest.mark.parametrize(("q", "level"), [(4.999999, "unreliable"), (5.0, "almost reliable"),
                                          (50.0, "almost reliable"), (100.0, "almost reliable"),
                                          (100.000001, "reliable"), (math.inf, "reliable"), (1.0, "unreliable")])
def test_levels_at_the_thresholds(q, level):
    assert reliability(q, 5.0, 100.0) == level


def test_doubt_levels_at_the_decision_s_own_quotient():
    trees = _corpus(60)
    model = StructureModel.fit(trees)
    d = next(d for d in model.doubt(trees[0]) if d.kind == "function" and math.isfinite(d.quotient))
    q = d.quotient
    at = {x.kind + str(x.node) + str(x.word): x for x in model.doubt(trees[0], theta1=q, theta2=q)}
    assert at[d.kind + str(d.node) + str(d.word)].level == "almost reliable"
    above = {x.kind + str(x.node) + str(x.word): x for x in model.doubt(trees[0], theta1=1.0, theta2=q * 0.999)}
    assert above[d.kind + str(d.node) + str(d.word)].level == "reliable"
    below = {x.kind + str(x.node) + str(x.word): x for x in model.doubt(trees[0], theta1=q * 1.001,
                                                                         theta2=q * 2)}
    assert below[d.kind + str(d.node) + str(d.word)].level == "unreliable"


@pytest.mark.parametrize(("t1", "t2"), [(100.0, 5.0), (0.5, 5.0), ("x", 5.0), (float("nan"), 5.0)])
def test_bad_thresholds(t1, t2):
    model = StructureModel.fit(_corpus(10))
    with pytest.raises(ConfigError, match="theta"):
        model.doubt(_corpus(1)[0], theta1=t1, theta2=t2)


def test_doubt_flags_a_swapped_function():
    trees = _corpus(200)
    model = StructureModel.fit(trees)
    bad = _swap(trees[0])
    flagged = [d for d in model.doubt(bad) if d.contradicts]
    assert flagged and all(d.kind == "function" and d.given != d.best for d in flagged)
    assert not [d for d in model.doubt(trees[0]) if d.contradicts and d.kind == "function"]
    assert json.dumps([d.to_dict() for d in model.doubt(bad)], allow_nan=False)


def test_category_doubt_contradicts_a_wrong_label():
    trees = _corpus(200)
    model = StructureModel.fit(trees)
    t = trees[1]
    nodes = tuple(n._replace(label="S") if n.label == "NP" else n for n in t.nodes)
    wrong = PhraseTree(t.words, t.tags, t.word_parents, t.word_functions, nodes, sent_id=t.sent_id)
    cats = [d for d in model.doubt(wrong) if d.kind == "category" and d.given == "S" and d.node != 500]
    assert cats and all(d.best == "NP" and d.contradicts for d in cats)


# -- resolve ------------------------------------------------------------------------------------------------------

def test_resolve_prefers_the_unswapped_annotation():
    gold = _corpus(100)
    a = list(gold)
    a[3], a[7] = _swap(gold[3]), _swap(gold[7])
    b = list(gold)
    b[10] = _swap(gold[10])
    res = resolve(a, b, gold=gold, folds=5, min_differences=(0.0, 0.05, 0.1))
    rows = res.by_id()
    assert set(rows) == {"4", "8", "11"} and res.compared == 100 and res.identical == 97
    assert rows["4"].suggestion == "B" and rows["4"].pp_b < rows["4"].pp_a
    assert rows["11"].suggestion == "A"
    assert res.decidable == 3 and res.accuracy == 1.0 and res.folds == 5
    assert res.curve[0]["min_difference"] == 0.0 and res.curve[0]["recall"] == 1.0
    recalls = [c["recall"] for c in res.curve]
    assert recalls == sorted(recalls, reverse=True)
    assert {s["sent_id"]: s["choose"] for s in res.suggestions()} == {"4": "B", "8": "B", "11": "A"}
    assert json.dumps(res.to_dict(), allow_nan=False)


def test_resolve_without_gold_and_identical():
    gold = _corpus(20)
    res = resolve(gold, gold)
    assert res.sentences == () and res.identical == 20 and res.accuracy is None and not res.gold


def test_resolve_with_a_given_model():
    gold = _corpus(50)
    model = StructureModel.fit(gold)
    res = resolve([_swap(gold[0])], [gold[0]], model=model)
    assert res.sentences[0].suggestion == "B" and res.folds == 0
    assert res.sentences[0].pp_b == pytest.approx(model.perplexity(gold[0]), rel=1e-12)


def test_resolve_undecidable_warns():
    """A and B differ on sentence 1 and neither equals gold: nothing is decidable, accuracy 0.0 with a warning."""
    gold = _corpus(30)
    a, b = list(gold), list(gold)
    a[0] = _swap(gold[0])
    t = gold[0]
    b[0] = PhraseTree(t.words, t.tags, t.word_parents, t.word_functions,
                      tuple(n._replace(label="PP") if n.label == "NP" else n for n in t.nodes), sent_id=t.sent_id)
    with pytest.warns(UndefinedFigureWarning, match="accuracy"):
        res = resolve(a, b, gold=gold, folds=3)
    assert len(res.sentences) == 1 and res.decidable == 0 and res.accuracy == 0.0
    assert res.sentences[0].correct is None and res.sentences[0].suggestion is not None


def test_resolve_errors():
    gold = _corpus(5)
    renamed = [*gold[:4], PhraseTree(gold[4].words, gold[4].tags, gold[4].word_parents, gold[4].word_functions,
                                     gold[4].nodes, sent_id="x9")]
    with pytest.raises(InputError, match="'5' of A is not in B"):
        resolve(gold, renamed)
    with pytest.raises(InputError, match="'x9' of A is not in B"):
        resolve(renamed, gold)
    with pytest.raises(InputError, match="repeats"):
        resolve(gold + gold[:1], gold + gold[:1])
    short = PhraseTree(("a",), ("NN",), (500,), ("NK",), (PhraseNode(500, "NP", "--", 0),), sent_id="1")
    with pytest.raises(InputError, match="share words"):
        resolve([short], gold[:1])
    with pytest.raises(ConfigError, match="folds"):
        resolve(gold, gold, folds=1)


# -- folds -------------------------------------------------------------------------------------------------------

def test_fold_assignment():
    f = fold_assignment(23, 10, seed=4)
    assert set(np.bincount(f)) <= {2, 3} and len(np.bincount(f)) == 10
    assert (f == fold_assignment(23, 10, seed=4)).all() and not (f == fold_assignment(23, 10, seed=5)).all()
    assert set(fold_assignment(3, 10)) == {0, 1, 2}
    with pytest.raises(InputError, match="at least 2"):
        fold_assignment(1, 10)


def test_cross_validated_models_equal_training_without_the_fold():
    trees = _corpus(40)
    models = cross_validated_models(trees, folds=4, seed=1)
    folds = fold_assignment(40, 4, seed=1)
    for f in range(4):
        scratch = StructureModel.fit([t for t, g in zip(trees, folds, strict=True) if g != f])
        for t, g, m in zip(trees, folds, models, strict=True):
            if g == f:
                assert m.log_prob(t) == pytest.approx(scratch.log_prob(t), abs=1e-9)
                assert m.models["S"].lambdas == pytest.approx(scratch.models["S"].lambdas, abs=1e-12)
    assert len({id(m) for m in models}) == 4


def test_bank_subtracts_counts():
    trees = _corpus(30)
    bank = _Bank(trees, fold_assignment(30, 3))
    for key, counts in bank.counts.items():
        total = sum((c for c in bank.fold_counts[key]), start=counts - counts)
        assert np.array_equal(total.tri, counts.tri) and np.array_equal(total.emit, counts.emit)


# -- dependency trees -------------------------------------------------------------------------------------------

def test_dependency_model_and_resolve():
    sents = _dep_corpus(20)
    model = StructureModel.fit(sents)
    assert model.kind == "dependency" and set(model.models) == {"ROOT", "VERB", "NOUN", "DET"}
    assert 1.0 < model.perplexity(sents[0]) < math.inf
    assert all(d.kind == "function" for d in model.doubt(sents[0]))
    import dataclasses

    swapped = dataclasses.replace(sents[0], words=(dataclasses.replace(sents[0].words[0], deprel="obj"),
                                                   sents[0].words[1],
                                                   dataclasses.replace(sents[0].words[2], deprel="nsubj")))
    res = resolve([swapped, *sents[1:]], sents, gold=sents, folds=4)
    assert [(s.sent_id, s.suggestion) for s in res.sentences] == [("a0", "B")] and res.accuracy == 1.0
    flagged = [d for d in model.doubt(swapped) if d.contradicts]
    assert {(d.word, d.given, d.best) for d in flagged} == {(1, "obj", "nsubj"), (3, "nsubj", "obj")}
    check = check_doubts([d for s in [swapped, *sents[1:]] for d in model.doubt(s)], [swapped, *sents[1:]], sents)
    assert (check["listed"], check["wrong"], check["precision"], check["recall"]) == (2, 2, 1.0, 1.0)


def test_doubts_over_a_treebank_cross_validated():
    trees = _corpus(30)
    found = doubts(trees, folds=3)
    assert {d.sent_id for d in found} == {t.sent_id for t in trees}


def test_mixed_and_mismatched_kinds():
    with pytest.raises(InputError, match="mixed"):
        StructureModel.fit([*_corpus(2), *_dep_corpus(1)])
    with pytest.raises(InputError, match="trained on phrase"):
        StructureModel.fit(_corpus(3)).log_prob(_dep_corpus(1)[0])
    with pytest.raises(InputError, match="not a tree"):
        StructureModel.fit(["no tree"])
    with pytest.raises(InputError, match="no tree"):
        StructureModel.fit([])


def test_unseen_parent_category_uses_the_pooled_model():
    trees = _corpus(20)
    model = StructureModel.fit(trees)
    t = trees[0]
    odd = PhraseTree(t.words, t.tags, t.word_parents, t.word_functions,
                     tuple(n._replace(label="XP") if n.label == "NP" else n for n in t.nodes), sent_id="odd")
    assert "XP" not in model.models and model.model_for("XP") is model.pooled
    assert math.isfinite(model.log_prob(odd)) and model.perplexity(odd) > model.perplexity(t)


def test_a_dependent_is_never_offered_the_head_marker():
    """In dependency trees the head itself sits among its dependents as ``<HEAD>`` (so the models see which side
    each dependent is on); it is a position, not a relation, so a dependent's best or second is never it (on
    UD-EWT a CCONJ model once offered ``<HEAD>`` as a comma's relation, "reliable")."""
    from spacy_anno_eval.trees.conllu import read_conllu
    from spacy_anno_eval.trees.structure import HEAD
    from spacy_anno_eval.trees.structure_model import StructureModel
    from tests.conftest import shared_file

    folder = shared_file("ud_ewt")
    path = next(iter(sorted(folder.rglob("*.conllu"))))
    sentences = list(read_conllu(path).sentences)[:300]
    model = StructureModel.fit(sentences)
    doubts = [d for s in sentences for d in model.doubt(s)]
    assert doubts and all(HEAD not in (d.best, d.second) for d in doubts)
