"""Inter-annotator agreement on span annotations (GATE's IAA plugin, user guide 10.5, measure ``fmeasure``).

Every pair of annotation sets of one corpus is compared with the core engine
(:func:`spacy_anno_eval.spans.engine.evaluate`, set A as the key, set B as the
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

Types are written as GATE writes them (``annTypesAndFeats``):
``Per->label;Org``, each type with an optional significant feature that is
significant for that type only (``Per`` annotations agree when their
``label`` values are equal, ``Org`` ones by span and type; ``*->feature``:
for every type not named with its own). In F-measure mode an annotation of a
``Type->feature`` type that lacks the feature is left out by default, as
GATE's IAA plugin does, with a :class:`MissingFeatureWarning` counting them
per set (``missing_feature="keep"`` compares them by span and type; see
:func:`pairwise_f`).

Measure ``kappa`` (:func:`pairwise_kappa`, GATE's ``AGREEMENTANDKAPPA``;
:func:`pairwise_kappa_documents`, documents as items) lives in
:mod:`spacy_anno_eval.agreement.iaa_kappa` and is importable from here too,
as are the pieces both measures share: reading the corpus and resolving its
sets (:func:`resolve_sets`, :func:`parse_sets`;
:mod:`spacy_anno_eval.spans.parts`) and the types
(:func:`parse_type_features`, :func:`parse_types`;
:mod:`spacy_anno_eval.agreement.pairs`).

With ``shards`` both measures read a corpus split into shard files one file
at a time (with ``docs_per_chunk``, JSONL and CoNLL files that many
documents at a time) and sum what is a sum (counts per type and document,
contingency tables), so the result equals the whole corpus's exactly.

Partial coverage (DESIGN.md: a document an annotator never annotated is not
one they annotated as empty). Where the corpus records which documents a set
covers (:attr:`~spacy_anno_eval.annotations.table.Corpus.coverage`: an
annotation tool's export, a DocBin document without that span group), each
pair ``(a, b)`` is compared on the documents both cover, and so is each
annotator with the consensus; every pair says how many documents it covers
(``docs_covered``, of ``docs_total``; ``matrix["docs_covered"]``, whose
diagonal is the documents each annotator covers), and a
:class:`~spacy_anno_eval.errors.CoverageWarning` names the pairs that cover
fewer documents than the corpus has. A pair that shares no document has no
figures (``None`` in the matrix) and is left out of the means of pairs.
``missing_as_empty=True`` compares every pair on every document, a document
without a record counting as annotated with nothing (the behaviour before
coverage was recorded).

Without ``sets``, the annotator sets of the corpus are compared
(:meth:`~spacy_anno_eval.annotations.table.Corpus.annotators`: those an
annotation tool's export names, else every ``spans:NAME`` set), and the
result says so in ``sets_note``.
"""

from __future__ import annotations

import dataclasses
import itertools
import warnings
from typing import Any

import numpy as np

from ..annotations.table import SpanTable
from ..errors import ConfigError, InputError, MissingFeatureWarning
from ..spans.measures import MODES
from ..spans.parts import ANY_TYPE, CorpusParts, Coverage, covered_part, parse_sets, resolve_sets, source_name

# the kappa mode's constants, re-exported: importable from here as before the split (issue 27)
from .iaa_kappa import ANNS as ANNS
from .iaa_kappa import NON_CAT as NON_CAT
from .iaa_kappa import OVERALL_FAMILY as OVERALL_FAMILY
from .iaa_kappa import PAIR_FAMILY as PAIR_FAMILY
from .iaa_kappa import pairwise_kappa, pairwise_kappa_documents
from .pairs import agreement_matrix, parse_type_features, parse_types, spec_label


def _no_docs(ev: Any) -> Any:
    """``ev``'s settings without any document (a comparison that covers none)."""
    from ..spans.counts import Evaluation

    return Evaluation(list(ev.labels), [], np.zeros_like(ev.by_type), ev.by_doc[:0], None, dict(ev.settings), None,
                      None)


#: what pairwise F does with an annotation of a ``Type->feature`` type that lacks the feature
MISSING_FEATURE = ("drop", "keep")


def _significant_per_type(table: SpanTable, feature_of: dict[str, str], drop: bool) -> tuple[SpanTable, int]:
    """``table`` with each annotation's features cut to its type's significant feature (``feature_of``: type ->
    feature; ``"*"``: every type not named; a type without one keeps none, so only span and type count for it)
    and, with ``drop``, without the annotations of a type with a feature that lack it (absent or ``None``);
    return it and how many were dropped."""
    labels = table.label_names()
    old = table.features if table.features is not None else [{}] * len(table)
    keep = np.ones(len(table), dtype=bool)
    feats: list[dict[str, Any]] = []
    for k, (label, f) in enumerate(zip(labels.tolist(), old, strict=True)):
        name = feature_of.get(label, feature_of.get(ANY_TYPE))
        value = None if name is None else f.get(name)
        if name is not None and value is None and drop:
            keep[k] = False
            continue
        feats.append({} if value is None else {name: value})
    dropped = int((~keep).sum())
    if not dropped:
        return SpanTable(table.doc, table.start, table.end, table.label, table.labels, feats), 0
    return SpanTable(table.doc[keep], table.start[keep], table.end[keep], table.label[keep], table.labels,
                     feats), dropped


def _left_out_note(source: str, left_out: dict[str, int], specs: list[tuple[str, str | None]]) -> str | None:
    """The :class:`MissingFeatureWarning` sentence (``None`` when nothing was left out)."""
    if not any(left_out.values()):
        return None
    counts = ", ".join(f"{s} {n}" for s, n in left_out.items())
    typed = "; ".join(spec_label(t, f) for t, f in specs if f)
    return (f"{source or 'corpus'}: pairwise F with {typed} leaves out the annotations without their type's feature, "
            f"as GATE's IAA plugin does; left out per set: {counts} (missing_feature='keep', --missing-feature "
            f"keep: compare them by span and type)")


def pairwise_f(corpus: Any, sets: str | list[str] | None = None, *, types: str | list[str] | None = None,
               fmt: str = "auto", beta: float = 1.0, pairing: str = "optimal", consensus: str | None = None,
               matrix_measure: str = "strict", credit: Any = None,
               shards: bool = False, progress: bool = False, docs_per_chunk: int | None = None,
               reader_options: dict[str, Any] | None = None, missing_as_empty: bool = False,
               missing_feature: str = "drop") -> dict[str, Any]:
    """Pairwise P/R/F between every two of ``sets`` in ``corpus`` (a path, a Corpus or Docs).

    ``sets``: the annotation sets (``"spans:a;spans:b"`` or a list); ``None``: the corpus's annotator sets
    (see the module docstring; ``sets_note`` says which). Each pair is compared on the documents both cover
    (``docs_covered`` of ``docs_total`` per pair; ``missing_as_empty=True``: on every document).
    ``reader_options`` go to the file reader (``encoding``, ``sep``, ``label_feature``, ...;
    :func:`spacy_anno_eval.io.read_corpus`).

    ``shards``: ``corpus`` is a folder or glob of shard files, read one at a
    time; each pair's counts are summed over the shards
    (:meth:`~spacy_anno_eval.spans.counts.Evaluation.concat`), so memory holds one
    shard and the counts (the pair pages then have no Annotation Diff).
    ``docs_per_chunk``: read JSONL and CoNLL
    files that many documents at a time, likewise. ``progress``: a progress
    bar over the shards (one step per shard file or chunk).

    Returns JSON-ready data (see the module docstring); ``evaluations`` maps
    ``(i, j)`` to the :class:`~spacy_anno_eval.spans.counts.Evaluation` of each pair
    for reports (not part of the JSON). With ``credit`` (a credit rule such as
    :class:`spacy_anno_eval.bdm.credit.BdmCredit`) each pair also gets its
    credit figures (``bdm``: BDM-weighted P/R/F, summed over shards like the
    counts) and the result ``mean_of_pairs_bdm`` (GATE 10.5.3).

    ``types`` as GATE's ``annTypesAndFeats`` (``Per->label;Org``): each
    type's feature is significant for that type only (``Per`` annotations
    match when their ``label`` values are equal, ``Org`` ones by span and
    type); ``*->feature`` makes the feature significant for every type not
    named with its own (``*`` alone: every type). ``type_features`` in the
    result says which. A type that no set has, a feature that no annotation
    carries, or one that no annotation of its type carries raise
    :class:`InputError` listing what exists.

    ``missing_feature``: what happens to an annotation of a ``Type->feature``
    type that lacks the feature (absent or ``None``). ``"drop"`` (default):
    it is left out, as GATE's IAA plugin does in F-measure mode (its
    ``IaaCalculation`` collects the values the feature takes and counts only
    the annotations holding one of them: TestIaa's ``sent->Op`` gives
    correct 7, spurious 2, missing 2 on ``beijing-opera.xml``, where keeping
    them gives 17, 2, 2), so GATE's figures are reproducible; a
    :class:`MissingFeatureWarning` counts the annotations left out per set, and
    ``left_out`` in the result holds the counts. ``"keep"``: they are
    compared by span and type like the annotations of a type without a
    feature (two such annotations match; GATE's subsumption: a key without
    the feature is compatible with any response). Measure ``kappa`` always
    keeps them, as ``Non-cat`` (GATE 10.5.1).
    """
    from ..spans.counts import Evaluation
    from ..spans.engine import evaluate

    if matrix_measure not in MODES:
        raise InputError(f"matrix measure must be one of {', '.join(MODES)}, got {matrix_measure!r}")
    if missing_feature not in MISSING_FEATURE:
        raise ConfigError(f"missing_feature must be one of {', '.join(MISSING_FEATURE)}, got {missing_feature!r}")
    names, sets_note, corpus = resolve_sets(corpus, sets, fmt=fmt, shards=shards, docs_per_chunk=docs_per_chunk,
                                            reader_options=reader_options, exclude=consensus)
    if consensus is not None and consensus in names:
        raise InputError(f"the consensus set {consensus!r} is also listed as an annotator")
    specs = parse_type_features(types)
    feature_of = {t: f for t, f in specs if f}
    named = [t for t, _ in specs]
    type_names = None if not specs or ANY_TYPE in named else named
    features = list(dict.fromkeys(feature_of.values())) or None
    left_out = {s: 0 for s in names + ([consensus] if consensus else [])}
    selectors = names + ([consensus] if consensus else [])
    comparisons = [(names[i], names[j]) for i, j in itertools.combinations(range(len(names)), 2)]
    comparisons += [(consensus, a) for a in names] if consensus else []
    parts: dict[tuple[str, str], list[Any]] = {c: [] for c in comparisons}
    empty: dict[tuple[str, str], Any] = {}
    streamed = shards or bool(docs_per_chunk)
    reader = CorpusParts(corpus, selectors, fmt, features, shards=shards, progress=progress,
                         docs_per_chunk=docs_per_chunk, reader_options=reader_options, typed=set(feature_of))
    coverage = Coverage(comparisons, names, missing_as_empty)
    source = ""
    for offset, part in reader:
        source = source or part.source
        if feature_of:  # each type's own significant feature; GATE leaves out annotations without it
            cut = {}
            for name in selectors:
                if name in part.sets:
                    cut[name], left = _significant_per_type(part.sets[name], feature_of, missing_feature == "drop")
                    left_out[name] += left
            part = dataclasses.replace(part, sets={**part.sets, **cut})
        masks = coverage.add(offset, part)
        for c in comparisons:
            mask = masks[c]
            if mask is not None and not mask.any():
                if c not in empty:  # the settings of an evaluation, without documents
                    one = covered_part(part, np.arange(len(part)) == 0, c)
                    empty[c] = _no_docs(evaluate(one, one, key_set=c[0], response_set=c[1], types=type_names,
                                                 features=features, beta=beta, pairing=pairing, credit=credit,
                                                 check_names=False))
                continue
            scored = part if mask is None else covered_part(part, mask, c)
            ev = evaluate(scored, scored, key_set=c[0], response_set=c[1], types=type_names, features=features,
                          beta=beta, pairing=pairing, credit=credit, check_names=False)
            parts[c].append(ev.without_pairs() if streamed else ev)
    reader.names.check(type_names, features, feature_of)
    note_left = _left_out_note(source_name(corpus, source), left_out, specs)
    if note_left is not None:
        warnings.warn(note_left, MissingFeatureWarning, stacklevel=2)
    done = {c: (Evaluation.concat(evs) if streamed else evs[0]) if evs else empty[c] for c, evs in parts.items()}
    final = reader.final_ids()
    if final is not None:
        for c, ev in done.items():
            ev.doc_ids = [final[k] for k in coverage.doc_index(c).tolist()]
    pairs, evaluations = [], {}

    def compare(key_set: str, response_set: str) -> tuple[Any, dict[str, Any]]:
        ev = done[(key_set, response_set)]
        return ev, ev.report()

    total = coverage.total
    for i, j in itertools.combinations(range(len(names)), 2):
        ev, report = compare(names[i], names[j])
        evaluations[(i, j)] = ev
        pairs.append({"a": names[i], "b": names[j], "i": i, "j": j,
                      "docs_covered": coverage.pairs[(names[i], names[j])], "docs_total": total, "report": report})
        if "bdm" in report:
            pairs[-1]["bdm"] = report.pop("bdm")
    shared, note = coverage.shared(pairs, names, source_name(corpus, source), comparisons)
    mean = {m: {k: sum(p["report"]["micro"][m][k] for p in shared) / len(shared) for k in "prf"} for m in MODES}
    labels = sorted({t for p in shared for t in p["report"]["per_type"]})
    per_type = {t: {m: sum(p["report"]["per_type"].get(t, {}).get(m, {}).get("f", 0.0) for p in shared) / len(shared)
                    for m in MODES} for t in labels}
    out: dict[str, Any] = {
        "measure": "fmeasure",
        "annotators": names,
        "types": named or None,
        "features": features,
        "type_features": {t: f for t, f in specs} if specs else None,
        "missing_feature": missing_feature,
        "left_out": left_out if feature_of else {},
        "n_docs": total,
        "missing_as_empty": missing_as_empty,
        "mean_of_pairs": mean,
        "n_pairs_in_means": len(shared),
        "per_type": per_type,
        "matrix": agreement_matrix(len(names), pairs, matrix_measure,
                                   lambda p: p["report"]["micro"][matrix_measure]["f"],
                                   lambda p: p["report"]["macro_docs"][matrix_measure]["f"],
                                   [coverage.own[a] for a in names]),
        "pairs": pairs,
        "evaluations": evaluations,
    }
    if sets_note:
        out["sets_note"] = sets_note
    if note:
        out["coverage_note"] = note
    if credit is not None:
        out["mean_of_pairs_bdm"] = {m: {k: sum(p["bdm"]["micro"][m][k] for p in shared) / len(shared)
                                        for k in "prf"} for m in MODES}
    if consensus:
        out["consensus"] = {"set": consensus, "annotators": {}}
        for a in names:
            _, report = compare(consensus, a)
            out["consensus"]["annotators"][a] = {m: report["micro"][m] for m in MODES}
            out["consensus"]["annotators"][a].update(docs_covered=coverage.pairs[(consensus, a)], docs_total=total)
    out["warnings"] = [note_left] if note_left is not None else []
    return out

def to_json(result: dict[str, Any]) -> dict[str, Any]:
    """The result without the evaluation objects and item lists (for ``json.dump``)."""
    return {k: v for k, v in result.items() if k not in ("evaluations", "items", "texts")}


__all__ = ["MISSING_FEATURE", "MissingFeatureWarning", "pairwise_f", "pairwise_kappa", "pairwise_kappa_documents",
           "parse_sets", "parse_type_features", "parse_types", "resolve_sets", "to_json"]
