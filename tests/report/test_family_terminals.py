"""The terminal renderers moved out of cli/ (trees, noisy, bdm, benchmark): the lines each prints, exactly as the
commands printed them before the move (the expected text below was taken from the commands at that time)."""

from __future__ import annotations

from typer.testing import CliRunner

from spacy_anno_eval.bdm.distance import BDMPair, BDMScores
from spacy_anno_eval.cli.app import app
from spacy_anno_eval.report.bdm_terminal import written_line
from spacy_anno_eval.report.benchmark_summary import print_run, store_line, verdict_line
from spacy_anno_eval.report.noisy_terminal import noisy_lines
from spacy_anno_eval.report.trees_terminal import dependency_lines, disco_lines, evalb_lines, levels_lines
from tests.conftest import shared_file

EVALB_SAMPLE = """\
EVALB: 24 sentences, 6 error, 2 skip
                               all     <= 40
bracketing recall          87.23 %   80.00 %
bracketing precision       89.13 %   82.76 %
bracketing F               88.17 %   81.36 %
complete match             43.75 %   40.00 %
average crossing            0.06      0.07
no crossing                93.75 %   93.33 %
2 or less crossing        100.00 %  100.00 %
tagging accuracy           97.17 %   95.16 %
Brants & Skut (1998): 16 of 24 sentences compared, 12 differ
word: parent node          88.68 %
word: parent category      85.85 %
word: function            100.00 %
node: same yield           90.32 %
node: + category           86.02 %
node: + function           86.02 %
sentence: structure        56.25 %
sentence: annotation       25.00 %
"""


def test_trees_prints_the_evalb_sample_as_before():
    gold, test = shared_file("treebank", "evalb_sample", "sample.gld"), shared_file("treebank", "evalb_sample",
                                                                                     "sample.tst")
    result = CliRunner().invoke(app, ["trees", str(gold), str(test)])
    assert result.exit_code == 0, result.output
    assert result.stdout == EVALB_SAMPLE


def test_dependency_lines_give_percentages_and_text_as_it_is():
    data = {"n_sentences": 1, "n_words": 3, "uas": 1.0, "las": 2 / 3, "las_universal": "n/a", "label_accuracy": 0.0}
    assert dependency_lines(data) == ["1 sentences, 3 words", "uas             100.00 %", "las             66.67 %",
                                      "las_universal   n/a", "label_accuracy  0.00 %"]


def test_evalb_and_disco_lines_name_the_parameter_file_and_the_cutoff():
    block = {"sentences": 2, "error": 0, "skip": 1, "recall": 50.0, "precision": 100.0, "fmeasure": 66.666,
             "complete_match": 0.0, "average_crossing": 0.5, "no_crossing": 50.0, "two_or_less_crossing": 100.0,
             "tagging_accuracy": 99.999, "exact_match": 0.0, "pos_accuracy": 97.5,
             "counts": {"sentences": 2, "error": 0, "skip": 1, "gold_brackets": 7, "disc_gold": 1,
                        "test_brackets": 6, "disc_test": 0}}
    data = {"all": block, "len_le_40": block, "params": {"labeled": False, "disc_only": True}}
    assert evalb_lines(data, "COLLINS.prm")[:2] == ["EVALB (COLLINS.prm): 2 sentences, 0 error, 1 skip",
                                                    "                               all     <= 40"]
    assert evalb_lines(data)[6] == "average crossing            0.50      0.50"
    assert disco_lines(data, "tiger") == [
        "TIGER-XML, discontinuous only: 2 sentence(s), 0 error, 1 skip",
        "brackets: gold 7 (1 discontinuous), test 6 (0 discontinuous)",
        "                               all     <= 40",
        "unlabeled recall           50.00 %   50.00 %",
        "unlabeled precision       100.00 %  100.00 %",
        "unlabeled F                66.67 %   66.67 %",
        "exact match                 0.00 %    0.00 %",
        "POS accuracy               97.50 %   97.50 %"]
    levels = {"n_compared": 1, "n_sentences": 2, "n_differing_sentences": 0,
              "table4": dict.fromkeys(("1_parent_node", "1_parent_category", "2_grammatical_function",
                                       "3_identical_nodes", "4_identical_nodes_labels", "5_identical_nodes_functions",
                                       "6_identical_structure", "7_identical_annotation"), 0.5)}
    lines = levels_lines(levels)
    assert lines[0] == "Brants & Skut (1998): 1 of 2 sentences compared, 0 differ" and len(lines) == 9
    assert lines[-1] == "sentence: annotation       50.00 %"


def test_noisy_lines_print_a_missing_count_as_a_dash_and_widen_for_long_types():
    row = {"p": 0.5, "r": 1.0, "f": 2 / 3, "predicted": 2, "matched": 1, "support": None}
    result = {"per_type": {"A_RATHER_LONG_TYPE": row}, "all": {**row, "support": 1}}
    assert noisy_lines(result) == [
        "type                 predicted  matched  support      P %      R %     F1 %",
        "A_RATHER_LONG_TYPE           2        1        -    50.00   100.00    66.67",
        "ALL                          2        1        1    50.00   100.00    66.67"]


def test_bdm_written_line_counts_the_records_of_the_result():
    scores = BDMScores([BDMPair("A", "A", 1.0, "A", 0, 0, 0, 0, 0, 0, 0),
                        BDMPair("A", "B", 0.5, "A", 0, 0, 0, 0, 0, 0, 0)])
    assert written_line(scores, "out.txt") == "2 concepts, 2 pairs written to out.txt" == \
        f"{len(scores.concepts)} concepts, {len(scores.to_rows())} pairs written to out.txt"  # what the CLI printed


def test_benchmark_store_line_and_verdict_line():
    store = {"mode": "store", "baseline": {"name": "v3", "n_docs": 16, "n_entities": 44}, "path": "p/v3"}
    assert store_line(store) == "stored baseline 'v3': 16 documents, 44 entities -> p/v3"
    echoed: list[str] = []
    print_run(store, echo=echoed.append)
    assert echoed == [store_line(store)]
    regressions = [{"scope": "overall", "measure": m, "figure": "f", "old": 1.0, "new": 0.7246}
                   for m in ("strict", "lenient", "average", "strict")]
    report = {"comparison": {"regressions": regressions}, "new": {"name": "v2"}, "old": {"name": "v1"}}
    assert verdict_line(report, "bench") == (
        "regression: 'v2' against 'v1' on bench: 4 figure(s) dropped significantly: overall strict F 100.00 -> "
        "72.46, overall lenient F 100.00 -> 72.46, overall average F 100.00 -> 72.46 and 1 more")
