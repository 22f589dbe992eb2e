"""read_bio reads its file through io.parse and reads what it read before (Path.read_text, UTF-8)."""

from __future__ import annotations

import pytest

from spacy_anno_eval.errors import InputError
from spacy_anno_eval.noisy.reader import read_bio

BIO = "Tolkien B-PER\nwas O\n\na O\nwriter B-OCC\n"


def test_a_missing_file_keeps_its_wording_and_a_folder_is_an_input_error(tmp_path):
    with pytest.raises(InputError) as err:
        read_bio(tmp_path / "missing.bio")
    assert str(err.value) == f"{tmp_path / 'missing.bio'}: file not found"
    with pytest.raises(InputError, match="a folder, not a file"):
        read_bio(tmp_path)


def test_text_that_is_not_utf8_names_its_line_and_byte_and_what_to_do(tmp_path):
    path = tmp_path / "latin.bio"
    path.write_bytes((BIO + "Café O\n").encode("latin-1"))
    with pytest.raises(InputError) as err:
        read_bio(path)
    assert str(err.value) == f"{path}, line 6: not UTF-8 text (invalid continuation byte at byte 41); save it as UTF-8"


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"])
def test_line_ends_read_alike_and_a_byte_order_mark_stays_text(tmp_path, newline):
    plain, marked = tmp_path / "plain.bio", tmp_path / "marked.bio"
    plain.write_bytes(BIO.replace("\n", newline).encode("utf-8"))
    marked.write_bytes(b"\xef\xbb\xbf" + BIO.replace("\n", newline).encode("utf-8"))
    assert read_bio(plain).text == "Tolkien was a writer"
    assert read_bio(marked).text == "\ufeffTolkien was a writer"  # as Path.read_text(encoding="utf-8") read it
    tags = read_bio(plain).bio()
    assert read_bio(marked).bio() == ["B-PER", "I-PER", *tags[1:]]  # the mark begins the entity
