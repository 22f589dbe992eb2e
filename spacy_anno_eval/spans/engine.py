"""The one way through: corpora in, alignment, counts out.

``evaluate`` takes a key and a response (paths, :class:`Corpus` objects or
spaCy Docs), checks that they hold the same documents with the same texts,
aligns the selected annotation sets (:func:`align_spans`) and returns an
:class:`Evaluation` from which every measure and report is computed.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..annotations.docs import corpus_from_docs
from ..annotations.table import Corpus, SpanTable
from ..errors import ConfigError, InputError, where
from ..figures import check_beta, check_zero_division
from .align import align_spans, select_types
from .counts import Evaluation
from .credit import CreditRule


def load(source: Any, selectors: Sequence[str], fmt: str = "auto",
         features: Sequence[str] | None = None, **options: Any) -> Corpus:
    """A :class:`Corpus` from a path, a Corpus, or a sequence of spaCy Docs.

    ``options`` go to the file reader (see :func:`spacy_anno_eval.io.read_corpus`).
    """
    if isinstance(source, Corpus):
        return source
    if isinstance(source, (str, os.PathLike)):
        from ..io import read_corpus

        return read_corpus(source, format=fmt, selectors=selectors, features=features, **options)
    return corpus_from_docs(list(source), selectors, features)


def load_pair(key: Any, response: Any, key_set: str, response_set: str, fmt: str,
              features: Sequence[str] | None, options: dict[str, Any]) -> tuple[Corpus, Corpus]:
    """The key and the response corpus; two files are read side by side in two threads (decompressing a
    DocBin and most of numpy release the GIL: about 15 % off ``evaluate`` on two 10,000-document DocBins
    on 2 cores). An error of either is raised as reading it alone would raise it, the key's first."""
    if not (isinstance(key, (str, os.PathLike)) and isinstance(response, (str, os.PathLike))):
        return (load(key, [key_set], fmt, features, **options),
                load(response, [response_set], fmt, features, **options))
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=2, thread_name_prefix="anno-eval-read") as pool:
        pending_key = pool.submit(load, key, [key_set], fmt, features, **options)
        pending_response = pool.submit(load, response, [response_set], fmt, features, **options)
        return pending_key.result(), pending_response.result()


def match_documents(key: Corpus, response: Corpus) -> np.ndarray:
    """Index of each key document's counterpart in ``response``.

    Documents pair by position when both corpora list the same ids in the same
    order (or when ids are positional), else by id. Raise when a key document
    has no counterpart or the corpora differ in size.
    """
    if key.doc_ids == response.doc_ids:
        return np.arange(len(key), dtype=np.int64)
    index = {d: i for i, d in enumerate(response.doc_ids)}
    if len(index) == len(response.doc_ids) and set(index) == set(key.doc_ids):
        return np.array([index[d] for d in key.doc_ids], dtype=np.int64)
    if len(key) != len(response):
        raise InputError(
            f"key {key.source or ''} has {len(key)} documents but response {response.source or ''} has "
            f"{len(response)}, and their document ids do not match; give both the same documents")
    missing = next(d for d in key.doc_ids if d not in index)
    raise InputError(
        f"{where(key.source, missing)}: no response document with this id (the response ids are "
        f"{response.doc_ids[:3]}...); give both corpora the same ids, or the same order without ids")


def check_texts(key: Corpus, response: Corpus, order: np.ndarray) -> None:
    """Raise when a key text differs from its response text (offsets would not compare)."""
    kf, rf = key.text_fingerprints, response.text_fingerprints
    same = None
    if kf is not None and rf is not None:
        same = np.asarray(kf) == np.asarray(rf)[order]
    for i, j in enumerate(order):
        if same is not None and same[i]:
            continue
        kt, rt = key.texts[i], response.texts[int(j)]
        if kt != rt:
            pos = next((n for n, (a, b) in enumerate(zip(kt, rt, strict=False)) if a != b), min(len(kt), len(rt)))
            raise InputError(
                f"{where(key.source, key.doc_ids[i])}: the key text differs from the response text "
                f"{'(' + response.source + ')' if response.source else ''} at character {pos} "
                f"(key {kt[pos:pos + 20]!r} vs response {rt[pos:pos + 20]!r}); character offsets only "
                f"compare on identical texts")


def _reorder(table: SpanTable, order: np.ndarray, n: int) -> SpanTable:
    """Renumber the documents of a response table so that response doc order[i] becomes i."""
    if np.array_equal(order, np.arange(n)):
        return table
    inverse = np.full(max(n, int(order.max(initial=-1)) + 1), -1, dtype=np.int64)
    inverse[order] = np.arange(n)
    doc = inverse[table.doc]
    keep = doc >= 0
    feats = [f for f, k in zip(table.features, keep, strict=True) if k] if table.features else None
    return SpanTable(doc[keep], table.start[keep], table.end[keep], table.label[keep], table.labels, feats)


def evaluate(key: Any, response: Any, *, key_set: str = "ents", response_set: str | None = None,
             types: Sequence[str] | None = None, features: Sequence[str] | None = None,
             beta: float = 1.0, pairing: str = "optimal", zero_division: float = 0.0,
             min_overlap: float = 0.0, fmt: str = "auto", check_text: bool = True,
             reader_options: dict[str, Any] | None = None, credit: CreditRule | None = None) -> Evaluation:
    """Compare a key (gold, annotator A) with a response (system, annotator B).

    ``key``/``response``: a path (any format :func:`spacy_anno_eval.io.read_corpus`
    reads), a :class:`Corpus`, or a sequence of spaCy Docs. ``key_set`` and
    ``response_set`` (default: the same as ``key_set``) select the annotation
    sets (``ents``, ``spans:NAME``, or a reader's set name such as ``key``);
    ``types`` restricts the labels; ``features`` names GATE's significant
    features; ``min_overlap`` (percent of the key's length, as nervaluate's
    ``min_overlap_percentage``) is the least overlap for two annotations whose
    spans differ to pair at all (partial, or overlap with another label);
    ``reader_options`` go to the file readers. ``credit``: a credit rule
    (:class:`~spacy_anno_eval.spans.credit.CreditRule`, e.g.
    :class:`spacy_anno_eval.bdm.credit.BdmCredit` for BDM-weighted P/R/F) whose
    sum the evaluation carries and reports under the rule's name. Returns an
    :class:`Evaluation` that keeps its pairs; ``.report()`` gives every figure.
    """
    response_set = response_set or key_set
    check_zero_division(zero_division)
    check_beta(beta)
    if credit is not None and not callable(getattr(credit, "accumulate", None)):
        raise ConfigError(f"credit must be a credit rule with accumulate(pairs) (such as "
                          f"spacy_anno_eval.bdm.credit.BdmCredit), got {type(credit).__name__}")
    opts = dict(reader_options or {})
    if response is key or (isinstance(key, (str, os.PathLike)) and isinstance(response, (str, os.PathLike))
                           and os.fspath(key) == os.fspath(response)):
        kc = rc = load(key, list(dict.fromkeys([key_set, response_set])), fmt, features, **opts)
    else:
        kc, rc = load_pair(key, response, key_set, response_set, fmt, features, opts)
    if not len(kc):
        raise InputError(f"{kc.source or 'key'}: the corpus has no documents")
    order = match_documents(kc, rc)
    if check_text and kc is not rc:
        check_texts(kc, rc, order)
    ktab = kc.get_set(key_set)
    rtab = _reorder(rc.get_set(response_set), order, len(kc))
    if check_text:
        lengths = kc.lengths()
        ktab.check_bounds(lengths, kc.doc_ids, kc.source)
        rtab.check_bounds(lengths, kc.doc_ids, rc.source)
    ktab, rtab = select_types(ktab, types), select_types(rtab, types)
    alignment = align_spans(ktab, rtab, features=features, pairing=pairing, min_overlap=min_overlap)
    settings = {"beta": beta, "zero_division": zero_division, "pairing": pairing, "min_overlap": min_overlap,
                "key_set": key_set, "response_set": response_set,
                "types": list(types) if types else None, "features": list(features) if features else None}
    return Evaluation.from_alignment(alignment, kc.doc_ids, settings, kc.texts, credit)
