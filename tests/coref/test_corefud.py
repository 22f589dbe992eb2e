"""The CorefUD 1.0 reader on hand-made files: joined brackets, discontinuous mentions, empty nodes, a mention in
two entities (kept in the last, as the CorefUD scorer keeps it), and its refusals."""

from __future__ import annotations

import warnings

import pytest

from spacy_anno_eval.coref.corefud import read_corefud
from spacy_anno_eval.errors import CorefWarning, InputError


def line(i: str, form: str, entity: str = "") -> str:
    return "\t".join([i, form, "_", "_", "_", "_", "0", "_", "_", f"Entity={entity}" if entity else "_"])


DOC = "\n".join([
    "# newdoc id = d1", "# global.Entity = eid-etype-head-other", "# sent_id = 1",
    line("1", "Ada", "(e1-person-1-"),
    line("2", "Lovelace", "e1)"),
    line("3", "and", "(e2[1/2]-person-1-)"),
    line("4", "Babbage", "(e3-person-1-)"),
    line("4.1", "_", "(e1-person-1-)"),           # an empty node: a zero mention of Ada
    line("5", "met", "(e2[2/2]-person-1-)"),
    "", "# newdoc id = d2", "# sent_id = 2",
    line("1-2", "dont"),                            # a multiword range: skipped
    line("1", "do", "(e4-x-1-)(e5-x-1-"),
    line("2", "n't", "e5)"),
    "",
])


def write(tmp_path, text):
    path = tmp_path / "f.conllu"
    path.write_text(text, encoding="utf8")
    return path


def test_words_entities_discontinuous_mentions_and_empty_nodes(tmp_path):
    d1, d2 = read_corefud(write(tmp_path, DOC))
    assert (d1.name, d2.name) == ("d1", "d2")
    assert d1.tokens == ("Ada", "Lovelace", "and", "Babbage", "met") and d2.tokens == ("do", "n't")
    # the empty node 4.1 sits after word 4 (position 3), at 3.001; e2's two parts make one mention: words 2 and 4
    assert d1.entities == (((0, 1), (3.001,)), ((2, 4),), ((3,),))
    assert d1.empty == {3.001} and d1.form(3.001) == "_" and d1.is_zero((3.001,)) and not d1.is_zero((3,))
    assert d2.entities == (((0,),), ((0, 1),))  # "do" alone (e4) and "do n't" (e5), joined brackets


def test_a_mention_in_two_entities_stays_in_the_last_with_a_warning(tmp_path):
    text = DOC.replace(line("4", "Babbage", "(e3-person-1-)"), line("4", "Babbage", "(e3-person-1-)(e1-person-1-)"))
    with pytest.warns(CorefWarning, match="1 mention written in two entities kept in the last"):
        d1, _ = read_corefud(write(tmp_path, text))
    assert ((3,),) not in d1.entities and (0, 1) in d1.entities[0] and (3,) in d1.entities[0]


@pytest.mark.parametrize("text, message", [
    ("# newdoc id = d\n" + line("1", "a", "(e1-x-1-") + "\n", "still open"),
    ("# newdoc id = d\n" + line("1", "a", "e1)") + "\n", "no '\\(e1-...' opened"),
    ("# newdoc id = d\n1\ta\n", "10 tab-separated columns"),
    ("# newdoc id = d\n", "nothing to compare"),
])
def test_what_cannot_be_read_is_refused_naming_the_line(tmp_path, text, message):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(InputError, match=message):
            read_corefud(write(tmp_path, text))


def test_key_and_response_may_differ_in_empty_nodes_and_zeros_match_by_their_place(tmp_path):
    """The CorefUD scorer compares the words of key and response, not their empty nodes: systems predict their
    own zeros. A response zero at the key zero's N.M matches it; an extra empty node elsewhere is no error."""
    from spacy_anno_eval.coref.metrics import score_documents

    response_text = DOC.replace(line("2", "Lovelace", "e1)"), line("2", "Lovelace", "e1)") + "\n" +
                                line("2.1", "_", "(e9-x-1-)"))
    key = read_corefud(write(tmp_path, DOC))
    (tmp_path / "r").mkdir()
    response = read_corefud(write(tmp_path / "r", response_text))
    assert response[0].empty == {1.001, 3.001} and response[0].tokens == key[0].tokens
    figures = score_documents(key, response, match="exact").figures()
    assert figures["mentions"]["r"] == 1.0 and figures["mentions"]["p"] == pytest.approx(6 / 7)
    assert score_documents(key, response, keep_zeros=False).figures()["mentions"]["p"] == 1.0


def test_an_empty_node_before_a_sentence_is_not_one_after_the_sentence_before(tmp_path):
    """0.1 of sentence 2 and 2.1 after the last word of sentence 1 are two places: two zeros, not one."""
    text = "\n".join(["# newdoc id = d", "# sent_id = 1", line("1", "a", "(e1-x-1-)"), line("2", "b"),
                      line("2.1", "_", "(e2-x-1-)"), "", "# sent_id = 2", line("0.1", "_", "(e3-x-1-)"),
                      line("1", "c"), ""])
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no "written in two entities"
        (doc,) = read_corefud(write(tmp_path, text))
    assert len(doc.empty) == 2 and doc.tokens == ("a", "b", "c")
    trailing, leading = sorted(doc.empty)  # 2.1 of sentence 1, then 0.1 of sentence 2
    assert 1 < trailing < leading < 2 and len(doc.entities) == 3
