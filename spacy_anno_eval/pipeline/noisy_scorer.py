"""A spaCy scorer for named entities on noisy text (OCR / HTR output), as nerval scores them.

Registered through the ``spacy_scorers`` entry point::

    [components.ner.scorer]
    @scorers = "spacy_anno_eval.noisy_spans_scorer.v1"
    threshold = 0.30        # edit distance / gold entity length of a match (nerval's default)
    boundary = "inclusive"  # <= threshold as nerval 0.3.3's code; "exclusive": < as nerval's README
    spans_key = null        # null: doc.ents; else doc.spans[key]
    prefix = null           # default noisy_ents or noisy_spans_<key>

The reference and predicted texts of an ``Example`` may differ: each pair is
aligned on ``doc.text`` and entities are matched through the alignment
(:func:`spacy_anno_eval.noisy.evaluate.evaluate_docs`; the method is in
:mod:`spacy_anno_eval.noisy.evaluate`). Keys: ``{prefix}_p``, ``{prefix}_r``,
``{prefix}_f`` (nerval's ALL figures), ``{prefix}_per_type`` (``{TYPE: {"p",
"r", "f", "predicted", "matched", "support"}}``, a count of a type absent from
one side 0) and ``{prefix}_muc`` (MUC micro counts and P/R/F). A ratio with a
zero denominator is 0.0 (the package's ``zero_division``), so every flat key
is a float and spaCy keeps it in its weighted score.

This module imports nothing heavy at import time: spaCy loads it whenever a
pipeline resolves its scorers.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from ..errors import ConfigError
from ..noisy.settings import DEFAULT_BOUNDARY, DEFAULT_THRESHOLD, check_boundary, check_threshold


def _prefix(key_set: str) -> str:
    from ..annotations.table import parse_selector

    kind, key = parse_selector(key_set)
    return "noisy_ents" if kind == "ents" else f"noisy_spans_{key}"


def score_noisy_examples(examples: Iterable[Any], threshold: float = DEFAULT_THRESHOLD, *, key_set: str = "ents",
                         response_set: str | None = None, prefix: str | None = None,
                         boundary: str = DEFAULT_BOUNDARY) -> dict[str, Any]:
    """Score spaCy ``Example`` objects whose reference and predicted texts may differ (keys: see the module)."""
    from ..annotations.docs import example_docs
    from ..noisy.evaluate import evaluate_docs

    references, predictions = example_docs(examples)
    res = evaluate_docs(references, predictions, threshold=threshold, key_set=key_set, response_set=response_set,
                        max_alignment_chars=0, boundary=boundary)
    prefix = prefix or _prefix(key_set)
    out: dict[str, Any] = {f"{prefix}_{k}": float(res["all"][k]) for k in ("p", "r", "f")}
    out[f"{prefix}_per_type"] = {
        t: {k: (float(v) if k in ("p", "r", "f") else int(v or 0)) for k, v in row.items()}
        for t, row in res["per_type"].items()
    }
    out[f"{prefix}_muc"] = res["muc"]["all"]
    return out


def make_noisy_spans_scorer(threshold: float = DEFAULT_THRESHOLD, spans_key: str | None = None,
                            prefix: str | None = None,
                            boundary: str = DEFAULT_BOUNDARY) -> Callable[..., dict[str, Any]]:
    """Build the scorer registered as ``spacy_anno_eval.noisy_spans_scorer.v1``.

    threshold (float): an entity is recognised when edit distance / gold length <= threshold (nerval: 0.30).
    spans_key (str | None): ``doc.spans`` key to score; None scores ``doc.ents``.
    prefix (str | None): key prefix; default ``noisy_ents`` or ``noisy_spans_<key>``.
    boundary (str): "inclusive" (<= threshold, nerval 0.3.3's code) or "exclusive" (<, nerval's README).
    """
    threshold = check_threshold(threshold)
    boundary = check_boundary(boundary)
    if spans_key is not None and (not isinstance(spans_key, str) or not spans_key):
        raise ConfigError(f"noisy_spans_scorer: spans_key must be a non-empty string or null, got {spans_key!r}")
    key_set = "ents" if spans_key is None else f"spans:{spans_key}"

    def scorer(examples: Iterable[Any], **kwargs: Any) -> dict[str, Any]:
        # kwargs come from the component's cfg (spaCy's TrainablePipe.score); the config wins
        return score_noisy_examples(examples, threshold, key_set=key_set, prefix=prefix, boundary=boundary)

    return scorer


__all__ = ["make_noisy_spans_scorer", "score_noisy_examples"]
