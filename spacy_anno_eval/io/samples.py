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
    feature ``confidence`` holding the number; the depth nests XML elements inside the annotation."""
    if case.number is not None and not isinstance(case.number, float | int):
        return None
    start, end = case.span
    number = "" if case.number is None else f' confidence="{_java_double(case.number)}"'
    inner = "<x>" * case.depth + "</x>" * case.depth
    annotation = "" if case.empty else (f'<custom:NamedEntity xmi:id="2" sofa="1" begin="{start}" end="{end}" '
                                        f'value="{_xml_text(case.label)}"{number}>{inner}</custom:NamedEntity>')
    document = ('<?xml version="1.0" encoding="UTF-8"?>\n'
                '<xmi:XMI xmlns:xmi="http://www.omg.org/XMI" xmlns:cas="http:///uima/cas.ecore" '
                'xmlns:custom="http:///custom.ecore" xmi:version="2.0">'
                '<cas:NULL xmi:id="0"/>'
                f'<cas:Sofa xmi:id="1" sofaNum="1" sofaID="_InitialView" mimeType="text" '
                f'sofaString="{_xml_text(case.text)}"/>'
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


def _java_double(value: float) -> str:
    """A double as Java writes it (``NaN``, ``Infinity``, ``-Infinity``, else Python's repr)."""
    value = float(value)
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    return repr(value)
