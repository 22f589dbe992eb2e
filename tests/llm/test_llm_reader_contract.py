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

from collections.abc import Callable
from functools import partial
from pathlib import Path

import pytest

from spacy_anno_eval.errors import InputError
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
from tests.plugin_contract import Contract

READERS = llm_readers()


def suffix(reader: LlmReader) -> str:
    """The suffix the reader's sample is written with: ``.jsonl`` for a sample of JSON text (the built-ins'),
    else the reader's first suffix."""
    data = reader.sample_bytes() or b""
    if data.lstrip()[:1] in (b"{", b"[") or not reader.suffixes:
        return ".jsonl"
    return reader.suffixes[0]


KIT = Contract("extraction", read_extractions, suffix)
sample, write, read, refused, read_or_refused = KIT.sample, KIT.write, KIT.read, KIT.refused, KIT.read_or_refused


def case_sample(reader: LlmReader, tmp_path: Path) -> None:
    path = write(tmp_path, reader, sample(reader))
    found = read(reader, path)
    assert isinstance(found, Extractions) and found.doc_ids
    assert len(found) or any(found.triples.values()), f"{reader.name}: its sample holds nothing"
    assert found.source == str(path) and found.format == reader.name
    if reader.sniff is not None:
        assert detect_llm_format(path) == reader.name


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


def case_undecodable(reader: LlmReader, tmp_path: Path) -> None:
    refused(reader, write(tmp_path, reader, b"\xff\xfe\xfd\x80 not text \xc3(\n", "alone"))
    data = sample(reader)
    inside = len(data) // 2  # inside a line the reader reads: a text reader cannot skip the byte
    outcome = read_or_refused(reader, write(tmp_path, reader, data[:inside] + b"\xff" + data[inside:], "inside"))
    assert isinstance(outcome, InputError), f"{reader.name} read a byte that is no UTF-8"


def case_wrong_types(reader: LlmReader, tmp_path: Path) -> None:
    """Records of the right shape whose values have other JSON types: refused naming the file, never a crash."""
    for n, line in enumerate([b"[]", b"3", b'"x"', b"null", b'{"id": true}', b'{"id": [1]}', b'{"id": "d", '
                              b'"response": 5}', b'{"id": "d", "entities": "x"}', b'{"id": "d", "entities": [5]}',
                              b'{"id": "d", "relations": {"a": 1}}', b'{"extractions": [{"extraction_class": 1}]}',
                              b'{"id": "d", "entities": [{"label": "L", "text": 5}]}']):
        read_or_refused(reader, write(tmp_path, reader, line + b"\n", f"types{n}"))


CASES: dict[str, Callable[[LlmReader, Path], None]] = {
    "sample": case_sample, "missing": KIT.missing, "folder": case_folder, "empty": KIT.empty, "blank": KIT.blank,
    "undecodable": case_undecodable, "truncated": KIT.truncated, "garbled": partial(KIT.garbled, rounds=80),
    "wrong_types": case_wrong_types, "unknown_option": KIT.unknown_option,
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
        Contract.run_all(get_llm_reader("toyllm"), CASES, tmp_path, skip=("wrong_types",))
    finally:
        unregister_llm_reader("toyllm")
