"""Small holes in the contract (issue 26), each closed where the value is read: the CoNLL reader's ``sep``, the
``--dask`` address, the notes of iaa and gamma, gamma's late option checks, and the same file given as key and
response."""

from __future__ import annotations

from pathlib import Path

import pytest

from spacy_anno_eval import read_corpus
from spacy_anno_eval.errors import ConfigError


def conll(path: Path) -> Path:
    path.write_text("Ada\tB-PER\nmet\tO\nBob\tB-PER\n\n", encoding="utf-8")
    return path


# -- the CoNLL reader's sep ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("sep", ["", "\n", "\r\n", 5])
def test_conll_reader_refuses_a_sep_that_delimits_nothing(tmp_path, sep):
    """An empty separator used to mean 'any whitespace', silently."""
    with pytest.raises(ConfigError, match=r"is no column delimiter; give a delimiter such as a tab .* or None"):
        read_corpus(conll(tmp_path / "t.conll"), format="conll", sep=sep)


def test_conll_reader_refuses_an_empty_sep_when_read_in_chunks_too(tmp_path):
    from spacy_anno_eval.workflows.stream import score_shards

    path = conll(tmp_path / "t.conll")
    with pytest.raises(ConfigError, match="is no column delimiter"):
        score_shards(path, path, docs_per_chunk=1, reader_options={"sep": ""})


def test_conll_reader_still_takes_a_tab_or_no_sep(tmp_path):
    path = conll(tmp_path / "t.conll")
    for sep in ("\t", None):
        corpus = read_corpus(path, format="conll", sep=sep)
        assert corpus.texts == ["Ada met Bob"] and len(corpus.sets["ents"]) == 2
