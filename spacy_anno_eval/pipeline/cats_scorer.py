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

A coefficient that is undefined (one category only, no documents) is 0.0 in
the flat keys, so spaCy's weighted training score never sees ``None`` or NaN,
and ``None`` in the per-label dicts. Formulas: :mod:`spacy_anno_eval.agreement.coefficients`
and :mod:`spacy_anno_eval.agreement.reliability`.

This module imports nothing heavy at import time: spaCy loads it whenever a
pipeline resolves its scorers.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any


def score_cats_agreement(examples: Iterable[Any], *, labels: Sequence[str] | None = None,
                         multi_label: bool | None = None, threshold: float = 0.5) -> dict[str, Any]:
    """Kappa and alpha between reference and predicted ``doc.cats`` (see the module docstring)."""
    import warnings

    import numpy as np

    from ..agreement.coefficients import DegenerateAgreementWarning, cohen_kappa, confusion_matrix, observed_agreement
    from ..agreement.reliability import krippendorff_alpha
    from ..figures import none_if_undefined

    pairs = [(eg.reference.cats, eg.predicted.cats) for eg in examples if eg.reference.cats]
    names = list(labels) if labels else sorted({k for ref, _ in pairs for k in ref})
    if multi_label is None:
        multi_label = not all(sum(1 for k in names if ref.get(k, 0.0) >= 0.5) == 1 for ref, _ in pairs)
    out: dict[str, Any] = {"cats_kappa": 0.0, "cats_alpha": 0.0, "cats_observed_agreement": 0.0,
                           "cats_kappa_per_label": {}, "cats_alpha_per_label": {}}
    if not pairs or not names:
        return out
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateAgreementWarning)
        if not multi_label:
            ref = [max(names, key=lambda k, r=r: r.get(k, 0.0)) for r, _ in pairs]
            pred = [max(names, key=lambda k, p=p: p.get(k, 0.0)) for _, p in pairs]
            table = confusion_matrix(ref, pred, categories=names)
            out["cats_kappa"] = none_if_undefined(cohen_kappa(table).value) or 0.0
            out["cats_alpha"] = none_if_undefined(krippendorff_alpha([ref, pred], "nominal").value) or 0.0
            out["cats_observed_agreement"] = float(observed_agreement(table))
            return out
        kappas, alphas, agreements = [], [], []
        for name in names:
            ref = [int(r.get(name, 0.0) >= 0.5) for r, _ in pairs]
            pred = [int(p.get(name, 0.0) >= threshold) for _, p in pairs]
            table = confusion_matrix(ref, pred, categories=[0, 1])
            k = none_if_undefined(cohen_kappa(table).value)
            a = none_if_undefined(krippendorff_alpha([ref, pred], "nominal").value)
            out["cats_kappa_per_label"][name] = k
            out["cats_alpha_per_label"][name] = a
            kappas += [k] if k is not None else []
            alphas += [a] if a is not None else []
            agreements.append(float(observed_agreement(table)))
    out["cats_kappa"] = float(np.mean(kappas)) if kappas else 0.0
    out["cats_alpha"] = float(np.mean(alphas)) if alphas else 0.0
    out["cats_observed_agreement"] = float(np.mean(agreements))
    return out


def make_cats_agreement_scorer(labels: Sequence[str] | None = None, multi_label: bool | None = None,
                               threshold: float = 0.5) -> Callable[..., dict[str, Any]]:
    """The registered scorer ``spacy_anno_eval.cats_agreement_scorer.v1``."""
    def scorer(examples: Iterable[Any], **cfg: Any) -> dict[str, Any]:
        # keys spaCy passes from the component's cfg (labels, threshold, ...) yield to the scorer's own config
        return score_cats_agreement(examples, labels=labels, multi_label=multi_label, threshold=threshold)

    return scorer


__all__ = ["make_cats_agreement_scorer", "score_cats_agreement"]
