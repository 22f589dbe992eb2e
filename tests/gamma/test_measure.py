"""The γ family (spacy_anno_eval.gamma): dissimilarities, exact best alignment, γ / γcat / γk.

Published and peer values: ../shared/data/REFERENCE.md section 4 (pygamma-agreement 0.5.9 tests and
notebooks, Mathet et al. 2015), the DKPro pygamma fixtures (tier 1 and tier-2 replays), pygamma's asserted
ranges, and pygamma-agreement itself on seeded random continua when it is installed.
"""

from __future__ import annotations

import itertools
import json

import numpy as np
import pytest

from spacy_anno_eval.errors import ConfigError, InputError
from spacy_anno_eval.gamma.alignment import Alignment, best_alignment
from spacy_anno_eval.gamma.continuum import Continuum
from spacy_anno_eval.gamma.cst import reference_continuum, shuffle
from spacy_anno_eval.gamma.dissimilarity import Dissimilarity
from spacy_anno_eval.gamma.measure import categorial_disorder, gamma
from tests.conftest import shared_file


def pygamma_csv(name):
    from spacy_anno_eval.gamma.readers import read_csv

    return read_csv(shared_file("pygamma_tests_data", name))


# --- dissimilarities (REFERENCE 4.1) ---------------------------------------------------------------------------

def test_positional_dissimilarity_of_mathet_figure_10():
    d = Dissimilarity()
    pos = lambda a, b: float(d.positional(np.float64(a[0]), np.float64(a[1]), np.float64(b[0]), np.float64(b[1])))  # noqa: E731
    assert pos([4, 14], [40, 44]) == pytest.approx(22.2, rel=0.01)
    assert pos([4, 14], [4, 14]) == 0
    assert pos([4, 14], [20, 25]) == pytest.approx(3.2, rel=0.1)
    assert pos([4, 14], [14, 24]) == pytest.approx(1.0)
    assert pos([20, 30], [20, 25]) == pytest.approx(0.11, rel=0.1)
    assert pos([20, 25], [14, 24]) == pytest.approx(0.22, rel=0.1)
    assert pos([0, 7], [0, 10]) == pytest.approx(pos([0, 21], [0, 30]))  # scale invariance


LIZA = [("liza", 1, 5, "Carol"), ("liza", 6, 8, "Bob"), ("liza", 12, 18, "Carol"), ("liza", 7, 20, "Alice")]
PIERROT = [("pierrot", 2, 6, "Carol"), ("pierrot", 7, 8, "Bob"), ("pierrot", 12, 18, "Alice"),
           ("pierrot", 8, 10, "Alice"), ("pierrot", 7, 19, "Jeremy")]
MATRIX = [[0, .6, .3, .7], [.6, 0, .5, .4], [.3, .5, 0, .7], [.7, .4, .7, 0]]


def liza_pierrot_pairs(dissim):
    c = Continuum.from_units(LIZA + PIERROT)
    liza = np.flatnonzero(c.annotator == c.annotators.index("liza"))
    pierrot = np.flatnonzero(c.annotator == c.annotators.index("pierrot"))
    i, j = np.repeat(liza, len(pierrot)), np.tile(pierrot, len(liza))
    return dissim.pairs(c, i, j) if dissim.beta else dissim.positional(c.start[i], c.end[i], c.start[j], c.end[j])


def test_liza_pierrot_sporadic_and_combined_dissimilarities():
    """All 20 liza x pierrot pairs in sorted-unit order (pygamma tests/test_dissimilarity.py)."""
    sporadic = [0.03125, 1.62, 0.78125, 2.0, 2.88, 0.5, 0.05555556, 0.36734694, 0.5, 2.0, 0.62456747, 0.36734694,
                0.0008, 0.26888889, 0.06786704, 2.42, 2.29591837, 0.05555556, 1.125, 0.0]
    np.testing.assert_allclose(liza_pierrot_pairs(Dissimilarity(beta=0, delta_empty=0.5)), sporadic, rtol=1e-6)
    combined = [0.09375, 5.11, 2.69375, 6.15, 8.79, 1.75, 0.16666667, 1.30204082, 1.8, 6.3, 2.02370242, 1.40204082,
                0.3524, 0.80666667, 0.20360111, 7.26, 7.1377551, 0.51666667, 3.525, 0.15]
    dissim = Dissimilarity(alpha=3, beta=1, delta_empty=0.5, categorical=MATRIX)
    np.testing.assert_allclose(liza_pierrot_pairs(dissim), combined, rtol=1e-6)


def test_categorical_matrix_and_an_unaligned_unit():
    """d(A, D) = 0.7 * 0.5 = 0.35; a unitary alignment (Carol, Alice, ∅) of 3 annotators (pygamma
    test_alignement.py: 0.575 as the disorder of that one-unitary-alignment alignment)."""
    matrix = [[0, .5, .3, .7], [.5, 0, .6, .4], [.3, .6, 0, .7], [.7, .4, .7, 0]]
    dissim = Dissimilarity(alpha=0, beta=1, delta_empty=0.5, categorical=matrix, category_names="ABCD")
    assert dissim.category_matrix(["A", "B", "C", "D"])[0, 3] == pytest.approx(0.35)
    assert dissim.category_matrix(["A", "D"]).tolist() == [[0, 0.35], [0.35, 0]]
    c = Continuum.from_units([("liza", 12, 18, "C"), ("pierrot", 12, 18, "A")], annotators=["hadrien"])
    one = Alignment(c, np.array([[-1, 0, 1]]), np.array([(0.3 * 0.5 + 2 * 0.5) / 3]))
    dissim = Dissimilarity(alpha=1, beta=1, delta_empty=0.5, categorical=matrix, category_names="ABCD")
    assert best_alignment(c, dissim).disorder == pytest.approx(one.disorder)
    assert one.disorder == pytest.approx(0.575)


@pytest.mark.parametrize(("kind", "expected"), [("ordinal", [[0, .5, 1], [.5, 0, .5], [1, .5, 0]]),
                                                ("numeric", [[0, 1, 1 / 9], [1, 0, 8 / 9], [1 / 9, 8 / 9, 0]])])
def test_ordinal_and_numeric_categories(kind, expected):
    cats = ["1", "10", "2"] if kind == "numeric" else ["a", "b", "c"]
    np.testing.assert_allclose(Dissimilarity(categorical=kind).category_matrix(cats), expected)


def test_bad_dissimilarity_settings():
    with pytest.raises(ConfigError, match="delta_empty"):
        Dissimilarity(delta_empty=0)
    with pytest.raises(ConfigError, match="categorical"):
        Dissimilarity(categorical="cosine")
    with pytest.raises(ConfigError, match="2 x 2"):
        Dissimilarity(categorical=[[0, 1, 1], [1, 0, 1], [1, 1, 0]]).category_matrix(["a", "b"])


# --- best alignment (REFERENCE 4.2, fixtures) ------------------------------------------------------------------

@pytest.mark.parametrize(("name", "alpha", "disorder", "n_unitary"), [
    ("AlexPaulSuzan.csv", 1, 0.653542, 6), ("AlexPaulSuzan.csv", 3, 0.960625, 6),
    ("example_figure19.csv", 1, 1.344, 4), ("example_figure19.csv", 3, 1.632, 4),
    ("3by100.csv", 3, None, 127), ("2by1000.csv", 3, None, 1085)])
def test_best_alignment_disorders_of_pygamma(name, alpha, disorder, n_unitary):
    al = best_alignment(pygamma_csv(name), Dissimilarity(alpha=alpha, beta=1))
    if disorder is not None:
        assert al.disorder == pytest.approx(disorder, rel=1e-5)
    assert len(al) == n_unitary
    # a partition: every unit exactly once
    rows = al.tuples[al.tuples >= 0]
    assert sorted(rows.tolist()) == list(range(len(al.continuum)))


# the DKPro / pygamma fixtures replay in tests/reference/test_dkpro_pygamma_fixtures.py


def brute_force_disorder(c, dissim):
    """The least disorder over every partition of the units into unitary alignments (tiny continua only)."""
    n, units = c.n_annotators, list(range(len(c)))
    c2 = n * (n - 1) / 2
    de = dissim.delta_empty

    def cost(group):
        real = sum(float(dissim.pairs(c, np.array([u]), np.array([v]))[0]) for u, v in itertools.combinations(group, 2))
        k = len(group)
        return (real + (c2 - k * (k - 1) / 2) * de) / c2

    best = {}

    def solve(rest):
        if not rest:
            return 0.0
        if rest in best:
            return best[rest]
        first, others = rest[0], rest[1:]
        value = np.inf
        for size in range(n):
            for extra in itertools.combinations(others, size):
                group = (first,) + extra
                if len({int(c.annotator[u]) for u in group}) != len(group):
                    continue
                left = tuple(u for u in others if u not in extra)
                value = min(value, cost(group) + solve(left))
        best[rest] = value
        return value

    return solve(tuple(units)) / c.mean_units_per_annotator()


@pytest.mark.parametrize("seed", range(6))
def test_best_alignment_equals_brute_force_on_tiny_continua(seed):
    rng = np.random.default_rng(seed)
    n = 2 + seed % 3
    units = []
    for a in range(n):
        for _ in range(int(rng.integers(1, 4 if n < 4 else 3))):
            s = float(rng.integers(0, 12))
            units.append((f"a{a}", s, s + float(rng.integers(1, 6)), str(rng.choice(["x", "y"]))))
    c = Continuum.from_units(units)
    dissim = Dissimilarity(alpha=float(rng.choice([1, 3])), beta=1)
    assert best_alignment(c, dissim).disorder == pytest.approx(brute_force_disorder(c, dissim), rel=1e-9)


def test_large_continua_solve_exactly_through_the_relaxation():
    """3 x 1,000 noisy units: the LP-relaxation path and plain binary programs give the same disorder."""
    import spacy_anno_eval.gamma.alignment as alignment

    c = shuffle(reference_continuum(1000, seed=3), 3, magnitude=0.3, seed=4)
    dissim = Dissimilarity(alpha=3, beta=1)
    fast = best_alignment(c, dissim).disorder
    old = alignment.MILP_DIRECT, alignment.SMALL_COMPONENT
    try:
        alignment.MILP_DIRECT, alignment.SMALL_COMPONENT = 10**9, 0
        assert best_alignment(c, dissim).disorder == pytest.approx(fast, rel=1e-9)
    finally:
        alignment.MILP_DIRECT, alignment.SMALL_COMPONENT = old


def test_alignment_input_errors():
    with pytest.raises(InputError, match="at least two"):
        best_alignment(Continuum.from_units([("a", 0, 1, "x")]))
    with pytest.raises(InputError, match="start"):
        Continuum.from_units([("a", 3, 1, "x")])


# --- gamma, gamma-cat, gamma-k --------------------------------------------------------------------------------

def test_pygamma_asserted_ranges_2by1000():
    """pygamma tests/test_gammas.py ranges (its empty-pair convention for γcat / γk)."""
    r = gamma(pygamma_csv("2by1000.csv"), alpha=3, beta=1, n_samples=200, seed=1, empty_pairs="pygamma")
    assert r.n_unitary_alignments == 1085
    assert 0.39 <= r.gamma <= 0.42
    assert 0.38 <= r.gamma_cat <= 0.42
    for cat, (lo, hi) in {"Adj": (.21, .25), "Noun": (.36, .39), "Prep": (.31, .35), "Verb": (.11, .15)}.items():
        assert lo <= r.gamma_k[cat] <= hi, cat


def test_pygamma_asserted_ranges_3by100_and_the_seed_convention():
    r = gamma(pygamma_csv("3by100.csv"), alpha=3, beta=1, n_samples=100, seed=1, empty_pairs="pygamma")
    assert r.n_unitary_alignments == 127
    assert 0.79 <= r.gamma <= 0.81
    assert 0.89 <= r.gamma_cat <= 0.91
    for cat, (lo, hi) in {"Adj": (.81, .83), "Noun": (.88, .90), "Verb": (.69, .71)}.items():
        assert lo <= r.gamma_k[cat] <= hi, cat
    assert r.gamma_k["Prep"] >= 0.96
    # Algorithm 1 of the seed ignores pairs with an empty unit: unaligned units do not lower γcat
    seed_r = gamma(pygamma_csv("3by100.csv"), alpha=3, beta=1, n_samples=100, seed=1)
    assert seed_r.gamma == r.gamma
    assert seed_r.gamma_cat > r.gamma_cat + 0.05


def test_pygamma_asserted_ranges_alex_paul_suzan_with_the_shuffle_sampler():
    r = gamma(pygamma_csv("AlexPaulSuzan.csv"), alpha=3, beta=1, sampler="shuffle", precision=0.05, seed=2,
              empty_pairs="pygamma")
    assert r.n_unitary_alignments == 6
    assert r.observed_disorder == pytest.approx(0.96, rel=0.01)
    assert 0.44 <= r.gamma <= 0.47
    assert 0.38 <= r.gamma_cat <= 0.42
    assert r.gamma_k["1"] == 1 and r.gamma_k["5"] == 1
    assert r.gamma_k["6"] == pytest.approx(0.37, abs=0.01)
    assert all(r.gamma_k[k] <= 0 for k in "2347")


def test_gamma_cat_generalises_alpha_on_predefined_items():
    """Seed 5.1: Krippendorff (2011) as a continuum (item i on [i, i+1]): γcat's observed disorder is α's
    Do = 0.2 exactly, and 0.74 < γcat < 0.76 (α = 0.743)."""
    nan = np.nan
    k2011 = np.array([[1, 2, 3, 3, 2, 1, 4, 1, 2, nan, nan, nan], [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, nan, 3],
                      [nan, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, nan], [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, nan]])
    units = [(ann, i, i + 1, str(int(k2011[a, i]))) for a, ann in enumerate("ABCD") for i in range(12)
             if not np.isnan(k2011[a, i])]
    r = gamma(Continuum.from_units(units), alpha=3, beta=1, sampler="shuffle", n_samples=300, seed=1)
    assert r.observed_cat_disorder == pytest.approx(0.2, abs=1e-12)
    assert 0.74 < r.gamma_cat < 0.76


def test_gamma_cat_properties_with_the_corpus_shuffling_tool():
    """Seed section 2: γcat is insensitive to small positional shifts, to false negatives, and to unit length."""
    ref = reference_continuum(150, seed=5)
    shifted = gamma(shuffle(ref, 3, shift=0.1, seed=6), alpha=3, n_samples=20, seed=0)
    assert shifted.gamma_cat == 1.0 and shifted.gamma < 1.0
    missing = gamma(shuffle(ref, 3, false_negatives=0.3, seed=6), alpha=3, n_samples=20, seed=0)
    assert missing.gamma_cat == 1.0 and missing.gamma < 0.9
    noisy = shuffle(ref, 3, category=0.3, seed=6)
    base = gamma(noisy, alpha=3, n_samples=40, seed=0)
    stretched = Continuum(noisy.annotator, noisy.start * 7, noisy.end * 7, noisy.category, noisy.annotators,
                          noisy.categories)
    again = gamma(stretched, alpha=3, n_samples=40, seed=0)
    assert again.observed_cat_disorder == pytest.approx(base.observed_cat_disorder)
    assert again.gamma_cat == pytest.approx(base.gamma_cat, abs=0.02)
    assert base.gamma_cat < 0.9


def test_gamma_k_is_none_without_pairs_and_results_do_not_depend_on_processes():
    c = Continuum.from_units([("a", 0, 10, "x"), ("b", 0, 10, "x"), ("a", 20, 30, "y"), ("b", 50, 60, "x")])
    one = gamma(c, n_samples=8, seed=3, n_jobs=1)
    two = gamma(c, n_samples=8, seed=3, n_jobs=2)
    assert one.gamma_k["y"] is None  # y is never aligned with anything
    assert one.gamma == two.gamma and one.expected_disorder == two.expected_disorder
    np.testing.assert_array_equal(one.sample_disorders, two.sample_disorders)
    data = json.loads(json.dumps(one.to_dict()))
    assert set(data) >= {"gamma", "gamma_cat", "gamma_k", "observed_disorder", "expected_disorder",
                         "n_unitary_alignments", "ci"}


def test_precision_draws_enough_samples():
    c = pygamma_csv("AlexPaulSuzan.csv")
    r = gamma(c, alpha=3, precision=0.02, n_samples=30, seed=4)
    assert r.n_samples >= 30
    assert r.ci["relative_precision"] <= 0.021
    assert r.ci["low"] <= r.gamma <= r.ci["high"]
    capped = gamma(c, alpha=3, precision=0.001, n_samples=10, max_samples=20, seed=4)
    assert capped.n_samples == 20 and capped.warnings


def test_categorial_disorder_by_hand():
    """One unitary alignment of three units (x, x, y) at offsets 0/0/1 on length-10 units, α = 1:
    pairs (x,x) conf 1, (x,y) and (x,y) conf 1 - (1/20)^2*... ; weights 1/(3-1)."""
    c = Continuum.from_units([("a", 0, 10, "x"), ("b", 0, 10, "x"), ("c", 1, 11, "y")])
    al = best_alignment(c, Dissimilarity())
    assert len(al) == 1
    conf = 1 - ((1 + 1) / 20) ** 2
    cd = categorial_disorder(al, Dissimilarity())
    assert cd.weight == pytest.approx(0.5 * (1 + 2 * conf))
    assert cd.value == pytest.approx(2 * conf / (1 + 2 * conf))
    with pytest.raises(ConfigError, match="empty_pairs"):
        categorial_disorder(al, Dissimilarity(), "drop")


def test_against_pygamma_on_random_continua():
    """The best-alignment disorder equals pygamma-agreement's (exact ILP) on seeded CST continua."""
    pg = pytest.importorskip("pygamma_agreement")
    from pyannote.core import Segment

    for seed in range(3):
        c = shuffle(reference_continuum(6, seed=seed), 3, magnitude=0.3, seed=seed + 10)
        theirs = pg.Continuum()
        for ann, s, e, cat in c.units():
            theirs.add(ann, Segment(s, e), cat)
        d = pg.CombinedCategoricalDissimilarity(alpha=3, beta=1)
        expected = theirs.get_best_alignment(d).disorder
        assert best_alignment(c, Dissimilarity(alpha=3, beta=1)).disorder == pytest.approx(expected, rel=1e-5)


def test_cli_gamma_and_docs(tmp_path):
    import spacy
    from spacy.tokens import DocBin, Span
    from typer.testing import CliRunner

    from spacy_anno_eval.cli.app import app
    from spacy_anno_eval.gamma import gamma as gamma_api

    nlp = spacy.blank("en")
    doc = nlp("Ada Lovelace met Charles Babbage in London in 1833 .")
    doc.spans["a"] = [Span(doc, 0, 2, "PER"), Span(doc, 3, 5, "PER"), Span(doc, 6, 7, "LOC")]
    doc.spans["b"] = [Span(doc, 0, 2, "PER"), Span(doc, 4, 5, "PER"), Span(doc, 8, 9, "DATE")]
    DocBin(docs=[doc]).to_disk(tmp_path / "d.spacy")
    result = CliRunner().invoke(app, ["gamma", str(tmp_path / "d.spacy"), "--sets", "spans:a;spans:b", "--samples",
                                      "10", "--seed", "1", "--json", str(tmp_path / "g.json")])
    assert result.exit_code == 0, result.output
    data = json.loads((tmp_path / "g.json").read_text())
    direct = gamma_api([doc], sets=["spans:a", "spans:b"], n_samples=10, seed=1)
    assert data["gamma"] == pytest.approx(direct.gamma)
    # Ada / Ada, Charles Babbage / Babbage, London alone, 1833 alone
    assert data["n_unitary_alignments"] == direct.n_unitary_alignments == 4
    assert set(data["gamma_k"]) == {"DATE", "LOC", "PER"} and data["gamma_k"]["LOC"] is None
    default = CliRunner().invoke(app, ["gamma", str(tmp_path / "d.spacy"), "--samples", "10", "--seed", "1"])
    assert default.exit_code == 0 and "spans:a, spans:b" in default.stderr  # every annotator set, said so
    bad = CliRunner().invoke(app, ["gamma", str(tmp_path / "d.spacy"), "--sets", "spans:a"])
    assert bad.exit_code == 2
    bad = CliRunner().invoke(app, ["gamma", str(shared_file("pygamma_tests_data", "AlexPaulSuzan.csv")),
                                   "--precision", "2"])
    assert bad.exit_code == 2


def test_one_unit_edge_case_differs_from_pygamma_on_purpose():
    """pygamma test_edge_case.py: 2 annotators, one unit ('15' on [0, 10]): γ <= 0, and pygamma says γcat = 1
    and γk('15') = 1. With no pair of aligned units there is no categorial evidence at all: we report None (NA)
    and a warning instead of a perfect score."""
    c = Continuum.from_units([("a", 0, 10, "15")], annotators=["b"])
    r = gamma(c, n_samples=10, seed=0)
    assert r.observed_disorder == pytest.approx(2.0)  # Δ∅ / (1 unit / 2 annotators)
    assert r.gamma <= 0
    assert r.gamma_cat is None and r.gamma_k == {"15": None}
    assert any("gamma_cat" in w for w in r.warnings)
