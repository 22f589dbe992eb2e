"""Readers of γ continua: CSV (pygamma-agreement), DKPro/pygamma JSON fixtures, Praat TextGrid, ELAN EAF, spaCy.

The shared test data (``../shared/data``) is read-only; tests that need it are
skipped when it is absent. pygamma-agreement, when installed, is the reference
for the CSV, TextGrid and EAF readers.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
import spacy
from spacy.tokens import Doc, DocBin, Span

from spacy_anno_eval.errors import InputError
from spacy_anno_eval.gamma.continuum import Continuum
from spacy_anno_eval.gamma.readers import (
    fixture_samples,
    from_docs,
    parse_sets,
    read_continuum,
    read_csv,
    read_docbin,
    read_eaf,
    read_fixture,
    read_textgrid,
    write_csv,
)
from tests.conftest import shared_file

PYGAMMA = "pygamma_tests_data"
FIXTURES = "dkpro_pygamma_fixtures"


def write(tmp_path: Path, name: str, text: str) -> Path:
    p = tmp_path / name
    p.write_text(text, encoding="utf8")
    return p


def by_annotator(c: Continuum) -> dict[str, list[tuple[float, float, str]]]:
    out: dict[str, list[tuple[float, float, str]]] = {a: [] for a in c.annotators}
    for a, s, e, cat in c.units():
        out[a].append((s, e, cat))
    return out


# ---------------------------------------------------------------------------
# CSV


def test_read_csv_alex_paul_suzan():
    c = read_csv(shared_file(PYGAMMA, "AlexPaulSuzan.csv"))
    assert len(c) == 16
    assert c.annotators == ["Alex", "Paul", "Suzan"]
    assert c.sizes().tolist() == [6, 4, 6]
    assert c.categories == ["1", "2", "3", "4", "5", "6", "7"]
    units = by_annotator(c)
    assert units["Alex"][-1] == (44.0, 60.0, "7")
    assert units["Paul"] == [(2.0, 9.0, "1"), (11.0, 17.0, "3"), (19.0, 25.0, "5"), (32.0, 44.0, "6")]
    assert units["Suzan"][3:] == [(32.0, 36.0, "6"), (36.0, 40.0, "6"), (40.0, 44.0, "6")]


@pytest.mark.parametrize("name, annotators, sizes", [
    ("3by100.csv", ["annotator_1", "annotator_2", "annotator_3"], [124, 124, 124]),
    ("2by1000.csv", ["annotator_1", "annotator_2"], [1000, 1000]),
    ("5by100.csv", [f"annotator_{i}" for i in range(1, 6)], [100] * 5),
    ("example_figure19.csv", ["Jack", "Joe"], [4, 1]),
    ("annotation_dalton.csv", ["Averell", "Jack", "Joe", "William"], [3, 3, 3, 3]),
])
def test_read_csv_shared_files(name, annotators, sizes):
    c = read_csv(shared_file(PYGAMMA, name))
    assert c.annotators == annotators
    assert c.sizes().tolist() == sizes


def test_read_csv_figure19_values():
    c = read_csv(shared_file(PYGAMMA, "example_figure19.csv"))
    assert by_annotator(c) == {"Jack": [(0.0, 5.0, "A"), (5.0, 10.0, "A"), (10.0, 15.0, "A"), (15.0, 20.0, "A")],
                               "Joe": [(0.0, 20.0, "A")]}


def test_read_csv_floats_header_blank_lines_crlf_bom(tmp_path):
    p = write(tmp_path, "u.csv", "\ufeffannotator,category,start,end\r\nB,x,1.5,2.25\r\n\r\nA,y,0,3\r\n")
    c = read_csv(p)
    assert c.units() == [("A", 0.0, 3.0, "y"), ("B", 1.5, 2.25, "x")]


def test_read_csv_keeps_cells_as_written(tmp_path):
    c = read_csv(write(tmp_path, "u.csv", 'A, x,1,2\n"A,1","cat, with comma",2,3\n'))
    assert c.annotators == ["A", "A,1"]
    assert c.categories == [" x", "cat, with comma"]


def test_read_csv_header_only_on_first_line(tmp_path):
    with pytest.raises(InputError, match=r"line 2: start 'start' is not a number"):
        read_csv(write(tmp_path, "u.csv", "A,x,1,2\nannotator,category,start,end\n"))


@pytest.mark.parametrize("text, message", [
    ("A,x,1,2\nB,y,3\n", r"line 2: 3 fields, expected 4 \(annotator, category, start, end\) separated by ','"),
    ("A,x,1,2\n\nB,y,one,4\n", r"line 3: start 'one' is not a number"),
    ("A,x,1,2\nB,y,1,2,\n", r"line 2: 5 fields"),
    ("A,x,1,zwei\n", r"line 1: end 'zwei' is not a number"),
    ("A,x,1,nan\n", r"line 1: end 'nan' is not a finite number"),
    ("A,x,1,2\nA,x,5,5\n", r"line 2: start 5 >= end 5; a unit needs start < end"),
    ("A,x,1,2\nA,x,7,3.5\n", r"line 2: start 7 >= end 3.5"),
    ("A,x,1,2\n ,x,1,2\n", r"line 2: empty annotator"),
    ("", r"no units \(empty file\)"),
    ("\n  \n", r"no units"),
    ("annotator,category,start,end\n", r"no units"),
])
def test_read_csv_errors(tmp_path, text, message):
    p = write(tmp_path, "bad.csv", text)
    with pytest.raises(InputError, match=message) as info:
        read_csv(p)
    assert str(info.value).startswith(str(p))


def test_read_csv_missing_file(tmp_path):
    with pytest.raises(InputError, match="no such file"):
        read_csv(tmp_path / "nope.csv")


def test_read_tsv(tmp_path):
    p = write(tmp_path, "u.tsv", "A\tx,y\t1\t2\nB\tz\t0.5\t4\n")
    assert read_csv(p, delimiter="\t").units() == [("A", 1.0, 2.0, "x,y"), ("B", 0.5, 4.0, "z")]
    assert read_continuum(p).units() == read_csv(p, delimiter="\t").units()
    with pytest.raises(InputError, match=r"line 1: 2 fields, expected 4 .* separated by ','"):
        read_csv(p)


# ---------------------------------------------------------------------------
# write_csv


def test_write_csv_reproduces_the_pygamma_file(tmp_path):
    src = shared_file(PYGAMMA, "AlexPaulSuzan.csv")
    out = write_csv(read_csv(src), tmp_path / "out.csv")
    assert out == tmp_path / "out.csv"
    # the file is sorted by annotator then start, as a Continuum is: same text, integers without ".0"
    assert out.read_text(encoding="utf8") == src.read_text(encoding="utf8")


def test_write_csv_round_trip_floats_and_quoting(tmp_path):
    units = [("A", 0.1, 0.1 + 0.2, "x"), ("A", 2.0, 7.0, "y"), ("B", 1 / 3, 1e-7 + 1, "a,b"),
             ('say "hi"', -1.5, 1e15, "z"), ("C", 3.0, 3.5, "")]  # 1e15: the largest offset (MAX_OFFSET)
    c = Continuum.from_units(units)
    p = write_csv(c, tmp_path / "sub" / "c.csv")
    text = p.read_text(encoding="utf8")
    assert "A,y,2,7\n" in text
    assert "C,,3,3.5\n" in text
    assert 'B,"a,b",0.3333333333333333,1.0000001\n' in text
    back = read_csv(p)
    assert back.annotators == c.annotators and back.categories == c.categories
    assert back.units() == c.units()
    np.testing.assert_array_equal(back.start, c.start)
    np.testing.assert_array_equal(back.end, c.end)


def test_write_csv_tab_and_atomic_overwrite(tmp_path):
    p = write(tmp_path, "c.tsv", "old content\n")
    c = Continuum.from_units([("A", 1, 2, "x"), ("B", 2, 4, "y")])
    write_csv(c, p, delimiter="\t")
    assert p.read_text(encoding="utf8") == "A\tx\t1\t2\nB\ty\t2\t4\n"
    assert sorted(f.name for f in tmp_path.iterdir()) == ["c.tsv"]
    assert read_continuum(p).units() == c.units()


# ---------------------------------------------------------------------------
# DKPro / pygamma JSON fixtures

FIXTURE_NAMES = ["fixture_01_two_annotators_simple.json", "fixture_02_unequal_counts.json",
                 "fixture_03_identical_perfect.json", "fixture_04_three_annotators.json",
                 "fixture_05_larger_two_annotators.json", "fixture_06_weighted_alpha3_beta2.json"]


@pytest.mark.parametrize("name", FIXTURE_NAMES)
def test_read_fixture_matches_json(name):
    path = shared_file(FIXTURES, name)
    c, data = read_fixture(path)
    raw = json.loads(path.read_text(encoding="utf8"))
    assert data == raw
    expected = sorted((u["annotator"], float(u["start"]), float(u["end"]), u["category"]) for u in raw["continuum"])
    assert c.units() == expected
    samples = fixture_samples(data)
    assert len(samples) == len(raw["tier2"]["sampledContinua"]) == 10
    for sample, raw_sample in zip(samples, raw["tier2"]["sampledContinua"], strict=True):
        assert len(sample) == len(raw_sample["units"])
        assert sample.units() == sorted((u["annotator"], u["start"], u["end"], u["category"])
                                        for u in raw_sample["units"])


def test_read_fixture_three_annotators_values():
    path = shared_file(FIXTURES, "fixture_04_three_annotators.json")
    c, data = read_fixture(path)
    assert c.annotators == ["Ann1", "Ann2", "Ann3"]
    assert c.sizes().tolist() == [2, 2, 2]
    assert c.units()[:3] == [("Ann1", 1.0, 5.0, "a"), ("Ann1", 10.0, 14.0, "b"), ("Ann2", 2.0, 6.0, "a")]
    assert data["params"] == {"alpha": 1.0, "beta": 1.0, "deltaEmpty": 1.0}
    first = fixture_samples(path)[0]
    assert first.annotators == ["Ann1", "Ann2", "Ann3"]
    assert first.units()[0] == ("Ann1", 3.739378792537379, 7.164390503074478, "c")
    assert read_continuum(path).units() == c.units()


def test_read_fixture_unequal_counts():
    c, _ = read_fixture(shared_file(FIXTURES, "fixture_02_unequal_counts.json"))
    assert c.sizes().tolist() == [4, 2]


def test_fixture_samples_keep_their_own_annotators():
    data = {"continuum": [], "tier2": {"sampledContinua": [
        {"units": [{"annotator": "s1", "start": 0, "end": 1.5, "category": "a"},
                   {"annotator": "s2", "start": 1, "end": 2, "category": "b"}]}]}}
    (sample,) = fixture_samples(data)
    assert sample.units() == [("s1", 0.0, 1.5, "a"), ("s2", 1.0, 2.0, "b")]


def test_read_fixture_errors(tmp_path):
    with pytest.raises(InputError, match=r"bad\.json, line 2: invalid JSON"):
        read_fixture(write(tmp_path, "bad.json", '{"continuum": [\n  oops]}'))
    with pytest.raises(InputError, match=r"not a γ fixture"):
        read_fixture(write(tmp_path, "list.json", "[]"))
    unit = {"annotator": "A", "start": 1, "end": 2, "category": "x"}
    bad = [unit, {"annotator": "A", "start": 3}]
    with pytest.raises(InputError, match=r"continuum, unit 2: expected an object with annotator"):
        read_fixture(write(tmp_path, "f.json", json.dumps({"continuum": bad})))
    bad = [unit, {**unit, "start": "3"}]
    with pytest.raises(InputError, match=r"unit 2: start '3' is not a finite number"):
        read_fixture(write(tmp_path, "f.json", json.dumps({"continuum": bad})))
    bad = [{**unit, "start": 2}]
    with pytest.raises(InputError, match=r"unit 1: start 2 >= end 2"):
        read_fixture(write(tmp_path, "f.json", json.dumps({"continuum": bad})))
    with pytest.raises(InputError, match=r"no tier2.sampledContinua"):
        fixture_samples({"continuum": [unit]})


# ---------------------------------------------------------------------------
# spaCy Docs and DocBins


@pytest.fixture(scope="module")
def docs() -> list[Doc]:
    """Two small blank-English docs with span groups ann1/ann2 (doc 2 has no ann2 group) and ents."""
    nlp = spacy.blank("en")
    words = ["Alice", "met", "Bob", "in", "Paris", "."]
    d1 = Doc(nlp.vocab, words=words, spaces=[True, True, True, True, False, False])
    assert d1.text == "Alice met Bob in Paris."
    d1.spans["ann1"] = [Span(d1, 0, 1, "PER"), Span(d1, 4, 5, "LOC")]
    d1.spans["ann2"] = [Span(d1, 4, 6, "LOC"), Span(d1, 2, 3, "PER")]
    d1.ents = [Span(d1, 0, 1, "PERSON"), Span(d1, 2, 3, "PERSON")]
    d2 = Doc(nlp.vocab, words=["Carol", "left", "."], spaces=[True, False, False])
    assert d2.text == "Carol left."
    d2.spans["ann1"] = [Span(d2, 0, 1, "PER")]
    d2.ents = [Span(d2, 0, 1, "PERSON")]
    return [d1, d2]


def test_from_docs_characters(docs):
    c = from_docs(docs, ["spans:ann1", "spans:ann2"], missing_as_empty=True)
    assert c.annotators == ["spans:ann1", "spans:ann2"]
    # doc 2 starts after doc 1's 23 characters and a gap of 1
    assert by_annotator(c) == {"spans:ann1": [(0.0, 5.0, "PER"), (17.0, 22.0, "LOC"), (24.0, 29.0, "PER")],
                               "spans:ann2": [(10.0, 13.0, "PER"), (17.0, 23.0, "LOC")]}


def test_from_docs_tokens(docs):
    c = from_docs(docs, "spans:ann1;spans:ann2", unit="token", missing_as_empty=True)
    # doc 2 starts after doc 1's 6 tokens and a gap of 1
    assert by_annotator(c) == {"spans:ann1": [(0.0, 1.0, "PER"), (4.0, 5.0, "LOC"), (7.0, 8.0, "PER")],
                               "spans:ann2": [(2.0, 3.0, "PER"), (4.0, 6.0, "LOC")]}


def test_from_docs_ents_and_empty_annotator(docs):
    # a span group that no document holds is a typo, refused naming the sets that exist
    with pytest.raises(InputError, match=r"'spans:nobody'; the sets are: ents, spans:ann1, spans:ann2"):
        from_docs(iter(docs), ["ents", "spans:nobody"])
    docs[1].spans["nobody"] = []  # present but empty: an annotator without units
    c = from_docs(iter(docs), ["ents", "spans:nobody"], missing_as_empty=True)
    assert c.annotators == ["ents", "spans:nobody"]
    assert c.sizes().tolist() == [3, 0]
    assert by_annotator(c)["ents"] == [(0.0, 5.0, "PERSON"), (10.0, 13.0, "PERSON"), (24.0, 29.0, "PERSON")]


def test_from_docs_lays_docs_end_to_end():
    nlp = spacy.blank("en")
    same = []
    for _ in range(3):
        d = nlp("a b")
        d.spans["x"] = [Span(d, 0, 2, "L")]
        same.append(d)
    chars = from_docs(same, ["spans:x"])
    assert list(zip(chars.start.tolist(), chars.end.tolist(), strict=True)) == [(0, 3), (4, 7), (8, 11)]
    tokens = from_docs(same, ["spans:x"], unit="token")
    assert list(zip(tokens.start.tolist(), tokens.end.tolist(), strict=True)) == [(0, 2), (3, 5), (6, 8)]
    # units of different documents never touch
    assert (chars.start[1:] > chars.end[:-1]).all() and (tokens.start[1:] > tokens.end[:-1]).all()


def test_from_docs_errors(docs):
    with pytest.raises(InputError, match="unknown annotation selector 'ann1'"):
        from_docs(docs, ["ann1", "spans:ann2"])
    with pytest.raises(InputError, match="given twice"):
        from_docs(docs, "spans:ann1;spans:ann1")
    with pytest.raises(InputError, match="no annotation sets given"):
        from_docs(docs, " ; ")
    with pytest.raises(InputError, match="unknown unit 'word'"):
        from_docs(docs, ["spans:ann1"], unit="word")
    d = Doc(docs[0].vocab, words=["a", "b"])
    d.spans["x"] = [Span(d, 1, 1, "L")]
    d.user_data["doc_id"] = "d7"
    with pytest.raises(InputError, match=r"document 'd7', span \[2, 2\): empty span in 'spans:x'"):
        from_docs([d], ["spans:x"])


def test_parse_sets():
    assert parse_sets(" spans:a ; spans:b;") == ["spans:a", "spans:b"]
    assert parse_sets(["spans:a;ents", "spans:c"]) == ["spans:a", "ents", "spans:c"]


def test_read_docbin_and_dispatch(docs, tmp_path):
    path = tmp_path / "docs.spacy"
    DocBin(docs=docs).to_disk(path)
    for unit in ("char", "token"):
        expected = from_docs(docs, ["spans:ann1", "spans:ann2"], unit=unit, missing_as_empty=True).units()
        assert read_docbin(path, ["spans:ann1", "spans:ann2"], unit=unit, missing_as_empty=True).units() == expected
        assert from_docs(path, "spans:ann1;spans:ann2", unit=unit, missing_as_empty=True).units() == expected
        assert read_continuum(path, sets="spans:ann1;spans:ann2", unit=unit, missing_as_empty=True).units() == expected
    named = read_continuum(path, sets="spans:ann1;spans:ann2", missing_as_empty=True)
    assert read_continuum(path, missing_as_empty=True).units() == named.units()  # no sets: every annotator set
    with pytest.raises(InputError, match="no such file"):
        read_docbin(tmp_path / "missing.spacy", ["ents"])
    with pytest.raises(InputError, match="not a spaCy DocBin"):
        read_docbin(write(tmp_path, "junk.spacy", "not a docbin"), ["ents"])


# ---------------------------------------------------------------------------
# Praat TextGrid and ELAN EAF

MMR = {"Marvin": [(2.4006878098886597, 3.42238917973842, "S")],
       "Maureen": [(1.00589324318365, 1.8955770203000142, "S"), (3.7380834232313234, 4.926241757831887, "S")],
       "Robin": [(5.293595059350902, 5.781486162930843, "S")]}


def test_read_textgrid_long_format():
    c = read_textgrid(shared_file(PYGAMMA, "MaureenMarvinRobin.TextGrid"))
    assert c.annotators == ["Marvin", "Maureen", "Robin"]
    assert c.sizes().tolist() == [1, 2, 1]
    assert by_annotator(c) == MMR


def test_read_eaf():
    c = read_eaf(shared_file(PYGAMMA, "MaureenMarvinRobin.eaf"))
    # the empty "default" tier is left out; milliseconds become seconds
    assert c.annotators == ["Marvin", "Maureen", "Robin"]
    assert by_annotator(c)["Maureen"] == [(1.006, 1.896, "S"), (3.738, 4.926, "S")]


def test_textgrid_and_eaf_agree():
    tg = read_textgrid(shared_file(PYGAMMA, "MaureenMarvinRobin.TextGrid"))
    eaf = read_eaf(shared_file(PYGAMMA, "MaureenMarvinRobin.eaf"))
    assert tg.annotators == eaf.annotators
    assert tg.sizes().tolist() == eaf.sizes().tolist()
    assert tg.category_names().tolist() == eaf.category_names().tolist()
    np.testing.assert_allclose(eaf.start, tg.start, atol=1e-3)
    np.testing.assert_allclose(eaf.end, tg.end, atol=1e-3)


SHORT_TEXTGRID = '''File type = "ooTextFile"
Object class = "TextGrid"

0
6
<exists>
3
"IntervalTier"
"A ""quoted"" tier"
0
6
3
0
1.5
""
1.5
2.5
"x ""y""
two lines"
2.5
6
"   "
"TextTier"
"points"
0
6
1
3.0
"p"
"IntervalTier"
"silent"
0
6
1
0
6
""
'''


def test_read_textgrid_short_format_and_point_tiers(tmp_path):
    c = read_textgrid(write(tmp_path, "short.TextGrid", SHORT_TEXTGRID))
    # a point tier is not an annotator; an interval tier without text is one, with no units
    assert c.annotators == ['A "quoted" tier', "silent"]
    assert c.units() == [('A "quoted" tier', 1.5, 2.5, 'x "y"\ntwo lines')]
    assert c.sizes().tolist() == [1, 0]


def test_read_textgrid_utf16(tmp_path):
    p = tmp_path / "u16.TextGrid"
    p.write_bytes(SHORT_TEXTGRID.replace("silent", "stïll").encode("utf-16"))
    assert read_textgrid(p).annotators == ['A "quoted" tier', "stïll"]


def test_read_textgrid_errors(tmp_path):
    long_text = shared_file(PYGAMMA, "MaureenMarvinRobin.TextGrid").read_text(encoding="utf8")
    lines = long_text.splitlines(keepends=True)
    with pytest.raises(InputError, match="file ends where"):
        read_textgrid(write(tmp_path, "cut.TextGrid", "".join(lines[:-5])))
    bad = long_text.replace("xmax = 1.8955770203000142", "xmax = 0.5", 1)
    with pytest.raises(InputError, match=r"line 20: interval 2 of tier 'Maureen' has xmin"):
        read_textgrid(write(tmp_path, "bad.TextGrid", bad))
    dup = long_text.replace('name = "Robin"', 'name = "Marvin"')
    with pytest.raises(InputError, match="a second tier named 'Marvin'"):
        read_textgrid(write(tmp_path, "dup.TextGrid", dup))
    bad = long_text.replace("xmin = 1.00589324318365", "xmin = one", 1)
    with pytest.raises(InputError, match=r"line 20: expected xmin of interval 2 of tier 'Maureen', "
                                                  r"found 'one'"):
        read_textgrid(write(tmp_path, "word.TextGrid", bad))
    bad = long_text.replace("xmax = 3.42238917973842", "xmax = 3.4x", 1)
    with pytest.raises(InputError, match=r"line 47: expected xmax of interval 2 of tier 'Marvin', "
                                                  r"found '3.4x'"):
        read_textgrid(write(tmp_path, "num.TextGrid", bad))
    short = SHORT_TEXTGRID.replace("\n1.5\n2.5\n", "\n1.5\n2.5s\n")
    with pytest.raises(InputError, match=r"line 17: expected xmax of interval 2 of tier 'A \"quoted\" tier'"):
        read_textgrid(write(tmp_path, "short.TextGrid", short))
    with pytest.raises(InputError, match="not a Praat TextGrid text file"):
        read_textgrid(write(tmp_path, "csv.TextGrid", "Alex,1,2,9\n"))
    with pytest.raises(InputError, match="unterminated string"):
        read_textgrid(write(tmp_path, "open.TextGrid", long_text.replace('text = "S" ', 'text = "S ', 1)[:600]))
    p = tmp_path / "bin.TextGrid"
    p.write_bytes(b"ooBinaryFile\x08TextGrid\x00")
    with pytest.raises(InputError, match="binary Praat file"):
        read_textgrid(p)


EAF = """<?xml version="1.0" encoding="UTF-8"?>
<ANNOTATION_DOCUMENT FORMAT="3.0" VERSION="3.0">
  <TIME_ORDER>
    <TIME_SLOT TIME_SLOT_ID="ts1" TIME_VALUE="500"/>
    <TIME_SLOT TIME_SLOT_ID="ts2" TIME_VALUE="1250"/>
    <TIME_SLOT TIME_SLOT_ID="ts3"/>
  </TIME_ORDER>
  <TIER TIER_ID="A" LINGUISTIC_TYPE_REF="lt">
    <ANNOTATION><ALIGNABLE_ANNOTATION ANNOTATION_ID="a1" TIME_SLOT_REF1="ts1" TIME_SLOT_REF2="{ref}">
      <ANNOTATION_VALUE>word</ANNOTATION_VALUE></ALIGNABLE_ANNOTATION></ANNOTATION>
  </TIER>
  <TIER TIER_ID="symbolic" LINGUISTIC_TYPE_REF="lt2" PARENT_REF="A">
    <ANNOTATION><REF_ANNOTATION ANNOTATION_ID="a2" ANNOTATION_REF="a1">
      <ANNOTATION_VALUE>gloss</ANNOTATION_VALUE></REF_ANNOTATION></ANNOTATION>
  </TIER>
</ANNOTATION_DOCUMENT>
"""


def test_read_eaf_small_and_errors(tmp_path):
    c = read_eaf(write(tmp_path, "ok.eaf", EAF.format(ref="ts2")))
    assert c.units() == [("A", 0.5, 1.25, "word")]
    with pytest.raises(InputError, match="unaligned time slot 'ts3'"):
        read_eaf(write(tmp_path, "unaligned.eaf", EAF.format(ref="ts3")))
    with pytest.raises(InputError, match="time slot 'ts9', which TIME_ORDER does not define"):
        read_eaf(write(tmp_path, "missing.eaf", EAF.format(ref="ts9")))
    with pytest.raises(InputError, match=r"start 0.5 s >= end 0.5 s"):
        read_eaf(write(tmp_path, "zero.eaf", EAF.format(ref="ts1")))
    with pytest.raises(InputError, match=r"broken\.eaf, line 16: invalid XML"):
        read_eaf(write(tmp_path, "broken.eaf", EAF.format(ref="ts2").replace("</TIER>", "", 1)))
    with pytest.raises(InputError, match="no time-aligned annotations"):
        read_eaf(write(tmp_path, "empty.eaf", "<ANNOTATION_DOCUMENT><TIER TIER_ID='x'/></ANNOTATION_DOCUMENT>"))
    with pytest.raises(InputError, match="not an ELAN file"):
        read_eaf(write(tmp_path, "other.eaf", "<TEI/>"))


# ---------------------------------------------------------------------------
# read_continuum


def test_read_continuum_dispatch(tmp_path):
    tg = shared_file(PYGAMMA, "MaureenMarvinRobin.TextGrid")
    assert by_annotator(read_continuum(tg)) == MMR
    lower = write(tmp_path, "mmr.textgrid", tg.read_text(encoding="utf8"))
    assert by_annotator(read_continuum(lower)) == MMR
    eaf = shared_file(PYGAMMA, "MaureenMarvinRobin.eaf")
    assert read_continuum(eaf).units() == read_eaf(eaf).units()
    csv_path = shared_file(PYGAMMA, "AlexPaulSuzan.csv")
    assert read_continuum(csv_path).units() == read_csv(csv_path).units()
    txt = write(tmp_path, "units.txt", "A,x,1,2\n")
    assert read_continuum(txt, fmt="csv").units() == [("A", 1.0, 2.0, "x")]
    with pytest.raises(InputError, match="cannot tell the format from the suffix '.txt'"):
        read_continuum(txt)
    with pytest.raises(InputError, match="unknown continuum format 'xml'"):
        read_continuum(txt, fmt="xml")
    with pytest.raises(InputError, match="--sets applies to spaCy input only"):
        read_continuum(txt, fmt="csv", sets="spans:a")


# ---------------------------------------------------------------------------
# pygamma-agreement as the reference (optional)


def pygamma_units(continuum) -> dict[str, list[tuple[float, float, str]]]:
    return {str(a): [(u.segment.start, u.segment.end, u.annotation) for u in continuum[a]]
            for a in continuum.annotators}


@pytest.mark.parametrize("name", ["AlexPaulSuzan.csv", "3by100.csv", "annotation_paul_suzann_alex.csv"])
def test_csv_matches_pygamma(name):
    path = shared_file(PYGAMMA, name)
    pa = pytest.importorskip("pygamma_agreement")  # slow to import: after the data check
    ref = pa.Continuum.from_csv(path)
    ours = read_csv(path)
    assert ours.annotators == list(ref.annotators)
    assert {a: len(u) for a, u in by_annotator(ours).items()} == {a: len(ref[a]) for a in ref.annotators}
    assert by_annotator(ours) == pygamma_units(ref)


def test_textgrid_and_eaf_match_pygamma():
    tg = shared_file(PYGAMMA, "MaureenMarvinRobin.TextGrid")
    eaf = shared_file(PYGAMMA, "MaureenMarvinRobin.eaf")
    pa = pytest.importorskip("pygamma_agreement")
    ours_tg, ours_eaf = by_annotator(read_textgrid(tg)), by_annotator(read_eaf(eaf))
    for tier in ("Maureen", "Marvin", "Robin"):
        # pygamma puts a whole file under one annotator; one tier at a time gives per-tier units
        ref = pa.Continuum()
        ref.add_textgrid(tier, tg, selected_tiers=[tier])  # the textgrid package rounds times to 5 decimals
        assert list(ref.annotators) == [tier]
        got = pygamma_units(ref)[tier]
        assert [cat for _, _, cat in got] == [cat for _, _, cat in ours_tg[tier]]
        np.testing.assert_allclose([(s, e) for s, e, _ in got], [(s, e) for s, e, _ in ours_tg[tier]], atol=1e-5)
        ref = pa.Continuum()
        ref.add_elan(tier, str(eaf), selected_tiers=[tier])  # pympi keeps milliseconds
        assert pygamma_units(ref)[tier] == [(s * 1000, e * 1000, cat) for s, e, cat in ours_eaf[tier]]
