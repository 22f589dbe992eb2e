"""GATE documents: GATE XML (``GateDocument``) and gatenlp's bdoc JSON (``.bdocjs``), one set per annotator.

Formats and their sources:

- **GATE XML**, GATE's own save format (GATE user guide, "GATE XML"; written by
  ``gate.corpora.DocumentStaxUtils`` of GateNLP/gate-core)::

      <GateDocument version="3">
        <GateDocumentFeatures><Feature><Name className="java.lang.String">n</Name>
                                       <Value className="java.lang.Integer">3</Value></Feature>...
        <TextWithNodes><Node id="0"/>Ada<Node id="3"/> met ...</TextWithNodes>
        <AnnotationSet>                       (the unnamed, default set)
        <AnnotationSet Name="ann1">
          <Annotation Id="7" Type="Person" StartNode="0" EndNode="3"><Feature>...</Feature></Annotation>

  An annotation points at two ``Node`` markers of ``TextWithNodes``. Node ids are
  GATE offsets, which count Java ``char`` s (UTF-16 code units: an emoji counts
  2). As gatenlp does, the offset of a node is its place in the text (code
  points), not its id; each id is then checked against the node's UTF-16
  place. A mismatch (the file was edited, or the text lost characters, e.g. a
  CR that the XML parser turned into LF) keeps the places, which are right for
  the text read, and warns once per file (:class:`CoveredTextWarning`, with the
  count and the first example): the text differs from GATE's, so offsets of
  other files of the same document may not fit.
- **bdoc JSON** (GateNLP/python-gatenlp ``docs/format-bdocjs.md``; GATE's
  Format_Bdoc plugin writes it too): ``{"text", "features", "offset_type",
  "annotation_sets": {NAME: {"annotations": [{"type", "start", "end", "id",
  "features"}], ...}}}``. ``offset_type`` ``"j"`` means UTF-16 offsets
  (converted to code points), ``"p"`` or none code points (gatenlp's default);
  another value is refused. Files ending ``.bdocjs``, and ``.json`` files whose
  beginning shows ``annotation_sets``.
- **A folder** of such files (searched recursively, in sorted order, e.g. a
  Teamware or GATE corpus export, or one sub-folder per annotator): one
  document per file, its id the file name without ``.xml``/``.gate.xml``/
  ``.bdocjs``/``.json``. Files of the same id are the same document (their
  texts must be equal) and their sets are merged; the same annotator set of
  the same document in two files is refused (annotations would count twice),
  except ``Original markups``, read from the first file only. Other files
  (``.xml`` that are not ``GateDocument``, ``.json`` that are no bdoc) are
  skipped with a note.

Choices:

- **Sets.** Every ``AnnotationSet`` (every key of ``annotation_sets``) is a
  set ``spans:NAME`` and covers its document even when empty. The unnamed set
  (GATE's default set; bdoc key ``""``) is named ``default``; when some
  document of the input also has a set really named ``default``, the unnamed
  one is named ``_default`` instead (with a note) so that neither is lost. The
  same name twice in one document is refused. ``Original markups`` (the markup
  of the source file) is readable but is no annotator: not compared unless
  asked for; nor is the default set when it is empty in every document of the
  input (GATE always writes it, so an empty one says nothing about an
  annotator).
- **Labels** are annotation types, or with ``label_feature`` that feature's
  value where an annotation has it.
- **Feature values** (GATE XML ``Value className``): ``java.lang.String``
  (also ``Character``) -> ``str``; ``Integer``/``Long``/``Short``/``Byte``/
  ``java.math.BigInteger`` -> ``int``; ``Double``/``Float``/
  ``java.math.BigDecimal`` -> ``float``; ``java.lang.Boolean`` -> ``True``/
  ``False`` from ``true``/``false`` (gatenlp 1.0.8 reads ``"false"`` as
  ``True``; here it is ``False``); a value that does not parse as its class is
  a located :class:`InputError`; an empty ``java.lang.String`` value is ``""``
  (gatenlp drops it, as if it were null). Every other class (``gate.corpora.ObjectWrapper``
  holding lists and maps, ``java.util.*``, unknown classes) keeps the text
  GATE wrote (XStream XML, inline elements included) as a string, compared as such. A ``Feature``
  without ``Value`` (a null value) is left out. bdoc feature values are kept
  as JSON gives them (lists and maps included).
- **Document categories** (:attr:`Corpus.cats
  <spacy_anno_eval.annotations.table.Corpus.cats>`) are read only when the
  option ``cats_feature=NAME`` (CLI ``--reader-option cats_feature=NAME``)
  names the feature that holds them, since a GATE document holds many
  features that are no category (``gate.SourceURL``, ``MimeType``, a
  pipeline's own). With it: (1) in each annotation set, an annotation of type
  ``Document`` that carries ``NAME`` (GATE Teamware exports each annotator's
  answers so: ``{"type": "Document", "start": 0, "end": ..., "features":
  {"sentiment": "positive", "topics": ["a", "b"]}}`` in the set named after
  the annotator) gives that set the category ``NAME``'s value (a list: each
  item, several labels), and is no span; (2) GATE's document features
  (``GateDocumentFeatures``, bdoc ``"features"``) belong to no annotation set,
  so the document feature ``NAME`` gives the categories of the set
  ``document`` (readable as ``spans:document``, no annotator: compared only
  when named, e.g. as the gold label). A ``NAME`` that no document feature and
  no ``Document`` annotation carries is a :class:`ConfigError` listing those
  that exist. Without the option, one note counts the ``Document``
  annotations (read as spans) and the document features other than GATE's own
  (``gate.*``, ``MimeType``, ``docNewLineType``, ``teamware_status``) and names
  the option.
- **Zero-length annotations** (GATE allows them) are left out with one
  :class:`ZeroLengthWarning` (the builder's rule).
- **Errors.** Invalid XML or JSON, a missing ``TextWithNodes``/``text``, an
  annotation naming a node that does not exist, a non-integer id or offset,
  offsets beyond the text: a located :class:`InputError` (file, document, set
  and annotation id; the line for JSON and XML syntax errors). Entity
  declarations are refused (:func:`~spacy_anno_eval.io.xml.parse_xml`). Other
  top-level elements (GATE's ``RelationSet``) are ignored with a note.
"""

from __future__ import annotations

import os
import warnings
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..annotations.table import Corpus
from ..errors import ConfigError, CoveredTextWarning, InputError, where
from .multiset import MultiSetBuilder
from .offsets import Utf16Offsets
from .parse import finite_number, json_file, read_bytes
from .xml import local_name, parse_xml, root_name

DEFAULT_SET = "default"
DEFAULT_SET_RENAMED = "_default"
ORIGINAL_MARKUPS = "Original markups"
#: GATE Teamware's annotation of an annotator's answers about the whole document
TEAMWARE_TYPE = "Document"
#: the set whose categories the document features give (``cats_feature``)
DOCUMENT_SET = "document"
#: document features GATE (and Teamware) write about the file, never a category
_GATE_OWN_FEATURES = ("MimeType", "docNewLineType", "teamware_status")

_INT_CLASSES = {"java.lang.Integer", "java.lang.Long", "java.lang.Short", "java.lang.Byte", "java.math.BigInteger"}
_FLOAT_CLASSES = {"java.lang.Double", "java.lang.Float", "java.math.BigDecimal"}
_STR_CLASSES = {"java.lang.String", "java.lang.Character"}
_SUFFIXES = (".gate.xml", ".xml", ".bdocjs", ".json")


@dataclass
class _Ann:
    start: int
    end: int
    type: str
    features: dict[str, Any]
    where: str  # "set 'ann1', annotation 7": for messages


@dataclass
class _Doc:
    doc_id: str
    text: str
    source: str
    sets: list[tuple[str | None, list[_Ann]]] = field(default_factory=list)  # None: the unnamed set
    ignored: list[str] = field(default_factory=list)
    features: dict[str, Any] = field(default_factory=dict)  # the document features


# -- GATE XML ---------------------------------------------------------------------------------------------------


def _java_value(value_el: ET.Element, loc: str) -> Any:
    """A ``Value`` element's content as Python, by its ``className``."""
    cls = value_el.get("className") or "java.lang.String"
    text = (value_el.text or "") + "".join(ET.tostring(c, encoding="unicode") for c in value_el)
    if cls in _STR_CLASSES:
        return text
    try:
        if cls in _INT_CLASSES:
            return int(text.strip())
        if cls in _FLOAT_CLASSES:
            return finite_number(float(text.strip()))  # NaN / Infinity: None, the one rule (io.parse)
    except ValueError:
        raise InputError(f"{loc}: the value {text[:40]!r} is not a number of class {cls}; check the file") from None
    if cls == "java.lang.Boolean":
        low = text.strip().lower()
        if low not in ("true", "false"):
            raise InputError(f"{loc}: the value {text[:40]!r} of class java.lang.Boolean is neither true nor false")
        return low == "true"
    return text  # ObjectWrapper (XStream XML), java.util.*, unknown classes: the text GATE wrote


def _xml_features(parent: ET.Element, loc: str) -> dict[str, Any]:
    """The ``Feature`` children of ``parent`` as a dict (a null value left out)."""
    feats: dict[str, Any] = {}
    for i, feat in enumerate(c for c in parent if local_name(c.tag) == "Feature"):
        name_el = value_el = None
        for c in feat:
            tag = local_name(c.tag)
            if tag == "Name":
                name_el = c
            elif tag == "Value":
                value_el = c
        if name_el is None or not (name_el.text or "").strip():
            raise InputError(f"{loc}, feature {i + 1}: a Feature needs a non-empty Name")
        name = name_el.text
        if value_el is not None:
            feats[name] = _java_value(value_el, f"{loc}, feature {name!r}")
    return feats


def _utf16_len(text: str) -> int:
    """The length of ``text`` in UTF-16 code units (a character outside the BMP counts 2)."""
    return len(text) if text.isascii() else len(text.encode("utf-16-le", "surrogatepass")) // 2


def _text_with_nodes(twn: ET.Element, loc: str) -> tuple[str, dict[str, int], tuple[int, str] | None]:
    """The text, each node id's code-point offset, and (count, first example) of ids that are not the node's
    UTF-16 place."""
    parts = [twn.text or ""]
    cp = len(parts[0])
    u16 = _utf16_len(parts[0])
    nodes: dict[str, int] = {}
    bad, first = 0, ""
    for node in twn:
        if local_name(node.tag) != "Node":
            raise InputError(f"{loc}: TextWithNodes holds a <{local_name(node.tag)}> element; only <Node id=.../> "
                             f"markers may be in the text")
        nid = (node.get("id") or "").strip()
        try:
            id_value = int(nid)
        except ValueError:
            raise InputError(f"{loc}: a Node at character {cp} has the id {node.get('id')!r}; node ids are "
                             f"integers") from None
        if nid in nodes and nodes[nid] != cp:
            raise InputError(f"{loc}: the Node id {nid} appears at characters {nodes[nid]} and {cp}; node ids "
                             f"must be unique")
        nodes[nid] = cp
        if id_value != u16:
            bad += 1
            if bad == 1:
                first = f"Node id {nid} is at UTF-16 offset {u16} (character {cp})"
        tail = node.tail or ""
        parts.append(tail)
        cp += len(tail)
        u16 += _utf16_len(tail)
    return "".join(parts), nodes, ((bad, first) if bad else None)


def _read_gate_xml(path: Path, doc_id: str) -> tuple[_Doc, tuple[int, str] | None]:
    src = str(path)
    root = parse_xml(path, source=src)
    if local_name(root.tag) != "GateDocument":
        raise InputError(f"{src}: the root element is <{local_name(root.tag)}>, not <GateDocument>; this is no "
                         f"GATE XML file")
    here = where(src, doc_id)
    twns = [c for c in root if local_name(c.tag) == "TextWithNodes"]
    if len(twns) != 1:
        raise InputError(f"{here}: a GateDocument needs exactly one TextWithNodes element, found {len(twns)}")
    text, nodes, mismatch = _text_with_nodes(twns[0], f"{here}, TextWithNodes")
    doc = _Doc(doc_id, text, src)
    for child in root:
        tag = local_name(child.tag)
        if tag == "GateDocumentFeatures":
            doc.features.update(_xml_features(child, f"{here}, GateDocumentFeatures"))
        elif tag == "AnnotationSet":
            name = child.get("Name") or None
            set_loc = f"set {name or DEFAULT_SET!r}" if name else "the default (unnamed) set"
            anns = []
            for ann in child:
                if local_name(ann.tag) != "Annotation":
                    raise InputError(f"{here}, {set_loc}: an AnnotationSet holds <{local_name(ann.tag)}>; only "
                                     f"<Annotation> elements may be in it")
                anns.append(_xml_annotation(ann, nodes, f"{here}, {set_loc}"))
            doc.sets.append((name, anns))
        elif tag != "TextWithNodes":
            doc.ignored.append(tag)
    return doc, mismatch


def _xml_annotation(ann: ET.Element, nodes: dict[str, int], loc: str) -> _Ann:
    aid = ann.get("Id")
    aloc = f"{loc}, annotation Id={aid}" if aid is not None else f"{loc}, an annotation without Id"
    missing = [a for a in ("Type", "StartNode", "EndNode") if not (ann.get(a) or "").strip()]
    if missing:
        raise InputError(f"{aloc}: the Annotation has no {', '.join(missing)} attribute")
    offsets = []
    for attr in ("StartNode", "EndNode"):
        nid = ann.get(attr, "").strip()
        if nid not in nodes:
            raise InputError(f"{aloc}: {attr}={nid!r} names no Node of TextWithNodes; check the file")
        offsets.append(nodes[nid])
    return _Ann(offsets[0], offsets[1], ann.get("Type", ""), _xml_features(ann, aloc), aloc)


# -- bdoc JSON --------------------------------------------------------------------------------------------------


def _read_bdoc(path: Path, doc_id: str) -> _Doc:
    src = str(path)
    data = json_file(path, fix="bdoc JSON is UTF-8")
    here = where(src, doc_id)
    if not isinstance(data, dict):
        raise InputError(f"{here}: a bdoc JSON document is an object with text and annotation_sets, got "
                         f"{type(data).__name__}")
    text = data.get("text")
    if not isinstance(text, str):
        raise InputError(f"{here}: the document has no text (a string under \"text\"), got {text!r:.40}")
    if not isinstance(data.get("features", {}) or {}, dict):
        raise InputError(f"{here}: \"features\" must be an object")
    offset_type = data.get("offset_type") or "p"
    if offset_type not in ("p", "j"):
        raise InputError(f"{here}: offset_type {offset_type!r} is neither \"p\" (Python code points) nor \"j\" "
                         f"(Java UTF-16 code units)")
    u16 = Utf16Offsets(text) if offset_type == "j" else None
    sets = data.get("annotation_sets")
    sets = {} if sets is None else sets
    if not isinstance(sets, dict):
        raise InputError(f"{here}: \"annotation_sets\" must be an object {{name: set}}")
    doc = _Doc(doc_id, text, src, features=dict(data.get("features") or {}))
    for key, aset in sets.items():
        set_loc = f"{here}, set {key!r}" if key else f"{here}, the default (unnamed) set"
        if not isinstance(aset, dict):
            raise InputError(f"{set_loc}: an annotation set must be an object with \"annotations\"")
        items = aset.get("annotations") or []
        if not isinstance(items, list):
            raise InputError(f"{set_loc}: \"annotations\" must be a list")
        anns = []
        for i, a in enumerate(items):
            aloc = f"{set_loc}, annotation {i + 1}"
            if not isinstance(a, dict):
                raise InputError(f"{aloc}: an annotation must be an object with type, start and end")
            if a.get("id") is not None:
                aloc = f"{set_loc}, annotation id={a['id']}"
            start, end, type_name, feats = a.get("start"), a.get("end"), a.get("type"), a.get("features") or {}
            if not (type(start) is int and type(end) is int):
                raise InputError(f"{aloc}: start and end must be integers, got {start!r} and {end!r}")
            if not isinstance(type_name, str) or not type_name:
                raise InputError(f"{aloc}: an annotation needs a type (a non-empty string), got {type_name!r}")
            if not isinstance(feats, dict):
                raise InputError(f"{aloc}: \"features\" must be an object")
            if u16 is not None:
                start, end = u16.span(start, end, aloc)
            anns.append(_Ann(start, end, type_name, feats, aloc))
        doc.sets.append((key or None, anns))
    return doc


# -- files and folders ------------------------------------------------------------------------------------------


def _doc_id(path: Path) -> str:
    name = path.name
    for s in _SUFFIXES:
        if name.lower().endswith(s) and len(name) > len(s):
            return name[:-len(s)]
    return path.stem


def _kind(path: Path) -> str | None:
    """``"xml"``, ``"bdoc"`` or ``None`` (no GATE document) for a file, by suffix and beginning."""
    suffix = path.suffix.lower()
    if suffix == ".bdocjs":
        return "bdoc"
    if suffix == ".xml":
        return "xml" if root_name(path) == "GateDocument" else None
    if suffix == ".json":
        from . import sniff_format

        if sniff_format(path) == "gate":
            return "bdoc"
        try:  # the beginning may be a long text: look for the key anywhere
            return "bdoc" if b'"annotation_sets"' in read_bytes(path) else None
        except InputError:
            return None
    return None


def _files(p: Path) -> tuple[list[tuple[Path, str]], int]:
    """The GATE documents of a file or folder, and the number of folder files skipped."""
    if p.is_dir():
        found, skipped = [], 0
        for f in sorted(p.rglob("*")):
            if not f.is_file() or any(part.startswith(".") for part in f.relative_to(p).parts):
                continue
            if f.suffix.lower() not in (".xml", ".bdocjs", ".json"):
                continue
            kind = _kind(f)
            if kind is None:
                skipped += 1
            else:
                found.append((f, kind))
        if not found:
            raise InputError(f"{p}: no GATE document in this folder (GATE XML .xml, bdoc JSON .bdocjs/.json)")
        return found, skipped
    if p.suffix.lower() == ".xml" or root_name(p) == "GateDocument":
        return [(p, "xml")], 0
    if p.suffix.lower() == ".json" and _kind(p) is None:
        raise InputError(f"{p}: a JSON file without annotation_sets is no bdoc JSON (GATE) document")
    return [(p, "bdoc")], 0


def read_gate(path: str | os.PathLike, *, selectors: Sequence[str] = ("ents",), features: Sequence[str] | None = None,
              label_feature: str | None = None, cats_feature: str | None = None, **options: Any) -> Corpus:
    """Read GATE XML, bdoc JSON, or a folder of them, into a :class:`Corpus` with one set per annotation set.

    See the module docstring for the formats and the choices made. ``label_feature`` takes labels from that
    feature instead of the annotation type; ``cats_feature`` names the feature that holds the documents'
    categories (of ``Document`` annotations per set, and of the document features for the set ``document``);
    ``options`` exist so that every reader is called alike.
    """
    if cats_feature is not None and (not isinstance(cats_feature, str) or not cats_feature):
        raise ConfigError(f"cats_feature must name a feature (a non-empty string), got {cats_feature!r}")
    p = Path(path)
    if not p.exists():
        raise InputError(f"{p}: no such file or folder")
    files, skipped = _files(p)
    docs: list[_Doc] = []
    for f, kind in files:
        doc_id = _doc_id(f)
        if kind == "bdoc":
            docs.append(_read_bdoc(f, doc_id))
            continue
        doc, mismatch = _read_gate_xml(f, doc_id)
        docs.append(doc)
        if mismatch:
            n, first = mismatch
            warnings.warn(f"{f}: {n} Node id(s) differ from their UTF-16 place in the text (offsets taken from the "
                          f"places, as gatenlp does; the text may differ from GATE's, e.g. CRs read as LF); first: "
                          f"{first}", CoveredTextWarning, stacklevel=2)
    builder = MultiSetBuilder(str(p), features=features, label_feature=label_feature)
    if skipped:
        builder.note(f"{skipped} file(s) of the folder are no GATE document and were skipped")
    named = {name for d in docs for name, _ in d.sets if name}
    default = DEFAULT_SET_RENAMED if DEFAULT_SET in named else DEFAULT_SET
    if default != DEFAULT_SET and any(name is None for d in docs for name, _ in d.sets):
        if DEFAULT_SET_RENAMED in named:
            raise InputError(f"{p}: sets named both {DEFAULT_SET!r} and {DEFAULT_SET_RENAMED!r} exist beside the "
                             f"unnamed (default) set; rename one")
        builder.note(f"a set is named {DEFAULT_SET!r}, so GATE's unnamed default set is read as "
                     f"spans:{DEFAULT_SET_RENAMED}")
    # GATE writes its default set always: empty everywhere, it is no annotator
    default_annotated = any(name is None and anns for d in docs for name, anns in d.sets)
    read_from: dict[tuple[str, str], str] = {}
    ignored: set[str] = set()
    markups_again = 0
    cats = _Cats(builder, cats_feature)
    for d in docs:
        ignored.update(d.ignored)
        di = builder.document(d.doc_id, d.text, d.source)
        in_this: set[str] = set()
        for name, anns in d.sets:
            set_name = name or default
            annotator = set_name != ORIGINAL_MARKUPS and (name is not None or default_annotated)
            if set_name in in_this:
                raise InputError(f"{where(d.source, d.doc_id)}: the annotation set {set_name!r} appears twice in "
                                 f"the document; set names must be unique")
            in_this.add(set_name)
            earlier = read_from.get((d.doc_id, set_name))
            if earlier is not None:
                if not annotator:
                    markups_again += 1
                    continue
                raise InputError(f"{where(d.source, d.doc_id)}: the set {set_name!r} of this document was read from "
                                 f"{earlier} already; put each annotator's annotations in a set of their own (or "
                                 f"read the files separately)")
            read_from[(d.doc_id, set_name)] = d.source
            builder.cover(set_name, di, annotator)
            for a in anns:
                if not cats.annotation(set_name, di, a, annotator):
                    _add(builder, set_name, di, a, annotator)
        cats.document(d, di, in_this)
    if ignored:
        builder.note(f"elements ignored (not annotations this reader compares): {', '.join(sorted(ignored))}")
    if markups_again:
        builder.note(f"{markups_again} further copy(ies) of {ORIGINAL_MARKUPS!r} of a document already read were "
                     f"skipped")
    cats.finish(str(p))
    return builder.build(selectors)


class _Cats:
    """The documents' categories by ``cats_feature`` (module docstring), and what is counted without it."""

    def __init__(self, builder: MultiSetBuilder, feature: str | None) -> None:
        self.b, self.feature = builder, feature
        self.read = 0
        self.teamware = 0                          # Document annotations (without the option: read as spans)
        self.doc_features: dict[str, int] = {}     # document features other than GATE's own, by name
        self.annotation_features: set[str] = set()  # the features of Document annotations

    def annotation(self, set_name: str, doc: int, a: _Ann, annotator: bool) -> bool:
        """Read a ``Document`` annotation carrying the feature as ``set_name``'s categories; whether it was."""
        if a.type != TEAMWARE_TYPE:
            return False
        self.teamware += 1
        self.annotation_features.update(a.features)
        if self.feature is None or self.feature not in a.features:
            return False
        for label in _labels(a.features[self.feature]):
            self.b.categorise(set_name, doc, label, annotator=annotator, loc=a.where)
        self.read += 1
        return True

    def document(self, d: _Doc, doc: int, set_names: set[str]) -> None:
        """The document feature, as the categories of the set ``document``."""
        for name in d.features:
            if not name.startswith("gate.") and name not in _GATE_OWN_FEATURES:
                self.doc_features[name] = self.doc_features.get(name, 0) + 1
        if self.feature is None or self.feature not in d.features:
            return
        if DOCUMENT_SET in set_names:
            raise InputError(f"{where(d.source, d.doc_id)}: the document has an annotation set named "
                             f"{DOCUMENT_SET!r}, the set the document feature {self.feature!r} is read into; rename "
                             f"the annotation set")
        self.b.cover(DOCUMENT_SET, doc, annotator=False)
        for label in _labels(d.features[self.feature]):
            self.b.categorise(DOCUMENT_SET, doc, label, annotator=False, loc=where(d.source, d.doc_id))
        self.read += 1

    def finish(self, source: str) -> None:
        """Refuse a feature that nothing carries; without the option, note what holds categories maybe."""
        if self.feature is not None:
            if not self.read:
                found = ", ".join(sorted(self.doc_features)) or "none"
                on_annotations = ", ".join(sorted(self.annotation_features)) or "none"
                raise ConfigError(f"{source}: cats_feature {self.feature!r}: no document feature and no "
                                  f"{TEAMWARE_TYPE!r} annotation carries it; the document features are: {found}; "
                                  f"the features of {TEAMWARE_TYPE!r} annotations: {on_annotations}")
            return
        if self.teamware or self.doc_features:
            names = sorted(self.doc_features)
            shown = ", ".join(names[:5]) + (", ..." if len(names) > 5 else "")
            parts = [f"{self.teamware} {TEAMWARE_TYPE!r} annotation(s) read as spans"] if self.teamware else []
            if names:
                parts.append(f"the document feature(s) {shown} left out")
            self.b.note(f"{' and '.join(parts)}; --reader-option cats_feature=NAME (Python: cats_feature=NAME) "
                        f"reads the feature NAME as the documents' categories")


def _labels(value: Any) -> list[str]:
    """The categories of a feature value: a string, or each item of a list; other values as their text; none
    for ``None`` or ``""``."""
    items = value if isinstance(value, list) else [value]
    return [v if isinstance(v, str) else str(v) for v in items if v is not None and v != ""]


def _add(builder: MultiSetBuilder, set_name: str, doc: int, a: _Ann, annotator: bool) -> None:
    n = len(builder.texts[doc])
    if not 0 <= a.start <= a.end <= n:
        raise InputError(f"{a.where}, span [{a.start}, {a.end}): annotation out of range for a text of {n} "
                         f"characters (or start > end); check the file")
    builder.add(set_name, doc, a.start, a.end, a.type, a.features, annotator=annotator)


__all__ = ["read_gate"]
