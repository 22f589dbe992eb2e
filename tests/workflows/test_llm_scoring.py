"""A language model's extractions scored by the span engine (issue 30, the door): grounded in the key's texts,
hallucinations spurious in an appendix of their document, the figures worked out by hand, in every format.

The case (:func:`write_case`): four documents, the key a spaCy JSONL file; the model's output names a person
twice where the text names her twice (order kept), changes the case of a name, misspells a country, extracts
a shorter span of an organisation (a partial match), makes up two strings, and says nothing about the fourth
document. By hand, over the 9 key annotations:

- correct C = 5 (Ada Lovelace ×2, Charles Babbage, Paris, France), partial Pa = 1 (Royal Society),
  missing M = 3 (Babbage; d4's Alan Turing and London), spurious S = 2 (the two hallucinations);
- strict P = 5 / 8, R = 5 / 9; lenient P = 6 / 8, R = 6 / 9;
- grounding: 8 extractions, exact 4 (langextract: 1 by its claimed offsets, then 3), casefold 1, fuzzy 1,
  hallucinations 2 (rate 1 / 4);
- set mode (UniversalNER's normalisation, "the Royal Society" = "Royal Society"): 5 correct of 9 key and
  8 response pairs.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from spacy_anno_eval.annotations.table import Corpus, SpanTableBuilder
from spacy_anno_eval.errors import ConfigError, InputError
from spacy_anno_eval.files import json_text
from spacy_anno_eval.llm.extractions import Extraction, Extractions, Triple
from spacy_anno_eval.spans.engine import evaluate
from spacy_anno_eval.workflows.llm import MARKER, score_extractions, with_appendix
from spacy_anno_eval.workflows.llm_relations import score_relation_extractions

TEXTS = {
    "d1": "Ada Lovelace met Charles Babbage. Babbage admired Ada Lovelace.",
    "d2": "Paris is the capital of France.",
    "d3": "She joined the Royal Society in 1843.",
    "d4": "Alan Turing was born in London.",
}
KEY = {
    "d1": [(0, 12, "PER"), (17, 32, "PER"), (34, 41, "PER"), (50, 62, "PER")],
    "d2": [(0, 5, "LOC"), (24, 30, "LOC")],
    "d3": [(11, 28, "ORG")],
    "d4": [(0, 11, "PER"), (24, 30, "LOC")],
}
#: what the model extracted, in its order: a repeated name, a case change, a typo, a shorter span, two made up
EXTRACTED = {
    "d1": [("PER", "Ada Lovelace"), ("PER", "charles babbage"), ("PER", "Ada Lovelace"), ("PER", "Grace Hopper")],
    "d2": [("LOC", "Paris"), ("LOC", "Frence"), ("LOC", "Tokyo")],
    "d3": [("ORG", "Royal Society")],
}
FORMATS = ("llm-json", "llm-ner", "langextract")


def write_key(folder: Path, texts: dict[str, str] = TEXTS, key: dict = KEY) -> Path:
    path = folder / "key.jsonl"
    lines = [json.dumps({"text": texts[d], "meta": {"id": d},
                         "spans": [{"start": s, "end": e, "label": lab} for s, e, lab in key.get(d, [])]})
             for d in texts]
    path.write_text("\n".join(lines) + "\n", encoding="utf8")
    return path


def write_output(folder: Path, fmt: str, extracted: dict = EXTRACTED) -> Path:
    """The model's output in ``fmt``: llm-json lists, spacy-llm's ``LABEL: a, b`` lines, or langextract's
    annotated documents (the first extraction with offsets it claims, the others unaligned)."""
    lines = []
    for d, items in extracted.items():
        if fmt == "llm-json":
            lines.append({"id": d, "entities": [{"label": lab, "text": t} for lab, t in items]})
        elif fmt == "llm-ner":
            by_label: dict[str, list[str]] = {}
            for lab, t in items:
                by_label.setdefault(lab, []).append(t)
            lines.append({"id": d, "response": "\n".join(f"{lab}: {', '.join(ts)}" for lab, ts in by_label.items())})
        else:
            found = []
            for i, (lab, t) in enumerate(items):
                start = TEXTS[d].find(t) if i == 0 and d == "d1" else -1
                found.append({"extraction_class": lab, "extraction_text": t, "extraction_index": i + 1,
                              "char_interval": {"start_pos": start, "end_pos": start + len(t)} if start >= 0 else None,
                              "alignment_status": "match_exact" if start >= 0 else None})
            lines.append({"document_id": d, "text": TEXTS[d], "extractions": found})
    path = folder / f"output-{fmt}.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in lines), encoding="utf8")
    return path


def write_case(folder: Path, fmt: str = "llm-json", extracted: dict = EXTRACTED) -> tuple[Path, Path]:
    return write_key(folder), write_output(folder, fmt, extracted)


def extractions(extracted: dict = EXTRACTED) -> dict[str, list[Extraction]]:
    return {d: [Extraction(d, lab, t, i) for i, (lab, t) in enumerate(items)] for d, items in extracted.items()}


# -- the figures ----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", FORMATS)
def test_strict_and_lenient_figures_worked_out_by_hand(tmp_path: Path, fmt: str) -> None:
    key, output = write_case(tmp_path, fmt)
    report = score_extractions(key, output, fmt=fmt).report()
    assert report["counts"] == {"correct": 5, "partial": 1, "missing": 3, "spurious": 2, "incorrect": 0}
    assert (report["micro"]["strict"]["p"], report["micro"]["strict"]["r"]) == pytest.approx((5 / 8, 5 / 9))
    assert (report["micro"]["lenient"]["p"], report["micro"]["lenient"]["r"]) == pytest.approx((6 / 8, 6 / 9))
    assert report["micro"]["average"]["p"] == pytest.approx(5.5 / 8)
    per_type = {label: entry["counts"] for label, entry in report["per_type"].items()}
    assert per_type["PER"] == {"correct": 3, "partial": 0, "missing": 2, "spurious": 1, "incorrect": 0}
    assert per_type["LOC"] == {"correct": 2, "partial": 0, "missing": 1, "spurious": 1, "incorrect": 0}
    assert per_type["ORG"] == {"correct": 0, "partial": 1, "missing": 0, "spurious": 0, "incorrect": 0}
    assert report["muc"]["SPU"] == 2 and report["muc"]["ACT"] == 8
    docs = {row["id"]: row["counts"] for row in report["per_doc"]}
    assert docs["d1"] == {"correct": 3, "partial": 0, "missing": 1, "spurious": 1, "incorrect": 0}
    assert docs["d4"] == {"correct": 0, "partial": 0, "missing": 2, "spurious": 0, "incorrect": 0}  # no extraction


@pytest.mark.parametrize("fmt", FORMATS)
def test_the_grounding_table_counts_each_step(tmp_path: Path, fmt: str) -> None:
    key, output = write_case(tmp_path, fmt)
    table = score_extractions(key, output, fmt=fmt).report(rows=True)["grounding"]
    claimed = 1 if fmt == "langextract" else 0
    assert table["by_step"] == {"claimed": claimed, "exact": 4 - claimed, "casefold": 1, "normalized": 0,
                                "fuzzy": 1, "hallucination": 2}
    assert (table["extractions"], table["hallucinations"], table["hallucination_rate"]) == (8, 2, 0.25)
    assert table["by_step_share"]["hallucination"] == 0.25 and table["by_step_share"]["casefold"] == 1 / 8
    made_up = [(r["doc"], r["text"], r["step"]) for r in table["rows"] if r["start"] is None]
    assert made_up == [("d1", "Grace Hopper", "hallucination"), ("d2", "Tokyo", "hallucination")]
    fuzzy = next(r for r in table["rows"] if r["step"] == "fuzzy")
    assert (fuzzy["text"], fuzzy["matched"], fuzzy["similarity"]) == ("Frence", "France", pytest.approx(5 / 6))


def test_hallucinations_lower_precision_exactly_as_spurious_answers(tmp_path: Path) -> None:
    """The two made-up strings replaced by wrong answers that are in the text ("met", "capital"): the same
    counts, the same figures, in every measure."""
    key = write_key(tmp_path)
    wrong = {**EXTRACTED, "d1": [*EXTRACTED["d1"][:3], ("PER", "met")],
             "d2": [*EXTRACTED["d2"][:2], ("LOC", "capital")]}
    made_up = score_extractions(key, extractions()).report(per_doc=False)
    answered = score_extractions(key, extractions(wrong)).report(per_doc=False)
    for part in ("counts", "micro", "macro_types", "muc", "semeval", "error_rate"):
        assert made_up[part] == answered[part], part
    without = score_extractions(key, extractions({d: [x for x in items if x[1] not in ("Grace Hopper", "Tokyo")]
                                                  for d, items in EXTRACTED.items()})).report(per_doc=False)
    assert without["micro"]["strict"]["p"] == pytest.approx(5 / 6)  # two fewer spurious responses


def test_hallucinated_strings_sit_in_a_marked_appendix_of_their_own_document(tmp_path: Path) -> None:
    result = score_extractions(write_key(tmp_path), extractions())
    ev = result.evaluation
    texts = dict(zip(ev.doc_ids, ev.texts, strict=True))
    assert texts["d1"] == TEXTS["d1"] + "\n\n" + MARKER + " Grace Hopper"
    assert texts["d2"] == TEXTS["d2"] + "\n\n" + MARKER + " Tokyo"
    assert texts["d3"] == TEXTS["d3"] and texts["d4"] == TEXTS["d4"]
    assert result.appendix_at == {"d1": len(TEXTS["d1"]), "d2": len(TEXTS["d2"])}
    spurious = [(r["doc_id"], r["response"]["text"], r["response"]["features"]) for r in ev.diff_rows()
                if r["status"] == "spurious"]
    assert spurious == [("d1", "Grace Hopper", {"grounding": "hallucination", "reason": "below threshold"}),
                        ("d2", "Tokyo", {"grounding": "hallucination", "reason": "below threshold"})]
    steps = {r["response"]["text"]: r["response"]["features"] for r in ev.diff_rows() if r["response"]}
    assert steps["Charles Babbage"] == {"grounding": "casefold"}
    assert steps["France"] == {"grounding": "fuzzy", "similarity": pytest.approx(0.8333)}


def test_with_appendix_separates_the_strings_and_shows_an_empty_one() -> None:
    text, spans = with_appendix("Ada.", ["Bob", " ", "Al"])
    assert [text[a:b] for a, b in spans] == ["Bob", "⟦empty⟧", "Al"]
    assert with_appendix("Ada.", []) == ("Ada.", [])


def test_the_false_positive_rate_counts_the_key_tokens_without_the_appendix(tmp_path: Path) -> None:
    key = write_key(tmp_path)
    result = score_extractions(key, extractions())
    plain = evaluate(str(key), str(key))
    assert np.array_equal(result.evaluation.units, plain.units)
    fp = result.report(per_doc=False)["false_positive"]
    assert fp["micro"] == pytest.approx(2 / int(plain.units.sum()))


def test_a_repeat_is_a_duplicate_spurious_response(tmp_path: Path) -> None:
    """"Paris" listed twice, once in the text: the second is grounded to the same span, marked repeat, and the
    engine pairs one of the two identical spans (the first) and counts the other spurious."""
    key = write_key(tmp_path)
    result = score_extractions(key, extractions({"d2": [("LOC", "Paris"), ("LOC", "Paris")]}))
    rows = [r for r in result.evaluation.diff_rows() if r["doc_id"] == "d2" and r["response"]]
    assert sorted((r["status"], r["response"]["features"].get("repeat", False)) for r in rows) == \
        [("correct", False), ("spurious", True)]
    assert result.grounding_dict()["repeats"] == 1


def test_the_engine_pairs_one_of_two_identical_response_spans() -> None:
    key, response = SpanTableBuilder(), SpanTableBuilder()
    key.add(0, 0, 3, "PER")
    response.add(0, 0, 3, "PER", {"grounding": "exact"})
    response.add(0, 0, 3, "PER", {"grounding": "exact", "repeat": True})
    report = evaluate(Corpus(["d"], ["Ada met Ada."], {"ents": key.build()}),
                      Corpus(["d"], ["Ada met Ada."], {"ents": response.build()})).report()
    assert report["counts"] == {"correct": 1, "partial": 0, "missing": 0, "spurious": 1, "incorrect": 0}


def test_a_response_document_the_key_lacks_is_named(tmp_path: Path) -> None:
    with pytest.raises(InputError, match=r"document 'd9': no key document has this id.*'d1', 'd2'"):
        score_extractions(write_key(tmp_path), extractions({**EXTRACTED, "d9": [("PER", "Ada")]}))


def test_the_set_mode_compares_normalised_pairs_without_grounding(tmp_path: Path) -> None:
    sets = score_extractions(write_key(tmp_path), extractions()).sets.to_dict()
    assert (sets["micro"]["correct"], sets["micro"]["key"], sets["micro"]["response"]) == (5, 9, 8)
    assert sets["labels"]["ORG"]["correct"] == 1  # "the Royal Society" and "Royal Society" normalise alike
    assert score_extractions(write_key(tmp_path), extractions(), sets=False).sets is None


def test_the_report_is_the_evaluations_plus_grounding_and_sets(tmp_path: Path) -> None:
    key = write_key(tmp_path)
    result = score_extractions(key, extractions())
    data = result.to_dict()
    assert set(data) == set(evaluate(str(key), str(key)).report()) | {"grounding", "sets"}
    assert {"settings", "extractions", "annotations", "hallucinations", "hallucination_rate", "repeats",
            "by_step", "by_step_share", "by_label"} <= set(data["grounding"])
    assert "rows" not in data["grounding"] and len(result.to_dict(rows=True)["grounding"]["rows"]) == 8
    assert json.loads(json_text(data))["grounding"]["settings"]["spec"] == "exact,casefold,normalized,fuzzy:0.8"


def test_settings_reach_the_engine_and_the_ladder(tmp_path: Path) -> None:
    key = write_key(tmp_path)
    only_per = score_extractions(key, extractions(), types=["PER"], beta=2.0).report(per_doc=False)
    assert set(only_per["per_type"]) == {"PER"} and only_per["settings"]["beta"] == 2.0
    exact = score_extractions(key, extractions(), grounding="exact").report(per_doc=False)
    assert exact["grounding"]["hallucinations"] == 4  # the case change and the typo are not found either
    with pytest.raises(ConfigError, match="beta"):
        score_extractions(key, extractions(), beta=float("nan"))
    with pytest.raises(ConfigError, match="grounding step"):
        score_extractions(key, extractions(), grounding="exact,fuzzy:0.8,casefold")


def test_docs_as_key_snap_to_their_own_tokens() -> None:
    """spaCy's tokens ('s is one token): "Lovelace'" contracts to "Lovelace", as spacy-llm's alignment_mode
    contract does; the word rule, which makes ' a token of its own, would keep it."""
    import spacy
    from spacy.tokens import Span

    nlp = spacy.blank("en")
    doc = nlp("Ada Lovelace's notes.")
    doc.ents = [Span(doc, 0, 2, "PER")]
    doc.user_data["doc_id"] = "n1"
    found = {"n1": [Extraction("n1", "PER", "Lovelace'", 0)]}
    rows = score_extractions([doc], found).evaluation.diff_rows()
    assert [(r["response"]["start"], r["response"]["end"]) for r in rows if r["response"]] == [(4, 12)]


def test_a_conll_key_gives_its_tokens(tmp_path: Path) -> None:
    key = tmp_path / "key.conll"
    key.write_text("Ada B-PER\nLovelace I-PER\nwrote O\n. O\n", encoding="utf8")
    result = score_extractions(key, {"0": [Extraction("0", "PER", "Ada Lovelace", 0)]})
    assert result.report(per_doc=False)["counts"]["correct"] == 1


def test_relation_triples_only_go_to_the_relation_scoring(tmp_path: Path) -> None:
    found = Extractions(triples={"d1": [Triple("d1", "Ada Lovelace", "met", "Charles Babbage", 0)]})
    with pytest.raises(ConfigError, match="no relation|score_relation_extractions"):
        score_extractions(write_key(tmp_path), found)


# -- relations ------------------------------------------------------------------------------------------------------

REL_TEXT = "Ada Lovelace worked with Charles Babbage in London."


def write_relation_key(folder: Path) -> Path:
    spans = [{"start": 0, "end": 12, "label": "PER", "token_start": 0, "token_end": 1},
             {"start": 25, "end": 40, "label": "PER", "token_start": 4, "token_end": 5},
             {"start": 44, "end": 50, "label": "LOC", "token_start": 7, "token_end": 7}]
    relations = [{"head": 1, "child": 5, "label": "worked_with", "head_span": spans[0], "child_span": spans[1]},
                 {"head": 1, "child": 7, "label": "lived_in", "head_span": spans[0], "child_span": spans[2]}]
    path = folder / "rel-key.jsonl"
    path.write_text(json.dumps({"text": REL_TEXT, "meta": {"id": "r1"}, "spans": spans, "relations": relations})
                    + "\n", encoding="utf8")
    return path


TRIPLES = [Triple("r1", "Ada Lovelace", "worked_with", "charles babbage", 0, head_label="PER", tail_label="PER"),
           Triple("r1", "Ada Lovelace", "lived_in", "London", 1),
           Triple("r1", "Alan Turing", "worked_with", "Ada Lovelace", 2)]


def test_triples_are_grounded_scored_and_an_ungrounded_one_left_unscored(tmp_path: Path) -> None:
    result = score_relation_extractions(write_relation_key(tmp_path), Extractions(triples={"r1": TRIPLES}))
    data = result.to_dict()
    assert data["relations"]["all"]["COR"] == 2 and data["relations"]["all"]["SPU"] == 0
    assert data["relations"]["all"]["MIS"] == 0
    assert data["n_ungrounded"] == 1
    assert data["ungrounded"][0]["reason"].startswith("hallucinated head 'Alan Turing'")
    assert data["borrowed_labels"] == 1  # London: the key's LOC
    assert data["entities"]["counts"] == {"correct": 3, "partial": 0, "missing": 0, "spurious": 1, "incorrect": 0}
    assert data["grounding"]["extractions"] == 4 and data["grounding"]["repeats"] == 0  # Ada counted once


def test_a_file_whose_recorded_text_is_not_the_keys_is_told(tmp_path: Path) -> None:
    from spacy_anno_eval.errors import ReaderNoteWarning

    key = write_key(tmp_path)
    output = write_output(tmp_path, "langextract")
    records = [json.loads(line) for line in output.read_text(encoding="utf8").splitlines()]
    records[1]["text"] = "Paris is the capital of Frence."
    output.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf8")
    with pytest.warns(ReaderNoteWarning, match="not the key's .first: 'd2'"):
        report = score_extractions(key, output, fmt="langextract").report(per_doc=False)
    assert report["counts"]["correct"] == 5  # grounded in the key's text all the same
