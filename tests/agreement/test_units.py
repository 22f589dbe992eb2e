"""Span positions of N annotator sets as an annotators x units table (issue 19, items 3 and 4): labels, '(none)' for
a covered document's unannotated position, missing values for a document an annotator has no record of; α checked
by hand and against the ``krippendorff`` package; the ``anno-eval agreement`` door on a corpus."""

from __future__ import annotations

import json

import numpy as np
import pytest
import spacy
from spacy.tokens import DocBin, Span
from typer.testing import CliRunner

from spacy_anno_eval.agreement.summary import agreement_summary
from spacy_anno_eval.agreement.units import NONE, units_table
from spacy_anno_eval.cli.app import app
from spacy_anno_eval.errors import ConfigError, InputError
from spacy_anno_eval.io.multiset import MultiSetBuilder
from tests.cli.test_terminal_output import NARROW, check_readable

runner = CliRunner()


def corpus():
    """x: three annotators; y: ann3 has no record of it (never opened)."""
    b = MultiSetBuilder("export.json")
    x = b.document("x", "Ada met Bob in Rome.")
    y = b.document("y", "Carol left Paris.")
    for name in ("ann1", "ann2", "ann3"):
        b.declare_set(name)
    b.add("ann1", x, 0, 3, "PER")
    b.add("ann2", x, 0, 3, "PER")
    b.add("ann3", x, 0, 3, "PER")
    b.add("ann1", x, 8, 11, "PER")
    b.add("ann2", x, 8, 11, "ORG")
    b.add("ann3", x, 15, 19, "LOC")
    b.add("ann1", y, 0, 5, "PER")
    b.add("ann2", y, 11, 16, "LOC")
    b.cover("ann3", x)
    return b.build()


def test_units_are_positions_with_none_and_missing_values():
    t = units_table(corpus())
    assert t.annotators == ["spans:ann1", "spans:ann2", "spans:ann3"]
    assert list(zip(t.doc, t.start, t.end, strict=True)) == [("x", 0, 3), ("x", 8, 11), ("x", 15, 19), ("y", 0, 5),
                                                            ("y", 11, 16)]
    assert t.values == [["PER", "PER", NONE, "PER", NONE],
                        ["PER", "ORG", NONE, NONE, "LOC"],
                        ["PER", NONE, "LOC", None, None]]
    assert t.documents["covered"] == {"spans:ann1": 2, "spans:ann2": 2, "spans:ann3": 1}
    assert t.documents["not_covered"] == [{"doc": "y", "sets": ["spans:ann3"]}]
    assert units_table(corpus(), missing_as_empty=True).values[2] == ["PER", NONE, "LOC", NONE, NONE]
    assert units_table(corpus(), none_category=None).values[1] == ["PER", "ORG", None, None, "LOC"]


def test_alpha_by_hand_and_with_the_krippendorff_package():
    t = units_table(corpus())
    summary = agreement_summary(t.values, "nominal", t.annotators)
    # coincidences, by hand: unit 1 (3 x PER): PER-PER 3·2/2 = 3; unit 2 (PER, ORG, none): 6 ordered pairs / 2,
    # each 0.5; unit 3 (none, none, LOC): none-none 1, none-LOC 1, LOC-none 1; unit 4 (PER, none): 1 + 1;
    # unit 5 (none, LOC): 1 + 1. n = 3+3+3+2+2 = 13 pairable values.
    # n_PER = 3 + 1 + 1 = 5, n_ORG = 1, n_none = 1 + 2 + 1 + 1 = 5, n_LOC = 1 + 1 = 2.
    # observed disagreement D_o = (off-diagonal total) / n = (3 + 2 + 2 + 2) / 13 = 9 / 13
    # expected D_e = (n² - Σ n_c²) / (n (n - 1)) = (169 - 25 - 1 - 25 - 4) / 156 = 114 / 156
    alpha = 1 - (9 / 13) / (114 / 156)
    assert summary["krippendorff_alpha"]["value"] == pytest.approx(alpha)
    kd = pytest.importorskip("krippendorff")
    codes = {"PER": 1, "ORG": 2, "LOC": 3, NONE: 4}
    data = np.array([[np.nan if v is None else codes[v] for v in row] for row in t.values], dtype=float)
    assert summary["krippendorff_alpha"]["value"] == pytest.approx(kd.alpha(data, level_of_measurement="nominal"))
    old = units_table(corpus(), missing_as_empty=True)
    data = np.array([[codes[v] for v in row] for row in old.values], dtype=float)
    assert agreement_summary(old.values, "nominal")["krippendorff_alpha"]["value"] == pytest.approx(
        kd.alpha(data, level_of_measurement="nominal"))


def test_types_sets_and_stacked_labels():
    t = units_table(corpus(), "spans:ann1;spans:ann2", types=["PER"])
    assert list(zip(t.doc, t.start, strict=True)) == [("x", 0), ("x", 8), ("y", 0)]
    assert t.values == [["PER", "PER", "PER"], ["PER", NONE, NONE]]  # ann2's ORG is not a PER annotation
    with pytest.raises(ConfigError, match=r"no annotator set has the type 'DATE'; the types are: LOC, ORG, PER"):
        units_table(corpus(), types=["DATE"])
    with pytest.raises(InputError, match="no document has the annotation set 'spans:nope'"):
        units_table(corpus(), ["spans:ann1", "spans:nope"])
    b = MultiSetBuilder("s.json")
    d = b.document("d", "Rome")
    b.add("a", d, 0, 4, "LOC")
    b.add("a", d, 0, 4, "ORG")
    b.add("b", d, 0, 4, "LOC")
    t = units_table(b.build())
    assert t.values == [["LOC+ORG"], ["LOC"]] and "several labels" in t.notes[0]
    b = MultiSetBuilder("one.json")
    b.add("a", b.document("d", "Rome"), 0, 4, "LOC")
    with pytest.raises(InputError, match=r"1 annotator set \(spans:a\) where agreement needs two or more"):
        units_table(b.build())


@pytest.fixture
def docbin(tmp_path):
    nlp = spacy.blank("en")
    docs = []
    for i, text in enumerate(["Ada met Bob in Rome .", "Carol left Paris ."]):
        doc = nlp(text)
        doc.user_data["doc_id"] = f"d{i}"
        doc.spans["one"] = [Span(doc, 0, 1, "PER")]
        if i == 0:  # 'two' has no record of d1
            doc.spans["two"] = [Span(doc, 0, 1, "PER"), Span(doc, 4, 5, "LOC")]
        docs.append(doc)
    path = tmp_path / "anns.spacy"
    DocBin(docs=docs, store_user_data=True).to_disk(path)
    return path


def test_cli_agreement_on_a_corpus(docbin, tmp_path):
    out = tmp_path / "a.json"
    result = runner.invoke(app, ["agreement", str(docbin), "--json", str(out)], env=NARROW)
    assert result.exit_code == 0, result.output
    assert "note: comparing the annotator sets spans:one, spans:two" in result.stderr
    data = json.loads(out.read_text(encoding="utf8"))
    assert data["annotators"] == ["spans:one", "spans:two"] and data["n_units"] == 3
    assert data["units"]["documents"]["covered"] == {"spans:one": 2, "spans:two": 1}
    assert data["units"]["documents"]["not_covered"] == [{"doc": "d1", "sets": ["spans:two"]}]
    # units: d0 Ada (PER, PER), d0 Rome (none, LOC), d1 Carol (PER, missing): one pairable disagreement of two
    assert data["n_pairable_units"] == 2 and data["observed_agreement"] == pytest.approx(0.5)
    check_readable(result.stdout, tables_only=True)
    assert "spans:two 1 of 2" in result.stdout
    result = runner.invoke(app, ["agreement", str(docbin), "--missing-as-empty", "--sets", "spans:one,spans:two",
                                 "--json", str(out)], env=NARROW)
    assert result.exit_code == 0 and "note: comparing" not in result.stderr
    assert json.loads(out.read_text(encoding="utf8"))["n_pairable_units"] == 3


def test_cli_agreement_keeps_csv_tables(tmp_path):
    table = tmp_path / "t.csv"
    table.write_text("a,b\nx,x\ny,x\n", encoding="utf8")
    result = runner.invoke(app, ["agreement", str(table), "-q", "--json", str(tmp_path / "o.json")])
    assert result.exit_code == 0, result.output
    result = runner.invoke(app, ["agreement", str(table), "--sets", "spans:a;spans:b"])
    assert result.exit_code == 2 and "--sets applies to an annotation corpus" in result.stderr
    txt = tmp_path / "t.txt"  # a table under another suffix stays a table
    txt.write_text("a;b\nx;x\n", encoding="utf8")
    result = runner.invoke(app, ["agreement", str(txt), "--sep", ";", "-q", "--json", str(tmp_path / "o.json")])
    assert result.exit_code == 0, result.output
