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

With ``shards`` both measures read a corpus split into shard files one file
at a time (with ``docs_per_chunk``, JSONL and CoNLL files that many
documents at a time) and sum what is a sum (counts per type and document,
contingency tables), so the result equals the whole corpus's exactly.

Undefined coefficients (Ae = 1, e.g. a type without a feature where both
annotators made exactly the same annotations: every item is ``Anns``/``Anns``)
are ``None`` with an entry in ``warnings``.

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
import os
import warnings
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np

from ..annotations.table import Corpus, SpanTable, name_list, split_names
from ..errors import ConfigError, CoverageWarning, InputError, MissingFeatureWarning
from ..spans.measures import MODES


def parse_sets(sets: str | list[str]) -> list[str]:
    """``"spans:a;spans:b"`` (GATE's ``;``) or a list -> the set selectors; at least two, distinct."""
    items = [s.strip() for s in (split_names(sets) if isinstance(sets, str) else name_list(sets, "sets") or [])
             if s.strip()]
    if len(items) < 2:
        raise InputError(f"IAA needs two or more annotation sets, got {items}")
    if len(set(items)) != len(items):
        raise InputError(f"annotation sets must be distinct, got {items}")
    return items


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


class _Parts:
    """The parts of ``corpus`` in document order, as ``(offset, part)`` when iterated: the whole corpus as
    one part; with ``shards`` each shard file (:func:`~spacy_anno_eval.io.units.shard_paths`: a file, a folder
    or a glob pattern) read in turn; with ``docs_per_chunk`` each JSONL or CoNLL file read that many
    documents at a time (:mod:`spacy_anno_eval.io.chunks`); memory holds one part.

    ``offset`` is the number of documents before the part. A reader names a
    document without an id by its position in its file (``"0"``, ``"1"``...);
    in a later part such positional ids are renumbered from ``offset``
    (:class:`~spacy_anno_eval.io.units.StreamIds`), so every document has the
    id the whole corpus gives it. A CoNLL file's
    comment ids hold only when every document of the whole file has a unique
    one, which a chunk cannot know: :meth:`final_ids` gives the corrected ids
    once every part has been read (``None`` when nothing changes).
    ``progress``: a progress bar over the parts (documents per second), drawn
    only on a terminal.
    """

    def __init__(self, corpus: Any, selectors: list[str], fmt: str = "auto", features: list[str] | None = None, *,
                 shards: bool = False, progress: bool = False, docs_per_chunk: int | None = None,
                 reader_options: dict[str, Any] | None = None, typed: set[str] | None = None) -> None:
        self.selectors, self.fmt, self.features, self.progress = selectors, fmt, features, progress
        self.reader_options = dict(reader_options or {})
        if not shards and not docs_per_chunk:
            self.units = [os.fspath(corpus) if isinstance(corpus, (str, os.PathLike)) else corpus]
        elif isinstance(corpus, (str, os.PathLike)):
            from ..io.units import shard_units

            self.units = shard_units(corpus, fmt, docs_per_chunk, sharded=shards, selectors=selectors,
                                     **self.reader_options)
        else:
            raise InputError(f"shards: the corpus must be a folder of shard files, a glob pattern or a file, "
                                     f"got a {type(corpus).__name__}; pass a path, or leave shards off for a "
                                     f"corpus in memory")
        from ..io.units import StreamIds

        self.ids = StreamIds()
        source = _source_name(corpus, None)
        self.names = _SeenNames(source, selectors, typed)

    def __iter__(self) -> Iterator[tuple[int, Any]]:
        from ..io.units import read_unit
        from ..progress import progress_bar
        from ..spans.engine import load

        offset = 0
        with progress_bar(total=len(self.units), desc="shards", unit="shard", enabled=self.progress) as bar:
            for unit in self.units:
                if isinstance(unit, str) or hasattr(unit, "fmt"):  # a path or a chunk; one of many may be empty
                    part, found = read_unit(unit, self.selectors, self.fmt, self.features,
                                            reader_options=self.reader_options, allow_empty=len(self.units) > 1)
                else:  # a Corpus or Docs in memory
                    part = load(unit, self.selectors, self.fmt, self.features, **self.reader_options)
                    found = part.given_ids
                    if not isinstance(unit, Corpus) and part.coverage is None:  # Docs: absent span groups
                        from ..io.coverage import docs_coverage

                        part.coverage = docs_coverage(unit)
                part.doc_ids = self.ids.add(unit, found, part.doc_ids)
                self.names.add(part)
                if len(part):  # a chunk of Prodigy reject/ignore lines only has no documents
                    yield offset, part
                offset += len(part)
                bar.update(1, docs=len(part))
        if not offset:
            raise InputError(f"{self.units[0]}: no documents in any shard")

    def final_ids(self) -> list[str] | None:
        """Every document's id as the whole corpus gives it, when a chunked CoNLL file's comment ids turn out
        not to hold for the whole file; ``None`` when the ids given so far stand."""
        ids = self.ids.final()
        return None if ids == self.ids.ids else ids


class _SeenNames:
    """The set, type and feature names the parts of a corpus hold, gathered part by part, so that a name
    matching nothing is refused over the whole corpus (DESIGN.md, Contracts: names are checked), not part by
    part, and over every set compared (a type only some annotators used is fine)."""

    def __init__(self, source: str, selectors: list[str], typed: set[str] | None = None) -> None:
        self.source, self.selectors = source, selectors
        self.sets: set[str] | None = set()       # None: some part does not say which sets it holds
        self.labels: set[str] = set()
        self.carried: set[str] = set()
        self.found_features: list[list[str] | None] = []
        self.typed = set(typed or ()) - {ANY_TYPE}  # the types whose features are gathered, for check()
        self.carried_by: dict[str, set[str]] = {}

    def add(self, part: Any) -> None:
        from ..spans.engine import names_in

        if self.sets is not None:
            self.sets = None if part.found_sets is None else self.sets | set(part.found_sets)
        labels, carried = names_in(part, self.selectors)
        self.labels |= labels
        self.carried |= carried
        if part.found_features not in self.found_features:
            self.found_features.append(part.found_features)
        if self.typed:
            for name in self.selectors:
                table = part.sets.get(name)
                if table is None or table.features is None:
                    continue
                for label, f in zip(table.label_names().tolist(), table.features, strict=True):
                    if f:  # every type's, so that a refusal can say which types carry the feature
                        self.carried_by.setdefault(label, set()).update(f)

    def check(self, types: list[str] | None, features: list[str] | None,
              feature_of: dict[str, str] | None = None) -> None:
        """Raise :class:`InputError` for a set no document holds, a type no set has, a feature no annotation
        carries or (``feature_of``: type -> its feature) one that no annotation of its type carries, listing
        what exists."""
        from ..spans.engine import check_features, check_types

        where = f"{self.source or 'corpus'} ({', '.join(self.selectors)})"
        if self.sets is not None:
            missing = [s for s in self.selectors if s not in self.sets]
            if missing:
                found = sorted(self.sets, key=lambda s: (s != "ents", s))
                raise InputError(f"{self.source or 'corpus'}: no document has the annotation set {missing[0]!r}; "
                                 f"the sets are: {', '.join(found) or 'none'}")
        if types:
            check_types([t for t in types if t != ANY_TYPE], self.labels, where)
        if features:
            check_features(features, self.carried, self.found_features, where)
        for type_name, feature in (feature_of or {}).items():
            if type_name not in self.typed:  # ``*->feature``: the check above
                continue
            carried = self.carried_by.get(type_name, set())
            if feature not in carried:
                listed = ", ".join(sorted(carried)) or "none"
                others = sorted(t for t, fs in self.carried_by.items() if feature in fs)
                raise InputError(f"{where}: no annotation of type {type_name!r} carries the feature {feature!r} "
                                 f"(annotations of {', '.join(others)} do); the features of {type_name} are: "
                                 f"{listed}; write {type_name}->FEATURE with one of them, or {type_name} alone")


def _both_cover(part: Any, a: str, b: str, missing_as_empty: bool) -> np.ndarray | None:
    """The documents of ``part`` that sets ``a`` and ``b`` both cover; ``None`` when that is every document (or
    ``missing_as_empty``)."""
    if missing_as_empty or not part.coverage:
        return None
    mask = part.covered(a) & part.covered(b)
    return None if mask.all() else mask


def _rows_in(table: SpanTable, mask: np.ndarray) -> np.ndarray:
    """Whether each row of ``table`` is in a document of ``mask``."""
    return mask[table.doc] if len(table) else np.zeros(0, dtype=bool)


def _take_rows(table: SpanTable, keep: np.ndarray, doc_map: np.ndarray | None = None) -> SpanTable:
    """The rows ``keep`` of ``table``, their documents renumbered through ``doc_map`` when given."""
    doc = table.doc[keep]
    feats = None if table.features is None else [f for f, k in zip(table.features, keep.tolist(), strict=True) if k]
    return SpanTable(doc if doc_map is None else doc_map[doc], table.start[keep], table.end[keep], table.label[keep],
                     table.labels, feats)


class _Picked(Sequence[str]):
    """The texts ``index`` of a sequence of texts, read from it when asked (lazy texts stay lazy)."""

    def __init__(self, texts: Sequence[str], index: np.ndarray) -> None:
        self._texts, self._index = texts, index

    def __len__(self) -> int:
        return len(self._index)

    def __getitem__(self, i: Any) -> Any:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        return self._texts[int(self._index[i])]


def _covered_part(part: Any, mask: np.ndarray, selectors: tuple[str, ...]) -> Any:
    """The documents ``mask`` of ``part`` as a corpus of their own holding ``selectors`` (documents renumbered
    from 0, texts read when asked)."""
    index = np.flatnonzero(mask)
    doc_map = np.full(len(mask), -1, dtype=np.int64)
    doc_map[index] = np.arange(len(index))
    sets = {name: _take_rows(part.sets[name], _rows_in(part.sets[name], mask), doc_map)
            for name in selectors if name in part.sets}

    def pick(values: Any) -> Any:
        return None if values is None else np.asarray(values)[index]

    given = None if part.given_ids is None else [part.given_ids[k] for k in index.tolist()]
    return Corpus([part.doc_ids[k] for k in index.tolist()], _Picked(part.texts, index), sets, part.source,
                  pick(part.text_fingerprints), pick(part.text_lengths), given, part.found_sets,
                  part.found_features, part=part.part, annotator_sets=part.annotator_sets)


def resolve_sets(corpus: Any, sets: str | list[str] | None, *, fmt: str = "auto", shards: bool = False,
                 docs_per_chunk: int | None = None, reader_options: dict[str, Any] | None = None,
                 exclude: str | None = None) -> tuple[list[str], str | None, Any]:
    """The sets to compare: ``sets`` (:func:`parse_sets`), else the annotator sets of ``corpus``
    (:meth:`~spacy_anno_eval.annotations.table.Corpus.annotators`; over every shard with ``shards`` or
    ``docs_per_chunk``), without ``exclude`` (the consensus set). Return them, the sentence saying which were
    chosen (``None`` when ``sets`` are given) and the corpus to read (a file read to find its sets that already
    holds them is not read again). Fewer than two annotator sets raise :class:`InputError` listing the sets."""
    if sets is not None:
        return parse_sets(sets), None, corpus
    options = dict(reader_options or {})
    source = _source_name(corpus, None)
    found: list[str] = []
    every: list[str] = []
    reuse = corpus
    if isinstance(corpus, (str, os.PathLike)):
        from ..io.units import read_unit, shard_units

        streamed = shards or bool(docs_per_chunk)
        units = shard_units(corpus, fmt, docs_per_chunk, sharded=shards, selectors=["ents"], **options) \
            if streamed else [source]
        for unit in units:
            part, _ = read_unit(unit, ["ents"], fmt, reader_options=options, allow_empty=streamed)
            found += [s for s in part.annotators() if s not in found]
            every += [s for s in (part.found_sets or ()) if s not in every]
            if not streamed and all(s in part.sets for s in part.annotators()):
                reuse = part  # an annotation tool's reader builds every set whatever it is asked for
    else:
        from ..spans.engine import load

        part = load(corpus, ["ents"], fmt, **options) if not isinstance(corpus, Corpus) else corpus
        found, every = part.annotators(), list(part.found_sets or ())
        source = part.source
    names = [s for s in found if s != exclude]
    where = source or "the corpus"
    if len(names) < 2:
        listed = ", ".join(every) or "none known"
        raise InputError(f"{where}: IAA needs two or more annotator sets, and {len(names)} found "
                         f"({', '.join(names) or 'none'}; the sets: {listed}); name the sets to compare with "
                         f"--sets (sets=...), e.g. 'spans:a;spans:b'")
    note = (f"comparing the {len(names)} annotator sets of {where}: {', '.join(names)}; "
            f"name others with --sets")
    return names, note, reuse


def _coverage_note(source: str, rows: list[tuple[str, str, int]], total: int) -> str | None:
    """The :class:`CoverageWarning` sentence for pairs ``(a, b, docs covered)`` covering fewer than ``total``."""
    short = [(a, b, k) for a, b, k in rows if k < total]
    if not short:
        return None
    shown = "; ".join(f"{a} / {b} {k}" for a, b, k in short[:5])
    more = f"; and {len(short) - 5} more" if len(short) > 5 else ""
    none = sum(1 for *_, k in short if k == 0)
    empty = f" ({none} share no document: no figures, left out of the means)" if none else ""
    return (f"{source or 'corpus'}: {len(short)} of {len(rows)} pairs cover part of the {total} documents only and "
            f"are compared on the documents both annotated{empty}; documents per pair: {shown}{more} "
            f"(--missing-as-empty, missing_as_empty=True: count a document without a record as annotated "
            f"with nothing)")


def _mean(values: list[float | None]) -> float | None:
    """The mean of the defined values (None when none is)."""
    ok = [v for v in values if v is not None]
    return sum(ok) / len(ok) if ok else None


def _matrix(n: int, pairs: list[dict[str, Any]], measure: str, micro_of: Any, macro_of: Any,
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
        return [_mean([v for b, v in enumerate(matrix[a]) if b != a]) for a in range(n)]

    return {"measure": measure, "micro": micro, "macro_docs": macro, "annotator_mean_micro": row_means(micro),
            "annotator_mean_macro_docs": row_means(macro), "docs_covered": docs}


class _Coverage:
    """The documents each comparison covers, counted part by part, and each annotator's own."""

    def __init__(self, comparisons: list[tuple[str, str]], names: list[str], missing_as_empty: bool) -> None:
        self.missing_as_empty = missing_as_empty
        self.pairs = {c: 0 for c in comparisons}
        self.own = {a: 0 for a in names}
        self.index: dict[tuple[str, str], list[np.ndarray]] = {c: [] for c in comparisons}
        self.total = 0
        self.recorded = False

    def add(self, offset: int, part: Any) -> dict[tuple[str, str], np.ndarray | None]:
        """Count ``part`` (its first document is ``offset``); return each comparison's documents (``None``:
        all)."""
        masks = {}
        self.recorded = self.recorded or bool(part.coverage)
        for a in self.own:
            self.own[a] += len(part) if self.missing_as_empty else int(part.covered(a).sum())
        for c in self.pairs:
            mask = masks[c] = _both_cover(part, c[0], c[1], self.missing_as_empty)
            self.pairs[c] += len(part) if mask is None else int(mask.sum())
            self.index[c].append(np.arange(offset, offset + len(part)) if mask is None else
                                 offset + np.flatnonzero(mask))
        self.total += len(part)
        return masks

    def doc_index(self, c: tuple[str, str]) -> np.ndarray:
        """The corpus positions of the documents comparison ``c`` covers."""
        return np.concatenate(self.index[c]) if self.index[c] else np.zeros(0, dtype=np.int64)

    def shared(self, pairs: list[dict[str, Any]], names: list[str], source: str,
               comparisons: list[tuple[str, str]]) -> tuple[list[dict[str, Any]], str | None]:
        """The ``pairs`` that cover a common document, and the sentence of the :class:`CoverageWarning` given
        when a comparison covers fewer documents than the corpus; :class:`InputError` when no pair shares one."""
        note = _coverage_note(source, [(a, b, self.pairs[(a, b)]) for a, b in comparisons], self.total)
        if note is not None:
            warnings.warn(note, CoverageWarning, stacklevel=3)
        shared = [p for p in pairs if p["docs_covered"]]
        if not shared:
            raise InputError(f"{source or 'corpus'}: no two of the sets {', '.join(names)} cover a common document; "
                             f"nothing to compare (--missing-as-empty counts a document without a record as "
                             f"annotated with nothing)")
        return shared, note


def _source_name(corpus: Any, source: str | None) -> str:
    """The name of the input for messages: ``source``, else the path of ``corpus`` (``""`` for Docs)."""
    return source or (os.fspath(corpus) if isinstance(corpus, (str, os.PathLike)) else "")


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
    typed = "; ".join(_spec_label(t, f) for t, f in specs if f)
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
    reader = _Parts(corpus, selectors, fmt, features, shards=shards, progress=progress, docs_per_chunk=docs_per_chunk,
                    reader_options=reader_options, typed=set(feature_of))
    coverage = _Coverage(comparisons, names, missing_as_empty)
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
                    one = _covered_part(part, np.arange(len(part)) == 0, c)
                    empty[c] = _no_docs(evaluate(one, one, key_set=c[0], response_set=c[1], types=type_names,
                                                 features=features, beta=beta, pairing=pairing, credit=credit,
                                                 check_names=False))
                continue
            scored = part if mask is None else _covered_part(part, mask, c)
            ev = evaluate(scored, scored, key_set=c[0], response_set=c[1], types=type_names, features=features,
                          beta=beta, pairing=pairing, credit=credit, check_names=False)
            parts[c].append(ev.without_pairs() if streamed else ev)
    reader.names.check(type_names, features, feature_of)
    note_left = _left_out_note(_source_name(corpus, source), left_out, specs)
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
    shared, note = coverage.shared(pairs, names, _source_name(corpus, source), comparisons)
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
        "matrix": _matrix(len(names), pairs, matrix_measure, lambda p: p["report"]["micro"][matrix_measure]["f"],
                          lambda p: p["report"]["macro_docs"][matrix_measure]["f"], [coverage.own[a] for a in names]),
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


NON_CAT = "Non-cat"
ANNS = "Anns"
ANY_TYPE = "*"


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
                 comparisons: list[tuple[str, str]], detail: set[tuple[str, str]], coverage: _Coverage,
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
        keep = {(c, s): None if masks[c] is None else _rows_in(tables[s], masks[c])
                for c in self.comparisons for s in c}
        for type_name, feature in self.specs or [(t, None) for t in sorted(found)]:
            label = _spec_label(type_name, feature)
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
                        (_take_rows(tables[s], k), groups[s][k], codes[s][k])
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
        return [_spec_label(t, f) for t, f in self.specs] or sorted(self.found)

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


def _spec_label(type_name: str, feature: str | None) -> str:
    return type_name + (f"->{feature}" if feature else "")


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
    :func:`to_json`.

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
    coverage = _Coverage(comparisons, names, missing_as_empty)
    sums = _KappaSums(specs, selectors, comparisons, set(pair_comparisons), coverage, names, non_cat)
    feature_of = {t: f for t, f in specs if f}
    reader = _Parts(corpus, selectors, fmt, features, shards=shards, progress=progress, docs_per_chunk=docs_per_chunk,
                    reader_options=reader_options, typed=set(feature_of))
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
        over_types = {k: _mean([f[k] for f in per_type.values()]) for k in keys}
        doc_kappa = _mean([_mean([d["cohen_kappa"] for d in f["per_doc"]]) for f in per_type.values()])
        pairs_out.append({"a": names[i], "b": names[j], "i": i, "j": j,
                          "docs_covered": coverage.pairs[(names[i], names[j])], "docs_total": total,
                          "per_type": per_type, "mean_over_types": over_types,
                          "mean_over_docs": {"cohen_kappa": doc_kappa},
                          "chance_corrected": {"mean_over_types": {
                              k: _mean([_family_value(f["chance_corrected"], k) for f in per_type.values()])
                              for k in PAIR_FAMILY}}})
        items_out[(i, j)] = [row for label in labels for row in sums.items.get(((names[i], names[j]), label), [])]
    shared, note = coverage.shared(pairs_out, names, _source_name(corpus, source), comparisons)
    out: dict[str, Any] = {
        "measure": "kappa",
        "annotators": names,
        "types": labels,
        "n_docs": len(sums.doc_ids),
        "missing_as_empty": missing_as_empty,
        "mean_of_pairs": {k: _mean([p["mean_over_types"][k] for p in shared]) for k in keys},
        "n_pairs_in_means": len(shared),
        "per_type": {t: {k: _mean([p["per_type"][t][k] for p in shared]) for k in keys} for t in labels},
        "chance_corrected": _overall_family(sums, labels, names, shared, family_notes),
        "matrix": _matrix(len(names), pairs_out, "cohen_kappa", lambda p: p["mean_over_types"]["cohen_kappa"],
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
                "mean_over_types": {k: _mean([f[k] for f in per_type.values()]) for k in keys},
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
    majority = {a: _mean([f["majority"]["annotators"][a]["observed_agreement"]
                          for f in per_type.values() if "majority" in f]) for a in names}
    return {"weights": "identity",
            "per_type": per_type,
            "mean_over_types": {**{k: _mean([_family_value(f, k) for f in per_type.values()])
                                   for k in OVERALL_FAMILY},
                                "majority": _mean([f["majority"]["mean"] for f in per_type.values()
                                                   if "majority" in f])},
            "majority_per_annotator": majority,
            "mean_of_pairs": {k: _mean([p["chance_corrected"]["mean_over_types"][k] for p in shared])
                              for k in PAIR_FAMILY}}


def to_json(result: dict[str, Any]) -> dict[str, Any]:
    """The result without the evaluation objects and item lists (for ``json.dump``)."""
    return {k: v for k, v in result.items() if k not in ("evaluations", "items", "texts")}


__all__ = ["MISSING_FEATURE", "MissingFeatureWarning", "pairwise_f", "pairwise_kappa", "pairwise_kappa_documents",
           "parse_sets", "parse_type_features", "parse_types", "resolve_sets", "to_json"]
