"""EVALB's own sample: Sekine, S. & Collins, M. J. (1997). *EVALB: bracket scoring program* (README,
``evalb.c``, ``sample/sample.{gld,tst,prm,rsl}``; http://nlp.cs.nyu.edu/evalb/, 2006 release with the
F-measure line), which implements the PARSEVAL measures of Black, E. et al. (1991). "A procedure for
quantitatively comparing the syntactic coverage of English grammars". *Proceedings of the DARPA Speech and
Natural Language Workshop*, 306-311. ``../shared/data/REFERENCE-2.md`` A1; the files are the copy in
nikitakit/self-attentive-parser ``EVALB/sample`` and are read from ``../shared/data/treebank/evalb_sample/``
(the tests skip without it). The published numbers are written here.

Checked with ``sample.prm`` (``evalb -p sample.prm sample.gld sample.tst``; ``sample.rsl``):

- All: 24 sentences, 5 error (12, 13, 16, 17, 20), 2 skip (11, 14), 17 valid; recall 87.76, precision 90.53,
  F 89.12 (printed by EVALB >= 2006, not in the 1997 ``sample.rsl``), complete match 52.94, average crossing
  0.06, no crossing 94.12, 2 or less crossing 100.00, tagging accuracy 98.15; totals 86 matched, 98 gold and
  95 test brackets, 108 words, 106 correct tags.
- len <= 40 (sentence 22 has 44 words): 23 / 5 / 2 / 16 valid; R 81.25, P 85.25, F 83.20, CM 50.00, AC 0.06,
  NC 93.75, 2C 100.00, tagging 96.88.
- Sentence rows 6 (R 50.00, P 66.67: 2 matched of 4 gold and 3 test brackets, 1 crossing) and 10 (R 100.00,
  P 50.00: 8 test brackets, the duplicated unary ``A`` nodes counting separately).

And with ``COLLINS.prm`` (peer-derived: the 2006 EVALB C code run here, REFERENCE-2.md A1): All R 87.23,
P 90.11, F 88.65, CM 50.00, 6 error / 2 skip / 16 valid, tagging 97.12; len <= 40 R 80.00, P 84.21, F 82.05,
CM 46.67, AC 0.07, NC 93.33, tagging 95.00 (no ``EQ_WORD This this``, so sentence 20 is an error).

The byte-for-byte reproduction of ``sample.rsl`` (``format_rsl("1997")``) and of EVALB 2006's output
(``format_rsl("2006")``) is ``tests/trees/test_evalb.py::test_sample_rsl_text_is_reproduced_byte_for_byte``;
it is not repeated here. Figures are compared as EVALB prints them, to 2 decimals.
"""

from __future__ import annotations

import pytest

from spacy_anno_eval.trees.evalb import ERROR, OK, SKIP, evaluate_files
from tests.conftest import shared_file

SAMPLE = ("treebank", "evalb_sample")
FIGURES = ("recall", "precision", "fmeasure", "complete_match", "average_crossing", "no_crossing",
           "two_or_less_crossing", "tagging_accuracy")


def run(param: str):
    return evaluate_files(shared_file(*SAMPLE, "sample.gld"), shared_file(*SAMPLE, "sample.tst"),
                          shared_file(*SAMPLE, param))


SUMMARIES = [  # param, block, (sentences, error, skip, valid), (R, P, F, CM, AC, NC, 2C, Tag)
    ("sample.prm", "all", (24, 5, 2, 17), (87.76, 90.53, 89.12, 52.94, 0.06, 94.12, 100.00, 98.15)),
    ("sample.prm", "len<=40", (23, 5, 2, 16), (81.25, 85.25, 83.20, 50.00, 0.06, 93.75, 100.00, 96.88)),
    ("COLLINS.prm", "all", (24, 6, 2, 16), (87.23, 90.11, 88.65, 50.00, 0.06, 93.75, 100.00, 97.12)),
    ("COLLINS.prm", "len<=40", (23, 6, 2, 15), (80.00, 84.21, 82.05, 46.67, 0.07, 93.33, 100.00, 95.00)),
]


@pytest.mark.parametrize(("param", "block", "counts", "figures"), SUMMARIES,
                         ids=[f"{p}-{b}" for p, b, _, _ in SUMMARIES])
def test_summary(param, block, counts, figures):
    result = run(param)
    totals = result.all if block == "all" else result.cutoff
    assert (totals.sentences, totals.error, totals.skip, totals.valid) == counts
    got, undefined = totals.figures()
    assert not undefined
    assert {k: round(got[k], 2) for k in FIGURES} == dict(zip(FIGURES, figures, strict=True))


def test_totals_line():
    """sample.rsl's totals line: 86 matched, 98 gold, 95 test brackets; 108 words, 106 correct tags."""
    totals = run("sample.prm").all
    assert (totals.matched, totals.gold_brackets, totals.test_brackets) == (86, 98, 95)
    assert (totals.words, totals.correct_tags) == (108, 106)


def test_sentence_statuses():
    """Status 1 (words or length differ): 12, 13, 16, 17, 20; status 2 (empty test line): 11, 14."""
    rows = run("sample.prm").sentences
    assert [r.id for r in rows] == list(range(1, 25))
    status = {r.id: r.status for r in rows}
    assert sorted(i for i, s in status.items() if s == ERROR) == [12, 13, 16, 17, 20]
    assert sorted(i for i, s in status.items() if s == SKIP) == [11, 14]
    assert sum(s == OK for s in status.values()) == 17
    assert {r.id: r.length for r in rows if r.length != 4} == {22: 44, 24: 5}


@pytest.mark.parametrize(("sent", "row"), [
    # ID: (Len, Stat, Recall, Prec., matched, gold, test, Cross, Words, Correct tags, Tag accuracy)
    (6, (4, 0, 50.00, 66.67, 2, 4, 3, 1, 4, 4, 100.00)),
    (10, (4, 0, 100.00, 50.00, 4, 4, 8, 0, 4, 4, 100.00)),
])
def test_sentence_rows(sent, row):
    r = run("sample.prm").sentences[sent - 1]
    assert r.id == sent
    assert (r.length, r.status, round(r.recall, 2), round(r.precision, 2), r.matched, r.gold_brackets,
            r.test_brackets, r.crossing, r.words, r.correct_tags, round(r.tagging_accuracy, 2)) == row
