"""Fuzzing the readers with damaged copies of real exports and of every registered reader's sample (DESIGN.md,
Contracts).

Random bytes rarely get past a parser's first check, so each shared sample
export (``../shared/data/formats/``) is damaged instead: bytes deleted,
repeated, or replaced with the characters that hold its structure together.
So is the sample every registered reader writes of itself
(:meth:`~spacy_anno_eval.io.registry.Reader.write_sample`), so that a new
reader is fuzzed without editing this file. Whatever comes out, reading it
either works or raises the project's own error
(:class:`~spacy_anno_eval.errors.AnnoEvalError`: exit 2), never another
exception (exit 3).
"""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spacy_anno_eval.errors import AnnoEvalError
from spacy_anno_eval.io import read_corpus, registry
from tests.conftest import SHARED_DATA
from tests.fuzz.test_fuzz_doors import PROFILE

SAMPLES = [
    ("gate", "gate_xml/gatecore_iaa_beijing-opera.xml", ".xml"),
    ("gate", "gate_xml/python-gatenlp_testdoc1.bdocjs", ".bdocjs"),
    ("xmi", "uima_cas_xmi/cassis_small_cas.xmi", ".xmi"),
    ("tsv3", "webanno_tsv3/simpleSpanDiffWithLabelStackingTest__user1.tsv", ".tsv"),
    ("labelstudio", "label_studio_json/lsf_named_entity_tasks.json", ".json"),
    ("labelstudio", "label_studio_json/lsconv_v0x_completions_348.json", ".json"),
    ("doccano", "doccano_jsonl/doccano-transformer_labeling.jsonl", ".jsonl"),
    ("bioc", "bioc/bioc_everything.xml", ".xml"),
    ("bioc", "bioc/bioc_everything.json", ".json"),
    ("prodigy", "prodigy_jsonl/pydata-ams-2023.part-shared.jsonl", ".jsonl"),
    ("nif", "nif_turtle/dkpro_nif_example.ttl", ".ttl"),
]
STRUCTURE = [b"<", b">", b"/", b'"', b"{", b"}", b"[", b"]", b":", b",", b"\t", b"\n", b"|", b"#", b"-", b"0",
             b"9", b"\xff", b"\xf0\x9f\x98\x80", b"&", b";", b".", b" "]
EDIT = st.tuples(st.sampled_from(["delete", "repeat", "replace"]), st.floats(0, 1), st.integers(1, 40),
                 st.sampled_from(STRUCTURE))


def damage(data: bytes, edits: list[tuple[str, float, int, bytes]]) -> bytes:
    for kind, where, size, piece in edits:
        i = int(where * len(data))
        if kind == "delete":
            data = data[:i] + data[i + size:]
        elif kind == "repeat":
            data = data[:i] + data[i:i + size] * 2 + data[i + size:]
        else:
            data = data[:i] + piece + data[i + len(piece):]
    return data


@pytest.mark.parametrize(("fmt", "sample", "suffix"), SAMPLES, ids=[s[1].split("/")[1] for s in SAMPLES])
def test_damaged_exports_are_read_or_refused(tmp_path, fmt, sample, suffix) -> None:
    source = SHARED_DATA / "formats" / sample
    if not source.exists():
        pytest.skip(f"shared test data not found: {source}")
    original = source.read_bytes()
    if len(original) > 60_000:  # keep the ci profile quick: the first part of a long export
        original = original[:60_000]

    @settings(settings.get_profile(PROFILE), max_examples=60 if PROFILE == "ci" else 1000)
    @given(edits=st.lists(EDIT, min_size=1, max_size=4))
    def run(edits):
        path = tmp_path / f"in{suffix}"
        path.write_bytes(damage(original, edits))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for format_name in (fmt, "auto"):
                try:
                    read_corpus(path, format_name, selectors=("spans",), features=["*"])
                except AnnoEvalError:
                    pass

    run()


def read_as(reader: registry.Reader, path: Path) -> None:
    """Read ``path`` with ``reader`` as its kind is read (a span corpus: every set, every feature)."""
    if reader.kind == "spans":
        read_corpus(path, reader.name, selectors=("spans",), features=["*"], **dict(reader.sample_options))
    else:
        reader(path)


@pytest.mark.parametrize("reader", registry.readers(), ids=lambda r: r.name)
def test_damaged_samples_of_every_reader_are_read_or_refused(tmp_path: Path, reader: registry.Reader) -> None:
    """The reader's own plain sample, damaged (its first file, the one read; side files stay whole)."""
    folder = tmp_path / "sample"
    path = reader.write_sample(registry.Sample(), folder)
    assert path is not None, f"{reader.name}: no plain sample"
    original = path.read_bytes()

    @settings(settings.get_profile(PROFILE))
    @given(edits=st.lists(EDIT, min_size=1, max_size=4))
    def run(edits):
        path.write_bytes(damage(original, edits))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                read_as(reader, path)
            except AnnoEvalError:
                pass

    run()
