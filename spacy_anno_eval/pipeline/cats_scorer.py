"""A spaCy scorer for text classification as agreement: Cohen's kappa and Krippendorff's alpha.

Registered through the ``spacy_scorers`` entry point::

    [components.textcat.scorer]
    @scorers = "spacy_anno_eval.cats_agreement_scorer.v1"
    labels = null           # default: every label of the reference cats
    multi_label = null      # default: exclusive when every reference has exactly one positive label
    threshold = 0.5

The reference (``eg.reference.cats``) and the prediction (``eg.predicted.cats``)
are two annotators of the same documents. Examples whose reference has no
cats are skipped. A predicted score counts as positive when it is
``>= threshold`` (spaCy's ``Scorer.score_cats`` convention).

- Exclusive classes: each document gets one category per side (the
  reference's positive label; the prediction's highest-scoring label), and
  ``cats_kappa`` is Cohen's (1960) kappa, ``cats_alpha`` Krippendorff's nominal
  alpha (2011) and ``cats_observed_agreement`` Ao of those two codings.
- Multi-label: each label is a yes/no coding; ``cats_kappa_per_label`` and
  ``cats_alpha_per_label`` hold each label's coefficient, and the flat keys
  are their unweighted means over the labels where they are defined.

A coefficient that is undefined is ``None`` (``null`` in JSON), in the flat
keys as in the per-label dicts, with a
:class:`~spacy_anno_eval.errors.DegenerateAgreementWarning` saying why
(:func:`spacy_anno_eval.figures.undefined`, the package's one policy): κ when
both sides put every document in the same category (expected agreement
Pe = 1, κ = 0/0), α when only one value occurs, and all three flat figures
when no example has reference cats. spaCy leaves ``None`` scores out of its
weighted training score (``spacy.training.loop.create_evaluation_callback``),
as it does for its own undefined scores. Formulas:
:mod:`spacy_anno_eval.agreement.coefficients` and
:mod:`spacy_anno_eval.agreement.reliability`.

Settings are checked once, when the scorer is made (and when
:func:`score_cats_agreement` is called): ``threshold`` a number in [0, 1]
(:func:`spacy_anno_eval.figures.check_fraction`; NaN is refused),
``multi_label`` true, false or null, ``labels`` a list of names or null;
anything else is a :class:`~spacy_anno_eval.errors.ConfigError`.

This module imports nothing heavy at import time: spaCy loads it whenever a
pipeline resolves its scorers.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

SCORER = "spacy_anno_eval.cats_agreement_scorer.v1"


def check_settings(labels: Any, multi_label: Any, threshold: Any) -> tuple[list[str] | None, bool | None, float]:
    """The scorer's settings checked: ``labels`` (None, a name, or names), ``multi_label`` (None or a bool),
    ``threshold`` (a number in [0, 1]). Raise :class:`~spacy_anno_eval.errors.ConfigError` naming the setting."""
    from ..errors import ConfigError
    from ..figures import check_fraction

    if isinstance(labels, str):
        labels = [labels]  # one label, not its letters
    elif labels is not None:
        if not isinstance(labels, Iterable):
            raise ConfigError(f"{SCORER}: labels must be a list of category names (or null for every label of "
                              f"the reference cats), got {labels!r}")
        labels = list(labels)
        if not all(isinstance(name, str) for name in labels):
            raise ConfigError(f"{SCORER}: labels must be category names (strings), got {labels!r}")
    if multi_label is not None and not isinstance(multi_label, bool):
        raise ConfigError(f"{SCORER}: multi_label must be true, false or null (null: exclusive when every "
                          f"reference has exactly one positive label), got {multi_label!r}")
    return labels, multi_label, check_fraction(f"{SCORER}: threshold", threshold, example="0.5")


def score_cats_agreement(examples: Iterable[Any], *, labels: Sequence[str] | None = None,
                         multi_label: bool | None = None, threshold: float = 0.5) -> dict[str, Any]:
    """Kappa and alpha between reference and predicted ``doc.cats`` (see the module docstring).

    Raise :class:`~spacy_anno_eval.errors.ConfigError` for a bad setting (:func:`check_settings`) or when
    ``examples`` is not an iterable of Examples; warn once with
    :class:`~spacy_anno_eval.errors.DegenerateAgreementWarning` naming the figures reported as ``None``.
    """
    import warnings

    from ..annotations.docs import example_cats
    from ..errors import ConfigError, DegenerateAgreementWarning
    from ..figures import undefined

    labels, multi_label, threshold = check_settings(labels, multi_label, threshold)
    if not isinstance(examples, Iterable):
        raise ConfigError(f"{SCORER}: examples must be an iterable of spaCy Examples, got {type(examples).__name__}")
    pairs = example_cats(examples)
    names = list(labels) if labels else sorted({k for ref, _ in pairs for k in ref})
    if multi_label is None:
        multi_label = not all(sum(1 for k in names if ref.get(k, 0.0) >= 0.5) == 1 for ref, _ in pairs)
    if not pairs or not names:
        undefined("cats_kappa, cats_alpha and cats_observed_agreement",
                  "no example has reference cats" if not pairs else "no label to compare",
                  category=DegenerateAgreementWarning)
        return {"cats_kappa": None, "cats_alpha": None, "cats_observed_agreement": None,
                "cats_kappa_per_label": {}, "cats_alpha_per_label": {}}
    with warnings.catch_warnings():  # the coefficients' own warnings name their internals: ours say why below
        warnings.simplefilter("ignore", DegenerateAgreementWarning)
        out, why = (_per_label if multi_label else _exclusive)(pairs, names, threshold)
    if why:
        undefined(*why, category=DegenerateAgreementWarning)
    return out


def _exclusive(pairs: list[tuple[dict, dict]], names: list[str],
               threshold: float) -> tuple[dict[str, Any], tuple[str, str] | None]:
    """One category per document and side: the scores, and (what, why) when kappa or alpha is undefined."""
    from ..agreement.coefficients import cohen_kappa, confusion_matrix, observed_agreement
    from ..agreement.reliability import krippendorff_alpha
    from ..figures import none_if_undefined

    ref = [max(names, key=lambda k, r=r: r.get(k, 0.0)) for r, _ in pairs]
    pred = [max(names, key=lambda k, p=p: p.get(k, 0.0)) for _, p in pairs]
    table = confusion_matrix(ref, pred, categories=names)
    out = {"cats_kappa": none_if_undefined(cohen_kappa(table).value),
           "cats_alpha": none_if_undefined(krippendorff_alpha([ref, pred], "nominal").value),
           "cats_observed_agreement": float(observed_agreement(table)),
           "cats_kappa_per_label": {}, "cats_alpha_per_label": {}}
    gone = [k for k in ("cats_kappa", "cats_alpha") if out[k] is None]
    if not gone:
        return out, None
    used = sorted(set(ref) | set(pred))
    why = (f"both sides put all {len(ref)} documents in the one category {used[0]!r}, so expected agreement Pe = 1 "
           f"and the coefficient is 0/0" if len(used) == 1 else "expected agreement Pe = 1")
    return out, (" and ".join(gone), why)


def _per_label(pairs: list[tuple[dict, dict]], names: list[str],
               threshold: float) -> tuple[dict[str, Any], tuple[str, str] | None]:
    """Each label a yes/no coding: the scores (flat keys: means over the labels where defined), and (what, why)
    when some label's kappa or alpha is undefined."""
    import numpy as np

    from ..agreement.coefficients import cohen_kappa, confusion_matrix, observed_agreement
    from ..agreement.reliability import krippendorff_alpha
    from ..figures import none_if_undefined

    kappa, alpha, agreements = {}, {}, []
    for name in names:
        ref = [int(r.get(name, 0.0) >= 0.5) for r, _ in pairs]
        pred = [int(p.get(name, 0.0) >= threshold) for _, p in pairs]
        table = confusion_matrix(ref, pred, categories=[0, 1])
        kappa[name] = none_if_undefined(cohen_kappa(table).value)
        alpha[name] = none_if_undefined(krippendorff_alpha([ref, pred], "nominal").value)
        agreements.append(float(observed_agreement(table)))

    def mean(values: dict[str, float | None]) -> float | None:
        defined = [v for v in values.values() if v is not None]
        return float(np.mean(defined)) if defined else None

    out = {"cats_kappa": mean(kappa), "cats_alpha": mean(alpha), "cats_observed_agreement": float(np.mean(agreements)),
           "cats_kappa_per_label": kappa, "cats_alpha_per_label": alpha}
    gone = [name for name in names if kappa[name] is None or alpha[name] is None]
    if not gone:
        return out, None
    flat = [k for k in ("cats_kappa", "cats_alpha") if out[k] is None]
    why = (f"both sides give every document the same answer for {'that label' if len(gone) == 1 else 'those labels'}"
           f", so expected agreement Pe = 1")
    if flat:
        why += f"; {' and '.join(flat)}, the mean over the labels, {'is' if len(flat) == 1 else 'are'} None too"
    return out, (f"cats_kappa_per_label / cats_alpha_per_label of {', '.join(map(repr, gone))}", why)


def make_cats_agreement_scorer(labels: Sequence[str] | None = None, multi_label: bool | None = None,
                               threshold: float = 0.5) -> Callable[..., dict[str, Any]]:
    """The registered scorer ``spacy_anno_eval.cats_agreement_scorer.v1``; its settings are checked here, when
    spaCy resolves the config (:func:`check_settings`)."""
    labels, multi_label, threshold = check_settings(labels, multi_label, threshold)

    def scorer(examples: Iterable[Any], **cfg: Any) -> dict[str, Any]:
        # keys spaCy passes from the component's cfg (labels, threshold, ...) yield to the scorer's own config
        return score_cats_agreement(examples, labels=labels, multi_label=multi_label, threshold=threshold)

    return scorer


__all__ = ["check_settings", "make_cats_agreement_scorer", "score_cats_agreement"]
