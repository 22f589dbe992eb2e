"""Coreference reader and metrics on hand-made documents (no shared data needed): the published worked
examples, the metrics' edge cases, and the reader's refusals."""

from __future__ import annotations

import pytest

from spacy_anno_eval.coref.conll2012 import read_conll2012
from spacy_anno_eval.coref.metrics import CorefScores, b_cubed, blanc_prf, ceaf, lea, muc, score_documents
from spacy_anno_eval.errors import InputError

# Moosavi & Strube (2016), §4 example: key {a b c} {d e f g}; response {a b} {c d} {f g h i}
A, B, C, D, E, F, G, H, I_ = ((i, i) for i in range(9))
KEY = [frozenset({A, B, C}), frozenset({D, E, F, G})]
RESPONSE = [frozenset({A, B}), frozenset({C, D}), frozenset({F, G, H, I_})]


def prf(counts):
    rn, rd, pn, pd = counts
    return rn / rd, pn / pd


def test_lea_of_the_papers_example():
    """R = (3·1/3 + 4·1/6) / 7 ≈ 0.24, P = (2·1 + 2·0 + 4·1/6) / 8 ≈ 0.33 (Moosavi & Strube 2016)."""
    r, p = prf(lea(KEY, RESPONSE))
    assert r == pytest.approx((3 / 3 + 4 / 6) / 7) and round(r, 2) == 0.24
    assert p == pytest.approx((2 + 0 + 4 / 6) / 8) and round(p, 2) == 0.33


def test_muc_b_cubed_and_ceaf_of_the_same_example():
    # MUC: key {abc} cut in 2 parts, {defg} in 3 (d, e alone, fg): (3-2 + 4-3) / (2 + 3) = 2/5
    assert prf(muc(KEY, RESPONSE)) == pytest.approx((2 / 5, (1 + 0 + 1) / (1 + 1 + 3)))
    # B³ recall: (2²+1²)/3 + (1²+2²)/4 over 7 mentions
    assert prf(b_cubed(KEY, RESPONSE))[0] == pytest.approx((5 / 3 + 5 / 4) / 7)
    # CEAFm: best alignment abc~ab (2), defg~fghi (2): 4 of 7 key, 4 of 8 response mentions
    assert prf(ceaf(KEY, RESPONSE, "m")) == pytest.approx((4 / 7, 4 / 8))
    # CEAFe: 2·2/5 + 2·2/8 = 0.8 + 0.5 over 2 key and 3 response entities
    assert prf(ceaf(KEY, RESPONSE, "e")) == pytest.approx((1.3 / 2, 1.3 / 3))


def test_singletons_only_give_muc_nothing_and_blanc_the_non_coreference_links():
    """MUC has no link to count in singleton entities (0/0: 0, the official scorer's figure); BLANC then uses
    non-coreference links alone, as the official scorer does."""
    key = [frozenset({A}), frozenset({B}), frozenset({C})]
    scores = CorefScores()
    scores.add(key, key)
    figures = scores.figures()
    assert figures["muc"] == {"r": 0.0, "p": 0.0, "f": 0.0}
    assert figures["bcub"]["f"] == figures["ceafe"]["f"] == figures["lea"]["f"] == figures["blanc"]["f"] == 1.0
    assert blanc_prf([0, 0, 0, 0, 0, 0, 0, 0]) == {"r": 0.0, "p": 0.0, "f": 0.0}


def test_counts_are_micro_over_documents():
    one, two = CorefScores(), CorefScores()
    one.add(KEY, RESPONSE)
    two.add(KEY, RESPONSE)
    two.add(KEY, KEY)
    assert two.n_docs == 2 and two.counts["muc"] == [2 + 5, 5 + 5, 2 + 5, 5 + 5]
    assert two.figures()["conll"]["f"] == pytest.approx(
        (two.figures()["muc"]["f"] + two.figures()["bcub"]["f"] + two.figures()["ceafe"]["f"]) / 3)


DOC = """#begin document (d1); part 000
w\t0\t0\tAda\t(0
w\t0\t1\tLovelace\t0)
w\t0\t2\tmet\t-
w\t0\t3\tBabbage\t(1)|(2

w\t0\t4\the\t(0)2)
#end document
"""


def write(tmp_path, text, name="f.conll"):
    path = tmp_path / name
    path.write_text(text, encoding="utf8")
    return path


def test_the_reader_counts_tokens_across_sentences_and_reads_joined_brackets(tmp_path):
    (doc,) = read_conll2012(write(tmp_path, DOC))
    assert doc.name == "(d1); part 000" and len(doc.tokens) == 5 and doc.tokens[0] == "Ada"
    assert doc.entities == (((0, 1), (4, 4)), ((3, 3),), ((3, 4),))
    assert score_documents([doc], [doc]).figures()["muc"]["f"] == 1.0


@pytest.mark.parametrize("text, message", [
    ("", "nothing to compare"),
    ("#begin document (x);\nw 0 0 a (0\n#end document\n", "still open"),
    ("#begin document (x);\nw 0 0 a 0)\n#end document\n", "no open bracket"),
    ("w 0 0 a -\n", "outside any document"),
    ("#begin document (x);\nw 0 0 a (0\n", "no '#end document'"),
    ("#begin document (x);\nw 0 0 a (zero)\n#end document\n", "not a coreference field"),
])
def test_the_reader_refuses_what_it_cannot_read_naming_the_line(tmp_path, text, message):
    with pytest.raises(InputError, match=message):
        read_conll2012(write(tmp_path, text))


def test_key_and_response_must_hold_the_same_documents(tmp_path):
    (doc,) = read_conll2012(write(tmp_path, DOC))
    (other,) = read_conll2012(write(tmp_path, DOC.replace("(d1)", "(d2)"), "g.conll"))
    with pytest.raises(InputError, match="the key's is '\\(d1\\); part 000', the response's '\\(d2\\)"):
        score_documents([doc], [other])
    with pytest.raises(InputError, match="1 documents and the response 2"):
        score_documents([doc], [doc, doc])
