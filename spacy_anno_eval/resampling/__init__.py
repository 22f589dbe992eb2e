"""Resampling documents: paired tests between systems and intervals of one system's figures.

- :mod:`.paired`: the paired bootstrap and approximate randomization between two systems scored on the
  same documents (the benchmark's and ``compare``'s tests);
- :mod:`.intervals`: document-bootstrap percentile intervals of one system's figures (``--ci``).

Both resample documents and recompute every figure from summed counts, in seeded blocks
(:mod:`spacy_anno_eval.samples`), so they run in-process or on Dask with the same result.

Imports are lazy: naming a function imports its module.
"""

from __future__ import annotations

from ..lazy import lazy_package

__getattr__, __dir__, __all__ = lazy_package(__name__, """
    paired: paired_test holm PairedTest
    intervals: bootstrap_intervals BootstrapIntervals
""")
