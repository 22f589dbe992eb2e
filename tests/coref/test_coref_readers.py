"""The coreference readers of spaCy's formats (DocBin span groups, the two JSON-lines conventions) and the registry
of coreference readers, on small files built here; then CoNLL-2012 test files of the official scorer converted to
each format, which read back to the same documents and score the same."""

from __future__ import annotations

import json
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest

from spacy_anno_eval.coref import readers
from spacy_anno_eval.coref.conll2012 import CorefDocument, read_conll2012
from spacy_anno_eval.coref.documents import mention_text
from spacy_anno_eval.coref.jsonl import read_coref_jsonl, word_offsets
from spacy_anno_eval.coref.readers import (
    coref_formats,
    coref_reader_options,
    detect_coref_format,
    read_coref,
    register_coref_reader,
    unregister_coref_reader,
)
from spacy_anno_eval.coref.spacy_docs import coref_documents_from_docs, read_coref_docbin
from spacy_anno_eval.errors import ConfigError, CorefWarning, InputError
from tests.conftest import shared_file

# -- building files ----------------------------------------------------------------------------------------------


def make_doc(words, groups=None, doc_id=None, sent_starts=None):
    from spacy.tokens import Doc, Span
    from spacy.vocab import Vocab

    doc = Doc(Vocab(), words=list(words), sent_starts=sent_starts)
    if doc_id is not None:
        doc.user_data["doc_id"] = doc_id
    for key, spans in (groups or {}).items():
        doc.spans[key] = [Span(doc, s, e) for s, e in spans]
    return doc


def write_docbin(path: Path, docs) -> Path:
    from spacy.tokens import DocBin

    path.write_bytes(DocBin(store_user_data=True, docs=docs).to_bytes())
    return path


def write_jsonl(path: Path, records) -> Path:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
    return path


WORDS = ["Ada", "Lovelace", "wrote", "notes", ".", "She", "published", "them", "."]


# -- DocBin ----------------------------------------------------------------------------------------------------------


def test_docbin_span_groups_with_the_prefix_are_the_entities(tmp_path):
    first = make_doc(WORDS, {"coref_clusters_10": [(3, 4), (7, 8)], "coref_clusters_2": [(0, 2), (5, 6)],
                             "coref_clusters_3": [], "sc": [(0, 1)]}, doc_id="a")
    second = make_doc(["It", "rains", "."], {"coref_clusters_1": [(0, 1)]})
    docs = read_coref_docbin(write_docbin(tmp_path / "x.spacy", [first, second]))
    assert [d.name for d in docs] == ["a", "1"]  # user_data's id, else the position
    assert docs[0].tokens == tuple(WORDS) and docs[0].contiguous
    assert docs[0].entities == (((0, 1), (5, 5)), ((3, 3), (7, 7)))  # inclusive ends; the empty group left out
    assert docs[1].entities == (((0, 0),),)
    assert [mention_text(docs[0], m) for m in docs[0].entities[0]] == ["Ada Lovelace", "She"]


def test_docbin_folder_of_shards_counts_positions_across_shards(tmp_path):
    folder = tmp_path / "shards"
    folder.mkdir()
    write_docbin(folder / "a.spacy", [make_doc(["x"], {"coref_clusters_1": [(0, 1)]})])
    write_docbin(folder / "b.spacy", [make_doc(["y", "z"], {"coref_clusters_1": [(1, 2)]})])
    docs = read_coref(folder)
    assert [(d.name, d.entities) for d in docs] == [("0", (((0, 0),),)), ("1", (((1, 1),),))]


def test_docbin_prefix_that_names_no_group_lists_the_groups_there_are(tmp_path):
    path = write_docbin(tmp_path / "x.spacy", [make_doc(WORDS, {"coref_1": [(0, 1)], "sc": [(0, 1)]})])
    with pytest.raises(InputError, match=r"x\.spacy: no span group's name starts with 'coref_clusters'.*"
                                         r"coref_1, sc.*prefix="):
        read_coref_docbin(path)
    assert read_coref_docbin(path, prefix="coref_")[0].entities == (((0, 0),),)
    with pytest.raises(ConfigError, match="prefix"):
        read_coref_docbin(path, prefix="")


def test_docbin_span_in_two_groups_is_kept_in_the_first_with_a_warning(tmp_path):
    doc = make_doc(WORDS, {"coref_clusters_1": [(0, 2), (5, 6)], "coref_clusters_2": [(0, 2), (3, 4)]}, "d")
    with pytest.warns(CorefWarning, match=r"x\.spacy: 1 repeated mention .*document 'd', tokens \[0, 1\]"):
        docs = read_coref_docbin(write_docbin(tmp_path / "x.spacy", [doc]))
    assert docs[0].entities == (((0, 1), (5, 5)), ((3, 3),))


def test_docbin_refusals_name_the_file(tmp_path):
    empty_span = make_doc(WORDS, {"coref_clusters_1": [(2, 2)]}, "d")
    with pytest.raises(InputError, match=r"x\.spacy, document 'd', span group 'coref_clusters_1'\[0\]: an empty"):
        read_coref_docbin(write_docbin(tmp_path / "x.spacy", [empty_span]))
    twice = [make_doc(["a"], {"coref_clusters_1": [(0, 1)]}, "d"), make_doc(["b"], {}, "d")]
    with pytest.raises(InputError, match="documents 0 and 1 have the same id"):
        read_coref_docbin(write_docbin(tmp_path / "y.spacy", twice))
    with pytest.raises(InputError, match=r"z\.spacy: nothing to compare: the DocBin holds no documents"):
        read_coref_docbin(write_docbin(tmp_path / "z.spacy", []))
    (tmp_path / "bad.spacy").write_bytes(b"not a docbin at all")
    with pytest.raises(InputError, match=r"bad\.spacy: not a spaCy DocBin"):
        read_coref_docbin(tmp_path / "bad.spacy")


def test_docs_in_memory_are_read_as_a_docbin_s():
    docs = coref_documents_from_docs([make_doc(WORDS, {"coref_clusters_1": [(0, 2), (5, 6)]},
                                               sent_starts=[i in (0, 5) for i in range(len(WORDS))])])
    assert docs[0].entities == (((0, 1), (5, 5)),) and docs[0].sentences == ((0, "1"), (5, "2"))
    with pytest.raises(InputError, match="the Docs: no span group's name starts with 'x'"):
        coref_documents_from_docs([make_doc(WORDS)], prefix="x")
    with pytest.raises(InputError, match="nothing to compare"):
        coref_documents_from_docs([])


# -- JSON lines ------------------------------------------------------------------------------------------------------


def test_jsonl_e2e_coref_records_count_tokens_across_sentences_end_inclusive(tmp_path):
    path = write_jsonl(tmp_path / "k.jsonlines", [
        {"doc_key": "bc/0", "sentences": [WORDS[:5], WORDS[5:]], "speakers": [["a"] * 5, ["a"] * 4],
         "clusters": [[[5, 5], [0, 1]], [[3, 3], [7, 7]]]},
        {"tokens": ["It", "rains"], "clusters": []},
    ])
    docs = read_coref_jsonl(path)
    assert [d.name for d in docs] == ["bc/0", "1"]
    assert docs[0].tokens == tuple(WORDS) and docs[0].sentences == ((0, "1"), (5, "2"))
    assert docs[0].entities == (((0, 1), (5, 5)), ((3, 3), (7, 7)))
    assert docs[1].tokens == ("It", "rains") and docs[1].entities == ()
    assert mention_text(docs[0], (0, 1)) == "Ada Lovelace"


def test_jsonl_text_records_are_read_in_words_with_exact_text(tmp_path):
    text = "Obama's wife met him. She smiled."
    obama, wife, him, she = [0, 5], [0, 12], [17, 20], [22, 25]
    path = write_jsonl(tmp_path / "k.jsonl", [{"id": 7, "text": text, "clusters": [[obama, him], [wife, she]]},
                                              {"text": "Nothing here.", "clusters": []}])
    docs = read_coref_jsonl(path)
    assert [d.name for d in docs] == ["7", "1"]
    assert docs[0].tokens[:4] == ("Obama", "'", "s", "wife")
    assert docs[0].entities == (((0, 0), (5, 5)), ((0, 3), (7, 7)))
    assert [mention_text(docs[0], m) for m in docs[0].entities[1]] == ["Obama's wife", "She"]


def test_jsonl_mention_inside_a_word_is_widened_alike_on_both_sides(tmp_path):
    text = "NYC is big. NY is big."
    key = write_jsonl(tmp_path / "key.jsonl", [{"text": text, "clusters": [[[0, 2], [12, 14]]]}])
    response = write_jsonl(tmp_path / "response.jsonl", [{"text": text, "clusters": [[[0, 3], [12, 14]]]}])
    with pytest.warns(CorefWarning, match=r"key\.jsonl: 1 mention began or ended inside a word .*'NY' read as "
                                          r"'NYC'"):
        k = read_coref_jsonl(key)
    r = read_coref_jsonl(response)
    assert k[0].entities == r[0].entities == (((0, 0), (4, 4)),) and k[0].tokens == r[0].tokens


def test_words_of_scripts_without_spaces_and_with_combining_marks():
    text = "北京大学 in हिन्दी, cafe\u0301!"
    assert [text[s:e] for s, e in word_offsets(text)] == ["北", "京", "大", "学", "in", "हिन्दी", ",",
                                                          "cafe\u0301", "!"]


def test_jsonl_mention_listed_twice_is_kept_once_in_the_first_cluster(tmp_path):
    path = write_jsonl(tmp_path / "k.jsonl", [{"doc_key": "d", "sentences": [WORDS],
                                               "clusters": [[[0, 1], [5, 5]], [[5, 5], [7, 7]], [[0, 1]]]}])
    with pytest.warns(CorefWarning, match=r"k\.jsonl: 2 repeated mentions .*line 1, document 'd', tokens \[5, 5\]"):
        docs = read_coref_jsonl(path)
    assert docs[0].entities == (((0, 1), (5, 5)), ((7, 7),))


@pytest.mark.parametrize(("record", "message"), [
    ({"doc_key": "d", "sentences": [WORDS], "clusters": [[[0, 9]]]},
     r"document 'd', \"clusters\"\[0\]\[0\]: the mention \[0, 9\] is out of range for a document of 9 "
     r"tokens"),
    ({"doc_key": "d", "sentences": [WORDS], "clusters": [[[3, 2]]]}, r"\[3, 2\] has start > end"),
    ({"id": "d", "text": "abc", "clusters": [[[0, 4]]]}, r"out of range for a text of 3 characters"),
    ({"id": "d", "text": "abc", "clusters": [[[2, 1]]]}, r"start > end"),
    ({"id": "d", "text": "abc", "clusters": [[[1, 1]]]}, r"start == end"),
    ({"id": "d", "text": "a  b", "clusters": [[[1, 3]]]}, r"covers only spaces"),
    ({"id": "d", "text": "abc", "clusters": [[[0, 1.5]]]}, r"\"clusters\"\[0\]\[0\]: a mention is \[start, end\], "
                                                           r"two integers"),
    ({"id": "d", "text": "abc", "clusters": [5]}, r"\"clusters\"\[0\]: a cluster is a list"),
    ({"id": "d", "text": "abc", "clusters": {"a": 1}}, r"\"clusters\": expected a list of clusters"),
    ({"id": "d", "clusters": []}, r"document 'd': the record has neither \"sentences\".* nor \"text\""),
    ({"id": "d", "text": 3, "clusters": []}, r"\"text\": the document text must be a string"),
    ({"doc_key": "d", "sentences": [["a", 1]], "clusters": []}, r"\"sentences\"\[0\]\[1\]: a token must be a "
                                                                r"string"),
    ({"doc_key": ["d"], "sentences": [], "clusters": []}, r"\"doc_key\": the document's name must be a string"),
])
def test_jsonl_refusals_name_file_line_document_and_field(tmp_path, record, message):
    with pytest.raises(InputError, match=r"k\.jsonl, line 1, .*" + message):
        read_coref_jsonl(write_jsonl(tmp_path / "k.jsonl", [record]))


def test_jsonl_refusals_of_the_whole_file(tmp_path):
    two = [{"id": "d", "text": "a", "clusters": []}, {"doc_key": "d", "sentences": [["b"]], "clusters": []}]
    with pytest.raises(InputError, match=r"k\.jsonl, line 2, document 'd': a second document named 'd' \(the "
                                         r"first is on line 1\)"):
        read_coref_jsonl(write_jsonl(tmp_path / "k.jsonl", two))
    (tmp_path / "bad.jsonl").write_text('{"id": "d", "text": "a", "clusters": []}\n{"id": \n', encoding="utf-8")
    with pytest.raises(InputError, match=r"bad\.jsonl, line 2: invalid JSON"):
        read_coref_jsonl(tmp_path / "bad.jsonl")
    (tmp_path / "list.jsonl").write_text("[1, 2]\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"list\.jsonl, line 1: expected a JSON object"):
        read_coref_jsonl(tmp_path / "list.jsonl")
    (tmp_path / "blank.jsonl").write_text("\n\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"blank\.jsonl: nothing to compare: no records"):
        read_coref_jsonl(tmp_path / "blank.jsonl")


def test_jsonl_clusters_field_names_the_field_and_a_missing_one_is_refused(tmp_path):
    path = write_jsonl(tmp_path / "pred.jsonl", [{"doc_key": "d", "sentences": [WORDS], "clusters": [[[0, 1]]],
                                                  "predicted_clusters": [[[5, 5], [0, 1]]]}])
    with pytest.warns(CorefWarning, match="clusters_field='predicted_clusters' to read the predictions"):
        assert read_coref_jsonl(path)[0].entities == (((0, 1),),)
    assert read_coref_jsonl(path, clusters_field="predicted_clusters")[0].entities == (((0, 1), (5, 5)),)
    with pytest.raises(InputError, match=r"no record has the field 'nosuch' \(the records' fields: clusters, "
                                         r"doc_key, predicted_clusters, sentences\)"):
        read_coref_jsonl(path, clusters_field="nosuch")
    with pytest.raises(ConfigError, match="clusters_field"):
        read_coref_jsonl(path, clusters_field="")


# -- the registry ----------------------------------------------------------------------------------------------------


def test_the_registry_lists_the_built_in_readers():
    assert {"conll2012", "corefud", "docbin", "jsonl"} <= set(coref_formats())
    assert coref_reader_options("jsonl") == ("encoding", "clusters_field")
    assert coref_reader_options("docbin") == ("prefix", "encoding")


@pytest.mark.parametrize(("name", "data", "expected"), [
    ("a.v4_gold_conll", b"", "conll2012"),
    ("a.conll", b"", "conll2012"),
    ("TC-A.key", b"#begin document (x);\n", "conll2012"),
    ("a.conllu", b"", "corefud"),
    ("a.txt", b"# newdoc id = d\n", "corefud"),
    ("a.spacy", b"", "docbin"),
    ("a.bin", b"x\x9c\x01", "docbin"),
    ("a.jsonl", b"", "jsonl"),
    ("a.jsonlines", b"", "jsonl"),
    ("a.json", b'\n{"doc_key": "d", "sentences": []}\n', "jsonl"),
])
def test_the_format_is_told_by_suffix_then_first_line(tmp_path, name, data, expected):
    (tmp_path / name).write_bytes(data)
    assert detect_coref_format(tmp_path / name) == expected


def test_an_untold_format_an_unknown_name_and_an_unknown_option_are_refused_naming_what_exists(tmp_path):
    (tmp_path / "a.txt").write_text("hello\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"a\.txt: cannot tell the coreference format.*conll2012.*jsonl "
                                         r"\(\.jsonl \.jsonlines\)"):
        read_coref(tmp_path / "a.txt")
    with pytest.raises(ConfigError, match="unknown coreference format 'conll': use one of conll2012, corefud, docbin"):
        read_coref(tmp_path / "a.txt", "conll")
    with pytest.raises(ConfigError, match=r"the jsonl coreference reader takes no option 'prefix'; it takes "
                                          r"encoding, clusters_field"):
        read_coref(tmp_path / "a.txt", "jsonl", prefix="x")
    with pytest.raises(InputError, match=r"nosuch\.jsonl: no such file or folder"):
        read_coref(tmp_path / "nosuch.jsonl")
    with pytest.raises(ConfigError, match="path"):
        read_coref(None)  # type: ignore[arg-type]
    (tmp_path / "empty").mkdir()
    with pytest.raises(InputError, match="a folder holding no file"):
        read_coref(tmp_path / "empty")


def test_options_reach_the_reader(tmp_path):
    path = write_docbin(tmp_path / "x.spacy", [make_doc(WORDS, {"mine_1": [(0, 2)]})])
    assert read_coref(path, prefix="mine_")[0].entities == (((0, 1),),)
    latin = tmp_path / "k.v4_gold_conll"
    latin.write_bytes("#begin document (d);\nd\t0\t0\tCaf\xe9\t(1)\n#end document\n".encode("latin-1"))
    assert read_coref(latin, encoding="latin-1")[0].tokens == ("Café",)


@pytest.fixture
def plugin():
    seen = []

    @register_coref_reader("toy", suffixes=(".toy",))
    def read_toy(path, encoding="utf-8"):
        from spacy_anno_eval.io.parse import read_text

        seen.append(Path(path).name)
        words = read_text(path, encoding).split()
        return [CorefDocument("toy", tuple(words), (((0, len(words) - 1),),))] if words else []

    yield seen
    unregister_coref_reader("toy")


def test_a_registered_plugin_is_listed_detected_and_read(tmp_path, plugin):
    path = tmp_path / "a.toy"
    path.write_text("a b c", encoding="utf-8")
    assert "toy" in coref_formats() and detect_coref_format(path) == "toy"
    assert read_coref(path)[0].entities == (((0, 2),),) and read_coref(path, "toy")[0].tokens == ("a", "b", "c")
    assert plugin == ["a.toy", "a.toy"]
    with pytest.raises(ConfigError, match="the toy coreference reader takes no option 'prefix'; it takes encoding"):
        read_coref(path, prefix="x")
    (tmp_path / "empty.toy").write_text("", encoding="utf-8")
    with pytest.raises(InputError, match=r"empty\.toy: nothing to compare: no documents \(read as toy\)"):
        read_coref(tmp_path / "empty.toy")


def test_a_plugin_replaces_a_built_in_reader_of_its_name_until_removed(tmp_path):
    register_coref_reader("jsonl", suffixes=(".jsonl",))(lambda path, **options: [CorefDocument("p", ("x",), ())])
    try:
        path = write_jsonl(tmp_path / "a.jsonl", [{"text": "a", "clusters": []}])
        assert read_coref(path)[0].name == "p" and coref_reader_options("jsonl") is None
    finally:
        unregister_coref_reader("jsonl")
    assert read_coref(path)[0].name == "0"


@pytest.fixture
def entry_points(monkeypatch):
    """Entry points of the group, as installed packages would declare them (the registry rediscovers them)."""
    import importlib.metadata

    found: list[EntryPoint] = []
    real = importlib.metadata.entry_points

    def fake(**kwargs):
        return found if kwargs.get("group") == readers.GROUP else real(**kwargs)

    monkeypatch.setattr(importlib.metadata, "entry_points", fake)
    monkeypatch.setattr(readers.REGISTRY, "discovered", False)
    monkeypatch.setattr(readers.REGISTRY, "entry", {})
    monkeypatch.setattr(readers.REGISTRY, "plugins", {})
    return found


def test_entry_point_plugins_load_lazily_and_a_broken_one_is_named(tmp_path, entry_points):
    entry_points.append(EntryPoint("lines", "spacy_anno_eval.coref.jsonl:read_coref_jsonl", readers.GROUP))
    entry_points.append(EntryPoint("broken", "no_such_module_for_coref:read", readers.GROUP))
    assert {"lines", "broken"} <= set(coref_formats())  # listed without loading either
    assert readers.REGISTRY.plugins == {}
    path = write_jsonl(tmp_path / "a.data", [{"text": "a b", "clusters": [[[0, 1]]]}])
    assert read_coref(path, "lines")[0].entities == (((0, 0),),)
    with pytest.raises(ConfigError, match=r"the coreference reader plugin 'broken' \(entry point broken = "
                                          r"no_such_module_for_coref:read .*cannot be loaded \(ModuleNotFoundError"):
        read_coref(path, "broken")
    with pytest.raises(ConfigError, match="plugin 'broken'"):
        detect_coref_format(path)  # its suffixes cannot be known
    assert read_coref(path, "jsonl")[0].name == "0"  # a named built-in needs no plugin


# -- CoNLL-2012 converted to each format -------------------------------------------------------------------------


def to_docbin(docs, path):
    return write_docbin(path, [make_doc(d.tokens, {f"coref_clusters_{n}": [(s, e + 1) for s, e in entity]
                                                   for n, entity in enumerate(d.entities, 1)}, d.name,
                                        [any(i == s for s, _ in d.sentences) for i in range(len(d.tokens))])
                               for d in docs])


def to_jsonlines(docs, path):
    def sentences(d):
        bounds = [s for s, _ in d.sentences] + [len(d.tokens)]
        return [list(d.tokens[a:b]) for a, b in zip(bounds, bounds[1:], strict=False)]

    return write_jsonl(path, [{"doc_key": d.name, "sentences": sentences(d),
                               "clusters": [[list(m) for m in e] for e in d.entities]} for d in docs])


def to_text_jsonl(docs, path):
    records = []
    for d in docs:
        starts, at = [], 0
        for token in d.tokens:
            starts.append(at)
            at += len(token) + 1
        records.append({"id": d.name, "text": " ".join(d.tokens),
                        "clusters": [[[starts[s], starts[e] + len(d.tokens[e])] for s, e in e_] for e_ in d.entities]})
    return write_jsonl(path, records)


CONVERSIONS = {"docbin": (to_docbin, ".spacy"), "jsonlines": (to_jsonlines, ".jsonlines"),
               "text": (to_text_jsonl, ".jsonl")}


@pytest.mark.parametrize("conversion", CONVERSIONS)
def test_conll2012_key_converted_reads_back_to_the_same_documents(tmp_path, conversion):
    key = read_conll2012(shared_file("coreference", "conll2012", "DataFiles", "TC-A.key"))
    convert, suffix = CONVERSIONS[conversion]
    docs = read_coref(convert(key, tmp_path / f"key{suffix}"))
    assert [(d.name, d.tokens, d.entities) for d in docs] == [(d.name, d.tokens, d.entities) for d in key]
    if conversion != "text":
        assert [d.sentences for d in docs] == [d.sentences for d in key]


@pytest.mark.parametrize("conversion", CONVERSIONS)
def test_a_converted_key_and_response_score_as_the_originals(tmp_path, conversion):
    from spacy_anno_eval.coref.metrics import score_documents

    folder = ("coreference", "conll2012", "DataFiles")
    key, response = (read_conll2012(shared_file(*folder, f)) for f in ("TC-A.key", "TC-A-1.response"))
    convert, suffix = CONVERSIONS[conversion]
    converted = [read_coref(convert(docs, tmp_path / f"{n}{suffix}")) for n, docs in (("k", key), ("r", response))]
    assert score_documents(*converted).to_dict() == score_documents(key, response).to_dict()
