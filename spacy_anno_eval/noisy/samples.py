"""The sample of nerval's BIO reader (:meth:`spacy_anno_eval.io.registry.Reader.sample`).

``TOKEN LABEL`` lines, one space between them, as nerval reads them: the
words of ``case.text``, the first tagged ``B-<label>``, the others ``O``.
A BIO file is one document without an id, number or nesting (``None`` for a
case with any of them). ``empty``: an empty file. A lone surrogate is written
as the bytes ``surrogatepass`` gives, which no UTF-8 decoder accepts.
"""

from __future__ import annotations

from ..io.registry import Files, Sample
from ..io.samples import sample_words, utf8


def bio(case: Sample) -> Files | None:
    """nerval's ``TOKEN LABEL`` lines (one document)."""
    if case.number is not None or case.depth or case.doc_id != Sample().doc_id:
        return None
    if case.empty:
        return {"sample.bio": b""}
    lines = [f"{w} {'B-' + case.label if k == 0 else 'O'}" for k, (_, _, w) in enumerate(sample_words(case.text))]
    return {"sample.bio": utf8("\n".join(lines) + "\n")}
