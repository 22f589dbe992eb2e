"""The corpus benchmark's default (and verbose) mode as HTML, Markdown, terminal output and flat rows.

The input is the report dict of :func:`spacy_anno_eval.workflows.benchmark.run_benchmark`
(``result.report``) for the modes ``default`` and ``verbose``: the regression
comparison of an old version (a stored baseline) with a new one (the current
pipeline, or another baseline), both scored against the same gold
(GATE user guide 10.4.4). The renderers show

- the verdict (``regression`` with the flagged figures, or ``ok``), the
  settings and how significance was decided (samples, seed, confidence,
  ``max_drop``, gated figures);
- the two versions (name, model and version, when stored);
- per type, then overall: for each measure and figure (P, R, F) the old and
  new value and the delta with its direction (▲ up, ▼ down, = same), the
  paired bootstrap interval and the bootstrap and randomization p-values, with
  the regressions highlighted;
- the documents whose figures changed, the annotations whose status changed
  (fixed, broken, changed) and, in verbose mode, the types below the
  threshold with their non-coextensive annotations.

Nothing is computed here: every figure, delta, direction, interval, p-value and
the verdict are read from the report dict as they are (renderers only count
rows for headings and truncation notes). Values are fractions in the report
and shown as percentages, deltas as percentage points.

One module per rendering, this one the door that names them all:
:mod:`~.benchmark_rows` reads the report and writes its figures as text and
flat rows (:func:`benchmark_rows`, :func:`benchmark_dataframe`), the one
module every rendering shares; :mod:`~.benchmark_html` renders the page
(:func:`render_benchmark_html`), :mod:`~.benchmark_markdown` the Markdown
(:func:`render_benchmark_markdown`), :mod:`~.benchmark_terminal` the terminal
table (:func:`print_benchmark`).

Escaping: each rendering's module says how it escapes document text, labels,
ids, names and values for its format (HTML entities, Markdown table cells,
``rich`` ``Text`` never parsed as markup).
"""

from __future__ import annotations

from .benchmark_html import MAX_CHANGES, MAX_DOCS, render_benchmark_html
from .benchmark_markdown import MAX_MD_CHANGES, render_benchmark_markdown
from .benchmark_rows import ROW_COLUMNS, benchmark_dataframe, benchmark_rows
from .benchmark_terminal import print_benchmark

__all__ = ["MAX_CHANGES", "MAX_DOCS", "MAX_MD_CHANGES", "ROW_COLUMNS", "benchmark_dataframe", "benchmark_rows",
           "print_benchmark", "render_benchmark_html", "render_benchmark_markdown"]
