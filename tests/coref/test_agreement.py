"""Agreement of N annotators on coreference (:mod:`spacy_anno_eval.coref.agreement`): each pair scored both ways
and averaged; the figures of a direction are score_documents' own; exact-matching F is the same both ways, BLANC
under the Perl rule and partial matching are not, and the mean is symmetric whatever the setting."""

from __future__ import annotations

import json

import pytest

from spacy_anno_eval.coref.agreement import MATRIX_METRICS, CorefAgreement, check_metric, coref_agreement
from spacy_anno_eval.coref.conll2012 import CorefDocument, read_conll2012
from spacy_anno_eval.coref.metrics import METRICS, score_documents
from spacy_anno_eval.errors import ConfigError, InputError
from tests.conftest import shared_file

#: the metrics whose F is the same both ways under exact matching (R and P swap)
SYMMETRIC = ("muc", "bcub", "ceafm", "ceafe", "lea", "mentions")
TOKENS = ("Ada", "met", "Bob", "and", "she", "smiled")


def doc(*entities: tuple[tuple[int, int], ...], name: str = "d", tokens: tuple[str, ...] = TOKENS) -> CorefDocument:
    return CorefDocument(name, tokens, tuple(entities))


@pytest.fixture(scope="module")
def three() -> dict[str, list[CorefDocument]]:
    """The official scorer's case A: its key and two responses, read as three annotators."""
    files = {"key": "TC-A.key", "r1": "TC-A-1.response", "r2": "TC-A-2.response"}
    return {name: read_conll2012(shared_file("coreference", "conll2012", "DataFiles", f)) for name, f in files.items()}


def test_a_pair_is_score_documents_both_ways_and_their_mean(three):
    result = coref_agreement(three)
    assert result.annotators == ("key", "r1", "r2") and result.n_docs == 1
    assert [(p.a, p.b) for p in result.pairs] == [("key", "r1"), ("key", "r2"), ("r1", "r2")]
    for p in result.pairs:
        forward = score_documents(three[p.a], three[p.b], blanc="corefud").figures()
        backward = score_documents(three[p.b], three[p.a], blanc="corefud").figures()
        assert p.a_as_key == forward and p.b_as_key == backward
        for metric, values in p.figures.items():
            for k, v in values.items():
                assert v == pytest.approx((forward[metric][k] + backward[metric][k]) / 2), (metric, k)
    # TC-A-1 is the key itself: every figure 1; TC-A-2 keeps half the key's mentions, all correct: P 1, R < 1
    assert all(v == 1.0 for f in result.pair("key", "r1").figures.values() for v in f.values())
    kr2 = result.pair("r2", "key")  # either order names the pair
    assert kr2.a_as_key["muc"]["p"] == 1.0 and kr2.a_as_key["muc"]["r"] < 1.0


def test_exact_matching_f_is_the_same_both_ways(three):
    result = coref_agreement(three)
    for p in result.pairs:
        for metric in (*SYMMETRIC, "blanc"):  # BLANC too under the CorefUD rule, the default
            one, other = p.a_as_key[metric], p.b_as_key[metric]
            assert one["f"] == pytest.approx(other["f"]), (p.a, p.b, metric)
            if metric != "blanc":
                assert (one["r"], one["p"]) == pytest.approx((other["p"], other["r"])), (p.a, p.b, metric)
                assert p.figures[metric]["r"] == pytest.approx(p.figures[metric]["p"])
        assert p.a_as_key["conll"]["f"] == pytest.approx(p.b_as_key["conll"]["f"])


def test_means_and_the_matrix(three):
    result = coref_agreement(three)
    conll = {(p.a, p.b): p.figures["conll"]["f"] for p in result.pairs}
    assert result.mean_of_pairs["conll"]["f"] == pytest.approx(sum(conll.values()) / 3)
    assert result.annotator_means["r2"]["conll"]["f"] == pytest.approx((conll["key", "r2"] + conll["r1", "r2"]) / 2)
    matrix = result.matrix()
    assert matrix["metric"] == "conll" and matrix["annotators"] == ["key", "r1", "r2"]
    cells = matrix["cells"]
    assert [cells[i][i] for i in range(3)] == [None, None, None]  # an annotator is not compared with itself
    assert cells[0][2] == cells[2][0] == conll["key", "r2"] and cells[0][1] == 1.0
    assert matrix["annotator_mean"][2] == result.annotator_means["r2"]["conll"]["f"]
    assert matrix["mean_of_pairs"] == result.mean_of_pairs["conll"]["f"]
    assert result.matrix("lea")["cells"][1][2] == result.pair("r1", "r2").figures["lea"]["f"]
    with pytest.raises(ConfigError, match="metric must be one of conll, muc, bcub, ceafm, ceafe, blanc, lea, "
                                          "mentions, got 'b3'"):
        result.matrix("b3")
    assert MATRIX_METRICS == ("conll", *METRICS) and check_metric("blanc") == "blanc"
    with pytest.raises(ConfigError, match="no annotator 'r9'; the annotators are key, r1, r2"):
        result.pair("key", "r9")


def test_to_dict_is_json_ready_with_every_pair_and_document(three):
    result = coref_agreement(three, keep_singletons=False)
    data = json.loads(json.dumps(result.to_dict(metric="muc")))
    assert set(data) == {"annotators", "n_docs", "documents", "settings", "metrics", "pairs", "annotator_means",
                         "mean_of_pairs", "matrix"}
    assert data["settings"] == {"keep_singletons": False, "blanc": "corefud"}
    assert data["matrix"]["metric"] == "muc" and data["metrics"] == list(MATRIX_METRICS)
    pair = data["pairs"][1]
    assert set(pair) == {"i", "j", "a", "b", "figures", "a_as_key", "b_as_key", "per_doc"}
    assert (pair["i"], pair["j"], pair["a"], pair["b"]) == (0, 2, "key", "r2")
    assert [d["id"] for d in pair["per_doc"]] == data["documents"] == ["(LuoTestCase);"]
    assert pair["per_doc"][0]["muc"] == pair["figures"]["muc"]  # one document: its figures are the pair's
    assert "per_doc" not in result.to_dict(per_doc=False)["pairs"][0]


def test_blanc_under_the_perl_rule_depends_on_the_key_and_the_mean_does_not():
    """A has no coreference link (three singletons), B links Ada and Bob. Taking A as key, the Perl rule scores
    the non-coreference links alone: R 2/3, P 2/2, F 0.8. Taking B as key, both kinds: coreference F 0 (A has
    none), non-coreference R 2/2, P 2/3, F 0.8; BLANC F 0.4. The CorefUD rule scores A's missing kind as 0 both
    ways: 0.4 either way."""
    a = [doc(((0, 0),), ((2, 2),), ((4, 4),))]
    b = [doc(((0, 0), (2, 2)), ((4, 4),))]
    perl = coref_agreement({"A": a, "B": b}, blanc="conll").pairs[0]
    assert perl.a_as_key["blanc"]["f"] == pytest.approx(0.8) and perl.b_as_key["blanc"]["f"] == pytest.approx(0.4)
    assert perl.figures["blanc"]["f"] == pytest.approx(0.6)
    reversed_ = coref_agreement({"B": b, "A": a}, blanc="conll").pairs[0]
    assert reversed_.figures["blanc"] == pytest.approx(perl.figures["blanc"])  # the mean: the same in any order
    corefud = coref_agreement({"A": a, "B": b}).pairs[0]
    assert corefud.a_as_key["blanc"]["f"] == pytest.approx(0.4) == corefud.b_as_key["blanc"]["f"]
    for metric in SYMMETRIC:  # under both rules the other metrics are the same both ways
        assert perl.a_as_key[metric]["f"] == pytest.approx(perl.b_as_key[metric]["f"]), metric


def test_partial_matching_reads_the_keys_heads_and_the_mean_evens_it_out():
    """A marks 'The old man' (head 'man'), B 'man': as key, A's mention holds B's (with its head), a partial
    match; as key, B's one-word mention cannot hold A's three words. MUC F 1 one way, 0 the other, 0.5 the
    mean."""
    tokens = ("The", "old", "man", "said", "he")
    a = [CorefDocument("d", tokens, (((0, 1, 2), (4,)),), contiguous=False, heads={(0, 1, 2): 2, (4,): 4})]
    b = [CorefDocument("d", tokens, (((2,), (4,)),), contiguous=False, heads={(2,): 2, (4,): 4})]
    pair = coref_agreement({"A": a, "B": b}, match="partial").pairs[0]
    assert pair.a_as_key["muc"]["f"] == 1.0 and pair.b_as_key["muc"]["f"] == 0.0
    assert pair.figures["muc"] == {"r": 0.5, "p": 0.5, "f": 0.5}
    assert coref_agreement({"A": a, "B": b}).pairs[0].figures["muc"]["f"] == 0.0  # exact: no mention in common


def test_different_documents_are_an_input_error_naming_both_annotators(three):
    other = read_conll2012(shared_file("coreference", "conll2012", "DataFiles", "TC-B.key"))
    with pytest.raises(InputError, match=r"annotators 'key' \(as key\) and 'other': document 1\b"):
        coref_agreement({"key": three["key"], "other": other})
    short = [doc(((0, 0),), tokens=TOKENS[:3])]
    with pytest.raises(InputError, match="annotators 'A' \\(as key\\) and 'B': document 1"):
        coref_agreement({"A": [doc(((0, 0),))], "B": short})
    with pytest.raises(InputError, match="documents"):
        coref_agreement({"A": [doc(((0, 0),)), doc(((0, 0),), name="e")], "B": [doc(((0, 0),))]})


@pytest.mark.parametrize(("annotations", "options", "message"), [
    ({"A": [doc(((0, 0),))]}, {}, "two or more annotators, got 1 \\(A\\)"),
    ({}, {}, "two or more annotators, got 0"),
    ([doc(((0, 0),))], {}, "map each annotator's name to its documents"),
    ({"A": [doc(((0, 0),))], 3: [doc(((0, 0),))]}, {}, "non-empty string, got 3"),
    ({"A": [doc(((0, 0),))], "B": "file.conll"}, {}, "annotator 'B': give its documents as a sequence"),
    ({"A": [doc(((0, 0),))], "B": [{"name": "d"}]}, {}, "annotator 'B': each document must be a CorefDocument"),
    ({"A": [doc(((0, 0),))], "B": [doc(((0, 0),))]}, {"blanc": "perl"}, "blanc must be one of conll, corefud"),
    ({"A": [doc(((0, 0),))], "B": [doc(((0, 0),))]}, {"keep_singletons": "no"}, "keep_singletons must be True"),
    ({"A": [doc(((0, 0),))], "B": [doc(((0, 0),))]}, {"matching": "head"},
     "no setting 'matching'; the settings are keep_singletons, blanc, match"),
])
def test_bad_arguments_are_config_errors_saying_what_was_given(annotations, options, message):
    with pytest.raises(ConfigError, match=message):
        coref_agreement(annotations, **options)


def test_an_annotator_without_documents_is_an_input_error():
    with pytest.raises(InputError, match="annotator 'B' has no document"):
        coref_agreement({"A": [doc(((0, 0),))], "B": []})


def test_the_result_is_frozen_and_importable_from_the_family():
    import spacy_anno_eval.coref as coref

    assert coref.coref_agreement is coref_agreement and coref.CorefAgreement is CorefAgreement
    result = coref_agreement({"A": [doc(((0, 0), (4, 4)))], "B": [doc(((0, 0),), ((4, 4),))]})
    with pytest.raises(AttributeError):
        result.annotators = ()  # type: ignore[misc]
