"""Annotation sets held as columns, and the corpus that carries them.

An annotation is a labelled character span ``[start, end)`` of one document,
with optional features (a dict). A :class:`SpanTable` holds every annotation
of one named set across a whole corpus as numpy columns (``doc``, ``start``,
``end``, ``label``) so that the aligner can work on all documents at once.
Character offsets are the common currency: a key and a response tokenized
differently still compare.

Selectors name a set in a spaCy ``Doc``: ``ents`` (``doc.ents``) or
``spans:<key>`` (``doc.spans[key]``). Docs and Examples are turned into
tables in :mod:`spacy_anno_eval.annotations.docs`, the only module that reads
them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..errors import ConfigError, InputError, where

INDEX = np.int64


@dataclass
class SpanTable:
    """Every annotation of one set across a corpus, as columns.

    ``doc[i]`` is the index of annotation ``i``'s document in the corpus;
    ``start[i]``/``end[i]`` its character offsets (end exclusive);
    ``label[i]`` an index into ``labels``; ``features[i]`` a dict of feature
    values, or ``features is None`` when the set carries no features at all.
    Rows are in document order (by ``doc``, then ``start``, then ``end``).
    """

    doc: np.ndarray
    start: np.ndarray
    end: np.ndarray
    label: np.ndarray
    labels: list[str]
    features: list[dict[str, Any]] | None = None

    def __post_init__(self) -> None:
        self.doc = np.asarray(self.doc, dtype=INDEX)
        self.start = np.asarray(self.start, dtype=INDEX)
        self.end = np.asarray(self.end, dtype=INDEX)
        self.label = np.asarray(self.label, dtype=INDEX)
        n = len(self.doc)
        if not (len(self.start) == len(self.end) == len(self.label) == n):
            raise ValueError("SpanTable columns must have the same length")
        if self.features is not None and len(self.features) != n:
            raise ValueError("SpanTable.features must have one entry per annotation")
        if n > 1 and not _is_sorted(self.doc, self.start, self.end):
            self._take(np.lexsort((self.end, self.start, self.doc)))

    def _take(self, order: np.ndarray) -> None:
        self.doc = self.doc[order]
        self.start = self.start[order]
        self.end = self.end[order]
        self.label = self.label[order]
        if self.features is not None:
            self.features = [self.features[i] for i in order]

    def __len__(self) -> int:
        return len(self.doc)

    @classmethod
    def empty(cls) -> SpanTable:
        z = np.zeros(0, dtype=INDEX)
        return cls(z, z.copy(), z.copy(), z.copy(), [])

    def label_names(self) -> np.ndarray:
        """The label of every annotation as a string array."""
        return np.asarray(self.labels, dtype=object)[self.label] if len(self) else np.zeros(0, object)

    def rows(self, doc: int) -> range:
        """Row indices of one document's annotations."""
        lo, hi = np.searchsorted(self.doc, [doc, doc + 1])
        return range(int(lo), int(hi))

    def check_bounds(self, lengths: np.ndarray, doc_ids: Sequence[str], source: str = "") -> None:
        """Raise :class:`InputError` for a span outside its document's text.

        ``lengths[d]`` is the character length of document ``d``.
        """
        if not len(self):
            return
        lengths = np.asarray(lengths, dtype=INDEX)
        bad = (self.start < 0) | (self.end <= self.start) | (self.end > lengths[self.doc])
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            d = int(self.doc[i])
            raise InputError(
                f"{where(source, doc_ids[d], span=(int(self.start[i]), int(self.end[i])))}: "
                f"span out of range for a text of {int(lengths[d])} characters "
                f"(a span needs 0 <= start < end <= len(text)); fix the offsets or the text"
            )


def _is_sorted(doc: np.ndarray, start: np.ndarray, end: np.ndarray) -> bool:
    """Whether rows are in (doc, start, end) order, in one vectorised pass."""
    d0, d1, s0, s1 = doc[:-1], doc[1:], start[:-1], start[1:]
    ok = (d1 > d0) | ((d1 == d0) & ((s1 > s0) | ((s1 == s0) & (end[1:] >= end[:-1]))))
    return bool(ok.all())


class SpanTableBuilder:
    """Collects annotations one at a time, then builds a :class:`SpanTable`."""

    def __init__(self) -> None:
        self.doc: list[int] = []
        self.start: list[int] = []
        self.end: list[int] = []
        self.label: list[int] = []
        self.features: list[dict[str, Any]] = []
        self.has_features = False
        self._label_ids: dict[str, int] = {}

    def add(self, doc: int, start: int, end: int, label: str,
            features: dict[str, Any] | None = None) -> None:
        lid = self._label_ids.get(label)
        if lid is None:
            lid = self._label_ids[label] = len(self._label_ids)
        self.doc.append(doc)
        self.start.append(start)
        self.end.append(end)
        self.label.append(lid)
        self.features.append(features or {})
        if features:
            self.has_features = True

    def build(self) -> SpanTable:
        return SpanTable(
            np.array(self.doc, dtype=INDEX), np.array(self.start, dtype=INDEX),
            np.array(self.end, dtype=INDEX), np.array(self.label, dtype=INDEX),
            list(self._label_ids), self.features if self.has_features else None,
        )


@dataclass(frozen=True)
class Tokens:
    """The tokens of a token-per-line corpus, as numpy columns over all its documents.

    ``doc_first[d]`` is the first token of document ``d`` (one more entry: the token count);
    ``sent_first`` the first token of every sentence; ``start``/``end`` each token's character
    offsets in its document's text; ``lines`` each token's line in the file (from 1).
    """

    doc_first: np.ndarray
    sent_first: np.ndarray
    start: np.ndarray
    end: np.ndarray
    lines: np.ndarray


@dataclass
class Corpus:
    """Documents with named annotation sets, as every reader produces them.

    ``texts`` may be any sequence (readers may compute texts lazily);
    ``sets`` maps a set name (``ents``, ``spans:sc``, ``key``, ...) to its
    :class:`SpanTable`; ``source`` names the file for error messages.
    ``text_fingerprints`` (optional, one integer per document) lets a reader
    that builds texts lazily avoid it: two documents whose fingerprints are
    equal have equal texts; unequal fingerprints prove nothing, and the texts
    are then compared. ``text_lengths`` (optional) gives each text's length
    without building it. :attr:`cats` holds the document categories of the sets that carry them (document
    classification: doccano's ``label`` lists, Label Studio's ``choices``, Prodigy's textcat and choice answers,
    INCEpTION's document metadata, spaCy's ``doc.cats``), beside their spans.
    """

    doc_ids: list[str]
    texts: Sequence[str]
    sets: dict[str, SpanTable] = field(default_factory=dict)
    source: str = ""
    text_fingerprints: np.ndarray | None = None
    text_lengths: np.ndarray | None = None
    #: the id each document's file gives it, ``None`` where its id is its position (``None``: not known)
    given_ids: list[str | None] | None = None
    #: the annotation sets some document holds, as selectors (``ents``, ``spans:sc``; a span group that is
    #: present but empty counts); ``None`` when not known, or when every name a reader takes reads its one layer
    found_sets: list[str] | None = None
    #: every feature name the annotations carry (not only those asked for); ``None`` when not known
    found_features: list[str] | None = None
    #: one part of a corpus read in parts (a shard, a chunk, a window): a set, type or feature missing here may
    #: be in another part, so names are checked over the whole corpus by whoever reads every part
    part: bool = False
    #: the tokens of a token-per-line file (CoNLL), so that a response whose tokens are re-spelt can be paired
    #: with the key by position (:mod:`spacy_anno_eval.spans.by_position`); ``None`` for other readers
    tokens: Tokens | None = None
    #: which documents each set covers, for the sets that miss some (``{"spans:ann1": bool array}``): ``False``
    #: where the file holds no annotation record of that set (an annotator who never opened, skipped or cancelled
    #: the document) as opposed to a finished annotation that is empty; a set not in the dict (or ``None``)
    #: covers every document
    coverage: dict[str, np.ndarray] | None = None
    #: the sets that are annotators (users, model versions, named sets of a tool's export), as selectors, in the
    #: file's order: what ``iaa``, ``gamma`` and ``agreement`` compare when no ``--sets`` are given; ``None``
    #: when the format does not say
    annotator_sets: list[str] | None = None
    #: the document categories (spaCy's ``doc.cats``) of the sets that carry them, keyed by the same selectors as
    #: :attr:`sets` (``spans:alice``; ``ents`` and ``spans`` too where they alias a file's one set), so that
    #: :attr:`coverage`, :attr:`annotator_sets` and ``--sets`` apply to them unchanged. Per document: ``{label:
    #: value}`` in ``doc.cats``'s layout (1.0 for every label the annotator chose, several for a multi-label
    #: answer; 0.0 for a label the format says was offered and not chosen, or rejected; a model's scores as they
    #: are), ``{}`` where the set covers the document and gave it no category, ``None`` where the set does not
    #: cover it (:meth:`covered` is ``False`` there). A set without any category is not in the dict; ``None``:
    #: no set carries categories (:meth:`doc_cats`, :meth:`cats_sets`)
    cats: dict[str, list[dict[str, float] | None]] | None = None

    def covered(self, name: str) -> np.ndarray:
        """Whether set ``name`` covers each document (:attr:`coverage`; all ``True`` when not recorded)."""
        if self.coverage and name in self.coverage:
            return np.asarray(self.coverage[name], dtype=bool)
        return np.ones(len(self), dtype=bool)

    def annotators(self) -> list[str]:
        """The sets to compare when none are named: :attr:`annotator_sets` where the format says which sets are
        annotators, else every ``spans:NAME`` set some document holds (:attr:`found_sets`); ``[]`` when not
        known."""
        if self.annotator_sets is not None:
            return list(self.annotator_sets)
        return [s for s in (self.found_sets or ()) if s.startswith("spans:")]

    def doc_cats(self, name: str) -> list[dict[str, float] | None] | None:
        """The categories set ``name`` gives each document (:attr:`cats`: ``{label: value}``, ``{}``, or ``None``
        where the set does not cover the document); ``None`` when the set carries no category."""
        return None if not self.cats else self.cats.get(name)

    def cats_sets(self) -> list[str]:
        """The selectors of the sets that carry document categories (:attr:`cats`), in the corpus's order."""
        return list(self.cats or ())

    def lengths(self) -> np.ndarray:
        """Character length of every document's text."""
        if self.text_lengths is not None:
            return np.asarray(self.text_lengths, dtype=INDEX)
        return np.fromiter((len(t) for t in self.texts), dtype=INDEX, count=len(self.texts))

    def __len__(self) -> int:
        return len(self.doc_ids)

    def window(self, a: int, b: int) -> Corpus:
        """Documents ``a`` to ``b - 1`` as a corpus of their own (document indices from 0; texts not built)."""
        b = min(len(self), b)
        a = min(max(0, a), b)
        sets = {name: _table_window(table, a, b) for name, table in self.sets.items()}
        fingerprints = None if self.text_fingerprints is None else self.text_fingerprints[a:b]
        lengths = None if self.text_lengths is None else self.text_lengths[a:b]
        given = None if self.given_ids is None else self.given_ids[a:b]
        coverage = None if self.coverage is None else {k: v[a:b] for k, v in self.coverage.items()}
        cats = None if self.cats is None else {k: v[a:b] for k, v in self.cats.items()}
        return Corpus(self.doc_ids[a:b], _TextWindow(self.texts, a, b), sets, self.source, fingerprints, lengths,
                      given, self.found_sets, self.found_features, part=True, coverage=coverage,
                      annotator_sets=self.annotator_sets, cats=cats)

    def get_set(self, name: str) -> SpanTable:
        """The annotation set ``name``; an empty table when the corpus has none of it.

        A name that no document holds (:attr:`found_sets`; not checked on a
        :attr:`part`), or that no reader could produce, raises :class:`InputError`.
        """
        if not self.part:
            self.check_sets([name])
        if name in self.sets:
            return self.sets[name]
        if name == "ents" or name.startswith("spans:") or not self.sets:
            return SpanTable.empty()
        raise InputError(
            f"{self.source or 'corpus'}: no annotation set {name!r}; "
            f"available: {', '.join(sorted(self.sets))}"
        )

    def check_sets(self, names: Sequence[str], what: str = "corpus") -> None:
        """Raise :class:`InputError` for a name of ``names`` that no document holds, listing the sets that
        exist (nothing is checked when :attr:`found_sets` is not known). ``what`` names an unnamed corpus."""
        if self.found_sets is None:
            return
        missing = [n for n in names if n not in self.found_sets]
        if missing:
            raise InputError(
                f"{self.source or what}: no document has the annotation set {missing[0]!r}; "
                f"the sets are: {', '.join(self.found_sets) or 'none'}")


#: a document category counts as chosen at this value or above (spaCy's ``Scorer.score_cats`` threshold); the
#: annotation tools' exports give 1.0 (chosen) and 0.0 (offered, not chosen)
CHOSEN = 0.5


def chosen_labels(cats: Mapping[str, float] | None) -> list[str]:
    """The labels of a document's categories that are chosen (value >= :data:`CHOSEN`), sorted; ``[]`` for
    ``None`` or ``{}``.

    >>> chosen_labels({"POS": 1.0, "NEG": 0.0, "NEU": 0.5})
    ['NEU', 'POS']
    """
    return sorted(label for label, value in (cats or {}).items() if value >= CHOSEN)


def cats_value(value: Any, loc: str) -> dict[str, float]:
    """A document's categories as a file gives them (spaCy's ``doc.cats``, a JSONL record's ``"cats"``): a
    mapping of non-empty string labels to numbers, as ``{label: float}``. Raise :class:`InputError` at ``loc``
    for anything else (a value that is not a finite number, ``NaN`` read as null included)."""
    if not isinstance(value, Mapping):
        raise InputError(f"{loc}: \"cats\" must map each category label to a number, as spaCy's doc.cats "
                         f"({{\"POSITIVE\": 1.0}}), got {type(value).__name__}")
    out: dict[str, float] = {}
    for label, v in value.items():
        if not isinstance(label, str) or not label:
            raise InputError(f"{loc}: a category label must be a non-empty string, got {label!r}")
        if isinstance(v, bool) or not isinstance(v, (int, float, np.integer, np.floating)) or not np.isfinite(v):
            raise InputError(f"{loc}: the category {label!r} has the value {v!r}; a category's value is a finite "
                             f"number (1.0 chosen, 0.0 not)")
        out[label] = float(v)
    return out


class _TextWindow(Sequence[str]):
    """Texts ``a`` to ``b - 1`` of a sequence of texts, read from it when asked (a lazy reader's texts stay
    lazy)."""

    def __init__(self, texts: Sequence[str], a: int, b: int) -> None:
        self._texts, self._a, self._n = texts, a, b - a

    def __len__(self) -> int:
        return self._n

    def __getitem__(self, i: Any) -> Any:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(self._n))]
        if i < 0:
            i += self._n
        if not 0 <= i < self._n:
            raise IndexError("document index out of range")
        return self._texts[self._a + i]


def _table_window(table: SpanTable, a: int, b: int) -> SpanTable:
    """The rows of documents ``a`` to ``b - 1`` (rows are sorted by document), documents renumbered from 0."""
    lo, hi = np.searchsorted(table.doc, [a, b]).tolist()
    feats = None if table.features is None else table.features[lo:hi]
    return SpanTable(table.doc[lo:hi] - a, table.start[lo:hi], table.end[lo:hi], table.label[lo:hi],
                     table.labels, feats)


# ---------------------------------------------------------------------------
# selectors (spaCy Docs are read in :mod:`.docs`)


def parse_selector(selector: str) -> tuple[str, str | None]:
    """Split a selector into its kind and key: ``ents`` -> ("ents", None),
    ``spans:sc`` -> ("spans", "sc"). Raise on anything else."""
    if selector == "ents":
        return "ents", None
    if selector.startswith("spans:") and len(selector) > len("spans:"):
        return "spans", selector[len("spans:"):]
    raise InputError(
        f"unknown annotation selector {selector!r}: use 'ents' or 'spans:<key>'"
    )


def one_layer_selectors(selectors: Sequence[str], source: str, reader: str,
                        more: Sequence[str] = ()) -> tuple[str, ...]:
    """Check the selectors of a reader of a one-layer format: ``ents``, ``spans`` and ``spans:<NAME>`` all
    read the layer; ``more`` are prefixes the reader also takes (``column:``). Raise :class:`InputError`
    naming what the reader takes for any other name (as for a name that matches nothing)."""
    selectors = tuple(selectors) or ("ents",)
    for s in selectors:
        if not isinstance(s, str):
            raise ConfigError(f"{source}: an annotation selector is a string such as 'ents', got {s!r}")
        if s in ("ents", "spans") or (s.startswith("spans:") and len(s) > 6) or any(s.startswith(m) for m in more):
            continue
        takes = ", ".join(["ents", "spans", "spans:NAME", *(f"{m}N" for m in more)])
        raise InputError(f"{source}: the {reader} reader takes no annotation selector {s!r}; it takes {takes} "
                         f"(a {reader} file has one layer of annotations, read under any of these names)")
    return selectors


# ``features=["*"]`` (``--features '*'``): every feature is significant (GATE's "all features"); readers keep
# every feature an annotation carries
ALL_FEATURES = "*"


def wants_all_features(features: Sequence[str] | None) -> bool:
    """Whether ``features`` asks for every feature (:data:`ALL_FEATURES` among the names)."""
    return bool(features) and ALL_FEATURES in features


def split_names(text: str) -> list[str]:
    """A list typed as one string, ``,`` or ``;`` alike between the items (``"PER,ORG"``, ``"PER;ORG"``,
    ``"spans:a; spans:b"``); items stripped, empty ones dropped. Every option that takes a list reads it so."""
    import re

    return [item.strip() for item in re.split(r"[;,]", text) if item.strip()]


def name_list(value: Any, what: str) -> list[str] | None:
    """``value`` (a parameter naming types or features) as a list of names: ``None`` or empty -> ``None``; a
    string is ONE name (``types="PER"``, not the letters P, E, R); anything else must be an iterable of
    strings. Raise :class:`ConfigError` saying what was given."""
    if value is None:
        return None
    if isinstance(value, str):
        return [value] if value else None
    if isinstance(value, (bytes, dict)) or not isinstance(value, Iterable):
        raise ConfigError(f"{what} must be a list of names (or one name as a string), got "
                          f"{type(value).__name__} {value!r:.60}")
    items = list(value)
    bad = [v for v in items if not isinstance(v, str) or not v]
    if bad:
        raise ConfigError(f"{what} must be a list of non-empty strings, got {bad[0]!r} in {items!r:.80}")
    return items or None
