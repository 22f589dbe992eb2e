"""A registry of readers that plugins can extend: what the coreference and the language-model readers share.

A :class:`PluginReader` names a read function (or a ``"module:function"`` target imported on first use), the
file suffixes it claims, whether it reads folders, a ``sniff(path)`` that tells its format from a file's
content and a ``sample()`` of it (for the contract suites). A :class:`ReaderRegistry` holds the built-in
readers of one kind, the ones registered at run time (:meth:`ReaderRegistry.register`, which replace a
built-in of their name until removed) and those of an entry point group, whose names are listed without
loading them and which are loaded when named or when a format must be detected. An unknown format, an option
the reader does not take, a plugin that cannot be loaded: a :class:`~spacy_anno_eval.errors.ConfigError`
naming what exists; a path whose format nothing tells: an :class:`~spacy_anno_eval.errors.InputError`.
"""

from __future__ import annotations

import inspect
import os
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from importlib import import_module
from pathlib import Path
from typing import Any

from ..errors import ConfigError, InputError


def _import(target: str) -> Any:
    return getattr(import_module(target.partition(":")[0]), target.partition(":")[2])


@dataclass(frozen=True)
class PluginReader:
    """A registered reader: ``read``/``sniff``/``sample`` callables or ``"module:function"`` targets imported on
    first use; ``suffixes`` the file names it claims (lower case); ``folders`` whether it reads a folder;
    ``sniff(path)`` whether a file's content is of its format; ``sample()`` a small file of it."""

    name: str
    read: str | Callable[..., Any]
    suffixes: tuple[str, ...] = ()
    folders: bool = False
    sniff: str | Callable[[Path], bool] | None = None
    sample: str | Callable[[], bytes] | None = None

    def function(self) -> Callable[..., Any]:
        """The read function (imported on first use)."""
        return self.read if callable(self.read) else _import(self.read)

    def __call__(self, path: str | os.PathLike, **options: Any) -> Any:
        return self.function()(path, **options)

    def options(self) -> tuple[str, ...] | None:
        """The options the reader takes (its parameters after the path); ``None`` when it takes any."""
        params = list(inspect.signature(self.function()).parameters.values())[1:]
        if any(p.kind is p.VAR_KEYWORD for p in params):
            return None
        return tuple(p.name for p in params if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY))

    def claims(self, path: Path) -> bool:
        """Whether the file name ends with one of the reader's suffixes."""
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


class ReaderRegistry:
    """The readers of one ``kind`` (``"coreference"``, ...): built in, registered, and the entry point
    ``group``'s; ``reader_type`` the :class:`PluginReader` class the family names; ``folder_hint`` what a folder
    is read as (for the message when one holds nothing readable)."""

    def __init__(self, kind: str, group: str, builtin: Sequence[PluginReader],
                 reader_type: type[PluginReader] = PluginReader, folder_hint: str = "") -> None:
        self.kind, self.group, self.reader_type, self.folder_hint = kind, group, reader_type, folder_hint
        self.builtin = {r.name: r for r in builtin}
        self.plugins: dict[str, PluginReader] = {}
        self.entry: dict[str, Any] = {}  # name -> an entry point not loaded yet
        self.discovered = False
        self._lock = threading.Lock()

    # -- plugins ------------------------------------------------------------------------------------------------

    def register(self, name: str, suffixes: Sequence[str] = (), *, folders: bool = False,
                 sniff: Callable[[Path], bool] | None = None,
                 sample: Callable[[], bytes] | None = None) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        """Decorator: register a read function as the reader ``name`` for the file ``suffixes``; a built-in
        reader of that name is replaced for this process (:meth:`unregister` brings it back)."""
        if not isinstance(name, str) or not name.strip():
            raise ConfigError(f"registering a {self.kind} reader: the format name must be a non-empty string, got "
                              f"{name!r}")
        suffixes = (suffixes,) if isinstance(suffixes, str) else suffixes

        def decorate(function: Callable[..., Any]) -> Callable[..., Any]:
            self.plugins[name] = self.reader_type(name, function, tuple(s.lower() for s in suffixes), folders,
                                                  sniff, sample)
            return function

        return decorate

    def unregister(self, name: str) -> None:
        """Remove the plugin reader ``name`` (a built-in one it replaced comes back); no plugin: nothing."""
        self.plugins.pop(name, None)

    def discover(self) -> None:
        """Note the names of the group's entry points, once (under a lock), without loading them."""
        with self._lock:
            if self.discovered:
                return
            from importlib.metadata import entry_points

            for ep in entry_points(group=self.group):
                self.entry.setdefault(ep.name, ep)
            self.discovered = True

    def load(self, name: str) -> PluginReader:
        """The reader of the entry point ``name``, loaded (then kept with the plugins)."""
        ep = self.entry[name]
        where = f"the {self.kind} reader plugin {name!r} (entry point {ep.name} = {ep.value} in the group " \
                f"{self.group}" + (f", package {ep.dist.name}" if getattr(ep, "dist", None) is not None else "") + ")"
        try:
            loaded = ep.load()
        except Exception as exc:  # noqa: BLE001 - whatever a broken plugin raises, named as such
            raise ConfigError(f"{where} cannot be loaded ({type(exc).__name__}: {exc}); fix or uninstall the "
                              f"package that provides it, or name another format (fmt=): "
                              f"{', '.join(n for n in self.formats() if n != name)}") from None
        if isinstance(loaded, PluginReader):
            reader = loaded if loaded.name == name else replace(loaded, name=name)
        elif callable(loaded):
            reader = self.reader_type(name, loaded)
        else:
            raise ConfigError(f"{where} names a {type(loaded).__name__}, not a read function or a "
                              f"{self.reader_type.__name__}; fix the entry point")
        self.plugins.setdefault(name, reader)
        self.entry.pop(name, None)
        return self.plugins[name]

    # -- the registry -------------------------------------------------------------------------------------------

    def formats(self) -> list[str]:
        """The names of every reader: built in, registered and installed (no plugin is loaded)."""
        self.discover()
        return sorted(set(self.builtin) | set(self.plugins) | set(self.entry))

    def get(self, name: str) -> PluginReader:
        """The reader registered as ``name`` (a plugin's first); an unknown name is a :class:`ConfigError`
        listing those that exist, a plugin that cannot be loaded one naming it."""
        self.discover()
        if not isinstance(name, str):
            raise ConfigError(f"fmt: the name of a {self.kind} format ({', '.join(self.formats())}), got {name!r}")
        if name in self.plugins:
            return self.plugins[name]
        if name in self.entry:
            return self.load(name)
        if name in self.builtin:
            return self.builtin[name]
        raise ConfigError(f"unknown {self.kind} format {name!r}: use one of {', '.join(self.formats())} (or none, "
                          f"to tell it from the file)")

    def readers(self) -> list[PluginReader]:
        """Every reader (plugins loaded; a built-in replaced by a plugin of its name counts once, as the plugin)."""
        return [self.get(name) for name in self.formats()]

    def options(self, name: str) -> tuple[str, ...] | None:
        """The options the reader ``name`` takes; ``None`` when it takes any."""
        return self.get(name).options()

    def by_precedence(self) -> list[PluginReader]:
        """Every reader, plugins first (in registration order), then the built-ins not replaced."""
        self.discover()
        for name in list(self.entry):
            self.load(name)
        return [*self.plugins.values(), *(r for n, r in self.builtin.items() if n not in self.plugins)]

    def detect(self, path: str | os.PathLike) -> str:
        """The format of ``path``: a folder's by the files it holds (a folder reader's suffixes); a file's by its
        suffix (plugins first, then the longest suffix), else by its content (each reader's sniff, plugins
        first). :class:`InputError` when none tells it."""
        p = Path(path)
        readers = self.by_precedence()
        if p.is_dir():
            for reader in readers:
                if reader.folders and any(f.is_file() and reader.claims(f) for f in p.iterdir()):
                    return reader.name
            folders = ", ".join(r.name for r in readers if r.folders) or "none"
            article = "an" if self.kind[:1] in "aeiou" else "a"
            raise InputError(f"{p}: a folder holding no file {article} {self.kind} reader reads as a folder "
                             f"(readers of folders: {folders}); give a file{self.folder_hint}")
        name = p.name.lower()
        claims = [(r.name not in self.plugins, -len(s), rank) for rank, r in enumerate(readers) for s in r.suffixes
                  if name.endswith(s)]
        if claims:
            return readers[min(claims)[2]].name
        for reader in readers:
            if reader.sniffs(p):
                return reader.name
        formats = ", ".join(f"{r.name} ({' '.join(r.suffixes) or 'no suffix'})" for r in readers)
        raise InputError(f"{p}: cannot tell the {self.kind} format from the name or the content; name it (fmt=, "
                         f"--format): {formats}")

    def reader_for(self, path: Any, fmt: str | None, options: dict[str, Any]) -> tuple[PluginReader, Path]:
        """The reader of ``path`` (``fmt``, or detected when ``None``/``"auto"``) after checking the path exists
        and that the reader takes every option; what the families' read functions share."""
        if not isinstance(path, str | os.PathLike):
            article = "an" if self.kind[:1] in "aeiou" else "a"
            raise ConfigError(f"path: the path of {article} {self.kind} file, got {type(path).__name__} {path!r:.60}")
        p = Path(path)
        reader = self.get(fmt) if fmt not in (None, "auto") else None
        if not os.path.lexists(p):
            raise InputError(f"{p}: no such file or folder")
        if reader is None:
            reader = self.get(self.detect(p))
        takes = reader.options()
        unknown = [o for o in options if takes is not None and o not in takes]
        if unknown:
            raise ConfigError(f"{p}: the {reader.name} {self.kind} reader takes no option "
                              f"{', '.join(map(repr, unknown))}; it takes {', '.join(takes or ()) or 'no options'}")
        return reader, p


__all__ = ["PluginReader", "ReaderRegistry"]
