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
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from ..errors import ConfigError, InputError

if TYPE_CHECKING:
    from ..annotations.table import Corpus

#: the value of an annotator who covers a document but did not annotate a position of it
NONE = "(none)"


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

    def __len__(self) -> int:
        return len(self.doc)

    def to_dict(self) -> dict[str, Any]:
        """What the table was made from, for a report (not the values: ``agreement_summary`` has the figures)."""
        return {"unit": "span position (document, start, end)", "none_category": self.none_category,
                "n_units": len(self), "annotators": list(self.annotators), "documents": dict(self.documents)}

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
        raise InputError(f"{corpus.source or 'corpus'}: no annotation{what} in any of {', '.join(selectors)}; "
                         f"agreement needs units")
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


__all__ = ["NONE", "UnitsTable", "units_table"]
