"""spacy-llm's NER and span-categorisation responses, parsed as spacy-llm parses them, and the ``llm-ner`` reader.

spacy-llm (https://github.com/explosion/spacy-llm) asks a model for entities in one of two formats and reads
the answer with the rules below (``spacy_llm/tasks/span/parser.py``, ``spacy_llm/tasks/span/examples.py``,
``spacy_llm/registry/normalizer.py``, ``spacy_llm/tasks/builtin_task.py``; NER and SpanCat share them):

- **v2** (``spacy.NER.v1``/``v2``, ``spacy.SpanCat.v1``/``v2``; ``_format_response``): the response is stripped
  and split on ``"\\n"``; a line that holds ``:`` is ``LABEL: phrase, phrase, ...``, split at its first ``:``; the
  phrases are split on ``,`` and stripped; a line whose phrases are blank says nothing. Other lines are skipped.
- **v3** (``spacy.NER.v3``, ``spacy.SpanCat.v3``, chain of thought; ``SpanReason.from_str`` and
  ``_extract_span_reasons_cot``): each stripped line loses everything up to its first ``.`` when it holds one (the
  list number ``1.``; spacy-llm does this to any line with a dot), is split on ``|`` and stripped, and must give
  four parts ``text | is_entity | label | reason``; a line of another shape is skipped, and so is a span whose
  ``is_entity`` is not ``true`` (any case).
- **Labels**: a label is normalised (``spacy.LowercaseNormalizer.v1``: strip and lower-case, spacy-llm's default,
  also when ``normalizer`` is ``None``; ``spacy.StripNormalizer.v1``: strip) and looked up among the task's
  labels normalised the same way, ``{normalizer(label): label for label in sorted(set(labels))}``, which gives the
  canonical spelling. A label the task does not have is dropped by spacy-llm; here it is returned apart
  (:attr:`ParsedResponse.unknown`) so that the caller can report it.
- **Nothing**: spacy-llm's matcher (``find_substrings``) drops empty strings; so does this parser. It also drops
  ``==NONE==``, what the v3 prompt tells a model to write for a span that is no entity (``ner.v3.jinja``): as a
  v3 label (spacy-llm drops it too, no task has that label) and as a v2 phrase (spacy-llm would look for it in
  the text, find nothing, and drop it; here it would be counted as a hallucination).

What spacy-llm's matcher does next is the grounding's, not the parser's: it keeps each phrase once
(case-insensitively unless ``case_sensitive_matching``) and finds every occurrence of it (``single_match=False``,
the default) or the first; it drops a phrase it cannot find or snap to tokens (``alignment_mode``). This parser
keeps every phrase, repeats too, in the model's order.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from ..errors import ConfigError, InputError, where
from ..io.parse import check_encoding, excerpt
from .extractions import Extraction
from .records import DocIds, Entry, ReadExtractions, entries, note_left_out, nothing_to_compare, string

#: what spacy-llm's v3 prompt asks a model to write as the label of a span that is no entity
NONE_LABEL = "==NONE=="
FORMATS = ("auto", "v2", "v3")


def _lowercase(s: str) -> str:
    return s.strip().lower()


def _strip(s: str) -> str:
    return s.strip()


#: spacy-llm's label normalisers (``spacy_llm/registry/normalizer.py``) by name
NORMALIZERS: dict[str, Callable[[str], str]] = {"lowercase": _lowercase, "strip": _strip}


class ParsedResponse(list):
    """The ``(label, text)`` pairs of a response, in the model's order, each label the task's own spelling; it is a
    list, and holds beside: ``unknown``, the ``(label as written, text)`` pairs whose label is not among the task's
    labels (spacy-llm drops them), and ``format``, ``"v2"`` or ``"v3"``."""

    def __init__(self, pairs: Iterable[tuple[str, str]] = (), unknown: Iterable[tuple[str, str]] = (),
                 format: str = "v2") -> None:
        super().__init__(pairs)
        self.unknown = list(unknown)
        self.format = format


def normalizer_function(normalizer: str | Callable[[str], str] | None) -> Callable[[str], str]:
    """spacy-llm's normaliser ``normalizer``: ``"lowercase"``, ``"strip"``, a function, or ``None`` (spacy-llm's
    default: lowercase). Another name is a :class:`ConfigError`."""
    if normalizer is None:
        return _lowercase
    if callable(normalizer):
        return normalizer
    if isinstance(normalizer, str) and normalizer in NORMALIZERS:
        return NORMALIZERS[normalizer]
    raise ConfigError(f"normalizer must be one of {', '.join(NORMALIZERS)} (spacy-llm's LowercaseNormalizer and "
                      f"StripNormalizer), a function, or None (lowercase, spacy-llm's default); got {normalizer!r}")


def split_labels(labels: str | Sequence[str] | None) -> list[str] | None:
    """The task's labels as spacy-llm's ``split_labels`` reads them (a comma-separated string, or a list; each
    stripped), empty names left out; ``None`` for none given. Labels that are not strings, or a list that names
    none, are a :class:`ConfigError`.

    >>> split_labels("PER, ORG,LOC"), split_labels(None)
    (['PER', 'ORG', 'LOC'], None)
    """
    if labels is None:
        return None
    items = labels.split(",") if isinstance(labels, str) else labels
    if not isinstance(items, Iterable) or any(not isinstance(label, str) for label in items):
        raise ConfigError(f"labels must be a comma-separated string or a list of strings, got {labels!r:.80}")
    found = [label.strip() for label in items if label.strip()]
    if not found:
        raise ConfigError(f"labels={labels!r} names no label; give the task's labels (\"PER,ORG\"), or None to keep "
                          f"every label the model wrote")
    return found


def label_map(labels: str | Sequence[str] | None,
              normalizer: str | Callable[[str], str] | None = "lowercase") -> dict[str, str] | None:
    """spacy-llm's ``label_dict``: normalised label -> the label as the task spells it (``None`` without labels).

    >>> label_map("PER,ORG")
    {'org': 'ORG', 'per': 'PER'}
    """
    found = split_labels(labels)
    norm = normalizer_function(normalizer)
    return None if found is None else {norm(label): label for label in sorted(set(found))}


def _cot_parts(line: str) -> list[str] | None:
    """The four parts of a v3 line (``SpanReason.from_str``), ``None`` for a line of another shape."""
    clean = line.strip()
    if "." in clean:
        clean = clean.split(".", 1)[1]
    parts = [c.strip() for c in clean.split("|")]
    return parts if len(parts) == 4 else None


def response_format(response: str) -> str:
    """``"v3"`` when some line of ``response`` has the chain-of-thought shape ``text | True | LABEL | reason`` (its
    second part ``true`` or ``false``, any case), else ``"v2"``.

    >>> response_format("1. Ada | True | PER | a person"), response_format("PER: Ada")
    ('v3', 'v2')
    """
    for line in response.strip().split("\n"):
        parts = _cot_parts(line)
        if parts is not None and parts[1].lower() in ("true", "false"):
            return "v3"
    return "v2"


def parse_ner_response(response: str, labels: str | Sequence[str] | None = None, *,
                       normalizer: str | Callable[[str], str] | None = "lowercase",
                       fmt: str = "auto") -> ParsedResponse:
    """The ``(label, text)`` pairs of a spacy-llm NER or SpanCat ``response``, by spacy-llm's rules (module
    docstring); ``fmt``: ``"v2"``, ``"v3"`` or ``"auto"`` (:func:`response_format`). ``labels`` (a comma-separated
    string or a list) are the task's: a label is mapped to its spelling there, and one not there goes to
    :attr:`ParsedResponse.unknown`; without ``labels`` every label is kept as written (stripped).

    >>> parse_ner_response("per: Jean Jacques, Jaime\\nRANDOM: library", "PER,ORG,LOC")
    [('PER', 'Jean Jacques'), ('PER', 'Jaime')]
    >>> parse_ner_response("per: Jean Jacques, Jaime\\nRANDOM: library", "PER,ORG,LOC").unknown
    [('RANDOM', 'library')]
    """
    if not isinstance(response, str):
        raise ConfigError(f"response must be the model's text (a string), got {type(response).__name__}")
    if fmt not in FORMATS:
        raise ConfigError(f"fmt must be one of {', '.join(FORMATS)} (spacy-llm's response formats), got {fmt!r}")
    norm = normalizer_function(normalizer)
    known = label_map(labels, norm)
    fmt = response_format(response) if fmt == "auto" else fmt
    out = ParsedResponse(format=fmt)
    for label, text in (_v3_pairs if fmt == "v3" else _v2_pairs)(response):
        if not text or text == NONE_LABEL:
            continue
        canonical = label.strip() if known is None else known.get(norm(label))
        if canonical:
            out.append((canonical, text))
        else:
            out.unknown.append((label.strip(), text))
    return out


def _v2_pairs(response: str) -> Iterable[tuple[str, str]]:
    """``(label as written, phrase)`` of every ``LABEL: a, b`` line (``_format_response``)."""
    for line in response.strip().split("\n"):
        if line and ":" in line:
            label, phrases = line.split(":", 1)
            if phrases.strip():
                yield from ((label, p.strip()) for p in phrases.strip().split(","))


def _v3_pairs(response: str) -> Iterable[tuple[str, str]]:
    """``(label as written, text)`` of every v3 line that says it is an entity (``_extract_span_reasons_cot``)."""
    for line in response.strip().split("\n"):
        parts = _cot_parts(line)
        if parts is not None and parts[1].lower() == "true" and parts[2] != NONE_LABEL:
            yield parts[2], parts[0]


# -- the llm-ner reader ------------------------------------------------------------------------------------------


def read_llm_ner(path: str | os.PathLike, *, labels: str | Sequence[str] | None = None,
                 normalizer: str | Callable[[str], str] | None = "lowercase", response_format: str = "auto",
                 component: str | None = None, encoding: str = "utf-8") -> ReadExtractions:
    """spacy-llm's responses, parsed by :func:`parse_ner_response`, from either file:

    - JSON lines (or a ``.json`` file: :func:`~spacy_anno_eval.llm.readers.entries`), one record per document,
      ``{"id": "d1", "response": "PER: Ada Lovelace\\nORG: ..."}``: the id by the readers' rule, the model's raw
      text in ``response`` (else ``output``), a string, or a list of strings (one per shard, as spacy-llm keeps a
      sharded document's responses);
    - a DocBin (``.spacy``, or a folder of them) of a spacy-llm pipeline run with ``save_io = true``: each Doc's
      ``doc.user_data["llm_io"][component]["response"]`` (``spacy_llm/pipeline/llm.py``), its id by the doc-id
      rule and its text kept in :attr:`~spacy_anno_eval.llm.readers.ReadExtractions.texts`. ``component`` names
      the ``llm`` component when the Docs hold several. spacy-llm's cache folder (``spacy.BatchCache.v1``: a
      DocBin per batch, with user data) is such a folder; its files are read in name order, so Docs without an
      id there pair with the key by that order: give them ids (``doc.user_data["doc_id"]``).

    ``labels``, ``normalizer`` (``"lowercase"``, ``"strip"``, ``None``: lowercase) and ``response_format``
    (``"auto"``, ``"v2"``, ``"v3"``) are the task's, as :func:`parse_ner_response` takes them. A label outside
    ``labels`` is left out, as spacy-llm leaves it out, and told (``left_out``, one
    :class:`~spacy_anno_eval.errors.ReaderNoteWarning`). Each extraction's ``attrs`` hold the response's
    ``format`` and, for a sharded response, its ``shard``.
    """
    if response_format not in FORMATS:
        raise ConfigError(f"response_format must be one of {', '.join(FORMATS)}, got {response_format!r}")
    norm = normalizer_function(normalizer)
    label_map(labels, norm)  # checked before the file is read
    check_encoding(encoding)
    source = str(path)
    p = Path(path)
    if p.is_dir() or p.name.lower().endswith(".spacy"):
        return extractions_from_docs(_docbin_docs(p), labels=labels, normalizer=normalizer,
                                     response_format=response_format, component=component, source=source)
    if component is not None:
        raise ConfigError(f"{source}: component= names the spacy-llm component of a DocBin's llm_io; this file is "
                          f"JSON records, whose \"response\" is read")
    parse = _Parser(labels, normalizer, response_format, source)
    ids = DocIds(source)
    for entry in entries(path, encoding, is_record=lambda d: "response" in d or "output" in d):
        doc, loc, src = ids.take(entry)
        if isinstance(entry.value, str | list):  # {doc_id: response} in a .json file, or a bare response
            parse.document(doc, entry.value, loc, src)
            continue
        name = next((n for n in ("response", "output") if isinstance(entry.value, dict) and n in entry.value), None)
        if name is None:
            raise InputError(f"{loc}: expected a record with the model's text in \"response\" (or \"output\"), got "
                             f"{excerpt(entry.value, 60)}")
        parse.document(doc, entry.value[name], f"{loc}, \"{name}\"", src)
    if not ids.seen:
        raise nothing_to_compare(source)
    return parse.done()


class _Parser:
    """Parses each document's responses into a :class:`ReadExtractions`, collecting what is left out."""

    def __init__(self, labels: Any, normalizer: Any, fmt: str, source: str) -> None:
        self.labels, self.normalizer, self.fmt = labels, normalizer, fmt
        self.out = ReadExtractions(source=source, format="llm-ner")

    def document(self, doc: str, response: Any, at: str, src: str) -> None:
        shards = response if isinstance(response, list) else [response]
        found = self.out.documents.setdefault(doc, [])
        for k, text in enumerate(shards):
            text = string(text, f"{at}{f'[{k}]' if isinstance(response, list) else ''}",
                          "the response (the model's text; a list of them for a sharded document)")
            parsed = parse_ner_response(text, self.labels, normalizer=self.normalizer, fmt=self.fmt)
            attrs = {"format": parsed.format, **({"shard": k} if isinstance(response, list) else {})}
            base = len(found)
            found.extend(Extraction(doc, label, phrase, base + i, src, attrs=attrs)
                         for i, (label, phrase) in enumerate(parsed))
            self.out.left_out.extend(Extraction(doc, label, phrase, i, src, attrs={**attrs, "unknown_label": True})
                                     for i, (label, phrase) in enumerate(parsed.unknown))

    def done(self) -> ReadExtractions:
        labels = sorted({e.label for e in self.out.left_out})
        note_left_out(self.out.source, self.out.left_out,
                      f"as spacy-llm leaves them out: their labels ({', '.join(map(repr, labels[:8]))}) are not "
                      f"among labels={self.labels!r}", "add those labels to labels=, or give no labels to keep every "
                      "label the model wrote")
        return self.out


def _docbin_docs(p: Path) -> list[tuple[Any, str]]:
    """The Docs of a DocBin file or of a folder's ``*.spacy`` files (in name order), each with its file."""
    from ..io.docbin import docbin_docs, docbin_files

    return docbin_docs(docbin_files(p))


def extractions_from_docs(docs: Iterable[Any], *, labels: str | Sequence[str] | None = None,
                          normalizer: str | Callable[[str], str] | None = "lowercase", response_format: str = "auto",
                          component: str | None = None, source: str = "the Docs") -> ReadExtractions:
    """The extractions of spaCy Docs that a spacy-llm pipeline ran on with ``save_io``: each Doc's
    ``user_data["llm_io"][component]["response"]``, parsed by :func:`parse_ner_response` (``docs``: Docs, or
    ``(doc, file)`` pairs; ``source`` names them in messages). ``component`` may be left out when the Docs hold one
    component's responses; a name they do not hold, a Doc without ``llm_io`` (the pipeline ran without
    ``save_io``) or without that component, is an :class:`InputError` naming the Doc and what exists."""
    from ..annotations.docs import doc_id

    if component is not None and (not isinstance(component, str) or not component):
        raise ConfigError(f"component must be the name of a spacy-llm pipeline component, got {component!r}")
    parse = _Parser(labels, normalizer, response_format, source)
    ids = DocIds(source)
    for k, item in enumerate(docs):
        doc, file = item if isinstance(item, tuple) else (item, source)
        name = doc_id(doc, k)
        ids.take(Entry({"id": name}, None, None, where(file, name)))
        io = doc.user_data.get("llm_io") if isinstance(doc.user_data, dict) else None
        if not isinstance(io, dict) or not io:
            raise InputError(f"{where(file, name)}: the Doc holds no spacy-llm I/O (user_data[\"llm_io\"]); run the "
                             f"pipeline with the llm component's save_io = true, and store the Docs with "
                             f"DocBin(store_user_data=True)")
        held = sorted(map(str, io))
        if component is None and len(held) > 1:
            raise ConfigError(f"{where(file, name)}: the Docs hold the responses of several spacy-llm components "
                              f"({', '.join(held)}); name one (component=)")
        chosen = held[0] if component is None else component
        record = io.get(chosen)
        if not isinstance(record, dict) or "response" not in record:
            raise InputError(f"{where(file, name)}: no response of the component {chosen!r} in user_data"
                             f"[\"llm_io\"] (it holds {', '.join(held)}); name one of those (component=)")
        response = list(record["response"]) if isinstance(record["response"], tuple) else record["response"]
        parse.document(name, response, f"{where(file, name)}, llm_io[{chosen!r}][\"response\"]", where(file, name))
        parse.out.texts[name] = doc.text
    if not ids.seen:
        raise nothing_to_compare(source, "no Doc")
    return parse.done()


__all__ = ["FORMATS", "NONE_LABEL", "NORMALIZERS", "ParsedResponse", "extractions_from_docs", "label_map",
           "normalizer_function", "parse_ner_response", "read_llm_ner", "response_format", "split_labels"]
