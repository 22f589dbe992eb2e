"""The terminal renderers of align, relations and adjudicate, moved out of cli/ (report/annalist_terminal.py,
report/adjudicate_terminal.py): the lines each prints, exactly as the commands printed them before the move (the
expected text below was taken from the commands at that time), and the figure the relations line now asks the
result for (RelationScores.n_unscored)."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from spacy_anno_eval.annalist.relations import EntityAlignment, Relation, score_relations
from spacy_anno_eval.cli.app import app
from spacy_anno_eval.report.adjudicate_terminal import summary_line
from spacy_anno_eval.report.annalist_terminal import (
    alignment_lines,
    entity_row,
    muc_lines,
    relation_lines,
    relations_report_rows,
    unscored_line,
)

DEMO = Path(__file__).resolve().parents[2] / "assets" / "demo"

ALIGN_DEMO = """\
name              POS  ACT  COR  PAR  INC  MIS  SPU   REC %   PRE %     F %
LOC                19   20   16    0    0    3    4   84.21   80.00   82.05
MISC                4    4    1    1    0    2    2   37.50   37.50   37.50
ORG                12   10    6    2    0    4    2   58.33   70.00   63.64
PER                 9    9    6    2    0    1    1   77.78   77.78   77.78
all                44   43   29    5    0   10    9   71.59   73.26   72.41
"""


def test_align_prints_the_demo_table_as_before():
    result = CliRunner().invoke(app, ["align", str(DEMO / "key.jsonl"), str(DEMO / "response.jsonl")])
    assert result.exit_code == 0, result.output
    assert result.stdout == ALIGN_DEMO


def test_adjudicate_prints_the_demo_summary_as_before(tmp_path):
    result = CliRunner().invoke(app, ["adjudicate", str(DEMO / "key.jsonl"), str(DEMO / "response.jsonl"),
                                      "-o", str(tmp_path / "gold.spacy"), "--undecided", str(tmp_path / "u.jsonl")])
    assert result.exit_code == 0, result.output
    assert result.stdout == (f"29 gold annotations (29 agreed, 0 chosen, 0 rejected) in 16 documents written to "
                             f"{tmp_path / 'gold.spacy'}; 17 rows left undecided, listed in {tmp_path / 'u.jsonl'} "
                             f"(29 lines to fill in)\n")


def test_muc_lines_widen_the_first_column_for_a_long_name():
    counts = {"POS": 3, "ACT": 2, "COR": 1, "PAR": 1, "INC": 0, "MIS": 1, "SPU": 0}
    name = "a_relation_name_longer_than_sixteen"
    lines = muc_lines("relation", [(name, counts, 0.5, 0.75, 0.6), ("all", counts, 0.0, -0.0, 1.0)])
    assert lines[0].startswith("relation" + " " * (len(name) + 2 - len("relation")) + "  POS")
    assert lines[1] == f"{name}      3    2    1    1    0    1    0   50.00   75.00   60.00"
    assert lines[2].endswith("    0.00    0.00  100.00")  # never a negative zero
    assert len({len(line) for line in lines}) == 1


def test_alignment_and_relation_lines_read_their_own_figure_names():
    f = {"POS": 1, "ACT": 1, "COR": 1, "PAR": 0, "INC": 0, "MIS": 0, "SPU": 0}
    assert alignment_lines({"collection": {"PER": {**f, "REC": 1.0, "PRE": 0.5, "F": 2 / 3}}})[1].endswith(
        "  100.00   50.00   66.67")
    lines = relation_lines({"per_name": {"bornIn": {**f, "r": 0.25, "p": 1.0, "f": 0.4}},
                            "all": {**f, "r": 0.5, "p": 0.5, "f": 0.5}})
    assert [line.split()[0] for line in lines] == ["relation", "bornIn", "all"]  # all comes last
    assert lines[1].endswith("   25.00  100.00   40.00")


def test_n_unscored_counts_relations_not_reasons_and_the_line_asks_for_it():
    # k1 has two reasons (missing arg1, incorrect arg2): one unscored relation, two reasons
    entities = EntityAlignment.from_rows([{"doc": "d", "status": "missing", "key_id": "a", "response_id": None},
                                          {"doc": "d", "status": "incorrect", "key_id": "b", "response_id": "y"}])
    scores = score_relations([Relation("d", "k1", "R", {"arg1": "a", "arg2": "b"})], [], entities)
    assert scores.n_unscored == 1 == len(scores.to_dict()["unscored"])
    assert sum(scores.unscored_by_reason()["key"].values()) == 2
    assert unscored_line(scores) == "1 relations unscored (see unscored_by_reason)"
    assert unscored_line(score_relations([], [], entities)) is None


def test_relations_report_rows_put_entities_first_then_relations():
    diff = [{"doc_id": "d1", "status": "missing", "key": {"start": 0, "end": 3, "label": "PER", "text": "Ann"},
             "response": None}]
    rows = relations_report_rows(diff, [{"doc": "d1", "status": "unscored", "name": "R"}])
    assert rows[0] == entity_row(diff[0]) == {
        "kind": "entity", "doc": "d1", "status": "missing", "name": "PER", "key_id": "0-3", "response_id": None,
        "key_value": "Ann", "response_value": None, "key_start": 0, "key_end": 3, "response_start": None,
        "response_end": None}
    assert rows[1] == {"kind": "relation", "doc": "d1", "status": "unscored", "name": "R"}


def test_summary_line_names_the_undecided_file_only_when_written():
    summary = {"total": 5, "agreed": 3, "chosen": 2, "rejected": 1, "docs": 2, "out": "g.spacy", "unresolved": 4}
    assert summary_line(summary) == ("5 gold annotations (3 agreed, 2 chosen, 1 rejected) in 2 documents written "
                                     "to g.spacy; 4 rows left undecided")
    assert summary_line({**summary, "undecided": "u.jsonl", "undecided_lines": 7}).endswith(
        "4 rows left undecided, listed in u.jsonl (7 lines to fill in)")
