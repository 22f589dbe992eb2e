"""What changed between two versions scored against the same gold (GATE user guide 10.4.4, Default Mode).

:func:`compare_evaluations` takes the :class:`~spacy_anno_eval.spans.counts.Evaluation`
of the old version (a stored baseline) and of the new one (the current
pipeline, or another baseline), both against ``marked/``, and returns JSON-ready
data:

- ``overall`` and ``per_type``: for each measure (strict, lenient, average)
  and figure (p, r, f), the old value, the new value, ``delta = new − old``,
  ``direction`` (``up``, ``down`` or ``same``), the paired bootstrap interval
  and p-value and the approximate-randomization p-value
  (:mod:`spacy_anno_eval.resampling.paired`), and whether it is a ``regression``: a drop whose
  interval lies below zero (``ci_high < 0``) and whose size exceeds
  ``max_drop``, on a figure named in ``gate``;
- ``per_doc``: the documents whose figures changed (a figure moved: changed
  counts with equal figures do not count), with old, new and delta, overall
  and per type (``per_type``: every type the document has, with ``changed``
  and ``support``), as GATE's benchmark breaks documents down by type;
- ``changes``: the annotations that changed status, one row each:
  ``fixed`` (now correct, or a spurious response gone), ``broken`` (was
  correct, or a new spurious response) and ``changed`` (any other change,
  e.g. missing to partial);
- ``regressions``: the flagged figures, and ``verdict``: ``regression`` or ``ok``.

Every figure comes from the evaluations' counts through
:func:`spacy_anno_eval.spans.measures.gate_prf`; the pairs from their alignments.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from typing import Any

import numpy as np

from ...errors import InputError
from ...figures import FIGURES
from ...resampling.paired import paired_test
from ...spans.align import CORRECT, SPURIOUS, STATUS_NAMES
from ...spans.counts import Evaluation, count_pairs_by_doc_and_type, counts_in_labels
from ...spans.measures import FIELDS, gate_prf
from .settings import BenchmarkSettings

OVERALL = "overall"


def doc_type_counts(evaluation: Evaluation, labels: list[str]) -> np.ndarray:
    """Raw counts (n_docs, len(labels), N_FIELDS) of ``evaluation`` in the label order ``labels``."""
    pairs = evaluation.require_pairs("per-document counts (or pass counts=)")
    return counts_in_labels(count_pairs_by_doc_and_type(pairs, len(evaluation.doc_ids)), pairs.labels, labels)


def _figure_table(raw: np.ndarray, measures: list[str], beta: float, zero_division: float) -> np.ndarray:
    """Figures (..., len(measures), 3) of raw counts (..., N_FIELDS)."""
    prf = gate_prf(raw, beta, zero_division)
    return np.stack([np.stack([prf[m][k] for k in FIGURES], axis=-1) for m in measures], axis=-2)


def _type_and_overall_figures(sums: np.ndarray, measures: list[str], beta: float, zero_division: float) -> np.ndarray:
    """Figures of summed counts (batch, n_labels, N_FIELDS): per type and overall, every measure and figure, flat.

    Module-level (bound with :func:`functools.partial`) so that it pickles to Dask workers.
    """
    with_total = np.concatenate([sums, sums.sum(axis=1, keepdims=True)], axis=1)
    return _figure_table(with_total, measures, beta, zero_division).reshape(len(sums), -1)


def figure_statistic(settings: BenchmarkSettings, zero_division: float) -> Any:
    """The statistic the paired tests compute: every measure's P/R/F of summed counts, per type and overall
    (:func:`_type_and_overall_figures` bound to the settings; picklable for Dask)."""
    return functools.partial(_type_and_overall_figures, measures=list(settings.measures), beta=float(settings.beta),
                             zero_division=zero_division)


def _first_difference(old: list[Any], new: list[Any]) -> str:
    """Where two lists of document ids part, for a message."""
    for i, (a, b) in enumerate(zip(old, new, strict=False)):
        if a != b:
            return f"document {i + 1} is {a!r} in the old one, {b!r} in the new one"
    return f"the old one has {len(old)} documents, the new one {len(new)}"


def _direction(delta: float) -> str:
    return "up" if delta > 1e-12 else "down" if delta < -1e-12 else "same"


def compare_evaluations(old: Evaluation, new: Evaluation, settings: BenchmarkSettings, *,
                        old_name: str = "old", new_name: str = "new",
                        counts: tuple[np.ndarray, np.ndarray, list[str]] | None = None,
                        changes: list[dict[str, Any]] | None = None, client: Any = None,
                        per_doc: bool = True, test: Any = None, gated: bool = True) -> dict[str, Any]:
    """The difference between ``old`` and ``new`` (see the module docstring).

    ``counts`` (the per-document, per-type counts of both and their label
    order) and ``changes`` (:func:`annotation_changes`) may be given instead
    of being read from the pairs: a benchmark scored window by window
    (:mod:`.windows`) keeps those and drops the pairs. ``client``: an open
    ``distributed.Client`` to spread the resampling over
    (:func:`spacy_anno_eval.resampling.paired.paired_test`); the result is the same as without. ``per_doc``:
    whether to list the documents whose figures changed (``False``: ``per_doc`` is ``None``; about 5 s of a
    10,000-document pair that ``compare`` need not spend unless asked). ``test``: the
    :class:`~spacy_anno_eval.resampling.paired.PairedTest` of these ``counts`` under :func:`figure_statistic`,
    when it was drawn already (``compare`` draws the tests of all its pairs at once). ``gated``: judge each
    figure against the regression gate (``max_drop``, ``gate``); ``False`` (``compare``, a question rather
    than a CI gate) leaves out ``regression``, ``regressions``, ``verdict`` and the gate's settings.
    """
    if old.doc_ids != new.doc_ids:
        raise InputError(f"compare_evaluations: both evaluations must cover the same documents in the same order "
                         f"({_first_difference(old.doc_ids, new.doc_ids)}); score both against the same marked/ "
                         f"corpus")
    if counts is None:
        labels = sorted(set(old.labels) | set(new.labels))
        counts_old, counts_new = doc_type_counts(old, labels), doc_type_counts(new, labels)
    else:
        counts_old, counts_new, labels = counts
    n_labels = len(labels)
    measures = list(settings.measures)
    zd = float(old.settings.get("zero_division", 0.0))
    beta = float(settings.beta)

    if test is None:
        test = paired_test(counts_old, counts_new, figure_statistic(settings, zd), n_samples=settings.n_samples,
                           seed=settings.seed, confidence=settings.confidence, client=client)
    shape = (n_labels + 1, len(measures), len(FIGURES))
    cols = {name: getattr(test, name).reshape(shape) for name in
            ("old", "new", "delta", "ci_low", "ci_high", "p_bootstrap", "p_randomization")}
    present = np.concatenate([(counts_old.any(axis=(0, 2)) | counts_new.any(axis=(0, 2))), [True]])
    regressions: list[dict[str, Any]] = []

    def cell(t: int, m: int, k: int, scope: str) -> dict[str, Any]:
        values = {name: float(arr[t, m, k]) for name, arr in cols.items()}
        delta = values["delta"]
        regression = (FIGURES[k] in settings.gate and delta < 0 and -delta > settings.max_drop + 1e-12
                      and values["ci_high"] < 0)
        entry = {"old": values["old"], "new": values["new"], "delta": delta, "direction": _direction(delta),
                 "ci": [values["ci_low"], values["ci_high"]], "p_bootstrap": values["p_bootstrap"],
                 "p_randomization": values["p_randomization"]}
        if not gated:
            return entry
        entry["regression"] = bool(regression)
        if regression:
            regressions.append({"scope": scope, "measure": measures[m], "figure": FIGURES[k],
                                **{k2: entry[k2] for k2 in ("old", "new", "delta", "ci", "p_bootstrap",
                                                            "p_randomization")}})
        return entry

    def block(t: int, scope: str) -> dict[str, Any]:
        return {m: {FIGURES[k]: cell(t, i, k, scope) for k in range(len(FIGURES))} for i, m in enumerate(measures)}

    overall = block(n_labels, OVERALL)
    per_type = {labels[t]: block(t, labels[t]) for t in range(n_labels) if present[t]}
    n_types = {labels[t]: {"old": _support(counts_old[:, t]), "new": _support(counts_new[:, t])}
               for t in range(n_labels) if present[t]}
    out = {
        "old": old_name,
        "new": new_name,
        "overall": overall,
        "per_type": per_type,
        "support": n_types,
        "per_doc": _per_doc(old, new, measures, beta, zd, counts_old, counts_new, labels) if per_doc else None,
        "changes": annotation_changes(old, new) if changes is None else changes,
        "significance": {"method": "paired bootstrap over documents (percentile interval); approximate "
                                   "randomization (documents swapped)",
                         "n_samples": test.n_samples, "seed": test.seed, "confidence": test.confidence},
    }
    if gated:
        out["significance"].update(max_drop=float(settings.max_drop), gate=list(settings.gate))
        out.update(regressions=regressions, verdict="regression" if regressions else "ok")
    return out


def _support(raw: np.ndarray) -> dict[str, int]:
    """Key and response annotation totals of per-document raw counts (n_docs, N_FIELDS)."""
    total = raw.sum(axis=0)
    f = {name: int(total[i]) for i, name in enumerate(FIELDS)}
    key = f["correct"] + f["partial"] + f["incorrect"] + f["overlap"] + f["missing"]
    response = f["correct"] + f["partial"] + f["incorrect_r"] + f["overlap_r"] + f["spurious"]
    return {"key": key, "response": response}


def _moved(old: np.ndarray, new: np.ndarray) -> np.ndarray:
    """Where a figure moved (by more than rounding noise), over every axis but the first."""
    return (np.abs(new - old) > 1e-12).reshape(len(old), -1).any(axis=1)


def _figure_cells(fo: list, fn: list, measures: list[str]) -> dict[str, Any]:
    """``{measure: {figure: {old, new, delta, direction}}}`` of figure tables (measures, figures) as lists."""
    return {name: {FIGURES[k]: {"old": fo[m][k], "new": fn[m][k], "delta": fn[m][k] - fo[m][k],
                                "direction": _direction(fn[m][k] - fo[m][k])} for k in range(len(FIGURES))}
            for m, name in enumerate(measures)}


def _per_doc(old: Evaluation, new: Evaluation, measures: list[str], beta: float, zd: float,
             counts_old: np.ndarray, counts_new: np.ndarray, labels: list[str]) -> list[dict[str, Any]]:
    """Documents whose figures changed (a document whose counts changed but whose figures did not is not
    listed), with each figure's old, new and delta, overall and per type (GATE user guide 10.4.4).

    ``per_type`` holds every type that document has in either version, each with ``changed`` (whether any of
    its figures moved) and its key and response totals (``support``).
    """
    candidates = np.flatnonzero((old.by_doc != new.by_doc).any(axis=1)
                                | (counts_old != counts_new).any(axis=(1, 2)))
    if not len(candidates):
        return []
    fo = _figure_table(old.by_doc[candidates], measures, beta, zd)
    fn = _figure_table(new.by_doc[candidates], measures, beta, zd)
    to = _figure_table(counts_old[candidates], measures, beta, zd)   # (docs, labels, measures, figures)
    tn = _figure_table(counts_new[candidates], measures, beta, zd)
    type_moved = (np.abs(tn - to) > 1e-12).any(axis=(2, 3))          # (docs, labels)
    changed = _moved(fo, fn) | type_moved.any(axis=1)
    present = counts_old[candidates].any(axis=2) | counts_new[candidates].any(axis=2)
    fo_l, fn_l, to_l, tn_l = fo.tolist(), fn.tolist(), to.tolist(), tn.tolist()
    rows = []
    for i, d in enumerate(candidates.tolist()):
        if not changed[i]:
            continue
        row: dict[str, Any] = {"doc": d, "id": old.doc_ids[d], **_figure_cells(fo_l[i], fn_l[i], measures)}
        row["per_type"] = {
            labels[t]: {"changed": bool(type_moved[i, t]), **_figure_cells(to_l[i][t], tn_l[i][t], measures),
                        "support": {"old": _support(counts_old[d, t][None]), "new": _support(counts_new[d, t][None])}}
            for t in np.flatnonzero(present[i]).tolist()}
        rows.append(row)
    return rows


def annotation_changes(old: Evaluation, new: Evaluation) -> list[dict[str, Any]]:
    """Key annotations whose status changed, and spurious responses that appeared or went, in document order.

    Both evaluations must share the key (the same ``marked/``): key rows are
    compared by position, responses by ``(document, start, end, label)``.
    """
    a, b = old.alignment, new.alignment
    if a is None or b is None:
        raise InputError("annotation_changes needs evaluations that keep their pairs (made by evaluate(), not "
                         "merged from shards)")
    if len(a.key) != len(b.key) or not (np.array_equal(a.key.start, b.key.start)
                                        and np.array_equal(a.key.end, b.key.end)
                                        and np.array_equal(a.key.doc, b.key.doc)):
        raise InputError("annotation_changes: the two evaluations do not share the same key annotations; score "
                         "both against the same marked/ corpus")

    def by_key(al: Any) -> tuple[np.ndarray, np.ndarray]:
        status = np.full(len(al.key), -1, dtype=np.int64)
        resp = np.full(len(al.key), -1, dtype=np.int64)
        has = al.key_row >= 0
        status[al.key_row[has]] = al.status[has]
        resp[al.key_row[has]] = al.response_row[has]
        return status, resp

    def spurious(al: Any) -> dict[tuple[int, int, int, str], int]:
        rows = np.flatnonzero(al.status == SPURIOUS)
        r = al.response_row[rows]
        return {(int(al.doc[i]), int(al.response.start[j]), int(al.response.end[j]),
                 al.labels[int(al.response.label[j])]): int(j) for i, j in zip(rows, r, strict=True)}

    s_old, r_old = by_key(a)
    s_new, r_new = by_key(b)
    out: list[tuple[tuple[int, int, int], dict[str, Any]]] = []
    for k in np.flatnonzero(s_old != s_new).tolist():
        doc = int(a.key.doc[k])
        so, sn = int(s_old[k]), int(s_new[k])
        change = "fixed" if sn == CORRECT else "broken" if so == CORRECT else "changed"
        out.append(((doc, int(a.key.start[k]), 0), {
            "doc": doc, "doc_id": old.doc_ids[doc], "change": change, "key": old.annotation(a.key, k, doc),
            "old": {"status": STATUS_NAMES[so], "response": old.annotation(a.response, int(r_old[k]), doc)},
            "new": {"status": STATUS_NAMES[sn], "response": new.annotation(b.response, int(r_new[k]), doc)}}))
    sp_old, sp_new = spurious(a), spurious(b)
    for key in sp_old.keys() - sp_new.keys():
        doc = key[0]
        out.append(((doc, key[1], 1), {
            "doc": doc, "doc_id": old.doc_ids[doc], "change": "fixed", "key": None,
            "old": {"status": "spurious", "response": old.annotation(a.response, sp_old[key], doc)},
            "new": {"status": None, "response": None}}))
    for key in sp_new.keys() - sp_old.keys():
        doc = key[0]
        out.append(((doc, key[1], 1), {
            "doc": doc, "doc_id": old.doc_ids[doc], "change": "broken", "key": None,
            "old": {"status": None, "response": None},
            "new": {"status": "spurious", "response": new.annotation(b.response, sp_new[key], doc)}}))
    out.sort(key=lambda item: item[0])
    return [row for _, row in out]


def below_threshold(evaluation: Evaluation, report: dict[str, Any], settings: BenchmarkSettings,
                    rows: Iterable[dict[str, Any]] | None = None) -> dict[str, Any]:
    """GATE's verbose mode: per type whose P or R (any measure) is below ``threshold``, the figures and the
    non-coextensive annotations (every pair of that type that is not correct), with their text.

    ``rows``: the Annotation Diff rows to list from (at least those not
    correct), instead of ``evaluation.diff_rows()``.

    Precision of a type with no response annotations (and recall of one with
    no key annotations) is undefined, whatever ``zero_division`` makes of it,
    and is not listed as low.
    """
    low: dict[str, Any] = {}
    for label, entry in report["per_type"].items():
        c = entry["counts"]
        # a figure whose denominator is zero (P of a type never predicted) is undefined, not low
        defined = {"p": c["correct"] + c["partial"] + c["spurious"] > 0,
                   "r": c["correct"] + c["partial"] + c["missing"] > 0}
        figures = {f"{m}.{k}": entry[m][k] for m in settings.measures for k in ("p", "r")
                   if defined[k] and entry[m][k] < settings.threshold}
        if figures:
            low[label] = {"figures": figures, "annotations": []}
    if not low:
        return low
    for row in evaluation.diff_rows() if rows is None else rows:
        if row["status"] == "correct":
            continue
        for side in ("key", "response"):
            if row[side] is not None and row[side]["label"] in low:
                low[row[side]["label"]]["annotations"].append(row)
                break
    return low


__all__ = ["annotation_changes", "below_threshold", "compare_evaluations", "doc_type_counts"]
