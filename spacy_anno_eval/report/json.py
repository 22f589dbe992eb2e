"""JSON reports: written atomically, large per-document tables streamed, never a NaN or an Infinity.

:func:`write_json` is the one JSON writer of every command.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Any

import numpy as np

from ..files import json_text, open_atomic, write_text
from ..spans.counts import PerDocRows, is_count, report_rows


def write_json(data: Any, path: str | os.PathLike) -> Path:
    """Write ``data`` as JSON atomically (:mod:`spacy_anno_eval.files`): never a half-written file.

    A top-level value that is a :class:`PerDocRows` (``report(lazy=True)``)
    is written a chunk of rows at a time, never all in memory; the bytes equal
    those of the same report with a list. NaN and infinite figures are written
    as ``null`` (:func:`~spacy_anno_eval.figures.json_safe`): no file holds
    ``NaN`` or ``Infinity``, which are not JSON. ``path`` ``-`` is standard
    output; devices, FIFOs and symlinks are written as
    :func:`~spacy_anno_eval.files.open_atomic` says; a failure (a folder, a
    read-only folder, a lone surrogate in an id) is an
    :class:`~spacy_anno_eval.errors.AnnoEvalError` naming ``path``.
    """
    lazy = {k: v for k, v in data.items() if isinstance(v, PerDocRows)} if isinstance(data, dict) else {}
    if not lazy:
        return write_text(path, json_text(data, indent=2) + "\n")
    marks = {k: f"per-doc-rows-{secrets.token_hex(16)}" for k in lazy}
    text = json_text({k: marks.get(k, v) for k, v in data.items()}, indent=2) + "\n"
    with open_atomic(path) as out:
        for key, rows in lazy.items():
            before, text = text.split(json_text(marks[key]), 1)
            out.write(before.encode("utf8"))
            _write_rows(out, rows, "    ")  # a top-level value: its items at 4 spaces, as indent=2 puts them
        out.write(text.encode("utf8"))
    return Path(path)


def _write_rows(out: Any, rows: PerDocRows, indent: str) -> None:
    """``rows`` as ``json.dumps(list(rows), indent=2)`` writes a list whose items sit at ``indent``.

    Every row nests the same keys, so their layout becomes one ``%`` template
    and each chunk's values are turned into JSON text a column at a time
    (json's indented encoder is pure Python, about 10x slower); a chunk with a
    value that is not finite is written by :func:`~spacy_anno_eval.files.json_text` row by row.
    """
    if not len(rows):
        out.write(b"[]")
        return
    out.write(b"[")
    template = None
    for a in range(0, len(rows), rows.CHUNK):
        b = min(a + rows.CHUNK, len(rows))
        table = rows.table(a, b)
        if template is None:
            template = _template(table, indent)
        columns = _json_columns(table)
        if columns is None:
            texts = [indent + json_text(r, indent=2).replace("\n", "\n" + indent) for r in report_rows(table)]
        else:
            texts = [template % values for values in zip(*columns, strict=True)]
        out.write((("\n" if a == 0 else ",\n") + ",\n".join(texts)).encode("utf8"))
    out.write(("\n" + indent[:-2] + "]").encode("utf8"))


def _template(table: dict[str, Any], indent: str) -> str:
    """The ``json.dumps(row, indent=2)`` layout of a row of ``table`` at ``indent``, each value a ``%s``."""
    def layout(d: dict[str, Any], pad: str) -> str:
        inner = pad + "  "
        items = [inner + json_text(k).replace("%", "%%") + ": "
                 + (layout(v, inner) if isinstance(v, dict) else "%s") for k, v in d.items()]
        return "{\n" + ",\n".join(items) + "\n" + pad + "}"

    return indent + layout(table, indent)


def _json_columns(table: dict[str, Any]) -> list[list[str]] | None:
    """Each leaf column of ``table`` as JSON texts, in template order, typed as :func:`report_rows` types them;
    ``None`` when a float is not finite (those rows go through :func:`~spacy_anno_eval.figures.json_safe`)."""
    out: list[list[str]] = []
    for key, value in table.items():
        if isinstance(value, dict):
            inner = _json_columns(value)
            if inner is None:
                return None
            out.extend(inner)
            continue
        arr = np.asarray(value)
        if arr.dtype == object:
            out.append([json_text(v) for v in arr.tolist()])
        elif is_count(key):
            out.append(list(map(int.__repr__, arr.astype(np.int64).tolist())))
        else:
            floats = arr.astype(float)
            if not np.isfinite(floats).all():
                return None
            out.append(list(map(float.__repr__, floats.tolist())))
    return out


__all__ = ["write_json"]
