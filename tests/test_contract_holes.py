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


# -- the --dask address --------------------------------------------------------------------------------------------

DASK_COMMANDS = {  # every command with --dask, its inputs missing: the address must be refused before any work
    "score": ["missing-key.jsonl", "missing-response.jsonl"],
    "qa": ["missing-key.jsonl", "missing-response.jsonl"],
    "agreement": ["missing.csv", "--bootstrap", "10"],
    "iaa": ["missing.spacy", "--measure", "kappa", "--bootstrap", "10"],
    "gamma": ["missing.csv"],
    "benchmark": ["default", "missing-folder"],
}


def invoke(args: list) -> object:
    from typer.testing import CliRunner

    from spacy_anno_eval.cli.app import app

    return CliRunner().invoke(app, [str(a) for a in args])


@pytest.mark.parametrize("command", sorted(DASK_COMMANDS))
@pytest.mark.parametrize("address", ["garbage", "tcp://", "host", "local:0", "local:x", "h:0", "ftp://h:8786"])
def test_a_bad_dask_address_is_exit_2_in_one_line_before_any_work(command, address):
    result = invoke([command, *DASK_COMMANDS[command], "--dask", address])
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"anno-eval: error: --dask {address!r}")
    assert "local:N" in lines[0] and "host:port" in lines[0] and "missing" not in lines[0]


@pytest.mark.parametrize("address", ["local:1", "local:16", "h:8786", "tcp://10.0.0.5:8786", "tls://h:1",
                                     "[::1]:8786", "tcp://[::1]:8786", "ws://sched.example.org:8786"])
def test_dask_addresses_distributed_connects_to_are_accepted(address):
    from spacy_anno_eval.cluster import check_scheduler

    assert check_scheduler(address) == address


@pytest.mark.parametrize("address", ["garbage", "", "local:", "tcp://h", "h:99999", "h:1/", " h:1", 5])
def test_the_python_api_refuses_a_bad_dask_address_too(address):
    from spacy_anno_eval.cluster import dask_client

    with pytest.raises(ConfigError, match="give local:N"), dask_client(address):
        pass
