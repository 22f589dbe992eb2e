"""EVALB 2006's full parameter set and its QUOTE_LABEL repair, reproduced on the release's own bug-fix sample.

Source: EVALB 2006 (``EVALB20060307``; David Ellis's "Bug fix and additional functionality for evalb",
January 2006, on Sekine & Collins's EVALB 1997): README, ``evalb.c`` (``set_param``, ``read_line``,
``fix_quote``, ``reinsert_term``), ``new.prm`` and ``bug/``. The files are in ``data/evalb2006/`` (Unlicense;
``SOURCE.md`` says where each comes from). ``bug.new_prm.evalb2006.rsl`` and ``sample.new_prm.evalb2006.rsl``
are that release's output (its C code compiled and run here); ``bug.rsl-new`` and ``bug.rsl-old`` are the
outputs it ships, after and before the fix.

The published numbers (``bug.rsl-new``): 5 sentences, 0 error; recall 62.83, precision 57.72, F 60.17,
complete match 0.00, average crossing 7.20, no crossing 0.00, 2 or less crossing 20.00, tagging 80.12;
len <= 40 (3 sentences): 61.54, 57.14, 59.26, 0.00, 5.00, 0.00, 33.33, 77.22. Before the fix
(``bug.rsl-old``) every sentence was a "Length unmatch" error.
"""

from __future__ import annotations

import dataclasses
import warnings
from pathlib import Path

import pytest

from spacy_anno_eval.errors import UndefinedFigureWarning
from spacy_anno_eval.trees.brackets import parse_brackets
from spacy_anno_eval.trees.evalb import ERROR, OK, EvalbParams, evaluate, evaluate_files, evaluate_trees
from tests.conftest import shared_file
from tests.trees.test_evalb import parse_rsl

DATA = Path(__file__).parent / "data" / "evalb2006"
NEW_PRM = DATA / "new.prm"


def bug(params: EvalbParams | Path = NEW_PRM):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedFigureWarning)
        return evaluate_files(DATA / "bug.gld", DATA / "bug.tst", params)


def test_new_prm_reads_every_evalb_2006_keyword():
    params = EvalbParams.read(NEW_PRM)
    assert (params.debug, params.max_error, params.cutoff_len, params.labeled) == (0, 10, 40, True)
    assert params.delete_labels == ("TOP", "S1", "-NONE-", ",", ":", "``", "''", ".", "?", "!")
    assert params.delete_labels_for_length == ("-NONE-",)
    assert params.quote_labels == ("``", "''", "POS", "NN", "CD", "VBZ", ":")
    assert params.eq_labels == (("ADVP", "PRT"),) and params.eq_words == ()
    assert EvalbParams.parse("EQ_WORD  This this\nDEBUG 2\nMAX_ERROR 3").eq_words == (("This", "this"),)
    assert bug().to_dict()["params"]["quote_labels"] == ["``", "''", "POS", "NN", "CD", "VBZ", ":"]


def test_quote_label_param_file_reproduces_evalb_2006():
    """``evalb -p new.prm bug.gld bug.tst``, EVALB 2006's output byte for byte."""
    assert bug().format_rsl("2006") == (DATA / "bug.new_prm.evalb2006.rsl").read_text(encoding="utf-8")


def test_quote_label_reproduces_every_number_of_the_shipped_bug_rsl_new():
    rows, summaries = parse_rsl((DATA / "bug.rsl-new").read_text(encoding="utf-8"))
    result = bug()
    ours = [(s.id, s.length, s.status, round(s.recall, 2), round(s.precision, 2), s.matched, s.gold_brackets,
             s.test_brackets, s.crossing, s.words, s.correct_tags, round(s.tagging_accuracy, 2))
            for s in result.sentences]
    assert ours == rows and len(rows) == 5
    for title, totals in (("All", result.all), ("len<=40", result.cutoff)):
        figures, _ = totals.figures()
        expected = summaries[title]
        assert (totals.sentences, totals.error, totals.skip, totals.valid) == tuple(
            int(expected[k]) for k in ("sentences", "error", "skip", "valid"))
        assert {k: round(v, 2) for k, v in figures.items()} == {k: v for k, v in expected.items()
                                                                if k in figures}


def test_without_quote_label_the_bug_sample_is_all_length_errors_as_before_the_fix():
    """``bug.rsl-old``: EVALB 1997 (and 2006 without QUOTE_LABEL) cannot score any of the five sentences."""
    old_rows, _ = parse_rsl((DATA / "bug.rsl-old").read_text(encoding="utf-8"))
    result = bug(dataclasses.replace(EvalbParams.read(NEW_PRM), quote_labels=()))
    assert [(s.id, s.length, s.status) for s in result.sentences] == [r[:3] for r in old_rows]
    assert all(s.status == ERROR and s.message.startswith("Length unmatch") for s in result.sentences)
    # EVALB 2006 run with new.prm less its QUOTE_LABEL lines prints these (bug.rsl-old's differ by "." kept)
    assert [s.message for s in result.sentences] == [
        "Length unmatch (32|34)", "Length unmatch (18|20)", "Length unmatch (43|44)", "Length unmatch (23|25)",
        "Length unmatch (37|38)"]


def test_evalb_sample_with_new_prm_reproduces_evalb_2006():
    result = evaluate_files(shared_file("treebank", "evalb_sample", "sample.gld"),
                            shared_file("treebank", "evalb_sample", "sample.tst"), NEW_PRM)
    assert result.format_rsl("2006") == (DATA / "sample.new_prm.evalb2006.rsl").read_text(encoding="utf-8")


QUOTES = EvalbParams(delete_labels=("``", "''"), quote_labels=("``", "''", "CD", "NN", "POS"))
#: one sentence, an error: no valid sentence, so every summary figure has a zero denominator (one warning)
NO_VALID_SENTENCE = r"14 ratios with a zero denominator .*: recall \(all\), precision \(all\), complete_match \(all\)"


def test_a_removed_gold_quote_is_reinserted_where_the_test_kept_it():
    """Gold tags the quotes ``` `` ``` and ``''`` (removed), the parser ``CD`` and ``NN`` (kept): EVALB 2006
    puts the gold's back, so the sentence is scored, the quotes counting as words with wrong tags."""
    result = evaluate_trees(['(S (NP (DT a) (`` ") (NN b) (\'\' ")) (VP (VBZ c)))'],
                            ['(S (NP (DT a) (CD ") (NN b) (NN ")) (VP (VBZ c)))'], QUOTES)
    row = result.sentences[0]
    assert (row.status, row.words, row.correct_tags, row.length) == (OK, 5, 3, 5)
    assert (row.matched, row.gold_brackets, row.test_brackets) == (3, 3, 3)  # S, NP over a " b ", VP
    with pytest.warns(UndefinedFigureWarning, match=NO_VALID_SENTENCE):
        plain = evaluate_trees(['(S (NP (DT a) (`` ") (NN b) (\'\' ")) (VP (VBZ c)))'],
                               ['(S (NP (DT a) (CD ") (NN b) (NN ")) (VP (VBZ c)))'],
                               dataclasses.replace(QUOTES, quote_labels=()))
    assert plain.sentences[0].status == ERROR and plain.sentences[0].message == "Length unmatch (3|5)"


def test_a_removed_test_quote_is_reinserted_where_the_gold_kept_it():
    gold = parse_brackets("(S (NP (NNP Ann) (POS ')) (NN dog))")
    test = parse_brackets("(S (NP (NNP Ann)) ('' ') (NN dog))")
    row = evaluate(gold, test, QUOTES).sentences[0]
    assert (row.status, row.words, row.correct_tags) == (OK, 3, 2)
    # the test's quote went back between its NP (which stays over "Ann") and "dog"
    assert (row.matched, row.gold_brackets, row.test_brackets, row.crossing) == (1, 2, 2, 0)


def test_a_quote_label_on_another_word_is_not_a_quote_term():
    """Only ``'``, ``"`` and ``/`` are quote terms (``is_quote_term``): ``(POS 's)`` is never put back."""
    params = dataclasses.replace(QUOTES, delete_labels=("POS",))
    with pytest.warns(UndefinedFigureWarning, match=NO_VALID_SENTENCE):
        row = evaluate_trees(["(S (NNP Ann) (POS 's) (NN dog))"], ["(S (NNP Ann) (NN 's) (NN dog))"],
                             params).sentences[0]
    assert row.status == ERROR and row.message == "Length unmatch (2|3)"


def test_quote_terms_are_repaired_only_when_the_lengths_differ():
    with pytest.warns(UndefinedFigureWarning, match=NO_VALID_SENTENCE):
        row = evaluate_trees(['(S (`` ") (NN a) (NN b))'], ['(S (CD ") (NN a))'], QUOTES).sentences[0]
    assert row.status == ERROR and row.message == "Words unmatch (a|\")"  # 2 words each: EVALB leaves them


def test_quote_label_changes_nothing_in_disco():
    """disco-dop's scoring removes what the gold's tags say on both sides: no length mismatch to repair."""
    from spacy_anno_eval.trees.disco import evaluate as evaluate_disco
    from spacy_anno_eval.trees.phrase import from_brackets

    gold = [from_brackets(t) for t in parse_brackets((DATA / "bug.gld").read_text(encoding="utf-8"))]
    test = [from_brackets(t) for t in parse_brackets((DATA / "bug.tst").read_text(encoding="utf-8"))]
    params = EvalbParams.read(NEW_PRM)
    with_quotes = evaluate_disco(gold, test, params).to_dict()
    without = evaluate_disco(gold, test, dataclasses.replace(params, quote_labels=())).to_dict()
    assert with_quotes["all"] == without["all"] and with_quotes["sentences"] == without["sentences"]


@pytest.mark.parametrize("value", ["POS", 3, None])
def test_quote_labels_must_be_a_list_of_labels(value):
    from spacy_anno_eval.errors import ConfigError

    with pytest.raises(ConfigError, match="quote_labels must be a list of labels"):
        EvalbParams(quote_labels=value)
