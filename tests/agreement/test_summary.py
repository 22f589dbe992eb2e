"""Two-coder agreement coefficients (spacy_anno_eval.agreement.coefficients)."""

from __future__ import annotations

import json
import warnings

import numpy as np
import pytest
from sklearn.metrics import cohen_kappa_score

from spacy_anno_eval.agreement.coefficients import (
    Agreement,
    ContingencyTable,
    DegenerateAgreementWarning,
    bennett_s,
    cohen_kappa,
    confusion_matrix,
    kappa_weights,
    observed_agreement,
    scott_pi,
    specific_agreement,
)
from spacy_anno_eval.errors import ConfigError, UndefinedFigureWarning

# REFERENCE.md 2.1: Artstein & Poesio (2008: p.558), rows coder A, columns coder B (STAT, IReq)
AP2008 = [[20, 10], [20, 50]]
# REFERENCE.md 2.3: Krippendorff (2004: p.246)
K4A = [[12, 9, 9], [9, 14, 9], [9, 9, 20]]
K4B = [[12, 18, 18], [0, 14, 18], [0, 0, 20]]
# GATE user guide 10.1.2, table 10.2 (rows annotator 1, columns annotator 2)
GATE_10_2 = [[1, 2], [3, 4]]


def test_artstein_poesio_example_1():
    assert observed_agreement(AP2008) == pytest.approx(0.7)
    s, pi, kappa = bennett_s(AP2008), scott_pi(AP2008), cohen_kappa(AP2008)
    assert (s.observed, s.expected) == pytest.approx((0.7, 0.5))
    assert s.value == pytest.approx(0.4)
    assert pi.expected == pytest.approx(0.545)
    assert pi.value == pytest.approx(0.341, abs=5e-4)
    assert pi.value == pytest.approx((0.7 - 0.545) / 0.455)
    assert kappa.expected == pytest.approx(0.54)
    assert kappa.value == pytest.approx(0.348, abs=5e-4)
    assert kappa.value == pytest.approx(0.16 / 0.46)
    assert kappa.n == pi.n == s.n == 100


@pytest.mark.parametrize("table, kappa, recomputed", [(K4A, 0.186, 0.1858), (K4B, 0.258, 0.2582)])
def test_krippendorff_2004_tables(table, kappa, recomputed):
    assert observed_agreement(table) == pytest.approx(0.46)
    assert bennett_s(table).value == pytest.approx(0.19)
    assert bennett_s(table).expected == pytest.approx(1 / 3)
    pi = scott_pi(table).value
    assert pi == pytest.approx(0.186, abs=5e-4)
    assert pi == pytest.approx(0.1858, abs=5e-5)
    k = cohen_kappa(table).value
    assert k == pytest.approx(kappa, abs=5e-4)
    assert k == pytest.approx(recomputed, abs=5e-5)


def test_gate_worked_example_tables_10_2_to_10_4():
    # table 10.3: Cohen's Ae = 0.3 * 0.4 + 0.7 * 0.6 = 0.12 + 0.42 = 0.54
    kappa = cohen_kappa(GATE_10_2)
    assert kappa.expected == pytest.approx(0.54)
    # table 10.4: joint proportions 7/20 and 13/20, squared and summed: 218/400 = 0.545
    pi = scott_pi(GATE_10_2)
    assert pi.expected == pytest.approx(218 / 400)
    # eq. 10.1: Ao = (a + d) / (a + b + c + d)
    assert kappa.observed == pi.observed == pytest.approx(5 / 10)
    assert kappa.value == pytest.approx((0.5 - 0.54) / 0.46)
    assert pi.value == pytest.approx((0.5 - 0.545) / 0.455)
    # eq. 10.2: A_cat1 = 2a / (2a + b + c), A_cat2 = 2d / (b + c + 2d)
    np.testing.assert_allclose(specific_agreement(GATE_10_2), [2 / 7, 8 / 13])


def test_negative_specific_agreement_of_a_binary_table_is_the_other_category_positive():
    pos = specific_agreement(AP2008)
    neg = specific_agreement(AP2008, positive=False)
    np.testing.assert_allclose(neg, pos[::-1])
    # 3 categories: category 0 against "not 0" collapses K4A to [[12, 18], [18, 52]]
    assert specific_agreement(K4A, positive=False)[0] == pytest.approx(2 * 52 / (2 * 52 + 18 + 18))


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("weights", [None, "linear", "quadratic"])
def test_cohen_kappa_equals_sklearn(seed, weights):
    rng = np.random.default_rng(seed)
    q = int(rng.integers(2, 7))
    n = int(rng.integers(5, 300))
    a = rng.integers(0, q, size=n)
    # correlated second coder: copy some labels, draw the others
    b = np.where(rng.random(n) < 0.6, a, rng.integers(0, q, size=n))
    cats = list(range(q))
    table = confusion_matrix(a.tolist(), b.tolist(), categories=cats)
    ours = cohen_kappa(table, weights)
    theirs = cohen_kappa_score(a, b, labels=cats, weights=weights)
    assert ours.value == pytest.approx(theirs, rel=1e-9, abs=1e-12)
    assert ours.value == pytest.approx((ours.observed - ours.expected) / (1 - ours.expected))


def test_custom_weight_matrix_is_scale_free_and_matches_linear():
    q = 3
    linear = cohen_kappa(K4B, "linear")
    custom = cohen_kappa(K4B, 2.5 * np.abs(np.subtract.outer(np.arange(q), np.arange(q))))
    assert custom.value == pytest.approx(linear.value)
    assert (custom.observed, custom.expected) == pytest.approx((linear.observed, linear.expected))
    # quadratic weighting is not linear weighting on an asymmetric table
    assert cohen_kappa(K4B, "quadratic").value != pytest.approx(linear.value)
    np.testing.assert_array_equal(kappa_weights(3, "quadratic"), [[0, 1, 4], [1, 0, 1], [4, 1, 0]])


def test_stack_of_tables_equals_one_by_one():
    stack = np.array([K4A, K4B, [[30, 0, 0], [0, 30, 0], [0, 0, 40]]])
    for fn in (bennett_s, scott_pi, cohen_kappa):
        many = fn(stack)
        assert np.shape(many.value) == (3,)
        for i, t in enumerate(stack):
            one = fn(t)
            assert many.value[i] == pytest.approx(one.value)
            assert many.expected[i] == pytest.approx(one.expected)
    np.testing.assert_allclose(observed_agreement(stack), [0.46, 0.46, 1.0])
    assert cohen_kappa(stack).value[2] == pytest.approx(1.0)
    np.testing.assert_allclose(specific_agreement(stack)[1], specific_agreement(K4B))


def test_symmetric_margins_make_pi_equal_kappa_and_bias_separates_them():
    assert scott_pi(K4A).value == pytest.approx(cohen_kappa(K4A).value)
    assert scott_pi(K4B).value < cohen_kappa(K4B).value


def test_results_are_json_ready():
    k = cohen_kappa(AP2008)
    assert isinstance(k, Agreement)
    assert isinstance(k.value, float) and isinstance(k.n, int)
    assert float(k) == k.value
    data = json.loads(json.dumps(k.to_dict(), allow_nan=False))
    assert data["measure"] == "kappa" and data["n"] == 100
    assert data["expected"] == pytest.approx(0.54)


def test_confusion_matrix_rows_are_coder_a():
    t = confusion_matrix(["x", "x", "y", "z"], ["x", "y", "y", "y"])
    assert isinstance(t, ContingencyTable)
    assert t.categories == ("x", "y", "z")
    np.testing.assert_array_equal(t.matrix, [[1, 1, 0], [0, 1, 0], [0, 1, 0]])
    assert t.n == 4
    assert t.to_dict() == {"categories": ["x", "y", "z"], "matrix": [[1, 1, 0], [0, 1, 0], [0, 1, 0]]}
    # the categories argument fixes the order and may hold unused categories
    t2 = confusion_matrix(["x", "y"], ["y", "y"], categories=["y", "x", "w"])
    np.testing.assert_array_equal(t2.matrix, [[1, 0, 0], [1, 0, 0], [0, 0, 0]])
    # a table object works wherever an array does
    assert cohen_kappa(t).value == pytest.approx(cohen_kappa(t.matrix).value)


def test_confusion_matrix_with_unsortable_labels_keeps_first_occurrence_order():
    t = confusion_matrix([1, "a", None], [1, "a", "a"])
    assert t.categories == (1, "a", None)
    np.testing.assert_array_equal(t.matrix.diagonal(), [1, 1, 0])


def test_confusion_matrix_errors():
    with pytest.raises(ValueError, match="different numbers of items"):
        confusion_matrix(["a"], ["a", "b"])
    with pytest.raises(ValueError, match="'c' is not one of the categories"):
        confusion_matrix(["a", "c"], ["a", "a"], categories=["a", "b"])
    with pytest.raises(ValueError, match="distinct"):
        confusion_matrix(["a"], ["a"], categories=["a", "a"])


@pytest.mark.parametrize("bad", [[1, 2, 3], [[1, 2, 3], [4, 5, 6]], [[1, -1], [0, 2]], [[1, np.nan], [0, 2]]])
def test_bad_tables_raise(bad):
    with pytest.raises(ValueError, match="contingency table"):
        cohen_kappa(bad)


@pytest.mark.parametrize("weights, message", [
    ("cubic", "unknown weights"),
    ([[0, 1], [1, 0], [2, 2]], "must be 2 x 2"),
    ([[1, 0], [0, 1]], "0 on the diagonal"),
    ([[0, 0], [0, 0]], "all 0"),
    ([[0, -1], [1, 0]], ">= 0"),
])
def test_bad_weights_raise(weights, message):
    with pytest.raises(ValueError, match=message):
        cohen_kappa(AP2008, weights)


def _no_nan(*values):
    return all(np.isfinite(v).all() for v in values)


def test_empty_table_gives_none_with_warning():
    """A coefficient of an empty table does not exist: None (was 0.0), null in JSON; Ao is a ratio: zero_division."""
    for fn in (bennett_s, scott_pi, cohen_kappa):
        with pytest.warns(DegenerateAgreementWarning, match="empty.*reported as None"):
            r = fn([[0, 0], [0, 0]])
        assert (r.value, r.observed, r.expected, r.n) == (None, None, None, 0)
        assert json.loads(json.dumps(r.to_dict(), allow_nan=False))["value"] is None
        assert np.isnan(float(r))
    with pytest.warns(DegenerateAgreementWarning, match="empty"):
        assert observed_agreement(np.zeros((0, 0))) == 0.0
    with pytest.warns(UndefinedFigureWarning, match="zero_division = 1.0"):  # the parent class catches it too
        assert observed_agreement([[0, 0], [0, 0]], zero_division=1.0) == 1.0
    with pytest.warns(DegenerateAgreementWarning):
        r = cohen_kappa(confusion_matrix([], []))
    assert r.value is None
    with pytest.warns(DegenerateAgreementWarning):
        assert np.isnan(cohen_kappa([[0, 0], [0, 0]], undefined=float("nan")).value)
    with pytest.raises(ConfigError, match="zero_division"):
        observed_agreement(AP2008, zero_division=float("nan"))


def test_single_category_gives_none_with_warning():
    """kappa / pi with one category (Ae = 1) do not exist: None (was 0.0); Ao and Ae are still given."""
    for table in ([[7]], [[7, 0], [0, 0]]):
        for fn in (scott_pi, cohen_kappa):
            with pytest.warns(DegenerateAgreementWarning, match="Ae = 1"):
                r = fn(table)
            assert (r.value, r.observed, r.expected, r.n) == (None, 1.0, 1.0, 7)
    with pytest.warns(DegenerateAgreementWarning, match="Ae = 1"):
        assert bennett_s([[7]]).value is None
    # S counts the unused category, so it is defined (Ae = 1/2) where kappa is not
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert bennett_s([[7, 0], [0, 0]]).value == pytest.approx(1.0)
    for weights in ("linear", "quadratic"):
        with pytest.warns(DegenerateAgreementWarning, match="Ae = 1"):
            assert cohen_kappa([[7, 0], [0, 0]], weights).value is None
    with pytest.warns(DegenerateAgreementWarning):
        assert cohen_kappa([[7]], undefined=1.0).value == 1.0


def test_degenerate_tables_in_a_stack_only_affect_their_own_entry():
    """In a stack (float arrays) an undefined entry is NaN (was 0.0); to_dict turns it into None."""
    stack = np.array([AP2008, [[5, 0], [0, 0]], [[0, 0], [0, 0]]])
    with pytest.warns(DegenerateAgreementWarning):
        r = cohen_kappa(stack)
    assert _no_nan(r.value[0], r.observed[:2], r.expected[:2])
    assert r.value[0] == pytest.approx(cohen_kappa(AP2008).value)
    assert np.isnan(r.value[1:]).all() and np.isnan(r.observed[2]) and np.isnan(r.expected[2])
    np.testing.assert_array_equal(r.n, [100, 5, 0])
    d = r.to_dict()
    assert d["value"][1:] == [None, None] and d["observed"][2] is None and d["observed"][1] == 1.0


def test_specific_agreement_of_an_unused_category_is_documented():
    with pytest.warns(DegenerateAgreementWarning, match="1 category"):
        out = specific_agreement([[3, 1, 0], [1, 2, 0], [0, 0, 0]])
    assert _no_nan(out)
    np.testing.assert_allclose(out, [6 / 8, 4 / 6, 0.0])


def test_no_warning_on_ordinary_tables():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        cohen_kappa(AP2008, "quadratic")
        scott_pi(K4B)
        specific_agreement(K4A)
        observed_agreement(GATE_10_2)


# --- bootstrap interval for two coders --------------------------------------

def test_table_bootstrap_matches_resampling_items_one_by_one():
    """Drawing a multinomial table is the same bootstrap as resampling the items: same quantiles (in law)."""
    from spacy_anno_eval.agreement.coefficients import table_bootstrap

    rng = np.random.default_rng(5)
    a = rng.integers(0, 3, 150)
    b = np.where(rng.random(150) < 0.7, a, rng.integers(0, 3, 150))
    table = confusion_matrix(a.tolist(), b.tolist(), categories=[0, 1, 2])
    ours = table_bootstrap(table, cohen_kappa, n_samples=4000, seed=1)
    assert ours.value == pytest.approx(cohen_kappa(table).value)
    loop = []
    for _ in range(4000):
        idx = rng.integers(0, 150, 150)
        loop.append(cohen_kappa(confusion_matrix(a[idx].tolist(), b[idx].tolist(), categories=[0, 1, 2])).value)
    low, high = np.quantile(loop, [0.025, 0.975])
    assert ours.ci["low"] == pytest.approx(low, abs=0.02)
    assert ours.ci["high"] == pytest.approx(high, abs=0.02)
    assert ours.ci["low"] < ours.value < ours.ci["high"]
    # large-sample standard error of kappa (Fleiss, Cohen & Everitt 1969, simplified): sqrt(Ao(1-Ao)/n)/(1-Ae)
    se = np.sqrt(ours.observed * (1 - ours.observed) / 150) / (1 - ours.expected)
    assert (ours.ci["high"] - ours.ci["low"]) == pytest.approx(2 * 1.96 * se, rel=0.15)


def test_table_bootstrap_is_seeded_and_counts_undefined_samples():
    from spacy_anno_eval.agreement.coefficients import table_bootstrap

    t = [[1, 0], [0, 9]]  # resamples with only the second category are undefined (Ae = 1)
    r1 = table_bootstrap(t, scott_pi, n_samples=500, seed=3)
    assert r1.ci == table_bootstrap(t, scott_pi, n_samples=500, seed=3).ci
    assert r1.ci["n_undefined"] == pytest.approx(500 * 0.9 ** 10, abs=40)
    weighted = table_bootstrap([[5, 2, 0], [1, 6, 1], [0, 2, 7]], cohen_kappa, weights="quadratic", n_samples=200)
    assert weighted.value == pytest.approx(cohen_kappa([[5, 2, 0], [1, 6, 1], [0, 2, 7]], "quadratic").value)
    with pytest.raises(ValueError, match="non-empty"):
        table_bootstrap([[0, 0], [0, 0]], cohen_kappa)


def test_agreement_summary_bootstrap_gives_pairwise_intervals():
    from spacy_anno_eval.agreement.summary import agreement_summary

    data = [[1, 2, 2, 1, 3, 1, 2, 2, 1, 3] * 3, [1, 2, 1, 1, 3, 1, 2, 3, 1, 3] * 3]
    out = agreement_summary(data, bootstrap=300, seed=2)
    pair = out["pairwise"][0]
    for key in ("cohen_kappa", "scott_pi", "bennett_s"):
        ci = pair[f"{key}_ci"]
        assert ci["low"] <= pair[key] <= ci["high"] and ci["n_samples"] == 300
    assert out["cohen_kappa_ci"] == pair["cohen_kappa_ci"]
    assert "cohen_kappa_ci" not in agreement_summary(data)


def test_a_table_that_is_not_utf8_names_the_file_and_line(tmp_path):
    from spacy_anno_eval.agreement.summary import read_table
    from spacy_anno_eval.errors import InputError

    path = tmp_path / "ratings.csv"
    path.write_bytes("a,b\n1,2\nx\xe9,1\n".encode("latin-1"))
    with pytest.raises(InputError, match=r"ratings.csv, line 3: not UTF-8 text .* save the table as UTF-8"):
        read_table(path)
