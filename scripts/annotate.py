"""Run a pipeline over a corpus and write its predictions as a DocBin.

The input is either a DocBin (``.spacy``: its tokens are kept exactly, its
annotations dropped, so predictions line up with the gold token for token) or
a JSONL file of texts (``text`` and ``meta.id``; any spans are ignored and the
pipeline's own tokenizer is used). Each predicted ``Doc`` keeps the input's
document id in ``doc.user_data["doc_id"]`` so that ``anno-eval`` pairs it with
its key document. The output is written atomically (a temporary file in the
same folder, then renamed).

::

    python scripts/annotate.py training/demo/v1 assets/demo/key.jsonl corpus/demo/v1.spacy
    python scripts/annotate.py training/wnut/v2/model-best corpus/wnut/test.spacy corpus/wnut/v2.spacy
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from pathlib import Path

import spacy
from spacy.language import Language
from spacy.tokens import Doc, DocBin

from spacy_anno_eval.atomic import write_bytes


def input_docs(nlp: Language, path: Path) -> Iterator[Doc]:
    """Unannotated Docs (with ``doc_id``) for every document of ``path``."""
    if path.suffix == ".spacy":
        for i, gold in enumerate(DocBin().from_disk(path).get_docs(nlp.vocab)):
            doc = Doc(nlp.vocab, words=[t.text for t in gold], spaces=[bool(t.whitespace_) for t in gold])
            doc.user_data["doc_id"] = str(gold.user_data.get("doc_id", i))
            yield doc
        return
    with path.open(encoding="utf8") as f:
        lines = (line for line in f if line.strip())
        for i, line in enumerate(lines):
            record = json.loads(line)
            doc = nlp.make_doc(record["text"])
            meta = record.get("meta") or {}
            doc.user_data["doc_id"] = str(meta.get("id", record.get("id", i)))
            yield doc


def annotate(model: str | Path, source: Path, batch_size: int = 256) -> list[Doc]:
    nlp = spacy.load(model)
    return list(nlp.pipe(input_docs(nlp, source), batch_size=batch_size))


def write_docbin(docs: list[Doc], path: Path) -> None:
    """Write the predicted ``docs`` (entities and doc ids) to ``path`` atomically."""
    positional = all(doc.user_data.get("doc_id") == str(i) for i, doc in enumerate(docs))
    write_atomic(DocBin(attrs=["ORTH", "ENT_IOB", "ENT_TYPE", "ENT_KB_ID"], docs=docs,
                        store_user_data=not positional).to_bytes(), path)


def write_atomic(data: bytes, path: Path) -> None:
    """Write ``data`` to ``path`` atomically (:func:`spacy_anno_eval.atomic.write_bytes`)."""
    write_bytes(path, data)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("model", help="a pipeline folder (or an installed pipeline's name)")
    parser.add_argument("input", type=Path, help="the documents: a DocBin (.spacy) or a JSONL file of texts")
    parser.add_argument("output", type=Path, help="predicted DocBin to write (.spacy)")
    parser.add_argument("--batch-size", type=int, default=256)
    args = parser.parse_args(argv)
    docs = annotate(args.model, args.input, args.batch_size)
    write_docbin(docs, args.output)
    print(f"{args.model}: {len(docs)} documents, {sum(len(d.ents) for d in docs)} entities -> {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
