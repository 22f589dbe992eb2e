"""``anno-eval trees --resolve`` / ``--doubt`` on the terminal, and the perplexity lines of the tree diff.

Brants and Skut (1998) compute "the probabilities of the two different
annotations" of a sentence (section 4.2) and flag the labels a reliable
decision of their models contradicts (section 3.5). Each function returns the
lines (no newline) the command prints, one ``typer.echo`` each, from the
JSON-ready dicts of the results
(:meth:`~spacy_anno_eval.trees.resolution.Resolution.to_dict`,
:meth:`~spacy_anno_eval.workflows.tree_models.DoubtReport.to_dict`); the
figures are read, never computed. Every line fits 80 columns: a long sentence
id or a long run of words wraps onto indented lines, nothing is cut.

- :func:`resolve_lines`: how many sentences differ and got a suggestion,
  which models judged, and with gold Table 5's accuracy and the
  precision/recall curve over minimum perplexity differences (the sentences
  one by one are in the diff, the JSON and the suggestions file);
- :func:`doubt_lines`: the decisions per reliability level, the doubtful
  labels per sentence with the model's choice and the quotient ``P_best /
  P_second``, and with gold the precision and recall of the doubt list;
- :func:`perplexity_notes`: the line each differing sentence gets in the
  ``--diff`` text (both perplexities and the suggestion).
"""

from __future__ import annotations

import math
import textwrap
from typing import Any

WIDTH = 80
#: the names of the two annotations, as the command calls them
SIDES = ("key", "response")


def _wrap(line: str, indent: int = 4) -> list[str]:
    """``line`` in lines of at most :data:`WIDTH` columns (continuations indented; long words broken)."""
    if len(line) <= WIDTH:
        return [line]
    lead = len(line) - len(line.lstrip(" "))
    return textwrap.wrap(line.lstrip(" "), WIDTH, initial_indent=" " * lead, subsequent_indent=" " * (lead + indent),
                         break_long_words=True, break_on_hyphens=False)


def format_perplexity(pp: float | None, log_pp: float | None = None) -> str:
    """A perplexity with 4 significant digits; beyond float range (``None`` in the JSON) ``e^<ln PP>``."""
    if pp is None or not math.isfinite(pp):
        return f"e^{log_pp:.1f}" if log_pp is not None else "overflow"
    return f"{pp:.4g}"


def format_quotient(q: float | None) -> str:
    """``P_best / P_second``: one decimal below 1000, else in powers of ten; ``None`` (no alternative) ``inf``."""
    if q is None or not math.isfinite(q):
        return "inf"
    return f"{q:.1f}" if q < 1000 else f"{q:.1e}"


def _models(data: dict[str, Any], trained_on: str | None) -> str:
    if trained_on is not None:
        return f"models trained on {trained_on}"
    return f"models cross-validated ({data['folds']} folds: each sentence judged by the others)"


def _suggestion(row: dict[str, Any], names: tuple[str, str]) -> str:
    if row["suggestion"] is None:
        return "none (equal)"
    return f"{row['suggestion']} ({names[0] if row['suggestion'] == 'A' else names[1]})"


def perplexity_notes(data: dict[str, Any], names: tuple[str, str] = SIDES) -> dict[str, str]:
    """The ``--diff`` line of each differing sentence, by ``sent_id``: ``perplexity PP(A) 3.214 (key)  PP(B)
    4.051 (response)  suggests A`` (and ``; gold: A`` where gold decides)."""
    out = {}
    for row in data["sentences"]:
        line = (f"perplexity PP(A) {format_perplexity(row['pp_a'], row['log_pp_a'])} ({names[0]})  "
                f"PP(B) {format_perplexity(row['pp_b'], row['log_pp_b'])} ({names[1]})  "
                f"suggests {_suggestion(row, names)}")
        if row["correct"] is not None:
            line += f"; gold: {'A' if row['a_gold'] else 'B'}"
        out[row["sent_id"]] = line
    return out


def resolve_lines(data: dict[str, Any], names: tuple[str, str] = SIDES, trained_on: str | None = None
                  ) -> list[str]:
    """What ``--resolve`` prints (module docstring). ``data``: :meth:`Resolution.to_dict`; ``names``: what A
    and B are called; ``trained_on``: the training treebank (``None``: cross-validated)."""
    from .rows import pct

    lines = [f"Brants & Skut (1998) perplexity: {data['differing']} of {data['compared']} sentences differ, "
             f"{data['suggested']} with a suggestion (A = {names[0]}, B = {names[1]})",
             _models(data, trained_on)]
    lines = [x for line in lines for x in _wrap(line)]
    if not data["gold"]:
        return lines
    lines += _wrap(f"gold: {data['decidable']} of {data['differing']} differing sentences decidable (exactly one "
                   f"of A and B equals gold)")
    if data["accuracy"] is not None:
        lines.append(f"Table 5: the lower perplexity is the correct annotation in {pct(data['accuracy'])} % of "
                     f"them")
    lines.append(f"{'min. difference':>16}{'suggested':>11}{'correct':>9}{'precision %':>13}{'recall %':>10}")
    for c in data["curve"]:
        lines.append(f"{c['min_difference']:>16g}{c['suggested']:>11}{c['correct']:>9}{pct(c['precision']):>13}"
                     f"{pct(c['recall']):>10}")
    return lines


def doubt_lines(data: dict[str, Any]) -> list[str]:
    """What ``--doubt`` prints (module docstring). ``data``: :meth:`DoubtReport.to_dict`."""
    from .rows import pct

    s = data["settings"]
    lines = _wrap(f"Brants & Skut (1998) doubts: {data['source']}, {data['sentences']} sentences, "
                  f"{data['decisions']} decisions; models {data['model']}")
    lines.append(f"levels of P_best/P_second: unreliable < {s['theta1']:g} <= almost reliable <= "
                 f"{s['theta2']:g} < reliable")
    for kind, levels in data["levels"].items():
        lines.append(f"  {kind:<9} " + ", ".join(f"{n} {level}" for level, n in levels.items()))
    lines += _wrap(f"{data['listed']} label(s) that a reliable decision contradicts" + (":" if data["doubts"]
                                                                                       else ""))
    current = None
    for d in data["doubts"]:
        if d["sent_id"] != current:
            current = d["sent_id"]
            header = f"  sentence {current}"
            lines += _wrap(header if len(header) <= WIDTH else f"  {current}")
        where = f"word {d['word']}" if d["word"] is not None else f"node #{d['node']} {d['yield'] or ''}".rstrip()
        second = f", 2nd {d['second']}" if d["second"] is not None else ""
        within = f" (in {d['parent']})" if d["parent"] else ""
        lines += _wrap(f"    {where} \"{d['form']}\": {d['kind']} {d['given']}, model {d['best']}{second}{within}, "
                       f"quotient {format_quotient(d['quotient'])}", indent=4)
    g = data["gold"]
    if g is not None:
        lines += _wrap(f"gold: {g['wrong']} of {g['listed']} doubted labels really wrong, precision "
                       f"{pct(g['precision'])} %; {g['wrong']} of {g['errors']} wrong labels doubted, recall "
                       f"{pct(g['recall'])} %" + (f"; {g['unmatched']} with no node in gold" if g["unmatched"]
                                                  else ""))
    return lines


__all__ = ["SIDES", "doubt_lines", "format_perplexity", "format_quotient", "perplexity_notes", "resolve_lines"]
