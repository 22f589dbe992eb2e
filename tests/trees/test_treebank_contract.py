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
