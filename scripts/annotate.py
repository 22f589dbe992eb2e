"""Run a pipeline over a corpus and write its predictions as a DocBin.

The input is read as the benchmark reads ``clean/``
(:func:`spacy_anno_eval.workflows.benchmark.layout.clean_documents`): a DocBin
(``.spacy``: its tokens are kept exactly, its annotations dropped, so
predictions line up with the gold token for token), a JSONL file of texts
(``text`` and ``meta.id``; any spans are ignored and the pipeline's own
tokenizer is used), or a ``.txt`` file or a folder of them. Each predicted
``Doc`` keeps the input's document id in ``doc.user_data["doc_id"]`` so that
``anno-eval`` pairs it with its key document. The output is written
atomically (a temporary file in the same folder, then renamed).

::

    python scripts/annotate.py training/demo/v1 assets/demo/key.jsonl corpus/demo/v1.spacy
    python scripts/annotate.py training/wnut/v2/model-best corpus/wnut/test.spacy corpus/wnut/v2.spacy
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import spacy
from spacy.tokens import Doc, DocBin

from spacy_anno_eval.files import write_bytes
from spacy_anno_eval.workflows.benchmark.layout import clean_documents
from spacy_anno_eval.workflows.benchmark.store import run_pipeline


def annotate(model: str | Path, source: Path, batch_size: int = 256) -> list[Doc]:
    """The pipeline's Docs for every document of ``source`` (with a progress bar on a terminal)."""
    nlp = spacy.load(model)
    return list(run_pipeline(nlp, clean_documents(source, nlp.vocab), batch_size=batch_size))


def write_docbin(docs: list[Doc], path: Path) -> None:
    """Write the predicted ``docs`` (entities and doc ids) to ``path`` atomically."""
    positional = all(doc.user_data.get("doc_id") == str(i) for i, doc in enumerate(docs))
    write_bytes(path, DocBin(attrs=["ORTH", "ENT_IOB", "ENT_TYPE", "ENT_KB_ID"], docs=docs,
                             store_user_data=not positional).to_bytes())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("model", help="a pipeline folder (or an installed pipeline's name)")
    parser.add_argument("input", type=Path, help="the documents: a DocBin (.spacy), a JSONL file of texts, "
                                                 "or .txt files")
    parser.add_argument("output", type=Path, help="predicted DocBin to write (.spacy)")
    parser.add_argument("--batch-size", type=int, default=256)
    args = parser.parse_args(argv)
    docs = annotate(args.model, args.input, args.batch_size)
    write_docbin(docs, args.output)
    print(f"{args.model}: {len(docs)} documents, {sum(len(d.ents) for d in docs)} entities -> {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
