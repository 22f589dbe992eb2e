"""``anno-eval compare`` on the terminal: per pair of systems, each overall figure with both values, the
delta, its interval, the p-value and which system is better, in plain lines that fit 80 columns.

A renderer only: every value comes from the comparison's dict
(:meth:`spacy_anno_eval.workflows.compare.SystemsComparison.to_dict`); whether a difference is significant
is the comparison's own verdict, passed in as ``significant``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from .rows import figure, shorten

FIGURE_NAMES = {"p": "P", "r": "R", "f": "F"}
WIDTH = 80


def _signed(value: float) -> str:
    return f"{value:+.4f}"


def pair_lines(pair: dict[str, Any], measures: Sequence[str], significant: Callable[[dict[str, Any]], bool],
               corrected: bool, confidence: float) -> list[str]:
    """The lines of one pair: a heading, a header row, one row per measure and figure."""
    old, new = pair["old"], pair["new"]
    p_name = "p Holm" if corrected else "p (AR)"
    lines = [f"{old} vs {new}", f"  {'figure':<10}{shorten(old, 7):>7} {shorten(new, 7):>7} {'delta':>8}  "
                                f"{f'{confidence:.0%} CI of delta':<16} {p_name:>7}  verdict"]
    for measure in measures:
        for k in ("p", "r", "f"):
            e = pair["overall"][measure][k]
            p = e["p_randomization_holm"] if corrected else e["p_randomization"]
            ci = f"[{e['ci'][0]:+.3f}, {e['ci'][1]:+.3f}]"
            if significant(e):
                verdict = f"{shorten(new if e['delta'] > 0 else old, 8)} better"
            else:
                verdict = "same" if e["delta"] == 0 else "not sig."
            lines.append(f"  {measure + ' ' + FIGURE_NAMES[k]:<10}{figure(e['old']):>7} {figure(e['new']):>7} "
                         f"{_signed(e['delta']):>8}  {ci:<16} {figure(p):>7}  {verdict}")
    return lines


def compare_lines(result: dict[str, Any], significant: Callable[[dict[str, Any]], bool],
                  measures: Sequence[str] = ("strict", "lenient", "average")) -> list[str]:
    """Every line of the comparison: the systems' strict F, then each pair, then the method."""
    corrected = result.get("correction") == "holm"
    settings = result["settings"]
    lines = ["systems (strict micro F): " + ", ".join(f"{s['name']} {figure(s['micro']['strict']['f'])}"
                                                        for s in result["systems"])]
    for pair in result["pairs"]:
        lines.append("")
        lines.extend(pair_lines(pair, measures, significant, corrected, settings["confidence"]))
    lines.append("")
    how = (f"Holm-corrected across the {len(result['pairs'])} pairs" if corrected
           else "one pair, no correction")
    lines.append(f"paired bootstrap and approximate randomization over documents, {settings['n_samples']} "
                 f"samples, seed {settings['seed']}; p: approximate randomization, {how}; better: p <= "
                 f"{result['alpha']}")
    lines.extend(f"note: {n}" for n in result.get("notes", []))
    return [line for chunk in lines for line in _wrap(chunk)]


def _wrap(line: str) -> list[str]:
    """A line of prose longer than :data:`WIDTH` broken at spaces (table rows fit by construction)."""
    if len(line) <= WIDTH:
        return [line]
    import textwrap

    return textwrap.wrap(line, WIDTH, subsequent_indent="  ")


__all__ = ["compare_lines", "pair_lines"]
