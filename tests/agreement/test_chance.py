"""The chance-corrected family against every published value in ``../shared/data/chance_agreement/``.

irrCAC's own unit-test assertions (3 decimals) and irrCAC 0.4.4's full-precision output, R irrCAC 1.4 through
DKPro's Gwet fixtures, Brennan & Prediger (1981) with PABAK, and statsmodels' ``test_fleis_randolph``; plus
statsmodels' ``fleiss_kappa`` on random tables.
"""

from __future__ import annotations

import csv
import json
import math
import re
import warnings

import numpy as np
import pytest

from spacy_anno_eval.agreement.chance import (
    ChanceAgreement,
    brennan_prediger,
    chance_agreement,
    conger_kappa,
    fleiss_kappa_missing,
    gwet_ac,
    majority_agreement,
    pabak,
    specific_agreements,
    table_agreement,
)
from spacy_anno_eval.agreement.reliability import fleiss_kappa as pooled_fleiss
from spacy_anno_eval.agreement.weights import WEIGHTS, weight_matrix
from spacy_anno_eval.errors import ConfigError, UndefinedFigureWarning
from tests.conftest import shared_file

RAW = {"gwet": "gwet", "bp": "brennan_prediger", "conger": "conger", "fleiss": "fleiss",
       "krippendorff": "krippendorff"}
TABLE = {"gwet": "gwet", "bp": "brennan_prediger", "cohen": "cohen", "scott": "scott",
         "krippendorff": "krippendorff", "pa2": "percent"}


def _cases() -> list[dict]:
    path = shared_file("chance_agreement", "irrcac", "expected_irrcac.json")
    return json.loads(path.read_text())["cases"]


def _read_raw(name: str) -> list[list]:
    """Units x raters from irrCAC's CSV: index columns (Group, Units) dropped, empty = missing, numbers as floats."""
    with open(shared_file("chance_agreement", "irrcac", f"{name}.csv"), newline="") as fh:
        rows = list(csv.reader(fh))
    skip = sum(1 for h in rows[0] if h in ("Group", "Units"))
    cells = [r[skip:] for r in rows[1:]]

    def value(c: str):
        if not c:
            return None
        try:
            return float(c)
        except ValueError:
            return c
    return [[value(c) for c in r] for r in cells]


def _read_table(name: str) -> np.ndarray:
    with open(shared_file("chance_agreement", "irrcac", f"{name}.csv"), newline="") as fh:
        rows = list(csv.reader(fh))
    return np.array([[float(c) for c in r[1:]] for r in rows[1:]])


def _figure(result: ChanceAgreement, key: str, method: str) -> float:
    """The figure of ``result`` named by an irrCAC assertion key, e.g. ``est['confidence_interval'][0]``."""
    if "confidence_interval" in key:
        return result.ci[int(re.search(r"\]\[(\d)\]", key).group(1))]
    if "p_value" in key:  # irrCAC 0.4.4's raw bp() reports the one-sided p-value (module docstring)
        return result.p_value_one_sided if method == "bp" else result.p_value
    name = re.search(r"est\['(\w+)'\]", key).group(1)
    return {"coefficient_value": result.value, "se": result.se, "pa": result.pa, "pe": result.pe}[name]


def _full_key(key: str) -> tuple[str, int | None]:
    name = re.search(r"est\['(\w+)'\]", key).group(1)
    index = re.search(r"\]\[(\d)\]", key)
    return name, int(index.group(1)) if index else None


def _compute(case: dict) -> ChanceAgreement:
    weights = case["weights_matrix"] if case["weights"] == "custom" else \
        "identity" if case["weights"] == "unweighted" else case["weights"]
    if case["kind"] == "raw":
        return chance_agreement(_read_raw(case["dataset"]), RAW[case["method"]], weights, rows="units")
    return table_agreement(_read_table(case["dataset"]), TABLE[case["method"]], weights)


def _ids() -> list[str]:
    try:
        return [f"{c['dataset']}-{c['method']}-{c['weights']}" for c in _cases()]
    except BaseException:  # data absent: a single skipped case
        return ["absent"]


@pytest.mark.parametrize("index", range(len(_ids())), ids=_ids())
def test_irrcac_published_values(index: int) -> None:
    """Every irrCAC assertion (3 decimals, or the rounding it states) and irrCAC 0.4.4's full precision."""
    case = _cases()[index]
    result = _compute(case)
    for key, expected in case["expected"].items():
        got = _figure(result, key, case["method"])
        digits = int(re.search(r", (\d)\)$", key).group(1)) if key.startswith("round(") else 3
        assert got == pytest.approx(expected["value"], abs=1.01 * 10 ** -digits / 2), (key, got, expected)
        name, position = _full_key(key)
        if case["kind"] == "table" and name in ("pa", "pe"):
            continue  # irrCAC's table methods report pe = 0 (not the chance agreement they use)
        full = case["full_precision"][name]
        full = full[position] if position is not None else full
        if name == "p_value" and case["method"] == "bp" and case["kind"] == "raw":
            pass  # full precision is irrCAC's one-sided value too
        assert got == pytest.approx(full, abs=2e-10), (key, got, full)


def test_irrcac_case_count() -> None:
    """All 109 cases of the file are exercised, over every weighting irrCAC names and a custom matrix."""
    cases = _cases()
    assert len(cases) == 109
    assert {c["weights"] for c in cases} == {"unweighted", "custom", *WEIGHTS} - {"identity"}


@pytest.mark.parametrize("fixture", ["fixture_01_paradox_2x2", "fixture_02_cohen_ex1", "fixture_03_cohen_ex2"])
def test_dkpro_gwet_fixtures(fixture: str) -> None:
    """R irrCAC 1.4's AC1 and AC2 (quadratic) on DKPro's fixtures, with pa and pe."""
    data = json.loads(shared_file("chance_agreement", "dkpro_gwet_fixtures", f"{fixture}.json").read_text())
    for case in data["cases"]:
        weights = "identity" if case["weights"] == "unweighted" else case["weights"]
        result = table_agreement(data["table"], "gwet", weights, categories=data["categories"])
        digits = len(str(case["coefficient"]).split(".")[1])
        assert round(result.value, digits) == pytest.approx(case["coefficient"], abs=10 ** -digits)
        assert result.pa == pytest.approx(case["pa"], abs=1e-9)
        assert result.pe == pytest.approx(case["pe"], abs=1e-9)
        assert result.coefficient == ("gwet_ac1" if weights == "identity" or len(data["categories"]) == 2
                                      else "gwet_ac2")


def test_brennan_prediger_1981_and_pabak() -> None:
    """Brennan & Prediger (1981, pp. 689/691) examples and the paradox table's PABAK, PI, BI and kappa."""
    data = json.loads(shared_file("chance_agreement", "brennan_prediger_pabak.json").read_text())
    for name in ("bp1981_ex1", "bp1981_ex2"):
        table = data["tables"][name]["rows_rater1_cols_rater2"]
        exp = data["tables"][name]["expected"]
        bp = table_agreement(table, "brennan_prediger")
        kappa = table_agreement(table, "cohen")
        assert bp.pa == pytest.approx(exp["po"], abs=exp["tol"])
        assert bp.value == pytest.approx(exp["bennett_S_BP"], abs=exp["tol"])
        assert bp.pe == pytest.approx(exp["S_pe"], abs=exp["tol"])
        assert kappa.value == pytest.approx(exp["cohen_kappa"], abs=exp["tol"])
        assert kappa.pe == pytest.approx(exp["cohen_pe"], abs=exp["tol"])
        assert pabak(table)["pabak"] == pytest.approx(exp["bennett_S_BP"], abs=exp["tol"])
        peer = data["live_peer_here"]["dkpro_javac"][name]
        assert kappa.value == pytest.approx(peer["cohen"], abs=1e-6)
        assert table_agreement(table, "gwet").value == pytest.approx(peer["gwetAC1"], abs=1e-6)
    paradox = data["tables"]["paradox_2x2 (dkpro fixture_01)"]
    table, exp = paradox["rows_rater1_cols_rater2"], paradox["expected"]
    out = pabak(table)
    assert out["po"] == pytest.approx(exp["po"])
    assert out["pabak"] == pytest.approx(exp["PABAK"])
    assert out["prevalence_index"] == pytest.approx(exp["prevalence_index"])
    assert out["bias_index"] == pytest.approx(exp["bias_index"])
    assert out["cohen_kappa"] == pytest.approx(exp["cohen_kappa_derived"], abs=1e-6)
    assert table_agreement(table, "cohen").value == pytest.approx(exp["cohen_kappa_derived"], abs=1e-6)
    assert table_agreement(table, "gwet").value == pytest.approx(exp["gwet_ac1"], abs=5e-4)
    peer = data["live_peer_here"]["dkpro_javac"]["paradox_2x2"]
    assert table_agreement(table, "scott").value == pytest.approx(peer["scott_pi"], abs=1e-6)
    assert table_agreement(table, "brennan_prediger").value == pytest.approx(peer["bennettS_PABAK"])
    assert out["positive_agreement"] == pytest.approx(160 / 175)
    assert out["negative_agreement"] == pytest.approx(10 / 25)


def test_statsmodels_fleiss_randolph() -> None:
    """statsmodels' ``test_fleis_randolph`` count tables: Fleiss' kappa and Randolph's free-marginal kappa."""
    data = json.loads(shared_file("chance_agreement", "statsmodels_fleiss_randolph.json").read_text())
    for case in data["cases"]:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UndefinedFigureWarning)
            fleiss = fleiss_kappa_missing(value_counts=case["table"])
            randolph = brennan_prediger(value_counts=case["table"])
        assert fleiss.value == pytest.approx(case["expected"]["fleiss"], abs=case["tol"])
        assert randolph.value == pytest.approx(case["expected"]["randolph"], abs=case["tol"])


def test_statsmodels_random_tables() -> None:
    """Fleiss' kappa and Randolph's kappa equal statsmodels' on random complete count tables."""
    inter_rater = pytest.importorskip("statsmodels.stats.inter_rater")
    rng = np.random.default_rng(20)
    for _ in range(50):
        units, q, raters = rng.integers(2, 30), rng.integers(2, 6), rng.integers(2, 9)
        table = np.stack([rng.multinomial(raters, rng.dirichlet(np.ones(q))) for _ in range(units)])
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            want_f = inter_rater.fleiss_kappa(table, method="fleiss")
            want_r = inter_rater.fleiss_kappa(table, method="randolph")
            got_f = fleiss_kappa_missing(value_counts=table).value
            got_p = fleiss_kappa_missing(value_counts=table, shares="pooled").value
        if math.isfinite(want_f):
            assert got_f == pytest.approx(want_f, abs=1e-10)
            assert got_p == pytest.approx(want_f, abs=1e-10)
        assert brennan_prediger(value_counts=table).value == pytest.approx(want_r, abs=1e-10)


def test_pooled_shares_match_reliability_fleiss() -> None:
    """``shares="pooled"`` is :func:`reliability.fleiss_kappa`; averaged differs once units have unequal ratings."""
    ratings = [[1, 2, 3, 3, 2, 1, 4, 1, 2, None, None, None],
               [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, None, None],
               [None, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, 3],
               [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, None]]
    pooled = fleiss_kappa_missing(ratings, shares="pooled")
    averaged = fleiss_kappa_missing(ratings)
    assert pooled.value == pytest.approx(pooled_fleiss(ratings).value, abs=1e-12)
    assert averaged.value == pytest.approx(0.76117, abs=5e-6)  # irrCAC raw.py docstring
    assert averaged.value != pytest.approx(pooled.value, abs=1e-6)


def test_units_rows_and_annotator_rows_agree() -> None:
    ratings = _read_raw("raw_5observers")
    by_units = conger_kappa(ratings, "quadratic", rows="units")
    by_annotators = conger_kappa([list(c) for c in zip(*ratings, strict=True)], "quadratic")
    assert by_units.to_dict() == by_annotators.to_dict()
    json.dumps(by_units.to_dict(), allow_nan=False)


def test_weights_are_agreement_weights() -> None:
    for name in WEIGHTS:
        w = weight_matrix(name, [1, 2, 3, 4, 5])
        assert np.allclose(np.diag(w), 1) and w.min() >= -1e-12 and w.max() <= 1 + 1e-12
        assert np.allclose(w, w.T)
    with pytest.raises(ConfigError, match="positive"):
        weight_matrix("ratio", [0, 1, 2])
    with pytest.raises(ConfigError, match="3 x 3"):
        weight_matrix([[1, 0], [0, 1]], ["a", "b", "c"])
    with pytest.raises(ConfigError, match="one of"):
        weight_matrix("cubic", [1, 2])


def test_undefined_figures_are_none_with_a_warning() -> None:
    with pytest.warns(UndefinedFigureWarning):
        result = gwet_ac([["a", "a"], ["a", "a"]])
    assert result.value is None and result.to_dict()["value"] is None
    with pytest.warns(UndefinedFigureWarning):
        assert chance_agreement([[1, None], [None, 2]], "fleiss").value is None  # no unit rated twice
    with pytest.warns(UndefinedFigureWarning):
        one = chance_agreement([[1], [2]], "brennan_prediger")  # one unit: no variance
    assert one.value == pytest.approx(-1.0) and one.se is None and one.ci is None
    json.dumps(one.to_dict(), allow_nan=False)


def test_settings_are_checked() -> None:
    with pytest.raises(ConfigError, match="confidence"):
        gwet_ac([[1, 2], [1, 2]], confidence=float("nan"))
    with pytest.raises(ConfigError, match="population_size"):
        gwet_ac([[1, 2], [1, 2]], population_size=0)
    with pytest.raises(ConfigError, match="measure"):
        chance_agreement([[1, 2], [1, 2]], "cohen")
    with pytest.raises(ConfigError, match="shares"):
        fleiss_kappa_missing([[1, 2], [1, 2]], shares="mean")
    with pytest.raises(ConfigError, match="rows"):
        gwet_ac([[1, 2], [1, 2]], rows="raters")
    with pytest.raises(ConfigError, match="value_counts"):
        conger_kappa(value_counts=[[1, 1]])


def test_finite_population_correction() -> None:
    ratings = _read_raw("raw_4raters")
    infinite = gwet_ac(ratings, rows="units")
    finite = gwet_ac(ratings, rows="units", population_size=24)
    assert finite.value == infinite.value
    assert finite.se == pytest.approx(infinite.se * math.sqrt(1 - 12 / 24))


def test_specific_agreements_2x2() -> None:
    out = specific_agreements([[80, 7], [8, 5]], ["yes", "no"])
    assert out["yes"] == {"positive": pytest.approx(160 / 175), "negative": pytest.approx(0.4)}
    assert out["no"]["positive"] == pytest.approx(0.4)


def test_majority_agreement_ties() -> None:
    data = [["x", "x", "y", "y"], ["x", "y", "y", None], ["x", "x", "x", "y"]]
    excluded = majority_agreement(data, ["A", "B", "C"])
    fraction = majority_agreement(data, ["A", "B", "C"], ties="fraction")
    a = excluded["annotators"]["A"]
    # A: u1 others x,x agree; u2 others y,x tie; u3 others y,x tie; u4 others C=y agree
    assert (a["n_units"], a["agreements"], a["ties"]) == (2, 2, 2)
    fa = fraction["annotators"]["A"]
    assert (fa["n_units"], fa["agreements"]) == (4, 3.0)
    json.dumps(excluded, allow_nan=False)


def test_cli_agreement_reports_the_chance_corrected_family(tmp_path) -> None:
    """``anno-eval agreement`` on irrCAC's raw_4raters data (units as rows) prints and writes AC1 0.77544 with
    se 0.14295, Brennan-Prediger, Conger and Fleiss (averaged shares), each with its interval, in 80 columns."""
    import json

    from typer.testing import CliRunner

    from spacy_anno_eval.cli.app import app

    rows = [[1, 1, None, 1], [2, 2, 3, 2], [3, 3, 3, 3], [3, 3, 3, 3], [2, 2, 2, 2], [1, 2, 3, 4], [4, 4, 4, 4],
            [1, 1, 2, 1], [2, 2, 2, 2], [None, 5, 5, 5], [None, None, 1, 1], [None, None, 3, None]]
    table = tmp_path / "raw4.csv"
    table.write_text("a,b,c,d\n" + "".join(",".join("" if v is None else str(v) for v in r) + "\n" for r in rows),
                     encoding="utf8")
    out = tmp_path / "a.json"
    result = CliRunner().invoke(app, ["agreement", str(table), "--json", str(out)])
    assert result.exit_code == 0, result.output
    assert "gwet_ac               0.7754  se 0.1429  95% CI [0.4608, 1.0000]" in result.stdout
    assert all(len(line) <= 80 for line in result.stdout.splitlines() if not line.startswith("  note:"))
    family = json.loads(out.read_text(encoding="utf8"))["chance_corrected"]
    assert family["weights"] == "identity"
    assert round(family["gwet_ac"]["value"], 5) == 0.77544 and round(family["gwet_ac"]["se"], 5) == 0.14295
    assert set(family) == {"weights", "gwet_ac", "brennan_prediger", "conger_kappa", "fleiss_kappa_averaged"}
