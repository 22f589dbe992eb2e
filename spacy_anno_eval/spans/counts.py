"""Mergeable accumulators of pair counts, and the corpus-level report.

An :class:`Evaluation` holds raw counts (see
:data:`spacy_anno_eval.spans.measures.FIELDS`) per type and per document. Both
tables are plain sums, so evaluations of shards merge by addition
(:meth:`Evaluation.merge`). Every figure of the report is computed from these
counts by :mod:`spacy_anno_eval.spans.measures`; micro = add the counts, then
compute; macro = mean of the per-type (or per-document) figures, over the
types (documents) that have at least one key or response annotation.

An evaluation may also carry a credit sum (:mod:`spacy_anno_eval.spans.credit`,
e.g. the BDM credit), merged with the counts and reported beside them. It
records its settings, and merging refuses evaluations made with different
ones (:meth:`Evaluation.concat`). Whether it keeps the pairs is explicit:
:attr:`Evaluation.has_pairs`; :meth:`Evaluation.without_pairs` drops them, and
whatever needs them (:meth:`Evaluation.diff_rows`) says so up front.

Beside P/R/F the report gives GATE's two other figures of user guide §10.1.3:

- the **error rate**, "the inverse of precision": the incorrectly identified
  items as a share of the items identified, under each criterion (strict:
  (Pa + S) / (C + Pa + S); lenient: S / (C + Pa + S); average: their mean),
  so E = 1 - P wherever P is defined (no response: ``zero_division``, as P);
- the **false-positive rate**, eq. 10.8: ``FalsePositive = Spurious / c``,
  "where c is some constant independent from document richness, e.g. the
  number of tokens or sentences in the document". Here ``c`` is the number of
  tokens (default) or sentences of a document (:attr:`Evaluation.units`, the
  key's, :mod:`spacy_anno_eval.spans.units`; ``settings["fp_per"]`` is
  ``"sentences"`` for the latter, absent for tokens); per document S_d / c_d, per type
  S_t / (sum of c over the corpus), micro S / (sum of c), macro the mean of the
  per-type or per-document figures. ``c = 0`` (an empty text) gives
  ``zero_division``. An evaluation that does not know ``c`` (rebuilt from
  per-document results without ``units``) reports the false-positive rate as
  ``None`` (``null``).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from itertools import repeat
from typing import TYPE_CHECKING, Any

import numpy as np

from ..annotations.table import INDEX, SpanTable
from ..errors import ConfigError, InputError
from ..figures import check_beta, check_zero_division, ratio
from .align import INCORRECT, OVERLAP, SPURIOUS, STATUS_NAMES, PairTable
from .credit import CreditRule, CreditSum
from .measures import (
    FIELDS,
    MODES,
    error_rate,
    gate_counts,
    gate_prf,
    muc_prf,
    semeval_prf,
)
from .settings import SpanSettings

if TYPE_CHECKING:
    from .confusion import SpanConfusion

N_FIELDS = len(FIELDS)
# why the macro mean over documents covers fewer documents than the corpus has (report["macro_docs_coverage"])
MACRO_DOCS_REASON = ("documents with no annotation on either side (key or response) have no defined precision "
                     "or recall")


def count_pairs(alignment: PairTable, group: np.ndarray | None, n_groups: int) -> np.ndarray:
    """Raw counts (n_groups, N_FIELDS) of an alignment's pairs.

    ``group`` gives the group of each pair for the key-side fields (for
    example its document); ``None`` groups by label: the key's label for
    correct / partial / incorrect / overlap / missing, the response's label for
    spurious and for the response side of incorrect and overlap pairs.
    """
    status = alignment.status.astype(np.int64)
    if group is None:
        klab, rlab = alignment.key_label(), alignment.response_label()
        g1 = np.where(status == SPURIOUS, rlab, klab)
        two_sided = (status == INCORRECT) | (status == OVERLAP)
        g2 = rlab[two_sided]
    else:
        g1 = group
        two_sided = (status == INCORRECT) | (status == OVERLAP)
        g2 = group[two_sided]
    idx = np.concatenate([g1 * N_FIELDS + status, g2 * N_FIELDS + status[two_sided] + 4])
    flat = np.bincount(idx, minlength=n_groups * N_FIELDS) if len(idx) else np.zeros(n_groups * N_FIELDS)
    return flat.astype(np.int64).reshape(n_groups, N_FIELDS)


def count_pairs_by_doc_and_type(alignment: PairTable, n_docs: int) -> np.ndarray:
    """Raw counts (n_docs, n_labels, N_FIELDS): :func:`count_pairs` by label, per document."""
    n_labels = len(alignment.labels)
    status = alignment.status.astype(np.int64)
    klab, rlab = alignment.key_label(), alignment.response_label()
    doc = alignment.doc.astype(np.int64)
    g1 = doc * n_labels + np.where(status == SPURIOUS, rlab, klab)
    two_sided = (status == INCORRECT) | (status == OVERLAP)
    g2 = doc[two_sided] * n_labels + rlab[two_sided]
    idx = np.concatenate([g1 * N_FIELDS + status, g2 * N_FIELDS + status[two_sided] + 4])
    size = n_docs * n_labels * N_FIELDS
    flat = np.bincount(idx, minlength=size) if len(idx) else np.zeros(size)
    return flat.astype(np.int64).reshape(n_docs, n_labels, N_FIELDS)


def counts_in_labels(counts: np.ndarray, names: Sequence[str], labels: Sequence[str]) -> np.ndarray:
    """Raw counts ``(n_docs, len(names), N_FIELDS)`` whose types are ``names``, laid out in the label order
    ``labels`` (which holds every name); a type ``names`` lacks counts 0."""
    index = {name: i for i, name in enumerate(labels)}
    out = np.zeros((len(counts), len(labels), N_FIELDS), dtype=np.int64)
    out[:, [index[n] for n in names], :] = counts
    return out


def doc_results(alignment: PairTable, n_docs: int, keep_features: Sequence[str] = ()) -> list[dict[str, Any]]:
    """Split an alignment of ``n_docs`` documents into one compact result per document.

    Each result holds plain Python ints, strings, lists and dicts only (it
    survives JSON, msgpack and ``Doc.to_bytes``):

    - ``labels``: the labels of this document's annotations, sorted;
    - ``counts``: one row of raw counts per label (the fields of
      :data:`spacy_anno_eval.spans.measures.FIELDS`, in that order);
    - ``key`` / ``response``: ``[start, end, label]`` per annotation, in the
      tables' (document) order, ``label`` an index into ``labels``;
    - ``pairs``: ``[key, response, status]`` per pair, in document order:
      indices into ``key`` / ``response`` (``-1`` where a side is absent) and
      a status code, an index into
      :data:`spacy_anno_eval.spans.align.STATUS_NAMES`.

    Features are kept only when named in ``keep_features`` (for example the
    feature holding a BDM concept): then ``key_features`` /
    ``response_features`` hold one dict of those features per annotation.
    :meth:`Evaluation.from_doc_results` puts the results of a corpus back
    together.
    """
    key, response = alignment.key, alignment.response
    bounds = np.arange(n_docs + 1)
    kb = np.searchsorted(key.doc, bounds).tolist()
    rb = np.searchsorted(response.doc, bounds).tolist()
    pb = np.searchsorted(alignment.doc, bounds).tolist()
    counts = count_pairs_by_doc_and_type(alignment, n_docs)
    used = counts.any(axis=2)
    k_cols = np.stack([key.start, key.end, key.label], axis=1).tolist()
    r_cols = np.stack([response.start, response.end, response.label], axis=1).tolist()
    key_row, resp_row, status = alignment.key_row.tolist(), alignment.response_row.tolist(), alignment.status.tolist()
    labels = alignment.labels
    out = []
    for d in range(n_docs):
        ids = np.flatnonzero(used[d])
        local = {int(g): i for i, g in enumerate(ids)}
        k0, r0 = kb[d], rb[d]
        out.append({
            "labels": [labels[g] for g in ids],
            "counts": counts[d, ids].tolist(),
            "key": [[s, e, local[lab]] for s, e, lab in k_cols[k0:kb[d + 1]]],
            "response": [[s, e, local[lab]] for s, e, lab in r_cols[r0:rb[d + 1]]],
            "pairs": [[k - k0 if k >= 0 else -1, r - r0 if r >= 0 else -1, st]
                      for k, r, st in zip(key_row[pb[d]:pb[d + 1]], resp_row[pb[d]:pb[d + 1]],
                                          status[pb[d]:pb[d + 1]], strict=True)],
        })
    if keep_features:
        for side, table, bounds_ in (("key", key, kb), ("response", response, rb)):
            feats = table.features
            for d, result in enumerate(out):
                result[f"{side}_features"] = [
                    {} if feats is None else {n: feats[i][n] for n in keep_features if n in feats[i]}
                    for i in range(bounds_[d], bounds_[d + 1])]
    return out


def _side_table(results: Sequence[dict[str, Any]], side: str, maps: list[np.ndarray],
                labels: list[str]) -> tuple[SpanTable, np.ndarray]:
    """One side of the per-document results as a corpus table, and each document's first row."""
    rows = [np.asarray(r[side], dtype=INDEX).reshape(-1, 3) for r in results]
    sizes = np.fromiter((len(x) for x in rows), dtype=INDEX, count=len(rows))
    first = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(INDEX) if len(rows) else np.zeros(0, INDEX)
    if not sizes.sum():
        z = np.zeros(0, dtype=INDEX)
        return SpanTable(z, z.copy(), z.copy(), z.copy(), labels), first
    cols = np.concatenate(rows)
    label = np.concatenate([m[x[:, 2]] for m, x in zip(maps, rows, strict=True) if len(x)])
    doc = np.repeat(np.arange(len(rows), dtype=INDEX), sizes)
    features = None
    if any(f"{side}_features" in r for r in results):
        features = [dict(f) for r, n in zip(results, sizes.tolist(), strict=True)
                    for f in r.get(f"{side}_features") or [{}] * n]
    return SpanTable(doc, cols[:, 0], cols[:, 1], label, labels, features), first


def _check_doc_result(result: Any, d: int) -> None:
    if not isinstance(result, dict) or not {"labels", "key", "response", "pairs"} <= set(result):
        raise InputError(f"document {d}: not a per-document result (a dict with labels, key, response and "
                         f"pairs, as doc_results() makes it), got {type(result).__name__}")


_COUNT_KEYS = frozenset(("correct", "partial", "missing", "spurious", "incorrect", "tokens", "sentences"))


def is_count(key: str) -> bool:
    """Counts (MUC's upper-case names, GATE's counts) are ints; everything else a float. The one rule, also for
    :func:`spacy_anno_eval.report.json.write_json`'s streamed rows."""
    return key.isupper() or key in _COUNT_KEYS


def _floats(d: dict[str, Any]) -> dict[str, Any]:
    """A nested dict of numpy scalars as plain Python ints and floats."""
    return {k: _floats(v) if isinstance(v, dict) else (int(v) if is_count(k) else float(v)) for k, v in d.items()}


def report_rows(table: dict[str, Any]) -> list[dict[str, Any]]:
    """A nested dict of equal-length arrays as one nested dict of Python numbers per row.

    Column-wise: each array becomes a list once (``tolist``), then rows are
    zipped, so a report over many documents costs no numpy scalar per cell.
    """
    keys = list(table)
    columns = []
    for k in keys:
        v = table[k]
        if isinstance(v, dict):
            columns.append(report_rows(v))
        else:
            arr = np.asarray(v)
            if arr.dtype == object:
                columns.append(arr.tolist())
            else:
                columns.append(arr.astype(np.int64 if is_count(k) else float).tolist())
    # map/zip keeps the per-row work in C: about 2.5x faster than a comprehension over zip(strict=True)
    return list(map(dict, map(zip, repeat(keys), zip(*columns, strict=True))))


@dataclass
class Evaluation:
    """Counts of a key/response comparison: per type, per document, and (when kept) the pairs.

    ``alignment`` (the pairs) and ``texts`` (the key's document texts) are
    kept for diffs and reports (:attr:`has_pairs`); an evaluation made with
    ``keep_pairs=False`` (:meth:`without_pairs`) or merged from parts
    (:meth:`concat`) has neither. ``credit``: a credit sum
    (:class:`~spacy_anno_eval.spans.credit.CreditSum`) carried beside the
    counts, or ``None``. ``units``: ``c`` of the false-positive rate per document (its tokens or
    sentences, as ``settings["fp_per"]`` says; GATE user guide §10.1.3 eq. 10.8), or ``None`` when not known.
    """

    labels: list[str]
    doc_ids: list[str]
    by_type: np.ndarray
    by_doc: np.ndarray
    alignment: PairTable | None = None
    settings: SpanSettings = field(default_factory=SpanSettings)
    texts: Sequence[str] | None = None
    credit: CreditSum | None = None
    units: np.ndarray | None = None

    def __post_init__(self) -> None:
        # the settings it was made with, validated once (a mapping of them is read as SpanSettings)
        self.settings = SpanSettings.of(self.settings)

    @classmethod
    def from_alignment(cls, alignment: PairTable, doc_ids: Sequence[str],
                       settings: SpanSettings | dict[str, Any] | None = None,
                       texts: Sequence[str] | None = None, credit: CreditRule | None = None,
                       units: Sequence[int] | None = None) -> Evaluation:
        """The counts of ``alignment`` (and, with a credit rule, its credit sum), keeping the pairs. ``units``:
        ``c`` of the false-positive rate per document (see the class), or ``None``."""
        by_type = count_pairs(alignment, None, len(alignment.labels))
        by_doc = count_pairs(alignment, alignment.doc, len(doc_ids))
        credit_sum = credit.accumulate(alignment) if credit is not None else None
        return cls(list(alignment.labels), list(doc_ids), by_type, by_doc, alignment, SpanSettings.of(settings),
                   texts, credit_sum, _check_units(units, len(doc_ids)))

    @property
    def has_pairs(self) -> bool:
        """Whether the pairs (and texts) are kept: :meth:`diff_rows` and :meth:`docs_with_pairs` need them."""
        return self.alignment is not None

    def without_pairs(self) -> Evaluation:
        """The same evaluation without its pairs and texts (counts and credit only: what a shard sends back
        with ``keep_pairs=False``)."""
        return replace(self, alignment=None, texts=None)

    def require_pairs(self, what: str) -> PairTable:
        """The pairs, or :class:`ConfigError` saying that ``what`` needs them and how to keep them."""
        if self.alignment is None:
            raise ConfigError(f"{what} needs the pairs, and this evaluation keeps no pairs: it was made without them "
                              "(keep_pairs=False, without_pairs(), or merged from parts with merge/concat); "
                              "pass keep_pairs=True, or call it on each part before merging")
        return self.alignment

    @classmethod
    def from_doc_results(cls, results: Sequence[dict[str, Any]], doc_ids: Sequence[str],
                         settings: SpanSettings | dict[str, Any] | None = None,
                         texts: Sequence[str] | None = None, credit: CreditRule | None = None,
                         units: Sequence[int] | None = None) -> Evaluation:
        """Put per-document results (:func:`doc_results`) back together into one evaluation.

        ``results[d]`` is the result of document ``doc_ids[d]`` (whose text is
        ``texts[d]`` when given). The alignment is rebuilt, so
        :meth:`diff_rows` works, and every count equals that of aligning the
        whole corpus at once (pairing never crosses a document). ``credit``:
        a credit rule run on the rebuilt pairs (which hold the features the
        results kept, see :func:`doc_results`). ``units``: ``c`` of the false-positive rate per document;
        without it, when the texts are given and the settings count tokens (the default), the texts' tokens
        (:func:`spacy_anno_eval.spans.units.text_tokens`, the rule :func:`~spacy_anno_eval.spans.engine.evaluate`
        applies too).
        """
        results = list(results)
        if len(doc_ids) != len(results):
            raise InputError(f"from_doc_results: {len(results)} results but {len(doc_ids)} document ids; "
                             "give one id per result")
        if texts is not None and len(texts) != len(results):
            raise InputError(f"from_doc_results: {len(results)} results but {len(texts)} texts; "
                             "give one text per result")
        for d, r in enumerate(results):
            _check_doc_result(r, d)
        labels = sorted({name for r in results for name in r["labels"]})
        index = {name: i for i, name in enumerate(labels)}
        maps = [np.array([index[name] for name in r["labels"]], dtype=INDEX) for r in results]
        key, k_first = _side_table(results, "key", maps, labels)
        response, r_first = _side_table(results, "response", maps, labels)
        pairs = [np.asarray(r["pairs"], dtype=INDEX).reshape(-1, 3) for r in results]
        sizes = np.fromiter((len(p) for p in pairs), dtype=INDEX, count=len(pairs))
        if sizes.sum():
            cols = np.concatenate(pairs)
            doc = np.repeat(np.arange(len(pairs), dtype=INDEX), sizes)
            key_row = np.where(cols[:, 0] >= 0, cols[:, 0] + k_first[doc], -1)
            resp_row = np.where(cols[:, 1] >= 0, cols[:, 1] + r_first[doc], -1)
            status = cols[:, 2].astype(np.int8)
        else:
            doc = key_row = resp_row = np.zeros(0, dtype=INDEX)
            status = np.zeros(0, dtype=np.int8)
        alignment = PairTable(key, response, labels, doc, key_row.astype(INDEX), resp_row.astype(INDEX), status)
        settings = SpanSettings.of(settings)
        if units is None and texts is not None and settings.fp_per == "tokens":
            from .units import text_tokens

            units = text_tokens(texts)
        return cls.from_alignment(alignment, doc_ids, settings, texts, credit, units)

    def diff_rows(self, max_docs: int | None = None) -> list[dict[str, Any]]:
        """The Annotation Diff (GATE user guide 10.2): one row per pair, in document order; with
        ``max_docs``, only the pairs of the first ``max_docs`` documents that have pairs.

        Each row: ``doc`` (index), ``doc_id``, ``status`` (correct, partial,
        incorrect, overlap, missing, spurious; GATE's *mismatch* is incorrect
        or overlap), and for each side present ``key`` / ``response`` as
        ``{"start", "end", "label", "text"}`` (``text`` when the texts are
        known), else ``None``. Read from the alignment, never recomputed. Raises
        :class:`ConfigError` when the evaluation keeps no pairs (:attr:`has_pairs`).
        """
        al = self.require_pairs("diff_rows (the Annotation Diff)")
        stop = len(al.doc)
        if max_docs is not None:
            docs = self.docs_with_pairs()
            if len(docs) > max_docs:
                stop = int(np.searchsorted(al.doc, docs[max_docs]))
        rows = []
        side = self.annotation
        for doc, k, r, status in zip(al.doc[:stop].tolist(), al.key_row[:stop].tolist(),
                                     al.response_row[:stop].tolist(), al.status[:stop].tolist(), strict=True):
            rows.append({"doc": doc, "doc_id": self.doc_ids[doc], "status": STATUS_NAMES[status],
                         "key": side(al.key, k, doc), "response": side(al.response, r, doc)})
        return rows

    def errors(self, which: Sequence[str] | None = None, context: int = 40) -> list[dict[str, Any]]:
        """Every error of the alignment as a row (:func:`spacy_anno_eval.spans.decisions.decision_rows`): the
        document id, the decision (label_error, boundary_error, boundary_and_label_error, missing, spurious;
        ``which`` chooses, :data:`~spacy_anno_eval.spans.decisions.DECISIONS` for every decision), each side's
        start, end, label and text, and ``context`` characters of text on each side. Needs the pairs."""
        from .decisions import decision_rows

        return decision_rows(self, which=which, context=context)

    def decision_counts(self) -> dict[str, Any]:
        """The number of each decision, overall and per type
        (:func:`spacy_anno_eval.spans.decisions.decision_counts`), read from the counts."""
        from .decisions import decision_counts

        return decision_counts(self)

    def confusion(self, overlap: str = "coextensive") -> SpanConfusion:
        """The label confusion matrix of the pairs (:class:`spacy_anno_eval.spans.confusion.SpanConfusion`):
        key label × response label with a ``none`` row and column; ``overlap`` ``"coextensive"`` (same
        offsets) or ``"any"`` (every pair). Needs the pairs."""
        from .confusion import SpanConfusion

        return SpanConfusion.from_pairs(self.require_pairs("the label confusion matrix"), overlap)

    def buckets(self, features: Sequence[str] | None = None, train: Any = None) -> list[Any]:
        """Strict and lenient P/R/F per bucket of span length, label, document length and density, and with a
        training corpus ``train`` of training frequency and label consistency
        (:func:`spacy_anno_eval.spans.buckets.compute_buckets`). Needs the pairs and the texts."""
        from .buckets import compute_buckets

        return compute_buckets(self, features, train, self.settings.key_set)

    def docs_with_pairs(self) -> np.ndarray:
        """The indices of the documents that have pairs (a key or a response annotation), sorted. Raises
        :class:`ConfigError` when the evaluation keeps no pairs (:attr:`has_pairs`)."""
        return np.unique(self.require_pairs("docs_with_pairs").doc)

    def annotation(self, table: SpanTable, row: int, doc: int) -> dict[str, Any] | None:
        """Row ``row`` of ``table`` (the alignment's key or response) as ``{"start", "end", "label"}``, with
        ``"text"`` when the texts are known and ``"features"`` when it has any; ``None`` for ``row < 0``."""
        if row < 0:
            return None
        start, end = int(table.start[row]), int(table.end[row])
        out: dict[str, Any] = {"start": start, "end": end, "label": self.labels[int(table.label[row])]}
        if self.texts is not None:
            out["text"] = self.texts[doc][start:end]
        if table.features is not None and table.features[row]:
            out["features"] = dict(table.features[row])
        return out

    def _repr_html_(self) -> str:
        """A notebook's view: the summary cards, the per-type table and the first documents of the Diff
        (:func:`spacy_anno_eval.report.notebook.evaluation_html`)."""
        from ..report.notebook import evaluation_html

        return evaluation_html(self)

    def merge(self, other: Evaluation) -> Evaluation:
        """The evaluation of both corpora together (documents appended); see :meth:`concat`."""
        return Evaluation.concat([self, other])

    @classmethod
    def concat(cls, evaluations: Sequence[Evaluation]) -> Evaluation:
        """The evaluation of all the corpora together, documents in the given order, in one pass (no
        intermediate copies: linear in the number of documents), without pairs.

        Counts and credit sums add, so the result equals the evaluation of the
        whole corpus. Evaluations with documents must have been made with the
        same settings (types, beta, zero_division, pairing, features,
        min_overlap, key and response sets) and the same credit (none, or
        sums with equal settings): otherwise :class:`ConfigError` names the
        first setting that differs. An evaluation without documents (an empty
        shard) merges with anything.
        """
        evaluations = list(evaluations)
        if not evaluations:
            raise InputError("concat needs at least one evaluation; give one or more")
        with_docs = [ev for ev in evaluations if ev.doc_ids]
        _check_same_settings(evaluations)
        labels = sorted({name for ev in evaluations for name in ev.labels})
        by_type = np.zeros((len(labels), N_FIELDS), dtype=np.int64)
        index = {name: i for i, name in enumerate(labels)}
        doc_ids: list[str] = []
        for ev in evaluations:
            by_type[[index[n] for n in ev.labels]] += ev.by_type
            doc_ids.extend(ev.doc_ids)
        settings = with_docs[0].settings if with_docs else evaluations[0].settings
        credit = None
        for ev in with_docs:
            if ev.credit is not None:
                credit = ev.credit if credit is None else credit.merge(ev.credit)
        units = None
        if with_docs and all(ev.units is not None for ev in with_docs):
            units = np.concatenate([ev.units for ev in with_docs]).astype(np.int64)
        return cls(labels, doc_ids, by_type, np.concatenate([ev.by_doc for ev in evaluations]), None,
                   settings, None, credit, units)

    def known_units(self) -> np.ndarray | None:
        """:attr:`units` (``c`` of the false-positive rate, one per document), or ``None`` when not known."""
        if self.units is None or len(self.units) != len(self.by_doc):
            return None
        return self.units

    @property
    def total(self) -> np.ndarray:
        """Raw counts over the whole corpus (micro)."""
        return self.by_type.sum(axis=0)

    def scores(self, beta: float | None = None, zero_division: float | None = None) -> dict[str, Any]:
        """Micro strict/lenient/average P/R/F as floats: ``{"strict": {"p", "r", "f"}, ...}``."""
        beta, zd = self._beta_zd(beta, zero_division)
        return _floats(gate_prf(self.total, beta, zd))

    def doc_rows(self, beta: float | None = None, zero_division: float | None = None) -> PerDocRows:
        """The report's per-document rows (:class:`PerDocRows`, built when read), without the rest of the
        report."""
        return PerDocRows(self, *self._beta_zd(beta, zero_division))

    def _beta_zd(self, beta: float | None, zero_division: float | None) -> tuple[float, float]:
        """β and ``zero_division`` of a report: the settings' (validated when made), or those given here."""
        if beta is None and zero_division is None:
            return self.settings.beta, self.settings.zero_division
        return (self.settings.beta if beta is None else check_beta(beta),
                self.settings.zero_division if zero_division is None else check_zero_division(zero_division))

    def report(self, beta: float | None = None, zero_division: float | None = None,
               per_doc: bool = True, lazy: bool = False) -> dict[str, Any]:
        """The full report as JSON-ready data (values are fractions in [0, 1]).

        ``lazy``: ``per_doc`` is a :class:`PerDocRows` sequence that builds
        its rows when read, a chunk at a time (:func:`write_json` streams it),
        instead of a list of one dict per document.
        """
        beta, zd = self._beta_zd(beta, zero_division)
        total = self.total
        present_t = np.flatnonzero(self.by_type.any(axis=1))
        present_d = np.flatnonzero(self.by_doc.any(axis=1))
        type_prf = gate_prf(self.by_type, beta, zd)
        doc_prf = gate_prf(self.by_doc, beta, zd)
        type_counts = gate_counts(self.by_type)
        type_muc = muc_prf(self.by_type, beta, zd)
        type_sem = semeval_prf(self.by_type, beta, zd)

        def macro(prf: dict, rows: np.ndarray) -> dict:
            return {m: {k: float(prf[m][k][rows].mean()) if len(rows) else float(zd) for k in "prf"}
                    for m in MODES}

        def mean(values: np.ndarray, rows: np.ndarray) -> float:
            return float(values[rows].mean()) if len(rows) else float(zd)

        type_e, doc_e = error_rate(self.by_type, zd), error_rate(self.by_doc, zd)
        units = self.known_units()
        c_total = None if units is None else int(units.sum())
        type_fp = None if c_total is None else ratio(type_counts["spurious"], c_total, zd)

        out: dict[str, Any] = {
            "counts": _floats(gate_counts(total)),
            "micro": _floats(gate_prf(total, beta, zd)),
            "macro_types": macro(type_prf, present_t),
            "macro_docs": macro(doc_prf, present_d),
            # how many documents the macro mean covers, and why the others are left out
            "macro_docs_coverage": {"n_docs": int(len(present_d)), "n_left_out": len(self.doc_ids) - len(present_d),
                                    "reason": MACRO_DOCS_REASON},
            "per_type": {},
            "muc": _floats(muc_prf(total, beta, zd)),
            "semeval": _floats(semeval_prf(total, beta, zd)),
            "error_rate": {"micro": _floats(error_rate(total, zd)),
                           "macro_types": {m: mean(type_e[m], present_t) for m in MODES},
                           "macro_docs": {m: mean(doc_e[m], present_d) for m in MODES}},
            "false_positive": None,
            "n_docs": len(self.doc_ids),
            "settings": {"beta": beta, "zero_division": zd, **{k: v for k, v in self.settings.items()
                                                                 if k not in ("beta", "zero_division")}},
        }
        if c_total is not None:
            per = self.settings.fp_per
            doc_fp = ratio(gate_counts(self.by_doc)["spurious"], units, zd)
            out["false_positive"] = {
                "per": per, per: c_total,
                "micro": float(ratio(gate_counts(total)["spurious"], c_total, zd)),
                "macro_types": mean(type_fp, present_t), "macro_docs": mean(doc_fp, present_d)}
        type_rows = report_rows({"counts": type_counts, **type_prf, "muc": type_muc, "semeval": type_sem,
                                 "error_rate": type_e})
        for i in present_t:
            row = type_rows[i]
            row["false_positive"] = None if type_fp is None else float(type_fp[i])
            out["per_type"][self.labels[i]] = row
        if per_doc:
            rows = PerDocRows(self, beta, zd)
            out["per_doc"] = rows if lazy else rows[:]
        if self.credit is not None:
            out[self.credit.name] = self.credit.report(beta, zd)
        return out


def _check_units(units: Sequence[int] | None, n_docs: int) -> np.ndarray | None:
    """``units`` as int64, one per document (:class:`InputError` otherwise), or ``None``."""
    if units is None:
        return None
    arr = np.asarray(units, dtype=np.int64).reshape(-1)
    if len(arr) != n_docs or (arr < 0).any():
        raise InputError(f"units: give one count >= 0 (tokens or sentences) per document: {n_docs} documents, "
                         f"got {len(arr)} counts")
    return arr


def _check_same_settings(evaluations: Sequence[Evaluation]) -> None:
    """Raise :class:`ConfigError` naming the first setting (or credit setting) in which two evaluations with
    documents differ."""
    with_docs = [(i, ev) for i, ev in enumerate(evaluations) if ev.doc_ids]
    if not with_docs:
        return
    i0, first = with_docs[0]

    def refuse(what: str, a: Any, i: int, b: Any) -> None:
        raise ConfigError(f"cannot merge evaluations made with different settings: {what} is {a!r} in "
                          f"evaluation {i0} but {b!r} in evaluation {i}; score every part with the same settings")

    for i, ev in with_docs[1:]:
        mine, theirs = first.settings.recorded(), ev.settings.recorded()
        for key in list(mine) + [k for k in theirs if k not in mine]:
            if mine.get(key) != theirs.get(key):
                refuse(key, mine.get(key), i, theirs.get(key))
        a, b = first.credit, ev.credit
        if (a is None) != (b is None) or (a is not None and a.name != b.name):
            refuse("credit", None if a is None else a.name, i, None if b is None else b.name)
        if a is not None:
            sa, sb = dict(a.settings), dict(b.settings)
            for key in list(sa) + [k for k in sb if k not in sa]:
                if sa.get(key) != sb.get(key):
                    refuse(f"{a.name} {key}", sa.get(key), i, sb.get(key))


class PerDocRows(Sequence[dict[str, Any]]):
    """The per-document rows of a report (id, counts, strict/lenient/average P/R/F, error rate, false-positive
    rate and its ``c``: ``tokens`` or ``sentences``), built from the counts
    when read: a slice builds only its rows, iteration builds them a chunk at a time. The rows equal those
    of :meth:`Evaluation.report` (and compare equal to that list); :func:`write_json` writes them, and
    ``list(rows)`` makes the list (for ``json.dumps``)."""

    CHUNK = 10_000

    def __init__(self, evaluation: Evaluation, beta: float, zero_division: float) -> None:
        self._ev, self._beta, self._zd = evaluation, beta, zero_division

    def __len__(self) -> int:
        return len(self._ev.doc_ids)

    def rows(self, a: int, b: int) -> list[dict[str, Any]]:
        """The rows of documents ``a`` to ``b - 1``."""
        return report_rows(self.table(a, b))

    def table(self, a: int, b: int) -> dict[str, Any]:
        """The rows of documents ``a`` to ``b - 1`` as columns: a nested dict of arrays, as the rows nest."""
        counts = self._ev.by_doc[a:b]
        c = gate_counts(counts)
        out = {"id": np.asarray(self._ev.doc_ids[a:b], dtype=object), "counts": c,
               **gate_prf(counts, self._beta, self._zd), "error_rate": error_rate(counts, self._zd)}
        units = self._ev.known_units()
        if units is None:
            out["false_positive"] = np.full(len(counts), None, dtype=object)
        else:
            out["false_positive"] = ratio(c["spurious"], units[a:b], self._zd)
            out[self._ev.settings.fp_per] = units[a:b]
        return out

    def __getitem__(self, i: Any) -> Any:
        if isinstance(i, slice):
            a, b, step = i.indices(len(self))
            rows = self.rows(a, max(a, b)) if step == 1 else [self[j] for j in range(a, b, step)]
            return rows
        n = len(self)
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError("document index out of range")
        return self.rows(i, i + 1)[0]

    def __iter__(self) -> Iterator[dict[str, Any]]:
        for a in range(0, len(self), self.CHUNK):
            yield from self.rows(a, min(a + self.CHUNK, len(self)))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (list, PerDocRows)):
            return len(self) == len(other) and list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]
