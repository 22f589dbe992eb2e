"""EVALB (Sekine & Collins 1997) reproduced on its own sample, and the Penn bracket reader it stands on."""

from __future__ import annotations

import json
import re
import warnings

import pytest

from spacy_anno_eval.errors import ConfigError, InputError, UndefinedFigureWarning
from spacy_anno_eval.trees.brackets import Constituent, parse_brackets, read_brackets
from spacy_anno_eval.trees.evalb import (
    ERROR,
    OK,
    SKIP,
    EvalbParams,
    evaluate,
    evaluate_files,
    evaluate_trees,
    extract,
)
from tests.conftest import shared_file

SAMPLE = ("treebank", "evalb_sample")
ROW = re.compile(r"^\s*(\d+)\s+(\d+)\s+(\d)\s+([\d.]+)\s+([\d.]+)" + r"\s+(\d+)" * 5 + r"\s+(\d+)\s+([\d.]+)$")
SUMMARY_KEYS = {
    "Number of sentence": "sentences", "Number of Error sentence": "error", "Number of Skip  sentence": "skip",
    "Number of Valid sentence": "valid", "Bracketing Recall": "recall", "Bracketing Precision": "precision",
    "Bracketing FMeasure": "fmeasure", "Complete match": "complete_match", "Average crossing": "average_crossing",
    "No crossing": "no_crossing", "2 or less crossing": "two_or_less_crossing",
    "Tagging accuracy": "tagging_accuracy",
}


def parse_rsl(text: str) -> tuple[list[tuple], dict[str, dict[str, float]]]:
    """EVALB's per-sentence rows (as tuples of numbers) and its summaries ({"All": {...}, "len<=40": {...}})."""
    rows, summaries, section = [], {}, None
    for line in text.splitlines():
        if m := ROW.match(line):
            rows.append(tuple(float(x) if "." in x else int(x) for x in m.groups()))
        elif m := re.match(r"^-- (.+) --$", line):
            section = summaries.setdefault(m.group(1), {})
        elif section is not None and "=" in line:
            key, value = (part.strip() for part in line.split("="))
            section[SUMMARY_KEYS[key]] = float(value)
    return rows, summaries


def sample(param: str = "sample.prm"):
    return evaluate_files(shared_file(*SAMPLE, "sample.gld"), shared_file(*SAMPLE, "sample.tst"),
                          shared_file(*SAMPLE, param))


def expected() -> dict:
    return json.loads(shared_file(*SAMPLE, "expected.json").read_text(encoding="utf-8"))


# ---------------------------------------------------------------- EVALB's sample


def test_sample_rsl_text_is_reproduced_byte_for_byte():
    result = sample()
    assert result.format_rsl("1997") == shared_file(*SAMPLE, "sample.rsl").read_text(encoding="utf-8")
    assert result.format_rsl("2006") == shared_file(*SAMPLE, "sample.evalb2006_output.txt").read_text(
        encoding="utf-8")


def test_every_sentence_line_of_sample_rsl():
    rows, _ = parse_rsl(shared_file(*SAMPLE, "sample.rsl").read_text(encoding="utf-8"))
    result = sample()
    assert len(rows) == len(result.sentences) == 24
    for row, s in zip(rows, result.sentences, strict=True):
        sid, length, status, recall, precision, matched, gold, test, cross, words, tags, acc = row
        assert (s.id, s.length, s.status) == (sid, length, status)
        assert (round(s.recall, 2), round(s.precision, 2)) == (recall, precision)
        assert (s.matched, s.gold_brackets, s.test_brackets, s.crossing) == (matched, gold, test, cross)
        # 1997's sample.rsl printed the gold words on error/skip rows; the count used is 0 there (EVALB 2006)
        assert (s.gold_words if s.status != OK else s.words) == words
        assert (s.correct_tags, round(s.tagging_accuracy, 2)) == (tags, acc)


def test_every_summary_figure_of_sample_rsl():
    _, summaries = parse_rsl(shared_file(*SAMPLE, "sample.rsl").read_text(encoding="utf-8"))
    out = sample().to_dict()
    for title, key in (("All", "all"), ("len<=40", "len_le_40")):
        assert summaries[title], title
        for name, value in summaries[title].items():
            assert round(out[key][name], 2) == value, (title, name)


@pytest.mark.parametrize(("param", "block"), [("sample.prm", "expected"),
                                              ("COLLINS.prm", "secondary_expected (peer-derived, COLLINS.prm "
                                                              "instead of sample.prm)")])
def test_summary_matches_expected_json(param, block):
    want = expected()[block]
    out = sample(param).to_dict()
    for key in ("all", "len_le_40"):
        for name, value in want[key].items():
            assert round(out[key][name], 2) == value, (param, key, name)


def test_totals_line_and_statuses():
    want = expected()["expected"]
    result = sample()
    counts = result.all.to_dict()["counts"]
    for name, value in want["totals_line"].items():
        assert counts[{"gold_brackets": "gold_brackets", "test_brackets": "test_brackets"}.get(name, name)] == value
    by_status = {OK: [], ERROR: [], SKIP: []}
    for s in result.sentences:
        by_status[s.status].append(s.id)
    statuses = want["per_sentence_status"]
    assert by_status[OK] == statuses["0_ok"]
    assert by_status[ERROR] == statuses["1_error (words/length unmatch)"]
    assert by_status[SKIP] == statuses["2_skip (empty test line)"]
    messages = {s.id: s.message for s in result.sentences}
    assert messages[12] == "Words unmatch (is|was)"
    assert messages[13] == "Length unmatch (4|5)"


def test_to_dict_is_json():
    out = sample().to_dict()
    text = json.dumps(out, allow_nan=False)
    assert json.loads(text)["sentences"][0]["status_name"] == "ok"
    assert out["params"]["eq_words"] == [["This", "this"]]


def test_sample_prm_is_read():
    p = EvalbParams.read(shared_file(*SAMPLE, "sample.prm"))
    assert (p.debug, p.max_error, p.cutoff_len, p.labeled) == (0, 10, 40, True)
    assert p.delete_labels == ("TOP", "-NONE-", ",", ":", "``", "''")
    assert p.delete_labels_for_length == ("-NONE-",)
    assert p.eq_labels == (("T", "TT"),) and p.eq_words == (("This", "this"),)


# ---------------------------------------------------------------- EVALB's rules, small cases


def test_function_tags_deletions_and_length():
    params = EvalbParams(delete_labels=("TOP", "-NONE-", ","), delete_labels_for_length=("-NONE-",))
    tree = parse_brackets("(TOP (S (NP-SBJ-1 (-NONE- *)) (VP=2 (VB go)) (, ,) (NP (NN home))))")[0]
    e = extract(tree, params)
    assert e.words == ("go", "home") and e.length == 3
    assert e.brackets == (Constituent("S", (0, 1)), Constituent("VP", (0,)), Constituent("NP", (1,)))


def test_unlabeled_and_crossing():
    gold = ["(S (A (P a) (Q b)) (B (R c) (T d)))"]
    test = ["(S (P a) (C (Q b) (R c)) (T d))"]
    labeled = evaluate_trees(gold, test).sentences[0]
    assert (labeled.matched, labeled.gold_brackets, labeled.test_brackets, labeled.crossing) == (1, 3, 2, 1)
    unlabeled = evaluate_trees(["(S (A (P a)) (B (Q b)))"], ["(S (X (P a)) (Y (Q b)))"],
                               EvalbParams(labeled=False)).sentences[0]
    assert unlabeled.matched == 3


def test_duplicate_brackets_match_once():
    row = evaluate_trees(["(S (A (A (P a) (Q b))))"], ["(S (A (P a) (Q b)))"]).sentences[0]
    assert (row.matched, row.gold_brackets, row.test_brackets) == (2, 3, 2)


@pytest.mark.filterwarnings("ignore::spacy_anno_eval.errors.UndefinedFigureWarning")
def test_word_mismatch_is_counted_never_raised():
    result = evaluate_trees(["(S (P a))", "(S (P b))"], ["(S (P x))", ""])
    assert [s.status for s in result.sentences] == [ERROR, SKIP]
    assert (result.all.error, result.all.skip, result.all.valid) == (1, 1, 0)


@pytest.mark.filterwarnings("ignore::spacy_anno_eval.errors.UndefinedFigureWarning")
def test_max_error_stops_as_evalb_does():
    gold, test = ["(S (P a))"] * 4, ["(S (P x))"] * 4
    with pytest.raises(InputError, match="MAX_ERROR"):
        evaluate_trees(gold, test, EvalbParams(max_error=2))
    assert evaluate_trees(gold[:3], test[:3], EvalbParams(max_error=2)).all.error == 3


def test_sentence_counts_must_agree():
    trees = parse_brackets("(S (P a))")
    with pytest.raises(InputError, match="1 sentence"):
        evaluate(trees, trees + trees)


def test_zero_denominators_warn_once():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = evaluate_trees(["(P a)"], ["(P a)"])  # a valid sentence without brackets: R and P undefined
    assert len([w for w in caught if issubclass(w.category, UndefinedFigureWarning)]) == 1
    assert json.dumps(result.to_dict(), allow_nan=False)


@pytest.mark.parametrize(("text", "message"), [
    ("UNKNOWN 1", "unknown keyword"), ("EQ_LABEL A", "two values"), ("LABELED yes", "whole number"),
    ("DELETE_LABEL", "no value"), ("LABELED 2", "labeled"), ("QUOTE_LABEL", "QUOTE_LABEL has no value"),
])
def test_bad_parameter_files(text, message):
    with pytest.raises(ConfigError, match=message):
        EvalbParams.parse(text, "x.prm")


def test_bad_style():
    with pytest.raises(ConfigError):
        evaluate_trees(["(S (P a))"], ["(S (P a))"]).format_rsl("1999")


# ---------------------------------------------------------------- the bracket reader


def test_reader_layouts_and_empty_outer_bracket():
    text = "( (S (NP (DT The)\n   (NN cat))\n  (VP (VBD sat))))\n\n( (S (NP (PRP It))))\n"
    trees = parse_brackets(text)
    assert [t.number for t in trees] == [1, 2] and [t.line for t in trees] == [1, 5]
    assert trees[0].words == ("The", "cat", "sat") and trees[0].tags == ("DT", "NN", "VBD")
    assert [c.label for c in trees[0].constituents()] == ["S", "NP", "VP"]
    assert trees[0].brackets[0].label == ""  # kept for EVALB, which counts it
    lines = parse_brackets("(S (P a))\n\n(P a) (Q b)")
    assert [len(t) for t in lines] == [1, 0, 2] and lines[2].constituents() == []


@pytest.mark.parametrize(("text", "message"), [
    ("(S (NP a b))", "more than one word"), ("(S (NP a (NN b)))", "more than one word"),
    ("(S (NN a) b)", "outside a preterminal"), ("(S (NN a)", "never closed"),
    ("(S (NN a)))", "without an opening"), ("(S\n (NN a)\n(VP (V b))", "never closed"),
])
def test_reader_errors_name_file_line_and_tree(text, message, tmp_path):
    path = tmp_path / "bad.mrg"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputError, match=message) as info:
        read_brackets(path)
    assert str(path) in str(info.value) and "line " in str(info.value) and "tree " in str(info.value)


def test_reader_refuses_non_utf8(tmp_path):
    path = tmp_path / "latin.mrg"
    path.write_bytes(b"(S (NN caf\xe9))")
    with pytest.raises(InputError, match="UTF-8"):
        read_brackets(path)


def test_cli_trees_prm_scores_brackets_as_evalb(tmp_path) -> None:
    """``anno-eval trees sample.gld sample.tst --prm sample.prm --rsl out.rsl``: the report is EVALB's 2006
    output byte for byte, the JSON holds every figure, the table fits 80 columns; --diff writes Brants and
    Skut's differences (error and skip sentences listed as not compared)."""
    import json

    from typer.testing import CliRunner

    from spacy_anno_eval.cli.app import app
    from tests.conftest import shared_file

    gld, tst = shared_file("treebank", "evalb_sample", "sample.gld"), shared_file("treebank", "evalb_sample",
                                                                                  "sample.tst")
    prm = shared_file("treebank", "evalb_sample", "sample.prm")
    expected = shared_file("treebank", "evalb_sample", "sample.evalb2006_output.txt")
    rsl, out = tmp_path / "out.rsl", tmp_path / "out.json"
    result = CliRunner().invoke(app, ["trees", str(gld), str(tst), "--prm", str(prm), "--rsl", str(rsl),
                                      "--json", str(out)])
    assert result.exit_code == 0, result.output
    assert rsl.read_bytes() == expected.read_bytes()
    data = json.loads(out.read_text(encoding="utf8"))
    assert round(data["all"]["recall"], 2) == 87.76 and round(data["all"]["precision"], 2) == 90.53
    assert "bracketing F               89.12 %   83.20 %" in result.stdout
    assert all(len(line) <= 80 for line in result.stdout.splitlines())
    assert data["brants_skut"]["n_compared"] == 16 and len(data["brants_skut"]["errors"]) == 8
    diff = CliRunner().invoke(app, ["trees", str(gld), str(tst), "--diff", str(tmp_path / "d.txt"), "-q"])
    assert diff.exit_code == 0
    assert "not compared: words differ at word 2: 'is' / 'was'" in (tmp_path / "d.txt").read_text(encoding="utf-8")
