"""The exit codes of DESIGN.md (Contracts), decided in one place for every command: 2 bad input or setting (one
line), 3 internal error (one line; the traceback with --debug), never a crash with 1."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from spacy_anno_eval.cli.app import app

ROOT = Path(__file__).resolve().parents[2]
DEMO_KEY = str(ROOT / "assets" / "demo" / "key.jsonl")
runner = CliRunner()


def lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.strip()]


@pytest.fixture
def broken_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    """The span engine raises a bug of its own (not a user's mistake)."""
    import spacy_anno_eval.spans.engine as engine

    def evaluate(*args: object, **kwargs: object) -> None:
        raise RuntimeError("boom\nsecond line")

    monkeypatch.setattr(engine, "evaluate", evaluate)


def test_an_internal_error_exits_3_with_one_line(broken_engine: None) -> None:
    result = runner.invoke(app, ["score", DEMO_KEY, DEMO_KEY, "-q"])
    assert result.exit_code == 3
    assert lines(result.stderr) == ["anno-eval: internal error: RuntimeError: boom; rerun with --debug"]
    assert "Traceback" not in result.output


def test_debug_prints_the_traceback(broken_engine: None) -> None:
    demo_response = DEMO_KEY.replace("key.jsonl", "response.jsonl")  # the same file twice would warn
    result = runner.invoke(app, ["--debug", "score", DEMO_KEY, demo_response, "-q"])
    assert result.exit_code == 3
    assert result.stderr.startswith("Traceback (most recent call last):")
    assert 'raise RuntimeError("boom\\nsecond line")' in result.stderr
    assert lines(result.stderr)[-1] == "anno-eval: internal error: RuntimeError: boom"


def test_a_plain_value_error_is_internal(monkeypatch: pytest.MonkeyPatch) -> None:
    """Only an AnnoEvalError is the user's mistake: a bare ValueError from inside is a bug (exit 3)."""
    import spacy_anno_eval.spans.engine as engine

    def evaluate(*args: object, **kwargs: object) -> None:
        raise ValueError("index out of step")

    monkeypatch.setattr(engine, "evaluate", evaluate)
    result = runner.invoke(app, ["score", DEMO_KEY, DEMO_KEY, "-q"])
    assert result.exit_code == 3 and "internal error: ValueError: index out of step" in result.stderr


def test_a_missing_file_the_user_did_not_give_is_internal(monkeypatch: pytest.MonkeyPatch) -> None:
    import spacy_anno_eval.spans.engine as engine

    def evaluate(*args: object, **kwargs: object) -> None:
        open("/nonexistent-anno-eval/package-data.css", encoding="utf8")

    monkeypatch.setattr(engine, "evaluate", evaluate)
    result = runner.invoke(app, ["score", DEMO_KEY, DEMO_KEY, "-q"])
    assert result.exit_code == 3 and "internal error: FileNotFoundError" in result.stderr


@pytest.mark.parametrize("args", [
    ["score", "{missing}", DEMO_KEY],
    ["agreement", "{missing}"],
    ["trees", "{missing}", "{missing}"],
    ["noisy", "{missing}", "{missing}"],
    ["bdm", "{missing}", "--out", "{tmp}/bdm.txt"],
    ["gamma", "{missing}"],
])
def test_a_missing_input_file_exits_2_naming_it(tmp_path: Path, args: list[str]) -> None:
    missing = tmp_path / "no-such-input.txt"
    result = runner.invoke(app, [a.format(missing=missing, tmp=tmp_path) for a in args])
    assert result.exit_code == 2, result.output
    (line,) = lines(result.stderr)
    assert line.startswith("anno-eval: error:") and "no-such-input.txt" in line


def test_an_input_that_is_a_folder_exits_2_naming_it(tmp_path: Path) -> None:
    folder = tmp_path / "a-folder.bio"
    folder.mkdir()
    result = runner.invoke(app, ["noisy", str(folder), str(folder)])
    assert result.exit_code == 2
    (line,) = lines(result.stderr)
    assert line.startswith("anno-eval: error:") and "a-folder.bio" in line


def test_an_input_that_is_not_utf8_exits_2_naming_it(tmp_path: Path) -> None:
    table = tmp_path / "latin1-table.csv"
    table.write_bytes("a,b\nCaf\xe9,1\n".encode("latin-1"))
    result = runner.invoke(app, ["agreement", str(table)])
    assert result.exit_code == 2
    (line,) = lines(result.stderr)
    assert line.startswith("anno-eval: error:") and "latin1-table.csv" in line


def test_an_output_in_a_folder_that_cannot_be_made_exits_2_naming_it(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("", encoding="utf8")
    target = blocker / "report.json"  # a folder that is a file
    result = runner.invoke(app, ["score", DEMO_KEY, DEMO_KEY, "-q", "--json", str(target)])
    assert result.exit_code == 2, result.output
    (line,) = lines(result.stderr)
    assert line.startswith("anno-eval: error:") and "a-file" in line


@pytest.mark.parametrize("args, hint", [
    (["score", DEMO_KEY, DEMO_KEY, "--pairing", "best"], "--pairing must be one of optimal, gate, got 'best'"),
    (["qa", DEMO_KEY, DEMO_KEY, "--pairing", "best"], "--pairing must be one of optimal, gate"),
    (["score", DEMO_KEY, DEMO_KEY, "--scheme", "IOB9"], "--scheme must be one of"),
    (["iaa", DEMO_KEY, "--sets", "a;b", "--measure", "alpha"], "--measure must be one of fmeasure, kappa"),
    (["agreement", DEMO_KEY, "--level", "cardinal"], "--level must be one of nominal, ordinal, interval, ratio"),
    (["gamma", DEMO_KEY, "--sampler", "urn"], "--sampler must be one of statistical, shuffle"),
    (["gamma", DEMO_KEY, "--categorical", "x"], "--categorical must be one of absolute, ordinal, numeric"),
    (["gamma", DEMO_KEY, "--empty-pairs", "x"], "--empty-pairs must be one of ignore, pygamma"),
    (["gamma", DEMO_KEY, "--unit", "word"], "--unit must be one of char, token"),
    (["align", DEMO_KEY, DEMO_KEY, "--level", "page"], "--level must be one of offset, section, order"),
    (["align", DEMO_KEY, DEMO_KEY, "--algorithm", "x"], "--algorithm must be one of optimal, greedy, dp"),
    (["align", DEMO_KEY, DEMO_KEY, "--match", "x"], "--match must be one of strict, inclusive"),
    (["relations", DEMO_KEY, DEMO_KEY, "--alignment", "x"], "--alignment must be one of strict, lenient"),
    (["relations", DEMO_KEY, DEMO_KEY, "--partial-entities", "x"], "--partial-entities must be one of partial"),
    (["benchmark", "restore", "."], "MODE must be one of store, marked-vs-stored"),
    (["benchmark", "default", ".", "--pairing", "x"], "--pairing must be one of optimal, gate"),
    (["score", DEMO_KEY, DEMO_KEY, "--format", "nosuchformat"], "use auto or one of bioc, brat, conll, docbin"),
    (["benchmark", "store", ".", "--predictions-format", "x"], "use auto or one of bioc, brat, conll, docbin"),
    (["qa", DEMO_KEY, DEMO_KEY, "--measures", "strict,loose"], "--measures takes a comma-separated list of"),
    (["score", DEMO_KEY, DEMO_KEY, "--chunk-docs", "0"], "--chunk-docs: input should be greater than or equal to 1"),
    (["agreement", DEMO_KEY, "--bootstrap", "-1"], "--bootstrap: input should be greater than or equal to 0"),
    (["score", DEMO_KEY], "Missing argument 'RESPONSE'"),
    (["score", DEMO_KEY, DEMO_KEY, "--no-such-option"], "No such option: --no-such-option"),
    (["no-such-command"], "No such command 'no-such-command'"),
])
def test_a_bad_setting_exits_2_with_one_line(args: list[str], hint: str) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2, result.output
    (line,) = lines(result.stderr)
    assert line.startswith("anno-eval: error: ") and hint in line


def test_a_choice_is_case_insensitive_where_the_reader_is(tmp_path) -> None:
    """--scheme takes bio as the CoNLL reader does (BIO is IOB2); a reader that takes no --scheme (JSONL)
    refuses it (names are checked: DESIGN.md, Contracts)."""
    conll = tmp_path / "k.conll"
    conll.write_text("Ada B-PER\nwrote O\n", encoding="utf8")
    result = runner.invoke(app, ["score", str(conll), str(conll), "--scheme", "bio", "-q"])
    assert result.exit_code == 0, result.output
    refused = runner.invoke(app, ["score", DEMO_KEY, DEMO_KEY, "--scheme", "bio", "-q"])
    assert refused.exit_code == 2 and "the jsonl reader takes no option 'scheme'" in refused.stderr


def test_no_arguments_prints_the_help() -> None:
    result = runner.invoke(app, [])
    assert result.exit_code == 2 and "Commands:" in result.stderr and "benchmark" in result.stderr


def test_version_exits_0() -> None:
    from spacy_anno_eval import __version__

    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0 and result.output.strip() == f"spacy-anno-eval {__version__}"
