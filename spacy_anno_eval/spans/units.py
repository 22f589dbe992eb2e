"""The constant ``c`` of GATE's false-positive rate: tokens or sentences per document.

GATE user guide §10.1.3, eq. 10.8::

    FalsePositive = Spurious / c

"where c is some constant independent from document richness, e.g. the number
of tokens or sentences in the document". :func:`doc_units` gives ``c`` for
every document of the key (the reference; key and response texts are the
same): ``per="tokens"`` (the default) or ``per="sentences"``. The figures
themselves are computed from the counts in
:meth:`spacy_anno_eval.spans.counts.Evaluation.report`.

Where the counts come from:

- **tokens**: a token-per-line corpus (CoNLL; :attr:`Corpus.tokens`) counts
  its own tokens; every other corpus (spaCy Docs, DocBins, text formats, the
  parts of a stream, the ``anno_eval`` component's collected texts) counts the
  tokens of its text with one rule, :func:`count_tokens`: ``\\w+`` or one
  other non-space character (words, numbers and each punctuation mark, as a
  rule-based tokenizer such as GATE's ANNIE tokeniser splits them, without its
  exceptions). One rule for every door, so that the same documents give the
  same figure whether they are scored from Docs, a DocBin, in shards or by the
  component (DESIGN invariant 1); a Doc's own tokenization may differ (spaCy
  splits "don't" in two, the rule in three).
- **sentences**: a CoNLL corpus's sentences (blank lines), or the sentences of
  spaCy Docs (given as Docs or a DocBin path; they need sentence boundaries: a
  parser, a senter or a sentencizer, else
  :class:`~spacy_anno_eval.errors.InputError` says what to do). Text formats
  have none (the same error). An evaluation rebuilt from per-document results
  (the component) knows no sentences: its false-positive rate is ``None``.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ..annotations.docs import sentence_counts
from ..annotations.table import INDEX, Corpus
from ..errors import ConfigError, InputError, where
from .settings import FP_UNITS

#: what ``c`` of the false-positive rate counts (GATE eq. 10.8)
_TOKEN = re.compile(r"\w+|[^\w\s]")
_WORD = re.compile(r"\w")
_WHAT_TO_DO = ("give the key as Docs or a DocBin whose Docs have sentence boundaries (made by a pipeline with a "
               "parser, a senter or nlp.add_pipe('sentencizer')), or as CoNLL (blank lines end sentences); or "
               "count false positives per token (--fp-per tokens, fp_per='tokens')")


def check_fp_per(per: Any) -> str:
    """Validate ``fp_per``: ``"tokens"`` or ``"sentences"``."""
    if per not in FP_UNITS:
        raise ConfigError(f"fp_per (--fp-per) must be one of {', '.join(FP_UNITS)}, got {per!r}")
    return per


def count_tokens(text: str) -> int:
    """Tokens of a plain text: words (``\\w+``) and every other non-space character.

    >>> count_tokens("Sen. Obama, on Monday.")
    7
    """
    return len(_TOKEN.findall(text))


def doc_units(source: Any, corpus: Corpus, per: str) -> np.ndarray:
    """``c`` of every document of ``corpus`` (int64, one per document, in its order): its tokens or sentences.

    ``source`` is what ``corpus`` was read from (a path, Docs, or the Corpus
    itself). Raises :class:`InputError` for ``per="sentences"`` when a
    document has no sentence boundaries, saying what to do.
    """
    per = check_fp_per(per)
    if corpus.tokens is not None:
        first = np.asarray(corpus.tokens.doc_first, dtype=INDEX)
        if per == "tokens":
            return np.diff(first)
        sent = np.asarray(corpus.tokens.sent_first, dtype=INDEX)
        return np.diff(np.searchsorted(sent, first)).astype(INDEX)
    if per == "tokens":
        return text_tokens(corpus.texts)
    docs = _docs(source, _docbins(source))
    if docs is None or len(docs) != len(corpus):
        raise InputError(f"{corpus.source or 'the key'}: no sentence boundaries (this format gives none), so "
                         f"false positives cannot be counted per sentence; {_WHAT_TO_DO}")
    return _sentences(docs, corpus)


def text_tokens(texts: Sequence[str]) -> np.ndarray:
    """:func:`count_tokens` of every text (int64). The texts of a DocBin (:class:`~spacy_anno_eval.io.docbin.
    LazyTexts`) are counted from their tokens without being built, with the same result."""
    if hasattr(texts, "token_counts"):
        return texts.token_counts(count_tokens, _WORD).astype(INDEX)
    return np.fromiter((count_tokens(t) for t in texts), dtype=INDEX, count=len(texts))


def _docbins(source: Any) -> list[Any] | None:
    """The DocBins of a DocBin path (a ``.spacy`` file, or a folder of them read in name order as the reader
    reads them), or ``None``."""
    if not isinstance(source, (str, os.PathLike)):
        return None
    p = Path(source)
    files = sorted(f for f in p.glob("*.spacy") if f.is_file()) if p.is_dir() else \
        [p] if p.suffix == ".spacy" and p.is_file() else []
    if not files:
        return None
    from spacy.tokens import DocBin

    from ..io.parse import read_bytes

    return [DocBin().from_bytes(read_bytes(f)) for f in files]  # what DocBin.from_disk does, located


def _docs(source: Any, bins: list[Any] | None) -> Sequence[Any] | None:
    """The spaCy Docs of ``source`` (Docs, or the DocBins read from its path), or ``None``."""
    if bins is not None:
        from spacy.vocab import Vocab

        vocab = Vocab()
        return [doc for db in bins for doc in db.get_docs(vocab)]
    if isinstance(source, Corpus) or not isinstance(source, Sequence) or isinstance(source, (str, bytes)):
        return None
    if source and all(hasattr(d, "has_annotation") for d in source):
        return source
    return None


def _sentences(docs: Sequence[Any], corpus: Corpus) -> np.ndarray:
    """The sentences of every Doc (:func:`~spacy_anno_eval.annotations.docs.sentence_counts`); :class:`InputError`
    naming the first Doc without sentence boundaries."""
    out = sentence_counts(docs)
    unbounded = np.flatnonzero(out < 0)
    if len(unbounded):
        i = int(unbounded[0])
        raise InputError(f"{where(corpus.source or 'key', corpus.doc_ids[i])}: the Doc has no sentence "
                         f"boundaries, so false positives cannot be counted per sentence; {_WHAT_TO_DO}")
    return out


__all__ = ["FP_UNITS", "check_fp_per", "count_tokens", "doc_units", "text_tokens"]
