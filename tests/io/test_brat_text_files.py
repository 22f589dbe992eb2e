"""The brat reader reads .txt and .ann through io.parse and reads them as before.

brat offsets count every character of the .txt as brat's server reads it (codecs.open(..., "utf8")): a CRLF is two
characters and a leading byte-order mark is one. The .ann is read with its byte-order mark dropped.
"""

from __future__ import annotations

import pytest

from spacy_anno_eval.errors import InputError
from spacy_anno_eval.io.brat import read_brat

TEXT = "Ada Lovelace\r\nwrote in London."


def _ann(shift: int = 0) -> str:
    return f"T1\tPER {shift} {shift + 12}\tAda Lovelace\nT2\tLOC {shift + 23} {shift + 29}\tLondon\n"


def _spans(corpus):
    table = corpus.sets["ents"]
    return list(zip(table.start.tolist(), table.end.tolist(), strict=True))


def _write(tmp_path, txt: bytes, ann: bytes):
    (tmp_path / "doc.txt").write_bytes(txt)
    (tmp_path / "doc.ann").write_bytes(ann)
    return tmp_path / "doc.ann"


def test_crlf_is_two_characters_and_the_ann_may_start_with_a_byte_order_mark(tmp_path):
    corpus = read_brat(_write(tmp_path, TEXT.encode(), b"\xef\xbb\xbf" + _ann().encode()))
    assert corpus.texts == [TEXT]
    assert _spans(corpus) == [(0, 12), (23, 29)]


@pytest.mark.parametrize("encoding", ["utf-8", "utf-16-le"])
def test_a_byte_order_mark_of_the_txt_is_a_character_the_offsets_count(tmp_path, encoding):
    corpus = read_brat(_write(tmp_path, ("\ufeff" + TEXT).encode(encoding), _ann(1).encode(encoding)),
                       encoding=encoding)
    assert corpus.texts == ["\ufeff" + TEXT]
    assert _spans(corpus) == [(1, 13), (24, 30)]
    _write(tmp_path, ("\ufeff" + TEXT).encode(encoding), _ann(0).encode(encoding))
    with pytest.raises(InputError, match=r"doc\.ann, line 1, span \[0, 12\): the \.ann text 'Ada Lovelace' differs"):
        read_brat(tmp_path / "doc.ann", encoding=encoding)


def test_a_txt_that_is_not_utf8_names_its_line_and_the_encoding_option(tmp_path):
    _write(tmp_path, (TEXT + " Café").encode("latin-1"), _ann().encode())
    with pytest.raises(InputError) as err:
        read_brat(tmp_path / "doc.ann")
    assert str(err.value) == (f"{tmp_path / 'doc.txt'}, line 2: not UTF-8 text (unexpected end of data at byte 34); "
                              f"save it as UTF-8, or pass its encoding with --encoding (Python: encoding=), "
                              f"e.g. --encoding latin-1")
    assert read_brat(tmp_path / "doc.ann", encoding="latin-1").texts == [TEXT + " Café"]
