"""The compiled token-column reader (annotations/_tokens.pyx) reads what Doc.to_array reads.

It reads spaCy's token structs directly, so it must be compiled against the running spaCy; the README's
install builds it (pyproject.toml names Cython, numpy and spaCy as build requirements). Without it every
reader falls back to ``Doc.to_array`` with the same result, only slower; ``ANNO_EVAL_PURE_PYTHON=1`` says
that a machine deliberately runs without it.
"""

from __future__ import annotations

import os

import numpy as np
import pytest
import spacy
from spacy.attrs import ENT_IOB, ENT_TYPE, IDX, LENGTH, ORTH
from spacy.tokens import Doc, Span
from spacy.training import Example

from spacy_anno_eval.annotations import docs as docs_module
from spacy_anno_eval.annotations.docs import compiled_reader, ent_token_columns, example_sets, spans_from_docs


def random_docs(seed: int, n: int = 60) -> list[Doc]:
    """Docs with entities, some tokens of missing annotation, some empty and some unannotated docs."""
    nlp = spacy.blank("en")
    rng = np.random.default_rng(seed)
    out = []
    for d in range(n):
        words = [f"w{int(rng.integers(0, 50))}é" for _ in range(int(rng.integers(0, 30)))]
        doc = Doc(nlp.vocab, words=words, spaces=[bool(rng.random() < 0.8) for _ in words])
        if words and d % 5:
            starts = sorted(set(rng.integers(0, len(words), 4).tolist()))
            ents = [Span(doc, s, min(s + int(rng.integers(1, 3)), len(words)), str(rng.choice(["PER", "LOC"])))
                    for s in starts]
            ents = spacy.util.filter_spans(ents)
            taken = {i for e in ents for i in range(e.start, e.end)}
            missing = [doc[i:i + 1] for i in range(len(words)) if i not in taken and rng.random() < 0.2]
            doc.set_ents(ents, missing=missing, default="outside")
        out.append(doc)
    return out


def by_to_array(docs: list[Doc]) -> tuple[np.ndarray, ...]:
    arrays = [d.to_array([ORTH, IDX, LENGTH, ENT_IOB, ENT_TYPE]).reshape(-1, 5) for d in docs]
    tok = np.concatenate(arrays).astype(np.uint64)
    starts = np.concatenate([[0], np.cumsum([len(a) for a in arrays])])
    return tok[:, 0], tok[:, 1].astype(np.int64), tok[:, 2].astype(np.int64), tok[:, 3].astype(np.uint8), \
        tok[:, 4], starts


@pytest.mark.skipif(os.environ.get("ANNO_EVAL_PURE_PYTHON") == "1", reason="runs without the compiled reader")
def test_the_install_built_the_compiled_reader_for_this_spacy():
    reader = compiled_reader()
    assert reader is not None, "spacy_anno_eval.annotations._tokens is missing or built for another spaCy"
    assert reader.SPACY_VERSION == spacy.about.__version__


@pytest.mark.parametrize("seed", range(4))
def test_compiled_columns_equal_to_array(seed):
    reader = compiled_reader()
    if reader is None:
        pytest.skip("no compiled reader")
    docs = random_docs(seed)
    ours, theirs = reader.ent_columns(docs), by_to_array(docs)
    for a, b in zip(ours, theirs, strict=True):
        np.testing.assert_array_equal(a, b)
        assert a.dtype == b.dtype or a.dtype.kind == b.dtype.kind
    with pytest.raises(TypeError):
        reader.ent_columns(["not a Doc"])


@pytest.mark.parametrize("seed", range(4))
def test_readers_give_the_same_tables_with_and_without_it(seed, monkeypatch):
    docs = random_docs(seed)
    preds = random_docs(seed + 100)
    examples = [Example(Doc(p.vocab, words=[t.text for t in r], spaces=[bool(t.whitespace_) for t in r]), r)
                for p, r in zip(preds, docs, strict=True)]
    for eg, p in zip(examples, preds, strict=True):
        n = min(len(eg.x), len(p))
        eg.x.set_ents([Span(eg.x, e.start, e.end, e.label_) for e in p.ents if e.end <= n])
    fast = spans_from_docs(docs), example_sets(examples), ent_token_columns(docs)
    monkeypatch.setattr(docs_module, "_COMPILED", None)
    assert compiled_reader() is None
    slow = spans_from_docs(docs), example_sets(examples), ent_token_columns(docs)
    for a, b in ((fast[0], slow[0]), (fast[1].key, slow[1].key), (fast[1].response, slow[1].response)):
        assert a.labels == b.labels
        for col in ("doc", "start", "end", "label"):
            np.testing.assert_array_equal(getattr(a, col), getattr(b, col))
    assert fast[1].ignored == slow[1].ignored and fast[1].n_docs == slow[1].n_docs
    for a, b in zip(fast[2], slow[2], strict=True):
        np.testing.assert_array_equal(a, b)
    assert len(fast[0]) > 50  # the documents hold entities
