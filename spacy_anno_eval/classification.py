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
  :attr:`SpanTable.features <spacy_anno_eval.annotations.SpanTable.features>`);
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
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

import numpy as np

from .align.offsets import CORRECT, INCORRECT
from .measures.agreement import cohen_kappa, confusion_matrix, observed_agreement, scott_pi, specific_agreement

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
    (a single category: Ae = 1) follow :mod:`spacy_anno_eval.measures.agreement`
    (0.0 and a warning). Raise ``ValueError`` when the evaluation keeps no
    pairs, ``type`` is not one of its labels, no annotation carries
    ``feature``, or there is no coextensive pair of ``type``.
    """
    al = evaluation.alignment
    if al is None:
        raise ValueError("this evaluation keeps no pairs (it was merged from shards); compute the classification "
                         "table from an evaluation made by evaluate(), one per shard")
    if type not in al.labels:
        known = ", ".join(al.labels) or "none"
        raise ValueError(f"unknown annotation type {type!r}: the evaluation has the types {known}; "
                         f"pass one of them")
    tid = al.labels.index(type)
    klab, rlab = al.key_label(), al.response_label()
    coextensive = (al.status == CORRECT) | (al.status == INCORRECT)
    sel = np.flatnonzero(coextensive & ((klab == tid) | (rlab == tid)))
    if not len(sel):
        raise ValueError(f"no coextensive key/response pairs of type {type!r} (both sides must mark the same span): "
                         f"there is nothing to classify; use the precision/recall report for span agreement")
    if feature == LABEL:
        names = np.asarray(al.labels, dtype=object)
        key_cats = names[klab[sel]].tolist()
        resp_cats = names[rlab[sel]].tolist()
    else:
        _check_feature(al, feature)
        key_vals = _values(al.key.features, al.key_row[sel], feature)
        resp_vals = _values(al.response.features, al.response_row[sel], feature)
        key_cats, resp_cats = _category_names(key_vals, resp_vals)
    categories = sorted(set(key_cats) | set(resp_cats), key=lambda c: (c == NO_VALUE, c))
    table = confusion_matrix(key_cats, resp_cats, categories)
    specific = specific_agreement(table)
    return {
        "type": type,
        "feature": feature,
        "categories": list(categories),
        "matrix": table.matrix.tolist(),
        "n": table.n,
        "observed_agreement": float(observed_agreement(table)),
        "cohen_kappa": float(cohen_kappa(table).value),
        "scott_pi": float(scott_pi(table).value),
        "specific_agreement": {c: float(v) for c, v in zip(categories, specific.tolist(), strict=True)},
    }


def _check_feature(al: Any, feature: str) -> None:
    """Raise when no annotation on either side carries ``feature`` (the reader did not keep it)."""
    for table in (al.key, al.response):
        if table.features is not None and any(feature in f for f in table.features):
            return
    raise ValueError(f"no annotation carries the feature {feature!r}: evaluate with features=[{feature!r}] "
                     f"(CLI --features {feature}) so that the readers keep it, or use the feature {LABEL!r} "
                     f"to compare the labels")


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


def _category_names(key_vals: Sequence[Any], resp_vals: Sequence[Any]) -> tuple[list[str], list[str]]:
    """Category names of both sides' values; values of different types that print alike get their type."""
    typed: dict[tuple[str, Any], str] = {}
    for v in (*key_vals, *resp_vals):
        if v is not _MISSING:
            t = _typed(v)
            if t not in typed:
                typed[t] = _display(v)
    by_name: dict[str, list[tuple[str, Any]]] = defaultdict(list)
    for t, name in typed.items():
        by_name[name].append(t)
    for name, keys in by_name.items():
        if len(keys) > 1:
            for t in keys:
                if t[0] != "str":
                    typed[t] = f"{name} ({t[0]})"

    def name(v: Any) -> str:
        return NO_VALUE if v is _MISSING else typed[_typed(v)]

    return [name(v) for v in key_vals], [name(v) for v in resp_vals]


__all__ = ["LABEL", "NO_VALUE", "classification_table"]
