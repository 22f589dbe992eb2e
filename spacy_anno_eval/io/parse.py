"""The located loaders: every structured text the package reads is parsed here, by one set of rules.

Every reader (span corpora, annotation tools' exports, treebanks, γ's
formats, ratings tables) reads its files through these functions, so that
each rule below holds for a reader by its being written at all
(DESIGN.md, Contracts):

- **Located.** A file that is missing, a folder, unreadable, or not text in
  its encoding is an :class:`~spacy_anno_eval.errors.InputError` naming the
  file and, where it applies, the line and byte (:func:`read_bytes`,
  :func:`read_text`; :func:`head_bytes` for a sniffer's first bytes,
  :func:`first_line`, :func:`open_binary` for a reader that streams).
  Invalid JSON and XML name their line. No other module opens a file to
  read it (``tests/test_one_reader.py`` holds the few exceptions).
- **Depth.** JSON arrays and objects, XML elements and bracketed trees nest
  at most :data:`MAX_DEPTH` (200) levels; deeper input is refused before a
  reader walks it (Python's parser and any recursive walk overflow near
  1,000).
- **No entities.** XML may name a DTD but declare no entity
  (:func:`parse_xml`): no "billion laughs", no external reads.
- **No lone surrogates.** A JSON escape ``\\ud800`` without its pair decodes
  to a string that UTF-8 cannot encode and spaCy's string store cannot hold.
  It is refused at read time, naming the file, the line and the document
  when the record names one (:func:`json_value`). (UTF-8, UTF-16 and XML
  text cannot carry one: their decoders refuse it.)
- **Non-finite numbers: one rule.** JSON has no NaN or Infinity, yet
  Python's and JavaScript's writers emit ``NaN``, ``Infinity`` and
  ``-Infinity``, and a literal such as ``1e999`` overflows to infinity. Such
  a number is read as **null** (``None``), everywhere, with one
  :class:`~spacy_anno_eval.errors.NonFiniteNumberWarning` per file that
  counts them. A field that needs a number (an offset, a rating, a time)
  then refuses the null with its location, as it refuses any missing
  number; an optional one (a score, a confidence, a feature value) holds
  null, and null is what every output writes. Numbers read from text
  attributes (an XMI ``Double`` feature ``"NaN"``, a NIF
  ``itsrdf:taConfidence "NaN"``) follow the same rule through
  :func:`finite_number`.
"""

from __future__ import annotations

import io
import json
import math
import os
import re
import warnings
import xml.etree.ElementTree as ET
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, BinaryIO
from xml.parsers import expat

from ..errors import ConfigError, InputError, NonFiniteNumberWarning, where
from .encoding import PASS_ENCODING, undecodable

#: the deepest nesting of JSON arrays and objects, XML elements and bracketed trees that is read
MAX_DEPTH = 200

# -- files ---------------------------------------------------------------------------------------------------------


def read_bytes(path: str | os.PathLike, *, what: str = "") -> bytes:
    """The bytes of the file ``path``; a missing file, a folder or an unreadable file is an :class:`InputError`
    naming it (``what``: what the file should be, for the message: ``"a type system"``)."""
    p = Path(path)
    kind = f" ({what})" if what else ""
    if not p.exists():
        raise InputError(f"{p}: no such file{kind}")
    if p.is_dir():
        raise InputError(f"{p}: a folder, not a file{kind}")
    try:
        return p.read_bytes()
    except OSError as exc:
        raise InputError(f"{p}: cannot read ({exc.strerror or exc}){kind}") from None


def _unreadable(p: Path, exc: OSError, kind: str) -> InputError:
    """The :class:`InputError` for ``p`` that could not be opened or read (``kind``: what it should be)."""
    if isinstance(exc, FileNotFoundError):
        return InputError(f"{p}: no such file{kind}")
    if isinstance(exc, IsADirectoryError):
        return InputError(f"{p}: a folder, not a file{kind}")
    return InputError(f"{p}: cannot read ({exc.strerror or exc}){kind}")


def open_binary(path: str | os.PathLike, *, what: str = "") -> BinaryIO:
    """The file ``path`` opened for reading bytes, for a reader that streams it (close it, or use ``with``); a
    missing file, a folder or an unreadable file is an :class:`InputError` naming it, as :func:`read_bytes`
    says it."""
    p = Path(path)
    try:
        return open(p, "rb")  # noqa: SIM115 - the caller closes it
    except OSError as exc:
        raise _unreadable(p, exc, f" ({what})" if what else "") from None


def head_bytes(path: str | os.PathLike, size: int, *, what: str = "") -> bytes:
    """The first ``size`` bytes of the file ``path`` (fewer when it is shorter), for telling a format by its
    beginning; failures as :func:`open_binary` (a sniffer that must never fail catches the :class:`InputError`)."""
    p = Path(path)
    with open_binary(p, what=what) as f:
        try:
            return f.read(size)
        except OSError as exc:
            raise _unreadable(p, exc, f" ({what})" if what else "") from None


def first_line(path: str | os.PathLike, encoding: str = "utf-8", *, errors: str = "strict",
               skip_blank: bool = False) -> str:
    """The first line of the text file ``path`` (``skip_blank``: the first that is not blank), its line end read
    as ``"\\n"`` (universal newlines); ``""`` when there is none. Only that much of the file is read. Failures as
    :func:`open_binary`; text that is not ``encoding`` (with ``errors="strict"``; the file is decoded a block at a
    time, so a bad byte just after the line counts too) names its line and byte."""
    with io.TextIOWrapper(open_binary(path), encoding=encoding, errors=errors, newline=None) as handle:
        try:
            for line in handle:
                if line.strip() or not skip_blank:
                    return line
        except UnicodeDecodeError as exc:
            raise undecodable(path, encoding, err=exc) from None
        except OSError as exc:
            raise _unreadable(Path(path), exc, "") from None
    return ""


def decode(data: bytes, path: str | os.PathLike, encoding: str = "utf-8", *, fix: str = PASS_ENCODING) -> str:
    """``data`` (the bytes of ``path``) as text in ``encoding``; a byte-order mark is dropped. Bytes that are
    not text in it are an :class:`InputError` naming the file, the line and the byte, then ``fix`` (what to do);
    an unknown encoding is one too."""
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as exc:
        raise undecodable(path, encoding, fix=fix, err=exc) from None
    except LookupError:
        raise InputError(f"{path}: unknown encoding {encoding!r}; give a Python codec name such as utf-8, "
                         f"latin-1 or cp1252") from None
    return text.removeprefix("\ufeff")


def read_text(path: str | os.PathLike, encoding: str = "utf-8", *, fix: str = PASS_ENCODING,
              what: str = "") -> str:
    """The text of the file ``path`` in ``encoding`` (a byte-order mark dropped), every failure an
    :class:`InputError` naming the file (:func:`read_bytes`, :func:`decode`). Line ends are kept as they are
    (offsets count a CRLF as two characters)."""
    return decode(read_bytes(path, what=what), path, encoding, fix=fix)


# -- reading options ---------------------------------------------------------------------------------------------

#: how a tab may be typed where a delimiter is asked for (a shell makes typing the character itself awkward)
TAB_WORDS = ("tab", "\\t")


def check_separator(value: Any, *, what: str = "sep", single: bool = False) -> str | None:
    """The one rule for a column delimiter (``--sep``, ``sep=``, ``benchmark.cfg``'s ``sep``): ``None`` (the
    reader's default: any whitespace, or a CSV's comma), or a non-empty string without a line break; ``tab`` or
    ``\\t`` (as typed in a shell) is a tab. ``single``: a CSV delimiter, one character other than ``"``.
    Anything else is a :class:`~spacy_anno_eval.errors.ConfigError` naming ``what``.

    >>> check_separator("tab"), check_separator(";", single=True), check_separator(None)
    ('\\t', ';', None)
    """
    if value is None:
        return None
    if isinstance(value, str) and value.lower() in TAB_WORDS:
        value = "\t"
    bad = not isinstance(value, str) or not value or "\n" in value or "\r" in value
    if single and (bad or len(value) != 1 or value == '"'):
        raise ConfigError(f"{what} must be one character (the CSV delimiter, e.g. ';' or a tab), got {value!r}")
    if bad:
        raise ConfigError(f"{what}={value!r} is no column delimiter; give a delimiter such as a tab (tab, '\\t') "
                          f"or ';', or None (no --sep) for any whitespace")
    return value


def check_encoding(value: Any, *, what: str = "encoding") -> str | None:
    """The one rule for a text encoding (``--encoding``, ``encoding=``, ``benchmark.cfg``): ``None`` (UTF-8) or a
    codec Python knows; anything else is a :class:`~spacy_anno_eval.errors.ConfigError` naming ``what``.

    >>> check_encoding("latin-1"), check_encoding(None)
    ('latin-1', None)
    """
    if value is None:
        return None
    import codecs

    try:
        codecs.lookup(value if isinstance(value, str) else "")
    except LookupError:
        raise ConfigError(f"{what} {value!r}: unknown encoding; use a Python codec name such as utf-8, latin-1, "
                          f"cp1252 or utf-16") from None
    return value


# -- nesting -------------------------------------------------------------------------------------------------------

#: a JSON string; possessive, and its closing quote optional, so that an unclosed string (a truncated line) is one
#: match to the end instead of a failed match retried from every later quote (quadratic: 13.8 s on one 64 KiB line)
_JSON_STRING = re.compile(r'"(?:[^"\\]|\\.)*+"?', re.DOTALL)


def _too_deep(source: str, kind: str, line: int | None = None) -> InputError:
    return InputError(f"{where(source, line=line)}: {kind} nesting deeper than {MAX_DEPTH} levels; no annotation "
                      f"file nests this deep (check the file)")


def nesting_depth(text: str, opening: str, closing: str) -> tuple[int, int]:
    """The deepest nesting of ``opening``/``closing`` characters in ``text`` and the offset where it is first
    reached (brackets are counted as they stand; strip quoted strings first where they may hold some)."""
    import numpy as np

    data = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
    step = np.zeros(len(data), dtype=np.int64)
    for ch in opening:
        step[data == ord(ch)] = 1
    for ch in closing:
        step[data == ord(ch)] = -1
    if not len(step):
        return 0, 0
    depth = np.cumsum(step)
    at = int(np.argmax(depth))
    return int(depth[at]), at


def check_brackets(text: str, source: str, *, opening: str = "(", closing: str = ")",
                   first_line: int = 1) -> None:
    """Refuse ``text`` (bracketed trees of ``source``) when its brackets nest deeper than :data:`MAX_DEPTH`,
    naming the line where they do. Cheap: only text holding more opening brackets than the limit is measured."""
    if sum(text.count(ch) for ch in opening) <= MAX_DEPTH:
        return
    depth, at = nesting_depth(text, opening, closing)
    if depth > MAX_DEPTH:
        raise _too_deep(source, "brackets", first_line + text.count("\n", 0, at))


# -- JSON ----------------------------------------------------------------------------------------------------------


def _json_depth(text: str) -> tuple[int, int]:
    """The deepest nesting of arrays and objects in the JSON ``text`` and where it is reached (brackets inside
    strings do not count; the offset is then approximate, good for a line number)."""
    return nesting_depth(_JSON_STRING.sub('""', text), "[{", "]}")


def json_depth(text: str) -> int:
    """The deepest nesting of arrays and objects in the JSON ``text`` (brackets inside strings do not count)."""
    return _json_depth(text)[0]


# a surrogate escape, with the escape of its low half when there is one; the backslashes before it are counted
# to tell an escape (odd: ``\ud800``) from an escaped backslash followed by text (even: ``\\ud800``)
_SURROGATE = re.compile(r"(\\+)u[dD][89a-fA-F][0-9a-fA-F]{2}")
_HIGH = re.compile(r"\\u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2}")


def _lone_escape(text: str) -> int | None:
    """The offset of the first lone surrogate escape in the JSON ``text`` (a high half without its low half, or a
    low half alone), or ``None``."""
    pos = 0
    while (m := _SURROGATE.search(text, pos)) is not None:
        if len(m.group(1)) % 2 == 0:  # an escaped backslash, then plain text
            pos = m.end()
            continue
        start = m.end(1) - 1
        if _HIGH.match(text, start):
            pos = start + 12
            continue
        return start
    return None


def _lone_surrogate(value: Any) -> str | None:
    """The first string (key or value) of a decoded JSON ``value`` that holds a lone surrogate, or ``None``."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                return item
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return None


def record_id(value: Any) -> str | None:
    """The id a JSON record gives itself (``meta.id``, ``id``, ``_id``, ``doc_id``), for messages; else None."""
    if not isinstance(value, dict):
        return None
    meta = value.get("meta")
    if isinstance(meta, dict) and isinstance(meta.get("id"), str | int) and not isinstance(meta.get("id"), bool):
        return str(meta["id"])
    for key in ("id", "_id", "doc_id", "name"):
        found = value.get(key)
        if isinstance(found, str | int) and not isinstance(found, bool):
            return str(found)
    return None


class _Counter:
    """How many non-finite numbers a parse met (read as null)."""

    def __init__(self) -> None:
        self.count = 0

    def constant(self, name: str) -> None:  # NaN, Infinity, -Infinity
        self.count += 1
        return None

    def number(self, text: str) -> float | None:  # 1e999 overflows to inf
        value = float(text)
        if math.isfinite(value):
            return value
        self.count += 1
        return None


def _warn_nonfinite(source: str, count: int) -> None:
    if count:
        warnings.warn(f"{source}: {count} number{'s' if count > 1 else ''} that {'are' if count > 1 else 'is'} "
                      f"not finite (NaN, Infinity) read as null: JSON has no such numbers, and a field that "
                      f"needs a number refuses null", NonFiniteNumberWarning, stacklevel=3)


def json_value(text: str, source: str, *, line: int | None = None, expected: str = "",
               counter: _Counter | None = None) -> Any:
    """The JSON ``text`` of ``source`` (``line``: where it starts, for a JSON line) decoded by the rules of this
    module: nesting beyond :data:`MAX_DEPTH` and lone surrogates refused, non-finite numbers read as null (counted
    in ``counter``; without one, warned at once). Invalid JSON is an :class:`InputError` with its line and
    column, then ``expected`` (what the file should hold).

    >>> json_value('{"score": NaN, "spans": [1e999, 2]}', "x.json", counter=_Counter())
    {'score': None, 'spans': [None, 2]}
    """
    if text.count("[") + text.count("{") > MAX_DEPTH:
        depth, at = _json_depth(text)
        if depth > MAX_DEPTH:
            raise _too_deep(source, "JSON", (line or 1) + text.count("\n", 0, at))
    own = counter is None
    counter = counter or _Counter()
    try:
        value = json.loads(text, parse_constant=counter.constant, parse_float=counter.number)
    except json.JSONDecodeError as exc:
        at = (line or 1) + exc.lineno - 1
        raise InputError(f"{where(source, line=at)}: invalid JSON ({exc.msg} at column {exc.colno})"
                         f"{'; ' + expected if expected else ''}") from None
    except RecursionError:  # not reached: the depth is checked first
        raise _too_deep(source, "JSON", line) from None
    if "\\u" in text and _SURROGATE.search(text) and (bad := _lone_surrogate(value)) is not None:
        at = _lone_escape(text)
        at_line = (line or 1) + (text.count("\n", 0, at) if at is not None else 0)
        doc = record_id(value) if line is not None else None
        raise InputError(f"{where(source, doc, at_line)}: the text {bad[:60]!r} holds a lone surrogate (a \\ud800"
                         f"-\\udfff escape without its pair), which is no character and which no output can hold; "
                         f"fix the escape in the file")
    if own:
        _warn_nonfinite(source, counter.count)
    return value


def json_file(path: str | os.PathLike, encoding: str = "utf-8", *, expected: str = "", fix: str = PASS_ENCODING,
              data: bytes | None = None, source: str | None = None) -> Any:
    """The JSON file ``path`` (or its bytes ``data``) read by the rules of this module (:func:`json_value`);
    ``expected`` (what the file should hold) follows a message about invalid JSON, ``fix`` one about text that
    is not in ``encoding``."""
    src = source or str(path)
    text = decode(read_bytes(path) if data is None else data, src, encoding, fix=fix)
    if not text.strip():
        raise InputError(f"{src}: the file is empty{'; ' + expected if expected else ''}")
    return json_value(text, src, expected=expected)


def json_lines(lines: Iterable[str] | str | os.PathLike, source: str | None = None, encoding: str = "utf-8", *,
               first_line: int = 1, expected: str = "expected one JSON value per line") -> Iterator[tuple[int, Any]]:
    """``(line number, value)`` for every non-blank line of a JSON-lines file (a path) or of ``lines`` (a run of
    the file's lines starting at ``first_line``), each read by :func:`json_value`; text that is not in
    ``encoding`` names its line and byte. One warning counts the non-finite numbers read as null."""
    if isinstance(lines, str | os.PathLike):
        path = Path(lines)
        src = source or str(path)
        read_bytes(path)  # a missing file, a folder: named
        handle = open(path, encoding=encoding, newline=None)  # noqa: SIM115 - closed below
    else:
        path, src, handle = None, source or "JSON lines", None
    counter = _Counter()
    try:
        for line_no, line in enumerate(lines if handle is None else handle, first_line):
            if not line.strip():
                continue
            yield line_no, json_value(line.rstrip("\r\n"), src, line=line_no, expected=expected, counter=counter)
    except UnicodeDecodeError as exc:
        raise undecodable(path or src, encoding, err=exc) from None
    finally:
        if handle is not None:
            handle.close()
    _warn_nonfinite(src, counter.count)


def sniff_json(text: str) -> Any:
    """The JSON ``text`` decoded quietly, or ``None`` when it is not JSON by the rules of this module (for format
    detection on a file's first bytes: never an error, never a warning)."""
    try:
        return json_value(text, "", counter=_Counter())
    except InputError:
        return None


def finite_number(value: Any) -> Any:
    """The one rule for numbers read from text (an XMI ``Double`` ``"NaN"``, a NIF ``"INF"^^xsd:double``): a
    float that is NaN or infinite is ``None``; anything else is returned as it is.

    >>> finite_number(float("nan")), finite_number(0.5), finite_number("x")
    (None, 0.5, 'x')
    """
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def excerpt(value: Any, size: int = 80) -> str:
    """``value`` as JSON text for a message, cut to ``size`` characters (never fails: NaN and other values a
    strict writer refuses are shown as Python writes them)."""
    try:
        text = json.dumps(value, ensure_ascii=False, default=repr)
    except (TypeError, ValueError, RecursionError):
        text = repr(value)
    return text[:size]


# -- XML -----------------------------------------------------------------------------------------------------------

_CHUNK = 1 << 16


class _RootReached(Exception):
    pass


def _refuse_entities(data: bytes, source: str) -> None:
    """Raise :class:`InputError` when the prolog of ``data`` declares an entity."""
    parser = expat.ParserCreate()
    parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)

    def entity(name: str, *args: object) -> None:
        raise InputError(f"{where(source, line=parser.CurrentLineNumber)}: the XML declares the entity {name!r}; "
                         f"entity declarations are refused (they can expand without bound or read other files). "
                         f"Remove the <!ENTITY ...> declarations from the file's DOCTYPE")

    def root(*args: object) -> None:
        raise _RootReached

    parser.EntityDeclHandler = entity
    parser.UnparsedEntityDeclHandler = entity
    parser.StartElementHandler = root
    try:
        for i in range(0, max(len(data), 1), _CHUNK):
            parser.Parse(data[i:i + _CHUNK], i + _CHUNK >= len(data))
    except _RootReached:
        return
    except expat.ExpatError as exc:
        raise InputError(f"{where(source, line=exc.lineno)}: invalid XML ({expat.errors.messages[exc.code]})") \
            from None
    except (LookupError, ValueError) as exc:  # an encoding the declaration names and Python does not know
        raise InputError(f"{source}: invalid XML ({exc})") from None


def _check_xml_depth(root: ET.Element, source: str) -> None:
    """Refuse an element tree deeper than :data:`MAX_DEPTH` (walked level by level, no recursion)."""
    level, depth = [root], 1
    while level:
        level = [child for element in level for child in element]
        depth += bool(level)
        if depth > MAX_DEPTH:
            raise _too_deep(source, "XML elements")


def parse_xml(path: str | os.PathLike | None = None, data: bytes | None = None,
              source: str | None = None) -> ET.Element:
    """The root element of the XML file ``path`` (or of the bytes ``data``): entities refused, nesting beyond
    :data:`MAX_DEPTH` refused.

    Raise :class:`InputError` for a file that cannot be read, invalid XML (with its line), an entity
    declaration or nesting too deep. ``source`` names the input in messages (default: ``path``).
    """
    src = source or (str(path) if path is not None else "XML")
    if data is None:
        if path is None:
            raise TypeError("parse_xml needs a path or data")
        data = read_bytes(path)
    _refuse_entities(data, src)
    try:
        root = ET.fromstring(data)
    except ET.ParseError as exc:
        line = exc.position[0] if getattr(exc, "position", None) else None
        raise InputError(f"{where(src, line=line)}: invalid XML ({exc})") from None
    except (LookupError, ValueError) as exc:
        raise InputError(f"{src}: invalid XML ({exc})") from None
    _check_xml_depth(root, src)
    return root


def local_name(tag: str) -> str:
    """An element's name without its namespace (``{http://...}GateDocument`` -> ``GateDocument``)."""
    return tag.rsplit("}", 1)[-1]


def root_name(path: str | os.PathLike, head: int = 4096) -> str | None:
    """The local name of the root element of an XML file, read from its first ``head`` bytes (``None`` when it
    cannot be told): for format detection. Entities are never expanded here."""
    try:
        data = head_bytes(path, head)
    except InputError:
        return None
    parser = expat.ParserCreate(namespace_separator="}")
    parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
    found: list[str] = []

    def start(name: str, attrs: object) -> None:
        found.append(local_name(name))
        raise _RootReached

    def entity(*args: object) -> None:
        raise _RootReached

    parser.StartElementHandler = start
    parser.EntityDeclHandler = entity
    try:
        parser.Parse(data, False)
    except (_RootReached, expat.ExpatError, LookupError, ValueError):  # LookupError: an unknown encoding
        pass
    return found[0] if found else None


__all__ = ["MAX_DEPTH", "TAB_WORDS", "check_brackets", "check_encoding", "check_separator", "decode", "excerpt",
           "finite_number", "first_line", "head_bytes", "json_depth", "json_file", "json_lines", "json_value",
           "local_name", "nesting_depth", "open_binary", "parse_xml", "read_bytes", "read_text", "record_id",
           "root_name", "sniff_json"]
