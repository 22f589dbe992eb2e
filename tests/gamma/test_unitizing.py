"""Krippendorff's (2004) unitizing α (spacy_anno_eval.gamma.unitizing).

Published and peer values: ../shared/data/unitizing/ (REFERENCE-2.md B1, B2): Krippendorff (2004) Content
Analysis p. 254 as asserted in DKPro Statistics' Krippendorff2004Test.java, and DKPro's
UnitizingAgreementTest.java; "live peer" figures are DKPro's KrippendorffAlphaUnitizingAgreement run on the data.
"""

from __future__ import annotations

import json
import warnings

import numpy as np
import pytest

from spacy_anno_eval.errors import ConfigError, InputError, UndefinedFigureWarning
from spacy_anno_eval.gamma.continuum import Continuum
from spacy_anno_eval.gamma.unitizing import unitizing_alpha, unitizing_distance
from tests.conftest import shared_file


def load(name):
    data = json.loads(shared_file("unitizing", name).read_text(encoding="utf-8"))
    units = [(str(u["coder"]), u["begin"], u["begin"] + u["length"], u["category"]) for u in data["units"]]
    continuum = Continuum.from_units(units, annotators=[str(k) for k in range(data["coders"])])
    begin = data["continuum"]["begin"]
    return data, continuum, (begin, begin + data["continuum"]["length"])


def no_warnings(fn, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        return fn(*args, **kwargs)


# --- published and peer values -------------------------------------------------------------------------------

def test_krippendorff_2004_book_example():
    data, continuum, extent = load("krippendorff2004_example.json")
    result = no_warnings(unitizing_alpha, continuum, extent=extent)
    overall = data["expected"]["u_alpha_overall"]
    assert result.value == pytest.approx(overall["value"], abs=overall["tol"])
    for category in ("c", "k"):
        want = data["expected"][category]
        got = result.per_category[category]
        assert got["observed"] == pytest.approx(want["D_o"], abs=want["tol"])
        assert got["expected"] == pytest.approx(want["D_e"], abs=want["tol"])
        assert got["value"] == pytest.approx(want["alpha"], abs=want["tol"])
    peer = data["live_peer_here"]["values"]
    assert result.value == pytest.approx(peer["u_alpha_overall"], abs=1e-6)
    for category in ("c", "k"):
        for ours, theirs in (("observed", "D_o"), ("expected", "D_e"), ("value", "alpha")):
            assert result.per_category[category][ours] == pytest.approx(peer[category][theirs], abs=1e-6)
    # the overall figures are the means over the categories
    assert result.observed == pytest.approx((peer["c"]["D_o"] + peer["k"]["D_o"]) / 2, abs=1e-6)
    assert result.expected == pytest.approx((peer["c"]["D_e"] + peer["k"]["D_e"]) / 2, abs=1e-6)


def test_krippendorff_2004_book_rounding_explains_the_published_overall():
    # the book's 0.8591 is 1 - D_o / D_e over its rounded per-category figures
    assert 1 - (0.0144 + 0.0) / (0.0532 + 0.0490) == pytest.approx(0.8591, abs=5e-5)


def test_distance_checks_of_dkpro():
    data, _, _ = load("krippendorff2004_example.json")
    for (b1, l1, c1, b2, l2, c2), want in data["distance_checks"]["cases"]:
        got = unitizing_distance(b1, b1 + l1, c1 is not None, b2, b2 + l2, c2 is not None)
        assert got == want, (b1, l1, c1, b2, l2, c2)
        assert unitizing_distance(b2, b2 + l2, c2 is not None, b1, b1 + l1, c1 is not None) == want


def test_dkpro_simple_example():
    data, continuum, extent = load("dkpro_simple_example.json")
    result = no_warnings(unitizing_alpha, continuum, extent=extent)
    want = data["expected"]["krippendorff2004_u_alpha"]
    got = result.per_category["A"]
    assert got["observed"] == pytest.approx(want["D_o"], abs=want["tol"])
    assert got["expected"] == pytest.approx(want["D_e"], abs=want["tol"])
    assert got["value"] == pytest.approx(want["alpha"], abs=want["tol"])
    assert result.value == pytest.approx(data["live_peer_here"]["values"]["alpha"], abs=1e-6)
    assert got["n_units"] == 4


# --- properties ----------------------------------------------------------------------------------------------

def brute_observed(continuum, category, begin, end):
    """uD_o of ``category`` from δ over every pair of sections (units and gaps) of every pair of annotators."""
    def sections(a):
        rows = [(s, e) for ann, s, e, c in continuum.units() if ann == a and c == category]
        out, pos = [], begin
        for s, e in sorted(rows):
            if s > pos:
                out.append((pos, s, False))
            out.append((s, e, True))
            pos = e
        if pos < end:
            out.append((pos, end, False))
        return out

    m, length = continuum.n_annotators, end - begin
    total = sum(unitizing_distance(*g, *h) for i in continuum.annotators for j in continuum.annotators if i != j
                for g in sections(i) for h in sections(j))
    return total / (m * (m - 1) * length ** 2)


def random_continuum(rng, n_annotators, length, categories):
    units = []
    for a in range(n_annotators):
        for c in categories:
            pos = int(rng.integers(0, 5))
            while True:
                pos += int(rng.integers(0, 8))
                size = int(rng.integers(1, 10))
                if pos + size > length:
                    break
                units.append((f"a{a}", pos, pos + size, c))
                pos += size
    return Continuum.from_units(units, annotators=[f"a{a}" for a in range(n_annotators)])


@pytest.mark.parametrize("seed", range(6))
def test_observed_disagreement_equals_the_sum_over_all_section_pairs(seed):
    rng = np.random.default_rng(seed)
    continuum = random_continuum(rng, int(rng.integers(2, 5)), 60, ["x", "y"])
    result = unitizing_alpha(continuum, extent=(0, 60))
    for category, figures in result.per_category.items():
        assert figures["observed"] == pytest.approx(brute_observed(continuum, category, 0, 60), rel=1e-12)


def test_identical_annotators_agree_perfectly():
    units = [(a, s, e, c) for a in "ABC" for s, e, c in [(0, 4, "x"), (6, 9, "x"), (2, 7, "y")]]
    result = no_warnings(unitizing_alpha, Continuum.from_units(units), extent=(0, 12))
    assert result.value == 1.0
    assert all(v["value"] == 1.0 for v in result.per_category.values())


def test_names_and_order_do_not_matter():
    _, continuum, extent = load("krippendorff2004_example.json")
    renamed = Continuum.from_units([({"0": "z", "1": "b"}[a], s, e, {"c": "q", "k": "a"}[c])
                                    for a, s, e, c in continuum.units()])
    a, b = unitizing_alpha(continuum, extent=extent), unitizing_alpha(renamed, extent=extent)
    assert b.value == pytest.approx(a.value, abs=1e-15)
    assert b.per_category["q"]["value"] == pytest.approx(a.per_category["c"]["value"], abs=1e-15)


def test_default_extent_is_smallest_start_to_largest_end():
    _, continuum, _ = load("krippendorff2004_example.json")
    assert unitizing_alpha(continuum).extent == (180.0, 420.0)
    assert unitizing_alpha(continuum).value == pytest.approx(unitizing_alpha(continuum, extent=(180, 420)).value)


def test_annotator_without_units_is_one_gap():
    units = [("A", 2, 5, "x"), ("B", 2, 5, "x")]
    two = unitizing_alpha(Continuum.from_units(units), extent=(0, 10))
    three = unitizing_alpha(Continuum.from_units(units, annotators=["A", "B", "C"]), extent=(0, 10))
    assert two.value == 1.0
    assert three.value < 1.0
    # C's gap holds each unit of A and B: δ = 3² against each, both ways
    assert three.per_category["x"]["observed"] == pytest.approx(4 * 9 / (3 * 2 * 100))


def test_units_of_different_categories_may_overlap():
    units = [("A", 0, 5, "x"), ("A", 3, 8, "y"), ("B", 0, 5, "x"), ("B", 3, 8, "y")]
    assert no_warnings(unitizing_alpha, Continuum.from_units(units), extent=(0, 10)).value == 1.0


def test_touching_units_are_not_overlapping():
    units = [("A", 0, 5, "x"), ("A", 5, 8, "x"), ("B", 0, 8, "x")]
    assert no_warnings(unitizing_alpha, Continuum.from_units(units), extent=(0, 10)).value < 1.0


def test_to_dict_is_json_ready():
    data, continuum, extent = load("krippendorff2004_example.json")
    out = unitizing_alpha(continuum, extent=extent).to_dict()
    assert set(out) >= {"value", "observed_disagreement", "expected_disagreement", "per_category"}
    assert out["per_category"]["k"]["value"] == 1.0
    assert out["extent"] == [150.0, 450.0]
    json.dumps(out, allow_nan=False)


# --- undefined figures ---------------------------------------------------------------------------------------

def undefined_result(continuum, **kwargs):
    with pytest.warns(UndefinedFigureWarning) as caught:
        result = unitizing_alpha(continuum, **kwargs)
    assert len(caught) == 1
    json.dumps(result.to_dict(), allow_nan=False)
    return result, str(caught[0].message)


def test_single_annotator_is_undefined():
    result, message = undefined_result(Continuum.from_units([("A", 0, 3, "x")]), extent=(0, 10))
    assert result.value is None and result.observed is None and "1 annotator" in message


def test_no_units_is_undefined():
    result, message = undefined_result(Continuum.from_units([], annotators=["A", "B"]))
    assert result.value is None and result.extent is None and "no units" in message
    result, _ = undefined_result(Continuum.from_units([], annotators=["A", "B"]), extent=(0, 10))
    assert result.value is None


def test_zero_expected_disagreement_is_undefined():
    # one position, both annotators mark it: no gap, units of length 1
    result, message = undefined_result(Continuum.from_units([("A", 0, 1, "x"), ("B", 0, 1, "x")]), extent=(0, 1))
    assert result.value is None and result.per_category["x"]["value"] is None
    assert "expected disagreement 0" in message


def test_zero_expected_disagreement_of_one_category_only():
    units = [("A", 0, 1, "x"), ("B", 0, 1, "x"), ("A", 0, 1, "y")]
    result, message = undefined_result(Continuum.from_units(units), extent=(0, 1))
    assert result.per_category["x"]["value"] is None
    assert result.per_category["y"]["value"] is not None and result.value is not None
    assert "'x'" in message


# --- refused input -------------------------------------------------------------------------------------------

def test_overlapping_units_of_one_annotator_and_category_are_refused():
    units = [("A", 0, 10, "x"), ("A", 2, 3, "x"), ("A", 5, 6, "x"), ("B", 0, 4, "x")]
    with pytest.raises(InputError, match=r"data\.csv: unit \d of annotator 'A' \(\[2, 3\).*overlaps unit \[0, 10\)"):
        unitizing_alpha(Continuum.from_units(units), source="data.csv")


def test_fractional_positions_are_refused():
    with pytest.raises(InputError, match="fractional position.*milliseconds"):
        unitizing_alpha(Continuum.from_units([("A", 0.5, 3, "x"), ("B", 0, 3, "x")]))


def test_units_outside_the_extent_are_refused():
    with pytest.raises(InputError, match=r"annotator 'B'.*outside the extent \[0, 5\)"):
        unitizing_alpha(Continuum.from_units([("A", 0, 3, "x"), ("B", 2, 7, "x")]), extent=(0, 5))


@pytest.mark.parametrize("extent", [(5, 5), (0, 2.5), (0, float("nan")), "ab", (1,)])
def test_bad_extent_is_refused(extent):
    with pytest.raises(ConfigError, match="extent"):
        unitizing_alpha(Continuum.from_units([("A", 0, 3, "x"), ("B", 0, 3, "x")]), extent=extent)


def test_not_a_continuum_is_refused():
    with pytest.raises(ConfigError, match="Continuum"):
        unitizing_alpha([("A", 0, 3, "x")])


def test_cli_gamma_ualpha_reports_krippendorff_2004_beside_gamma(tmp_path) -> None:
    """``anno-eval gamma --ualpha --extent 150,450`` on the book's example: uα 0.8587 (the book's 0.8591 comes
    from rounded per-category figures), c 0.7286, k 1.0, in the table and in the JSON beside γ."""
    import json

    from typer.testing import CliRunner

    from spacy_anno_eval.cli.app import app
    from tests.conftest import shared_file

    example = json.loads(shared_file("unitizing", "krippendorff2004_example.json").read_text(encoding="utf8"))
    csv = tmp_path / "k.csv"
    csv.write_text("".join(f"c{u['coder']},{u['category']},{u['begin']},{u['begin'] + u['length']}\n"
                           for u in example["units"]), encoding="utf8")
    out = tmp_path / "k.json"
    result = CliRunner().invoke(app, ["gamma", str(csv), "--ualpha", "--extent", "150,450", "--samples", "10",
                                      "--json", str(out)])
    assert result.exit_code == 0, result.output
    assert "u-alpha    0.8587" in result.stdout and "c 0.7286, k 1.0000" in result.stdout
    data = json.loads(out.read_text(encoding="utf8"))
    assert data["unitizing_alpha"]["value"] == pytest.approx(0.8591, abs=0.0005) and "gamma" in data
    refused = CliRunner().invoke(app, ["gamma", str(csv), "--extent", "150,450"])
    assert refused.exit_code == 2 and "--ualpha" in refused.stderr
