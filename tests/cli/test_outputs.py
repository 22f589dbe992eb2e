"""The writing contract of every command (DESIGN.md, Contracts, "Writing"; issue 17, item 1).

Devices, FIFOs and ``-`` are written in place; symlinks are written through; a folder, an unwritable place or one
of the command's own inputs is refused before any work with exit 2 and one line naming it, the inputs left byte
for byte as they were; a write that fails is exit 2 with one line, never a traceback; the JSON is written before
anything is printed.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import os
import shutil
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from typer.testing import CliRunner

from spacy_anno_eval.cli.app import app

ROOT = Path(__file__).resolve().parents[2]
DEMO_KEY = ROOT / "assets" / "demo" / "key.jsonl"
DEMO_RESPONSE = ROOT / "assets" / "demo" / "response.jsonl"
runner = CliRunner()


def lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.strip()]


def one_error_line(result, *names: str) -> str:
    """The one line on stderr of a refused command, naming each of ``names``."""
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    (line,) = lines(result.stderr)
    assert line.startswith("anno-eval: error:"), line
    for name in names:
        assert name in line, line
    return line


def digests(folder: Path) -> dict[str, str]:
    """Every file under ``folder`` and its SHA-256: the inputs, before and after."""
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture
def demo(tmp_path: Path) -> tuple[Path, Path]:
    """Copies of the demo key and response (inputs the tests may try to overwrite)."""
    key, response = tmp_path / "key.jsonl", tmp_path / "response.jsonl"
    shutil.copy(DEMO_KEY, key)
    shutil.copy(DEMO_RESPONSE, response)
    return key, response


def score(*extra: object, key: Path = DEMO_KEY, response: Path = DEMO_RESPONSE):
    return runner.invoke(app, ["score", str(key), str(response), *map(str, extra)])


# -- what sits at the target decides how it is written --------------------------------------------------------------


def test_json_to_dev_null_keeps_the_device() -> None:
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)
    result = score("--json", "/dev/null", "-q")
    assert result.exit_code == 0, result.output
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)  # not replaced by a regular file (as root it could be)


def test_json_to_a_fifo_reaches_its_reader(tmp_path: Path) -> None:
    fifo = tmp_path / "report.pipe"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()), daemon=True)
    reader.start()
    result = score("--json", fifo, "-q")
    reader.join(30)
    if reader.is_alive():  # never opened for writing: release the reader
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
    assert result.exit_code == 0, result.output
    assert json.loads(got[0])["counts"]["correct"] == 29
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)
    assert [p.name for p in tmp_path.iterdir()] == ["report.pipe"]


def test_json_dash_prints_the_json_alone_on_stdout() -> None:
    result = score("--json", "-")  # no --quiet: the table must not spoil the JSON
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["counts"]["correct"] == 29
    assert not Path("-").exists()


def test_json_dev_stdout_prints_the_json(tmp_path: Path) -> None:
    """A real process: /dev/stdout is the pipe the caller reads (CliRunner cannot capture it)."""
    done = subprocess.run([sys.executable, "-m", "spacy_anno_eval", "score", str(DEMO_KEY), str(DEMO_RESPONSE),
                           "--json", "/dev/stdout"], capture_output=True, timeout=300, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["counts"]["correct"] == 29


def test_json_through_a_symlink_keeps_the_link(tmp_path: Path) -> None:
    real = tmp_path / "reports" / "latest.json"
    real.parent.mkdir()
    real.write_text("old", encoding="utf8")
    link = tmp_path / "report.json"
    link.symlink_to(real)
    result = score("--json", link, "-q")
    assert result.exit_code == 0, result.output
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert json.loads(real.read_text(encoding="utf8"))["counts"]["correct"] == 29
    assert [p.name for p in real.parent.iterdir()] == ["latest.json"]  # no temporary file left


# -- refused before any work -----------------------------------------------------------------------------------------


def test_json_to_a_folder_exits_2(tmp_path: Path) -> None:
    (tmp_path / "inside.txt").write_text("keep", encoding="utf8")
    line = one_error_line(score("--json", tmp_path, "-q"), str(tmp_path), "folder")
    assert "give a file path" in line
    assert [p.name for p in tmp_path.iterdir()] == ["inside.txt"]


def test_json_in_a_read_only_folder_exits_2(tmp_path: Path) -> None:
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o555)
    try:
        if os.access(folder, os.W_OK):
            pytest.skip("this user (root) writes into read-only folders")
        one_error_line(score("--json", folder / "r.json", "-q"), str(folder), "not writable")
        assert list(folder.iterdir()) == []
    finally:
        folder.chmod(0o755)


def test_an_output_in_a_folder_that_cannot_be_made_exits_2(tmp_path: Path, demo: tuple[Path, Path]) -> None:
    key, response = demo
    before = digests(tmp_path)
    result = runner.invoke(app, ["qa", str(key), str(response), "--html", str(key / "qa.html"), "-q"])
    one_error_line(result, str(key), "not a folder")
    assert digests(tmp_path) == before


def test_two_outputs_on_one_file_exit_2(tmp_path: Path) -> None:
    out = tmp_path / "r.txt"
    result = runner.invoke(app, ["qa", str(DEMO_KEY), str(DEMO_RESPONSE), "--json", str(out), "--md", str(out), "-q"])
    one_error_line(result, str(out), "same file")
    assert not out.exists()


def test_a_folder_output_that_is_a_file_exits_2(tmp_path: Path, demo: tuple[Path, Path]) -> None:
    key, response = demo
    blocker = tmp_path / "report"
    blocker.write_text("keep", encoding="utf8")
    before = digests(tmp_path)
    result = runner.invoke(app, ["align", str(key), str(response), "--report", str(blocker), "-q"])
    one_error_line(result, str(blocker), "it is a file")
    result = runner.invoke(app, ["iaa", str(key), "--sets", "ents;ents", "--html", str(blocker), "-q"])
    one_error_line(result, str(blocker), "it is a file")
    assert digests(tmp_path) == before


def _inputs(tmp_path: Path) -> dict[str, Path]:
    """One input file of each kind the commands read."""
    folder = tmp_path / "in"
    folder.mkdir()
    files = {"key": folder / "key.jsonl", "response": folder / "response.jsonl"}
    shutil.copy(DEMO_KEY, files["key"])
    shutil.copy(DEMO_RESPONSE, files["response"])
    files["table"] = folder / "table.csv"
    files["table"].write_text("a,b\nx,x\ny,x\n", encoding="utf8")
    files["taxonomy"] = folder / "tax.tsv"
    files["taxonomy"].write_text("PER\tENT\nORG\tENT\n", encoding="utf8")
    files["units"] = folder / "units.csv"
    files["units"].write_text("a,X,0,5\nb,X,0,6\n", encoding="utf8")
    files["bio"] = folder / "gold.bio"
    files["bio"].write_text("Ada B-PER\nLovelace I-PER\n", encoding="utf8")
    bench = folder / "bench"
    (bench / "clean").mkdir(parents=True)
    (bench / "marked").mkdir()
    files["marked"] = bench / "marked" / "docs.jsonl"
    shutil.copy(DEMO_KEY, files["marked"])
    files["bench"] = bench
    return files


# each command, with an output that is one of its inputs (the input named in the message)
OVER_AN_INPUT = {
    "score --json KEY": (["score", "{key}", "{response}", "--json", "{key}"], "key"),
    "score --json a symlink to KEY": (["score", "{key}", "{response}", "--json", "{link}"], "key"),
    "qa --md RESPONSE": (["qa", "{key}", "{response}", "--md", "{response}"], "response"),
    "qa --html KEY": (["qa", "{key}", "{response}", "--html", "{key}"], "key"),
    "adjudicate --out KEY": (["adjudicate", "{key}", "{response}", "--out", "{key}"], "key"),
    "agreement --json TABLE": (["agreement", "{table}", "--json", "{table}"], "table"),
    "iaa --json CORPUS": (["iaa", "{key}", "--sets", "ents;ents", "--json", "{key}"], "key"),
    "bdm --out TAXONOMY": (["bdm", "{taxonomy}", "--out", "{taxonomy}"], "taxonomy"),
    "bdm --json TAXONOMY": (["bdm", "{taxonomy}", "--out", "{tmp}/b.txt", "--json", "{taxonomy}"], "taxonomy"),
    "gamma --json SOURCE": (["gamma", "{units}", "--json", "{units}"], "units"),
    "noisy --json GOLD": (["noisy", "{bio}", "{bio}", "--json", "{bio}"], "bio"),
    "trees --diff KEY": (["trees", "{key}", "{response}", "--diff", "{key}"], "key"),
    "align --report a folder holding RESPONSE's name": (["align", "{key}", "{alignment}", "--report", "{in}"],
                                                         "alignment"),
    "relations --report a folder holding KEY's name": (["relations", "{alignment}", "{response}", "--report",
                                                         "{in}"], "alignment"),
    "iaa --html a folder inside the input folder": (["iaa", "{bench}", "--sets", "ents;ents", "--html",
                                                     "{bench}/matrix"], "bench"),
    "benchmark --json in marked/": (["benchmark", "default", "{bench}", "--json", "{marked}"], "marked"),
}


@pytest.mark.parametrize("case", list(OVER_AN_INPUT))
def test_an_output_over_an_input_exits_2_and_leaves_the_inputs(tmp_path: Path, case: str) -> None:
    args, victim = OVER_AN_INPUT[case]
    paths = {**_inputs(tmp_path), "tmp": tmp_path, "in": tmp_path / "in"}
    paths["link"] = tmp_path / "link.json"
    paths["link"].symlink_to(paths["key"])
    paths["alignment"] = tmp_path / "in" / "alignment.jsonl"
    shutil.copy(DEMO_RESPONSE, paths["alignment"])
    before = digests(tmp_path)
    result = runner.invoke(app, [a.format(**{k: str(v) for k, v in paths.items()}) for a in args])
    line = one_error_line(result, str(paths[victim]))
    assert "input" in line
    assert digests(tmp_path) == before  # byte for byte, and nothing new
    assert paths["link"].is_symlink()


# -- a write that fails: one line, never a traceback ----------------------------------------------------------------


def test_a_lone_surrogate_in_an_id_is_refused_when_read_naming_file_and_line(tmp_path: Path) -> None:
    """A lone surrogate cannot be written as UTF-8 nor held by spaCy: it is refused when the input is read
    (io.parse), naming the input, its line and the document, and nothing is written."""
    docs = [json.loads(line) for line in DEMO_KEY.read_text(encoding="utf8").splitlines()]
    docs[0]["meta"]["id"] = "d\udcff"
    key = tmp_path / "key.jsonl"
    key.write_text("".join(json.dumps(d) + "\n" for d in docs), encoding="utf8")  # "\udcff" escaped: valid JSON
    out = tmp_path / "r.json"
    line = one_error_line(score("--json", out, "-q", key=key, response=key), f"{key}, line 1", "\\udcff")
    assert "lone surrogate" in line
    assert [p.name for p in tmp_path.iterdir()] == ["key.jsonl"]  # no partial report, no temporary file


def test_a_failing_write_exits_2_naming_the_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A write that fails while the report is written (a full disk, a folder made read-only meanwhile)."""
    import spacy_anno_eval.files as files

    def full(*args: object, **kwargs: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(files.os, "fsync", full)
    out = tmp_path / "r.json"
    line = one_error_line(score("--json", out, "-q"), str(out), "No space left on device")
    assert line.startswith("anno-eval: error: cannot write")
    assert list(tmp_path.iterdir()) == []


# -- the JSON first ---------------------------------------------------------------------------------------------------


def _units(tmp_path: Path) -> Path:
    path = tmp_path / "units.csv"
    path.write_text("a,X,0,5\nb,X,0,6\na,Y,10,15\nb,Y,11,15\n", encoding="utf8")
    return path


def _table(tmp_path: Path) -> Path:
    path = tmp_path / "table.csv"
    path.write_text("a,b\nx,x\ny,x\ny,y\n", encoding="utf8")
    return path


# command -> (module and printer that crashes, the arguments)
PRINTERS = {
    "score": ("spacy_anno_eval.report.terminal", "print_report", lambda t: ["score", DEMO_KEY, DEMO_RESPONSE]),
    "qa": ("spacy_anno_eval.report.terminal", "print_report", lambda t: ["qa", DEMO_KEY, DEMO_RESPONSE]),
    "agreement": ("spacy_anno_eval.report.agreement_terminal", "summary_lines", lambda t: ["agreement", _table(t)]),
    "gamma": ("spacy_anno_eval.report.gamma_terminal", "gamma_lines",
              lambda t: ["gamma", _units(t), "--samples", "10"]),
}


@pytest.mark.parametrize("command", list(PRINTERS))
def test_the_json_is_written_before_anything_is_printed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                        command: str) -> None:
    module, printer, args = PRINTERS[command]

    def crash(*a: object, **k: object) -> None:
        raise RuntimeError("the table crashed")

    monkeypatch.setattr(importlib.import_module(module), printer, crash)
    out = tmp_path / "r.json"
    result = runner.invoke(app, [*map(str, args(tmp_path)), "--json", str(out)])
    assert result.exit_code == 3 and "the table crashed" in result.stderr
    assert json.loads(out.read_text(encoding="utf8"))
