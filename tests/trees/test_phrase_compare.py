"""Brants and Skut (1998) section 4 on phrase structures (:mod:`spacy_anno_eval.trees.phrase_compare`)."""

from __future__ import annotations

import json

import pytest

from spacy_anno_eval.trees.brackets import parse_brackets
from spacy_anno_eval.trees.negra import parse_negra
from spacy_anno_eval.trees.phrase import from_brackets
from spacy_anno_eval.trees.phrase_compare import compare_phrase_files, compare_phrase_treebanks
from tests.conftest import shared_file

# The paper's figure 5/6 situation: "hie should be attached to S instead of VP"
KEY = """#BOS 1
he\tPPER\t--\tSB\t501
saw\tVVFIN\t--\tHD\t501
it\tPPER\t--\tOA\t500
today\tADV\t--\tMO\t500
#500\tVP\t--\tOC\t501
#501\tS\t--\t--\t0
#EOS 1
"""
RESPONSE = KEY.replace("today\tADV\t--\tMO\t500", "today\tADV\t--\tMO\t501")


def test_levels_of_a_misattached_word():
    c = compare_phrase_treebanks(parse_negra(KEY), parse_negra(RESPONSE))
    t = c.table4()
    # "it": VP 3-4 -> VP 3 (another node, the same category); "today": VP 3-4 -> S 1-4
    assert t["1_parent_node"] == 0.5 and t["1_parent_category"] == 0.75
    assert t["2_grammatical_function"] == 1.0
    assert (c.nodes_key, c.nodes_response, c.nodes_identical) == (2, 2, 1)
    assert t["3_identical_nodes"] == 0.5 and t["6_identical_structure"] == 0.0
    (s,) = c.sentences
    assert [(d.status, d.span) for d in s.nodes] == [("key_only", "3-4"), ("response_only", "3")]
    text = c.render_diff()
    assert "4 today  parent VP 3-4→S 1-4" in text and 'node 3-4  key only       VP/OC  "it today"' in text


def test_labels_functions_and_tags_count_at_their_levels():
    response = KEY.replace("#500\tVP\t--\tOC", "#500\tVP\t--\tSB").replace("it\tPPER", "it\tPDS")
    c = compare_phrase_treebanks(parse_negra(KEY), parse_negra(response))
    t = c.table4()
    assert t["3_identical_nodes"] == t["4_identical_nodes_labels"] == 1.0 and t["5_identical_nodes_functions"] == 0.5
    assert t["6_identical_structure"] == 1.0 and t["7_identical_annotation"] == 0.0
    data = c.to_dict()
    assert data["word"]["tag"]["correct"] == 3 and data["node"]["functional"]["identical"] == 1
    kinds = {(r["kind"], r["status"]) for r in c.diff_rows()}
    assert kinds == {("word", "tag"), ("node", "function")}


def test_unary_chains_pair_equal_labels_first():
    """4.1: a unary parent and child share a yield; here the NP of the response pairs with the key's inner NP
    (same label), the key's outer NP stays key-only."""
    key = [from_brackets(parse_brackets("(S (X (NP (D a) (N b))) (V c))")[0])]
    rsp = [from_brackets(parse_brackets("(S (NP (D a) (N b)) (V c))")[0])]
    c = compare_phrase_treebanks(key, rsp)
    (s,) = c.sentences
    assert (s.nodes_key, s.nodes_response, s.nodes_identical, s.nodes_labelled) == (3, 2, 2, 2)
    assert [(d.status, d.key_label) for d in s.nodes] == [("key_only", "X")]


def test_sentences_whose_words_differ_are_listed_not_compared():
    other = KEY.replace("saw\t", "sees\t")
    c = compare_phrase_treebanks(parse_negra(KEY + KEY.replace("#BOS 1", "#BOS 2").replace("#EOS 1", "#EOS 2")),
                                 parse_negra(other + KEY.replace("#BOS 1", "#BOS 2").replace("#EOS 1", "#EOS 2")))
    data = c.to_dict()
    assert data["n_compared"] == 1 and data["errors"][0]["message"].startswith("words differ at word 2")
    assert data["table4"]["7_identical_annotation"] == 1.0


def test_shared_alpino_sample(tmp_path):
    c = compare_phrase_files(shared_file("treebank", "disc_alpino3", "gold.export"),
                             shared_file("treebank", "disc_alpino3", "test.export"))
    t = c.table4()
    # 47 + 1 punctuation-free nodes per side, nothing deleted: 46 of 47 yields, 45 with the same label
    assert (c.nodes_key, c.nodes_response, c.nodes_identical) == (47, 47, 46)
    assert round(t["4_identical_nodes_labels"], 4) == round(45 / 47, 4)
    assert round(t["6_identical_structure"], 4) == round(2 / 3, 4) and round(t["7_identical_annotation"], 4) == 0.3333
    path = c.write_diff(tmp_path / "d.jsonl")
    rows = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines()]
    assert {r["status"] for r in rows if r["kind"] == "node"} == {"label", "key_only", "response_only"}


@pytest.mark.parametrize("fmt", ["tiger", "discbracket"])
def test_same_sentence_in_two_formats_compares_equal(fmt):
    from spacy_anno_eval.trees.readers import read_phrase_trees

    base = "tests/trees/data/sample"
    suffix = {"tiger": ".tiger.xml", "discbracket": ".discbracket"}[fmt]
    key, other = read_phrase_trees(f"{base}.export")[:1], read_phrase_trees(f"{base}{suffix}")[:1]
    first = compare_phrase_treebanks(key, other).sentences[0]
    assert not first.error and first.nodes_identical == first.nodes_key == first.nodes_response
