"""What ``align`` and ``relations`` share: the MUC table on the terminal and the alignment report folder."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer

COUNTS = ("POS", "ACT", "COR", "PAR", "INC", "MIS", "SPU")


def print_muc_table(title: str, rows: list[tuple[str, dict[str, Any], float, float, float]]) -> None:
    """MUC counts and recall / precision / F as percentages, one line per (name, counts, r, p, f); names are
    never cut (a long one widens the first column)."""
    from ..report.rows import pct

    width = max(16, len(title) + 2, *(len(str(name)) + 2 for name, *_ in rows))
    typer.echo(f"{title:<{width}}" + "".join(f"{c:>5}" for c in COUNTS) + f"{'REC %':>8}{'PRE %':>8}{'F %':>8}")
    for name, f, r, p, fscore in rows:
        typer.echo(f"{name:<{width}}" + "".join(f"{f[c]:>5}" for c in COUNTS)
                   + f"{pct(r):>8}{pct(p):>8}{pct(fscore):>8}")


REPORT_FILES = ("scores.json", "alignment.tsv", "alignment.jsonl")


def report_files(folder: Path | None) -> list[Path]:
    """The files of the alignment report in ``folder`` (none without a folder), for
    :func:`~spacy_anno_eval.files.check_outputs`."""
    return [] if folder is None else [folder / name for name in REPORT_FILES]


def write_alignment_report(folder: Path, rows: list[dict[str, Any]], data: dict[str, Any]) -> None:
    """``scores.json``, ``alignment.tsv`` and ``alignment.jsonl`` in ``folder``, each written atomically."""
    from ..files import rows_as_jsonl, rows_as_tsv, write_text
    from ..report.json import write_json

    columns = list(dict.fromkeys(c for r in rows for c in r)) if rows else ["doc", "status"]
    scores, tsv, jsonl = report_files(folder)
    write_json(data, scores)
    write_text(tsv, rows_as_tsv(rows, columns))
    write_text(jsonl, rows_as_jsonl(rows))
