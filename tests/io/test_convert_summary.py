"""The summary of ``convert`` carries the totals ``anno-eval convert`` prints (issue 27: the door only asks)."""

from __future__ import annotations

import json
import warnings

from spacy_anno_eval.io import read_corpus
from spacy_anno_eval.io.convert import convert, convert_summary
from spacy_anno_eval.report.convert_terminal import written_line


def _records(tmp_path, with_cats: bool):
    """Two annotators over two documents (Prodigy), 3 spans in all; with ``with_cats`` each answer picks a label."""
    rows = []
    for i, text in enumerate(["Anna met Bob.", "Carl left."]):
        for ann in ("ann1", "ann2"):
            spans = [{"start": 0, "end": 4, "label": "PER"}] if i == 0 or ann == "ann1" else []
            row = {"text": text, "meta": {"id": f"d{i}"}, "_annotator_id": ann, "_input_hash": i,
                   "_task_hash": 10 * i + len(ann), "spans": spans, "answer": "accept"}
            if with_cats:
                row |= {"accept": ["POS"] if ann == "ann1" else [], "options": [{"id": "POS"}, {"id": "NEG"}]}
            rows.append(row)
    path = tmp_path / ("cats.jsonl" if with_cats else "spans.jsonl")
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def test_convert_summary_sums_the_sets_and_counts_categorised_pairs(tmp_path):
    path = _records(tmp_path, with_cats=True)
    corpus = read_corpus(path, selectors=["spans:ann1", "spans:ann2"])
    summary = convert_summary(corpus, ["spans:ann1", "spans:ann2"], source=path, fmt="prodigy", out="o.jsonl",
                              to="jsonl")
    assert summary["annotations"] == {"spans:ann1": 2, "spans:ann2": 1}
    assert summary["n_sets"] == 2 and summary["n_annotations"] == 3
    # ann2 chose no label: only ann1's two documents carry a chosen category
    assert summary["categorised"] == {"spans:ann1": 2, "spans:ann2": 0} and summary["n_categorised"] == 2


def test_convert_returns_the_totals_and_none_without_categories(tmp_path):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        summary = convert(_records(tmp_path, with_cats=False), tmp_path / "o.jsonl")
    assert summary["n_sets"] == len(summary["sets"]) == 2
    assert summary["n_annotations"] == sum(summary["annotations"].values()) == 3
    assert summary["categorised"] == {} and summary["n_categorised"] is None
    assert written_line(summary) == f"2 documents, 2 set(s), 3 annotations written to {tmp_path / 'o.jsonl'} (jsonl)"
