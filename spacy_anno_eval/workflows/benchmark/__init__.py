"""GATE's Corpus Benchmark Tool (user guide 10.4): track a pipeline's quality across versions.

A benchmark folder holds ``clean/`` (the texts, without annotations),
``marked/`` (the gold annotations) and ``processed/`` (stored results of model
versions, one folder each, with a manifest). The modes:

- ``store``: run a pipeline on ``clean/`` and store its results as a named
  baseline (:func:`~spacy_anno_eval.workflows.benchmark.store.store_baseline`);
- ``marked-vs-stored``: score a stored baseline against ``marked/``;
- ``marked-vs-current``: run the pipeline into a temporary folder and score it;
- ``default``: both, and the difference per type and per document with a
  paired bootstrap interval and an approximate-randomization p-value for each
  delta (:mod:`~spacy_anno_eval.resampling.paired`), and the annotations
  that were fixed or broken (:mod:`~spacy_anno_eval.workflows.benchmark.compare`).

Settings come from a spaCy-style config file (``configs/benchmark.cfg``) and the
command line (:mod:`~spacy_anno_eval.workflows.benchmark.settings`). Importing this
package is light: spaCy is loaded only when a pipeline runs.
"""

from __future__ import annotations

MODES = ("store", "marked-vs-stored", "marked-vs-current", "default", "verbose")

__all__ = ["MODES"]
