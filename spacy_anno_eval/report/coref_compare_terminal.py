"""``anno-eval coref KEY A B ...`` on the terminal: every system's F per metric side by side, then each pair's F
deltas with their interval and p-value; plain lines that fit 80 columns. Every figure comes from
:meth:`spacy_anno_eval.workflows.coref_compare.CorefComparison.to_dict`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .coref_terminal import NAMES
from .rows import pct, shorten

WIDTH = 80
ROWS = [*NAMES.items(), ("conll", "CoNLL")]


def _f(system: dict[str, Any], metric: str) -> Any:
    return system[metric]["f"]


def coref_compare_lines(result: dict[str, Any], significant: Callable[[dict[str, Any]], bool],
                        settings: str = "") -> list[str]:
    """The systems' F per metric (at most six systems a row block, names cut to fit), then each pair."""
    names = list(result["systems"])
    first = next(iter(result["systems"].values()))
    n = first["n_docs"]
    lines = [f"{len(names)} systems, {n} document{'' if n == 1 else 's'}" + (f" · {settings}" if settings else "")]
    for start in range(0, len(names), 6):
        block = names[start:start + 6]
        lines.append(f"  {'F':<10}" + "".join(f"{shorten(name, 10):>11}" for name in block))
        for metric, label in ROWS:
            lines.append(f"  {label:<10}" + "".join(f"{pct(_f(result['systems'][name], metric)):>11}"
                                                   for name in block))
    corrected = result.get("correction") == "holm"
    p_name = "p_randomization_holm" if corrected else "p_randomization"
    confidence = result["settings"].get("confidence", 0.95)
    for pair in result["pairs"]:
        lines += ["", f"{shorten(pair['new'], 30)} against {shorten(pair['old'], 30)} (F, new - old)",
                  f"  {'metric':<10}{'old':>8}{'new':>8}{'delta':>9}  {f'{confidence:.0%} interval':<20}{'p':>8}"]
        for metric, label in ROWS:
            entry = pair["figures"][f"{metric}_f"]
            interval = f"[{100 * entry['ci_low']:+.2f}, {100 * entry['ci_high']:+.2f}]"
            mark = " better" if significant(entry) and entry["delta"] > 0 else \
                " worse" if significant(entry) else ""
            lines.append(f"  {label:<10}{pct(entry['old']):>8}{pct(entry['new']):>8}{100 * entry['delta']:>+9.2f}  "
                         f"{interval:<20}{entry[p_name]:>8.4f}{mark}")
    how = f"Holm-corrected across the {len(result['pairs'])} pairs" if corrected else "one pair, no correction"
    lines += ["", f"paired bootstrap interval and approximate randomization p over documents, "
                  f"{result['settings'].get('n_samples')} samples, seed {result['settings'].get('seed')}; "
                  f"{how}; better/worse: p <= {result['alpha']}"]
    lines += [f"note: {note}" for note in result.get("notes", [])]
    return [line for chunk in lines for line in _wrap(chunk)]


def _wrap(line: str) -> list[str]:
    if len(line) <= WIDTH:
        return [line]
    import textwrap

    return textwrap.wrap(line, WIDTH, subsequent_indent="  ")


__all__ = ["coref_compare_lines"]
