"""The treebank readers and commands hold the contract by construction (issue 26): one located file reader,
bracket depth checked before parsing, an empty treebank refused, EVALB totals merged only under equal
parameters. (QUOTE_LABEL, EVALB 2006's repair: ``test_evalb_2006.py``.)"""

from __future__ import annotations

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
