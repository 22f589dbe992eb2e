"""Breakdowns by bucket (issue 28, item 5): each bucket's figures from the one alignment, on the sentence with
one decision of each kind; partitions that add up; intervals from the same per-document counts."""

from __future__ import annotations

import numpy as np
import pytest

from spacy_anno_eval.annotations.table import Corpus, SpanTable
from spacy_anno_eval.errors import ConfigError
from spacy_anno_eval.resampling.intervals import bucket_intervals
from spacy_anno_eval.samples import SAMPLES_PER_BLOCK, block_rng, block_sizes, document_weights
from spacy_anno_eval.spans.buckets import FEATURES, bucket_figures
from spacy_anno_eval.spans.engine import evaluate

from .one_of_each import KEY, RESPONSE, corpus


@pytest.fixture
def evaluation():
    return evaluate(corpus(KEY), corpus(RESPONSE))


def by_feature(evaluation, **kw):
    return {b.feature: b for b in evaluation.buckets(**kw)}


def test_label_buckets_count_each_side_under_its_own_label(evaluation):
    label = by_feature(evaluation)["label"].figures()
    # PER keys: Ada (correct), Charles Babbage (label error: a miss), Mary Somerville (missing)
    assert label["PER"]["key"] == 3 and label["PER"]["strict"]["r"] == pytest.approx(1 / 3)
    # PER responses: Ada (correct), Byron (spurious)
    assert label["PER"]["response"] == 2 and label["PER"]["strict"]["p"] == pytest.approx(1 / 2)
    # LOC: key London only overlaps "in London" (lenient hit, strict miss); responses Charles Babbage (a false
    # alarm), in London (lenient hit), on Monday (overlap with another label: a false alarm)
    assert label["LOC"]["strict"]["r"] == 0 and label["LOC"]["lenient"]["r"] == 1
    assert label["LOC"]["response"] == 3 and label["LOC"]["lenient"]["p"] == pytest.approx(1 / 3)
    assert label["DATE"]["key"] == 1 and label["DATE"]["response"] == 0 and label["DATE"]["lenient"]["r"] == 0


def test_span_length_buckets_count_tokens(evaluation):
    length = by_feature(evaluation)["span_length"].figures()
    assert [length[n]["key"] for n in ("1", "2", "3", "4+")] == [2, 3, 0, 0]      # London, Monday / 2 names + Mary
    assert [length[n]["response"] for n in ("1", "2", "3", "4+")] == [1, 4, 0, 0]  # Byron / the rest


def test_every_feature_partitions_both_sides_and_the_hits(evaluation):
    counts = evaluation.decision_counts()["micro"]
    for b in evaluation.buckets(train={"Ada Lovelace": {"PER": 6}, "London": {"LOC": 1, "GPE": 1}}):
        total = b.counts.sum(axis=(0, 1))
        assert total[0] == len(KEY) and total[3] == len(RESPONSE), b.feature
        assert total[1] == total[4] == counts["correct"], b.feature
        assert total[2] == total[5] == counts["correct"] + counts["boundary_error"], b.feature


def test_training_frequency_and_label_consistency(evaluation):
    train = {"Ada Lovelace": {"PER": 6}, "London": {"LOC": 1, "GPE": 1}, "Charles Babbage": {"ORG": 2}}
    got = by_feature(evaluation, train=train)
    freq = got["train_frequency"].figures()
    assert freq["frequent"]["key"] == 1 and freq["rare"]["key"] == 2 and freq["unseen"]["key"] == 2
    assert freq["frequent"]["strict"]["f"] == 1.0
    cons = got["label_consistency"].figures()
    assert (cons["1"]["key"], cons["mixed"]["key"], cons["0"]["key"], cons["unseen"]["key"]) == (1, 1, 1, 2)
    assert cons["0"]["response"] == 1  # the LOC response "Charles Babbage" is seen only as ORG: consistency 0
    assert got["label_consistency"].names == ("unseen", "0", "mixed", "1")


def _docs(n_docs: int, seed: int):
    rng = np.random.default_rng(seed)
    key, resp, texts = [], [], []
    for d in range(n_docs):
        words = int(rng.integers(3, 40))
        texts.append(" ".join(["w"] * words))
        spans = [(2 * j, 2 * j + 1) for j in range(0, words, 3) if rng.random() < 0.5]
        key += [(d, s, e) for s, e in spans]
        resp += [(d, s, e) for s, e in spans if rng.random() < 0.7] + [(d, 0, 1)] * int(rng.random() < 0.3 and
                                                                                          (0, 1) not in spans)

    def table(rows):
        return SpanTable([r[0] for r in rows], [r[1] for r in rows], [r[2] for r in rows], [0] * len(rows), ["X"])

    ids = [f"d{i}" for i in range(n_docs)]
    return evaluate(Corpus(ids, texts, {"ents": table(key)}), Corpus(ids, texts, {"ents": table(resp)}))


def test_document_buckets_cut_at_quartiles():
    ev = _docs(40, 3)
    doc_length = by_feature(ev)["doc_length"]
    assert 2 <= len(doc_length.names) <= 4
    docs_per_bucket = np.zeros(len(doc_length.names), dtype=int)
    tokens = np.array([len(t.split()) for t in ev.texts])
    for b, name in enumerate(doc_length.names):
        lo, _, hi = name.partition("–")
        members = (tokens >= int(lo)) & (tokens <= int(hi or lo))
        docs_per_bucket[b] = members.sum()
        assert doc_length.counts[~members, b].sum() == 0, name  # no document of another length counts here
    assert docs_per_bucket.sum() == 40  # every document sits in exactly one bucket
    assert docs_per_bucket.max() <= 40 // 4 + 6  # about a quarter each (ties at the edges move a few)


def test_bucket_intervals_equal_a_plain_bootstrap_of_the_same_draws():
    ev = _docs(60, 5)
    buckets = by_feature(ev)["density"]
    n = 300
    got = bucket_intervals(buckets, n_samples=n, seed=4, confidence=0.9)
    draws = np.concatenate([document_weights(block_rng(4, i), 60, size)
                            for i, size in enumerate(block_sizes(n, SAMPLES_PER_BLOCK))])
    for b, name in enumerate(buckets.names):
        values = [bucket_figures(np.tensordot(w, buckets.counts[:, b], axes=1))[0, 2] for w in draws]
        assert got[name]["strict"]["f"] == pytest.approx(list(np.quantile(values, [0.05, 0.95])), abs=1e-12)
        observed = buckets.figures()[name]["strict"]["f"]
        assert got[name]["strict"]["f"][0] <= observed <= got[name]["strict"]["f"][1]


def test_unknown_features_and_training_features_without_training_data_are_refused(evaluation):
    with pytest.raises(ConfigError, match="unknown bucket feature.*'length'.*span_length, label"):
        evaluation.buckets(features=["length"])
    with pytest.raises(ConfigError, match="need a training corpus"):
        evaluation.buckets(features=["train_frequency"])
    assert [b.feature for b in evaluation.buckets()] == [f for f in FEATURES if not f.startswith(("train", "label_c"))]
    with pytest.raises(ConfigError, match="keeps no pairs"):
        evaluation.without_pairs().buckets()
