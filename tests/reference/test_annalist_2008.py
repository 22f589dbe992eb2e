"""Demetriou, G., Gaizauskas, R., Sun, H. & Roberts, A. (2008). "ANNALIST - ANNotation ALIgnment and Scoring
Tool". *Proceedings of LREC 2008*, Marrakech (seed ``annalist-alignment-and-scoring.txt``).

- Section 5 and Fig. 2: the McCain / Obama example. Without offsets, MUC-style greedy alignment pairs the key
  "Obama" (of "Sen. Obama") with the response "Obama": one correct, "Barack Obama" missing; the DP alignment
  path of Fig. 2 is John McCain C, Barack Obama / Obama P, Obama M, McCain C.
- Fig. 3, the scores report of the VIKEF relations: every legible row (COR, PAR, INC, MIS, SPU -> REC, PRE, F;
  partial credit 0.5) and the totals "All relations: POS 205 ACT 408 COR 147 PAR 8 INC 0 SPU 253 MIS 50,
  REC 0.7366 PRE 0.3701 F 0.4927" and "All attributes: POS 410 ACT 816 COR 301 PAR 9 INC 0, REC 0.7451
  PRE 0.3744 F 0.4984". The scan garbles the PAR column and the row names of the relation table; the rows
  below follow the attribute table's names, and PAR is the one count that gives the printed REC. The rows sum
  to the printed totals exactly. author_of's F prints 0.0420 in the relation table and 0.0426 in the
  attribute table: 2 * 0.04 * 0.0455 / 0.0855 = 0.0426.
"""

from __future__ import annotations

import pytest

from spacy_anno_eval.annalist.align import Mention, Settings, align_mentions, scores
from spacy_anno_eval.annalist.relations import relation_figures

TEXT = ('John McCain said Tuesday that he and Barack Obama were "moving on" after having a "nice discussion." '
        "In a letter to Sen.Obama on Monday, McCain -upset by his colleague's support ...")
KEY = [("person", "John McCain"), ("date", "Tuesday"), ("person", "Barack Obama"), ("person", "Obama"),
       ("date", "Monday"), ("person", "McCain")]
RESPONSE = [("person", "John McCain"), ("date", "Tuesday"), ("person", "Obama"), ("date", "Monday"),
            ("person", "McCain")]


def mentions(items):
    """Mentions without offsets (order of occurrence only), as in the paper's example."""
    return [Mention("d1", str(k + 1), name, value, None, None, order=k) for k, (name, value) in enumerate(items)]


def persons(decisions):
    return [(d.key.value if d.key else None, d.response.value if d.response else None, d.status)
            for d in decisions if (d.key or d.response).name == "person"]


def test_section_5_greedy_alignment_without_offsets():
    out = persons(align_mentions(mentions(KEY), mentions(RESPONSE), Settings(level="order", algorithm="greedy")))
    assert ("Obama", "Obama", "correct") in out
    assert ("Barack Obama", None, "missing") in out


def test_fig_2_dp_alignment_path():
    settings = Settings(level="order", algorithm="dp", anchor_text=True)
    decisions = align_mentions(mentions(KEY), mentions(RESPONSE), settings, {"d1": TEXT})
    assert persons(decisions) == [("John McCain", "John McCain", "correct"), ("Barack Obama", "Obama", "partial"),
                                  ("Obama", None, "missing"), ("McCain", "McCain", "correct")]
    person = scores(decisions)["collection"]["person"]
    assert (person["COR"], person["PAR"], person["INC"], person["MIS"], person["SPU"]) == (2, 1, 0, 1, 0)


FIG_2_PATH = [("John McCain", "John McCain", "correct"), ("Barack Obama", "Obama", "partial"),
              ("Obama", None, "missing"), ("McCain", "McCain", "correct")]


def test_fig_2_plain_dp_without_offsets_or_text():
    """Section 5: DP finds what greedy misses, from the order of occurrence alone (no offsets, no text)."""
    decisions = align_mentions(mentions(KEY), mentions(RESPONSE), Settings(level="order", algorithm="dp"))
    assert persons(decisions) == FIG_2_PATH
    person = scores(decisions)["collection"]["person"]
    assert (person["COR"], person["PAR"], person["INC"], person["MIS"], person["SPU"]) == (2, 1, 0, 1, 0)
    dates = [(d.key.value, d.response.value, d.status) for d in decisions if d.key and d.key.name == "date"]
    assert dates == [("Tuesday", "Tuesday", "correct"), ("Monday", "Monday", "correct")]


def test_fig_2_greedy_does_not_find_the_path():
    decisions = align_mentions(mentions(KEY), mentions(RESPONSE), Settings(level="order", algorithm="greedy"))
    assert persons(decisions) != FIG_2_PATH
    person = scores(decisions)["collection"]["person"]
    assert (person["COR"], person["PAR"], person["MIS"]) == (3, 0, 1)


# Fig. 3 rows: (COR, PAR, INC, MIS, SPU) -> printed (POS, ACT, REC, PRE, F)
FIG_3 = {
    "lastname_of": ((28, 1, 0, 6, 58), (35, 87, 0.8143, 0.3276, 0.4672)),
    "part_of": ((3, 0, 0, 0, 16), (3, 19, 1.0, 0.1579, 0.2727)),
    "firstname_of": ((23, 1, 0, 8, 67), (32, 91, 0.7344, 0.2582, 0.3821)),
    "author_of": ((1, 0, 0, 24, 21), (25, 22, 0.04, 0.0455, 0.0426)),
    "location_of": ((1, 0, 0, 4, 21), (5, 22, 0.2, 0.0455, 0.0741)),
    "url_of": ((32, 0, 0, 0, 18), (32, 50, 1.0, 0.64, 0.7805)),
    "title_of": ((42, 1, 0, 3, 0), (46, 43, 0.9239, 0.9884, 0.9551)),
    "ptitle_of": ((12, 5, 0, 4, 46), (21, 63, 0.6905, 0.2302, 0.3452)),
    "firstname2_of": ((5, 0, 0, 1, 4), (6, 9, 0.8333, 0.5556, 0.6667)),
}
COREF = (0, 0, 0, 0, 2)  # POS 0, ACT 2: precision 0, recall undefined


def counts(cor, par, inc, mis, spu):
    return {"COR": cor, "PAR": par, "INC": inc, "MIS": mis, "SPU": spu}


@pytest.mark.parametrize("name", list(FIG_3))
def test_fig_3_relation_rows(name):
    given, (pos, act, rec, pre, f) = FIG_3[name]
    out = relation_figures(counts(*given))
    assert (out["POS"], out["ACT"]) == (pos, act)
    assert (round(out["r"], 4), round(out["p"], 4), round(out["f"], 4)) == (rec, pre, f)


def test_fig_3_coref_row_precision():
    out = relation_figures(counts(*COREF))
    assert (out["POS"], out["ACT"], out["p"]) == (0, 2, 0.0)


def test_fig_3_all_relations():
    total = [sum(col) for col in zip(*(g for g, _ in FIG_3.values()), COREF, strict=True)]
    assert total == [147, 8, 0, 50, 253]  # the rows add up to the printed totals
    out = relation_figures(counts(*total))
    assert (out["POS"], out["ACT"]) == (205, 408)
    assert (round(out["r"], 4), round(out["p"], 4), round(out["f"], 4)) == (0.7366, 0.3701, 0.4927)


def test_fig_3_all_attributes():
    # the scan prints ACT "81.0" and SPU "500"; POS 410 and ACT 816 follow from COR 301, PAR 9, MIS 100, SPU 506
    out = relation_figures(counts(301, 9, 0, 100, 506))
    assert (out["POS"], out["ACT"]) == (410, 816)
    assert (round(out["r"], 4), round(out["p"], 4), round(out["f"], 4)) == (0.7451, 0.3744, 0.4984)
