"""Phrase-structure treebanks of any supported format, read into :class:`~.phrase.PhraseTree` s.

``tree_format``: ``export`` (NEGRA export 3/4, :mod:`~.negra`), ``tiger``
(TIGER-XML, :mod:`~.tiger`), ``discbracket`` (disco-dop, :mod:`~.discbracket`),
``brackets`` (Penn Treebank, :mod:`~.brackets` via :func:`~.phrase.from_brackets`),
or ``auto``: by suffix, else by content (``#BOS`` / ``#FORMAT`` / ``%%``: export;
``<?xml`` or ``<corpus``: TIGER-XML; a bracket with an ``index=word`` leaf:
discbracket; another ``(``: Penn brackets).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from ..errors import ConfigError, InputError
from ..io.parse import head_bytes
from .phrase import PhraseTree, from_brackets

PHRASE_FORMATS = ("auto", "export", "tiger", "discbracket", "brackets")
SUFFIXES = {".export": "export", ".negra": "export", ".xml": "tiger", ".tiger": "tiger",
            ".discbracket": "discbracket", ".dbr": "discbracket", ".mrg": "brackets", ".ptb": "brackets",
            ".gld": "brackets", ".tst": "brackets", ".brackets": "brackets", ".penn": "brackets"}
_DISC_LEAF = re.compile(rb"\(\S+ \d+=[^()\s]*\)")


def sniff(path: str | os.PathLike) -> str | None:
    """The phrase-structure format of ``path`` by suffix, else by its first 8 KiB; ``None`` when neither tells."""
    p = Path(path)
    if p.suffix.lower() in SUFFIXES:
        return SUFFIXES[p.suffix.lower()]
    try:
        head = head_bytes(p, 8192).lstrip(b"\xef\xbb\xbf \t\r\n")
    except InputError:
        return None
    if head.startswith((b"#BOS", b"#FORMAT", b"%%", b"#BOT")):
        return "export"
    if head.startswith((b"<?xml", b"<corpus")):
        return "tiger"
    if head.startswith(b"("):
        return "discbracket" if _DISC_LEAF.search(head) else "brackets"
    return None


def read_phrase_trees(path: str | os.PathLike, tree_format: str = "auto") -> list[PhraseTree]:
    """Read a treebank in ``tree_format`` (see the module docstring)."""
    if tree_format not in PHRASE_FORMATS:
        raise ConfigError(f"tree format {tree_format!r} is not a phrase-structure format; known: "
                          f"{', '.join(PHRASE_FORMATS)}")
    p = Path(path)
    if not p.is_file():
        raise InputError(f"{p}: no such file" if not p.exists() else f"{p}: not a file")
    kind = tree_format if tree_format != "auto" else sniff(p)
    if kind is None:
        raise InputError(f"{p}: cannot tell the treebank format from the suffix or the content; pass one of "
                         f"{', '.join(PHRASE_FORMATS[1:])} (--tree-format)")
    if kind == "export":
        from .negra import read_negra

        return read_negra(p)
    if kind == "tiger":
        from .tiger import read_tiger

        return read_tiger(p)
    if kind == "discbracket":
        from .discbracket import read_discbracket

        return read_discbracket(p)
    from .brackets import read_brackets

    return [from_brackets(t, str(p)) for t in read_brackets(p)]


__all__ = ["PHRASE_FORMATS", "read_phrase_trees", "sniff"]
