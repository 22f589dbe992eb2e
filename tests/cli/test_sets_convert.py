"""``anno-eval sets`` and ``anno-eval convert`` (issue 19, items 3 and 5), and ``--label-feature`` on the span
commands: sets listed on the terminal (80 columns, a pipe) and as JSON; DocBin and JSONL written so that the
readers read back the same documents, ids, spans, labels, coverage and features; bad inputs exit 2; the output
never overwrites the input and is written atomically.

Multi-set inputs come from a tiny test format (``toolx``) read through :class:`MultiSetBuilder`, as the
annotation-tool readers build theirs, so that these tests do not depend on those readers."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any

import pytest
import spacy
from spacy.tokens import DocBin, Span
from typer.testing import CliRunner

from spacy_anno_eval.cli.app import app
from spacy_anno_eval.errors import InputError, ReaderNoteWarning
from spacy_anno_eval.io import read_corpus, register_reader, unregister_reader
from spacy_anno_eval.io.convert import FEATURES_KEY, ConversionWarning, convert, corpus_to_docs, read_sets
from spacy_anno_eval.io.multiset import MultiSetBuilder

NARROW = {"COLUMNS": "80", "LINES": "50", "TERM": "dumb"}
runner = CliRunner()
LONG = "annotator-with-a-really-long-name-from-a-crowd-task-0042"


def read_toolx(path: Any, *, selectors: Any = ("ents",), features: Any = None, label_feature: str | None = None,
               **options: Any) -> Any:
    """``{"docs": [{"id", "text", "sets": {NAME: [[start, end, type, {features}], ...]}}], "system": [NAMES]}``:
    a set listed for a document covers it (even empty); ``system`` sets are no annotators."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf8"))
        b = MultiSetBuilder(str(path), features=features, label_feature=label_feature)
        system = set(data.get("system", ()))
        for doc in data["docs"]:
            d = b.document(doc["id"], doc["text"])
            for name, anns in doc["sets"].items():
                b.cover(name, d, annotator=name not in system)
                for start, end, type_name, feats in anns:
                    b.add(name, d, start, end, type_name, feats, annotator=name not in system)
    except (ValueError, KeyError, TypeError) as exc:
        raise InputError(f"{path}: not a toolx file ({exc})") from exc
    return b.build(selectors)


@pytest.fixture(autouse=True, scope="module")
def toolx_reader() -> Any:
    """The toolx reader, registered for this module's tests only: a test plugin that read with json.loads would
    fail the contract suite (tests/test_reader_contract.py) if it stayed in the process's registry."""
    register_reader("toolx", suffixes=(".toolx",))(read_toolx)
    yield read_toolx
    unregister_reader("toolx")


TEXTS = {"d1": "Ada Lovelace met Charles Babbage in London .", "d2": "Grace Hopper \U0001F600 joined the Navy .",
         "d3": "Nothing to see here ."}


def toolx(tmp_path: Path, name: str = "export.toolx") -> Path:
    """Three documents; ann1 covers all (d3 empty), ann2 skipped d3, a long-named annotator covers d1 only; a
    system set; INCEpTION-style labels in the feature ``value``."""
    docs = [
        {"id": "d1", "text": TEXTS["d1"], "sets": {
            "ann1": [[0, 12, "NamedEntity", {"value": "PER", "conf": 0.9}], [17, 32, "NamedEntity", {"value": "PER"}],
                     [36, 42, "NamedEntity", {"value": "LOC", "identifier": "Q84"}]],
            "ann2": [[0, 3, "NamedEntity", {"value": "PER"}], [36, 42, "NamedEntity", {"value": "ORG"}]],
            LONG: [[36, 42, "NamedEntity", {"value": "LOC"}]],
            "Original markups": [[0, 44, "paragraph", {}]]}},
        {"id": "d2", "text": TEXTS["d2"], "sets": {
            "ann1": [[0, 12, "NamedEntity", {"value": "PER"}], [26, 30, "NamedEntity", {"value": "ORG"}]],
            "ann2": [[0, 12, "NamedEntity", {"value": "PER"}], [15, 21, "Token", {}]]}},
        {"id": "d3", "text": TEXTS["d3"], "sets": {"ann1": []}},
    ]
    path = tmp_path / name
    path.write_text(json.dumps({"docs": docs, "system": ["Original markups"]}), encoding="utf8")
    return path


#: what the reader notes when toolx() is read with label_feature="value": ann2's Token and the system set's paragraph
NO_VALUE = r"\.toolx: 2 annotation\(s\) have no 'value' feature and keep their type as label"


def run(args: list[Any], code: int = 0, **kw: Any) -> Any:
    result = runner.invoke(app, [str(a) for a in args], env=NARROW, **kw)
    assert result.exit_code == code, result.output
    return result


def readable(text: str) -> None:
    assert "…" not in text and "None" not in text, text
    assert all(len(line) <= 80 for line in text.splitlines()), text


# -- anno-eval sets -----------------------------------------------------------------------------------------------


def test_sets_lists_every_set_with_its_coverage_and_types(tmp_path: Path) -> None:
    path, out = toolx(tmp_path), tmp_path / "sets.json"
    text = run(["sets", path, "--json", out]).stdout
    readable(text)
    data = json.loads(out.read_text(encoding="utf8"))
    assert data["n_docs"] == 3 and data["format"] == "toolx"
    rows = {r["name"]: r for r in data["sets"]}
    assert list(rows) == ["spans:ann1", "spans:ann2", f"spans:{LONG}", "spans:Original markups"]
    assert rows["spans:ann1"] == {"name": "spans:ann1", "annotator": True, "documents_covered": 3,
                                  "documents_annotated": 2, "annotations": 5, "types": {"NamedEntity": 5}}
    assert rows["spans:ann2"]["documents_covered"] == 2
    assert rows["spans:ann2"]["types"] == {"NamedEntity": 3, "Token": 1}
    assert rows[f"spans:{LONG}"]["documents_covered"] == 1
    assert rows["spans:Original markups"]["annotator"] is False
    assert data["features"] == ["conf", "identifier", "value"]
    # the terminal shows the same: every name whole (folded, never cut), the counts, the coverage
    flat = "".join(text.split())
    first_column = "".join(line.split("│")[1].strip() for line in text.splitlines() if line.startswith("│"))
    assert f"spans:{LONG}" in first_column
    for r in rows.values():
        assert f"{r['documents_covered']}of3" in flat
    assert "3of3" in flat and "2of3" in flat and "1of3" in flat
    assert "conf, identifier, value" in text


def test_sets_label_feature_counts_per_label(tmp_path: Path) -> None:
    out = tmp_path / "sets.json"
    run(["sets", toolx(tmp_path), "--label-feature", "value", "--json", out, "-q"])
    rows = {r["name"]: r for r in json.loads(out.read_text(encoding="utf8"))["sets"]}
    assert rows["spans:ann1"]["types"] == {"PER": 3, "LOC": 1, "ORG": 1}
    assert rows["spans:ann2"]["types"] == {"PER": 2, "ORG": 1, "Token": 1}  # no value: the type stays


def test_sets_piped_in_a_real_process(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "spacy_anno_eval", "sets", str(toolx(tmp_path))],
                          capture_output=True, text=True, timeout=300, env={**os.environ, **NARROW},
                          cwd=Path(__file__).resolve().parents[2])
    # the test format is registered in this process only: a real process does not know it
    assert done.returncode == 2 and "cannot tell the format" in done.stderr
    db = docbin_input(tmp_path)
    done = subprocess.run([sys.executable, "-m", "spacy_anno_eval", "sets", str(db)], capture_output=True,
                          text=True, timeout=300, env={**os.environ, **NARROW})
    assert done.returncode == 0, done.stderr
    readable(done.stdout)
    assert "spans:a" in done.stdout and "spans:b" in done.stdout and "ents" in done.stdout


def docbin_input(tmp_path: Path) -> Path:
    nlp = spacy.blank("en")
    docs = []
    for i, text in enumerate(["Ada met Bob in London .", "Grace joined IBM ."]):
        doc = nlp(text)
        doc.user_data["doc_id"] = f"doc{i}"
        doc.spans["a"] = [Span(doc, 0, 1, "PER")]
        if i == 0:
            doc.spans["b"] = [Span(doc, 2, 3, "PER", kb_id="Q1"), Span(doc, 4, 5, "LOC")]
            doc.ents = [Span(doc, 4, 5, "GPE")]
        docs.append(doc)
    path = tmp_path / "in.spacy"
    DocBin(docs=docs, store_user_data=True).to_disk(path)
    return path


def test_sets_of_a_docbin_and_a_one_layer_file(tmp_path: Path) -> None:
    out = tmp_path / "s.json"
    run(["sets", docbin_input(tmp_path), "--json", out, "-q"])
    data = json.loads(out.read_text(encoding="utf8"))
    assert [r["name"] for r in data["sets"]] == ["ents", "spans:a", "spans:b"]
    assert [r["annotations"] for r in data["sets"]] == [1, 2, 2]
    assert data["features"] == ["kb_id"]
    jsonl = tmp_path / "one.jsonl"
    jsonl.write_text(json.dumps({"text": "Ada met Bob", "spans": [{"start": 0, "end": 3, "label": "PER"}]}) + "\n",
                     encoding="utf8")
    run(["sets", jsonl, "--json", out, "-q"])
    data = json.loads(out.read_text(encoding="utf8"))
    assert [r["name"] for r in data["sets"]] == ["ents"] and data["sets"][0]["types"] == {"PER": 1}


def test_sets_of_a_file_with_one_set_names_its_aliases(tmp_path: Path) -> None:
    path = tmp_path / "one.toolx"
    path.write_text(json.dumps({"docs": [{"id": "x", "text": "Ada", "sets": {"me": [[0, 3, "PER", {}]]}}]}),
                    encoding="utf8")
    out = tmp_path / "s.json"
    text = run(["sets", path, "--json", out]).stdout
    data = json.loads(out.read_text(encoding="utf8"))
    assert [r["name"] for r in data["sets"]] == ["spans:me"]
    assert data["aliases"] == {"ents": "spans:me", "spans": "spans:me"}
    assert "ents also reads spans:me" in text


@pytest.mark.parametrize("content", ["", "{not json", '{"docs": 3}'])
def test_sets_of_an_empty_or_broken_file_exits_2(tmp_path: Path, content: str) -> None:
    path = tmp_path / "bad.toolx"
    path.write_text(content, encoding="utf8")
    result = run(["sets", path], code=2)
    assert "anno-eval: error:" in result.stderr and str(path) in result.stderr
    empty = tmp_path / "empty.jsonl"
    empty.write_text("", encoding="utf8")
    assert "no documents" in run(["sets", empty], code=2).stderr
    assert "no such file" in run(["sets", tmp_path / "missing.toolx"], code=2).stderr


# -- anno-eval convert: DocBin --------------------------------------------------------------------------------


def test_convert_to_docbin_round_trips_sets_ids_spans_and_labels(tmp_path: Path) -> None:
    src, out = toolx(tmp_path), tmp_path / "out.spacy"
    result = run(["convert", src, out, "--label-feature", "value"])
    assert "3 documents, 4 set(s), 11 annotations" in result.stdout and str(out) in " ".join(result.stdout.split())
    assert "2 feature value(s) replace another span's value" in result.stderr
    sets = ["spans:ann1", "spans:ann2", f"spans:{LONG}", "spans:Original markups"]
    with pytest.warns(ReaderNoteWarning, match=NO_VALUE):
        before = read_corpus(src, selectors=sets, label_feature="value")
    after = read_corpus(out, selectors=sets)
    assert after.doc_ids == before.doc_ids == ["d1", "d2", "d3"]
    assert list(after.texts) == list(before.texts)
    assert set(sets) <= set(after.found_sets)
    for s in sets:
        assert rows(after, s) == rows(before, s), s
        assert after.covered(s).tolist() == before.covered(s).tolist(), s  # the DocBin reader: absent groups
    assert ("LOC" in after.get_set("spans:ann1").labels) and "NamedEntity" not in after.get_set("spans:ann1").labels


def rows(corpus: Any, name: str) -> list[tuple[str, int, int, str]]:
    t = corpus.get_set(name)
    return sorted((corpus.doc_ids[int(d)], int(s), int(e), t.labels[int(k)])
                  for d, s, e, k in zip(t.doc, t.start, t.end, t.label, strict=True))


def test_convert_keeps_coverage_as_absent_span_groups(tmp_path: Path) -> None:
    src, out = toolx(tmp_path), tmp_path / "out.spacy"
    run(["convert", src, out, "-q"])
    docs = list(DocBin().from_disk(out).get_docs(spacy.blank("xx").vocab))
    assert [sorted(d.spans) for d in docs] == [sorted(["ann1", "ann2", LONG, "Original markups"]),
                                               ["ann1", "ann2"], ["ann1"]]
    assert len(docs[2].spans["ann1"]) == 0  # covered and empty: present, empty
    assert [d.user_data["doc_id"] for d in docs] == ["d1", "d2", "d3"]


def test_convert_keeps_features_through_to_bytes(tmp_path: Path) -> None:
    src, out = toolx(tmp_path), tmp_path / "out.spacy"
    run(["convert", src, out, "-q"])
    docs = list(DocBin().from_disk(out).get_docs(spacy.blank("xx").vocab))
    first = docs[0]
    assert [dict(f) for f in first.user_data[FEATURES_KEY]["ann1"]] == [{"value": "PER", "conf": 0.9}, {"value": "PER"},
                                                     {"value": "LOC", "identifier": "Q84"}]
    if not Span.has_extension("conf"):
        Span.set_extension("conf", default=None)
    span = first.spans["ann1"][0]
    assert span._.conf == 0.9
    corpus = read_corpus(out, selectors=["spans:ann1"], features=["_.conf"])
    assert corpus.get_set("spans:ann1").features[0] == {"_.conf": 0.9}


def test_convert_kb_id_and_id_become_span_attributes(tmp_path: Path) -> None:
    src = docbin_input(tmp_path)
    out = tmp_path / "out.spacy"
    run(["convert", src, out, "-q"])
    after = read_corpus(out, selectors=["ents", "spans:a", "spans:b"], features=["kb_id"])
    assert after.doc_ids == ["doc0", "doc1"]
    assert after.get_set("spans:b").features == [{"kb_id": "Q1"}, {}]
    assert rows(after, "ents") == [("doc0", 15, 21, "GPE")]


def test_convert_expands_spans_off_token_boundaries_and_says_how_many(tmp_path: Path) -> None:
    src = tmp_path / "x.toolx"
    src.write_text(json.dumps({"docs": [{"id": "a", "text": "New Yorkers love it", "sets": {
        "s": [[0, 8, "LOC", {}], [13, 16, "X", {}]], "t": [[4, 11, "LOC", {}]]}}]}), encoding="utf8")
    corpus, sets, _ = read_sets(src)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        docs = corpus_to_docs(corpus, sets)
    msgs = [str(w.message) for w in caught if issubclass(w.category, ConversionWarning)]
    assert len(msgs) == 1 and msgs[0].startswith("2 span(s)") and "'New Yorkers'" in msgs[0]
    assert [(s.start_char, s.end_char) for s in docs[0].spans["s"]] == [(0, 11), (12, 16)]
    exact = corpus_to_docs(corpus, sets, align="split")
    assert [(s.start_char, s.end_char) for s in exact[0].spans["s"]] == [(0, 8), (13, 16)]
    assert [(s.start_char, s.end_char) for s in exact[0].spans["t"]] == [(4, 11)]
    assert exact[0].text == "New Yorkers love it"
    result = run(["convert", src, tmp_path / "o.spacy"])
    assert "anno-eval: warning: 2 span(s) did not start or end on a token boundary" in result.stderr


def test_convert_split_keeps_offsets_inside_spaces_and_emoji(tmp_path: Path) -> None:
    text = "a  b\U0001F600c d"
    src = tmp_path / "x.toolx"
    src.write_text(json.dumps({"docs": [{"id": "a", "text": text, "sets": {
        "s": [[1, 3, "SP", {}], [4, 5, "E", {}], [2, 6, "M", {}]]}}]}), encoding="utf8")
    out = tmp_path / "o.spacy"
    run(["convert", src, out, "--align", "split", "-q"])
    after = read_corpus(out, selectors=["spans:s"])
    assert rows(after, "spans:s") == [("a", 1, 3, "SP"), ("a", 2, 6, "M"), ("a", 4, 5, "E")]
    assert list(after.texts) == [text]


def test_convert_one_layer_input_writes_doc_ents(tmp_path: Path) -> None:
    src = tmp_path / "in.jsonl"
    src.write_text(json.dumps({"text": "Ada met Bob", "meta": {"id": "m1"},
                               "spans": [{"start": 0, "end": 3, "label": "PER", "kb_id": "Q7"}]}) + "\n"
                   + json.dumps({"text": "Nobody"}) + "\n", encoding="utf8")
    out = tmp_path / "out.spacy"
    run(["convert", src, out, "-q"])
    after = read_corpus(out)
    assert after.doc_ids == ["m1", "1"] and after.given_ids == ["m1", None]
    assert rows(after, "ents") == [("m1", 0, 3, "PER")]
    assert read_corpus(out, features=["kb_id"]).get_set("ents").features == [{"kb_id": "Q7"}]


def test_overlapping_entities_point_to_span_groups(tmp_path: Path) -> None:
    src = tmp_path / "in.jsonl"
    src.write_text(json.dumps({"text": "New York City", "spans": [{"start": 0, "end": 8, "label": "GPE"},
                                                                  {"start": 4, "end": 13, "label": "LOC"}]}) + "\n",
                   encoding="utf8")
    out = tmp_path / "out.spacy"
    assert "--sets spans:NAME" in run(["convert", src, out], code=2).stderr
    assert not out.exists()
    run(["convert", src, out, "--sets", "spans:sc", "-q"])
    assert rows(read_corpus(out, selectors=["spans:sc"]), "spans:sc") == [("0", 0, 8, "GPE"), ("0", 4, 13, "LOC")]


# -- anno-eval convert: JSONL ---------------------------------------------------------------------------------


def test_convert_one_set_to_jsonl_round_trips(tmp_path: Path) -> None:
    src, out = toolx(tmp_path), tmp_path / "ann1.jsonl"
    run(["convert", src, out, "--sets", "spans:ann1", "--label-feature", "value", "-q"])
    with pytest.warns(ReaderNoteWarning, match=NO_VALUE):
        before = read_corpus(src, selectors=["spans:ann1"], label_feature="value", features=["*"])
    after = read_corpus(out, features=["*"])
    assert after.doc_ids == before.doc_ids and list(after.texts) == list(before.texts)
    assert rows(after, "ents") == rows(before, "spans:ann1")
    assert after.get_set("ents").features == before.get_set("spans:ann1").features
    emoji = [r for r in rows(after, "ents") if r[0] == "d2"]
    assert TEXTS["d2"][emoji[1][1]:emoji[1][2]] == "Navy"  # after the emoji: code points


def test_convert_jsonl_of_a_set_that_misses_documents_warns(tmp_path: Path) -> None:
    out = tmp_path / "ann2.jsonl"
    result = run(["convert", toolx(tmp_path), out, "--sets", "spans:ann2"])
    assert "1 document(s) that spans:ann2 does not cover" in result.stderr
    assert len(out.read_text(encoding="utf8").splitlines()) == 3


def test_convert_several_sets_to_jsonl_one_record_per_covered_document(tmp_path: Path) -> None:
    out = tmp_path / "all.jsonl"
    run(["convert", toolx(tmp_path), out, "--sets", "spans:ann1;spans:ann2", "--label-feature", "value", "-q"])
    records = [json.loads(line) for line in out.read_text(encoding="utf8").splitlines()]
    assert [(r["meta"]["id"], r["_annotator_id"]) for r in records] == [
        ("d1", "ann1"), ("d1", "ann2"), ("d2", "ann1"), ("d2", "ann2"), ("d3", "ann1")]
    assert all(r["answer"] == "accept" for r in records)
    assert records[0]["spans"][0] == {"start": 0, "end": 12, "label": "PER",
                                      "features": {"value": "PER", "conf": 0.9}}
    try:  # the prodigy reader (another helper's) reads one set per annotator back, with coverage
        back = read_corpus(out, "prodigy", selectors=["spans:ann1", "spans:ann2"])
    except NotImplementedError:
        pytest.skip("the prodigy reader is not written yet")
    with pytest.warns(ReaderNoteWarning, match=NO_VALUE):
        before = read_corpus(toolx(tmp_path, "again.toolx"), selectors=["spans:ann1", "spans:ann2"],
                             label_feature="value")
    for s in ("spans:ann1", "spans:ann2"):
        assert rows(back, s) == rows(before, s)
        assert back.covered(s).tolist() == before.covered(s).tolist()


# -- options and output safety --------------------------------------------------------------------------------


def test_convert_refuses_to_overwrite_its_input(tmp_path: Path) -> None:
    src = docbin_input(tmp_path)
    data = src.read_bytes()
    assert "destroy the input" in run(["convert", src, src], code=2).stderr
    assert src.read_bytes() == data


def test_convert_failure_leaves_an_earlier_output_as_it_was(tmp_path: Path) -> None:
    out = tmp_path / "out.spacy"
    out.write_bytes(b"earlier")
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"text": "abc", "spans": [{"start": 0, "end": 9, "label": "X"}]}\n', encoding="utf8")
    run(["convert", bad, out], code=2)
    assert out.read_bytes() == b"earlier"
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def test_convert_checks_its_options(tmp_path: Path) -> None:
    src = toolx(tmp_path)
    assert "--to docbin" in run(["convert", src, tmp_path / "out.txt"], code=2).stderr
    assert "no document has the annotation set 'spans:nobody'" in run(
        ["convert", src, tmp_path / "o.spacy", "--sets", "spans:nobody"], code=2).stderr
    assert "--lang" in run(["convert", src, tmp_path / "o.spacy", "--lang", "qq"], code=2).stderr
    assert "label_feature" in run(["convert", docbin_input(tmp_path), tmp_path / "o.spacy", "--label-feature",
                                   "value"], code=2).stderr
    run(["convert", src, tmp_path / "o.bin", "--to", "docbin", "-q"])
    assert len(read_corpus(tmp_path / "o.bin", "docbin", selectors=["spans:ann1"])) == 3


def test_convert_api_returns_a_summary(tmp_path: Path) -> None:
    with pytest.warns(ConversionWarning, match="1 document"):
        summary = convert(toolx(tmp_path), tmp_path / "o.jsonl", sets=["spans:ann2"])
    assert summary["to"] == "jsonl" and summary["annotations"] == {"spans:ann2": 4} and summary["n_docs"] == 3


# -- --label-feature on the span commands ---------------------------------------------------------------------


def test_score_takes_the_label_from_a_feature(tmp_path: Path) -> None:
    src, out = toolx(tmp_path), tmp_path / "score.json"
    run(["score", src, src, "--key-set", "spans:ann1", "--response-set", "spans:ann2", "--label-feature", "value",
         "--json", out, "-q"])
    report = json.loads(out.read_text(encoding="utf8"))
    assert set(report["per_type"]) == {"PER", "LOC", "ORG", "Token"}
    run(["score", src, src, "--key-set", "spans:ann1", "--response-set", "spans:ann2", "--json", out, "-q"])
    assert set(json.loads(out.read_text(encoding="utf8"))["per_type"]) == {"NamedEntity", "Token"}
    jsonl = tmp_path / "k.jsonl"
    jsonl.write_text(json.dumps({"text": "Ada"}) + "\n", encoding="utf8")
    assert "takes no option 'label_feature'" in run(["score", jsonl, jsonl, "--label-feature", "value"],
                                                    code=2).stderr


@pytest.mark.parametrize("command", ["qa", "adjudicate", "align"])
def test_the_other_span_commands_take_label_feature(tmp_path: Path, command: str) -> None:
    src = toolx(tmp_path)
    args = [command, src, src, "--key-set", "spans:ann1", "--response-set", "spans:ann2", "--label-feature", "value"]
    if command == "adjudicate":
        args += ["--out", tmp_path / "gold.spacy"]
    run(args)
    if command == "adjudicate":
        labels = read_corpus(tmp_path / "gold.spacy", selectors=["spans:gold"]).get_set("spans:gold").labels
        assert set(labels) <= {"PER", "LOC", "ORG", "Token"} and "PER" in labels


@pytest.mark.parametrize("command", ["sets", "convert"])
def test_help_fits_80_columns(command: str) -> None:
    text = run([command, "--help"]).stdout
    assert all(len(line) <= 80 for line in text.splitlines()), text
