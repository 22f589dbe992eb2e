"""BDM-weighted (augmented) precision and recall (spacy_anno_eval.bdm.credit)."""

from __future__ import annotations

import numpy as np
import pytest
import spacy
from spacy.tokens import Span

from spacy_anno_eval.bdm.credit import UnknownConceptWarning, bdm_prf
from spacy_anno_eval.spans.engine import evaluate


class Table:
    """Concept scores from a dict of unordered pairs (identity scores 1)."""

    def __init__(self, scores, concepts):
        self.scores = {frozenset(k): v for k, v in scores.items()}
        self.concepts = set(concepts)

    def get(self, a, b):
        if a not in self.concepts or b not in self.concepts:
            return None
        return 1.0 if a == b else self.scores.get(frozenset((a, b)), 0.0)


CONCEPTS = ("Person", "Politician", "Artist", "City", "Capital")
SCORES = Table({("Politician", "Artist"): 0.5, ("City", "Capital"): 0.75, ("Person", "Artist"): 0.6}, CONCEPTS)


def pair(key, response, text="Ada met Bob in Paris and Rome ."):
    nlp = spacy.blank("en")
    k, r = nlp(text), nlp(text)
    k.ents = [Span(k, s, e, lab) for s, e, lab in key]
    r.ents = [Span(r, s, e, lab) for s, e, lab in response]
    return evaluate([k], [r])


def test_near_misses_earn_their_bdm():
    """Keys: Ada Politician, Bob Artist, Paris Capital, Rome City. Responses: Ada Artist (same span, 0.5),
    Bob Artist (correct), 'Paris and' City (overlap, 0.75 lenient only), Rome Person (unrelated, 0)."""
    ev = pair([(0, 1, "Politician"), (2, 3, "Artist"), (4, 5, "Capital"), (6, 7, "City")],
              [(0, 1, "Artist"), (2, 3, "Artist"), (4, 6, "City"), (6, 7, "Person")])
    out = bdm_prf(ev.alignment, SCORES)
    # strict: 1 (Bob) + 0.5 (Ada) + 0 (Rome: Person/City) = 1.5 of 4 responses and 4 keys
    assert out["counts"]["bdm_strict"] == pytest.approx(1.5)
    assert out["micro"]["strict"]["p"] == pytest.approx(1.5 / 4)
    assert out["micro"]["strict"]["r"] == pytest.approx(1.5 / 4)
    # lenient adds the overlapping City/Capital pair: 0.75
    assert out["micro"]["lenient"]["p"] == pytest.approx(2.25 / 4)
    assert out["micro"]["average"]["f"] == pytest.approx((1.5 / 4 + 2.25 / 4) / 2)
    # per type: Artist responses (Ada 0.5, Bob 1) -> P 0.75; Artist keys (Bob) -> R 1
    assert out["per_type"]["Artist"]["strict"]["p"] == pytest.approx(0.75)
    assert out["per_type"]["Artist"]["strict"]["r"] == pytest.approx(1.0)
    assert out["per_type"]["Politician"]["strict"]["r"] == pytest.approx(0.5)
    # the ordinary strict scores give no credit to near misses
    assert ev.scores()["strict"]["p"] == pytest.approx(0.25)


def test_without_credit_for_near_misses_it_is_gate_strict_and_lenient():
    """With every different-concept pair at 0, augmented P/R/F are the ordinary GATE figures (random corpora)."""
    nlp = spacy.blank("en")
    rng = np.random.default_rng(0)
    labels = list(CONCEPTS)
    keys, resps = [], []
    for _ in range(30):
        k, r = nlp(" ".join(["w"] * 40)), nlp(" ".join(["w"] * 40))
        for doc, out in ((k, keys), (r, resps)):
            starts = np.sort(rng.choice(40, 8, replace=False))
            spans = [Span(doc, int(s), int(min(s + rng.integers(1, 3), 40)), labels[rng.integers(0, 5)])
                     for s in starts]
            doc.ents = spacy.util.filter_spans(spans)
            out.append(doc)
    ev = evaluate(keys, resps)
    zero = Table({}, CONCEPTS)
    out = bdm_prf(ev.alignment, zero)
    for mode in ("strict", "lenient", "average"):
        for k in "prf":
            assert out["micro"][mode][k] == pytest.approx(ev.scores()[mode][k])
    report = ev.report()
    for t in report["per_type"]:
        assert out["per_type"][t]["strict"]["f"] == pytest.approx(report["per_type"][t]["strict"]["f"])
    # with some credit, augmented figures are never below the ordinary ones
    assert bdm_prf(ev.alignment, SCORES)["micro"]["lenient"]["f"] >= out["micro"]["lenient"]["f"]


def test_unknown_concepts_warn_and_earn_nothing():
    ev = pair([(0, 1, "Politician")], [(0, 1, "Dancer")])
    with pytest.warns(UnknownConceptWarning, match="Politician/Dancer"):
        out = bdm_prf(ev.alignment, SCORES)
    assert out["micro"]["strict"]["p"] == 0.0
    assert out["unknown_concepts"] == [{"key": "Politician", "response": "Dancer", "count": 1}]


def test_concept_from_a_feature():
    """GATE's Mention->class: the type is the same, the concept is a feature (here the KB id)."""
    nlp = spacy.blank("en")
    k, r = nlp("Ada met Bob"), nlp("Ada met Bob")
    k.ents = [Span(k, 0, 1, "Mention", kb_id="Politician"), Span(k, 2, 3, "Mention", kb_id="City")]
    r.ents = [Span(r, 0, 1, "Mention", kb_id="Artist"), Span(r, 2, 3, "Mention", kb_id="Capital")]
    ev = evaluate([k], [r], features=["kb_id"])
    out = bdm_prf(ev.alignment, SCORES, feature="kb_id")
    assert out["counts"]["bdm_strict"] == pytest.approx(0.5 + 0.75)
    assert out["micro"]["strict"]["r"] == pytest.approx(1.25 / 2)


# --- with real BDM scores and through the command line ------------------------------------------------------

TAXONOMY = """# child<TAB>parent
Person\tThing
Politician\tPerson
Artist\tPerson
Location\tThing
City\tLocation
Capital\tCity
Country\tLocation
"""


def test_score_and_iaa_with_bdm_from_a_taxonomy_or_a_bdm_file(tmp_path):
    import json

    from spacy.tokens import DocBin
    from typer.testing import CliRunner

    from spacy_anno_eval.bdm.credit import load_concept_scores
    from spacy_anno_eval.bdm.distance import compute_bdm
    from spacy_anno_eval.bdm.taxonomy import read_taxonomy
    from spacy_anno_eval.cli.app import app

    tax = tmp_path / "tax.tsv"
    tax.write_text(TAXONOMY, encoding="utf8")
    runner = CliRunner()
    result = runner.invoke(app, ["bdm", str(tax), "--out", str(tmp_path / "bdm.txt"), "--json",
                                 str(tmp_path / "bdm.json")])
    assert result.exit_code == 0, result.output
    lines = (tmp_path / "bdm.txt").read_text(encoding="utf8").splitlines()
    assert lines[0].startswith("##The following are the BDM scores")
    assert len(lines) == 1 + 8 * 9 // 2  # 8 concepts: every unordered pair, identity included
    scores = compute_bdm(read_taxonomy(tax))
    from_file, from_tax = load_concept_scores(tmp_path / "bdm.txt"), load_concept_scores(tax)
    near = scores.get("Politician", "Artist")
    assert 0 < near < 1
    assert from_file.get("Artist", "Politician") == pytest.approx(near, rel=1e-6)  # float32 in the file
    assert from_tax.get("Politician", "Artist") == near
    assert json.loads((tmp_path / "bdm.json").read_text())["concepts"] == list(scores.concepts)

    nlp = spacy.blank("en")
    text = "Ada met Bob in Paris ."
    key, resp = nlp(text), nlp(text)
    key.ents = [Span(key, 0, 1, "Politician"), Span(key, 4, 5, "Capital")]
    resp.ents = [Span(resp, 0, 1, "Artist"), Span(resp, 4, 5, "Capital")]
    DocBin(docs=[key]).to_disk(tmp_path / "key.spacy")
    DocBin(docs=[resp]).to_disk(tmp_path / "resp.spacy")
    result = runner.invoke(app, ["score", str(tmp_path / "key.spacy"), str(tmp_path / "resp.spacy"), "--bdm",
                                 str(tmp_path / "bdm.txt"), "--json", str(tmp_path / "s.json")])
    assert result.exit_code == 0, result.output
    assert "BDM-weighted" in result.output
    report = json.loads((tmp_path / "s.json").read_text())
    assert report["micro"]["strict"]["p"] == 0.5
    assert report["bdm"]["micro"]["strict"]["p"] == pytest.approx((1 + near) / 2, rel=1e-6)

    both = key.copy()
    both.spans["a"] = [Span(both, 0, 1, "Politician"), Span(both, 4, 5, "Capital")]
    both.spans["b"] = [Span(both, 0, 1, "Artist"), Span(both, 4, 5, "Capital")]
    DocBin(docs=[both]).to_disk(tmp_path / "iaa.spacy")
    result = runner.invoke(app, ["iaa", str(tmp_path / "iaa.spacy"), "--sets", "spans:a;spans:b", "--bdm", str(tax),
                                 "--json", str(tmp_path / "iaa.json")])
    assert result.exit_code == 0, result.output
    data = json.loads((tmp_path / "iaa.json").read_text())
    assert data["mean_of_pairs"]["strict"]["f"] == 0.5
    assert data["mean_of_pairs_bdm"]["strict"]["f"] == pytest.approx((1 + near) / 2)
    bad = runner.invoke(app, ["iaa", str(tmp_path / "iaa.spacy"), "--sets", "spans:a;spans:b", "--bdm", str(tax),
                              "--measure", "kappa"])
    assert bad.exit_code == 2
    cycle = tmp_path / "cycle.tsv"
    cycle.write_text("A\tB\nB\tA\n", encoding="utf8")
    bad = runner.invoke(app, ["bdm", str(cycle), "--out", str(tmp_path / "x.txt")])
    assert bad.exit_code == 2 and "cycle" in bad.output
    assert not (tmp_path / "x.txt").exists()
