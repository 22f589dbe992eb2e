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

from ..annotations.docs import as_docs, corpus_from_docs
from ..annotations.table import ALL_FEATURES, Corpus, SpanTable, wants_all_features
from ..errors import ConfigError, InputError, where
from .align import align_spans, select_types
from .by_position import pair_by_position
from .counts import Evaluation
from .credit import CreditRule
from .settings import SpanSettings
from .units import doc_units


def load(source: Any, selectors: Sequence[str], fmt: str = "auto",
         features: Sequence[str] | None = None, *, what: str = "corpus", **options: Any) -> Corpus:
    """A :class:`Corpus` from a path, a Corpus, or a sequence of spaCy Docs.

    ``options`` go to the file reader (see :func:`spacy_anno_eval.io.read_corpus`).
    A corpus read here (a path or Docs) is checked for ``selectors``: one that no
    document holds raises :class:`InputError` listing the sets that exist
    (:meth:`Corpus.check_sets`). ``what`` names the argument in errors (``key``).
    """
    if isinstance(source, Corpus):
        return source
    if isinstance(source, (str, os.PathLike)):
        from ..io import read_corpus

        corpus = read_corpus(source, format=fmt, selectors=selectors, features=features, **options)
    else:
        corpus = corpus_from_docs(as_docs(source, what), selectors, features)
    corpus.check_sets(selectors, what)
    return corpus


def load_pair(key: Any, response: Any, key_set: str, response_set: str, fmt: str,
              features: Sequence[str] | None, options: dict[str, Any]) -> tuple[Corpus, Corpus]:
    """The key and the response corpus; two DocBin files are read side by side in two threads (decompressing
    a DocBin and most of numpy release the GIL: about 15 % off ``evaluate`` on two 10,000-document DocBins
    on 2 cores). Other formats are parsed in Python, which holds the GIL, so they are read one after the
    other: their warnings then come in a fixed order, the key's first. An error of either is raised as
    reading it alone would raise it, the key's first. ``options``: one set of reader options; each file's
    reader gets those it takes, and an option that neither takes raises :class:`ConfigError`
    (:func:`options_per_source`)."""
    key_options, response_options = options_per_source([key, response], fmt, options)
    files = isinstance(key, (str, os.PathLike)) and isinstance(response, (str, os.PathLike))
    if not files or not all(_is_docbin(p, fmt) for p in (key, response)):
        return (load(key, [key_set], fmt, features, what="key", **key_options),
                load(response, [response_set], fmt, features, what="response", **response_options))
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=2, thread_name_prefix="anno-eval-read") as pool:
        pending_key = pool.submit(load, key, [key_set], fmt, features, what="key", **key_options)
        pending_response = pool.submit(load, response, [response_set], fmt, features, what="response",
                                       **response_options)
        return pending_key.result(), pending_response.result()


def _is_docbin(path: str | os.PathLike, fmt: str) -> bool:
    """Whether ``path`` is read as a DocBin (``fmt`` docbin, or a ``.spacy`` file or folder under auto)."""
    from pathlib import Path

    if fmt != "auto":
        return fmt == "docbin"
    p = Path(path)
    return p.suffix.lower() == ".spacy" or (p.is_dir() and any(p.glob("*.spacy")))


def options_per_source(sources: Sequence[Any], fmt: str, options: dict[str, Any]) -> list[dict[str, Any]]:
    """Per source, the reader options its reader takes (:func:`spacy_anno_eval.io.split_options`): a file gets
    those of its format, a Corpus or Docs none. An option that no file's reader takes raises
    :class:`ConfigError` naming what the readers take. (Without any file there is nothing to read: a stream's
    parts, already read with these options, are scored with them.)"""
    if not isinstance(options, dict):
        raise ConfigError(f"reader_options must be a dict of reader options, got {type(options).__name__}")
    out: list[dict[str, Any]] = [{} for _ in sources]
    files = [(i, s) for i, s in enumerate(sources) if isinstance(s, (str, os.PathLike))]
    if not options or not files:
        return out
    from pathlib import Path

    from ..io import detect_format, split_options

    if not all(Path(s).exists() for _, s in files):  # the reader says which file is missing
        for i, _ in files:
            out[i] = dict(options)
        return out
    names = [detect_format(s) if fmt == "auto" else fmt for _, s in files]
    for (i, _), taken in zip(files, split_options(names, options, [os.fspath(s) for _, s in files]), strict=True):
        out[i] = taken
    return out


def match_documents(key: Corpus, response: Corpus) -> np.ndarray:
    """Index of each key document's counterpart in ``response``.

    Documents pair by position when both corpora list the same ids in the same
    order (or when ids are positional), else by id. Raise when a key document
    has no counterpart or the corpora differ in size.
    """
    if key.doc_ids == response.doc_ids:
        return np.arange(len(key), dtype=np.int64)
    for corpus, what in ((key, "key"), (response, "response")):
        _refuse_duplicate_ids(corpus, what)
    index = {d: i for i, d in enumerate(response.doc_ids)}
    if len(index) == len(response.doc_ids) and set(index) == set(key.doc_ids):
        return np.array([index[d] for d in key.doc_ids], dtype=np.int64)
    if len(key) != len(response):
        raise InputError(
            f"key {key.source or ''} has {len(key)} documents but response {response.source or ''} has "
            f"{len(response)}, and their document ids do not match; give both the same documents")
    missing = next((d for d in key.doc_ids if d not in index), None)
    if missing is None:  # not reached: without repeated ids, equal sizes and every key id found, the ids match
        raise InputError(f"{key.source or 'key'} and {response.source or 'response'}: the document ids do not "
                         f"pair; give both corpora the same ids")
    raise InputError(
        f"{where(key.source or 'key', missing)}: no response document with this id (the response ids are "
        f"{response.doc_ids[:3]}...); give both corpora the same ids, or the same order without ids")


def _refuse_duplicate_ids(corpus: Corpus, what: str) -> None:
    """Raise :class:`InputError` naming the first document id that ``corpus`` gives twice (documents pair by id)."""
    seen: dict[str, int] = {}
    for i, d in enumerate(corpus.doc_ids):
        if d in seen:
            raise InputError(
                f"{where(corpus.source or what, d)}: the {what} has two documents with this id (documents "
                f"{seen[d] + 1} and {i + 1}); documents pair by id when the two sides list them in another "
                f"order, so ids must be unique (or give both sides the same order)")
        seen[d] = i


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


def present_labels(table: SpanTable) -> set[str]:
    """The labels that some annotation of ``table`` has."""
    return {table.labels[int(i)] for i in np.unique(table.label)} if len(table) else set()


def carried_features(table: SpanTable) -> set[str]:
    """The feature names that some annotation of ``table`` carries."""
    return {name for row in table.features for name in row} if table.features is not None else set()


def names_in(corpus: Corpus, selectors: Sequence[str]) -> tuple[set[str], set[str]]:
    """The labels some annotation of ``corpus``'s ``selectors`` has, and the features some annotation carries
    (what a name check lists; sets the corpus does not hold are skipped)."""
    labels: set[str] = set()
    carried: set[str] = set()
    for selector in selectors:
        table = corpus.sets.get(selector)
        if table is not None:
            labels |= present_labels(table)
            carried |= carried_features(table)
    return labels, carried


def _sides(kc: Corpus, rc: Corpus, key_set: str, response_set: str) -> str:
    """``key.jsonl (ents) and response.jsonl (ents)``: the two sides of a comparison, for messages."""
    key = f"{kc.source or 'the key'} ({key_set})"
    return key if rc is kc and key_set == response_set else \
        f"{key} and {rc.source or 'the response'} ({response_set})"


def check_types(types: Sequence[str], labels: set[str], where_: str) -> None:
    """Raise :class:`InputError` for a type of ``types`` that no annotation has (``labels``: every label some
    annotation of the compared sets has), listing the labels and suggesting a match that differs only in case.
    ``where_`` names the sets."""
    missing = [t for t in types if t not in labels]
    if not missing:
        return
    by_case = {}
    for label in sorted(labels):
        by_case.setdefault(label.casefold(), label)
    hints = [by_case[t.casefold()] for t in missing if t.casefold() in by_case]
    hint = f" (did you mean {', '.join(map(repr, hints))}?)" if hints else ""
    s = "s" if len(missing) > 1 else ""
    raise InputError(f"{where_}: no annotation has the type{s} {', '.join(map(repr, missing))}{hint}; the types "
                     f"are: {', '.join(sorted(labels)) or 'none (no annotations)'}")


def check_features(features: Sequence[str], carried: set[str], found: Sequence[Sequence[str] | None],
                   where_: str) -> None:
    """Raise :class:`InputError` for a feature of ``features`` that no annotation carries (``carried``), listing
    the features the annotations carry (``found``: each corpus's :attr:`Corpus.found_features`, ``None`` where
    not known). ``where_`` names the sets."""
    missing = [f for f in features if f not in carried and f != ALL_FEATURES]  # "*" names every feature
    if not missing:
        return
    known = [f for f in found if f is not None]
    names = sorted(carried.union(*known)) if known else None
    listing = ("the reader does not say which features there are" if names is None
               else f"the features are: {', '.join(names) or 'none'}")
    s = "s" if len(missing) > 1 else ""
    raise InputError(f"{where_}: no annotation carries the feature{s} {', '.join(map(repr, missing))}; {listing}")


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


def evaluate(key: Any, response: Any, *, settings: SpanSettings | None = None, fmt: str = "auto",
             check_text: bool = True, reader_options: dict[str, Any] | None = None,
             credit: CreditRule | None = None, check_names: bool = True, **values: Any) -> Evaluation:
    """Compare a key (gold, annotator A) with a response (system, annotator B).

    The comparison's settings are one :class:`~spacy_anno_eval.spans.settings.SpanSettings`, validated once
    before anything is read: ``settings``, or built from keyword arguments of the same names (``key_set``,
    ``response_set``, ``types``, ``features``, ``beta``, ``pairing``, ``zero_division``, ``min_overlap``,
    ``fp_per``; given with ``settings``, they replace its values). The :class:`Evaluation` carries them.

    ``key``/``response``: a path (any format :func:`spacy_anno_eval.io.read_corpus`
    reads), a :class:`Corpus`, or a sequence of spaCy Docs. ``key_set`` and
    ``response_set`` (default: the same as ``key_set``) select the annotation
    sets (``ents``, ``spans:NAME``, or a reader's set name such as ``key``);
    ``types`` restricts the labels (a list, or one type as a string); ``features``
    names GATE's significant features (likewise; ``["*"]``: every feature that some annotation of either side
    carries, GATE's "all features", kept as ``["*"]`` in the settings so that shards merge); ``min_overlap``
    (percent of the key's length, as nervaluate's ``min_overlap_percentage``) is the least overlap for two
    annotations whose spans differ to pair at all (partial, or overlap with another label);
    ``reader_options`` go to the file readers (each file's reader gets those it
    takes; one that no reader takes is refused). ``credit``: a credit rule
    (:class:`~spacy_anno_eval.spans.credit.CreditRule`, e.g.
    :class:`spacy_anno_eval.bdm.credit.BdmCredit` for BDM-weighted P/R/F) whose
    sum the evaluation carries and reports under the rule's name. ``fp_per``: what ``c`` of GATE's
    false-positive rate ``Spurious / c`` counts (user guide §10.1.3, eq. 10.8), ``"tokens"`` (default) or
    ``"sentences"`` of the key's documents (:func:`spacy_anno_eval.spans.units.doc_units`: tokens by one rule
    on the text, or CoNLL's own; sentences need sentence boundaries, else :class:`InputError` says what to
    do; recorded in the settings only when not ``"tokens"``). Returns an
    :class:`Evaluation` that keeps its pairs; ``.report()`` gives every figure.

    Names are checked (DESIGN.md, Contracts): a set that no document holds,
    a type that neither side has, a feature that no annotation of either
    side carries raise :class:`InputError` listing what exists (a type
    only one side has is fine). ``check_names=False`` leaves that to the
    caller, who sees more than this one comparison (IAA checks over all its
    sets); nothing is checked on a corpus that is a
    :attr:`~spacy_anno_eval.annotations.table.Corpus.part` of a stream.
    """
    settings = SpanSettings.of(settings, **values)
    key_set, response_set = settings.key_set, settings.response_set
    types = list(settings.types) if settings.types else None
    features = list(settings.features) if settings.features else None
    if not isinstance(key, (str, os.PathLike, Corpus)):  # Docs: a list, read twice (annotations, then units)
        same = response is key
        key = as_docs(key, "key")
        response = key if same else response
    if credit is not None and not callable(getattr(credit, "accumulate", None)):
        raise ConfigError(f"credit must be a credit rule with accumulate(pairs) (such as "
                          f"spacy_anno_eval.bdm.credit.BdmCredit), got {type(credit).__name__}")
    opts = {} if reader_options is None else reader_options
    if response is key or (isinstance(key, (str, os.PathLike)) and isinstance(response, (str, os.PathLike))
                           and os.fspath(key) == os.fspath(response)):
        kc = rc = load(key, list(dict.fromkeys([key_set, response_set])), fmt, features, what="key",
                       **options_per_source([key], fmt, opts)[0])
    else:
        kc, rc = load_pair(key, response, key_set, response_set, fmt, features, opts)
    if not len(kc):
        raise InputError(f"{kc.source or 'key'}: the corpus has no documents")
    order = match_documents(kc, rc)
    if check_text and kc is not rc:
        rc = pair_by_position(kc, rc, order)  # CoNLL with re-spelt tokens: conlleval's pairing, with a warning
        check_texts(kc, rc, order)
    names_checked = check_names and not (kc.part or rc.part)
    if names_checked:
        kc.check_sets([key_set], "key")
        rc.check_sets([response_set], "response")
    ktab = kc.get_set(key_set)
    rtab = _reorder(rc.get_set(response_set), order, len(kc))
    if check_text:
        lengths = kc.lengths()
        ktab.check_bounds(lengths, kc.doc_ids, kc.source)
        rtab.check_bounds(lengths, kc.doc_ids, rc.source)
    if names_checked:
        sides = _sides(kc, rc, key_set, response_set)
        if types:
            check_types(types, present_labels(ktab) | present_labels(rtab), sides)
        if features and not wants_all_features(features):
            check_features(features, carried_features(ktab) | carried_features(rtab),
                           [kc.found_features, rc.found_features], sides)
    ktab, rtab = select_types(ktab, types), select_types(rtab, types)
    significant = features
    if wants_all_features(features):  # GATE's "all features": every feature an annotation of either side carries
        significant = sorted(carried_features(ktab) | carried_features(rtab)) or None
    alignment = align_spans(ktab, rtab, features=significant, pairing=settings.pairing,
                            min_overlap=settings.min_overlap)
    units = doc_units(key, kc, settings.fp_per)
    return Evaluation.from_alignment(alignment, kc.doc_ids, settings, kc.texts, credit, units)
