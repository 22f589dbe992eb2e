"""Which format ``continuum_format`` tells for each kind of file (issue 27: the detector reads the io registry).

Written against the detector that kept its own suffix tables, and unchanged since: every case here is a
behaviour the registry-driven detector must keep (γ's own suffixes, the suffixes γ shares with annotation-tool
exports and tells by content, a ``.txt`` only beside its ``.ann``, a DocBin folder, the message for a suffix
nobody reads, formats named by hand).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from spacy_anno_eval.errors import InputError
from spacy_anno_eval.gamma.readers import FORMATS, continuum_format
from spacy_anno_eval.io.registry import Sample, reader

UNITS_CSV = "A,x,1,2\nB,x,1,3\n"
FIXTURE = '{"continuum": [{"annotator": "A", "start": 1, "end": 2, "category": "x"}]}'


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf8")
    return path


def sample(folder: Path, name: str) -> Path:
    """A small file of the annotation-corpus format ``name``, as its registered reader writes it."""
    path = reader(name).write_sample(Sample(), folder / name)
    assert path is not None
    return path


@pytest.mark.parametrize("name, text, expected", [
    ("units.csv", UNITS_CSV, "csv"),
    ("UNITS.CSV", UNITS_CSV, "csv"),
    ("units.tsv", UNITS_CSV.replace(",", "\t"), "tsv"),
    ("fixture.json", FIXTURE, "json"),
    ("broken.json", "{not json", "json"),  # γ's fixture reader then says what is wrong
    ("speech.TextGrid", 'File type = "ooTextFile"\n', "textgrid"),
    ("speech.textgrid", 'File type = "ooTextFile"\n', "textgrid"),
    ("speech.eaf", "<ANNOTATION_DOCUMENT/>", "eaf"),
    ("corpus.spacy", "", "spacy"),
])
def test_gamma_own_suffixes_name_gamma_formats(tmp_path, name, text, expected):
    assert continuum_format(write(tmp_path, name, text)) == expected


@pytest.mark.parametrize("corpus_format", ["labelstudio", "bioc", "tsv3"])
def test_a_shared_suffix_is_told_by_the_file_beginning(tmp_path, corpus_format):
    path = sample(tmp_path, corpus_format)
    assert path.suffix.lower() in (".json", ".tsv")
    assert continuum_format(path) == corpus_format


@pytest.mark.parametrize("corpus_format", ["gate", "xmi", "jsonl", "conll", "nif", "brat"])
def test_other_corpus_suffixes_are_detected_as_corpora(tmp_path, corpus_format):
    assert continuum_format(sample(tmp_path, corpus_format)) == corpus_format


def test_a_docbin_folder_is_spacy(tmp_path):
    folder = sample(tmp_path, "docbin").parent
    assert continuum_format(folder) == "spacy"


def test_a_txt_file_is_read_only_when_named(tmp_path):
    txt = write(tmp_path, "units.txt", UNITS_CSV)
    with pytest.raises(InputError, match=r"cannot tell the format from the suffix '\.txt'; use one of "
                                         r"\.csv, \.eaf, \.json, \.spacy, \.textgrid, \.tsv or name the format"):
        continuum_format(txt)
    assert continuum_format(txt, "csv") == "csv"


def test_an_unknown_suffix_lists_gamma_suffixes(tmp_path):
    path = write(tmp_path, "units.foo", UNITS_CSV)
    with pytest.raises(InputError, match=r"cannot tell the format from the suffix '\.foo'; use one of \.csv, \.eaf, "
                                         r"\.json, \.spacy, \.textgrid, \.tsv or an annotation corpus's"):
        continuum_format(path)


def test_a_missing_file_keeps_the_corpus_detector_message(tmp_path):
    with pytest.raises(InputError) as caught:
        continuum_format(tmp_path / "absent.foo")
    assert "absent.foo" in str(caught.value) and "an annotation corpus's" not in str(caught.value)


def test_named_formats(tmp_path):
    path = write(tmp_path, "any.dat", "")
    assert [continuum_format(path, f) for f in FORMATS] == list(FORMATS)
    assert continuum_format(path, "docbin") == "spacy" and continuum_format(path, "gate") == "gate"
    with pytest.raises(InputError, match=r"unknown continuum format 'nope'; use one of csv, tsv, json, textgrid, "
                                         r"eaf, spacy \(units\) or .*gate.* \(annotation corpora\)"):
        continuum_format(path, "nope")
