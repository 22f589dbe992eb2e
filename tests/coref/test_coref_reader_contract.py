"""The coreference reader contract: every registered coreference reader x every case, through
:func:`spacy_anno_eval.coref.readers.read_coref`.

The suite iterates :func:`~spacy_anno_eval.coref.readers.coref_readers` (built in, registered, installed), so a
reader added tomorrow is covered without editing this file. Each case is what DESIGN.md's Contracts ask of a
reader: bad input is an :class:`~spacy_anno_eval.errors.InputError` that names the file (exit 2 in the CLI),
never a traceback.

- ``sample``: the reader's own sample (:attr:`CorefReader.sample`) reads to documents with entities, and its
  suffix or first line tells the format;
- ``missing``: a path that does not exist;
- ``folder``: a folder where a file is expected (a reader of folders: an empty folder is refused, and a folder
  holding the sample reads as the sample does);
- ``empty``: a file of no bytes says "nothing to compare"; ``blank``: a file of blank lines is refused;
- ``undecodable``: bytes that are no UTF-8 text, alone or inside the sample;
- ``truncated`` / ``garbled``: the sample cut short at many places, or with bytes changed: read, or refused
  naming the file;
- ``unknown_option``: an option the reader does not take is a ``ConfigError`` naming it and those it takes.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from pathlib import Path

import pytest

from spacy_anno_eval.coref.conll2012 import CorefDocument
from spacy_anno_eval.coref.readers import (
    CorefReader,
    coref_readers,
    detect_coref_format,
    get_coref_reader,
    read_coref,
    register_coref_reader,
    unregister_coref_reader,
)
from spacy_anno_eval.errors import InputError
from tests.plugin_contract import Contract

READERS = coref_readers()


def suffix(reader: CorefReader) -> str:
    """The suffix the reader's files are written with (its first; a plugin without any: ``.data``)."""
    return next((s for s in reader.suffixes if s.startswith(".")), reader.suffixes[0] if reader.suffixes else ".data")


KIT = Contract("coreference", read_coref, suffix)
sample, write, read, refused, read_or_refused = KIT.sample, KIT.write, KIT.read, KIT.refused, KIT.read_or_refused


# -- the cases -------------------------------------------------------------------------------------------------------


def case_sample(reader: CorefReader, tmp_path: Path) -> None:
    path = write(tmp_path, reader, sample(reader))
    docs = read(reader, path)
    assert docs and all(isinstance(d, CorefDocument) for d in docs), docs
    assert any(d.entities for d in docs), f"{reader.name}: its sample holds no entity"
    assert all(m for d in docs for e in d.entities for m in e), "an empty mention"
    if reader.suffixes or reader.sniff is not None:
        assert detect_coref_format(path) == reader.name


def case_folder(reader: CorefReader, tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir(parents=True)
    refused(reader, empty)
    data = reader.sample_bytes()
    if data is None:
        return
    holding = tmp_path / "holding"
    file = write(holding, reader, data)
    if reader.folders:
        assert [(d.name, d.entities) for d in read(reader, holding)] == \
            [(d.name, d.entities) for d in read(reader, file)]
    else:
        refused(reader, holding)


def case_undecodable(reader: CorefReader, tmp_path: Path) -> None:
    refused(reader, write(tmp_path, reader, b"\xff\xfe\xfd\x80 not text \xc3(\n", "alone"))
    data = sample(reader)
    middle = data.index(b"\n", len(data) // 3) if b"\n" in data[len(data) // 3:] else len(data) // 2
    read_or_refused(reader, write(tmp_path, reader, data[:middle] + b" \xff\xc3(" + data[middle:], "inside"))
    # inside a line that the reader reads, the bytes must be refused: a text reader cannot skip them
    line_start = data.rfind(b"\n", 0, middle) + 1
    if data[line_start:middle].strip() and not data[line_start:middle].startswith(b"#"):
        outcome = read_or_refused(reader, write(tmp_path, reader, data[:middle] + b"\xff" + data[middle:], "word"))
        assert isinstance(outcome, InputError), f"{reader.name} read a byte that is no UTF-8"


CASES: dict[str, Callable[[CorefReader, Path], None]] = {
    "sample": case_sample,
    "missing": KIT.missing,
    "folder": case_folder,
    "empty": KIT.empty,
    "blank": KIT.blank,
    "undecodable": case_undecodable,
    "truncated": KIT.truncated,
    "garbled": partial(KIT.garbled, rounds=60),
    "unknown_option": KIT.unknown_option,
}


@pytest.mark.parametrize(("name", "case"), [pytest.param(r.name, c, id=f"{r.name}-{c}") for r in READERS
                                            for c in CASES])
def test_coref_reader_contract(name: str, case: str, tmp_path: Path) -> None:
    CASES[case](get_coref_reader(name), tmp_path)


def test_every_built_in_reader_has_a_sample_and_is_tried() -> None:
    names = {r.name for r in READERS}
    assert {"conll2012", "corefud", "docbin", "jsonl"} <= names
    assert all(r.sample is not None for r in READERS if r.name in ("conll2012", "corefud", "docbin", "jsonl"))


def test_a_plugin_is_held_to_the_same_cases(tmp_path: Path) -> None:
    """A reader registered at run time, written with the package's loader, passes every case (the suite would
    have collected it had it been registered before)."""

    def toy_sample() -> bytes:
        return b"doc d1\nAda Lovelace wrote . She left .\n"

    @register_coref_reader("toycoref", suffixes=(".toycoref",), sample=toy_sample)
    def read_toy(path: str | Path, encoding: str = "utf-8") -> list[CorefDocument]:
        from spacy_anno_eval.io.parse import read_text

        lines = [line.split() for line in read_text(path, encoding).splitlines() if line.strip()]
        if not lines:
            raise InputError(f"{path}: nothing to compare: no document")
        if len(lines) != 2 or lines[0][:1] != ["doc"] or len(lines[0]) != 2:
            raise InputError(f"{path}: a toy file is 'doc NAME' then a line of tokens")
        return [CorefDocument(lines[0][1], tuple(lines[1]), (((0, 1), (4, 4)),))]

    try:
        Contract.run_all(get_coref_reader("toycoref"), CASES, tmp_path)
    finally:
        unregister_coref_reader("toycoref")
