"""Inter-annotator agreement on span annotations (GATE's IAA plugin, user guide 10.5, measure ``fmeasure``).

Every pair of annotation sets of one corpus is compared with the core engine
(:func:`spacy_anno_eval.engine.evaluate`, set A as the key, set B as the
response); pairwise F is symmetric (swapping A and B swaps P and R). The
result holds, for each pair, the full report (per type, per document, micro
and macro), and:

- ``mean_of_pairs``: for each measure (strict, lenient, average) and figure,
  the mean over the pairs of their micro figure (GATE's overall IAA);
- ``per_type``: the mean over pairs of each type's F;
- ``matrix``: annotators x annotators micro F (strict by default) and macro F
  over documents, the diagonal 1.0, and each annotator's mean over its pairs
  (GATE's QA summariser);
- with ``consensus``: each annotator against the consensus set (as key).

Types are written as GATE writes them: ``Per->label;Org``, a type with an
optional significant feature; every feature named this way is significant for
every type (GATE's plugin does the same per type; a per-type feature list is
left for later).
"""

from __future__ import annotations

import itertools
import os
from typing import Any

from .errors import AnnoEvalInputError
from .measures.prf import MODES


def parse_sets(sets: str | list[str]) -> list[str]:
    """``"spans:a;spans:b"`` (GATE's ``;``) or a list -> the set selectors; at least two, distinct."""
    items = [s.strip() for s in (sets.split(";") if isinstance(sets, str) else sets) if s.strip()]
    if len(items) < 2:
        raise AnnoEvalInputError(f"IAA needs two or more annotation sets, got {items}")
    if len(set(items)) != len(items):
        raise AnnoEvalInputError(f"annotation sets must be distinct, got {items}")
    return items


def parse_types(types: str | list[str] | None) -> tuple[list[str] | None, list[str] | None]:
    """``"Per->label;Org"`` -> (["Per", "Org"], ["label"]); None -> (None, None)."""
    if not types:
        return None, None
    items = [t.strip() for t in (types.split(";") if isinstance(types, str) else types) if t.strip()]
    names, features = [], []
    for item in items:
        name, _, feature = item.partition("->")
        if not name.strip():
            raise AnnoEvalInputError(f"type {item!r}: write TYPE or TYPE->FEATURE")
        names.append(name.strip())
        if feature.strip():
            features.append(feature.strip())
    return names, list(dict.fromkeys(features)) or None


def pairwise_f(corpus: Any, sets: str | list[str], *, types: str | list[str] | None = None,
               fmt: str = "auto", beta: float = 1.0, pairing: str = "optimal", consensus: str | None = None,
               matrix_measure: str = "strict") -> dict[str, Any]:
    """Pairwise P/R/F between every two of ``sets`` in ``corpus`` (a path, a Corpus or Docs).

    Returns JSON-ready data (see the module docstring); ``evaluations`` maps
    ``(i, j)`` to the :class:`~spacy_anno_eval.corpus.Evaluation` of each pair
    for reports (not part of the JSON).
    """
    from .engine import evaluate, load

    names = parse_sets(sets)
    if consensus is not None and consensus in names:
        raise AnnoEvalInputError(f"the consensus set {consensus!r} is also listed as an annotator")
    if matrix_measure not in MODES:
        raise AnnoEvalInputError(f"matrix measure must be one of {', '.join(MODES)}, got {matrix_measure!r}")
    type_names, features = parse_types(types)
    selectors = names + ([consensus] if consensus else [])
    loaded = load(os.fspath(corpus) if isinstance(corpus, (str, os.PathLike)) else corpus, selectors, fmt,
                  features)
    pairs, evaluations = [], {}

    def compare(key_set: str, response_set: str) -> tuple[Any, dict[str, Any]]:
        ev = evaluate(loaded, loaded, key_set=key_set, response_set=response_set, types=type_names,
                      features=features, beta=beta, pairing=pairing)
        return ev, ev.report()

    for i, j in itertools.combinations(range(len(names)), 2):
        ev, report = compare(names[i], names[j])
        evaluations[(i, j)] = ev
        pairs.append({"a": names[i], "b": names[j], "i": i, "j": j, "report": report})
    n = len(names)
    micro = [[1.0 if a == b else None for b in range(n)] for a in range(n)]
    macro = [[1.0 if a == b else None for b in range(n)] for a in range(n)]
    for p in pairs:
        f_micro = p["report"]["micro"][matrix_measure]["f"]
        f_macro = p["report"]["macro_docs"][matrix_measure]["f"]
        micro[p["i"]][p["j"]] = micro[p["j"]][p["i"]] = f_micro
        macro[p["i"]][p["j"]] = macro[p["j"]][p["i"]] = f_macro

    def row_mean(matrix: list[list[float | None]], a: int) -> float:
        vals = [v for b, v in enumerate(matrix[a]) if b != a and v is not None]
        return sum(vals) / len(vals)

    mean = {m: {k: sum(p["report"]["micro"][m][k] for p in pairs) / len(pairs) for k in "prf"} for m in MODES}
    labels = sorted({t for p in pairs for t in p["report"]["per_type"]})
    per_type = {t: {m: sum(p["report"]["per_type"].get(t, {}).get(m, {}).get("f", 0.0) for p in pairs) / len(pairs)
                    for m in MODES} for t in labels}
    out: dict[str, Any] = {
        "measure": "fmeasure",
        "annotators": names,
        "types": type_names,
        "features": features,
        "n_docs": pairs[0]["report"]["n_docs"],
        "mean_of_pairs": mean,
        "per_type": per_type,
        "matrix": {"measure": matrix_measure, "micro": micro, "macro_docs": macro,
                   "annotator_mean_micro": [row_mean(micro, a) for a in range(n)],
                   "annotator_mean_macro_docs": [row_mean(macro, a) for a in range(n)]},
        "pairs": pairs,
        "evaluations": evaluations,
    }
    if consensus:
        out["consensus"] = {"set": consensus, "annotators": {}}
        for a in names:
            _, report = compare(consensus, a)
            out["consensus"]["annotators"][a] = {m: report["micro"][m] for m in MODES}
    return out


def to_json(result: dict[str, Any]) -> dict[str, Any]:
    """The result without the evaluation objects (for ``json.dump``)."""
    return {k: v for k, v in result.items() if k != "evaluations"}


__all__ = ["pairwise_f", "parse_sets", "parse_types", "to_json"]
