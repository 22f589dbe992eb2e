"""The benchmark reads clean/ texts and finds a setting's line through io.parse, as it read them before.

The corpus hash of a stored baseline is made from the texts of clean/, so they must read as Path.read_text read
them: CRLF and CR line ends as "\\n", a leading byte-order mark as a character.
"""

from __future__ import annotations

import pytest

from spacy_anno_eval.errors import ConfigError, InputError
from spacy_anno_eval.workflows.benchmark.layout import CleanCorpus, corpus_hash
from spacy_anno_eval.workflows.benchmark.settings import load_settings

TEXT = "Ada Lovelace wrote.\nShe was here.\n\nEnd."


def _clean(tmp_path, name, data):
    folder = tmp_path / name
    folder.mkdir()
    (folder / "d1.txt").write_bytes(data)
    return CleanCorpus(folder)


def test_line_ends_read_as_newlines_and_the_hash_does_not_change(tmp_path):
    plain = _clean(tmp_path, "plain", TEXT.encode())
    for name, newline in (("crlf", "\r\n"), ("cr", "\r")):
        other = _clean(tmp_path, name, TEXT.replace("\n", newline).encode())
        assert [d.text for d in other] == [TEXT]
        assert other.scan() == plain.scan() == (1, corpus_hash([TEXT]))


def test_a_byte_order_mark_stays_a_character_of_the_text(tmp_path):
    marked = _clean(tmp_path, "bom", b"\xef\xbb\xbf" + TEXT.replace("\n", "\r\n").encode())
    assert [d.text for d in marked] == ["\ufeff" + TEXT]
    assert marked.scan() == (1, corpus_hash(["\ufeff" + TEXT]))


def test_a_clean_text_that_is_not_utf8_names_its_line_and_what_to_do(tmp_path):
    clean = _clean(tmp_path, "latin", (TEXT + " Café\n").encode("latin-1"))
    with pytest.raises(InputError) as err:
        clean.scan()
    assert str(err.value) == (f"{tmp_path / 'latin' / 'd1.txt'}, line 4: not UTF-8 text (invalid continuation byte "
                              f"at byte 43); save it as UTF-8 (the texts of clean/ are read as UTF-8)")


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"])
def test_a_bad_setting_is_named_with_its_line_whatever_the_line_ends(tmp_path, newline):
    config = tmp_path / "benchmark.cfg"
    config.write_bytes(newline.join(["[benchmark]", "beta = 1.0", "", "threshold = 7", ""]).encode())
    with pytest.raises(ConfigError, match=r"benchmark\.cfg, line 4, \[benchmark\]: benchmark setting threshold=7"):
        load_settings(config)
