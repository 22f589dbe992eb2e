"""Classification agreement for one annotation type and one feature (GATE's Corpus QA, user guide 10.3).

GATE's Corpus Quality Assurance offers, besides precision and recall,
"classification" measures: observed agreement, Cohen's kappa, Scott's pi,
specific agreement and a confusion matrix, computed over the annotations
that both sides put on the same span, with the value of one feature as the
category (user guide 10.1.2 and 10.3). Here:

- the items are the **coextensive pairs** of the alignment (status
  ``correct`` or ``incorrect``: same start and end in the same document) in
  which the key's label or the response's label is ``type``;
- the category of each side is its value of ``feature`` (read from
  :attr:`SpanTable.features <spacy_anno_eval.annotations.table.SpanTable.features>`);
  an annotation without the feature (or with ``None``) falls into the
  category :data:`NO_VALUE` (``"<none>"``), GATE's "Non-cat". A string value
  is its own category name; other values are named by ``str`` (lists and
  dicts by JSON), and when two values of different types print alike (the
  string ``"5"`` and the integer ``5``, which differ, as in GATE 10.3.6) the
  non-string one is named with its type: ``"5 (int)"``;
- with the special feature name :data:`LABEL` (``"label"``) the category is
  the annotation's label itself, so the table shows how the two sides label
  the spans they both marked (kappa over entity labels).

Features are kept only when the evaluation was made with them
(``evaluate(..., features=[...])``, CLI ``--features``), which also makes
them significant for the pairing: a coextensive pair whose feature values
differ is ``incorrect`` and still counted here.

Span-finding tasks have no well-defined negative items, so kappa over all
annotations is not meaningful (GATE 10.1.2, last paragraph); restricting to
coextensive pairs is what makes a classification table out of them.
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..spans.align import CORRECT, INCORRECT
from .coefficients import ContingencyTable, cohen_kappa, observed_agreement, scott_pi, specific_agreement

#: category of an annotation that lacks the feature
NO_VALUE = "<none>"
#: feature name that means "the annotation's label"
LABEL = "label"


def classification_table(evaluation: Any, type: str, feature: str) -> dict[str, Any]:
    """Classification agreement of ``type`` annotations on ``feature`` (see the module docstring).

    Returns JSON-ready data::

        {"type": str, "feature": str, "categories": [str, ...],
         "matrix": [[int, ...], ...],          # rows: key, columns: response
         "n": int,                             # coextensive pairs counted
         "observed_agreement": float, "cohen_kappa": float, "scott_pi": float,
         "specific_agreement": {category: float}}   # positive specific agreement

    Categories are sorted, with :data:`NO_VALUE` last. Undefined coefficients
    (a single category: Ae = 1) follow :mod:`spacy_anno_eval.agreement.coefficients`
    (0.0 and a warning). Raise ``ValueError`` when the evaluation keeps no
    pairs, ``type`` is not one of its labels, no annotation carries
    ``feature``, or there is no coextensive pair of ``type``. The same as
    ``classification_counts(...).table()``.
    """
    return classification_counts(evaluation, type, feature).table()


@dataclass
class ClassificationCounts:
    """The mergeable part of a classification table: how often each (key value, response value) occurs.

    Values are kept typed (``"5"`` and ``5`` apart) and named only in
    :meth:`table`, so counts of shards merged (:meth:`merge`) name their
    categories exactly as the counts of the whole corpus would.
    """

    type: str
    feature: str
    pairs: Counter = field(default_factory=Counter)         # (typed key, typed response) -> count; None: no value
    display: dict[Any, str] = field(default_factory=dict)   # typed value -> its first printed form
    type_seen: bool = False
    feature_seen: bool = False
    labels: set[str] = field(default_factory=set)

    def merge(self, other: ClassificationCounts) -> ClassificationCounts:
        """The counts of both corpora together."""
        if (self.type, self.feature) != (other.type, other.feature):
            raise ValueError(f"cannot merge the classification of {self.type}:{self.feature} with "
                             f"{other.type}:{other.feature}")
        return ClassificationCounts(self.type, self.feature, self.pairs + other.pairs,
                                    {**other.display, **self.display}, self.type_seen or other.type_seen,
                                    self.feature_seen or other.feature_seen, self.labels | other.labels)

    def table(self) -> dict[str, Any]:
        """The classification table (see :func:`classification_table`) of these counts."""
        if not self.type_seen:
            known = ", ".join(sorted(self.labels)) or "none"
            raise ValueError(f"unknown annotation type {self.type!r}: the evaluation has the types {known}; "
                             f"pass one of them")
        if self.feature != LABEL and not self.feature_seen:
            raise ValueError(f"no annotation carries the feature {self.feature!r}: evaluate with "
                             f"features=[{self.feature!r}] (CLI --features {self.feature}) so that the readers "
                             f"keep it, or use the feature {LABEL!r} to compare the labels")
        if not self.pairs:
            raise ValueError(f"no coextensive key/response pairs of type {self.type!r} (both sides must mark the "
                             f"same span): there is nothing to classify; use the precision/recall report for span "
                             f"agreement")
        names = _category_names(self.display)
        key_cats, resp_cats, weights = [], [], []
        for (k, r), count in self.pairs.items():
            key_cats.append(names.get(k, NO_VALUE))
            resp_cats.append(names.get(r, NO_VALUE))
            weights.append(count)
        categories = sorted(set(key_cats) | set(resp_cats), key=lambda c: (c == NO_VALUE, c))
        index = {c: i for i, c in enumerate(categories)}
        matrix = np.zeros((len(categories), len(categories)), dtype=np.int64)
        np.add.at(matrix, ([index[c] for c in key_cats], [index[c] for c in resp_cats]), weights)
        table = ContingencyTable(matrix, tuple(categories))
        specific = specific_agreement(table)
        return {
            "type": self.type,
            "feature": self.feature,
            "categories": list(categories),
            "matrix": table.matrix.tolist(),
            "n": table.n,
            "observed_agreement": float(observed_agreement(table)),
            "cohen_kappa": float(cohen_kappa(table).value),
            "scott_pi": float(scott_pi(table).value),
            "specific_agreement": {c: float(v) for c, v in zip(categories, specific.tolist(), strict=True)},
        }


def classification_counts(evaluation: Any, type: str, feature: str) -> ClassificationCounts:
    """The classification counts of ``type`` annotations on ``feature`` in one evaluation (made by
    :func:`~spacy_anno_eval.spans.engine.evaluate`, pairs kept); merge those of shards with
    :meth:`ClassificationCounts.merge`."""
    al = evaluation.alignment
    if al is None:
        raise ValueError("this evaluation keeps no pairs (it was merged from shards); compute the classification "
                         "counts of each shard's evaluation and merge them")
    out = ClassificationCounts(type, feature, labels=set(al.labels))
    out.feature_seen = feature != LABEL and _has_feature(al, feature)  # any type's annotations, as in the table
    if type not in al.labels:
        return out
    out.type_seen = True
    tid = al.labels.index(type)
    klab, rlab = al.key_label(), al.response_label()
    coextensive = (al.status == CORRECT) | (al.status == INCORRECT)
    sel = np.flatnonzero(coextensive & ((klab == tid) | (rlab == tid)))
    if feature == LABEL:
        names = np.asarray(al.labels, dtype=object)
        key_vals, resp_vals = names[klab[sel]].tolist(), names[rlab[sel]].tolist()
    else:
        key_vals = _values(al.key.features, al.key_row[sel], feature)
        resp_vals = _values(al.response.features, al.response_row[sel], feature)
    typed_k = [_typed_or_none(v, out.display) for v in key_vals]
    typed_r = [_typed_or_none(v, out.display) for v in resp_vals]
    out.pairs = Counter(zip(typed_k, typed_r, strict=True))
    return out


def _has_feature(al: Any, feature: str) -> bool:
    """Whether an annotation on either side carries ``feature`` (the reader kept it)."""
    return any(table.features is not None and any(feature in f for f in table.features)
               for table in (al.key, al.response))


_MISSING = object()


def _values(features: list[dict[str, Any]] | None, rows: np.ndarray, feature: str) -> list[Any]:
    """The value of ``feature`` for each row (``_MISSING`` when absent or None)."""
    if features is None:
        return [_MISSING] * len(rows)
    out = []
    for r in rows.tolist():
        v = features[r].get(feature)
        out.append(_MISSING if v is None else v)
    return out


def _typed(value: Any) -> tuple[str, Any]:
    """A hashable key that tells values apart by type and value ("5" != 5, as in GATE)."""
    kind = type(value).__name__
    try:
        hash(value)
    except TypeError:
        return kind, json.dumps(value, sort_keys=True, default=str)
    return kind, value


def _display(value: Any) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, (list, tuple, dict)):
        return json.dumps(value, sort_keys=True, default=str, ensure_ascii=False)
    return str(value)


def _typed_or_none(value: Any, display: dict[Any, str]) -> Any:
    """The typed key of ``value`` (``None`` for no value), noting how it prints in ``display``."""
    if value is _MISSING:
        return None
    t = _typed(value)
    if t not in display:
        display[t] = _display(value)
    return t


def _category_names(display: dict[Any, str]) -> dict[Any, str]:
    """Category name of each typed value: its printed form; values of different types that print alike get
    their type (``"5 (int)"``), the string keeping the bare name."""
    by_name: dict[str, list[Any]] = defaultdict(list)
    for t, name in display.items():
        by_name[name].append(t)
    names = dict(display)
    for name, keys in by_name.items():
        if len(keys) > 1:
            for t in keys:
                if t[0] != "str":
                    names[t] = f"{name} ({t[0]})"
    return names


__all__ = ["LABEL", "NO_VALUE", "ClassificationCounts", "classification_counts", "classification_table"]
