"""The BDM corpus of the tests: a small taxonomy, and key/response shards whose responses often name a near
concept (the whole corpus beside them, and the taxonomy's BDM file)."""

from __future__ import annotations

import numpy as np
import pytest
import spacy
from spacy.tokens import Span

from spacy_anno_eval.bdm.distance import compute_bdm
from spacy_anno_eval.bdm.gatefile import write_bdm_file
from spacy_anno_eval.bdm.taxonomy import Taxonomy
from tests.shards import write_sharded

TREE = [("Person", "Thing"), ("Location", "Thing"), ("Politician", "Person"), ("Artist", "Person"),
        ("City", "Location"), ("Capital", "City"), ("Country", "Location"), ("Writer", "Artist"),
        ("Painter", "Artist"), ("Town", "City")]
# every concept of the taxonomy, and one it does not know (its near misses earn nothing and are listed)
CONCEPTS = ["Person", "Politician", "Artist", "Writer", "Painter", "City", "Capital", "Town", "Country",
            "Location", "Dancer"]
N_SHARDS, DOCS_PER_SHARD = 4, 15


@pytest.fixture(scope="module")
def scores():
    return compute_bdm(Taxonomy.from_edges(TREE, name="tree"))


@pytest.fixture(scope="module")
def corpus(tmp_path_factory, scores):
    """4 shards of 15 documents whose responses often name a near concept (same span or overlapping), the
    whole corpus, and the BDM file of the taxonomy."""
    nlp = spacy.blank("en")
    rng = np.random.default_rng(11)

    def near(label):
        return label if rng.random() < 0.35 else str(rng.choice(CONCEPTS))

    def pair(s, i):
        words = ["w"] * 30
        k, r = spacy.tokens.Doc(nlp.vocab, words=words), spacy.tokens.Doc(nlp.vocab, words=words)
        k.user_data["doc_id"] = r.user_data["doc_id"] = f"s{s}-d{i}"
        starts = sorted(rng.choice(28, 7, replace=False).tolist())
        labels = [str(rng.choice(CONCEPTS)) for _ in starts]
        k.ents = spacy.util.filter_spans([Span(k, a, a + 1 + int(rng.integers(0, 2)), lab)
                                          for a, lab in zip(starts, labels, strict=True)])
        kept = [(a, lab) for a, lab in zip(starts, labels, strict=True) if rng.random() < 0.85]
        r.ents = spacy.util.filter_spans([Span(r, a + int(rng.integers(0, 2)), a + 2, near(lab)) for a, lab in kept])
        return k, r

    folder = write_sharded(tmp_path_factory.mktemp("bdm_shards"),
                           ((pair(s, i) for i in range(DOCS_PER_SHARD)) for s in range(N_SHARDS)))
    write_bdm_file(scores, folder / "tree.bdm")
    return folder


