"""The cats agreement scorer (spacy_anno_eval.cats_agreement_scorer.v1) against scikit-learn and krippendorff."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import numpy as np
import pytest
import spacy
from spacy.training import Example

from spacy_anno_eval.pipeline.cats_scorer import score_cats_agreement

LABELS = ["POS", "NEG", "NEU"]


def examples(seed: int, n: int = 200, exclusive: bool = True) -> list[Example]:
    rng = np.random.default_rng(seed)
    nlp = spacy.blank("en")
    out = []
    for i in range(n):
        ref, pred = nlp.make_doc(f"doc {i}"), nlp.make_doc(f"doc {i}")
        if exclusive:
            gold = rng.integers(3)
            ref.cats = {lab: float(k == gold) for k, lab in enumerate(LABELS)}
            scores = rng.random(3)
            scores[gold] += 0.6 if rng.random() < 0.7 else 0.0
            pred.cats = {lab: float(scores[k] / scores.sum()) for k, lab in enumerate(LABELS)}
        else:
            gold = rng.random(3) < 0.4
            ref.cats = {lab: float(g) for lab, g in zip(LABELS, gold, strict=True)}
            pred.cats = {lab: float(np.clip(g * 0.6 + rng.random() * 0.5, 0, 1))
                         for lab, g in zip(LABELS, gold, strict=True)}
        out.append(Example(pred, ref))
    return out


def test_exclusive_classes_match_scikit_learn_and_krippendorff():
    from sklearn.metrics import cohen_kappa_score

    egs = examples(0)
    scores = score_cats_agreement(egs)
    ref = [max(e.reference.cats, key=e.reference.cats.get) for e in egs]
    pred = [max(e.predicted.cats, key=e.predicted.cats.get) for e in egs]
    assert scores["cats_kappa"] == pytest.approx(cohen_kappa_score(ref, pred))
    assert scores["cats_observed_agreement"] == pytest.approx(np.mean([a == b for a, b in zip(ref, pred, strict=True)]))
    krippendorff = pytest.importorskip("krippendorff")
    codes = {lab: k for k, lab in enumerate(LABELS)}
    data = np.array([[codes[x] for x in ref], [codes[x] for x in pred]], dtype=float)
    assert scores["cats_alpha"] == pytest.approx(krippendorff.alpha(reliability_data=data,
                                                                   level_of_measurement="nominal"))


def test_multi_label_per_label_kappa():
    from sklearn.metrics import cohen_kappa_score

    egs = examples(1, exclusive=False)
    scores = score_cats_agreement(egs, threshold=0.5)
    for lab in LABELS:
        ref = [int(e.reference.cats[lab] >= 0.5) for e in egs]
        pred = [int(e.predicted.cats[lab] >= 0.5) for e in egs]
        assert scores["cats_kappa_per_label"][lab] == pytest.approx(cohen_kappa_score(ref, pred))
    assert scores["cats_kappa"] == pytest.approx(np.mean(list(scores["cats_kappa_per_label"].values())))


def test_undefined_is_zero_in_flat_keys_and_none_per_label():
    nlp = spacy.blank("en")
    ref, pred = nlp.make_doc("a"), nlp.make_doc("a")
    ref.cats, pred.cats = {"A": 1.0, "B": 1.0}, {"A": 1.0, "B": 1.0}
    scores = score_cats_agreement([Example(pred, ref)] * 3)
    assert scores["cats_kappa_per_label"] == {"A": None, "B": None}
    assert scores["cats_kappa"] == 0.0 and scores["cats_observed_agreement"] == 1.0
    assert score_cats_agreement([])["cats_kappa"] == 0.0


def test_registered_scorer_resolves_in_a_fresh_interpreter():
    code = textwrap.dedent(
        """
        import json, sys, spacy
        from spacy.training import Example
        assert "spacy_anno_eval" not in sys.modules
        scorer = spacy.registry.scorers.get("spacy_anno_eval.cats_agreement_scorer.v1")()
        nlp = spacy.blank("en")
        egs = []
        for gold, guess in [("A", "A"), ("B", "B"), ("A", "B"), ("B", "B")]:
            ref, pred = nlp.make_doc("x"), nlp.make_doc("x")
            ref.cats = {"A": float(gold == "A"), "B": float(gold == "B")}
            pred.cats = {"A": float(guess == "A"), "B": float(guess == "B")}
            egs.append(Example(pred, ref))
        print(json.dumps(scorer(egs)))
        """
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-3000:]
    scores = json.loads(proc.stdout.strip().splitlines()[-1])
    # Ao = 3/4; Ae = 2/4 * 1/4 + 2/4 * 3/4 = 1/2; kappa = (3/4 - 1/2) / (1/2) = 0.5
    assert scores["cats_kappa"] == pytest.approx(0.5)
    assert scores["cats_observed_agreement"] == pytest.approx(0.75)
