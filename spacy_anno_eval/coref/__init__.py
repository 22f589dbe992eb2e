"""Coreference: the CoNLL-2011/2012, CorefUD 1.0, spaCy DocBin and JSON-lines readers (one registry,
:func:`read_coref`) and every standard metric (MUC, B³, CEAFm, CEAFe,
BLANC, LEA, the CoNLL average, mention detection) as the official scorers count them, and the agreement of
N annotators on them (every pair scored both ways, :mod:`.agreement`).

Imports are lazy: naming a function imports its module.
"""

from __future__ import annotations

from ..lazy import lazy_package

__getattr__, __dir__, __all__ = lazy_package(__name__, """
    conll2012: read_conll2012 CorefDocument
    corefud: read_corefud
    documents: TextCorefDocument mention_text
    jsonl: read_coref_jsonl
    readers: read_coref coref_formats register_coref_reader unregister_coref_reader detect_coref_format
        CorefReader
    spacy_docs: read_coref_docbin coref_documents_from_docs
    metrics: score_documents CorefScores
    matching: align_document
    agreement: coref_agreement CorefAgreement
""")
