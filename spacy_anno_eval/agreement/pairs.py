"""What every pairwise IAA measure shares: the types compared, and the pairs' figures summed up.

Pairwise F (:mod:`.iaa`) and pairwise kappa (:mod:`.iaa_kappa`) take the
types as GATE writes them (``annTypesAndFeats``: ``Per->label;Org``, each
type with an optional significant feature, ``*`` for every type:
:func:`parse_type_features`, :func:`parse_types`, :func:`spec_label`) and
summarise their pairs alike: the mean of the defined figures
(:func:`mean_defined`) and the annotators x annotators matrix
(:func:`agreement_matrix`, GATE's QA summariser).
"""

from __future__ import annotations

from typing import Any

from ..annotations.table import name_list, split_names
from ..errors import InputError
from ..spans.parts import ANY_TYPE


def parse_types(types: str | list[str] | None) -> tuple[list[str] | None, list[str] | None]:
    """``"Per->label;Org"`` -> (["Per", "Org"], ["label"]); None -> (None, None): the types and every feature
    named (which type each feature belongs to: :func:`parse_type_features`)."""
    if not types:
        return None, None
    items = [t.strip() for t in (split_names(types) if isinstance(types, str) else name_list(types, "types") or [])
             if t.strip()]
    names, features = [], []
    for item in items:
        name, _, feature = item.partition("->")
        if not name.strip():
            raise InputError(f"type {item!r}: write TYPE or TYPE->FEATURE")
        names.append(name.strip())
        if feature.strip():
            features.append(feature.strip())
    return names, list(dict.fromkeys(features)) or None


def parse_type_features(types: str | list[str] | None) -> list[tuple[str, str | None]]:
    """``"Per->label;Org"`` -> ``[("Per", "label"), ("Org", None)]`` (each type with its own feature)."""
    if not types:
        return []
    items = [t.strip() for t in (split_names(types) if isinstance(types, str) else name_list(types, "types") or [])
             if t.strip()]
    out = []
    for item in items:
        name, _, feature = item.partition("->")
        if not name.strip():
            raise InputError(f"type {item!r}: write TYPE or TYPE->FEATURE")
        out.append((name.strip(), feature.strip() or None))
    if len({t for t, _ in out}) != len(out):
        raise InputError(f"types must be distinct, got {items}")
    return out


def spec_label(type_name: str, feature: str | None) -> str:
    """A type as GATE writes it: ``Per->label``, or ``Org`` without a feature."""
    return type_name + (f"->{feature}" if feature else "")


def mean_defined(values: list[float | None]) -> float | None:
    """The mean of the defined values (None when none is)."""
    ok = [v for v in values if v is not None]
    return sum(ok) / len(ok) if ok else None


def agreement_matrix(n: int, pairs: list[dict[str, Any]], measure: str, micro_of: Any, macro_of: Any,
                     diagonal_docs: list[int]) -> dict[str, Any]:
    """The agreement matrix of ``n`` annotators: each pair's micro and macro (over documents) figure in both
    triangles (``None`` for a pair that shares no document), 1.0 on the diagonal, each annotator's mean over
    the others, and the documents each pair covers (``docs_covered``; on the diagonal, those the annotator
    covers)."""
    micro = [[1.0 if a == b else None for b in range(n)] for a in range(n)]
    macro = [[1.0 if a == b else None for b in range(n)] for a in range(n)]
    docs = [[diagonal_docs[a] if a == b else 0 for b in range(n)] for a in range(n)]
    for p in pairs:
        docs[p["i"]][p["j"]] = docs[p["j"]][p["i"]] = p["docs_covered"]
        if p["docs_covered"]:
            micro[p["i"]][p["j"]] = micro[p["j"]][p["i"]] = micro_of(p)
            macro[p["i"]][p["j"]] = macro[p["j"]][p["i"]] = macro_of(p)

    def row_means(matrix: list[list[float | None]]) -> list[float | None]:
        return [mean_defined([v for b, v in enumerate(matrix[a]) if b != a]) for a in range(n)]

    return {"measure": measure, "micro": micro, "macro_docs": macro, "annotator_mean_micro": row_means(micro),
            "annotator_mean_macro_docs": row_means(macro), "docs_covered": docs}

__all__ = ["ANY_TYPE", "agreement_matrix", "mean_defined", "parse_type_features", "parse_types", "spec_label"]
