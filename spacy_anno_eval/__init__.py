"""spacy-anno-eval: annotation evaluation and agreement inside spaCy.

Imports are lazy so that spaCy's entry-point loading stays light.
"""

from __future__ import annotations

from typing import Any

__version__ = "0.1.0"
__all__ = ["evaluate", "align_spans", "Corpus", "SpanTable", "Evaluation", "__version__"]

_LAZY = {
    "evaluate": ("spans.engine", "evaluate"),
    "align_spans": ("spans.align", "align_spans"),
    "Corpus": ("annotations.table", "Corpus"),
    "SpanTable": ("annotations.table", "SpanTable"),
    "Evaluation": ("spans.counts", "Evaluation"),
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        from importlib import import_module

        module, attr = _LAZY[name]
        return getattr(import_module(f"{__name__}.{module}"), attr)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
