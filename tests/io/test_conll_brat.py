"""CoNLL/BIO and brat readers on small hand-written files.

Expected entities of the scheme cases were checked against seqeval 1.2
(``get_entities`` for the default, conlleval-style decoding; ``Entities`` with
``mode="strict"`` semantics for strict decoding).
"""

from __future__ import annotations

import warnings

import pytest

from spacy_anno_eval.errors import InputError
from spacy_anno_eval.io import detect_format, read_corpus
from spacy_anno_eval.io.brat import DiscontinuousSpanWarning, read_brat
from spacy_anno_eval.io.conll import read_conll
from spacy_anno_eval.spans.engine import evaluate

# ---------------------------------------------------------------------------
# helpers


def write_tags(path, sentences, *, sep=" "):
    """One sentence per list of tags; token i of a sentence is ``w{i}``."""
    lines = []
    for tags in sentences:
        lines += [f"w{i}{sep}{tag}" for i, tag in enumerate(tags)]
        lines.append("")
    path.write_text("\n".join(lines) + "\n", encoding="utf8")
    return path


def token_spans(corpus, selector="ents"):
    """Entities as (doc, label, first token, last token), tokens counted in the document."""
    table = corpus.sets[selector]
    out = []
    for d, s, e, label in zip(table.doc, table.start, table.end, table.label_names(), strict=True):
        text = corpus.texts[int(d)]
        starts, ends, pos = {}, {}, 0
        for i, tok in enumerate(text.replace("\n", " ").split(" ")):
            starts[pos], ends[pos + len(tok)] = i, i
            pos += len(tok) + 1
        out.append((int(d), str(label), starts[int(s)], ends[int(e)]))
    return out


def decode(tmp_path, tags, **options):
    """Entities of one tag sequence as (label, first, last), like seqeval's get_entities."""
    corpus = read_conll(write_tags(tmp_path / "t.conll", [tags]), **options)
    return [(label, a, b) for _, label, a, b in token_spans(corpus)]


def error_of(call, *args, **kwargs) -> str:
    with pytest.raises(InputError) as info:
        call(*args, **kwargs)
    return str(info.value)


# ---------------------------------------------------------------------------
# schemes


def test_get_entities_reference_case(tmp_path):
    # REFERENCE 5.6: seqeval get_entities example (inclusive ends)
    tags = ["O", "O", "O", "B-MISC", "I-MISC", "I-MISC", "O", "B-PER", "I-PER"]
    assert decode(tmp_path, tags) == [("MISC", 3, 5), ("PER", 7, 8)]
    assert decode(tmp_path, tags, scheme="IOB2", strict=True) == [("MISC", 3, 5), ("PER", 7, 8)]


def test_iob1(tmp_path):
    tags = ["I-PER", "I-PER", "B-PER", "O", "I-LOC", "B-LOC", "I-ORG"]
    expected = [("PER", 0, 1), ("PER", 2, 2), ("LOC", 4, 4), ("LOC", 5, 5), ("ORG", 6, 6)]
    assert decode(tmp_path, tags, scheme="IOB1") == expected
    assert decode(tmp_path, tags, scheme="IOB1", strict=True) == expected
    # seqeval strict IOB1: I- after B- both continues the run and matches a start pattern; the scan
    # skips it (no extra entity). B- after O starts nothing in IOB1, but the I- after it does.
    tags = ["I-PER", "B-PER", "I-PER", "I-PER", "O", "B-LOC", "I-LOC"]
    assert decode(tmp_path, tags, scheme="IOB1", strict=True) == [("PER", 0, 0), ("PER", 1, 3), ("LOC", 6, 6)]
    assert decode(tmp_path, tags, scheme="IOB1") == [("PER", 0, 0), ("PER", 1, 3), ("LOC", 5, 6)]


def test_iob2_ill_formed_inside(tmp_path):
    tags = ["B-PER", "I-LOC", "O", "I-ORG", "I-ORG", "B-ORG", "I-ORG"]
    # conlleval: an I- after O or after another type starts a new chunk
    assert decode(tmp_path, tags, scheme="IOB2") == [("PER", 0, 0), ("LOC", 1, 1), ("ORG", 3, 4), ("ORG", 5, 6)]
    # seqeval strict: runs that do not begin with B- are no entity
    assert decode(tmp_path, tags, scheme="IOB2", strict=True) == [("PER", 0, 0), ("ORG", 5, 6)]


def test_ioe(tmp_path):
    tags = ["I-PER", "E-PER", "E-PER", "O", "I-LOC", "I-LOC"]
    assert decode(tmp_path, tags, scheme="IOE") == [("PER", 0, 1), ("PER", 2, 2), ("LOC", 4, 5)]
    # IOE2 strict: a chunk must close with E-
    assert decode(tmp_path, tags, scheme="IOE", strict=True) == [("PER", 0, 1), ("PER", 2, 2)]
    assert decode(tmp_path, tags, scheme="IOE2", strict=True) == [("PER", 0, 1), ("PER", 2, 2)]
    ioe1 = ["I-PER", "E-PER", "I-PER", "O", "I-LOC", "I-LOC"]
    assert decode(tmp_path, ioe1, scheme="IOE1", strict=True) == [("PER", 0, 1), ("PER", 2, 2), ("LOC", 4, 5)]


def test_iobes(tmp_path):
    tags = ["B-PER", "I-PER", "E-PER", "S-LOC", "O", "B-ORG", "E-ORG", "B-ORG", "I-ORG", "O", "I-LOC", "E-LOC"]
    assert decode(tmp_path, tags, scheme="IOBES") == [
        ("PER", 0, 2), ("LOC", 3, 3), ("ORG", 5, 6), ("ORG", 7, 8), ("LOC", 10, 11)]
    assert decode(tmp_path, tags, scheme="IOBES", strict=True) == [("PER", 0, 2), ("LOC", 3, 3), ("ORG", 5, 6)]
    assert decode(tmp_path, tags) == decode(tmp_path, tags, scheme="IOBES")  # auto = conlleval rules


def test_bilou(tmp_path):
    tags = ["B-PER", "L-PER", "U-LOC", "O", "B-ORG", "I-ORG", "L-ORG", "B-ORG", "O"]
    expected = [("PER", 0, 1), ("LOC", 2, 2), ("ORG", 4, 6), ("ORG", 7, 7)]
    assert decode(tmp_path, tags, scheme="BILOU") == expected
    assert decode(tmp_path, tags) == expected
    assert decode(tmp_path, tags, scheme="BILOU", strict=True) == expected[:3]


def test_entities_do_not_cross_sentences(tmp_path):
    corpus = read_conll(write_tags(tmp_path / "t.conll", [["O", "B-X", "I-X"], ["I-X", "O"]]))
    # no DOCSTART: each sentence is a document
    assert token_spans(corpus) == [(0, "X", 1, 2), (1, "X", 0, 0)]


def test_reference_ill_formed_inside_default_vs_strict(tmp_path):
    # REFERENCE 5.6: f1([['B-ORG','I-ORG']] vs [['I-ORG','I-ORG']]) = 1.0 default, 0.0 strict IOB2
    path = tmp_path / "pair.conll"
    path.write_text("EU B-ORG I-ORG\nCommission I-ORG I-ORG\n", encoding="utf8")
    default = evaluate(path, path, key_set="column:-2", response_set="column:-1")
    assert default.report()["micro"]["strict"]["f"] == 1.0
    strict = evaluate(path, path, key_set="column:-2", response_set="column:-1",
                      reader_options={"scheme": "IOB2", "strict": True})
    assert strict.report()["micro"]["strict"]["f"] == 0.0
    assert strict.report()["counts"]["missing"] == 1


# ---------------------------------------------------------------------------
# layout: texts, documents, comments, columns


def test_text_and_offsets_with_docstart(tmp_path):
    path = tmp_path / "d.conll"
    path.write_text(
        "-DOCSTART- -X- O\n\n"
        "Alice B-PER\nsaw O\n\nBob B-PER\nSmith I-PER\n\n"
        "-DOCSTART- -X- O\n\n"
        "Paris B-LOC\n\n",
        encoding="utf8")
    corpus = read_conll(path, selectors=("ents",), features=None)
    assert corpus.doc_ids == ["0", "1"]
    assert list(corpus.texts) == ["Alice saw\nBob Smith", "Paris"]
    table = corpus.sets["ents"]
    got = [(int(d), corpus.texts[int(d)][s:e], lab)
           for d, s, e, lab in zip(table.doc, table.start, table.end, table.label_names(), strict=True)]
    assert got == [(0, "Alice", "PER"), (0, "Bob Smith", "PER"), (1, "Paris", "LOC")]
    assert list(corpus.lengths()) == [19, 5]


def test_docstart_ids_and_leading_sentences(tmp_path):
    path = tmp_path / "d.conll"
    path.write_text("a O\n\n-DOCSTART- O\n# doc_id = second\nb B-X\n\n-DOCSTART- O\n-DOCSTART- O\nc O\n",
                    encoding="utf8")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        corpus = read_conll(path)
    # the leading sentence is a document; the empty document between two DOCSTARTs is dropped;
    # not every document has an id, so ids are positional (with a warning)
    assert list(corpus.texts) == ["a", "b", "c"]
    assert corpus.doc_ids == ["0", "1", "2"]
    assert any("positional" in str(w.message) for w in caught)


def test_docstart_doc_ids(tmp_path):
    path = tmp_path / "d.conll"
    path.write_text("-DOCSTART- O\n# doc_id = one\na O\n\n-DOCSTART- O\n# newdoc id = two\nb B-X\n",
                    encoding="utf8")
    assert read_conll(path).doc_ids == ["one", "two"]


def test_sentence_ids_comments_and_hash_tokens(tmp_path):
    path = tmp_path / "s.conll"
    path.write_text(
        "# sent_id = s1\n# text = # is a hash\n#\tO\nis\tO\na\tO\n#love\tB-product\n\n"
        "# sent_id = s2\n#love\tB-product\n#\tI-product\n",
        encoding="utf8")
    corpus = read_conll(path)
    assert corpus.doc_ids == ["s1", "s2"]
    assert list(corpus.texts) == ["# is a #love", "#love #"]
    assert token_spans(corpus) == [(0, "product", 3, 3), (1, "product", 0, 1)]


def test_repeated_sentence_ids_fall_back_to_positions(tmp_path):
    path = tmp_path / "s.conll"
    path.write_text("# id = x\na O\n\n# id = x\nb O\n", encoding="utf8")
    with pytest.warns(UserWarning, match="positional"):
        corpus = read_conll(path)
    assert corpus.doc_ids == ["0", "1"]


def test_column_selectors(tmp_path):
    path = tmp_path / "c.txt"
    path.write_text("Rockwell NNP B-NP I-NP\nCorp. NNP I-NP B-NP\n's POS B-NP B-NP\n", encoding="utf8")
    corpus = read_conll(path, selectors=("column:-2", "column:-1", "ents", "column:2"))
    assert token_spans(corpus, "column:-2") == [(0, "NP", 0, 1), (0, "NP", 2, 2)]
    assert token_spans(corpus, "column:-1") == [(0, "NP", 0, 0), (0, "NP", 1, 1), (0, "NP", 2, 2)]
    assert token_spans(corpus, "ents") == token_spans(corpus, "column:-1")
    assert token_spans(corpus, "column:2") == token_spans(corpus, "column:-2")
    # column= moves the ents layer
    assert token_spans(read_conll(path, column=2)) == token_spans(corpus, "column:-2")
    ev = evaluate(path, path, key_set="column:-2", response_set="column:-1")
    counts = ev.report()["counts"]
    # key [0-1] pairs partially with response [0]; response [1] is spurious
    assert (counts["correct"], counts["partial"], counts["missing"], counts["spurious"]) == (1, 1, 0, 1)


def test_tab_separator_token_column_and_crlf(tmp_path):
    path = tmp_path / "u.iob2"
    path.write_bytes(b"# sent_id = a-1\r\n1\tNew York\tB-LOC\t-\r\n2\tis\tO\t-\r\n\r\n")
    corpus = read_conll(path, sep="\t", token_column=1, column=2)
    assert corpus.doc_ids == ["a-1"]
    assert list(corpus.texts) == ["New York is"]
    table = corpus.sets["ents"]
    assert (int(table.start[0]), int(table.end[0])) == (0, 8)


def test_registry_reads_conll_by_suffix(tmp_path):
    path = write_tags(tmp_path / "x.bio", [["B-A", "O"]])
    assert detect_format(path) == "conll"
    corpus = read_corpus(path, selectors=("spans:sc",), scheme="IOB2")
    assert token_spans(corpus, "spans:sc") == [(0, "A", 0, 0)]


def test_ten_thousand_sentences_read_whole(tmp_path):
    path = write_tags(tmp_path / "big.conll", [["B-PER", "I-PER", "O", "B-LOC", "O"] * 3] * 10_000)
    corpus = read_conll(path)  # its time: benchmarks/bench_budgets.py
    assert len(corpus) == 10_000 and len(corpus.sets["ents"]) == 60_000


# ---------------------------------------------------------------------------
# errors: each names the file and, for a line, its number


@pytest.mark.parametrize(("tag", "scheme"), [
    ("E-PER", "IOB2"), ("S-PER", "IOB1"), ("B-PER", "IOE"), ("E-PER", "BILOU"), ("L-PER", "IOBES"),
    ("X-PER", "auto"), ("PER", "auto"), ("B-", "auto"), ("B_PER", "auto"),
])
def test_tag_not_allowed(tmp_path, tag, scheme):
    path = write_tags(tmp_path / "bad.conll", [["O", "O"], ["O", tag]])
    msg = error_of(read_conll, path, scheme=scheme)
    assert "bad.conll" in msg and "line 5" in msg and repr(tag) in msg


def test_unknown_scheme(tmp_path):
    path = write_tags(tmp_path / "x.conll", [["O"]])
    msg = error_of(read_conll, path, scheme="IOX")
    assert "x.conll" in msg and "IOX" in msg


def test_strict_needs_a_scheme(tmp_path):
    path = write_tags(tmp_path / "x.conll", [["O"]])
    assert "explicit scheme" in error_of(read_conll, path, strict=True)


def test_column_count_changes_inside_a_sentence(tmp_path):
    path = tmp_path / "cols.conll"
    path.write_text("a NN O\nb O\n\nc O\n", encoding="utf8")
    msg = error_of(read_conll, path)
    assert "cols.conll" in msg and "line 2" in msg and "columns" in msg
    # a new sentence may have a different column count
    path.write_text("a NN O\n\nb O\n", encoding="utf8")
    assert len(read_conll(path)) == 2


def test_missing_tag_column(tmp_path):
    path = tmp_path / "one.conll"
    path.write_text("\n\nalone\n", encoding="utf8")
    msg = error_of(read_conll, path)
    assert "one.conll" in msg and "line 3" in msg
    path.write_text("a O\n", encoding="utf8")
    msg = error_of(read_conll, path, selectors=("column:5",))
    assert "one.conll" in msg and "line 1" in msg and "column 5" in msg


def test_bad_column_selector(tmp_path):
    path = write_tags(tmp_path / "x.conll", [["O"]])
    assert "column:x" in error_of(read_conll, path, selectors=("column:x",))


@pytest.mark.parametrize("content", ["", "\n\n", "# only a comment\n\n# sent_id = 3\n", "-DOCSTART- O\n\n"])
def test_empty_corpus(tmp_path, content):
    path = tmp_path / "empty.conll"
    path.write_text(content, encoding="utf8")
    msg = error_of(read_conll, path)
    assert "empty.conll" in msg and "no tokens" in msg


def test_empty_token(tmp_path):
    path = tmp_path / "e.tsv"
    path.write_text("a\tO\n\tO\n", encoding="utf8")
    msg = error_of(read_conll, path, sep="\t")
    assert "e.tsv" in msg and "line 2" in msg


# ---------------------------------------------------------------------------
# brat


def write_brat(folder, name, text, ann, *, newline="\n"):
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{name}.txt").write_bytes(text.encode("utf8"))
    (folder / f"{name}.ann").write_bytes(ann.replace("\n", newline).encode("utf8"))
    return folder / f"{name}.ann"


DOC1 = "Alice met Bob in Paris.\nThey left."
ANN1 = (
    "T1\tPerson 0 5\tAlice\n"
    "T2\tPerson 10 13\tBob\n"
    "T3\tLocation 17 22\tParis\n"
    "A1\tNegated T2\n"
    "A2\tCertainty T3 Likely\n"
    "M3\tSpeculated T1\n"
    "R1\tMeets Arg1:T1 Arg2:T2\n"
    "E1\tTravel:T3 Agent:T1\n"
    "A4\tNegated E1\n"
    "N1\tReference T3 Wikipedia:22989\tParis\n"
    "#1\tAnnotatorNotes T1\tthe protagonist\n"
    "*\tAlias T1 T2\n"
)


def test_brat_spans_and_attributes(tmp_path):
    ann = write_brat(tmp_path, "doc1", DOC1, ANN1)
    corpus = read_brat(ann, selectors=("ents",), features=["Negated", "Certainty", "Speculated"])
    assert corpus.doc_ids == ["doc1"] and list(corpus.texts) == [DOC1]
    table = corpus.sets["ents"]
    assert [(int(s), int(e), lab) for s, e, lab in zip(table.start, table.end, table.label_names(), strict=True)] == [
        (0, 5, "Person"), (10, 13, "Person"), (17, 22, "Location")]
    assert table.features == [{"Speculated": True}, {"Negated": True}, {"Certainty": "Likely"}]


def test_brat_feature_selection(tmp_path):
    ann = write_brat(tmp_path, "doc1", DOC1, ANN1)
    assert read_brat(ann, features=None).sets["ents"].features is None
    only = read_brat(ann, features=["Certainty"]).sets["ents"].features
    assert only == [{}, {}, {"Certainty": "Likely"}]


def test_brat_every_selector_gets_the_layer(tmp_path):
    ann = write_brat(tmp_path, "doc1", DOC1, ANN1)
    corpus = read_brat(ann, selectors=("ents", "spans:gold"))
    assert len(corpus.sets["ents"]) == len(corpus.sets["spans:gold"]) == 3
    assert corpus.sets["ents"] is not corpus.sets["spans:gold"]


def test_brat_folder_sorted_and_evaluated(tmp_path):
    key, resp = tmp_path / "key", tmp_path / "resp"
    write_brat(key, "b", "Bob runs.", "T1\tPerson 0 3\tBob\n")
    write_brat(key, "a", "Ann runs.", "T1\tPerson 0 3\tAnn\n")
    write_brat(resp, "a", "Ann runs.", "T1\tPerson 0 3\tAnn\n")
    write_brat(resp, "b", "Bob runs.", "T1\tPerson 0 8\tBob runs\n")
    assert detect_format(key) == "brat"
    assert read_brat(key).doc_ids == ["a", "b"]
    report = evaluate(key, resp).report()
    assert (report["counts"]["correct"], report["counts"]["partial"]) == (1, 1)


def test_brat_discontinuous_span(tmp_path):
    text = "New and old York"
    ann = write_brat(tmp_path, "d", text, "T1\tCity 0 3;12 16\tNew York\n")
    with pytest.warns(DiscontinuousSpanWarning, match="1 discontinuous"):
        table = read_brat(ann).sets["ents"]
    assert (int(table.start[0]), int(table.end[0])) == (0, 16)


def test_brat_text_mismatch(tmp_path):
    ann = write_brat(tmp_path, "m", DOC1, "T1\tPerson 0 5\tAlice\nT2\tPerson 9 13\tBob\n")
    msg = error_of(read_brat, ann)
    assert "m.ann" in msg and "line 2" in msg and "[9, 13)" in msg and "' Bob'" in msg


def test_brat_crlf(tmp_path):
    # offsets count CRLF as two characters; a span across a line end shows it as a space
    text = "Hi\r\nBob Smith\r\n"
    ann = write_brat(tmp_path, "c", text, "T1\tPerson 4 13\tBob Smith\nT2\tX 0 7\tHi Bob\n", newline="\r\n")
    corpus = read_brat(ann)
    assert corpus.texts[0] == text
    table = corpus.sets["ents"]
    assert [(int(s), int(e)) for s, e in zip(table.start, table.end, strict=True)] == [(0, 7), (4, 13)]
    # offsets computed on LF text are caught, with a hint
    bad = write_brat(tmp_path / "bad", "c", text, "T1\tPerson 3 12\tBob Smith\n")
    assert "CRLF" in error_of(read_brat, bad)


@pytest.mark.parametrize(("ann", "needle"), [
    ("T1\tPerson 0 50\tAlice\n", "outside the text"),
    ("T1\tPerson 5 0\tAlice\n", "outside the text"),
    ("T1\tPerson zero 5\tAlice\n", "bad offsets"),
    ("T1\tPerson 0 5\tAlice\nA1\tNegated T9\n", "T9"),
    ("T1\tPerson 0 5\tAlice\nA1\n", "attribute line"),
    ("T1\tPerson 0 5\tAlice\nX1\tfoo\n", "unknown brat annotation id"),
    ("T1\tPerson 0 5\tAlice\nT1\tPerson 0 5\tAlice\n", "used twice"),
])
def test_brat_malformed_lines(tmp_path, ann, needle):
    path = write_brat(tmp_path, "bad", DOC1, ann)
    msg = error_of(read_brat, path)
    assert "bad.ann" in msg and "line " in msg and needle in msg


def test_brat_missing_txt(tmp_path):
    (tmp_path / "lonely.ann").write_text("T1\tPerson 0 5\tAlice\n", encoding="utf8")
    msg = error_of(read_brat, tmp_path / "lonely.ann")
    assert "lonely.txt" in msg
    empty = tmp_path / "empty"
    empty.mkdir()
    assert "no .ann" in error_of(read_brat, empty)


def test_a_txt_with_an_ann_beside_it_is_brat(tmp_path) -> None:
    from spacy_anno_eval.io import detect_format

    (tmp_path / "a.txt").write_text("Rome.", encoding="utf8")
    (tmp_path / "b.txt").write_text("Rome O\n", encoding="utf8")
    (tmp_path / "a.ann").write_text("T1\tLOC 0 4\tRome\n", encoding="utf8")
    assert detect_format(tmp_path / "a.txt") == "brat"
    assert detect_format(tmp_path / "b.txt") == "conll"
