"""Gwet, K. L. (2014). *Handbook of Inter-Rater Reliability*, 4th ed., Advanced Analytics (ch. 2-3: two raters;
ch. 5: many raters with missing ratings), as Gwet's irrCAC, ported to Python, asserts it: every shared case of
irrCAC's unit tests, afergadis/irrCAC@2b71b15 ``test/unit/irrCAC/{raw,table}/test_*.py`` (the file and line of
the test function are written beside each row), as ``../shared/data/REFERENCE-2.md`` C1 prints them.

Checked: all 109 shared cases, 60 on raw ratings with missing values (``raw_4raters`` 12 units x 4 raters,
scores 1-5; ``raw_5observers`` 15 x 5, scores 0-4; ``raw_gender``; ``raw_ben_gerry``) for Brennan-Prediger,
Conger's kappa, Fleiss' kappa, Gwet's AC1/AC2 and Krippendorff's alpha, and 49 on the two-rater contingency
table ``table_cont3x3abstractors`` for Brennan-Prediger, Cohen's kappa, Gwet's AC1/AC2, Krippendorff's alpha,
percent agreement (irrCAC's ``pa2``) and Scott's pi; under every weighting irrCAC names (unweighted = identity,
bipolar, circular, linear, ordinal, quadratic, radical, ratio) and irrCAC's custom matrices. Each figure irrCAC
asserts -- coefficient, pa, pe, se, confidence interval (95 %, upper end capped at 1), p-value -- is compared
at the precision irrCAC rounds it to: 3 decimals, the p-value to 5 (6 where irrCAC says so). A blank in
REFERENCE-2.md's table (irrCAC asserts nothing there; for instance its table methods report no pa/pe) is
``None`` here and not checked.

The datasets are irrCAC's (GPL) and are read from ``../shared/data/chance_agreement/irrcac/``, never copied;
without them the tests skip. Only the published numbers are written here.

Deliberate differences:

- irrCAC 0.4.4's raw ``bp()`` reports the *one-sided* p-value where its other methods report the two-sided
  one; the toolkit reports both (``p_value``, ``p_value_one_sided``), so the raw Brennan-Prediger rows are
  compared with ``p_value_one_sided`` (and the two-sided value is checked to be its double).
- Fleiss' kappa with missing ratings: irrCAC takes the chance shares as the mean over units of each unit's
  shares (Gwet 2014, ch. 2); that is the toolkit's default (``shares="averaged"``), tested against irrCAC.
  The pooled variant (``shares="pooled"``, equal to :func:`~spacy_anno_eval.agreement.reliability.fleiss_kappa`)
  is a different estimator: on ``raw_5observers`` it gives 0.464 where irrCAC publishes 0.458.

The same cases are also checked against irrCAC 0.4.4's full-precision output in
``tests/agreement/test_chance.py``, which reads them from ``expected_irrcac.json``; this file holds the
published 3-decimal numbers inline.
"""

from __future__ import annotations

import csv
from functools import cache

import numpy as np
import pytest

from spacy_anno_eval.agreement.chance import chance_agreement, fleiss_kappa_missing, table_agreement
from spacy_anno_eval.agreement.reliability import fleiss_kappa
from tests.conftest import shared_file

SOURCE = "afergadis/irrCAC@2b71b15 test/unit/irrCAC"
R4, R5, RG, RB, T3 = "raw_4raters", "raw_5observers", "raw_gender", "raw_ben_gerry", "table_cont3x3abstractors"
RAW = {"bp": "brennan_prediger", "conger": "conger", "fleiss": "fleiss", "gwet": "gwet",
       "krippendorff": "krippendorff"}
TABLE = {"bp": "brennan_prediger", "cohen": "cohen", "gwet": "gwet", "krippendorff": "krippendorff",
         "pa2": "percent", "scott": "scott"}

# irrCAC's custom weights (not symmetric), rows and columns in the sorted category order
CUSTOM = {R4: [[1.0, 0.75, 0.5, 0.25, 0.0], [0.0, 1.0, 0.75, 0.5, 0.25], [0.25, 0.0, 1.0, 0.75, 0.5],
               [0.5, 0.25, 0.0, 1.0, 0.75], [0.75, 0.5, 0.25, 0.0, 1.0]],
          T3: [[1.0, 0.5, 0.0], [0.0, 1.0, 0.5], [0.5, 0.0, 1.0]]}
# irrCAC asserts round(p_value, 6) in these cases, round(p_value, 5) elsewhere
P_DIGITS_6 = {(R4, "gwet", "bipolar"), (R4, "gwet", "ordinal"), (R4, "gwet", "quadratic")}

# REFERENCE-2.md C1: dataset, method, weights, pa, pe, coefficient, se, CI low, CI high, p, source (raw/test_*)
RAW_CASES = [
    (R4, "bp", "unweighted", 0.818, 0.200, 0.773, 0.145, 0.454, 1.000, 0.00012, "bp.py:16"),
    (R4, "bp", "bipolar", 0.968, 0.717, 0.888, 0.112, 0.641, 1.000, 0, "bp.py:36"),
    (R4, "bp", "circular", 0.902, 0.447, 0.824, 0.137, 0.522, 1.000, 4e-05, "bp.py:48"),
    (R4, "bp", "linear", 0.939, 0.600, 0.848, 0.123, 0.577, 1.000, 1e-05, "bp.py:60"),
    (R4, "bp", "ordinal", 0.968, 0.720, 0.886, 0.114, 0.636, 1.000, 0, "bp.py:72"),
    (R4, "bp", "quadratic", 0.975, 0.750, 0.902, 0.111, 0.657, 1.000, 0, "bp.py:84"),
    (R4, "bp", "radical", 0.897, 0.452, 0.813, 0.133, 0.520, 1.000, 4e-05, "bp.py:96"),
    (R4, "bp", "ratio", 0.954, 0.713, 0.840, 0.132, 0.549, 1.000, 3e-05, "bp.py:108"),
    (R4, "bp", "custom", 0.886, 0.500, 0.773, 0.145, 0.454, 1.000, 0.00012, "bp.py:120"),
    (R5, "bp", "unweighted", 0.616, 0.250, 0.487, 0.121, 0.228, 0.747, 0.00062, "bp.py:141"),
    (RG, "bp", "unweighted", 0.456, 0.333, 0.183, 0.102, -0.035, 0.402, 0.04688, "bp.py:165"),
    (RB, "bp", "unweighted", 0.727, 0.200, 0.659, 0.185, 0.251, 1.000, 0.00225, "bp.py:177"),
    (R4, "conger", "unweighted", 0.818, 0.233, 0.763, None, 0.435, 1.000, 0.00034, "conger.py:16"),
    (R4, "conger", "bipolar", 0.968, 0.796, 0.845, 0.142, 0.532, 1.000, 0.0001, "conger.py:35"),
    (R4, "conger", "circular", 0.902, 0.499, 0.805, 0.147, 0.481, 1.000, 0.0002, "conger.py:47"),
    (R4, "conger", "linear", 0.939, 0.675, 0.814, 0.145, 0.494, 1.000, 0.00016, "conger.py:59"),
    (R4, "conger", "ordinal", 0.968, 0.796, 0.844, 0.144, 0.526, 1.000, 0.00011, "conger.py:71"),
    (R4, "conger", "quadratic", 0.975, 0.827, 0.858, 0.144, 0.541, 1.000, 9e-05, "conger.py:83"),
    (R4, "conger", "radical", 0.897, 0.515, 0.788, 0.146, 0.466, 1.000, 0.00022, "conger.py:95"),
    (R4, "conger", "ratio", 0.954, 0.756, 0.812, 0.149, 0.485, 1.000, 0.0002, "conger.py:107"),
    (R4, "conger", "custom", 0.886, 0.521, 0.763, 0.149, 0.435, 1.000, 0.00034, "conger.py:119"),
    (R5, "conger", "unweighted", 0.616, 0.276, 0.469, 0.117, 0.219, 0.719, 0.00126, "conger.py:140"),
    (RG, "conger", "unweighted", 0.456, 0.347, 0.166, 0.121, -0.094, 0.426, 0.19309, "conger.py:164"),
    (RB, "conger", "unweighted", 0.727, 0.205, 0.657, 0.179, 0.262, 1.000, 0.00374, "conger.py:176"),
    (R4, "fleiss", "unweighted", 0.818, 0.239, 0.761, None, 0.424, 1.000, 0.00042, "fleiss.py:16"),
    (R4, "fleiss", "bipolar", 0.968, 0.785, 0.853, 0.145, 0.535, 1.000, 0.0001, "fleiss.py:35"),
    (R4, "fleiss", "circular", 0.902, 0.494, 0.807, 0.149, 0.479, 1.000, 0.00021, "fleiss.py:47"),
    (R4, "fleiss", "linear", 0.939, 0.667, 0.818, 0.149, 0.491, 1.000, 0.00018, "fleiss.py:59"),
    (R4, "fleiss", "ordinal", 0.968, 0.788, 0.850, 0.147, 0.527, 1.000, 0.00012, "fleiss.py:71"),
    (R4, "fleiss", "quadratic", 0.975, 0.818, 0.865, 0.146, 0.544, 1.000, 0.0001, "fleiss.py:83"),
    (R4, "fleiss", "radical", 0.897, 0.511, 0.790, 0.150, 0.460, 1.000, 0.00027, "fleiss.py:95"),
    (R4, "fleiss", "ratio", 0.954, 0.743, 0.821, 0.152, 0.486, 1.000, 0.00022, "fleiss.py:107"),
    (R4, "fleiss", "custom", 0.886, 0.524, 0.761, 0.153, 0.424, 1.000, 0.00042, "fleiss.py:119"),
    (R5, "fleiss", "unweighted", 0.616, 0.291, 0.458, 0.120, 0.199, 0.716, 0.00195, "fleiss.py:140"),
    (RG, "fleiss", "unweighted", 0.456, 0.375, 0.129, 0.141, -0.172, 0.430, 0.37449, "fleiss.py:164"),
    (RB, "fleiss", "unweighted", 0.727, 0.222, 0.649, 0.191, 0.228, 1.000, 0.00599, "fleiss.py:176"),
    (R4, "gwet", "unweighted", 0.818, 0.190, 0.775, 0.143, 0.461, 1.000, 0.00021, "gwet.py:16"),
    (R4, "gwet", "bipolar", 0.968, 0.682, 0.900, 0.106, 0.667, 1.000, 4e-06, "gwet.py:28"),
    (R4, "gwet", "circular", 0.902, 0.426, 0.830, 0.133, 0.538, 1.000, 6e-05, "gwet.py:40"),
    (R4, "gwet", "linear", 0.939, 0.571, 0.859, 0.117, 0.600, 1.000, 2e-05, "gwet.py:52"),
    (R4, "gwet", "ordinal", 0.968, 0.685, 0.899, 0.107, 0.664, 1.000, 4e-06, "gwet.py:64"),
    (R4, "gwet", "quadratic", 0.975, 0.714, 0.914, 0.104, 0.685, 1.000, 3e-06, "gwet.py:76"),
    (R4, "gwet", "radical", 0.897, 0.430, 0.820, 0.128, 0.537, 1.000, 5e-05, "gwet.py:88"),
    (R4, "gwet", "ratio", 0.954, 0.678, 0.857, 0.122, 0.589, 1.000, 2e-05, "gwet.py:100"),
    (R4, "gwet", "custom", 0.886, 0.476, 0.783, 0.138, 0.479, 1.000, 0.00015, "gwet.py:112"),
    (R5, "gwet", "unweighted", 0.616, 0.236, 0.497, 0.122, 0.235, 0.758, 0.00114, "gwet.py:133"),
    (RG, "gwet", "unweighted", 0.456, 0.312, 0.208, 0.091, 0.014, 0.403, 0.03776, "gwet.py:157"),
    (RB, "gwet", "unweighted", 0.727, 0.194, 0.661, 0.184, 0.257, 1.000, 0.0042, "gwet.py:169"),
    (R4, "krippendorff", "unweighted", 0.805, 0.240, 0.743, 0.146, 0.419, 1.000, 0.00046, "krippendorff.py:16"),
    (R4, "krippendorff", "bipolar", 0.966, 0.794, 0.835, 0.128, 0.549, 1.000, 7e-05, "krippendorff.py:36"),
    (R4, "krippendorff", "circular", 0.895, 0.502, 0.790, 0.141, 0.476, 1.000, 0.00023, "krippendorff.py:48"),
    (R4, "krippendorff", "linear", 0.935, 0.674, 0.800, 0.135, 0.499, 1.000, 0.00015, "krippendorff.py:60"),
    (R4, "krippendorff", "ordinal", 0.966, 0.795, 0.834, 0.131, 0.542, 1.000, 8e-05, "krippendorff.py:72"),
    (R4, "krippendorff", "quadratic", 0.974, 0.825, 0.849, 0.129, 0.561, 1.000, 6e-05, "krippendorff.py:84"),
    (R4, "krippendorff", "radical", 0.890, 0.517, 0.772, 0.140, 0.461, 1.000, 0.00025, "krippendorff.py:96"),
    (R4, "krippendorff", "ratio", 0.951, 0.757, 0.797, 0.140, 0.484, 1.000, 0.0002, "krippendorff.py:108"),
    (R4, "krippendorff", "custom", 0.878, 0.525, 0.743, 0.146, 0.419, 1.000, 0.00046, "krippendorff.py:120"),
    (R5, "krippendorff", "unweighted", 0.627, 0.282, 0.481, 0.114, 0.237, 0.724, 0.00083, "krippendorff.py:141"),
    (RG, "krippendorff", "unweighted", 0.465, 0.375, 0.143, 0.141, -0.158, 0.445, 0.32472, "krippendorff.py:181"),
    (RB, "krippendorff", "unweighted", 0.740, 0.223, 0.665, 0.180, 0.264, 1.000, 0.00416, "krippendorff.py:201"),
]

# REFERENCE-2.md C1: dataset, method, weights, coefficient, se, CI low, CI high, source (table/test_*)
TABLE_CASES = [
    (T3, "bp", "unweighted", 0.835, None, 0.742, 0.928, "brennan_prediger.py:14"),
    (T3, "bp", "bipolar", 0.901, None, 0.845, 0.957, "brennan_prediger.py:22"),
    (T3, "bp", "circular", 0.835, None, 0.742, 0.928, "brennan_prediger.py:30"),
    (T3, "bp", "linear", 0.876, None, 0.806, 0.946, "brennan_prediger.py:38"),
    (T3, "bp", "ordinal", 0.901, None, 0.845, 0.957, "brennan_prediger.py:46"),
    (T3, "bp", "quadratic", 0.918, None, 0.871, 0.964, "brennan_prediger.py:54"),
    (T3, "bp", "radical", 0.855, None, 0.773, 0.937, "brennan_prediger.py:62"),
    (T3, "bp", "ratio", 0.951, None, 0.923, 0.978, "brennan_prediger.py:70"),
    (T3, "cohen", "unweighted", 0.796, None, 0.680, 0.913, "cohen.py:14"),
    (T3, "cohen", "bipolar", 0.872, None, 0.791, 0.953, "cohen.py:22"),
    (T3, "cohen", "circular", 0.796, None, 0.680, 0.913, "cohen.py:30"),
    (T3, "cohen", "linear", 0.843, None, 0.748, 0.938, "cohen.py:38"),
    (T3, "cohen", "ordinal", 0.872, None, 0.791, 0.953, "cohen.py:46"),
    (T3, "cohen", "quadratic", 0.892, None, 0.822, 0.962, "cohen.py:54"),
    (T3, "cohen", "radical", 0.819, None, 0.712, 0.925, "cohen.py:62"),
    (T3, "cohen", "ratio", 0.927, None, 0.876, 0.977, "cohen.py:70"),
    (T3, "gwet", "unweighted", 0.849, None, 0.764, 0.935, "gwet.py:14"),
    (T3, "gwet", "bipolar", 0.925, None, 0.881, 0.969, "gwet.py:22"),
    (T3, "gwet", "circular", 0.849, None, 0.764, 0.935, "gwet.py:30"),
    (T3, "gwet", "linear", 0.900, None, 0.842, 0.958, "gwet.py:38"),
    (T3, "gwet", "ordinal", 0.925, None, 0.881, 0.969, "gwet.py:46"),
    (T3, "gwet", "quadratic", 0.940, None, 0.905, 0.976, "gwet.py:54"),
    (T3, "gwet", "radical", 0.875, None, 0.804, 0.947, "gwet.py:62"),
    (T3, "gwet", "ratio", 0.963, None, 0.942, 0.985, "gwet.py:70"),
    (T3, "krippendorff", "unweighted", 0.797, None, 0.680, 0.914, "krippendorff.py:13"),
    (T3, "krippendorff", "bipolar", 0.873, None, 0.792, 0.953, "krippendorff.py:27"),
    (T3, "krippendorff", "circular", 0.797, None, 0.680, 0.914, "krippendorff.py:41"),
    (T3, "krippendorff", "linear", 0.844, None, 0.748, 0.939, "krippendorff.py:55"),
    (T3, "krippendorff", "ordinal", 0.873, None, 0.792, 0.953, "krippendorff.py:69"),
    (T3, "krippendorff", "quadratic", 0.893, None, 0.822, 0.963, "krippendorff.py:83"),
    (T3, "krippendorff", "radical", 0.819, None, 0.713, 0.926, "krippendorff.py:97"),
    (T3, "krippendorff", "ratio", 0.927, None, 0.877, 0.977, "krippendorff.py:111"),
    (T3, "krippendorff", "custom", 0.816, 0.057, 0.703, 0.928, "krippendorff.py:125"),
    (T3, "pa2", "unweighted", 0.890, 0.031, 0.828, 0.952, "pa.py:14"),
    (T3, "pa2", "bipolar", 0.963, 0.010, 0.943, 0.984, "pa.py:23"),
    (T3, "pa2", "circular", 0.890, 0.031, 0.828, 0.952, "pa.py:32"),
    (T3, "pa2", "linear", 0.945, None, 0.914, 0.976, "pa.py:41"),
    (T3, "pa2", "ordinal", 0.963, 0.010, 0.943, 0.984, "pa.py:49"),
    (T3, "pa2", "quadratic", 0.972, 0.008, 0.957, 0.988, "pa.py:58"),
    (T3, "pa2", "radical", 0.922, 0.022, 0.878, 0.966, "pa.py:67"),
    (T3, "pa2", "ratio", 0.982, 0.005, 0.972, 0.992, "pa.py:76"),
    (T3, "scott", "unweighted", 0.796, 0.059, 0.679, 0.913, "scott.py:14"),
    (T3, "scott", "bipolar", 0.872, 0.041, 0.791, 0.953, "scott.py:23"),
    (T3, "scott", "circular", 0.796, 0.059, 0.679, 0.913, "scott.py:32"),
    (T3, "scott", "linear", 0.843, 0.048, 0.748, 0.938, "scott.py:41"),
    (T3, "scott", "ordinal", 0.872, 0.041, 0.791, 0.953, "scott.py:50"),
    (T3, "scott", "quadratic", 0.892, 0.035, 0.822, 0.962, "scott.py:59"),
    (T3, "scott", "radical", 0.819, 0.054, 0.712, 0.925, "scott.py:68"),
    (T3, "scott", "ratio", 0.927, 0.025, 0.876, 0.977, "scott.py:77"),
]


def _value(cell: str):
    if cell == "":
        return None
    try:
        return float(cell)
    except ValueError:
        return cell


@cache
def raw_units(name: str) -> tuple[tuple, ...]:
    """Units x raters of irrCAC's CSV: the index columns (Units, or Group and Units) dropped, blanks None."""
    with shared_file("chance_agreement", "irrcac", f"{name}.csv").open(encoding="utf8", newline="") as f:
        rows = list(csv.reader(f))
    skip = sum(1 for h in rows[0] if h in ("Group", "Units"))
    return tuple(tuple(_value(c) for c in r[skip:]) for r in rows[1:])


@cache
def contingency(name: str) -> tuple[tuple[float, ...], ...]:
    """Rows rater A, columns rater B (the first row and column are category names)."""
    with shared_file("chance_agreement", "irrcac", f"{name}.csv").open(encoding="utf8", newline="") as f:
        rows = list(csv.reader(f))
    return tuple(tuple(float(c) for c in r[1:]) for r in rows[1:])


def weighting(dataset: str, weights: str):
    return {"unweighted": "identity", "custom": CUSTOM.get(dataset)}.get(weights, weights)


def compare(figures: dict[str, tuple[float | None, float | None, int]]) -> list[str]:
    """The figures that do not round to the published value at its precision. A value on the half rounds
    either way (pa2 quadratic is exactly 0.9725, published 0.972), hence ``<=`` half a unit, not ``round``."""
    return [f"{name}: got {got!r}, published {want}" for name, (got, want, digits) in figures.items()
            if want is not None and (got is None or abs(got - want) > 0.5 * 10 ** -digits + 1e-12)]


def _ids(cases):
    return [f"{c[0]}-{c[1]}-{c[2]}" for c in cases]


@pytest.mark.parametrize(("dataset", "method", "weights", "pa", "pe", "coefficient", "se", "low", "high", "p",
                          "source"), RAW_CASES, ids=_ids(RAW_CASES))
def test_raw_ratings(dataset, method, weights, pa, pe, coefficient, se, low, high, p, source):
    result = chance_agreement(list(raw_units(dataset)), RAW[method], weighting(dataset, weights), rows="units")
    # irrCAC 0.4.4's raw bp() reports the one-sided p-value (module docstring)
    p_got = result.p_value_one_sided if method == "bp" else result.p_value
    if method == "bp":
        assert result.p_value == pytest.approx(2 * result.p_value_one_sided)
    p_digits = 6 if (dataset, method, weights) in P_DIGITS_6 else 5
    wrong = compare({"coefficient": (result.value, coefficient, 3), "pa": (result.pa, pa, 3),
                     "pe": (result.pe, pe, 3), "se": (result.se, se, 3), "ci low": (result.ci[0], low, 3),
                     "ci high": (result.ci[1], high, 3), "p": (p_got, p, p_digits)})
    assert not wrong, f"{SOURCE}/raw/test_{source}: {wrong}"


@pytest.mark.parametrize(("dataset", "method", "weights", "coefficient", "se", "low", "high", "source"),
                         TABLE_CASES, ids=_ids(TABLE_CASES))
def test_contingency_table(dataset, method, weights, coefficient, se, low, high, source):
    result = table_agreement(np.array(contingency(dataset)), TABLE[method], weighting(dataset, weights))
    wrong = compare({"coefficient": (result.value, coefficient, 3), "se": (result.se, se, 3),
                     "ci low": (result.ci[0], low, 3), "ci high": (result.ci[1], high, 3)})
    assert not wrong, f"{SOURCE}/table/test_{source}: {wrong}"


def test_every_shared_case_is_here():
    """REFERENCE-2.md C1 lists 109 shared cases: 60 raw, 49 table, over every weighting and the custom ones."""
    assert (len(RAW_CASES), len(TABLE_CASES)) == (60, 49)
    assert len({c[:3] for c in RAW_CASES + TABLE_CASES}) == 109
    named = {"unweighted", "bipolar", "circular", "linear", "ordinal", "quadratic", "radical", "ratio"}
    assert {c[2] for c in RAW_CASES} == {c[2] for c in TABLE_CASES} | {"custom"} == named | {"custom"}


@pytest.mark.parametrize(("dataset", "averaged"), [(R4, 0.761), (R5, 0.458), (RG, 0.129), (RB, 0.649)])
def test_fleiss_averaged_shares_are_irrcac(dataset, averaged):
    """The default (averaged shares) is irrCAC's estimator (raw/test_fleiss.py:16, :140, :164, :176)."""
    ratings = list(raw_units(dataset))
    assert round(fleiss_kappa_missing(ratings, rows="units").value, 3) == averaged
    assert round(fleiss_kappa_missing(ratings, rows="units", shares="averaged").value, 3) == averaged


def test_fleiss_pooled_shares_differ_on_raw_5observers():
    """Pooled shares are another estimator: 0.464 on raw_5observers, where irrCAC publishes 0.458."""
    ratings = list(raw_units(R5))
    pooled = fleiss_kappa_missing(ratings, rows="units", shares="pooled").value
    averaged = fleiss_kappa_missing(ratings, rows="units").value
    assert (round(pooled, 3), round(averaged, 3)) == (0.464, 0.458)
    annotators = [list(r) for r in zip(*ratings, strict=True)]
    assert pooled == pytest.approx(fleiss_kappa(annotators).value)
