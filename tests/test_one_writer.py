"""One way to write (issue 26, DESIGN.md Contracts "Writing"): only ``files.py`` encodes JSON for an output or
opens a file for writing, so that every output is atomic, never half-written, and never holds NaN or Infinity.

The test reads the package's source (its syntax tree, not its text) and fails on any module other than the
writer that calls ``json.dump``/``json.dumps``, ``open(..., "w")`` (any write, append or create mode),
``Path.write_text``/``write_bytes``/``Path.open("w")``, ``os.fdopen(..., "w")``, ``os.open`` with a write flag,
or a ``tempfile`` file maker. Two kinds of module are let off, each for its stated reason:

- ``io/parse.py``: :func:`~spacy_anno_eval.io.parse.excerpt` shows a value read from input in an error message
  (as JSON text, NaN as written), which is no output;
- the ``samples.py`` modules: the contract suite's samples write, on purpose, the JSON a careless tool writes
  (``NaN`` literals, ``\\ud800`` escapes); they return bytes and write no file.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "spacy_anno_eval"
WRITER = PACKAGE / "files.py"
ALLOWED_JSON = {PACKAGE / "io" / "parse.py"}
WRITE_MODES = set("wax+")
WRITE_FLAGS = {"O_WRONLY", "O_RDWR", "O_CREAT", "O_APPEND", "O_TRUNC"}
TEMP_MAKERS = {"mkstemp", "NamedTemporaryFile", "TemporaryFile", "SpooledTemporaryFile"}


def _modules() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if p != WRITER)


def _is_sample(path: Path) -> bool:
    return path.name == "samples.py" and path.parent != PACKAGE  # spacy_anno_eval/samples.py is the RNG module


def _mode(call: ast.Call, position: int) -> str | None:
    """The literal mode of an ``open``-like call (positional ``position`` or ``mode=``), or None."""
    node = call.args[position] if len(call.args) > position else next(
        (k.value for k in call.keywords if k.arg == "mode"), None)
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _name(node: ast.AST) -> str:
    if isinstance(node, ast.Attribute):
        return f"{_name(node.value)}.{node.attr}"
    if isinstance(node, ast.Name):
        return node.id
    return ""


def offences(path: Path) -> list[str]:
    """Every call of ``path`` that encodes JSON for an output or writes a file, as ``file:line: what``."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    found = []
    rel = path.relative_to(PACKAGE.parent) if path.is_relative_to(PACKAGE.parent) else path
    for call in (n for n in ast.walk(tree) if isinstance(n, ast.Call)):
        name = _name(call.func)
        what = None
        if name in ("json.dump", "json.dumps") and path not in ALLOWED_JSON and not _is_sample(path):
            what = name
        elif name == "open" or name.endswith(".open") and name not in ("os.open", "BenchmarkDir.open"):
            mode = _mode(call, 1 if name == "open" else 0)
            if mode is not None and WRITE_MODES & set(mode):
                what = f"{name}(mode {mode!r})"
        elif name.endswith((".write_text", ".write_bytes")) and not name.startswith(("files.", "_files.")):
            what = name
        elif name == "os.fdopen":
            mode = _mode(call, 1)
            if mode is None or WRITE_MODES & set(mode):
                what = f"os.fdopen(mode {mode!r})"
        elif name == "os.open":
            flags = {n.attr for n in ast.walk(call) if isinstance(n, ast.Attribute)}
            if flags & WRITE_FLAGS:
                what = f"os.open({', '.join(sorted(flags & WRITE_FLAGS))})"
        elif name.rsplit(".", 1)[-1] in TEMP_MAKERS:
            what = name
        if what is not None:
            found.append(f"{rel}:{call.lineno}: {what}")
    return found


def test_only_the_writer_encodes_json_or_opens_files_for_writing() -> None:
    found = [o for path in _modules() for o in offences(path)]
    assert not found, ("write through spacy_anno_eval.files (write_text, write_bytes, write_json, write_jsonl, "
                       "open_atomic, json_text, spool, lock_file):\n" + "\n".join(found))


@pytest.mark.parametrize("source, caught", [
    ("import json\njson.dumps({})\n", True),
    ("open(p, 'w')\n", True),
    ("open(p, mode='ab')\n", True),
    ("open(p, 'rb')\n", False),
    ("Path(p).write_text('x')\n", True),
    ("Path(p).open('w', encoding='utf8')\n", True),
    ("import os\nos.fdopen(fd, 'wb')\n", True),
    ("import os\nos.open(p, os.O_RDWR | os.O_CREAT)\n", True),
    ("import os\nos.open(p, os.O_RDONLY)\n", False),
    ("import tempfile\ntempfile.mkstemp()\n", True),
    ("files.write_text(p, 'x')\n", False),
])
def test_the_scan_catches_each_way_of_writing(tmp_path: Path, source: str, caught: bool) -> None:
    """The scan itself: each way of writing is found, reading is not (so the test above can fail)."""
    module = tmp_path / "probe.py"
    module.write_text(source, encoding="utf-8")
    assert bool(offences(module)) is caught
