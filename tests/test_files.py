"""The writer: atomic for files (whole or not at all, ordinary permissions), in place for devices, FIFOs and
standard output, through symlinks; folders, inputs and unwritable places refused (DESIGN.md, Contracts)."""

from __future__ import annotations

import os
import stat
import threading
from pathlib import Path

import pytest

from spacy_anno_eval import files
from spacy_anno_eval.errors import AnnoEvalError, ConfigError, InputError


def test_write_creates_parents_and_ordinary_permissions(tmp_path: Path) -> None:
    path = files.write_text(tmp_path / "a" / "b" / "report.md", "héllo\n")
    assert path.read_text(encoding="utf8") == "héllo\n"
    mode = stat.S_IMODE(os.stat(path).st_mode)
    assert mode == 0o666 & ~files.umask()
    assert mode & 0o044  # readable by group and others under the usual umask 022
    assert [p.name for p in path.parent.iterdir()] == ["report.md"]


def test_failed_replace_keeps_the_old_file_and_leaves_no_temp(tmp_path: Path, monkeypatch) -> None:
    path = files.write_bytes(tmp_path / "out.spacy", b"old")

    def boom(src, dst):
        raise OSError("disk full")

    monkeypatch.setattr(files.os, "replace", boom)
    with pytest.raises(AnnoEvalError, match=r"cannot write .*out\.spacy: disk full"):
        files.write_bytes(path, b"new")
    assert path.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["out.spacy"]


def test_a_replaced_file_keeps_its_mode(tmp_path: Path) -> None:
    path = files.write_text(tmp_path / "r.json", "old")
    os.chmod(path, 0o640)
    files.write_text(path, "new")
    assert path.read_text() == "new" and stat.S_IMODE(os.stat(path).st_mode) == 0o640


def test_dev_null_stays_a_character_device() -> None:
    files.write_text("/dev/null", "{}\n")
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


def test_a_fifo_is_written_in_place_for_its_reader(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    files.write_text(fifo, "through the pipe\n")
    reader.join(10)
    assert got == [b"through the pipe\n"]
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)
    assert [p.name for p in tmp_path.iterdir()] == ["pipe"]


def test_dash_is_standard_output(capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    files.write_text("-", "to stdout\n")
    assert capsysbinary.readouterr().out == b"to stdout\n"
    assert files.is_stdout("-") and not files.is_stdout(None)


def test_a_symlink_is_written_through(tmp_path: Path) -> None:
    real = tmp_path / "real" / "r.json"
    real.parent.mkdir()
    real.write_text("old")
    link = tmp_path / "link.json"
    link.symlink_to(real)
    files.write_text(link, "new")
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert real.read_text() == "new"
    assert sorted(p.name for p in real.parent.iterdir()) == ["r.json"]  # the temporary file sat beside the target


def test_a_dangling_symlink_creates_its_target(tmp_path: Path) -> None:
    link = tmp_path / "link.json"
    link.symlink_to(tmp_path / "later.json")
    files.write_text(link, "x")
    assert link.is_symlink() and (tmp_path / "later.json").read_text() == "x"


def test_a_folder_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"cannot write .*: it is a folder; give a file path"):
        files.write_text(tmp_path, "x")
    assert list(tmp_path.iterdir()) == []


def test_a_lone_surrogate_is_one_error_naming_the_file(tmp_path: Path) -> None:
    target = files.write_text(tmp_path / "r.json", "old")
    with pytest.raises(InputError, match=r"cannot write .*r\.json: the output holds '\\udcff'") as info:
        files.write_text(target, '{"doc": "d\udcff"}')
    assert "\n" not in str(info.value)
    assert target.read_text() == "old" and [p.name for p in tmp_path.iterdir()] == ["r.json"]


def test_a_surrogate_met_while_streaming_removes_the_partial_file(tmp_path: Path) -> None:
    target = tmp_path / "r.json"
    with pytest.raises(InputError, match="r.json"), files.open_atomic(target) as out:
        out.write(b"[")
        out.write("\udcff".encode("utf8"))
    assert list(tmp_path.iterdir()) == []


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only folders")
def test_a_read_only_folder_is_one_error_naming_the_file(tmp_path: Path) -> None:
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o555)
    try:
        with pytest.raises(ConfigError, match=r"cannot write .*ro/r\.json: Permission denied"):
            files.write_text(folder / "r.json", "x")
    finally:
        folder.chmod(0o755)


def test_a_folder_refusing_the_temporary_file_is_one_error_naming_the_file(tmp_path: Path, monkeypatch) -> None:
    """What a read-only folder does for a user who is not root (root is let in: simulated)."""
    def refuse(*args, dir=None, **kwargs):
        raise PermissionError(13, "Permission denied", str(dir))

    monkeypatch.setattr(files.tempfile, "mkstemp", refuse)
    with pytest.raises(ConfigError, match=r"^cannot write .*r\.json: Permission denied; check") as info:
        files.write_text(tmp_path / "r.json", "x")
    assert "\n" not in str(info.value) and list(tmp_path.iterdir()) == []


def test_check_outputs_refuses_an_input(tmp_path: Path) -> None:
    gold = tmp_path / "gold.jsonl"
    gold.write_text("{}\n")
    link = tmp_path / "link.json"
    link.symlink_to(gold)
    hard = tmp_path / "hard.json"
    os.link(gold, hard)
    for output in (gold, link, hard, tmp_path / "sub" / ".." / "gold.jsonl"):
        with pytest.raises(ConfigError, match=r"the output .* is the input .*gold\.jsonl"):
            files.check_outputs([gold], [output])
    assert gold.read_text() == "{}\n"


def test_check_outputs_refuses_folders_files_as_folders_and_twins(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    (data / "a.jsonl").write_text("{}\n")
    with pytest.raises(ConfigError, match="it is a folder"):
        files.check_outputs([], [tmp_path])
    with pytest.raises(ConfigError, match="inside the input folder"):
        files.check_outputs([data], [data / "r.json"])
    with pytest.raises(ConfigError, match="inside the input folder"):
        files.check_outputs([tmp_path / "d*"], [data / "a.jsonl"])
    with pytest.raises(ConfigError, match="is not a folder"):
        files.check_outputs([], [data / "a.jsonl" / "r.json"])
    with pytest.raises(ConfigError, match="are the same file"):
        files.check_outputs([], [tmp_path / "r.json", tmp_path / "." / "r.json"])
    with pytest.raises(ConfigError, match="it is a file"):
        files.check_outputs([], folders=[data / "a.jsonl"])
    with pytest.raises(ConfigError, match="is the input"):
        files.check_outputs([data], folders=[data])


def test_check_outputs_accepts_and_tells_standard_output(tmp_path: Path) -> None:
    assert files.check_outputs([], [None, tmp_path / "new" / "r.json", "/dev/null"]) is False
    assert files.check_outputs([tmp_path], ["-"]) is True
    assert not (tmp_path / "new").exists()  # nothing is made before the work
