"""Krippendorff, K., Mathet, Y., Bouvry, S. & Widlöcher, A. (2016). "On the reliability of unitizing textual
continua: Further developments". *Quality & Quantity* 50, 2347-2364: the 2016 uα.

``../shared/data/REFERENCE-2.md`` B2 (``unitizing/dkpro_simple_example.json``): continuum [0, 10), coder 0
A[1, 9), coder 1 A[2, 3), A[4, 5), A[6, 7): uα = 2/11 = 0.181818, the same in two independent Python
implementations (zeljkobekcic/KrippendorffUnitizedAlpha, lindanna/unitized_alpha) and by hand: o_AA 6,
o_A0 = o_0A 5, o_00 4, l.. 20, e_AA = 20·54/324, e_00 = 20·72/324, 1 − 10/12.222. (The former also agreed
with ours to 7e-16 on 300 random continua of 2-4 coders and 2 categories, run here while writing the
module; it is not a test extra.) The 2004 uα of the same data is −0.7003 (test_krippendorff_2004_unitizing.py).
"""

from __future__ import annotations

import json

import pytest

from spacy_anno_eval.errors import InputError
from spacy_anno_eval.gamma.continuum import Continuum
from spacy_anno_eval.gamma.unitizing import GAP, unitizing_alpha_2016
from tests.conftest import shared_file

UNITS = [("0", 1, 9, "A"), ("1", 2, 3, "A"), ("1", 4, 5, "A"), ("1", 6, 7, "A")]


def test_b2_by_hand():
    r = unitizing_alpha_2016(Continuum.from_units(UNITS), extent=(0, 10))
    assert r.value == pytest.approx(2 / 11, abs=1e-12)
    assert r.coincidences == {GAP: 4.0, "A": 6.0} and r.total == 20.0
    assert r.expected_coincidences["A"] == pytest.approx(20 * 54 / 324)
    assert r.expected_coincidences[GAP] == pytest.approx(20 * 72 / 324)
    assert (r.observed, round(r.expected, 3)) == (10.0, 12.222)


def test_b2_from_the_shared_file():
    data = json.loads(shared_file("unitizing", "dkpro_simple_example.json").read_text(encoding="utf-8"))
    units = [(str(u["coder"]), u["begin"], u["begin"] + u["length"], u["category"]) for u in data["units"]]
    begin, length = data["continuum"]["begin"], data["continuum"]["length"]
    r = unitizing_alpha_2016(Continuum.from_units(units), extent=(begin, begin + length))
    assert round(r.value, 6) == 0.181818


def test_identical_coders_agree_perfectly_and_the_gap_is_a_value():
    same = [("0", 2, 5, "A"), ("0", 6, 8, "B"), ("1", 2, 5, "A"), ("1", 6, 8, "B")]
    assert unitizing_alpha_2016(Continuum.from_units(same), extent=(0, 10)).value == pytest.approx(1.0)
    swapped = [("0", 2, 5, "A"), ("1", 2, 5, "B")]
    assert unitizing_alpha_2016(Continuum.from_units(swapped), extent=(0, 10)).value < 0.5


def test_overlapping_units_of_one_coder_are_refused_with_the_way_out():
    clash = [("0", 1, 9, "A"), ("0", 2, 4, "B"), ("1", 2, 3, "A")]
    with pytest.raises(InputError, match="2004 uα"):
        unitizing_alpha_2016(Continuum.from_units(clash), extent=(0, 10))
