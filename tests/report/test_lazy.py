"""A report whose per-document rows are built when written (report(lazy=True)) writes the same JSON bytes as
the report with a list, a chunk of rows at a time."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spacy_anno_eval.report.json import write_json
from spacy_anno_eval.spans.counts import PerDocRows
from spacy_anno_eval.spans.engine import evaluate

DEMO = Path(__file__).resolve().parents[2] / "assets" / "demo"


@pytest.fixture(scope="module")
def ev():
    return evaluate(str(DEMO / "key.jsonl"), str(DEMO / "response.jsonl"))


@pytest.mark.parametrize("chunk", [1, 3, 16, 10_000])
def test_lazy_rows_write_the_same_bytes(ev, tmp_path, monkeypatch, chunk):
    monkeypatch.setattr(PerDocRows, "CHUNK", chunk)
    whole = ev.report()
    lazy = ev.report(lazy=True)
    assert isinstance(lazy["per_doc"], PerDocRows) and len(lazy["per_doc"]) == len(whole["per_doc"]) == 16
    assert lazy["per_doc"][:] == whole["per_doc"] and list(lazy["per_doc"]) == whole["per_doc"]
    assert lazy["per_doc"][-1] == whole["per_doc"][-1] and lazy["per_doc"][2:5] == whole["per_doc"][2:5]
    write_json(whole, tmp_path / "a.json")
    write_json(lazy, tmp_path / "b.json")
    assert (tmp_path / "a.json").read_bytes() == (tmp_path / "b.json").read_bytes()
    # a key after the rows (as score --bdm adds) and non-ASCII ids
    ev2 = evaluate(str(DEMO / "key.jsonl"), str(DEMO / "response.jsonl"))
    ev2.doc_ids = [f"dö-{i}\n\"q\"" for i in range(len(ev2.doc_ids))]
    for name, report in (("c", {**ev2.report(), "bdm": {"x": 1}}), ("d", {**ev2.report(lazy=True), "bdm": {"x": 1}})):
        write_json(report, tmp_path / f"{name}.json")
    assert (tmp_path / "c.json").read_bytes() == (tmp_path / "d.json").read_bytes()
    assert json.loads((tmp_path / "d.json").read_text(encoding="utf8"))["per_doc"][3]["id"] == "dö-3\n\"q\""


def test_no_documents_rows_and_index_errors(ev, tmp_path):
    rows = PerDocRows(ev, 1.0, 0.0)
    with pytest.raises(IndexError):
        rows[16]
    ev0 = evaluate(str(DEMO / "key.jsonl"), str(DEMO / "response.jsonl"))
    ev0.doc_ids, ev0.by_doc = [], ev0.by_doc[:0]
    write_json(ev0.report(), tmp_path / "a.json")
    write_json(ev0.report(lazy=True), tmp_path / "b.json")
    assert (tmp_path / "a.json").read_bytes() == (tmp_path / "b.json").read_bytes()


def test_a_value_json_writes_as_nan_takes_json_dumps(ev, tmp_path, monkeypatch):
    """Figures are finite in practice; should one not be, the chunk is written row by row, alike, and the
    figure is null: NaN is not JSON (figures.json_safe, DESIGN invariant 3)."""
    import numpy as np

    real = PerDocRows.table

    def with_nan(self, a, b):
        table = real(self, a, b)
        table["strict"]["p"] = np.where(np.arange(a, b) == 5, np.nan, table["strict"]["p"])
        return table

    monkeypatch.setattr(PerDocRows, "table", with_nan)
    monkeypatch.setattr(PerDocRows, "CHUNK", 4)
    lazy = ev.report(lazy=True)
    write_json(lazy, tmp_path / "b.json")
    write_json({**lazy, "per_doc": list(lazy["per_doc"])}, tmp_path / "a.json")
    text = (tmp_path / "b.json").read_text(encoding="utf8")
    assert text == (tmp_path / "a.json").read_text(encoding="utf8") and "NaN" not in text
    assert json.loads(text)["per_doc"][5]["strict"]["p"] is None
