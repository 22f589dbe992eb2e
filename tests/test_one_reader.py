"""One way to read (issues 26 and 27, DESIGN.md Contracts): only ``io/parse.py`` opens a file for reading, so that
a file that is missing, a folder, unreadable or not text in its encoding is an ``InputError`` naming it, for every
reader alike, without the reader remembering to say so.

The test reads the package's source (its syntax tree, not its text) and fails on any module other than the loader
that opens a file for reading: ``open(...)`` or ``Path.open(...)`` without a write mode, ``io.open``, ``gzip.open``
and the other compressed-file openers, ``os.open`` without a write flag, ``os.fdopen`` for reading,
``Path.read_text``/``Path.read_bytes`` (called, or handed on as a loader), ``zipfile.ZipFile`` on a path,
``fileinput.input``, or a library loader handed a path (``X.from_disk``, rdflib's ``Graph.parse``,
``ElementTree.parse``, ``numpy.load``, ``pandas.read_*``, ``srsly.read_*``). ``files.py`` is let off: it is the
writer, and it opens files and folders to write, lock and sync them (``tests/test_one_writer.py``).

The reads that must stay are in :data:`ALLOWED`, by module and function, each with its reason; the reads still to
route are in :data:`NOT_YET`. An entry that no read needs any more fails the test too, so both lists only shrink.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "spacy_anno_eval"
#: the loader (every read) and the writer (its own opens: writing, locking, syncing)
EXEMPT = {PACKAGE / "io" / "parse.py", PACKAGE / "files.py"}
WRITE_MODES = set("wax+")
WRITE_FLAGS = {"O_WRONLY", "O_RDWR", "O_CREAT", "O_APPEND", "O_TRUNC"}
#: openers of a module whose mode is their second argument (``Path.open`` and other methods take it first)
MODULE_OPENERS = {"io.open", "codecs.open", "gzip.open", "bz2.open", "lzma.open", "tarfile.open"}
#: library loaders that read a file given its path
LOADERS = {"ET.parse", "ElementTree.parse", "etree.parse", "minidom.parse", "ET.iterparse",
           "np.load", "numpy.load", "np.fromfile", "numpy.fromfile", "np.loadtxt", "numpy.loadtxt",
           "fileinput.input", "zipfile.ZipFile", "ZipFile"}
LOADER_PREFIXES = ("pd.read_", "pandas.read_", "srsly.read_")
#: receivers whose ``read_text``/``read_bytes``/``open`` is the loader's own, or no file's
LOADER_MODULES = ("parse", "_parse")

#: (module, function, what the scan reports) -> why the call stays there. The few reads that must stay.
ALLOWED = {
    ("io/encoding.py", "undecodable", "Path.read_bytes"):
        "reads a file that failed to decode again, for its first bad byte; io/parse.py imports this module, so "
        "it cannot import io/parse.py back (tests/test_import_graph.py)",
    ("report/streamed.py", "StreamedDiff.write", "X.open"):
        "reads back the spool file this writer wrote itself (files.spool), to copy it into the page",
    ("workflows/benchmark/store.py", "_in_use", "os.open"):
        "opens a store's temporary folder to test its lock (flock); reads no bytes",
    ("workflows/benchmark/store.py", "_new_temp", "os.open"):
        "opens a new temporary folder to hold its lock (flock); reads no bytes",
    ("workflows/benchmark/store.py", "_sync", "os.open"):
        "opens a file or folder to fsync it; reads no bytes",
}

#: (module, function, what) -> reads still to route through io/parse.py, outside the change that added this test
#: (issue 27 item 4). Checked like ALLOWED: an entry that is no longer needed fails.
NOT_YET: dict[tuple[str, str, str], str] = {
}


def _modules() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if p not in EXEMPT)


def _name(node: ast.AST) -> str:
    if isinstance(node, ast.Attribute):
        return f"{_name(node.value)}.{node.attr}"
    if isinstance(node, ast.Name):
        return node.id
    return "X"  # a call, a subscript, ...: some object's method


def _mode(call: ast.Call, position: int) -> str | None:
    """The literal mode of an ``open``-like call (positional ``position`` or ``mode=``); ``"r"`` when none is given,
    ``None`` when it is not a literal."""
    node = call.args[position] if len(call.args) > position else next(
        (k.value for k in call.keywords if k.arg == "mode"), None)
    if node is None:
        return "r"
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _method(name: str) -> str:
    """How a report names a method of some object: ``Path.read_text`` for the reads of a path, else ``X.open``."""
    attr = name.rpartition(".")[2]
    return f"Path.{attr}" if attr in ("read_text", "read_bytes") else f"X.{attr}"


def _in_memory(call: ast.Call) -> bool:
    """Whether the first argument of ``call`` is a ``BytesIO``/``StringIO`` made on the spot (no file)."""
    return bool(call.args) and isinstance(call.args[0], ast.Call) \
        and _name(call.args[0].func).rpartition(".")[2] in ("BytesIO", "StringIO")


def _reads(call: ast.Call) -> str | None:
    """What ``call`` is, when it opens a file for reading, else None."""
    name = _name(call.func)
    head, _, attr = name.rpartition(".")
    if head in LOADER_MODULES:
        return None
    if name == "open" or name in MODULE_OPENERS:
        mode = _mode(call, 1)
        shown = name
    elif attr == "open" and head != "os":
        if isinstance(call.func, ast.Attribute) and isinstance(call.func.value, ast.Name) \
                and call.func.value.id[:1].isupper() and call.func.value.id != "Path":
            return None  # a class's own constructor (BenchmarkDir.open): whatever it reads, its module shows
        mode = _mode(call, 0)
        shown = _method(name)
    elif name == "os.open":
        flags = {n.attr for n in ast.walk(call) if isinstance(n, ast.Attribute)}
        return None if flags & WRITE_FLAGS else name
    elif name == "os.fdopen":
        mode = _mode(call, 1)
        shown = name
    elif attr in ("read_text", "read_bytes", "from_disk") and head:
        return _method(name)
    elif attr == "parse" and head and any(k.arg == "format" for k in call.keywords) \
            and not any(k.arg == "data" for k in call.keywords) and (call.args or any(
                k.arg in ("source", "location") for k in call.keywords)):
        return "X.parse(path)"  # rdflib's Graph.parse given a path or URL
    elif name in LOADERS or name.startswith(LOADER_PREFIXES):
        return None if name.endswith("ZipFile") and _in_memory(call) else name
    else:
        return None
    if mode is not None and WRITE_MODES & set(mode):
        return None  # a write: tests/test_one_writer.py's concern
    return shown


class _Scan(ast.NodeVisitor):
    """Every read of a module with the function (``Class.method``) it is in."""

    def __init__(self, rel: str) -> None:
        self.rel = rel
        self.scope: list[tuple[str, bool]] = []  # (name, is a class)
        self.found: list[tuple[str, int, str, str]] = []
        self.called: set[int] = set()

    def _enter(self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> None:
        self.scope.append((node.name, isinstance(node, ast.ClassDef)))
        self.generic_visit(node)
        self.scope.pop()

    visit_FunctionDef = visit_AsyncFunctionDef = visit_ClassDef = _enter

    def _where(self) -> str:
        """The outermost function and the classes around it (``_Sources.collect``; a nested function counts as
        the function it is in)."""
        names = []
        for name, is_class in self.scope:
            names.append(name)
            if not is_class:
                break
        return ".".join(names) or "<module>"

    def visit_Call(self, node: ast.Call) -> None:
        self.called.add(id(node.func))
        if (what := _reads(node)) is not None:
            self.found.append((self.rel, node.lineno, self._where(), what))
        self.generic_visit(node)

    def visit_Attribute(self, node: ast.Attribute) -> None:
        # a path's reading method handed on uncalled (``load=f.read_bytes``) reads the file when it is called
        if node.attr in ("read_text", "read_bytes") and id(node) not in self.called \
                and _name(node.value).rpartition(".")[0] not in LOADER_MODULES \
                and _name(node.value) not in LOADER_MODULES:
            self.found.append((self.rel, node.lineno, self._where(), f"Path.{node.attr}"))
        self.generic_visit(node)


def offences(path: Path, rel: str | None = None) -> list[tuple[str, int, str, str]]:
    """Every place of ``path`` that opens a file for reading, as ``(module, line, function, what)``."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    if rel is None:
        rel = path.relative_to(PACKAGE).as_posix() if path.is_relative_to(PACKAGE) else path.name
    scan = _Scan(rel)
    scan.visit(tree)
    return sorted(scan.found, key=lambda o: o[1])


def _all() -> list[tuple[str, int, str, str]]:
    return [o for path in _modules() for o in offences(path)]


def test_only_the_loader_opens_files_for_reading() -> None:
    found = [f"{rel}:{line} ({where}): {what}" for rel, line, where, what in _all()
             if (rel, where, what) not in ALLOWED | NOT_YET]
    assert not found, ("read through spacy_anno_eval.io.parse (read_bytes, read_text, decode, head_bytes, "
                       "first_line, open_binary, json_file, json_lines, parse_xml), or, when the read must stay, "
                       "add it to ALLOWED with its reason:\n" + "\n".join(found))


def test_every_allowed_read_is_still_there() -> None:
    """An entry of :data:`ALLOWED` or :data:`NOT_YET` that no read needs any more is stale: remove it."""
    used = {(rel, where, what) for rel, _, where, what in _all()}
    stale = sorted(f"{rel} ({where}): {what}" for rel, where, what in ALLOWED | NOT_YET
                   if (rel, where, what) not in used)
    assert not stale, "stale entries (nothing reads there any more):\n" + "\n".join(stale)


def test_allowed_and_not_yet_do_not_overlap() -> None:
    assert not set(ALLOWED) & set(NOT_YET)
    assert all(reason.strip() for reason in (*ALLOWED.values(), *NOT_YET.values()))


@pytest.mark.parametrize("source, caught", [
    ("open(p)\n", "open"),
    ("open(p, 'rb')\n", "open"),
    ("open(p, encoding='utf-8')\n", "open"),
    ("open(p, 'w')\n", None),
    ("open(p, mode='ab')\n", None),
    ("Path(p).read_text(encoding='utf-8')\n", "Path.read_text"),
    ("p.read_bytes()\n", "Path.read_bytes"),
    ("load = p.read_bytes\n", "Path.read_bytes"),
    ("p.open('rb')\n", "X.open"),
    ("p.open('w')\n", None),
    ("import io\nio.open(p)\n", "io.open"),
    ("import gzip\ngzip.open(p, 'rt')\n", "gzip.open"),
    ("import gzip\ngzip.open(p, 'wb')\n", None),
    ("import os\nos.open(p, os.O_RDONLY)\n", "os.open"),
    ("import os\nos.open(p, os.O_RDWR | os.O_CREAT)\n", None),
    ("import os\nos.fdopen(fd)\n", "os.fdopen"),
    ("import zipfile\nzipfile.ZipFile(p)\n", "zipfile.ZipFile"),
    ("import io, zipfile\nzipfile.ZipFile(io.BytesIO(data))\n", None),
    ("DocBin().from_disk(p)\n", "X.from_disk"),
    ("import numpy as np\nnp.load(p)\n", "np.load"),
    ("import xml.etree.ElementTree as ET\nET.parse(p)\n", "ET.parse"),
    ("graph.parse(str(p), format='xml')\n", "X.parse(path)"),
    ("graph.parse(data=data, format='xml')\n", None),
    ("read_text(p)\n", None),
    ("from ..io import parse\nparse.read_bytes(p)\n", None),
    ("BenchmarkDir.open(p)\n", None),
])
def test_the_scan_catches_each_way_of_reading(tmp_path: Path, source: str, caught: str | None) -> None:
    """The scan itself: a read planted in a module is found (so the test above can fail); writes, bytes in memory
    and the loader's own functions are not."""
    module = tmp_path / "probe.py"
    module.write_text(source, encoding="utf-8")
    assert [what for _, _, _, what in offences(module)] == ([caught] if caught else [])


def test_a_planted_read_fails_beside_an_allowed_one(tmp_path: Path) -> None:
    """A read planted in a module that holds an allowed one is reported by its function, not let off with it."""
    module = tmp_path / "streamed.py"
    module.write_text("class StreamedDiff:\n    def write(self, p):\n        with p.open('rb') as f:\n"
                      "            return f.read()\n\n    def render(self, p):\n"
                      "        return p.read_text(encoding='utf-8')\n", encoding="utf-8")
    found = offences(module, rel="report/streamed.py")
    assert found == [("report/streamed.py", 3, "StreamedDiff.write", "X.open"),
                     ("report/streamed.py", 7, "StreamedDiff.render", "Path.read_text")]
    assert [o for o in found if o[0::2] + o[3:] not in ALLOWED] == [found[1]]
