"""Alignment without offsets, after ANNALIST (Demetriou et al. 2008): mentions at the offset, section or
order level (:mod:`.mentions`), greedy, DP (:mod:`.dp`) and optimal alignment with split/merge policies
(:mod:`.align`), and relations scored over the entity alignment (:mod:`.relations`, read by
:mod:`.relations_reader`; two files scored: :mod:`.relation_files`).

Imports are lazy: naming a function imports its module.
"""

from __future__ import annotations

from ..lazy import lazy_package

__getattr__, __dir__, __all__ = lazy_package(__name__, """
    align: AlignmentResult Mention Settings align_and_score align_mentions scores
    mentions: read_mentions
    relations: EntityAlignment Relation score_relations
    relation_files: RelationsResult score_relation_files
    relations_reader: read_relations
""")
