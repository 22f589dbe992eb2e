"""TIGER-XML into PhraseTrees: the mapping, crossing branches, the same tree in three formats, located errors."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from spacy_anno_eval.errors import InputError
from spacy_anno_eval.trees.brackets import Constituent
from spacy_anno_eval.trees.discbracket import parse_discbracket
from spacy_anno_eval.trees.phrase import PhraseNode, PhraseTree, is_discontinuous
from spacy_anno_eval.trees.tiger import parse_tiger, read_tiger

DATA = Path(__file__).parent / "data"

#: "Darüber muss nachgedacht werden ." by hand: VP(500) over words 0 and 2 crosses the finite verb
EXPECTED = PhraseTree(
    words=("Darüber", "muss", "nachgedacht", "werden", "."), tags=("PROAV", "VMFIN", "VVPP", "VAINF", "$."),
    word_parents=(500, 502, 500, 501, 0), word_functions=("MO", "HD", "HD", "HD", "--"),
    nodes=(PhraseNode(500, "VP", "OC", 501), PhraseNode(501, "VP", "OC", 502), PhraseNode(502, "S", "--", 0)))


def corpus(*sentences: str, head: str = "") -> str:
    return f'<?xml version="1.0" encoding="UTF-8"?>\n<corpus>{head}<body>\n' + "\n".join(sentences) + \
        "\n</body>\n</corpus>\n"


def sentence(sid: str, terminals: str, nonterminals: str = "", root: str | None = None) -> str:
    root_attr = f' root="{root}"' if root is not None else ""
    return (f'<s id="{sid}">\n<graph{root_attr}>\n<terminals>\n{terminals}\n</terminals>\n'
            f"<nonterminals>\n{nonterminals}\n</nonterminals>\n</graph>\n</s>")


TWO_WORDS = '<t id="x_1" word="a" pos="A"/>\n<t id="x_2" word="b" pos="B"/>'


def test_sample_file():
    trees = read_tiger(DATA / "sample.tiger.xml")
    assert [t.sent_id for t in trees] == ["s1", "s2", "s3"]  # s2 and s3 sit in a <subcorpus>
    first = trees[0]
    assert (first.words, first.tags, first.word_parents, first.word_functions, first.nodes) == (
        EXPECTED.words, EXPECTED.tags, EXPECTED.word_parents, EXPECTED.word_functions, EXPECTED.nodes)
    assert first.lemmas == ("darüber", "müssen", "nachdenken", "werden", "--")
    assert first.root_label == "VROOT" and first.line == 21 and first.source.endswith("sample.tiger.xml")


def test_discontinuous_yield():
    t = read_tiger(DATA / "sample.tiger.xml")[0]
    assert t.constituents() == [Constituent("VP", (0, 2)), Constituent("VP", (0, 2, 3)),
                                Constituent("S", (0, 1, 2, 3))]
    assert [is_discontinuous(c.positions) for c in t.constituents()] == [True, True, False]


def test_real_root_secedge_and_emoji():
    t = read_tiger(DATA / "sample.tiger.xml")[1]
    assert t.words == ("Maria", "lacht", "😀")
    # the graph's root S is a real node under 0; the <secedge> to the emoji is ignored, so it hangs from 0
    assert t.nodes == (PhraseNode(500, "S", "--", 0),)
    assert t.word_parents == (500, 500, 0)
    assert t.constituents() == [Constituent("S", (0, 1))]


def test_terminal_as_root():
    t = read_tiger(DATA / "sample.tiger.xml")[2]
    assert (t.words, t.word_parents, t.nodes) == (("Ja",), (0,), ())


def test_same_sentence_in_three_formats():
    tiger = read_tiger(DATA / "sample.tiger.xml")[0]
    disc = parse_discbracket((DATA / "sample.discbracket").read_text(encoding="utf-8"))[0]
    assert Counter(tiger.constituents()) == Counter(disc.constituents()) == Counter(EXPECTED.constituents())
    assert (tiger.words, tiger.tags) == (disc.words, disc.tags) == (EXPECTED.words, EXPECTED.tags)
    negra = pytest.importorskip("spacy_anno_eval.trees.negra")
    export = negra.read_negra(DATA / "sample.export")[0]
    assert Counter(export.constituents()) == Counter(tiger.constituents())
    assert (export.word_parents, export.word_functions, export.nodes) == (
        tiger.word_parents, tiger.word_functions, tiger.nodes)


def test_node_ids_from_suffix_else_running_numbers():
    nts = ('<nt id="x_np" cat="NP"><edge label="NK" idref="x_1"/></nt>\n'
           '<nt id="x_500" cat="S"><edge label="SB" idref="x_np"/><edge label="HD" idref="x_2"/></nt>\n'
           '<nt id="x_0" cat="CS"><edge label="CJ" idref="x_500"/></nt>')
    t = parse_tiger(corpus(sentence("x", TWO_WORDS, nts, root="x_0")))[0]
    # x_500 keeps 500; x_np and x_0 (0 is the root's id) get the next free numbers, in file order
    assert t.nodes == (PhraseNode(501, "NP", "SB", 500), PhraseNode(500, "S", "CJ", 502),
                       PhraseNode(502, "CS", "--", 0))
    assert t.word_parents == (501, 500) and t.word_functions == ("NK", "HD")


def test_root_category_and_missing_root_attribute():
    nts = '<nt id="x_9" cat="ROOT"><edge label="--" idref="x_1"/><edge label="--" idref="x_2"/></nt>'
    t = parse_tiger(corpus(sentence("x", TWO_WORDS, nts, root="x_9")))[0]
    assert (t.nodes, t.word_parents, t.root_label) == ((), (0, 0), "ROOT")
    # without a root attribute: a virtual root; parentless nodes and words hang from it
    nts = '<nt id="x_500" cat="NP"><edge label="NK" idref="x_1"/></nt>'
    t = parse_tiger(corpus(sentence("x", TWO_WORDS, nts)))[0]
    assert t.nodes == (PhraseNode(500, "NP", "--", 0),) and t.word_parents == (500, 0)


def test_without_head_with_namespace_latin1_and_str():
    text = corpus(sentence("x", '<t id="x_1" word="Straße" pos="NN"/>', root="x_1"))
    assert parse_tiger(text)[0].words == ("Straße",)  # str: the declaration's encoding is disregarded
    latin1 = text.replace('encoding="UTF-8"', 'encoding="ISO-8859-1"').encode("latin-1")
    assert parse_tiger(latin1)[0].words == ("Straße",)
    ns = text.replace("<corpus>", '<corpus xmlns="http://example.org/tiger">')
    assert parse_tiger(ns)[0].words == ("Straße",)
    assert parse_tiger(corpus())[0:] == []
    assert parse_tiger(corpus(sentence("e", "")))[0].words == ()


def test_no_lemmas_means_empty_lemmas():
    t = parse_tiger(corpus(sentence("x", TWO_WORDS, root="x_1")))[0]
    assert t.lemmas == () and t.tags == ("A", "B")


def test_many_sentences():
    many = corpus(*(sentence(f"s{i}", f'<t id="s{i}_1" word="w{i}" pos="X"/>', root=f"s{i}_1")
                    for i in range(2000)))
    trees = parse_tiger(many)
    assert len(trees) == 2000 and trees[-1].sent_id == "s1999" and trees[-1].words == ("w1999",)
    assert trees[1].line == 13 and trees[-1].line == 3 + 10 * 1999  # the first <s> on line 3, 10 lines each


def error(text: str | bytes) -> str:
    with pytest.raises(InputError) as exc:
        parse_tiger(text, source="bad.xml")
    return str(exc.value)


@pytest.mark.parametrize("nts, root, found, todo", [
    ('<nt id="x_500" cat="NP"><edge label="NK" idref="x_1"/></nt>\n'
     '<nt id="x_501" cat="S"><edge label="SB" idref="x_1"/></nt>', "x_501",
     "'x_1' has two parents, 'x_500' and 'x_501'", "keep one <edge>"),
    ('<nt id="x_500" cat="S"><edge label="SB" idref="x_7"/></nt>', "x_500",
     "<edge idref='x_7'> in 'x_500' points to nothing", "fix the idref"),
    ('<nt id="x_500" cat="S"><edge label="SB" idref="x_1"/></nt>', "x_600",
     "the graph's root 'x_600' is neither", "set <graph root=...>"),
    ('<nt id="x_500" cat="S"><edge label="SB" idref="x_500"/></nt>', "x_500",
     "<edge idref='x_500'> in 'x_500' points to the graph's root", "the root has no parent"),
    ('<nt id="x_500" cat="S"><edge label="SB" idref="x_501"/></nt>\n'
     '<nt id="x_501" cat="NP"><edge label="NK" idref="x_500"/></nt>', None, "cycle", "fix the <edge> elements"),
    ('<nt id="x_500" cat="S"><edge label="SB"/></nt>', "x_500", "has no idref", "name the child node"),
    ('<nt id="x_1" cat="S"/>', "x_1", "the id 'x_1' is used twice", "make the ids of a sentence unique"),
])
def test_graph_errors_name_file_line_sentence_and_fix(nts, root, found, todo):
    text = corpus(sentence("a", '<t id="a_1" word="ok" pos="X"/>', root="a_1"), sentence("x", TWO_WORDS, nts, root))
    msg = error(text)
    assert msg.startswith("bad.xml, line 13, sentence x: "), msg  # the first sentence takes lines 3-12
    assert found in msg and todo in msg


def test_terminal_errors():
    msg = error(corpus(sentence("x", '<t id="x_1" pos="X"/>')))
    assert msg.startswith("bad.xml, line 3, sentence x") and "no word attribute" in msg and 'word="..."' in msg
    msg = error(corpus(sentence("x", '<t id="x_1" word="a"/><t id="x_1" word="b"/>')))
    assert "line 3" in msg and "used by two terminals" in msg and "make the ids" in msg


def test_not_xml_entities_and_not_tiger():
    msg = error('<corpus><body>\n<s id="1"><graph></s></body></corpus>')
    assert msg.startswith("bad.xml, line 2") and "invalid XML" in msg
    bomb = '<?xml version="1.0"?>\n<!DOCTYPE corpus [\n<!ENTITY a "aaaa">\n]>\n<corpus><body/></corpus>'
    msg = error(bomb)
    assert "line 3" in msg and "entity" in msg and "Remove the <!ENTITY" in msg
    msg = error("<collection><document/></collection>")
    assert "<collection>" in msg and "not TIGER-XML" in msg and "<corpus>" in msg
    msg = error("(S (NN 0=a))")
    assert msg.startswith("bad.xml, line 1") and "invalid XML" in msg


def test_read_errors(tmp_path):
    with pytest.raises(InputError, match="no such file"):
        read_tiger(tmp_path / "missing.xml")
    with pytest.raises(InputError, match="not a file"):
        read_tiger(tmp_path)
    path = tmp_path / "bad.xml"
    path.write_text(corpus(sentence("x", '<t id="x_1" pos="X"/>')), encoding="utf-8")
    with pytest.raises(InputError, match=r"bad\.xml, line 3, sentence x: terminal 'x_1' has no word"):
        read_tiger(path)
