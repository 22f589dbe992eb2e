"""Atomic file writes: nothing half-written, nothing lost.

Every file the toolkit writes (reports, DocBins, manifests) goes through
:func:`write_bytes`: the data goes to a temporary file in the target folder,
is flushed to disk, and then replaces the target with :func:`os.replace`
(atomic on POSIX and Windows). On any error the temporary file is removed and
an earlier file at ``path`` is left as it was. The new file gets the
permissions a plain ``open()`` would give it (0o666 less the umask), not
``mkstemp``'s private 0o600.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, BinaryIO


def _umask() -> int:
    """The process's file-creation mask, read from /proc where possible (which changes nothing)."""
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


@contextmanager
def open_atomic(path: str | os.PathLike) -> Iterator[BinaryIO]:
    """A binary file to write ``path`` through, piece by piece: it replaces ``path`` only when the block
    ends without an error (then flushed to disk); on an error the partial file is removed and an earlier
    file at ``path`` is left as it was. Parent folders are created."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        os.chmod(tmp, 0o666 & ~_umask())
        with os.fdopen(fd, "wb") as f:
            yield f
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_bytes(path: str | os.PathLike, data: bytes) -> Path:
    """Write ``data`` to ``path`` atomically (creating parent folders); return the path."""
    with open_atomic(path) as f:
        f.write(data)
    return Path(path)


def write_text(path: str | os.PathLike, text: str) -> Path:
    """Write ``text`` as UTF-8 with ``\\n`` line ends to ``path`` atomically."""
    return write_bytes(path, text.encode("utf8"))


def tsv_cell(value: Any) -> str:
    """A TSV cell: ``None`` is empty; tabs and line breaks become spaces."""
    if value is None:
        return ""
    return " ".join(str(value).replace("\r\n", " ").replace("\r", " ").replace("\n", " ").split("\t"))


def rows_as_tsv(rows: Sequence[dict[str, Any]], columns: Sequence[str]) -> str:
    """Rows as TSV with a header line of ``columns`` (a missing key is an empty cell)."""
    lines = ["\t".join(columns)] + ["\t".join(tsv_cell(row.get(c)) for c in columns) for row in rows]
    return "\n".join(lines) + "\n"


def rows_as_jsonl(rows: Sequence[dict[str, Any]]) -> str:
    """Rows as JSON lines (UTF-8 kept as is)."""
    import json

    return "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows)


def write_rows(path: Any, rows: Sequence[dict[str, Any]], columns: Sequence[str]) -> Any:
    """Write ``rows`` atomically: JSON lines when ``path`` ends in ``.jsonl``, else TSV with a header."""
    is_jsonl = Path(path).suffix.lower() == ".jsonl"
    return write_text(path, rows_as_jsonl(rows) if is_jsonl else rows_as_tsv(rows, columns))
