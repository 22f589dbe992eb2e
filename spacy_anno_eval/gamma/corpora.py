"""γ on spaCy Docs, DocBins and annotation corpora: one annotator per annotation set, documents end to end.

- **spaCy** Docs or a ``.spacy`` DocBin: one annotation set per annotator
  (selectors ``ents`` / ``spans:<key>``, see :mod:`spacy_anno_eval.annotations.table`),
  positions in characters or tokens; several documents are laid end to end
  on one axis (:func:`from_docs`, :func:`read_docbin`).
- **Annotation corpora**: any format :func:`spacy_anno_eval.io.read_corpus`
  reads (GATE, INCEpTION XMI and TSV3, Label Studio, doccano, BioC, Prodigy,
  NIF, brat, JSONL, CoNLL), one annotator per set, character positions,
  documents laid end to end as for spaCy (:func:`from_corpus`,
  :func:`read_annotations`).

**Partial coverage** (DocBins and corpora). A document for which a set has no
annotation record (a DocBin without that span group; an export where the
annotator never opened, skipped or cancelled it) is not one they annotated as
empty. γ aligns every annotator along one continuum and computes one figure
for all documents, so an annotator cannot be left out of one stretch of it:
such a document is left out for every annotator, the continuum is the
documents all of them annotated (:attr:`Continuum.documents` lists what was
left out and for whom; a warning says how many). GATE's QA summariser for
Teamware (user guide 10.7) and INCEpTION's agreement page compare two
annotators only on the documents both annotated; on one continuum of N
annotators that is the documents all of them annotated. To compare annotators
with less overlap, name fewer of them with ``sets``. ``missing_as_empty=True`` (``--missing-as-empty``) keeps every
document, counting a missing record as an annotation with nothing in it.

Every function raises :class:`~spacy_anno_eval.errors.InputError` naming the
input (and document, set or span) on bad input.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from ..annotations.docs import as_docs, doc_id, found_selectors, span_rows
from ..annotations.table import parse_selector
from ..errors import CoverageWarning, InputError, where
from .continuum import Continuum

if TYPE_CHECKING:
    from ..annotations.table import Corpus

PathLike = str | os.PathLike
Unit = tuple[str, float, float, str]

UNITS = ("char", "token")


# ---------------------------------------------------------------------------
# spaCy Docs and DocBins


def parse_sets(sets: str | Iterable[str] | None) -> list[str]:
    """Annotation-set selectors from a list or a ``;``-separated string, validated, in the given order."""
    if sets is None:
        items: list[str] = []
    else:
        from ..annotations.table import split_names

        items = [part for s in ([sets] if isinstance(sets, str) else sets) for part in split_names(str(s))]
    if not items:
        raise InputError("no annotation sets given: pass one selector per annotator, "
                                 "e.g. --sets 'spans:ann1;spans:ann2'")
    for s in items:
        parse_selector(s)
    seen: set[str] = set()
    for s in items:
        if s in seen:
            raise InputError(f"annotation set {s!r} given twice; each annotator needs its own set")
        seen.add(s)
    return items


def default_sets(annotators: Sequence[str], found: Sequence[str] | None, source: str) -> list[str]:
    """The sets to compare when none are named: ``annotators`` (:meth:`~spacy_anno_eval.annotations.table.Corpus.
    annotators`), checked to be two or more; else :class:`InputError` listing the sets the input holds."""
    if len(annotators) >= 2:
        return list(annotators)
    held = ", ".join(found or annotators) or "none"
    raise InputError(f"{source or 'corpus'}: {len(annotators)} annotator set{'s' if len(annotators) != 1 else ''} "
                     f"({', '.join(annotators) or 'none'}) where γ compares two or more; name them with --sets "
                     f"(sets=), e.g. --sets 'spans:ann1;spans:ann2' (the sets: {held})")


#: the start of the warning of a continuum that leaves documents out (the CLI shows the same in its table)
LEFT_OUT = "documents left out of γ"


def _lay_out(doc_ids: Sequence[str], sizes: Sequence[int], rows: dict[str, list[tuple[int, int, int, str]]],
             covered: dict[str, np.ndarray], selectors: list[str], *, missing_as_empty: bool,
             source: str) -> Continuum:
    """One continuum from documents laid end to end, each document ``d`` shifted by the sizes of the documents
    before it that are compared, plus one per document (units of two documents never touch).

    γ aligns every annotator on one axis: a stretch an annotator never annotated would count as one they left
    empty. So a document that some set of ``selectors`` does not cover (``covered[s][d]`` False: no annotation
    record) is left out for every annotator, unless ``missing_as_empty``; what was compared is recorded in
    :attr:`Continuum.documents`, and a warning names what was left out.
    """
    n = len(doc_ids)
    every = np.ones(n, dtype=bool)
    for s in selectors:
        every &= covered[s]
    keep = np.ones(n, dtype=bool) if missing_as_empty else every
    counts = {s: int(covered[s].sum()) for s in selectors}
    if n and not keep.any():
        shown = ", ".join(f"{s} {k}" for s, k in counts.items())
        raise InputError(f"{source or 'corpus'}: no document is covered by every annotator set (documents each set "
                         f"annotated, of {n}: {shown}); γ lays every annotator on one continuum, so it compares the "
                         f"documents all of them annotated. Name annotators who share documents with --sets, or pass "
                         f"--missing-as-empty (missing_as_empty=True) to count a document a set has no record for "
                         f"as annotated with nothing")
    shift = np.zeros(n, dtype=np.int64)
    position = 0
    for d in np.flatnonzero(keep).tolist():
        shift[d] = position
        position += int(sizes[d]) + 1
    units: list[Unit] = []
    for selector in selectors:
        for d, s, e, label in rows[selector]:
            if not s < e:
                raise InputError(f"{where(source, doc_ids[d], span=(s, e))}: empty span in {selector!r} (label "
                                 f"{label!r}); a unit needs start < end")
            if keep[d]:
                units.append((selector, int(shift[d]) + s, int(shift[d]) + e, label))
    continuum = Continuum.from_units(units, annotators=selectors, source=source)
    not_covered = np.flatnonzero(~every).tolist()
    continuum.documents = {
        "n_documents": n, "n_compared": int(keep.sum()), "missing_as_empty": bool(missing_as_empty),
        "sets": list(selectors), "covered": counts,
        "not_covered": [{"doc": doc_ids[d], "sets": [s for s in selectors if not covered[s][d]]} for d in not_covered],
        "left_out": [doc_ids[d] for d in np.flatnonzero(~keep).tolist()],
        # the positions the compared documents span, end to end with one position between two documents: what
        # every annotator covered (unitizing alpha counts the stretches nobody marked as gaps)
        "extent": [0, max(position - 1, 0)],
    }
    left = continuum.documents["left_out"]
    if left:
        first = continuum.documents["not_covered"][0]
        warnings.warn(f"{source or 'corpus'}: {len(left)} of {n} {LEFT_OUT}, not covered by every annotator set "
                      f"(first: {first['doc']!r}, no record of {', '.join(first['sets'])}); --missing-as-empty "
                      f"counts them as annotated with nothing", CoverageWarning, stacklevel=3)
    return continuum


def from_docs(docs: Iterable[Any] | PathLike, sets: str | Iterable[str] | None = None, *, unit: str = "char",
              source: str = "", missing_as_empty: bool = False) -> Continuum:
    """A continuum from spaCy Docs: annotator = selector, one unit per span (category = its label).

    ``sets``: selectors such as ``["spans:ann1", "spans:ann2"]`` or
    ``"spans:ann1;spans:ann2"``; ``None``: every span group some Doc holds
    (two or more). ``unit="char"`` places a span at
    ``[start_char, end_char)``, ``unit="token"`` at ``[start, end)``. Document
    ``k`` is shifted by the lengths (in ``unit``) of the compared documents before
    it plus one per document, so that units of different documents never touch.

    **Coverage.** A Doc without a set's span group (``doc.spans`` lacks the
    key) has no annotation record of that annotator, as opposed to an empty
    group (an annotation with nothing in it). γ needs every annotator on the
    whole continuum, so such a document is left out (for every annotator, with
    a warning; :attr:`Continuum.documents` says which and why), unless
    ``missing_as_empty``: then it counts as annotated with nothing (the
    behaviour before coverage was recorded). A selector that no document holds
    (not even as an empty span group) raises
    :class:`~spacy_anno_eval.errors.InputError` listing the sets that exist.
    ``docs`` may also be the path of a ``.spacy`` file (see :func:`read_docbin`).
    """
    if isinstance(docs, str | os.PathLike):
        return read_docbin(docs, sets, unit=unit, missing_as_empty=missing_as_empty)
    if unit not in UNITS:
        raise InputError(f"unknown unit {unit!r}: use 'char' or 'token'")
    docs = as_docs(docs, source or "docs")
    found = found_selectors(docs)
    if sets is None:
        selectors = default_sets([s for s in found if s.startswith("spans:")], found, source or "docs")
    else:
        selectors = parse_sets(sets)
    missing = [s for s in selectors if s not in found]
    if missing:
        raise InputError(f"{source or 'docs'}: no document has the annotation set {missing[0]!r}; the sets are: "
                         f"{', '.join(found)}")
    sizes = [len(doc.text) if unit == "char" else len(doc) for doc in docs]
    rows = {selector: span_rows(docs, selector, unit=unit) for selector in selectors}
    from ..io.coverage import docs_coverage

    held = docs_coverage(docs, every=True) or {}  # a span group present, even empty, is an annotation record
    covered = {s: np.ones(len(docs), dtype=bool) if s == "ents" else held.get(s, np.zeros(len(docs), dtype=bool))
               for s in selectors}  # ents is in every Doc; a group no Doc holds covers none
    ids = [doc_id(doc, d) for d, doc in enumerate(docs)]
    return _lay_out(ids, sizes, rows, covered, selectors, missing_as_empty=missing_as_empty,
                    source=source or "docs")


def read_docbin(path: PathLike, sets: str | Iterable[str] | None = None, *, unit: str = "char",
                missing_as_empty: bool = False) -> Continuum:
    """:func:`from_docs` on the Docs of a ``.spacy`` DocBin (or a folder of ``.spacy`` shards, by name)."""
    import spacy
    from spacy.tokens import DocBin

    from ..io.docbin import docbin_files
    from ..io.parse import read_bytes

    if sets is not None:
        parse_sets(sets)
    if unit not in UNITS:
        raise InputError(f"unknown unit {unit!r}: use 'char' or 'token'")
    vocab = spacy.blank("xx").vocab
    docs: list[Any] = []
    for f in docbin_files(path):
        try:
            docs.extend(DocBin().from_bytes(read_bytes(f)).get_docs(vocab))
        except OSError as exc:
            raise InputError(f"{f}: cannot read ({exc.strerror or exc})") from exc
        except Exception as exc:  # zlib, msgpack, missing keys
            raise InputError(f"{f}: not a spaCy DocBin ({type(exc).__name__}: {exc})") from exc
    return from_docs(docs, sets, unit=unit, source=str(path), missing_as_empty=missing_as_empty)


def from_corpus(corpus: Corpus, sets: str | Iterable[str] | None = None, *,
                missing_as_empty: bool = False) -> Continuum:
    """A continuum (character positions) from a :class:`~spacy_anno_eval.annotations.table.Corpus` that any
    reader of :mod:`spacy_anno_eval.io` made: annotator = set, one unit per annotation (category = its label).

    ``sets``: selectors (``spans:NAME``); ``None``: the corpus's annotators
    (:meth:`~spacy_anno_eval.annotations.table.Corpus.annotators`: the
    annotators, users or model versions of an annotation tool's export), two or
    more. Documents are laid end to end as in :func:`from_docs`, and a document
    some set does not cover (:meth:`~spacy_anno_eval.annotations.table.Corpus.covered`:
    the export holds no annotation record of it, as for a skipped or cancelled
    task) is left out, unless ``missing_as_empty``.
    """
    source = corpus.source or "corpus"
    if sets is None:
        selectors = default_sets(corpus.annotators(), corpus.found_sets, source)
    else:
        selectors = parse_sets(sets)
    corpus.check_sets(selectors)
    rows: dict[str, list[tuple[int, int, int, str]]] = {}
    for s in selectors:
        t = corpus.get_set(s)
        rows[s] = list(zip(t.doc.tolist(), t.start.tolist(), t.end.tolist(), t.label_names().tolist(), strict=True))
    covered = {s: corpus.covered(s) for s in selectors}
    return _lay_out(list(corpus.doc_ids), corpus.lengths().tolist(), rows, covered, selectors,
                    missing_as_empty=missing_as_empty, source=source)


def read_annotations(path: PathLike, fmt: str = "auto", sets: str | Iterable[str] | None = None, *,
                     missing_as_empty: bool = False, **options: Any) -> Continuum:
    """:func:`from_corpus` on the corpus :func:`spacy_anno_eval.io.read_corpus` reads from ``path`` in format
    ``fmt`` (``auto``: detected); ``options`` go to the reader (``label_feature``, ``sep``, ...)."""
    from ..io import read_corpus

    selectors = parse_sets(sets) if sets is not None else ["ents"]
    corpus = read_corpus(path, fmt, selectors=selectors, **options)
    if sets is None and any(name not in corpus.sets for name in corpus.annotators()):
        # a reader that reads only the sets asked for: read again, asking for the annotators it holds
        corpus = read_corpus(path, fmt, selectors=corpus.annotators(), **options)
    return from_corpus(corpus, sets, missing_as_empty=missing_as_empty)


__all__ = ["LEFT_OUT", "UNITS", "default_sets", "from_corpus", "from_docs", "parse_sets", "read_annotations",
           "read_docbin"]
