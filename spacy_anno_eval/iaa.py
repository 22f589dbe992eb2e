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

Measure ``kappa`` (:func:`pairwise_kappa`, GATE's ``AGREEMENTANDKAPPA``):
annotations of one type are the items; two annotators' annotations are the
same item when coextensive (:func:`~spacy_anno_eval.align.coextensive.pair_coextensive`).
The category of an item is, for ``Type->feature``, the feature's value
(``Non-cat`` when the annotation lacks the feature), and ``Anns`` without a
feature; an annotation only one annotator made is ``Non-cat`` for the other
(GATE user guide 10.5.2). Per pair and type: the contingency table, observed
agreement, Cohen's kappa, Scott's pi, specific agreement per category, the
same per document, and with ``bootstrap`` an interval for kappa and pi.
Beyond GATE, the type ``*`` takes the annotations of every type and their
label as the category (``*->feature``: the feature), which is how to ask
"how often do the annotators label the same span alike" on spaCy Docs.

Undefined coefficients (Ae = 1, e.g. a type without a feature where both
annotators made exactly the same annotations: every item is ``Anns``/``Anns``)
are ``None`` with an entry in ``warnings``.
"""

from __future__ import annotations

import itertools
import os
import warnings
from typing import Any

import numpy as np

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
               matrix_measure: str = "strict", bdm: Any = None, bdm_feature: str | None = None,
               shards: bool = False) -> dict[str, Any]:
    """Pairwise P/R/F between every two of ``sets`` in ``corpus`` (a path, a Corpus or Docs).

    ``shards``: ``corpus`` is a folder or glob of shard files, read one at a
    time; each pair's counts are summed over the shards
    (:meth:`~spacy_anno_eval.corpus.Evaluation.concat`), so memory holds one
    shard and the counts (the pair pages then have no Annotation Diff, and
    ``bdm`` is not available).

    Returns JSON-ready data (see the module docstring); ``evaluations`` maps
    ``(i, j)`` to the :class:`~spacy_anno_eval.corpus.Evaluation` of each pair
    for reports (not part of the JSON). With ``bdm`` (BDM scores of concept
    pairs, :mod:`spacy_anno_eval.measures.bdm`) each pair also gets its
    BDM-weighted P/R/F (``bdm``, :func:`~spacy_anno_eval.measures.augmented.bdm_prf`;
    the concept is the label, or the feature ``bdm_feature``) and the result
    ``mean_of_pairs_bdm`` (GATE 10.5.3).
    """
    from .engine import evaluate, load

    names = parse_sets(sets)
    if consensus is not None and consensus in names:
        raise AnnoEvalInputError(f"the consensus set {consensus!r} is also listed as an annotator")
    if matrix_measure not in MODES:
        raise AnnoEvalInputError(f"matrix measure must be one of {', '.join(MODES)}, got {matrix_measure!r}")
    type_names, features = parse_types(types)
    selectors = names + ([consensus] if consensus else [])
    comparisons = [(names[i], names[j]) for i, j in itertools.combinations(range(len(names)), 2)]
    comparisons += [(consensus, a) for a in names] if consensus else []
    if shards:
        if bdm is not None:
            raise AnnoEvalInputError("BDM weighting reads the pairs, which shards do not keep; run without shards")
        from .corpus import Evaluation
        from .stream import shard_paths

        parts: dict[tuple[str, str], list[Any]] = {c: [] for c in comparisons}
        for path in shard_paths(corpus):
            shard = load(str(path), selectors, fmt, features)
            for c in comparisons:
                ev = evaluate(shard, shard, key_set=c[0], response_set=c[1], types=type_names, features=features,
                              beta=beta, pairing=pairing)
                ev.alignment, ev.texts = None, None
                parts[c].append(ev)
        done = {c: Evaluation.concat(evs) for c, evs in parts.items()}
    else:
        loaded = load(os.fspath(corpus) if isinstance(corpus, (str, os.PathLike)) else corpus, selectors, fmt,
                      features)
        done = {c: evaluate(loaded, loaded, key_set=c[0], response_set=c[1], types=type_names, features=features,
                            beta=beta, pairing=pairing) for c in comparisons}
    pairs, evaluations = [], {}

    def compare(key_set: str, response_set: str) -> tuple[Any, dict[str, Any]]:
        ev = done[(key_set, response_set)]
        return ev, ev.report()

    for i, j in itertools.combinations(range(len(names)), 2):
        ev, report = compare(names[i], names[j])
        evaluations[(i, j)] = ev
        pairs.append({"a": names[i], "b": names[j], "i": i, "j": j, "report": report})
        if bdm is not None:
            from .measures.augmented import bdm_prf

            pairs[-1]["bdm"] = bdm_prf(ev.alignment, bdm, feature=bdm_feature, beta=beta)
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
    if bdm is not None:
        out["mean_of_pairs_bdm"] = {m: {k: sum(p["bdm"]["micro"][m][k] for p in pairs) / len(pairs) for k in "prf"}
                                    for m in MODES}
    if consensus:
        out["consensus"] = {"set": consensus, "annotators": {}}
        for a in names:
            _, report = compare(consensus, a)
            out["consensus"]["annotators"][a] = {m: report["micro"][m] for m in MODES}
    return out


NON_CAT = "Non-cat"
ANNS = "Anns"
ANY_TYPE = "*"


def parse_type_features(types: str | list[str] | None) -> list[tuple[str, str | None]]:
    """``"Per->label;Org"`` -> ``[("Per", "label"), ("Org", None)]`` (each type with its own feature)."""
    if not types:
        return []
    items = [t.strip() for t in (types.split(";") if isinstance(types, str) else types) if t.strip()]
    out = []
    for item in items:
        name, _, feature = item.partition("->")
        if not name.strip():
            raise AnnoEvalInputError(f"type {item!r}: write TYPE or TYPE->FEATURE")
        out.append((name.strip(), feature.strip() or None))
    if len({t for t, _ in out}) != len(out):
        raise AnnoEvalInputError(f"types must be distinct, got {items}")
    return out


def _categories(table: Any, type_name: str, feature: str | None) -> tuple[np.ndarray, list[str]]:
    """Group (0 for rows of ``type_name``, -1 for others) and category name of every row of ``table``."""
    labels = table.label_names()
    group = np.zeros(len(table), dtype=np.int64) if type_name == ANY_TYPE else np.where(labels == type_name, 0, -1)
    if feature is None:
        cats = list(labels) if type_name == ANY_TYPE else [ANNS] * len(table)
    else:
        feats = table.features or [{}] * len(table)
        cats = [str(f[feature]) if feature in f and f[feature] is not None else NON_CAT for f in feats]
    return group.astype(np.int64), cats


def _none(x: Any) -> float | None:
    x = float(x)
    return None if x != x else x


def _kappa_figures(t: np.ndarray, categories: list[str], bootstrap: int, seed: int) -> dict[str, Any]:
    """Observed agreement, kappa, pi (with intervals when ``bootstrap``) and specific agreement of one table."""
    from .measures.agreement import cohen_kappa, observed_agreement, scott_pi, specific_agreement, table_bootstrap

    nan = float("nan")
    out: dict[str, Any] = {"n": int(t.sum()), "observed_agreement": _none(observed_agreement(t, undefined=nan))}
    for key, coef in (("cohen_kappa", cohen_kappa), ("scott_pi", scott_pi)):
        if bootstrap and t.sum():
            res = table_bootstrap(t, coef, n_samples=bootstrap, seed=seed, undefined=nan)
            out[f"{key}_ci"] = res.ci
        else:
            res = coef(t, undefined=nan)
        out[key] = _none(res.value)
    spec = specific_agreement(t, undefined=nan)
    out["specific_agreement"] = {c: _none(v) for c, v in zip(categories, spec, strict=True)}
    out["confusion"] = {"categories": list(categories), "matrix": t.astype(np.int64).tolist()}
    return out


def pairwise_kappa(corpus: Any, sets: str | list[str], *, types: str | list[str] | None = None,
                   fmt: str = "auto", consensus: str | None = None, bootstrap: int = 0,
                   seed: int = 0) -> dict[str, Any]:
    """Observed agreement, Cohen's kappa and Scott's pi between every two of ``sets`` on their span annotations.

    See the module docstring for items and categories. ``types`` as GATE
    writes them (``Per->label;Org``; ``*`` for every type with its label as
    category); without ``types``, every type found, without a feature. Returns
    JSON-ready data: ``pairs`` (per pair: ``per_type`` figures with the
    contingency table and ``per_doc`` figures, and ``mean_over_types``),
    ``mean_of_pairs``, ``per_type`` (mean over pairs), ``matrix`` (Cohen's
    kappa, mean over types: micro, and mean over documents), ``warnings``;
    ``items`` (per pair, the items the two annotators categorised differently,
    for reports) and ``texts`` are dropped by :func:`to_json`.
    """
    from .align.coextensive import pair_coextensive
    from .engine import load
    from .measures.agreement import DegenerateAgreementWarning

    names = parse_sets(sets)
    if consensus is not None and consensus in names:
        raise AnnoEvalInputError(f"the consensus set {consensus!r} is also listed as an annotator")
    specs = parse_type_features(types)
    features = list(dict.fromkeys(f for _, f in specs if f)) or None
    selectors = names + ([consensus] if consensus else [])
    loaded = load(os.fspath(corpus) if isinstance(corpus, (str, os.PathLike)) else corpus, selectors, fmt, features)
    tables = {s: loaded.get_set(s) for s in selectors}
    if not specs:
        specs = [(t, None) for t in sorted({lab for tab in tables.values() for lab in tab.labels})]
    if not specs:
        raise AnnoEvalInputError(f"the sets {', '.join(selectors)} hold no annotations; nothing to compare")
    n_docs = len(loaded)
    doc_ids = loaded.doc_ids
    # every row's group and category per type, in a vocabulary shared by all annotators
    per_spec = []
    for type_name, feature in specs:
        groups, cats = {}, {}
        for s, tab in tables.items():
            groups[s], cats[s] = _categories(tab, type_name, feature)
        used = sorted({c for s in selectors for c, g in zip(cats[s], groups[s], strict=True) if g >= 0} - {NON_CAT})
        vocab = used + [NON_CAT]
        index = {c: k for k, c in enumerate(vocab)}
        codes = {s: np.array([index[c] for c in cats[s]], dtype=np.int64) for s in selectors}
        label = type_name + (f"->{feature}" if feature else "")
        per_spec.append((label, groups, codes, vocab))

    caught_messages: list[str] = []

    def compare(x: str, y: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        per_type, items = {}, []
        for label, groups, codes, vocab in per_spec:
            q, non_cat = len(vocab), len(vocab) - 1
            pairs = pair_coextensive(tables[x], tables[y], groups[x], groups[y], codes[x], codes[y])
            ca = np.where(pairs.a_row >= 0, codes[x][np.maximum(pairs.a_row, 0)] if len(codes[x]) else 0, non_cat)
            cb = np.where(pairs.b_row >= 0, codes[y][np.maximum(pairs.b_row, 0)] if len(codes[y]) else 0, non_cat)
            stack = np.zeros((n_docs, q, q), dtype=np.int64)
            np.add.at(stack, (pairs.doc, ca, cb), 1)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", DegenerateAgreementWarning)
                figures = _kappa_figures(stack.sum(axis=0), vocab, bootstrap, seed)
                used = np.flatnonzero(stack.sum(axis=(1, 2)))
                if len(used):
                    from .measures.agreement import cohen_kappa, observed_agreement, scott_pi

                    sub = stack[used]
                    ao = np.atleast_1d(observed_agreement(sub, undefined=float("nan")))
                    kap = np.atleast_1d(cohen_kappa(sub, undefined=float("nan")).value)
                    pi = np.atleast_1d(scott_pi(sub, undefined=float("nan")).value)
                    figures["per_doc"] = [{"doc_id": doc_ids[d], "n": int(stack[d].sum()),
                                           "observed_agreement": _none(ao[k]), "cohen_kappa": _none(kap[k]),
                                           "scott_pi": _none(pi[k])} for k, d in enumerate(used.tolist())]
                else:
                    figures["per_doc"] = []
            if any(figures[k] is None for k in ("cohen_kappa", "scott_pi")):
                caught_messages.append(f"{x} / {y}, {label}: kappa or pi undefined (a single category in the "
                                       f"table, or no items); reported as null")
            per_type[label] = figures
            for k in np.flatnonzero(ca != cb).tolist():
                row, tab = (int(pairs.a_row[k]), tables[x]) if pairs.a_row[k] >= 0 else (int(pairs.b_row[k]),
                                                                                           tables[y])
                items.append({"type": label, "doc_id": doc_ids[int(pairs.doc[k])], "doc": int(pairs.doc[k]),
                              "start": int(tab.start[row]), "end": int(tab.end[row]),
                              "category_a": vocab[ca[k]], "category_b": vocab[cb[k]]})
        return per_type, items

    def mean(values: list[float | None]) -> float | None:
        ok = [v for v in values if v is not None]
        return sum(ok) / len(ok) if ok else None

    keys = ("observed_agreement", "cohen_kappa", "scott_pi")
    pairs_out, items_out = [], {}
    for i, j in itertools.combinations(range(len(names)), 2):
        per_type, items = compare(names[i], names[j])
        over_types = {k: mean([f[k] for f in per_type.values()]) for k in keys}
        doc_kappa = mean([mean([d["cohen_kappa"] for d in f["per_doc"]]) for f in per_type.values()])
        pairs_out.append({"a": names[i], "b": names[j], "i": i, "j": j, "per_type": per_type,
                          "mean_over_types": over_types, "mean_over_docs": {"cohen_kappa": doc_kappa}})
        items_out[(i, j)] = items
    n = len(names)
    micro = [[1.0 if a == b else None for b in range(n)] for a in range(n)]
    macro = [[1.0 if a == b else None for b in range(n)] for a in range(n)]
    for p in pairs_out:
        micro[p["i"]][p["j"]] = micro[p["j"]][p["i"]] = p["mean_over_types"]["cohen_kappa"]
        macro[p["i"]][p["j"]] = macro[p["j"]][p["i"]] = p["mean_over_docs"]["cohen_kappa"]
    labels = [label for label, *_ in per_spec]
    out: dict[str, Any] = {
        "measure": "kappa",
        "annotators": names,
        "types": labels,
        "n_docs": n_docs,
        "mean_of_pairs": {k: mean([p["mean_over_types"][k] for p in pairs_out]) for k in keys},
        "per_type": {t: {k: mean([p["per_type"][t][k] for p in pairs_out]) for k in keys} for t in labels},
        "matrix": {"measure": "cohen_kappa", "micro": micro, "macro_docs": macro,
                   "annotator_mean_micro": [mean([v for b, v in enumerate(micro[a]) if b != a]) for a in range(n)],
                   "annotator_mean_macro_docs": [mean([v for b, v in enumerate(macro[a]) if b != a])
                                                 for a in range(n)]},
        "pairs": pairs_out,
        "items": items_out,
        "texts": loaded.texts,
    }
    if consensus:
        out["consensus"] = {"set": consensus, "annotators": {}}
        for a in names:
            per_type, _ = compare(consensus, a)
            out["consensus"]["annotators"][a] = {
                "per_type": {t: {k: f[k] for k in keys} for t, f in per_type.items()},
                "mean_over_types": {k: mean([f[k] for f in per_type.values()]) for k in keys}}
    out["warnings"] = list(dict.fromkeys(caught_messages))
    return out


def to_json(result: dict[str, Any]) -> dict[str, Any]:
    """The result without the evaluation objects and item lists (for ``json.dump``)."""
    return {k: v for k, v in result.items() if k not in ("evaluations", "items", "texts")}


__all__ = ["pairwise_f", "pairwise_kappa", "parse_sets", "parse_type_features", "parse_types", "to_json"]
