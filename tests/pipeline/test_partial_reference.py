"""One Example path, three doors: the registered scorer, ``nlp.evaluate`` with the ``anno_eval``
component, and the ``python -m spacy evaluate`` CLI give spaCy's own ``get_ner_prf`` figures on a
partly annotated reference and on a reference tokenized differently from the prediction."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import spacy
from spacy.scorer import get_ner_prf
from spacy.tokens import Doc, DocBin
from spacy.training import Example

from spacy_anno_eval.errors import EmptyKeyWarning

SCORER = "spacy_anno_eval.spans_scorer.v1"
PATTERNS = [{"label": "PER", "pattern": "Ada"}, {"label": "PER", "pattern": "Bob"},
            {"label": "GPE", "pattern": "Paris"}, {"label": "GPE", "pattern": "London"},
            {"label": "ORG", "pattern": "Apple"}, {"label": "ORG", "pattern": "Acme"}]


def make_nlp() -> spacy.language.Language:
    """A pipeline that predicts fixed entities (an entity ruler), then the anno_eval component."""
    nlp = spacy.blank("en")
    nlp.add_pipe("entity_ruler").add_patterns(PATTERNS)
    nlp.add_pipe("anno_eval")
    return nlp


def partial_reference(vocab) -> list[Doc]:
    """Only "Ada" (PER) and "London" (O) carry annotation; every other token is missing (IOB 0)."""
    words = "Ada met Bob in Paris and London .".split()
    return [Doc(vocab, words=words, ents=["B-PER", "", "", "", "", "", "O", ""])]


def retokenized_reference(vocab) -> list[Doc]:
    """Gold tokens "Apple's" and "Acme's" where the pipeline's tokenizer makes "Apple" + "'s"."""
    return [Doc(vocab, words=["Apple's", "shares", "rose", "."], spaces=[True, True, False, False],
                ents=["B-ORG", "O", "O", "O"]),
            Doc(vocab, words=["Shares", "of", "Acme's", "rival", "fell", "."],
                spaces=[True, True, True, True, False, False], ents=["O", "O", "O", "B-ORG", "O", "O"])]


def predicted_examples(nlp: spacy.language.Language, refs: list[Doc]) -> list[Example]:
    """Examples whose predicted side is the pipeline's output on the reference text (a new pipeline's first run:
    its anno_eval component sees Docs without gold and says so, once)."""
    with pytest.warns(EmptyKeyWarning, match=r"anno_eval: the key set 'spans:gold' is empty in every document"):
        return [Example(nlp(nlp.make_doc(ref.text)), ref) for ref in refs]


def flat(scores: dict, prefix: str = "ents") -> tuple[float, float, float]:
    return scores[f"{prefix}_p"], scores[f"{prefix}_r"], scores[f"{prefix}_f"]


def through_every_door(tmp_path: Path, refs: list[Doc]) -> dict[str, tuple[float, float, float]]:
    nlp = make_nlp()
    egs = predicted_examples(nlp, refs)
    out = {"get_ner_prf": flat(get_ner_prf(egs)),
           "registered scorer": flat(spacy.registry.scorers.get(SCORER)()(egs)),
           "component.score": flat(nlp.get_pipe("anno_eval").score(egs))}
    dev = [Example(nlp.make_doc(ref.text), ref) for ref in refs]
    out["nlp.evaluate"] = flat(nlp.evaluate(dev, per_component=True)["anno_eval"])
    nlp.to_disk(tmp_path / "model")
    DocBin(docs=refs).to_disk(tmp_path / "dev.spacy")
    metrics = tmp_path / "metrics.json"
    proc = subprocess.run([sys.executable, "-m", "spacy", "evaluate", str(tmp_path / "model"),
                           str(tmp_path / "dev.spacy"), "--output", str(metrics), "--per-component"],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:] + proc.stdout[-3000:]
    out["spacy evaluate"] = flat(json.loads(metrics.read_text())["anno_eval"])
    return out


def assert_same(figures: dict[str, tuple[float, float, float]]) -> None:
    for door, got in figures.items():
        # srsly writes JSON floats with 10 significant digits: the CLI's figures are rounded
        tolerance = 1e-9 if door == "spacy evaluate" else 1e-12
        assert got == pytest.approx(figures["get_ner_prf"], abs=tolerance), door


def test_partial_reference_same_figures_through_every_door(tmp_path: Path) -> None:
    nlp = make_nlp()
    egs = predicted_examples(nlp, partial_reference(nlp.vocab))
    assert [e.text for e in egs[0].predicted.ents] == ["Ada", "Bob", "Paris", "London"]
    figures = through_every_door(tmp_path, partial_reference(nlp.vocab))
    # Bob and Paris touch tokens without annotation: neither right nor wrong; Ada right, London wrong
    assert figures["get_ner_prf"] == pytest.approx((0.5, 1.0, 2 / 3))
    assert_same(figures)


def test_differing_tokenization_follows_the_example_alignment(tmp_path: Path) -> None:
    nlp = make_nlp()
    refs = retokenized_reference(nlp.vocab)
    egs = predicted_examples(nlp, refs)
    assert [t.text for t in egs[0].predicted][:2] == ["Apple", "'s"]  # the tokenizations differ
    figures = through_every_door(tmp_path, refs)
    # "Apple" aligns to the gold token "Apple's" (right); "Acme" aligns to "Acme's", which is O (wrong),
    # and the gold "rival" is missed
    assert figures["get_ner_prf"] == pytest.approx((0.5, 0.5, 0.5))
    assert_same(figures)


def test_prediction_aligned_to_no_reference_token_is_left_out() -> None:
    """get_ner_prf skips a predicted entity whose tokens align to no reference token (its label is listed)."""
    nlp = spacy.blank("en")
    ref = Doc(nlp.vocab, words=["Hi", "Bob"], spaces=[True, False], ents=["O", "B-PER"])
    pred = Doc(nlp.vocab, words=["Hi", " ", "Bob"], spaces=[False, False, False], ents=["O", "B-LOC", "B-PER"])
    eg = Example(pred, ref)
    assert not len(eg.alignment.x2y[1:2])
    ours = spacy.registry.scorers.get(SCORER)()([eg])
    theirs = get_ner_prf([eg])
    assert flat(ours) == pytest.approx(flat(theirs))
    assert flat(ours) == pytest.approx((1.0, 1.0, 1.0))
    assert set(ours["ents_per_type"]) == set(theirs["ents_per_type"]) == {"PER", "LOC"}
