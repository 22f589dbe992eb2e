"""The O(mentions) counts from the overlap table equal each metric's own definition (issue 29's speed work): on every
official case, on random documents, and after partial and head matching."""

from __future__ import annotations

import glob
import random
import warnings

import pytest

from spacy_anno_eval.coref.conll2012 import read_conll2012
from spacy_anno_eval.coref.metrics import direct_counts, document_counts
from tests.conftest import shared_file


def same(key, response):
    fast, slow = document_counts(key, response), direct_counts(key, response)
    assert fast.keys() == slow.keys()
    for metric in fast:
        assert fast[metric] == pytest.approx(slow[metric], abs=1e-12), metric


def test_every_official_case():
    folder = shared_file("coreference", "conll2012", "DataFiles")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for response in sorted(glob.glob(str(folder / "TC-*-*.response"))):
            key = response.rsplit("-", 1)[0] + ".key"
            for k, r in zip(read_conll2012(key), read_conll2012(response), strict=True):
                same(k.entities, r.entities)


@pytest.mark.parametrize("seed", range(40))
def test_random_documents(seed):
    rng = random.Random(seed)

    def partition(mentions):
        entities: dict[int, list] = {}
        for m in mentions:
            entities.setdefault(rng.randrange(max(1, len(mentions) // 2)), []).append(m)
        return list(entities.values())

    pool = [(i, i + rng.randrange(3)) for i in range(30)]
    key = partition(rng.sample(pool, rng.randrange(0, 25)))
    response = partition(rng.sample(pool, rng.randrange(0, 25)))
    same(key, response)
