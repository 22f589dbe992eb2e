"""γ with partial coverage (issue 19, item 4): a document an annotator has no record of is left out of the continuum
(γ lays every annotator along one axis), ``missing_as_empty`` restores the old count-as-empty; the default sets, the
JSON ``documents`` block and the terminal lines of ``anno-eval gamma`` on annotation corpora."""

from __future__ import annotations

import json
import warnings

import pytest
import spacy
from spacy.tokens import DocBin, Span
from typer.testing import CliRunner

from spacy_anno_eval.cli.app import app
from spacy_anno_eval.errors import ConfigError, InputError
from spacy_anno_eval.gamma.alignment import best_alignment
from spacy_anno_eval.gamma.dissimilarity import Dissimilarity
from spacy_anno_eval.gamma.measure import gamma
from spacy_anno_eval.gamma.readers import continuum_format, from_corpus, from_docs, read_continuum
from spacy_anno_eval.io.multiset import MultiSetBuilder
from tests.cli.test_terminal_output import NARROW, check_readable

TEXTS = ["Ada met Bob in London .", "Grace joined IBM in Paris .", "Alan saw Turing in Rome ."]
# (token start, token end, label) per set and document; 'b' has no record of document 1
SPANS = {
    "a": [[(0, 1, "PER"), (2, 3, "PER"), (4, 5, "LOC")], [(0, 1, "PER"), (2, 3, "ORG")],
          [(0, 1, "PER"), (4, 5, "LOC")]],
    "b": [[(0, 1, "PER"), (2, 3, "PER"), (4, 5, "ORG")], None, [(0, 1, "PER"), (2, 3, "PER")]],
    "c": [[(0, 1, "PER"), (4, 5, "LOC")], [(0, 1, "PER"), (2, 3, "ORG"), (4, 5, "LOC")], [(0, 2, "PER")]],
}
SETS = ["spans:a", "spans:b", "spans:c"]
runner = CliRunner()


def make_docs(only: list[int] | None = None) -> list:
    nlp = spacy.blank("en")
    docs = []
    for d, text in enumerate(TEXTS):
        if only is not None and d not in only:
            continue
        doc = nlp(text)
        doc.user_data["doc_id"] = f"d{d}"
        for name, per_doc in SPANS.items():
            if per_doc[d] is not None:
                doc.spans[name] = [Span(doc, s, e, lab) for s, e, lab in per_doc[d]]
        docs.append(doc)
    return docs


@pytest.fixture
def docbin(tmp_path):
    path = tmp_path / "three.spacy"
    DocBin(docs=make_docs(), store_user_data=True).to_disk(path)
    return path


def quietly(fn, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(*args, **kwargs)


def test_a_document_one_annotator_lacks_is_left_out_for_all():
    with pytest.warns(UserWarning, match=r"1 of 3 documents left out of γ.*'d1', no record of spans:b"):
        c = from_docs(make_docs(), SETS)
    # the same continuum as the corpus without that document
    assert c.units() == from_docs(make_docs(only=[0, 2]), SETS).units()
    assert c.documents == {"n_documents": 3, "n_compared": 2, "missing_as_empty": False, "sets": SETS,
                           "covered": {"spans:a": 3, "spans:b": 2, "spans:c": 3},
                           "not_covered": [{"doc": "d1", "sets": ["spans:b"]}], "left_out": ["d1"],
                           "extent": [0, 49]}  # d0 (23 characters), one position between, d2 (25)
    # document d2 now starts right after d0 (23 characters and a gap)
    assert ("spans:c", 24.0, 32.0, "PER") in c.units()  # "Alan saw"


def test_missing_as_empty_is_the_old_continuum():
    c = from_docs(make_docs(), SETS, missing_as_empty=True)
    assert c.documents["n_compared"] == 3 and c.documents["left_out"] == []
    assert c.documents["not_covered"] == [{"doc": "d1", "sets": ["spans:b"]}]
    # the old layout: every document in place, the missing group giving no units
    shift = [0, len(TEXTS[0]) + 1, len(TEXTS[0]) + len(TEXTS[1]) + 2]
    docs = make_docs()
    expected = sorted((f"spans:{name}", float(shift[d] + docs[d][s:e].start_char),
                       float(shift[d] + docs[d][s:e].end_char), lab)
                      for name, per_doc in SPANS.items() for d, spans in enumerate(per_doc) if spans
                      for s, e, lab in spans)
    assert sorted(c.units()) == expected
    # with every group present, nothing changes between the two readings
    full = make_docs()
    full[1].spans["b"] = []
    assert from_docs(full, SETS).units() == from_docs(full, SETS, missing_as_empty=True).units() == c.units()


def test_gamma_on_the_covered_part_matches_pygamma():
    pg = pytest.importorskip("pygamma_agreement")
    from pyannote.core import Segment

    c = quietly(from_docs, make_docs(), SETS)
    theirs = pg.Continuum()
    for d in (0, 2):  # pygamma on the covered documents, laid end to end by hand
        shift = 0 if d == 0 else len(TEXTS[0]) + 1
        for doc in make_docs(only=[d]):
            for name in SETS:
                for span in doc.spans[name.split(":")[1]]:
                    theirs.add(name, Segment(shift + span.start_char, shift + span.end_char), span.label_)
    expected = theirs.get_best_alignment(pg.CombinedCategoricalDissimilarity(alpha=1, beta=1)).disorder
    assert best_alignment(c, Dissimilarity(alpha=1, beta=1)).disorder == pytest.approx(expected, rel=1e-6)
    # and γ itself is that of the corpus holding only the covered documents (same seed, same samples)
    left_out = quietly(gamma, make_docs(), sets=SETS, n_samples=10, seed=3)
    covered_only = gamma(make_docs(only=[0, 2]), sets=SETS, n_samples=10, seed=3)
    assert left_out.gamma == covered_only.gamma and left_out.observed_disorder == pytest.approx(expected, rel=1e-6)
    old = gamma(from_docs(make_docs(), SETS, missing_as_empty=True), n_samples=10, seed=3)
    assert old.observed_disorder > left_out.observed_disorder  # d1 counted as b's empty stretch: more disorder


def test_docbin_default_sets_and_errors(docbin):
    c = quietly(read_continuum, docbin)
    assert c.documents["sets"] == SETS and c.documents["left_out"] == ["d1"]
    assert continuum_format(docbin) == "spacy"
    apart = make_docs()
    for d in (0, 2):
        del apart[d].spans["c"]  # c annotated only d1, which b never saw
    with pytest.raises(InputError, match=r"no document is covered by every annotator set .*spans:b 2, spans:c 1\).*"
                                         r"--missing-as-empty"):
        from_docs(apart, SETS)
    one = make_docs()
    for doc in one:
        for key in ("b", "c"):
            doc.spans.pop(key, None)
    with pytest.raises(InputError, match=r"1 annotator set \(spans:a\) where γ compares two or more"):
        from_docs(one)
    with pytest.raises(ConfigError, match="--label-feature"):
        read_continuum(docbin, label_feature="value")


def builder_corpus():
    """Three annotators of a tool's export; ann3 never opened document 'y'; ann2 covered 'z' with nothing."""
    b = MultiSetBuilder("export.json")
    texts = {"x": "Ada met Bob.", "y": "Carol left.", "z": "Nothing here."}
    docs = {k: b.document(k, t) for k, t in texts.items()}
    for name in ("ann1", "ann2", "ann3"):
        b.declare_set(name)
    b.add("ann1", docs["x"], 0, 3, "PER")
    b.add("ann1", docs["x"], 8, 11, "PER")
    b.add("ann2", docs["x"], 0, 3, "PER")
    b.add("ann3", docs["x"], 0, 3, "ORG")
    b.add("ann1", docs["y"], 0, 5, "PER")
    b.add("ann2", docs["y"], 0, 5, "PER")
    b.cover("ann1", docs["z"])
    b.cover("ann2", docs["z"])
    b.cover("ann3", docs["z"])
    return b.build()


def test_from_corpus_leaves_out_what_an_annotator_never_saw():
    corpus = builder_corpus()
    with pytest.warns(UserWarning, match="1 of 3 documents left out"):
        c = from_corpus(corpus)
    assert c.documents["sets"] == ["spans:ann1", "spans:ann2", "spans:ann3"]
    assert c.documents["not_covered"] == [{"doc": "y", "sets": ["spans:ann3"]}]
    # x at 0, z after it: the units of y are gone
    assert sorted(c.units()) == [("spans:ann1", 0.0, 3.0, "PER"), ("spans:ann1", 8.0, 11.0, "PER"),
                                 ("spans:ann2", 0.0, 3.0, "PER"), ("spans:ann3", 0.0, 3.0, "ORG")]
    two = from_corpus(corpus, "spans:ann1;spans:ann2")  # both cover every document: nothing left out
    assert two.documents["left_out"] == [] and ("spans:ann1", 13.0, 18.0, "PER") in two.units()
    empty = from_corpus(corpus, missing_as_empty=True)
    assert empty.documents["n_compared"] == 3 and len(empty) == 6


def docbin_run(args, tmp_path):
    out = tmp_path / "g.json"
    result = runner.invoke(app, [str(a) for a in [*args, "--samples", "5", "--json", out]], env=NARROW)
    assert result.exit_code == 0, result.output
    return result, json.loads(out.read_text(encoding="utf8"))


def test_cli_gamma_names_its_default_sets_and_the_documents(docbin, tmp_path):
    result, data = docbin_run(["gamma", docbin], tmp_path)
    assert "note: comparing the annotator sets spans:a, spans:b, spans:c" in result.stderr
    assert "left out of" not in result.stderr  # the table says it, not a warning too
    assert data["documents"]["n_compared"] == 2 and data["documents"]["left_out"] == ["d1"]
    assert data["annotators"] == SETS
    check_readable(result.stdout)
    assert "documents  2 of 3 compared" in result.stdout
    assert "d1: no record of spans:b" in result.stdout
    result, data = docbin_run(["gamma", docbin, "--missing-as-empty", "--sets", "spans:a;spans:b"], tmp_path)
    assert "note:" not in result.stderr
    assert data["documents"]["n_compared"] == 3 and data["documents"]["missing_as_empty"] is True
    assert "counted as empty" in result.stdout
    check_readable(result.stdout)


def test_cli_gamma_long_names_and_many_left_out_fit_80_columns(tmp_path):
    nlp = spacy.blank("en")
    docs = []
    for d in range(8):
        doc = nlp("Ada met Bob .")
        doc.user_data["doc_id"] = f"a-rather-long-document-identifier-number-{d}-of-the-corpus"
        doc.spans["annotator_with_a_long_name_one"] = [Span(doc, 0, 1, "PER")]
        if d % 4 == 0:
            doc.spans["annotator_with_a_long_name_two"] = [Span(doc, 0, 1, "PER")]
        docs.append(doc)
    path = tmp_path / "long.spacy"
    DocBin(docs=docs, store_user_data=True).to_disk(path)
    result, data = docbin_run(["gamma", path], tmp_path)
    check_readable(result.stdout)
    assert "and 1 more" in result.stdout and len(data["documents"]["not_covered"]) == 6


def test_cli_gamma_reads_a_corpus_format(tmp_path):
    """A GATE-like export through read_corpus: the format is detected, --label-feature goes to its reader."""
    from spacy_anno_eval.io import formats

    if "gate" not in formats():
        pytest.skip("no GATE reader")
    path = tmp_path / "doc.bdocjs"
    doc = {"text": "Ada met Bob.", "features": {}, "offset_type": "p", "name": "d1",
           "annotation_sets": {
               "ann1": {"name": "ann1", "next_annid": 2, "annotations": [
                   {"type": "Person", "start": 0, "end": 3, "id": 0, "features": {"value": "PER"}},
                   {"type": "Person", "start": 8, "end": 11, "id": 1, "features": {"value": "PER"}}]},
               "ann2": {"name": "ann2", "next_annid": 1, "annotations": [
                   {"type": "Person", "start": 0, "end": 3, "id": 0, "features": {"value": "ORG"}}]}}}
    path.write_text(json.dumps(doc), encoding="utf8")
    try:
        c = read_continuum(path, label_feature="value")
    except (InputError, NotImplementedError) as err:  # the reader of another helper may not be there yet
        pytest.skip(f"GATE reader not ready: {err}")
    assert sorted(c.units()) == [("spans:ann1", 0.0, 3.0, "PER"), ("spans:ann1", 8.0, 11.0, "PER"),
                                 ("spans:ann2", 0.0, 3.0, "ORG")]
    with pytest.raises(ConfigError, match="--unit token"):
        read_continuum(path, unit="token")
