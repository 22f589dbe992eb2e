"""disco-dop's discbracket format into PhraseTrees: leaves by index, root brackets, escapes, located errors."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from spacy_anno_eval.errors import ConfigError, InputError
from spacy_anno_eval.trees.brackets import Constituent
from spacy_anno_eval.trees.discbracket import parse_discbracket, read_discbracket
from spacy_anno_eval.trees.phrase import PhraseNode, PhraseTree, is_discontinuous
from spacy_anno_eval.trees.tiger import read_tiger

DATA = Path(__file__).parent / "data"

#: "Darüber muss nachgedacht werden ." as NEGRA export would give it (ids and functions aside)
EXPECTED = PhraseTree(
    words=("Darüber", "muss", "nachgedacht", "werden", "."), tags=("PROAV", "VMFIN", "VVPP", "VAINF", "$."),
    word_parents=(500, 502, 500, 501, 0), word_functions=("MO", "HD", "HD", "HD", "--"),
    nodes=(PhraseNode(500, "VP", "OC", 501), PhraseNode(501, "VP", "OC", 502), PhraseNode(502, "S", "--", 0)))


def test_sample_file():
    trees = read_discbracket(DATA / "sample.discbracket")
    assert [t.sent_id for t in trees] == ["1", "2", "4"]  # line numbers; the blank line 3 is skipped
    first = trees[0]  # its TAB-separated comment is skipped
    assert first.words == EXPECTED.words and first.tags == EXPECTED.tags
    assert first.nodes == (PhraseNode(500, "S", "", 0), PhraseNode(501, "VP", "", 500),
                           PhraseNode(502, "VP", "", 501))
    assert first.word_parents == (502, 500, 502, 501, 0) and first.word_functions == ("",) * 5
    assert first.root_label == "ROOT" and first.line == 1 and first.lemmas == ()


def test_discontinuous_yield():
    t = read_discbracket(DATA / "sample.discbracket")[0]
    assert t.constituents() == [Constituent("S", (0, 1, 2, 3)), Constituent("VP", (0, 2, 3)),
                                Constituent("VP", (0, 2))]
    assert [is_discontinuous(c.positions) for c in t.constituents()] == [False, True, True]
    # disco-dop's own documentation example: the VP over "is ... rich" around "John"
    t = parse_discbracket("(S (VP (VB 0=is) (JJ 2=rich)) (NP 1=John) (? 3=?))")[0]
    assert t.words == ("is", "John", "rich", "?") and t.tags == ("VB", "NP", "JJ", "?")
    assert t.constituents() == [Constituent("S", (0, 1, 2, 3)), Constituent("VP", (0, 2))]
    assert t.root_label == "" and t.nodes[0] == PhraseNode(500, "S", "", 0)


def test_same_sentence_in_three_formats():
    disc = read_discbracket(DATA / "sample.discbracket")[0]
    tiger = read_tiger(DATA / "sample.tiger.xml")[0]
    assert Counter(disc.constituents()) == Counter(tiger.constituents()) == Counter(EXPECTED.constituents())
    assert disc.words == tiger.words == EXPECTED.words and disc.tags == tiger.tags
    negra = pytest.importorskip("spacy_anno_eval.trees.negra")
    export = negra.read_negra(DATA / "sample.export")[0]
    assert Counter(export.constituents()) == Counter(disc.constituents())
    assert (export.words, export.tags) == (disc.words, disc.tags)


def test_emoji_escapes_and_empty_outer_bracket():
    trees = read_discbracket(DATA / "sample.discbracket")
    assert trees[1].words == ("Maria", "lacht", "😀") and trees[1].word_parents == (500, 500, 0)
    third = trees[2]  # ( (S ...)) with #LRB#/#RRB# inside a word and the tag $[
    assert third.root_label == "" and third.words == ("Sie", "sagte", "(ja)")
    assert third.tags == ("PPER", "VVFIN", "$[")
    assert third.constituents() == [Constituent("S", (0, 1, 2)), Constituent("NP-SB", (0,))]
    t = parse_discbracket("(VROOT (NP (NN 1=-LRB-) (NN 0=a=b)))")[0]
    assert t.words == ("a=b", "-LRB-") and t.root_label == "VROOT"  # PTB escapes kept, as disco-dop does


def test_preterminal_rules():
    # a bracket over one leaf is the word's tag, wherever it is; "(0=x)" has the empty tag
    t = parse_discbracket("(S (NP 1=John) (0=x))")[0]
    assert t.tags == ("", "NP") and t.word_parents == (500, 500)
    t = parse_discbracket("(NN 0=Haus)")[0]
    assert t.nodes == () and t.tags == ("NN",) and t.word_parents == (0,)
    t = parse_discbracket("(ROOT (NN 0=Haus) ($. 1=.))")[0]
    assert t.nodes == () and t.word_parents == (0, 0) and t.root_label == "ROOT"
    t = parse_discbracket("(S (NP ) (NN 0=Haus))")[0]  # a bracket without words: kept, not a constituent
    assert len(t.nodes) == 2 and t.constituents() == [Constituent("S", (0,))]
    # two top-level trees on a line: both hang from 0
    t = parse_discbracket("(S (NN 0=a)) (T (NN 1=b))")[0]
    assert [(n.label, n.parent) for n in t.nodes] == [("S", 0), ("T", 0)]


def test_functions_split():
    line = "(ROOT (S-TOP (NP-SB=2 (PPER-HD 0=Sie)) (-NONE- 1=*) (NP-2 (NN 2=x))))"
    t = parse_discbracket(line, functions="split")[0]
    assert [(n.label, n.function) for n in t.nodes] == [("S", "TOP"), ("NP", "SB"), ("NP", "")]
    assert t.tags == ("PPER", "-NONE-", "NN") and t.word_functions == ("HD", "", "")
    kept = parse_discbracket(line)[0]
    assert [n.label for n in kept.nodes] == ["S-TOP", "NP-SB=2", "NP-2"]
    with pytest.raises(ConfigError, match="functions must be one of keep, split"):
        parse_discbracket(line, functions="remove")


def test_lines_iterable_bom_and_tab_inside_tree():
    trees = parse_discbracket(["\ufeff(S (A 0=a))\n", "\n", "(S\t(A 0=b))\n"])
    assert [t.words for t in trees] == [("a",), ("b",)] and trees[1].line == 3
    assert parse_discbracket("") == []


def error(text: str) -> str:
    with pytest.raises(InputError) as exc:
        parse_discbracket(text, source="bad.discbracket")
    return str(exc.value)


@pytest.mark.parametrize("line, found, todo", [
    ("(S (A 0=a) (B 1=b)", "1 bracket(s) never closed, the innermost '(S'", "balance the brackets"),
    ("(S (A 0=a)))", "column 12: a closing bracket ')' without an opening one", "balance the brackets"),
    ("(S (A 0=a) (B 0=b))", "index 0 is used twice ('a' and 'b')", "give each word its own index"),
    ("(S (A 0=a) (B 2=b))", "must be 0 .. 1, each once: 1 missing, 2 beyond", "renumber the leaves"),
    ("(S (A 1=a))", "must be 0 .. 0, each once: 0 missing, 1 beyond", "renumber the leaves"),
    ("(S (A John))", "column 7: leaf 'John' has no index", "written index=word"),
    ("(S (A 0=))", "leaf '0=' has no word", "write every leaf as index=word"),
    ("(S (A 0=a 1=b))", "holds the leaf '0=a' beside other children", "(TAG 0=a)"),
    ("(S (NP (A 0=a)) 1=b)", "holds the leaf '1=b' beside other children", "(TAG 1=b)"),
    ("(ROOT (S (A 0=a)) 1=b)", "sits directly under the root bracket", "(TAG 1=b)"),
    ("0=a (S (A 1=b))", "leaf '0=a' outside any bracket", "put it in a preterminal"),
    ("hello", "leaf 'hello' has no index", "read_brackets"),
])
def test_errors_name_file_line_and_fix(line, found, todo):
    msg = error(f"(S (A 0=ok))\n\n{line}\n")
    assert msg.startswith("bad.discbracket, line 3"), msg
    assert found in msg and todo in msg, msg


def test_read_errors(tmp_path):
    with pytest.raises(InputError, match="no such file"):
        read_discbracket(tmp_path / "missing.discbracket")
    path = tmp_path / "latin1.discbracket"
    path.write_bytes("(S (A 0=Stra\u00dfe))\n".encode("latin-1"))
    with pytest.raises(InputError, match=r"latin1\.discbracket, line 1: not UTF-8 text \(.* at byte 12\); .* read as "
                                         r"UTF-8"):
        read_discbracket(path)
    path.write_text("(S (A 0=a))\n(S (A 1=a))\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"latin1\.discbracket, line 2: .*renumber"):
        read_discbracket(path)
