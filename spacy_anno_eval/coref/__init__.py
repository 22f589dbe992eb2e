"""Coreference: the CoNLL-2011/2012 and CorefUD 1.0 readers and every standard metric (MUC, B³, CEAFm, CEAFe,
BLANC, LEA, the CoNLL average, mention detection) as the official scorers count them.

Imports are lazy: naming a function imports its module.
"""

from __future__ import annotations

from ..lazy import lazy_package

__getattr__, __dir__, __all__ = lazy_package(__name__, """
    conll2012: read_conll2012 CorefDocument
    corefud: read_corefud
    metrics: score_documents CorefScores
""")
