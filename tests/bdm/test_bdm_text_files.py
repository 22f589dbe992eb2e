"""The BDM readers read their text files through io.parse and still read and say what they did before.

The taxonomy (TSV), the BDM file and load_concept_scores' sniff used to read with ``utf-8-sig`` and a text
stream: a byte-order mark dropped, CRLF and CR line ends read as line ends, a missing file named with the
reader's own hint. These pin that, and that a folder is now an input error (it was an ``IsADirectoryError``).
"""

from __future__ import annotations

import pytest

from spacy_anno_eval.bdm.credit import load_concept_scores
from spacy_anno_eval.bdm.gatefile import read_bdm_file
from spacy_anno_eval.bdm.taxonomy import read_taxonomy
from spacy_anno_eval.errors import InputError

TAXONOMY = "Person\tAgent\nOrg\tAgent\nAgent\tThing\n"
_FIELDS = "msca=Agent, cp=1, dpk=1, dpr=0, n0=1.0, n1=1.0, n2=1.0, bran=2.0"
SCORES = f"key=Person, response=Agent, bdm=0.5, {_FIELDS}\nkey=Org, response=Agent, bdm=0.25, {_FIELDS}\n"
GIVE = "give BDM scores (from 'anno-eval bdm' or GATE) or a taxonomy"


def test_a_missing_path_or_a_folder_keeps_the_scores_hint(tmp_path):
    with pytest.raises(InputError) as err:
        load_concept_scores(tmp_path / "nope.tsv")
    assert str(err.value) == f"{tmp_path / 'nope.tsv'}: no such file; {GIVE}"
    with pytest.raises(InputError) as err:
        load_concept_scores(tmp_path)
    assert str(err.value) == f"{tmp_path}: is a folder; {GIVE}"
    with pytest.raises(InputError) as err:
        read_taxonomy(tmp_path / "nope.tsv")
    assert str(err.value) == f"{tmp_path / 'nope.tsv'}: no such file"


def test_a_bdm_file_that_is_a_folder_is_an_input_error(tmp_path):
    with pytest.raises(InputError, match="a folder, not a file"):
        read_bdm_file(tmp_path)


@pytest.mark.parametrize(("head", "newline"), [(b"\xef\xbb\xbf", "\r\n"), (b"\xef\xbb\xbf", "\r"), (b"", "\n")])
def test_a_byte_order_mark_and_any_line_end_read_the_same(tmp_path, head, newline):
    tax = tmp_path / "t.tsv"
    tax.write_bytes(head + ("# a comment\n\n" + TAXONOMY).replace("\n", newline).encode("utf-8"))
    scores = tmp_path / "s.txt"
    scores.write_bytes(head + SCORES.replace("\n", newline).encode("utf-8"))
    assert read_taxonomy(tax).edges == (("Agent", "Thing"), ("Org", "Agent"), ("Person", "Agent"))
    loaded = load_concept_scores(scores)  # sniffed as a BDM file by its first line
    assert (loaded.get("Person", "Agent"), loaded.get("Agent", "Org")) == (0.5, 0.25)
    assert load_concept_scores(tax).get("Person", "Person") == 1.0  # a taxonomy: its BDM computed


def test_text_that_is_not_utf8_names_its_line_and_what_to_save(tmp_path):
    tax = tmp_path / "t.tsv"
    tax.write_bytes((TAXONOMY + "Café\tAgent\n").encode("latin-1"))
    scores = tmp_path / "s.txt"
    scores.write_bytes((SCORES + f"key=Café, response=Agent, bdm=0.5, {_FIELDS}\n").encode("latin-1"))
    for read, path, line, what in ((read_taxonomy, tax, 4, "the taxonomy"), (read_bdm_file, scores, 3, "the BDM file"),
                                   (load_concept_scores, tax, 4, "the BDM scores or taxonomy"),
                                   (load_concept_scores, scores, 3, "the BDM scores or taxonomy")):
        with pytest.raises(InputError) as err:
            read(path)
        message = str(err.value)
        assert message.startswith(f"{path}, line {line}: not UTF-8 text (invalid continuation byte at byte ")
        assert message.endswith(f"; save {what} as UTF-8")
