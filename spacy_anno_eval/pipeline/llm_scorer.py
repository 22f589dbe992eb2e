"""A spaCy scorer for a spacy-llm pipeline: the model's raw responses grounded in the reference text and scored.

Registered through the ``spacy_scorers`` entry point::

    [components.llm.scorer]
    @scorers = "spacy_anno_eval.llm_scorer.v1"
    component = null             # the spacy-llm component whose responses to score (null: the Docs' one)
    labels = ["PER", "ORG", "LOC"]   # the task's labels (null: every label the model wrote)
    normalizer = "lowercase"     # spacy-llm's label normaliser: lowercase (its default) or strip
    response_format = "auto"     # spacy-llm's NER response format: v2 (LABEL: a, b), v3 (chain of thought)
    ground = "exact,casefold,normalized,fuzzy:0.8"
    ground_all = false           # true: every occurrence of a string (spacy-llm without single_match)
    snap = "contract"            # spaCy's alignment_mode, or none
    spans_key = null             # null: the reference's doc.ents; else doc.spans[key]
    beta = 1.0
    prefix = null                # default ents or spans_<key>

spacy-llm keeps each Doc's prompt and response when its component runs with ``save_io = true``
(``doc.user_data["llm_io"][component]["response"]``, a string, or a list of them for a sharded Doc). This
scorer reads those responses from each Example's predicted Doc, parses them by spacy-llm's own rules
(:func:`spacy_anno_eval.llm.spacy_llm.extractions_from_docs`, :func:`~spacy_anno_eval.llm.spacy_llm.
parse_ner_response`), grounds every string in the reference text with the ladder of
:mod:`spacy_anno_eval.llm.grounding` (snapped to the reference's tokens), and scores the grounded spans against
the reference's entities with the span engine (:func:`spacy_anno_eval.workflows.llm.score_extractions`): a
string that is not in the text (a *hallucination*) is a spurious response, as a wrong entity is. So the figures
say what the model answered, not what spacy-llm's matcher kept of it (spacy-llm drops what it cannot find).

Keys: the span scorer's (:func:`spacy_anno_eval.pipeline.scorers.format_scores`: ``{prefix}_p``, ``_r``,
``_f`` strict, ``{prefix}_{p,r,f}_{strict,lenient,average}``, ``{prefix}_per_type``, ``{prefix}_muc``,
``{prefix}_semeval``), ``{prefix}_hallucinations`` (the count), ``{prefix}_hallucination_rate``
(hallucinations / extractions; 0.0 without extractions, so that the key stays a float) and
``{prefix}_grounding`` (extractions per step of the ladder). Every Example is scored (the reference Doc's
entities, an empty set included). An Example whose predicted Doc holds no ``llm_io`` is an
:class:`~spacy_anno_eval.errors.InputError` saying how to turn ``save_io`` on.

This module imports nothing heavy at import time: spaCy loads it whenever a pipeline resolves its scorers.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import ConfigError

DEFAULT_GROUND = "exact,casefold,normalized,fuzzy:0.8"


@dataclass(frozen=True)
class LlmScorer:
    """The registered scorer: :func:`score_llm_examples` with its settings (a plain object, so a pipeline that holds
    it still pickles)."""

    component: str | None = None
    labels: tuple[str, ...] | None = None
    normalizer: str = "lowercase"
    response_format: str = "auto"
    grounding: Any = None
    spans_key: str | None = None
    beta: float = 1.0
    prefix: str | None = None

    def __call__(self, examples: Iterable[Any], **kwargs: Any) -> dict[str, Any]:
        # kwargs come from the component's cfg (spaCy's Pipe.score); the scorer's own config wins
        return score_llm_examples(examples, component=self.component, labels=self.labels,
                                  normalizer=self.normalizer, response_format=self.response_format,
                                  grounding=self.grounding, spans_key=self.spans_key, beta=self.beta,
                                  prefix=self.prefix)


def make_llm_scorer(component: str | None = None, labels: Sequence[str] | str | None = None,
                    normalizer: str = "lowercase", response_format: str = "auto", ground: str = DEFAULT_GROUND,
                    ground_all: bool = False, snap: str = "contract", spans_key: str | None = None,
                    beta: float = 1.0, prefix: str | None = None) -> LlmScorer:
    """Build the scorer registered as ``spacy_anno_eval.llm_scorer.v1`` (settings: the module docstring).

    Bad settings raise :class:`~spacy_anno_eval.errors.ConfigError` when the scorer is made."""
    from ..llm.grounding import parse_ground
    from ..llm.spacy_llm import FORMATS, NORMALIZERS, label_map, split_labels
    from ..spans.settings import SpanSettings

    try:
        grounding = parse_ground(ground, ground_all=ground_all, snap=snap)
        SpanSettings(beta=beta)
        if normalizer not in NORMALIZERS:
            raise ConfigError(f"normalizer must be one of {', '.join(NORMALIZERS)} (spacy-llm's), got {normalizer!r}")
        if response_format not in FORMATS:
            raise ConfigError(f"response_format must be one of {', '.join(FORMATS)}, got {response_format!r}")
        label_map(labels, NORMALIZERS[normalizer])
    except ConfigError as e:
        raise ConfigError(f"llm_scorer: {e}") from None
    for name, value in (("component", component), ("spans_key", spans_key), ("prefix", prefix)):
        if value is not None and (not isinstance(value, str) or not value):
            raise ConfigError(f"llm_scorer: {name} must be a non-empty string or null, got {value!r}")
    given = split_labels(labels)
    return LlmScorer(component, tuple(given) if given else None, normalizer, response_format, grounding, spans_key,
                     float(beta), prefix)


def score_llm_examples(examples: Iterable[Any], *, component: str | None = None,
                       labels: Sequence[str] | None = None, normalizer: str = "lowercase",
                       response_format: str = "auto", grounding: Any = None, spans_key: str | None = None,
                       beta: float = 1.0, prefix: str | None = None) -> dict[str, Any]:
    """Score the spacy-llm responses of ``examples``' predicted Docs against their reference Docs (module
    docstring); ``grounding``: a :class:`~spacy_anno_eval.llm.grounding.GroundingSettings` (``None``: the
    default ladder)."""
    from dataclasses import replace

    from ..annotations.docs import doc_id, example_docs
    from ..llm.extractions import Extractions
    from ..llm.spacy_llm import extractions_from_docs
    from ..workflows.llm import score_extractions
    from .scorers import format_scores

    references, predictions = example_docs(examples)
    prefix = prefix or ("ents" if spans_key is None else f"spans_{spans_key}")
    found = extractions_from_docs(predictions, labels=list(labels) if labels else None, normalizer=normalizer,
                                  response_format=response_format, component=component,
                                  source="the predicted Docs")
    # documents pair by position: the k-th predicted Doc is the k-th reference, whatever ids each carries
    ids = {doc_id(p, k): doc_id(r, k) for k, (p, r) in enumerate(zip(predictions, references, strict=True))}
    documents = {ids[d]: [replace(x, doc_id=ids[d]) for x in items] for d, items in found.documents.items()}
    key_set = "ents" if spans_key is None else f"spans:{spans_key}"
    result = score_extractions(references, Extractions(documents=documents, source="the predicted Docs",
                                                       format="llm-ner"),
                               key_set=key_set, grounding=grounding, beta=beta, sets=False)
    out = format_scores(result.evaluation.report(per_doc=False), prefix)
    table = result.grounding_dict()
    rate = table["hallucination_rate"]
    out[f"{prefix}_hallucinations"] = int(table["hallucinations"])
    out[f"{prefix}_hallucination_rate"] = 0.0 if rate is None else float(rate)
    out[f"{prefix}_grounding"] = dict(table["by_step"])
    return out


__all__ = ["LlmScorer", "make_llm_scorer", "score_llm_examples"]
