"""spacy-llm's response parsing, reproduced on spacy-llm's own test cases (explosion/spacy-llm, HEAD 99ac922).

Each case below is a case of spacy-llm's tests, cited by file and test name: same response, same labels
("PER,ORG,LOC" unless said), same normaliser, and the same ``(text, label)`` list as spacy-llm's expected value,
written in spacy-llm's order (text first; :func:`spacy_llm_pairs` turns our ``(label, text)`` round). spacy-llm's
expected values are the entities after its matcher has found the strings in the text; where the matcher changes
the list (it drops a string it cannot find or snap, keeps the longest of overlapping entities, sorts by position,
finds every occurrence), the case says so and gives the parse, which is the part spacy-llm does before matching.
"""

from __future__ import annotations

import pytest

from spacy_anno_eval.errors import ConfigError
from spacy_anno_eval.llm.spacy_llm import (
    ParsedResponse,
    label_map,
    parse_ner_response,
    response_format,
    split_labels,
)

LABELS = "PER,ORG,LOC"


def spacy_llm_pairs(parsed: ParsedResponse) -> list[tuple[str, str]]:
    """Our ``(label, text)`` pairs as spacy-llm's tests write entities: ``(text, label)``."""
    return [(text, label) for label, text in parsed]


# -- v2: LABEL: a, b -----------------------------------------------------------------------------------------------

# spacy_llm/tests/tasks/legacy/test_ner.py::test_ner_labels and legacy/test_spancat.py::test_spancat_labels (the
# same eight cases, spacy.NER.v2 / spacy.SpanCat.v2); normaliser None is spacy-llm's default, lowercase.
V2_LABEL_CASES = [
    ("PER: Jean Jacques, Jaime", None, [("Jean Jacques", "PER"), ("Jaime", "PER")]),
    ("PER: Jean Jacques, Jaime", "strip", [("Jean Jacques", "PER"), ("Jaime", "PER")]),
    ("PER: Jean Jacques, Jaime", "lowercase", [("Jean Jacques", "PER"), ("Jaime", "PER")]),
    ("per: Jean Jacques, Jaime", "strip", []),
    ("per: Jean Jacques, Jaime", None, [("Jean Jacques", "PER"), ("Jaime", "PER")]),
    ("per: Jean Jacques\nPER: Jaime", "lowercase", [("Jean Jacques", "PER"), ("Jaime", "PER")]),
    ("per: Jean Jacques, Jaime\nOrg: library", "lowercase",
     [("Jean Jacques", "PER"), ("Jaime", "PER"), ("library", "ORG")]),
    ("per: Jean Jacques, Jaime\nRANDOM: library", "lowercase", [("Jean Jacques", "PER"), ("Jaime", "PER")]),
]


@pytest.mark.parametrize(("response", "normalizer", "gold"), V2_LABEL_CASES)
def test_v2_labels_as_spacy_llm_test_ner_labels(response, normalizer, gold):
    parsed = parse_ner_response(response, LABELS, normalizer=normalizer)
    assert parsed.format == "v2"
    assert spacy_llm_pairs(parsed) == gold


def test_v2_labels_spacy_llm_drops_are_returned_apart():
    """The cases above where spacy-llm drops entities: here they come back in ``unknown``, as written."""
    assert parse_ner_response("per: Jean Jacques, Jaime", LABELS, normalizer="strip").unknown == \
        [("per", "Jean Jacques"), ("per", "Jaime")]
    assert parse_ner_response("per: Jean Jacques, Jaime\nRANDOM: library", LABELS).unknown == [("RANDOM", "library")]


# legacy/test_ner.py::test_ner_zero_shot_task and legacy/test_spancat.py::test_spancat_zero_shot_task (v2)
@pytest.mark.parametrize(("response", "parsed", "ner_gold"), [
    # simple: the parse is spacy-llm's gold in both tests
    ("PER: Jean Jacques, Jaime\nLOC: library", [("Jean Jacques", "PER"), ("Jaime", "PER"), ("library", "LOC")],
     [("Jean Jacques", "PER"), ("Jaime", "PER"), ("library", "LOC")]),
    # overlapping: SpanCat's gold is the parse; NER's keeps the longest span (doc.ents cannot overlap)
    ("LOC: The Manila Observatory, Manila, Manila Observatory",
     [("The Manila Observatory", "LOC"), ("Manila", "LOC"), ("Manila Observatory", "LOC")],
     [("The Manila Observatory", "LOC")]),
    # flipped: the gold is in text order (the matcher sorts); the parse keeps the model's order
    ("LOC: public market, Downtown", [("public market", "LOC"), ("Downtown", "LOC")],
     [("Downtown", "LOC"), ("public market", "LOC")]),
])
def test_v2_zero_shot_cases(response, parsed, ner_gold):
    found = spacy_llm_pairs(parse_ner_response(response, LABELS))
    assert found == parsed
    assert set(ner_gold) <= set(found)  # the matcher only drops, snaps and sorts what the parser gives


# legacy/test_ner.py::test_ner_alignment (v2): the parse; which strings survive is the snapping's (alignment_mode)
@pytest.mark.parametrize(("response", "parsed"), [
    ("PER: Jacq", [("Jacq", "PER")]),
    ("PER: Jean J", [("Jean J", "PER")]),
    ("PER: Jean Jacques, aim", [("Jean Jacques", "PER"), ("aim", "PER")]),  # gold (strict): Jean Jacques only
    ("PER: random", [("random", "PER")]),  # gold: nothing (not in the text)
])
def test_v2_alignment_cases_parse(response, parsed):
    assert spacy_llm_pairs(parse_ner_response(response, LABELS)) == parsed


def test_v2_matching_case_parses_one_string():
    """legacy/test_ner.py::test_ner_matching: "PER: Jean" parses to one string; spacy-llm's matcher then finds its
    three occurrences (single_match=False, case-insensitive) or the first (single_match=True)."""
    assert spacy_llm_pairs(parse_ner_response("PER: Jean", LABELS)) == [("Jean", "PER")]


def test_v2_noop_model_output():
    """legacy/test_ner.py's noop_config: the model answers "PER: Alice,Bob" (no space after the comma)."""
    assert spacy_llm_pairs(parse_ner_response("PER: Alice,Bob", LABELS)) == [("Alice", "PER"), ("Bob", "PER")]


def test_v2_line_rules_of_format_response():
    """``_format_response``: split at the first colon, blank phrases say nothing, lines without a colon are
    skipped, empty entries dropped (``find_substrings``), ``==NONE==`` dropped, repeats kept in order."""
    response = "\n  Here are the entities\nPER: Ada, , Ada,\nLOC:   \nORG: ==NONE==\nLOC: 10:30 Station\n"
    assert parse_ner_response(response, LABELS) == [("PER", "Ada"), ("PER", "Ada"), ("LOC", "10:30 Station")]


# -- v3: 1. text | True | LABEL | reason ---------------------------------------------------------------------------

# spacy_llm/tests/tasks/test_ner.py::test_ner_labels (spacy.NER.v3) and test_spancat.py::test_spancat_labels
# (spacy.SpanCat.v3): eight cases each, the same but for the last's reason text
V3_LABEL_CASES = [
    ("1. Jean Jacques | True | PER | is a person's name\n2. Jaime | True | PER | is a person's name\n", None,
     [("Jean Jacques", "PER"), ("Jaime", "PER")]),
    ("1. Jean Jacques | True | PER | is a person's name\n2. Jaime | True | PER | is a person's name\n", "strip",
     [("Jean Jacques", "PER"), ("Jaime", "PER")]),
    ("1. Jean Jacques | True | PER | is a person's name\n2. Jaime | True | PER | is a person's name\n", "lowercase",
     [("Jean Jacques", "PER"), ("Jaime", "PER")]),
    ("1. Jean Jacques | True | per | is a person's name\n2. Jaime | True | per | is a person's name\n", "strip", []),
    ("1. Jean Jacques | True | per | is a person's name\n2. Jaime | True | per | is a person's name\n", None,
     [("Jean Jacques", "PER"), ("Jaime", "PER")]),
    ("1. Jean Jacques | True | per | is a person's name\n2. Jaime | True | PER | is a person's name\n", "lowercase",
     [("Jean Jacques", "PER"), ("Jaime", "PER")]),
    ("1. Jean Jacques | True | per | is a person's name\n2. Jaime | True | per | is a person's name\n"
     "3. library | True | Org | is a organization\n", "lowercase",
     [("Jean Jacques", "PER"), ("Jaime", "PER"), ("library", "ORG")]),
    ("1. Jean Jacques | True | per | is a person's name\n2. Jaime | True | per | is a person's name\n"
     "3. Jaime | True | RANDOM | is an entity\n", "lowercase", [("Jean Jacques", "PER"), ("Jaime", "PER")]),
    # test_spancat.py::test_spancat_labels, its last case
    ("1. Jean Jacques | True | per | is the name of a person\n2. Jaime | True | per | is the name of a person\n"
     "3. library | True | RANDOM | is an organization\n", "lowercase", [("Jean Jacques", "PER"), ("Jaime", "PER")]),
]


@pytest.mark.parametrize(("response", "normalizer", "gold"), V3_LABEL_CASES)
def test_v3_labels_as_spacy_llm_test_ner_labels(response, normalizer, gold):
    parsed = parse_ner_response(response, LABELS, normalizer=normalizer)
    assert parsed.format == "v3"
    assert spacy_llm_pairs(parsed) == gold


def test_v3_unknown_labels_are_returned_apart():
    parsed = parse_ner_response(V3_LABEL_CASES[7][0], LABELS)
    assert parsed.unknown == [("RANDOM", "Jaime")]


# test_spancat.py::test_spancat_matching_shot_task (v3): the parse is spacy-llm's gold
@pytest.mark.parametrize(("response", "gold"), [
    ("1. Jean Jacques | True | PER | is the name of a person\n2. Jaime | True | PER | is the name of a person\n"
     "3. library | True | LOC | is a place you can go to with lots of books\n",
     [("Jean Jacques", "PER"), ("Jaime", "PER"), ("library", "LOC")]),
    ("1. The Manila Observatory | True | LOC | is a place\n2. Manila | True | LOC | is a city\n"
     "3. Manila Observatory | True | LOC | is a place\n",
     [("The Manila Observatory", "LOC"), ("Manila", "LOC"), ("Manila Observatory", "LOC")]),
], ids=["simple", "overlapping"])
def test_v3_spancat_matching_shot_task(response, gold):
    assert spacy_llm_pairs(parse_ner_response(response, LABELS)) == gold


# test_ner.py::test_regression_span_task_response_parse: one string, two labels (spaCy discussion 12812); the parse
# and the number of span reasons spacy-llm asserts are the gold
@pytest.mark.parametrize(("response", "gold"), [
    ("1. Paris | True | PER | is the name of the woman\n2. Paris | True | LOC | is a city in France\n"
     "3. Paris | True | PER | is the name of the woman\n", [("Paris", "PER"), ("Paris", "LOC"), ("Paris", "PER")]),
    ("1. Paris | True | LOC | is a city in France\n2. Paris | True | PER | is the name of the woman\n",
     [("Paris", "LOC"), ("Paris", "PER")]),
], ids=["3_ents", "2_ents"])
def test_v3_regression_span_task_response_parse(response, gold):
    assert spacy_llm_pairs(parse_ner_response(response, ["PER", "LOC"])) == gold


def test_v3_regression_span_task_comma():
    """test_ner.py::test_regression_span_task_comma: commas inside a v3 entity stay (no comma split in v3)."""
    response = "1. FooBar, Inc. | True | ORG | is the name of an organization\n2. U.S. | True | LOC | is a country\n"
    assert spacy_llm_pairs(parse_ner_response(response, ["ORG", "LOC"])) == [("FooBar, Inc.", "ORG"), ("U.S.", "LOC")]


def test_v3_matching_case_parse():
    """test_ner.py::test_ner_matching, multiple_ents_case_insensitive: the gold is the parse."""
    response = ("1. jean | True | PER | is a person's name\n2. Jean | True | PER | is a person's name\n"
                "3. Jean Foundation | True | ORG | is the name of an Organization name")
    assert spacy_llm_pairs(parse_ner_response(response, LABELS)) == \
        [("jean", "PER"), ("Jean", "PER"), ("Jean Foundation", "ORG")]


# test_span_utils.py::test_span_reason_from_str (SPAN_REASON_FROM_STR_TEST_CASES), through the parser: a line that
# SpanReason.from_str refuses, or that says it is no entity, gives nothing
@pytest.mark.parametrize(("line", "gold"), [
    # invalid_order_no_error: parsed, but is_entity is "BASKETBALL_TEAM", not true -> no entity
    ("1. Golden State Warriors | BASKETBALL_TEAM | is a basketball team in the NBA | True", []),
    # invalid_number_of_components: ValueError -> skipped
    ("1. Golden State Warriors | BASKETBALL_TEAM | OTHER SECTION | MORE THINGS | is a basketball team in the NBA "
     "| True", []),
    ("1. Golden State Warriors | True | BASKETBALL_TEAM | is a basketball team in the NBA",
     [("Golden State Warriors", "BASKETBALL_TEAM")]),  # valid_entity_numbered
    ("Golden State Warriors | True | BASKETBALL_TEAM | is a basketball team in the NBA",
     [("Golden State Warriors", "BASKETBALL_TEAM")]),  # valid_entity_unnumbered
])
def test_v3_span_reason_from_str_cases(line, gold):
    assert spacy_llm_pairs(parse_ner_response(line, ["BASKETBALL_TEAM"], fmt="v3")) == gold


def test_v3_not_an_entity_and_none_label():
    """The v3 prompt's own example (ner.v3.jinja): "really well | False | ==NONE==" is no entity."""
    response = ("1. Sriracha sauce | True | INGREDIENT | is an ingredient to add to a stir fry\n"
                "2. really well | False | ==NONE== | is a description of how well sriracha sauce goes with hoisin\n"
                "3. hoisin stir fry | True | DISH | is a dish with stir fry vegetables and hoisin sauce\n")
    parsed = parse_ner_response(response, ["INGREDIENT", "DISH"])
    assert parsed == [("INGREDIENT", "Sriracha sauce"), ("DISH", "hoisin stir fry")] and parsed.unknown == []


def test_v3_drops_up_to_the_first_dot_as_spacy_llm_does():
    """SpanReason.from_str cuts any line at its first dot (meant for the list number): an unnumbered line whose
    text holds a dot loses its start, as in spacy-llm; a numbered one keeps it."""
    assert parse_ner_response("Dr. Who | True | PER | a doctor", LABELS) == [("PER", "Who")]
    assert parse_ner_response("1. Dr. Who | True | PER | a doctor", LABELS) == [("PER", "Dr. Who")]


# -- labels, normalisers, formats ------------------------------------------------------------------------------


def test_label_map_is_spacy_llms_label_dict():
    """builtin_task.py: {normalizer(label): label for label in sorted(set(labels))}: of two labels that normalise
    alike, the later in sorted order wins; labels are split on commas and stripped (util.split_labels)."""
    assert label_map(" PER , ORG") == {"org": "ORG", "per": "PER"}
    assert label_map(["PER", "per"]) == {"per": "per"}
    assert label_map(["PER", "per"], "strip") == {"PER": "PER", "per": "per"}
    assert split_labels("PER,,ORG,") == ["PER", "ORG"]


def test_without_labels_every_label_is_kept_as_written():
    assert parse_ner_response("per: Ada\n Misc : x", None) == [("per", "Ada"), ("Misc", "x")]


def test_a_normalizer_function_is_taken():
    parsed = parse_ner_response("P-E-R: Ada", ["PER"], normalizer=lambda s: s.replace("-", "").strip().upper())
    assert parsed == [("PER", "Ada")]


def test_format_detection():
    assert response_format("PER: Ada\nLOC: London") == "v2"
    assert response_format("Here you go:\n1. Ada | True | PER | a person") == "v3"
    assert response_format("1. Ada | yes | PER | a person") == "v2"
    assert parse_ner_response("1. Ada | True | PER | a person", LABELS, fmt="v2") == []


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"normalizer": "upper"}, "normalizer must be one of lowercase, strip"),
    ({"fmt": "v4"}, "fmt must be one of auto, v2, v3"),
    ({"labels": ""}, "names no label"),
    ({"labels": ["PER", 3]}, "labels must be a comma-separated string or a list of strings"),
])
def test_bad_settings_are_config_errors(kwargs, message):
    with pytest.raises(ConfigError, match=message):
        parse_ner_response("PER: Ada", **kwargs)


def test_a_response_that_is_no_string_is_refused():
    with pytest.raises(ConfigError, match="response must be the model's text"):
        parse_ner_response(None)  # type: ignore[arg-type]


def test_the_parsed_response_is_a_list():
    parsed = parse_ner_response("PER: Ada")
    assert isinstance(parsed, list) and parsed == [("PER", "Ada")] and parsed.unknown == [] and parsed.format == "v2"
