"""A DocBin's texts counted for GATE's false-positive rate without being built: the same counts as the text rule
(:func:`spacy_anno_eval.spans.units.count_tokens`) on the built texts, including word runs split across tokens
without a space (``do`` + ``n't``), whitespace tokens, empty documents and an empty token (which falls back)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from spacy_anno_eval.io.docbin import LazyTexts
from spacy_anno_eval.spans.units import _WORD, count_tokens, text_tokens

POOL = ["do", "n't", "a", "-", "b", "Obama", ",", "  ", "\n", "é", "😀", "x1", ".", "'s", "US$", ""]


@pytest.mark.parametrize("seed", range(4))
def test_counts_from_tokens_equal_counts_of_the_built_texts(seed):
    rng = random.Random(seed)
    for trial in range(800):
        pool = POOL if trial % 5 == 0 else POOL[:-1]
        lens = [rng.randint(0, 6) for _ in range(rng.randint(1, 5))]
        starts = np.concatenate(([0], np.cumsum(lens)))
        idx = np.array([rng.randrange(len(pool)) for _ in range(starts[-1])], dtype=np.int64)
        spaces = np.array([rng.random() < 0.5 for _ in range(starts[-1])], dtype=bool)
        texts = LazyTexts(pool, idx, spaces, starts)
        assert text_tokens(texts).tolist() == [count_tokens(t) for t in texts]


def test_split_word_counts_once():
    texts = LazyTexts(["do", "n't", "Obama"], np.array([0, 1, 2]), np.array([False, True, False]),
                      np.array([0, 3]))
    assert list(texts) == ["don't Obama"] and texts.token_counts(count_tokens, _WORD).tolist() == [4]
