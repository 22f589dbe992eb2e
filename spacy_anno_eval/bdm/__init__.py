"""Balanced Distance Metric (Maynard et al. 2006; GATE user guide 10.6): ontology-aware credit for near misses.

A taxonomy (:mod:`.taxonomy`: TSV or OWL/RDF, read with entities refused),
the BDM of every concept pair (:mod:`.distance`), GATE's BDM score file
(:mod:`.gatefile`) and the credit rule that the span engine carries beside
its counts (:mod:`.credit`: :class:`BdmCredit`, merged exactly over shards).

Imports are lazy: naming a function imports its module.
"""

from __future__ import annotations

from ..lazy import lazy_package

__getattr__, __dir__, __all__ = lazy_package(__name__, """
    taxonomy: Taxonomy read_taxonomy
    distance: BDMScores bdm compute_bdm
    gatefile: read_bdm_file write_bdm_file
    credit: BdmCredit BdmCreditSum bdm_prf load_concept_scores
""")
