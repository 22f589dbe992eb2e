"""Evaluations merge exactly and only when made alike; whether they keep their pairs is explicit
(spacy_anno_eval.spans.counts.Evaluation: concat, merge, has_pairs, without_pairs)."""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pytest

from spacy_anno_eval.annotations.table import Corpus, SpanTable
from spacy_anno_eval.errors import ConfigError
from spacy_anno_eval.spans.counts import N_FIELDS, Evaluation
from spacy_anno_eval.spans.engine import evaluate

LABELS = ["LOC", "PER"]


def corpus(texts: list[str], spans: list[tuple[int, int, int, str]], sets: tuple[str, ...] = ("ents",)) -> Corpus:
    def col(i: int) -> np.ndarray:
        return np.array([x[i] for x in spans], dtype=np.int64)

    label = np.array([LABELS.index(x[3]) for x in spans], dtype=np.int64)
    # the first annotation carries a kb_id: a feature no annotation carries would be refused (names are checked)
    table = SpanTable(col(0), col(1), col(2), label, LABELS, [{"kb_id": "Q1"}] + [{} for _ in spans[1:]])
    return Corpus([f"d{i}" for i in range(len(texts))], texts, {s: table for s in sets})


KEY = corpus(["Ann met Bob in Rome.", "Rome is big."], [(0, 0, 3, "PER"), (0, 8, 11, "PER"), (0, 15, 19, "LOC"),
                                                         (1, 0, 4, "LOC")], sets=("ents", "gold"))
RESPONSE = corpus(["Ann met Bob in Rome.", "Rome is big."], [(0, 0, 3, "PER"), (0, 8, 10, "PER"),
                                                              (0, 15, 19, "PER")], sets=("ents", "gold"))


def ev(**settings: Any) -> Evaluation:
    return evaluate(KEY, RESPONSE, **settings)


class Credit:
    """A toy credit rule: counts the pairs; its sums merge by addition."""

    name = "toy"

    def __init__(self, tag: str = "a") -> None:
        self.tag = tag

    def accumulate(self, pairs: Any) -> ToySum:
        return ToySum(len(pairs), self.tag)


class ToySum:
    name = "toy"

    def __init__(self, n: int, tag: str) -> None:
        self.n, self.tag = n, tag

    @property
    def settings(self) -> dict[str, Any]:
        return {"tag": self.tag}

    def merge(self, other: ToySum) -> ToySum:
        return ToySum(self.n + other.n, self.tag)

    def report(self, beta: float, zero_division: float) -> dict[str, Any]:
        return {"pairs": self.n, "beta": beta}


@pytest.mark.parametrize("setting, a, b", [
    ("types", ["PER"], ["PER", "LOC"]),
    ("beta", 1.0, 2.0),
    ("zero_division", 0.0, 1.0),
    ("pairing", "optimal", "gate"),
    ("features", None, ["kb_id"]),
    ("min_overlap", 0.0, 50.0),
    ("key_set", "ents", "gold"),
    ("response_set", "ents", "gold"),
])
def test_merge_refuses_each_differing_setting(setting, a, b):
    first, second = ev(**{setting: a}), ev(**{setting: b})
    with pytest.raises(ConfigError, match=re.escape(f"{setting} is {a!r} in evaluation 0 but {b!r} in evaluation 1")):
        first.merge(second)
    with pytest.raises(ConfigError, match=rf"{setting} is .* in evaluation 0 but .* in evaluation 2"):
        Evaluation.concat([first, first, second])
    assert first.merge(ev(**{setting: a})).settings == first.settings  # the same setting merges


def test_merge_refuses_a_differing_credit():
    with pytest.raises(ConfigError, match="credit is 'toy' in evaluation 0 but None"):
        ev(credit=Credit()).merge(ev())
    with pytest.raises(ConfigError, match="toy tag is 'a' in evaluation 0 but 'b'"):
        ev(credit=Credit("a")).merge(ev(credit=Credit("b")))


def test_merge_adds_credit_and_counts_and_reports_the_credit():
    one = ev(credit=Credit())
    merged = Evaluation.concat([one, one, one])
    assert merged.credit.n == 3 * one.credit.n == 3 * len(one.alignment)
    assert (merged.total == 3 * one.total).all()
    report = merged.report(beta=2.0, per_doc=False)
    assert report["toy"] == {"pairs": 3 * one.credit.n, "beta": 2.0}
    assert "toy" not in ev().report(per_doc=False)


def test_an_evaluation_without_documents_merges_with_anything():
    zeros = np.zeros((0, N_FIELDS), dtype=np.int64)
    empty = Evaluation([], [], zeros, zeros.copy(), None, {})
    one = ev(beta=2.0, credit=Credit())
    merged = Evaluation.concat([empty, one, empty])
    assert merged.settings == one.settings and merged.credit.n == one.credit.n
    assert merged.doc_ids == one.doc_ids


def test_pairs_kept_or_not_is_explicit():
    whole = ev()
    assert whole.has_pairs
    bare = whole.without_pairs()
    assert not bare.has_pairs and bare.texts is None
    assert whole.has_pairs and whole.texts is not None  # a new evaluation: the original keeps its pairs
    assert (bare.by_doc == whole.by_doc).all() and bare.report() == whole.report()
    assert len(whole.diff_rows()) == len(whole.alignment)
    for made_without in (bare, whole.merge(whole)):
        with pytest.raises(ConfigError, match=r"diff_rows .* made without them .* pass keep_pairs=True"):
            made_without.diff_rows()
        with pytest.raises(ConfigError, match="docs_with_pairs needs the pairs"):
            made_without.docs_with_pairs()
