"""Coreference: the CoNLL-2011/2012 reader and every standard metric (MUC, B³, CEAFm, CEAFe, BLANC, LEA, the
CoNLL average, mention detection) as the official CoNLL-2012 scorer counts them.

Imports are lazy: naming a function imports its module.
"""

from __future__ import annotations

from ..lazy import lazy_package

__getattr__, __dir__, __all__ = lazy_package(__name__, """
    conll2012: read_conll2012 CorefDocument
    metrics: score_documents CorefScores
""")
