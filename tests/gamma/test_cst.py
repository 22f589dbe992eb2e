"""The Corpus Shuffling Tool (spacy_anno_eval.gamma.cst)."""

from __future__ import annotations

import numpy as np
import pytest

from spacy_anno_eval.errors import InputError
from spacy_anno_eval.gamma.continuum import Continuum
from spacy_anno_eval.gamma.cst import ERROR_KINDS, reference_continuum, shuffle

OFF = dict.fromkeys(ERROR_KINDS, 0.0)


def only(kind: str, m: float) -> dict[str, float]:
    """Keyword arguments switching every kind of error off but ``kind``, at magnitude ``m``."""
    return {**OFF, kind: m}


def columns(c: Continuum, annotator: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Starts, ends and category names of one annotator, in row order."""
    rows = c.annotator == c.annotators.index(annotator)
    return c.start[rows], c.end[rows], c.category_names()[rows]


def spaced_reference(n: int, seed: int = 0) -> Continuum:
    """Units far apart (gap 100 > any shifted boundary), so each annotator's rows stay in reference order."""
    return reference_continuum(n, avg_gap=100, std_gap=0, seed=seed)


# --- reference_continuum -------------------------------------------------------------------------------------------

def test_reference_continuum_lays_units_one_after_another():
    ref = reference_continuum(2000, seed=3)
    assert ref.annotators == ["ref"] and len(ref) == 2000
    assert set(ref.categories) == {"A", "B", "C", "D"}
    assert np.all(ref.end - ref.start >= 1.0 - 1e-9)  # length >= 1, up to rounding of start + length
    assert ref.start[0] >= 0
    assert np.all(ref.start[1:] >= ref.end[:-1])  # gaps >= 0: no overlap
    lengths = ref.end - ref.start
    assert abs(lengths.mean() - 10) < 0.3 and abs(lengths.std() - 3) < 0.3
    gaps = ref.start[1:] - ref.end[:-1]
    assert abs(gaps.mean() - 5) < 0.2


def test_reference_continuum_category_weights_and_seed():
    ref = reference_continuum(10_000, categories=("x", "y", "z"), category_weights=(7, 3, 0), seed=1)
    assert ref.categories == ["x", "y"]  # categories actually drawn, sorted (as Continuum.from_units)
    share_x = np.mean(ref.category_names() == "x")
    assert 0.68 <= share_x <= 0.72
    again = reference_continuum(10_000, categories=("x", "y", "z"), category_weights=(7, 3, 0), seed=1)
    assert again.to_dict() == ref.to_dict()
    other = reference_continuum(10_000, categories=("x", "y", "z"), category_weights=(7, 3, 0), seed=2)
    assert not np.array_equal(other.start, ref.start)


# --- magnitude 0 ---------------------------------------------------------------------------------------------------

def test_magnitude_zero_gives_identical_copies():
    ref = reference_continuum(500, seed=4)
    out = shuffle(ref, 4, magnitude=0.0, seed=9)
    assert out.annotators == ["annotator_1", "annotator_2", "annotator_3", "annotator_4"]
    assert out.categories == ref.categories
    for name in out.annotators:
        start, end, cats = columns(out, name)
        np.testing.assert_array_equal(start, ref.start)
        np.testing.assert_array_equal(end, ref.end)
        np.testing.assert_array_equal(cats, ref.category_names())


def test_every_reference_unit_is_used_whatever_its_annotator():
    ref = Continuum.from_units([("r1", 0, 5, "A"), ("r2", 3, 9, "B"), ("r1", 20, 30, "C")])
    out = shuffle(ref, 2, magnitude=0.0)
    for name in out.annotators:
        assert sorted((s, e, c) for a, s, e, c in out.units() if a == name) == [
            (0.0, 5.0, "A"), (3.0, 9.0, "B"), (20.0, 30.0, "C")]


def test_annotator_names_and_empty_reference():
    ref = Continuum.from_units([], annotators=["ref"])
    out = shuffle(ref, 12, magnitude=1.0)
    assert len(out) == 0
    assert sorted(out.annotators, key=lambda a: int(a.split("_")[1])) == [f"annotator_{i}" for i in range(1, 13)]


# --- false negatives -----------------------------------------------------------------------------------------------

def test_false_negatives_drop_about_m_of_the_units():
    ref = reference_continuum(10_000, seed=5)
    out = shuffle(ref, 3, seed=1, **only("false_negatives", 0.3))
    ref_units = set(zip(ref.start.tolist(), ref.end.tolist(), ref.category_names().tolist(), strict=True))
    for name in out.annotators:
        start, end, cats = columns(out, name)
        dropped = 1 - len(start) / len(ref)
        assert 0.28 <= dropped <= 0.32
        assert set(zip(start.tolist(), end.tolist(), cats.tolist(), strict=True)) <= ref_units  # untouched otherwise


def test_false_negatives_at_magnitude_one_drop_everything():
    out = shuffle(reference_continuum(100), 2, **only("false_negatives", 1.0))
    assert len(out) == 0 and out.annotators == ["annotator_1", "annotator_2"]


# --- false positives -----------------------------------------------------------------------------------------------

def test_false_positives_add_m_times_n_units_inside_the_span():
    ref = reference_continuum(10_000, category_weights=(7, 3, 0, 0), seed=6)
    out = shuffle(ref, 3, seed=2, **only("false_positives", 0.2))
    ref_units = set(zip(ref.start.tolist(), ref.end.tolist(), strict=True))
    lengths = ref.end - ref.start
    for name in out.annotators:
        start, end, cats = columns(out, name)
        assert len(start) == 10_000 + 2_000
        pairs = list(zip(start.tolist(), end.tolist(), strict=True))
        extra = np.array([k for k, p in enumerate(pairs) if p not in ref_units])
        assert len(extra) == 2_000  # every reference unit kept, 2,000 new ones
        assert np.all(start[extra] >= ref.start.min()) and np.all(end[extra] <= ref.end.max())
        fp_len = end[extra] - start[extra]
        assert np.all(fp_len >= lengths.min())
        assert abs(fp_len.mean() - lengths.mean()) < 0.3
        assert set(cats[extra]) == {"A", "B"}  # the reference's categories...
        assert 0.66 <= np.mean(cats[extra] == "A") <= 0.74  # ...with its frequencies


def test_false_positive_count_rounds_m_times_n():
    ref = reference_continuum(7)
    out = shuffle(ref, 1, **only("false_positives", 0.5))
    assert len(out) == 7 + 4  # round(3.5) with numpy's round-half-even is 4


# --- category ------------------------------------------------------------------------------------------------------

def test_category_errors_change_about_m_of_the_units_to_another_category():
    ref = reference_continuum(10_000, seed=7)
    out = shuffle(ref, 3, seed=3, **only("category", 0.3))
    for name in out.annotators:
        start, end, cats = columns(out, name)
        np.testing.assert_array_equal(start, ref.start)
        np.testing.assert_array_equal(end, ref.end)
        changed = cats != ref.category_names()
        assert 0.28 <= changed.mean() <= 0.32
        # a replacement is uniform among the 3 other categories
        for c in "ABCD":
            from_c = changed & (ref.category_names() == c)
            shares = [np.mean(cats[from_c] == d) for d in "ABCD" if d != c]
            assert all(0.27 <= s <= 0.40 for s in shares), (c, shares)


def test_category_errors_follow_the_confusion_matrix():
    ref = reference_continuum(10_000, seed=8)
    always_a_to_b = np.eye(4)
    always_a_to_b[0] = [0, 1, 0, 0]
    true = ref.category_names()
    out = shuffle(ref, 2, seed=4, confusion=always_a_to_b, **only("category", 1.0))
    for name in out.annotators:
        cats = columns(out, name)[2]
        assert np.all(cats[true == "A"] == "B")
        np.testing.assert_array_equal(cats[true != "A"], true[true != "A"])
    half = shuffle(ref, 1, seed=4, confusion=always_a_to_b, **only("category", 0.5))
    cats = columns(half, "annotator_1")[2]
    assert 0.46 <= np.mean(cats[true == "A"] == "B") <= 0.54
    assert np.all(np.isin(cats[true == "A"], ["A", "B"]))


def test_confusion_rows_follow_the_given_categories_and_may_add_one():
    ref = reference_continuum(1000, categories=("A", "B"), seed=9)
    # order of `categories`: E, B, A; A always becomes E, B stays B
    confusion = [[1, 0, 0], [0, 1, 0], [1, 0, 0]]
    out = shuffle(ref, 1, categories=("E", "B", "A"), confusion=confusion, **only("category", 1.0))
    assert out.categories == ["B", "E"]
    cats = columns(out, "annotator_1")[2]
    np.testing.assert_array_equal(cats, np.where(ref.category_names() == "A", "E", "B"))


# --- shift ---------------------------------------------------------------------------------------------------------

def test_shift_moves_each_boundary_by_at_most_m_times_the_length():
    ref = spaced_reference(10_000, seed=10)
    m = 0.4
    length = ref.end - ref.start
    out = shuffle(ref, 3, seed=5, **only("shift", m))
    for name in out.annotators:
        start, end, cats = columns(out, name)
        assert len(start) == len(ref)
        np.testing.assert_array_equal(cats, ref.category_names())
        d_start, d_end = np.abs(start - ref.start), np.abs(end - ref.end)
        assert np.all(d_start <= m * length + 1e-9) and np.all(d_end <= m * length + 1e-9)
        # uniform in [-m·L, m·L]: the mean |move| is m·L/2, so boundaries really move
        assert 0.48 <= np.mean(d_start / (m * length)) <= 0.52
        assert 0.48 <= np.mean(d_end / (m * length)) <= 0.52
        assert np.all(start < end) and np.all(start >= 0)


def test_shift_at_magnitude_one_keeps_units_valid_and_non_negative():
    rng = np.random.default_rng(0)
    lengths = rng.uniform(0.01, 20, 5000)
    starts = np.arange(5000) * 100.0  # the first unit starts at 0: its start is clipped, not moved below
    ref = Continuum.from_units(("ref", s, s + n, "A") for s, n in zip(starts, lengths, strict=True))
    out = shuffle(ref, 3, seed=6, **only("shift", 1.0))
    for name in out.annotators:
        start, end, _ = columns(out, name)
        assert np.all(end - start >= np.minimum(1e-3, lengths) - 1e-12)
        assert np.all(start >= 0)
        assert np.all(np.abs(start - starts) <= lengths + 1e-9)
        assert np.all(np.abs(end - (starts + lengths)) <= lengths + 1e-9)
    first_starts = [columns(out, name)[0][0] for name in out.annotators]
    assert all(s >= 0 for s in first_starts)


# --- split ---------------------------------------------------------------------------------------------------------

def _pieces(ref: Continuum, start: np.ndarray) -> np.ndarray:
    """Index of the reference unit each output unit lies in (reference units are far apart)."""
    return np.searchsorted(ref.start, start, side="right") - 1


def test_split_makes_contiguous_pairs_covering_the_unit():
    ref = spaced_reference(10_000, seed=11)
    out = shuffle(ref, 3, seed=7, **only("split", 0.3))
    for name in out.annotators:
        start, end, cats = columns(out, name)
        owner = _pieces(ref, start)
        counts = np.bincount(owner, minlength=len(ref))
        assert set(counts.tolist()) == {1, 2}
        assert 0.28 <= np.mean(counts == 2) <= 0.32
        assert len(start) == len(ref) + np.sum(counts == 2)
        first = np.concatenate([[True], owner[1:] != owner[:-1]])
        last = np.concatenate([owner[1:] != owner[:-1], [True]])
        np.testing.assert_array_equal(start[first], ref.start)  # the pieces cover the unit exactly...
        np.testing.assert_array_equal(end[last], ref.end)
        two = np.flatnonzero(~last)  # first piece of a split unit; the next row is its second piece
        np.testing.assert_array_equal(end[two], start[two + 1])  # ...and are contiguous
        assert np.all(start < end)
        np.testing.assert_array_equal(cats, ref.category_names()[owner])  # both keep the category


def test_split_at_magnitude_one_splits_every_unit():
    ref = spaced_reference(1000)
    out = shuffle(ref, 2, **only("split", 1.0))
    assert np.all(out.sizes() == 2000)


# --- magnitudes, seeds, speed --------------------------------------------------------------------------------------

def test_each_kind_defaults_to_magnitude_and_zero_switches_it_off():
    ref = spaced_reference(2000)
    only_fn = shuffle(ref, 1, magnitude=0.5, shift=0, category=0, split=False, false_positives=0, seed=1)
    assert 0.45 <= 1 - len(only_fn) / len(ref) <= 0.55
    assert set(only_fn.start.tolist()) <= set(ref.start.tolist())
    everything = shuffle(ref, 1, magnitude=0.5, seed=1)
    start, end, cats = columns(everything, "annotator_1")
    assert not set(start.tolist()) <= set(ref.start.tolist())  # shifted, split or added units
    explicit = shuffle(ref, 1, magnitude=0.0, shift=0, category=0, split=0, false_positives=0.5,
                       false_negatives=True, seed=1)
    assert len(explicit) == len(ref) + 1000  # True means "use magnitude" (0 here): nothing dropped


def test_switching_one_kind_does_not_change_the_noise_of_the_others():
    ref = spaced_reference(3000)
    fn_only = shuffle(ref, 2, seed=3, **only("false_negatives", 0.3))
    fn_and_cat = shuffle(ref, 2, seed=3, **{**only("false_negatives", 0.3), "category": 0.8})
    np.testing.assert_array_equal(fn_only.start, fn_and_cat.start)  # the same units are dropped
    np.testing.assert_array_equal(fn_only.end, fn_and_cat.end)


def test_same_seed_reproduces_and_other_seeds_or_annotators_differ():
    ref = reference_continuum(1000)
    a = shuffle(ref, 3, magnitude=0.4, seed=42)
    b = shuffle(ref, 3, magnitude=0.4, seed=42)
    assert a.to_dict() == b.to_dict()
    c = shuffle(ref, 3, magnitude=0.4, seed=43)
    assert a.to_dict() != c.to_dict()
    s1, s2, s3 = (columns(a, name)[0] for name in a.annotators)
    assert not np.array_equal(s1, s2) and not np.array_equal(s2, s3)
    seq = shuffle(ref, 3, magnitude=0.4, seed=np.random.SeedSequence(42))
    assert seq.to_dict() == a.to_dict()


def test_full_magnitude_gives_valid_units():
    ref = reference_continuum(3000, seed=12)
    out = shuffle(ref, 3, magnitude=1.0, false_negatives=0.5, seed=8)
    assert np.all(out.start < out.end) and np.all(out.start >= 0)
    assert len(out) > 0


def test_three_annotators_of_ten_thousand_units():
    ref = reference_continuum(10_000)
    out = shuffle(ref, 3, magnitude=0.5, seed=1)  # its time: benchmarks/bench_budgets.py
    assert out.n_annotators == 3 and len(out) > 30_000 * 0.5


@pytest.mark.parametrize("kwargs, message", [
    ({"magnitude": 1.5}, "magnitude"),
    ({"shift": -0.1}, "shift"),
    ({"categories": ("A", "B")}, "missing"),
    ({"categories": ("A", "A", "B", "C", "D")}, "distinct"),
    ({"confusion": np.full((4, 4), 0.3)}, "sum to 1"),
    ({"confusion": np.eye(3)}, "4 x 4"),
    ({"confusion": [[2, -1, 0, 0]] + np.eye(4)[1:].tolist()}, "non-negative"),
    ({"min_length": 0}, "min_length"),
])
def test_bad_arguments_raise(kwargs, message):
    with pytest.raises(ValueError, match=message):
        shuffle(reference_continuum(50), 2, **kwargs)


def test_bad_annotator_count_or_reference_raise():
    with pytest.raises(ValueError, match="n_annotators"):
        shuffle(reference_continuum(5), 0)
    with pytest.raises(InputError, match="Continuum"):
        shuffle([("ref", 0, 1, "A")], 2)  # type: ignore[arg-type]
