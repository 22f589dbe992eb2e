"""Atomic writes: the file appears whole or not at all, with ordinary permissions."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from spacy_anno_eval import files


def test_write_creates_parents_and_ordinary_permissions(tmp_path: Path) -> None:
    path = files.write_text(tmp_path / "a" / "b" / "report.md", "héllo\n")
    assert path.read_text(encoding="utf8") == "héllo\n"
    mode = stat.S_IMODE(os.stat(path).st_mode)
    assert mode == 0o666 & ~files._umask()
    assert mode & 0o044  # readable by group and others under the usual umask 022
    assert [p.name for p in path.parent.iterdir()] == ["report.md"]


def test_failed_replace_keeps_the_old_file_and_leaves_no_temp(tmp_path: Path, monkeypatch) -> None:
    path = files.write_bytes(tmp_path / "out.spacy", b"old")

    def boom(src, dst):
        raise OSError("disk full")

    monkeypatch.setattr(files.os, "replace", boom)
    with pytest.raises(OSError, match="disk full"):
        files.write_bytes(path, b"new")
    assert path.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["out.spacy"]
