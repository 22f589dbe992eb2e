"""Annotation sets as numpy columns (:mod:`.table`: SpanTable, Corpus) and the one way in from spaCy
Docs and Examples (:mod:`.docs`), with the one document-id rule.

Imports are lazy: naming a function imports its module.
"""

from __future__ import annotations

from ..lazy import lazy_package

__getattr__, __dir__, __all__ = lazy_package(__name__, """
    table: Corpus SpanTable parse_selector
    docs: corpus_from_docs doc_id example_sets spans_from_docs
""")
