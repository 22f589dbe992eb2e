"""Adjudication into a gold set (spacy_anno_eval.workflows.adjudicate)."""

from __future__ import annotations

import json
import os
import random
import re
from pathlib import Path

import pytest

from spacy_anno_eval import evaluate
from spacy_anno_eval.annotations.table import Corpus, SpanTableBuilder
from spacy_anno_eval.errors import AnnoEvalError, InputError
from spacy_anno_eval.io import read_corpus
from spacy_anno_eval.workflows.adjudicate import (
    AdjudicationWarning,
    Choice,
    adjudicate,
    adjudicate_files,
    read_choices,
    to_docs,
    write_docbin,
)

DEMO = Path(__file__).resolve().parents[2] / "assets" / "demo"
KEY, RESPONSE = DEMO / "key.jsonl", DEMO / "response.jsonl"

# Coextensive same-label pairs of assets/demo, counted by hand from key.jsonl and response.jsonl
AGREED = {
    "d01": [(0, 12, "PER"), (80, 86, "LOC")],
    "d02": [(4, 25, "ORG"), (50, 56, "LOC")],
    "d03": [(0, 12, "PER")],
    "d04": [(13, 18, "LOC"), (23, 28, "LOC")],
    "d05": [(0, 11, "PER")],
    "d06": [(4, 9, "LOC"), (24, 29, "LOC"), (31, 41, "LOC"), (70, 79, "LOC")],
    "d07": [(0, 11, "PER"), (69, 93, "ORG")],
    "d08": [],
    "d09": [(0, 17, "PER"), (46, 50, "ORG")],
    "d10": [(23, 29, "LOC"), (49, 57, "LOC"), (62, 72, "LOC")],
    "d11": [(29, 43, "MISC"), (61, 65, "ORG"), (69, 75, "LOC")],
    "d12": [(13, 18, "LOC"), (46, 67, "ORG")],
    "d13": [(0, 11, "PER")],
    "d14": [(8, 21, "ORG"), (37, 50, "LOC"), (54, 60, "LOC")],
    "d15": [(35, 44, "LOC")],
    "d16": [],
}
N_AGREED = 29


@pytest.fixture(scope="module")
def demo():
    return evaluate(KEY, RESPONSE)


def _spans(accepted):
    return [[(a["start"], a["end"], a["label"]) for a in anns] for anns in accepted]


def _write_choices(path: Path, lines: list) -> Path:
    path.write_text("\n".join(x if isinstance(x, str) else json.dumps(x) for x in lines) + "\n", encoding="utf-8")
    return path


def _read_gold(path: Path, selector: str = "spans:gold") -> dict[str, list[tuple[int, int, str]]]:
    corpus = read_corpus(path, selectors=[selector])
    table = corpus.sets[selector]
    out: dict[str, list[tuple[int, int, str]]] = {d: [] for d in corpus.doc_ids}
    for d, s, e, lab in zip(table.doc.tolist(), table.start.tolist(), table.end.tolist(), table.label_names(),
                            strict=True):
        out[corpus.doc_ids[d]].append((s, e, str(lab)))
    return out


def test_agreed_only_gold_from_the_demo_corpus(demo):
    accepted = adjudicate(demo)
    assert len(accepted) == 16
    assert dict(zip(demo.doc_ids, _spans(accepted), strict=True)) == AGREED
    assert sum(map(len, accepted)) == N_AGREED
    assert all(a["origin"] == "agreed" for anns in accepted for a in anns)
    assert adjudicate(demo, accept_agreed=False) == [[] for _ in range(16)]


def test_adjudicate_files_round_trip_and_summary(tmp_path):
    out = tmp_path / "gold" / "gold.spacy"
    summary = adjudicate_files(KEY, RESPONSE, out)
    assert summary["docs"] == 16 and summary["agreed"] == N_AGREED and summary["total"] == N_AGREED
    assert summary["chosen"] == 0 and summary["rejected"] == 0
    ev = evaluate(KEY, RESPONSE)
    assert summary["unresolved"] == sum(r["status"] != "correct" for r in ev.diff_rows())
    assert _read_gold(out) == AGREED
    # the same annotations are the entities (none overlap), read by the DocBin fast path
    assert _read_gold(out, "ents") == AGREED
    assert sorted(os.listdir(out.parent)) == ["gold.spacy"]


def test_choices_are_applied(tmp_path, demo):
    choices = _write_choices(tmp_path / "choices.jsonl", [
        {"doc": "d03", "side": "key", "start": 57, "end": 71, "label": "ORG", "note": "Remington Rand is a firm"},
        "",
        {"doc": "d03", "side": "response", "start": 24, "end": 36, "label": "ORG"},
        {"doc": "d08", "side": "key", "start": 10, "end": 25, "label": "ORG"},
        {"doc": "d08", "side": "key", "start": 10, "end": 25, "label": "ORG"},   # twice: accepted once
        {"doc": "d01", "side": "response", "start": 0, "end": 12, "label": "PER"},  # already agreed
        {"doc": "d02", "side": "none", "start": 50, "end": 56, "label": "LOC"},  # reject an agreed one
        {"doc": "d02", "side": "none", "start": 60, "end": 67, "label": "MISC"},  # reject a false alarm
    ])
    accepted = dict(zip(demo.doc_ids, adjudicate(demo, choices), strict=True))
    assert _spans([accepted["d03"]]) == [[(0, 12, "PER"), (24, 36, "ORG"), (57, 71, "ORG")]]
    assert [a["origin"] for a in accepted["d03"]] == ["agreed", "response", "key"]
    assert _spans([accepted["d08"]]) == [[(10, 25, "ORG")]]
    assert _spans([accepted["d01"]]) == [AGREED["d01"]]
    assert accepted["d01"][0]["origin"] == "agreed"
    assert _spans([accepted["d02"]]) == [[(4, 25, "ORG")]]
    assert sum(map(len, accepted.values())) == N_AGREED + 3 - 1

    out = tmp_path / "gold.spacy"
    summary = adjudicate_files(KEY, RESPONSE, out, choices_path=choices, target="adjudicated")
    assert (summary["agreed"], summary["chosen"], summary["rejected"], summary["total"]) == (28, 3, 1, 31)
    gold = _read_gold(out, "spans:adjudicated")
    assert gold["d03"] == [(0, 12, "PER"), (24, 36, "ORG"), (57, 71, "ORG")]
    assert sum(map(len, gold.values())) == 31
    ev = evaluate(KEY, RESPONSE)
    # decided rows: d03 57-71 (incorrect) and 24-28/24-36 (partial), d08 10-25/10-18 (partial), d02's false
    # alarm 60-67; d08's other row (41-45 LOC / 41-54 ORG, overlap) is left
    assert summary["unresolved"] == sum(r["status"] != "correct" for r in ev.diff_rows()) - 4 == 13


def test_choices_as_objects_and_dicts(demo):
    from_dicts = adjudicate(demo, [{"doc": "d08", "side": "response", "start": 41, "end": 54, "label": "ORG"}],
                            accept_agreed=False)
    from_objects = adjudicate(demo, [Choice("d08", "response", 41, 54, "ORG")], accept_agreed=False)
    assert from_dicts == from_objects
    assert _spans(from_dicts)[7] == [(41, 54, "ORG")]
    assert sum(map(len, from_dicts)) == 1


@pytest.mark.parametrize("lines, line, message", [
    (['{"doc": "d01", "side": "key", "start": 0, "end": 12, "label": "PER"}', "{not json"], 2, "invalid JSON"),
    ([{"doc": "d01", "side": "key", "start": 0, "end": 12}], 1, "lacks 'label'"),
    ([{"doc": "d01", "side": "both", "start": 0, "end": 12, "label": "PER"}], 1, "must be one of key, response"),
    ([{"doc": "d01", "side": "key", "start": "0", "end": 12, "label": "PER"}], 1, "must be integers"),
    ([{"doc": "d01", "side": "key", "start": 12, "end": 12, "label": "PER"}], 1, "0 <= start < end"),
    (["", "[1, 2]"], 2, "must be a JSON object"),
])
def test_read_choices_errors_name_the_line(tmp_path, lines, line, message):
    path = _write_choices(tmp_path / "c.jsonl", lines)
    with pytest.raises(InputError, match=message) as err:
        read_choices(path)
    assert f"c.jsonl, line {line}" in str(err.value)


@pytest.mark.parametrize("lines, line, message", [
    # the key has 41-56, the response 41-58
    ([{"doc": "d01", "side": "key", "start": 41, "end": 58, "label": "PER"}], 1,
     r"document 'd01'.*the key has no annotation \[41, 58\) PER.*\[41, 56\) PER"),
    ([{"doc": "d01", "side": "response", "start": 0, "end": 12, "label": "ORG"}], 1,
     "the response has no annotation"),
    (["", {"doc": "d99", "side": "key", "start": 0, "end": 3, "label": "PER"}], 2,
     "document 'd99'.*no document with this id"),
    ([{"doc": "d13", "side": "none", "start": 0, "end": 5, "label": "PER"}], 1, "neither side has"),
    ([{"doc": "d13", "side": "key", "start": 56, "end": 70, "label": "PER"},
      {"doc": "d13", "side": "none", "start": 56, "end": 70, "label": "PER"}], 2, "contradicts line 1"),
])
def test_bad_choices_name_file_line_and_document(tmp_path, demo, lines, line, message):
    path = _write_choices(tmp_path / "c.jsonl", lines)
    with pytest.raises(InputError, match=message) as err:
        adjudicate(demo, path)
    assert f"c.jsonl, line {line}, document" in str(err.value)
    # the CLI path fails the same way and writes nothing
    out = tmp_path / "gold.spacy"
    with pytest.raises(InputError):
        adjudicate_files(KEY, RESPONSE, out, choices_path=path)
    assert not out.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["c.jsonl"]


def test_missing_choices_file(tmp_path, demo):
    with pytest.raises(InputError, match="no such choices file"):
        adjudicate(demo, tmp_path / "nope.jsonl")


def _corpus(texts, spans, ids=None):
    builder = SpanTableBuilder()
    for d, doc_spans in enumerate(spans):
        for start, end, label in doc_spans:
            builder.add(d, start, end, label)
    return Corpus(ids or [f"t{i}" for i in range(len(texts))], list(texts), {"ents": builder.build()})


def test_spans_off_the_tokenisation_land_exactly(tmp_path):
    text = "  Hello,  wonderful\nworld\t of NLP \n"
    spans = [(3, 5, "A"),     # "el": inside a word
             (2, 9, "B"),     # "Hello, ": ends after the first of two spaces
             (8, 10, "C"),    # "  ": whitespace only
             (9, 19, "D"),    # " wonderful": starts on the second space
             (19, 20, "E"),   # "\n"
             (26, 29, "F"),   # " of": starts on the space after a tab
             (29, 35, "G")]   # " NLP \n": to the end, with the trailing space and newline
    corpus = _corpus([text], [spans])
    ev = evaluate(corpus, corpus)
    accepted = adjudicate(ev)
    assert len(accepted[0]) == len(spans)
    with pytest.warns(AdjudicationWarning, match="overlapping"):
        docs = to_docs(ev, accepted, target="gold")
    doc = docs[0]
    assert doc.text == text
    got = [(s.start_char, s.end_char, s.label_) for s in doc.spans["gold"]]
    assert got == sorted(spans)
    assert [s.text for s in doc.spans["gold"]] == [text[s:e] for s, e, _ in sorted(spans)]
    # overlapping annotations cannot be entities: ents left unset (missing), not O
    assert list(doc.ents) == [] and {t.ent_iob_ for t in doc} == {""}
    out = write_docbin(docs, tmp_path / "gold.spacy")
    assert _read_gold(out) == {"t0": sorted(spans)}


@pytest.mark.parametrize("seed", range(3))
def test_random_spans_always_land_on_token_boundaries(tmp_path, seed):
    rng = random.Random(seed)
    texts, spans = [], []
    for _ in range(60):
        text = "".join(rng.choice("ab  \n.\t") for _ in range(rng.randint(0, 40)))
        doc_spans = set()
        for _ in range(rng.randint(0, 6) if text else 0):
            s = rng.randrange(len(text))
            e = rng.randint(s + 1, min(len(text), s + 8))
            doc_spans.add((s, e, rng.choice("XY")))
        texts.append(text)
        spans.append(sorted(doc_spans))
    corpus = _corpus(texts, spans)
    ev = evaluate(corpus, corpus)
    with pytest.warns(AdjudicationWarning):
        docs = to_docs(ev, adjudicate(ev))
    for doc, text, want in zip(docs, texts, spans, strict=True):
        assert doc.text == text
        assert [(s.start_char, s.end_char, s.label_) for s in doc.spans["gold"]] == want
        if list(doc.ents):
            assert [(s.start_char, s.end_char, s.label_) for s in doc.ents] == want
    gold = _read_gold(write_docbin(docs, tmp_path / "g.spacy"))
    assert gold == {f"t{i}": want for i, want in enumerate(spans)}


def test_to_docs_sets_ents_doc_ids_and_kb_ids(demo):
    accepted = adjudicate(demo)
    accepted[0] = [dict(a, features={"kb_id": "Q7259"}) if a["start"] == 0 else a for a in accepted[0]]
    docs = to_docs(demo, accepted, target="g")
    assert [d.user_data["doc_id"] for d in docs] == demo.doc_ids
    for doc, want in zip(docs, AGREED.values(), strict=True):
        assert [(e.start_char, e.end_char, e.label_) for e in doc.ents] == want
        assert [(e.start_char, e.end_char, e.label_) for e in doc.spans["g"]] == want
        # everything outside the gold annotations is O
        assert all(t.ent_iob_ in ("B", "I", "O") for t in doc)
    assert docs[0].spans["g"][0].kb_id_ == "Q7259" and docs[0].spans["g"][0].text == "Ada Lovelace"
    no_ents = to_docs(demo, accepted, ents=False)
    assert all(not list(d.ents) for d in no_ents)
    with pytest.raises(ValueError, match="accepted has 2 documents"):
        to_docs(demo, accepted[:2])


def test_write_docbin_is_atomic(tmp_path, demo, monkeypatch):
    docs = to_docs(demo, adjudicate(demo))
    out = tmp_path / "gold.spacy"
    old_mask = os.umask(0o022)
    try:
        write_docbin(docs, out)
    finally:
        os.umask(old_mask)
    assert sorted(os.listdir(tmp_path)) == ["gold.spacy"]
    # the mode of a plain open(), not mkstemp's private 0600
    assert out.stat().st_mode & 0o777 == 0o644
    before = out.read_bytes()

    def broken_replace(src, dst):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", broken_replace)
    with pytest.raises(AnnoEvalError, match="cannot write .*disk full"):
        write_docbin(docs[:3], out)
    # the earlier file is intact and no temporary file is left behind
    assert sorted(os.listdir(tmp_path)) == ["gold.spacy"]
    assert out.read_bytes() == before


def test_merged_evaluation_cannot_be_adjudicated(demo):
    with pytest.raises(ValueError, match="keeps no pairs"):
        adjudicate(demo.merge(demo))


def test_undecided_rows_round_trip_as_choices(tmp_path, demo):
    """``adjudicate --undecided FILE`` lists the rows left, in the choices format; kept as it is, the file
    reads back as choices that decide every row."""
    from typer.testing import CliRunner

    from spacy_anno_eval.cli.app import app
    from spacy_anno_eval.workflows.adjudicate import undecided_choices

    undecided = tmp_path / "undecided.jsonl"
    result = CliRunner().invoke(app, ["adjudicate", str(KEY), str(RESPONSE), "--out", str(tmp_path / "gold.spacy"),
                                      "--undecided", str(undecided)])
    assert result.exit_code == 0, result.output
    n_rows = int(re.search(r"(\d+) rows left undecided", result.output).group(1))
    assert n_rows > 0 and f"listed in {undecided}" in result.output
    lines = [json.loads(x) for x in undecided.read_text(encoding="utf-8").splitlines()]
    assert lines == undecided_choices(demo)
    assert len({x["row"] for x in lines}) == n_rows
    assert {x["side"] for x in lines} == {"key", "response"} and all(x["status"] != "correct" for x in lines)
    first = lines[0]
    assert demo.texts[demo.doc_ids.index(first["doc"])][first["start"]:first["end"]] == first["text"]
    # read back as choices: every annotation listed is in the gold set, and no row is left
    choices = read_choices(undecided)
    assert [(c.doc, c.side, c.start, c.end, c.label) for c in choices] == [
        (x["doc"], x["side"], x["start"], x["end"], x["label"]) for x in lines]
    gold = dict(zip(demo.doc_ids, _spans(adjudicate(demo, choices)), strict=True))
    assert all((x["start"], x["end"], x["label"]) in gold[x["doc"]] for x in lines)
    assert undecided_choices(demo, choices) == []
    # a person rejects a row's annotations: that row is decided too, and its annotations stay out
    edited = [{**x, "side": "none"} if x["row"] == 1 else x for x in lines]
    _write_choices(undecided, edited)
    gold = dict(zip(demo.doc_ids, _spans(adjudicate(demo, read_choices(undecided))), strict=True))
    assert not any((x["start"], x["end"], x["label"]) in gold[x["doc"]] for x in edited if x["row"] == 1)
    assert undecided_choices(demo, read_choices(undecided)) == []
    # with part of the rows decided, only the others are listed
    partial = undecided_choices(demo, [c for c in choices if c.doc == lines[0]["doc"]])
    assert partial and all(x["doc"] != lines[0]["doc"] for x in partial)


def test_undecided_without_agreed_lists_correct_rows_once(demo):
    from spacy_anno_eval.workflows.adjudicate import undecided_choices

    lines = undecided_choices(demo, accept_agreed=False)
    correct = [x for x in lines if x["status"] == "correct"]
    assert len(correct) == N_AGREED and {x["side"] for x in correct} == {"key"}
