"""``anno-eval gamma`` on the terminal: the lines of γ, of the unitizing α and of the documents compared.

Each function returns the lines (no newline) that the command prints, one ``typer.echo`` each; the figures are
read from the results (:class:`~spacy_anno_eval.gamma.measure.GammaResult`,
:class:`~spacy_anno_eval.gamma.unitizing.UnitizingAlphaResult`,
:class:`~spacy_anno_eval.gamma.unitizing.UnitizingAlpha2016Result`, the continuum's ``documents``), never
computed here. A figure that does not exist prints as ``NA``; coefficients have four decimals, disorders six.
Lines fit 80 columns where they hold lists (categories, documents).
"""

from __future__ import annotations

import textwrap
from typing import Any

#: the u-alpha-16 line's note, by the result's ``undefined_because`` (any other reason: "undefined")
UNDEFINED_NOTES = {"overlap": "units of one annotator overlap"}


def _num(value: float | None) -> str:
    return "NA" if value is None else f"{value:.4f}"


def gamma_lines(result: Any) -> list[str]:
    """γ with its interval, γcat, γk per category and the disorders (stdout)."""
    ci = result.ci
    return [f"gamma      {_num(result.gamma)}  [{_num(ci['low'])}, {_num(ci['high'])}] "
            f"({100 * ci['confidence']:.0f} %, {result.n_samples} samples)",
            f"gamma-cat  {_num(result.gamma_cat)}",
            "gamma-k    " + ", ".join(f"{k} {_num(v)}" for k, v in result.gamma_k.items()),
            f"disorder   observed {result.observed_disorder:.6f}, expected {result.expected_disorder:.6f}; "
            f"{result.n_unitary_alignments} unitary alignments"]


def gamma_warning_lines(result: Any) -> list[str]:
    """The result's warnings, ``warning: ...`` each (stderr)."""
    return [f"warning: {w}" for w in result.warnings]


def unitizing_lines(result: Any, result_2016: Any = None) -> list[str]:
    """uα (Krippendorff 2004) and its per-category values, wrapped to 80 columns; then the 2016 uα, with why it
    is undefined (its ``undefined_because``) when it is."""
    lines = [f"u-alpha    {_num(result.value)}  (Krippendorff 2004; observed {_num(result.observed)}, expected "
             f"{_num(result.expected)})"]
    cats = [f"{c} {_num(v['value'])}" for c, v in result.per_category.items()]
    line = "u-alpha-c  "
    for item in cats:
        if len(line) + len(item) + 2 > 80 and line.strip() != "u-alpha-c":
            lines.append(line.rstrip(", "))
            line = "           "
        line += item + ", "
    if cats:
        lines.append(line.rstrip(", "))
    if result_2016 is not None:
        why = "" if result_2016.value is not None else \
            f"  ({UNDEFINED_NOTES.get(result_2016.undefined_because, 'undefined')})"
        lines.append(f"u-alpha-16 {_num(result_2016.value)}  (Krippendorff et al. 2016){why}")
    return lines


def documents_lines(documents: dict[str, Any]) -> list[str]:
    """How many documents γ compared, and those left out (or counted as empty) with the sets that have no record
    of them, wrapped to 80 columns; at most five named, the rest counted (all in the JSON)."""
    n, compared = documents["n_documents"], documents["n_compared"]
    lines = [f"documents  {compared} of {n} compared"]
    missing = documents["not_covered"]
    if not missing:
        return lines
    if documents["missing_as_empty"]:
        head = f"{len(missing)} not covered by every set, counted as empty (--missing-as-empty):"
    else:
        head = f"{len(missing)} left out, not covered by every set (--missing-as-empty counts them):"
    lines += [f"  {line}" for line in textwrap.wrap(head, 78)]
    for entry in missing[:5]:
        text = f"{entry['doc']}: no record of {', '.join(entry['sets'])}"
        lines += [f"    {line}" for line in textwrap.wrap(text, 76, subsequent_indent="  ", break_on_hyphens=False)]
    if len(missing) > 5:
        lines.append(f"    and {len(missing) - 5} more (every one in the JSON: documents.not_covered)")
    return lines


def sets_note_line(documents: dict[str, Any]) -> str:
    """The note (stderr, once the command is done) that every annotator set of the file was compared
    (``documents["sets"]``), as no ``--sets`` chose them: the wording of ``anno-eval agreement``'s."""
    from .agreement_terminal import all_sets_note

    return all_sets_note(documents["sets"])


__all__ = ["UNDEFINED_NOTES", "documents_lines", "gamma_lines", "gamma_warning_lines", "sets_note_line",
           "unitizing_lines"]
