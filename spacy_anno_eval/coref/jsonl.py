"""Coreference clusters in JSON lines: the two conventions people have, one JSON object per line.

**(a) e2e-coref / SpanBERT "jsonlines"** (Lee et al. 2017-2018, https://github.com/kentonl/e2e-coref,
``minimize.py``; Joshi et al. 2020, https://github.com/facebookresearch/SpanBERT, ``coref/``)::

    {"doc_key": "bc/cctv/00/cctv_0000_0", "sentences": [["Ada", "wrote", "."], ["She", "left", "."]],
     "clusters": [[[0, 0], [3, 3]]]}

``sentences`` are lists of tokens; ``clusters`` lists of mentions ``[start, end]``, token indices counted across
the whole document, **end inclusive**. Other fields (``speakers``, ``constituents``, ``ner``) are ignored. A
record with ``tokens`` (a list of strings) and no ``text`` is read the same way, as one sentence. A SpanBERT
file cut into BERT subtokens (with a ``subtoken_map``) is counted in those subtokens, as they stand: key and
response must then be cut alike.

**(b) text and character offsets** (spaCy's convention for spans, https://spacy.io/api/doc#char_span)::

    {"id": "d1", "text": "Ada wrote. She left.", "clusters": [[[0, 3], [11, 14]]]}

``clusters`` lists of mentions ``[start, end]``, character offsets into ``text``, **end exclusive**; ``id`` is
optional. The tokens (the unit mentions are counted in) are the text's **words**, found from the text alone so
that a key and a response of the same texts have the same tokens whatever their mentions: a run of letters,
digits, ``_`` and combining marks; each other non-space character alone (``Obama's`` is ``Obama`` ``'`` ``s``);
and, in scripts written without spaces (Chinese, Japanese kana, Thai, Lao, Khmer, Myanmar), each character alone,
as spaCy's Chinese tokenizer does by default. A text of tokens joined by spaces reads back to those tokens, so a
CoNLL-2012 file written this way scores as its original. A mention is the words it overlaps, ``(first, last)``
inclusive; one that begins or ends inside a word (``NY`` of ``NYC``) is widened to whole words, the same way on
both sides, with one :class:`~spacy_anno_eval.errors.CorefWarning` per file naming the first; spaces at a
mention's edges are left out. Each document keeps its text and its words' offsets, so a mention is shown as the
exact text it covers (:func:`~spacy_anno_eval.coref.documents.mention_text`).

What we do for both: a record with ``sentences`` (or ``tokens`` without ``text``) is (a), else one with ``text``
is (b), else it is refused. A document's name is its ``doc_key``, else ``id``, else ``meta.id``, else its
position among the records (``"0"``, ``"1"``, ...: the package's doc-id rule,
:func:`~spacy_anno_eval.annotations.docs.id_or_position`); two records with one name are refused. A record
without ``clusters`` has no mention; a file in which no record has the field is refused, naming the fields the
records have (``clusters_field=`` reads another: ``predicted_clusters``, which e2e-coref's ``predict.py``
writes beside the gold ``clusters``; a file holding both warns that the gold ones are read). A mention listed
twice is kept once, in the first cluster that lists it (:mod:`~spacy_anno_eval.coref.documents`). Lines are
read by :func:`spacy_anno_eval.io.parse.json_lines` (invalid JSON, nesting, lone surrogates and text that is
not in ``encoding`` are refused with their line); every other error names the file, the line, the document and
the field: a mention out of range, ``start > end`` (an empty character span, ``start == end``, too), a value
that is not an integer.
"""

from __future__ import annotations

import bisect
import os
import re
import unicodedata
import warnings
from pathlib import Path
from typing import Any

from ..annotations.docs import id_or_position
from ..errors import ConfigError, CorefWarning, InputError, where
from ..io.parse import excerpt, json_lines
from .documents import Mention, Repeats, TextCorefDocument, entities_of

_EXPECTED = "expected one JSON object per line, with \"sentences\" or \"text\" and \"clusters\""
#: scripts written without spaces between words: each character is a word
_NO_SPACES = ("\u0e00-\u0eff\u1000-\u109f\u1780-\u17ff\u3040-\u30ff\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff"
              "\uf900-\ufaff\uff66-\uff9f\U00020000-\U0003134f")
_WORDS = re.compile(f"(?P<char>[{_NO_SPACES}])|(?P<word>[^\\W{_NO_SPACES}]+)|(?P<other>[^\\w\\s])")


def read_coref_jsonl(path: str | os.PathLike, encoding: str = "utf-8", *,
                     clusters_field: str = "clusters") -> list[TextCorefDocument]:
    """The documents of a JSON-lines file of either convention (see the module), in file order;
    ``clusters_field``: the field that holds the clusters."""
    if not isinstance(clusters_field, str) or not clusters_field:
        raise ConfigError(f"clusters_field: the name of the field that holds the clusters (clusters, "
                          f"predicted_clusters), got {clusters_field!r}")
    source = str(path)
    docs: list[TextCorefDocument] = []
    lines: dict[str, int] = {}
    fields: set[str] = set()
    found = False
    predicted = False
    repeats = Repeats()
    widened = Repeats()
    for line_no, record in json_lines(Path(path), encoding=encoding, expected=_EXPECTED):
        if not isinstance(record, dict):
            raise InputError(f"{where(source, line=line_no)}: expected a JSON object with \"sentences\" or \"text\" "
                             f"and \"clusters\", got {type(record).__name__}")
        name = _name(record, len(docs), source, line_no)
        if name in lines:
            raise InputError(f"{where(source, name, line_no)}: a second document named {name!r} (the first is on "
                             f"line {lines[name]}); give each record its own doc_key or id")
        lines[name] = line_no
        fields.update(map(str, record))
        found = found or record.get(clusters_field) is not None
        predicted = predicted or (clusters_field == "clusters" and "predicted_clusters" in record)
        doc = _document(record, name, source, line_no, clusters_field, repeats, widened)
        docs.append(doc)
    if not docs:
        raise InputError(f"{source}: nothing to compare: no records in the file ({_EXPECTED})")
    if not any(d.tokens for d in docs):
        raise InputError(f"{source}: nothing to compare: the {len(docs)} record(s) hold no tokens and no text")
    if not found:
        raise InputError(f"{source}: no record has the field {clusters_field!r} (the records' fields: "
                         f"{', '.join(sorted(fields))}); pass clusters_field= naming the field that holds the "
                         f"clusters")
    if predicted:
        warnings.warn(f"{source}: the records also hold \"predicted_clusters\" (an e2e-coref / SpanBERT prediction "
                      f"file); read \"clusters\", the gold clusters it carries: pass "
                      f"clusters_field='predicted_clusters' to read the predictions", CorefWarning, stacklevel=2)
    repeats.warn(source)
    if widened.count:
        n = widened.count
        warnings.warn(f"{source}: {n} mention{'s' if n > 1 else ''} began or ended inside a word and "
                      f"{'were' if n > 1 else 'was'} widened to whole words (the tokens of a text are its words); "
                      f"the first: {widened.first}", CorefWarning, stacklevel=2)
    return docs


def _name(record: dict[str, Any], position: int, source: str, line_no: int) -> str:
    """``doc_key``, else ``id``, else ``meta.id`` (a string or an integer), else the record's position."""
    meta = record.get("meta")
    candidates = [("doc_key", record.get("doc_key")), ("id", record.get("id")),
                  ("meta.id", meta.get("id") if isinstance(meta, dict) else None)]
    for key, value in candidates:
        if value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, str | int):
            raise InputError(f"{where(source, line=line_no)}, \"{key}\": the document's name must be a string, got "
                             f"{excerpt(value)}")
        return str(value)
    return id_or_position(None, position)


def _document(record: dict[str, Any], name: str, source: str, line_no: int, clusters_field: str,
              repeats: Repeats, widened: Repeats) -> TextCorefDocument:
    loc = where(source, name, line_no)
    raw = record.get(clusters_field)
    clusters = _clusters([] if raw is None else raw, f"{loc}, \"{clusters_field}\"")
    if record.get("sentences") is not None or (record.get("tokens") is not None and record.get("text") is None):
        tokens, sentences = _tokens(record, loc)
        text, offsets = _joined(tokens)
        mentions = [[_token_mention(m, len(tokens), f"{loc}, \"{clusters_field}\"[{i}][{j}]")
                     for j, m in enumerate(c)] for i, c in enumerate(clusters)]
    elif record.get("text") is not None:
        text = record["text"]
        if not isinstance(text, str):
            raise InputError(f"{loc}, \"text\": the document text must be a string, got {type(text).__name__}")
        offsets = word_offsets(text)
        tokens, sentences = tuple(text[s:e] for s, e in offsets), ()
        starts, ends = [s for s, _ in offsets], [e for _, e in offsets]
        mentions = [[_char_mention(m, text, starts, ends, f"{loc}, \"{clusters_field}\"[{i}][{j}]", widened)
                     for j, m in enumerate(c)] for i, c in enumerate(clusters)]
    else:
        raise InputError(f"{loc}: the record has neither \"sentences\" (e2e-coref jsonlines: token lists, clusters of "
                         f"token indices) nor \"text\" (clusters of character offsets); give one of them")
    entities, first, count = entities_of(mentions)
    if count:
        repeats.add(count, f"{loc}, tokens {list(first or ())}")
    return TextCorefDocument(name, tokens, entities, sentences=sentences, text=text, offsets=offsets)


def _tokens(record: dict[str, Any], loc: str) -> tuple[tuple[str, ...], tuple[tuple[int, str], ...]]:
    """The tokens of ``sentences`` (or ``tokens``, one sentence) and where each non-empty sentence begins."""
    key = "sentences" if record.get("sentences") is not None else "tokens"
    value = record[key]
    sentences = value if key == "sentences" else [value]
    if not isinstance(sentences, list):
        raise InputError(f"{loc}, \"{key}\": expected a list of {'token lists' if key == 'sentences' else 'tokens'}, "
                         f"got {type(value).__name__}")
    tokens: list[str] = []
    starts: list[tuple[int, str]] = []
    for i, sentence in enumerate(sentences):
        at = f"{loc}, \"{key}\"" + (f"[{i}]" if key == "sentences" else "")
        if not isinstance(sentence, list):
            raise InputError(f"{at}: expected a list of tokens (strings), got {excerpt(sentence)}")
        for j, token in enumerate(sentence):
            if not isinstance(token, str):
                raise InputError(f"{at}[{j}]: a token must be a string, got {excerpt(token)}")
        if sentence:
            starts.append((len(tokens), str(len(starts) + 1)))
        tokens.extend(sentence)
    return tuple(tokens), tuple(starts)


def _joined(tokens: tuple[str, ...]) -> tuple[str, tuple[tuple[int, int], ...]]:
    """The tokens joined by spaces, and each token's offsets in that text (for showing a mention)."""
    offsets, at = [], 0
    for token in tokens:
        offsets.append((at, at + len(token)))
        at += len(token) + 1
    return " ".join(tokens), tuple(offsets)


def _clusters(value: Any, loc: str) -> list[list[Any]]:
    if not isinstance(value, list):
        raise InputError(f"{loc}: expected a list of clusters, each a list of [start, end] mentions, got "
                         f"{excerpt(value)}")
    for i, cluster in enumerate(value):
        if not isinstance(cluster, list):
            raise InputError(f"{loc}[{i}]: a cluster is a list of [start, end] mentions, got {excerpt(cluster)}")
    return value


def _pair(value: Any, loc: str, unit: str) -> tuple[int, int]:
    if not isinstance(value, list) or len(value) != 2 or not all(
            isinstance(v, int) and not isinstance(v, bool) for v in value):
        raise InputError(f"{loc}: a mention is [start, end], two integers ({unit}), got {excerpt(value)}")
    return value[0], value[1]


def _token_mention(value: Any, n_tokens: int, loc: str) -> Mention:
    """A mention ``[start, end]`` of token indices, end inclusive."""
    unit = "token indices, end inclusive"
    start, end = _pair(value, loc, unit)
    if start > end:
        raise InputError(f"{loc}: the mention [{start}, {end}] has start > end; a mention is [start, end], {unit}")
    if start < 0 or end >= n_tokens:
        raise InputError(f"{loc}: the mention [{start}, {end}] is out of range for a document of {n_tokens} "
                         f"tokens ({unit}: 0 <= start <= end < {n_tokens})")
    return start, end


def _char_mention(value: Any, text: str, starts: list[int], ends: list[int], loc: str, widened: Repeats) -> Mention:
    """A mention ``[start, end)`` of character offsets as the words it overlaps, ``(first, last)``."""
    unit = "character offsets, end exclusive"
    start, end = _pair(value, loc, unit)
    if start >= end:
        raise InputError(f"{loc}: the mention [{start}, {end}] has start {'>' if start > end else '=='} end; a "
                         f"mention is [start, end], {unit}, and covers at least one character")
    if start < 0 or end > len(text):
        raise InputError(f"{loc}: the mention [{start}, {end}] is out of range for a text of {len(text)} characters "
                         f"({unit}: 0 <= start < end <= {len(text)})")
    first = bisect.bisect_right(ends, start)
    last = bisect.bisect_left(starts, end) - 1
    if first > last:
        raise InputError(f"{loc}: the mention [{start}, {end}] covers only spaces ({text[start:end]!r}); a mention "
                         f"covers at least one word")
    if start > starts[first] or end < ends[last]:
        widened.add(1, f"{loc}, [{start}, {end}) {text[start:end]!r} read as {text[starts[first]:ends[last]]!r}")
    return first, last


def word_offsets(text: str) -> tuple[tuple[int, int], ...]:
    """The ``(start, end)`` character offsets of the words of ``text`` (the tokens of convention (b): module
    docstring).

    >>> t = "Obama's wife, 北京 and हिन्दी"
    >>> [t[s:e] for s, e in word_offsets(t)]
    ['Obama', "'", 's', 'wife', ',', '北', '京', 'and', 'हिन्दी']
    """
    out: list[tuple[int, int]] = []
    for m in _WORDS.finditer(text):
        s, e = m.span()
        if out and out[-1][1] == s and (_is_mark(text[s]) or (m.lastgroup == "word" and _is_mark(text[s - 1]))):
            out[-1] = (out[-1][0], e)  # a combining mark belongs to its word (Devanagari vowel signs, accents)
        else:
            out.append((s, e))
    return tuple(out)


def _is_mark(ch: str) -> bool:
    return unicodedata.category(ch).startswith("M")


__all__ = ["read_coref_jsonl", "word_offsets"]
