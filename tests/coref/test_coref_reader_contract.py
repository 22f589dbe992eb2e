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

import random
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

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
from spacy_anno_eval.errors import ConfigError, InputError

READERS = coref_readers()


def suffix(reader: CorefReader) -> str:
    """The suffix the reader's files are written with (its first; a plugin without any: ``.data``)."""
    return next((s for s in reader.suffixes if s.startswith(".")), reader.suffixes[0] if reader.suffixes else ".data")


def sample(reader: CorefReader) -> bytes:
    data = reader.sample_bytes()
    if data is None:
        pytest.skip(f"the coreference reader {reader.name!r} has no sample")
    return data


def write(folder: Path, reader: CorefReader, data: bytes, stem: str = "input") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{stem}{suffix(reader)}"
    path.write_bytes(data)
    return path


def read(reader: CorefReader, path: Path) -> list[Any]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return read_coref(path, reader.name)


def refused(reader: CorefReader, path: Path) -> InputError:
    """The :class:`InputError` reading ``path`` raises; it must name the path."""
    with pytest.raises(InputError) as caught:
        read(reader, path)
    assert path.name in str(caught.value), f"{reader.name}: the message names no input: {caught.value}"
    return caught.value


def read_or_refused(reader: CorefReader, path: Path) -> Any:
    """The documents, or the :class:`InputError` naming ``path``; anything else fails."""
    try:
        return read(reader, path)
    except InputError as err:
        assert path.name in str(err), f"{reader.name}: the message names no input: {err}"
        return err
    except Exception as err:  # noqa: BLE001 - the point of the case
        pytest.fail(f"{reader.name}: {type(err).__name__} instead of InputError: {err}"[:600])


# -- the cases -------------------------------------------------------------------------------------------------------


def case_sample(reader: CorefReader, tmp_path: Path) -> None:
    path = write(tmp_path, reader, sample(reader))
    docs = read(reader, path)
    assert docs and all(isinstance(d, CorefDocument) for d in docs), docs
    assert any(d.entities for d in docs), f"{reader.name}: its sample holds no entity"
    assert all(m for d in docs for e in d.entities for m in e), "an empty mention"
    if reader.suffixes or reader.sniff is not None:
        assert detect_coref_format(path) == reader.name


def case_missing(reader: CorefReader, tmp_path: Path) -> None:
    refused(reader, tmp_path / f"nosuch{suffix(reader)}")


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


def case_empty(reader: CorefReader, tmp_path: Path) -> None:
    err = refused(reader, write(tmp_path, reader, b""))
    assert "nothing to compare" in str(err), f"{reader.name}: an empty file's refusal says {err}"


def case_blank(reader: CorefReader, tmp_path: Path) -> None:
    refused(reader, write(tmp_path, reader, b"\n \n\t\n\n"))


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


def case_truncated(reader: CorefReader, tmp_path: Path) -> None:
    data = sample(reader)
    cuts = sorted({*range(1, len(data), max(1, len(data) // 40)), len(data) - 1, len(data) // 2})
    for cut in cuts:
        read_or_refused(reader, write(tmp_path, reader, data[:cut], f"cut{cut}"))


def case_garbled(reader: CorefReader, tmp_path: Path) -> None:
    data = sample(reader)
    rng = random.Random(reader.name)
    for n in range(60):
        garbled = bytearray(data)
        for _ in range(rng.randint(1, 4)):
            at = rng.randrange(len(garbled))
            choice = rng.random()
            if choice < 0.4:
                garbled[at] = rng.randrange(256)
            elif choice < 0.7:
                del garbled[at]
            else:
                garbled.insert(at, rng.choice(b"(){}[]|-_09\t\n#,:\"x"))
        read_or_refused(reader, write(tmp_path, reader, bytes(garbled), f"garbled{n}"))


def case_unknown_option(reader: CorefReader, tmp_path: Path) -> None:
    takes = reader.options()
    if takes is None:
        pytest.skip(f"the {reader.name} reader takes any option (**options)")
    path = write(tmp_path, reader, reader.sample_bytes() or b"")
    with pytest.raises(ConfigError) as caught:
        read_coref(path, reader.name, nosuch_option=1)
    message = str(caught.value)
    assert "nosuch_option" in message and all(o in message for o in takes), message


CASES: dict[str, Callable[[CorefReader, Path], None]] = {
    "sample": case_sample,
    "missing": case_missing,
    "folder": case_folder,
    "empty": case_empty,
    "blank": case_blank,
    "undecodable": case_undecodable,
    "truncated": case_truncated,
    "garbled": case_garbled,
    "unknown_option": case_unknown_option,
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
        reader = get_coref_reader("toycoref")
        for name, case in CASES.items():
            try:
                case(reader, tmp_path / name)
            except pytest.skip.Exception:
                pass
            except Exception as err:
                raise AssertionError(f"case {name}: {err}") from err
    finally:
        unregister_coref_reader("toycoref")
