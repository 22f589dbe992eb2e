"""Convert gold annotations to spaCy DocBin files (``.spacy``) for training and annotating.

The input is read with spacy_anno_eval's own readers, so besides spaCy /
Prodigy JSONL (``text``, ``spans``, ``meta.id``) it takes any format the
package reads (``--format conll`` for WNUT-17's ``token<TAB>tag`` files).
Each document becomes a ``Doc`` whose gold spans are in ``doc.ents`` (what
``spacy train`` learns from) and in ``doc.spans[--spans-key]`` (default
``gold``; the key set ``spans:gold`` for the ``anno_eval`` component), with
the document id in ``doc.user_data["doc_id"]``.

Tokens: JSONL texts go through the blank ``--lang`` tokenizer; a gold span
that does not fall on token boundaries is an error (exit code 2) naming the
document and span. CoNLL documents keep their tokens exactly.

::

    # one output file
    python scripts/convert_jsonl.py assets/demo/key.jsonl --output corpus/demo/test.spacy
    # a deterministic train / dev split: every 4th document (the 4th, 8th, ...) goes to dev
    python scripts/convert_jsonl.py assets/demo/train.jsonl --train corpus/demo/train.spacy \\
        --dev corpus/demo/dev.spacy --dev-every 4

Files are written atomically (a temporary file in the same folder, then
renamed), so an interrupted run never leaves a truncated DocBin behind.
"""

from __future__ import annotations

import argparse
import codecs
import sys
import warnings
from pathlib import Path

import spacy
from spacy.tokens import Doc, DocBin, Span
from spacy.util import filter_spans

from spacy_anno_eval.errors import InputError
from spacy_anno_eval.files import write_bytes
from spacy_anno_eval.io import detect_format, read_corpus


def write_docbin(docs: list[Doc], path: Path) -> None:
    """Write ``docs`` to ``path`` atomically, with user data (the doc ids).

    When every id is the document's position (``"0"``, ``"1"``, ...: CoNLL
    files without document markers), the user data is left out: readers
    number the documents the same way, and DocBin packs user data slowly.
    """
    positional = all(doc.user_data.get("doc_id") == str(i) for i, doc in enumerate(docs))
    write_atomic(DocBin(docs=docs, store_user_data=not positional).to_bytes(), path)


def write_atomic(data: bytes, path: Path) -> None:
    """Write ``data`` to ``path`` atomically (:func:`spacy_anno_eval.files.write_bytes`)."""
    write_bytes(path, data)


def to_docs(path: Path, fmt: str = "auto", lang: str = "en", spans_key: str = "gold",
            sep: str | None = None) -> list[Doc]:
    """Read ``path`` and build one ``Doc`` per document with its gold spans."""
    name = detect_format(path) if fmt == "auto" else fmt
    options = {"sep": sep} if (name == "conll" and sep) else {}
    corpus = read_corpus(path, name, selectors=("ents",), **options)
    table = corpus.get_set("ents")
    nlp = spacy.blank(lang)
    docs = []
    rows = 0
    for d, (doc_id, text) in enumerate(zip(corpus.doc_ids, corpus.texts, strict=True)):
        if name == "conll":
            words = text.split(" ") if text else []
            doc = Doc(nlp.vocab, words=words, spaces=[True] * (len(words) - 1) + [False] if words else [])
        else:
            doc = nlp.make_doc(text)
        spans = []
        while rows < len(table) and table.doc[rows] == d:
            start, end = int(table.start[rows]), int(table.end[rows])
            label = table.labels[int(table.label[rows])]
            span = doc.char_span(start, end, label=label, alignment_mode="strict")
            if span is None:
                raise InputError(f"{path}: document {doc_id!r}: the span [{start}, {end}) "
                                         f"{text[start:end]!r} ({label}) does not fall on token boundaries")
            spans.append(span)
            rows += 1
        ents = filter_spans(spans)
        if len(ents) < len(spans):
            warnings.warn(f"{path}: document {doc_id!r}: {len(spans) - len(ents)} overlapping gold span(s) "
                          f"kept in doc.spans[{spans_key!r}] only (doc.ents cannot overlap)", stacklevel=2)
        doc.ents = sorted(ents, key=lambda s: s.start)
        if spans_key:
            doc.spans[spans_key] = [Span(doc, s.start, s.end, label=s.label_) for s in spans]
        doc.user_data["doc_id"] = doc_id
        docs.append(doc)
    return docs


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("input", type=Path, help="gold annotations: .jsonl, or any format spacy_anno_eval reads")
    parser.add_argument("--output", type=Path, help="write every document to this .spacy file")
    parser.add_argument("--train", type=Path, help="write the training split here (needs --dev)")
    parser.add_argument("--dev", type=Path, help="write the dev split here (needs --train)")
    parser.add_argument("--dev-every", type=int, default=4,
                        help="every Nth document (the Nth, 2Nth, ...) goes to dev (default 4)")
    parser.add_argument("--format", default="auto", help="input format (default: from the suffix)")
    parser.add_argument("--sep", default=None,
                        help="CoNLL column separator, backslash escapes allowed ('\\t'); default: any whitespace")
    parser.add_argument("--lang", default="en", help="language of the blank tokenizer (default en)")
    parser.add_argument("--spans-key", default="gold", help="also store the gold spans in doc.spans[KEY] "
                                                            "(default gold; empty: do not)")
    args = parser.parse_args(argv)
    if args.output is None and (args.train is None or args.dev is None):
        parser.error("give --output, or --train and --dev")
    if args.dev_every < 2:
        parser.error("--dev-every must be at least 2")
    try:
        sep = codecs.decode(args.sep, "unicode_escape") if args.sep else None
        docs = to_docs(args.input, args.format, args.lang, args.spans_key, sep)
    except InputError as err:
        print(f"convert_jsonl: error: {err}", file=sys.stderr)
        return 2
    n_ents = sum(len(doc.ents) for doc in docs)
    if args.output is not None:
        write_docbin(docs, args.output)
        print(f"{args.input}: {len(docs)} documents, {n_ents} entities -> {args.output}")
    if args.train is not None and args.dev is not None:
        dev = [doc for i, doc in enumerate(docs, 1) if i % args.dev_every == 0]
        train = [doc for i, doc in enumerate(docs, 1) if i % args.dev_every != 0]
        write_docbin(train, args.train)
        write_docbin(dev, args.dev)
        print(f"{args.input}: {len(train)} training documents -> {args.train}, {len(dev)} dev documents "
              f"-> {args.dev}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
