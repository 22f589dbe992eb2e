"""Samples of the span formats, one function per reader (:meth:`spacy_anno_eval.io.registry.Reader.sample`).

Each function writes one small file of its format from a
:class:`~spacy_anno_eval.io.registry.Sample`: a document ``case.doc_id`` whose
text is ``case.text``, with one annotation labelled ``case.label`` over
``case.span``; ``case.number`` in every numeric field the reader reads where
the format has one (else ``None`` is returned for a case with a number);
nested ``case.depth`` levels where the format nests (else ``None``); or no
document at all (``case.empty``). Text that UTF-8 cannot encode (a lone
surrogate) is written as a JSON escape where the format is JSON, else as the
bytes ``surrogatepass`` gives, which no UTF-8 decoder accepts: what a damaged
file holds. The contract suite (``tests/test_reader_contract.py``) reads
every sample through its reader.
"""

from __future__ import annotations

import json
import math
from typing import Any

from .registry import Files, Sample


def utf8(text: str) -> bytes:
    """``text`` as UTF-8; a lone surrogate as the bytes ``surrogatepass`` gives (invalid UTF-8, as a damaged file
    holds)."""
    return text.encode("utf-8", "surrogatepass")


_NESTED = "\x00nested-{}\x00"


def json_bytes(value: Any) -> bytes:
    """``value`` as JSON text the way a careless writer puts it (Python's ``json.dumps`` with its defaults:
    ``NaN``/``Infinity`` written as such, every non-ASCII character, a lone surrogate included, as a ``\\u``
    escape); a :func:`nested` value as its brackets."""
    text = json.dumps(value, allow_nan=True)
    while (at := text.find('"\\u0000nested-')) >= 0:
        end = text.index('\\u0000"', at + 1)
        depth = int(text[at + len('"\\u0000nested-'):end])
        text = text[:at] + "[" * depth + "1" + "]" * depth + text[end + len('\\u0000"'):]
    return text.encode("ascii")


def nested(depth: int) -> Any:
    """A JSON value nested ``depth`` lists deep (``[[...[1]...]]``), for :func:`json_bytes` (written as a marker,
    since Python's own encoder recurses)."""
    return _NESTED.format(depth)


def _number(case: Sample) -> float | None:
    return None if case.number is None else float(case.number)


def jsonl(case: Sample) -> Files | None:
    """spaCy / Prodigy JSONL: ``{"text", "spans": [{"start", "end", "label"}], "meta": {"id"}}``; the number is a
    span's ``score`` (a feature); the depth nests a feature value."""
    if case.empty:
        return {"sample.jsonl": b""}
    start, end = case.span
    span: dict[str, Any] = {"start": start, "end": end, "label": case.label}
    if case.number is not None:
        span["score"] = _number(case)
    if case.depth:
        span["extra"] = nested(case.depth)
    return {"sample.jsonl": json_bytes({"text": case.text, "spans": [span], "meta": {"id": case.doc_id}}) + b"\n"}


def _xml_text(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace('"', "&quot;")


def xmi(case: Sample) -> Files | None:
    """UIMA CAS XMI with its ``TypeSystem.xml`` beside it: one ``NamedEntity`` (label in ``value``) and a ``Double``
    feature ``confidence`` holding the number; the depth nests XML elements inside the annotation. ``empty``: a CAS
    without text or annotation (a file is one document). The label is read with ``label_feature="value"``."""
    if case.number is not None and not isinstance(case.number, float | int):
        return None
    start, end = case.span
    number = "" if case.number is None else f' confidence="{java_double(case.number)}"'
    inner = "<x>" * case.depth + "</x>" * case.depth
    annotation = "" if case.empty else (f'<custom:NamedEntity xmi:id="2" sofa="1" begin="{start}" end="{end}" '
                                        f'value="{_xml_text(case.label)}"{number}>{inner}</custom:NamedEntity>')
    document = ('<?xml version="1.0" encoding="UTF-8"?>\n'
                '<xmi:XMI xmlns:xmi="http://www.omg.org/XMI" xmlns:cas="http:///uima/cas.ecore" '
                'xmlns:custom="http:///custom.ecore" xmi:version="2.0">'
                '<cas:NULL xmi:id="0"/>'
                f'<cas:Sofa xmi:id="1" sofaNum="1" sofaID="_InitialView" mimeType="text" '
                f'sofaString="{"" if case.empty else _xml_text(case.text)}"/>'
                f'{annotation}'
                '<cas:View sofa="1" members="2"/>'
                '</xmi:XMI>\n')
    typesystem = ('<?xml version="1.0" encoding="UTF-8"?>\n'
                  '<typeSystemDescription xmlns="http://uima.apache.org/resourceSpecifier"><types>'
                  '<typeDescription><name>custom.NamedEntity</name><supertypeName>uima.tcas.Annotation'
                  '</supertypeName><features>'
                  '<featureDescription><name>value</name><rangeTypeName>uima.cas.String</rangeTypeName>'
                  '</featureDescription>'
                  '<featureDescription><name>confidence</name><rangeTypeName>uima.cas.Double</rangeTypeName>'
                  '</featureDescription>'
                  '</features></typeDescription></types></typeSystemDescription>\n')
    name = _file_name(case.doc_id, ".xmi")
    if name is None:
        return None
    return {name: utf8(document), "TypeSystem.xml": typesystem.encode("utf-8")}


def _file_name(doc_id: str, suffix: str) -> str | None:
    """The file name that gives a document the id ``doc_id`` in formats whose ids are file names; ``None`` when no
    file can be named so (a lone surrogate, a slash)."""
    try:
        utf8_name = doc_id.encode("utf-8")
    except UnicodeEncodeError:
        return None
    if not doc_id or "/" in doc_id or b"\0" in utf8_name or doc_id in (".", ".."):
        return None
    return doc_id + suffix


def java_double(value: float) -> str:
    """A double as Java writes it (``NaN``, ``Infinity``, ``-Infinity``, else Python's repr)."""
    value = float(value)
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    return repr(value)


def sample_words(text: str) -> list[tuple[int, int, str]]:
    """The words of ``text`` (split at single spaces) with their character offsets."""
    out, at = [], 0
    for word in text.split(" "):
        if word:
            out.append((at, at + len(word), word))
        at += len(word) + 1
    return out


# a character UTF-8 writes in 3 bytes, as it writes a lone surrogate with surrogatepass: where a writer (spaCy's)
# refuses a lone surrogate, the sample is written with this one in its place and the bytes swapped afterwards
_STAND_IN = "\ue000"


def _stand_in(text: str) -> str:
    return "".join(_STAND_IN if "\ud800" <= ch <= "\udfff" else ch for ch in text)


def docbin(case: Sample) -> Files | None:
    """A spaCy DocBin (``.spacy``, user data stored): one Doc whose words are the text's, one entity
    (``doc.ents``) over the first word, the id in ``user_data["doc_id"]``. No number, no nesting that the reader
    walks. A lone surrogate (which spaCy's string store refuses) is written as the invalid UTF-8 a damaged file
    holds: the message is built with a stand-in character and its bytes swapped inside the inflated message."""
    if case.number is not None or case.depth:
        return None
    import zlib

    from spacy.tokens import Doc, DocBin, Span
    from spacy.vocab import Vocab

    bad = any(_stand_in(s) != s for s in (case.text, case.label, case.doc_id))
    if bad and any(_STAND_IN in s for s in (case.text, case.label, case.doc_id)):
        return None  # the stand-in is taken
    out = DocBin(store_user_data=True)
    if not case.empty:
        words = [w for _, _, w in sample_words(_stand_in(case.text))]
        doc = Doc(Vocab(), words=words, spaces=[True] * (len(words) - 1) + [False])
        doc.ents = [Span(doc, 0, 1, label=_stand_in(case.label))]
        doc.user_data["doc_id"] = _stand_in(case.doc_id)
        out.add(doc)
    data = out.to_bytes()
    if bad:
        data = zlib.compress(zlib.decompress(data).replace(_STAND_IN.encode("utf-8"), utf8("\ud800")))
    return {"sample.spacy": data}


def conll(case: Sample) -> Files | None:
    """CoNLL-2003 style ``token tag`` lines, IOB2: the first word ``B-LABEL``, the others ``O``; the id in a
    ``# sent_id`` comment (a sentence is a document). No number, no nesting."""
    if case.number is not None or case.depth:
        return None
    if case.empty:
        return {"sample.conll": b""}
    lines = [f"# sent_id = {case.doc_id}"]
    for k, (_, _, word) in enumerate(sample_words(case.text)):
        lines.append(f"{word} {'B-' + case.label if k == 0 else 'O'}")
    return {"sample.conll": utf8("\n".join(lines) + "\n")}


def brat(case: Sample) -> Files | None:
    """brat standoff: ``<id>.ann`` (read) beside ``<id>.txt``; one ``T1`` over the first word. The id is the
    file stem (``None`` when no file can be so named). No number, no nesting. ``empty``: an ``.ann`` without
    annotations beside an empty text (brat has no file of no document)."""
    if case.number is not None or case.depth:
        return None
    name = _file_name(case.doc_id, "")
    if name is None:
        return None
    if case.empty:
        return {f"{name}.ann": b"", f"{name}.txt": b""}
    start, end = case.span
    ann = f"T1\t{case.label} {start} {end}\t{case.text[start:end]}\n"
    return {f"{name}.ann": utf8(ann), f"{name}.txt": utf8(case.text)}


def gate(case: Sample) -> Files | None:
    """gatenlp's bdoc JSON (``<id>.bdocjs``: the id is the file name, ``None`` when no file can be so named): one
    annotation of type ``case.label`` in the set ``ann1``; the number is a feature ``score`` (a float), the depth
    nests a feature value (bdoc features hold any JSON). GATE XML is flat (every ``Annotation`` at one level), so
    bdoc covers more of the cases."""
    name = _file_name(case.doc_id, ".bdocjs")
    if name is None:
        return None
    if case.empty:
        return {name: b""}
    start, end = case.span
    features: dict[str, Any] = {}
    if case.number is not None:
        features["score"] = _number(case)
    if case.depth:
        features["extra"] = nested(case.depth)
    annotation = {"type": case.label, "start": start, "end": end, "id": 0, "features": features}
    document = {"text": case.text, "features": {}, "offset_type": "p", "name": case.doc_id,
                "annotation_sets": {"ann1": {"name": "ann1", "annotations": [annotation], "next_annid": 1}}}
    return {name: json_bytes(document)}


def _tsv3_escape(value: str) -> str:
    for ch in "\\[]|_;*":
        value = value.replace(ch, "\\" + ch)
    return value.replace("->", "\\->").replace("\t", "\\t").replace("\n", "\\n")


def tsv3(case: Sample) -> Files | None:
    """WebAnno / INCEpTION TSV 3.3 (``<id>.tsv``: the id is the file stem, ``None`` when no file can be so named):
    one sentence, INCEpTION's ``NamedEntity`` layer whose ``value`` holds the label (read with
    ``label_feature="value"``, :attr:`Reader.sample_options`). No number, no nesting. ``empty``: the header of a
    document without sentences."""
    if case.number is not None or case.depth:
        return None
    name = _file_name(case.doc_id, ".tsv")
    if name is None:
        return None
    lines = ["#FORMAT=WebAnno TSV 3.3", "#T_SP=de.tudarmstadt.ukp.dkpro.core.api.ner.type.NamedEntity|value", ""]
    if not case.empty:
        lines += ["", "#Text=" + case.text.replace("\\", "\\\\").replace("\t", "\\t")]
        for k, (start, _end, word) in enumerate(sample_words(case.text), 1):
            # offsets count UTF-16 code units
            u_start = len(case.text[:start].encode("utf-16-le", "surrogatepass")) // 2
            u_end = u_start + len(word.encode("utf-16-le", "surrogatepass")) // 2
            value = _tsv3_escape(case.label) if k == 1 else "_"
            lines.append(f"1-{k}\t{u_start}-{u_end}\t{_tsv3_escape(word)}\t{value}\t")
    return {name: utf8("\n".join(lines) + "\n")}


def labelstudio(case: Sample) -> Files | None:
    """A Label Studio JSON export: one task (``id`` = the id) whose annotation by user 1 holds one ``labels``
    region; the number is the ``score`` of a prediction (model ``v1``) holding the same region, the depth nests
    a value inside the region. ``empty``: ``[]``."""
    if case.empty:
        return {"sample.json": b"[]\n"}
    start, end = case.span
    value: dict[str, Any] = {"start": start, "end": end, "text": case.text[start:end], "labels": [case.label]}
    if case.depth:
        value["extra"] = nested(case.depth)
    region = {"id": "r1", "from_name": "label", "to_name": "text", "type": "labels", "value": value}
    task: dict[str, Any] = {"id": case.doc_id, "data": {"text": case.text},
                            "annotations": [{"id": 1, "completed_by": 1, "was_cancelled": False, "result": [region]}]}
    if case.number is not None:
        task["predictions"] = [{"model_version": "v1", "score": _number(case), "result": [dict(region)]}]
    return {"sample.json": json_bytes([task])}


def doccano(case: Sample) -> Files | None:
    """A doccano ≥ 1.3 sequence-labeling export (``annotator.jsonl``: one user, the set ``annotator``):
    ``{"id", "text", "label": [[start, end, LABEL]]}``. doccano spans carry no number; the depth nests the
    line's ``meta``. ``empty``: an empty file."""
    if case.number is not None:
        return None
    if case.empty:
        return {"annotator.jsonl": b""}
    start, end = case.span
    record: dict[str, Any] = {"id": case.doc_id, "text": case.text, "label": [[start, end, case.label]]}
    if case.depth:
        record["meta"] = {"extra": nested(case.depth)}
    return {"annotator.jsonl": json_bytes(record) + b"\n"}


def bioc(case: Sample) -> Files | None:
    """A BioC JSON collection (``sample.bioc.json``; BioC XML holds the same tree, but JSON nests): one document,
    one passage, one annotation whose ``type`` infon is the label; the number is an infon ``score`` (BioC infons
    are strings, but a careless writer puts the number), the depth nests an infon value. ``empty``: a collection
    without documents."""
    documents: list[Any] = []
    if not case.empty:
        start, end = case.span
        infons: dict[str, Any] = {"type": case.label}
        if case.number is not None:
            infons["score"] = _number(case)
        if case.depth:
            infons["extra"] = nested(case.depth)
        annotation = {"id": "T1", "infons": infons, "text": case.text[start:end],
                      "locations": [{"offset": start, "length": end - start}]}
        documents.append({"id": case.doc_id, "infons": {}, "relations": [], "annotations": [],
                          "passages": [{"offset": 0, "infons": {}, "text": case.text, "sentences": [],
                                        "annotations": [annotation], "relations": []}]})
    collection = {"source": "sample", "date": "", "key": "", "infons": {}, "documents": documents}
    return {"sample.bioc.json": json_bytes(collection)}


def prodigy(case: Sample) -> Files | None:
    """Prodigy ``db-out`` JSONL of annotator ``alex``: one accepted answer, the id in ``meta.id`` (no
    ``_input_hash``, which would be the id); the number is the ``_timestamp`` (which orders repeated answers) and
    the span's ``score``, the depth nests the span's ``meta``. ``empty``: an empty file."""
    if case.empty:
        return {"sample.jsonl": b""}
    start, end = case.span
    span: dict[str, Any] = {"start": start, "end": end, "label": case.label}
    record: dict[str, Any] = {"text": case.text, "meta": {"id": case.doc_id}, "spans": [span], "answer": "accept",
                              "_view_id": "ner_manual", "_annotator_id": "alex", "_session_id": "alex"}
    if case.number is not None:
        span["score"] = record["_timestamp"] = _number(case)
    if case.depth:
        span["meta"] = nested(case.depth)
    return {"sample.jsonl": json_bytes(record) + b"\n"}


def _turtle_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\r", "\\r") + '"'


def nif(case: Sample) -> Files | None:
    """NIF 2.0 Turtle (``sample.ttl``): a ``nif:Context`` whose URI ends with the id, and one ``nif:Phrase`` over
    the first word whose ``itsrdf:taClassRef`` names the label (the reader's label is its local name; the id is
    the context URI); the number is ``itsrdf:taConfidence`` as an ``xsd:double`` (``"NaN"``, ``"INF"``), the
    depth nests RDF collections in an ``rdfs:comment`` of the context. ``empty``: the prefixes, no context."""
    lines = ["@prefix nif: <http://persistence.uni-leipzig.org/nlp2rdf/ontologies/nif-core#> .",
             "@prefix itsrdf: <http://www.w3.org/2005/11/its/rdf#> .",
             "@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .",
             "@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .", ""]
    if not case.empty:
        start, end = case.span
        n = len(case.text)
        base = f"http://example.org/{case.doc_id}"
        context = f"<{base}#char=0,{n}>"
        lines += [f"{context} a nif:Context , nif:String , nif:RFC5147String ;",
                  f'    nif:beginIndex "0"^^xsd:nonNegativeInteger ; nif:endIndex "{n}"^^xsd:nonNegativeInteger ;']
        if case.depth:
            lines.append("    rdfs:comment " + "(" * case.depth + "1" + ")" * case.depth + " ;")
        lines += [f"    nif:isString {_turtle_string(case.text)} .", "",
                  f"<{base}#char={start},{end}> a nif:String , nif:RFC5147String , nif:Phrase ;",
                  f"    nif:referenceContext {context} ;",
                  f'    nif:beginIndex "{start}"^^xsd:nonNegativeInteger ; '
                  f'nif:endIndex "{end}"^^xsd:nonNegativeInteger ;',
                  f"    nif:anchorOf {_turtle_string(case.text[start:end])} ;"]
        if case.number is not None:
            lines.append(f'    itsrdf:taConfidence "{_xsd_double(case.number)}"^^xsd:double ;')
        lines.append(f"    itsrdf:taClassRef <http://example.org/ontology/{case.label}> .")
    return {"sample.ttl": utf8("\n".join(lines) + "\n")}


def _xsd_double(value: float) -> str:
    """A double as XML Schema writes it (``NaN``, ``INF``, ``-INF``)."""
    value = float(value)
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "INF" if value > 0 else "-INF"
    return repr(value)
