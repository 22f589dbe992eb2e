"""Partial and head mention matching (the CorefUD scorer's rules), zero mentions, and the first difference between a
key and a response, on hand-made documents."""

from __future__ import annotations

import pytest

from spacy_anno_eval.coref.conll2012 import CorefDocument
from spacy_anno_eval.coref.matching import align_document, align_mentions, check_match, kept_entities
from spacy_anno_eval.coref.metrics import first_difference, score_documents
from spacy_anno_eval.errors import ConfigError, InputError

WORDS = tuple("the old man saw him and the dog barked".split())


def doc(entities, heads=None, empty=(), words=WORDS, name="d"):
    return CorefDocument(name, words, tuple(tuple(e) for e in entities), contiguous=False, heads=heads or {},
                         empty=frozenset(empty), sentences=((0, "s1"), (5, "s2")))


KEY = doc([[(0, 1, 2), (4,)], [(6, 7)]], heads={(0, 1, 2): 2, (4,): 4, (6, 7): 7})


def test_partial_matching_takes_a_response_inside_the_key_that_holds_its_head():
    response = doc([[(1, 2), (4,)], [(7,)]], heads={(1, 2): 2, (4,): 4, (7,): 7})
    pairs = align_mentions(KEY, response, KEY.entities, response.entities, "partial")
    assert pairs == {(1, 2): (0, 1, 2), (4,): (4,), (7,): (6, 7)}
    assert score_documents([KEY], [response], match="partial").figures()["muc"]["f"] == 1.0
    assert score_documents([KEY], [response], match="exact").figures()["mentions"]["r"] == pytest.approx(1 / 3)


def test_partial_matching_refuses_a_response_without_the_key_head_or_outside_the_key():
    response = doc([[(0, 1), (3, 4)]], heads={(0, 1): 0, (3, 4): 4})  # lacks the head 2; reaches outside (4,)
    assert align_mentions(KEY, response, KEY.entities, response.entities, "partial") == {}


def test_head_matching_pairs_mentions_by_head_and_weighs_their_overlap():
    response = doc([[(0, 1, 2, 3), (2,)]], heads={(0, 1, 2, 3): 2, (2,): 2})
    # both response mentions have the key's head 2: the larger overlap (3/3 against 1/3) wins
    pairs = align_mentions(KEY, response, KEY.entities, response.entities, "head")
    assert pairs == {(0, 1, 2, 3): (0, 1, 2)}


def test_the_same_words_with_another_head_are_not_identical_under_head_matching():
    """The CorefUD scorer pairs identical mentions first; under head matching identical means the same words and
    the same head. A response mention with the key's words but another head stays a mention of its own, which no
    key mention equals, even though its words are a key mention's."""
    response = doc([[(0, 1, 2), (4,)]], heads={(0, 1, 2): 0, (4,): 4})
    aligned = align_document(KEY, response, match="head")
    assert aligned.response == [((-1, 0, 1, 2), (4,))]
    assert align_document(KEY, response, match="partial").response == [((0, 1, 2), (4,))]
    assert score_documents([KEY], [response], match="head").figures()["mentions"]["p"] == 0.5


def test_zero_mentions_are_dropped_after_singletons_as_the_scorer_orders_it():
    key = doc([[(0, 1, 2), (3,)], [(5,)]], empty={3})  # (3,) is a zero: its head is an empty node
    assert kept_entities(key, keep_singletons=True, keep_zeros=False) == [((0, 1, 2),), ((5,),)]
    # singletons first (the entity of (5,)), then zeros: the first entity keeps one mention
    assert kept_entities(key, keep_singletons=False, keep_zeros=False) == [((0, 1, 2),)]
    assert kept_entities(key, keep_singletons=False, keep_zeros=True) == [((0, 1, 2), (3,))]


def test_partial_and_head_matching_need_the_key_heads():
    plain = CorefDocument("d", WORDS, (((0, 1),),))
    with pytest.raises(ConfigError, match="head matching compares mention heads, and the key gives none"):
        score_documents([plain], [plain], match="head")
    with pytest.raises(ConfigError, match="must be one of exact, partial, head, got 'fuzzy'"):
        check_match("fuzzy")


def test_the_first_difference_is_named_by_sentence_and_word():
    other = doc([], words=WORDS[:6] + ("cat",) + WORDS[7:])
    assert first_difference(KEY, other) == "sentence 's2', word 2 is 'the' in the key and 'cat' in the response"
    shorter = doc([], words=WORDS[:7])
    assert "the key has 9 tokens and the response 7" in first_difference(KEY, shorter)
    with pytest.raises(InputError, match="document 1 \\('d'\\): sentence 's2', word 2"):
        score_documents([KEY], [other])
    assert first_difference(KEY, doc([[(4,)]])) is None
    renumbered = CorefDocument("d", WORDS, (), contiguous=False, sentences=((0, "s1"), (5, "s9")))
    assert first_difference(KEY, renumbered) == ("sentence 2 is 's2' (from token 6) in the key and 's9' (from "
                                                 "token 6) in the response")
