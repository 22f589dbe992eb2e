"""The coreference diff on hand-made documents: statuses, the CEAFm entity alignment, colours, pairs from a
mention matching, and its refusals; CorefUD empty nodes (between tokens, each side its own); then, on the
official scorer's TC-A cases, that the correct mentions are exactly what CEAFm counts."""

from __future__ import annotations

import warnings
from dataclasses import replace
from itertools import product
from pathlib import Path

import pytest

from spacy_anno_eval.coref.conll2012 import CorefDocument, read_conll2012
from spacy_anno_eval.coref.corefud import read_corefud
from spacy_anno_eval.coref.diff import STATUSES, document_diff, document_diffs, kept, total_counts
from spacy_anno_eval.coref.matching import align_mentions, kept_entities
from spacy_anno_eval.coref.metrics import score_documents
from spacy_anno_eval.errors import CorefWarning, InputError
from spacy_anno_eval.files import json_text
from tests.conftest import shared_file
from tests.coref.test_corefud import DOC, line

TOKENS = tuple(f"w{i}" for i in range(12))


def doc(*entities, contiguous=True, tokens=TOKENS, name="d"):
    return CorefDocument(name, tokens, tuple(tuple(e) for e in entities), contiguous=contiguous)


def statuses(diff):
    return [(m.key, m.response, m.status) for m in diff.mentions]


def test_identical_documents_are_all_correct():
    key = doc([(0, 1), (4, 4), (8, 9)], [(2, 2), (6, 7)], [(10, 10)])
    diff = document_diff(key, key)
    assert diff.counts == {"correct": 6, "moved": 0, "missing": 0, "spurious": 0}
    assert diff.alignment == ((0, 0), (1, 1), (2, 2)) and diff.response_colours == (0, 1, 2)
    assert all(e.agrees for e in diff.entities) and diff.n_agreeing == 3 == diff.n_colours
    assert [m.key for m in diff.mentions] == sorted(m for e in key.entities for m in e)  # document order
    assert diff.mentions[0].text == "w0 w1" and diff.mentions[0].key_words == (0, 1)


def test_a_split_entity_moves_the_smaller_half():
    key = doc([(0, 0), (3, 3), (6, 6)], [(9, 9)])
    response = doc([(0, 0)], [(3, 3), (6, 6)], [(9, 9)])
    diff = document_diff(key, response)
    # key entity 0 goes with the response entity sharing 2 mentions, not the one sharing its first mention
    assert dict(diff.alignment) == {0: 1, 1: 2}
    assert statuses(diff) == [((0, 0), (0, 0), "moved"), ((3, 3), (3, 3), "correct"), ((6, 6), (6, 6), "correct"),
                              ((9, 9), (9, 9), "correct")]
    # colours: the aligned response entities take their key entity's; the lone half a colour after the key's
    assert diff.response_colours == (2, 0, 1)
    first, _, lone = diff.entities
    assert (first.key_mentions, first.response_mentions, first.correct, first.key_moved) == (3, 2, 2, 1)
    assert (lone.key_entity, lone.response_entity, lone.response_moved, lone.text) == (None, 0, 1, "w0")
    assert not first.agrees and diff.n_agreeing == 1


def test_an_entity_merged_into_another_is_moved():
    key = doc([(0, 0), (2, 2)], [(5, 5), (7, 7), (9, 9)])
    response = doc([(0, 0), (2, 2), (5, 5), (7, 7), (9, 9)])
    diff = document_diff(key, response)
    assert dict(diff.alignment) == {1: 0}  # three shared beat two
    assert [m.status for m in diff.mentions] == ["moved", "moved", "correct", "correct", "correct"]
    assert diff.response_colours == (1,) and diff.n_colours == 2


def test_missing_and_spurious():
    key = doc([(0, 1), (4, 4)], [(6, 7)])
    response = doc([(0, 1), (4, 4), (10, 11)], [(2, 2)])
    diff = document_diff(key, response)
    assert statuses(diff) == [((0, 1), (0, 1), "correct"), (None, (2, 2), "spurious"),
                              ((4, 4), (4, 4), "correct"), ((6, 7), None, "missing"),
                              (None, (10, 11), "spurious")]
    assert diff.counts == {"correct": 2, "moved": 0, "missing": 1, "spurious": 2}
    # the key's second entity has no partner, the response's second is a colour of its own
    assert dict(diff.alignment) == {0: 0} and diff.response_colours == (0, 2)
    rows = {e.colour: e for e in diff.entities}
    assert (rows[0].spurious, rows[1].missing, rows[2].spurious, rows[2].key_entity) == (1, 1, 1, None)
    key_mentions = sum(1 for m in diff.mentions if m.key)
    assert key_mentions == diff.counts["correct"] + diff.counts["moved"] + diff.counts["missing"]


def test_pairs_from_a_matching_align_other_words():
    key = doc([(0, 2), (5, 5)])
    response = doc([(1, 2), (5, 5)])
    exact = document_diff(key, response)
    assert exact.counts == {"correct": 1, "moved": 0, "missing": 1, "spurious": 1}
    paired = document_diff(key, response, {(1, 2): (0, 2), (5, 5): (5, 5)})
    assert paired.counts == {"correct": 2, "moved": 0, "missing": 0, "spurious": 0}
    first = paired.mentions[0]
    assert (first.key, first.response, first.key_words, first.response_words) == ((0, 2), (1, 2), (0, 1, 2), (1, 2))
    assert first.text == "w0 w1 w2"  # the key's words
    # the pairs are the whole alignment: a mention they leave out is unaligned, even if identical
    assert document_diff(key, response, {(1, 2): (0, 2)}).counts["missing"] == 1


def test_pairs_are_checked():
    key, response = doc([(0, 2), (5, 5)]), doc([(1, 2), (5, 5)])
    with pytest.raises(InputError, match="not in the response"):
        document_diff(key, response, {(3, 3): (0, 2)})
    with pytest.raises(InputError, match="not in the key"):
        document_diff(key, response, {(1, 2): (1, 2)})
    with pytest.raises(InputError, match="one-to-one"):
        document_diff(key, response, {(1, 2): (0, 2), (5, 5): (0, 2)})


def test_ties_and_colours_are_deterministic():
    """An entity split in two equal halves stays with the half that holds its first mention, whatever the order
    of the response's entities; the same input gives the same colours."""
    key = doc([(1, 1), (4, 4)], [(8, 8)])
    one = doc([(1, 1)], [(4, 4)], [(8, 8)])
    other = doc([(4, 4)], [(1, 1)], [(8, 8)])
    a, b = document_diff(key, one), document_diff(key, other)
    assert dict(a.alignment) == {0: 0, 1: 2} and dict(b.alignment) == {0: 1, 1: 2}
    assert [m.status for m in a.mentions] == [m.status for m in b.mentions] == ["correct", "moved", "correct"]
    assert a.response_colours == (0, 2, 1) and b.response_colours == (2, 0, 1)
    assert all(document_diff(key, one) == a for _ in range(5))


def test_discontinuous_mentions_of_corefud():
    key = doc([(0, 1, 4), (7,)], [(9,)], contiguous=False)
    response = doc([(0, 1, 4)], [(7,), (9,)], contiguous=False)
    diff = document_diff(key, response)
    assert diff.mentions[0].text == "w0 w1 ... w4" and diff.mentions[0].key_words == (0, 1, 4)
    assert diff.counts == {"correct": 2, "moved": 1, "missing": 0, "spurious": 0}


def test_refusals():
    with pytest.raises(InputError, match="tokens"):
        document_diff(doc([(0, 0)]), doc([(0, 0)], tokens=TOKENS[:5]))
    with pytest.raises(InputError, match="one entity"):
        document_diff(doc([(0, 0)], [(0, 0), (2, 2)]), doc([(0, 0)]))
    with pytest.raises(InputError, match="not within its 12 tokens"):
        document_diff(doc([(10, 12)]), doc([(0, 0)]))
    with pytest.raises(InputError, match="documents"):
        document_diffs([doc([(0, 0)])], [])


def test_singletons_removed_as_scored_and_totals():
    key = doc([(0, 0), (2, 2)], [(5, 5)])
    response = doc([(0, 0), (2, 2)], [(7, 7)])
    assert kept(key, keep_singletons=False).entities == (((0, 0), (2, 2)),)
    (full,) = document_diffs([key], [response])
    (scored,) = document_diffs([key], [response], [{(0, 0): (0, 0), (2, 2): (2, 2), (7, 7): (5, 5)}],
                               keep_singletons=False)
    assert full.counts == {"correct": 2, "moved": 0, "missing": 1, "spurious": 1}
    assert scored.counts == {"correct": 2, "moved": 0, "missing": 0, "spurious": 0}  # the pair (7, 7) dropped
    assert total_counts([full, scored]) == {"correct": 4, "moved": 0, "missing": 1, "spurious": 1}


def test_to_dict_is_json():
    diff = document_diff(doc([(0, 1), (4, 4)]), doc([(0, 1)], [(4, 4)]))
    data = diff.to_dict()
    assert set(data["counts"]) == set(STATUSES) and data["mentions"][0]["key"] == [0, 1]
    assert data["entities"][0]["key_moved"] == 1 and data["agreeing"] == 0
    assert json_text(data)


# test_corefud's DOC (its empty node 4.1 holds a zero of Ada), with "Babbage 4.1 met" one more mention (e4) around
# the zero and a second sentence; the key has an empty node 5.1 of its own (no mention), the response one at 2.1
# holding a zero of its own (spurious). Their tokens are the same.
MET = line("5", "met", "(e2[2/2]-person-1-)e4)")
ZERO_BASE = (DOC.replace(line("4", "Babbage", "(e3-person-1-)"), line("4", "Babbage", "(e4-x-1-(e3-person-1-)"))
             .replace(line("5", "met", "(e2[2/2]-person-1-)"),
                      "\n".join([MET, "", "# sent_id = 1b", line("1", "She", "(e1-person-1-)"), line("2", "smiled")])))
ZERO_KEY = ZERO_BASE.replace(MET, MET + "\n" + line("5.1", "se"))
ZERO_RESPONSE = ZERO_BASE.replace(line("2", "Lovelace", "e1)"),
                                  line("2", "Lovelace", "e1)") + "\n" + line("2.1", "pro", "(e9-x-1-)"))


def zero_docs(folder: Path) -> tuple[list[CorefDocument], list[CorefDocument]]:
    """The key's and the response's documents of ZERO_KEY and ZERO_RESPONSE, written to ``folder``."""
    read = []
    for name, text in (("key.conllu", ZERO_KEY), ("response.conllu", ZERO_RESPONSE)):
        (folder / name).write_text(text, encoding="utf8")
        read.append(read_corefud(folder / name))
    return read[0], read[1]


def test_empty_nodes_of_corefud_each_side_its_own(tmp_path):
    key, response = zero_docs(tmp_path)
    k, r = key[0], response[0]
    assert k.tokens == r.tokens and k.empty == {3.001, 4.001} and r.empty == {1.001, 3.001}
    diff, plain = document_diffs(key, response)
    assert statuses(diff) == [((0, 1), (0, 1), "correct"), (None, (1.001,), "spurious"), ((2, 4), (2, 4), "correct"),
                              ((3, 3.001, 4), (3, 3.001, 4), "correct"), ((3,), (3,), "correct"),
                              ((3.001,), (3.001,), "correct"), ((5,), (5,), "correct")]
    assert diff.counts == {"correct": 6, "moved": 0, "missing": 0, "spurious": 1}
    texts = {m.key or m.response: m.text for m in diff.mentions}
    # the zero, the response's own zero, a mention around a zero, a discontinuous mention: mention_text's
    assert (texts[(3.001,)], texts[(1.001,)], texts[(3, 3.001, 4)], texts[(2, 4)]) == ("_", "pro", "Babbage _ met",
                                                                                        "and ... met")
    zero = next(m for m in diff.mentions if m.key == (3.001,))
    assert k.is_zero(zero.key) and zero.key_words == zero.response_words == (3.001,)
    spurious = next(m for m in diff.mentions if m.status == "spurious")
    assert r.is_zero(spurious.response) and diff.response_colours[spurious.response_entity] == 4  # a colour of its own
    assert plain.counts == {"correct": 2, "moved": 0, "missing": 0, "spurious": 0}  # d2: no empty node
    # scored without zeros: both zeros are gone, e1 keeps its other mentions
    no_zeros, _ = document_diffs(key, response, keep_zeros=False)
    assert no_zeros.counts == {"correct": 5, "moved": 0, "missing": 0, "spurious": 0}
    assert not any(k.is_zero(m.key) or r.is_zero(m.response) for m in no_zeros.mentions)
    assert ((3, 3.001, 4), (3, 3.001, 4), "correct") in statuses(no_zeros)  # around a zero, not a zero: kept
    # a partial matching's pairs (identical ones included) give the same picture
    pairs = align_mentions(k, r, kept_entities(k), kept_entities(r), "partial")
    assert document_diff(k, r, pairs).counts == diff.counts


def test_a_word_is_a_token_or_one_of_the_sides_own_empty_nodes():
    zero = CorefDocument("d", TOKENS, (((2,), (2.001,)),), contiguous=False, empty=frozenset({2.001}),
                         empty_forms={2.001: "pro"})
    plain = doc([(2,)], contiguous=False)
    diff = document_diff(zero, plain)  # the response has no empty node: its zero is missing
    assert statuses(diff) == [((2,), (2,), "correct"), ((2.001,), None, "missing")]
    assert diff.mentions[1].text == "pro"
    with pytest.raises(InputError, match=r"the key's mention \(2.001,\) is not within its 12 tokens and 1 empty node$"):
        document_diff(replace(zero, empty=frozenset({5.001})), plain)
    with pytest.raises(InputError, match="the response's mention"):  # the key's empty node is not the response's
        document_diff(plain, replace(zero, empty=frozenset()))
    with pytest.raises(InputError, match="not within its 12 tokens$"):
        document_diff(doc([(2.5,)], contiguous=False), plain)
    # an empty node before the first token (CoNLL-U 0.1) sits at -0.999
    first = CorefDocument("d", TOKENS, (((-0.999,), (0, 1)),), contiguous=False, empty=frozenset({-0.999}),
                          empty_forms={-0.999: "pro"})
    assert [(m.text, m.status) for m in document_diff(first, first).mentions] == [("pro", "correct"),
                                                                                 ("w0 w1", "correct")]


def test_kept_is_the_rule_the_scores_use(tmp_path):
    key, _ = zero_docs(tmp_path)
    k = key[0]
    assert kept(k) is k  # nothing removed: the document itself
    for singletons, zeros in product((True, False), repeat=2):
        assert kept(k, singletons, zeros).entities == tuple(kept_entities(k, singletons, zeros))
    assert kept(k, keep_zeros=False).entities[0] == ((0, 1), (5,))


@pytest.mark.parametrize("n", range(1, 14))
def test_correct_mentions_are_what_ceafm_counts(n):
    """On the official scorer's TC-A cases: the correct mentions are the mentions the CEAFm alignment shares,
    Φ(g*) = R(CEAFm) × key mentions."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", CorefWarning)  # A7-A9 repeat mentions on purpose
        key = read_conll2012(shared_file("coreference", "conll2012", "DataFiles", "TC-A.key"))
        response = read_conll2012(shared_file("coreference", "conll2012", "DataFiles", f"TC-A-{n}.response"))
    (diff,) = document_diffs(key, response)
    ceafm = score_documents(key, response).figures()["ceafm"]
    n_key = sum(len(e) for e in key[0].entities)
    assert diff.counts["correct"] == round(ceafm["r"] * n_key)
    assert sum(diff.counts[s] for s in ("correct", "moved", "missing")) == n_key
