"""GATE's error rate and false-positive rate (user guide §10.1.3, eq. 10.8), hand-computed.

Document A, "John Smith met Mary in Paris. Then he left." (11 tokens, 2 sentences): key PER John Smith, PER Mary,
LOC Paris; response PER John (partial), PER Mary (correct), PER he (spurious); LOC Paris missing.
Document B, "Rain fell." (3 tokens, 1 sentence): no key; response ORG Rain (spurious).
Totals: C 1, Pa 1, M 1, S 2; 4 responses; 14 tokens, 3 sentences.
"""

from __future__ import annotations

import json

import pytest
import spacy
from spacy.tokens import DocBin, Span
from typer.testing import CliRunner

from spacy_anno_eval import evaluate
from spacy_anno_eval.cli.app import app
from spacy_anno_eval.errors import ConfigError, InputError
from spacy_anno_eval.report.rows import to_rows
from spacy_anno_eval.spans.counts import Evaluation

TEXTS = ["John Smith met Mary in Paris. Then he left.", "Rain fell."]


def docs(side, sentences=False):
    nlp = spacy.blank("en")
    if sentences:
        nlp.add_pipe("sentencizer")
    a, b = (nlp(t) for t in TEXTS)
    if side == "key":
        a.ents = [Span(a, 0, 2, "PER"), Span(a, 3, 4, "PER"), Span(a, 5, 6, "LOC")]
    else:
        a.ents = [Span(a, 0, 1, "PER"), Span(a, 3, 4, "PER"), Span(a, 8, 9, "PER")]
        b.ents = [Span(b, 0, 1, "ORG")]
    return [a, b]


def test_error_rate_is_one_minus_precision_per_criterion():
    report = evaluate(docs("key"), docs("response")).report()
    assert report["counts"] == {"correct": 1, "partial": 1, "missing": 1, "spurious": 2, "incorrect": 0}
    micro = report["error_rate"]["micro"]
    assert micro == pytest.approx({"strict": 3 / 4, "lenient": 2 / 4, "average": 5 / 8})
    for m in ("strict", "lenient", "average"):
        assert micro[m] == pytest.approx(1 - report["micro"][m]["p"])
    per = report["per_type"]
    assert per["PER"]["error_rate"] == pytest.approx({"strict": 2 / 3, "lenient": 1 / 3, "average": 1 / 2})
    assert per["ORG"]["error_rate"] == pytest.approx({"strict": 1.0, "lenient": 1.0, "average": 1.0})
    assert per["LOC"]["error_rate"] == {"strict": 0.0, "lenient": 0.0, "average": 0.0}  # nothing identified
    assert report["error_rate"]["macro_types"]["strict"] == pytest.approx((0 + 1 + 2 / 3) / 3)
    # per document: A has C 1, Pa 1, S 1 (E strict 2/3); B has S 1 (E 1)
    assert [d["error_rate"]["strict"] for d in report["per_doc"]] == pytest.approx([2 / 3, 1.0])
    assert report["error_rate"]["macro_docs"]["lenient"] == pytest.approx((1 / 3 + 1) / 2)


def test_false_positives_per_token():
    report = evaluate(docs("key"), docs("response")).report()
    fp = report["false_positive"]
    assert (fp["per"], fp["tokens"]) == ("tokens", 14)
    assert fp["micro"] == pytest.approx(2 / 14)
    assert fp["macro_docs"] == pytest.approx((1 / 11 + 1 / 3) / 2)
    assert fp["macro_types"] == pytest.approx((0 + 1 / 14 + 1 / 14) / 3)
    assert [(d["tokens"], d["false_positive"]) for d in report["per_doc"]] == [(11, pytest.approx(1 / 11)),
                                                                                 (3, pytest.approx(1 / 3))]
    assert report["per_type"]["PER"]["false_positive"] == pytest.approx(1 / 14)
    assert report["per_type"]["LOC"]["false_positive"] == 0.0
    assert "fp_per" not in report["settings"]  # the default is not recorded


def test_false_positives_per_sentence():
    report = evaluate(docs("key", True), docs("response", True), fp_per="sentences").report()
    fp = report["false_positive"]
    assert (fp["per"], fp["sentences"], fp["micro"]) == ("sentences", 3, pytest.approx(2 / 3))
    assert [d["false_positive"] for d in report["per_doc"]] == pytest.approx([1 / 2, 1.0])
    assert [d["sentences"] for d in report["per_doc"]] == [2, 1]


def test_sentences_without_boundaries_say_what_to_do():
    with pytest.raises(InputError, match="no sentence boundaries.*sentencizer.*--fp-per tokens"):
        evaluate(docs("key"), docs("response"), fp_per="sentences")
    with pytest.raises(ConfigError, match="fp_per"):
        evaluate(docs("key"), docs("response"), fp_per="pages")


def test_merged_parts_give_the_whole_corpus_figures():
    key, resp = docs("key"), docs("response")
    whole = evaluate(key, resp).report()
    parts = Evaluation.concat([evaluate(key[:1], resp[:1]), evaluate(key[1:], resp[1:])]).report()
    assert parts["false_positive"] == whole["false_positive"]
    assert parts["error_rate"] == whole["error_rate"]


def test_rows_carry_the_figures():
    rows = {(r["scope"], r["name"]): r for r in to_rows(evaluate(docs("key"), docs("response")))}
    assert rows["summary", "micro"]["false_positive"] == pytest.approx(2 / 14)
    assert rows["summary", "micro"]["strict_e"] == pytest.approx(3 / 4)
    assert rows["doc", "1"]["false_positive"] == pytest.approx(1 / 3)


def test_without_units_the_false_positive_rate_is_null():
    ev = evaluate(docs("key"), docs("response"))
    ev.units = None
    report = ev.report()
    assert report["false_positive"] is None and report["per_type"]["PER"]["false_positive"] is None
    assert report["per_doc"][0]["false_positive"] is None and "tokens" not in report["per_doc"][0]


def save(path, ds):
    DocBin(docs=ds).to_disk(path)
    return str(path)


def test_cli_fp_per(tmp_path):
    runner = CliRunner()
    key, resp = save(tmp_path / "k.spacy", docs("key", True)), save(tmp_path / "r.spacy", docs("response", True))
    out = tmp_path / "out.json"
    result = runner.invoke(app, ["score", key, resp, "--fp-per", "sentences", "--json", str(out), "--quiet"])
    assert result.exit_code == 0, result.output
    fp = json.loads(out.read_text())["false_positive"]
    assert (fp["sentences"], fp["micro"]) == (3, pytest.approx(2 / 3))
    result = runner.invoke(app, ["score", key, resp, "--json", str(out), "--quiet"])
    assert json.loads(out.read_text())["false_positive"]["tokens"] == 14
    result = runner.invoke(app, ["score", key, resp])
    assert result.exit_code == 0 and "Error rate (1 - P)" in result.output and "FP per" in result.output
    plain_k, plain_r = save(tmp_path / "pk.spacy", docs("key")), save(tmp_path / "pr.spacy", docs("response"))
    result = runner.invoke(app, ["score", plain_k, plain_r, "--fp-per", "sentences"])
    assert result.exit_code == 2 and "no sentence boundaries" in result.output


def test_html_error_table():
    from spacy_anno_eval.report.html import error_table

    report = evaluate(docs("key"), docs("response")).report()
    out = error_table(report, ("strict", "lenient"))
    assert 'id="error-table"' in out and "FP per token" in out and "E strict" in out and "E average" not in out
    assert "<td class=\"num m-strict\">75.00</td>" in out and "0.1429" in out  # micro: 3/4, 2/14
