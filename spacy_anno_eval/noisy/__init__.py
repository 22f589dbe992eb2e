"""Named-entity evaluation on noisy text (OCR / HTR output), compatible with nerval.

One module per step (see :mod:`spacy_anno_eval.noisy.evaluate` for the whole
method): :mod:`~.reader` (BIO/BIOES files, as nerval reads them),
:mod:`~.tags` (character tags, from files or spans), :mod:`~.align` (edlib
alignment of the two texts), :mod:`~.match` (nerval's matching, MUC classes)
and :mod:`~.evaluate` (figures; files and spaCy Docs). The spaCy scorer is
:mod:`spacy_anno_eval.pipeline.noisy_scorer`.

The threshold's boundary: nerval's README and paper say an entity is
recognised when edit distance / gold entity length is "< 0.3", while the code
of nerval 0.3.3 (``nerval.evaluate.match``) tests ``<= threshold``. We follow
the code by default (``boundary="inclusive"``), so that our figures are
nerval's; ``boundary="exclusive"`` gives the README's strict ``<``
(``anno-eval noisy --boundary exclusive``; ``boundary`` in
:func:`~.evaluate.evaluate_files`, :func:`~.evaluate.evaluate_docs` and the
scorer's config). They differ only for an entity exactly at the threshold,
such as 3 edits in 10 characters at 0.30.

Imports are lazy: naming this package imports no numpy.
"""

from __future__ import annotations

from ..lazy import lazy_exports

_LAZY = {
    "ALL": "settings", "DEFAULT_MAX_ALIGNMENT_CHARS": "settings", "DEFAULT_THRESHOLD": "settings",
    "check_threshold": "settings", "DEFAULT_BOUNDARY": "settings", "check_boundary": "settings",
    "CharTags": "tags", "char_tags_from_spans": "tags",
    "parse_bio": "reader", "read_bio": "reader",
    "NoisyAlignment": "align", "align_char_tags": "align", "levenshtein": "align",
    "EntityMatch": "match", "match_entities": "match", "spurious": "match",
    "PairResult": "evaluate", "evaluate_docs": "evaluate", "evaluate_files": "evaluate", "evaluate_pair": "evaluate",
}

__all__ = sorted(_LAZY)

__getattr__, __dir__ = lazy_exports(__name__, _LAZY)
