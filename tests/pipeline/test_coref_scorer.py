"""The registered coref scorer (issue 29, item 4): spacy-experimental's span-group convention, the same figures
as the command on the same clusters, and checked settings."""

from __future__ import annotations

import pytest
import spacy
from spacy.training import Example

from spacy_anno_eval.coref.metrics import CorefScores
from spacy_anno_eval.errors import ConfigError

SCORER = "spacy_anno_eval.coref_scorer.v1"


def _doc(nlp, clusters, prefix="coref_clusters"):
    doc = nlp("Ada Lovelace met Charles Babbage . She wrote to him .")
    for i, cluster in enumerate(clusters, start=1):
        doc.spans[f"{prefix}_{i}"] = [doc[s:e] for s, e in cluster]
    return doc


@pytest.fixture
def nlp():
    return spacy.blank("en")


def test_the_registered_scorer_reads_the_span_groups_of_the_prefix(nlp):
    key = _doc(nlp, [[(0, 2), (6, 7)], [(3, 5), (9, 10)]])              # {Ada Lovelace, She} {Babbage, him}
    predicted = _doc(nlp, [[(0, 2), (6, 7), (9, 10)], [(3, 5)]])        # him joined to Ada
    predicted.spans["other_1"] = [predicted[7:8]]                        # not a cluster: another prefix
    scores = spacy.registry.scorers.get(SCORER)()([Example(predicted, key)])
    expected = CorefScores()
    expected.add([((0, 12), (35, 38)), ((17, 32), (48, 51))], [((0, 12), (35, 38), (48, 51)), ((17, 32),)])
    figures = expected.figures()
    assert scores["coref_f"] == pytest.approx(figures["conll"]["f"])
    assert (scores["coref_p"], scores["coref_r"]) == pytest.approx((figures["lea"]["p"], figures["lea"]["r"]))
    assert scores["coref_muc_r"] == pytest.approx(figures["muc"]["r"]) and scores["coref_mentions_f"] == 1.0
    assert len([k for k in scores if k.startswith("coref_")]) == 3 + 7 * 3


def test_a_perfect_prediction_scores_1_and_another_prefix_is_read_when_set(nlp):
    key = _doc(nlp, [[(0, 2), (6, 7)]], prefix="chains")
    scores = spacy.registry.scorers.get(SCORER)(span_cluster_prefix="chains")([Example(key, key)])
    assert scores["coref_f"] == 1.0 and scores["coref_blanc_f"] == 1.0


def test_singletons_can_be_left_out(nlp):
    key = _doc(nlp, [[(0, 2), (6, 7)], [(3, 5)]])
    predicted = _doc(nlp, [[(0, 2), (6, 7)]])
    kept = spacy.registry.scorers.get(SCORER)()([Example(predicted, key)])
    dropped = spacy.registry.scorers.get(SCORER)(keep_singletons=False)([Example(predicted, key)])
    assert kept["coref_mentions_r"] == pytest.approx(2 / 3) and dropped["coref_mentions_r"] == 1.0


@pytest.mark.parametrize("settings", [{"span_cluster_prefix": ""}, {"span_cluster_prefix": 3},
                                      {"keep_singletons": "yes"}])
def test_bad_settings_are_refused(settings):
    with pytest.raises(ConfigError, match="coref_scorer"):
        spacy.registry.scorers.get(SCORER)(**settings)
