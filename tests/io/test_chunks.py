"""Reading one JSONL or CoNLL file in chunks of whole documents (``spacy_anno_eval.io.chunks``).

The property every test comes back to: the chunks' documents put back
together (texts, spans, labels, features), with :func:`global_doc_ids`, are
exactly what the whole-file reader gives, and so are its errors and warnings.
"""

from __future__ import annotations

import json
import pickle
import random
import warnings
from pathlib import Path
from typing import Any

import pytest
import spacy
from spacy.tokens import Doc, DocBin, Span

from spacy_anno_eval.errors import InputError
from spacy_anno_eval.io import chunks as chunks_module
from spacy_anno_eval.io.chunks import CHUNKABLE, Chunk, global_doc_ids, plan_chunks, read_chunk
from spacy_anno_eval.io.conll import document_ids, read_conll
from spacy_anno_eval.io.docbin import read_docbin
from spacy_anno_eval.io.jsonl import read_jsonl

SIZES = (1, 2, 3, 7, 10**6)
WORDS = ["Apple", "buys", "a", "UK", "startup", "Zürich", "naïve", "for", "$1", "billion", "#tag"]

# ---------------------------------------------------------------------------
# comparing a chunked read with a whole-file read


def documents(corpus) -> list[tuple[str, list[tuple]]]:
    """Each document's text and its spans (start, end, label, features), in order."""
    table = corpus.get_set("ents")
    labels = table.label_names()
    spans: list[list[tuple]] = [[] for _ in range(len(corpus))]
    for i in range(len(table)):
        feats = table.features[i] if table.features is not None else {}
        spans[int(table.doc[i])].append((int(table.start[i]), int(table.end[i]), labels[i], sorted(feats.items())))
    assert list(corpus.lengths()) == [len(t) for t in corpus.texts]
    return list(zip(list(corpus.texts), spans, strict=True))


def outcome(read) -> tuple[Any, list[str]]:
    """``("ok", documents, ids)`` or ``("error", message)``, and the warnings raised."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = read()
        except InputError as err:
            result = ("error", str(err))
    return result, [str(w.message) for w in caught]


def whole(path: Path, fmt: str, options: dict) -> tuple[Any, list[str]]:
    reader = read_jsonl if fmt == "jsonl" else read_conll

    def read():
        corpus = reader(path, **options)
        return "ok", documents(corpus), corpus.doc_ids

    return outcome(read)


def chunked(path: Path, fmt: str, options: dict, size: int) -> tuple[tuple[Any, list[str]], list[Chunk]]:
    plan = plan_chunks(path, fmt, size, **options)
    check_plan(plan, path, fmt)

    def read():
        parts = [read_chunk(chunk, **options) for chunk in plan]
        for corpus, found in parts:
            check_local_ids(corpus, found, fmt)
        docs = [d for corpus, _ in parts for d in documents(corpus)]
        return "ok", docs, global_doc_ids([found for _, found in parts], fmt, str(path))

    return outcome(read), plan


def check_plan(plan: list[Chunk], path: Path, fmt: str) -> None:
    """Chunks cover the file in order, back to back."""
    assert plan[0].start == 0 and plan[0].first_line == 1 and plan[-1].end is None
    for i, (a, b) in enumerate(zip(plan, plan[1:] + [None], strict=True)):
        assert a.index == i and a.path == str(path) and a.fmt == fmt
        if b is not None:
            assert a.end == b.start and a.start < a.end and a.first_line < b.first_line


def check_local_ids(corpus, found: list, fmt: str) -> None:
    """A chunk's own ids: the reader's rules within the chunk, positions from 0."""
    if fmt == "jsonl":
        assert corpus.doc_ids == [str(i) if f is None else f for i, f in enumerate(found)]
    else:
        assert corpus.doc_ids == document_ids(found, warn=False)


def assert_same(path: Path, fmt: str, options: dict, sizes=SIZES) -> None:
    expected = whole(path, fmt, options)
    for size in sizes:
        got, plan = chunked(path, fmt, options, size)
        assert got == expected, f"docs_per_chunk={size}, {len(plan)} chunks"
    return expected


# ---------------------------------------------------------------------------
# random files


def text_and_spans(rng: random.Random, entities: bool) -> dict:
    text = " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 8)))
    spans = []
    for _ in range(rng.randint(0, 3)):
        start = rng.randrange(len(text))
        end = rng.randint(start + 1, len(text))
        label = rng.choice(["ORG", "GPE", "MONEY"])
        if entities:
            spans.append([start, end, label])
            continue
        span = {"start": start, "end": end, "label": label}
        if rng.random() < 0.4:
            span["kb_id"] = f"Q{rng.randint(1, 99)}"
        if rng.random() < 0.3:
            span["features"] = {"conf": rng.choice([0.5, 0.9]), "kb_id": "nested"}
        spans.append(span)
    return {"text": text, "entities" if entities else "spans": spans}


def jsonl_record(rng: random.Random, i: int, id_mode: str) -> dict:
    record = text_and_spans(rng, entities=rng.random() < 0.2)
    if id_mode == "all" or (id_mode == "mixed" and rng.random() < 0.5):
        kind = rng.choice(["meta", "id", "hash"])
        if kind == "meta":
            record["meta"] = {"id": f"doc-{i}"}
        elif kind == "id":
            record["id"] = i * 10
        else:
            record["_input_hash"] = rng.randint(-(2**31), 2**31)
    if rng.random() < 0.25:
        record["answer"] = rng.choice(["accept", "reject", "ignore"])
    return record


def random_jsonl(rng: random.Random, path: Path) -> tuple[dict, bool]:
    """A JSONL file with ids or not, Prodigy answers, blank lines, CRLF / lone CR ends, a BOM.

    Returns the reader options and whether the plan's document count must be exact.
    """
    id_mode = rng.choice(["none", "all", "mixed"])
    lone_cr = rng.random() < 0.2
    ends = ["\n"] * 6 + ["\r\n"] * 3 + (["\r"] if lone_cr else [])
    lines = []
    for i in range(rng.randint(0, 25)):
        lines.append(json.dumps(jsonl_record(rng, i, id_mode), ensure_ascii=rng.random() < 0.5))
        while rng.random() < 0.15:
            lines.append(rng.choice(["", "  ", "\t"]))
    if lines and rng.random() < 0.1:  # an error: errors are found line by line, in file order
        lines.insert(rng.randrange(len(lines)), rng.choice(['{"text": "cut', "[1, 2]"]))
    text = "".join(line + rng.choice(ends) for line in lines)
    if rng.random() < 0.2:
        text = text.rstrip("\r\n")  # no line end after the last line
    bom = rng.random() < 0.15
    path.write_bytes((b"\xef\xbb\xbf" if bom else b"") + text.encode("utf-8"))
    skip = rng.random() < 0.7
    options = {"features": ("kb_id", "conf"), "skip_rejected": skip, "encoding": "utf-8-sig" if bom else "utf-8"}
    return options, not skip and not lone_cr and (not bom or bool(lines))


class ConllWriter:
    """Random CoNLL lines: sentences, comments, -DOCSTART- segments, ids, blank runs."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.sep = rng.choice([None, None, "\t"])
        self.join = " " if self.sep is None else "\t"
        self.n_cols = rng.choice([2, 3])
        self.id_mode = rng.choice(["none", "unique", "some missing", "repeated"])
        self.lines: list[str] = []
        self.n_ids = 0

    def doc_id(self) -> str | None:
        mode, rng = self.id_mode, self.rng
        if mode == "none" or (mode == "some missing" and rng.random() < 0.3):
            return None
        self.n_ids += 1
        if mode == "repeated" and self.n_ids > 2 and rng.random() < 0.3:
            return f"id{rng.randint(1, self.n_ids - 1)}"
        return f"id{self.n_ids}"

    def blank(self) -> None:
        for _ in range(self.rng.choice([1, 1, 1, 2, 3])):
            self.lines.append(self.rng.choice(["", "", " ", "\t", "\u00a0"]))  # str.split(): NBSP is blank

    def token(self, word: str, tag: str) -> str:
        fields = [word] + (["X"] if self.n_cols == 3 else []) + [tag]
        indent = "  " if self.rng.random() < 0.05 else ""
        return indent + self.join.join(fields)

    def sentence(self, sent_ids: bool) -> None:
        rng = self.rng
        if sent_ids and (sid := self.doc_id()) is not None:
            self.lines.append(f"# sent_id = {sid}")
        if rng.random() < 0.2:
            self.lines.append("# text = some text")
        for i in range(rng.randint(1, 5)):
            word = "#" if i and rng.random() < 0.1 else rng.choice(WORDS)
            self.lines.append(self.token(word, rng.choice(["O", "O", "B-PER", "I-PER", "B-LOC", "I-ORG"])))
        if rng.random() < 0.1:  # a comment between blank lines: its id goes to the next sentence
            self.blank()
            self.lines.append("# sent_id = floating" if sent_ids and rng.random() < 0.5 else "# note")
        self.blank()

    def docstart(self) -> None:
        rng = self.rng
        filled = [line.strip() for line in self.lines if line.strip()]
        if filled and not filled[-1].startswith(("#", "-DOCSTART-")) and rng.random() < 0.3:
            # right after a token line: a -DOCSTART- with the sentence's column count
            while not self.lines[-1].strip():
                self.lines.pop()
            self.lines.append(self.join.join(["-DOCSTART-"] + ["O"] * (self.n_cols - 1)))
        else:
            self.lines.append(rng.choice(["-DOCSTART- -X- O", "-DOCSTART-"]).replace(" ", self.join))
        if (did := self.doc_id()) is not None:
            self.lines.append(f"# doc_id = {did}")
        if rng.random() > 0.3:
            self.blank()


def random_conll(rng: random.Random, path: Path) -> dict:
    """A CoNLL file with or without -DOCSTART-, sentences before it, ids, CRLF, a BOM, trailing lines."""
    w = ConllWriter(rng)
    if rng.random() < 0.3:
        w.blank()
    if rng.random() < 0.5:  # -DOCSTART- segments
        for _ in range(rng.randint(0, 3) if rng.random() < 0.4 else 0):
            w.sentence(sent_ids=False)
        for _ in range(rng.randint(0, 8)):
            w.docstart()
            for _ in range(rng.randint(0, 3)):
                w.sentence(sent_ids=False)
    else:
        for _ in range(rng.randint(0, 15)):
            w.sentence(sent_ids=True)
    if rng.random() < 0.2:
        w.lines.append("# the end")
    ends = rng.choice([["\n"], ["\r\n"], ["\n", "\r\n"], ["\n", "\n", "\r"]])
    text = "".join(line + rng.choice(ends) for line in w.lines)
    if rng.random() < 0.2:
        text = text.rstrip("\r\n")
    bom = b"\xef\xbb\xbf" if rng.random() < 0.15 else b""
    path.write_bytes(bom + text.encode("utf-8"))
    options: dict[str, Any] = {"sep": w.sep} if w.sep else {}
    if rng.random() < 0.3:
        options.update(scheme="IOB2", strict=True)
    return options


# ---------------------------------------------------------------------------
# the property: chunks put back together == the whole file


@pytest.mark.parametrize("seed", range(80))
def test_jsonl_chunks_equal_the_whole_file(tmp_path, seed):
    rng = random.Random(seed)
    path = tmp_path / "f.jsonl"
    options, exact_count = random_jsonl(rng, path)
    (status, *rest), _ = assert_same(path, "jsonl", options)
    if status == "ok" and exact_count:
        for size in SIZES:
            assert sum(c.n_docs for c in plan_chunks(path, "jsonl", size, **options)) == len(rest[0])


@pytest.mark.parametrize("seed", range(120))
def test_conll_chunks_equal_the_whole_file(tmp_path, seed):
    rng = random.Random(1000 + seed)
    path = tmp_path / "f.conll"
    options = random_conll(rng, path)
    (status, *rest), _ = assert_same(path, "conll", options)
    if status == "ok":
        for size in SIZES:
            plan = plan_chunks(path, "conll", size, **options)
            assert sum(c.n_docs for c in plan) == len(rest[0])
            assert all(c.n_docs >= min(size, len(rest[0])) for c in plan[:-1])


@pytest.mark.parametrize("seed", range(40))
def test_chunks_equal_the_whole_file_when_lines_cross_read_blocks(tmp_path, monkeypatch, seed):
    """Planning reads 7 bytes at a time: lines longer than a block, a CRLF split between two reads."""
    monkeypatch.setattr(chunks_module, "_BLOCK", 7)
    jsonl, conll = tmp_path / "f.jsonl", tmp_path / "f.conll"
    options, _ = random_jsonl(random.Random(seed), jsonl)
    assert_same(jsonl, "jsonl", options, sizes=(1, 3))
    options = random_conll(random.Random(1000 + seed), conll)
    assert_same(conll, "conll", options, sizes=(1, 3))


def test_the_random_files_cover_the_cases(tmp_path):
    """The generators do make the awkward cases (and whole files that read without error)."""
    seen: dict[str, int] = {}
    for seed in range(120):
        path = tmp_path / f"{seed}.conll"
        options = random_conll(random.Random(1000 + seed), path)
        data = path.read_bytes()
        (status, *rest), warned = whole(path, "conll", options)
        for case, hit in {
            "ok": status == "ok", "docstart": b"-DOCSTART-" in data, "crlf": b"\r\n" in data,
            "bom": data.startswith(b"\xef\xbb\xbf"), "warned": bool(warned),
            "comment ids": status == "ok" and any(not i.isdigit() for i in rest[1]),
            "several chunks by sentence": b"-DOCSTART-" not in data and len(plan_chunks(path, "conll", 2)) > 2,
            "several chunks by docstart": b"-DOCSTART-" in data and len(plan_chunks(path, "conll", 2)) > 2,
        }.items():
            seen[case] = seen.get(case, 0) + hit
    assert all(n >= 3 for n in seen.values()), seen


# ---------------------------------------------------------------------------
# CoNLL cases chosen by hand


def write(path: Path, text: str) -> Path:
    path.write_bytes(text.encode("utf-8"))
    return path


def test_conll_sentences_before_the_first_docstart_stay_one_document(tmp_path):
    path = write(tmp_path / "f.conll", "a O\n\nb O\n\n-DOCSTART- O\n\nc O\n\n-DOCSTART- O\n\nd O\n\ne O\n")
    (status, docs, ids), _ = assert_same(path, "conll", {})
    assert [text for text, _ in docs] == ["a\nb", "c", "d\ne"]
    assert [c.n_docs for c in plan_chunks(path, "conll", 1)] == [2, 1]  # never cut before the first -DOCSTART-


def test_conll_comment_ids_stay_with_their_sentence(tmp_path):
    text = "# sent_id = a\nx O\n\n# sent_id = b\n# text = y\ny O\n\n\n# sent_id = c\nz B-X\n"
    path = write(tmp_path / "f.conll", text)
    plan = plan_chunks(path, "conll", 1)
    assert [c.first_line for c in plan] == [1, 4, 9]
    (status, docs, ids), _ = assert_same(path, "conll", {})
    assert ids == ["a", "b", "c"]


def test_conll_an_id_comment_between_blank_lines_is_not_cut_off(tmp_path):
    """``# sent_id`` followed by a blank line still names the next sentence: no cut after a comment."""
    path = write(tmp_path / "f.conll", "x O\n\n# sent_id = s2\n\n# note\ny O\n\nz O\n")
    assert [c.first_line for c in plan_chunks(path, "conll", 1)] == [1, 3, 8]  # not 5
    (status, docs, ids), warned = assert_same(path, "conll", {})
    assert ids == ["0", "1", "2"] and warned and "positional" in warned[0]


def test_conll_ids_repeated_in_different_chunks_become_positional_with_the_same_warning(tmp_path):
    path = write(tmp_path / "f.conll", "# sent_id = a\nx O\n\n# sent_id = b\ny O\n\n# sent_id = a\nz O\n")
    plan = plan_chunks(path, "conll", 1)
    assert len(plan) == 3
    parts = [read_chunk(c) for c in plan]
    assert [corpus.doc_ids for corpus, _ in parts] == [["a"], ["b"], ["a"]]  # each chunk alone is fine
    with pytest.warns(UserWarning, match="missing or repeated") as got:
        ids = global_doc_ids([found for _, found in parts], "conll", str(path))
    assert ids == ["0", "1", "2"]
    with pytest.warns(UserWarning) as expected:
        read_conll(path)
    assert [str(w.message) for w in got] == [str(w.message) for w in expected]


def test_conll_docstart_after_a_token_line_with_another_column_count_is_the_same_error(tmp_path):
    """No cut right before a -DOCSTART- inside a sentence: the column-count error must not be lost."""
    path = write(tmp_path / "f.conll", "-DOCSTART- O\n\na O\n\n-DOCSTART- O\n\nb O\nc O\n-DOCSTART- -X- O\n\nd O\n")
    (status, message), _ = assert_same(path, "conll", {})
    assert status == "error" and "f.conll, line 9: 3 columns" in message


def test_conll_trailing_comments_and_empty_docstart_segments_make_no_empty_chunk(tmp_path):
    path = write(tmp_path / "f.conll", "-DOCSTART-\n\na O\n\n-DOCSTART-\n\n-DOCSTART-\n\n# only a comment\n\n")
    (status, docs, ids), _ = assert_same(path, "conll", {})
    assert status == "ok" and len(plan_chunks(path, "conll", 1)) == 1


def test_conll_hash_line_inside_a_sentence_is_a_token_and_a_cut_may_follow(tmp_path):
    """``# note here`` is a comment at a sentence head but a token inside a sentence (whose tag is bad)."""
    path = write(tmp_path / "f.conll", "a X O\n# note here\n\nb X O\n\n# note here\nc X O\n")
    assert [c.first_line for c in plan_chunks(path, "conll", 1)] == [1, 4, 6]
    (status, message), _ = assert_same(path, "conll", {})
    assert "f.conll, line 2: tag 'here'" in message


def test_conll_with_a_tab_separator_and_a_hash_token(tmp_path):
    text = "#\tO\nx\tB-X\n\n\t \n#\tB-X\n\ny\tO\n"  # WNUT-style "#" tokens; a line of separators is blank
    path = write(tmp_path / "f.conll", text)
    (status, docs, ids), _ = assert_same(path, "conll", {"sep": "\t"})
    assert [t for t, _ in docs] == ["# x", "#", "y"]


def test_conll_docstart_in_another_token_column(tmp_path):
    """``is_docstart`` follows the parser's options: token column 1 (UNER's ``index token tag``)."""
    text = "1 -DOCSTART- O\n\n1 a O\n2 b B-X\n\n1 -DOCSTART- O\n\n1 c O\n1 -DOCSTART- O\n1 d O\n"
    path = write(tmp_path / "f.conll", text)
    (status, docs, ids), _ = assert_same(path, "conll", {"token_column": 1})
    assert [t for t, _ in docs] == ["a b", "c", "d"]
    assert len(plan_chunks(path, "conll", 1, token_column=1)) == 2  # the last -DOCSTART- follows no blank line


@pytest.mark.parametrize("encoding", ["utf-8", "utf-8-sig"])
def test_conll_bom_only_at_byte_zero(tmp_path, encoding):
    """A BOM inside the file is text, as for the whole-file reader, even where a chunk starts."""
    path = tmp_path / "f.conll"
    path.write_bytes(b"\xef\xbb\xbfa O\n\n\xef\xbb\xbfb O\n\nc O\n")
    assert plan_chunks(path, "conll", 1, encoding=encoding)[1].start == 8  # the chunk starts with the BOM
    (status, docs, ids), _ = assert_same(path, "conll", {"encoding": encoding})
    assert [t for t, _ in docs] == ["a", "\ufeffb", "c"]
    path.write_bytes(b"\xef\xbb\xbf-DOCSTART-\n\na O\n\n\xef\xbb\xbf-DOCSTART- O\n\nb O\n\n-DOCSTART-\n\nc O\n")
    (status, docs, ids), _ = assert_same(path, "conll", {"encoding": encoding})
    assert [t for t, _ in docs] == ["a\n\ufeff-DOCSTART-\nb", "c"]


def test_jsonl_bom_inside_the_file_where_a_chunk_starts(tmp_path):
    path = tmp_path / "f.jsonl"
    path.write_bytes(b'\xef\xbb\xbf{"text": "a"}\n{"text": "b"}\n\xef\xbb\xbf{"text": "c"}\n')
    assert plan_chunks(path, docs_per_chunk=1)[2].start == 31
    (status, message), _ = assert_same(path, "jsonl", {"encoding": "utf-8-sig"})
    assert "f.jsonl, line 3: invalid JSON (Unexpected UTF-8 BOM" in message


# ---------------------------------------------------------------------------
# errors carry the file's own line numbers


def test_invalid_json_in_the_third_chunk_names_the_same_line(tmp_path):
    lines = [json.dumps({"text": f"doc {i}", "meta": {"id": f"d{i}"}}) for i in range(30)]
    lines[24] = '{"text": "broken",'
    path = write(tmp_path / "f.jsonl", "\n".join(lines) + "\n")
    plan = plan_chunks(path, "jsonl", 10)
    assert len(plan) == 3 and plan[2].first_line == 21
    with pytest.raises(InputError) as expected:
        read_jsonl(path)
    assert "f.jsonl, line 25: invalid JSON" in str(expected.value)
    read_chunk(plan[0])
    read_chunk(plan[1])
    with pytest.raises(InputError) as got:
        read_chunk(plan[2])
    assert str(got.value) == str(expected.value)


def test_a_span_error_in_a_later_chunk_names_the_line_and_the_files_own_id(tmp_path):
    lines = [json.dumps({"text": f"doc {i}"}) for i in range(30)]
    lines[22] = json.dumps({"text": "abc", "spans": [{"start": 1, "end": 9, "label": "X"}], "id": "own"})
    lines[26] = json.dumps({"text": "abc", "spans": [{"start": 1, "end": 9, "label": "X"}]})
    path = write(tmp_path / "f.jsonl", "\r\n".join(lines))
    plan = plan_chunks(path, "jsonl", 10)
    (status, message), _ = assert_same(path, "jsonl", {}, sizes=(10,))
    assert "f.jsonl, line 23, document 'own', span [1, 9)" in message
    # a document whose id is its position: a later chunk does not know the position, so names the line only
    lines[22] = lines[21]
    path = write(tmp_path / "f.jsonl", "\r\n".join(lines))
    with pytest.raises(InputError, match=r"f\.jsonl, line 27, document '26', span \[1, 9\)"):
        read_jsonl(path)
    with pytest.raises(InputError, match=r"f\.jsonl, line 27, span \[1, 9\): span out of range"):
        read_chunk(plan[2])


def test_a_bad_conll_tag_in_the_third_chunk_names_the_same_line(tmp_path):
    sentences = [f"w{i} O\nx{i} B-PER" for i in range(9)]
    sentences[7] = "w7 O\nx7 Q-PER"
    path = write(tmp_path / "f.conll", "\n\n".join(sentences) + "\n")
    plan = plan_chunks(path, "conll", 3)
    assert len(plan) == 3 and plan[2].first_line == 19
    with pytest.raises(InputError) as expected:
        read_conll(path)
    assert "f.conll, line 23: tag 'Q-PER'" in str(expected.value)
    with pytest.raises(InputError) as got:
        read_chunk(plan[2])
    assert str(got.value) == str(expected.value)


def test_undecodable_conll_bytes_name_the_files_byte_position(tmp_path):
    path = tmp_path / "f.conll"
    path.write_bytes(b"a O\n\nb O\n\nc\xff O\n")
    assert_same(path, "conll", {})
    with pytest.raises(InputError, match="line 5: not UTF-8 text .* at byte 11"):
        read_chunk(plan_chunks(path, "conll", 1)[2])


# ---------------------------------------------------------------------------
# the plan


def test_docs_per_chunk_below_one_is_an_input_error(tmp_path):
    path = write(tmp_path / "f.jsonl", '{"text": "a"}\n')
    for bad in (0, -3):
        with pytest.raises(InputError, match="docs_per_chunk must be a positive integer"):
            plan_chunks(path, docs_per_chunk=bad)


def test_a_docbin_is_one_whole_file_chunk_read_by_its_reader(tmp_path):
    nlp = spacy.blank("en")
    doc = Doc(nlp.vocab, words=["Ada", "met", "Babbage"])
    doc.ents = [Span(doc, 0, 1, "PERSON"), Span(doc, 2, 3, "PERSON")]
    path = tmp_path / "f.spacy"
    DocBin(docs=[doc, Doc(nlp.vocab, words=["x"])]).to_disk(path)
    plan = plan_chunks(path)
    assert plan == [Chunk(str(path), "docbin", 0, None, 1, 0, None)]
    corpus, found = read_chunk(plan[0])
    expected = read_docbin(path)
    assert documents(corpus) == documents(expected)
    assert global_doc_ids([found], "docbin") == expected.doc_ids
    assert "docbin" not in CHUNKABLE


def test_chunks_pickle_and_stay_small(tmp_path):
    path = write(tmp_path / "f.jsonl", "".join(json.dumps({"text": f"d{i}"}) + "\n" for i in range(10)))
    plan = plan_chunks(str(path), docs_per_chunk=4)
    assert [(c.start, c.first_line, c.n_docs) for c in plan] == [(0, 1, 4), (60, 5, 4), (120, 9, 2)]
    assert pickle.loads(pickle.dumps(plan)) == plan
    assert len(pickle.dumps(plan[1])) < 300


def test_a_file_without_documents_is_one_chunk_and_the_readers_error(tmp_path):
    for name, text in (("e.jsonl", "\n \n"), ("e.conll", "# only comments\n\n")):
        path = write(tmp_path / name, text)
        assert len(plan_chunks(path)) == 1
        assert_same(path, path.suffix[1:], {})


def test_an_encoding_that_cannot_be_cut_gives_one_chunk(tmp_path):
    path = tmp_path / "f.jsonl"
    path.write_bytes("".join(json.dumps({"text": f"d{i}"}) + "\n" for i in range(5)).encode("utf-16"))
    plan = plan_chunks(path, docs_per_chunk=1, encoding="utf-16")
    assert len(plan) == 1
    corpus, _ = read_chunk(plan[0], encoding="utf-16")
    assert list(corpus.texts) == list(read_jsonl(path, encoding="utf-16").texts)
    latin = tmp_path / "g.jsonl"
    latin.write_bytes("".join(json.dumps({"text": f"é{i}"}, ensure_ascii=False) + "\n"
                              for i in range(5)).encode("latin-1"))
    assert len(plan_chunks(latin, docs_per_chunk=1, encoding="latin-1")) == 5
    assert_same(latin, "jsonl", {"encoding": "latin-1"})
    with pytest.raises(InputError, match="cannot be read in pieces"):
        read_chunk(plan_chunks(latin, docs_per_chunk=1, encoding="latin-1")[1], encoding="utf-16")


def test_planning_a_large_file_reads_it_in_blocks(tmp_path, monkeypatch):
    line = (json.dumps({"text": "Apple buys a UK startup for $1 billion " * 3,
                        "spans": [{"start": 0, "end": 5, "label": "ORG"}]}) + "\n").encode()
    n = 30_000_000 // len(line)
    path = tmp_path / "big.jsonl"
    path.write_bytes(line * n)
    sizes = []
    real_open = chunks_module.open_binary

    def recording_open(p):
        handle = real_open(p)
        read = handle.read

        class Recorder:
            def __enter__(self):
                return self

            def __exit__(self, *exc):
                handle.close()

            def read(self, size=-1):
                sizes.append(size)
                return read(size)

        return Recorder()

    monkeypatch.setattr(chunks_module, "open_binary", recording_open)
    plan = plan_chunks(path, docs_per_chunk=50_000)  # its time: benchmarks/bench_budgets.py
    assert len(plan) == -(-n // 50_000) and sum(c.n_docs for c in plan) == n
    assert sizes and all(0 < s <= 1 << 20 for s in sizes)
