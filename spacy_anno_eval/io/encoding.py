"""Where a file stops being text in its encoding: the one message every reader gives (file, line, byte, what to do).

A :class:`UnicodeDecodeError` raised while a file is read through a text
stream counts its position from the start of the stream's current buffer,
not of the file, and names neither the file nor the line. :func:`undecodable`
decodes the file again to find the first bad byte and returns the
:class:`~spacy_anno_eval.errors.InputError` to raise::

    key.jsonl, line 3: not UTF-8 text (invalid continuation byte at byte 57); save it as UTF-8, or pass
    its encoding with --encoding (Python: encoding=), e.g. --encoding latin-1
"""

from __future__ import annotations

import codecs
import os
from pathlib import Path

from ..errors import InputError, where

#: what to do, when the reader takes ``encoding`` (``--encoding`` on the command line)
PASS_ENCODING = "save it as UTF-8, or pass its encoding with --encoding (Python: encoding=), e.g. --encoding latin-1"


def codec_label(encoding: str) -> str:
    """How a message names ``encoding``: ``UTF-8`` for utf-8 and utf-8-sig, else the name given."""
    try:
        name = codecs.lookup(encoding).name
    except LookupError:
        return encoding
    return {"utf-8": "UTF-8", "utf-8-sig": "UTF-8", "utf-16": "UTF-16"}.get(name, encoding)


def undecodable(path: str | os.PathLike, encoding: str = "utf-8", *, fix: str = PASS_ENCODING,
                err: UnicodeDecodeError | None = None) -> InputError:
    """The :class:`InputError` for a file that is not ``encoding`` text: the file, the line and byte of the first
    bad byte, and ``fix`` (what to do). ``err``: the error caught, reported as it is when the file decodes
    again (it changed meanwhile, or the error came from elsewhere)."""
    p = Path(path)
    label = codec_label(encoding)
    try:
        data = p.read_bytes()
    except OSError:
        data = b""
    try:
        data.decode(encoding)
    except UnicodeDecodeError as found:
        start = found.start
        if codecs.lookup(encoding).name == "utf-8-sig" and data.startswith(codecs.BOM_UTF8):
            start += len(codecs.BOM_UTF8)  # utf-8-sig counts after the byte-order mark
        line = data[:start].decode(encoding, errors="replace").count("\n") + 1
        return InputError(f"{where(str(p), line=line)}: not {label} text ({found.reason} at byte {start}); {fix}")
    except LookupError:
        return InputError(f"{p}: unknown encoding {encoding!r}; give a Python codec name such as utf-8 or latin-1")
    reason = f" ({err.reason})" if err is not None else ""
    return InputError(f"{p}: not {label} text{reason}; {fix}")


__all__ = ["PASS_ENCODING", "codec_label", "undecodable"]
