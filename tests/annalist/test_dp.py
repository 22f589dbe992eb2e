"""The DP alignment engine (``spacy_anno_eval.annalist.dp``) against plain references and brute force."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from spacy_anno_eval.annalist import dp as dp_module
from spacy_anno_eval.annalist.dp import dp_align
from spacy_anno_eval.errors import ConfigError

NEG = -math.inf
SCORES = (2.0, 1.0, -1.0, NEG)


def table_match(table: np.ndarray):
    def match(i: np.ndarray, j: np.ndarray) -> np.ndarray:
        return table[i, j]

    return match


def random_table(rng: random.Random, n: int, m: int) -> np.ndarray:
    return np.array([[rng.choice(SCORES) for _ in range(m)] for _ in range(n)], dtype=float).reshape(n, m)


def reference_linear(table: np.ndarray, gap: float) -> float:
    """Plain O(n·m) DP, written straight from the recurrence."""
    n, m = table.shape
    s = [[0.0] * (m + 1) for _ in range(n + 1)]
    for i in range(1, n + 1):
        s[i][0] = -i * gap
    for j in range(1, m + 1):
        s[0][j] = -j * gap
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            s[i][j] = max(s[i - 1][j] - gap, s[i][j - 1] - gap, s[i - 1][j - 1] + float(table[i - 1, j - 1]))
    return s[n][m]


def reference_affine(table: np.ndarray, g_open: float, g_ext: float) -> float:
    """Plain Gotoh DP: best scores ending with a pair, a key gap, a response gap."""
    n, m = table.shape
    d = [[NEG] * (m + 1) for _ in range(n + 1)]
    x = [[NEG] * (m + 1) for _ in range(n + 1)]
    y = [[NEG] * (m + 1) for _ in range(n + 1)]
    d[0][0] = 0.0
    for i in range(n + 1):
        for j in range(m + 1):
            if i and j:
                d[i][j] = max(d[i - 1][j - 1], x[i - 1][j - 1], y[i - 1][j - 1]) + float(table[i - 1, j - 1])
            if i:
                x[i][j] = max(d[i - 1][j] - g_open, x[i - 1][j] - g_ext, y[i - 1][j] - g_open)
            if j:
                y[i][j] = max(d[i][j - 1] - g_open, y[i][j - 1] - g_ext, x[i][j - 1] - g_open)
    return max(d[n][m], x[n][m], y[n][m])


def path_score(table: np.ndarray, keys, resps, g_open: float, g_ext: float) -> float:
    """Sum of the match scores of the pairs minus the cost of each maximal run of same-kind gaps."""
    total, run_kind = 0.0, None
    for i, j in zip(keys, resps, strict=True):
        kind = "pair" if i >= 0 and j >= 0 else ("missing" if j < 0 else "spurious")
        if kind == "pair":
            total += float(table[i, j])
        else:
            total -= g_ext if kind == run_kind else g_open
        run_kind = kind
    return total


def all_alignments(n: int, m: int):
    """Every monotone alignment of keys 0..n-1 with responses 0..m-1, as (keys, responses) step lists."""
    if n == 0 and m == 0:
        yield [], []
        return
    if n and m:
        for ks, rs in all_alignments(n - 1, m - 1):
            yield ks + [n - 1], rs + [m - 1]
    if n:
        for ks, rs in all_alignments(n - 1, m):
            yield ks + [n - 1], rs + [-1]
    if m:
        for ks, rs in all_alignments(n, m - 1):
            yield ks + [-1], rs + [m - 1]


def brute_force(table: np.ndarray, g_open: float, g_ext: float) -> float:
    n, m = table.shape
    return max(path_score(table, ks, rs, g_open, g_ext) for ks, rs in all_alignments(n, m))


def check_path(result, n: int, m: int) -> None:
    """Monotone; every key and every response exactly once; no gap-gap step."""
    keys, resps = result.key_index, result.response_index
    assert keys.shape == resps.shape
    assert not np.any((keys < 0) & (resps < 0))
    assert keys[keys >= 0].tolist() == list(range(n))
    assert resps[resps >= 0].tolist() == list(range(m))


def test_linear_score_equals_reference_and_path_total():
    rng = random.Random(1)
    for _ in range(400):
        n, m = rng.randint(0, 8), rng.randint(0, 8)
        gap = rng.choice((0.0, 0.5, 1.0, 2.0))
        table = random_table(rng, n, m)
        result = dp_align(n, m, table_match(table), gap=gap)
        check_path(result, n, m)
        assert result.score == reference_linear(table, gap)
        assert path_score(table, result.key_index, result.response_index, gap, gap) == result.score


def test_score_equals_brute_force_over_all_monotone_alignments():
    rng = random.Random(2)
    for _ in range(150):
        n, m = rng.randint(0, 5), rng.randint(0, 5)
        table = random_table(rng, n, m)
        for g_open, g_ext in ((1.0, 1.0), (0.0, 0.0), (2.0, 0.5), (0.5, 1.5)):
            if g_open == g_ext:
                result = dp_align(n, m, table_match(table), gap=g_open)
            else:
                result = dp_align(n, m, table_match(table), gap_open=g_open, gap_extend=g_ext)
            check_path(result, n, m)
            assert result.score == brute_force(table, g_open, g_ext), (table, g_open, g_ext)
            assert path_score(table, result.key_index, result.response_index, g_open, g_ext) == result.score


def test_affine_score_equals_reference_and_path_total():
    rng = random.Random(3)
    for _ in range(300):
        n, m = rng.randint(0, 8), rng.randint(0, 8)
        g_open, g_ext = rng.choice(((2.0, 0.5), (3.0, 0.0), (1.0, 0.25), (0.5, 1.0)))
        table = random_table(rng, n, m)
        result = dp_align(n, m, table_match(table), gap_open=g_open, gap_extend=g_ext)
        check_path(result, n, m)
        assert result.score == reference_affine(table, g_open, g_ext)
        assert path_score(table, result.key_index, result.response_index, g_open, g_ext) == result.score


def test_affine_with_equal_open_and_extend_is_the_linear_path():
    """The three-matrix code with G_o == G_e (forced through the affine branch) matches the linear one exactly."""
    rng = random.Random(4)
    for _ in range(200):
        n, m = rng.randint(1, 10), rng.randint(1, 10)
        table = random_table(rng, n, m)
        lin = dp_align(n, m, table_match(table), gap=1.0)
        lo, hi = dp_module._diagonal_ranges(n, m, m)
        score, keys, resps = dp_module._affine(n, m, table_match(table), 1.0, 1.0, lo, hi)
        assert score == lin.score
        assert keys.tolist() == lin.key_index.tolist() and resps.tolist() == lin.response_index.tolist()


def test_affine_prefers_one_long_gap_over_two_short_ones():
    """Keys k0 k1 k2, one response r0; M(k0, r0) = 1 (partial), M(k1, r0) = 2 (correct), M(k2, r0) = -1.

    Linear, P = 1: r0 with k1 costs two separate 1-gaps: 2 - 1 - 1 = 0, better than r0 with k0
    (1 - 2 = -1) or k2 (-1 - 2 = -3). Affine, G_o = 2, G_e = 0.5: r0 with k1 costs two gap openings,
    2 - 2 - 2 = -2, but r0 with k0 leaves one gap run of length 2, 1 - (2 + 0.5) = -1.5, the best
    (k2: -1 - 2.5 = -3.5; all gaps: -(2 + 2 * 0.5) - 2 = -5).
    """
    table = np.array([[1.0], [2.0], [-1.0]])
    linear = dp_align(3, 1, table_match(table), gap=1.0)
    assert linear.score == 0.0
    assert linear.key_index.tolist() == [0, 1, 2] and linear.response_index.tolist() == [-1, 0, -1]
    affine = dp_align(3, 1, table_match(table), gap_open=2.0, gap_extend=0.5)
    assert affine.score == -1.5
    assert affine.key_index.tolist() == [0, 1, 2] and affine.response_index.tolist() == [0, -1, -1]


def test_gap_defaults_to_gap_for_open_and_extend():
    table = np.array([[1.0], [2.0], [-1.0]])
    only_open = dp_align(3, 1, table_match(table), gap=0.5, gap_open=2.0)  # extend = gap = 0.5
    assert only_open.score == -1.5


def test_wide_band_equals_full_dp_and_narrow_band_is_within_it():
    rng = random.Random(5)
    for _ in range(150):
        n, m = rng.randint(1, 40), rng.randint(1, 40)
        table = random_table(rng, n, m)
        full = dp_align(n, m, table_match(table))
        assert full.band is None
        wide = dp_align(n, m, table_match(table), band=max(n, m))
        assert wide.score == full.score
        assert wide.key_index.tolist() == full.key_index.tolist()
        assert wide.response_index.tolist() == full.response_index.tolist()
        # a band containing the full optimal path gives the same optimum
        i = np.cumsum(full.key_index >= 0)
        j = np.cumsum(full.response_index >= 0)
        reach = int(np.ceil(np.max(np.abs(i * m - j * n)) / n))
        assert dp_align(n, m, table_match(table), band=reach).score == full.score
        narrow = dp_align(n, m, table_match(table), band=rng.randint(0, 3))
        check_path(narrow, n, m)
        assert narrow.band >= max(abs(n - m), 1)
        assert narrow.score <= full.score
        assert path_score(table, narrow.key_index, narrow.response_index, 1.0, 1.0) == narrow.score
        affine = {"gap_open": 2.0, "gap_extend": 0.5}
        full_affine = dp_align(n, m, table_match(table), **affine)
        assert dp_align(n, m, table_match(table), band=max(n, m), **affine).score == full_affine.score
        narrow_affine = dp_align(n, m, table_match(table), band=rng.randint(0, 3), **affine)
        check_path(narrow_affine, n, m)
        assert narrow_affine.score <= full_affine.score
        assert path_score(table, narrow_affine.key_index, narrow_affine.response_index, 2.0, 0.5) == narrow_affine.score


def test_band_always_holds_an_all_gap_path():
    """With every pair forbidden only gaps remain; even band=0 must connect the corners."""
    for n in range(1, 25):
        for m in range(1, 25):
            forbid = np.full((n, m), NEG)
            for band in (0, 1, 2):
                result = dp_align(n, m, table_match(forbid), band=band)
                assert result.score == -(n + m)
                check_path(result, n, m)


def test_band_cells_only_are_queried():
    n = m = 100
    seen = []

    def match(i, j):
        seen.append(np.abs(i + 1 - (j + 1)).max())
        return np.where(i == j, 2.0, -1.0)

    result = dp_align(n, m, match, band=5)
    assert max(seen) <= 5 and result.band == 5 and result.score == 200.0


def test_automatic_band_above_full_matrix_limit(monkeypatch):
    monkeypatch.setattr(dp_module, "FULL_MAX_CELLS", 100)
    monkeypatch.setattr(dp_module, "AUTO_BAND", 3)
    rng = random.Random(6)
    table = random_table(rng, 20, 12)
    auto = dp_align(20, 12, table_match(table))
    assert auto.band == 16  # max(AUTO_BAND, 2 * |20 - 12|)
    assert auto.score == dp_align(20, 12, table_match(table), band=16).score
    assert dp_align(12, 12, table_match(table[:12])).band == 3
    assert dp_align(10, 10, table_match(table[:10])).band is None  # 100 cells: full matrix


def test_identical_sequences_give_the_diagonal():
    rng = np.random.default_rng(7)
    for n in (1, 2, 17, 300):
        labels = rng.integers(0, 5, n)
        table = np.where(labels[:, None] == labels[None, :], 2.0, -1.0)
        result = dp_align(n, n, table_match(table), gap=1.0)
        assert result.key_index.tolist() == list(range(n))
        assert result.response_index.tolist() == list(range(n))
        assert result.score == 2.0 * n


def test_ties_prefer_pair_then_key_gap_then_response_gap():
    # a pair scoring -2 ties with a missing + spurious couple (-1 - 1): the pair wins
    assert dp_align(1, 1, lambda i, j: np.full(len(i), -2.0)).response_index.tolist() == [0]
    # a forbidden pair: the traceback from (1, 1) takes the key gap first, so forwards: spurious, then missing
    result = dp_align(1, 1, lambda i, j: np.full(len(i), NEG))
    assert result.key_index.tolist() == [-1, 0] and result.response_index.tolist() == [0, -1]
    # two equal pairings of one response: the later key is taken (pairs as late as possible)
    result = dp_align(2, 1, lambda i, j: np.full(len(i), 2.0))
    assert result.key_index.tolist() == [0, 1] and result.response_index.tolist() == [-1, 0]
    # the affine branch breaks ties the same way
    result = dp_align(1, 1, lambda i, j: np.full(len(i), NEG), gap_open=2.0, gap_extend=1.0)
    assert result.key_index.tolist() == [-1, 0] and result.response_index.tolist() == [0, -1]
    assert result.score == -4.0


def test_empty_sequences():
    nothing = dp_align(0, 0, lambda i, j: i * 0.0)
    assert nothing.score == 0.0 and len(nothing.key_index) == 0
    missing = dp_align(3, 0, lambda i, j: i * 0.0, gap=2.0)
    assert missing.score == -6.0
    assert missing.key_index.tolist() == [0, 1, 2] and missing.response_index.tolist() == [-1, -1, -1]
    spurious = dp_align(0, 3, lambda i, j: i * 0.0, gap_open=2.0, gap_extend=0.5)
    assert spurious.score == -3.0
    assert spurious.key_index.tolist() == [-1, -1, -1] and spurious.response_index.tolist() == [0, 1, 2]


def test_match_is_called_with_vectors_not_per_cell():
    calls = []

    def match(i, j):
        calls.append(len(i))
        assert i.dtype == np.int64 and j.dtype == np.int64
        assert i.min() >= 0 and i.max() < 300 and j.min() >= 0 and j.max() < 200
        return np.where(i == j, 2.0, -1.0)

    dp_align(300, 200, match)
    assert sum(calls) == 300 * 200 and len(calls) <= 300 * 200 // dp_module.CHUNK_CELLS + 1


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"gap": -1.0}, "gap must be a finite number >= 0"),
        ({"gap": math.nan}, "gap must be a finite number >= 0"),
        ({"gap": math.inf}, "gap must be a finite number >= 0"),
        ({"gap_open": -0.5}, "gap_open must be a finite number >= 0"),
        ({"gap_extend": -2}, "gap_extend must be a finite number >= 0"),
        ({"band": -1}, "band must be an integer >= 0"),
        ({"band": 2.5}, "band must be an integer >= 0"),
    ],
)
def test_bad_parameters(kwargs, message):
    with pytest.raises(ValueError, match=message) as info:
        dp_align(3, 3, lambda i, j: i * 0.0, **kwargs)
    assert isinstance(info.value, ConfigError)  # a bad setting (was InputError)


def test_bad_sizes():
    with pytest.raises(ConfigError, match=r"n \(the number of key items\) must be an integer >= 0"):
        dp_align(-1, 3, lambda i, j: i * 0.0)
    with pytest.raises(ValueError, match=r"m \(the number of response items\) must be an integer >= 0"):
        dp_align(3, 2.0, lambda i, j: i * 0.0)


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        (lambda i, j: np.full(len(i), np.nan), "finite scores or -inf; got nan for key 0, response 0"),
        (lambda i, j: np.where(i == 1, np.inf, 0.0), "finite scores or -inf; got inf for key 1"),
        (lambda i, j: np.zeros(len(i) + 1), "one float score per index pair"),
    ],
)
def test_bad_match_function(bad, message):
    with pytest.raises(ConfigError, match=message):
        dp_align(3, 3, bad)


def test_annalist_fig2_example():
    """The seed's Fig. 2 mentions, aligned by order only (no offsets).

    Key ["John McCain", "Barack Obama", "Obama", "McCain"], response ["John McCain", "Obama",
    "McCain"]; match: correct = 2 for equal strings, partial = 1 when one contains the other as a
    token sequence, incorrect = -1 otherwise; gap = 1. The figure pairs "Barack Obama" with the
    response "Obama" (partial) and leaves the key "Obama" missing: 2 + 1 + 2 - 1 = 4. Order-only DP
    prefers the key "Obama" with the response "Obama" (correct) and "Barack Obama" missing:
    2 - 1 + 2 + 2 = 5. That is right for this generic engine: it maximises the given scores; the
    figure's choice needs positions in the text (see ``anchor_text`` in ``align.annalist``).
    """
    key = ["John McCain", "Barack Obama", "Obama", "McCain"]
    response = ["John McCain", "Obama", "McCain"]

    def contains(a: str, b: str) -> bool:
        a_t, b_t = a.split(), b.split()
        return any(a_t[s:s + len(b_t)] == b_t for s in range(len(a_t) - len(b_t) + 1))

    def score(a: str, b: str) -> float:
        if a == b:
            return 2.0
        return 1.0 if contains(a, b) or contains(b, a) else -1.0

    table = np.array([[score(k, r) for r in response] for k in key])
    result = dp_align(len(key), len(response), table_match(table), gap=1.0)
    assert result.score == 5.0
    assert result.key_index.tolist() == [0, 1, 2, 3]
    assert result.response_index.tolist() == [0, -1, 1, 2]


def test_early_ties_take_pairs_as_early_as_possible():
    # two equal pairings of one response: the earlier key is taken
    result = dp_align(2, 1, lambda i, j: np.full(len(i), 2.0), ties="early")
    assert result.key_index.tolist() == [0, 1] and result.response_index.tolist() == [0, -1]
    assert result.score == 1.0
    affine = dp_align(2, 1, lambda i, j: np.full(len(i), 2.0), ties="early", gap_open=2.0, gap_extend=1.0)
    assert affine.key_index.tolist() == [0, 1] and affine.response_index.tolist() == [0, -1]
    # strictly better alignments win whatever the tie rule
    best = dp_align(2, 1, lambda i, j: np.where(i == 1, 3.0, 2.0), ties="early")
    assert best.response_index.tolist() == [-1, 0]


def test_ties_must_be_named():
    with pytest.raises(ConfigError, match="ties must be one of late, early"):
        dp_align(1, 1, lambda i, j: i * 0.0, ties="first")
