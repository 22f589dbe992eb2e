"""One builder for every reader of an annotation tool's export: documents, named sets, coverage.

An annotation tool's export holds several *sets* per document: one per
annotator, user, model version or named annotation set. Every such reader
(GATE, UIMA CAS XMI, WebAnno TSV3, Label Studio, doccano, BioC, Prodigy,
NIF) collects its annotations in a :class:`MultiSetBuilder` and gets a
:class:`~spacy_anno_eval.annotations.table.Corpus` whose sets are
``spans:NAME``, one per set; when the file holds exactly one set it is also
readable as ``ents`` and ``spans`` (as one-layer formats are).

Rules every such reader shares, written once here:

- **Documents** are keyed by id; the same id read again (another
  annotator's file of the same document) must carry the same text, or an
  :class:`InputError` names both sources.
- **Offsets** are Python code points (see :mod:`.offsets` for UTF-16), end
  exclusive; one beyond the text is a located :class:`InputError`; a
  recorded covered text is checked (one :class:`CoveredTextWarning` per
  file); a zero-length annotation is left out (one
  :class:`ZeroLengthWarning`).
- **Labels** are the annotation type, or with ``label_feature`` (INCEpTION
  keeps NER labels in ``value``) that feature's value where an annotation
  has it; the features stay available to ``--features`` either way.
  ``label_feature="Type->feature"`` (GATE's notation) reads the annotations
  of type ``Type`` only, labelled by ``feature``: ``NamedEntity->value``
  keeps INCEpTION's lemmas and POS tags (which also have a ``value``) out.
- **Features** kept are those ``features`` names (``Type->feature`` names
  the feature too; ``*`` keeps all); :attr:`Corpus.found_features` lists
  every name seen.
- **Coverage.** :meth:`MultiSetBuilder.cover` records that a set has an
  annotation record for a document, even an empty one; adding an
  annotation covers its document. A document a set does not cover (never
  opened, skipped, cancelled) is recorded in :attr:`Corpus.coverage`, so
  that agreement leaves it out of that annotator's pairs.
- **Document categories** (document classification: doccano's ``label``
  lists, Label Studio's ``choices``, Prodigy's textcat and choice answers,
  INCEpTION's document metadata, GATE Teamware's answers):
  :meth:`MultiSetBuilder.categorise` gives a set's document a label with a
  value, as spaCy's ``doc.cats`` holds it (1.0 chosen; 0.0 offered and not
  chosen, or rejected); it covers the document as an annotation does. The
  corpus carries them in :attr:`Corpus.cats` under the set's selectors
  (``spans:NAME``, and ``ents``/``spans`` for a lone set): ``{label: value}``
  where the set covers the document (``{}`` when it gave no category),
  ``None`` where it does not. A label given twice for one document keeps the
  larger value (chosen wins over offered).
- **Notes.** What a reader noticed and read in its own way (duplicates
  dropped, relations left out, ...) goes to :meth:`MultiSetBuilder.note`:
  one :class:`~spacy_anno_eval.errors.ReaderNoteWarning` per sentence and
  file, so they can be filtered apart from every other warning.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ..annotations.table import ALL_FEATURES, Corpus, SpanTable, SpanTableBuilder
from ..errors import ConfigError, InputError, ReaderNoteWarning, ZeroLengthWarning, where
from .offsets import CoveredText, check_range


def wanted_features(features: Sequence[str] | None) -> tuple[set[str], bool]:
    """The feature names ``features`` asks for (``Type->feature`` gives ``feature``) and whether it asks for all."""
    names = set()
    for f in features or ():
        if f == ALL_FEATURES:
            return set(), True
        names.add(f.split("->", 1)[1] if "->" in f else f)
    return names, False


def export_files(path: Path, suffixes: Sequence[str], *, recursive: bool = True, hint: str = "") -> list[Path]:
    """The file ``path`` itself, or the files of the folder ``path`` (and, ``recursive``, of its subfolders)
    whose suffix is one of ``suffixes``, sorted, hidden files skipped: the files of one tool's export.

    Raise :class:`InputError` for a folder without such a file (``hint`` ends the message) or a path that is
    neither a file nor a folder.
    """
    if path.is_dir():
        candidates = path.rglob("*") if recursive else path.glob("*")
        found = sorted(f for f in candidates if f.is_file() and f.suffix.lower() in suffixes
                       and not f.name.startswith("."))
        if not found:
            kinds = " or ".join(", ".join(suffixes).rsplit(", ", 1))
            raise InputError(f"{path}: no {kinds} files in this folder{hint}")
        return found
    if not path.is_file():
        raise InputError(f"{path}: no such file or folder")
    return [path]


class MultiSetBuilder:
    """Collects documents and the annotations of named sets, then builds a :class:`Corpus`.

    ``source`` names the input in messages and warnings; ``features`` and ``label_feature`` are the reader's
    options of the same names; ``covered_field`` names what the format records of an annotation's text (for
    the warning: ``"anchorOf"``, ``"value.text"``).
    """

    def __init__(self, source: str, *, features: Sequence[str] | None = None, label_feature: str | None = None,
                 covered_field: str = "the recorded text") -> None:
        if label_feature is not None and (not isinstance(label_feature, str) or not label_feature):
            raise ConfigError(f"label_feature must be a feature name, got {label_feature!r}")
        self.source = source
        self.label_type: str | None = None
        if label_feature is not None and "->" in label_feature:
            self.label_type, label_feature = (p.strip() for p in label_feature.split("->", 1))
            if not self.label_type or not label_feature:
                raise ConfigError(f"label_feature {self.label_type}->{label_feature}: name a type and a feature, "
                                  f"as in NamedEntity->value")
        self.label_feature = label_feature
        self._types_seen: set[str] = set()
        self._wanted, self._all = wanted_features(features)
        self.keep_features = bool(features)
        self.doc_ids: list[str] = []
        self.texts: list[str] = []
        self._doc_source: list[str] = []
        self._doc_index: dict[str, int] = {}
        self._sets: dict[str, SpanTableBuilder] = {}
        self._annotator: dict[str, bool] = {}
        self._covered: dict[str, set[int]] = {}
        self._found_features: set[str] = set()
        self._cats: dict[str, dict[int, dict[str, float]]] = {}
        self._zero_length = 0
        self._without_label_feature = 0
        self._with_label_feature = 0
        self.covered_text = CoveredText(source, covered_field)
        self.notes: list[str] = []

    # -- documents --------------------------------------------------------------------------------------------

    def document(self, doc_id: str, text: str, source: str | None = None) -> int:
        """The index of document ``doc_id``, added with ``text`` if new. The same id with another text raises
        :class:`InputError` naming both sources (``source``: the file this copy came from)."""
        src = source or self.source
        d = self._doc_index.get(doc_id)
        if d is None:
            d = self._doc_index[doc_id] = len(self.doc_ids)
            self.doc_ids.append(doc_id)
            self.texts.append(text)
            self._doc_source.append(src)
        elif self.texts[d] != text:
            first = next((i for i, (a, b) in enumerate(zip(self.texts[d], text, strict=False)) if a != b),
                         min(len(text), len(self.texts[d])))
            raise InputError(f"{where(src, doc_id)}: the text differs from the same document's text in "
                             f"{self._doc_source[d]} (from character {first}: {text[first:first + 30]!r} vs "
                             f"{self.texts[d][first:first + 30]!r}); the annotators' copies must be the same text")
        return d

    # -- sets -------------------------------------------------------------------------------------------------

    def declare_set(self, name: str, annotator: bool = True) -> None:
        """Make set ``name`` exist (even with no annotation); ``annotator=False`` for a set that is no annotator
        (GATE's ``Original markups``): it is readable but not compared by default."""
        if not isinstance(name, str) or not name:
            raise InputError(f"{self.source}: an annotation set needs a non-empty name, got {name!r}")
        if name not in self._sets:
            self._sets[name] = SpanTableBuilder()
            self._covered[name] = set()
        self._annotator[name] = self._annotator.get(name, False) or annotator

    def cover(self, set_name: str, doc: int, annotator: bool = True) -> None:
        """Record that set ``set_name`` has an annotation record for document ``doc`` (possibly empty)."""
        self.declare_set(set_name, annotator)
        self._covered[set_name].add(doc)

    def add(self, set_name: str, doc: int, start: int, end: int, type_name: str,
            features: dict[str, Any] | None = None, *, recorded: str | None = None, line: int | None = None,
            annotator: bool = True) -> None:
        """Add one annotation of type ``type_name`` at code points ``[start, end)`` of document ``doc``.

        ``recorded`` is the covered text the file gives, checked against the document text; ``line`` locates
        the annotation in messages. The label is ``type_name``, or the value of :attr:`label_feature`.
        """
        self.cover(set_name, doc, annotator)
        text = self.texts[doc]
        check_range(start, end, len(text), self.source, self.doc_ids[doc], line)
        self.covered_text.check(text, start, end, recorded, self.doc_ids[doc], line)
        if self.label_type is not None:
            self._types_seen.add(type_name)
            if type_name != self.label_type:
                return
        if start == end:
            self._zero_length += 1
            return
        feats = features or {}
        self._found_features.update(feats)
        label = type_name
        if self.label_feature is not None:
            value = feats.get(self.label_feature)
            if value is None or value == "":
                self._without_label_feature += 1
            else:
                self._with_label_feature += 1
                label = str(value)
        if not isinstance(label, str) or not label:
            raise InputError(f"{where(self.source, self.doc_ids[doc], line, (start, end))}: an annotation without "
                             f"a type or label; every annotation needs one")
        kept = None
        if self.keep_features:
            kept = dict(feats) if self._all else {k: v for k, v in feats.items() if k in self._wanted}
        self._sets[set_name].add(doc, start, end, label, kept)

    def categorise(self, set_name: str, doc: int, label: Any, value: float = 1.0, *,
                   annotator: bool = True, loc: str | None = None, type_name: str | None = None) -> None:
        """Give document ``doc`` the category ``label`` in set ``set_name`` with ``value`` (spaCy's ``doc.cats``:
        1.0 chosen, 0.0 offered and not chosen, or rejected); covers the document. A label given twice keeps
        the larger value. ``type_name``: the type of the document annotation it came from (INCEpTION's document
        metadata), a type ``label_feature="Type->feature"`` may name. Raise :class:`InputError` at ``loc``
        (default: the document) for a label that is not a non-empty string or a number (a number is its text:
        doccano's label ids), or a value that is no finite number."""
        self.cover(set_name, doc, annotator)
        if type_name is not None:
            self._types_seen.add(type_name)
        here = loc or where(self.source, self.doc_ids[doc])
        if isinstance(label, int) and not isinstance(label, bool):
            label = str(label)
        if not isinstance(label, str) or not label:
            raise InputError(f"{here}: a document category needs a label (a non-empty string), got {label!r}")
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not np.isfinite(value):
            raise InputError(f"{here}: the category {label!r} has the value {value!r}; a category's value is a "
                             f"finite number (1.0 chosen, 0.0 not)")
        cats = self._cats.setdefault(set_name, {}).setdefault(doc, {})
        cats[label] = max(float(value), cats.get(label, float(value)))

    def note(self, text: str) -> None:
        """A sentence for the user about what was read (duplicates dropped, answers skipped, ...): warned once at
        :meth:`build`, as a :class:`~spacy_anno_eval.errors.ReaderNoteWarning`."""
        self.notes.append(text)

    # -- the corpus -------------------------------------------------------------------------------------------

    def set_names(self) -> list[str]:
        """The sets read so far, in the order they were first seen."""
        return list(self._sets)

    def build(self, selectors: Sequence[str] = ("ents",)) -> Corpus:
        """The :class:`Corpus`: every set as ``spans:NAME`` (and as ``ents``/``spans`` when there is one set).

        ``selectors`` are checked for their form only; a set no document holds is refused when it is asked for
        (:meth:`Corpus.get_set` lists the sets that exist).
        """
        for s in selectors:
            if not isinstance(s, str) or not (s in ("ents", "spans") or (s.startswith("spans:") and len(s) > 6)):
                raise InputError(f"{self.source}: the annotation set {s!r} cannot name a set of this file; name "
                                 f"one as spans:NAME (the sets: {', '.join(self._selectors()) or 'none'})")
        if self.label_type is not None and self.label_type not in self._types_seen and self._types_seen:
            raise ConfigError(f"{self.source}: --label-feature {self.label_type}->{self.label_feature}: no "
                              f"annotation has the type {self.label_type!r}; the types are: "
                              f"{', '.join(sorted(self._types_seen))}")
        if self._without_label_feature and not self._with_label_feature:
            found = ", ".join(sorted(self._found_features)) or "none"
            raise ConfigError(f"{self.source}: --label-feature {self.label_feature}: no annotation carries the "
                              f"feature {self.label_feature!r}; the features are: {found} (leave --label-feature "
                              f"out to label annotations by their type)")
        self.covered_text.warn()
        if self._zero_length:
            warnings.warn(f"{self.source}: {self._zero_length} zero-length annotation(s) left out (a span is "
                          f"compared by the characters it covers)", ZeroLengthWarning, stacklevel=3)
        if self._without_label_feature:
            self.note(f"{self._without_label_feature} annotation(s) have no {self.label_feature!r} feature and "
                      f"keep their type as label")
        for text in dict.fromkeys(self.notes):
            warnings.warn(f"{self.source}: {text}", ReaderNoteWarning, stacklevel=3)
        n = len(self.doc_ids)
        sets: dict[str, SpanTable] = {}
        coverage: dict[str, np.ndarray] = {}
        for name, builder in self._sets.items():
            table = builder.build()
            if self.keep_features and table.features is None:
                table.features = [{} for _ in range(len(table))]
            sets[f"spans:{name}"] = table
            covered = np.zeros(n, dtype=bool)
            covered[sorted(self._covered[name])] = True
            if not covered.all():
                coverage[f"spans:{name}"] = covered
        cats = {f"spans:{name}": self._doc_cats(name, n) for name in self._sets if name in self._cats}
        found = self._selectors()
        if len(self._sets) == 1:
            only = next(iter(sets))
            for alias in ("ents", "spans"):
                t = sets[only]  # a copy: selectors must not share mutable state
                sets[alias] = SpanTable(t.doc.copy(), t.start.copy(), t.end.copy(), t.label.copy(), list(t.labels),
                                        None if t.features is None else [dict(f) for f in t.features])
                if only in coverage:
                    coverage[alias] = coverage[only]
                if only in cats:
                    cats[alias] = [None if c is None else dict(c) for c in cats[only]]
        return Corpus(list(self.doc_ids), list(self.texts), sets, self.source, given_ids=list(self.doc_ids),
                      found_sets=found, found_features=sorted(self._found_features), coverage=coverage or None,
                      annotator_sets=[f"spans:{k}" for k, v in self._annotator.items() if v], cats=cats or None)

    def _doc_cats(self, name: str, n: int) -> list[dict[str, float] | None]:
        """Set ``name``'s categories per document: ``{label: value}``, ``{}`` where it covers the document
        without one, ``None`` where it does not cover it."""
        given = self._cats.get(name, {})
        covered = self._covered[name]
        return [dict(given.get(d, {})) if d in covered else None for d in range(n)]

    def _selectors(self) -> list[str]:
        names = [f"spans:{k}" for k in self._sets]
        return (["ents", "spans"] + names) if len(names) == 1 else names


__all__ = ["MultiSetBuilder", "export_files", "wanted_features"]
