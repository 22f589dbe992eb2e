"""NEGRA export format 3 and 4 (:mod:`spacy_anno_eval.trees.negra`) and the phrase-tree model."""

from __future__ import annotations

import pytest

from spacy_anno_eval.errors import InputError
from spacy_anno_eval.trees.brackets import parse_brackets
from spacy_anno_eval.trees.negra import parse_negra, read_negra
from spacy_anno_eval.trees.phrase import PhraseNode, PhraseTree, from_brackets, is_discontinuous
from spacy_anno_eval.trees.readers import read_phrase_trees, sniff

V3 = """#FORMAT 3
%% a comment
#BOT ORIGIN
0 somewhere
#EOT ORIGIN
#BOS 7 2 898346016 1 %% after the id
Who\tWP\t--\t--\t500
did\tVB\t--\tHD\t501
Fritz\tNNP\t--\tSB\t501\tHD\t500
likes\tVB\t--\tHD\t500
?\t$.\t--\t--\t0
#500\tVP\t--\tOC\t501
#501\tS\t--\t--\t0
#EOS 7
"""

V4 = """%% word\tlemma\ttag\tmorph\tedge\tparent\tsecedge
#BOS 1
Wer\twer\tPWS\t--\tOA\t500
mag\tmögen\tVMFIN\t--\tHD\t501
🙂\t🙂\tXY\t--\t--\t0
Bücher\tBuch\tNN\t--\tSB\t501
#500\t--\tVP\t--\tOC\t501
#501\t--\tS\t--\t--\t0
#EOS 1
"""


def test_version_3_with_tables_comments_and_secondary_edges():
    (t,) = parse_negra(V3)
    assert t.sent_id == "7" and t.words == ("Who", "did", "Fritz", "likes", "?")
    assert t.tags[2] == "NNP" and t.word_functions[2] == "SB" and t.word_parents == (500, 501, 501, 500, 0)
    assert [(c.label, c.positions) for c in t.constituents()] == [("VP", (0, 3)), ("S", (0, 1, 2, 3))]
    assert is_discontinuous((0, 3)) and not is_discontinuous((0, 1, 2, 3))
    assert t.parent_labels() == ("VP", "S", "S", "VP", "VROOT")


def test_version_4_lemmas_and_emoji_detected_by_header_and_by_columns():
    (t,) = parse_negra(V4)
    assert t.lemmas == ("wer", "mögen", "🙂", "Buch") and t.words[2] == "🙂"
    assert [(c.label, c.positions) for c in t.constituents()] == [("VP", (0,)), ("S", (0, 1, 3))]
    (same,) = parse_negra(V4.split("\n", 1)[1])  # no header: the columns tell version 4
    assert same.constituents() == t.constituents()


def test_space_separated_columns_as_treetools_writes_them():
    text = "#BOS 1\nWho                     WP      --              --      500\n" \
           "#500                    VP      --              --      0\n#EOS 1\n"
    (t,) = parse_negra(text)
    assert t.words == ("Who",) and t.nodes == (PhraseNode(500, "VP", "--", 0),)


@pytest.mark.parametrize(("text", "message"), [
    ("#BOS 1\nWho\tWP\t--\t--\t500\n", "has no '#EOS'"),
    ("Who\tWP\t--\t--\t0\n", "outside a sentence"),
    ("#FORMAT 3\n#BOS 1\nWho\tWP\t--\n#EOS 1", "3 column"),
    ("#FORMAT 3\n#BOS 1\nWho\tWP\t--\t--\tX\n#EOS 1", "not a node number"),
    ("#BOS 1\nWho\tWP\t--\t--\tX\n#EOS 1", "add '#FORMAT 3'"),
    ("#BOS 1\nWho\tWP\t--\t--\t502\n#500\tVP\t--\t--\t0\n#EOS 1", "parent #502"),
    ("#BOS 1\n#500\tVP\t--\t--\t0\nWho\tWP\t--\t--\t500\n#EOS 1", "words come first"),
    ("#BOS 1\nWho\tWP\t--\t--\t500\n#500\tVP\t--\t--\t501\n#501\tS\t--\t--\t500\n#EOS 1", "cycle"),
    ("#BOS 1\n#BOS 2\n", "before the '#EOS'"),
    ("#FORMAT 9\n", "version 3 or 4"),
])
def test_errors_name_the_line_and_what_to_do(text, message):
    with pytest.raises(InputError, match="line") as info:
        parse_negra(text, source="x.export")
    assert message in str(info.value) and "x.export" in str(info.value)


def test_latin1_file_is_a_located_error_with_the_fix(tmp_path):
    path = tmp_path / "negra.export"
    path.write_bytes("#BOS 1\nMüller\tNE\t--\t--\t0\n#EOS 1\n".encode("latin-1"))
    with pytest.raises(InputError, match="latin-1"):
        read_negra(path)
    assert read_negra(path, encoding="latin-1")[0].words == ("Müller",)


def test_from_brackets_keeps_unary_chains_and_the_outer_bracket_as_root():
    (b,) = parse_brackets("( (S (NP (NP (DT a)) (PP (IN of) (NN b))) (VBD c)))")
    t = from_brackets(b)
    assert [(n.label, n.parent) for n in t.nodes] == [("S", 0), ("NP", 500), ("NP", 501), ("PP", 501)]
    assert [(c.label, c.positions) for c in t.constituents()] == [("S", (0, 1, 2, 3)), ("NP", (0, 1, 2)),
                                                                  ("NP", (0,)), ("PP", (1, 2))]
    assert t.word_parents == (502, 503, 503, 500)


def test_readers_sniff_by_suffix_and_content(tmp_path):
    (tmp_path / "a.export").write_text(V3, encoding="utf-8")
    (tmp_path / "a.txt").write_text(V4, encoding="utf-8")
    (tmp_path / "b.txt").write_text("(S (NP (DT a)) (VP (VB b)))\n", encoding="utf-8")
    (tmp_path / "c.txt").write_text("hello\n", encoding="utf-8")
    assert sniff(tmp_path / "a.export") == "export" and sniff(tmp_path / "a.txt") == "export"
    assert sniff(tmp_path / "b.txt") == "brackets" and sniff(tmp_path / "c.txt") is None
    assert read_phrase_trees(tmp_path / "b.txt")[0].constituents()[0].positions == (0, 1)
    with pytest.raises(InputError, match="--tree-format"):
        read_phrase_trees(tmp_path / "c.txt")


def test_tree_model_refuses_inconsistent_input():
    with pytest.raises(InputError, match="differ in number"):
        PhraseTree(words=("a",), tags=(), word_parents=(0,))
    with pytest.raises(InputError, match="used twice"):
        PhraseTree(words=("a",), tags=("X",), word_parents=(0,),
                   nodes=(PhraseNode(500, "A", "", 0), PhraseNode(500, "B", "", 0)))
