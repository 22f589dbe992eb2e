"""spaCy scorers: strict, lenient and average span scores from ``Example`` objects.

Registered through the ``spacy_scorers`` entry point, so a training config
can use them without importing this package::

    [components.ner.scorer]
    @scorers = "spacy_anno_eval.spans_scorer.v1"
    spans_key = null

With ``spans_key = null`` the scorer reads ``doc.ents`` and is a drop-in for
the ``ner`` scorer (``spacy.scorer.get_ner_prf``): ``ents_p``/``ents_r``/
``ents_f`` are strict and equal to spaCy's figures, ``ents_per_type`` has
spaCy's ``p``/``r``/``f`` for the same labels. As in ``get_ner_prf``,
examples whose reference has no entity annotation at all are skipped, and a
predicted entity that touches a reference token with missing annotation
(IOB code 0) is neither right nor wrong: it is left out (its label still gets
a per-type row, as in spaCy).

With ``spans_key = "sc"`` it scores ``doc.spans["sc"]`` like spaCy's
``spancat`` scorer (``Scorer.score_spans`` with ``allow_overlap=True``): keys
``spans_sc_p`` ..., examples whose reference lacks the group are skipped, and
a span group is a set (exact duplicates count once; empty predicted spans,
which spaCy cannot align, are left out).

Differences from spaCy, on purpose:

- Where spaCy returns ``None`` (nothing to score: no entity on either side)
  we return 0.0 for every P/R/F key and ``{}`` for ``*_per_type``. spaCy's
  training loop drops a score-weight key whose value is ``None``, so a
  ``None`` at the first evaluation would take the key out of the weighted
  score; a float keeps the key.
- Spans are read by :func:`spacy_anno_eval.annotations.docs.example_sets`,
  the one Example path (the ``anno_eval`` component's ``score()`` is this
  scorer): predictions are mapped onto the reference tokens through the
  Example's alignment as spaCy does, so the figures equal spaCy's also when
  the predicted tokenization differs. spaCy computes
  ``tp / (tp + fp + 1e-100)``; we compute the exact ratio, so values agree to
  floating-point rounding.
- ``beta``, ``labels`` and ``features`` have no spaCy counterpart. Keyword
  arguments that spaCy passes from the component's ``cfg`` (``labels``,
  ``spans_key``, ``threshold`` ...) are ignored: the scorer's own config wins.

Keys (``prefix`` defaults to ``ents`` or ``spans_<key>`` like spaCy):
``{prefix}_{p,r,f}`` (strict), ``{prefix}_{p,r,f}_{strict,lenient,average}``
(GATE user guide ch. 10: partial matches count as wrong, as right, or as
half), ``{prefix}_per_type`` (strict ``p``/``r``/``f`` plus
``{p,r,f}_lenient`` and ``{p,r,f}_average``), ``{prefix}_muc`` (MUC counts
and P/R/F, Chinchor 1992) and ``{prefix}_semeval`` (SemEval-2013 schemas).
Every flat key is a float, never ``None``.

Speed: entities are read with ``Doc.to_array`` (one call per doc and side)
and decoded, mapped and aligned with numpy over the whole batch; no ``Span``
object is created in the ``doc.ents`` mode without ``features``. Bad settings
raise :class:`~spacy_anno_eval.errors.ConfigError` when the scorer is made.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

MODES = ("strict", "lenient", "average")


def make_spans_scorer(spans_key: str | None = None, beta: float = 1.0, labels: Sequence[str] | None = None,
                      features: Sequence[str] | None = None,
                      prefix: str | None = None) -> SpansScorer:
    """Build the scorer registered as ``spacy_anno_eval.spans_scorer.v1``.

    spans_key (str | None): ``doc.spans`` key to score; ``None`` scores ``doc.ents``.
    beta (float): F-beta weight of recall (``>= 0``, or ``inf`` for recall).
    labels (list[str] | None): score only these labels.
    features (list[str] | None): significant span attributes (``kb_id``, ``_.name``).
    prefix (str | None): key prefix; default ``ents`` or ``spans_<key>`` like spaCy.

    Bad settings raise :class:`~spacy_anno_eval.errors.ConfigError`.
    """
    from ..errors import ConfigError
    from ..spans.settings import SpanSettings

    names = _names("labels", labels), _names("features", features)
    try:  # the span engine's one validation of beta (and of the names, after their spaCy-config form above)
        checked = SpanSettings(beta=beta, types=names[0], features=names[1])
    except ConfigError as e:
        raise ConfigError(f"spans_scorer: {e}") from None
    beta = checked.beta
    if spans_key is not None and (not isinstance(spans_key, str) or not spans_key):
        raise ConfigError(f"spans_scorer: spans_key must be a non-empty string or null, got {spans_key!r}")
    if prefix is not None and (not isinstance(prefix, str) or not prefix):
        raise ConfigError(f"spans_scorer: prefix must be a non-empty string or null, got {prefix!r}")
    return SpansScorer(spans_key, beta, names[0], names[1], prefix)


@dataclass(frozen=True)
class SpansScorer:
    """The registered spans scorer: :func:`score_spans` with its settings (a plain object, so a pipeline
    that holds it still pickles for ``nlp.pipe(n_process>1)``)."""

    spans_key: str | None = None
    beta: float = 1.0
    labels: list[str] | None = None
    features: list[str] | None = None
    prefix: str | None = None

    def __call__(self, examples: Iterable[Any], **kwargs: Any) -> dict[str, Any]:
        # kwargs come from the component's cfg (spaCy's Pipe.score); the scorer's own config wins
        return score_spans(examples, spans_key=self.spans_key, beta=self.beta, labels=self.labels,
                           features=self.features, prefix=self.prefix)


def _names(setting: str, value: Any) -> list[str] | None:
    """A list of non-empty strings (``None`` for null or empty); :class:`ConfigError` otherwise."""
    from ..errors import ConfigError

    if not value:
        return None
    if isinstance(value, str) or not all(isinstance(v, str) and v for v in value):
        raise ConfigError(f"spans_scorer: {setting} must be a list of non-empty strings, got {value!r}")
    return list(value)


def score_spans(examples: Iterable[Any], *, spans_key: str | None = None, beta: float = 1.0,
                labels: Sequence[str] | None = None, features: Sequence[str] | None = None,
                prefix: str | None = None, zero_division: float = 0.0) -> dict[str, Any]:
    """Score predicted spans against reference spans of spaCy ``Example`` objects.

    The spans are read by :func:`spacy_anno_eval.annotations.docs.example_sets`
    (spaCy's own rules for partial references and differing tokenizations),
    and every measure comes from one alignment of them
    (:func:`spacy_anno_eval.spans.align.align_spans`); see the module
    docstring for the keys and for where (and why) the result differs from spaCy's.
    """
    from ..annotations.docs import example_sets
    from ..spans.align import align_spans, select_types
    from ..spans.counts import Evaluation

    features = list(features) if features else None
    sets = example_sets(examples, spans_key, features)
    prefix = prefix or ("ents" if spans_key is None else f"spans_{spans_key}")
    alignment = align_spans(select_types(sets.key, labels), select_types(sets.response, labels), features=features)
    ev = Evaluation.from_alignment(alignment, sets.doc_ids, {"beta": beta, "zero_division": zero_division})
    out = format_scores(ev.report(per_doc=False), prefix)
    per_type = out[f"{prefix}_per_type"]
    if per_type:  # spaCy lists the labels of ignored predictions too, with zeros
        for label in sets.ignored:
            if label not in per_type and (not labels or label in labels):
                per_type[label] = {name: 0.0 for name in _PER_TYPE_KEYS}
    return out


_PER_TYPE_KEYS = ("p", "r", "f", "p_lenient", "r_lenient", "f_lenient", "p_average", "r_average", "f_average")


def format_scores(report: dict[str, Any], prefix: str) -> dict[str, Any]:
    """Flatten a report into spaCy's flat score dict with prefixed keys."""
    micro = report["micro"]
    out: dict[str, Any] = {
        f"{prefix}_p": micro["strict"]["p"],
        f"{prefix}_r": micro["strict"]["r"],
        f"{prefix}_f": micro["strict"]["f"],
    }
    for mode in MODES:
        for k in "prf":
            out[f"{prefix}_{k}_{mode}"] = micro[mode][k]
    per_type = {}
    for label, entry in report["per_type"].items():
        row = {k: entry["strict"][k] for k in "prf"}
        for mode in ("lenient", "average"):
            row.update({f"{k}_{mode}": entry[mode][k] for k in "prf"})
        per_type[label] = row
    out[f"{prefix}_per_type"] = per_type
    out[f"{prefix}_muc"] = report["muc"]
    out[f"{prefix}_semeval"] = report["semeval"]
    return out
