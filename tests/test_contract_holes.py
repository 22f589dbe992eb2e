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


# -- notes: after success, never under -q; a failing command prints its error line only ---------------------------


def two_annotators(path: Path) -> Path:
    """A DocBin whose two documents both annotators annotated (spans:a, spans:b): no coverage warning."""
    import spacy
    from spacy.tokens import DocBin, Span

    nlp = spacy.blank("en")
    docs = []
    for i, (text, a, b) in enumerate([("Ada met Bob in Paris .", [(0, 1, "PER"), (2, 3, "PER")],
                                       [(0, 1, "PER"), (4, 5, "LOC")]),
                                      ("Carl saw Dana .", [(0, 1, "PER")], [(0, 1, "PER"), (2, 3, "PER")])]):
        doc = nlp(text)
        doc.user_data["doc_id"] = f"d{i}"
        doc.spans["a"] = [Span(doc, s, e, label) for s, e, label in a]
        doc.spans["b"] = [Span(doc, s, e, label) for s, e, label in b]
        docs.append(doc)
    DocBin(docs=docs, store_user_data=True).to_disk(path)
    return path


NOTED = {  # command -> its arguments after the corpus, and the note it gives without --sets
    "iaa": ([], "note: comparing the 2 annotator sets of"),
    "gamma": (["--samples", "5"], "note: comparing the annotator sets spans:a, spans:b"),
}


@pytest.mark.parametrize("command", sorted(NOTED))
def test_quiet_prints_nothing_on_success_not_even_the_sets_note(tmp_path, command):
    args, _ = NOTED[command]
    result = invoke([command, two_annotators(tmp_path / "ex.spacy"), *args, "-q"])
    assert result.exit_code == 0, result.output
    assert result.stdout == "" and result.stderr == ""


@pytest.mark.parametrize("command", sorted(NOTED))
def test_the_sets_note_comes_after_the_tables_when_the_command_succeeds(tmp_path, command):
    args, note = NOTED[command]
    result = invoke([command, two_annotators(tmp_path / "ex.spacy"), *args])
    assert result.exit_code == 0, result.output
    assert result.stdout.strip() and result.stderr.strip().splitlines()[-1].startswith(note)


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full (a device whose writes fail)")
@pytest.mark.parametrize("command", sorted(NOTED))
def test_a_command_that_fails_after_choosing_the_sets_prints_one_line(tmp_path, command):
    args, _ = NOTED[command]
    result = invoke([command, two_annotators(tmp_path / "ex.spacy"), *args, "--json", "/dev/full"])
    assert result.exit_code == 2, result.output
    assert result.stderr.strip().splitlines() == [result.stderr.strip()]
    assert result.stderr.startswith("anno-eval: error: cannot write /dev/full")


# -- gamma: every option checked before the random continua ----------------------------------------------------------


def units_csv(path: Path) -> Path:
    path.write_text("a,X,10,20\na,Y,40,60\nb,X,12,20\nb,Y,40,58\n", encoding="utf-8")
    return path


@pytest.fixture
def no_sampling(monkeypatch):
    """gamma's long work (the best alignment, the random continua) made to fail: an error that comes from an
    option must come before it."""
    import spacy_anno_eval.gamma.measure as measure

    def long_work(*args, **kwargs):
        raise AssertionError("gamma aligned or sampled before the options were checked")

    monkeypatch.setattr(measure, "best_alignment", long_work)
    monkeypatch.setattr(measure, "_run_samples", long_work)


@pytest.mark.parametrize(("args", "message"), [
    (["--ualpha", "--extent", "0,50"], "lies outside the extent [0, 50)"),  # a unit at [40, 60)
    (["--ualpha", "--extent", "abc"], "--extent 'abc': expected BEGIN,END"),
    (["--ualpha", "--extent", "nan,50"], "--extent 'nan,50': expected BEGIN,END, two whole numbers"),
    (["--ualpha", "--extent", "50,0"], "--extent '50,0': expected BEGIN,END, two whole numbers with BEGIN < END"),
    (["--ualpha", "--extent", "0.5,100"], "--extent '0.5,100': expected BEGIN,END, two whole numbers"),
    (["--extent", "0,100"], "--extent is the stretch --ualpha compares"),
    (["--jobs", "0"], "n_jobs (--jobs) must be a whole number >= 1, or -1"),
    (["--samples", "50", "--max-samples", "10"], "max_samples (--max-samples) must be a whole number >= n_samples"),
])
def test_gamma_options_are_checked_before_sampling(tmp_path, no_sampling, args, message):
    result = invoke(["gamma", units_csv(tmp_path / "u.csv"), *args, "-q"])
    assert result.exit_code == 2, result.output
    assert message in result.stderr and len(result.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("args", [["--extent", "0,100"], ["--ualpha", "--extent", "abc"], ["--jobs", "-2"]])
def test_gamma_options_are_checked_before_reading(tmp_path, args):
    result = invoke(["gamma", tmp_path / "missing.csv", *args])
    assert result.exit_code == 2 and "missing.csv" not in result.stderr, result.stderr


def test_gamma_with_ualpha_and_a_covering_extent_still_reports_both(tmp_path):
    import json

    out = tmp_path / "g.json"
    result = invoke(["gamma", units_csv(tmp_path / "u.csv"), "--ualpha", "--extent", "0,100", "--samples", "5",
                     "--json", out, "-q"])
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["unitizing_alpha"]["extent"] == [0, 100] and data["gamma"] is not None


# -- the same file given as key and response -----------------------------------------------------------------------

SAME_WARNING = "are the same file"


def rel_jsonl(path: Path) -> Path:
    """A Prodigy rel.manual line: two PER spans and a relation between them."""
    import json

    row = {"text": "Ada met Bob in Paris .", "meta": {"id": "d0"},
           "spans": [{"start": 0, "end": 3, "label": "PER"}, {"start": 8, "end": 11, "label": "PER"},
                     {"start": 15, "end": 20, "label": "LOC"}],
           "relations": [{"head": 0, "child": 2, "label": "MET", "head_span": {"start": 0, "end": 3},
                          "child_span": {"start": 8, "end": 11}}]}
    path.write_text(json.dumps(row) + "\n", encoding="utf-8")
    return path


def bio(path: Path) -> Path:
    path.write_text("Ada B-PER\nmet O\nBob B-PER\n\n", encoding="utf-8")
    return path


SAME_INPUT_COMMANDS = {  # command -> (how its two inputs are written, its other arguments, the warning's names)
    "score": (rel_jsonl, [], "the key and the response"),
    "qa": (rel_jsonl, [], "the key and the response"),
    "align": (rel_jsonl, [], "the key and the response"),
    "relations": (rel_jsonl, [], "the key and the response"),
    "noisy": (bio, [], "the gold and the prediction"),
}


def second_path(first: Path, how: str) -> Path:
    """The same file again: the same path, a symlink to it, or a hard link to it."""
    import os

    if how == "same path":
        return first
    other = first.with_name(f"other{first.suffix}")
    (os.symlink if how == "symlink" else os.link)(first, other)
    return other


@pytest.mark.parametrize("how", ["same path", "symlink", "hard link"])
@pytest.mark.parametrize("command", sorted(SAME_INPUT_COMMANDS))
def test_the_same_file_as_key_and_response_warns_that_every_figure_will_be_perfect(tmp_path, command, how):
    write, args, names = SAME_INPUT_COMMANDS[command]
    key = write(tmp_path / f"key{'.bio' if write is bio else '.jsonl'}")
    response = second_path(key, how)
    result = invoke([command, key, response, *args, "-q"])
    assert result.exit_code == 0, result.output
    shown = str(key) if response == key else f"{key} and {response}"
    assert [line for line in result.stderr.splitlines() if SAME_WARNING in line] == [
        f"anno-eval: warning: {names} are the same file ({shown}); every figure will be perfect"]


@pytest.mark.parametrize("command", sorted(SAME_INPUT_COMMANDS))
def test_two_files_with_the_same_content_do_not_warn(tmp_path, command):
    write, args, _ = SAME_INPUT_COMMANDS[command]
    suffix = ".bio" if write is bio else ".jsonl"
    result = invoke([command, write(tmp_path / f"key{suffix}"), write(tmp_path / f"copy{suffix}"), *args, "-q"])
    assert result.exit_code == 0, result.output
    assert SAME_WARNING not in result.stderr


def test_two_sets_of_one_file_do_not_warn(tmp_path):
    """conlleval's 'token gold guess' file compares two columns of one file: a legitimate comparison."""
    path = tmp_path / "two.conll"
    path.write_text("Ada B-PER B-PER\nmet O B-PER\n\n", encoding="utf-8")
    result = invoke(["score", path, path, "--key-set", "column:1", "--response-set", "column:2", "-q"])
    assert result.exit_code == 0, result.output
    assert SAME_WARNING not in result.stderr
    same = invoke(["score", path, path, "--key-set", "column:2", "--response-set", "column:2", "-q"])
    assert SAME_WARNING in same.stderr


def test_a_failing_command_on_the_same_file_prints_only_its_error(tmp_path):
    key = rel_jsonl(tmp_path / "key.jsonl")
    result = invoke(["score", key, key, "--types", "NOPE"])
    assert result.exit_code == 2
    assert len(result.stderr.strip().splitlines()) == 1 and SAME_WARNING not in result.stderr


def test_warn_same_input_names_a_folder_and_a_glob(tmp_path):
    import warnings

    from spacy_anno_eval.cli.app import warn_same_input
    from spacy_anno_eval.errors import SameInputWarning

    with pytest.warns(SameInputWarning, match=r"the key and the response are the same folder"):
        assert warn_same_input(tmp_path, tmp_path / ".")
    with pytest.warns(SameInputWarning, match=r"same file \(shards/\*\.jsonl\)"):
        assert warn_same_input("shards/*.jsonl", "shards/*.jsonl")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert not warn_same_input(tmp_path, tmp_path, "spans:a", "spans:b")
        assert not warn_same_input(tmp_path / "a", tmp_path / "b")
        assert not warn_same_input(None, tmp_path)
