"""Seeded samples in blocks (spacy_anno_eval.samples) and the three bootstraps that draw through them.

Block ``i`` draws from ``default_rng(SeedSequence(seed, spawn_key=(i,)))`` and
the block size depends on the problem only, so a result computed in-process
equals the one computed on a Dask cluster, exactly; the tests rebuild each
bootstrap by hand from its blocks, and compare in-process with a 2-worker
``LocalCluster`` (one for the whole file: starting clusters is slow).
"""

from __future__ import annotations

import functools
import json
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest

from spacy_anno_eval.agreement.coefficients import DegenerateAgreementWarning, cohen_kappa, scott_pi, table_bootstrap
from spacy_anno_eval.agreement.reliability import (
    fleiss_kappa,
    krippendorff_alpha,
    pattern_draws,
    reliability_counts,
    unit_draws,
    with_bootstrap,
)
from spacy_anno_eval.resampling import paired as significance
from spacy_anno_eval.resampling.paired import paired_test
from spacy_anno_eval.samples import (
    SAMPLES_PER_BLOCK,
    block_rng,
    block_seed,
    block_size_for,
    block_sizes,
    document_weights,
    map_blocks,
)

ROOT = Path(__file__).resolve().parents[1]


def reliability_data(seed: int, annotators: int = 5, units: int = 600, q: int = 4, missing: float = 0.1):
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, q, units)
    data = np.where(rng.random((annotators, units)) < 0.7, truth, rng.integers(0, q, (annotators, units)))
    data = data.astype(float)
    data[rng.random(data.shape) < missing] = np.nan
    return data


def recall(sums: np.ndarray) -> np.ndarray:
    """Columns: correct, key -> recall, one figure per batch row."""
    return (sums[:, 0] / sums[:, 1])[:, None]


def scaled_recall(sums: np.ndarray, scale: float) -> np.ndarray:
    return scale * recall(sums)


def documents(seed: int, n_docs: int = 80) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    key = rng.integers(1, 12, size=n_docs)
    return (np.stack([rng.binomial(key, 0.5), key], axis=1), np.stack([rng.binomial(key, 0.6), key], axis=1))


def draw_block(size: int, seed: np.random.SeedSequence, scale: float = 1.0) -> np.ndarray:
    return scale * np.random.default_rng(seed).random(size)


# ---------------------------------------------------------------------------
# the blocks


def test_block_seeds_are_spawned_children_of_the_seed():
    children = np.random.SeedSequence(42).spawn(5)
    for i, child in enumerate(children):
        assert block_seed(42, i).spawn_key == (i,) == child.spawn_key
        assert np.array_equal(block_seed(42, i).generate_state(4), child.generate_state(4))
        assert block_rng(42, i).random() == np.random.default_rng(child).random()
    assert block_sizes(10, 4) == [4, 4, 2] and block_sizes(8, 4) == [4, 4] and block_sizes(3, 250) == [3]
    assert block_size_for(1) == SAMPLES_PER_BLOCK and block_size_for(10**9) == 1
    assert block_size_for(100, max_cells=1000) == 10
    with pytest.raises(ValueError, match="block_size"):
        block_sizes(10, 0)


def test_map_blocks_in_process_is_the_blocks_in_order():
    parts = map_blocks(draw_block, 10, 7, 4, scale=2.0)
    assert [len(p) for p in parts] == [4, 4, 2]
    for i, part in enumerate(parts):
        assert np.array_equal(part, 2.0 * block_rng(7, i).random(len(part)))
    # a block's stream does not depend on how many blocks there are: fewer samples are a prefix
    assert np.array_equal(np.concatenate(map_blocks(draw_block, 6, 7, 4)), np.concatenate(parts)[:6] / 2.0)
    assert not np.array_equal(np.concatenate(map_blocks(draw_block, 10, 8, 4)), np.concatenate(parts) / 2.0)
    # seed None: fresh entropy, drawn once for all the blocks of the call
    fresh = map_blocks(draw_block, 8, None, 4)
    assert not np.array_equal(fresh[0], fresh[1])


@pytest.mark.parametrize("q", [4, 40])  # 40 values: coincidences sample by sample (q * q > 1024)
def test_with_bootstrap_by_hand_from_its_blocks(q):
    data = reliability_data(1, units=600 if q == 4 else 200, q=q)
    counts, values = reliability_counts(data)
    patterns, frequency = np.unique(counts, axis=0, return_counts=True)
    n_samples, seed = 300, 11
    block = block_size_for(2 * len(patterns) + 4 * len(values) ** 2)
    assert block == SAMPLES_PER_BLOCK  # so 300 samples are two blocks: 250 and 50
    for coefficient, options in ((krippendorff_alpha, {"level": "nominal"}), (krippendorff_alpha, {"level": "ordinal"}),
                                 (krippendorff_alpha, {"level": "interval"}), (fleiss_kappa, {})):
        ours = with_bootstrap(data, coefficient, n_samples=n_samples, seed=seed, **options)
        if coefficient is krippendorff_alpha:
            options = {**options, "value_domain": values}
        by_hand = []
        for i, size in enumerate(block_sizes(n_samples, block)):
            for w in pattern_draws(block_rng(seed, i), size, frequency):
                # the resampled units: each pattern as many times as drawn
                by_hand.append(coefficient(value_counts=np.repeat(patterns, w, axis=0), **options).value)
        low, high = np.quantile(by_hand, [0.025, 0.975])
        assert ours.ci["low"] == pytest.approx(low, rel=1e-9) and ours.ci["high"] == pytest.approx(high, rel=1e-9)
        assert ours.ci["n_undefined"] == 0
        # the same seed twice: the same interval, exactly; another seed: another one
        assert with_bootstrap(data, coefficient, n_samples=n_samples, seed=seed, **options).ci == ours.ci
        assert with_bootstrap(data, coefficient, n_samples=n_samples, seed=seed + 1, **options).ci != ours.ci


def test_pattern_draws_resample_units():
    """Multinomial counts of the distinct count rows have the law of resampling units one by one."""
    counts, _ = reliability_counts(reliability_data(2, units=200))
    patterns, inverse, frequency = np.unique(counts, axis=0, return_inverse=True, return_counts=True)
    rng = np.random.default_rng(0)
    by_pattern = pattern_draws(rng, 4000, frequency)
    by_unit = np.stack([np.bincount(inverse.ravel()[row], minlength=len(patterns))
                        for row in unit_draws(rng, 4000, len(counts))])
    assert (by_pattern.sum(axis=1) == len(counts)).all()
    assert by_pattern.mean(axis=0) == pytest.approx(by_unit.mean(axis=0), abs=0.15)
    assert by_pattern.var(axis=0) == pytest.approx(by_unit.var(axis=0), rel=0.15, abs=0.05)


def test_with_bootstrap_counts_undefined_samples_and_other_coefficients():
    # two units agree, one of them with a second value: many resamples have one value only (alpha undefined)
    data = np.array([[1.0, 1.0, 2.0, 1.0], [1.0, 1.0, 2.0, np.nan]])
    ours = with_bootstrap(data, krippendorff_alpha, n_samples=400, seed=3)
    counts, values = reliability_counts(data)
    patterns, frequency = np.unique(counts, axis=0, return_counts=True)
    undefined = 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateAgreementWarning)
        for i, size in enumerate(block_sizes(400, block_size_for(2 * len(patterns) + 16))):
            for w in pattern_draws(block_rng(3, i), size, frequency):
                value = krippendorff_alpha(value_counts=np.repeat(patterns, w, axis=0), value_domain=values).value
                undefined += value is None  # undefined coefficients are None
    assert ours.ci["n_undefined"] == undefined > 0
    # any other coefficient is called per sample on the resampled units (unit_draws of each block)
    ours = with_bootstrap(data, _alpha_by_another_name, n_samples=120, seed=3)
    by_hand = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateAgreementWarning)
        for i, size in enumerate(block_sizes(120, block_size_for(len(counts) * 3))):
            by_hand += [_alpha_by_another_name(value_counts=counts[row]).value
                        for row in unit_draws(block_rng(3, i), size, len(counts))]
    by_hand = np.array([np.nan if v is None else v for v in by_hand], dtype=float)
    ok = np.isfinite(by_hand)
    assert ours.ci["n_undefined"] == int((~ok).sum())
    assert [ours.ci["low"], ours.ci["high"]] == np.quantile(by_hand[ok], [0.025, 0.975]).tolist()


def _alpha_by_another_name(value_counts: np.ndarray, **options):
    return krippendorff_alpha(value_counts=value_counts, **options)


def test_table_bootstrap_by_hand_from_its_blocks():
    table = np.array([[30, 4, 1], [6, 25, 3], [2, 5, 24]])
    n = int(table.sum())
    block = block_size_for(4 * table.size)
    ours = table_bootstrap(table, cohen_kappa, n_samples=600, seed=5, weights="linear")
    values = np.concatenate([cohen_kappa(block_rng(5, i).multinomial(n, (table / n).ravel(), size=size)
                                         .reshape(size, 3, 3), "linear").value
                             for i, size in enumerate(block_sizes(600, block))])
    assert [ours.ci["low"], ours.ci["high"]] == np.quantile(values, [0.025, 0.975]).tolist()
    assert table_bootstrap(table, cohen_kappa, n_samples=600, seed=5, weights="linear").ci == ours.ci
    assert table_bootstrap(table, cohen_kappa, n_samples=600, seed=6, weights="linear").ci != ours.ci


def test_paired_test_by_hand_from_its_blocks(monkeypatch):
    old, new = documents(3)
    monkeypatch.setattr(significance, "_CHUNK_CELLS", 80 * 40)  # 40 samples per block: 300 samples in 8 blocks
    ours = paired_test(old, new, recall, n_samples=300, seed=9)
    boot, hits = [], 0
    delta = recall(new.sum(axis=0)[None])[0, 0] - recall(old.sum(axis=0)[None])[0, 0]
    for i, size in enumerate(block_sizes(300, 40)):
        rng = block_rng(9, i)
        w = document_weights(rng, 80, size)
        boot.append(recall(w @ new)[:, 0] - recall(w @ old)[:, 0])
        moved = rng.integers(0, 2, size=(size, 80)) @ (new - old)
        hits += (np.abs(recall(new.sum(axis=0) - moved) - recall(old.sum(axis=0) + moved)) >= abs(delta) - 1e-12).sum()
    boot = np.concatenate(boot)
    assert [ours.ci_low[0], ours.ci_high[0]] == pytest.approx(np.quantile(boot, [0.025, 0.975]).tolist(), abs=1e-15)
    assert ours.p_randomization[0] == (1 + hits) / 301
    assert ours.p_bootstrap[0] == pytest.approx((1 + (np.abs(boot - delta) >= abs(delta) - 1e-12).sum()) / 301)
    again = paired_test(old, new, recall, n_samples=300, seed=9)
    assert np.array_equal(again.ci_low, ours.ci_low) and np.array_equal(again.p_randomization, ours.p_randomization)
    other = paired_test(old, new, recall, n_samples=300, seed=10)
    assert not np.array_equal(other.ci_low, ours.ci_low)


def test_nothing_imports_dask_up_front():
    code = ("import sys, spacy_anno_eval.samples, spacy_anno_eval.agreement.summary, "
            "spacy_anno_eval.workflows.benchmark.compare; "
            "print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in ('dask', 'distributed'))))")
    out = subprocess.run([sys.executable, "-c", "import json; " + code], capture_output=True, text=True, check=True,
                         cwd=ROOT)
    assert json.loads(out.stdout) == []


# ---------------------------------------------------------------------------
# in-process == on a cluster, exactly


@pytest.fixture(scope="module")
def client():
    distributed = pytest.importorskip("distributed")
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0")
    client = distributed.Client(cluster)
    yield client
    client.close()
    cluster.close()


def test_map_blocks_on_a_cluster(client):
    here = map_blocks(draw_block, 10, 7, 3, scale=2.0)
    there = map_blocks(draw_block, 10, 7, 3, client=client, scale=2.0)
    assert [p.tolist() for p in here] == [p.tolist() for p in there]
    big = np.arange(50_000.0)  # scattered once (>= SCATTER_BYTES)
    assert map_blocks(_sum_block, 5, 0, 2, client=client, values=big) == map_blocks(_sum_block, 5, 0, 2, values=big)
    assert map_blocks(draw_block, 0, 7, 3, client=client) == []
    with pytest.raises(ValueError, match="taken by Client.map"):
        map_blocks(draw_block, 4, 0, 2, client=client, key=1)


def _sum_block(size: int, seed: np.random.SeedSequence, values: np.ndarray) -> float:
    return float(np.random.default_rng(seed).choice(values, size).sum())


@pytest.mark.parametrize("coefficient, options, q", [(krippendorff_alpha, {"level": "nominal"}, 4),
                                                     (krippendorff_alpha, {"level": "ordinal"}, 4),
                                                     (krippendorff_alpha, {"level": "ratio"}, 4),
                                                     (krippendorff_alpha, {"level": "interval"}, 40),
                                                     (fleiss_kappa, {}, 4), (_alpha_by_another_name, {}, 4)])
def test_with_bootstrap_on_a_cluster_is_exactly_in_process(client, coefficient, options, q):
    data = reliability_data(4, units=1500 if coefficient is not _alpha_by_another_name and q == 4 else 200, q=q)
    n = 1000 if coefficient is not _alpha_by_another_name else 120
    here = with_bootstrap(data, coefficient, n_samples=n, seed=2, **options)
    there = with_bootstrap(data, coefficient, n_samples=n, seed=2, client=client, **options)
    assert here.ci == there.ci and here.value == there.value


def test_table_bootstrap_on_a_cluster_is_exactly_in_process(client):
    table = [[1, 0], [0, 9]]  # many undefined samples
    for coefficient in (cohen_kappa, scott_pi):
        here = table_bootstrap(table, coefficient, n_samples=1000, seed=3)
        there = table_bootstrap(table, coefficient, n_samples=1000, seed=3, client=client)
        assert here.ci == there.ci and here.ci["n_undefined"] > 0
    big = np.random.default_rng(0).integers(0, 40, size=(12, 12))
    here = table_bootstrap(big, cohen_kappa, n_samples=700, seed=4, weights="quadratic")
    assert here.ci == table_bootstrap(big, cohen_kappa, n_samples=700, seed=4, weights="quadratic", client=client).ci


def test_paired_test_on_a_cluster_is_exactly_in_process(client):
    old, new = documents(5, n_docs=3000)  # counts scattered once
    statistic = functools.partial(scaled_recall, scale=100.0)
    here = paired_test(old, new, statistic, n_samples=1000, seed=8)
    there = paired_test(old, new, statistic, n_samples=1000, seed=8, client=client)
    for name in ("old", "new", "delta", "ci_low", "ci_high", "p_bootstrap", "p_randomization"):
        assert np.array_equal(getattr(here, name), getattr(there, name)), name
    # a closure pickles too (by value)
    assert np.array_equal(paired_test(old, new, lambda s: recall(s) * 2, n_samples=300, client=client).ci_low,
                          paired_test(old, new, lambda s: recall(s) * 2, n_samples=300).ci_low)


def test_agreement_summary_and_compare_evaluations_take_the_client(client):
    from spacy_anno_eval.agreement.summary import agreement_summary

    data = reliability_data(6, annotators=3, units=300)
    assert agreement_summary(data, "ordinal", bootstrap=500, seed=1, client=client) == \
        agreement_summary(data, "ordinal", bootstrap=500, seed=1)

    import spacy

    from spacy_anno_eval.spans.engine import evaluate
    from spacy_anno_eval.workflows.benchmark.compare import compare_evaluations
    from spacy_anno_eval.workflows.benchmark.settings import BenchmarkSettings

    gold = ROOT / "assets" / "demo" / "key.jsonl"
    records = [json.loads(line) for line in gold.read_text(encoding="utf8").splitlines() if line.strip()]

    def run(drop: str) -> object:
        nlp = spacy.blank("en")
        nlp.add_pipe("entity_ruler").add_patterns([{"label": s["label"], "pattern": r["text"][s["start"]:s["end"]]}
                                                   for r in records for s in r["spans"] if s["label"] != drop])
        docs = list(nlp.pipe(r["text"] for r in records))
        for doc, r in zip(docs, records, strict=True):
            doc.user_data["doc_id"] = r["meta"]["id"]
        return evaluate(gold, docs)

    old, new = run(""), run("LOC")
    settings = BenchmarkSettings(n_samples=400)
    here = compare_evaluations(old, new, settings)
    there = compare_evaluations(old, new, settings, client=client)
    assert here == there and here["overall"]["strict"]["r"]["delta"] < 0


def test_bootstrap_intervals_on_a_cluster_are_exactly_in_process(client):
    from spacy_anno_eval.io import read_corpus
    from spacy_anno_eval.resampling.intervals import bootstrap_intervals
    from spacy_anno_eval.spans.engine import evaluate

    key = read_corpus(ROOT / "assets" / "demo" / "key.jsonl")
    response = read_corpus(ROOT / "assets" / "demo" / "response.jsonl")
    evaluation = evaluate(key, response)
    here = bootstrap_intervals(evaluation, n_samples=600, seed=9)
    assert here.to_dict() == bootstrap_intervals(evaluation, n_samples=600, seed=9, client=client).to_dict()


def test_document_weights_are_multinomial_resamples():
    """Each row draws n documents with replacement: it sums to n, and a document's count has the multinomial's
    mean 1 and variance 1 - 1/n (checked over 4,000 samples of 50 documents, within 5 %)."""
    w = document_weights(np.random.default_rng(3), 50, 4000)
    assert w.shape == (4000, 50) and (w.sum(axis=1) == 50).all() and (w >= 0).all()
    assert w.mean() == pytest.approx(1.0)
    assert w.var(axis=0).mean() == pytest.approx(1 - 1 / 50, rel=0.05)
    assert document_weights(np.random.default_rng(3), 0, 5).shape == (5, 0)
