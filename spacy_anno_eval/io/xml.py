"""XML read safely: entity declarations are refused, and errors name the file and line.

Every XML reader of the package (GATE XML, UIMA CAS XMI, BioC, ELAN) parses
through :func:`parse_xml`. A document type declaration may only name a DTD
(BioC files do: ``<!DOCTYPE collection SYSTEM "BioC.dtd">``); the DTD is not
loaded, and a declaration of any entity (``<!ENTITY ...>``, the way of the
"billion laughs" and of external-entity reads) is an :class:`InputError`.
Entity declarations can only appear in the prolog, before the root element,
so the check parses the prolog alone with expat and stops at the first
element; the tree is then built by :mod:`xml.etree.ElementTree`, which never
fetches external entities.
"""

from __future__ import annotations

import os
import xml.etree.ElementTree as ET
from pathlib import Path
from xml.parsers import expat

from ..errors import InputError, where

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


def parse_xml(path: str | os.PathLike | None = None, data: bytes | None = None,
              source: str | None = None) -> ET.Element:
    """The root element of the XML file ``path`` (or of the bytes ``data``), entities refused.

    Raise :class:`InputError` for a file that cannot be read, invalid XML (with its line), or an entity
    declaration. ``source`` names the input in messages (default: ``path``).
    """
    src = source or (str(path) if path is not None else "XML")
    if data is None:
        if path is None:
            raise TypeError("parse_xml needs a path or data")
        try:
            data = Path(path).read_bytes()
        except OSError as exc:
            raise InputError(f"{path}: cannot read ({exc.strerror or exc})") from None
    _refuse_entities(data, src)
    try:
        return ET.fromstring(data)
    except ET.ParseError as exc:
        line = exc.position[0] if getattr(exc, "position", None) else None
        raise InputError(f"{where(src, line=line)}: invalid XML ({exc})") from None
    except (LookupError, ValueError) as exc:
        raise InputError(f"{src}: invalid XML ({exc})") from None


def local_name(tag: str) -> str:
    """An element's name without its namespace (``{http://...}GateDocument`` -> ``GateDocument``)."""
    return tag.rsplit("}", 1)[-1]


def root_name(path: str | os.PathLike, head: int = 4096) -> str | None:
    """The local name of the root element of an XML file, read from its first ``head`` bytes (``None`` when it
    cannot be told): for format detection. Entities are never expanded here."""
    try:
        with open(path, "rb") as f:
            data = f.read(head)
    except OSError:
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


__all__ = ["local_name", "parse_xml", "root_name"]
