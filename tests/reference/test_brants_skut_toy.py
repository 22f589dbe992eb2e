"""Brants & Skut (1998) sections 3.1, 3.2, 3.5 and 4.2 by hand on a three-sentence toy treebank.

The treebank (NEGRA export, written here)::

    1  S[ NP/SB[ der/ART/NK Hund/NN/NK ]  schlaeft/VVFIN/HD ]
    2  S[ Maria/NE/SB  schlaeft/VVFIN/HD ]
    3  S[ kennt/VVFIN/HD  NP/OA[ den/ART/NK Hund/NN/NK ] ]

(each S hangs from the virtual root VROOT with function ``--``). The models read one sequence per phrase
(outputs = children's categories, states = their functions):

- VROOT: ``(S, --)`` three times;
- S: ``(NP,SB) (VVFIN,HD)``, ``(NE,SB) (VVFIN,HD)``, ``(VVFIN,HD) (NP,OA)``;
- NP: ``(ART,NK) (NN,NK)`` twice.

**S model counts** (every sequence ``BOS BOS g1 g2 EOS``). Unigrams: SB 2, HD 3, OA 1, EOS 3, N = 9.
Bigrams (context -> next; context totals): BOS->SB 2, BOS->HD 1 (3); SB->HD 2 (2); HD->EOS 2, HD->OA 1 (3);
OA->EOS 1 (1). Trigrams (context totals): (B,B)->SB 2, (B,B)->HD 1 (3); (B,SB)->HD 2 (2); (SB,HD)->EOS 2 (2);
(B,HD)->OA 1 (1); (HD,OA)->EOS 1 (1).

**Deleted interpolation** (c1 = (f(t3)-1)/(N-1), c2 = (f(t2,t3)-1)/(f(t2,.)-1), c3 = (f(t1,t2,t3)-1)/(f(t1,t2,.)-1),
0 for a zero denominator; the trigram's count goes to the largest, ties split evenly):

=================  =====  ====  ====  ====  ==========================
trigram            count  c1    c2    c3    credit
=================  =====  ====  ====  ====  ==========================
(B,B,SB)           2      1/8   1/2   1/2   l2 +1, l3 +1
(B,B,HD)           1      1/4   0     0     l1 +1
(B,SB,HD)          2      1/4   1     1     l2 +1, l3 +1
(SB,HD,EOS)        2      1/4   1/2   1     l3 +2
(B,HD,OA)          1      0     0     0     l1, l2, l3 +1/3 each
(HD,OA,EOS)        1      1/4   0     0     l1 +1
=================  =====  ====  ====  ====  ==========================

l1 = 7/3, l2 = 7/3, l3 = 13/3 of 9: **(7/27, 7/27, 13/27)**.

VROOT: (B,B,--) 3: c1 = 2/5, c2 = c3 = 1 -> l2, l3 +3/2; (B,--,EOS) likewise: **(0, 1/2, 1/2)**; every
factor is 1 (P(--|B,B) = 1/2 + 1/2, P(S|--) = 1, P(EOS|B,--) = 1).

NP: unigrams NK 4, EOS 2 (N = 6); (B,B,NK) 2: c1 = 3/5, c2 = 1/1, c3 = 1/1 -> l2, l3 +1; (B,NK,NK) 2: c1 = 3/5,
c2 = 1/3, c3 = 1 -> l3 +2; (NK,NK,EOS) 2: c1 = 1/5, c2 = 1/3, c3 = 1 -> l3 +2: **(0, 1/6, 5/6)**.
P_NP(ART NN, NK NK) = P(NK|B,B) P(ART|NK) P(NK|B,NK) P(NN|NK) P(EOS|NK,NK)
= 1 * 1/2 * (1/6 * 2/4 + 5/6 * 2/2) * 1/2 * (1/6 * 2/4 + 5/6 * 2/2) = 1/2 * 11/12 * 1/2 * 11/12 = **121/576**.

**Sentence 1's S phrase** (section 3.1's product with the end transition):

- P(SB|B,B)    = 7/27 * 2/9 + 7/27 * 2/3 + 13/27 * 2/3 = 14/243 + 120/243 = 134/243
- P(NP|SB)     = 1/2
- P(HD|B,SB)   = 7/27 * 3/9 + 7/27 * 2/2 + 13/27 * 2/2 = 7/81 + 60/81 = 67/81
- P(VVFIN|HD)  = 3/3
- P(EOS|SB,HD) = 7/27 * 3/9 + 7/27 * 2/3 + 13/27 * 2/2 = 7/81 + 14/81 + 39/81 = 20/27

**Section 4.2**: P(A1) = 1 (VROOT) * 134/243 * 1/2 * 67/81 * 20/27 (S) * 121/576 (NP); n = 3 words + 2 nodes,
PP(A1) = P(A1)^(-1/5). Sentence 2: 134/243 * 1/2 * 67/81 * 20/27, n = 3. Sentence 3: P(HD|B,B) = 7/81 + 7/81 +
13/81 = 1/3, P(OA|B,HD) = 7/27 * 1/9 + 7/27 * 1/3 + 13/27 * 1/1 = 145/243, P(EOS|HD,OA) = 7/81 + 7/27 + 13/27 =
67/81; P(A3) = 1/3 * 145/243 * 67/81 * 121/576, n = 5.

**Swapped functions** (sentence 1 with NP/OA): P(OA|B,B) = 7/27 * 1/9 = 7/243 (no bigram, no trigram),
P(NP|OA) = 1, P(HD|B,OA) = 7/27 * 3/9 = 7/81, P(EOS|OA,HD) = 7/81 + 7/27 * 2/3 = 7/27: P = 343/531441 * 121/576,
a higher perplexity: the resolution suggests the original.

**Section 3.5, the function of the NP in sentence 1**: NP was seen as SB and as OA, VVFIN only as HD, so the two
alternatives are SB HD (134/243 * 1/2 * 67/81 * 20/27) and OA HD (7/243 * 1 * 7/81 * 7/27): quotient
(134 * 67 * 20 / 2) / 7^3 = 89780/343 = 261.75 > 100: *reliable*.

**Section 3.2, the category of that NP**: P(NP) = 2/5, P(S) = 3/5 (non-root phrases). The NP model gives
121/576. The S model never saw ART or NN: each is an unseen output, 1/(6 + 1) under every state (6 S-children in
training); its best function sequence for two children is SB HD (134/243 * 67/81 * 20/27 = 179560/531441; next
HD OA: 1/3 * 145/243 * 67/81 = 9715/59049). Quotient (2/5 * 121/576) / (3/5 * 179560/531441 * 1/49) = 20.31:
*almost reliable*.
"""

from __future__ import annotations

import math
from fractions import Fraction as F

import pytest

from spacy_anno_eval.trees.negra import parse_negra
from spacy_anno_eval.trees.resolution import resolve
from spacy_anno_eval.trees.structure_model import StructureModel

TOY = """#BOS 1
der\tART\t--\tNK\t500
Hund\tNN\t--\tNK\t500
schlaeft\tVVFIN\t--\tHD\t501
#500\tNP\t--\tSB\t501
#501\tS\t--\t--\t0
#EOS 1
#BOS 2
Maria\tNE\t--\tSB\t501
schlaeft\tVVFIN\t--\tHD\t501
#501\tS\t--\t--\t0
#EOS 2
#BOS 3
kennt\tVVFIN\t--\tHD\t501
den\tART\t--\tNK\t500
Hund\tNN\t--\tNK\t500
#500\tNP\t--\tOA\t501
#501\tS\t--\t--\t0
#EOS 3
"""
SWAPPED = TOY.split("#BOS 2")[0].replace("#500\tNP\t--\tSB", "#500\tNP\t--\tOA")

S1 = F(134, 243) * F(1, 2) * F(67, 81) * F(20, 27)
NP = F(121, 576)
P_A = {"1": S1 * NP, "2": F(134, 243) * F(1, 2) * F(67, 81) * F(20, 27), "3": F(1, 3) * F(145, 243) * F(67, 81) * NP}
N_NODES = {"1": 5, "2": 3, "3": 5}
P_SWAPPED = F(7, 243) * F(7, 81) * F(7, 27) * NP


@pytest.fixture(scope="module")
def model():
    return StructureModel.fit(parse_negra(TOY))


def test_lambdas(model):
    assert model.models["S"].lambdas == pytest.approx((7 / 27, 7 / 27, 13 / 27), abs=1e-12)
    assert model.models["VROOT"].lambdas == pytest.approx((0, 1 / 2, 1 / 2), abs=1e-12)
    assert model.models["NP"].lambdas == pytest.approx((0, 1 / 6, 5 / 6), abs=1e-12)


def test_lambdas_equal_nltk():
    tnt = pytest.importorskip("nltk.tag.tnt")
    tagger = tnt.TnT()
    tagger.train([[("NP", "SB"), ("VVFIN", "HD")], [("NE", "SB"), ("VVFIN", "HD")], [("VVFIN", "HD"), ("NP", "OA")]])
    assert (tagger._lambda1, tagger._lambda2, tagger._lambda3) == pytest.approx((7 / 27, 7 / 27, 13 / 27), abs=1e-12)


def test_phrase_probabilities(model):
    trees = parse_negra(TOY)
    s = model.models["S"]
    assert s.log_prob(["NP", "VVFIN"], ["SB", "HD"]) == pytest.approx(math.log(S1), abs=1e-9)
    assert model.models["NP"].log_prob(["ART", "NN"], ["NK", "NK"]) == pytest.approx(math.log(NP), abs=1e-9)
    assert model.models["VROOT"].log_prob(["S"], ["--"]) == pytest.approx(0.0, abs=1e-12)
    for tree in trees:
        assert model.log_prob(tree) == pytest.approx(math.log(P_A[tree.sent_id]), abs=1e-9)


def test_perplexities(model):
    for tree in parse_negra(TOY):
        n = N_NODES[tree.sent_id]
        assert model.perplexity(tree) == pytest.approx(float(P_A[tree.sent_id]) ** (-1 / n), abs=1e-9)
    assert model.perplexity(parse_negra(TOY)[0]) == pytest.approx(1.9497660935517815, abs=1e-9)


def test_swapped_functions(model):
    swapped = parse_negra(SWAPPED)[0]
    assert model.log_prob(swapped) == pytest.approx(math.log(P_SWAPPED), abs=1e-9)
    res = resolve([swapped], [parse_negra(TOY)[0]], model=model)
    (row,) = res.sentences
    assert row.pp_a == pytest.approx(float(P_SWAPPED) ** (-1 / 5), abs=1e-9)
    assert row.pp_b == pytest.approx(float(S1 * NP) ** (-1 / 5), abs=1e-9)
    assert row.suggestion == "B"


def test_reliability_of_the_function(model):
    doubts = {(d.kind, d.node, d.word): d for d in model.doubt(parse_negra(TOY)[0])}
    np_function = doubts[("function", 500, None)]
    assert (np_function.best, np_function.second) == ("SB", "OA")
    assert np_function.quotient == pytest.approx(89780 / 343, abs=1e-9)
    assert np_function.level == "reliable"
    verb = doubts[("function", None, 3)]  # VVFIN was only ever HD: no alternative
    assert (verb.best, verb.second, verb.quotient, verb.level) == ("HD", None, math.inf, "reliable")


def test_reliability_of_the_category(model):
    doubts = {(d.kind, d.node): d for d in model.doubt(parse_negra(TOY)[0])}
    cat = doubts[("category", 500)]
    expected = (F(2, 5) * NP) / (F(3, 5) * F(179560, 531441) * F(1, 49))
    assert (cat.given, cat.best, cat.second) == ("NP", "NP", "S")
    assert cat.quotient == pytest.approx(float(expected), abs=1e-9)
    assert cat.level == "almost reliable" and not cat.contradicts
