"""Resampling documents: paired tests between systems and intervals of one system's figures.

- :mod:`.paired`: the paired bootstrap and approximate randomization between two systems scored on the
  same documents (the benchmark's and ``compare``'s tests);
- :mod:`.intervals`: document-bootstrap percentile intervals of one system's figures (``--ci``).

Both resample documents and recompute every figure from summed counts, in seeded blocks
(:mod:`spacy_anno_eval.samples`), so they run in-process or on Dask with the same result.
"""
