"""Both DocBin paths name documents by the one doc-id rule (DESIGN.md, invariant 2).

The fast path decodes ``user_data`` from the wire format itself and the spaCy path builds Docs; each must give
:func:`spacy_anno_eval.annotations.docs.doc_id`'s ids: ``doc_id``, else ``id``, else the position in the
corpus, counted across shards.
"""

from __future__ import annotations

import pytest
import spacy
from spacy.tokens import DocBin

from spacy_anno_eval.annotations.docs import doc_id
from spacy_anno_eval.io.docbin import docbin_files, read_docbin
from spacy_anno_eval.io.docbin_wire import decode_shards

USER_DATA = [{"doc_id": "a", "id": "ignored"}, {"id": 7}, {}, {"other": 1}, {"doc_id": "e"}]


def _docs(nlp):
    docs = []
    for k, data in enumerate(USER_DATA):
        doc = nlp(f"Document number {k} here .")
        doc.ents = [doc.char_span(0, 8, label="X")]
        doc.user_data.update(data)
        docs.append(doc)
    return docs


@pytest.fixture
def shards(tmp_path):
    """The five documents in two shards (3 + 2), so that positions count across shards."""
    nlp = spacy.blank("en")
    docs = _docs(nlp)
    folder = tmp_path / "shards"
    folder.mkdir()
    DocBin(docs=docs[:3], store_user_data=True).to_disk(folder / "0.spacy")
    DocBin(docs=docs[3:], store_user_data=True).to_disk(folder / "1.spacy")
    return folder, [doc_id(d, i) for i, d in enumerate(docs)]


@pytest.mark.parametrize("fast", [True, False], ids=["fast path", "spaCy path"])
def test_docbin_ids_follow_the_one_rule_on_both_paths(shards, fast):
    folder, expected = shards
    assert expected == ["a", "7", "2", "3", "e"]
    assert decode_shards(docbin_files(folder)) is not None  # the fast path can read these shards
    assert read_docbin(folder, fast=fast).doc_ids == expected


def test_a_docbin_without_user_data_is_named_by_positions_on_both_paths(tmp_path):
    nlp = spacy.blank("en")
    path = tmp_path / "plain.spacy"
    DocBin(docs=_docs(nlp)[:3], store_user_data=False).to_disk(path)
    assert read_docbin(path, fast=True).doc_ids == read_docbin(path, fast=False).doc_ids == ["0", "1", "2"]
