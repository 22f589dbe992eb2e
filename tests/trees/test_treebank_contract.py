"""The treebank readers and commands hold the contract by construction (issue 26): one located file reader,
bracket depth checked before parsing, an empty treebank refused, EVALB totals merged only under equal
parameters. (QUOTE_LABEL, EVALB 2006's repair: ``test_evalb_2006.py``.)"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from spacy_anno_eval.errors import ConfigError, InputError
from spacy_anno_eval.trees.brackets import read_brackets
from spacy_anno_eval.trees.conllu import read_conllu
from spacy_anno_eval.trees.discbracket import read_discbracket
from spacy_anno_eval.trees.evalb import EvalbParams
from spacy_anno_eval.trees.negra import read_negra
from spacy_anno_eval.trees.tiger import read_tiger

# ---------------------------------------------------------------- one located file reader

READERS = {"brackets": (read_brackets, ".mrg"), "discbracket": (read_discbracket, ".discbracket"),
           "export": (read_negra, ".export"), "conllu": (read_conllu, ".conllu"), "tiger": (read_tiger, ".xml")}


@pytest.mark.parametrize("kind", sorted(READERS))
def test_every_treebank_reader_names_a_folder_and_a_missing_file(kind, tmp_path):
    read, suffix = READERS[kind]
    folder = tmp_path / f"folder{suffix}"
    folder.mkdir()
    with pytest.raises(InputError, match=r"folder\.\w+: a folder, not a file"):
        read(folder)
    with pytest.raises(InputError, match=r"missing\.\w+: no such file"):
        read(tmp_path / f"missing{suffix}")


@pytest.mark.parametrize(("kind", "text", "hint"), [
    ("brackets", "(S (NN a))\n(S (NN caf\xe9))\n", "bracketed trees are read as UTF-8"),
    ("discbracket", "(S (NN 0=a))\n(S (NN 0=caf\xe9))\n", "discbracket files are read as UTF-8"),
    ("export", "#BOS 1\ncaf\xe9\tNN\t--\t--\t0\n#EOS 1\n", "encoding='latin-1'"),
    ("conllu", "1\ta\ta\tX\tX\t_\t0\troot\t_\t_\n\n1\tcaf\xe9\ta\tX\tX\t_\t0\troot\t_\t_\n", "CoNLL-U files are UTF-8"),
])
def test_text_that_is_not_utf8_is_located_with_the_readers_hint(kind, text, hint, tmp_path):
    read, suffix = READERS[kind]
    path = tmp_path / f"latin{suffix}"
    path.write_bytes(text.encode("latin-1"))
    with pytest.raises(InputError) as info:
        read(path)
    message = str(info.value)
    line = 3 if kind == "conllu" else 2
    assert message.startswith(f"{path}, line {line}: not UTF-8 text (") and hint in message, message


def test_latin1_export_reads_with_its_encoding(tmp_path):
    path = tmp_path / "latin.export"
    path.write_bytes("#BOS 1\ncaf\xe9\tNN\t--\t--\t0\n#EOS 1\n".encode("latin-1"))
    assert read_negra(path, encoding="latin-1")[0].words == ("caf\xe9",)


def test_a_byte_order_mark_is_dropped_by_the_conllu_reader(tmp_path):
    path = tmp_path / "bom.conllu"
    path.write_bytes("\ufeff1\ta\ta\tX\tX\t_\t0\troot\t_\t_\n".encode())
    assert read_conllu(path).sentences[0].words[0].form == "a"


def test_a_parameter_file_that_cannot_be_read_is_a_located_config_error(tmp_path):
    path = tmp_path / "latin.prm"
    path.write_bytes(b"LABELED 1\nDELETE_LABEL caf\xe9\n")
    with pytest.raises(ConfigError, match=r"latin\.prm, line 2: not UTF-8 text .* save it as UTF-8"):
        EvalbParams.read(path)
    with pytest.raises(ConfigError, match=r"none\.prm: no such file \(an EVALB parameter file\)"):
        EvalbParams.read(tmp_path / "none.prm")


# ---------------------------------------------------------------- depth

def run_cli(*args: str):
    from typer.testing import CliRunner

    from spacy_anno_eval.cli.app import app

    return CliRunner().invoke(app, ["trees", *map(str, args)])


def one_error_line(result, *names: str) -> str:
    """The one line on stderr of an exit 2, naming each of ``names``."""
    assert result.exit_code == 2, result.output
    (line,) = [ln for ln in result.stderr.splitlines() if ln.strip()]
    assert line.startswith("anno-eval: error: ") and "Traceback" not in result.output, line
    for name in names:
        assert name in line, line
    return line


def chain(depth: int, leaf: str) -> str:
    return "(X " * depth + leaf + ")" * depth


def test_discbracket_1000_deep_is_refused_not_crashed(tmp_path):
    path = tmp_path / "deep.discbracket"
    path.write_text("(ROOT (NN 0=a))\n" + f"(ROOT {chain(1000, '(NN 0=a)')})\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"deep\.discbracket, line 2: brackets nest\w* deeper than 200 levels"):
        read_discbracket(path)
    one_error_line(run_cli(path, path), "deep.discbracket, line 2", "200")


def test_discbracket_200_deep_is_read(tmp_path):
    from spacy_anno_eval.trees.discbracket import parse_discbracket

    tree = parse_discbracket(f"(ROOT {chain(198, '(NN 0=a)')})")[0]  # ROOT + 198 + the preterminal: 200
    assert len(tree.nodes) == 198 and tree.constituents()[-1].positions == (0,)


@pytest.mark.parametrize("layout", ["line", "tree", "auto"])
def test_penn_brackets_1000_deep_are_refused_not_crashed(layout, tmp_path):
    path = tmp_path / "deep.mrg"
    path.write_text(f"(S (NN a))\n( (S\n{chain(1000, '(NN a)')}\n))\n", encoding="utf-8")
    if layout == "line":  # one sentence per line: the second line holds 1002 open brackets
        path.write_text(f"(S (NN a))\n(S {chain(1000, '(NN a)')})\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"deep\.mrg, line \d: brackets nest\w* deeper than 200 levels"):
        read_brackets(path, layout)
    one_error_line(run_cli(path, path), "deep.mrg, line", "200")


def test_evalb_strings_1000_deep_are_refused_not_crashed():
    from spacy_anno_eval.trees.evalb import evaluate_trees

    with pytest.raises(InputError, match="deeper than 200"):
        evaluate_trees([f"(S {chain(1000, '(NN a)')})"], ["(S (NN a))"])


def test_negra_1000_deep_chain_is_scored_without_recursion(tmp_path):
    """NEGRA export is not bracketed (nodes name their parents) and no walk recurses: a chain 1,000 nodes deep
    is read and scored."""
    depth = 1000
    lines = ["#BOS 1", "a\tNN\t--\t--\t500"]
    lines += [f"#{500 + i}\tX\t--\t--\t{501 + i if i < depth - 1 else 0}" for i in range(depth)]
    path = tmp_path / "deep.export"
    path.write_text("\n".join([*lines, "#EOS 1"]) + "\n", encoding="utf-8")
    tree = read_negra(path)[0]
    assert len(tree.nodes) == depth and tree.yields()[500 + depth - 1] == (0,)
    result = run_cli(path, path, "--json", tmp_path / "out.json", "-q")
    assert result.exit_code == 0, result.output


def test_tiger_xml_1000_deep_is_refused_not_crashed(tmp_path):
    path = tmp_path / "deep.xml"
    path.write_text("<corpus><body>" + "<subcorpus>" * 1000 + "</subcorpus>" * 1000 + "</body></corpus>",
                    encoding="utf-8")
    with pytest.raises(InputError, match="deeper than 200"):
        read_tiger(path)
    one_error_line(run_cli(path, path), "deep.xml", "200")


# ---------------------------------------------------------------- empty is an error

DATA = Path(__file__).parent / "data"
CONLLU_ONE = "1\ta\ta\tX\tX\t_\t0\troot\t_\t_\n"
GOOD = {"brackets": ("good.mrg", "( (S (NP (DT The) (NN cat)) (VP (VBD sat))))\n"),
        "conllu": ("good.conllu", CONLLU_ONE),
        "export": ("sample.export", None), "discbracket": ("sample.discbracket", None),
        "tiger": ("sample.tiger.xml", None)}
EMPTY = [  # format, file name, text, what the message says
    ("brackets", "empty.mrg", "", "(no sentences)"),
    ("brackets", "blank.mrg", "\n\n", "(no sentences with words: all 2 sentences are empty)"),
    ("export", "empty.export", "", "(no sentences)"),
    ("export", "header.export", "#FORMAT 3\n%% word tag morph edge parent\n", "(no sentences)"),
    ("export", "wordless.export", "#BOS 1\n#EOS 1\n", "(no sentences with words: the one sentence is empty)"),
    ("discbracket", "empty.discbracket", "", "(no sentences)"),
    ("discbracket", "blank.discbracket", "\n \n", "(no sentences)"),
    ("tiger", "empty.xml", '<?xml version="1.0"?>\n<corpus id="c"><head/><body/></corpus>\n', "(no sentences)"),
    ("tiger", "wordless.xml", '<corpus><body><s id="s1"><graph root="s1_500"><terminals/><nonterminals>'
                              '<nt id="s1_500" cat="S"/></nonterminals></graph></s></body></corpus>',
     "(no sentences with words: the one sentence is empty)"),
    ("conllu", "empty.conllu", "", "(no sentences)"),
    ("conllu", "blank.conllu", "\n\n\n", "(no sentences)"),
]
IDS = [name for _, name, _, _ in EMPTY]


def good_file(kind: str, tmp_path) -> Path:
    name, text = GOOD[kind]
    if text is None:
        return DATA / name
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def empty_file(name: str, text: str, tmp_path):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize(("kind", "name", "text", "says"), EMPTY, ids=IDS)
def test_every_reader_refuses_an_empty_treebank(kind, name, text, says, tmp_path):
    read, _ = READERS[kind]
    path = empty_file(name, text, tmp_path)
    with pytest.raises(InputError) as info:
        read(path)
    assert str(info.value).startswith(f"{path}: nothing to compare {says}; "), str(info.value)


@pytest.mark.parametrize(("kind", "name", "text", "says"), EMPTY, ids=IDS)
@pytest.mark.parametrize("side", ["key", "response"])
def test_cli_refuses_an_empty_treebank_with_exit_2(kind, name, text, says, side, tmp_path):
    empty, good = empty_file(name, text, tmp_path), good_file(kind, tmp_path)
    key, response = (empty, good) if side == "key" else (good, empty)
    one_error_line(run_cli(key, response, "--json", tmp_path / "out.json"), f"{name}: nothing to compare {says}")
    assert not (tmp_path / "out.json").exists()
    one_error_line(run_cli(empty, empty), f"{name}: nothing to compare")


def test_empty_export_is_refused(tmp_path):
    empty = empty_file("empty.export", "", tmp_path)
    one_error_line(run_cli(empty, empty), "empty.export: nothing to compare (no sentences)")
    one_error_line(run_cli(DATA / "sample.export", empty, "--prm", DATA.parent / "missing.prm"), "missing.prm")


def test_empty_mrg_is_refused_with_a_parameter_file(tmp_path):
    prm = empty_file("p.prm", "LABELED 1\nDELETE_LABEL TOP\n", tmp_path)
    empty = empty_file("empty.mrg", "", tmp_path)
    one_error_line(run_cli(good_file("brackets", tmp_path), empty, "--prm", prm), "empty.mrg: nothing to compare")


def test_python_api_refuses_empty_key_and_response(tmp_path):
    """The comparisons refuse an empty side whatever built it: parsed strings, lists, spaCy Docs."""
    import spacy_anno_eval.trees as trees
    from spacy_anno_eval.trees.brackets import parse_brackets
    from spacy_anno_eval.trees.conllu import parse_conllu
    from spacy_anno_eval.trees.negra import parse_negra

    one = parse_brackets("(S (NN a))")
    phrase = read_negra(DATA / "sample.export")
    conllu = parse_conllu(CONLLU_ONE, source="one.conllu")
    cases = [
        (lambda: trees.evalb.evaluate([], one), "EVALB: nothing to compare (no sentences in the gold)"),
        (lambda: trees.evalb.evaluate(one, parse_brackets("\n", layout="line")),
         "EVALB: nothing to compare (no sentences with words in the test: the one sentence is empty)"),
        (lambda: trees.evaluate_trees([], []), "nothing to compare (no sentences in the gold)"),
        (lambda: trees.evaluate_trees(["(S (NN a))"], [""]), "nothing to compare (no sentences with words in the "
                                                            "test"),
        (lambda: trees.evaluate_disco(phrase, []), "nothing to compare (no sentences in the test)"),
        (lambda: trees.evaluate_disco(parse_negra("#BOS 1\n#EOS 1\n"), phrase),
         "nothing to compare (no sentences with words in the gold"),
        (lambda: trees.compare_phrase_treebanks([], phrase), "key: nothing to compare (no sentences in the key)"),
        (lambda: trees.compare_phrase_treebanks(phrase, [], response_source="r.export"),
         "r.export: nothing to compare (no sentences in the response)"),
        (lambda: trees.compare_treebanks(conllu, parse_conllu("", source="r.conllu")),
         "r.conllu: nothing to compare (no sentences in the response)"),
        (lambda: trees.compare_docs([], []), "key docs: nothing to compare (no sentences in the key)"),
    ]
    for call, message in cases:
        with pytest.raises(InputError) as info:
            call()
        assert message in str(info.value), str(info.value)
    empty = empty_file("e.export", "", tmp_path)
    for call in (lambda: trees.evaluate_disco_files(DATA / "sample.export", empty),
                 lambda: trees.compare_phrase_files(empty, DATA / "sample.export"),
                 lambda: trees.read_phrase_trees(empty)):
        with pytest.raises(InputError, match=r"e\.export: nothing to compare \(no sentences\)"):
            call()
    mrg = empty_file("e.mrg", "", tmp_path)
    with pytest.raises(InputError, match=r"e\.mrg: nothing to compare \(no sentences\)"):
        trees.evaluate_files(good_file("brackets", tmp_path), mrg)
    conllu_file = empty_file("e.conllu", "", tmp_path)
    with pytest.raises(InputError, match=r"e\.conllu: nothing to compare \(no sentences\)"):
        trees.compare_files(conllu_file, conllu_file)


def test_some_empty_test_sentences_are_still_skipped_as_evalb_does():
    from spacy_anno_eval.trees.evalb import SKIP, evaluate_trees

    result = evaluate_trees(["(S (NN a))", "(S (NN b))"], ["(S (NN a))", ""])
    assert [s.status for s in result.sentences][1] == SKIP and result.all.valid == 1


# ---------------------------------------------------------------- merging EVALB totals

SETTINGS = [  # EvalbParams field, its keyword, two values
    ("debug", "DEBUG", 0, 2), ("max_error", "MAX_ERROR", 10, 100), ("cutoff_len", "CUTOFF_LEN", 40, 10),
    ("labeled", "LABELED", True, False), ("delete_labels", "DELETE_LABEL", ("TOP",), ("TOP", ",")),
    ("delete_labels_for_length", "DELETE_LABEL_FOR_LENGTH", (), ("-NONE-",)),
    ("quote_labels", "QUOTE_LABEL", (), ("``",)), ("eq_labels", "EQ_LABEL", (), (("ADVP", "PRT"),)),
    ("eq_words", "EQ_WORD", (), (("This", "this"),)), ("delete_words", "DELETE_WORD", (), (",",)),
    ("disc_only", "DISC_ONLY", False, True), ("delete_root_preterms", "DELETE_ROOT_PRETERMS", False, True),
]


def test_every_evalb_setting_is_compared_by_merge():
    from dataclasses import fields

    assert sorted(name for name, *_ in SETTINGS) == sorted(f.name for f in fields(EvalbParams))


@pytest.mark.parametrize(("setting", "keyword", "a", "b"), SETTINGS, ids=[s[0] for s in SETTINGS])
def test_merge_refuses_totals_of_other_params(setting, keyword, a, b):
    from spacy_anno_eval.trees.evalb import Totals

    first = Totals(sentences=2, matched=3, gold_brackets=4, test_brackets=4, params=EvalbParams(**{setting: a}))
    second = Totals(sentences=1, matched=1, gold_brackets=1, test_brackets=2, params=EvalbParams(**{setting: b}))
    with pytest.raises(ConfigError, match=rf"^cannot merge EVALB totals made with different settings: {setting} "
                                          rf"\({keyword}\) is {re.escape(repr(a))} in the first "
                                          rf"totals but {re.escape(repr(b))} in the second; "):
        first.merge(second)
    with pytest.raises(ConfigError, match=rf"{setting} \({keyword}\)"):
        Totals(params=EvalbParams(**{setting: b})).merge(first)  # empty totals are refused too
    same = first.merge(Totals(sentences=1, matched=1, params=EvalbParams(**{setting: a})))
    assert (same.sentences, same.matched, same.params) == (3, 4, first.params)


def test_merge_refuses_results_scored_with_another_parameter_file():
    from spacy_anno_eval.trees.evalb import evaluate_files
    from tests.conftest import shared_file

    gold, test = shared_file("treebank", "evalb_sample", "sample.gld"), shared_file("treebank", "evalb_sample",
                                                                                    "sample.tst")
    sample = evaluate_files(gold, test, shared_file("treebank", "evalb_sample", "sample.prm"))
    collins = evaluate_files(gold, test, shared_file("treebank", "evalb_sample", "COLLINS.prm"))
    with pytest.raises(ConfigError, match=r"delete_labels \(DELETE_LABEL\) is \('TOP', '-NONE-', ',', ':', '``', "
                                          r"\"''\"\) in the first totals but .* in the second"):
        sample.all.merge(collins.all)
    with pytest.raises(ConfigError, match="scope is 'all' in the first totals but 'cutoff' in the second"):
        sample.all.merge(sample.cutoff)


def test_merged_totals_equal_the_totals_of_the_whole():
    from spacy_anno_eval.trees.brackets import parse_brackets
    from spacy_anno_eval.trees.evalb import evaluate
    from tests.conftest import shared_file

    folder = ("treebank", "evalb_sample")
    params = EvalbParams.read(shared_file(*folder, "sample.prm"))
    gold = parse_brackets(shared_file(*folder, "sample.gld").read_text(encoding="utf-8"), layout="line")
    test = parse_brackets(shared_file(*folder, "sample.tst").read_text(encoding="utf-8"), layout="line")
    whole = evaluate(gold, test, params)
    first, second = evaluate(gold[:12], test[:12], params), evaluate(gold[12:], test[12:], params)
    for scope in ("all", "cutoff"):
        merged = getattr(first, scope).merge(getattr(second, scope))
        assert merged == getattr(whole, scope) and merged.params is params and merged.scope == scope
        assert merged.figures() == getattr(whole, scope).figures()


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"params": "sample.prm"}, "Totals.params must be EvalbParams"), ({"scope": "len<=40"}, "Totals.scope"),
    ({"matched": -1}, "Totals.matched must be a whole number"), ({"words": 1.5}, "Totals.words"),
])
def test_totals_validate_their_settings(kwargs, message):
    from spacy_anno_eval.trees.evalb import Totals

    with pytest.raises(ConfigError, match=message):
        Totals(**kwargs)
    with pytest.raises(ConfigError, match="Totals.merge needs EVALB Totals, got dict"):
        Totals().merge({"sentences": 1})


@pytest.mark.filterwarnings("ignore::spacy_anno_eval.errors.UndefinedFigureWarning")  # one word: no node
def test_to_json_of_the_comparisons_is_strict_json():
    import json

    from spacy_anno_eval.trees.conllu import parse_conllu
    from spacy_anno_eval.trees.dependencies import compare_treebanks
    from spacy_anno_eval.trees.phrase_compare import compare_phrase_treebanks

    def refuse(name):
        raise AssertionError(f"{name} in JSON")

    phrase = read_negra(DATA / "sample.export")
    one = parse_conllu(CONLLU_ONE)
    for result in (compare_phrase_treebanks(phrase, phrase), compare_treebanks(one, one)):
        text = result.to_json(indent=None)
        assert "\n" not in text and json.loads(text, parse_constant=refuse) == json.loads(json.dumps(
            result.to_dict()))
