"""Spans of N annotator sets as an annotators x units table, for the classification coefficients.

A *coding* view of span annotation (INCEpTION user guide, "Agreement", sections
"Coding vs. Unitizing" and "Incomplete annotations": github.com/inception-project/inception,
``inception-ui-agreement/src/main/resources/META-INF/asciidoc/user-guide/agreement.adoc``;
DKPro Agreement's coding studies, Meyer et al. 2014, COLING system demonstrations): a **unit**
is a position, every distinct ``(document, start, end)`` that some annotator
set annotated (only annotations of ``types`` when given); an annotator's
**value** for the unit is

- the label they gave that exact position;
- the category ``"(none)"`` (:data:`NONE`) when their set covers the document
  (it holds an annotation record of it) but has no annotation there: the
  annotator saw the text and marked nothing at that position, which is a
  judgement, so it disagrees with a label;
- missing (``None``) when their set does not cover the document
  (:meth:`~spacy_anno_eval.annotations.table.Corpus.covered`: never opened,
  skipped, cancelled; a DocBin without that span group): nothing is known, and
  Krippendorff's α and the pairwise figures leave the value out, as they do any
  missing value (Krippendorff 2011, "Computing Krippendorff's alpha-reliability").
  ``missing_as_empty`` counts it as ``"(none)"`` instead.

Where INCEpTION differs: it calls a position one annotator did not annotate
*incomplete* and treats it as a missing value (its α may include or exclude
such positions; its κ always excludes them), so annotators who never mark the
same spans can reach perfect agreement on what little they share; the guide
itself warns about it. ``none_category=None`` gives that view (an unannotated
position is missing, as a document not covered is). The default follows the
stricter "null category" reading, in which a missed or spurious span is a
disagreement, as the span F-measures of ``iaa`` count it.

Several annotations of one set at the same position with different labels
(INCEpTION's *stacked* annotations, which its agreement does not support)
give one value, the labels sorted and joined with ``+`` (``LOC+ORG``), and a
note says how many. Labels are compared as strings.

**Documents as units** (document classification, GATE's IAA for classification, user guide 10.5; the
categories of :attr:`~spacy_anno_eval.annotations.table.Corpus.cats`): :func:`document_units` makes a unit of
every document, and :func:`document_spans` the same items as whole-document annotations, so that
``iaa --measure kappa`` counts them with its one accumulator. A label is *chosen* when its value is at least
:data:`~spacy_anno_eval.annotations.table.CHOSEN` (0.5; the exports give 1.0 and 0.0). Two layouts, chosen
from the data (:func:`document_layout`):

- **single-label** (no annotator chose two labels for one document): the value is the chosen label, ``(none)``
  where the annotator covers the document and chose none; missing where the set does not cover it (or gives it
  no categories), as for span positions;
- **multi-label** (some annotator chose two or more labels for a document): a unit is a document and a label
  (every label some compared set names, chosen or offered), with the value ``yes`` (chosen) or ``no`` (the
  annotator covers the document and did not choose it) — the usual binary reading of multi-label annotation;
  ``iaa`` reports each label as a type of its own and their mean.

:func:`units_kind` decides between span positions and documents: ``documents`` when asked, or (``auto``) when
the compared sets carry document categories and no span annotation.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from ..errors import ConfigError, InputError

if TYPE_CHECKING:
    from ..annotations.table import Corpus

#: the value of an annotator who covers a document but did not annotate a position of it
NONE = "(none)"
#: what a unit is, for each kind of table
SPAN_UNIT = "span position (document, start, end)"
DOCUMENT_UNIT = "document"
DOCUMENT_LABEL_UNIT = "document x label"
#: a multi-label unit's values: the annotator chose the label, or covers the document and did not
YES, NO = "yes", "no"
#: the units ``agreement`` and ``iaa`` compare (``--units``)
UNITS = ("auto", "spans", "documents")
#: the annotation type and feature of the whole-document items of :func:`document_spans` (single-label)
DOCUMENT_TYPE, CATEGORY_FEATURE, CHOSEN_FEATURE = "document", "category", "chosen"


@dataclass
class UnitsTable:
    """Annotators x units values (``values[a][u]``: a label, :data:`NONE` or ``None`` for missing) and where
    the units are (``doc``: document ids, ``start`` / ``end``: code points)."""

    annotators: list[str]
    doc: list[str]
    start: list[int]
    end: list[int]
    values: list[list[str | None]]
    documents: dict[str, Any]
    notes: list[str] = field(default_factory=list)
    #: what a unit is (:data:`SPAN_UNIT`, :data:`DOCUMENT_UNIT`, :data:`DOCUMENT_LABEL_UNIT`)
    unit: str = SPAN_UNIT
    #: with :data:`DOCUMENT_LABEL_UNIT`, each unit's label (``None`` otherwise)
    labels: list[str] | None = None

    def __len__(self) -> int:
        return len(self.doc)

    def to_dict(self) -> dict[str, Any]:
        """What the table was made from, for a report (not the values: ``agreement_summary`` has the figures)."""
        out = {"unit": self.unit, "none_category": self.none_category, "n_units": len(self),
               "annotators": list(self.annotators), "documents": dict(self.documents)}
        if self.labels is not None:
            out["labels"] = sorted(set(self.labels))
        return out

    @property
    def none_category(self) -> str | None:
        return self.documents.get("none_category")


def _selectors(corpus: Corpus, sets: str | Iterable[str] | None) -> list[str]:
    from ..annotations.table import parse_selector, split_names

    if sets is None:
        names = corpus.annotators()
        if len(names) < 2:
            held = ", ".join(corpus.found_sets or names) or "none"
            raise InputError(f"{corpus.source or 'corpus'}: {len(names)} annotator set{'s' if len(names) != 1 else ''}"
                             f" ({', '.join(names) or 'none'}) where agreement needs two or more; name them with "
                             f"--sets (sets=), e.g. --sets 'spans:ann1;spans:ann2' (the sets: {held})")
        return names
    items = [p for s in ([sets] if isinstance(sets, str) else sets) for p in split_names(str(s))]
    for s in items:
        parse_selector(s)
    if len(items) < 2 or len(set(items)) != len(items):
        raise ConfigError(f"sets: give two or more different annotation sets, e.g. 'spans:ann1;spans:ann2'; got "
                          f"{items}")
    return items


def units_table(corpus: Corpus, sets: str | Iterable[str] | None = None, *, types: Sequence[str] | None = None,
                missing_as_empty: bool = False, none_category: str | None = NONE) -> UnitsTable:
    """The annotators x units table of ``corpus`` (see the module docstring).

    ``sets``: one selector per annotator (``spans:NAME``), default the
    corpus's annotator sets (:meth:`~spacy_anno_eval.annotations.table.Corpus.annotators`);
    ``types``: the labels whose annotations make units (a label no set has is
    refused, naming those that exist); ``missing_as_empty``: a document a set
    does not cover counts as covered with nothing annotated;
    ``none_category``: the value of a covered, unannotated position (``None``:
    a missing value, INCEpTION's view).
    """
    selectors = _selectors(corpus, sets)
    corpus.check_sets(selectors)
    tables = [corpus.get_set(s) for s in selectors]
    labels = [t.label_names().astype(object) for t in tables]
    if types is not None:
        wanted = set(types)
        present = {str(x) for lab in labels for x in lab}
        unknown = sorted(wanted - present)
        if unknown:
            raise ConfigError(f"--types: no annotator set has the type {unknown[0]!r}; the types are: "
                              f"{', '.join(sorted(present)) or 'none'}")
        keep = [np.isin(lab, list(wanted)) for lab in labels]
    else:
        keep = [np.ones(len(t), dtype=bool) for t in tables]
    rows = [np.stack([t.doc[k], t.start[k], t.end[k]], axis=1) for t, k in zip(tables, keep, strict=True)]
    every = np.concatenate(rows) if rows else np.zeros((0, 3), dtype=np.int64)
    units, inverse = np.unique(every, axis=0, return_inverse=True)
    inverse = inverse.reshape(-1)
    n_units = len(units)
    if not n_units:
        what = f" of the types {', '.join(types)}" if types else ""
        cats = " (they carry document categories: --units documents compares those)" \
            if any(corpus.doc_cats(s) is not None for s in selectors) else ""
        raise InputError(f"{corpus.source or 'corpus'}: no annotation{what} in any of {', '.join(selectors)}"
                         f"{cats}; agreement needs units")
    n_docs = len(corpus)
    covered = {s: corpus.covered(s) for s in selectors}
    unit_doc = units[:, 0]
    values: list[list[str | None]] = []
    stacked = 0
    offset = 0
    for s, lab, k in zip(selectors, labels, keep, strict=True):
        mine = inverse[offset:offset + int(k.sum())]
        offset += int(k.sum())
        row = np.full(n_units, none_category, dtype=object)
        given: dict[int, set[str]] = {}
        for u, label in zip(mine.tolist(), lab[k].tolist(), strict=True):
            given.setdefault(u, set()).add(str(label))
        for u, names in given.items():
            if len(names) > 1:
                stacked += 1
            row[u] = "+".join(sorted(names))
        if not missing_as_empty:
            row[~covered[s][unit_doc]] = None
        values.append(row.tolist())
    every_covers = np.logical_and.reduce([covered[s] for s in selectors]) if selectors else np.ones(n_docs, bool)
    doc_ids = list(corpus.doc_ids)
    documents = {
        "n_documents": n_docs, "missing_as_empty": bool(missing_as_empty), "none_category": none_category,
        "sets": list(selectors), "covered": {s: int(covered[s].sum()) for s in selectors},
        "not_covered": [{"doc": doc_ids[d], "sets": [s for s in selectors if not covered[s][d]]}
                        for d in np.flatnonzero(~every_covers).tolist()],
    }
    notes = []
    if stacked:
        notes.append(f"{stacked} position(s) where one set has several labels: their value is the labels joined "
                     f"with '+'")
    return UnitsTable(list(selectors), [doc_ids[d] for d in unit_doc.tolist()], units[:, 1].tolist(),
                      units[:, 2].tolist(), values, documents, notes)


def units_kind(corpus: Corpus, selectors: Sequence[str], units: str = "auto") -> str:
    """``"documents"`` or ``"spans"``: what ``agreement`` / ``iaa --measure kappa`` compare on the sets
    ``selectors`` of ``corpus`` (module docstring). ``units="documents"`` needs some of the sets to carry document
    categories (:class:`InputError` naming those that do otherwise); ``"auto"`` gives documents when some set
    carries categories and none holds a span annotation. :class:`ConfigError` for another value."""
    if units not in UNITS:
        raise ConfigError(f"--units must be one of {', '.join(UNITS)}, got {units!r}")
    if units == "spans":
        return "spans"
    with_cats = [s for s in selectors if corpus.doc_cats(s) is not None]
    if units == "documents":
        if not with_cats:
            held = ", ".join(corpus.cats_sets()) or "none"
            raise InputError(f"{corpus.source or 'corpus'}: --units documents: none of the sets {', '.join(selectors)} "
                             f"carries document categories (the sets that do: {held}); compare span positions "
                             f"(--units spans) or name the sets with --sets")
        return "documents"
    spans = any(len(corpus.sets[s]) for s in selectors if s in corpus.sets)
    return "documents" if with_cats and not spans else "spans"


def _chosen(corpus: Corpus, selectors: Sequence[str],
            missing_as_empty: bool) -> tuple[list[list[list[str] | None]], list[str]]:
    """Per set, per document, the chosen labels (``None``: missing, the set does not cover the document or
    gives it no categories); and every label some set names (chosen or not), sorted."""
    from ..annotations.table import chosen_labels

    n = len(corpus)
    per_set: list[list[list[str] | None]] = []
    every: set[str] = set()
    for s in selectors:
        cats = corpus.doc_cats(s) or [None] * n
        covered = corpus.covered(s)
        row: list[list[str] | None] = []
        for d, c in enumerate(cats):
            if c is None or not covered[d]:
                row.append([] if missing_as_empty else None)
                continue
            every.update(c)
            row.append(chosen_labels(c))
        per_set.append(row)
    return per_set, sorted(every)


def document_layout(chosen: list[list[list[str] | None]]) -> str:
    """``"multi-label"`` when some annotator chose two or more labels for one document, else ``"single-label"``
    (``chosen``: per set, per document, the chosen labels or ``None``)."""
    return "multi-label" if any(c is not None and len(c) > 1 for row in chosen for c in row) else "single-label"


def _document_info(corpus: Corpus, selectors: list[str], chosen: list[list[list[str] | None]], layout: str,
                   labels: list[str], missing_as_empty: bool) -> dict[str, Any]:
    n = len(corpus)
    doc_ids = list(corpus.doc_ids)
    has = [[c is not None for c in row] for row in chosen]
    return {"n_documents": n, "missing_as_empty": bool(missing_as_empty), "none_category": NONE,
            "layout": layout, "labels": labels, "sets": list(selectors),
            "covered": {s: sum(row) for s, row in zip(selectors, has, strict=True)},
            "not_covered": [{"doc": doc_ids[d], "sets": [s for s, row in zip(selectors, has, strict=True)
                                                          if not row[d]]}
                            for d in range(n) if not all(row[d] for row in has)]}


def _document_selectors(corpus: Corpus, sets: str | Iterable[str] | None) -> list[str]:
    """The sets compared on documents: ``sets``, else the corpus's annotator sets; some must carry categories."""
    selectors = _selectors(corpus, sets)
    corpus.check_sets(selectors)
    units_kind(corpus, selectors, "documents")  # some set carries categories, else an error naming those that do
    return selectors


def document_units(corpus: Corpus, sets: str | Iterable[str] | None = None, *,
                   missing_as_empty: bool = False) -> UnitsTable:
    """The annotators x units table of ``corpus`` with documents as units (module docstring): one unit per
    document some set covers (single-label: the chosen label or ``(none)``), or per document and label
    (multi-label: ``yes`` / ``no``); missing where a set does not cover the document (``missing_as_empty``:
    covered, nothing chosen). ``sets`` as :func:`units_table`; raise :class:`InputError` when none of them
    carries document categories or no document is covered."""
    selectors = _document_selectors(corpus, sets)
    chosen, labels = _chosen(corpus, selectors, missing_as_empty)
    layout = document_layout(chosen)
    lengths = corpus.lengths().tolist()
    doc_ids = list(corpus.doc_ids)
    docs = [d for d in range(len(corpus)) if any(row[d] is not None for row in chosen)]
    if not docs:
        raise InputError(f"{corpus.source or 'corpus'}: none of {', '.join(selectors)} covers a document with "
                         f"categories; agreement needs units")
    if layout == "single-label":
        values = [[None if row[d] is None else (row[d][0] if row[d] else NONE) for d in docs] for row in chosen]
        unit_docs, unit_labels = docs, None
    else:
        values = [[None if row[d] is None else (YES if label in row[d] else NO) for d in docs for label in labels]
                  for row in chosen]
        unit_docs = [d for d in docs for _ in labels]
        unit_labels = [label for _ in docs for label in labels]
    info = _document_info(corpus, selectors, chosen, layout, labels, missing_as_empty)
    return UnitsTable(list(selectors), [doc_ids[d] for d in unit_docs], [0] * len(unit_docs),
                      [int(lengths[d]) for d in unit_docs], values, info, [],
                      DOCUMENT_LABEL_UNIT if unit_labels is not None else DOCUMENT_UNIT, unit_labels)


def document_spans(corpus: Corpus, sets: str | Iterable[str] | None = None, *, missing_as_empty: bool = False,
                   consensus: str | None = None) -> tuple[Corpus, list[str], dict[str, Any]]:
    """The document categories of ``sets`` (and ``consensus``) as whole-document annotations, for
    ``iaa --measure kappa`` (:func:`~spacy_anno_eval.agreement.iaa.pairwise_kappa_documents`): a corpus in which
    every set that covers a document holds one annotation ``[0, len(text))`` of type ``document`` whose feature
    ``category`` is the chosen label or ``(none)`` (single-label), or one of type ``LABEL`` per label with the
    feature ``chosen`` ``yes`` / ``no`` (multi-label); the types to compare (``document->category``, or
    ``LABEL->chosen`` per label); and what the units are (:meth:`UnitsTable.to_dict`'s ``documents``, with
    ``unit`` and ``layout``). A set does not cover a document it has no categories of (coverage is recorded),
    unless ``missing_as_empty``."""
    from ..annotations.table import Corpus as CorpusType
    from ..annotations.table import SpanTableBuilder

    selectors = [s for s in _document_selectors(corpus, sets) if s != consensus]
    compared = [*selectors, *([consensus] if consensus else [])]
    chosen, labels = _chosen(corpus, compared, missing_as_empty)
    layout = document_layout(chosen)
    lengths = corpus.lengths().tolist()
    tables, coverage = {}, {}
    for s, row in zip(compared, chosen, strict=True):
        builder = SpanTableBuilder()
        for d, c in enumerate(row):
            if c is None:
                continue
            if layout == "single-label":
                builder.add(d, 0, int(lengths[d]), DOCUMENT_TYPE, {CATEGORY_FEATURE: c[0] if c else NONE})
            else:
                for label in labels:
                    builder.add(d, 0, int(lengths[d]), label, {CHOSEN_FEATURE: YES if label in c else NO})
        tables[s] = builder.build()
        if tables[s].features is None:
            tables[s].features = []
        covered = np.array([c is not None for c in row], dtype=bool)
        if not covered.all():
            coverage[s] = covered
    types = [f"{DOCUMENT_TYPE}->{CATEGORY_FEATURE}"] if layout == "single-label" else \
        [f"{label}->{CHOSEN_FEATURE}" for label in labels]
    info = _document_info(corpus, compared, chosen, layout, labels, missing_as_empty)
    info["unit"] = DOCUMENT_UNIT if layout == "single-label" else DOCUMENT_LABEL_UNIT
    out = CorpusType(list(corpus.doc_ids), corpus.texts, tables, corpus.source, text_lengths=corpus.lengths(),
                     given_ids=corpus.given_ids, found_sets=list(compared),
                     found_features=[CATEGORY_FEATURE if layout == "single-label" else CHOSEN_FEATURE],
                     coverage=coverage or None, annotator_sets=list(selectors), cats=corpus.cats)
    return out, types, info


def _names(value: str | Sequence[str] | None) -> list[str] | None:
    """``"A,B"`` or ``"A;B"`` (or a list) -> ``["A", "B"]``; empty or None -> None."""
    if not value:
        return None
    if isinstance(value, str):
        from ..annotations.table import split_names

        return split_names(value) or None
    return list(value) or None


def read_annotators(path: str | os.PathLike, fmt: str | None = "auto", selectors: Sequence[str] | None = None,
                    options: Mapping[str, Any] | None = None) -> Corpus:
    """The corpus at ``path`` holding the sets ``selectors``, else every annotator set it holds (a reader that
    reads only the sets asked for, such as the DocBin's, is asked again for its annotators); ``options``: the
    reader's."""
    from ..io import read_corpus

    options = dict(options or {})
    corpus = read_corpus(path, fmt or "auto", selectors=selectors or ["ents"], **options)
    if not selectors and any(name not in corpus.sets for name in corpus.annotators()):
        corpus = read_corpus(path, fmt or "auto", selectors=corpus.annotators(), **options)
    return corpus


def corpus_units(path: str | os.PathLike, fmt: str | None = "auto", *, sets: str | None = None,
                 types: str | Sequence[str] | None = None, missing_as_empty: bool = False, units: str = "auto",
                 options: Mapping[str, Any] | None = None) -> UnitsTable:
    """The :class:`UnitsTable` of the corpus at ``path`` (``options``: the reader's) that ``anno-eval agreement``
    compares: its span positions (:func:`units_table`, of the span ``types`` when given), or its documents
    (:func:`document_units`), as :func:`units_kind` decides from ``units`` (``auto``: documents when the compared
    sets carry document categories and no span). ``sets``: the annotator sets, ``;`` or ``,`` between them
    (default: every annotator set of the file). When span positions are compared under ``auto`` and some set also
    carries document categories, the table's notes say that ``--units documents`` compares those.
    :class:`ConfigError` for a ``TYPE->FEATURE`` type, or types with documents as units."""
    from ..annotations.table import parse_selector

    type_names = _names(types)
    if type_names and any("->" in t for t in type_names):
        raise ConfigError("--types: TYPE->FEATURE compares a feature in iaa; agreement takes labels ('PER,ORG'); "
                          "choose the label with --label-feature")
    corpus = read_annotators(path, fmt, _names(sets), options)
    selectors = _names(sets) or corpus.annotators()
    for s in selectors:
        parse_selector(s)
    if units_kind(corpus, selectors, units) == "documents":
        if type_names:
            raise ConfigError("--types selects the span types whose positions are units; documents are compared on "
                              "every category (leave --types out, or compare span positions with --units spans)")
        return document_units(corpus, sets, missing_as_empty=missing_as_empty)
    table = units_table(corpus, sets, types=type_names, missing_as_empty=missing_as_empty)
    with_cats = [s for s in selectors if corpus.doc_cats(s) is not None]
    if with_cats and units == "auto":
        table.notes.append(f"the sets {', '.join(with_cats)} also carry document categories: --units documents "
                           f"compares those")
    return table


__all__ = ["DOCUMENT_LABEL_UNIT", "DOCUMENT_UNIT", "NO", "NONE", "SPAN_UNIT", "UNITS", "YES", "UnitsTable",
           "corpus_units", "document_layout", "document_spans", "document_units", "read_annotators", "units_kind",
           "units_table"]
