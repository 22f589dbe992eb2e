"""A ratings table knows its id column (:func:`~spacy_anno_eval.agreement.summary.read_table`, ``anno-eval agreement
--id-column``), and a table with nothing to compare is refused."""

from __future__ import annotations

import json
import math
import pickle
import warnings
from pathlib import Path

import pytest
from typer.testing import CliRunner

from spacy_anno_eval.agreement.summary import agreement_summary, read_table
from spacy_anno_eval.cli.app import app
from spacy_anno_eval.errors import ConfigError, InputError, UnitIdColumnWarning

runner = CliRunner()
RATINGS = "A,B,C\n1,1,2\n2,2,2\n1,1,1\n2,1,2\n"


def table(tmp_path: Path, text: str, name: str = "t.csv") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf8")
    return path


def read(path: Path, **options):
    """``read_table`` and the UnitIdColumnWarnings it gave."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = read_table(path, **options)
    return result, [str(w.message) for w in caught if issubclass(w.category, UnitIdColumnWarning)]


def run(*args):
    return runner.invoke(app, [str(a) for a in args])


# -- found by its header ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("header", ["Unit", "units", " ITEM ", "Items", "id", "ID", "Subject", "subjects", "Case",
                                    "Unit ID", "item-id"])
def test_a_leading_column_named_for_units_gives_the_unit_ids(tmp_path, header):
    path = table(tmp_path, f"{header},A,B\nu1,x,x\nu2,y,x\n")
    (names, data), notes = read(path)
    assert names == ["A", "B"] and data == [["x", "y"], ["x", "x"]]
    result, _ = read(path)
    assert result.unit_ids == ["u1", "u2"] and result.id_column == header.strip()
    assert len(notes) == 1 and f"{header.strip()!r} read as unit ids" in notes[0]


def test_group_and_units_columns_are_both_set_aside(tmp_path):
    path = table(tmp_path, "Group,Units,Ben,Gerry\nG2,1,a,b\nG2,2,a,a\nG1,3,b,b\n")
    result, notes = read(path)
    assert result[0] == ["Ben", "Gerry"]
    assert (result.unit_ids, result.id_column, result.set_aside) == (["1", "2", "3"], "Units", ["Group", "Units"])
    assert len(notes) == 1 and "'Group', 'Units'" in notes[0] and "the unit ids are 'Units'" in notes[0]


def test_a_group_column_alone_is_set_aside_without_unit_ids_when_its_values_repeat(tmp_path):
    result, notes = read(table(tmp_path, "Group,A,B\ng1,x,x\ng1,y,x\ng2,x,x\n"))
    assert result[0] == ["A", "B"] and result.unit_ids is None and result.set_aside == ["Group"]
    assert len(notes) == 1 and "groups of units" in notes[0]


def test_a_column_named_for_units_later_in_the_header_is_an_annotator(tmp_path):
    result, notes = read(table(tmp_path, "A,Item,B\nx,x,x\ny,x,y\n"))
    assert result[0] == ["A", "Item", "B"] and result.unit_ids is None and notes == []


# -- found by its values ---------------------------------------------------------------------------------------------

def test_a_first_column_of_distinct_values_beside_repeated_categories_gives_the_unit_ids(tmp_path):
    result, notes = read(table(tmp_path, "x,A,B,C\nu1,1,1,2\nu2,2,2,2\nu3,1,1,1\nu4,2,1,2\n"))
    assert result[0] == ["A", "B", "C"] and result.unit_ids == ["u1", "u2", "u3", "u4"]
    assert len(notes) == 1 and "its values differ on every row" in notes[0]


@pytest.mark.parametrize(("why", "text"), [
    ("two units only", "x,A,B\nu1,1,1\nu2,2,1\n"),
    ("two columns only: an id column would leave one annotator", "x,A\nu1,1\nu2,2\nu3,1\n"),
    ("a repeated value", "x,A,B\nu1,1,1\nu1,2,1\nu3,1,1\n"),
    ("an empty cell", "x,A,B\nu1,1,1\n,2,1\nu3,1,1\n"),
    ("an annotator who used one category more than the others", "A,B,C\nPER,PER,PER\nORG,PER,PER\nLOC,LOC,LOC\n"
                                                                "MISC,MISC,LOC\n"),
    ("as many categories in the others as units", "x,A,B\nu1,a,b\nu2,c,d\nu3,a,a\n"),
    ("ids that are mostly the others' categories", "x,A,B\n1,1,1\n2,2,1\n3,1,3\n4,3,3\n5,3,3\n"),
])
def test_a_first_column_that_may_be_an_annotator_stays_one(tmp_path, why, text):
    result, notes = read(table(tmp_path, text))
    assert result.unit_ids is None and notes == [], why
    assert result[0] == text.split("\n")[0].split(",")


# -- chosen ----------------------------------------------------------------------------------------------------------

def test_id_column_none_reads_every_column_as_an_annotator(tmp_path):
    path = table(tmp_path, "Units,A,B\n1,x,x\n2,y,x\n3,x,x\n")
    for off in (None, "none", "NONE"):
        result, notes = read(path, id_column=off)
        assert result[0] == ["Units", "A", "B"] and result.unit_ids is None and notes == []


def test_id_column_names_a_column_anywhere_without_a_note(tmp_path):
    result, notes = read(table(tmp_path, "A,key,B\nx,k1,x\ny,k2,x\n"), id_column="KEY")
    assert result[0] == ["A", "B"] and result.unit_ids == ["k1", "k2"] and result.id_column == "key"
    assert notes == []


def test_id_column_sets_aside_the_index_columns_before_it(tmp_path):
    result, _ = read(table(tmp_path, "Group,Units,A,B\nM,1,x,x\nF,2,y,x\n"), id_column="Units")
    assert result[0] == ["A", "B"] and result.set_aside == ["Group", "Units"]


def test_an_id_column_that_matches_no_column_is_refused_listing_the_columns(tmp_path):
    path = table(tmp_path, "Units,A,B\n1,x,x\n2,y,x\n")
    with pytest.raises(ConfigError, match=r"'nope' \(--id-column\) matches no column; the columns: 'Units', 'A', 'B'"):
        read_table(path, id_column="nope")
    result = run("agreement", path, "--id-column", "nope")
    assert result.exit_code == 2 and "the columns: 'Units', 'A', 'B'" in result.output


@pytest.mark.parametrize("bad", ["", "  ", math.nan, 3])
def test_an_id_column_that_is_no_name_is_a_config_error(tmp_path, bad):
    with pytest.raises(ConfigError, match="id_column"):
        read_table(table(tmp_path, RATINGS), id_column=bad)


def test_repeated_unit_ids_are_refused_naming_the_line(tmp_path):
    path = table(tmp_path, "Item,A,B\n1,x,x\n2,y,x\n1,y,y\n")
    with pytest.raises(InputError, match=r"t.csv, line 4: the unit id '1' \(column 'Item'\) is already the id of "
                                         r"line 2"):
        read_table(path)
    result = run("agreement", path)
    assert result.exit_code == 2 and "line 4" in result.output and "--id-column none" in result.output


def test_an_empty_unit_id_is_refused_naming_the_line(tmp_path):
    with pytest.raises(InputError, match=r"t.csv, line 3: no unit id in the column 'Item'"):
        read_table(table(tmp_path, "Item,A,B\n1,x,x\n,y,x\n"))


def test_an_id_column_beside_one_annotator_is_refused(tmp_path):
    with pytest.raises(InputError, match=r"1 annotator column \('A'\) beside 'Units'"):
        read_table(table(tmp_path, "Units,A\n1,x\n2,y\n"))


def test_the_ratings_table_unpacks_and_pickles_as_before(tmp_path):
    result, _ = read(table(tmp_path, "Units,A,B\n1,1,1\n2,2,1\n"))
    names, data = result
    assert names == ["A", "B"] and [[float(v) for v in r] for r in data] == [[1.0, 2.0], [1.0, 1.0]]
    again = pickle.loads(pickle.dumps(result))
    assert again == result and again.unit_ids == ["1", "2"] and again.note == result.note
    assert agreement_summary(data, "nominal", names)["n_annotators"] == 2


# -- the command -----------------------------------------------------------------------------------------------------

def test_agreement_puts_the_unit_ids_in_the_json_and_the_note_once(tmp_path):
    path = table(tmp_path, "Units,A,B,C\n1,x,x,y\n2,y,y,y\n3,x,x,x\n")
    out = tmp_path / "a.json"
    result = run("agreement", path, "--json", out)
    assert result.exit_code == 0, result.output
    assert result.output.count("read as unit ids") == 1 and "anno-eval: warning" not in result.output
    assert result.output.startswith("3 units, 3 annotators")
    summary = json.loads(out.read_text(encoding="utf8"))
    assert summary["units"] == {"unit": "table row", "id_column": "Units", "set_aside": ["Units"], "n_units": 3,
                                "ids": ["1", "2", "3"]}
    assert sum("read as unit ids" in w for w in summary["warnings"]) == 1
    quiet = run("agreement", path, "-q")
    assert quiet.exit_code == 0 and quiet.output == ""


def test_agreement_refuses_id_column_on_a_corpus(tmp_path):
    corpus = tmp_path / "c.jsonl"
    corpus.write_text('{"text": "a b", "spans": []}\n', encoding="utf8")
    result = run("agreement", corpus, "--format", "jsonl", "--id-column", "Units")
    assert result.exit_code == 2 and "--id-column applies to a CSV table" in result.output


# -- nothing to compare; settings; reading -----------------------------------------------------------------------------

@pytest.mark.parametrize(("text", "held"), [("", "the file holds no row"), ("\n\n", "the file holds no row"),
                                            ("A,B\n", "line 1 is a header and no unit row follows"),
                                            ("A,B\n,\n", "line 1 is a header and no unit row follows")])
def test_an_empty_table_has_nothing_to_compare(tmp_path, text, held):
    path = table(tmp_path, text)
    with pytest.raises(InputError, match=f"t.csv: nothing to compare: {held}"):
        read_table(path)
    result = run("agreement", path)
    assert result.exit_code == 2 and "nothing to compare" in result.output


@pytest.mark.parametrize("sep", ["", math.nan, ",,", None])
def test_a_sep_that_is_not_one_character_is_a_config_error(tmp_path, sep):
    with pytest.raises(ConfigError, match="sep must be one character"):
        read_table(table(tmp_path, RATINGS), sep=sep)


@pytest.mark.parametrize("encoding", ["no-such-codec", math.nan, ""])
def test_an_unknown_encoding_is_a_config_error(tmp_path, encoding):
    with pytest.raises(ConfigError, match="encoding"):
        read_table(table(tmp_path, RATINGS), encoding=encoding)


def test_bytes_that_are_not_the_encoding_name_file_line_and_byte(tmp_path):
    path = tmp_path / "t.csv"
    path.write_bytes("Units,A,B\n1,x,x\n2,\xe9,x\n".encode("latin-1"))
    with pytest.raises(InputError, match=r"t.csv, line 3: not UTF-8 text \(invalid continuation byte at byte 18\); "
                                         r"save the table as UTF-8"):
        read_table(path)
    assert read(path, encoding="latin-1")[0][1][0] == ["x", "é"]


def test_a_byte_order_mark_is_not_part_of_the_first_header(tmp_path):
    path = tmp_path / "t.csv"
    path.write_bytes("\ufeffUnits,A,B\n1,x,x\n2,y,x\n".encode())
    result, notes = read(path)
    assert result[0] == ["A", "B"] and result.id_column == "Units" and len(notes) == 1


@pytest.mark.parametrize(("make", "message"), [(lambda p: p, "no such file"), (lambda p: p.mkdir() or p, "a folder")])
def test_a_missing_file_or_a_folder_is_named(tmp_path, make, message):
    path = make(tmp_path / "t.csv")
    with pytest.raises(InputError, match=f"t.csv: {message}"):
        read_table(path)
