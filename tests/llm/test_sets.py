"""The set mode (spacy_anno_eval/llm/sets.py): UniversalNER's normalisation and counting, multisets, documents
missing on one side.

UniversalNER: https://github.com/universal-ner/universal-ner, ``src/eval/evaluate.py`` (``normalize_answer``,
``parser``, ``NEREvaluator``). The strings below are gold answers of its own test data
(``src/eval/test_data/CrossNER_AI.json``); each expected value is what ``normalize_answer`` gives for it.
"""

from __future__ import annotations

import warnings

import pytest

from spacy_anno_eval.errors import ConfigError, CoverageWarning, InputError, UndefinedFigureWarning
from spacy_anno_eval.llm.extractions import Extraction, Extractions
from spacy_anno_eval.llm.sets import SetScores, normalize_universalner, set_scores


@pytest.mark.parametrize(("answer", "normalized"), [
    # CrossNER_AI gold answers
    ("k -NN classification", "k nn classification"),
    ("Johnson-Laird", "johnsonlaird"),  # punctuation is dropped, not replaced by a space
    ("AT & T", "at t"),
    ("Komatsu ( Shanghai ) Ltd.", "komatsu shanghai ltd"),
    ("Fleiss ' kappa", "fleiss kappa"),
    ("Cohen 's kappa", "cohen s kappa"),
    ("Association for the Advancement of Artificial Intelligence",
     "association for advancement of artificial intelligence"),
    ("Instituto Nacional de Antropología y Historia", "instituto nacional de antropología y historia"),
    ("Académie française", "académie française"),
    (".P. Viola", "p viola"),
    ("U.K. Kinoplastikon", "uk kinoplastikon"),
    # the rule's edges: articles as words only, after punctuation is gone; ASCII punctuation only
    ("The Hague", "hague"),
    ("THE   BEATLES", "beatles"),
    ("Theano", "theano"),
    ("a-b", "ab"),
    ("the", ""),
    ("C++", "c"),
    ("“quoted” — dash", "“quoted” — dash"),
    ("Ça\u00a0va", "ça va"),
])
def test_universalner_normalisation(answer, normalized):
    assert normalize_universalner(answer) == normalized


def test_universalner_counting_with_dedupe_is_its_evaluator():
    """NEREvaluator on two queries: its parser keeps each normalised answer once, then counts answers found in the
    gold. gold ["Geoffrey Hinton", "the Royal Society"] / pred ["geoffrey hinton", "Royal Society",
    "Royal Society", "Toronto"]; gold ["AAAI"] / pred []: correct 2, predicted 3, gold 3."""
    key = {"q1": [("Geoffrey Hinton", "person"), ("the Royal Society", "organisation")], "q2": [("AAAI", "conf")]}
    response = {"q1": [("geoffrey hinton", "person"), ("Royal Society", "organisation"),
                       ("Royal Society", "organisation"), ("Toronto", "location")], "q2": []}
    once = set_scores(key, response, dedupe=True)
    assert (once.micro.correct, once.micro.response, once.micro.key) == (2, 3, 3)
    assert once.figures() == pytest.approx({"p": 2 / 3, "r": 2 / 3, "f": 2 / 3})
    counted = set_scores(key, response)  # multisets: the repeat is one spurious pair more
    assert (counted.micro.correct, counted.micro.response, counted.micro.key) == (2, 4, 3)


def test_multisets_count_a_repeated_string_twice():
    key = {"d1": [("Paris", "LOC"), ("Paris", "LOC"), ("Paris", "PER")]}
    one = set_scores(key, {"d1": [("paris", "LOC")]})
    assert (one.micro.correct, one.micro.key, one.micro.response) == (1, 3, 1)
    two = set_scores(key, {"d1": [("Paris", "LOC"), ("Paris", "LOC"), ("Paris", "LOC")]})
    assert (two.micro.correct, two.micro.key, two.micro.response) == (2, 3, 3)
    assert (two.labels["LOC"].correct, two.labels["LOC"].key, two.labels["LOC"].response) == (2, 2, 3)
    assert (two.labels["PER"].correct, two.labels["PER"].key, two.labels["PER"].response) == (0, 1, 0)


def test_labels_compare_as_given_and_texts_by_the_rule():
    s = set_scores({"d1": [("The Beatles", "BAND")]}, {"d1": [("beatles", "band")]})
    assert s.micro.correct == 0
    assert set_scores({"d1": [("The Beatles", "BAND")]}, {"d1": [("beatles", "BAND")]}).micro.correct == 1
    assert set_scores({"d1": [("The Beatles", "BAND")]}, {"d1": [("beatles", "BAND")]}, "none").micro.correct == 0


def test_documents_missing_on_one_side_are_counted_listed_and_told():
    key = {"d1": [("Ada", "PER")], "d2": [("Bob", "PER")]}
    response = {"d1": [("Ada", "PER")], "d3": [("Eve", "PER")]}
    with pytest.warns(CoverageWarning, match=r"1 document\(s\) only in the key .*\['d2'\].* 1 only in the response"):
        s = set_scores(key, response)
    assert (s.micro.correct, s.micro.key, s.micro.response) == (1, 2, 2)
    assert s.key_only == ["d2"] and s.response_only == ["d3"]
    assert s.to_dict()["documents"] == {"compared": 1, "key_only": ["d2"], "response_only": ["d3"]}


def test_no_document_in_common_is_refused():
    with pytest.raises(InputError, match="no document id in common"):
        set_scores({"a": [("x", "L")]}, {"b": [("x", "L")]})
    with pytest.raises(InputError, match="nothing to compare"):
        set_scores({}, {})


def test_to_dict_micro_and_per_label_with_undefined_ratios_warned():
    s = set_scores({"d1": [("Ada", "PER")]}, {"d1": [("Ada", "PER"), ("London", "LOC")]})
    with pytest.warns(UndefinedFigureWarning, match="recall of LOC"):
        out = s.to_dict()
    assert out["micro"] == {"correct": 1, "key": 1, "response": 2, "p": 0.5, "r": 1.0, "f": pytest.approx(2 / 3)}
    assert out["labels"]["LOC"] == {"correct": 0, "key": 0, "response": 1, "p": 0.0, "r": 0.0, "f": 0.0}
    assert out["mode"] == "set" and out["normalize"] == "universalner" and out["dedupe"] is False
    assert s.figures("PER") == {"p": 1.0, "r": 1.0, "f": 1.0}
    with pytest.raises(ConfigError, match="no pair has the label 'ORG'; the labels are LOC, PER"):
        s.figures("ORG")


def test_zero_division_is_the_packages_rule():
    s = set_scores({"d1": [("Ada", "PER")]}, {"d1": []}, zero_division=1.0)
    with pytest.warns(UndefinedFigureWarning, match="precision of micro"):
        assert s.figures() == {"p": 1.0, "r": 0.0, "f": 0.0}


def test_extractions_are_taken_as_they_are_read():
    extractions = Extractions({"d1": [Extraction("d1", "PER", "Ada Lovelace", 0)], "d2": []})
    s = set_scores(extractions, {"d1": [("ada lovelace", "PER")], "d2": []})
    assert (s.micro.correct, s.micro.key, s.micro.response) == (1, 1, 1) and set(s.documents) == {"d1", "d2"}


def test_merge_adds_counts_and_refuses_other_settings():
    a = set_scores({"d1": [("Ada", "PER")]}, {"d1": [("Ada", "PER")]})
    b = set_scores({"d2": [("Bob", "PER")]}, {"d2": [("Rob", "PER")]})
    both = a.merge(b)
    assert (both.micro.correct, both.micro.key, both.micro.response) == (1, 2, 2)
    assert both.labels["PER"].correct == 1 and set(both.documents) == {"d1", "d2"}
    whole = set_scores({"d1": [("Ada", "PER")], "d2": [("Bob", "PER")]},
                       {"d1": [("Ada", "PER")], "d2": [("Rob", "PER")]})
    assert vars(whole.micro) == vars(both.micro)
    with pytest.raises(ConfigError, match="different settings"):
        a.merge(set_scores({"d2": [("Bob", "PER")]}, {"d2": [("Bob", "PER")]}, dedupe=True))
    with pytest.raises(ConfigError, match="both count the documents"):
        a.merge(a)


@pytest.mark.parametrize(("args", "kwargs", "error", "message"), [
    (({"d": [("x", "L")]}, {"d": [("x", "L")]}, "lower"), {}, ConfigError, "normalize must be one of"),
    (({"d": [("x", "L")]}, {"d": [("x", "L")]}), {"dedupe": "yes"}, ConfigError, "dedupe must be True or False"),
    (({"d": [("x", "L")]}, {"d": [("x", "L")]}), {"zero_division": float("nan")}, ConfigError, "zero_division"),
    (({"d": [("x", 1)]}, {"d": []}), {}, InputError, r"key, document 'd': expected \(text, label\) pairs"),
    (({"d": "x"}, {"d": []}), {}, InputError, "expected a list of"),
    (([("x", "L")], {"d": []}), {}, ConfigError, "key: a mapping of document id"),
])
def test_bad_arguments(args, kwargs, error, message):
    with pytest.raises(error, match=message):
        set_scores(*args, **kwargs)


def test_set_scores_is_a_result_object():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        s = set_scores({"d1": [("Ada", "PER")]}, {"d1": [("Ada", "PER")]})
        assert isinstance(s, SetScores) and s.figures() == {"p": 1.0, "r": 1.0, "f": 1.0}
