"""The annotation sets of one corpus, read part by part, and which documents each set covers.

The one job: everything a comparison of N annotation sets of one corpus needs
to know about that corpus before it compares anything.

- Which sets to compare (:func:`resolve_sets`): the sets named
  (:func:`parse_sets`, GATE's ``spans:a;spans:b``), else the annotator sets
  of the corpus (:meth:`~spacy_anno_eval.annotations.table.Corpus.annotators`).
- Reading the corpus (:class:`CorpusParts`): whole, or shard file by shard
  file, or a JSONL / CoNLL file that many documents at a time, every document
  keeping the id the whole corpus gives it.
- The names seen (:class:`NamesSeen`): the sets, types and features every
  part holds, so that a name matching nothing in the whole corpus is refused
  (DESIGN.md, Contracts: names are checked; :func:`check_sets`).
- Coverage (:class:`Coverage`): the documents each set (annotator) covers and
  those each pair of sets shares (:func:`both_cover`, :func:`covered_part`),
  a document an annotator never annotated not being one they annotated as
  empty (DESIGN.md); the :class:`~spacy_anno_eval.errors.CoverageWarning`
  naming the pairs that share fewer documents than the corpus has.

Pairwise F and pairwise kappa (:mod:`spacy_anno_eval.agreement.iaa`,
:mod:`spacy_anno_eval.agreement.iaa_kappa`) are built on it.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

import numpy as np

from ..annotations.table import Corpus, SpanTable, name_list, split_names
from ..errors import CoverageWarning, InputError

#: the type that names every type (GATE's ``*``): never refused as a type no annotation has
ANY_TYPE = "*"


def check_sets(selectors: Iterable[str], found: set[str] | None, nowhere: str) -> None:
    """Raise :class:`InputError` for the first of ``selectors`` that is not among the sets ``found`` (``None``:
    a reader did not say which sets there are; nothing is checked): ``"{nowhere} the annotation set 'x'; the
    sets are: ..."``, ``nowhere`` saying where it was looked for (``"corpus.spacy: no document has"``), the
    sets listed ``ents`` first, then sorted."""
    if found is None:
        return
    missing = [s for s in selectors if s not in found]
    if missing:
        listed = ", ".join(sorted(found, key=lambda s: (s != "ents", s))) or "none"
        raise InputError(f"{nowhere} the annotation set {missing[0]!r}; the sets are: {listed}")


def parse_sets(sets: str | list[str]) -> list[str]:
    """``"spans:a;spans:b"`` (GATE's ``;``) or a list -> the set selectors; at least two, distinct."""
    items = [s.strip() for s in (split_names(sets) if isinstance(sets, str) else name_list(sets, "sets") or [])
             if s.strip()]
    if len(items) < 2:
        raise InputError(f"IAA needs two or more annotation sets, got {items}")
    if len(set(items)) != len(items):
        raise InputError(f"annotation sets must be distinct, got {items}")
    return items


class CorpusParts:
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
        source = source_name(corpus, None)
        self.names = NamesSeen(source, selectors, typed)

    def __iter__(self) -> Iterator[tuple[int, Any]]:
        from ..io.units import read_unit
        from ..progress import progress_bar
        from .engine import load

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


class NamesSeen:
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
        from .engine import names_in

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
        from .engine import check_features, check_types

        where = f"{self.source or 'corpus'} ({', '.join(self.selectors)})"
        check_sets(self.selectors, self.sets, f"{self.source or 'corpus'}: no document has")
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


def both_cover(part: Any, a: str, b: str, missing_as_empty: bool) -> np.ndarray | None:
    """The documents of ``part`` that sets ``a`` and ``b`` both cover; ``None`` when that is every document (or
    ``missing_as_empty``)."""
    if missing_as_empty or not part.coverage:
        return None
    mask = part.covered(a) & part.covered(b)
    return None if mask.all() else mask


def rows_in(table: SpanTable, mask: np.ndarray) -> np.ndarray:
    """Whether each row of ``table`` is in a document of ``mask``."""
    return mask[table.doc] if len(table) else np.zeros(0, dtype=bool)


def take_rows(table: SpanTable, keep: np.ndarray, doc_map: np.ndarray | None = None) -> SpanTable:
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


def covered_part(part: Any, mask: np.ndarray, selectors: tuple[str, ...]) -> Any:
    """The documents ``mask`` of ``part`` as a corpus of their own holding ``selectors`` (documents renumbered
    from 0, texts read when asked)."""
    index = np.flatnonzero(mask)
    doc_map = np.full(len(mask), -1, dtype=np.int64)
    doc_map[index] = np.arange(len(index))
    sets = {name: take_rows(part.sets[name], rows_in(part.sets[name], mask), doc_map)
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
    source = source_name(corpus, None)
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
        from .engine import load

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


class Coverage:
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
            mask = masks[c] = both_cover(part, c[0], c[1], self.missing_as_empty)
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


def source_name(corpus: Any, source: str | None) -> str:
    """The name of the input for messages: ``source``, else the path of ``corpus`` (``""`` for Docs)."""
    return source or (os.fspath(corpus) if isinstance(corpus, (str, os.PathLike)) else "")


__all__ = ["ANY_TYPE", "Coverage", "CorpusParts", "NamesSeen", "both_cover", "check_sets", "covered_part",
           "parse_sets", "resolve_sets", "rows_in", "source_name", "take_rows"]
