"""ANNALIST-style relation scoring (spacy_anno_eval.annalist.relations) and the relation readers.

Expected numbers are worked out by hand from the rules in the module
docstring; the Fig. 3 figures are those printed in Demetriou et al. (2008).
"""

from __future__ import annotations

import json

import pytest
import spacy
from spacy.tokens import Doc, DocBin

from spacy_anno_eval.annalist.relations import (
    DECISION_COLUMNS,
    EntityAlignment,
    Relation,
    entity_id,
    relation_figures,
    score_relations,
)
from spacy_anno_eval.annalist.relations_reader import read_relations, read_relations_jsonl, relations_from_docs
from spacy_anno_eval.errors import ConfigError, InputError
from spacy_anno_eval.spans.engine import evaluate


def rel(rid, name="R", doc="d", **args):
    return Relation(doc, rid, name, args)


def row(status, key_id=None, response_id=None, doc="d"):
    return {"doc": doc, "status": status, "key_id": key_id, "response_id": response_id}


def counts(figures):
    return {k: figures[k] for k in ("POS", "ACT", "COR", "PAR", "INC", "MIS", "SPU")}


ZERO = {"POS": 0, "ACT": 0, "COR": 0, "PAR": 0, "INC": 0, "MIS": 0, "SPU": 0}


# ---------------------------------------------------------------- unscored relations (seed, section 4)


def test_annalist_arg2_example_is_unscored_not_missing():
    # key: entity 27 (author "X"), entity 35 (document "Y"), authorOf(Arg1=27, Arg2=35);
    # response: entity 31 (author "X") only, and so no relation
    entities = EntityAlignment.from_rows([row("correct", "27", "31"), row("missing", "35")])
    key = [Relation("d", "185", "authorOf", {"arg1": "27", "arg2": "35"})]
    out = score_relations(key, [], entities).to_dict()
    assert out["unscored"] == [{"side": "key", "doc": "d", "relation": "185", "name": "authorOf",
                                "reason": "missing arg2", "attribute": "arg2", "entity": "35",
                                "reasons": [{"reason": "missing arg2", "attribute": "arg2", "entity": "35"}]}]
    assert out["unscored_by_reason"] == {"key": {"missing arg2": 1}, "response": {}}
    assert counts(out["all"]) == ZERO  # MUC would count one missing relation: POS 1
    assert counts(out["per_name"]["authorOf"]) == ZERO
    assert counts(out["all_attributes"]) == ZERO
    assert out["decisions"] == []
    assert out["all"]["p"] == out["all"]["r"] == out["all"]["f"] == 0.0


def test_incorrect_entity_leaves_both_relations_unscored():
    entities = EntityAlignment.from_rows([row("correct", "a", "x"), row("incorrect", "b", "y")])
    key = [rel("k1", arg1="a", arg2="b")]
    response = [rel("r1", arg1="x", arg2="y")]
    scores = score_relations(key, response, entities)
    out = scores.to_dict()
    assert [(u["side"], u["relation"], u["reason"]) for u in out["unscored"]] == [
        ("key", "k1", "incorrect arg2"), ("response", "r1", "incorrect arg2")]
    assert counts(out["all"]) == ZERO
    assert out["decisions"] == []
    assert out["unscored_by_reason"] == {"key": {"incorrect arg2": 1}, "response": {"incorrect arg2": 1}}


def test_spurious_and_unaligned_entities_unscore_relations():
    entities = EntityAlignment.from_rows([row("correct", "a", "x"), row("spurious", response_id="s")])
    key = [rel("k1", arg1="a", arg2="nowhere")]
    response = [rel("r1", arg1="s", arg2="x"), rel("r2", arg1="x", arg2="s")]
    out = score_relations(key, response, entities).to_dict()
    assert [(u["side"], u["relation"], u["reason"], u["entity"]) for u in out["unscored"]] == [
        ("key", "k1", "unaligned arg2", "nowhere"), ("response", "r1", "spurious arg1", "s"),
        ("response", "r2", "spurious arg2", "s")]
    assert counts(out["all"]) == ZERO


def test_every_reason_is_recorded_the_first_leads():
    entities = EntityAlignment.from_rows([row("missing", "a"), row("incorrect", "b", "y")])
    out = score_relations([rel("k1", arg1="a", arg2="b")], [], entities).to_dict()
    (u,) = out["unscored"]
    assert (u["reason"], u["attribute"]) == ("missing arg1", "arg1")
    assert [p["reason"] for p in u["reasons"]] == ["missing arg1", "incorrect arg2"]
    assert out["unscored_by_reason"]["key"] == {"incorrect arg2": 1, "missing arg1": 1}


# ---------------------------------------------------------------- alignment criteria


@pytest.fixture
def one_wrong_argument():
    # k1 = R(a, b); r1 = R(x, z): a~x, but r1's arg2 is c's counterpart, not b's
    entities = EntityAlignment.from_rows([row("correct", "a", "x"), row("correct", "b", "y"),
                                          row("correct", "c", "z")])
    return [rel("k1", arg1="a", arg2="b")], [rel("r1", arg1="x", arg2="z")], entities


def test_strict_gives_missing_and_spurious(one_wrong_argument):
    key, response, entities = one_wrong_argument
    out = score_relations(key, response, entities, alignment="strict").to_dict()
    assert [(d["status"], d["key_id"], d["response_id"]) for d in out["decisions"]] == [
        ("missing", "k1", None), ("spurious", None, "r1")]
    assert counts(out["all"]) == {**ZERO, "POS": 1, "ACT": 1, "MIS": 1, "SPU": 1}
    assert out["all"]["r"] == out["all"]["p"] == out["all"]["f"] == 0.0
    attrs = out["per_attribute"]["R"]
    assert counts(attrs["arg1"]) == counts(attrs["arg2"]) == {**ZERO, "POS": 1, "ACT": 1, "MIS": 1, "SPU": 1}
    assert counts(out["all_attributes"]) == {**ZERO, "POS": 2, "ACT": 2, "MIS": 2, "SPU": 2}


def test_lenient_gives_one_partial(one_wrong_argument):
    key, response, entities = one_wrong_argument
    out = score_relations(key, response, entities, alignment="lenient").to_dict()
    (d,) = out["decisions"]
    assert (d["status"], d["key_id"], d["response_id"]) == ("partial", "k1", "r1")
    assert d["attributes"] == [{"attribute": "arg1", "status": "correct", "key": "a", "response": "x"},
                               {"attribute": "arg2", "status": "incorrect", "key": "b", "response": "z"}]
    assert counts(out["all"]) == {**ZERO, "POS": 1, "ACT": 1, "PAR": 1}
    assert out["all"]["r"] == out["all"]["p"] == out["all"]["f"] == 0.5
    attrs = out["per_attribute"]["R"]
    assert counts(attrs["arg1"]) == {**ZERO, "POS": 1, "ACT": 1, "COR": 1}
    assert counts(attrs["arg2"]) == {**ZERO, "POS": 1, "ACT": 1, "INC": 1}
    assert attrs["arg1"]["f"] == 1.0 and attrs["arg2"]["f"] == 0.0
    assert counts(out["all_attributes"]) == {**ZERO, "POS": 2, "ACT": 2, "COR": 1, "INC": 1}
    assert out["all_attributes"]["r"] == 0.5
    assert out["settings"]["alignment"] == "lenient"


def test_lenient_needs_one_matching_attribute():
    entities = EntityAlignment.from_rows([row("correct", e, e.upper()) for e in "abcd"])
    out = score_relations([rel("k1", arg1="a", arg2="b")], [rel("r1", arg1="C", arg2="D")], entities,
                          alignment="lenient").to_dict()
    assert [d["status"] for d in out["decisions"]] == ["missing", "spurious"]


def test_names_and_documents_are_never_crossed():
    entities = EntityAlignment.from_rows([row("correct", "a", "x"), row("correct", "b", "y"),
                                          row("correct", "a", "x", doc="e"), row("correct", "b", "y", doc="e")])
    key = [rel("k1", "R", arg1="a", arg2="b"), rel("k2", "S", "e", arg1="a", arg2="b")]
    response = [rel("r1", "S", arg1="x", arg2="y"), rel("r2", "S", "d", arg1="x", arg2="y")]
    out = score_relations(key, response, entities).to_dict()
    assert [(d["status"], d["doc"], d["name"]) for d in out["decisions"]] == [
        ("missing", "d", "R"), ("spurious", "d", "S"), ("spurious", "d", "S"), ("missing", "e", "S")]
    assert counts(out["per_doc"]["d"]) == {**ZERO, "POS": 1, "ACT": 2, "MIS": 1, "SPU": 2}
    assert counts(out["per_doc"]["e"]) == {**ZERO, "POS": 1, "MIS": 1}
    assert list(out["per_name"]) == ["R", "S"]


def test_greedy_pairing_prefers_more_matching_attributes_then_document_order():
    entities = EntityAlignment.from_rows([row("correct", "a", "x"), row("correct", "b", "y"),
                                          row("correct", "c", "w")])
    key = [rel("k1", arg1="a", arg2="b")]
    response = [rel("r1", arg1="x", arg2="w"), rel("r2", arg1="x", arg2="y")]
    out = score_relations(key, response, entities, alignment="lenient").to_dict()
    assert [(d["status"], d["key_id"], d["response_id"]) for d in out["decisions"]] == [
        ("correct", "k1", "r2"), ("spurious", None, "r1")]
    # equal candidates: the first key takes the first response
    key = [rel("k1", arg1="a", arg2="b"), rel("k2", arg1="a", arg2="b")]
    response = [rel("r1", arg1="x", arg2="y"), rel("r2", arg1="x", arg2="y")]
    out = score_relations(key, response, entities).to_dict()
    assert [(d["key_id"], d["response_id"]) for d in out["decisions"]] == [("k1", "r1"), ("k2", "r2")]
    out = score_relations(key, response[:1], entities).to_dict()
    assert [(d["status"], d["key_id"], d["response_id"]) for d in out["decisions"]] == [
        ("correct", "k1", "r1"), ("missing", "k2", None)]


def test_partial_entity_gives_partial_attribute_and_relation():
    entities = EntityAlignment.from_rows([row("correct", "a", "x"), row("partial", "b", "y")])
    key, response = [rel("k1", arg1="a", arg2="b")], [rel("r1", arg1="x", arg2="y")]
    out = score_relations(key, response, entities).to_dict()
    (d,) = out["decisions"]
    assert d["status"] == "partial"
    assert [a["status"] for a in d["attributes"]] == ["correct", "partial"]
    assert counts(out["per_attribute"]["R"]["arg2"]) == {**ZERO, "POS": 1, "ACT": 1, "PAR": 1}
    out = score_relations(key, response, entities, partial_entities="correct").to_dict()
    assert out["decisions"][0]["status"] == "correct"
    assert counts(out["all_attributes"]) == {**ZERO, "POS": 2, "ACT": 2, "COR": 2}


def test_absent_attributes():
    entities = EntityAlignment.from_rows([row("correct", "a", "x"), row("correct", "b", "y")])
    # absent on both sides: not counted
    out = score_relations([rel("k1", arg1="a", arg2=None)], [rel("r1", arg1="x", arg2=None)], entities).to_dict()
    assert out["decisions"][0]["status"] == "correct"
    assert counts(out["per_attribute"]["R"]["arg2"]) == ZERO
    # absent on one side: no strict candidate; under lenient, attribute MIS / SPU
    key, response = [rel("k1", arg1="a", arg2="b")], [rel("r1", arg1="x", arg2=None)]
    out = score_relations(key, response, entities).to_dict()
    assert [d["status"] for d in out["decisions"]] == ["missing", "spurious"]
    assert counts(out["per_attribute"]["R"]["arg2"]) == {**ZERO, "POS": 1, "MIS": 1}
    out = score_relations(key, response, entities, alignment="lenient").to_dict()
    assert out["decisions"][0]["status"] == "partial"
    assert counts(out["per_attribute"]["R"]["arg2"]) == {**ZERO, "POS": 1, "MIS": 1}
    out = score_relations([rel("k1", arg1="a", arg2=None)], [rel("r1", arg1="x", arg2="y")],
                          entities, alignment="lenient").to_dict()
    assert counts(out["per_attribute"]["R"]["arg2"]) == {**ZERO, "ACT": 1, "SPU": 1}


def test_attribute_names_other_than_arg1_arg2():
    entities = EntityAlignment.from_rows([row("correct", "p", "P"), row("correct", "n", "N")])
    key = [rel("k1", "lastname_of", subject="n", object="p")]
    response = [rel("r1", "lastname_of", subject="N", object="P")]
    out = score_relations(key, response, entities).to_dict()
    assert list(out["per_attribute"]["lastname_of"]) == ["subject", "object"]
    assert out["per_attribute"]["lastname_of"]["object"]["f"] == 1.0


# ---------------------------------------------------------------- Fig. 3 arithmetic


def test_fig3_figures_from_counts():
    f = relation_figures({"COR": 28, "PAR": 1, "INC": 0, "MIS": 6, "SPU": 58})
    assert (f["POS"], f["ACT"]) == (35, 87)
    assert (round(f["r"], 4), round(f["p"], 4), round(f["f"], 4)) == (0.8143, 0.3276, 0.4672)
    f = relation_figures({"COR": 147, "PAR": 8, "INC": 0, "MIS": 50, "SPU": 253})
    assert (f["POS"], f["ACT"]) == (205, 408)
    assert (round(f["r"], 4), round(f["p"], 4), round(f["f"], 4)) == (0.7366, 0.3701, 0.4927)
    # the attribute total (410 / 816; the scan prints ACT "81.0" and SPU "500" for 816 and 506)
    f = relation_figures({"COR": 301, "PAR": 9, "INC": 0, "MIS": 100, "SPU": 506})
    assert (f["POS"], f["ACT"]) == (410, 816)
    assert (round(f["r"], 4), round(f["p"], 4), round(f["f"], 4)) == (0.7451, 0.3744, 0.4984)


def test_figures_zero_division():
    assert relation_figures({})["f"] == 0.0
    f = relation_figures({}, zero_division=1.0)
    assert (f["p"], f["r"], f["f"]) == (1.0, 1.0, 1.0)
    f = relation_figures({"SPU": 2}, zero_division=1.0)
    assert (f["p"], f["r"], f["f"]) == (0.0, 1.0, 0.0)
    f = relation_figures({"COR": 1, "MIS": 1}, beta=2.0)
    assert f["f"] == pytest.approx(5 * 1.0 * 0.5 / (4 * 1.0 + 0.5))


def corpus(name, n_cor, n_par1, n_par2, n_mis, n_spu, doc="d"):
    """Relations (subject, object) and entity rows giving the requested relation outcomes.

    Every relation has its own two key entities, each aligned to a response
    entity (correct, or partial for the partial arguments); missing key
    relations and spurious response relations point at aligned entities too,
    so nothing is unscored.
    """
    key, response, rows = [], [], []

    def pair(tag, partial=()):
        ids = {}
        for attr in ("subject", "object"):
            k, r = f"{name}.{tag}.{attr}.k", f"{name}.{tag}.{attr}.r"
            rows.append(row("partial" if attr in partial else "correct", k, r, doc))
            ids[attr] = (k, r)
        return {a: v[0] for a, v in ids.items()}, {a: v[1] for a, v in ids.items()}

    plan = ([("c", ())] * n_cor + [("p1", ("object",))] * n_par1 + [("p2", ("subject", "object"))] * n_par2)
    for i, (tag, partial) in enumerate(plan):
        k, r = pair(f"{tag}{i}", partial)
        key.append(Relation(doc, f"{name}.k{i}", name, k))
        response.append(Relation(doc, f"{name}.r{i}", name, r))
    for i in range(n_mis):
        k, _ = pair(f"m{i}")
        key.append(Relation(doc, f"{name}.km{i}", name, k))
    for i in range(n_spu):
        _, r = pair(f"s{i}")
        response.append(Relation(doc, f"{name}.rs{i}", name, r))
    return key, response, rows


def test_fig3_lastname_of_row_from_relations():
    key, response, rows = corpus("lastname_of", 28, 1, 0, 6, 58)
    out = score_relations(key, response, EntityAlignment.from_rows(rows)).to_dict()
    f = out["per_name"]["lastname_of"]
    assert counts(f) == {"POS": 35, "ACT": 87, "COR": 28, "PAR": 1, "INC": 0, "MIS": 6, "SPU": 58}
    assert (round(f["r"], 4), round(f["p"], 4), round(f["f"], 4)) == (0.8143, 0.3276, 0.4672)
    # Fig. 3's attribute rows: subject COR 29 PAR 0 (REC 0.8286, PRE 0.3333, F 0.4754), object as the relation
    subject, obj = out["per_attribute"]["lastname_of"]["subject"], out["per_attribute"]["lastname_of"]["object"]
    assert counts(subject) == {"POS": 35, "ACT": 87, "COR": 29, "PAR": 0, "INC": 0, "MIS": 6, "SPU": 58}
    assert (round(subject["r"], 4), round(subject["p"], 4), round(subject["f"], 4)) == (0.8286, 0.3333, 0.4754)
    assert counts(obj) == counts(f)
    assert (round(obj["r"], 4), round(obj["p"], 4)) == (0.8143, 0.3276)


def test_fig3_all_relations_and_all_attributes():
    # 147 correct, 8 partial (7 with one partially aligned argument, 1 with two), 50 missing, 253 spurious,
    # spread over two names and two documents
    key, response, rows = corpus("A", 100, 4, 1, 30, 200, doc="d1")
    k2, r2, rows2 = corpus("B", 47, 3, 0, 20, 53, doc="d2")
    out = score_relations(key + k2, response + r2, EntityAlignment.from_rows(rows + rows2)).to_dict()
    f = out["all"]
    assert counts(f) == {"POS": 205, "ACT": 408, "COR": 147, "PAR": 8, "INC": 0, "MIS": 50, "SPU": 253}
    assert (round(f["r"], 4), round(f["p"], 4), round(f["f"], 4)) == (0.7366, 0.3701, 0.4927)
    a = out["all_attributes"]
    assert counts(a) == {"POS": 410, "ACT": 816, "COR": 301, "PAR": 9, "INC": 0, "MIS": 100, "SPU": 506}
    assert (round(a["r"], 4), round(a["p"], 4), round(a["f"], 4)) == (0.7451, 0.3744, 0.4984)
    assert counts(out["per_doc"]["d1"]) == counts(out["per_name"]["A"])
    assert out["per_doc"]["d2"]["POS"] == 70
    json.dumps(out, allow_nan=False)


# ---------------------------------------------------------------- decisions and rows


def test_decision_rows_and_files(tmp_path, one_wrong_argument):
    key, response, entities = one_wrong_argument
    entities = EntityAlignment.from_rows([row("correct", "a", "x"), row("correct", "b", "y"),
                                          row("correct", "c", "z"), row("missing", "m")])
    key = key + [rel("k2", arg1="m", arg2="a")]
    scores = score_relations(key, response, entities, alignment="lenient")
    rows = scores.decision_rows()
    assert rows == [
        {"doc": "d", "status": "partial", "name": "R", "key_id": "k1", "response_id": "r1",
         "attributes": "arg1=correct arg2=incorrect", "reason": ""},
        {"doc": "d", "status": "unscored", "name": "R", "key_id": "k2", "response_id": None,
         "attributes": "arg1=missing", "reason": "missing arg1"}]
    assert len(scores.decision_rows(include_unscored=False)) == 1
    tsv = scores.write_decisions(tmp_path / "out" / "relations.tsv")
    lines = tsv.read_text().splitlines()
    assert lines[0].split("\t") == list(DECISION_COLUMNS)
    assert lines[2].split("\t") == ["d", "unscored", "R", "k2", "", "arg1=missing", "missing arg1"]
    jl = scores.write_decisions(tmp_path / "relations.jsonl")
    assert [json.loads(line) for line in jl.read_text().splitlines()] == rows


def test_decisions_in_document_order_with_missing_and_spurious():
    entities = EntityAlignment.from_rows([row("correct", e, e.upper()) for e in "abcdef"])
    key = [rel("k1", arg1="a", arg2="b"), rel("k2", arg1="c", arg2="d")]
    response = [rel("r1", arg1="E", arg2="F"), rel("r2", arg1="C", arg2="D")]
    out = score_relations(key, response, entities).to_dict()
    assert [(d["status"], d["key_id"], d["response_id"]) for d in out["decisions"]] == [
        ("missing", "k1", None), ("correct", "k2", "r2"), ("spurious", None, "r1")]
    assert out["decisions"][2]["attributes"] == [
        {"attribute": "arg1", "status": "spurious", "key": None, "response": "E"},
        {"attribute": "arg2", "status": "spurious", "key": None, "response": "F"}]


# ---------------------------------------------------------------- input checks


def test_entity_alignment_checks():
    with pytest.raises(InputError, match="unknown status 'wrong'"):
        EntityAlignment.from_rows([row("wrong", "a", "x")])
    with pytest.raises(InputError, match="needs a key_id"):
        EntityAlignment.from_rows([row("correct", None, "x")])
    with pytest.raises(InputError, match="no key_id"):
        EntityAlignment.from_rows([row("spurious", "a", "x")])
    with pytest.raises(InputError, match="aligned twice"):
        EntityAlignment.from_rows([row("correct", "a", "x"), row("partial", "a", "y")])
    with pytest.raises(InputError, match="response entity 'x' is both aligned and spurious"):
        EntityAlignment.from_rows([row("correct", "a", "x"), row("spurious", response_id="x")])
    with pytest.raises(InputError, match="no document"):
        EntityAlignment.from_rows([{"status": "missing", "key_id": "a"}])
    # overlap (another label) is incorrect; direct construction works as well
    al = EntityAlignment.from_rows([row("overlap", 1, 2)])
    assert al.incorrect == {"d": {"1": "2"}} and al.key_status("d", "1") == "incorrect"
    al = EntityAlignment(key_to_response={"d": {"a": "x"}}, missing={"d": ["b"]})
    assert (al.key_status("d", "a"), al.key_status("d", "b"), al.response_status("d", "x")) == (
        "aligned", "missing", "aligned")
    assert al.key_status("d", "zzz") is None and al.key_status("other", "a") is None


def test_score_relations_checks():
    entities = EntityAlignment()
    with pytest.raises(ConfigError, match="alignment must be"):
        score_relations([], [], entities, alignment="loose")
    with pytest.raises(ConfigError, match="partial_entities"):
        score_relations([], [], entities, partial_entities="half")
    with pytest.raises(InputError, match="used twice"):
        score_relations([rel("k1", arg1="a"), rel("k1", arg1="b")], [], entities)
    with pytest.raises(InputError, match="expected a Relation"):
        score_relations([("d", "k1")], [], entities)
    with pytest.raises(InputError, match="args must map"):
        Relation("d", "k1", "R", ["a", "b"])
    r = Relation(1, 2, "R", {"arg1": 3, "arg2": None})
    assert (r.doc, r.id, r.args) == ("1", "2", {"arg1": "3", "arg2": None})


# ---------------------------------------------------------------- readers


@pytest.fixture(scope="module")
def nlp():
    return spacy.blank("en")


TEXT = "Ann Lee wrote Deep Nets in Paris"


def test_relations_from_docs_spans_and_dicts(nlp):
    doc = nlp(TEXT)
    doc.user_data["doc_id"] = "p1"
    doc.user_data["relations"] = [(doc[0:2], doc[3:5], "authorOf"),
                                  {"head": [0, 7], "child": [27, 32], "label": "livesIn"},
                                  {"head": doc[3:5], "child": (27, 32), "label": "writtenIn", "id": "w"}]
    other = nlp("nothing here")
    rels = read_relations([doc, other])
    assert rels == [Relation("p1", "0", "authorOf", {"arg1": "0-7", "arg2": "14-23"}),
                    Relation("p1", "1", "livesIn", {"arg1": "0-7", "arg2": "27-32"}),
                    Relation("p1", "w", "writtenIn", {"arg1": "14-23", "arg2": "27-32"})]
    assert read_relations(doc) == rels
    assert entity_id(doc[3:5].start_char, doc[3:5].end_char) == "14-23"


def test_relations_from_doc_extension(nlp):
    doc = nlp(TEXT)
    doc.user_data["relations"] = [{"head": [0, 3], "child": [4, 7], "label": "ignored"}]
    registered = Doc.has_extension("relations")
    if not registered:
        Doc.set_extension("relations", default=None)
    try:
        doc._.relations = [(doc[0:2], doc[6:7], "livesIn")]
        assert relations_from_docs([doc]) == [Relation("0", "0", "livesIn", {"arg1": "0-7", "arg2": "27-32"})]
        doc._.relations = None  # unset: user_data is read
        assert relations_from_docs([doc])[0].name == "ignored"
    finally:
        if not registered:
            Doc.remove_extension("relations")


def test_relations_from_docs_errors(nlp):
    doc = nlp(TEXT)
    doc.user_data["relations"] = [{"head": [0, 7], "child": [27, 99], "label": "livesIn"}]
    with pytest.raises(InputError, match=r"relations\[0\]: the child \[27, 99\) is out of range"):
        relations_from_docs([doc], source="docs")
    doc.user_data["relations"] = [(doc[0:2], doc[6:7])]
    with pytest.raises(InputError, match="expected \\(head, child, label\\)"):
        relations_from_docs([doc])
    doc.user_data["relations"] = [(doc[0:2], "Paris", "livesIn")]
    with pytest.raises(InputError, match="the child must be a Span"):
        relations_from_docs([doc])
    doc.user_data["relations"] = [(doc[0:2], doc[6:7], "")]
    with pytest.raises(InputError, match="non-empty string"):
        relations_from_docs([doc])
    doc.user_data["relations"] = {(0, 3): {"livesIn": 0.9}}
    with pytest.raises(InputError, match="must be a list"):
        relations_from_docs([doc])


def test_relations_from_docbin(nlp, tmp_path):
    doc = nlp(TEXT)
    doc.user_data["doc_id"] = "p1"
    doc.user_data["relations"] = [{"head": [0, 7], "child": [27, 32], "label": "livesIn"}]
    path = tmp_path / "rels.spacy"
    DocBin(docs=[doc], store_user_data=True).to_disk(path)
    assert read_relations(path) == [Relation("p1", "0", "livesIn", {"arg1": "0-7", "arg2": "27-32"})]


def _span(start, end, token_start, token_end, label):
    return {"start": start, "end": end, "token_start": token_start, "token_end": token_end, "label": label}


PER, WORK, LOC = _span(0, 7, 0, 1, "PER"), _span(14, 23, 3, 4, "WORK"), _span(27, 32, 6, 6, "LOC")


def _prodigy(doc_id, relations, spans=(PER, WORK, LOC), **extra):
    record = {"text": TEXT, "spans": list(spans), "relations": relations, **extra}
    if doc_id is not None:
        record["meta"] = {"id": doc_id}
    return record


def _write_jsonl(path, records):
    path.write_text("".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in records))
    return path


def test_prodigy_jsonl(tmp_path):
    records = [
        _prodigy("p1", [{"head": 1, "child": 4, "head_span": PER, "child_span": WORK, "label": "authorOf"},
                        {"head": 1, "child": 6, "label": "livesIn"}]),  # resolved through spans
        _prodigy("p2", [{"head": 1, "child": 4, "head_span": PER, "child_span": WORK, "label": "x"}],
                 answer="reject"),
        "",
        _prodigy(None, [{"head": 0, "child": 6, "label": "livesIn", "id": "r9"}]),  # token_start..token_end
        {"text": "no relations"},
    ]
    path = _write_jsonl(tmp_path / "rels.jsonl", records)
    rels = read_relations(path)
    assert rels == [Relation("p1", "0", "authorOf", {"arg1": "0-7", "arg2": "14-23"}),
                    Relation("p1", "1", "livesIn", {"arg1": "0-7", "arg2": "27-32"}),
                    Relation("1", "r9", "livesIn", {"arg1": "0-7", "arg2": "27-32"})]
    assert len(read_relations_jsonl(path, skip_rejected=False)) == 4
    # a token outside every span falls back to the tokens list
    tokens = [{"text": t, "start": TEXT.index(t), "end": TEXT.index(t) + len(t), "id": i}
              for i, t in enumerate(TEXT.split())]
    path = _write_jsonl(tmp_path / "tok.jsonl", [_prodigy("p", [{"head": 2, "child": 6, "label": "r"}],
                                                          tokens=tokens)])
    assert read_relations(path)[0].args == {"arg1": "8-13", "arg2": "27-32"}


@pytest.mark.parametrize(("line", "message"), [
    ("{not json", r"bad\.jsonl, line 2: invalid JSON"),
    ("[1, 2]", r"bad\.jsonl, line 2: expected a JSON object"),
    (json.dumps(_prodigy("q", {"head": 0})), r"line 2, document 'q': \"relations\" must be a list"),
    (json.dumps(_prodigy("q", [{"head": 0, "child": 6}])), r"line 2, document 'q', relations\[0\]: .*\"label\""),
    (json.dumps(_prodigy("q", [{"head": 0, "child": 6, "label": "r", "head_span": {"start": 0}}])),
     r"line 2, document 'q', relations\[0\]: \"head_span\" must be a dict"),
    (json.dumps(_prodigy("q", [{"head": 0, "child": 6, "label": "r", "head_span": {"start": 5, "end": 2}}])),
     r"line 2, document 'q', relations\[0\]: the head_span \[5, 2\) is out of range"),
    (json.dumps(_prodigy("q", [{"head": 2, "child": 6, "label": "r"}])),
     r"line 2, document 'q', relations\[0\]: no \"head_span\", and token 2 is in no span"),
    (json.dumps(_prodigy("q", [{"child": 6, "label": "r"}])), r"no \"head_span\" and no integer token index"),
    (json.dumps(_prodigy("q", ["r"])), r"relations\[0\]: expected"),
])
def test_prodigy_jsonl_errors(tmp_path, line, message):
    good = json.dumps(_prodigy("p", []))
    path = _write_jsonl(tmp_path / "bad.jsonl", [good, line])
    with pytest.raises(InputError, match=message):
        read_relations(path)


def test_read_relations_paths(tmp_path):
    with pytest.raises(InputError, match="no such file"):
        read_relations(tmp_path / "absent.jsonl")
    (tmp_path / "x.txt").write_text("hi")
    with pytest.raises(InputError, match="relations are read from"):
        read_relations(tmp_path / "x.txt")
    (tmp_path / "x.spacy").write_bytes(b"not a docbin")
    with pytest.raises(InputError, match="not a readable DocBin"):
        read_relations(tmp_path / "x.spacy")


def test_end_to_end_with_the_entity_evaluation(tmp_path):
    # key: PER, WORK, LOC; authorOf(PER, WORK), livesIn(PER, LOC)
    # response: PER, WORK as "Deep" only (partial), no LOC; authorOf(PER, WORK'), and a spurious livesIn(WORK', PER)
    work_r = _span(14, 18, 3, 3, "WORK")
    key = _write_jsonl(tmp_path / "key.jsonl", [_prodigy("p1", [
        {"head": 1, "child": 4, "head_span": PER, "child_span": WORK, "label": "authorOf"},
        {"head": 1, "child": 6, "head_span": PER, "child_span": LOC, "label": "livesIn"}])])
    response = _write_jsonl(tmp_path / "response.jsonl", [_prodigy("p1", [
        {"head": 1, "child": 3, "head_span": PER, "child_span": work_r, "label": "authorOf"},
        {"head": 3, "child": 1, "head_span": work_r, "child_span": PER, "label": "livesIn"}],
        spans=(PER, work_r))])
    ev = evaluate(key, response)
    entities = EntityAlignment.from_rows(ev.diff_rows())
    assert entities.key_to_response == {"p1": {"0-7": "0-7", "14-23": "14-18"}}
    assert entities.partial == {"p1": {"14-23"}} and entities.missing == {"p1": {"27-32"}}
    out = score_relations(read_relations(key), read_relations(response), entities).to_dict()
    assert [(u["side"], u["name"], u["reason"]) for u in out["unscored"]] == [("key", "livesIn", "missing arg2")]
    assert [(d["status"], d["name"]) for d in out["decisions"]] == [("partial", "authorOf"), ("spurious", "livesIn")]
    assert counts(out["all"]) == {**ZERO, "POS": 1, "ACT": 2, "PAR": 1, "SPU": 1}
    assert out["all"]["r"] == 0.5 and out["all"]["p"] == 0.25
