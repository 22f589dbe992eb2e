"""NIF 2.0 / 2.1 (NLP Interchange Format) in RDF Turtle, parsed with rdflib.

Format (NIF core ontology, repo NLP2RDF/ontologies ``nif-core/nif-core.ttl``):
a ``nif:Context`` holds the document text in ``nif:isString``; every other
``nif:String`` points to its context with ``nif:referenceContext`` and
gives its place with ``nif:beginIndex`` / ``nif:endIndex`` (end exclusive)
and its text with ``nif:anchorOf``. Annotations hang on a string as
``itsrdf:taIdentRef`` (an entity link: KORE50's DBpedia resources),
``itsrdf:taClassRef`` (a class), ``itsrdf:taConfidence`` and
``itsrdf:taAnnotatorsRef`` (who annotated), or, in NIF 2.1, on
``nif:annotationUnit`` nodes of the string, one per annotation.

Choices:

- **Documents**: one per context; the id is the context's URI, the text its
  ``nif:isString``. A file or a folder of ``.ttl`` files (documents merged
  by id: the same context in two files must hold the same text).
- **Annotations**: a string (or annotation unit) that carries
  ``taIdentRef`` or ``taClassRef``, or is typed ``nif:Phrase`` or
  ``nif:EntityOccurrence``. Strings that are only structure
  (``nif:Sentence``, ``nif:Word``, ``nif:Paragraph`` with no such property)
  are left out, and a note says how many.
- **Label**: the local name of ``taClassRef`` (``<http://dbpedia.org/ontology/Person>``
  -> ``Person``); classes of the rdf, rdfs and owl vocabularies
  (``rdfs:Class``, ``owl:Thing``) are no label. Several classes: the first
  by sorted name, all of them in feature ``taClassRef`` (joined by a space)
  and a note. Without a class the label is ``Entity``: KORE50's mentions are
  entity links, so an entity-linking comparison names
  ``label_feature="taIdentRef"``, whose value is the full resource URI (the
  link's identity). Features: ``taIdentRef``, ``taClassRef``,
  ``taConfidence`` (a float), ``taAnnotatorsRef``.
- **Offsets** count code points, as the ontology's SPARQL ``STRLEN`` /
  ``SUBSTR`` do. Java writers (DKPro Core, INCEpTION) count UTF-16 code units;
  with ``unit="auto"`` (the default) a context whose ``nif:endIndex`` equals
  its text's UTF-16 length but not its code-point length is read as UTF-16
  (the two agree on text without emoji). ``unit="codepoints"`` or
  ``"utf16"`` force one. ``anchorOf`` is checked against the text: one
  :class:`CoveredTextWarning` per file with the count (KORE50 has an
  escaped-quote bug that shifts later offsets by 2; the offsets are kept).
- **Sets**: one set ``default``, which covers every context; where strings
  carry ``itsrdf:taAnnotatorsRef``, each annotator (the URI's local name, or
  the literal) is a set that covers the contexts it annotated, and
  annotations without one stay in ``default`` (which then covers only the
  contexts it annotated). An annotation with several ``taAnnotatorsRef``
  values (two annotators who agreed on one annotation resource) is in each
  annotator's set, feature ``taAnnotatorsRef`` naming them all; annotators
  whose names share a local name are one set.

rdflib is imported when a file is read; without it, a :class:`ConfigError`
names ``pip install "spacy-anno-eval[nif]"``. A Turtle syntax error is an
:class:`InputError` with rdflib's message (it holds the line).
"""

from __future__ import annotations

import logging
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..annotations.table import Corpus
from ..errors import ConfigError, InputError, where
from .multiset import MultiSetBuilder, export_files
from .offsets import Utf16Offsets, utf16_length
from .parse import finite_number

NIF = "http://persistence.uni-leipzig.org/nlp2rdf/ontologies/nif-core#"
ITSRDF = "http://www.w3.org/2005/11/its/rdf#"
RDF_TYPE = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"
#: vocabularies whose classes are no annotation label (rdfs:Class, owl:Thing)
_META = ("http://www.w3.org/1999/02/22-rdf-syntax-ns#", "http://www.w3.org/2000/01/rdf-schema#",
         "http://www.w3.org/2002/07/owl#")
DEFAULT_SET = "default"
#: the label of an annotation without a class
ENTITY = "Entity"
_UNITS = ("auto", "codepoints", "utf16")
_SUFFIXES = (".ttl", ".nif", ".nt", ".n3")
_ANNOTATED_TYPES = (NIF + "Phrase", NIF + "EntityOccurrence")


def local_name(uri: str) -> str:
    """The part of ``uri`` after its last ``#`` or ``/`` (the whole ``uri`` when that is empty)."""
    tail = uri.rsplit("#", 1)[-1].rsplit("/", 1)[-1]
    return tail or uri


def _rdflib() -> Any:
    try:
        import rdflib
    except ImportError:
        raise ConfigError('reading NIF needs rdflib: pip install "spacy-anno-eval[nif]" (or pip install rdflib)') \
            from None
    return rdflib


def _graph(path: Path, rdf_format: str | None) -> Any:
    rdflib = _rdflib()
    fmt = rdf_format or {".nt": "nt", ".n3": "n3"}.get(path.suffix.lower(), "turtle")
    graph = rdflib.Graph()
    from .parse import MAX_DEPTH, decode, read_bytes

    data: str | bytes = read_bytes(path)
    if "xml" not in fmt:  # Turtle, N-Triples, N3 are UTF-8: a file that is not names its line and byte
        data = decode(data, path, fix=f"{fmt} files are UTF-8 (RDF 1.1): save it as UTF-8")
    logger = logging.getLogger("rdflib")  # rdflib logs each odd URI of a broken file; the error says enough
    level = logger.level
    logger.setLevel(logging.ERROR)
    try:
        graph.parse(data=data, format=fmt)
    except RecursionError:  # rdflib's parser recurses into collections and blank nodes
        raise InputError(f"{path}: RDF collections or blank nodes nested too deep to parse (no annotation file nests "
                         f"beyond {MAX_DEPTH} levels; check the file)") from None
    except Exception as exc:  # rdflib raises many kinds (BadSyntax, ParserError, ValueError, ...) for bad input
        message = " ".join(str(exc).split())[:300]
        raise InputError(f"{path}: not valid RDF ({fmt}): {type(exc).__name__}: {message}") from None
    finally:
        logger.setLevel(level)
    return graph


def _one(graph: Any, subject: Any, prop: str, what: str, loc: str, required: bool = True) -> Any:
    """The one object of ``subject prop``; ``None`` when absent and not ``required``."""
    from rdflib import URIRef

    values = list(graph.objects(subject, URIRef(prop)))
    if not values:
        if required:
            raise InputError(f"{loc}: no {what}")
        return None
    if len(values) > 1 and len({str(v) for v in values}) > 1:
        raise InputError(f"{loc}: {len(values)} different {what} values ({', '.join(sorted(map(str, values)))[:120]})")
    return values[0]


def _index(graph: Any, subject: Any, prop: str, loc: str) -> int:
    value = _one(graph, subject, NIF + prop, f"nif:{prop}", loc)
    text = str(value).strip()
    if not text.isdigit():
        raise InputError(f"{loc}: nif:{prop} must be a non-negative integer, got {str(value)!r}")
    return int(text)


def _unit_of(graph: Any, context: Any, text: str, unit: str, loc: str) -> str:
    if unit != "auto":
        return unit
    end = _one(graph, context, NIF + "endIndex", "nif:endIndex", loc, required=False)
    if end is not None and str(end).strip().isdigit():
        n = int(str(end).strip())
        if n != len(text) and n == utf16_length(text):
            return "utf16"
    return "codepoints"


def read_nif(path: str | os.PathLike, *, selectors: Sequence[str] = ("ents",), features: Sequence[str] | None = None,
             label_feature: str | None = None, unit: str = "auto", rdf_format: str | None = None,
             **options: Any) -> Corpus:
    """Read a NIF Turtle file (or a folder of them) into a :class:`Corpus` (see the module docstring).

    ``unit``: how ``beginIndex``/``endIndex`` count (``auto``, ``codepoints``, ``utf16``); ``rdf_format``: the
    rdflib parser (default: ``turtle``; ``nt`` and ``n3`` by suffix).
    """
    if unit not in _UNITS:
        raise ConfigError(f"unit must be one of {', '.join(_UNITS)}, got {unit!r}")
    p = Path(path)
    builder = MultiSetBuilder(str(p), features=features, label_feature=label_feature, covered_field="nif:anchorOf")
    counts = {"structure": 0, "classes": 0, "utf16": 0}
    for f in export_files(p, _SUFFIXES):
        _read_file(f, _graph(f, rdf_format), builder, unit, counts)
    if not builder.set_names():
        builder.declare_set(DEFAULT_SET)
    if counts["structure"]:
        builder.note(f"{counts['structure']} string(s) without an entity annotation (sentences, words: no "
                     f"itsrdf:taIdentRef or taClassRef) left out")
    if counts["classes"]:
        builder.note(f"{counts['classes']} annotation(s) have several itsrdf:taClassRef classes; the label is the "
                     f"first by name, all are in feature 'taClassRef'")
    if counts["utf16"]:
        builder.note(f"{counts['utf16']} context(s) count offsets in UTF-16 code units (their nif:endIndex says "
                     f"so; Java writers do), converted to code points")
    return builder.build(selectors)


def _read_file(f: Path, graph: Any, builder: MultiSetBuilder, unit: str, counts: dict[str, int]) -> None:
    from rdflib import URIRef

    source = str(f)
    rdf_type = URIRef(RDF_TYPE)
    contexts = set(graph.subjects(rdf_type, URIRef(NIF + "Context"))) | set(graph.subjects(URIRef(NIF + "isString")))
    docs: dict[Any, tuple[int, str, Utf16Offsets | None]] = {}
    for ctx in sorted(contexts, key=str):
        loc = f"{source}, context <{ctx}>"
        text = _one(graph, ctx, NIF + "isString", "nif:isString (the document text)", loc)
        text = str(text)
        d = builder.document(str(ctx), text, source)
        u = _unit_of(graph, ctx, text, unit, loc)
        counts["utf16"] += u == "utf16"
        docs[ctx] = (d, text, Utf16Offsets(text) if u == "utf16" else None)
    pending: list[tuple[str, int, int, int, str, dict[str, Any], str | None]] = []
    for string in sorted(set(graph.subjects(URIRef(NIF + "referenceContext"))), key=str):
        ctx = _one(graph, string, NIF + "referenceContext", "nif:referenceContext", f"{source}, string <{string}>")
        if ctx not in docs:
            raise InputError(f"{source}, string <{string}>: its nif:referenceContext <{ctx}> is no context of this "
                             f"file (no nif:isString)")
        d, text, u16 = docs[ctx]
        loc = f"{where(source, str(ctx))}, string <{string}>"
        units = [string] if _annotated(graph, string) else []
        units += [n for n in graph.objects(string, URIRef(NIF + "annotationUnit")) if _annotated(graph, n)]
        if not units:
            counts["structure"] += 1
            continue
        begin, end = _index(graph, string, "beginIndex", loc), _index(graph, string, "endIndex", loc)
        if u16 is not None:
            begin, end = u16.span(begin, end, source, str(ctx))
        if not begin <= end <= len(text):
            raise InputError(f"{loc}, span [{begin}, {end}): beyond the context's text of {len(text)} characters "
                             f"(or begin > end); check the file")
        anchor = _one(graph, string, NIF + "anchorOf", "nif:anchorOf", loc, required=False)
        for node in units:
            label, feats, annotators = _annotation(graph, node, string, counts)
            for annotator in annotators or [DEFAULT_SET]:
                pending.append((annotator, d, begin, end, label, feats, None if anchor is None else str(anchor)))
    named = any(a != DEFAULT_SET for a, *_ in pending)
    if not named:
        for d, _, _ in docs.values():
            builder.cover(DEFAULT_SET, d)
    for set_name, d, begin, end, label, feats, anchor in pending:
        builder.add(set_name, d, begin, end, label, feats, recorded=anchor)


def _annotated(graph: Any, node: Any) -> bool:
    from rdflib import URIRef

    if any(True for _ in graph.objects(node, URIRef(ITSRDF + "taIdentRef"))) or \
            any(True for _ in graph.objects(node, URIRef(ITSRDF + "taClassRef"))):
        return True
    types = {str(t) for t in graph.objects(node, URIRef(RDF_TYPE))}
    return any(t in types for t in _ANNOTATED_TYPES)


def _annotation(graph: Any, node: Any, string: Any, counts: dict[str, int]) -> tuple[str, dict[str, Any], list[str]]:
    """(label, features, annotators) of an annotated string or annotation unit: the set name of each of its
    ``taAnnotatorsRef`` values (local names, in the order of the sorted values, each once; none: empty)."""
    from rdflib import URIRef

    def values(prop: str) -> list[str]:
        found = {str(v) for v in graph.objects(node, URIRef(ITSRDF + prop))}
        if node != string and not found:  # a unit inherits what the string says
            found = {str(v) for v in graph.objects(string, URIRef(ITSRDF + prop))}
        return sorted(found)

    feats: dict[str, Any] = {}
    classes = sorted({local_name(c) for c in values("taClassRef") if not c.startswith(_META)})
    if classes:
        feats["taClassRef"] = " ".join(classes)
        counts["classes"] += len(classes) > 1
    ident = values("taIdentRef")
    if ident:
        feats["taIdentRef"] = " ".join(ident)
    confidence = values("taConfidence")
    if confidence:
        try:
            feats["taConfidence"] = finite_number(float(confidence[0]))  # "NaN": None (io.parse's one rule)
        except ValueError:
            feats["taConfidence"] = confidence[0]
    annotators = values("taAnnotatorsRef")
    if annotators:
        feats["taAnnotatorsRef"] = " ".join(annotators)
    return (classes[0] if classes else ENTITY), feats, list(dict.fromkeys(local_name(a) for a in annotators))


__all__ = ["DEFAULT_SET", "ENTITY", "local_name", "read_nif"]
