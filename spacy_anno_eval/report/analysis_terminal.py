"""The error-analysis sections on the terminal: decision counts, the label confusion matrix, intervals and
buckets, as plain lines that fit 80 columns (labels shortened with "…" and a legend, never cut silently).

Renderers only: every number comes from the sections of
:func:`spacy_anno_eval.workflows.analysis.analysis_sections`.
"""

from __future__ import annotations

from typing import Any

from .rows import figure, pack, shorten

WIDTH = 80
DECISION_NAMES = {"correct": "correct", "label_error": "label errors", "boundary_error": "boundary errors",
                  "boundary_and_label_error": "boundary+label errors", "missing": "missing",
                  "spurious": "spurious"}


def decision_lines(decisions: dict[str, Any]) -> list[str]:
    """One line (two when long) with the count of each decision."""
    return pack([f"{DECISION_NAMES[k]} {v}" for k, v in decisions["micro"].items()], "decisions: ", "  ",
                width=WIDTH)


def confusion_lines(confusion: dict[str, Any], title: str = "label confusion") -> list[str]:
    """The matrix (rows key, columns response, ``none`` last), its columns as wide as the counts need; labels
    longer than the column are shortened, and a legend gives their full names."""
    names = confusion["labels"]
    matrix = confusion["matrix"]
    widest = max((len(str(v)) for row in matrix for v in row), default=1)
    n = len(names)
    cell = max(widest, 4)
    head = min(max(len(x) for x in names), 12)
    while head + (cell + 1) * n > WIDTH and cell > max(widest, 3):  # narrow the columns first, then the labels
        cell -= 1
    if head + (cell + 1) * n > WIDTH:
        head = max(WIDTH - (cell + 1) * n, 5)
    short = {x: shorten(x, cell) for x in names}
    lines = [f"{title} ({confusion['overlap']}; rows key, columns response):",
             " " * head + "".join(f" {short[x]:>{cell}}" for x in names)]
    for name, row in zip(names, matrix, strict=True):
        lines.append(f"{shorten(name, head):<{head}}" + "".join(f" {v:>{cell}}" for v in row))
    cut = [x for x in names if short[x] != x or shorten(x, head) != x]
    if cut:  # one entry never broken across lines
        lines += pack([f"{short[x]} = {x}" for x in cut], "  labels: ", "    ", sep=";", width=WIDTH)
    return lines


def interval_lines(intervals: dict[str, Any]) -> list[str]:
    """The micro figures' intervals, one line per measure."""
    lines = [f"{intervals['confidence']:.0%} intervals ({intervals['method']}, {intervals['n_samples']} samples, "
             f"seed {intervals['seed']}), micro:"]
    for measure, figures in intervals["micro"].items():
        lines.append(f"  {measure:<8}" + "  ".join(f"{k.upper()} [{figure(lo)}, {figure(hi)}]"
                                                   for k, (lo, hi) in figures.items()))
    import textwrap

    for note in intervals.get("left_out", []):
        lines.extend(textwrap.wrap(f"note: {note}", WIDTH, initial_indent="  ", subsequent_indent="    "))
    return lines


def bucket_lines(section: dict[str, Any]) -> list[str]:
    """One feature's buckets: key and response annotations, strict and lenient F (with the strict F interval
    when computed)."""
    buckets = section["buckets"]
    width = min(max([len(b) for b in buckets] + [6]), 16)
    with_ci = any("ci" in v for v in buckets.values())
    head = f"  {'bucket':<{width}} {'key':>6} {'resp':>6} {'strict F':>8} {'lenient F':>9}"
    lines = [f"by {section['feature'].replace('_', ' ')}:", head + ("  strict F interval" if with_ci else "")]
    for name, v in buckets.items():
        row = (f"  {shorten(name, width):<{width}} {v['key']:>6} {v['response']:>6} {figure(v['strict']['f']):>8} "
               f"{figure(v['lenient']['f']):>9}")
        if "ci" in v:
            lo, hi = v["ci"]["strict"]["f"]
            row += f"  [{figure(lo)}, {figure(hi)}]"
        lines.append(row)
    return lines


def analysis_lines(sections: dict[str, Any]) -> list[str]:
    """Every section present, in order: decisions, confusion, intervals, buckets."""
    lines = decision_lines(sections["decisions"])
    for mode, matrix in sections.get("confusion", {}).items():
        lines += ["", *confusion_lines(matrix, "label confusion" if mode == "coextensive" else
                                       "label confusion, any overlap")]
    if "intervals" in sections:
        lines += ["", *interval_lines(sections["intervals"])]
    for section in sections.get("buckets", []):
        lines += ["", *bucket_lines(section)]
    return lines


__all__ = ["analysis_lines", "bucket_lines", "confusion_lines", "decision_lines", "interval_lines"]
