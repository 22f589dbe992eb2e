"""The extraction reader contract: every registered reader of :mod:`spacy_anno_eval.llm.readers` x every case,
through :func:`~spacy_anno_eval.llm.readers.read_extractions`, as ``tests/coref/test_coref_reader_contract.py`` holds
the coreference readers.

The suite iterates :func:`~spacy_anno_eval.llm.readers.llm_readers` (built in, registered, installed), so a reader
added tomorrow is covered without editing this file. Bad input is an :class:`~spacy_anno_eval.errors.InputError`
naming the file (exit 2 in the CLI), never a traceback: a missing path, a folder, an empty or blank file ("nothing
to compare"), bytes that are no UTF-8, the reader's sample cut short or garbled; an option the reader does not take
is a :class:`~spacy_anno_eval.errors.ConfigError` naming it and those it takes.
"""

from __future__ import annotations

import random
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from spacy_anno_eval.errors import ConfigError, InputError
from spacy_anno_eval.llm.extractions import Extractions
from spacy_anno_eval.llm.readers import (
    LlmReader,
    detect_llm_format,
    get_llm_reader,
    llm_readers,
    read_extractions,
    register_llm_reader,
    unregister_llm_reader,
)

READERS = llm_readers()


def sample(reader: LlmReader) -> bytes:
    data = reader.sample_bytes()
    if data is None:
        pytest.skip(f"the extraction reader {reader.name!r} has no sample")
    return data


def suffix(reader: LlmReader) -> str:
    """The suffix the reader's sample is written with: ``.jsonl`` for a sample of JSON text (the built-ins'),
    else the reader's first suffix."""
    data = reader.sample_bytes() or b""
    if data.lstrip()[:1] in (b"{", b"[") or not reader.suffixes:
        return ".jsonl"
    return reader.suffixes[0]


def write(folder: Path, reader: LlmReader, data: bytes, stem: str = "input") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{stem}{suffix(reader)}"
    path.write_bytes(data)
    return path


def read(reader: LlmReader, path: Path) -> Extractions:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return read_extractions(path, reader.name)


def refused(reader: LlmReader, path: Path) -> InputError:
    with pytest.raises(InputError) as caught:
        read(reader, path)
    assert path.name in str(caught.value), f"{reader.name}: the message names no input: {caught.value}"
    return caught.value


def read_or_refused(reader: LlmReader, path: Path) -> Any:
    try:
        return read(reader, path)
    except InputError as err:
        assert path.name in str(err), f"{reader.name}: the message names no input: {err}"
        return err
    except Exception as err:  # noqa: BLE001 - the point of the case
        pytest.fail(f"{reader.name}: {type(err).__name__} instead of InputError: {err}"[:600])


def case_sample(reader: LlmReader, tmp_path: Path) -> None:
    path = write(tmp_path, reader, sample(reader))
    found = read(reader, path)
    assert isinstance(found, Extractions) and found.doc_ids
    assert len(found) or any(found.triples.values()), f"{reader.name}: its sample holds nothing"
    assert found.source == str(path) and found.format == reader.name
    if reader.sniff is not None:
        assert detect_llm_format(path) == reader.name


def case_missing(reader: LlmReader, tmp_path: Path) -> None:
    refused(reader, tmp_path / f"nosuch{suffix(reader)}")


def case_folder(reader: LlmReader, tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir(parents=True)
    refused(reader, empty)
    holding = tmp_path / "holding"
    file = write(holding, reader, sample(reader))
    if reader.folders and reader.claims(file):
        assert read(reader, holding).documents == read(reader, file).documents
    else:
        refused(reader, holding)


def case_empty(reader: LlmReader, tmp_path: Path) -> None:
    err = refused(reader, write(tmp_path, reader, b""))
    assert "nothing to compare" in str(err), f"{reader.name}: an empty file's refusal says {err}"


def case_blank(reader: LlmReader, tmp_path: Path) -> None:
    refused(reader, write(tmp_path, reader, b"\n \n\t\n\n"))


def case_undecodable(reader: LlmReader, tmp_path: Path) -> None:
    refused(reader, write(tmp_path, reader, b"\xff\xfe\xfd\x80 not text \xc3(\n", "alone"))
    data = sample(reader)
    inside = len(data) // 2  # inside a line the reader reads: a text reader cannot skip the byte
    outcome = read_or_refused(reader, write(tmp_path, reader, data[:inside] + b"\xff" + data[inside:], "inside"))
    assert isinstance(outcome, InputError), f"{reader.name} read a byte that is no UTF-8"


def case_truncated(reader: LlmReader, tmp_path: Path) -> None:
    data = sample(reader)
    for cut in sorted({*range(1, len(data), max(1, len(data) // 40)), len(data) - 1, len(data) // 2}):
        read_or_refused(reader, write(tmp_path, reader, data[:cut], f"cut{cut}"))


def case_garbled(reader: LlmReader, tmp_path: Path) -> None:
    data = sample(reader)
    rng = random.Random(reader.name)
    for n in range(80):
        garbled = bytearray(data)
        for _ in range(rng.randint(1, 4)):
            at = rng.randrange(len(garbled))
            choice = rng.random()
            if choice < 0.4:
                garbled[at] = rng.randrange(256)
            elif choice < 0.7:
                del garbled[at]
            else:
                garbled.insert(at, rng.choice(b'(){}[]|-_09\t\n#,:"x'))
        read_or_refused(reader, write(tmp_path, reader, bytes(garbled), f"garbled{n}"))


def case_wrong_types(reader: LlmReader, tmp_path: Path) -> None:
    """Records of the right shape whose values have other JSON types: refused naming the file, never a crash."""
    for n, line in enumerate([b"[]", b"3", b'"x"', b"null", b'{"id": true}', b'{"id": [1]}', b'{"id": "d", '
                              b'"response": 5}', b'{"id": "d", "entities": "x"}', b'{"id": "d", "entities": [5]}',
                              b'{"id": "d", "relations": {"a": 1}}', b'{"extractions": [{"extraction_class": 1}]}',
                              b'{"id": "d", "entities": [{"label": "L", "text": 5}]}']):
        read_or_refused(reader, write(tmp_path, reader, line + b"\n", f"types{n}"))


def case_unknown_option(reader: LlmReader, tmp_path: Path) -> None:
    takes = reader.options()
    if takes is None:
        pytest.skip(f"the {reader.name} reader takes any option (**options)")
    path = write(tmp_path, reader, reader.sample_bytes() or b"")
    with pytest.raises(ConfigError) as caught:
        read_extractions(path, reader.name, nosuch_option=1)
    message = str(caught.value)
    assert "nosuch_option" in message and all(o in message for o in takes), message


CASES: dict[str, Callable[[LlmReader, Path], None]] = {
    "sample": case_sample, "missing": case_missing, "folder": case_folder, "empty": case_empty,
    "blank": case_blank, "undecodable": case_undecodable, "truncated": case_truncated, "garbled": case_garbled,
    "wrong_types": case_wrong_types, "unknown_option": case_unknown_option,
}


@pytest.mark.parametrize(("name", "case"), [pytest.param(r.name, c, id=f"{r.name}-{c}") for r in READERS
                                            for c in CASES])
def test_llm_reader_contract(name: str, case: str, tmp_path: Path) -> None:
    CASES[case](get_llm_reader(name), tmp_path)


def test_every_built_in_reader_has_a_sample_and_is_tried() -> None:
    names = {r.name for r in READERS}
    assert {"llm-ner", "llm-json", "langextract", "llm-relations"} <= names
    assert all(r.sample is not None for r in READERS if r.name in names)


def test_a_plugin_is_held_to_the_same_cases(tmp_path: Path) -> None:
    """A reader registered at run time, written with the package's loaders, passes every case."""

    def toy_sample() -> bytes:
        return b"d1\tPER\tAda Lovelace\n"

    @register_llm_reader("toyllm", suffixes=(".toyllm",), sample=toy_sample)
    def read_toy(path: str | Path, encoding: str = "utf-8") -> Extractions:
        from spacy_anno_eval.io.parse import read_text
        from spacy_anno_eval.llm.extractions import Extraction

        rows = [line.split("\t") for line in read_text(path, encoding).splitlines() if line.strip()]
        if not rows:
            raise InputError(f"{path}: nothing to compare: no row")
        if any(len(r) != 3 for r in rows):
            raise InputError(f"{path}: a toy row is doc, label, text (tab-separated)")
        out = Extractions(source=str(path))
        for k, (doc, label, text) in enumerate(rows):
            out.documents.setdefault(doc, []).append(Extraction(doc, label, text, k))
        return out

    try:
        reader = get_llm_reader("toyllm")
        for name, case in CASES.items():
            if name == "wrong_types":
                continue
            try:
                case(reader, tmp_path / name)
            except pytest.skip.Exception:
                pass
            except Exception as err:
                raise AssertionError(f"case {name}: {err}") from err
    finally:
        unregister_llm_reader("toyllm")
