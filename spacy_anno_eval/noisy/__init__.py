"""Named-entity evaluation on noisy text (OCR / HTR output), compatible with nerval.

One module per step (see :mod:`spacy_anno_eval.noisy.evaluate` for the whole
method): :mod:`~.reader` (BIO/BIOES files, as nerval reads them),
:mod:`~.tags` (character tags, from files or spans), :mod:`~.align` (edlib
alignment of the two texts), :mod:`~.match` (nerval's matching, MUC classes)
and :mod:`~.evaluate` (figures; files and spaCy Docs). The spaCy scorer is
:mod:`spacy_anno_eval.pipeline.noisy_scorer`.

Imports are lazy: naming this package imports no numpy.
"""

from __future__ import annotations

from ..lazy import lazy_exports

_LAZY = {
    "ALL": "settings", "DEFAULT_MAX_ALIGNMENT_CHARS": "settings", "DEFAULT_THRESHOLD": "settings",
    "check_threshold": "settings",
    "CharTags": "tags", "char_tags_from_spans": "tags",
    "parse_bio": "reader", "read_bio": "reader",
    "NoisyAlignment": "align", "align_char_tags": "align", "levenshtein": "align",
    "EntityMatch": "match", "match_entities": "match", "spurious": "match",
    "PairResult": "evaluate", "evaluate_docs": "evaluate", "evaluate_files": "evaluate", "evaluate_pair": "evaluate",
}

__all__ = sorted(_LAZY)

__getattr__, __dir__ = lazy_exports(__name__, _LAZY)
