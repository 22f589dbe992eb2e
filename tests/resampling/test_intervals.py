"""Document-bootstrap intervals of one system (issue 28, item 3), checked against a plain reference bootstrap
that draws the same documents."""

from __future__ import annotations

import random

import numpy as np
import pytest

from spacy_anno_eval.annotations.table import Corpus, SpanTable
from spacy_anno_eval.errors import ConfigError
from spacy_anno_eval.resampling.intervals import bootstrap_intervals
from spacy_anno_eval.samples import SAMPLES_PER_BLOCK, block_rng, block_sizes, document_weights
from spacy_anno_eval.spans.engine import evaluate
from spacy_anno_eval.spans.measures import gate_prf

LABELS = ["LOC", "ORG", "PER"]


def _corpus(docs: list[list[tuple[int, int, str]]]) -> Corpus:
    rows = [(d, s, e, lab) for d, spans in enumerate(docs) for s, e, lab in spans]
    table = SpanTable([r[0] for r in rows], [r[1] for r in rows], [r[2] for r in rows],
                      [LABELS.index(r[3]) for r in rows], list(LABELS))
    return Corpus([f"d{i}" for i in range(len(docs))], ["x" * 200] * len(docs), {"ents": table})


def _random_system(seed: int, n_docs: int = 60):
    """A key and a response that keeps most key spans, moves or relabels some and adds others."""
    rng = random.Random(seed)
    key, response = [], []
    for _ in range(n_docs):
        k, r = [], []
        for slot in range(rng.randint(0, 6)):
            start = slot * 30 + rng.randint(0, 5)
            span = (start, start + rng.randint(2, 10), rng.choice(LABELS))
            k.append(span)
            roll = rng.random()
            if roll < 0.6:
                r.append(span)
            elif roll < 0.75:
                r.append((span[0] + 1, span[1], span[2]))
            elif roll < 0.85:
                r.append((span[0], span[1], rng.choice(LABELS)))
        if rng.random() < 0.5:
            r.append((190, 195, rng.choice(LABELS)))
        key.append(sorted(k))
        response.append(sorted(r))
    return evaluate(_corpus(key), _corpus(response))


@pytest.fixture(scope="module")
def evaluation():
    return _random_system(7)


def _reference_draws(n_docs: int, n_samples: int, seed: int) -> np.ndarray:
    """The documents' multiplicities, drawn as samples.py's scheme draws them: blocks of SAMPLES_PER_BLOCK
    samples (these corpora are small enough for full blocks), block i from its own generator."""
    return np.concatenate([document_weights(block_rng(seed, i), n_docs, size)
                           for i, size in enumerate(block_sizes(n_samples, SAMPLES_PER_BLOCK))])


def test_micro_and_macro_docs_equal_a_plain_bootstrap_of_the_same_draws(evaluation):
    n = 400
    got = bootstrap_intervals(evaluation, n_samples=n, seed=3, confidence=0.9)
    weights = _reference_draws(len(evaluation.doc_ids), n, 3)
    micro_f, macro_f = [], []
    doc_f = gate_prf(evaluation.by_doc)["strict"]["f"]
    present = evaluation.by_doc.any(axis=1)
    for w in weights:
        micro_f.append(gate_prf((w[:, None] * evaluation.by_doc).sum(axis=0))["strict"]["f"])
        macro_f.append(np.sum(w * doc_f * present) / np.sum(w * present))
    for part, values in (("micro", micro_f), ("macro_docs", macro_f)):
        low, high = np.quantile(values, [0.05, 0.95])
        assert got.interval(part, "strict", "f") == pytest.approx((low, high), abs=1e-12)


def test_per_type_and_macro_types_equal_a_plain_bootstrap(evaluation):
    n = 300
    got = bootstrap_intervals(evaluation, n_samples=n, seed=11)
    weights = _reference_draws(len(evaluation.doc_ids), n, 11)
    from spacy_anno_eval.spans.counts import count_pairs_by_doc_and_type

    by_doc_type = count_pairs_by_doc_and_type(evaluation.alignment, len(evaluation.doc_ids))
    per_label = {lab: [] for lab in evaluation.labels}
    macro = []
    for w in weights:
        sums = np.tensordot(w, by_doc_type, axes=1)
        figures = gate_prf(sums)["lenient"]["r"]
        present = sums.any(axis=1)
        macro.append(figures[present].mean())
        for t, lab in enumerate(evaluation.labels):
            per_label[lab].append(figures[t])
    assert got.interval("macro_types", "lenient", "r") == pytest.approx(tuple(np.quantile(macro, [0.025, 0.975])))
    for lab, values in per_label.items():
        assert got.interval("per_type", "lenient", "r", label=lab) == \
            pytest.approx(tuple(np.quantile(values, [0.025, 0.975])))


def test_the_interval_holds_the_observed_figure_and_narrows_with_confidence(evaluation):
    report = evaluation.report()
    wide = bootstrap_intervals(evaluation, n_samples=500, seed=1, confidence=0.99)
    narrow = bootstrap_intervals(evaluation, n_samples=500, seed=1, confidence=0.5)
    for measure in ("strict", "lenient", "average"):
        low, high = wide.interval("micro", measure, "f")
        assert low <= report["micro"][measure]["f"] <= high
        n_low, n_high = narrow.interval("micro", measure, "f")
        assert low <= n_low <= n_high <= high and (n_high - n_low) < (high - low)


def test_seeded_the_same_and_another_seed_differs(evaluation):
    a = bootstrap_intervals(evaluation, n_samples=200, seed=5).to_dict()
    assert a == bootstrap_intervals(evaluation, n_samples=200, seed=5).to_dict()
    assert a != bootstrap_intervals(evaluation, n_samples=200, seed=6).to_dict()
    assert a["per_type"].keys() == set(LABELS) and a["left_out"] == []
    assert a["micro"]["strict"]["f"][0] <= a["micro"]["strict"]["f"][1]


def test_without_pairs_only_micro_and_macro_docs_and_it_says_so(evaluation):
    got = bootstrap_intervals(evaluation.without_pairs(), n_samples=100, seed=2)
    out = got.to_dict()
    assert "per_type" not in out and "macro_types" not in out
    assert "keeps no pairs" in out["left_out"][0]
    assert got.interval("micro") == bootstrap_intervals(evaluation, n_samples=100, seed=2).interval("micro")
    with pytest.raises(ConfigError, match="no intervals for 'per_type'; these have them: micro, macro_docs"):
        got.interval("per_type", label="PER")


@pytest.mark.parametrize("bad", [{"n_samples": 0}, {"n_samples": 2.5}, {"n_samples": True},
                                 {"confidence": 1.0}, {"confidence": float("nan")}, {"confidence": 0}])
def test_bad_sample_counts_and_confidences_are_refused(evaluation, bad):
    with pytest.raises(ConfigError, match="samples|confidence"):
        bootstrap_intervals(evaluation, **bad)


def test_names_that_match_nothing_are_refused_listing_what_exists(evaluation):
    got = bootstrap_intervals(evaluation, n_samples=50)
    with pytest.raises(ConfigError, match="no type 'GPE'; the types are LOC, ORG, PER"):
        got.interval("per_type", label="GPE")
    with pytest.raises(ConfigError, match="strict, lenient, average"):
        got.interval("micro", "exact")
