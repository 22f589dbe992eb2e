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

from spacy_anno_eval.errors import ConfigError, DegenerateAgreementWarning
from spacy_anno_eval.files import json_text
from spacy_anno_eval.pipeline.cats_scorer import make_cats_agreement_scorer, score_cats_agreement

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


def one_category_examples(n: int = 4) -> list[Example]:
    """Both sides put every document in category A (B's score below the threshold on both sides)."""
    nlp = spacy.blank("en")
    out = []
    for _ in range(n):
        ref, pred = nlp.make_doc("a"), nlp.make_doc("a")
        ref.cats, pred.cats = {"A": 1.0, "B": 0.0}, {"A": 0.9, "B": 0.1}
        out.append(Example(pred, ref))
    return out


def test_kappa_with_one_shared_category_is_none_with_a_warning_not_zero():
    """κ is 0/0 when both sides agree on one category (Pe = 1): None and a warning, as the agreement family."""
    with pytest.warns(DegenerateAgreementWarning, match=r"cats_kappa and cats_alpha is undefined .*Pe = 1"):
        scores = score_cats_agreement(one_category_examples())
    assert scores["cats_kappa"] is None and scores["cats_alpha"] is None
    assert scores["cats_observed_agreement"] == 1.0
    assert json.loads(json_text(scores))["cats_kappa"] is None  # null in JSON


def test_undefined_labels_are_none_per_label_and_in_the_flat_mean():
    with pytest.warns(DegenerateAgreementWarning, match=r"of 'A', 'B' is undefined.*cats_kappa and cats_alpha"):
        scores = score_cats_agreement(one_category_examples(), multi_label=True)
    assert scores["cats_kappa_per_label"] == {"A": None, "B": None}
    assert scores["cats_kappa"] is None and scores["cats_alpha"] is None and scores["cats_observed_agreement"] == 1.0
    with pytest.warns(DegenerateAgreementWarning, match="no example has reference cats"):
        assert score_cats_agreement([])["cats_kappa"] is None


def test_a_defined_label_still_gives_the_flat_mean_beside_an_undefined_one():
    egs = examples(1, exclusive=False)
    for eg in egs:  # NEU: never positive on either side
        eg.reference.cats["NEU"], eg.predicted.cats["NEU"] = 0.0, 0.0
    with pytest.warns(DegenerateAgreementWarning, match=r"of 'NEU' is undefined") as caught:
        scores = score_cats_agreement(egs, multi_label=True)
    assert "None too" not in str(caught[0].message)
    per_label = scores["cats_kappa_per_label"]
    assert per_label["NEU"] is None
    assert scores["cats_kappa"] == pytest.approx(np.mean([per_label["POS"], per_label["NEG"]]))


def test_spacy_training_score_leaves_an_undefined_kappa_out():
    """spaCy's evaluation callback drops None scores from the weighted score: None is safe in training."""
    from spacy.training.loop import create_evaluation_callback

    with pytest.warns(DegenerateAgreementWarning):
        scores = score_cats_agreement(one_category_examples())

    class Pipeline:
        def evaluate(self, examples):
            return scores

    weighted, shown = create_evaluation_callback(Pipeline(), lambda nlp: [], {"cats_kappa": 1.0})()
    assert weighted == 0.0 and "cats_kappa" not in shown


@pytest.mark.parametrize(("setting", "value", "message"), [
    ("threshold", float("nan"), "threshold must be a number in"),
    ("threshold", 1.5, "threshold must be a number in"),
    ("threshold", -0.1, "threshold must be a number in"),
    ("threshold", "0.5", "threshold must be a number in"),
    ("threshold", True, "threshold must be a number in"),
    ("multi_label", "yes", "multi_label must be true, false or null"),
    ("labels", 5, "labels must be a list"),
    ("labels", ["POS", 1], "labels must be category names"),
])
def test_cats_scorer_refuses_bad_settings_when_made_and_when_called(setting, value, message):
    with pytest.raises(ConfigError, match=message):
        make_cats_agreement_scorer(**{setting: value})
    with pytest.raises(ConfigError, match=message):
        score_cats_agreement(examples(0, n=5), **{setting: value})


def test_cats_scorer_takes_one_label_as_a_string_and_refuses_no_examples():
    scores = score_cats_agreement(examples(1, n=50, exclusive=False), labels="POS")
    assert list(scores["cats_kappa_per_label"]) == ["POS"]
    with pytest.raises(ConfigError, match="examples must be an iterable"):
        score_cats_agreement(None)


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
