"""Document-level labels (issue 26, item 6): each annotation tool's classification export read into
``Corpus.cats`` per annotator set, and the categories kept through ``convert`` to a DocBin and a JSONL and back.

The samples are written inline, after each tool's documented export: doccano's text classification JSONL
(``backend/api/views/download/examples.py``: ``{"text": ..., "label": ["negative"]}``; the <= 1.2 multi-user file
with ``{"label": <id>, "user": <id>}`` annotations), Label Studio's ``choices`` / ``taxonomy`` results
(``docs/source/guide/export.md``; the shared ``lsconv_csv_test_history.json`` is a real one), Prodigy's
``textcat`` (``{"label", "answer"}``) and ``choice`` (``"options"``, ``"accept"``) answers (prodi.gy/docs; the
shared PyData crowd file is a real one)."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import pytest
from spacy.tokens import DocBin
from typer.testing import CliRunner

from spacy_anno_eval.cli.app import app
from spacy_anno_eval.errors import ConfigError, InputError
from spacy_anno_eval.io import detect_format, read_corpus
from spacy_anno_eval.io.convert import convert, corpus_to_docs, corpus_to_records
from tests.conftest import shared_file

runner = CliRunner()
NARROW = {"COLUMNS": "80", "LINES": "50", "TERM": "dumb"}


def _jsonl(path: Path, records: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
    return path


def _read(path: Path, **options):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return read_corpus(path, **options)


# -- doccano ------------------------------------------------------------------------------------------------------

DOCCANO_13 = [{"id": 1, "text": "Terrible customer service.", "label": ["negative"]},
              {"id": 2, "text": "Really great transaction.", "label": ["positive"]},
              {"id": 3, "text": "Great price, slow delivery.", "label": ["positive", "negative"]},
              {"id": 4, "text": "Meh.", "label": []}]


def test_doccano_label_lists_are_the_users_document_categories(tmp_path) -> None:
    path = _jsonl(tmp_path / "alice.jsonl", DOCCANO_13)
    assert detect_format(path) == "doccano"
    c = _read(path)
    assert c.doc_cats("spans:alice") == [{"negative": 1.0}, {"positive": 1.0}, {"negative": 1.0, "positive": 1.0},
                                         {}]  # a line with no label: covered, no category
    assert c.doc_cats("ents") == c.doc_cats("spans:alice")  # the lone set's aliases carry them too
    assert len(c.get_set("spans:alice")) == 0
    assert c.annotators() == ["spans:alice"]


def test_doccano_old_multi_user_classification_is_read_per_user_with_label_names(tmp_path) -> None:
    path = _jsonl(tmp_path / "export.jsonl", [
        {"id": 7, "text": "Terrible customer service.", "annotations": [
            {"id": 1, "label": 17, "user": 1, "prob": 0.0}, {"id": 2, "label": 18, "user": 2, "prob": 0.0}],
         "meta": {}, "annotation_approver": None},
        {"id": 8, "text": "Great price.", "annotations": [{"id": 3, "label": 18, "user": 1, "prob": 0.0}],
         "meta": {}, "annotation_approver": None}])
    assert detect_format(path) == "doccano"  # not a plain JSONL read as empty
    labels = tmp_path / "labels.json"
    labels.write_text(json.dumps([{"id": 17, "text": "negative"}, {"id": 18, "text": "positive"}]), encoding="utf-8")
    c = _read(path, labels=str(labels))
    assert c.doc_cats("spans:user1") == [{"negative": 1.0}, {"positive": 1.0}]
    assert c.doc_cats("spans:user2") == [{"positive": 1.0}, None]  # user 2 never annotated document 8
    assert c.covered("spans:user2").tolist() == [True, False]
    assert _read(path).doc_cats("spans:user1") == [{"17": 1.0}, {"18": 1.0}]  # without the table: the ids


def test_doccano_classification_converts_instead_of_refusing_offsets(tmp_path) -> None:
    path = _jsonl(tmp_path / "export.jsonl", [
        {"id": 7, "text": "Terrible.", "annotations": [{"label": 17, "user": 1}, {"label": 17, "user": 2}]}])
    result = runner.invoke(app, ["convert", str(path), str(tmp_path / "out.jsonl"), "--format", "doccano"],
                           env=NARROW)
    assert result.exit_code == 0, result.stderr
    lines = [json.loads(x) for x in (tmp_path / "out.jsonl").read_text(encoding="utf-8").splitlines()]
    assert [(r["_annotator_id"], r["cats"]) for r in lines] == [("user1", {"17": 1.0}), ("user2", {"17": 1.0})]


# -- Label Studio -------------------------------------------------------------------------------------------------


def _ls_task(i: int, text: str, *results: tuple) -> dict:
    return {"id": i, "data": {"text": text}, "annotations": [
        {"id": 100 + i + k, "completed_by": user, "was_cancelled": False, "result": [
            {"id": f"r{i}{k}", "type": "choices", "from_name": "sentiment", "to_name": "text",
             "value": {"choices": choices}, "origin": "manual"}] if choices is not None else []}
        for k, (user, choices) in enumerate(results)]}


def test_labelstudio_choices_and_taxonomy_are_document_categories(tmp_path) -> None:
    tasks = [_ls_task(1, "Calif. wildfires signal a fire age", (14, ["Negative"]), (15, ["Negative"])),
             _ls_task(2, "What a lovely day", (14, ["Positive"]), (15, None)),  # 15: finished, no choice
             {"id": 3, "data": {"text": "Cocci everywhere"}, "annotations": [{"completed_by": 14, "result": [
                 {"type": "taxonomy", "from_name": "tax", "to_name": "text",
                  "value": {"taxonomy": [["Bacteria", "Cocci"], ["Archaea"]]}},
                 {"type": "rating", "from_name": "r", "to_name": "text", "value": {"rating": 4}}]}]}]
    path = tmp_path / "export.json"
    path.write_text(json.dumps(tasks), encoding="utf-8")
    with pytest.warns(UserWarning, match=r"1 rating"):
        c = read_corpus(path)
    assert c.doc_cats("spans:user14") == [{"Negative": 1.0}, {"Positive": 1.0},
                                          {"Bacteria/Cocci": 1.0, "Archaea": 1.0}]
    assert c.doc_cats("spans:user15") == [{"Negative": 1.0}, {}, None]


def test_labelstudio_real_choices_export_reads_its_category() -> None:
    path = shared_file("formats", "label_studio_json", "lsconv_csv_test_history.json")
    c = _read(path)
    assert c.doc_cats("spans:sergei@heartex.e2e") == [{"Positive": 1.0}]


# -- Prodigy -------------------------------------------------------------------------------------------------------


def test_prodigy_textcat_and_choice_answers_are_cats_not_whole_text_spans(tmp_path) -> None:
    path = _jsonl(tmp_path / "db-out.jsonl", [
        {"text": "New dataset out!", "_input_hash": 1, "_task_hash": 11, "label": "new-dataset",
         "_view_id": "classification", "answer": "accept", "_annotator_id": "ds-alex"},
        {"text": "New dataset out!", "_input_hash": 1, "_task_hash": 11, "label": "new-dataset",
         "_view_id": "classification", "answer": "reject", "_annotator_id": "ds-bea"},
        {"text": "A talk about trees", "_input_hash": 2, "_task_hash": 21, "_view_id": "choice",
         "options": [{"id": "TALK", "text": "talk"}, {"id": "PAPER", "text": "paper"}, {"id": "CODE", "text": "code"}],
         "accept": ["TALK", "CODE"], "answer": "accept", "_annotator_id": "ds-alex"},
        {"text": "A talk about trees", "_input_hash": 2, "_task_hash": 21, "_view_id": "choice",
         "options": [{"id": "TALK", "text": "talk"}, {"id": "PAPER", "text": "paper"}, {"id": "CODE", "text": "code"}],
         "accept": ["TALK"], "answer": "ignore", "_annotator_id": "ds-bea"}])
    c = _read(path)
    assert c.doc_cats("spans:ds-alex") == [{"new-dataset": 1.0}, {"TALK": 1.0, "PAPER": 0.0, "CODE": 1.0}]
    assert c.doc_cats("spans:ds-bea") == [{"new-dataset": 0.0}, None]  # reject: "not this label"; ignore: nothing
    assert len(c.get_set("spans:ds-alex")) == 0 and len(c.get_set("spans:ds-bea")) == 0


def test_prodigy_real_crowd_classification_gives_every_annotator_cats() -> None:
    path = shared_file("formats", "prodigy_jsonl", "pydata-ams-2023.part-shared.jsonl")
    c = _read(path)
    assert len(c.annotators()) == 42 and set(c.cats_sets()) == set(c.annotators())
    values = {v for name in c.annotators() for cats in c.doc_cats(name) if cats for v in cats.items()}
    assert values == {("new-dataset", 1.0), ("new-dataset", 0.0)}


def test_cats_values_that_are_no_numbers_are_located_errors(tmp_path) -> None:
    path = _jsonl(tmp_path / "x.jsonl", [{"text": "a", "cats": {"POS": "yes"}}])
    with pytest.raises(InputError, match=r"x.jsonl, line 1.*'POS' has the value 'yes'"):
        read_corpus(path)


# -- the corpus: windows keep them ---------------------------------------------------------------------------------


def test_a_window_of_the_corpus_keeps_its_documents_cats(tmp_path) -> None:
    c = _read(_jsonl(tmp_path / "alice.jsonl", DOCCANO_13))
    w = c.window(1, 3)
    assert w.doc_cats("spans:alice") == [{"positive": 1.0}, {"negative": 1.0, "positive": 1.0}]
    assert w.part and len(w) == 2


# -- convert: DocBin and JSONL round trips ------------------------------------------------------------------------


def _two_users(tmp_path: Path) -> Path:
    return _jsonl(tmp_path / "export.jsonl", [
        {"id": 7, "text": "Terrible customer service.", "annotations": [{"label": "neg", "user": 1},
                                                                         {"label": "neg", "user": 2}]},
        {"id": 8, "text": "Great price.", "annotations": [{"label": "pos", "user": 1}]},
        {"id": 9, "text": "Fine, I guess.", "annotations": [{"label": "pos", "user": 1}, {"label": "neg", "user": 2},
                                                            {"label": "pos", "user": 2}]}])


@pytest.mark.parametrize("suffix", [".spacy", ".jsonl"])
def test_several_sets_round_trip_with_their_coverage(tmp_path, suffix) -> None:
    source = _two_users(tmp_path)
    before = _read(source)
    out = tmp_path / f"out{suffix}"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        summary = convert(source, out)
    assert summary["categorised"] == {"spans:user1": 3, "spans:user2": 2}
    after = _read(out, selectors=["spans:user1", "spans:user2"])
    for name in ("spans:user1", "spans:user2"):
        assert after.doc_cats(name) == before.doc_cats(name)
        assert after.covered(name).tolist() == before.covered(name).tolist()
    assert after.doc_ids == ["7", "8", "9"]


def test_one_set_docbin_puts_the_cats_in_doc_cats_and_reads_them_back(tmp_path) -> None:
    source = _jsonl(tmp_path / "alice.jsonl", DOCCANO_13)
    out = tmp_path / "alice.spacy"
    _ = convert(source, out)
    import spacy

    docs = list(DocBin().from_disk(out).get_docs(spacy.blank("xx").vocab))
    assert [d.cats for d in docs] == [c for c in _read(source).doc_cats("spans:alice")]  # spaCy's own doc.cats
    assert docs[0].user_data["cats"] == {"alice": {"negative": 1.0}}
    for selectors in (["ents"], ["spans:alice"]):  # the fast path and spaCy's
        back = _read(out, selectors=selectors)
        assert back.doc_cats("spans:alice") == _read(source).doc_cats("spans:alice")
        assert back.doc_cats("ents") == [d.cats for d in docs]


def test_one_set_jsonl_writes_cats_per_record_and_the_jsonl_reader_reads_them(tmp_path) -> None:
    source = _jsonl(tmp_path / "alice.jsonl", DOCCANO_13)
    out = tmp_path / "plain.jsonl"
    _ = convert(source, out)
    records = [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()]
    assert [r.get("cats") for r in records] == [{"negative": 1.0}, {"positive": 1.0},
                                                {"negative": 1.0, "positive": 1.0}, {}]
    back = _read(out)
    assert detect_format(out) == "jsonl" and back.doc_cats("ents") == _read(source).doc_cats("spans:alice")


def test_plain_spacy_docs_with_doc_cats_read_as_the_ents_sets_categories(tmp_path) -> None:
    import spacy

    nlp = spacy.blank("en")
    docs = [nlp("good"), nlp("bad")]
    docs[0].cats, docs[1].cats = {"POS": 0.9, "NEG": 0.1}, {"POS": 0.2, "NEG": 0.8}
    path = tmp_path / "pred.spacy"
    DocBin(docs=docs).to_disk(path)
    for selectors in (["ents"], ["spans:x"]):
        c = read_corpus(path, selectors=selectors, allow_empty=True)
        assert c.doc_cats("ents") == [{"POS": pytest.approx(0.9), "NEG": pytest.approx(0.1)},
                                      {"POS": pytest.approx(0.2), "NEG": pytest.approx(0.8)}]


def test_corpus_to_docs_and_records_leave_a_document_a_set_does_not_cover_without_cats(tmp_path) -> None:
    corpus = _read(_two_users(tmp_path))
    docs = corpus_to_docs(corpus, ["spans:user1", "spans:user2"])
    assert docs[1].user_data["cats"] == {"user1": {"pos": 1.0}}  # user 2 did not annotate document 8
    assert docs[1].cats == {}  # several sets: no doc.cats of their own
    records = corpus_to_records(corpus, ["spans:user1", "spans:user2"])
    assert [(r["_annotator_id"], r["meta"]["id"]) for r in records] == [
        ("user1", "7"), ("user2", "7"), ("user1", "8"), ("user1", "9"), ("user2", "9")]


def test_sets_shows_the_documents_per_category(tmp_path) -> None:
    path = _two_users(tmp_path)
    result = runner.invoke(app, ["sets", str(path), "--json", str(tmp_path / "s.json")], env=NARROW)
    assert result.exit_code == 0, result.stderr
    assert "document: neg" in result.stdout and "documents categorised" in result.stdout
    rows = {r["name"]: r for r in json.loads((tmp_path / "s.json").read_text(encoding="utf-8"))["sets"]}
    assert rows["spans:user2"]["cats"] == {"neg": 2, "pos": 1}
    assert rows["spans:user2"]["documents_categorised"] == 2 and rows["spans:user2"]["documents_covered"] == 2


# -- INCEpTION XMI: document metadata layers -----------------------------------------------------------------------

TYPESYSTEM = """<?xml version="1.0" encoding="UTF-8"?>
<typeSystemDescription xmlns="http://uima.apache.org/resourceSpecifier">
  <types>
    <typeDescription><name>webanno.custom.Sentiment</name><supertypeName>uima.cas.AnnotationBase</supertypeName>
      <features><featureDescription><name>value</name><rangeTypeName>uima.cas.String</rangeTypeName>
      </featureDescription></features></typeDescription>
    <typeDescription><name>webanno.custom.Relevant</name><supertypeName>uima.cas.AnnotationBase</supertypeName>
    </typeDescription>
    <typeDescription><name>webanno.custom.Source</name><supertypeName>uima.cas.TOP</supertypeName>
      <features><featureDescription><name>url</name><rangeTypeName>uima.cas.String</rangeTypeName>
      </featureDescription></features></typeDescription>
    <typeDescription><name>de.tudarmstadt.ukp.dkpro.core.api.ner.type.NamedEntity</name>
      <supertypeName>uima.tcas.Annotation</supertypeName>
      <features><featureDescription><name>value</name><rangeTypeName>uima.cas.String</rangeTypeName>
      </featureDescription></features></typeDescription>
  </types>
</typeSystemDescription>
"""


def _xmi(sentiment: str | None, relevant: bool) -> str:
    """An INCEpTION XMI (UIMA CAS XMI as its exports hold it) with a document metadata layer ``Sentiment``
    (feature ``value``), one without features (``Relevant``), a span layer and a TOP that is no annotation."""
    members = ["13"] + (["12"] if sentiment else []) + (["14"] if relevant else [])
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<xmi:XMI xmlns:xmi="http://www.omg.org/XMI" xmlns:cas="http:///uima/cas.ecore"
    xmlns:custom="http:///webanno/custom.ecore"
    xmlns:type="http:///de/tudarmstadt/ukp/dkpro/core/api/ner/type.ecore" xmi:version="2.0">
  <cas:NULL xmi:id="0"/>
  <cas:Sofa xmi:id="1" sofaNum="1" sofaID="_InitialView" mimeType="text" sofaString="Great phone, Apple did well."/>
  {f'<custom:Sentiment xmi:id="12" sofa="1" value="{sentiment}"/>' if sentiment else ''}
  <type:NamedEntity xmi:id="13" sofa="1" begin="13" end="18" value="ORG"/>
  {'<custom:Relevant xmi:id="14" sofa="1"/>' if relevant else ''}
  <custom:Source xmi:id="15" url="http://example.org"/>
  <cas:View sofa="1" members="{' '.join(members)}"/>
</xmi:XMI>
"""


@pytest.mark.parametrize("with_typesystem", [True, False])
def test_inception_document_metadata_is_each_annotators_categories(tmp_path, with_typesystem) -> None:
    export = tmp_path / "export"
    for doc, users in (("review1.txt", {"alice": ("positive", True), "bob": ("negative", False)}),
                       ("review2.txt", {"alice": (None, False)})):
        folder = export / "annotation" / doc
        folder.mkdir(parents=True)
        for user, (sentiment, relevant) in users.items():
            (folder / f"{user}.xmi").write_text(_xmi(sentiment, relevant), encoding="utf-8")
            if with_typesystem:
                (folder / "TypeSystem.xml").write_text(TYPESYSTEM, encoding="utf-8")
    c = _read(export)
    assert c.doc_ids == ["review1.txt", "review2.txt"]
    # the one-feature layer gives its value; the layer without features its type; the TOP is no category
    assert c.doc_cats("spans:alice") == [{"positive": 1.0, "Relevant": 1.0}, {}]
    assert c.doc_cats("spans:bob") == [{"negative": 1.0}, None]
    t = c.get_set("spans:alice")
    assert [t.labels[i] for i in t.label] == ["NamedEntity", "NamedEntity"]  # the span layer stays spans
    only = _read(export, label_feature="Sentiment->value")
    assert only.doc_cats("spans:alice") == [{"positive": 1.0, "Relevant": 1.0}, {}]
    assert len(only.get_set("spans:alice")) == 0  # Sentiment->value reads that type's spans only: none


# -- GATE: Teamware answers and document features ------------------------------------------------------------------


def _teamware(tmp_path: Path) -> Path:
    """GATE Teamware's 'gate' export (docs/manageradminguide: bdocjs, each annotator's answers in a ``Document``
    annotation of the set named after them), and the same as GATE XML for the document features."""
    folder = tmp_path / "teamware"
    folder.mkdir()
    for i, (radio1, radio2, gold) in enumerate((("val3", "val3", "val3"), ("val1", "val2", "val2"))):
        doc = {"name": i, "text": f"Document text {i}", "offset_type": "p",
               "features": {"gold": gold, "teamware_status": {"rejected_by": [], "timed_out": [], "aborted": []}},
               "annotation_sets": {
                   "user1": {"name": "user1", "annotations": [{"type": "Document", "start": 0, "end": 10, "id": 0,
                                                               "features": {"radio": radio1, "checkbox": ["val2"],
                                                                            "text": "free text"}}]},
                   "user2": {"name": "user2", "annotations": [{"type": "Document", "start": 0, "end": 10, "id": 0,
                                                               "features": {"radio": radio2}}]}}}
        (folder / f"doc{i}.bdocjs").write_text(json.dumps(doc), encoding="utf-8")
    return folder


def test_gate_teamware_answers_are_read_by_the_feature_named(tmp_path) -> None:
    folder = _teamware(tmp_path)
    with pytest.warns(UserWarning, match=r"4 'Document' annotation.*gold left out.*cats_feature=NAME"):
        plain = read_corpus(folder)
    assert plain.cats is None and len(plain.get_set("spans:user1")) == 2  # without the option: spans
    c = _read(folder, cats_feature="radio")
    assert c.doc_cats("spans:user1") == [{"val3": 1.0}, {"val1": 1.0}]
    assert c.doc_cats("spans:user2") == [{"val3": 1.0}, {"val2": 1.0}]
    assert len(c.get_set("spans:user1")) == 0  # the answers are no spans
    assert _read(folder, cats_feature="checkbox").doc_cats("spans:user1") == [{"val2": 1.0}, {"val2": 1.0}]


def test_gate_document_features_are_the_document_sets_categories(tmp_path) -> None:
    folder = _teamware(tmp_path)
    c = _read(folder, cats_feature="gold")
    assert c.doc_cats("spans:document") == [{"val3": 1.0}, {"val2": 1.0}]
    assert "spans:document" not in c.annotators()  # a document feature is nobody's annotation
    xml = tmp_path / "doc.xml"
    xml.write_text('<?xml version="1.0" encoding="UTF-8"?><GateDocument version="3"><GateDocumentFeatures>'
                   '<Feature><Name className="java.lang.String">gate.SourceURL</Name>'
                   '<Value className="java.lang.String">created from String</Value></Feature>'
                   '<Feature><Name className="java.lang.String">sentiment</Name>'
                   '<Value className="java.lang.String">negative</Value></Feature></GateDocumentFeatures>'
                   '<TextWithNodes><Node id="0"/>Bad.<Node id="4"/></TextWithNodes><AnnotationSet/>'
                   '</GateDocument>', encoding="utf-8")
    assert _read(xml, cats_feature="sentiment").doc_cats("spans:document") == [{"negative": 1.0}]
    with pytest.raises(ConfigError, match=r"cats_feature 'nope'.*the document features are: sentiment"):
        _read(xml, cats_feature="nope")
