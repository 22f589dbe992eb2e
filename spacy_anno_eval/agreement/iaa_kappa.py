"""Pairwise kappa on span annotations: IAA measure ``kappa`` (GATE's IAA plugin, user guide 10.5).

The one job: :func:`pairwise_kappa` (and :func:`pairwise_kappa_documents`,
documents as items) with the accumulator it sums over the parts of a corpus
and the chance-corrected family beside GATE's figures. Which sets, which
documents and how the corpus is read: :mod:`spacy_anno_eval.spans.parts`;
the types and the summaries every pairwise measure shares:
:mod:`.pairs`; pairwise F: :mod:`.iaa` (which re-exports these functions).

Measure ``kappa`` (:func:`pairwise_kappa`, GATE's ``AGREEMENTANDKAPPA``):
annotations of one type are the items; two annotators' annotations are the
same item when coextensive (:func:`~spacy_anno_eval.spans.coextensive.pair_coextensive`).
The category of an item is, for ``Type->feature``, the feature's value
compared as a string, as GATE's classification tables do (``"5"`` and ``5``
are one category, user guide 10.3.6;
:func:`~spacy_anno_eval.agreement.classification.category`), ``Non-cat`` when
the annotation lacks the feature, and ``Anns`` without a feature; an
annotation only one annotator made is ``Non-cat`` for the other (GATE user
guide 10.5.2). Per pair and type: the contingency table, observed
agreement, Cohen's kappa, Scott's pi, specific agreement per category, the
same per document, and with ``bootstrap`` an interval for kappa and pi, all
from the one span-kappa accumulator that ``qa --classify`` uses too
(:class:`~spacy_anno_eval.agreement.classification.ContingencyCounts`).
Beside GATE's figures, the chance-corrected family of
:mod:`spacy_anno_eval.agreement.chance` (``chance_corrected``): per pair and
type, Gwet's AC1, Brennan-Prediger, PABAK (with Byrt's prevalence and bias
indices for two categories) and positive / negative specific agreement of
the pair's table; per type, Gwet's AC1, Brennan-Prediger, Conger's kappa and
Fleiss' kappa of all annotators together and each annotator against the
majority of the others, on units that are positions some annotator marked
(:func:`_unit_codes`; for two annotators, the pair's items); means over types
and pairs. Every category of the type (``Non-cat`` too) counts in AC1's and
Brennan-Prediger's number of categories ``q``, as in the pair's table.
Beyond GATE, the type ``*`` takes the annotations of every type and their
label as the category (``*->feature``: the feature), which is how to ask
"how often do the annotators label the same span alike" on spaCy Docs.

With ``shards`` the corpus is read one shard file at a time (with
``docs_per_chunk``, JSONL and CoNLL files that many documents at a time) and
the contingency tables are summed per type and document, so the result equals
the whole corpus's exactly.

Undefined coefficients (Ae = 1, e.g. a type without a feature where both
annotators made exactly the same annotations: every item is ``Anns``/``Anns``)
are ``None`` with an entry in ``warnings``.
"""

from __future__ import annotations

import itertools
import warnings
from typing import Any

import numpy as np

from ..annotations.table import Corpus
from ..errors import InputError
from ..spans.parts import ANY_TYPE, CorpusParts, Coverage, resolve_sets, rows_in, source_name, take_rows
from .pairs import agreement_matrix, mean_defined, parse_type_features, spec_label

#: the category of an item one annotator did not categorise, or of an annotation without its type's feature
NON_CAT = "Non-cat"
#: the category of an annotation of a type without a feature
ANNS = "Anns"


def _categories(table: Any, type_name: str, feature: str | None) -> tuple[np.ndarray, list[str]]:
    """Group (0 for rows of ``type_name``, -1 for others) and category of every row of ``table``: the label for
    ``*`` without a feature, ``Anns`` for a type without one, else the feature's value as a string
    (:func:`~spacy_anno_eval.agreement.classification.category`; ``Non-cat`` without a value)."""
    from .classification import row_categories

    labels = table.label_names()
    group = np.zeros(len(table), dtype=np.int64) if type_name == ANY_TYPE else np.where(labels == type_name, 0, -1)
    if feature is None:
        cats = list(labels) if type_name == ANY_TYPE else [ANNS] * len(table)
    else:
        cats = row_categories(table, feature, NON_CAT)
    return group.astype(np.int64), cats


class _KappaSums:
    """What :func:`pairwise_kappa` keeps of the parts (shards) read so far, all in document order.

    Per type (its label, ``Type->feature``): the categories used. Per
    comparison and type: each part's
    :class:`~spacy_anno_eval.agreement.classification.ContingencyCounts`
    (documents by their global index; every item in document ``0`` for a
    comparison without ``detail``); with ``detail``, the rows of the items the
    two categorised differently, and the texts of their documents.
    """

    def __init__(self, specs: list[tuple[str, str | None]], selectors: list[str],
                 comparisons: list[tuple[str, str]], detail: set[tuple[str, str]], coverage: Coverage,
                 annotators: list[str] | None = None, non_cat: bool = True) -> None:
        self.specs, self.selectors, self.comparisons, self.detail = specs, selectors, comparisons, detail
        self.coverage = coverage
        self.non_cat = non_cat  # False: no item can be Non-cat (documents), so it is no category of the tables
        self.annotators = list(annotators or [])
        # per type: each part's (categories, annotators x units codes, -1 missing) for the all-annotator family
        self.units: dict[str, list[tuple[list[str], np.ndarray]]] = {}
        self.found: set[str] = set()
        self.used: dict[str, set[str]] = {}
        self.cells: dict[tuple[tuple[str, str], str], list[Any]] = {}
        self.items: dict[tuple[tuple[str, str], str], list[dict[str, Any]]] = {}
        self.doc_ids: list[str] = []
        self.texts: dict[int, str] = {}

    def add(self, offset: int, part: Any) -> None:
        """Count the items of ``part``, whose first document is document ``offset`` of the corpus."""
        from ..spans.coextensive import pair_coextensive
        from .classification import ContingencyCounts

        tables = {s: part.get_set(s) for s in self.selectors}
        found = {lab for tab in tables.values() for lab in tab.labels}
        self.found.update(found)
        self.doc_ids.extend(part.doc_ids)
        masks = self.coverage.add(offset, part)
        # rows of each set in the documents each comparison covers (None: every row)
        keep = {(c, s): None if masks[c] is None else rows_in(tables[s], masks[c])
                for c in self.comparisons for s in c}
        for type_name, feature in self.specs or [(t, None) for t in sorted(found)]:
            label = spec_label(type_name, feature)
            groups, cats = {}, {}
            for s, tab in tables.items():
                groups[s], cats[s] = _categories(tab, type_name, feature)
            used = sorted({c for s in self.selectors for c, g in zip(cats[s], groups[s], strict=True) if g >= 0}
                          - {NON_CAT})
            self.used.setdefault(label, set()).update(used)
            vocab = used + [NON_CAT]
            index = {c: k for k, c in enumerate(vocab)}
            non_cat = len(vocab) - 1
            # rows of other types (group -1) are no items; their category may be outside the vocabulary
            codes = {s: np.array([index[c] if g >= 0 else non_cat for c, g in zip(cats[s], groups[s], strict=True)],
                                 dtype=np.int64) for s in self.selectors}
            if self.annotators:
                self.units.setdefault(label, []).append(
                    (vocab, _unit_codes(part, tables, groups, codes, self.annotators, non_cat,
                                        self.coverage.missing_as_empty)))
            for x, y in self.comparisons:
                side = {}
                for s in (x, y):
                    k = keep[((x, y), s)]
                    side[s] = (tables[s], groups[s], codes[s]) if k is None else \
                        (take_rows(tables[s], k), groups[s][k], codes[s][k])
                (tx, gx, kx), (ty, gy, ky) = side[x], side[y]
                pairs = pair_coextensive(tx, ty, gx, gy, kx, ky)
                ca, cb = pairs.take(kx, ky, non_cat)  # an annotation the other did not make: Non-cat
                detail = (x, y) in self.detail
                doc = pairs.doc.astype(np.int64) + offset if detail else None
                self.cells.setdefault(((x, y), label), []).append(ContingencyCounts.of_codes(vocab, ca, cb, doc))
                if detail:
                    self.items.setdefault(((x, y), label), []).extend(
                        self._disagreements(offset, part, tx, ty, pairs, ca, cb, vocab, label))

    def _disagreements(self, offset: int, part: Any, ta: Any, tb: Any, pairs: Any, ca: np.ndarray,
                       cb: np.ndarray, vocab: list[str], label: str) -> list[dict[str, Any]]:
        """The rows of the items categorised differently, by document and offsets; keep their texts."""
        rows = []
        for k in np.flatnonzero(ca != cb).tolist():
            row, tab = (int(pairs.a_row[k]), ta) if pairs.a_row[k] >= 0 else (int(pairs.b_row[k]), tb)
            doc = int(pairs.doc[k])
            rows.append({"type": label, "doc_id": part.doc_ids[doc], "doc": offset + doc,
                         "start": int(tab.start[row]), "end": int(tab.end[row]),
                         "category_a": vocab[ca[k]], "category_b": vocab[cb[k]]})
            if offset + doc not in self.texts:
                self.texts[offset + doc] = part.texts[doc]
        rows.sort(key=lambda r: (r["doc"], r["start"], r["end"]))
        return rows

    def rename(self, doc_ids: list[str] | None) -> None:
        """Give the documents the ids ``doc_ids`` (all of them, in order; ``None``: keep them)."""
        if doc_ids is None:
            return
        self.doc_ids = list(doc_ids)
        for rows in self.items.values():
            for row in rows:
                row["doc_id"] = doc_ids[row["doc"]]

    def ratings(self, label: str) -> tuple[list[str], list[list[str | None]]]:
        """The categories of ``label`` (as :meth:`table`) and the annotators x units ratings of every part
        (a category, ``None`` where the annotator does not cover the unit's document)."""
        vocab = sorted(self.used.get(label, ())) + ([NON_CAT] if self.non_cat else [])
        index = {c: k for k, c in enumerate(vocab)}
        blocks = []
        for part_vocab, codes in self.units.get(label, []):  # without non_cat no unit has its code: -1 is safe
            to_global = np.array([index.get(c, -1) for c in part_vocab] + [-1], dtype=np.int64)  # -1 -> -1
            blocks.append(to_global[codes])
        n = len(self.annotators)
        codes = np.concatenate(blocks, axis=1) if blocks else np.zeros((n, 0), dtype=np.int64)
        names: list[str | None] = [*vocab, None]
        return vocab, [[names[c] for c in row] for row in codes.tolist()]

    def labels(self) -> list[str]:
        """Every type's label: those asked for, else every type found, sorted."""
        return [spec_label(t, f) for t, f in self.specs] or sorted(self.found)

    def table(self, comparison: tuple[str, str], label: str) -> tuple[list[str], Any]:
        """The categories of ``label`` (those used, sorted, then ``Non-cat``) and the counts of ``comparison``
        summed over the parts."""
        from .classification import ContingencyCounts

        return (sorted(self.used.get(label, ())) + ([NON_CAT] if self.non_cat else []),
                ContingencyCounts.concat(self.cells.get((comparison, label), [])))


def _unit_codes(part: Any, tables: dict[str, Any], groups: dict[str, np.ndarray], codes: dict[str, np.ndarray],
                annotators: list[str], non_cat: int, missing_as_empty: bool) -> np.ndarray:
    """The annotators x units category codes of one type in ``part`` (for the family of all annotators).

    A unit is a position ``(document, start, end)`` that some annotator gave an annotation of the type, and
    the k-th such annotation of an annotator there (annotations of one position ranked by category code, so
    that equal categories come first); an annotator who covers the document but made no k-th annotation there
    gives ``non_cat``, one who does not cover it (and not ``missing_as_empty``) gives ``-1`` (missing). For two
    annotators with one annotation per position these are the items of
    :func:`~spacy_anno_eval.spans.coextensive.pair_coextensive`."""
    keys, who, what = [], [], []
    for g, s in enumerate(annotators):
        t = tables[s]
        rows = np.flatnonzero(groups[s] >= 0)
        if not len(rows):
            continue
        doc, start, end, code = t.doc[rows], t.start[rows], t.end[rows], codes[s][rows]
        order = np.lexsort((code, end, start, doc))
        doc, start, end, code = doc[order], start[order], end[order], code[order]
        new = np.ones(len(doc), dtype=bool)
        new[1:] = (doc[1:] != doc[:-1]) | (start[1:] != start[:-1]) | (end[1:] != end[:-1])
        first = np.maximum.accumulate(np.where(new, np.arange(len(doc)), 0))
        keys.append(np.stack([doc, start, end, np.arange(len(doc)) - first], axis=1))
        who.append(np.full(len(doc), g, dtype=np.int64))
        what.append(code)
    n = len(annotators)
    if not keys:
        return np.zeros((n, 0), dtype=np.int64)
    units, inverse = np.unique(np.concatenate(keys), axis=0, return_inverse=True)
    inverse = inverse.reshape(-1)
    out = np.empty((n, len(units)), dtype=np.int64)
    for g, s in enumerate(annotators):
        covered = np.ones(len(part), dtype=bool) if missing_as_empty else part.covered(s)
        out[g] = np.where(covered[units[:, 0]], non_cat, -1)
    out[np.concatenate(who), inverse] = np.concatenate(what)
    return out


def pairwise_kappa(corpus: Any, sets: str | list[str] | None = None, *, types: str | list[str] | None = None,
                   fmt: str = "auto", consensus: str | None = None, bootstrap: int = 0, seed: int = 0,
                   shards: bool = False, progress: bool = False, client: Any = None,
                   docs_per_chunk: int | None = None, reader_options: dict[str, Any] | None = None,
                   missing_as_empty: bool = False, non_cat: bool = True, units: str = "spans") -> dict[str, Any]:
    """Observed agreement, Cohen's kappa and Scott's pi between every two of ``sets`` on their span annotations.

    See the module docstring for items and categories. ``types`` as GATE
    writes them (``Per->label;Org``; ``*`` for every type with its label as
    category); without ``types``, every type found, without a feature. Returns
    JSON-ready data: ``pairs`` (per pair: ``per_type`` figures with the
    contingency table and ``per_doc`` figures, and ``mean_over_types``),
    ``mean_of_pairs``, ``per_type`` (mean over pairs), ``matrix`` (Cohen's
    kappa, mean over types: micro, and mean over documents), ``warnings``;
    ``items`` (per pair, the items the two annotators categorised
    differently, by document and offsets, for reports) and ``texts`` (the
    texts of their documents, by document index) are dropped by
    :func:`~spacy_anno_eval.agreement.iaa.to_json`.

    ``shards``: ``corpus`` is a folder or glob of shard files, read one at a
    time (``progress``: a progress bar over them). The whole corpus is read
    the same way, as one shard: per pair and type, the counts per document
    and category are summed over the shards, per-document figures and
    disagreements follow in document order, and every coefficient, mean,
    warning and bootstrap interval is computed once from the sums, so the
    result equals the whole corpus's exactly. Memory holds one shard, the
    disagreements (and their documents' texts) and a few counts per
    document. ``docs_per_chunk``: read JSONL and CoNLL files that many
    documents at a time, likewise. ``client``: an open Dask ``distributed.Client`` for the
    bootstrap (:func:`~spacy_anno_eval.agreement.coefficients.table_bootstrap`). ``reader_options`` go to
    the file reader (``encoding``, ``sep``, ``label_feature``, ...).

    ``sets`` ``None``: the corpus's annotator sets (``sets_note`` says which). Each pair counts the items of
    the documents both annotators cover (``docs_covered`` of ``docs_total``; ``missing_as_empty=True``: every
    document); a pair that shares no document has no figures and is left out of the means.

    ``units="auto"``: when the sets hold no span annotation but carry document categories (a document
    classification export, read whole, without ``types``), the result is :func:`pairwise_kappa_documents`'s on
    the corpus already read; ``"spans"`` (the default) compares span annotations only.

    ``non_cat=False`` leaves GATE's ``Non-cat`` out of the categories (it then counts in no table and in no
    ``q`` of Gwet's AC1 and Brennan-Prediger): for items that every annotator who covers a document categorises,
    as :func:`pairwise_kappa_documents` makes them.
    """
    from .coefficients import DegenerateAgreementWarning

    names, sets_note, corpus = resolve_sets(corpus, sets, fmt=fmt, shards=shards, docs_per_chunk=docs_per_chunk,
                                            reader_options=reader_options, exclude=consensus)
    if consensus is not None and consensus in names:
        raise InputError(f"the consensus set {consensus!r} is also listed as an annotator")
    specs = parse_type_features(types)
    features = list(dict.fromkeys(f for _, f in specs if f)) or None
    selectors = names + ([consensus] if consensus else [])
    index_pairs = list(itertools.combinations(range(len(names)), 2))
    pair_comparisons = [(names[i], names[j]) for i, j in index_pairs]
    consensus_comparisons = [(consensus, a) for a in names] if consensus else []
    comparisons = pair_comparisons + consensus_comparisons
    coverage = Coverage(comparisons, names, missing_as_empty)
    sums = _KappaSums(specs, selectors, comparisons, set(pair_comparisons), coverage, names, non_cat)
    feature_of = {t: f for t, f in specs if f}
    reader = CorpusParts(corpus, selectors, fmt, features, shards=shards, progress=progress,
                         docs_per_chunk=docs_per_chunk, reader_options=reader_options, typed=set(feature_of))
    source = ""
    whole, n_parts, with_cats = None, 0, set()
    for offset, part in reader:
        source = source or part.source
        sums.add(offset, part)
        n_parts += 1
        whole = part if n_parts == 1 else None  # the corpus read whole (memory holds one part of a stream)
        with_cats.update(s for s in names if part.doc_cats(s) is not None)
    reader.names.check([t for t, _ in specs], features, feature_of)
    sums.rename(reader.final_ids())
    labels = sums.labels()
    if not labels:
        cats = [s for s in names if s in with_cats]
        if cats and units == "auto" and whole is not None and not specs:  # a document classification export
            return pairwise_kappa_documents(whole, sets, consensus=consensus, bootstrap=bootstrap, seed=seed,
                                            client=client, missing_as_empty=missing_as_empty)
        hint = f" (but document categories: {', '.join(cats)}; compare those with documents as units)" if cats \
            else ""
        raise InputError(f"the sets {', '.join(selectors)} hold no annotations{hint}; nothing to compare")

    caught_messages: list[str] = []
    family_notes: list[str] = []  # the chance-corrected family's undefined figures, in the result, warned once
    if with_cats and units == "auto":
        caught_messages.append(f"the sets {', '.join(s for s in names if s in with_cats)} also carry document "
                               f"categories; --units documents compares those")

    def compare(x: str, y: str, detail: bool) -> dict[str, Any]:
        per_type: dict[str, Any] = {}
        if not coverage.pairs[(x, y)]:  # no document both cover: no figures
            return per_type
        for label in labels:
            vocab, counts = sums.table((x, y), label)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", DegenerateAgreementWarning)
                figures = counts.figures(vocab, bootstrap=bootstrap if detail else 0, seed=seed, client=client)
                if detail:
                    figures["per_doc"] = counts.per_doc(sums.doc_ids, vocab)
            if any(figures[k] is None for k in ("cohen_kappa", "scott_pi")):
                caught_messages.append(f"{x} / {y}, {label}: kappa or pi undefined (a single category in the "
                                       f"table, or no items); reported as null")
            if detail:
                figures["chance_corrected"] = _quietly(f"{x} / {y}, {label}", family_notes,
                                                       counts.chance_corrected, vocab)
            per_type[label] = figures
        return per_type

    keys = ("observed_agreement", "cohen_kappa", "scott_pi")
    pairs_out, items_out = [], {}
    total = coverage.total
    for i, j in index_pairs:
        per_type = compare(names[i], names[j], True)
        over_types = {k: mean_defined([f[k] for f in per_type.values()]) for k in keys}
        doc_kappa = mean_defined([mean_defined([d["cohen_kappa"] for d in f["per_doc"]]) for f in per_type.values()])
        pairs_out.append({"a": names[i], "b": names[j], "i": i, "j": j,
                          "docs_covered": coverage.pairs[(names[i], names[j])], "docs_total": total,
                          "per_type": per_type, "mean_over_types": over_types,
                          "mean_over_docs": {"cohen_kappa": doc_kappa},
                          "chance_corrected": {"mean_over_types": {
                              k: mean_defined([_family_value(f["chance_corrected"], k) for f in per_type.values()])
                              for k in PAIR_FAMILY}}})
        items_out[(i, j)] = [row for label in labels for row in sums.items.get(((names[i], names[j]), label), [])]
    shared, note = coverage.shared(pairs_out, names, source_name(corpus, source), comparisons)
    out: dict[str, Any] = {
        "measure": "kappa",
        "annotators": names,
        "types": labels,
        "n_docs": len(sums.doc_ids),
        "missing_as_empty": missing_as_empty,
        "mean_of_pairs": {k: mean_defined([p["mean_over_types"][k] for p in shared]) for k in keys},
        "n_pairs_in_means": len(shared),
        "per_type": {t: {k: mean_defined([p["per_type"][t][k] for p in shared]) for k in keys} for t in labels},
        "chance_corrected": _overall_family(sums, labels, names, shared, family_notes),
        "matrix": agreement_matrix(len(names), pairs_out, "cohen_kappa",
                                   lambda p: p["mean_over_types"]["cohen_kappa"],
                                   lambda p: p["mean_over_docs"]["cohen_kappa"], [coverage.own[a] for a in names]),
        "pairs": pairs_out,
        "items": items_out,
        "texts": sums.texts,
    }
    if sets_note:
        out["sets_note"] = sets_note
    if note:
        out["coverage_note"] = note
    if consensus:
        out["consensus"] = {"set": consensus, "annotators": {}}
        for a in names:
            per_type = compare(consensus, a, False)
            out["consensus"]["annotators"][a] = {
                "per_type": {t: {k: f[k] for k in keys} for t, f in per_type.items()},
                "mean_over_types": {k: mean_defined([f[k] for f in per_type.values()]) for k in keys},
                "docs_covered": coverage.pairs[(consensus, a)], "docs_total": total}
    out["chance_corrected"]["notes"] = list(dict.fromkeys(family_notes))
    if family_notes:
        caught_messages.append(f"chance-corrected family: {len(out['chance_corrected']['notes'])} figures are "
                               f"undefined or 0/0 (null, or zero_division 0.0, in the JSON; "
                               f"chance_corrected.notes lists them)")
    out["warnings"] = list(dict.fromkeys(caught_messages))
    return out


def pairwise_kappa_documents(corpus: Corpus, sets: str | list[str] | None = None, *, consensus: str | None = None,
                             bootstrap: int = 0, seed: int = 0, client: Any = None,
                             missing_as_empty: bool = False) -> dict[str, Any]:
    """:func:`pairwise_kappa` with documents as items: GATE's IAA for classification (user guide 10.5), on the
    document categories of ``corpus`` (:attr:`~spacy_anno_eval.annotations.table.Corpus.cats`).

    Each document a pair both covers is one item, its category the label each annotator chose (``(none)``
    where they chose none); where some annotator chose several labels for a document (multi-label), every
    label is a type of its own whose items are the documents, categories ``yes`` / ``no``, and the means over
    types are the means over labels (:func:`~spacy_anno_eval.agreement.units.document_spans`, which turns the
    categories into whole-document annotations so that the one accumulator counts them). Per pair and over all
    annotators the figures are :func:`pairwise_kappa`'s (Cohen's kappa, Scott's pi, observed and specific
    agreement, the chance-corrected family, the matrix); ``units`` says what the units were. ``sets`` ``None``:
    the corpus's annotator sets. Raise :class:`InputError` when none of the sets carries document categories."""
    from .units import document_spans

    documents, types, info = document_spans(corpus, sets, missing_as_empty=missing_as_empty, consensus=consensus)
    result = pairwise_kappa(documents, sets, types=types, consensus=consensus, bootstrap=bootstrap, seed=seed,
                            client=client, missing_as_empty=missing_as_empty, non_cat=False)
    result["units"] = info
    return result


#: the per-pair chance-corrected figures (a pair's table) and those of all annotators (their ratings)
PAIR_FAMILY = ("gwet_ac", "brennan_prediger", "pabak")
OVERALL_FAMILY = ("gwet_ac", "brennan_prediger", "conger_kappa", "fleiss_kappa_averaged")


def _family_value(family: dict[str, Any], key: str) -> float | None:
    """The value of coefficient ``key`` in a family dict (PABAK's ``pabak``, the others' ``value``)."""
    entry = family.get(key)
    if not isinstance(entry, dict):
        return None
    return entry.get("pabak") if key == "pabak" else entry.get("value")


def _quietly(where: str, notes: list[str], compute: Any, *args: Any) -> Any:
    """``compute(*args)``, each :class:`~spacy_anno_eval.errors.UndefinedFigureWarning` it gives kept in
    ``notes`` (prefixed with ``where``) instead of shown: the result lists them once, in ``warnings``."""
    from ..errors import UndefinedFigureWarning

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", UndefinedFigureWarning)
        out = compute(*args)
    notes.extend(f"{where}: {w.message}" for w in caught if issubclass(w.category, UndefinedFigureWarning))
    for w in caught:
        if not issubclass(w.category, UndefinedFigureWarning):
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
    return out


def _overall_family(sums: _KappaSums, labels: list[str], names: list[str], shared: list[dict[str, Any]],
                    notes: list[str]) -> dict[str, Any]:
    """The chance-corrected family of ``pairwise_kappa``'s result (key ``chance_corrected``).

    ``per_type``: per type, the family of all annotators on the units of
    :func:`_unit_codes` (:func:`~spacy_anno_eval.agreement.classification.raw_family`: Gwet's AC1,
    Brennan-Prediger, Conger's kappa, Fleiss' kappa with averaged shares, and each annotator against the
    majority of the others); ``mean_over_types``: the mean of each coefficient over the types, and of the
    annotators' mean observed agreement with the majority (``majority``); ``majority_per_annotator``: each
    annotator's observed agreement with the majority, mean over types; ``mean_of_pairs``: the mean over the pairs
    that share a document of each pair's mean over types of Gwet's AC1, Brennan-Prediger and PABAK."""
    from .classification import raw_family

    per_type: dict[str, Any] = {}
    for label in labels:
        vocab, ratings = sums.ratings(label)
        family, family_notes = _quietly(f"all annotators, {label}", notes, raw_family, ratings, names, vocab)
        notes.extend(f"all annotators, {label}: {n}" for n in family_notes)
        per_type[label] = family
    majority = {a: mean_defined([f["majority"]["annotators"][a]["observed_agreement"]
                                 for f in per_type.values() if "majority" in f]) for a in names}
    return {"weights": "identity",
            "per_type": per_type,
            "mean_over_types": {**{k: mean_defined([_family_value(f, k) for f in per_type.values()])
                                   for k in OVERALL_FAMILY},
                                "majority": mean_defined([f["majority"]["mean"] for f in per_type.values()
                                                          if "majority" in f])},
            "majority_per_annotator": majority,
            "mean_of_pairs": {k: mean_defined([p["chance_corrected"]["mean_over_types"][k] for p in shared])
                              for k in PAIR_FAMILY}}

__all__ = ["ANNS", "NON_CAT", "OVERALL_FAMILY", "PAIR_FAMILY", "pairwise_kappa", "pairwise_kappa_documents"]
