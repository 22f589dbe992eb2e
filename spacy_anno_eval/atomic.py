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
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO


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
