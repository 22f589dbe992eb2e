"""``anno-eval agreement`` on the terminal: the coefficients of an agreement summary, one per line, and the note
that says which annotator sets a corpus gave.

:func:`summary_lines` returns the lines (no newline) the command prints, one ``typer.echo`` each, from the
JSON-ready summary of :func:`~spacy_anno_eval.agreement.summary.table_summary` (that of
:func:`~spacy_anno_eval.agreement.summary.agreement_summary` with the ``units`` and the notes of a corpus or a
table of unit ids): observed agreement as a percentage, the chance-corrected coefficients with four decimals and
their bootstrap intervals when computed, Krippendorff's alpha with its disorders, the chance-corrected family with
irrCAC's analytic standard errors, the documents each set covered, then each note once. The figures are read
from the summary, never computed here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

#: the coefficients of the summary, one line each, in this order (before Krippendorff's alpha)
COEFFICIENTS = ("observed_agreement", "bennett_s", "scott_pi", "cohen_kappa", "fleiss_kappa", "davies_fleiss_kappa")
#: the chance-corrected family (``summary["chance_corrected"]``), one line each when present
FAMILY_KEYS = ("gwet_ac", "brennan_prediger", "conger_kappa", "fleiss_kappa_averaged")


def interval(ci: Any) -> str:
    """``  95% CI [low, high]`` of a bootstrap or analytic interval, or nothing when there is none."""
    from .rows import figure

    if not isinstance(ci, dict) or ci.get("low") is None:
        return ""
    return f"  {ci.get('confidence', 0.95):.0%} CI [{figure(ci['low'])}, {figure(ci['high'])}]"


def summary_lines(summary: dict[str, Any], level: str) -> list[str]:
    """The coefficients, one per line (``level``: Krippendorff's alpha's, named on its line); then the documents
    covered when the units are documents; then each note once, on its own line, on the same stream as the
    table (so that a log never interleaves them)."""
    from .rows import figure, pct

    alpha = summary["krippendorff_alpha"]
    lines = [f"{summary['n_units']} units, {summary['n_annotators']} annotators, "
             f"{summary['n_pairable_units']} with two or more values"]
    for key in COEFFICIENTS:
        value = summary[key]
        shown = f"{pct(value)} %" if key == "observed_agreement" and value is not None else figure(value)
        lines.append(f"  {key:<22}{shown}{interval(summary.get(f'{key}_ci'))}")
    lines.append(f"  {'krippendorff_alpha':<22}{figure(alpha['value'])}{interval(alpha.get('ci'))}")
    lines.append(f"  {'':<22}{level}; observed disagreement {figure(alpha['observed_disagreement'])}, expected "
                 f"{figure(alpha['expected_disagreement'])}")
    family = summary.get("chance_corrected")
    if family:
        lines.append(f"  chance-corrected, {family['weights']} weights (irrCAC's analytic SE and CI):")
        for key in FAMILY_KEYS:
            entry = family.get(key)
            if entry is None:
                continue
            se = f"  se {figure(entry['se'])}" if entry.get("se") is not None else ""
            lines.append(f"  {key:<22}{figure(entry['value'])}{se}{interval(entry.get('ci'))}")
    units = summary.get("units")
    if units is not None and "documents" in units:
        lines += documents_lines(units)
    lines += [f"  note: {w}" for w in dict.fromkeys(summary["warnings"])]
    return lines


def documents_lines(units: dict[str, Any]) -> list[str]:
    """What the units are and how many documents each set covered (``units["documents"]``), the counts wrapped
    to 80 columns, one set's count never broken across lines."""
    documents = units["documents"]
    n = documents["n_documents"]
    kind = {"document": "documents", "document x label": f"documents x labels ({documents.get('layout')}: "
                                                         f"yes/no per label)"}.get(units.get("unit"),
                                                                                   "span positions")
    from .rows import pack

    lines = [f"  units are {kind}; documents covered:"]
    lines += pack([f"{s} {k} of {n}" for s, k in documents["covered"].items()], "    ", "    ")
    return lines


def all_sets_note(names: Sequence[str]) -> str:
    """The note (stderr, once the command is done) that every annotator set of the file was compared, as no
    ``--sets`` chose them."""
    return f"note: comparing the annotator sets {', '.join(names)} (all the file holds; choose with --sets)"


__all__ = ["COEFFICIENTS", "FAMILY_KEYS", "all_sets_note", "documents_lines", "interval", "summary_lines"]
