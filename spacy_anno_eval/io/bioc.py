"""BioC XML and BioC JSON collections, as the bioc package reads and writes them.

Format (repo bionlplab/bioc: ``schema/bioc_v1.dtd``, ``schema/bioc_schema.json``;
the commented DTD in bionlplab/jbioc): a ``collection`` holds ``document`` s;
a document has an ``id``, ``infon`` s, ``passage`` s, and annotations and
relations of its own; a passage has an ``offset``, optional ``text``,
``sentence`` s (each with ``offset`` and ``text``), annotations and
relations. An annotation has ``infon`` s, one or more ``location`` s
(``offset``, ``length``) and its covered ``text``. BioC JSON (the bioc
package's ``biocjson``) is the same tree: ``{"documents": [{"id", "infons",
"passages": [{"offset", "text", "sentences", "annotations"}], ...}]}``.

Choices:

- **Document text.** Offsets are document-global (a passage's or sentence's
  offset counts from the start of the document), so the text is built by
  placing each passage's ``text`` at its ``offset`` (a passage without text:
  its sentences' texts at theirs) and filling the gaps with spaces. Pieces
  that overlap with different characters are an :class:`InputError`.
- **Offsets** are code points, as the bioc package reads them and as
  PubTator and the bioc test files ("测试", counted as 2) write them; the DTD's
  "8 bit code units" was never followed in practice (``SOURCE_LICENSE.md``).
  An annotation beyond the text is a located :class:`InputError`; one lying
  outside the passage or sentence that holds it is kept and counted in a note
  (INCEpTION reads such offsets as sentence-relative; the bioc package, as
  here, as document-global).
- **Annotations** of passages, sentences and the document itself are read;
  relations are not (spans only). Several ``location`` s make a discontinuous
  annotation: it becomes one span from the first start to the last end, with
  one :class:`DiscontinuousSpanWarning` per file, as brat's discontinuous
  spans are read. Its ``<text>`` is accepted when it equals the whole stretch
  or the fragments joined by a space or by nothing (writers differ); any other
  text counts as a mismatch.
- **Covered text.** ``<text>`` is checked against the document text; a
  mismatch is one :class:`CoveredTextWarning` per file (offsets kept).
- **Label** = the ``type`` infon (``label_feature`` names another infon);
  an annotation without a ``type`` infon gets the label ``annotation`` and a
  note says how many. **Features** = the other infons (strings, as BioC
  stores them).
- **Annotators.** BioC has no multi-annotator convention; where annotations
  carry an ``annotator`` infon (NegBio: ``MetaMap``) each annotator is a set
  named by it, which covers the documents in which it has an annotation.
  In a file where no annotation names an annotator, the one set ``default``
  covers every document of the file (the file is its annotation record, so a
  document without annotations is annotated as empty); in a file that names
  annotators, an annotation without one goes to ``default`` too, and a
  document without annotations is covered by no set (nobody is known to
  have annotated it).
- **Files.** One ``.xml`` or ``.json`` file, or a folder of them (documents
  merged by id; a repeated id must carry the same text). XML is parsed by
  :func:`~spacy_anno_eval.io.xml.parse_xml` (a ``DOCTYPE`` naming ``BioC.dtd``
  is fine, entity declarations are refused).

Errors locate the file, document and element: ``document 'd1', passage 2,
annotation 'A3'``.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..annotations.table import Corpus
from ..errors import DiscontinuousSpanWarning, InputError, where
from .multiset import MultiSetBuilder, export_files

#: the set of annotations that name no annotator
DEFAULT_SET = "default"
#: the label of an annotation without a ``type`` infon
UNTYPED = "annotation"
_SUFFIXES = (".xml", ".json")


class _Piece:
    """A passage's or sentence's text at its document offset."""

    __slots__ = ("offset", "text", "where")

    def __init__(self, offset: int, text: str, where_: str) -> None:
        self.offset, self.text, self.where = offset, text, where_


class _Ann:
    """One annotation as read: its locations, infons, recorded text, and the stretch that holds it."""

    __slots__ = ("ident", "infons", "locations", "text", "where", "within")

    def __init__(self, ident: str | None, infons: dict[str, str], locations: list[tuple[int, int]],
                 text: str | None, where_: str, within: tuple[int, int] | None) -> None:
        self.ident, self.infons, self.locations, self.text = ident, infons, locations, text
        self.where, self.within = where_, within


def _place_passage(doc: _Doc, offset: int, text: str, where_: str,
                   sentences: list[_Piece]) -> tuple[int, int] | None:
    """Add a passage's text to ``doc``, or its sentences' when it has none (the bioc package writes ``"text": ""``
    for a passage whose text is in its sentences); return the stretch its own annotations must lie in
    (``None``: the sentences')."""
    if text:
        doc.pieces.append(_Piece(offset, text, where_))
        return offset, offset + len(text)
    doc.pieces.extend(sentences)
    return None


class _Doc:
    __slots__ = ("ident", "pieces", "annotations")

    def __init__(self, ident: str) -> None:
        self.ident = ident
        self.pieces: list[_Piece] = []
        self.annotations: list[_Ann] = []


# -- XML -------------------------------------------------------------------------------------------------------


def _xml_docs(path: Path) -> list[_Doc]:
    from .xml import local_name, parse_xml

    source = str(path)
    try:
        root = parse_xml(path, source=source)
    except LookupError as exc:  # an XML declaration naming an unknown encoding
        raise InputError(f"{source}: cannot read the XML ({exc})") from None
    if local_name(root.tag) not in ("collection", "document"):
        raise InputError(f"{source}: the root element is <{local_name(root.tag)}>; a BioC XML file holds a "
                         f"<collection> of <document>s")
    elements = [root] if local_name(root.tag) == "document" else \
        [e for e in root if local_name(e.tag) == "document"]
    return [_xml_doc(e, i, source) for i, e in enumerate(elements, 1)]


def _children(element: Any, name: str) -> list[Any]:
    from .xml import local_name

    return [e for e in element if local_name(e.tag) == name]


def _child_text(element: Any, name: str) -> str | None:
    found = _children(element, name)
    return None if not found else (found[0].text or "")


def _xml_infons(element: Any) -> dict[str, str]:
    return {e.get("key", ""): e.text or "" for e in _children(element, "infon")}


def _int(value: Any, what: str, loc: str) -> int:
    if isinstance(value, bool):
        value = None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        return int(value.strip())
    raise InputError(f"{loc}: {what} must be an integer, got {value!r}")


def _xml_doc(element: Any, position: int, source: str) -> _Doc:
    ident = _child_text(element, "id")
    if ident is None or not ident.strip():
        raise InputError(f"{source}, document {position}: no <id>; every BioC document needs one")
    doc = _Doc(ident.strip())
    base = where(source, doc.ident)
    for p, passage in enumerate(_children(element, "passage"), 1):
        ploc = f"{base}, passage {p}"
        offset = _int(_child_text(passage, "offset"), "the passage <offset>", ploc)
        text = _child_text(passage, "text")
        sentences = []
        for s, sentence in enumerate(_children(passage, "sentence"), 1):
            sloc = f"{ploc}, sentence {s}"
            soffset = _int(_child_text(sentence, "offset"), "the sentence <offset>", sloc)
            stext = _child_text(sentence, "text") or ""
            sentences.append(_Piece(soffset, stext, sloc))
            _xml_annotations(sentence, doc, sloc, (soffset, soffset + len(stext)))
        within = _place_passage(doc, offset, text, ploc, sentences)
        _xml_annotations(passage, doc, ploc, within)
    _xml_annotations(element, doc, base, None)
    return doc


def _xml_annotations(element: Any, doc: _Doc, loc: str, within: tuple[int, int] | None) -> None:
    for a, ann in enumerate(_children(element, "annotation"), 1):
        ident = ann.get("id")
        aloc = f"{loc}, annotation {ident!r}" if ident else f"{loc}, annotation {a}"
        locations = [(_int(x.get("offset"), "a location's offset", aloc),
                      _int(x.get("length"), "a location's length", aloc)) for x in _children(ann, "location")]
        doc.annotations.append(_Ann(ident, _xml_infons(ann), locations, _child_text(ann, "text"), aloc, within))


# -- JSON ------------------------------------------------------------------------------------------------------


def _json_docs(path: Path) -> list[_Doc]:
    from .parse import json_file

    source = str(path)
    value = json_file(path, fix="BioC JSON is UTF-8")
    if isinstance(value, dict) and "documents" in value:
        items = value["documents"]
    elif isinstance(value, dict) and "passages" in value:
        items = [value]
    else:
        keys = f" with keys {', '.join(map(str, value))[:80]}" if isinstance(value, dict) else ""
        raise InputError(f"{source}: expected a BioC JSON collection ({{\"documents\": [...]}}), got "
                         f"{type(value).__name__}{keys}")
    if not isinstance(items, list):
        raise InputError(f"{source}: \"documents\" must be a list, got {type(items).__name__}")
    return [_json_doc(d, i, source) for i, d in enumerate(items)]


def _obj(value: Any, what: str, loc: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise InputError(f"{loc}: {what} must be a JSON object, got {type(value).__name__}")
    return value


def _list(value: Any, what: str, loc: str) -> list[Any]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise InputError(f"{loc}: {what} must be a list, got {type(value).__name__}")
    return value


def _str(value: Any, what: str, loc: str, optional: bool = True) -> str | None:
    if value is None and optional:
        return None
    if not isinstance(value, str):
        raise InputError(f"{loc}: {what} must be a string, got {type(value).__name__}")
    return value


def _json_infons(value: Any, loc: str) -> dict[str, str]:
    infons = _obj(value if value is not None else {}, "\"infons\"", loc)
    # a null infon (a JSON null; NaN and Infinity read as null) is absent, not the string "None"
    return {str(k): v if isinstance(v, str) else str(v) for k, v in infons.items() if v is not None}


def _json_doc(value: Any, i: int, source: str) -> _Doc:
    loc0 = f"{source}, documents[{i}]"
    d = _obj(value, "a document", loc0)
    ident = d.get("id")
    if not isinstance(ident, (str, int)) or isinstance(ident, bool) or str(ident).strip() == "":
        raise InputError(f"{loc0}: no \"id\" (got {ident!r}); every BioC document needs one")
    doc = _Doc(str(ident).strip())
    base = where(source, doc.ident)
    for p, pv in enumerate(_list(d.get("passages"), "\"passages\"", base), 1):
        ploc = f"{base}, passage {p}"
        passage = _obj(pv, "a passage", ploc)
        offset = _int(passage.get("offset"), "the passage \"offset\"", ploc)
        text = _str(passage.get("text"), "the passage \"text\"", ploc)
        sentences = []
        for s, sv in enumerate(_list(passage.get("sentences"), "\"sentences\"", ploc), 1):
            sloc = f"{ploc}, sentence {s}"
            sentence = _obj(sv, "a sentence", sloc)
            soffset = _int(sentence.get("offset"), "the sentence \"offset\"", sloc)
            stext = _str(sentence.get("text"), "the sentence \"text\"", sloc) or ""
            sentences.append(_Piece(soffset, stext, sloc))
            _json_annotations(sentence, doc, sloc, (soffset, soffset + len(stext)))
        within = _place_passage(doc, offset, text, ploc, sentences)
        _json_annotations(passage, doc, ploc, within)
    _json_annotations(d, doc, base, None)
    return doc


def _json_annotations(container: dict[str, Any], doc: _Doc, loc: str, within: tuple[int, int] | None) -> None:
    for a, av in enumerate(_list(container.get("annotations"), "\"annotations\"", loc), 1):
        ann = _obj(av, "an annotation", f"{loc}, annotation {a}")
        ident = ann.get("id")
        aloc = f"{loc}, annotation {str(ident)!r}" if ident is not None else f"{loc}, annotation {a}"
        locations = []
        for x in _list(ann.get("locations"), "\"locations\"", aloc):
            x = _obj(x, "a location", aloc)
            locations.append((_int(x.get("offset"), "a location's \"offset\"", aloc),
                              _int(x.get("length"), "a location's \"length\"", aloc)))
        doc.annotations.append(_Ann(None if ident is None else str(ident), _json_infons(ann.get("infons"), aloc),
                                    locations, _str(ann.get("text"), "the annotation \"text\"", aloc), aloc, within))


# -- the corpus ------------------------------------------------------------------------------------------------


def _document_text(doc: _Doc) -> str:
    """The pieces placed at their offsets, gaps filled with spaces."""
    chars: list[str] = []
    for piece in sorted(doc.pieces, key=lambda p: p.offset):
        if piece.offset < 0:
            raise InputError(f"{piece.where}: a negative offset ({piece.offset})")
        if piece.offset > len(chars):
            chars.extend(" " * (piece.offset - len(chars)))
        overlap = chars[piece.offset:piece.offset + len(piece.text)]
        if "".join(overlap) != piece.text[:len(overlap)] and any(c != " " for c in overlap):
            raise InputError(f"{piece.where}: the text at offset {piece.offset} overlaps the text of an earlier "
                             f"passage or sentence with other characters; BioC offsets must place the pieces of a "
                             f"document's text without conflict")
        chars[piece.offset:piece.offset + len(overlap)] = piece.text[:len(overlap)]
        chars.extend(piece.text[len(overlap):])
    return "".join(chars)


def _is_json(path: Path) -> bool:
    if path.suffix.lower() == ".json":
        return True
    if path.suffix.lower() == ".xml":
        return False
    from .parse import head_bytes

    head = head_bytes(path, 64).lstrip(b"\xef\xbb\xbf \t\r\n")  # a folder, an unreadable file: named
    return head[:1] in (b"{", b"[")


def read_bioc(path: str | os.PathLike, *, selectors: Sequence[str] = ("ents",), features: Sequence[str] | None = None,
              label_feature: str | None = None, **options: Any) -> Corpus:
    """Read a BioC XML or JSON file (or a folder of them) into a :class:`Corpus` (see the module docstring).

    One set per ``annotator`` infon, else ``default`` (``spans:default``, also ``ents`` when it is the only
    set); ``label_feature`` names the infon that gives the label (default: ``type``).
    """
    p = Path(path)
    builder = MultiSetBuilder(str(p), features=features, label_feature=label_feature, covered_field="<text>")
    discontinuous = untyped = outside = 0
    for f in export_files(p, _SUFFIXES):
        source = str(f)
        docs = _json_docs(f) if _is_json(f) else _xml_docs(f)
        named = any(a.infons.get("annotator") for doc in docs for a in doc.annotations)
        for doc in docs:
            text = _document_text(doc)
            d = builder.document(doc.ident, text, source)
            if not named:
                builder.cover(DEFAULT_SET, d)
            for ann in doc.annotations:
                start, end, broken, recorded = _span(ann, text)
                discontinuous += broken
                if ann.within is not None and not (ann.within[0] <= start and end <= ann.within[1]):
                    outside += 1
                feats = {k: v for k, v in ann.infons.items() if k != "type"}
                label = ann.infons.get("type") or None
                if label is None and (builder.label_feature is None or not feats.get(builder.label_feature)):
                    untyped += 1
                builder.add(ann.infons.get("annotator") or DEFAULT_SET, d, start, end, label or UNTYPED, feats,
                            recorded=recorded)
    if not builder.set_names():
        builder.declare_set(DEFAULT_SET)
    if discontinuous:
        warnings.warn(f"{p}: {discontinuous} discontinuous annotation(s) (several locations) read as one span "
                      f"from the first start to the last end", DiscontinuousSpanWarning, stacklevel=2)
    if untyped:
        builder.note(f"{untyped} annotation(s) have no 'type' infon and are labelled {UNTYPED!r} (name the infon "
                     f"that holds the label with label_feature)")
    if outside:
        builder.note(f"{outside} annotation(s) lie outside the passage or sentence that holds them (BioC offsets "
                     f"are document-global; a writer that used sentence-relative offsets would cause this)")
    return builder.build(selectors)


def _span(ann: _Ann, text: str) -> tuple[int, int, bool, str | None]:
    """(start, end, discontinuous, the recorded text to check) of an annotation."""
    if not ann.locations:
        raise InputError(f"{ann.where}: no location; a BioC annotation needs <location offset=... length=...>")
    fragments = []
    for offset, length in ann.locations:
        if offset < 0 or length < 0 or offset + length > len(text):
            raise InputError(f"{ann.where}, span [{offset}, {offset + length}): the location is outside the "
                             f"document text of {len(text)} characters (code points, document-global offsets)")
        fragments.append((offset, offset + length))
    start = min(s for s, _ in fragments)
    end = max(e for _, e in fragments)
    recorded = ann.text
    if len(fragments) > 1 and recorded is not None:
        pieces = [text[s:e] for s, e in sorted(fragments)]
        if recorded in (text[start:end], " ".join(pieces), "".join(pieces)):
            recorded = None
    return start, end, len(fragments) > 1, recorded


__all__ = ["DEFAULT_SET", "read_bioc"]
