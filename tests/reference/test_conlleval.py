"""CoNLL reader + engine against published and peer-computed references.

- REFERENCE 5.1: conlleval.pl's printed result on the CoNLL-2000 output example
  (``conlleval_sample/``); our strict mode is conlleval's exact match.
- REFERENCE 5.6: seqeval's small cases (default vs strict decoding).
- Differential: seqeval 1.2 (``classification_report``, default and strict
  IOB2) on WNUT-17's test set against the seven shared-task submissions, and
  seqeval's ``get_entities`` on Universal NER English-EWT.
"""

from __future__ import annotations

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
