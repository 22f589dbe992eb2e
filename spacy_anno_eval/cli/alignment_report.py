"""What ``align`` and ``relations`` share: the MUC table on the terminal and the alignment report folder."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer

COUNTS = ("POS", "ACT", "COR", "PAR", "INC", "MIS", "SPU")


def print_muc_table(title: str, rows: list[tuple[str, dict[str, Any], float, float, float]]) -> None:
    """MUC counts and recall / precision / F, one line per (name, counts, r, p, f)."""
    typer.echo(f"{title:<16}" + "".join(f"{c:>6}" for c in COUNTS) + f"{'REC':>8}{'PRE':>8}{'F':>8}")
    for name, f, r, p, fscore in rows:
        typer.echo(f"{name[:15]:<16}" + "".join(f"{f[c]:>6}" for c in COUNTS) + f"{r:>8.4f}{p:>8.4f}{fscore:>8.4f}")


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
