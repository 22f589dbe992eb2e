"""The grounding ladder (spacy_anno_eval.llm.grounding) on hand-made cases: each step, repeated names and the
order-preserving choice of occurrences, case folding with 'ß', a typo at and around the fuzzy threshold,
typographic quotes and dashes, hallucinations, a string across a token boundary under each snap mode, claimed
offsets, settings errors; then the pieces on their own: the snapping against spaCy's ``Doc.char_span`` on every
span of several texts, the longest chain against brute force, the greedy shortcut against the chain, the text
maps. The peers' own examples are in ``test_grounding_peers.py``.
"""

from __future__ import annotations

import itertools
import json
import math
import random

import pytest

from spacy_anno_eval.errors import ConfigError, InputError
from spacy_anno_eval.llm.extractions import Extraction, Extractions
from spacy_anno_eval.llm.grounding import (
    BELOW_THRESHOLD,
    EMPTY,
    HALLUCINATION,
    NOT_FOUND,
    NOT_ON_TOKENS,
    Grounding,
    GroundingSettings,
    ground,
    parse_ground,
)
from spacy_anno_eval.llm.normalize import QUOTES_AND_DASHES, casefold_map, normalize, normalized_map
from spacy_anno_eval.llm.occurrences import longest_chain
from spacy_anno_eval.llm.snap import Tokens


def run(text: str, *strings: str | tuple[str, str], tokens: list[tuple[int, int]] | None = None,
        **settings: object) -> Grounding:
    """Ground one document's strings (``(label, string)`` or a string labelled ``X``)."""
    exs = [Extraction("d", *(s if isinstance(s, tuple) else ("X", s)), k) for k, s in enumerate(strings)]
    return ground({"d": exs}, {"d": text}, tokens=None if tokens is None else {"d": tokens},
                  settings=GroundingSettings(**settings))


def spans(g: Grounding) -> list[tuple[str, int, int, str, bool]]:
    """(extraction text, start, end, step, repeat) of every grounded annotation."""
    return [(x.extraction.text, x.start, x.end, x.step, x.repeat) for x in g.documents["d"].grounded]


def reasons(g: Grounding) -> list[tuple[str, str]]:
    return [(h.extraction.text, h.reason) for h in g.documents["d"].hallucinations]


# --- repeated names: order kept, first unused otherwise, ground_all, repeats ---------------------------------------

PARIS = "Paris met Paris in London."  # Paris at 0 and 10, London at 19


def test_a_repeated_name_is_grounded_in_the_order_the_extractions_list_it() -> None:
    assert spans(run(PARIS, "Paris", "Paris", "London")) == [
        ("Paris", 0, 5, "exact", False), ("Paris", 10, 15, "exact", False), ("London", 19, 25, "exact", False)]


def test_the_order_of_the_list_picks_the_occurrence() -> None:
    text = "Paris, then London, then Paris again."
    # London is listed first: the Paris after it keeps the list's order
    assert spans(run(text, "London", "Paris")) == [("London", 12, 18, "exact", False),
                                                   ("Paris", 25, 30, "exact", False)]
    assert spans(run(text, "Paris", "London")) == [("Paris", 0, 5, "exact", False),
                                                   ("London", 12, 18, "exact", False)]


def test_an_extraction_out_of_the_chain_takes_the_first_unused_occurrence() -> None:
    # London (19) then Paris: no Paris comes after London, so the chain holds one of them (London, listed
    # first); Paris takes its first unused occurrence
    assert spans(run(PARIS, "London", "Paris")) == [("London", 19, 25, "exact", False), ("Paris", 0, 5, "exact", False)]


def test_a_string_repeated_more_often_than_it_occurs_is_a_repeat() -> None:
    g = run("Only Paris here.", ("LOC", "Paris"), ("PER", "Paris"))
    assert spans(g) == [("Paris", 5, 10, "exact", False), ("Paris", 5, 10, "exact", True)]
    assert g.n_repeats == 1 and g.n_hallucinations == 0
    assert g.by_label["PER"]["repeats"] == 1 and g.by_label["LOC"]["repeats"] == 0


def test_ground_all_grounds_every_occurrence() -> None:
    g = run(PARIS, "Paris", "Paris", ground_all=True)
    assert spans(g) == [("Paris", 0, 5, "exact", False), ("Paris", 10, 15, "exact", False),
                        ("Paris", 0, 5, "exact", True), ("Paris", 10, 15, "exact", True)]
    assert g.n_annotations == 4 and g.n_repeats == 2 and g.n_extractions == 2
    assert g.by_step["exact"] == 2


def test_ground_all_takes_the_occurrences_of_the_step_that_finds_the_string() -> None:
    text = "This guy jean (or Jean) is the president of the Jean Foundation."
    assert [s[1] for s in spans(run(text, "Jean", ground_all=True))] == [18, 48]  # exact finds two
    assert [s[1] for s in spans(run(text, "JEAN", ground_all=True))] == [9, 18, 48]  # casefold finds three


# --- case, casefold offsets -----------------------------------------------------------------------------------------

def test_a_name_with_different_case_is_grounded_by_casefold() -> None:
    g = run("Ada Lovelace wrote the notes.", "ADA LOVELACE", "ada lovelace")
    assert spans(g) == [("ADA LOVELACE", 0, 12, "casefold", False), ("ada lovelace", 0, 12, "casefold", True)]
    assert g.documents["d"].grounded[0].similarity == 1.0


def test_casefold_maps_offsets_back_where_folding_lengthens_the_text() -> None:
    # 'ß' folds to 'ss': the folded text is one character longer after it
    assert spans(run("Maß und Gewicht: Berlin", "BERLIN")) == [("BERLIN", 17, 23, "casefold", False)]
    assert spans(run("Die Straße ist lang", "STRASSE")) == [("STRASSE", 4, 10, "casefold", False)]
    # 'SS' is the whole 'ß'; 'se' would begin inside it, so it is not found
    assert spans(run("Straße", "SS", steps=("casefold",), snap="none")) == [("SS", 4, 5, "casefold", False)]
    assert reasons(run("Straße", "se", steps=("casefold",), snap="none")) == [("se", NOT_FOUND)]


def test_casefold_map_of_a_text_whose_length_folding_keeps_is_one_to_one() -> None:
    m = casefold_map("ÉCOLE")
    assert m.text == "école" and m.starts is None and m.original(1, 3) == (1, 3)
    assert casefold_map("Maß").starts == [0, 1, 2, 2]


# --- typos: fuzzy on, off, at the threshold ---------------------------------------------------------------------------

LOVELACE = "A talk by Ada Lovelace today."


def test_a_typo_is_grounded_by_the_fuzzy_step() -> None:
    g = run(LOVELACE, "Ada Lovelase")
    (x,) = g.documents["d"].grounded
    assert (x.start, x.end, x.step) == (10, 22, "fuzzy")
    assert x.similarity == pytest.approx(1 - 1 / 12)


def test_without_the_fuzzy_step_a_typo_is_a_hallucination() -> None:
    g = run(LOVELACE, "Ada Lovelase", steps=("exact", "casefold", "normalized"))
    assert reasons(g) == [("Ada Lovelase", NOT_FOUND)]
    assert g.documents["d"].hallucinations[0].similarity is None


def test_the_fuzzy_threshold_is_inclusive() -> None:
    text = "They met Marie in Paris."
    # 'Maxie': 5 characters, one substitution: similarity 1 - 1/5 = 0.8
    assert spans(run(text, "Maxie", fuzzy_threshold=0.8)) == [("Maxie", 9, 14, "fuzzy", False)]
    g = run(text, "Maxie", fuzzy_threshold=0.81)
    assert reasons(g) == [("Maxie", BELOW_THRESHOLD)]
    assert g.documents["d"].hallucinations[0].similarity == pytest.approx(0.8)


def test_fuzzy_takes_the_similarity_of_the_snapped_span() -> None:
    # 'Ada Lovel' is found (similarity 1.0) at 10-19, inside 'Lovelace': contract keeps 'Ada' (1 - 6/9) and the
    # threshold refuses it; expand keeps 'Ada Lovelace' (1 - 3/9); 'none' keeps the characters as found
    assert reasons(run(LOVELACE, "Ada Lovel", steps=("fuzzy",))) == [("Ada Lovel", BELOW_THRESHOLD)]
    assert spans(run(LOVELACE, "Ada Lovel", steps=("fuzzy",), snap="none")) == [("Ada Lovel", 10, 19, "fuzzy", False)]
    assert reasons(run(LOVELACE, "Ada Lovel", steps=("fuzzy",), snap="strict")) == [("Ada Lovel", NOT_ON_TOKENS)]


def test_fuzzy_works_beyond_edlibs_256_characters() -> None:
    rng = random.Random(3)
    noise = "".join(chr(0x4E00 + rng.randrange(2000)) for _ in range(600))
    text = noise + " 北京大学 " + noise
    g = run(text, "北京大字", steps=("fuzzy",), fuzzy_threshold=0.75)
    (x,) = g.documents["d"].grounded
    assert text[x.start:x.end] == "北京大学" and x.similarity == 0.75


# --- normalized: quotes, dashes, white space, NFKC ------------------------------------------------------------------

def test_curly_quotes_and_dashes_are_grounded_by_normalized() -> None:
    assert spans(run("the “Blue Moon” café", '"Blue Moon"')) == [('"Blue Moon"', 4, 15, "normalized", False)]
    assert spans(run("Rio–Antimary x", "Rio-Antimary")) == [("Rio-Antimary", 0, 12, "normalized", False)]
    assert spans(run("He said ‘yes’ — twice", "'yes' - twice")) == [("'yes' - twice", 8, 21, "normalized", False)]


def test_normalized_collapses_white_space_and_applies_nfkc() -> None:
    assert spans(run("New  York\nCity!", "new york city")) == [("new york city", 0, 14, "normalized", False)]
    assert spans(run("Visit Ｔｏｋｙｏ now", "Tokyo")) == [("Tokyo", 6, 11, "normalized", False)]
    assert spans(run("a  Tokyo ", "  Tokyo  ")) == [("  Tokyo  ", 3, 8, "normalized", False)]


def test_the_quote_and_dash_table_is_what_the_normalized_form_applies() -> None:
    for ch, ascii_ in QUOTES_AND_DASHES.items():
        assert normalize(f"a{ch}b") == f"a{ascii_}b"
    m = normalized_map("Ｅ\u0301cole  “x”")  # a combining mark stays with its letter; the white space is one space
    assert m.text == 'école "x"'
    assert m.original(0, 1) == (0, 2) and m.original(5, 6) == (6, 8) and m.original(6, 9) == (8, 11)


# --- hallucinations ---------------------------------------------------------------------------------------------------

def test_a_hallucination_is_counted_with_its_rate_and_row_never_dropped() -> None:
    g = run("Ada met Charles in London.", ("PER", "Ada"), ("LOC", "Mars"), ("PER", "Charles"), ("LOC", "  "))
    assert reasons(g) == [("Mars", BELOW_THRESHOLD), ("  ", EMPTY)]
    assert (g.n_extractions, g.n_hallucinations, g.hallucination_rate) == (4, 2, 0.5)
    assert g.by_step == {"claimed": 0, "exact": 2, "casefold": 0, "normalized": 0, "fuzzy": 0, HALLUCINATION: 2}
    assert g.by_label == {"LOC": {"extractions": 2, "grounded": 0, "hallucinations": 2, "repeats": 0},
                          "PER": {"extractions": 2, "grounded": 2, "hallucinations": 0, "repeats": 0}}
    rows = g.rows()
    assert [(r["order"], r["text"], r["step"], r["reason"]) for r in rows] == [
        (0, "Ada", "exact", None), (1, "Mars", HALLUCINATION, BELOW_THRESHOLD), (2, "Charles", "exact", None),
        (3, "  ", HALLUCINATION, EMPTY)]
    assert rows[0]["matched"] == "Ada" and rows[1]["start"] is None
    data = g.to_dict()
    json.dumps(data, allow_nan=False)
    assert data["hallucinations"] == 2 and data["hallucination_rate"] == 0.5
    assert [h["text"] for h in data["documents"]["d"]["hallucinations"]] == ["Mars", "  "]


def test_an_empty_text_makes_every_extraction_a_hallucination() -> None:
    g = run("", "Naprosyn", "")
    assert reasons(g) == [("Naprosyn", NOT_FOUND), ("", EMPTY)]


def test_no_extraction_has_no_rate() -> None:
    g = ground({"d": []}, {})
    assert g.n_extractions == 0 and g.hallucination_rate is None and g.rows() == []


# --- a string across a token boundary, under each snap mode ----------------------------------------------------------

JEAN = "Jean Jacques and Jaime went to the library."


@pytest.mark.parametrize("given", [False, True], ids=["word rule", "tokens given"])
@pytest.mark.parametrize(("snap", "expected"), [
    ("strict", None), ("contract", (0, 4)), ("expand", (0, 12)), ("none", (0, 8))])
def test_a_string_across_a_token_boundary_under_each_snap_mode(snap: str, expected: tuple[int, int] | None,
                                                               given: bool) -> None:
    tokens = [(0, 4), (5, 12), (13, 16), (17, 22), (23, 27), (28, 30), (31, 34), (35, 42), (42, 43)]
    g = run(JEAN, "Jean Jac", snap=snap, tokens=tokens if given else None)
    if expected is None:
        assert reasons(g) == [("Jean Jac", NOT_ON_TOKENS)]
    else:
        (x,) = g.documents["d"].grounded
        assert (x.start, x.end, x.step) == (*expected, "exact")
        assert x.similarity == (1.0 if snap == "none" else 1 - abs(expected[1] - 8) / 8)


def test_strict_tries_the_next_occurrence_when_one_is_not_on_tokens() -> None:
    # 'Jac' inside 'Jacques' is refused; the standalone 'Jac' later is taken
    assert spans(run("Jacques and Jac", "Jac", snap="strict")) == [("Jac", 12, 15, "exact", False)]


def test_a_string_inside_a_word_is_a_hallucination_under_contract() -> None:
    assert reasons(run(JEAN, "aim")) == [("aim", NOT_ON_TOKENS)]
    assert spans(run(JEAN, "aim", snap="expand")) == [("aim", 17, 22, "exact", False)]


# --- claimed offsets ------------------------------------------------------------------------------------------------

def test_claimed_offsets_that_hold_the_string_are_used_first() -> None:
    exs = [Extraction("d", "LOC", "Paris", 0, start=10, end=15), Extraction("d", "LOC", "Paris", 1)]
    g = ground({"d": exs}, {"d": PARIS})
    assert [(x.start, x.step, x.repeat) for x in g.documents["d"].grounded] == [(10, "claimed", False),
                                                                              (0, "exact", False)]
    assert g.by_step["claimed"] == 1 and g.to_dict()["claimed_mismatches"] == 0


def test_a_claimed_occurrence_is_taken_before_the_others_are_placed() -> None:
    exs = [Extraction("d", "LOC", "Paris", 0), Extraction("d", "LOC", "Paris", 1, start=0, end=5)]
    g = ground({"d": exs}, {"d": PARIS})
    assert [(x.extraction.order, x.start, x.step) for x in g.documents["d"].grounded] == [(0, 10, "exact"),
                                                                                       (1, 0, "claimed")]
    assert [r["order"] for r in g.rows()] == [0, 1]


def test_wrong_claimed_offsets_are_counted_and_the_ladder_grounds_the_string() -> None:
    exs = [Extraction("d", "LOC", "Paris", 0, start=3, end=8), Extraction("d", "LOC", "London", 1, start=99, end=105)]
    g = ground({"d": exs}, {"d": PARIS})
    assert [(x.start, x.step) for x in g.documents["d"].grounded] == [(0, "exact"), (19, "exact")]
    assert g.to_dict()["claimed_mismatches"] == 2


def test_claimed_offsets_can_be_ignored() -> None:
    exs = [Extraction("d", "LOC", "Paris", 0, start=10, end=15)]
    g = ground({"d": exs}, {"d": PARIS}, settings=GroundingSettings(use_claimed_offsets=False))
    assert [(x.start, x.step) for x in g.documents["d"].grounded] == [(0, "exact")]
    assert "claimed" not in g.by_step


# --- inputs and settings --------------------------------------------------------------------------------------------

def test_a_document_without_text_is_an_error_naming_ids_that_exist() -> None:
    exs = {"a": [Extraction("a", "X", "x", 0)], "zz": [Extraction("zz", "X", "x", 0)]}
    with pytest.raises(InputError, match=r"1 document\(s\) with extractions have no text: 'zz'.*'a'"):
        ground(exs, {"a": "x"})
    with pytest.raises(InputError, match="have no tokens: 'zz'"):
        ground(exs, {"a": "x", "zz": "x"}, tokens={"a": [(0, 1)]})
    with pytest.raises(InputError, match="not sorted, non-overlapping"):
        ground({"a": exs["a"]}, {"a": "x y"}, tokens={"a": [(2, 3), (0, 1)]})
    with pytest.raises(ConfigError, match="GroundingSettings"):
        ground(exs, {"a": "x", "zz": "x"}, settings={"steps": ["exact"]})  # type: ignore[arg-type]


def test_extractions_are_taken_as_their_documents() -> None:
    ex = Extractions({"d": [Extraction("d", "X", "Ada", 0)]})
    assert ground(ex, {"d": "Ada"}).n_extractions == 1


@pytest.mark.parametrize(("settings", "message"), [
    ({"steps": ("exact", "regex")}, "unknown grounding step 'regex'; the steps are exact, casefold, normalized"),
    ({"steps": ("casefold", "exact")}, "must keep the ladder's order"),
    ({"steps": ("exact", "exact")}, "'exact' is given twice"),
    ({"steps": ()}, "at least one grounding step"),
    ({"steps": 3}, "sequence of step names"),
    ({"fuzzy_threshold": 0}, r"in \(0, 1\]"),
    ({"fuzzy_threshold": 1.5}, r"got 1\.5"),
    ({"fuzzy_threshold": math.nan}, "got nan"),
    ({"fuzzy_threshold": True}, "got True"),
    ({"fuzzy_threshold": "high"}, "got 'high'"),
    ({"snap": "nearest"}, "strict, contract, expand, none"),
    ({"ground_all": "yes"}, "ground_all must be True or False"),
    ({"use_claimed_offsets": 1}, "use_claimed_offsets must be True or False"),
])
def test_settings_errors_name_the_bad_value_and_what_exists(settings: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        GroundingSettings(**settings)  # type: ignore[arg-type]


def test_parse_ground_reads_the_cli_form() -> None:
    s = parse_ground("exact,casefold,normalized,fuzzy:0.8")
    assert s == GroundingSettings() and s.spec == "exact,casefold,normalized,fuzzy:0.8"
    assert parse_ground(" exact , fuzzy ").fuzzy_threshold == 0.8
    s = parse_ground("casefold,fuzzy:0.75", ground_all=True, snap="expand")
    assert (s.steps, s.fuzzy_threshold, s.ground_all, s.snap) == (("casefold", "fuzzy"), 0.75, True, "expand")
    assert GroundingSettings(steps="exact,casefold").steps == ("exact", "casefold")
    assert s.to_dict()["spec"] == "casefold,fuzzy:0.75"


@pytest.mark.parametrize(("spec", "message"), [
    ("exact:0.5", "only fuzzy takes a threshold"),
    ("fuzzy:abc", "must be a number in"),
    ("fuzzy:1.2", r"fuzzy_threshold must be a number in \(0, 1\]"),
    ("", "--ground needs steps"),
    ("exact,,fuzzy", "unknown grounding step ''"),
    ("fuzzy,exact", "must keep the ladder's order"),
])
def test_parse_ground_errors(spec: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        parse_ground(spec)


# --- the pieces: snapping against spaCy, the chain against brute force ------------------------------------------------

SNAP_TEXTS = ["Jean Jacques and Jaime went to the library.", "  Hello,  world!\n\nNew  line -- U.S. isn't it? ",
              "FooBar, Inc. is large", "x  ", "Straße‐Nord “quoted” text."]


def test_snapping_gives_what_spacys_char_span_gives_on_every_span() -> None:
    spacy = pytest.importorskip("spacy")
    nlp = spacy.blank("en")
    for text in SNAP_TEXTS:
        doc = nlp.make_doc(text)
        tokens = Tokens(text, [(t.idx, t.idx + len(t)) for t in doc])
        for start, end in itertools.combinations(range(len(text) + 1), 2):
            for mode in ("strict", "contract", "expand"):
                span = doc.char_span(start, end, alignment_mode=mode)
                want = None if span is None or not len(span) else (span.start_char, span.end_char)
                assert tokens.snap(start, end, mode) == want, (text, start, end, mode)


def test_the_word_rule() -> None:
    t = Tokens("Jean-Jacques's  café_2 !")
    assert [t.snap(a, b, "strict") for a, b in [(0, 4), (4, 5), (0, 12), (15, 16), (16, 22), (23, 24)]] == [
        (0, 4), (4, 5), (0, 12), None, (16, 22), (23, 24)]
    assert t.snap(1, 6, "expand") == (0, 12) and t.snap(1, 6, "contract") == (4, 5)


def _brute_chain(cands: list[list[tuple[tuple[int, int], float]]]) -> dict[int, tuple[tuple[int, int], float]]:
    """The rule of longest_chain by enumeration: the longest chains, then in list order the first occurrence."""
    options = [[None, *cs] for cs in cands]
    best: list[tuple[object, ...]] = []
    size = -1
    for pick in itertools.product(*options):
        chosen = [c[0] for c in pick if c is not None]
        if all(a < b for a, b in itertools.pairwise(chosen)) and len(chosen) >= size:
            if len(chosen) > size:
                best, size = [], len(chosen)
            best.append(pick)

    def rank(pick: tuple[object, ...]) -> list[tuple[int, tuple[int, int]]]:
        # an extraction in the chain before one left out; then the earliest occurrence
        return [(0, c[0]) if c is not None else (1, (0, 0)) for c in pick]  # type: ignore[index]

    pick = min(best, key=rank)
    return {i: c for i, c in enumerate(pick) if c is not None}  # type: ignore[misc]


def test_the_longest_chain_is_the_brute_forces() -> None:
    rng = random.Random(7)
    for _ in range(3000):
        positions = list(range(rng.randint(1, 5)))
        cands = [[((p, p + 1), 1.0) for p in sorted(rng.sample(positions, rng.randint(1, len(positions))))]
                 for _ in range(rng.randint(1, 5))]
        assert longest_chain(cands) == _brute_chain(cands), cands


def test_placement_follows_the_stated_rule_on_random_documents() -> None:
    """ground's placement (its greedy shortcut where the list is in text order, the chain otherwise) against the
    module docstring's rule computed by enumeration: a longest chain, then the first unused occurrence, then a
    repeat."""
    rng = random.Random(11)
    words = ["Ada", "Bob", "Cy", "Dee"]
    shortcut = 0
    for _ in range(1500):
        text = " ".join(rng.choice(words) for _ in range(rng.randint(1, 8)))
        strings = [rng.choice(words) for _ in range(rng.randint(1, 6))]
        g = run(text, *strings, steps=("exact",))
        assert [(x.start, x.end, x.repeat) for x in g.documents["d"].grounded] == _expected(text, strings)
        starts = [x.start for x in g.documents["d"].grounded if not x.repeat]
        shortcut += starts == sorted(starts)
    assert 300 < shortcut < 1400  # both paths ran


def _expected(text: str, strings: list[str]) -> list[tuple[int, int, bool]]:
    """The module docstring's rule computed directly: the brute-force chain, then first unused, then repeats."""
    cands = []
    for s in strings:
        occ = []
        i = text.find(s)
        while i >= 0:
            if (i == 0 or text[i - 1] == " ") and (i + len(s) == len(text) or text[i + len(s)] == " "):
                occ.append(((i, i + len(s)), 1.0))
            i = text.find(s, i + len(s))
        cands.append(occ)
    found = [i for i, cs in enumerate(cands) if cs]
    chosen = _brute_chain([cands[i] for i in found]) if found else {}
    taken = {c[0] for c in chosen.values()}
    out = []
    for j, i in enumerate(found):
        c = chosen.get(j)
        repeat = False
        if c is None:
            c = next((c for c in cands[i] if c[0] not in taken), None)
            if c is None:
                c, repeat = cands[i][0], True
            else:
                taken.add(c[0])
        out.append((c[0][0], c[0][1], repeat))
    return out


def test_ground_takes_the_key_as_spacy_docs_and_snaps_to_their_tokens():
    """``ground(extractions, docs)``: ids by the package's rule (user_data id, else position), the Docs' texts
    and tokens (here "Lovelace's" is two tokens, so "Lovelace" snaps without the clitic)."""
    import spacy

    from spacy_anno_eval.llm.extractions import Extraction

    nlp = spacy.blank("en")
    docs = [nlp("Ada Lovelace's notes."), nlp("Babbage replied.")]
    docs[1].user_data["id"] = "b"
    g = ground({"0": [Extraction("0", "PER", "Lovelace", 0)], "b": [Extraction("b", "PER", "babbage", 0)]}, docs)
    assert [(x.start, x.end, x.step) for x in g.documents["0"].grounded] == [(4, 12, "exact")]
    assert [(x.start, x.end, x.step) for x in g.documents["b"].grounded] == [(0, 7, "casefold")]
