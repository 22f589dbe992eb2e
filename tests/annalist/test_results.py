"""What ``anno-eval align`` and ``anno-eval relations`` ask of the annalist family (issue 27): the settings as given,
the scored alignment and the relations scored over the entity alignment, each with its ``to_dict()``."""

from __future__ import annotations

from spacy_anno_eval.annalist.align import AlignmentResult, Mention, Settings, align_and_score, align_mentions, scores
from spacy_anno_eval.annalist.relation_files import RelationsResult, score_relation_files
from tests.annalist.test_relations import PER, WORK, _prodigy, _span, _write_jsonl


def test_settings_to_dict_keeps_the_policies_as_given_else_writes_them():
    settings = Settings(level="order", algorithm="dp", split=("correct", "partial"), anchor_text=True)
    given = settings.to_dict(split="First-Correct-Rest-Partial")
    assert list(given) == ["level", "algorithm", "match", "gap_penalty", "split", "merge", "anchor_text",
                           "dp_objective"]
    assert given["split"] == "First-Correct-Rest-Partial" and given["merge"] == "first-partial-rest-missing"
    assert settings.to_dict()["split"] == "first-correct-rest-partial"
    assert given["level"] == "order" and given["algorithm"] == "dp" and given["anchor_text"] is True


def test_align_and_score_holds_the_decisions_and_their_scores():
    key = [Mention("d", "k1", "PER", "John McCain", 0, 11), Mention("d", "k2", "PER", "Obama", 20, 25)]
    response = [Mention("d", "r1", "PER", "McCain", 5, 11), Mention("d", "r2", "LOC", "Ohio", 30, 34)]
    settings = Settings(level="offset", algorithm="optimal")
    result = align_and_score(key, response, settings, split="first-partial-rest-spurious")
    assert isinstance(result, AlignmentResult)
    decisions = align_mentions(key, response, settings)
    assert result.rows() == [d.to_row() for d in decisions]
    assert result.entities == scores(decisions)
    assert result.entities["collection"]["all"]["PAR"] == 1 and result.entities["collection"]["all"]["MIS"] == 1
    assert result.to_dict() == {"settings": settings.to_dict("first-partial-rest-spurious"),
                                "entities": result.entities}


def test_score_relation_files_aligns_the_entities_then_scores_the_relations(tmp_path):
    work_r = _span(14, 18, 3, 3, "WORK")
    key = _write_jsonl(tmp_path / "key.jsonl", [_prodigy("p1", [
        {"head": 1, "child": 4, "head_span": PER, "child_span": WORK, "label": "authorOf"}])])
    response = _write_jsonl(tmp_path / "response.jsonl", [_prodigy("p1", [
        {"head": 1, "child": 3, "head_span": PER, "child_span": work_r, "label": "authorOf"}], spans=(PER, work_r))])
    result = score_relation_files(key, response)
    assert isinstance(result, RelationsResult)
    out = result.to_dict()
    assert list(out) == ["entities", "relations"]
    assert out["entities"] == result.entities.report() and out["relations"] == result.relations.to_dict()
    # the WORK argument matches partially: a partial relation by default, a correct one when asked
    assert out["relations"]["all"]["PAR"] == 1 and out["relations"]["all"]["COR"] == 0
    correct = score_relation_files(key, response, partial_entities="correct").to_dict()["relations"]["all"]
    assert correct["COR"] == 1 and correct["PAR"] == 0
