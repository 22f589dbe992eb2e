"""``anno-eval coref`` on the terminal: one line per metric with recall, precision and F as percentages, then
the CoNLL average; plain lines that fit 80 columns. Every figure comes from
:meth:`spacy_anno_eval.coref.metrics.CorefScores.to_dict`."""

from __future__ import annotations

from typing import Any

from .rows import pct

NAMES = {"muc": "MUC", "bcub": "B-cubed", "ceafm": "CEAFm", "ceafe": "CEAFe", "blanc": "BLANC", "lea": "LEA",
         "mentions": "mentions"}


def coref_lines(result: dict[str, Any], settings: str = "") -> list[str]:
    """The table of every metric, then the CoNLL average (the mean F of MUC, B-cubed and CEAFe)."""
    n = result["n_docs"]
    lines = [f"{n} document{'' if n == 1 else 's'}" + (f" · {settings}" if settings else ""),
             f"  {'metric':<10}{'R':>8}{'P':>8}{'F':>8}"]
    for key, name in NAMES.items():
        if key in result:
            v = result[key]
            lines.append(f"  {name:<10}{pct(v['r']):>8}{pct(v['p']):>8}{pct(v['f']):>8}")
    lines.append(f"  {'CoNLL':<10}{'':>8}{'':>8}{pct(result['conll']['f']):>8}  (mean F of MUC, B-cubed, CEAFe)")
    return lines


__all__ = ["coref_lines"]
