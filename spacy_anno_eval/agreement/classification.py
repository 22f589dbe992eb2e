"""Classification agreement over coextensive annotations: the one span-kappa accumulator.

Both doors that put span annotations into categories count with
:class:`ContingencyCounts` and compute their figures with
:meth:`ContingencyCounts.figures`:

- ``anno-eval qa --classify TYPE:FEATURE`` (GATE's Corpus QA
  "classification", user guide 10.3; :func:`classification_counts`,
  :class:`ClassificationCounts`);
- ``anno-eval iaa --measure kappa`` (GATE's IAA plugin "agreement and
  kappa", user guide 10.5.1; :func:`spacy_anno_eval.agreement.iaa.pairwise_kappa`).

Categories are compared as strings, in one place (:func:`category`): GATE's
classification tables "assemble a list of all the feature values, converting
them to strings ... In these tables, a String with a value of "5" and an
Integer with a value of 5 count as a match" (user guide 10.3.6). The span
pairing itself keeps comparing values by type and value ("5" != 5), as
GATE's Annotation Diff does.

The items of each door (their other rules are kept as each had them):

- ``qa``: the **coextensive pairs** of the alignment (status ``correct`` or
  ``incorrect``: same start and end in the same document) in which the key's
  label or the response's label is ``type``. The category of each side is its
  value of ``feature`` (read from
  :attr:`SpanTable.features <spacy_anno_eval.annotations.table.SpanTable.features>`);
  an annotation without the feature (or with ``None``) is in the category
  :data:`NO_VALUE` (``"<none>"``). With the feature name :data:`LABEL`
  (``"label"``) the category is the annotation's label (kappa over entity
  labels). Features are kept only when the evaluation was made with them
  (``evaluate(..., features=[...])``, CLI ``--features``), which also makes
  them significant for the pairing: a coextensive pair whose feature values
  differ is ``incorrect`` and still counted here.
- ``iaa``: coextensive annotations of one type, paired one-to-one by
  :func:`~spacy_anno_eval.spans.coextensive.pair_coextensive`; an annotation
  only one annotator made, or one without the feature, is ``Non-cat`` (see
  :mod:`spacy_anno_eval.agreement.iaa`).

Span-finding tasks have no well-defined negative items, so kappa over all
annotations is not meaningful (GATE 10.1.2, last paragraph); restricting to
coextensive annotations is what makes a classification table out of them.

The counts are sums (per document, category of A, category of B), so the
counts of shards merged (:meth:`ContingencyCounts.concat`) equal those of the
whole corpus exactly, and so does every figure computed from them.
Coefficients that do not exist (Ae = 1: a single category; no items) are
``None``, with the :class:`~spacy_anno_eval.errors.DegenerateAgreementWarning`
of :mod:`spacy_anno_eval.agreement.coefficients`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..errors import ConfigError, InputError
from ..figures import none_if_undefined
from ..files import json_text
from ..spans.align import CORRECT, INCORRECT
from .coefficients import (
    ContingencyTable,
    cohen_kappa,
    observed_agreement,
    scott_pi,
    specific_agreement,
    table_bootstrap,
)

#: qa's category of an annotation that lacks the feature
NO_VALUE = "<none>"
#: feature name that means "the annotation's label"
LABEL = "label"
#: the most table cells (documents x q x q) of one stack of per-document tables
STACK_CELLS = 1 << 20


def category(value: Any, missing: str) -> str:
    """The category of a feature value: its string form, so values compare as strings (GATE 10.3.6).

    A string is its own category; a list, tuple or dict is its JSON text
    (keys sorted); any other value is ``str(value)``; ``None`` (no value) is
    ``missing``, the door's category for an annotation without the feature.

    >>> category("5", "Non-cat") == category(5, "Non-cat") == "5"
    True
    >>> category(None, "Non-cat"), category(["a", 1], "<none>")
    ('Non-cat', '["a", 1]')
    """
    if value is None:
        return missing
    if isinstance(value, str):
        return value
    if isinstance(value, (list, tuple, dict)):
        return json_text(value, sort_keys=True, default=str)
    return str(value)


def row_categories(table: Any, feature: str, missing: str, rows: np.ndarray | None = None) -> list[str]:
    """The :func:`category` of the value of ``feature`` on ``rows`` (default: every row) of a SpanTable
    (``missing`` where a row lacks it)."""
    feats = table.features
    n = len(table) if rows is None else len(rows)
    if feats is None:
        return [missing] * n
    if rows is not None:
        feats = [feats[r] for r in rows.tolist()]
    return [category(f.get(feature), missing) for f in feats]


@dataclass(frozen=True)
class ContingencyCounts:
    """Mergeable contingency counts: ``count[k]`` items of document ``doc[k]`` that coder A put into category
    ``categories[a[k]]`` and coder B into ``categories[b[k]]``.

    Cells are distinct and sorted by (document, a, b); only categories that
    some item uses are kept. A door that does not need documents counts every
    item in document 0.
    """

    categories: tuple[str, ...] = ()
    doc: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    a: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    b: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    count: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))

    @classmethod
    def of_codes(cls, categories: Sequence[str], a: np.ndarray, b: np.ndarray, doc: np.ndarray | None = None,
                 count: np.ndarray | None = None) -> ContingencyCounts:
        """Count items: item ``i`` (``count[i]`` of them, default 1) of document ``doc[i]`` (default 0) is in
        ``categories[a[i]]`` for A and ``categories[b[i]]`` for B."""
        a, b = np.asarray(a, dtype=np.int64), np.asarray(b, dtype=np.int64)
        doc = np.zeros(len(a), dtype=np.int64) if doc is None else np.asarray(doc, dtype=np.int64)
        count = np.ones(len(a), dtype=np.int64) if count is None else np.asarray(count, dtype=np.int64)
        used, codes = np.unique(np.concatenate([a, b]), return_inverse=True)
        codes = codes.reshape(-1)
        q = max(len(used), 1)
        cell, inverse = np.unique((doc * q + codes[:len(a)]) * q + codes[len(a):], return_inverse=True)
        sums = np.zeros(len(cell), dtype=np.int64)
        np.add.at(sums, inverse.reshape(-1), count)
        return cls(tuple(categories[k] for k in used.tolist()), cell // (q * q), cell // q % q, cell % q, sums)

    @classmethod
    def of_items(cls, a: Sequence[str], b: Sequence[str]) -> ContingencyCounts:
        """Count items given as two lists of category names (``a[i]``, ``b[i]``: item ``i``), in document 0."""
        vocab = sorted(set(a) | set(b))
        index = {c: k for k, c in enumerate(vocab)}
        return cls.of_codes(vocab, np.array([index[c] for c in a], dtype=np.int64),
                            np.array([index[c] for c in b], dtype=np.int64))

    @classmethod
    def concat(cls, parts: Iterable[ContingencyCounts]) -> ContingencyCounts:
        """The counts of all ``parts`` together: the sum per (document, category of A, category of B)."""
        parts = list(parts)
        vocab = sorted(set().union(*(p.categories for p in parts)))
        index = {c: k for k, c in enumerate(vocab)}
        cols: list[list[np.ndarray]] = [[], [], [], []]
        for p in parts:
            to_global = np.array([index[c] for c in p.categories], dtype=np.int64)
            for col, values in zip(cols, (p.doc, to_global[p.a], to_global[p.b], p.count), strict=True):
                col.append(values)
        if not vocab:
            return cls()
        doc, a, b, count = (np.concatenate(col) for col in cols)
        return cls.of_codes(vocab, a, b, doc, count)

    def merge(self, other: ContingencyCounts) -> ContingencyCounts:
        """The counts of both together."""
        return ContingencyCounts.concat([self, other])

    @property
    def n(self) -> int:
        """The number of items."""
        return int(self.count.sum())

    def _codes_in(self, categories: Sequence[str]) -> np.ndarray:
        index = {c: k for k, c in enumerate(categories)}
        missing = [c for c in self.categories if c not in index]
        if missing:
            raise ConfigError(f"the categories {list(categories)} leave out {missing}, which items use")
        return np.array([index[c] for c in self.categories], dtype=np.int64)

    def table(self, categories: Sequence[str] | None = None) -> ContingencyTable:
        """The contingency table (rows A, columns B) in ``categories`` (default: those used, sorted), which must
        hold every category used."""
        cats = tuple(self.categories if categories is None else categories)
        g = self._codes_in(cats)
        matrix = np.zeros((len(cats), len(cats)), dtype=np.int64)
        np.add.at(matrix, (g[self.a], g[self.b]), self.count)
        return ContingencyTable(matrix, cats)

    def figures(self, categories: Sequence[str] | None = None, *, bootstrap: int = 0, seed: int = 0,
                client: Any = None) -> dict[str, Any]:
        """The figures of the summed table in ``categories`` (see :meth:`table`), JSON-ready::

            {"n": int, "observed_agreement": float,
             "cohen_kappa": float|None, "scott_pi": float|None,       # with bootstrap: "cohen_kappa_ci", "scott_pi_ci"
             "specific_agreement": {category: float},                 # positive specific agreement
             "confusion": {"categories": [str], "matrix": [[int]]}}

        From :mod:`spacy_anno_eval.agreement.coefficients`: observed agreement
        ``Ao = sum_k t[k, k] / n`` (GATE 10.1.2, eq. 10.1), Cohen's kappa and
        Scott's pi ``(Ao - Ae) / (1 - Ae)`` (GATE tables 10.3, 10.4), positive
        specific agreement ``2 t[k, k] / (tA[k] + tB[k])`` (eq. 10.2);
        ``bootstrap`` samples give percentile intervals for kappa and pi
        (:func:`~spacy_anno_eval.agreement.coefficients.table_bootstrap`, ``seed``, Dask ``client``). Kappa and
        pi that do not exist (no items; Ae = 1) are ``None``; observed and specific agreement are ratios, 0.0
        with a zero denominator (no items; a category used by neither coder), as the coefficients module says.
        """
        t = self.table(categories)
        nan = float("nan")
        out: dict[str, Any] = {"n": t.n, "observed_agreement": float(observed_agreement(t))}
        dask = {"client": client} if client is not None else {}
        for key, coefficient in (("cohen_kappa", cohen_kappa), ("scott_pi", scott_pi)):
            if bootstrap and t.n:
                res = table_bootstrap(t.matrix, coefficient, n_samples=bootstrap, seed=seed, undefined=nan, **dask)
                out[f"{key}_ci"] = res.ci
            else:
                res = coefficient(t, undefined=nan)
            out[key] = none_if_undefined(res.value)
        specific = specific_agreement(t).tolist()
        out["specific_agreement"] = dict(zip(t.categories, specific, strict=True))
        out["confusion"] = t.to_dict()
        return out

    def chance_corrected(self, categories: Sequence[str] | None = None) -> dict[str, Any]:
        """The chance-corrected family of the summed table in ``categories`` (see :meth:`table`):
        :func:`table_family`."""
        return table_family(self.table(categories))

    def per_doc(self, doc_ids: Sequence[str], categories: Sequence[str] | None = None) -> list[dict[str, Any]]:
        """``{"doc_id", "n", "observed_agreement", "cohen_kappa", "scott_pi"}`` of every document with items, in
        document order (``None`` where kappa or pi does not exist). The per-document tables are stacked a batch
        of documents at a time (at most :data:`STACK_CELLS` cells), batches set by the documents only."""
        cats = tuple(self.categories if categories is None else categories)
        g, q = self._codes_in(cats), len(cats)
        docs, ca, cb, counts = self.doc, g[self.a], g[self.b], self.count
        nan = float("nan")
        used, first = np.unique(docs, return_index=True)
        bounds = np.append(first, len(docs))
        step = max(1, STACK_CELLS // max(q * q, 1))
        rows = []
        for lo in range(0, len(used), step):
            batch = used[lo:lo + step]
            cells = slice(bounds[lo], bounds[lo + len(batch)])
            stack = np.zeros((len(batch), q, q), dtype=np.int64)
            np.add.at(stack, (np.searchsorted(batch, docs[cells]), ca[cells], cb[cells]), counts[cells])
            ao = np.atleast_1d(observed_agreement(stack))  # every document here has items
            kappa = np.atleast_1d(cohen_kappa(stack, undefined=nan).value)
            pi = np.atleast_1d(scott_pi(stack, undefined=nan).value)
            n = stack.sum(axis=(1, 2))
            rows.extend({"doc_id": doc_ids[d], "n": int(n[k]), "observed_agreement": float(ao[k]),
                         "cohen_kappa": none_if_undefined(kappa[k]), "scott_pi": none_if_undefined(pi[k])}
                        for k, d in enumerate(batch.tolist()))
        return rows


#: the two-rater (contingency table) part of the chance-corrected family: key and measure of
#: :func:`~spacy_anno_eval.agreement.chance.table_agreement`
TABLE_FAMILY = (("gwet_ac", "gwet"), ("brennan_prediger", "brennan_prediger"))


def table_family(table: ContingencyTable) -> dict[str, Any]:
    """The chance-corrected family of a two-rater contingency table, from :mod:`spacy_anno_eval.agreement.chance`
    (identity weights), JSON-ready::

        {"weights": "identity",
         "gwet_ac": {...}, "brennan_prediger": {...},     # ChanceAgreement.to_dict(): value, pa, pe, se, ci, ...
         "pabak": {"po", "pabak", ...},                   # with 2 categories also prevalence_index, bias_index,
                                                          # cohen_kappa (Byrt), positive/negative_agreement
         "specific_agreement": {category: {"positive": float, "negative": float}}}

    Gwet's AC1 and Brennan-Prediger count every category of ``table`` in
    ``q`` (also one nobody used, such as an empty ``Non-cat``). Figures that
    do not exist are ``None``, with the
    :class:`~spacy_anno_eval.errors.UndefinedFigureWarning` of that module.

    Brennan & Prediger's (1981) table: ``pa`` 0.6, ``pe`` 1/3, coefficient 0.4 (= PABAK for 3 categories).

    >>> from .coefficients import ContingencyTable
    >>> out = table_family(ContingencyTable(np.array([[50, 0, 0], [10, 10, 10], [20, 0, 0]]), ("x", "y", "z")))
    >>> round(out["brennan_prediger"]["value"], 6), round(out["pabak"]["pabak"], 6)
    (0.4, 0.4)
    """
    from .chance import pabak, specific_agreements, table_agreement

    out: dict[str, Any] = {"weights": "identity"}
    for key, measure in TABLE_FAMILY:
        out[key] = table_agreement(table.matrix, measure, categories=list(table.categories)).to_dict()
    out["pabak"] = pabak(table.matrix)
    out["specific_agreement"] = specific_agreements(table.matrix, list(table.categories))
    return out


def raw_family(ratings: Sequence[Sequence[str | None]], annotators: Sequence[str],
               categories: Sequence[str]) -> tuple[dict[str, Any], list[str]]:
    """The chance-corrected family of ``ratings`` (annotators x units, a category or ``None`` for missing)
    among ``categories``, as ``anno-eval agreement`` reports it
    (:data:`~spacy_anno_eval.agreement.summary.FAMILY`: Gwet's AC1, Brennan-Prediger, Conger's kappa and
    Fleiss' kappa with averaged shares, each with irrCAC's analytic standard error; identity weights), and
    each annotator against the majority opinion of the others
    (:func:`~spacy_anno_eval.agreement.chance.majority_agreement`, ties left out). Returns the JSON-ready
    figures and the notes of coefficients that cannot be computed on these ratings (left out of the figures)."""
    from ..errors import AnnoEvalError
    from .chance import chance_agreement, majority_agreement
    from .summary import FAMILY

    notes: list[str] = []
    n_units = len(ratings[0]) if len(ratings) else 0
    out: dict[str, Any] = {"weights": "identity", "n_units": n_units}
    if not n_units:
        notes.append("no items: the chance-corrected family is left out")
        return out, notes
    for key, measure in FAMILY:
        try:
            out[key] = chance_agreement(ratings, measure, "identity", categories=list(categories)).to_dict()
        except AnnoEvalError as err:
            notes.append(f"{key}: {err}")
    out["majority"] = majority_agreement(ratings, list(annotators))
    return out, notes


@dataclass
class ClassificationCounts:
    """qa's classification of ``type`` annotations on ``feature``: the :class:`ContingencyCounts` of the
    coextensive pairs, and what the errors of :meth:`table` need (whether the type and the feature occur)."""

    type: str
    feature: str
    counts: ContingencyCounts = field(default_factory=ContingencyCounts)
    type_seen: bool = False
    feature_seen: bool = False
    labels: set[str] = field(default_factory=set)

    def merge(self, other: ClassificationCounts) -> ClassificationCounts:
        """The counts of both corpora together."""
        if (self.type, self.feature) != (other.type, other.feature):
            raise ConfigError(f"cannot merge the classification of {self.type}:{self.feature} with "
                              f"{other.type}:{other.feature}: count both with the same type and feature")
        return ClassificationCounts(self.type, self.feature, self.counts.merge(other.counts),
                                    self.type_seen or other.type_seen, self.feature_seen or other.feature_seen,
                                    self.labels | other.labels)

    def table(self) -> dict[str, Any]:
        """The classification table (see :func:`classification_table`) of these counts."""
        if not self.type_seen:
            known = ", ".join(sorted(self.labels)) or "none"
            raise InputError(f"unknown annotation type {self.type!r}: the evaluation has the types {known}; "
                             f"pass one of them")
        if self.feature != LABEL and not self.feature_seen:
            raise InputError(f"no annotation carries the feature {self.feature!r}: evaluate with "
                             f"features=[{self.feature!r}] (CLI --features {self.feature}) so that the readers "
                             f"keep it, or use the feature {LABEL!r} to compare the labels")
        if not self.counts.n:
            raise InputError(f"no coextensive key/response pairs of type {self.type!r} (both sides must mark the "
                             f"same span): there is nothing to classify; use the precision/recall report for span "
                             f"agreement")
        figures = self.counts.figures(sorted(self.counts.categories, key=lambda c: (c == NO_VALUE, c)))
        confusion = figures.pop("confusion")
        matrix = confusion["matrix"]
        return {"type": self.type, "feature": self.feature, "categories": confusion["categories"],
                "matrix": matrix, "row_totals": [sum(row) for row in matrix],
                "column_totals": [sum(column) for column in zip(*matrix, strict=True)], **figures}


def classification_table(evaluation: Any, type: str, feature: str) -> dict[str, Any]:
    """Classification agreement of ``type`` annotations on ``feature`` (see the module docstring).

    Returns JSON-ready data::

        {"type": str, "feature": str, "categories": [str, ...],
         "matrix": [[int, ...], ...],          # rows: key, columns: response
         "row_totals": [int, ...],             # pairs per key category (the matrix's row sums)
         "column_totals": [int, ...],          # pairs per response category (its column sums)
         "n": int,                             # coextensive pairs counted (the matrix's total)
         "observed_agreement": float, "cohen_kappa": float|None, "scott_pi": float|None,
         "specific_agreement": {category: float}}   # positive specific agreement

    Categories are sorted, with :data:`NO_VALUE` last. A coefficient that
    does not exist (a single category: Ae = 1) is ``None`` with a
    :class:`~spacy_anno_eval.errors.DegenerateAgreementWarning`. Raise
    :class:`~spacy_anno_eval.errors.InputError` when the evaluation keeps no
    pairs, ``type`` is not one of its labels, no annotation carries
    ``feature``, or there is no coextensive pair of ``type``. The same as
    ``classification_counts(...).table()``.
    """
    return classification_counts(evaluation, type, feature).table()


def classification_counts(evaluation: Any, type: str, feature: str) -> ClassificationCounts:
    """The classification counts of ``type`` annotations on ``feature`` in one evaluation (made by
    :func:`~spacy_anno_eval.spans.engine.evaluate`, pairs kept); merge those of shards with
    :meth:`ClassificationCounts.merge`."""
    al = evaluation.require_pairs("classification counts (compute those of each shard's evaluation and "
                                  "merge them)")
    out = ClassificationCounts(type, feature, labels=set(al.labels))
    out.feature_seen = feature != LABEL and _has_feature(al, feature)  # any type's annotations, as in the table
    if type not in al.labels:
        return out
    out.type_seen = True
    tid = al.labels.index(type)
    klab, rlab = al.key_label(), al.response_label()
    coextensive = (al.status == CORRECT) | (al.status == INCORRECT)
    sel = np.flatnonzero(coextensive & ((klab == tid) | (rlab == tid)))
    key_rows, resp_rows = al.key_row[sel], al.response_row[sel]
    if feature == LABEL:
        out.counts = ContingencyCounts.of_codes(al.labels, al.key.label[key_rows], al.response.label[resp_rows])
    else:
        out.counts = ContingencyCounts.of_items(row_categories(al.key, feature, NO_VALUE, key_rows),
                                                row_categories(al.response, feature, NO_VALUE, resp_rows))
    return out


def _has_feature(al: Any, feature: str) -> bool:
    """Whether an annotation on either side carries ``feature`` (the reader kept it)."""
    return any(table.features is not None and any(feature in f for f in table.features)
               for table in (al.key, al.response))


__all__ = ["LABEL", "NO_VALUE", "STACK_CELLS", "TABLE_FAMILY", "ClassificationCounts", "ContingencyCounts",
           "category", "classification_counts", "classification_table", "raw_family", "row_categories",
           "table_family"]
