"""``anno-eval noisy`` on the terminal: nerval's table, one line per type and ``ALL``.

:func:`noisy_lines` returns the lines (no newline) the command prints, one ``typer.echo`` each, from the dict
of :func:`~spacy_anno_eval.noisy.evaluate.evaluate_files`: predicted, matched and support counts, then P, R
and F1 as percentages with two decimals. A count nerval leaves undefined (a type absent from one side, null
in the JSON) prints as ``-``; the figures are read, never computed.
"""

from __future__ import annotations

from typing import Any


def noisy_lines(result: dict[str, Any]) -> list[str]:
    """The head, a line per type of ``result["per_type"]``, then ``ALL`` (``result["all"]``); the first column is
    wide enough for every name."""
    from .rows import pct

    def num(v: Any) -> str:
        return "-" if v is None else pct(v)

    def count(v: Any) -> str:
        return "-" if v is None else str(v)

    names = [*result["per_type"], "ALL"]
    width = max(12, *(len(n) + 2 for n in names))
    lines = [f"{'type':<{width}}{'predicted':>10}{'matched':>9}{'support':>9}{'P %':>9}{'R %':>9}{'F1 %':>9}"]
    for name, f in [*result["per_type"].items(), ("ALL", result["all"])]:
        lines.append(f"{name:<{width}}{count(f['predicted']):>10}{count(f['matched']):>9}{count(f['support']):>9}"
                     f"{num(f['p']):>9}{num(f['r']):>9}{num(f['f']):>9}")
    return lines


__all__ = ["noisy_lines"]
