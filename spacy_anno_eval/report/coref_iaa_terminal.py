"""``anno-eval coref-iaa`` on the terminal: the agreement matrix of one metric, then every metric per pair.

The lines (:func:`coref_iaa_lines`) read a
:meth:`~spacy_anno_eval.coref.agreement.CorefAgreement.to_dict` result and compute nothing:

- a header: annotators, documents, the settings;
- the matrix of the chosen metric's symmetrised F (the mean of both
  directions) as percentages, each annotator's mean over its pairs in the
  last column, ``-`` on the diagonal (an annotator is not compared with
  itself). Names that do not fit become ``#1``, ``#2``... with a legend
  above; a matrix wider than the terminal is split into blocks of columns;
- each pair's symmetrised F of every metric, then the mean of pairs; a pair
  name too long for its column gets a line of its own.

Plain text, every line at most ``columns`` wide where the data allow (a name
longer than a line is printed whole), the same in a pipe as on a terminal.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .coref_terminal import NAMES
from .rows import pack, pct

#: the metrics' short names in the pair table (every column 7 wide)
SHORT = {"conll": "CoNLL", "muc": "MUC", "bcub": "B3", "ceafm": "CEAFm", "ceafe": "CEAFe", "blanc": "BLANC",
         "lea": "LEA", "mentions": "ment."}
LONG = {"conll": "CoNLL", **NAMES}
CELL = 8  # "100.00" and two spaces
FIG = 7


def coref_iaa_lines(result: dict[str, Any], settings: Sequence[str] = (), columns: int = 80) -> list[str]:
    """The lines ``anno-eval coref-iaa`` prints for ``result`` (see the module), at most ``columns`` wide (at
    least 60 assumed); ``settings``: how the files were read and scored, in words (``"exact matching"``)."""
    columns = max(int(columns), 60)
    names = result["annotators"]
    docs = result["n_docs"]
    head = [f"{len(names)} annotators", f"{docs} document{'' if docs == 1 else 's'}"]
    lines = pack([*head, *settings], "coreference agreement: ", "  ", sep=",", width=columns)
    lines += _matrix(result, columns)
    lines += _pairs(result, columns)
    return lines


def _matrix(result: dict[str, Any], columns: int) -> list[str]:
    """The chosen metric's symmetrised F, annotators x annotators, and each annotator's mean."""
    matrix = result["matrix"]
    names = result["annotators"]
    cell = max(CELL, *(len(n) + 2 for n in names))
    width = max(len(n) for n in names) + 4  # two spaces before a name, two after
    aliased = width + cell * (len(names) + 1) > columns
    lines = [f"{LONG[matrix['metric']]} F (%), the mean of both directions (each annotator as the key):"]
    if aliased:  # numbers in the matrix, the names in a legend above it
        cell, width = CELL, len(f"#{len(names)}") + 4
        lines += pack([f"#{k + 1} {n}" for k, n in enumerate(names)], "  ", "  ", sep=",", width=columns)
    heads = [*([f"#{k + 1}" for k in range(len(names))] if aliased else names), "mean"]
    rows = [f"  {h}" for h in heads[:-1]]
    cells = [[("-" if v is None else pct(v)) for v in row] + [pct(mean)]
             for row, mean in zip(matrix["cells"], matrix["annotator_mean"], strict=True)]
    per_block = max((columns - width) // cell, 1)
    for start in range(0, len(heads), per_block):
        block = range(start, min(start + per_block, len(heads)))
        lines.append(" " * width + "".join(f"{heads[k]:>{cell}}" for k in block))
        for name, row in zip(rows, cells, strict=True):
            lines.append(f"{name:<{width}}" + "".join(f"{row[k]:>{cell}}" for k in block))
    lines.append(f"  mean of pairs: {pct(matrix['mean_of_pairs'])}")
    return lines


def _pairs(result: dict[str, Any], columns: int) -> list[str]:
    """Every metric's symmetrised F of each pair, then the mean of pairs (R and P are in the JSON)."""
    metrics = [m for m in result["metrics"] if m in SHORT]
    room = columns - 2 - FIG * len(metrics)
    labels = [f"{p['a']} / {p['b']}" for p in result["pairs"]]
    width = max(len("mean of pairs"), *(len(label) for label in labels)) + 2
    own_line = width > room
    width = max(room, 4) if own_line else width
    lines = ["F (%) of every metric, the mean of both directions (R and P in the JSON):",
             f"  {'pair':<{width}}" + "".join(f"{SHORT[m]:>{FIG}}" for m in metrics)]
    rows = [(label, p["figures"]) for label, p in zip(labels, result["pairs"], strict=True)]
    rows.append(("mean of pairs", result["mean_of_pairs"]))
    for label, figures in rows:
        cells = "".join(f"{pct(figures[m]['f']):>{FIG}}" for m in metrics)
        if len(label) + 1 > width:
            lines += [f"  {label}", f"  {'':<{width}}{cells}"]
        else:
            lines.append(f"  {label:<{width}}{cells}")
    return lines


__all__ = ["coref_iaa_lines"]
