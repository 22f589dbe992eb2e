"""Every decision as a row (issue 28, item 1): the taxonomy on a sentence with one decision of each kind, its
mapping onto MUC / GATE / SemEval counts, and nervaluate's six README scenarios."""

from __future__ import annotations

import pytest

from spacy_anno_eval.annotations.table import Corpus, SpanTable
from spacy_anno_eval.errors import ConfigError
from spacy_anno_eval.spans.counts import Evaluation
from spacy_anno_eval.spans.decisions import COLUMNS, DECISIONS, ERRORS, MAPPING, counts_of
from spacy_anno_eval.spans.engine import evaluate

from .one_of_each import KEY, RESPONSE, TEXT, corpus


@pytest.fixture
def evaluation() -> Evaluation:
    return evaluate(corpus(KEY), corpus(RESPONSE))


def test_one_decision_of_each_kind_in_document_order(evaluation):
    rows = evaluation.errors(which=DECISIONS)
    assert [r["decision"] for r in rows] == ["correct", "label_error", "boundary_error", "boundary_and_label_error",
                                            "missing", "spurious"]
    assert all(tuple(r) == COLUMNS for r in rows)


def test_errors_leaves_out_the_correct_decisions_by_default(evaluation):
    assert [r["decision"] for r in evaluation.errors()] == list(ERRORS)


def test_a_row_holds_both_sides_and_the_context(evaluation):
    by = {r["decision"]: r for r in evaluation.errors(context=8)}
    boundary = by["boundary_error"]
    assert (boundary["key_text"], boundary["response_text"]) == ("London", "in London")
    assert (boundary["key_label"], boundary["response_label"]) == ("LOC", "LOC")
    assert boundary["key_start"] - boundary["response_start"] == 3
    assert (boundary["left_context"], boundary["right_context"]) == ("Babbage ", " on Mond")
    label = by["label_error"]
    assert (label["key_label"], label["response_label"], label["key_text"]) == ("PER", "LOC", "Charles Babbage")
    missing, spurious = by["missing"], by["spurious"]
    assert missing["response_start"] is None and missing["response_label"] is None
    assert spurious["key_text"] is None and spurious["response_text"] == "Byron"
    assert spurious["right_context"] == " ."


def test_the_context_stops_at_the_text_edges(evaluation):
    first = evaluation.errors(which=["correct"], context=100)[0]
    assert first["left_context"] == "" and first["right_context"] == TEXT[len("Ada Lovelace"):]
    assert evaluation.errors(which=["correct"], context=0)[0]["right_context"] == ""


def test_counts_per_decision_and_per_type(evaluation):
    counts = evaluation.decision_counts()
    assert counts["micro"] == dict.fromkeys(DECISIONS, 1)
    # under the key's label; the spurious response under its own
    assert counts["per_type"]["PER"] == {**dict.fromkeys(DECISIONS, 0), "correct": 1, "label_error": 1,
                                         "missing": 1, "spurious": 1}
    assert counts["per_type"]["DATE"]["boundary_and_label_error"] == 1
    assert sum(c["boundary_error"] for c in counts["per_type"].values()) == 1


def test_the_mapping_gives_the_muc_gate_and_semeval_counts(evaluation):
    """Adding the decisions as MAPPING says gives the counts the measures compute from the same pairs."""
    micro = evaluation.decision_counts()["micro"]

    def total(system: str, category: str) -> int:
        return sum(n for d, n in micro.items() if category in MAPPING[d][system].split(" + "))

    report = evaluation.report()
    muc = report["muc"]
    assert [total("muc", c) for c in ("COR", "INC", "PAR", "MIS", "SPU")] == \
        [muc["COR"], muc["INC"], muc["PAR"], muc["MIS"], muc["SPU"]]
    gate = report["counts"]
    assert [total("gate", c) for c in ("Correct", "Partial", "Missing", "Spurious")] == \
        [gate["correct"], gate["partial"], gate["missing"], gate["spurious"]]
    strict = report["semeval"]["strict"]
    assert [total("semeval_strict", c) for c in ("COR", "INC", "MIS", "SPU")] == \
        [strict["COR"], strict["INC"], strict["MIS"], strict["SPU"]]


def test_merged_evaluations_keep_their_decision_counts(evaluation):
    merged = Evaluation.concat([evaluation.without_pairs(), evaluation.without_pairs()])
    assert merged.decision_counts()["micro"] == dict.fromkeys(DECISIONS, 2)
    with pytest.raises(ConfigError, match="keeps no pairs"):
        merged.errors()


def test_an_unknown_decision_or_a_bad_context_is_refused_naming_what_exists(evaluation):
    with pytest.raises(ConfigError, match="unknown decision.*'wrong'.*boundary_error"):
        evaluation.errors(which=["wrong"])
    for bad in (-1, 2.5, True, "3"):
        with pytest.raises(ConfigError, match="context"):
            evaluation.errors(context=bad)


def test_counts_of_reads_one_field_per_decision():
    # FIELDS: correct, partial, incorrect, overlap, missing, spurious, incorrect_r, overlap_r
    assert counts_of([1, 2, 3, 4, 5, 6, 7, 8]) == {"correct": 1, "label_error": 3, "boundary_error": 2,
                                                   "boundary_and_label_error": 4, "missing": 5, "spurious": 6}


# nervaluate's README, §"the six scenarios" (BRAND / DRUG / GROUP): one scenario of each kind
DRUG_TRUE = "B-BRAND O O O O B-DRUG O B-DRUG O B-DRUG O O B-GROUP".split()
DRUG_PRED = "O O B-BRAND O B-DRUG I-DRUG O B-BRAND O B-DRUG O B-DRUG I-DRUG".split()


def _iob2(tags: list[str]) -> list[tuple[int, int, str]]:
    spans, start, label = [], None, None
    for i, tag in enumerate([*tags, "O"]):
        prefix, _, typ = tag.partition("-")
        if label is not None and not (prefix == "I" and typ == label):
            spans.append((start, i, label))
            label = None
        if prefix == "B" or (prefix == "I" and label is None):
            start, label = i, typ
    return spans


def test_nervaluates_six_scenarios_are_one_decision_each():
    """nervaluate's README names the scenarios: correct (GROUP), spurious (BRAND, 2-3), missing (BRAND, 0),
    label error (DRUG 7 as BRAND), boundary error (DRUG 5 as 4-5), boundary and label error (GROUP 12 as DRUG
    11-12); its strict schema counts them COR 1, INC 3, MIS 1, SPU 1 (tests/reference/test_nervaluate.py checks
    that against nervaluate itself)."""
    labels = ["BRAND", "DRUG", "GROUP"]

    def table(spans):
        return SpanTable([0] * len(spans), [s for s, _, _ in spans], [e for _, e, _ in spans],
                         [labels.index(lab) for _, _, lab in spans], labels)

    text = "x" * len(DRUG_TRUE)
    ev = evaluate(Corpus(["d"], [text], {"ents": table(_iob2(DRUG_TRUE))}),
                  Corpus(["d"], [text], {"ents": table(_iob2(DRUG_PRED))}))
    micro = ev.decision_counts()["micro"]
    assert micro == {"correct": 1, "label_error": 1, "boundary_error": 1, "boundary_and_label_error": 1,
                     "missing": 1, "spurious": 1}
    strict = ev.report()["semeval"]["strict"]
    assert (strict["COR"], strict["INC"], strict["MIS"], strict["SPU"]) == (1, 3, 1, 1)


def test_the_dataframe_doors_give_the_same_rows(evaluation):
    pd = pytest.importorskip("pandas")
    from spacy_anno_eval.report.rows import to_dataframe

    errors = to_dataframe(evaluation, what="errors", context=5)
    assert isinstance(errors, pd.DataFrame) and list(errors.columns) == list(COLUMNS)
    as_rows = errors.astype(object).where(errors.notna(), None).to_dict("records")  # <NA> / NaN back to None
    assert as_rows == evaluation.errors(context=5)
    assert str(errors["response_start"].dtype) == "Int64"
    assert list(to_dataframe(evaluation, what="decisions")["decision"]) == list(DECISIONS)
    assert len(to_dataframe(evaluation)) == len(to_dataframe(evaluation, what="figures"))
    with pytest.raises(ConfigError, match="figures, errors, decisions"):
        to_dataframe(evaluation, what="rows")
    with pytest.raises(ConfigError, match="a report dict has none"):
        to_dataframe(evaluation.report(), what="errors")
