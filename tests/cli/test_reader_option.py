"""``--reader-option NAME=VALUE`` (``-O``): the CLI's one door to the readers' own options (issue 26), checked
by the readers' names, and the "left out" warnings that name it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from spacy_anno_eval.cli.app import app, parse_reader_options
from spacy_anno_eval.errors import ConfigError
from tests.conftest import shared_file

runner = CliRunner()
XMI = ("formats", "uima_cas_xmi")
TSV3 = ("formats", "webanno_tsv3")
XMI_TAKES = "label_feature, typesystem, structural, relations"


def lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.strip()]


@pytest.fixture
def xmi_pair(tmp_path: Path) -> tuple[str, str]:
    """INCEpTION's two annotators of one document (4 spans each; 2 and 4 relations), as a/doc.xmi and b/doc.xmi
    (one document id)."""
    out = []
    for side, name in (("a", "inception_mergecas_stackedrel1.xmi"), ("b", "inception_mergecas_stackedrel2.xmi")):
        (tmp_path / side).mkdir()
        target = tmp_path / side / "doc.xmi"
        target.write_bytes(shared_file(*XMI, name).read_bytes())
        out.append(str(target))
    return out[0], out[1]


@pytest.fixture
def tsv3_pair() -> tuple[str, str]:
    """user1 and user2 of one document: 26 POS, 26 Lemma and 26 Dependency relations each."""
    return (str(shared_file(*TSV3, "relationLabelTest__user1.tsv")),
            str(shared_file(*TSV3, "relationLabelTest__user2.tsv")))


def counts(command: str, key: str, response: str, tmp_path: Path, *extra: str) -> dict[str, int]:
    out = tmp_path / f"{command}.json"
    result = runner.invoke(app, [command, key, response, "--json", str(out), "-q", *extra])
    assert result.exit_code == 0, result.output
    report = json.loads(out.read_text(encoding="utf-8"))
    return {k: report["counts"][k] for k in ("correct", "spurious", "missing")}


# -- the option reaches the readers -------------------------------------------------------------------------------

@pytest.mark.parametrize("command", ["score", "qa"])
def test_relations_true_reaches_the_xmi_reader(command: str, xmi_pair: tuple[str, str], tmp_path: Path) -> None:
    assert counts(command, *xmi_pair, tmp_path) == {"correct": 4, "spurious": 0, "missing": 0}  # the spans
    # + the key's 2 relations, found among the response's 4
    assert counts(command, *xmi_pair, tmp_path, "-O", "relations=true") == {"correct": 6, "spurious": 2,
                                                                             "missing": 0}


@pytest.mark.parametrize("command", ["score", "qa"])
def test_relations_true_reaches_the_tsv3_reader(command: str, tsv3_pair: tuple[str, str], tmp_path: Path) -> None:
    assert counts(command, *tsv3_pair, tmp_path) == {"correct": 52, "spurious": 0, "missing": 0}
    assert counts(command, *tsv3_pair, tmp_path, "--reader-option", "relations=true") == \
        {"correct": 78, "spurious": 0, "missing": 0}  # 26 Dependency relations more on each side


def test_reader_options_merge_with_label_feature(tsv3_pair: tuple[str, str], tmp_path: Path) -> None:
    """Labelled by their DependencyType, user1's OBJA on 'sich' meets user2's XXX."""
    got = counts("score", *tsv3_pair, tmp_path, "-O", "relations=true", "--label-feature", "DependencyType")
    assert got == {"correct": 77, "spurious": 1, "missing": 1}


# -- names and values are checked ---------------------------------------------------------------------------------

@pytest.mark.parametrize("command, extra", [
    ("score", []), ("qa", []), ("align", []), ("relations", []), ("adjudicate", ["--out", "gold.spacy"]),
])
def test_an_unknown_reader_option_is_exit_2_naming_what_the_reader_takes(
        command: str, extra: list[str], xmi_pair: tuple[str, str], tmp_path: Path) -> None:
    extra = [str(tmp_path / e) if e.endswith(".spacy") else e for e in extra]
    result = runner.invoke(app, [command, *xmi_pair, "-O", "relation=true", *extra])
    assert result.exit_code == 2
    [line] = lines(result.stderr)
    assert line.startswith(f"anno-eval: error: {xmi_pair[0]}")  # qa names the key, the others both inputs
    assert line.endswith(f": the xmi reader takes no option 'relation'; it takes {XMI_TAKES}")
    assert not (tmp_path / "gold.spacy").exists()


def test_an_option_of_another_reader_is_refused_naming_what_this_one_takes(tsv3_pair: tuple[str, str]) -> None:
    result = runner.invoke(app, ["score", *tsv3_pair, "-O", "structural=true"])
    assert result.exit_code == 2
    assert lines(result.stderr) == [f"anno-eval: error: {tsv3_pair[0]}, {tsv3_pair[1]}: the tsv3 reader takes no "
                                    f"option 'structural'; it takes label_feature, layers, relations"]


@pytest.mark.parametrize("given, message", [
    (["-O", "relations"], "--reader-option 'relations': give NAME=VALUE"),
    (["-O", "=true"], "--reader-option '=true': give NAME=VALUE"),
    (["-O", "relations=true", "-O", "relations=false"], "--reader-option relations is given twice"),
    (["-O", "label_feature=value", "--label-feature", "f1"],
     "--reader-option label_feature='value' and --label-feature both set the reader option 'label_feature'"),
])
def test_a_malformed_reader_option_is_exit_2_before_any_work(given: list[str], message: str,
                                                            tmp_path: Path) -> None:
    missing = str(tmp_path / "missing.xmi")  # nothing is read: the option is refused first
    result = runner.invoke(app, ["score", missing, missing, *given])
    assert result.exit_code == 2
    assert len(lines(result.stderr)) == 1 and message in result.stderr


def test_reader_option_values_follow_the_documented_rule() -> None:
    assert parse_reader_options(["a=true", "b=FALSE", "c=42", "d=-3", "e=1.5", "f=", "g-h=x=y", "i=utf16"]) == \
        {"a": True, "b": False, "c": 42, "d": -3, "e": "1.5", "f": "", "g_h": "x=y", "i": "utf16"}
    assert parse_reader_options(None) == {}
    with pytest.raises(ConfigError, match="give NAME=VALUE"):
        parse_reader_options(["9lives=1"])


def test_a_type_system_named_by_a_reader_option_is_never_an_output(xmi_pair: tuple[str, str],
                                                                   tmp_path: Path) -> None:
    ts = tmp_path / "TypeSystem.merged.xml"
    original = shared_file(*XMI, "TypeSystem.merged.xml").read_bytes()
    ts.write_bytes(original)
    ok = runner.invoke(app, ["score", *xmi_pair, "-O", f"typesystem={ts}", "-q"])
    assert ok.exit_code == 0, ok.output
    refused = runner.invoke(app, ["score", *xmi_pair, "-O", f"typesystem={ts}", "--json", str(ts)])
    assert refused.exit_code == 2 and len(lines(refused.stderr)) == 1 and str(ts) in refused.stderr
    assert ts.read_bytes() == original


# -- the warnings name the option ---------------------------------------------------------------------------------

def test_the_xmi_warnings_name_the_reader_option(xmi_pair: tuple[str, str]) -> None:
    result = runner.invoke(app, ["score", *xmi_pair, "-q"])
    assert result.exit_code == 0
    warned = lines(result.stderr)
    assert f"anno-eval: warning: {xmi_pair[0]}: 2 relation annotation(s) (Governor/Dependent) left out; " \
           f"--reader-option relations=true (Python: relations=True) reads them as spans" in warned
    assert f"anno-eval: warning: {xmi_pair[1]}: 13 structural annotation(s) (tokens, sentences, document " \
           f"metadata) left out; --reader-option structural=true (Python: structural=True) reads them" in warned
    read = runner.invoke(app, ["score", *xmi_pair, "-q", "-O", "relations=true", "-O", "structural=true"])
    assert read.exit_code == 0 and "--reader-option" not in read.stderr  # asked for: read, not left out


def test_the_tsv3_warning_names_the_reader_option(tsv3_pair: tuple[str, str]) -> None:
    result = runner.invoke(app, ["score", *tsv3_pair, "-q"])
    assert result.exit_code == 0
    assert f"anno-eval: warning: {tsv3_pair[0]}: 26 relation annotation(s) (Dependency) left out; " \
           f"--reader-option relations=true (Python: relations=True) reads each as the span of its dependent" \
           in lines(result.stderr)
    read = runner.invoke(app, ["score", *tsv3_pair, "-q", "-O", "relations=true"])
    assert read.exit_code == 0 and "--reader-option" not in read.stderr
