"""Krippendorff's alpha, Fleiss' kappa, Davies & Fleiss' kappa (spacy_anno_eval.agreement.reliability).

Published values: ../shared/data/REFERENCE.md section 1 (copied here as the
input matrices and the numbers, as the reference states them). Peers, when
installed: the ``krippendorff`` package, statsmodels' ``fleiss_kappa``, NLTK's
``AnnotationTask`` and scikit-learn's ``cohen_kappa_score``.
"""

from __future__ import annotations

import json
import warnings

import numpy as np
import pytest

from spacy_anno_eval.agreement.coefficients import DegenerateAgreementWarning, cohen_kappa, confusion_matrix, scott_pi
from spacy_anno_eval.agreement.reliability import (
    davies_fleiss_kappa,
    fleiss_kappa,
    fleiss_kappa_per_category,
    krippendorff_alpha,
    reliability_counts,
)
from spacy_anno_eval.errors import UndefinedFigureWarning

N = np.nan
# REFERENCE 1.1: Krippendorff (2011), 4 observers x 12 units
K2011 = np.array([[1, 2, 3, 3, 2, 1, 4, 1, 2, N, N, N],
                  [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, N, 3],
                  [N, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, N],
                  [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, N]])
# REFERENCE 1.2: Wikipedia, 3 coders x 15 units
WIKI = np.array([[N, N, N, N, N, 3, 4, 1, 2, 1, 1, 3, 3, N, 3],
                 [1, N, 2, 1, 3, 3, 4, 3, N, N, N, N, N, N, N],
                 [N, N, 2, 1, 3, 4, 4, N, 2, 1, 1, 3, 3, N, 4]])
# REFERENCE 1.3: Krippendorff (2004: p.224), binary
NEWS = [[1, 1, 0, 0, 0, 0, 0, 0, 0, 0], [0, 1, 1, 0, 0, 1, 0, 1, 0, 0]]


@pytest.mark.parametrize(("level", "alpha", "do", "de"), [
    ("nominal", 0.743, 0.200, 0.779),
    ("ordinal", 0.815, 47.275, 256.077),
    ("interval", 0.849, 0.433, 2.872),
    ("ratio", 0.797, 0.0224, 0.1107),
])
def test_krippendorff_2011_every_level(level, alpha, do, de):
    result = krippendorff_alpha(K2011, level)
    assert round(result.value, 3) == alpha
    # the reference prints 3 or 4 decimals: agree to half a unit of the last one
    assert result.observed == pytest.approx(do, abs=5e-5 if do < 0.1 else 5e-4)
    assert result.expected == pytest.approx(de, abs=5e-5 if de < 0.5 else 5e-4)
    assert result.n == 40


def test_krippendorff_strings_with_an_ordered_domain():
    names = {1: "very low", 2: "low", 3: "mid", 4: "high", 5: "very high"}
    data = [[None if np.isnan(x) else names[int(x)] for x in row] for row in K2011]
    domain = [names[k] for k in range(1, 6)]
    assert round(krippendorff_alpha(data, "ordinal", value_domain=domain).value, 3) == 0.815
    assert round(krippendorff_alpha(data, "nominal").value, 3) == 0.743


def test_wikipedia_example_and_its_value_count_form():
    assert krippendorff_alpha(WIKI).value == pytest.approx(0.691358, abs=1e-6)
    assert krippendorff_alpha(WIKI, "interval").value == pytest.approx(0.810845, abs=1e-6)
    counts = np.array([[1, 0, 0, 0], [0, 0, 0, 0], [0, 2, 0, 0], [2, 0, 0, 0], [0, 0, 2, 0], [0, 0, 2, 1],
                       [0, 0, 0, 3], [1, 0, 1, 0], [0, 2, 0, 0], [2, 0, 0, 0], [2, 0, 0, 0], [0, 0, 2, 0],
                       [0, 0, 2, 0], [0, 0, 0, 0], [0, 0, 1, 1]])
    assert np.array_equal(reliability_counts(WIKI)[0], counts)
    assert krippendorff_alpha(value_counts=counts).value == pytest.approx(0.691358, abs=1e-6)
    assert krippendorff_alpha(value_counts=counts, level="interval").value == pytest.approx(0.810845, abs=1e-6)


def test_binary_news_presence():
    result = krippendorff_alpha(NEWS)
    assert round(result.value, 4) == 0.0952
    assert (round(result.observed, 3), round(result.expected, 3)) == (0.400, 0.442)


def test_a_custom_distance_equals_the_built_in_metric():
    result = krippendorff_alpha(K2011, lambda a, b: (a - b) ** 2)
    assert result.value == pytest.approx(krippendorff_alpha(K2011, "interval").value)


def test_two_annotators_reduce_to_cohen_and_scott():
    """Davies & Fleiss' kappa of two annotators is Cohen's kappa; Fleiss' kappa of two is Scott's pi."""
    a, b = NEWS
    table = confusion_matrix(a, b)
    assert davies_fleiss_kappa(NEWS).value == pytest.approx(cohen_kappa(table).value)
    assert fleiss_kappa(NEWS).value == pytest.approx(scott_pi(table).value)
    # REFERENCE 2.1 (Artstein & Poesio 2008): 100 items, kappa 0.348, pi 0.341
    rows = [("STAT", "STAT")] * 20 + [("STAT", "IReq")] * 10 + [("IReq", "STAT")] * 20 + [("IReq", "IReq")] * 50
    data = [[r[0] for r in rows], [r[1] for r in rows]]
    assert round(davies_fleiss_kappa(data).value, 3) == 0.348
    assert round(fleiss_kappa(data).value, 3) == 0.341
    assert round(krippendorff_alpha(data).value, 4) == 0.3440


def test_degenerate_inputs_warn_and_return_none():
    """Coefficients that do not exist are None (was NaN), their parts too; NaN in the input stays 'missing'."""
    with pytest.warns(DegenerateAgreementWarning, match="pairable.*reported as None"):
        result = krippendorff_alpha([[1, N, 2], [N, 3, N]])
    assert (result.value, result.observed, result.expected, result.n) == (None, None, None, 0)
    with pytest.warns(DegenerateAgreementWarning, match="expected disagreement is 0"):
        assert krippendorff_alpha([[1, 1], [1, 1]], undefined=1.0).value == 1.0
    with pytest.warns(DegenerateAgreementWarning, match="one category"):
        assert fleiss_kappa([["a", "a"], ["a", "a"]]).value is None
    with pytest.warns(DegenerateAgreementWarning, match="two or more annotators"):
        assert davies_fleiss_kappa([["a", "a", "a"]]).value is None
    with pytest.warns(UndefinedFigureWarning, match="no unit has two"):  # the parent class catches it too
        assert fleiss_kappa([[1, N], [N, 2]]).value is None
    with pytest.raises(ValueError, match="no missing values"):
        davies_fleiss_kappa([[1, None], [1, 2]])
    with pytest.raises(ValueError, match="numeric values"):
        krippendorff_alpha([["a", "b"], ["a", "a"]], "interval")


# ---------------------------------------------------------------------------
# peers on seeded random data


def random_data(seed: int, annotators: int = 4, units: int = 300, q: int = 5, missing: float = 0.15):
    rng = np.random.default_rng(seed)
    truth = rng.integers(1, q + 1, size=units)
    noise = rng.integers(1, q + 1, size=(annotators, units))
    data = np.where(rng.random((annotators, units)) < 0.6, truth, noise).astype(float)
    data[rng.random((annotators, units)) < missing] = np.nan
    return data


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("level", ["nominal", "ordinal", "interval", "ratio"])
def test_alpha_matches_the_krippendorff_package(seed, level):
    krippendorff = pytest.importorskip("krippendorff")
    data = random_data(seed)
    theirs = krippendorff.alpha(reliability_data=data, level_of_measurement=level)
    assert krippendorff_alpha(data, level).value == pytest.approx(theirs, abs=1e-9)


@pytest.mark.parametrize("seed", [0, 1])
def test_fleiss_matches_statsmodels(seed):
    inter_rater = pytest.importorskip("statsmodels.stats.inter_rater")
    data = random_data(seed, annotators=5, missing=0.0)
    table, _ = inter_rater.aggregate_raters(data.T.astype(int))
    assert fleiss_kappa(data).value == pytest.approx(inter_rater.fleiss_kappa(table, method="fleiss"), abs=1e-12)
    # per category: kappa over the whole table equals the p_c q_c-weighted mean of the per-category kappas
    per = fleiss_kappa_per_category(data)
    p = table.sum(axis=0) / table.sum()
    assert (per * p * (1 - p)).sum() / (p * (1 - p)).sum() == pytest.approx(fleiss_kappa(data).value)


@pytest.mark.parametrize("seed", [0, 1])
def test_nltk_annotation_task(seed):
    agreement = pytest.importorskip("nltk.metrics.agreement")
    data = random_data(seed, annotators=3, units=120, missing=0.0)
    triples = [(f"c{a}", f"u{u}", str(int(data[a, u]))) for a in range(3) for u in range(120)]
    task = agreement.AnnotationTask(data=triples)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert davies_fleiss_kappa(data.astype(int)).value == pytest.approx(task.multi_kappa(), abs=1e-9)
        assert krippendorff_alpha(data).value == pytest.approx(task.alpha(), abs=1e-9)
        assert fleiss_kappa(data).value == pytest.approx(task.pi(), abs=1e-9)


def test_davies_fleiss_two_annotators_matches_scikit_learn():
    sklearn_metrics = pytest.importorskip("sklearn.metrics")
    data = random_data(3, annotators=2, missing=0.0).astype(int)
    assert davies_fleiss_kappa(data).value == pytest.approx(sklearn_metrics.cohen_kappa_score(data[0], data[1]))


# ---------------------------------------------------------------------------
# the summary and `anno-eval agreement`


def write_csv(path, names, data):
    lines = [",".join(names)]
    for unit in np.asarray(data, dtype=object).T.tolist():
        lines.append(",".join("" if (x is None or (isinstance(x, float) and np.isnan(x))) else
                              str(int(x)) if isinstance(x, float) else str(x) for x in unit))
    path.write_text("\n".join(lines) + "\n", encoding="utf8")
    return path


def test_cli_agreement_reproduces_krippendorff_2011(tmp_path):
    import json

    from typer.testing import CliRunner

    from spacy_anno_eval.cli.app import app

    table = write_csv(tmp_path / "k.csv", ["A", "B", "C", "D"], K2011)
    for level, alpha in (("nominal", 0.743), ("ordinal", 0.815), ("interval", 0.849), ("ratio", 0.797)):
        result = CliRunner().invoke(app, ["agreement", str(table), "--level", level, "--json",
                                          str(tmp_path / f"{level}.json")])
        assert result.exit_code == 0, result.output
        data = json.loads((tmp_path / f"{level}.json").read_text())
        assert round(data["krippendorff_alpha"]["value"], 3) == alpha
        assert (data["n_units"], data["n_annotators"], data["level"]) == (12, 4, level)
    # missing values: Davies & Fleiss does not apply, and says so
    assert data["davies_fleiss_kappa"] is None
    assert any("davies_fleiss_kappa" in w for w in data["warnings"])
    assert len(data["pairwise"]) == 6
    bad = CliRunner().invoke(app, ["agreement", str(table), "--level", "cardinal"])
    assert bad.exit_code == 2 and "--level must be one of" in bad.output
    (tmp_path / "ragged.csv").write_text("A,B\n1,2\n1\n", encoding="utf8")
    ragged = CliRunner().invoke(app, ["agreement", str(tmp_path / "ragged.csv")])
    assert ragged.exit_code == 2 and "ragged.csv, line 3: 1 cells but 2 annotators" in ragged.output


def test_summary_of_two_complete_annotators_matches_the_two_coder_coefficients():
    from spacy_anno_eval.agreement.coefficients import bennett_s, observed_agreement, specific_agreement
    from spacy_anno_eval.agreement.summary import agreement_summary

    rows = [("STAT", "STAT")] * 20 + [("STAT", "IReq")] * 10 + [("IReq", "STAT")] * 20 + [("IReq", "IReq")] * 50
    data = [[r[0] for r in rows], [r[1] for r in rows]]
    summary = agreement_summary(data, annotators=["A", "B"])
    table = confusion_matrix(data[0], data[1], categories=["IReq", "STAT"])
    assert summary["observed_agreement"] == pytest.approx(observed_agreement(table)) == pytest.approx(0.7)
    assert summary["bennett_s"] == pytest.approx(bennett_s(table).value) == pytest.approx(0.4)
    assert summary["scott_pi"] == pytest.approx(0.341, abs=5e-4)
    assert summary["cohen_kappa"] == pytest.approx(0.348, abs=5e-4)
    assert summary["davies_fleiss_kappa"] == pytest.approx(summary["cohen_kappa"])
    spec = specific_agreement(table)
    assert [summary["per_category"][c]["specific_agreement"] for c in ("IReq", "STAT")] == pytest.approx(spec)
    assert summary["warnings"] == []


def test_bootstrap_interval_on_request():
    from spacy_anno_eval.agreement.reliability import with_bootstrap

    data = random_data(5, annotators=3, units=400)
    a = with_bootstrap(data, krippendorff_alpha, n_samples=400, seed=1, level="interval")
    assert a.value == pytest.approx(krippendorff_alpha(data, "interval").value)
    assert a.ci["low"] < a.value < a.ci["high"] and a.ci["n_samples"] == 400 and a.ci["n_undefined"] == 0
    # the interval narrows like 1/sqrt(units): four times the units, about half the width
    big = with_bootstrap(np.tile(data, 4), krippendorff_alpha, n_samples=400, seed=1, level="interval")
    ratio = (big.ci["high"] - big.ci["low"]) / (a.ci["high"] - a.ci["low"])
    assert 0.35 < ratio < 0.65
    assert with_bootstrap(data, krippendorff_alpha, n_samples=50, seed=2, level="interval").ci == \
        with_bootstrap(data, krippendorff_alpha, n_samples=50, seed=2, level="interval").ci
    f = with_bootstrap(data, fleiss_kappa, n_samples=100, seed=0)
    assert f.ci["low"] <= f.value <= f.ci["high"]
    assert f.to_dict()["ci"]["n_samples"] == 100


def test_cli_bootstrap_interval(tmp_path):
    import json

    from typer.testing import CliRunner

    from spacy_anno_eval.cli.app import app

    table = write_csv(tmp_path / "k.csv", ["A", "B", "C", "D"], K2011)
    result = CliRunner().invoke(app, ["agreement", str(table), "--bootstrap", "300", "--seed", "4", "--json",
                                      str(tmp_path / "k.json")])
    assert result.exit_code == 0, result.output
    alpha = json.loads((tmp_path / "k.json").read_text())["krippendorff_alpha"]
    assert alpha["ci"]["n_samples"] == 300 and alpha["ci"]["seed"] == 4
    assert alpha["ci"]["low"] < alpha["value"] <= alpha["ci"]["high"]
    bad = CliRunner().invoke(app, ["agreement", str(table), "--bootstrap", "-1"])
    assert bad.exit_code == 2


def test_summary_of_degenerate_data_is_json_without_nan():
    """One category: kappa, pi, S, alpha do not exist (None, null in JSON), each with a warnings entry."""
    from spacy_anno_eval.agreement.summary import agreement_summary

    out = agreement_summary([["a", "a", "a"], ["a", "a", "a"]])
    text = json.dumps(out, allow_nan=False)  # raises on NaN
    assert json.loads(text) == out
    assert out["observed_agreement"] == 1.0
    for key in ("bennett_s", "scott_pi", "cohen_kappa", "fleiss_kappa", "davies_fleiss_kappa"):
        assert out[key] is None, key
    assert out["krippendorff_alpha"]["value"] is None
    assert any("Ae = 1" in w for w in out["warnings"]) and any("bennett_s" in w for w in out["warnings"])
    # no unit with two values: observed agreement is a ratio without denominator -> zero_division (was null)
    lone = agreement_summary([[1, N], [N, 2]])
    assert lone["observed_agreement"] == 0.0 and lone["bennett_s"] is None
    assert all(c["specific_agreement"] == 0.0 for c in lone["per_category"].values())
