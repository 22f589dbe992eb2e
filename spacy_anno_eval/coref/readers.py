"""The registry of coreference readers: every format a coreference key or response can be read from.

A coreference reader is ``reader(path, **options) -> list[CorefDocument]``
(:class:`~spacy_anno_eval.coref.conll2012.CorefDocument`: tokens and entities, mentions as token positions), a
family of its own beside the span readers of :mod:`spacy_anno_eval.io` (whose readers return a ``Corpus`` of
character spans). Built in (name: suffixes, then what the first line tells):

- ``conll2012``: CoNLL-2011/2012 (``*_conll``, ``.conll``; a first line ``#begin document``),
  :func:`~spacy_anno_eval.coref.conll2012.read_conll2012`;
- ``corefud``: CorefUD 1.0 CoNLL-U (``.conllu``; a first line ``# newdoc``, ``# global.Entity``, ``# sent_id``),
  :func:`~spacy_anno_eval.coref.corefud.read_corefud`;
- ``docbin``: spaCy DocBin with spacy-experimental's span groups (``.spacy``, or a folder of them; zlib bytes),
  :func:`~spacy_anno_eval.coref.spacy_docs.read_coref_docbin`;
- ``jsonl``: e2e-coref jsonlines or text with character offsets (``.jsonl``, ``.jsonlines``; a first line that
  is a JSON object naming ``clusters``, ``sentences`` or ``doc_key``),
  :func:`~spacy_anno_eval.coref.jsonl.read_coref_jsonl`.

:func:`read_coref` reads a path in a named format, or, without one, in the format its suffix names, else the one
its beginning shows (:func:`detect_coref_format`, on :func:`spacy_anno_eval.io.parse.head_bytes`: the few bytes a
sniffer needs, never an error). Names are checked (DESIGN.md, Contracts): an unknown format is a
:class:`~spacy_anno_eval.errors.ConfigError` listing those that exist; an option the reader does not take is one
naming those it takes (:func:`coref_reader_options`); a read that finds no document is an
:class:`~spacy_anno_eval.errors.InputError` ("nothing to compare"), whatever reader returned it.

A user plugs in a reader of their own with :func:`register_coref_reader`, or through the entry point group
``spacy_anno_eval_coref_readers`` (``name = package.module:target``: a :class:`CorefReader`, which gives its
suffixes and sniff, or a read function, used when its name is given)::

    from spacy_anno_eval.coref.readers import register_coref_reader

    @register_coref_reader("myformat", suffixes=(".myf",))
    def read_myformat(path, encoding="utf-8"):
        ...
        return [CorefDocument(name, tokens, entities)]

Nothing is imported before it is used: listing the formats imports no reader and loads no entry point (their
names are enough); an entry point is loaded when its reader is asked for, or when a format is detected (a
plugin's suffixes must be known). A plugin that cannot be loaded is then a ``ConfigError`` naming it and saying
what to do; importing this module never raises.
"""

from __future__ import annotations

import inspect
import os
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib import import_module
from pathlib import Path
from typing import Any

from ..errors import ConfigError, InputError
from ..io.parse import head_bytes

GROUP = "spacy_anno_eval_coref_readers"
_M = "spacy_anno_eval.coref."
_HEAD = 4096


def _import(target: str) -> Any:
    module, _, name = target.partition(":")
    return getattr(import_module(module), name)


@dataclass(frozen=True)
class CorefReader:
    """A registered coreference reader (module docstring).

    ``read`` and ``sniff`` / ``sample`` are ``"module:function"`` targets, imported on first use, or callables.
    ``suffixes``: the file names it reads (lower case, matched at the end); ``folders``: whether it reads a
    folder too; ``sniff(path) -> bool``: whether a file of another suffix is of this format (its beginning);
    ``sample() -> bytes``: a small file of the format, which the contract suite tries the reader on."""

    name: str
    read: str | Callable[..., Any]
    suffixes: tuple[str, ...] = ()
    folders: bool = False
    sniff: str | Callable[[Path], bool] | None = None
    sample: str | Callable[[], bytes] | None = None

    def function(self) -> Callable[..., Any]:
        """The read function."""
        return self.read if callable(self.read) else _import(self.read)

    def __call__(self, path: str | os.PathLike, **options: Any) -> Any:
        return self.function()(path, **options)

    def options(self) -> tuple[str, ...] | None:
        """The options the reader takes (its parameters after the path); ``None`` when it takes any
        (``**options``)."""
        params = list(inspect.signature(self.function()).parameters.values())[1:]
        if any(p.kind is p.VAR_KEYWORD for p in params):
            return None
        return tuple(p.name for p in params if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY))

    def claims(self, path: Path) -> bool:
        """Whether the reader's suffixes name ``path``."""
        name = path.name.lower()
        return any(name.endswith(s) for s in self.suffixes)

    def sniffs(self, path: Path) -> bool:
        """Whether the reader's sniff says ``path`` is of its format (never raises: a sniff that fails says no)."""
        if self.sniff is None:
            return False
        try:
            return bool((self.sniff if callable(self.sniff) else _import(self.sniff))(path))
        except Exception:  # noqa: BLE001 - a sniff that fails claims nothing; the reader says what is wrong
            return False

    def sample_bytes(self) -> bytes | None:
        """The bytes of the reader's sample, ``None`` when it has none."""
        if self.sample is None:
            return None
        return (self.sample if callable(self.sample) else _import(self.sample))()


# -- sniffs: a file's first bytes ------------------------------------------------------------------------------------


def _first_line(path: Path) -> str:
    """The first non-blank line of ``path``'s first bytes, decoded leniently (a byte-order mark dropped)."""
    text = head_bytes(path, _HEAD).decode("utf-8", errors="replace").removeprefix("\ufeff")
    return next((line.strip() for line in text.splitlines() if line.strip()), "")


def is_conll2012(path: Path) -> bool:
    """A first line ``#begin document``."""
    return _first_line(path).startswith("#begin document")


def is_corefud(path: Path) -> bool:
    """A first line of CoNLL-U's document or sentence comments."""
    return _first_line(path).startswith(("# newdoc", "# global.Entity", "# sent_id"))


def is_coref_jsonl(path: Path) -> bool:
    """A first line that opens a JSON object naming a coreference field."""
    line = _first_line(path)
    return line.startswith("{") and any(f'"{k}"' in line for k in ("clusters", "sentences", "doc_key"))


def is_docbin(path: Path) -> bool:
    """zlib's two-byte header (a DocBin is zlib-compressed msgpack)."""
    head = head_bytes(path, 2)
    return len(head) == 2 and head[0] == 0x78 and (head[0] * 256 + head[1]) % 31 == 0


BUILTIN: tuple[CorefReader, ...] = (
    CorefReader("conll2012", _M + "conll2012:read_conll2012",
                ("_conll", ".conll"),
                sniff=is_conll2012, sample=_M + "samples:conll2012"),
    CorefReader("corefud", _M + "corefud:read_corefud", (".conllu",), sniff=is_corefud,
                sample=_M + "samples:corefud"),
    CorefReader("docbin", _M + "spacy_docs:read_coref_docbin", (".spacy",), folders=True, sniff=is_docbin,
                sample=_M + "samples:docbin"),
    CorefReader("jsonl", _M + "jsonl:read_coref_jsonl", (".jsonl", ".jsonlines"), sniff=is_coref_jsonl,
                sample=_M + "samples:jsonl"),
)
_BUILTIN = {r.name: r for r in BUILTIN}
_PLUGINS: dict[str, CorefReader] = {}
_ENTRY: dict[str, Any] = {}  # name -> an entry point not loaded yet
_ENTRY_LOCK = threading.Lock()
_DISCOVERED = False


# -- plugins ---------------------------------------------------------------------------------------------------------


def register_coref_reader(name: str, suffixes: Sequence[str] = (), *, folders: bool = False,
                          sniff: Callable[[Path], bool] | None = None,
                          sample: Callable[[], bytes] | None = None) -> Callable[[Callable[..., Any]],
                                                                                 Callable[..., Any]]:
    """Decorator: register a read function as the coreference reader ``name`` for the file ``suffixes``
    (:class:`CorefReader` says what ``folders``, ``sniff`` and ``sample`` are). A built-in reader of that name is
    replaced for this process (:func:`unregister_coref_reader` brings it back)."""
    if not isinstance(name, str) or not name.strip():
        raise ConfigError(f"register_coref_reader: the format name must be a non-empty string, got {name!r}")
    if isinstance(suffixes, str):
        suffixes = (suffixes,)

    def decorate(function: Callable[..., Any]) -> Callable[..., Any]:
        _PLUGINS[name] = CorefReader(name, function, tuple(s.lower() for s in suffixes), folders=folders,
                                     sniff=sniff, sample=sample)
        return function

    return decorate


def unregister_coref_reader(name: str) -> None:
    """Remove the plugin reader ``name`` (a built-in one it replaced comes back); nothing happens for no plugin."""
    _PLUGINS.pop(name, None)


def _discover() -> None:
    """Note the names of the group's entry points, once (under a lock), without loading them."""
    global _DISCOVERED
    with _ENTRY_LOCK:
        if _DISCOVERED:
            return
        from importlib.metadata import entry_points

        for ep in entry_points(group=GROUP):
            _ENTRY.setdefault(ep.name, ep)
        _DISCOVERED = True


def _load(name: str) -> CorefReader:
    """The reader of the entry point ``name``, loaded (then kept with the plugins)."""
    ep = _ENTRY[name]
    where = f"the coreference reader plugin {name!r} (entry point {ep.name} = {ep.value} in the group {GROUP}" \
            + (f", package {ep.dist.name}" if getattr(ep, "dist", None) is not None else "") + ")"
    try:
        loaded = ep.load()
    except Exception as exc:  # noqa: BLE001 - whatever a broken plugin raises, named as such
        raise ConfigError(f"{where} cannot be loaded ({type(exc).__name__}: {exc}); fix or uninstall the package "
                          f"that provides it, or name another format (fmt=): "
                          f"{', '.join(n for n in coref_formats() if n != name)}") from None
    if isinstance(loaded, CorefReader):
        reader = loaded if loaded.name == name else CorefReader(name, loaded.read, loaded.suffixes, loaded.folders,
                                                                loaded.sniff, loaded.sample)
    elif callable(loaded):
        reader = CorefReader(name, loaded)
    else:
        raise ConfigError(f"{where} names a {type(loaded).__name__}, not a read function or a CorefReader; fix the "
                          f"entry point")
    _PLUGINS.setdefault(name, reader)
    _ENTRY.pop(name, None)
    return _PLUGINS[name]


# -- the registry ----------------------------------------------------------------------------------------------------


def coref_formats() -> list[str]:
    """The names of every coreference reader: built in, registered and installed (no plugin is loaded)."""
    _discover()
    return sorted(set(_BUILTIN) | set(_PLUGINS) | set(_ENTRY))


def get_coref_reader(name: str) -> CorefReader:
    """The reader registered as ``name`` (a plugin's first); an unknown name is a :class:`ConfigError` listing
    those that exist, a plugin that cannot be loaded one naming it."""
    _discover()
    if not isinstance(name, str):
        raise ConfigError(f"fmt: the name of a coreference format ({', '.join(coref_formats())}), got {name!r}")
    if name in _PLUGINS:
        return _PLUGINS[name]
    if name in _ENTRY:
        return _load(name)
    if name in _BUILTIN:
        return _BUILTIN[name]
    raise ConfigError(f"unknown coreference format {name!r}: use one of {', '.join(coref_formats())} (or none, to "
                      f"tell it from the file)")


def coref_readers() -> list[CorefReader]:
    """Every reader (plugins loaded; a built-in replaced by a plugin of its name counts once, as the plugin)."""
    return [get_coref_reader(name) for name in coref_formats()]


def coref_reader_options(name: str) -> tuple[str, ...] | None:
    """The options the reader ``name`` takes; ``None`` when it takes any."""
    return get_coref_reader(name).options()


def detect_coref_format(path: str | os.PathLike) -> str:
    """The format of ``path``: a folder's by the files it holds (a folder reader's suffixes); a file's by its
    suffix (plugins first, then the longest built-in suffix), else by its beginning (each reader's sniff).
    :class:`InputError` when none tells it."""
    p = Path(path)
    readers = _by_precedence()
    if p.is_dir():
        for reader in readers:
            if reader.folders and any(f.is_file() and reader.claims(f) for f in p.iterdir()):
                return reader.name
        folders = ", ".join(r.name for r in readers if r.folders) or "none"
        raise InputError(f"{p}: a folder holding no file a coreference reader reads as a folder (readers of "
                         f"folders: {folders}); give a file, or a folder of .spacy files")
    name = p.name.lower()
    # a plugin's suffix first, then the longest suffix
    claims = [(r.name not in _PLUGINS, -len(s), rank) for rank, r in enumerate(readers) for s in r.suffixes
              if name.endswith(s)]
    if claims:
        return readers[min(claims)[2]].name
    for reader in readers:
        if reader.sniffs(p):
            return reader.name
    suffixes = ", ".join(f"{r.name} ({' '.join(r.suffixes) or 'no suffix'})" for r in readers)
    raise InputError(f"{p}: cannot tell the coreference format from the name or the first line; name it (fmt=, "
                     f"--format): {suffixes}")


def _by_precedence() -> list[CorefReader]:
    """Every reader, plugins first (in registration order), then the built-ins not replaced."""
    _discover()
    for name in list(_ENTRY):
        _load(name)
    return [*_PLUGINS.values(), *(r for n, r in _BUILTIN.items() if n not in _PLUGINS)]


def read_coref(path: str | os.PathLike, fmt: str | None = None, **options: Any) -> list[Any]:
    """The documents of a coreference file (or folder) in the format ``fmt`` (``None`` or ``"auto"``: told by
    :func:`detect_coref_format`), read with ``options`` (those the reader takes: :func:`coref_reader_options`).

    Raise :class:`ConfigError` for an unknown format or option, :class:`InputError` for a missing path, a file
    the reader refuses, or no document.
    """
    if not isinstance(path, str | os.PathLike):
        raise ConfigError(f"path: the path of a coreference file, got {type(path).__name__} {path!r:.60}")
    p = Path(path)
    reader = get_coref_reader(fmt) if fmt not in (None, "auto") else None
    if not os.path.lexists(p):
        raise InputError(f"{p}: no such file or folder")
    if reader is None:
        reader = get_coref_reader(detect_coref_format(p))
    takes = reader.options()
    unknown = [o for o in options if takes is not None and o not in takes]
    if unknown:
        listed = ", ".join(takes or ()) or "no options"
        raise ConfigError(f"{p}: the {reader.name} coreference reader takes no option "
                          f"{', '.join(map(repr, unknown))}; it takes {listed}")
    docs = list(reader(p, **options))
    if not docs:
        raise InputError(f"{p}: nothing to compare: no documents (read as {reader.name})")
    return docs


__all__ = ["BUILTIN", "GROUP", "CorefReader", "coref_formats", "coref_reader_options", "coref_readers",
           "detect_coref_format", "get_coref_reader", "is_conll2012", "is_coref_jsonl", "is_corefud", "is_docbin",
           "read_coref", "register_coref_reader", "unregister_coref_reader"]
