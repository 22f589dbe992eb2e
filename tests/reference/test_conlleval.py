"""CoNLL reader + engine against published and peer-computed references.

- REFERENCE 5.1: conlleval.pl's printed result on the CoNLL-2000 output example
  (``conlleval_sample/``); our strict mode is conlleval's exact match.
- REFERENCE 5.6: seqeval's small cases (default vs strict decoding).
- Differential: seqeval 1.2 (``classification_report``, default and strict
  IOB2) on WNUT-17's test set against the seven shared-task submissions, and
  seqeval's ``get_entities`` on Universal NER English-EWT.
"""

from __future__ import annotations

import json
import re

import pytest

from spacy_anno_eval.io.conll import read_conll
from spacy_anno_eval.spans.engine import evaluate
from tests.conftest import shared_file

seqeval_metrics = pytest.importorskip("seqeval.metrics")
from seqeval.metrics.sequence_labeling import get_entities  # noqa: E402
from seqeval.scheme import IOB2  # noqa: E402

WNUT_SUBMISSIONS = ["arcada", "drexel_cci", "flytxt", "mic-cis.txt", "sjtu_adapt.txt", "spinningbytes.txt",
                    "uh_ritual"]


def read_sentences(path, token_col=0, tag_col=-1, comments=False):
    """Plain reference parser: sentences of (token, tag), blank-line separated; with
    ``comments``, every line starting with '#' is skipped (UNER, whose token lines start
    with an index; WNUT-17 has no comments but has '#' tokens)."""
    sentences, current = [], []
    for line in path.read_text(encoding="utf8").split("\n"):
        fields = line.split()
        if not fields:
            if current:
                sentences.append(current)
            current = []
            continue
        if comments and line.startswith("#"):
            continue
        current.append((fields[token_col], fields[tag_col]))
    if current:
        sentences.append(current)
    return sentences


# ---------------------------------------------------------------------------
# REFERENCE 5.1: conlleval


def parse_conlleval_output(text):
    """conlleval.pl's summary: totals and per-type (precision, recall, FB1, found), in percent."""
    head = re.search(r"processed (\d+) tokens with (\d+) phrases; found: (\d+) phrases; correct: (\d+)", text)
    overall = re.search(r"precision:\s+([\d.]+)%; recall:\s+([\d.]+)%; FB1:\s+([\d.]+)", text)
    per_type = {m[1]: tuple(float(x) for x in m.groups()[1:4]) + (int(m[5]),)
                for m in re.finditer(r"^\s*(\S+): precision:\s+([\d.]+)%; recall:\s+([\d.]+)%; "
                                     r"FB1:\s+([\d.]+)\s+(\d+)$", text, re.M)}
    return {"tokens": int(head[1]), "phrases": int(head[2]), "found": int(head[3]), "correct": int(head[4]),
            "overall": tuple(float(x) for x in overall.groups()), "per_type": per_type}


def test_conlleval_output_example():
    data = shared_file("conlleval_sample", "ground_truth.txt")
    printed = parse_conlleval_output(shared_file("conlleval_sample", "conlleval_output.txt").read_text())
    # the published figures (REFERENCE 5.1), so that a broken parse cannot pass silently
    assert (printed["phrases"], printed["found"], printed["correct"]) == (459, 539, 371)
    assert printed["overall"] == (68.83, 80.83, 74.35)
    assert len(printed["per_type"]) == 6

    corpus = read_conll(data, selectors=("column:-2", "column:-1"))
    assert sum(len(t.split()) for t in corpus.texts) == printed["tokens"] == 961

    report = evaluate(data, data, key_set="column:-2", response_set="column:-1").report()
    c = report["counts"]
    assert c["correct"] == printed["correct"]
    assert c["correct"] + c["partial"] + c["missing"] == printed["phrases"]
    assert c["correct"] + c["partial"] + c["spurious"] == printed["found"]
    micro = report["micro"]["strict"]
    assert tuple(round(100 * micro[k], 2) for k in "prf") == printed["overall"]

    assert set(report["per_type"]) == set(printed["per_type"])
    for label, (p, r, f, found) in printed["per_type"].items():
        entry = report["per_type"][label]
        counts = entry["counts"]
        assert counts["correct"] + counts["partial"] + counts["spurious"] == found, label
        assert tuple(round(100 * entry["strict"][k], 2) for k in "prf") == (p, r, f), label


# ---------------------------------------------------------------------------
# REFERENCE 5.6: seqeval small cases


def test_seqeval_get_entities_case(tmp_path):
    tags = ["O", "O", "O", "B-MISC", "I-MISC", "I-MISC", "O", "B-PER", "I-PER"]
    path = tmp_path / "g.conll"
    path.write_text("".join(f"t{i} {t}\n" for i, t in enumerate(tags)), encoding="utf8")
    corpus = read_conll(path)
    table = corpus.sets["ents"]
    # tokens t0..t8: token i starts at 3 * i (two characters and a space)
    got = [(lab, int(s) // 3, (int(e) - 2) // 3) for s, e, lab in
           zip(table.start, table.end, table.label_names(), strict=True)]
    assert got == [("MISC", 3, 5), ("PER", 7, 8)] == get_entities(tags)


@pytest.mark.parametrize(("options", "f1"), [({}, 1.0), ({"scheme": "IOB2", "strict": True}, 0.0)])
def test_seqeval_ill_formed_inside(tmp_path, options, f1):
    path = tmp_path / "p.conll"
    path.write_text("a B-ORG I-ORG\nb I-ORG I-ORG\n", encoding="utf8")
    report = evaluate(path, path, key_set="column:-2", response_set="column:-1", reader_options=options).report()
    assert report["micro"]["strict"]["f"] == f1
    kwargs = {"mode": "strict", "scheme": IOB2} if options else {}
    assert seqeval_metrics.f1_score([["B-ORG", "I-ORG"]], [["I-ORG", "I-ORG"]], **kwargs) == f1


# ---------------------------------------------------------------------------
# differential: seqeval on WNUT-17


def paired_file(tmp_path, gold_path, response_path):
    """``token gold response`` lines, the response paired with the gold by position.

    The submissions re-spell a few tokens (mic-cis writes "get" for "gt"), so
    texts differ; their sentence and token counts match the gold exactly.
    """
    gold, resp = read_sentences(gold_path), read_sentences(response_path)
    assert [len(s) for s in gold] == [len(s) for s in resp]
    out = tmp_path / f"{response_path.name}.paired.conll"
    with out.open("w", encoding="utf8") as f:
        for gs, rs in zip(gold, resp, strict=True):
            for (tok, gtag), (_, rtag) in zip(gs, rs, strict=True):
                f.write(f"{tok}\t{gtag}\t{rtag}\n")
            f.write("\n")
    return out, [[t for _, t in s] for s in gold], [[t for _, t in s] for s in resp]


def assert_matches_seqeval(report, y_true, y_pred, **kwargs):
    expected = seqeval_metrics.classification_report(y_true, y_pred, output_dict=True, zero_division=0, **kwargs)
    micro = expected.pop("micro avg")
    for key in ("macro avg", "weighted avg"):
        expected.pop(key)
    ours = report["micro"]["strict"]
    assert ours["p"] == pytest.approx(micro["precision"], abs=1e-9)
    assert ours["r"] == pytest.approx(micro["recall"], abs=1e-9)
    assert ours["f"] == pytest.approx(micro["f1-score"], abs=1e-9)
    assert set(expected) <= set(report["per_type"])
    for label, row in expected.items():
        entry = report["per_type"][label]
        got = (entry["strict"]["p"], entry["strict"]["r"], entry["strict"]["f"])
        assert got == pytest.approx((row["precision"], row["recall"], row["f1-score"]), abs=1e-9), label
        counts = entry["counts"]
        assert counts["correct"] + counts["partial"] + counts["missing"] == row["support"], label
    # types only the response has: seqeval lists them too (support 0)
    assert set(report["per_type"]) == set(expected)


@pytest.mark.parametrize("submission", WNUT_SUBMISSIONS)
def test_wnut17_submissions_match_seqeval(tmp_path, submission):
    gold = shared_file("wnut17", "emerging.test.annotated")
    path, y_true, y_pred = paired_file(tmp_path, gold, shared_file("wnut17", "submissions", submission))
    default = evaluate(path, path, key_set="column:-2", response_set="column:-1").report()
    assert default["counts"]["correct"] + default["counts"]["partial"] + default["counts"]["missing"] == 1079
    assert_matches_seqeval(default, y_true, y_pred)
    strict = evaluate(path, path, key_set="column:-2", response_set="column:-1",
                      reader_options={"scheme": "IOB2", "strict": True}).report()
    assert_matches_seqeval(strict, y_true, y_pred, mode="strict", scheme=IOB2)


# conlleval.pl (2004-01-26), peer-computed on each submission paired line by line with
# emerging.test.annotated: (found, correct), overall (precision, recall, FB1) and per type
# (precision, recall, FB1, found), as printed. Every file has 23394 tokens and 1079 phrases.
WNUT_CONLLEVAL = {
    "arcada": ((787, 373), (47.40, 34.57, 39.98), {
        "corporation": (19.05, 18.18, 18.60, 63), "creative-work": (31.82, 9.86, 15.05, 44),
        "group": (38.36, 16.97, 23.53, 73), "location": (44.00, 51.33, 47.38, 175),
        "person": (58.91, 53.15, 55.88, 387), "product": (31.11, 11.02, 16.28, 45)}),
    "drexel_cci": ((381, 192), (50.39, 17.79, 26.30), {
        "corporation": (0.00, 0.00, 0.00, 0), "creative-work": (0.00, 0.00, 0.00, 0),
        "group": (0.00, 0.00, 0.00, 9), "location": (56.25, 36.00, 43.90, 96),
        "person": (49.44, 31.00, 38.11, 269), "product": (71.43, 3.94, 7.46, 7)}),
    "flytxt": ((720, 345), (47.92, 31.97, 38.35), {
        "corporation": (20.59, 10.61, 14.00, 34), "creative-work": (33.96, 12.68, 18.46, 53),
        "group": (26.09, 10.91, 15.38, 69), "location": (39.41, 44.67, 41.88, 170),
        "person": (65.32, 52.68, 58.32, 346), "product": (18.75, 7.09, 10.29, 48)}),
    "mic-cis.txt": ((891, 365), (40.97, 33.83, 37.06), {
        "corporation": (14.47, 16.67, 15.49, 76), "creative-work": (25.42, 10.56, 14.93, 59),
        "group": (40.70, 21.21, 27.89, 86), "location": (39.90, 54.00, 45.89, 203),
        "person": (52.12, 48.72, 50.36, 401), "product": (21.21, 11.02, 14.51, 66)}),
    "sjtu_adapt.txt": ((727, 365), (50.21, 33.83, 40.42), {
        "corporation": (33.33, 25.76, 29.06, 51), "creative-work": (60.00, 2.11, 4.08, 5),
        "group": (36.47, 18.79, 24.80, 85), "location": (37.69, 50.00, 42.98, 199),
        "person": (67.98, 52.45, 59.21, 331), "product": (25.00, 11.02, 15.30, 56)}),
    "spinningbytes.txt": ((824, 388), (47.09, 35.96, 40.78), {
        "corporation": (8.42, 12.12, 9.94, 95), "creative-work": (21.05, 11.27, 14.68, 76),
        "group": (36.36, 9.70, 15.31, 44), "location": (60.00, 46.00, 52.08, 115),
        "person": (59.26, 63.40, 61.26, 459), "product": (20.00, 5.51, 8.64, 35)}),
    "uh_ritual": ((617, 355), (57.54, 32.90, 41.86), {
        "corporation": (31.91, 22.73, 26.55, 47), "creative-work": (36.67, 7.75, 12.79, 30),
        "group": (41.79, 16.97, 24.14, 67), "location": (56.92, 49.33, 52.86, 130),
        "person": (70.72, 50.12, 58.66, 304), "product": (30.77, 9.45, 14.46, 39)}),
}


@pytest.mark.parametrize("submission", WNUT_SUBMISSIONS)
def test_wnut17_submissions_score_through_the_cli_as_conlleval_printed(tmp_path, submission):
    """``anno-eval score gold pred --format conll`` on the files as distributed: no pairing by hand.
    MIC-CIS re-spells 1283 tokens ("get" for "gt"): paired by position with one TokenMismatchWarning."""
    from typer.testing import CliRunner

    from spacy_anno_eval.cli.app import app

    gold = shared_file("wnut17", "emerging.test.annotated")
    pred = shared_file("wnut17", "submissions", submission)
    out = tmp_path / "report.json"
    result = CliRunner().invoke(app, ["score", str(gold), str(pred), "--format", "conll", "--json", str(out),
                                      "--quiet"])
    assert result.exit_code == 0, result.output
    (found, correct), overall, per_type = WNUT_CONLLEVAL[submission]
    report = json.loads(out.read_text())
    c = report["counts"]
    assert c["correct"] == correct
    assert c["correct"] + c["partial"] + c["missing"] == 1079
    assert c["correct"] + c["partial"] + c["spurious"] == found
    # to the printed precision: conlleval's printf rounds 41.875 (flytxt location, 134/320) up, round() down
    assert [100 * report["micro"]["strict"][k] for k in "prf"] == pytest.approx(overall, abs=0.005 + 1e-9)
    for label, (p, r, f, n) in per_type.items():
        entry = report["per_type"][label]
        counts = entry["counts"]
        assert counts["correct"] + counts["partial"] + counts["spurious"] == n, label
        assert [100 * entry["strict"][k] for k in "prf"] == pytest.approx((p, r, f), abs=0.005 + 1e-9), label
    respelt = "1283 tokens differ in spelling" in result.output
    assert respelt == (submission == "mic-cis.txt"), result.output
    if respelt:
        assert "line 2 'gt'" in result.output and "line 2 'get'" in result.output


def test_wnut17_mic_cis_warns_once_with_the_first_respelt_token():
    from spacy_anno_eval.errors import TokenMismatchWarning

    gold = shared_file("wnut17", "emerging.test.annotated")
    pred = shared_file("wnut17", "submissions", "mic-cis.txt")
    with pytest.warns(TokenMismatchWarning) as record:
        report = evaluate(gold, pred, fmt="conll").report()
    assert len([w for w in record if w.category is TokenMismatchWarning]) == 1
    message = str(record[0].message)
    assert "1283 tokens differ in spelling" in message
    assert "emerging.test.annotated, line 2 'gt'" in message and "mic-cis.txt, line 2 'get'" in message
    assert report["counts"]["correct"] == 365


def test_wnut17_gold_reads_like_seqeval():
    gold = shared_file("wnut17", "emerging.test.annotated")
    corpus = read_conll(gold, sep="\t")
    sentences = read_sentences(gold)
    assert len(corpus) == len(sentences) == 1287
    assert [t.split(" ") for t in corpus.texts] == [[tok for tok, _ in s] for s in sentences]
    expected = sorted((d, lab, a, b) for d, s in enumerate(sentences)
                      for lab, a, b in get_entities([t for _, t in s]))
    table = corpus.sets["ents"]
    assert len(table) == len(expected) == 1079
    assert sorted(table.label_names().tolist()) == sorted(lab for _, lab, _, _ in expected)


# ---------------------------------------------------------------------------
# Universal NER English-EWT: no key/response pair is published (the per-annotator
# annotations are not released), so check the reader against seqeval's decoding


def test_uner_en_ewt_reads_like_seqeval():
    path = shared_file("uner_en_ewt", "en_ewt-ud-test.iob2")
    corpus = read_conll(path, sep="\t", token_column=1, column=2, scheme="IOB2")
    sentences = read_sentences(path, token_col=1, tag_col=2, comments=True)
    assert len(corpus) == len(sentences) == 2077
    assert corpus.doc_ids[0] == "answers-20080426140040AA4YiX5_ans-0001"
    assert len(set(corpus.doc_ids)) == 2077
    table = corpus.sets["ents"]
    expected = [(d, lab, a, b) for d, s in enumerate(sentences) for lab, a, b in get_entities([t for _, t in s])]
    assert len(table) == len(expected) == 1088
    labels = table.label_names().tolist()
    assert {lab: labels.count(lab) for lab in set(labels)} == {"PER": 449, "ORG": 322, "LOC": 317}
    # every entity's text is its tokens joined by spaces
    got = [corpus.texts[int(d)][int(s):int(e)] for d, s, e in zip(table.doc, table.start, table.end, strict=True)]
    want = [" ".join(tok for tok, _ in sentences[d][a:b + 1]) for d, _, a, b in expected]
    assert got == want
    # the same file is strict-IOB2 well formed: strict decoding finds the same entities
    strict = read_conll(path, sep="\t", token_column=1, column=2, scheme="IOB2", strict=True).sets["ents"]
    assert len(strict) == 1088
