"""The grounding ladder on its peers' own examples: same input, same outcome, or the difference shown and why.

**spacy-llm** (explosion/spacy-llm at 99ac9229, ``spacy_llm/tests/tasks/test_ner.py`` and
``spacy_llm/tests/tasks/legacy/test_ner.py``). spacy-llm finds each phrase with ``find_substrings`` (lower-cased
unless ``case_sensitive_matching``; every non-overlapping occurrence unless ``single_match``; duplicate phrases
dropped), snaps it with ``doc.char_span(..., alignment_mode)`` (default ``contract``), and sets
``doc.ents = filter_spans(spans)``. Its rule is ours with ``steps=("casefold",)`` (``("exact",)`` when case
sensitive), ``ground_all=not single_match``, ``snap=alignment_mode``, on the Doc's tokens; repeats left out as
spacy-llm drops duplicate phrases. Its v3 chain-of-thought parser finds the phrases one after another
(``find_after``), which is our one-occurrence-per-extraction placement. Every case of
``test_ensure_offsets_correspond_to_substrings`` (3), ``test_ner_alignment`` (6 + 6 legacy),
``test_ner_matching`` (3 + 4 legacy), ``test_regression_span_task_response_parse`` (2),
``test_regression_span_task_comma`` (1) and the legacy ``test_ner_zero_shot_task`` (3) gives spacy-llm's result
(28 cases). ``test_ner_labels`` is label normalisation, the readers' job (``llm/spacy_llm.py``). Differences on
purpose, shown below: our default ladder tries the string as written before its case-folded form, and a phrase
listed twice is two mentions, not one.

**langextract** (google/langextract at 0dff5479, ``tests/resolver_test.py`` and
``tests/fuzzy_alignment_cases_test.py``). langextract grades each extraction ``MATCH_EXACT`` (its lower-cased
tokens occur in the source, placed by an order-preserving DP of non-overlapping spans), ``MATCH_LESSER`` (a
leading part of its tokens occurs), ``MATCH_FUZZY`` (a token LCS covering ``ceil(0.75·m)`` of its ``m``
tokens, one match per three tokens of window at least) or ``None``. Mapped onto our steps: ``MATCH_EXACT`` =
``exact``, ``casefold`` or ``normalized`` (its tokens are lower-cased and white space is not a token);
``MATCH_FUZZY`` and ``MATCH_LESSER`` = ``fuzzy`` (a partial match: we accept it when its similarity reaches the
threshold); ``None`` = a hallucination. Our settings follow each case's: the fuzzy step only where it enables
fuzzy alignment, only the fuzzy step where the test calls langextract's fuzzy aligner directly; otherwise our
defaults (contract, word-rule tokens). :data:`LANGEXTRACT_SAME` (33 cases) give the same status per extraction;
:data:`LANGEXTRACT_DIFFERENT` (15 cases) differ on purpose, each with its reason. Not reproduced: the unit tests
of its private LCS helpers (token lists, not texts), chunk offsets (we ground whole documents), and its
deprecated ``difflib`` exact aligner.
"""

from __future__ import annotations

import random
import textwrap
from typing import Any

import pytest

from spacy_anno_eval.errors import ConfigError
from spacy_anno_eval.llm.extractions import Extraction
from spacy_anno_eval.llm.grounding import HALLUCINATION, GroundingSettings, ground

spacy = pytest.importorskip("spacy")
NLP = spacy.blank("en")

# --- spacy-llm ----------------------------------------------------------------------------------------------------


def spacy_llm_rule(text: str, phrases: list[tuple[str, str]], *, case_sensitive: bool = False,
                   single_match: bool = False, alignment_mode: str = "contract") -> tuple[Any, list[tuple[str, str]]]:
    """(grounding, doc.ents as (text, label)) under spacy-llm's rule, on the Doc's tokens."""
    doc = NLP.make_doc(text)
    exs = [Extraction("d", label, s, k) for k, (label, s) in enumerate(phrases)]
    settings = GroundingSettings(steps=("exact",) if case_sensitive else ("casefold",), ground_all=not single_match,
                                 snap=alignment_mode)
    g = ground({"d": exs}, {"d": text}, tokens={"d": [(t.idx, t.idx + len(t)) for t in doc]}, settings=settings)
    found = [doc.char_span(x.start, x.end, label=x.extraction.label) for x in g.documents["d"].grounded
             if not x.repeat]
    return g, [(e.text, e.label_) for e in spacy.util.filter_spans(found)]


@pytest.mark.parametrize(("text", "strings", "offsets"), [
    ("Felipe and Jaime went to the library.", ["Felipe", "Jaime", "library"], [(0, 6), (11, 16), (29, 36)]),
    ("The Manila Observatory was founded in 1865 in Manila.", ["Manila", "The Manila Observatory"],
     [(4, 10), (46, 52), (0, 22)]),
    ("Take the road from downtown and turn left at the public market.", ["public market", "downtown"],
     [(49, 62), (19, 27)]),
], ids=["simple", "overlapping and duplicated", "flipped"])
def test_spacy_llm_find_substrings(text: str, strings: list[str], offsets: list[tuple[int, int]]) -> None:
    exs = [Extraction("d", "X", s, k) for k, s in enumerate(strings)]
    g = ground({"d": exs}, {"d": text}, settings=GroundingSettings(steps=("casefold",), ground_all=True, snap="none"))
    assert [(x.start, x.end) for x in g.documents["d"].grounded] == offsets


JEAN = "Jean Jacques and Jaime went to the library."


@pytest.mark.parametrize(("phrases", "mode", "ents"), [
    # v3 (spacy.NER.v3, one phrase per response)
    (["Jacq"], "strict", []),
    (["Jacq"], "contract", []),
    (["Jacq"], "expand", [("Jacques", "PER")]),
    (["Jean J"], "contract", [("Jean", "PER")]),
    (["Jean Jacques"], "strict", [("Jean Jacques", "PER")]),
    (["random"], "expand", []),
    # legacy (spacy.NER.v2: "PER: a, b")
    (["Jacq"], "strict", []),
    (["Jacq"], "contract", []),
    (["Jacq"], "expand", [("Jacques", "PER")]),
    (["Jean J"], "contract", [("Jean", "PER")]),
    (["Jean Jacques", "aim"], "strict", [("Jean Jacques", "PER")]),
    (["random"], "expand", []),
], ids=["strict_1", "contract_1", "expand_1", "strict_2", "contract_2", "expand_2",
        "v2 strict", "v2 contract", "v2 expand", "v2 contract 2", "v2 strict 2", "v2 expand 2"])
def test_spacy_llm_ner_alignment(phrases: list[str], mode: str, ents: list[tuple[str, str]]) -> None:
    assert spacy_llm_rule(JEAN, [("PER", p) for p in phrases], alignment_mode=mode)[1] == ents


MATCHING = "This guy jean (or Jean) is the president of the Jean Foundation."


@pytest.mark.parametrize(("phrases", "case_sensitive", "single_match", "ents"), [
    # legacy: "PER: Jean" under each option
    ([("PER", "Jean")], False, False, [("jean", "PER"), ("Jean", "PER"), ("Jean", "PER")]),
    ([("PER", "Jean")], False, True, [("jean", "PER")]),
    ([("PER", "Jean")], True, False, [("Jean", "PER"), ("Jean", "PER")]),
    ([("PER", "Jean")], True, True, [("Jean", "PER")]),
    # v3 (phrases found one after another: one occurrence each)
    ([("PER", "Jean")], False, True, [("jean", "PER")]),
    ([("PER", "Jean")], True, True, [("Jean", "PER")]),
    ([("PER", "jean"), ("PER", "Jean"), ("ORG", "Jean Foundation")], False, True,
     [("jean", "PER"), ("Jean", "PER"), ("Jean Foundation", "ORG")]),
], ids=["v2 insensitive all", "v2 insensitive single", "v2 sensitive all", "v2 sensitive single",
        "v3 single_ent_case_insensitive", "v3 single_ent_case_sensitive", "v3 multiple_ents_case_insensitive"])
def test_spacy_llm_ner_matching(phrases: list[tuple[str, str]], case_sensitive: bool, single_match: bool,
                                ents: list[tuple[str, str]]) -> None:
    assert spacy_llm_rule(MATCHING, phrases, case_sensitive=case_sensitive, single_match=single_match)[1] == ents


@pytest.mark.parametrize(("text", "phrases", "ents"), [
    ("The woman Paris was walking around in Paris, talking to her friend Paris",
     [("PER", "Paris"), ("LOC", "Paris"), ("PER", "Paris")], [("Paris", "PER"), ("Paris", "LOC"), ("Paris", "PER")]),
    ("Walking around Paris as a woman named Paris is quite a trip.", [("LOC", "Paris"), ("PER", "Paris")],
     [("Paris", "LOC"), ("Paris", "PER")]),
    ("FooBar, Inc. is a large organization in the U.S.", [("ORG", "FooBar, Inc."), ("LOC", "U.S.")],
     [("FooBar, Inc.", "ORG"), ("U.S.", "LOC")]),
], ids=["3_ents", "2_ents", "comma"])
def test_spacy_llm_regressions(text: str, phrases: list[tuple[str, str]], ents: list[tuple[str, str]]) -> None:
    assert spacy_llm_rule(text, phrases, single_match=True)[1] == ents


@pytest.mark.parametrize(("text", "phrases", "ents"), [
    ("Jean Jacques and Jaime went to the library.", [("PER", "Jean Jacques"), ("PER", "Jaime"), ("LOC", "library")],
     [("Jean Jacques", "PER"), ("Jaime", "PER"), ("library", "LOC")]),
    ("The Manila Observatory was founded in 1865.",
     [("LOC", "The Manila Observatory"), ("LOC", "Manila"), ("LOC", "Manila Observatory")],
     [("The Manila Observatory", "LOC")]),
    ("Take the road from Downtown and turn left at the public market.", [("LOC", "public market"), ("LOC", "Downtown")],
     [("Downtown", "LOC"), ("public market", "LOC")]),
], ids=["simple", "overlapping: the longest span", "flipped"])
def test_spacy_llm_zero_shot(text: str, phrases: list[tuple[str, str]], ents: list[tuple[str, str]]) -> None:
    g, got = spacy_llm_rule(text, phrases)
    assert got == ents
    assert g.n_hallucinations == 0  # the grounding keeps all three Manila spans; filter_spans keeps the longest


def test_spacy_llm_difference_exact_before_casefold() -> None:
    """spacy-llm lower-cases first, so 'Jean' is grounded to 'jean', the first case-insensitive occurrence; our
    default ladder tries the string as written first and grounds it to 'Jean' (steps=("casefold",) is
    spacy-llm's rule, above)."""
    exs = [Extraction("d", "PER", "Jean", 0)]
    (x,) = ground({"d": exs}, {"d": MATCHING}).documents["d"].grounded
    assert (MATCHING[x.start:x.end], x.start, x.step) == ("Jean", 18, "exact")
    assert spacy_llm_rule(MATCHING, [("PER", "Jean")], single_match=True)[1] == [("jean", "PER")]


def test_spacy_llm_difference_a_phrase_listed_twice() -> None:
    """spacy-llm's v2 parser drops a duplicate phrase ("PER: Paris, Paris" with single_match gives one span); a
    model that lists a name twice names two mentions, so we ground the second to the next occurrence (as its v3
    parser, which finds phrases one after another, does)."""
    text = "Walking around Paris as a woman named Paris is quite a trip."
    g = ground({"d": [Extraction("d", "PER", "Paris", 0), Extraction("d", "PER", "Paris", 1)]}, {"d": text},
               settings=GroundingSettings(steps=("casefold",)))
    assert [x.start for x in g.documents["d"].grounded] == [15, 38]


# --- langextract --------------------------------------------------------------------------------------------------

EXACT, FUZZY, LESSER = "exact", "fuzzy", "lesser"
STATUS = {"claimed": EXACT, "exact": EXACT, "casefold": EXACT, "normalized": EXACT, "fuzzy": FUZZY,
          HALLUCINATION: None}
TWO_MEDS = "Patient is prescribed Naprosyn and prednisone for treatment."
THREE = "Patient with arthritis, fever, and inflammation is prescribed Naprosyn, prednisone, and ibuprofen."
MULTI = "Pt was prescribed Naprosyn as needed for pain and prednisone for one month."
CLINICAL = textwrap.dedent("""\
    CLINICAL NOTE
    Patient: John Smith    DOB: 03/14/1962
    Chief Complaint: Follow-up of hypertension and type 2 diabetes.
    History: The patient reports good adherence to lisinopril 20 mg
    daily. Blood pressure remains elevated at 148/92 today. Home logs
    show fasting values of 130-150 mg/dL on metformin 1000 mg twice
    daily. He continues atorvastatin 40 mg nightly for hyperlipidemia.
    Assessment and Plan:
    1. Hypertension, uncontrolled. Increase lisinopril to 40 mg daily.
    2. Type 2 diabetes, above goal. Start empagliflozin 10 mg daily.
    3. Hyperlipidemia, stable. Continue atorvastatin.
    """)
LONG_SEED = "alpha beta gamma delta was noted. omega followed. Later, alpha beta gamma delta recurred."
WORD_POOL = ("patient diagnosed with diabetes hypertension medication prescribed daily chronic condition treatment "
             "history symptoms blood pressure glucose insulin kidney liver cardiac pulmonary neurological assessment "
             "examination laboratory results normal elevated decreased follow appointment scheduled monitor progress "
             "clinical evaluation imaging therapy dosage adverse reaction prognosis referral discharge admission "
             "surgery recovery emergency outpatient inpatient consultation diagnosis pathology specimen biopsy "
             "cultures antibiotics analgesic sedation ventilation intubation catheter drainage infusion").split()


def _words(n: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    return [rng.choice(WORD_POOL) for _ in range(n)]


def _planted() -> str:
    words = _words(200, 42)
    words[50:53] = ["metformin", "hydrochloride", "tablet"]
    return " ".join(words)


def _gapped() -> str:
    words = _words(200, 99)
    for i, w in enumerate(["metformin", "hydrochloride", "tablet"]):
        words[40 + 4 * i] = w
    return " ".join(words)


BASE_200 = " ".join(_words(200, 42))
PLANTED, GAPPED = _planted(), _gapped()
FUZZY_ONLY = "fuzzy only"  # the test calls langextract's fuzzy aligner directly

#: (case, source, extraction strings, their fuzzy alignment on, langextract's statuses, offsets it asserts)
LANGEXTRACT_SAME: list[tuple[str, str, list[str], bool | str, list[str | None], list[int | None] | None]] = [
    ("basic_alignment", TWO_MEDS, ["Naprosyn", "prednisone"], False, [EXACT, EXACT], [22, 35]),
    ("extraction_not_found", TWO_MEDS, ["aspirin"], False, [None], None),
    ("test_en_dash_unicode_handling", "Separated–by–en–dashes.", ["Separated", "by", "en–dashes"], False,
     [EXACT] * 3, [0, 10, 13]),
    ("special_characters_in_extractions", "Patient is prescribed Napro-syn.", ["Napro-syn"], False, [EXACT], [22]),
    ("test_extraction_with_substring_of_another_not_matched", TWO_MEDS, ["Napro"], False, [None], None),
    ("test_extractions_with_similar_words", TWO_MEDS, ["Naprosyn", "Napro"], False, [EXACT, None], [22, None]),
    ("test_source_text_with_repeated_extractions", "Patient is prescribed Naprosyn and Naprosyn.", ["Naprosyn"],
     False, [EXACT], [22]),
    ("overlapping_extractions_different_types", TWO_MEDS, ["Naprosyn", "Naprosyn allergy"], False, [EXACT, None],
     [22, None]),
    ("test_multiple_instances_same_extraction", "Naprosyn, prednisone, and again Naprosyn are prescribed.",
     ["Naprosyn", "prednisone"], False, [EXACT, EXACT], [0, 10]),
    ("test_longer_extraction_spanning_multiple_words", "Patient diagnosed with rheumatoid arthritis.",
     ["rheumatoid arthritis"], False, [EXACT], [23]),
    ("test_case_insensitivity", TWO_MEDS.lower(), ["naprosyn", "PREDNISONE"], False, [EXACT, EXACT], [22, 35]),
    ("numerical_extractions", "Patient was given Ibuprofen 600mg twice daily.", ["Ibuprofen 600mg"], False, [EXACT],
     [18]),
    ("test_extractions_spanning_across_sentence_boundaries", "Take Ibuprofen. Always take with food.",
     ["Ibuprofen", "take with food"], False, [EXACT, EXACT], [5, 23]),
    ("test_multiple_multiword_extractions_multi_group", MULTI,
     ["Naprosyn", "as needed", "pain", "prednisone", "for one month"], False, [EXACT] * 5, [18, 27, 41, 50, 61]),
    ("extraction_with_tokenizing_pipe_delimiter", "Patient is prescribed Napro | syn and prednisone.",
     ["Napro | syn", "prednisone"], False, [EXACT, EXACT], [22, 38]),
    ("test_only_matching_end_does_not_align", "end", ["only matched end"], False, [None], None),
    ("test_empty_extractions_list", TWO_MEDS, [], False, [], None),
    ("fuzzy_alignment_below_threshold", "Patient takes aspirin daily.", ["completely different medicine"], True,
     [None], None),
    ("accept_match_lesser_disabled", "Patient has heart problems today.", ["patient heart problems today"], True,
     [FUZZY], [0]),
    ("fuzzy_alignment_fails_low_ratio", "Patient reports back pain and a fever.", ["headache and fever"], True,
     [None], None),
    # same status; langextract's span starts at 25 ('degenerative ...'), ours at 20: 'with' is 3 edits from 'mild'
    ("fuzzy_alignment_partial_overlap_success", "Findings consistent with degenerative disc disease at L5-S1.",
     ["mild degenerative disc disease"], True, [FUZZY], None),
    ("ResolverTest.test_align_with_valid_chunk", "This is a sample text with some extractions.",
     ["sample", "extractions"], False, [EXACT, EXACT], [10, 32]),
    ("ResolverTest.test_align_successful", "zero one two", ["zero", "one"], False, [EXACT, EXACT], [0, 5]),
    ("test_repeated_mention_aligns_to_successive_occurrences", "Take aspirin in the morning. Take aspirin at night.",
     ["aspirin", "aspirin"], True, [EXACT, EXACT], [5, 34]),
    ("test_clinical_note_duplicates_align_to_assessment_section", CLINICAL,
     ["lisinopril", "148/92", "metformin", "atorvastatin", "Hypertension", "lisinopril", "Type 2 diabetes",
      "empagliflozin", "Hyperlipidemia"], True, [EXACT] * 9,
     [CLINICAL.index("lisinopril 20 mg"), CLINICAL.index("148/92"), CLINICAL.index("metformin"),
      CLINICAL.index("atorvastatin 40 mg"), CLINICAL.index("Hypertension, uncontrolled"),
      CLINICAL.index("lisinopril to 40 mg"), CLINICAL.index("Type 2 diabetes, above"), CLINICAL.index("empagliflozin"),
      CLINICAL.index("Hyperlipidemia, stable")]),
    ("test_long_mention_seed_does_not_break_earlier_extractions", LONG_SEED, ["omega", "alpha beta gamma delta"], True,
     [EXACT, EXACT], [LONG_SEED.index("omega"), LONG_SEED.index("alpha beta gamma delta recurred")]),
    ("test_align_extractions_positional", "patient takes aspirin daily", ["aspirin"], True, [EXACT], [14]),
    ("contiguous_lcs", PLANTED, ["metformin hydrochloride tablet"], FUZZY_ONLY, [FUZZY], [451]),
    ("contiguous_legacy", PLANTED, ["metformin hydrochloride tablet"], FUZZY_ONLY, [FUZZY], [451]),
    ("fuzzy_stemming_lcs", PLANTED, ["metformins hydrochlorides tablets"], FUZZY_ONLY, [FUZZY], [451]),
    ("test_planted_negative", BASE_200, ["warfarin coumadin anticoagulant"], FUZZY_ONLY, [None], None),
    ("test_repeated_token_selects_min_span", "a a b", ["a b"], FUZZY_ONLY, [FUZZY], [2]),
    ("test_density_gate_rejects_over_sparse",
     "metformin alpha beta gamma delta epsilon zeta hydrochloride eta tablet", ["metformin hydrochloride tablet"],
     FUZZY_ONLY, [None], None),
]

#: (case, source, strings, fuzzy, langextract's statuses, our statuses, why ours differs)
LANGEXTRACT_DIFFERENT: list[tuple[str, str, list[str], bool | str, list[str | None], list[str | None], str]] = [
    ("shuffled_order_of_last_two_extractions", THREE,
     ["arthritis", "fever", "inflammation", "Naprosyn", "ibuprofen", "prednisone"], False,
     [EXACT, EXACT, EXACT, EXACT, None, EXACT], [EXACT] * 6,
     "the list's order chooses among a string's occurrences; a string that occurs verbatim is never a "
     "hallucination because the model listed it out of order"),
    ("test_interleaved_extractions", "Patient with arthritis is prescribed Naprosyn.", ["Naprosyn", "arthritis"], False,
     [None, EXACT], [EXACT, EXACT], "the same: order is a tie-break, not a reason to drop a verbatim string"),
    ("multiple_word_extraction_partially_matched", "Patient is prescribed high glucose.", ["high blood pressure"],
     False, [LESSER], [None], "a leading fragment ('high', one word of three) is not the string: similarity 0.42"),
    ("optimize_multiword_extractions_at_back", TWO_MEDS, ["Naprosyn", "Naprosyn and prednisone"], False,
     [None, EXACT], [EXACT, EXACT], "nested and overlapping spans are both grounded: the scoring judges them"),
    ("optimize_multiword_extractions_at_front", TWO_MEDS, ["Naprosyn and prednisone", "Naprosyn"], False,
     [EXACT, None], [EXACT, EXACT], "the same"),
    ("test_overlapping_text_extractions_with_overlapping_source", "Patient has high blood pressure.",
     ["high blood", "blood pressure"], False, [EXACT, None], [EXACT, EXACT], "overlapping spans are both grounded"),
    ("empty_source_text", "", ["Naprosyn"], False, ["ValueError"], [None],
     "a document with an empty text is a document: its extractions are hallucinations, counted, not an error"),
    ("fuzzy_alignment_success", "Patient has severe heart problems today.",
     ["heart problem", "severe heart problems complications"], True, [FUZZY, LESSER], [EXACT, None],
     "'heart problem' occurs verbatim (inside 'heart problems'): exact, snapped by contract to 'heart' as spacy-llm "
     "does (expand gives 'heart problems'); the longer string's similarity is 0.69"),
    ("test_exact_span_upgraded_over_competing_lesser_extraction", "Patient has severe heart problems today.",
     ["heart problems", "severe heart problems complications"], True, [EXACT, LESSER], [EXACT, None],
     "a string with a word the text does not have is 11 edits from the text: similarity 0.69 < 0.8"),
    ("fuzzy_alignment_subset_window", "The iliopsoas and proximal hamstring tendons are intact.",
     ["The iliopsoas tendon is intact"], True, [FUZZY], [None],
     "four of five words scattered over a 55-character window are not the 30-character string: similarity 0.6"),
    ("fuzzy_alignment_with_reordered_words", "Patient has severe heart problems today.", ["problems heart"], True,
     [FUZZY], [None],
     "langextract's aligner finds nothing and keeps the interval and status the extraction came with "
     "(char_interval 12-33, MATCH_FUZZY); we check a claimed interval, refuse one that does not hold the string "
     "(claimed_mismatches) and ground the string itself: similarity 0.71"),
    ("test_duplicate_extractions_with_single_occurrence_share_span", "Only aspirin appears here.",
     ["aspirin", "aspirin"], True, [EXACT, FUZZY], [EXACT, EXACT],
     "the same span, but the second is an exact repeat (repeat=True, a duplicate spurious) rather than 'fuzzy'"),
    ("gapped_lcs", GAPPED, ["metformin hydrochloride tablet"], FUZZY_ONLY, [FUZZY], [None],
     "three words spread over a 90-character window are not the string"),
    ("test_algorithm_switch_legacy_rejects_lcs_accepts", "alpha beta gamma", ["alpha beta gamma delta"], FUZZY_ONLY,
     [FUZZY], [None], "a missing word is 6 edits of 22 characters: similarity 0.73 (langextract's legacy aligner "
                      "rejects it too)"),
    ("test_sparse_max_match_falls_back_to_dense_submatch",
     "alpha noise noise noise noise noise noise noise noise noise noise beta gamma delta",
     ["alpha beta gamma delta"], FUZZY_ONLY, [FUZZY], [None],
     "similarity 0.77 < 0.8 ('noise beta gamma delta'); at t = 0.75 we ground that window, not langextract's "
     "'beta gamma delta': our 0.75 is not theirs"),
]


def _ours(source: str, strings: list[str], fuzzy: bool | str, **settings: Any) -> tuple[list[str | None], Any]:
    steps = ("fuzzy",) if fuzzy == FUZZY_ONLY else ("exact", "casefold", "normalized", "fuzzy") if fuzzy else (
        "exact", "casefold", "normalized")
    exs = [Extraction("d", "entity", s, k) for k, s in enumerate(strings)]
    g = ground({"d": exs}, {"d": source}, settings=GroundingSettings(steps=steps, **settings))
    by_order = {r["order"]: r for r in g.rows()}
    return [STATUS[by_order[k]["step"]] for k in range(len(strings))], by_order


@pytest.mark.parametrize(("source", "strings", "fuzzy", "statuses", "starts"),
                         [case[1:] for case in LANGEXTRACT_SAME], ids=[case[0] for case in LANGEXTRACT_SAME])
def test_langextract_same_status(source: str, strings: list[str], fuzzy: bool | str, statuses: list[str | None],
                                 starts: list[int | None] | None) -> None:
    ours, rows = _ours(source, strings, fuzzy)
    assert ours == statuses
    if starts is not None:
        assert [rows[k]["start"] for k in range(len(strings))] == starts


def test_langextract_planted_spans_are_its_spans() -> None:
    """The planted cases assert langextract's character interval (451, 481) and matched text; ours is the same."""
    for text in ("metformin hydrochloride tablet", "metformins hydrochlorides tablets"):
        _, rows = _ours(PLANTED, [text], FUZZY_ONLY)
        assert (rows[0]["start"], rows[0]["end"], rows[0]["matched"]) == (451, 481, "metformin hydrochloride tablet")


def test_langextract_out_of_order_extractions_fall_back_gracefully() -> None:
    """Its assertion: both extractions aligned, each interval holding the extraction's text (case aside)."""
    source = "aspirin was given before ibuprofen was considered."
    ours, rows = _ours(source, ["ibuprofen", "aspirin"], True)
    assert None not in ours
    assert [rows[k]["matched"].lower() for k in range(2)] == ["ibuprofen", "aspirin"]


@pytest.mark.parametrize("settings", [{"fuzzy_threshold": 1.5}, {"steps": ("bogus",)}],
                         ids=["out_of_range_threshold", "invalid_algorithm"])
def test_langextract_invalid_parameters_raise(settings: dict[str, Any]) -> None:
    with pytest.raises(ConfigError):
        GroundingSettings(**settings)


@pytest.mark.parametrize(("source", "strings", "fuzzy", "theirs", "ours_expected", "why"),
                         [case[1:] for case in LANGEXTRACT_DIFFERENT], ids=[case[0] for case in LANGEXTRACT_DIFFERENT])
def test_langextract_differences_on_purpose(source: str, strings: list[str], fuzzy: bool | str,
                                            theirs: list[str | None], ours_expected: list[str | None],
                                            why: str) -> None:
    ours, _ = _ours(source, strings, fuzzy)
    assert ours == ours_expected, why
    assert ours != theirs


def test_langextract_reordered_words_claim_is_checked() -> None:
    exs = [Extraction("d", "condition", "problems heart", 0, start=12, end=33)]
    g = ground({"d": exs}, {"d": "Patient has severe heart problems today."})
    assert g.to_dict()["claimed_mismatches"] == 1 and g.n_hallucinations == 1


def test_langextract_threshold_075_is_not_ours() -> None:
    source = "alpha noise noise noise noise noise noise noise noise noise noise beta gamma delta"
    _, rows = _ours(source, ["alpha beta gamma delta"], FUZZY_ONLY, fuzzy_threshold=0.75)
    assert rows[0]["matched"] == "noise beta gamma delta"  # langextract: 'beta gamma delta' (tokens 11-14)


def test_expand_grounds_heart_problem_as_langextract_spans_it() -> None:
    _, rows = _ours("Patient has severe heart problems today.", ["heart problem"], True, snap="expand")
    assert (rows[0]["step"], rows[0]["start"], rows[0]["end"]) == ("exact", 19, 33)
