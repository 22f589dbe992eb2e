"""The DocBin wire format, decoded without building spaCy Docs: the fast path of :mod:`.docbin`.

A DocBin (https://spacy.io/api/docbin, defined in ``spacy/tokens/_serialize.py``)
is a zlib-compressed msgpack map::

    {"version": "0.1",
     "attrs": [ORTH, ...],          # attribute ids, ORTH first
     "tokens": bytes,               # uint64 array, one row per token, one column per attr
     "spaces": bytes,               # bool per token (SPACY: a space follows the token)
     "lengths": bytes,              # int32 tokens per document
     "strings": [str, ...],         # every string whose hash occurs in the data
     "cats": [dict, ...], "flags": [{"has_unknown_spaces": bool}, ...],
     "span_groups": [bytes, ...],   # Doc.spans.to_bytes() per document
     "user_data": [bytes, ...]}     # only with DocBin(store_user_data=True)

:func:`decode_shards` decodes each file into its token columns (a
:class:`Shard`). The ``tokens`` field is streamed out of zlib and only its
ORTH / ENT_IOB / ENT_TYPE columns are kept (:func:`_inflate`); string hashes
are resolved with a numpy hash table (:class:`KeyIndex`,
:func:`string_positions`). Only the user data blobs that can hold an id or a
set's categories are decoded (a byte search for the msgpack key), and span
groups are read for their keys only (:func:`_group_docs`). A message the
decoder does not recognise (a ``version`` other than ``KNOWN_VERSIONS``, or a
field it reads missing or of another type) makes :func:`decode_shards` give
``None``, so that spaCy's own reader decides; a message that is no DocBin at
all is an :class:`~spacy_anno_eval.errors.InputError`.
"""

from __future__ import annotations

import gc
import zlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..annotations.docs import CATS_KEY, DOC_ID_KEYS, given_id
from ..annotations.table import INDEX
from ..errors import InputError
from .coverage import docs_per_key
from .parse import read_bytes

U64 = np.uint64
EXPECTED = "a spaCy DocBin (zlib-compressed msgpack as written by DocBin.to_disk)"


def not_utf8_error(f: Any, exc: UnicodeDecodeError, part: str = "") -> InputError:
    """A DocBin string (a text, a label, a user-data id) that is not UTF-8: a lone surrogate, or damaged bytes
    (spaCy's own writer cannot write one): one located line, not a traceback of msgpack's."""
    bad = exc.object[exc.start:exc.end] if isinstance(exc.object, bytes) else b""
    inside = f", {part}" if part else ""
    return InputError(f"{f}{inside}: holds a string that is not UTF-8 (the bytes {bad!r}: a lone surrogate or "
                      f"damaged bytes), which no output can hold; write the DocBin again from its source")

# attribute ids (spacy.attrs); fixed by spaCy's symbol table
_ORTH, _ENT_IOB, _ENT_TYPE = 65, 77, 78
# msgpack encodings (fixstr) of the user_data keys that carry a document id
_ID_KEYS = tuple(bytes([0xa0 | len(k)]) + k.encode() for k in DOC_ID_KEYS)
# and of the key that holds each set's categories
_CATS_KEY = bytes([0xa0 | len(CATS_KEY)]) + CATS_KEY.encode()


def docbin_bytes(f: Path) -> bytes:
    """The bytes of the DocBin file ``f``, read by :func:`~spacy_anno_eval.io.parse.read_bytes` (missing, a
    folder, unreadable: an :class:`InputError` naming it)."""
    return read_bytes(f)


@dataclass
class Shard:
    """The decoded columns of one DocBin file."""

    sizes: np.ndarray         # tokens per document (int64)
    orth: np.ndarray          # ORTH hash per token (uint64)
    spaces: np.ndarray        # SPACY per token (bool)
    iob: np.ndarray | None    # ENT_IOB per token (uint8), None when not stored
    etype: np.ndarray | None  # ENT_TYPE hash per token (uint64)
    strings: list[str]
    keys: np.ndarray          # spaCy's key (hash or symbol id) of every string
    doc_ids: list[str | None] | None  # from user_data, None when no document has one
    group_docs: dict[str, list[int]]  # span group key -> the documents holding it (present but empty counts)
    cats: list[Any] | None = None         # doc.cats per document, None when no document has one
    set_cats: list[Any] | None = None     # user_data["cats"] per document (None where absent), None when none has


def decode_shards(files: Sequence[Path]) -> list[Shard] | None:
    """Decode every DocBin file into token columns, in order; ``None`` when one is a message this decoder does not
    recognise (another ``version`` or layout: spaCy's own reader decides). Raise :class:`InputError` for a file
    that is not a DocBin."""
    try:
        return [_decode_shard(f) for f in files]
    except _Unrecognised:
        return None


def _decode_shard(f: Path) -> Shard:
    """Decode one DocBin file into token columns; raise on anything that is not a DocBin."""
    raw = docbin_bytes(f)
    try:
        msg, columns = _inflate(raw)
        lengths = np.frombuffer(msg["lengths"], dtype=np.int32).astype(INDEX)
        n_tok = int(lengths.sum())
        if (lengths < 0).any() or len(columns["orth"]) != n_tok:
            raise ValueError(f"{len(columns['orth'])} tokens stored but the document lengths add up to {n_tok}")
        spaces = np.frombuffer(msg["spaces"], dtype=bool)
        if spaces.size != n_tok:
            raise ValueError(f"{spaces.size} space flags for {n_tok} tokens")
        strings = msg["strings"]
        keys = string_keys(strings)  # TypeError for anything but a list of str
    except zlib.error as exc:
        raise InputError(f"{f}: not {EXPECTED}: zlib cannot decompress it ({exc})") from exc
    except (InputError, _Unrecognised):
        raise
    except UnicodeDecodeError as exc:
        raise not_utf8_error(f, exc) from exc
    except Exception as exc:  # a truncated or foreign msgpack message, missing fields, bad shapes
        raise InputError(f"{f}: not {EXPECTED} ({type(exc).__name__}: {exc})") from exc
    return Shard(
        sizes=lengths, orth=columns["orth"], spaces=_unknown_spaces(msg.get("flags"), spaces, lengths),
        iob=columns.get("iob"), etype=columns.get("etype"), strings=strings, keys=keys,
        doc_ids=_user_data_ids(msg.get("user_data"), len(lengths), f),
        group_docs=_group_docs(msg.get("span_groups"), len(lengths)),
        cats=_doc_cats(msg.get("cats"), len(lengths)),
        set_cats=_user_data_cats(msg.get("user_data"), len(lengths), f),
    )


def _unknown_spaces(flags: Any, spaces: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """Spaces as ``DocBin.get_docs`` restores them: all True for docs flagged ``has_unknown_spaces``."""
    if not flags:
        return spaces
    unknown = np.array([bool(isinstance(fl, dict) and fl.get("has_unknown_spaces")) for fl in flags], dtype=bool)
    if len(unknown) != len(lengths) or not unknown.any():
        return spaces
    spaces = spaces.copy()
    spaces[np.repeat(unknown, lengths)] = True
    return spaces


def _user_data_ids(user_data: list[Any] | None, n_docs: int, source: Any = "") -> list[str | None] | None:
    """``user_data["doc_id"]`` / ``["id"]`` per doc, decoding only blobs that may hold one; a blob that does not
    decode (damaged bytes, a string that is not UTF-8) is an :class:`InputError` naming ``source`` and the
    document."""
    if not user_data:
        return None
    ids: list[str | None] = []
    for k, blob in enumerate(user_data):
        value = None
        if isinstance(blob, bytes) and any(key in blob for key in _ID_KEYS):
            data = _user_data(blob, source, k)
            if isinstance(data, dict):
                value = given_id(data)
        ids.append(value)
    if all(i is None for i in ids):
        return None
    return (ids + [None] * n_docs)[:n_docs]


def _user_data(blob: bytes, source: Any, k: int) -> Any:
    """One document's user data decoded; a blob that does not decode (damaged bytes, a string that is not UTF-8)
    is an :class:`InputError` naming ``source`` and document ``k``."""
    try:
        # the plain unpacker: srsly.msgpack_loads looks up its decoders in the entry points on every call
        # (about 0.2 ms a document); ids and categories are plain values, and values that need a decoder (numpy
        # arrays in other user_data keys) come back as raw dicts, which is harmless here
        from srsly.msgpack._unpacker import unpackb

        def loads(blob: bytes) -> Any:
            return unpackb(blob, raw=False, use_list=False)
    except ImportError:  # pragma: no cover - another srsly layout
        import srsly

        def loads(blob: bytes) -> Any:
            return srsly.msgpack_loads(blob, use_list=False)
    try:
        return loads(blob)
    except UnicodeDecodeError as exc:
        raise not_utf8_error(source, exc, f"document {k}") from exc
    except Exception as exc:  # a truncated or foreign blob
        raise InputError(f"{source}, document {k}: its user data does not decode ({type(exc).__name__}: "
                         f"{exc}); write the DocBin again from its source") from exc


def _user_data_cats(user_data: list[Any] | None, n_docs: int, source: Any = "") -> list[Any] | None:
    """``user_data["cats"]`` per doc (``None`` where absent), decoding only blobs that may hold the key; ``None``
    when no document has it."""
    if not user_data:
        return None
    found: list[Any] = [None] * n_docs
    for k, blob in enumerate(user_data[:n_docs]):
        if isinstance(blob, bytes) and _CATS_KEY in blob:
            data = _user_data(blob, source, k)
            if isinstance(data, dict):
                found[k] = data.get(CATS_KEY)
    return found if any(c is not None for c in found) else None


def _doc_cats(cats: Any, n_docs: int) -> list[Any] | None:
    """The ``cats`` field (``doc.cats`` per document) when some document has a category, else ``None``; raise
    :class:`_Unrecognised` for another layout, so that spaCy's own reader decides."""
    if cats is None:
        return None
    if not isinstance(cats, list) or len(cats) != n_docs:
        raise _Unrecognised("DocBin cats is not one entry per document")
    return cats if any(cats) else None


_NO_GROUPS = (b"", b"\x90", b"\x80")  # Doc.spans.to_bytes() of a document without span groups (msgpack [] / {})


def _group_docs(blobs: Any, n_docs: int) -> dict[str, list[int]]:
    """Span group key -> the documents that hold it, from the ``span_groups`` field (``Doc.spans.to_bytes()``
    per document: a msgpack map of group bytes to its keys, or, as spaCy < 3.4 wrote it, a list of group bytes
    whose ``name`` is the key), without building the groups; a document without groups costs a byte
    comparison. Raise :class:`_Unrecognised` for anything else, so that spaCy's own reader decides."""
    if blobs is None:
        return {}
    if not isinstance(blobs, list) or len(blobs) != n_docs:
        raise _Unrecognised("DocBin span_groups is not one entry per document")
    if set(blobs).issubset(_NO_GROUPS):  # TypeError for an unhashable entry: see below
        return {}
    from srsly.msgpack._unpacker import unpackb

    def keys_of(blob: Any) -> Iterable[str]:
        if blob in _NO_GROUPS:
            return ()
        if not isinstance(blob, bytes):
            raise _Unrecognised("DocBin span_groups holds something other than bytes")
        try:
            msg = unpackb(blob, raw=False)
            keys = [k for ks in msg.values() for k in ks] if isinstance(msg, dict) else \
                [unpackb(g, raw=False)["name"] for g in msg]
        except Exception as exc:  # any other layout goes to spaCy's reader
            raise _Unrecognised(f"DocBin span_groups entry not read ({type(exc).__name__})") from exc
        if not all(isinstance(k, str) for k in keys):
            raise _Unrecognised("DocBin span group keys are not strings")
        return dict.fromkeys(keys)

    return docs_per_key(map(keys_of, blobs))


# -- inflating the message, with the token columns pulled out on the way

_INPUT_PIECE = 1 << 16  # compressed bytes per zlib call while streaming the tokens field
_HEAD = 1 << 16         # decompressed bytes read before looking for the tokens field


def _inflate(raw: bytes) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    """Decompress a DocBin message: the top-level fields, and the token columns the fast path needs.

    The ``tokens`` field (one uint64 row per token, one column per attribute)
    is most of the message. When it follows ``version`` and ``attrs``, as
    ``DocBin.to_bytes`` writes it, it is streamed: the ORTH, ENT_IOB and
    ENT_TYPE columns are copied out of each decompressed piece and the rest
    is dropped, so the full message is never held in memory at once.
    Otherwise the message is decompressed whole.
    """
    inflater = zlib.decompressobj()
    view = memoryview(raw)
    head_parts, got, at = [], 0, 0
    while got < _HEAD and at < len(raw):
        piece = inflater.decompress(view[at:at + _INPUT_PIECE])
        at += _INPUT_PIECE
        head_parts.append(piece)
        got += len(piece)
    head = b"".join(head_parts)
    found = _find_tokens(head)
    if found is None or found[2] <= len(head):
        data = head + inflater.decompress(view[at:]) + inflater.flush()
        _check_end(inflater)
        msg = _top_level(data)
        _check_layout(msg, complete=True)
        return msg, _columns_of(msg)
    fields, start, end, n_left = found
    _check_layout(fields)
    cols = _ColumnSink([int(a) for a in fields["attrs"]], end - start)
    cols.feed(memoryview(head)[start:])
    tail: list[bytes] = []
    while at < len(raw):
        _route(inflater.decompress(view[at:at + _INPUT_PIECE]), cols, tail)
        at += _INPUT_PIECE
    _route(inflater.flush(), cols, tail)
    _check_end(inflater)
    if cols.missing:
        raise ValueError("the tokens field is truncated")
    msg = _top_level(b"".join(tail), n_left)
    msg.update(fields)
    _check_layout(msg, complete=True)
    return msg, cols.columns()


class _Unrecognised(Exception):
    """A DocBin message this reader does not know (another ``version``, missing or other fields): the
    caller reads it with spaCy instead."""


#: the DocBin versions whose layout the fast path knows (``spacy/tokens/_serialize.py`` writes "0.1")
KNOWN_VERSIONS = ("0.1",)
#: the fields the fast path reads, and the msgpack types it expects them to have
_LAYOUT: dict[str, tuple[type, ...]] = {"attrs": (list,), "lengths": (bytes, memoryview),
                                        "spaces": (bytes, memoryview), "strings": (list,)}


def _check_layout(msg: dict[str, Any], complete: bool = False) -> None:
    """Raise :class:`_Unrecognised` unless ``msg`` has a known ``version`` and (``complete``) the fields the
    fast path relies on, with the types it expects."""
    version = msg.get("version")
    if version not in KNOWN_VERSIONS:
        raise _Unrecognised(f"DocBin version {version!r} (the fast reader knows {', '.join(KNOWN_VERSIONS)})")
    if not isinstance(msg.get("attrs"), list) or not all(isinstance(a, int) for a in msg["attrs"]):
        raise _Unrecognised("DocBin attrs are not a list of attribute ids")
    if complete:
        for key, types in _LAYOUT.items():
            if not isinstance(msg.get(key), types):
                raise _Unrecognised(f"DocBin field {key!r} is missing or of another type")


def _check_end(inflater: Any) -> None:
    if not inflater.eof:
        raise zlib.error("incomplete or truncated stream")


def _route(piece: bytes, cols: _ColumnSink, tail: list[bytes]) -> None:
    """Send the part of ``piece`` that belongs to the tokens field to ``cols``, the rest to ``tail``."""
    if not piece:
        return
    take = min(cols.missing, len(piece))
    if take:
        cols.feed(memoryview(piece)[:take] if take < len(piece) else piece)
    if take < len(piece):
        tail.append(piece[take:])


def _find_tokens(head: bytes) -> tuple[dict[str, Any], int, int, int] | None:
    """(the small fields before it, payload start, payload end, entries after it) when ``tokens``
    follows small fields only (``version`` and ``attrs``, as ``DocBin.to_bytes`` writes them)."""
    try:
        n, pos = _map_header(head, 0)
        fields: dict[str, Any] = {}
        for i in range(n):
            key, after = _small_value(head, pos)
            if key == "tokens" and isinstance(fields.get("attrs"), list) and head[after] == 0xc6:
                start = after + 5
                return fields, start, start + int.from_bytes(head[after + 1:start], "big"), n - i - 1
            value, pos = _small_value(head, after)
            if value is _NOT_SMALL or not isinstance(key, str):
                return None
            fields[key] = value
    except IndexError:  # the head ends inside a field
        return None
    return None


class _ColumnSink:
    """Receives the bytes of the tokens field piece by piece and keeps three of its columns."""

    def __init__(self, attrs: list[int], size: int):
        width = len(attrs)
        if not width or _ORTH not in attrs or size % (8 * width):
            raise ValueError(f"a tokens field of {size} bytes does not hold rows of {width} attributes with ORTH")
        self.width = width
        self.row_bytes = 8 * width
        self.n_rows = size // self.row_bytes
        self.missing = size
        self.row = 0
        self.carry = b""
        has_ents = _ENT_IOB in attrs and _ENT_TYPE in attrs
        self.targets = [("orth", attrs.index(_ORTH), np.empty(self.n_rows, dtype=U64))]
        if has_ents:
            self.targets += [("iob", attrs.index(_ENT_IOB), np.empty(self.n_rows, dtype=np.uint8)),
                             ("etype", attrs.index(_ENT_TYPE), np.empty(self.n_rows, dtype=U64))]

    def feed(self, buf: bytes | memoryview) -> None:
        self.missing -= len(buf)
        if self.carry:
            need = self.row_bytes - len(self.carry)
            self.carry += bytes(buf[:need])
            buf = buf[need:]
            if len(self.carry) < self.row_bytes:
                return
            self._rows(self.carry)
            self.carry = b""
        k = len(buf) // self.row_bytes
        if k:
            self._rows(buf, k)
        self.carry = bytes(buf[k * self.row_bytes:])

    def _rows(self, buf: bytes | memoryview, k: int = 1) -> None:
        rows = np.frombuffer(buf, dtype=U64, count=k * self.width).reshape(k, self.width)
        for _, col, out in self.targets:
            out[self.row:self.row + k] = rows[:, col]
        self.row += k

    def columns(self) -> dict[str, np.ndarray]:
        return {name: out for name, _, out in self.targets}


def _columns_of(msg: dict[str, Any]) -> dict[str, np.ndarray]:
    """The token columns of a message decoded whole."""
    attrs = [int(a) for a in msg["attrs"]]
    tokens = np.frombuffer(msg["tokens"], dtype=U64)
    if not attrs or tokens.size % len(attrs) or _ORTH not in attrs:
        raise ValueError(f"{tokens.size} token values do not make rows of {len(attrs)} attributes with ORTH")
    tokens = tokens.reshape(-1, len(attrs))
    out = {"orth": np.ascontiguousarray(tokens[:, attrs.index(_ORTH)])}
    if _ENT_IOB in attrs and _ENT_TYPE in attrs:
        out["iob"] = tokens[:, attrs.index(_ENT_IOB)].astype(np.uint8)
        out["etype"] = np.ascontiguousarray(tokens[:, attrs.index(_ENT_TYPE)])
    return out


# -- msgpack top level without copying the large binary fields


_WANTED = {"version", "attrs", "tokens", "spaces", "lengths", "strings", "user_data", "span_groups"}
_UNKNOWN_SPACES = b"\xb2has_unknown_spaces\xc3"  # msgpack of the key, then True


def _top_level(data: bytes, n_left: int | None = None) -> dict[str, Any]:
    """The fields of a DocBin message that the fast path needs.

    ``data`` is the whole message, or (with ``n_left``) its last ``n_left``
    map entries. Leading binary fields come back as memoryviews into
    ``data``, without a copy; small leading fields (``version``, ``attrs``)
    are read by hand; the rest of the map (strings, cats, flags, ...) is
    decoded by srsly's msgpack ``Unpacker``, skipping the fields not needed.
    """
    view = memoryview(data)
    n, pos = _map_header(data, 0) if n_left is None else (n_left, 0)
    out: dict[str, Any] = {}
    for i in range(n):
        key, after = _small_value(data, pos)
        if not isinstance(key, str):
            raise ValueError("a DocBin map has string keys")
        binary = _bin_extent(data, after)
        if binary is not None:
            out[key] = view[binary[0]:binary[1]]
            pos = binary[1]
            continue
        value, end = _small_value(data, after)
        if value is not _NOT_SMALL:
            out[key] = value
            pos = end
            continue
        _rest_with_unpacker(view[pos:], n - i, out)
        break
    return out


def _rest_with_unpacker(rest: memoryview, n_left: int, out: dict[str, Any]) -> None:
    from srsly.msgpack._unpacker import Unpacker, unpackb

    unpacker = Unpacker(raw=False, use_list=True, max_buffer_size=max(len(rest), 1 << 20))
    unpacker.feed(rest)
    gc_was_enabled = gc.isenabled()
    gc.disable()  # msgpack's own advice for many small containers
    try:
        for _ in range(n_left):
            key = unpacker.unpack()
            if key in _WANTED:
                out[key] = unpacker.unpack()
            elif key == "flags":  # decoded only when some document has unknown spaces
                start = unpacker.tell()
                unpacker.skip()
                raw = bytes(rest[start:unpacker.tell()])
                if _UNKNOWN_SPACES in raw:
                    out[key] = unpackb(raw, raw=False)
            elif key == "cats":  # decoded only when some document has a category (not every map is empty)
                start = unpacker.tell()
                unpacker.skip()
                raw = bytes(rest[start:unpacker.tell()])
                head = 1 if raw[:1] and 0x90 <= raw[0] <= 0x9f else {0xdc: 3, 0xdd: 5}.get(raw[0] if raw else 0, 0)
                if not head or raw[head:].count(0x80) != len(raw) - head:
                    out[key] = unpackb(raw, raw=False)
            else:
                unpacker.skip()
    finally:
        if gc_was_enabled:
            gc.enable()


_NOT_SMALL = object()


def _map_header(data: bytes, pos: int) -> tuple[int, int]:
    tag = data[pos]
    if 0x80 <= tag <= 0x8f:
        return tag & 0x0f, pos + 1
    if tag == 0xde:
        return int.from_bytes(data[pos + 1:pos + 3], "big"), pos + 3
    if tag == 0xdf:
        return int.from_bytes(data[pos + 1:pos + 5], "big"), pos + 5
    raise ValueError("the message is not a msgpack map")


def _bin_extent(data: bytes, pos: int) -> tuple[int, int] | None:
    """(start, end) of a msgpack bin's payload at ``pos``, or None if it is not a bin."""
    width = {0xc4: 1, 0xc5: 2, 0xc6: 4}.get(data[pos])
    if width is None:
        return None
    size = int.from_bytes(data[pos + 1:pos + 1 + width], "big")
    start = pos + 1 + width
    if start + size > len(data):
        raise ValueError("a binary field runs past the end of the message")
    return start, start + size


def _small_value(data: bytes, pos: int, max_items: int = 64) -> tuple[Any, int]:
    """Decode a str, int, nil/bool or a short array of them at ``pos`` by hand.

    Return ``(_NOT_SMALL, pos)`` for anything else, to be left to the Unpacker.
    """
    tag = data[pos]
    if tag <= 0x7f:
        return tag, pos + 1
    if tag >= 0xe0:
        return tag - 0x100, pos + 1
    if 0xa0 <= tag <= 0xbf or tag in (0xd9, 0xda, 0xdb):
        width = {0xd9: 1, 0xda: 2, 0xdb: 4}.get(tag, 0)
        size = tag & 0x1f if not width else int.from_bytes(data[pos + 1:pos + 1 + width], "big")
        start = pos + 1 + width
        return data[start:start + size].decode("utf8"), start + size
    if tag in (0xcc, 0xcd, 0xce, 0xcf, 0xd0, 0xd1, 0xd2, 0xd3):
        width = 1 << ((tag - 0xcc) % 4)
        signed = tag >= 0xd0
        return int.from_bytes(data[pos + 1:pos + 1 + width], "big", signed=signed), pos + 1 + width
    if tag in (0xc0, 0xc2, 0xc3):
        return {0xc0: None, 0xc2: False, 0xc3: True}[tag], pos + 1
    if 0x90 <= tag <= 0x9f or tag in (0xdc, 0xdd):
        width = {0xdc: 2, 0xdd: 4}.get(tag, 0)
        count = tag & 0x0f if not width else int.from_bytes(data[pos + 1:pos + 1 + width], "big")
        if count > max_items:
            return _NOT_SMALL, pos
        items, cur = [], pos + 1 + width
        for _ in range(count):
            item, cur = _small_value(data, cur, max_items)
            if item is _NOT_SMALL or isinstance(item, list):
                return _NOT_SMALL, pos
            items.append(item)
        return items, cur
    return _NOT_SMALL, pos



# -- strings


def string_keys(strings: list[str]) -> np.ndarray:
    """spaCy's key of every string: its symbol id for spaCy's symbols (and 0 for ""), else its 64-bit hash.

    The same keys as ``spacy.strings.get_string_id``, computed with one
    C-level hash call per string.
    """
    from spacy.strings import hash_string
    from spacy.symbols import IDS

    keys = np.fromiter(map(hash_string, strings), dtype=U64, count=len(strings))
    for symbol in set(strings).intersection(IDS):
        keys[_positions(strings, symbol)] = IDS[symbol]
    return keys


def _positions(strings: list[str], value: str) -> list[int]:
    out, i = [], -1
    while True:
        try:
            i = strings.index(value, i + 1)
        except ValueError:
            return out
        out.append(i)


class KeyIndex:
    """Positions of spaCy string keys in a strings list, looked up for many values at once with numpy.

    A direct-mapped table (about 1/8 full, Fibonacci hashing of the key)
    answers most lookups with two gathers; the values whose key lost its
    slot to another key go to a binary search over the sorted keys. This is
    several times faster than ``np.searchsorted`` for every token.
    """

    def __init__(self, keys: np.ndarray):
        self.keys = np.asarray(keys, dtype=U64)
        self.n = len(keys)
        bits = max(4, int(self.n * 8 - 1).bit_length())
        self.shift = U64(64 - bits)
        # an empty slot points at key 0: a value equal to keys[0] is then rightly found there
        self.table = np.zeros(1 << bits, dtype=np.int32 if self.n < 2**31 - 1 else INDEX)
        self.table[self._slots(self.keys)] = np.arange(self.n, dtype=self.table.dtype)
        self._sorted: tuple[np.ndarray, np.ndarray] | None = None

    def _slots(self, values: np.ndarray) -> np.ndarray:
        # Fibonacci hashing: the top bits of key * 2**64 / phi (symbol ids are small integers)
        slots = values * U64(0x9E3779B97F4A7C15)
        slots >>= self.shift
        return slots.view(INDEX)

    def lookup(self, values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Position of each value's key (-1 when absent), and a mask of the values found."""
        values = np.asarray(values, dtype=U64)
        if not self.n:
            return np.full(len(values), -1, dtype=INDEX), np.zeros(len(values), dtype=bool)
        pos = self.table.take(self._slots(values)).astype(INDEX, copy=False)
        miss = np.flatnonzero(self.keys.take(pos) != values)
        if len(miss):
            if self._sorted is None:
                order = np.argsort(self.keys, kind="stable")
                self._sorted = order, self.keys[order]
            order, sorted_keys = self._sorted
            wanted = values[miss]
            at = np.minimum(np.searchsorted(sorted_keys, wanted), self.n - 1)
            pos[miss] = np.where(sorted_keys[at] == wanted, order[at], -1)
        return pos, pos >= 0


def string_positions(index: KeyIndex, values: np.ndarray, source: str, what: str) -> np.ndarray:
    """Index into ``strings`` of every hash in ``values``; raise for a hash without its string."""
    pos, found = index.lookup(values)
    if not found.all():
        bad = int(values[np.flatnonzero(~found)[0]])
        raise InputError(f"{source}: corrupt DocBin: the {what} hash {bad} has no string in its "
                                 f"strings table (expected {EXPECTED})")
    return pos


__all__ = ["EXPECTED", "KNOWN_VERSIONS", "KeyIndex", "Shard", "decode_shards", "docbin_bytes", "not_utf8_error",
           "string_keys", "string_positions"]
