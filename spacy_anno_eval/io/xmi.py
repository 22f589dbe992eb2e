"""UIMA CAS XMI, as INCEpTION (and WebAnno, DKPro Core) exports it, read by hand into annotator sets.

Format: the Apache UIMA reference guide, chapter "XMI CAS Serialization"
(apache/uima-uimaj, uimaj-documentation); INCEpTION's user guide
(``formats-uimaxmi.adoc``, ``projects_export.adoc``). dkpro-cassis reads the
same files (it is this reader's peer in the tests); it is not used here, so
the format needs no extra dependency. The XML is parsed by
:func:`~spacy_anno_eval.io.xml.parse_xml` only: entity declarations are
refused.

- **Text.** The ``cas:Sofa`` whose ``sofaID`` is ``_InitialView`` (or the
  only Sofa) gives the text, its ``sofaString`` (character references such as
  ``&#13;&#10;`` are kept). A Sofa without ``sofaString`` (a URI or an array)
  is an :class:`InputError`. Annotations of other Sofas (views) are left out,
  with a note.
- **Offsets.** ``begin``/``end`` count UTF-16 code units (Java); they are
  converted to code points with :class:`~.offsets.Utf16Offsets`, so an emoji
  before a span moves it back by one, as cassis does on load. XMI records no
  covered text, so there is nothing to check it against.
- **Annotations.** Every element with ``begin`` and ``end`` on that Sofa, and
  when the file has a ``cas:View`` of it, only the view's ``members`` (the
  indexed annotations, what cassis returns). The type's full name is its
  namespace (``http:///de/tudarmstadt/ukp/dkpro/core/api/ner/type.ecore`` ->
  ``de.tudarmstadt.ukp.dkpro.core.api.ner.type``) plus the element's name;
  the **label** is the short name (``NamedEntity``), or the value of
  ``label_feature`` (INCEpTION keeps NER labels in ``value``:
  ``--label-feature value``). Two types of the same short name in different
  packages share their label.
- **Structural types are left out** unless ``structural=True``:
  ``uima.tcas.DocumentAnnotation`` and its subtypes (DKPro
  ``DocumentMetaData``), and every type of DKPro Core's ``segmentation.type``
  (Token, Sentence, Paragraph, Lemma, Stem, ...) and ``metadata.type``
  (TagsetDescription, ...) packages (:data:`STRUCTURAL_PACKAGES`). Types of
  other packages with the same short names (``cassis.Token``) are read.
- **Document annotations** (INCEpTION's *document metadata* layers, user guide "Document metadata": types
  that inherit from ``uima.cas.AnnotationBase``, not ``uima.tcas.Annotation``, so they have no
  ``begin``/``end`` and apply to the whole document, e.g. ``<custom:Sentiment xmi:id="12" sofa="1"
  value="positive"/>`` of type ``webanno.custom.Sentiment``) are the document's categories for the file's set
  (:attr:`Corpus.cats <spacy_anno_eval.annotations.table.Corpus.cats>`), not spans. A feature structure is one
  when it is on the Sofa (its ``sofa`` attribute), has neither ``begin`` nor ``end``, is no ``cas:`` element
  and, with a type system, is an ``AnnotationBase`` and no ``Annotation``. Its category is the value of
  ``label_feature`` (``Sentiment->value`` names the type too) where it has one; else the value of its only
  feature when it has exactly one (a string array gives each of its strings, several labels); else its type's
  short name (a layer without features: the annotation itself is the label).
- **Relations are left out** unless ``relations=True``: an annotation with
  both a ``Governor`` and a ``Dependent`` feature (INCEpTION's relation
  layers, DKPro ``Dependency``) is a link between two spans, not a span; a
  note says how many. Read, it is the span from its ``begin`` to its ``end``.
- **Features** are the element's attributes other than ``xmi:id``, ``sofa``,
  ``begin``, ``end`` (and namespaced ones), and its child elements (inline
  string arrays, as a list of strings). With a **type system**, a feature's
  range types its value: Integer/Long/Short/Byte -> ``int``, Float/Double ->
  ``float`` (Java's ``NaN``/``Infinity`` read as ``None``, the one rule of
  :mod:`spacy_anno_eval.io.parse`), Boolean ``true``/``false`` ->
  ``bool``, String and its subtypes -> ``str``, primitive arrays (inline or
  referenced) -> a list; features whose range is another feature structure
  (references: ``Governor``, ``FSArray``, ...) are left out; a feature the
  type system does not declare stays a string. **Without a type system**
  every attribute stays a string (a reference is then the ``xmi:id`` it
  names, as a string: it cannot be told from a value).
- **The type system** is ``typesystem`` when given (a ``TypeSystem.xml``
  path), else a ``TypeSystem.xml`` / ``typesystem.xml`` beside the XMI file
  (in a ZIP: in the same folder of the archive, else at its root), else none.
  Its ``<imports>`` are not followed (export a merged type system).
- **Documents and sets.** A file at ``annotation/<document>/<user>.xmi`` (an
  INCEpTION project export, extracted or not) is document ``<document>``,
  set ``<user>``; ``curation/<document>/CURATION_USER.xmi`` is set
  ``CURATION_USER`` (readable, not an annotator: not compared by default; so is
  ``INITIAL_CAS``). Any other file is document = file stem, set ``default``
  (so a single XMI file or a flat folder of them is one set, also ``ents``).
  A folder is read recursively in sorted order. A ``.zip`` is read in memory
  (never extracted; member names are never used as paths): its ``.xmi``
  members by the same layout, and a ZIP inside it (INCEpTION's
  ``annotation/<document>/<user>.zip`` holding the XMI and TypeSystem.xml)
  is read as if it were the XMI file; ``.zip`` files in a folder alike.
  ``annotation_ser``/``curation_ser`` (binary CAS) and ``source`` are skipped.
- **Coverage.** A file read is an annotation record for its document and set,
  even when it holds no annotation. Where the export has INCEpTION's project
  JSON (a top-level ``*.json`` with ``annotation_documents``: ``name``,
  ``user``, ``state``), a document in state ``NEW`` (never opened) or
  ``IGNORE`` (the annotator was told to skip it) is not covered for that
  user and its annotations, if any, are left out, with a note.
  ``DocumentMetaData`` holds no such state (in WebAnno's files its
  ``documentId`` is the user name), so it is not used.
- **Errors.** Invalid XML, no ``XMI`` root, no Sofa text, ``begin``/``end``
  that are not integers or beyond the text, a value that does not parse as
  its declared type, a bad type system: :class:`InputError` naming the file,
  the document and the element (``custom:Span xmi:id=37``).
"""

from __future__ import annotations

import functools
import io
import os
import re
import zipfile
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any
from xml.etree.ElementTree import Element

from ..annotations.table import Corpus
from ..errors import InputError, where
from .multiset import MultiSetBuilder
from .offsets import Utf16Offsets
from .parse import decode, finite_number, json_value, read_bytes
from .xml import local_name, parse_xml

XMI_NS = "http://www.omg.org/XMI"
CAS_NS = "http:///uima/cas.ecore"
INITIAL_VIEW = "_InitialView"
DEFAULT_SET = "default"
#: sets that are no annotator (readable as spans:NAME, not compared by default)
NOT_ANNOTATORS = ("CURATION_USER", "INITIAL_CAS")
#: DKPro Core packages whose types structure the text rather than annotate it
STRUCTURAL_PACKAGES = ("de.tudarmstadt.ukp.dkpro.core.api.segmentation.type.",
                       "de.tudarmstadt.ukp.dkpro.core.api.metadata.type.")
DOCUMENT_ANNOTATION = "uima.tcas.DocumentAnnotation"
_KNOWN_DOCUMENT_ANNOTATIONS = {DOCUMENT_ANNOTATION, "de.tudarmstadt.ukp.dkpro.core.api.metadata.type.DocumentMetaData"}
#: INCEpTION annotation-document states meaning "no annotation record"
UNCOVERED_STATES = ("NEW", "IGNORE")
_TYPESYSTEM_NAMES = ("TypeSystem.xml", "typesystem.xml")
_SKIPPED_FOLDERS = {"annotation_ser", "curation_ser", "source", "log"}
_LAYOUT_FOLDERS = {"annotation", "curation"}
_MAX_MEMBER = 1 << 31  # a ZIP member declaring more than 2 GiB is refused (no zip bombs in memory)

_INTEGER = re.compile(r"[+-]?[0-9]+")
_INTS = {"uima.cas.Integer", "uima.cas.Long", "uima.cas.Short", "uima.cas.Byte"}
_FLOATS = {"uima.cas.Float", "uima.cas.Double"}
_ARRAYS = {"uima.cas.StringArray": "uima.cas.String", "uima.cas.IntegerArray": "uima.cas.Integer",
           "uima.cas.LongArray": "uima.cas.Long", "uima.cas.ShortArray": "uima.cas.Short",
           "uima.cas.FloatArray": "uima.cas.Float", "uima.cas.DoubleArray": "uima.cas.Double",
           "uima.cas.BooleanArray": "uima.cas.Boolean"}
_BUILTIN_SUPERS = {"uima.tcas.Annotation": "uima.cas.AnnotationBase", DOCUMENT_ANNOTATION: "uima.tcas.Annotation",
                   "uima.cas.AnnotationBase": "uima.cas.TOP"}


# -- type system ------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class FeatureDecl:
    """A feature as a type system declares it."""

    range: str
    element: str | None = None
    multiple_references: bool = False


class TypeSystem:
    """The types of a ``TypeSystem.xml``: supertypes and declared features (what typing values needs)."""

    def __init__(self, supers: dict[str, str], features: dict[str, dict[str, FeatureDecl]], source: str) -> None:
        self.supers = {**_BUILTIN_SUPERS, **supers}
        self.features = features
        self.source = source

    def chain(self, name: str) -> Iterator[str]:
        """``name`` and its supertypes, nearest first."""
        seen = set()
        while name and name not in seen:
            seen.add(name)
            yield name
            name = self.supers.get(name, "")

    def is_a(self, name: str, ancestor: str) -> bool:
        return ancestor in self.chain(name)

    def feature(self, type_name: str, feature: str) -> FeatureDecl | None:
        for t in self.chain(type_name):
            decl = self.features.get(t, {}).get(feature)
            if decl is not None:
                return decl
        return None

    def is_string(self, range_name: str) -> bool:
        """Whether ``range_name`` is ``uima.cas.String`` or one of its subtypes (allowed-value strings)."""
        return "uima.cas.String" in self.chain(range_name)


def _child_text(elem: Element, name: str) -> str | None:
    for child in elem:
        if local_name(child.tag) == name:
            return (child.text or "").strip()
    return None


def parse_typesystem(path: str | os.PathLike | None = None, data: bytes | None = None,
                     source: str | None = None) -> TypeSystem:
    """A UIMA ``typeSystemDescription`` (``TypeSystem.xml``) file or bytes; :class:`InputError` when it is none."""
    src = source or str(path)
    root = parse_xml(path, data=data, source=src)
    if local_name(root.tag) != "typeSystemDescription":
        raise InputError(f"{src}: not a UIMA type system (the root element is <{local_name(root.tag)}>, expected "
                         f"<typeSystemDescription>)")
    supers: dict[str, str] = {}
    features: dict[str, dict[str, FeatureDecl]] = {}
    for types in (c for c in root if local_name(c.tag) == "types"):
        for td in (c for c in types if local_name(c.tag) == "typeDescription"):
            name = _child_text(td, "name")
            if not name:
                raise InputError(f"{src}: a <typeDescription> without a <name>")
            supers[name] = _child_text(td, "supertypeName") or "uima.cas.TOP"
            feats = features.setdefault(name, {})
            for fs in (c for c in td if local_name(c.tag) == "features"):
                for fd in (c for c in fs if local_name(c.tag) == "featureDescription"):
                    fname, frange = _child_text(fd, "name"), _child_text(fd, "rangeTypeName")
                    if not fname or not frange:
                        raise InputError(f"{src}: type {name}: a <featureDescription> needs a <name> and a "
                                         f"<rangeTypeName>")
                    feats[fname] = FeatureDecl(frange, _child_text(fd, "elementType"),
                                               (_child_text(fd, "multipleReferencesAllowed") or "") == "true")
    return TypeSystem(supers, features, src)


# -- one XMI document -------------------------------------------------------------------------------------------

def type_name(tag: str) -> str:
    """The UIMA type of an XMI element: ``{http:///uima/tcas.ecore}Annotation`` -> ``uima.tcas.Annotation``."""
    if not tag.startswith("{"):
        return tag
    ns, _, name = tag[1:].partition("}")
    package = ns.removeprefix("http:///").removesuffix(".ecore").replace("/", ".").strip(".")
    return f"{package}.{name}" if package else name


@dataclass
class XmiAnnotation:
    type: str
    start: int
    end: int
    features: dict[str, Any]
    element: str


@dataclass
class XmiDocument:
    """What one XMI file holds: the Sofa text and its annotations (code points), its document annotations
    (``document``: INCEpTION's document metadata, no offsets), and what was left out."""

    text: str
    annotations: list[XmiAnnotation]
    structural: int = 0
    relations: int = 0
    other_views: int = 0
    document: list[XmiAnnotation] = field(default_factory=list)


def _describe(elem: Element) -> str:
    tag = elem.tag
    prefix = type_name(tag).rsplit(".", 2)[-2] if "." in type_name(tag) else ""
    short = local_name(tag)
    return f"element {prefix + ':' if prefix else ''}{short} xmi:id={elem.get(f'{{{XMI_NS}}}id', '?')}"


class _Values:
    """Types an annotation's attribute values by the type system (none: strings)."""

    def __init__(self, ts: TypeSystem | None, by_id: dict[str, Element], loc: Callable[[Element], str]) -> None:
        self.ts, self.by_id, self.loc = ts, by_id, loc

    def scalar(self, value: str, range_name: str, elem: Element, name: str) -> Any:
        try:
            if range_name in _INTS:
                return _int(value)
            if range_name in _FLOATS and "_" not in value:
                return finite_number(float(value))  # Java's NaN / Infinity: null, by the one rule (io.parse)
            if range_name in _FLOATS:
                raise ValueError(value)
        except ValueError:
            pass
        else:
            if range_name == "uima.cas.Boolean":
                if value in ("true", "false"):
                    return value == "true"
            else:
                return value
        raise InputError(f"{self.loc(elem)}: feature {name!r} is {value!r}, not a {range_name.rsplit('.', 1)[-1]} "
                         f"as the type system declares it")

    def features(self, elem: Element, tname: str) -> dict[str, Any]:
        feats: dict[str, Any] = {}
        for key, value in elem.attrib.items():
            if key.startswith("{") or key in ("sofa", "begin", "end"):
                continue
            decl = self.ts.feature(tname, key) if self.ts is not None else None
            if decl is None:
                feats[key] = value
            elif decl.range in _ARRAYS:
                items = self._array(value, decl, elem, key)
                if items is not None:
                    feats[key] = [self.scalar(v, _ARRAYS[decl.range], elem, key) for v in items]
            elif self.ts is not None and (decl.range in _INTS or decl.range in _FLOATS
                                          or decl.range == "uima.cas.Boolean" or self.ts.is_string(decl.range)):
                feats[key] = self.scalar(value, decl.range, elem, key)
            # else: a reference to another feature structure: left out
        for child in elem:  # inline string arrays: <feature>value</feature>
            key = local_name(child.tag)
            decl = self.ts.feature(tname, key) if self.ts is not None else None
            if decl is None or decl.range in _ARRAYS:
                items = feats.setdefault(key, [])
                if isinstance(items, list):
                    items.append(child.text or "" if decl is None else
                                 self.scalar(child.text or "", _ARRAYS[decl.range], elem, key))
        return feats

    def _array(self, value: str, decl: FeatureDecl, elem: Element, name: str) -> list[str] | None:
        """The elements of an array feature: inline (space-separated) or the array it references."""
        if not decl.multiple_references:
            return value.split()
        target = self.by_id.get(value.strip())
        if target is None:
            return None
        inline = target.get("elements")
        if inline is not None:
            return inline.split()
        return [c.text or "" for c in target if local_name(c.tag) == "elements"]


def read_xmi_document(root: Element, source: str, doc_id: str, ts: TypeSystem | None = None, *,
                      structural: bool = False, relations: bool = False) -> XmiDocument:
    """The text and annotations of one parsed XMI file (see the module docstring for the rules)."""
    if local_name(root.tag) != "XMI":
        raise InputError(f"{where(source, doc_id)}: not a UIMA CAS XMI file (the root element is "
                         f"<{local_name(root.tag)}>, expected <xmi:XMI>)")
    sofas = [e for e in root if e.tag == f"{{{CAS_NS}}}Sofa"]
    if not sofas:
        raise InputError(f"{where(source, doc_id)}: no <cas:Sofa>: the XMI holds no document text")
    sofa = next((s for s in sofas if s.get("sofaID") == INITIAL_VIEW), sofas[0] if len(sofas) == 1 else None)
    if sofa is None:
        raise InputError(f"{where(source, doc_id)}: {len(sofas)} Sofas and none is the {INITIAL_VIEW}; "
                         f"cannot tell which is the document")
    text = sofa.get("sofaString")
    if text is None:
        raise InputError(f"{where(source, doc_id)}: the Sofa {sofa.get('sofaID')!r} has no sofaString (its text "
                         f"is a URI or an array); only text held in the XMI can be read")
    sofa_id = sofa.get(f"{{{XMI_NS}}}id")
    members: set[str] | None = None
    for view in (e for e in root if e.tag == f"{{{CAS_NS}}}View" and e.get("sofa") == sofa_id):
        members = (members or set()) | set((view.get("members") or "").split())
    by_id = {i: e for e in root if (i := e.get(f"{{{XMI_NS}}}id")) is not None}

    def loc(elem: Element) -> str:
        return f"{where(source, doc_id)}, {_describe(elem)}"

    values = _Values(ts, by_id, loc)
    offsets = Utf16Offsets(text)
    out = XmiDocument(text, [])
    for elem in root:
        if "begin" not in elem.attrib and "end" not in elem.attrib:
            if _is_document_annotation(elem, sofa_id, members, ts):
                tname = type_name(elem.tag)
                out.document.append(XmiAnnotation(tname, 0, len(text), values.features(elem, tname),
                                                  _describe(elem)))
            continue
        tname = type_name(elem.tag)
        if elem.get("sofa", sofa_id) != sofa_id:
            out.other_views += 1
            continue
        if members is not None and elem.get(f"{{{XMI_NS}}}id") not in members:
            continue
        if not structural and _is_structural(tname, ts):
            out.structural += 1
            continue
        if not relations and _is_relation(elem, tname, ts):
            out.relations += 1
            continue
        try:
            b16, e16 = _int(elem.get("begin", "")), _int(elem.get("end", ""))
        except ValueError:
            raise InputError(f"{loc(elem)}: begin={elem.get('begin')!r} end={elem.get('end')!r}; an annotation "
                             f"needs integer begin and end") from None
        if not 0 <= b16 <= e16 <= len(offsets):
            raise InputError(f"{loc(elem)}: begin={b16} end={e16} is out of range for a text of {len(offsets)} "
                             f"UTF-16 code units (end exclusive); check the file")
        try:
            start, end = offsets.span(b16, e16, source, doc_id)
        except InputError as exc:
            raise InputError(f"{exc} ({_describe(elem)})") from None
        out.annotations.append(XmiAnnotation(tname, start, end, values.features(elem, tname), _describe(elem)))
    return out


def _int(value: str) -> int:
    """A Java integer's text (Python's ``int`` would also take ``1_000`` and spaces)."""
    if not _INTEGER.fullmatch(value):
        raise ValueError(value)
    return int(value)


def _is_structural(tname: str, ts: TypeSystem | None) -> bool:
    if tname in _KNOWN_DOCUMENT_ANNOTATIONS or tname.startswith(STRUCTURAL_PACKAGES):
        return True
    return ts is not None and ts.is_a(tname, DOCUMENT_ANNOTATION)


def _is_document_annotation(elem: Element, sofa_id: str | None, members: set[str] | None,
                            ts: TypeSystem | None) -> bool:
    """Whether ``elem`` (without ``begin``/``end``) annotates the whole document of Sofa ``sofa_id``: an
    ``AnnotationBase`` on that Sofa (INCEpTION's document metadata), indexed in its view, no ``cas:`` element,
    and with a type system no ``uima.tcas.Annotation``."""
    if elem.get("sofa") is None or elem.get("sofa") != sofa_id or elem.tag.startswith(f"{{{CAS_NS}}}"):
        return False
    if members is not None and elem.get(f"{{{XMI_NS}}}id") not in members:
        return False
    tname = type_name(elem.tag)
    if ts is None:
        return not tname.startswith(("uima.cas.", "uima.tcas."))
    return ts.is_a(tname, "uima.cas.AnnotationBase") and not ts.is_a(tname, "uima.tcas.Annotation")


def document_labels(a: XmiAnnotation, label_type: str | None, label_feature: str | None) -> list[str]:
    """The categories a document annotation gives (module docstring): ``label_feature``'s value where it has one
    (and, with ``label_type``, its type is that type), else its only feature's value, else its type's short
    name; a list value gives each item; an empty value counts as none."""
    short = a.type.rsplit(".", 1)[-1]

    def values(value: Any) -> list[str]:
        items = value if isinstance(value, list) else [value]
        return [v if isinstance(v, str) else str(v) for v in items if v is not None and v != ""]

    if label_feature is not None and (label_type is None or label_type == short):
        found = values(a.features.get(label_feature))
        if found:
            return found
    if len(a.features) == 1:
        found = values(next(iter(a.features.values())))
        if found:
            return found
    return [short]


def _is_relation(elem: Element, tname: str, ts: TypeSystem | None) -> bool:
    if "Governor" in elem.attrib and "Dependent" in elem.attrib:
        return True
    return ts is not None and ts.feature(tname, "Governor") is not None and ts.feature(tname, "Dependent") is not None


# -- where the files are ----------------------------------------------------------------------------------------

@dataclass
class _Entry:
    """One XMI to read: its name in messages, its place in the export (``parts``), its bytes and type system."""

    source: str
    parts: tuple[str, ...]
    load: Callable[[], bytes]
    typesystem: Callable[[], TypeSystem | None]


def _layout(parts: tuple[str, ...]) -> tuple[str, str]:
    """(document id, set name) of a file by its place: ``annotation/<doc>/<user>.xmi`` or any other file."""
    stem = PurePosixPath(parts[-1]).stem
    if len(parts) >= 3 and parts[-3] in _LAYOUT_FOLDERS:
        return parts[-2], stem
    return stem, DEFAULT_SET


def _place(f: Path, rel: tuple[str, ...]) -> tuple[str, ...]:
    """A file's place for :func:`_layout`: its path below the folder read, or when that is too short to show the
    ``annotation/<doc>/<user>`` layout, the last three parts of its full path."""
    if len(rel) >= 3:
        return rel
    return f.resolve().parts[-3:]


def _skipped(parts: tuple[str, ...]) -> bool:
    return any(p in _SKIPPED_FOLDERS or p.startswith(".") for p in parts[:-1]) or parts[-1].startswith(".")


class _Sources:
    """Finds the XMI files of a path (file, folder, ZIP) and the project JSON's document states."""

    def __init__(self, path: Path, typesystem: str | os.PathLike | None) -> None:
        self.path = path
        self.entries: list[_Entry] = []
        self.states: dict[tuple[str, str], str] = {}
        self._ts_cache: dict[str, TypeSystem | None] = {}
        self._given: TypeSystem | None = None
        if typesystem is not None:
            tp = Path(typesystem)
            if not tp.is_file():
                raise InputError(f"{tp}: no such type system file (typesystem=)")
            self._given = parse_typesystem(tp)

    def _cached_ts(self, key: str, load: Callable[[], TypeSystem | None]) -> Callable[[], TypeSystem | None]:
        def get() -> TypeSystem | None:
            if self._given is not None:
                return self._given
            if key not in self._ts_cache:
                self._ts_cache[key] = load()
            return self._ts_cache[key]
        return get

    def collect(self) -> None:
        p = self.path
        if p.is_dir():
            files = sorted(f for f in p.rglob("*") if f.is_file())
            for f in files:
                parts = f.relative_to(p).parts
                if _skipped(parts):
                    continue
                suffix = f.suffix.lower()
                if suffix == ".xmi":
                    self._add_file(f, _place(f, parts))
                elif suffix == ".zip":
                    self._add_zip(functools.partial(read_bytes, f), str(f), _place(f, parts), inner=True)
                elif suffix == ".json" and len(parts) == 1:
                    self._states(functools.partial(read_bytes, f), str(f))
            if not self.entries:
                raise InputError(f"{p}: no .xmi files in this folder (nor ZIPs holding them)")
        elif p.suffix.lower() == ".zip":
            self._add_zip(functools.partial(read_bytes, p), str(p), _place(p, ()), inner=False)
            if not self.entries:
                raise InputError(f"{p}: the ZIP holds no .xmi file")
        else:
            self._add_file(p, _place(p, ()))

    def _add_file(self, f: Path, parts: tuple[str, ...]) -> None:
        def beside() -> TypeSystem | None:
            for name in _TYPESYSTEM_NAMES:
                t = f.parent / name
                if t.is_file():
                    return parse_typesystem(t)
            return None

        self.entries.append(_Entry(str(f), tuple(parts), functools.partial(read_bytes, f),
                                   self._cached_ts(str(f.parent), beside)))

    def _add_zip(self, load: Callable[[], bytes], source: str, parts: tuple[str, ...], inner: bool) -> None:
        """The XMI members of a ZIP at place ``parts``. At ``annotation/<doc>/<user>.zip`` it stands for that one
        XMI; else (a project export) its members are laid out by their own names, and (unless ``inner``: a ZIP
        in a ZIP) the ZIPs among them are read alike."""
        try:
            archive = zipfile.ZipFile(io.BytesIO(load()))
            infos = [i for i in archive.infolist() if not i.is_dir()]
        except (zipfile.BadZipFile, OSError, EOFError) as exc:
            raise InputError(f"{source}: not a readable ZIP ({exc})") from None
        names = {i.filename: i for i in infos}

        def read(info: zipfile.ZipInfo) -> Callable[[], bytes]:
            def get() -> bytes:
                if info.file_size > _MAX_MEMBER:
                    raise InputError(f"{source}:{info.filename}: declares {info.file_size} bytes; refused")
                try:
                    return archive.read(info)
                except (zipfile.BadZipFile, OSError, EOFError, RuntimeError, ValueError) as exc:
                    raise InputError(f"{source}:{info.filename}: cannot read the ZIP member ({exc})") from None
            return get

        def ts_for(member: str) -> Callable[[], TypeSystem | None]:
            folder = str(PurePosixPath(member).parent)
            for cand in [f"{folder}/{n}" if folder != "." else n for n in _TYPESYSTEM_NAMES] + list(_TYPESYSTEM_NAMES):
                if cand in names:
                    info = names[cand]
                    return self._cached_ts(f"{source}:{cand}",
                                           lambda info=info: parse_typesystem(data=read(info)(),
                                                                              source=f"{source}:{info.filename}"))
            return self._cached_ts(f"{source}:-", lambda: None)

        xmis = [i for i in infos if i.filename.lower().endswith(".xmi")
                and not _skipped(tuple(PurePosixPath(i.filename).parts))]
        if len(parts) >= 3 and parts[-3] in _LAYOUT_FOLDERS and xmis:
            if len(xmis) > 1:
                raise InputError(f"{source}: {len(xmis)} .xmi files in one annotator's ZIP; expected one")
            info = xmis[0]
            self.entries.append(_Entry(f"{source}:{info.filename}", parts, read(info), ts_for(info.filename)))
            return
        for info in infos:
            mparts = tuple(PurePosixPath(info.filename).parts)
            if not mparts or _skipped(mparts):
                continue
            lower = info.filename.lower()
            if lower.endswith(".xmi"):
                self.entries.append(_Entry(f"{source}:{info.filename}", mparts, read(info), ts_for(info.filename)))
            elif lower.endswith(".zip") and not inner:
                self._add_zip(read(info), f"{source}:{info.filename}", mparts, inner=True)
            elif lower.endswith(".json") and len(mparts) == 1:
                self._states(read(info), f"{source}:{info.filename}")

    def _states(self, load: Callable[[], bytes], source: str) -> None:
        """INCEpTION's project JSON: the state of each (document, user); other JSON files are ignored."""
        try:
            project = json_value(decode(load(), source), source)
        except InputError:  # not the project JSON: ignored, as other JSON files are
            return
        docs = project.get("annotation_documents") if isinstance(project, dict) else None
        if not isinstance(docs, list):
            return
        for d in docs:
            if isinstance(d, dict) and all(isinstance(d.get(k), str) for k in ("name", "user", "state")):
                self.states[(d["name"], d["user"])] = d["state"]


# -- the reader -------------------------------------------------------------------------------------------------

def declared_inputs(path: Path, *, typesystem: str | os.PathLike | None = None, **options: Any) -> list[Path]:
    """Every file :func:`read_xmi` opens for ``path`` besides it: the type system given (``typesystem``), else a
    ``TypeSystem.xml`` / ``typesystem.xml`` beside an XMI file (a folder or a ZIP is read whole, its type systems
    inside it) (:mod:`spacy_anno_eval.io.registry`)."""
    found = [path]
    if typesystem is not None:
        found.append(Path(typesystem))
    elif path.is_file() and path.suffix.lower() != ".zip":
        found.extend(path.parent / name for name in _TYPESYSTEM_NAMES if (path.parent / name).is_file())
    return found


def read_xmi(path: str | os.PathLike, *, selectors: Sequence[str] = ("ents",), features: Sequence[str] | None = None,
             label_feature: str | None = None, typesystem: str | os.PathLike | None = None,
             structural: bool = False, relations: bool = False, **options: Any) -> Corpus:
    """Read UIMA CAS XMI (a file, a folder, or an INCEpTION project export, extracted or as a ZIP) into a
    :class:`Corpus` with one set per annotator (see the module docstring for every rule)."""
    p = Path(path)
    if not p.exists():
        raise InputError(f"{p}: no such file or folder")
    sources = _Sources(p, typesystem)
    try:
        sources.collect()
    except OSError as exc:
        raise InputError(f"{p}: cannot read ({exc.strerror or exc})") from None
    builder = MultiSetBuilder(str(p), features=features, label_feature=label_feature)
    counts = {"structural": 0, "relations": 0, "other_views": 0}
    uncovered: dict[str, int] = {}
    for entry in sources.entries:
        doc_id, set_name = _layout(entry.parts)
        try:
            data = entry.load()
        except OSError as exc:
            raise InputError(f"{entry.source}: cannot read ({exc.strerror or exc})") from None
        try:
            root = parse_xml(data=data, source=entry.source)
        except LookupError as exc:  # an unknown encoding in the XML declaration (io/xml.py lets it through)
            raise InputError(f"{entry.source}: invalid XML ({exc})") from None
        doc = read_xmi_document(root, entry.source, doc_id, entry.typesystem(), structural=structural,
                                relations=relations)
        d = builder.document(doc_id, doc.text, entry.source)
        annotator = set_name not in NOT_ANNOTATORS
        for key in counts:
            counts[key] += getattr(doc, key)
        state = sources.states.get((doc_id, set_name))
        if state in UNCOVERED_STATES:
            uncovered[state] = uncovered.get(state, 0) + 1
            builder.declare_set(set_name, annotator)
            continue
        builder.cover(set_name, d, annotator)
        for a in doc.document:
            for label in document_labels(a, builder.label_type, builder.label_feature):
                builder.categorise(set_name, d, label, annotator=annotator, loc=f"{entry.source}, {a.element}",
                                   type_name=a.type.rsplit(".", 1)[-1])
        for a in doc.annotations:
            try:
                builder.add(set_name, d, a.start, a.end, a.type.rsplit(".", 1)[-1], a.features, annotator=annotator)
            except InputError as exc:
                raise InputError(f"{exc} ({a.element})") from None
    if counts["structural"]:
        builder.note(f"{counts['structural']} structural annotation(s) (tokens, sentences, document metadata) left "
                     f"out; --reader-option structural=true (Python: structural=True) reads them")
    if counts["relations"]:
        builder.note(f"{counts['relations']} relation annotation(s) (Governor/Dependent) left out; --reader-option "
                     f"relations=true (Python: relations=True) reads them as spans")
    if counts["other_views"]:
        builder.note(f"{counts['other_views']} annotation(s) of views other than {INITIAL_VIEW} left out")
    for state, n in sorted(uncovered.items()):
        builder.note(f"{n} annotator file(s) whose document state is {state} in the project JSON: not counted as "
                     f"annotated (their annotations, if any, left out)")
    return builder.build(selectors)


__all__ = ["STRUCTURAL_PACKAGES", "TypeSystem", "XmiDocument", "document_labels", "parse_typesystem", "read_xmi",
           "read_xmi_document", "type_name"]
