"""Names are checked (DESIGN.md, Contracts; issue 17 item 3): a name that matches nothing is an error listing
what exists, never a silent zero; and the Python API says what it was given and what it expects.

One test per case the testers reported, through the command line (exit code 2, exactly one line on stderr
naming what, where and what exists) and through the Python API (the exception class and its message).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import spacy
from spacy.tokens import DocBin, Span
from typer.testing import CliRunner

import spacy_anno_eval as ae
from spacy_anno_eval.annalist.mentions import read_mention_pair
from spacy_anno_eval.cli.app import app
from spacy_anno_eval.errors import AnnoEvalError, ConfigError, InputError
from spacy_anno_eval.gamma.measure import gamma  # spacy_anno_eval.gamma is the package once it is imported
from spacy_anno_eval.io.jsonl import MAX_JSON_DEPTH
from spacy_anno_eval.spans.engine import evaluate, load, match_documents

ROOT = Path(__file__).resolve().parents[1]
DEMO_KEY = ROOT / "assets" / "demo" / "key.jsonl"
DEMO_RESPONSE = ROOT / "assets" / "demo" / "response.jsonl"
SETS = "ents, spans:empty, spans:sc"  # what the DocBins below hold
runner = CliRunner()


def records(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf8").splitlines() if line.strip()]


def write_jsonl(path: Path, docs: list[dict]) -> Path:
    path.write_text("".join(json.dumps(d) + "\n" for d in docs), encoding="utf8")
    return path


def docbin(path: Path, source: Path) -> Path:
    """The demo documents of ``source`` as a DocBin: their spans as ``doc.ents`` and as the span group ``sc``;
    the first document also has an empty span group ``empty`` (present but empty: it exists)."""
    nlp = spacy.blank("en")
    docs = []
    for i, r in enumerate(records(source)):
        doc = nlp(r["text"])
        doc.user_data["doc_id"] = r["meta"]["id"]
        spans = [doc.char_span(s["start"], s["end"], s["label"], alignment_mode="expand") for s in r["spans"]]
        doc.ents = spacy.util.filter_spans(spans)
        doc.spans["sc"] = spans
        if i == 0:
            doc.spans["empty"] = []
        docs.append(doc)
    DocBin(docs=docs, store_user_data=True).to_disk(path)
    return path


@pytest.fixture(scope="module")
def spacy_pair(tmp_path_factory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("docbins")
    return docbin(folder / "key.spacy", DEMO_KEY), docbin(folder / "response.spacy", DEMO_RESPONSE)


def error_line(result) -> str:
    """The one line of a refused run (exit 2), without the ``anno-eval: error:`` prefix."""
    assert result.exit_code == 2, (result.exit_code, result.output)
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, lines
    assert lines[0].startswith("anno-eval: error: ")
    return lines[0].removeprefix("anno-eval: error: ")


def cli(*args) -> str:
    return error_line(runner.invoke(app, [str(a) for a in args]))


# ---------------------------------------------------------------------------
# annotation-set selectors that exist in no document


def test_score_refuses_a_key_set_no_document_holds(spacy_pair):
    key, response = spacy_pair
    line = cli("score", key, response, "--key-set", "spans:nope", "-q")
    assert str(key) in line and "no document has the annotation set 'spans:nope'" in line
    assert line.endswith(f"the sets are: {SETS}")
    with pytest.raises(InputError, match=f"'spans:nope'; the sets are: {SETS}$"):
        evaluate(key, response, key_set="spans:nope")
    # present but empty in every document that has it: the set exists, and scores
    assert runner.invoke(app, ["score", str(key), str(response), "--key-set", "spans:empty", "-q"]).exit_code == 0
    assert evaluate(key, response, key_set="spans:empty").report()["counts"]["correct"] == 0


def test_score_refuses_a_response_set_no_document_holds(spacy_pair):
    key, response = spacy_pair
    line = cli("score", key, response, "--key-set", "spans:sc", "--response-set", "spans:nope", "-q")
    assert line.startswith(f"{response}: no document has the annotation set 'spans:nope'")


def test_docs_in_memory_refuse_a_set_no_document_holds():
    nlp = spacy.blank("en")
    doc = nlp("Ada wrote")
    doc.spans["a"] = [Span(doc, 0, 1, "PER")]
    with pytest.raises(InputError, match="key: no document has the annotation set 'spans:b'; the sets are: "
                                         "ents, spans:a"):
        evaluate([doc], [doc], key_set="spans:b")


def test_qa_refuses_a_key_set_no_document_holds(spacy_pair, tmp_path):
    key, response = spacy_pair
    out = tmp_path / "qa.json"
    line = cli("qa", key, response, "--key-set", "spans:nope", "--json", out, "-q")
    assert f"{key}: no document has the annotation set 'spans:nope'; the sets are: {SETS}" in line
    assert not out.exists()


def bench_with_docbin_gold(root: Path, spacy_pair) -> Path:
    """A benchmark folder: the demo texts in clean/, the DocBin gold (ents, spans:sc) in marked/."""
    (root / "clean").mkdir(parents=True)
    (root / "marked").mkdir()
    (root / "processed").mkdir()
    write_jsonl(root / "clean" / "texts.jsonl", [{"text": r["text"], "meta": r["meta"]} for r in records(DEMO_KEY)])
    (root / "marked" / "gold.spacy").write_bytes(spacy_pair[0].read_bytes())
    return root


def test_benchmark_refuses_a_key_set_no_document_holds(spacy_pair, tmp_path):
    bench = bench_with_docbin_gold(tmp_path / "bench", spacy_pair)
    stored = runner.invoke(app, ["benchmark", "store", str(bench), "--predictions", str(DEMO_RESPONSE),
                                 "--name", "v0", "--quiet"])
    assert stored.exit_code == 0, stored.output
    line = cli("benchmark", "marked-vs-stored", bench, "--name", "v0", "--key-set", "spans:nope", "--quiet")
    assert line == f"{bench / 'marked'}: no document has the annotation set 'spans:nope'; the sets are: {SETS}"


def test_iaa_refuses_a_set_no_document_holds(spacy_pair):
    key, _ = spacy_pair
    for measure in ("fmeasure", "kappa"):
        line = cli("iaa", key, "--sets", "spans:sc;spans:nope", "--measure", measure, "-q")
        assert line == f"{key}: no document has the annotation set 'spans:nope'; the sets are: {SETS}"
    with pytest.raises(InputError, match=f"'spans:nope'; the sets are: {SETS}$"):
        ae.pairwise_f(key, "spans:sc;spans:nope")
    with pytest.raises(InputError, match=f"'spans:nope'; the sets are: {SETS}$"):
        ae.pairwise_kappa(key, ["spans:sc", "spans:nope"])


def test_iaa_refuses_a_consensus_set_no_document_holds(spacy_pair):
    key, _ = spacy_pair
    line = cli("iaa", key, "--sets", "spans:sc;ents", "--consensus", "spans:nope", "-q")
    assert line == f"{key}: no document has the annotation set 'spans:nope'; the sets are: {SETS}"
    with pytest.raises(InputError, match="'spans:nope'"):
        ae.pairwise_f(key, "spans:sc;ents", consensus="spans:nope")


def test_iaa_over_shards_checks_sets_over_the_whole_corpus(spacy_pair, tmp_path):
    """A set that only some shard holds is fine; one that no shard holds is refused once every shard is read."""
    nlp = spacy.blank("en")
    folder = tmp_path / "shards"
    folder.mkdir()
    docs = list(DocBin().from_disk(spacy_pair[0]).get_docs(nlp.vocab))
    for doc in docs[1:]:
        doc.spans["late"] = list(doc.spans["sc"])
    DocBin(docs=docs[:1], store_user_data=True).to_disk(folder / "a.spacy")  # has no 'late'
    DocBin(docs=docs[1:], store_user_data=True).to_disk(folder / "b.spacy")
    ok = ae.pairwise_f(str(folder), "spans:sc;spans:late", shards=True)
    assert ok["n_docs"] == len(docs)
    with pytest.raises(InputError, match=r"no document has the annotation set 'spans:nope'; the sets are: ents, "
                                         r"spans:empty, spans:late, spans:sc$"):
        ae.pairwise_f(str(folder), "spans:sc;spans:nope", shards=True)


def test_gamma_refuses_a_set_no_document_holds(spacy_pair):
    key, _ = spacy_pair
    line = cli("gamma", key, "--sets", "spans:sc;spans:nope", "--samples", "2", "-q")
    assert line == f"{key}: no document has the annotation set 'spans:nope'; the sets are: {SETS}"
    with pytest.raises(InputError, match=f"'spans:nope'; the sets are: {SETS}$"):
        gamma(str(key), sets="spans:sc;spans:nope", n_samples=2)


# ---------------------------------------------------------------------------
# types


def test_types_that_neither_side_has_are_refused():
    line = cli("score", DEMO_KEY, DEMO_RESPONSE, "--types", "NOPE", "-q")
    assert line == (f"{DEMO_KEY} (ents) and {DEMO_RESPONSE} (ents): no annotation has the type 'NOPE'; the types "
                    f"are: LOC, MISC, ORG, PER")
    with pytest.raises(InputError, match="no annotation has the type 'NOPE'; the types are: LOC, MISC, ORG, PER"):
        evaluate(DEMO_KEY, DEMO_RESPONSE, types=["NOPE"])


def test_types_in_another_case_are_refused_with_a_suggestion():
    line = cli("score", DEMO_KEY, DEMO_RESPONSE, "--types", "per,org", "-q")
    assert line.endswith("no annotation has the types 'per', 'org' (did you mean 'PER', 'ORG'?); the types are: "
                         "LOC, MISC, ORG, PER")
    with pytest.raises(InputError, match=r"\(did you mean 'PER'\?\)"):
        evaluate(DEMO_KEY, DEMO_RESPONSE, types=["per"])


def test_a_type_only_one_side_has_is_fine(tmp_path):
    key = write_jsonl(tmp_path / "k.jsonl", [{"text": "Ada in Paris", "spans": [{"start": 0, "end": 3,
                                                                                 "label": "PER"}]}])
    response = write_jsonl(tmp_path / "r.jsonl", [{"text": "Ada in Paris", "spans": [{"start": 7, "end": 12,
                                                                                      "label": "LOC"}]}])
    for types in (["PER"], ["LOC"]):
        assert set(evaluate(key, response, types=types).report()["per_type"]) == set(types)
    assert runner.invoke(app, ["score", str(key), str(response), "--types", "LOC", "-q"]).exit_code == 0


def test_iaa_types_are_checked_over_every_set(spacy_pair):
    key, _ = spacy_pair
    line = cli("iaa", key, "--sets", "spans:sc;ents", "--types", "NOPE;PER", "-q")
    assert line == (f"{key} (spans:sc, ents): no annotation has the type 'NOPE'; the types are: LOC, MISC, ORG, "
                    f"PER")
    with pytest.raises(InputError, match="'NOPE'"):
        ae.pairwise_kappa(key, "spans:sc;ents", types="NOPE")


def test_a_string_of_types_is_one_type():
    """``types="PER"`` is the type PER, not the letters P, E and R."""
    assert set(evaluate(DEMO_KEY, DEMO_RESPONSE, types="PER").report()["per_type"]) == {"PER"}
    assert evaluate(DEMO_KEY, DEMO_RESPONSE, types="PER").settings["types"] == ["PER"]
    with pytest.raises(ConfigError, match=r"types must be a list of names \(or one name as a string\), got int 5"):
        evaluate(DEMO_KEY, DEMO_RESPONSE, types=5)
    with pytest.raises(ConfigError, match="types must be a list of non-empty strings, got 1"):
        evaluate(DEMO_KEY, DEMO_RESPONSE, types=["PER", 1])


def test_a_string_of_types_is_one_type_in_iaa(spacy_pair):
    key, _ = spacy_pair
    assert set(ae.pairwise_f(key, "spans:sc;ents", types="PER")["per_type"]) == {"PER"}
    assert ae.pairwise_kappa(key, "spans:sc;ents", types="PER")["types"] == ["PER"]
    with pytest.raises(ConfigError, match="types must be a list"):
        ae.pairwise_f(key, "spans:sc;ents", types=5)


# ---------------------------------------------------------------------------
# selectors and options a reader does not take


def test_a_selector_the_reader_does_not_take_is_refused():
    line = cli("score", DEMO_KEY, DEMO_RESPONSE, "--key-set", "column:2", "-q")
    assert line == (f"{DEMO_KEY}: the jsonl reader takes no annotation selector 'column:2'; it takes ents, spans, "
                    f"spans:NAME (a jsonl file has one layer of annotations, read under any of these names)")
    with pytest.raises(InputError, match="the jsonl reader takes no annotation selector 'column:2'"):
        evaluate(DEMO_KEY, DEMO_RESPONSE, key_set="column:2")


def test_a_selector_a_docbin_cannot_hold_is_refused(spacy_pair):
    key, response = spacy_pair
    line = cli("score", key, response, "--key-set", "column:2", "-q")
    assert line.startswith(f"{key}: the docbin reader takes no annotation selector 'column:2'")


def test_a_reader_option_the_reader_does_not_take_is_refused(tmp_path):
    line = cli("score", DEMO_KEY, DEMO_RESPONSE, "--scheme", "BIO", "-q")
    assert line == (f"{DEMO_KEY}, {DEMO_RESPONSE}: the jsonl reader takes no option 'scheme'; it takes "
                    f"skip_rejected, encoding")
    with pytest.raises(ConfigError, match="the jsonl reader takes no option 'schema'; it takes skip_rejected, "
                                          "encoding"):
        evaluate(DEMO_KEY, DEMO_RESPONSE, reader_options={"schema": "BIO"})
    with pytest.raises(ConfigError, match="the jsonl reader takes no option 'bogus'"):
        ae.read_corpus(DEMO_KEY, bogus=1)
    with pytest.raises(ConfigError, match="reader_options must be a dict of reader options, got list"):
        evaluate(DEMO_KEY, DEMO_RESPONSE, reader_options=["scheme"])


def test_reader_options_are_checked_on_shards_too(tmp_path):
    for side in ("k", "r"):
        (tmp_path / side).mkdir()
        for part in ("a", "b"):
            write_jsonl(tmp_path / side / f"{part}.jsonl", [{"text": "Ada", "meta": {"id": part}}])
    line = cli("score", tmp_path / "k", tmp_path / "r", "--shards", "--scheme", "BIO", "-q")
    assert line == (f"{tmp_path / 'k' / 'a.jsonl'}: the jsonl reader takes no option 'scheme'; it takes "
                    f"skip_rejected, encoding")


def test_one_set_of_reader_options_for_two_formats(tmp_path):
    """Each reader gets the options it takes; an option that neither takes is refused naming both readers."""
    conll = tmp_path / "k.conll"
    conll.write_text("Ada B-PER\nwrote O\n", encoding="utf8")
    jsonl = write_jsonl(tmp_path / "r.jsonl", [{"text": "Ada wrote", "spans": [{"start": 0, "end": 3,
                                                                                "label": "PER"}]}])
    report = evaluate(conll, jsonl, reader_options={"scheme": "IOB2", "skip_rejected": False}).report()
    assert report["counts"]["correct"] == 1
    with pytest.raises(ConfigError, match="neither the conll nor the jsonl reader takes the option 'fast'"):
        evaluate(conll, jsonl, reader_options={"fast": False})
    # an option at a reader's default asks for nothing (the CLI passes --strict-scheme off as strict=False)
    assert evaluate(jsonl, jsonl, reader_options={"strict": False}).report()["counts"]["correct"] == 1


# ---------------------------------------------------------------------------
# features


def test_a_feature_that_no_annotation_carries_is_refused(tmp_path):
    key = write_jsonl(tmp_path / "k.jsonl", [{"text": "Ada wrote", "spans": [{"start": 0, "end": 3, "label": "PER",
                                                                              "kb_id": "Q7259"}]}])
    response = write_jsonl(tmp_path / "r.jsonl", [{"text": "Ada wrote", "spans": [
        {"start": 0, "end": 3, "label": "PER", "features": {"source": "model"}}]}])
    line = cli("score", key, response, "--features", "X", "-q")
    assert line == (f"{key} (ents) and {response} (ents): no annotation carries the feature 'X'; the features are: "
                    f"kb_id, source")
    with pytest.raises(InputError, match="no annotation carries the feature 'X'; the features are: kb_id, source"):
        evaluate(key, response, features="X")
    # a feature only one side carries is fine
    assert evaluate(key, response, features=["kb_id"]).report()["counts"]["incorrect"] == 1


def test_a_feature_no_span_of_the_docs_carries_is_refused(spacy_pair):
    key, response = spacy_pair
    line = cli("score", key, response, "--features", "kb_id", "-q")
    assert line.endswith("no annotation carries the feature 'kb_id'; the features are: none")


# ---------------------------------------------------------------------------
# align: the texts at offset level, --section


def test_align_at_offset_level_compares_texts(tmp_path):
    key = write_jsonl(tmp_path / "k.jsonl", [{"text": "Ada Lovelace", "spans": [{"start": 4, "end": 12,
                                                                                 "label": "PER"}]}])
    response = write_jsonl(tmp_path / "r.jsonl", [{"text": "Eve Lovelace", "spans": [{"start": 4, "end": 12,
                                                                                      "label": "PER"}]}])
    line = cli("align", key, response, "-q")
    assert line == (f"{key}, document '0': the key text differs from the response text ({response}) at character "
                    f"0 (key 'Ada Lovelace' vs response 'Eve Lovelace'); character offsets only compare on "
                    f"identical texts")
    with pytest.raises(InputError, match="the key text differs from the response text"):
        read_mention_pair(key, response, level="offset")
    # without offsets the texts need not be the same
    keys, resps, _ = read_mention_pair(key, response, level="order")
    assert len(keys) == len(resps) == 1
    assert runner.invoke(app, ["align", str(key), str(response), "--level", "order", "-q"]).exit_code == 0


def test_align_refuses_a_section_feature_no_annotation_carries(tmp_path):
    key = write_jsonl(tmp_path / "k.jsonl", [{"text": "Ada wrote. Bob read.", "spans": [
        {"start": 0, "end": 3, "label": "PER", "part": "intro"}]}])
    line = cli("align", key, key, "--level", "section", "--section", "nofeat", "-q")
    assert line == (f"{key} (ents): --section nofeat: no annotation carries this feature; a section is sentence, "
                    f"paragraph or a feature: part")
    assert runner.invoke(app, ["align", str(key), str(key), "--level", "section", "--section", "part",
                               "-q"]).exit_code == 0
    line = cli("align", key, key, "--section", "sentence", "-q")
    assert line == ("--section sentence applies to --level section only (the level is offset); add --level section "
                    "or leave --section out")


# ---------------------------------------------------------------------------
# duplicate ids, deep nesting


def test_duplicate_ids_in_another_order_are_a_located_error(tmp_path):
    texts = ["A one.", "B two.", "A one."]
    key = write_jsonl(tmp_path / "k.jsonl", [{"text": t, "meta": {"id": i}}
                                             for t, i in zip(texts, "aba", strict=True)])
    response = write_jsonl(tmp_path / "r.jsonl", [{"text": t, "meta": {"id": i}}
                                                  for t, i in zip(["B two.", "A one.", "A one."], "baa", strict=True)])
    line = cli("score", key, response, "-q")
    assert line == (f"{key}, document 'a': the key has two documents with this id (documents 1 and 3); documents "
                    f"pair by id when the two sides list them in another order, so ids must be unique (or give "
                    f"both sides the same order)")
    with pytest.raises(InputError, match="document 'a': the key has two documents with this id"):
        match_documents(load(key, ["ents"]), load(response, ["ents"]))
    # the same order pairs by position, repeated ids or not
    assert evaluate(key, key).report()["n_docs"] == 3


def test_deep_json_nesting_is_a_located_error(tmp_path):
    deep = "[" * 5000 + "]" * 5000
    path = tmp_path / "k.jsonl"
    path.write_text(json.dumps({"text": "Ada", "meta": {"id": "d1"}}) + "\n"
                    + '{"text": "Bob", "meta": ' + deep + "}\n", encoding="utf8")
    line = cli("score", path, path, "-q")
    assert line == (f"{path}, line 2: JSON nesting deeper than {MAX_JSON_DEPTH} levels; no annotation file nests "
                    f"this deep (check the file)")
    with pytest.raises(InputError, match=f"line 2: JSON nesting deeper than {MAX_JSON_DEPTH}"):
        ae.read_corpus(path)
    # just below the limit, and brackets inside strings, are read
    fine = tmp_path / "fine.jsonl"
    nested = "[" * (MAX_JSON_DEPTH - 2) + "]" * (MAX_JSON_DEPTH - 2)  # inside two objects: MAX_JSON_DEPTH deep
    fine.write_text('{"text": "' + "[" * 5000 + '", "meta": {"id": "x", "deep": ' + nested + "}}\n",
                    encoding="utf8")
    assert len(ae.read_corpus(fine)) == 1


def test_deep_json_nesting_in_benchmark_marked_is_exit_2(tmp_path):
    bench = tmp_path / "bench"
    for sub in ("clean", "marked", "processed"):
        (bench / sub).mkdir(parents=True)
    write_jsonl(bench / "clean" / "texts.jsonl", [{"text": "Ada wrote", "meta": {"id": "d1"}}])
    (bench / "marked" / "gold.jsonl").write_text('{"text": "Ada wrote", "meta": ' + "[" * 3000 + "]" * 3000
                                                 + "}\n", encoding="utf8")
    predictions = write_jsonl(tmp_path / "p.jsonl", [{"text": "Ada wrote", "meta": {"id": "d1"}}])
    line = cli("benchmark", "store", bench, "--predictions", predictions, "--name", "v0", "--quiet")
    assert line.startswith(f"{bench / 'marked' / 'gold.jsonl'}, line 1: JSON nesting deeper than")


# ---------------------------------------------------------------------------
# the Python API says what it was given and what it expects


def test_python_api_refuses_a_bad_beta_a_single_doc_and_none():
    nlp = spacy.blank("en")
    doc = nlp("Ada wrote")
    with pytest.raises(ConfigError, match=r"beta must be a number >= 0 \(or inf, meaning recall\), got '1'"):
        evaluate([doc], [doc], beta="1")
    with pytest.raises(ConfigError, match=r"key: got a single spaCy Doc; pass a list of Docs \(\[doc\]\)"):
        evaluate(doc, [doc])
    with pytest.raises(ConfigError, match="response: expected a path or a list of spaCy Docs, got NoneType None"):
        evaluate([doc], None)
    with pytest.raises(ConfigError, match="key: item 0 is a str, not a spaCy Doc"):
        evaluate(["Ada wrote"], [doc])
    with pytest.raises(ConfigError, match="key_set must be a selector string"):
        evaluate([doc], [doc], key_set=None or 3)
    for call, message in (
            (lambda: ae.pairwise_f(None, "ents;spans:a"), "corpus: expected a path or a list of spaCy Docs, got "
                                                          "NoneType None"),
            (lambda: ae.pairwise_kappa(doc, "ents;spans:a"), "corpus: got a single spaCy Doc; pass a list of Docs"),
            (lambda: ae.pairwise_f([doc], 5), r"sets must be a list of names \(or one name as a string\), got int 5"),
            (lambda: gamma(None, sets="ents;spans:a"), "data: expected a path or a list of spaCy Docs, got NoneType"),
            (lambda: gamma([doc, "x"], sets="ents;spans:a"), "data: item 1 is a str, not a spaCy Doc"),
            (lambda: ae.corpus_from_docs(doc), "docs: got a single spaCy Doc"),
            (lambda: ae.read_corpus(None), "path: expected the path of a corpus file or folder, got NoneType"),
            (lambda: ae.align_spans(None, None), "align_spans: the key must be a SpanTable"),
            (lambda: ae.align_mentions(None, []), "key: expected a list of Mention objects"),
    ):
        with pytest.raises(ConfigError, match=message) as caught:
            call()
        assert isinstance(caught.value, AnnoEvalError)


# ---------------------------------------------------------------------------
# merging evaluations made with different settings


@pytest.mark.parametrize("setting, a, b", [("types", ["PER"], ["LOC"]), ("beta", 1.0, 0.5),
                                           ("pairing", "optimal", "gate")])
def test_merge_and_concat_refuse_mismatched_settings(setting, a, b):
    first = evaluate(DEMO_KEY, DEMO_RESPONSE, **{setting: a})
    second = evaluate(DEMO_KEY, DEMO_RESPONSE, **{setting: b})
    message = f"cannot merge evaluations made with different settings: {setting} is {a!r} in evaluation 0 but {b!r}"
    with pytest.raises(ConfigError, match=message.replace("[", r"\[").replace("]", r"\]")):
        first.merge(second)
    with pytest.raises(ConfigError, match="cannot merge evaluations made with different settings"):
        ae.Evaluation.concat([first, second])
    assert first.merge(evaluate(DEMO_KEY, DEMO_RESPONSE, **{setting: a})).report()["n_docs"] == 32
