"""Discontinuous bracket scoring (:mod:`spacy_anno_eval.trees.disco`): disco-dop's rules, EVALB's error/skip
handling, and agreement with EVALB on contiguous trees."""

from __future__ import annotations

import json
import re
import warnings

import pytest
from typer.testing import CliRunner

from spacy_anno_eval.cli.app import app
from spacy_anno_eval.errors import ConfigError, InputError, UndefinedFigureWarning
from spacy_anno_eval.trees.brackets import parse_brackets
from spacy_anno_eval.trees.disco import evaluate, format_bracket, strip_functions
from spacy_anno_eval.trees.evalb import EvalbParams
from spacy_anno_eval.trees.evalb import evaluate as evalb
from spacy_anno_eval.trees.negra import parse_negra
from spacy_anno_eval.trees.phrase import from_brackets
from tests.conftest import shared_file

GOLD = """#BOS 1
Who\tW\t--\t--\t500
,\t$,\t--\t--\t0
sleeps\tV\t--\tHD\t501
now\tA\t--\t--\t500
.\t$.\t--\t--\t0
#500\tVP-X\t--\t--\t501
#501\tS\t--\t--\t0
#EOS 1
#BOS 2
Yes\tA\t--\t--\t502
#502\tADVP\t--\t--\t0
#EOS 2
"""


def _negra(text: str):
    return parse_negra(text)


def test_punctuation_deleted_by_the_gold_tags_and_renumbered():
    """After ``$,`` and ``$.`` go, VP{Who, now} is VP[0,2] over the kept words 0..2: still discontinuous."""
    params = EvalbParams(delete_labels=("$,", "$."))
    r = evaluate(_negra(GOLD), _negra(GOLD), params)
    first = r.sentences[0]
    assert (first.words, first.gold_brackets, first.disc_gold, first.length) == (3, 2, 1, 5)
    assert r.all.exact == 2 and r.figures()["fmeasure"] == 100.0
    test = GOLD.replace("Who\tW\t--\t--\t500", "Who\tW\t--\t--\t501").replace(",\t$,", ",\tXY")
    row = evaluate(_negra(GOLD), _negra(test), params).sentences[0]
    assert row.words == 3 and row.test_only == (("VP", (2,)),) and row.gold_only == (("VP", (0, 2)),)
    assert format_bracket(row.gold_only[0]) == "VP[0,2]" and format_bracket(("S", (0, 1, 2, 4))) == "S[0-2,4]"


def test_function_tags_stripped_and_eq_label_classes():
    assert [strip_functions(x) for x in ("VP-X", "NP=2", "-NONE-", "PRP$")] == ["VP", "NP", "-NONE-", "PRP$"]
    test = GOLD.replace("#502\tADVP", "#502\tPRT")
    assert evaluate(_negra(GOLD), _negra(test)).all.matched == 2
    r = evaluate(_negra(GOLD), _negra(test), EvalbParams(eq_labels=(("ADVP", "PRT"),)))
    assert r.all.matched == 3 and r.all.exact == 2


def test_delete_root_preterms_and_disc_only():
    r = evaluate(_negra(GOLD), _negra(GOLD), EvalbParams(delete_root_preterms=True))
    assert r.sentences[0].words == 3  # the comma and the full stop hang from the root
    r = evaluate(_negra(GOLD), _negra(GOLD), EvalbParams(disc_only=True))
    # the comma stays without a parameter file, so S{Who, sleeps, now} = S[0,2,3] has a gap too
    assert (r.all.gold_brackets, r.all.scored, r.all.sentences) == (2, 1, 2)
    r = evaluate(_negra(GOLD), _negra(GOLD), EvalbParams(disc_only=True, delete_labels=("$,", "$.")))
    assert (r.all.gold_brackets, r.all.scored) == (1, 1)


def test_error_and_skip_sentences_are_counted_never_raised():
    bad = GOLD.replace("sleeps\tV", "snores\tV").replace("#BOS 2\nYes\tA\t--\t--\t502\n#502\tADVP\t--\t--\t0\n",
                                                           "#BOS 2\n")
    with pytest.warns(UndefinedFigureWarning, match=r"4 ratios with a zero denominator .*: recall \(all\), "
                                                    r"precision \(all\), exact_match \(all\), pos_accuracy \(all\)"):
        r = evaluate(_negra(GOLD), _negra(bad))  # no sentence scored: every summary figure is undefined
    assert [(s.status, s.message) for s in r.sentences] == [(1, "words unmatch at 3 (sleeps|snores)"),
                                                            (2, "empty test sentence")]
    assert (r.all.error, r.all.skip, r.all.scored) == (1, 1, 0)
    only_first = GOLD.split("#BOS 2")[0]
    r = evaluate(_negra(GOLD), _negra(only_first))
    assert r.sentences[1].message == "no test sentence with this id" and r.all.error == 1
    with pytest.raises(InputError, match="no gold sentence"):
        evaluate(_negra(only_first), _negra(GOLD))


def test_equals_evalb_on_contiguous_trees():
    """Penn brackets through the discontinuous scorer give EVALB's brackets exactly (sample.prm: R 87.76,
    P 90.53, the same error and skip sentences). Tagging differs on purpose: EVALB compares tags under
    EQ_LABEL (106/108 correct), disco-dop compares them as written (105/108)."""
    from spacy_anno_eval.trees.brackets import read_brackets
    from spacy_anno_eval.trees.disco import evaluate as disco

    gld = read_brackets(shared_file("treebank", "evalb_sample", "sample.gld"))
    tst = read_brackets(shared_file("treebank", "evalb_sample", "sample.tst"))
    params = EvalbParams.read(shared_file("treebank", "evalb_sample", "sample.prm"))
    e = evalb(gld, tst, params)
    d = disco([from_brackets(t) for t in gld], [from_brackets(t) for t in tst], params)
    assert (d.all.matched, d.all.gold_brackets, d.all.test_brackets) == (e.all.matched, e.all.gold_brackets,
                                                                         e.all.test_brackets) == (86, 98, 95)
    assert (d.all.error, d.all.skip, d.all.exact) == (e.all.error, e.all.skip, e.all.complete_match) == (5, 2, 9)
    assert (e.all.correct_tags, d.all.correct_tags, d.all.words) == (106, 105, 108)


def test_random_contiguous_trees_agree_with_evalb():
    """Unary chains, repeated labels and function tags: the multiset rule equals EVALB's first-free matching."""
    import random

    rng = random.Random(3)
    labels = ["NP", "VP", "NP-SBJ", "PP", "S"]

    def tree(words: list[str]) -> str:
        if len(words) == 1:
            return f"(T {words[0]})"
        cut = rng.randrange(1, len(words))
        inner = f"({rng.choice(labels)} {tree(words[:cut])} {tree(words[cut:])})"
        return f"({rng.choice(labels)} {inner})" if rng.random() < 0.2 else inner

    for _ in range(200):
        words = [f"w{i}" for i in range(rng.randint(1, 9))]
        g, t = parse_brackets(tree(words)), parse_brackets(tree(words))
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", UndefinedFigureWarning)
            e = evalb(g, t).all
            d = evaluate([from_brackets(x) for x in g], [from_brackets(x) for x in t]).all
        assert (d.matched, d.gold_brackets, d.test_brackets) == (e.matched, e.gold_brackets, e.test_brackets)
        # a side without brackets (one word): both scorers warn once that its recall or precision is undefined
        named = [set(re.findall(r"(recall|precision) \(all\)", str(w.message))) for w in caught
                 if issubclass(w.category, UndefinedFigureWarning)]
        undefined = {name for name, n in (("recall", e.gold_brackets), ("precision", e.test_brackets)) if n == 0}
        assert named == ([undefined, undefined] if undefined else []), words


def test_parameter_files_refuse_what_is_not_implemented():
    with pytest.raises(ConfigError, match="not implemented"):
        EvalbParams.parse("LA 1")
    assert EvalbParams.parse("TED 0\nDELETE_WORD ?\nDISC_ONLY 1").delete_words == ("?",)
    with pytest.raises(ConfigError, match="disco-dop"):
        evalb([], [], EvalbParams(disc_only=True))


def test_cli_export_json_rsl_diff_and_80_columns(tmp_path):
    gold = shared_file("treebank", "disc_alpino3", "gold.export")
    test = shared_file("treebank", "disc_alpino3", "test.export")
    prm = shared_file("treebank", "params", "proper.prm")
    out, rsl, diff, rows = (tmp_path / n for n in ("t.json", "t.rsl", "t.diff", "t.jsonl"))
    result = CliRunner().invoke(app, ["trees", str(gold), str(test), "--prm", str(prm), "--json", str(out),
                                      "--rsl", str(rsl), "--diff", str(diff)])
    assert result.exit_code == 0, result.output
    assert "labeled F                  95.74 %   95.74 %" in result.stdout
    assert "node: same yield           97.87 %" in result.stdout
    assert all(len(line) <= 80 for line in result.stdout.splitlines())
    data = json.loads(out.read_text(encoding="utf-8"))
    assert round(data["all"]["fmeasure"], 2) == 95.74 and data["all"]["counts"]["disc_gold"] == 2
    assert data["brants_skut"]["sentence"]["identical_annotation"]["count"] == 1
    assert "labeled f-measure:          95.74      95.74" in rsl.read_text(encoding="utf-8")
    text = diff.read_text(encoding="utf-8")
    assert "node 5-10  label          AP→ADVP/mod" in text and "tag adj→n" in text
    CliRunner().invoke(app, ["trees", str(gold), str(test), "--diff", str(rows), "-q"])
    kinds = [json.loads(line)["kind"] for line in rows.read_text(encoding="utf-8").splitlines()]
    assert kinds.count("node") == 3 and "word" in kinds
    refused = CliRunner().invoke(app, ["trees", str(shared_file("treebank", "evalb_sample", "sample.gld")),
                                       str(shared_file("treebank", "evalb_sample", "sample.tst")), "--disconly"])
    assert refused.exit_code == 2 and "Penn brackets have none" in refused.stderr
