"""Agreement between annotators on coreference: every pair scored both ways, the two directions averaged.

N annotators annotate the same documents (same names, same order, same
tokens) for coreference. For each unordered pair {A, B} (A before B in the
order given) the metrics of :mod:`spacy_anno_eval.coref.metrics` are computed
twice, B against A as key (``a_as_key``) and A against B as key
(``b_as_key``), micro over the documents as the official scorer sums them.
The pair's **symmetrised** figure of a metric m is the mean of the two
directions::

    R_m(A, B) = ½ (R_m(A → B) + R_m(B → A)),   likewise P_m and F_m,
    CoNLL(A, B) = ½ (CoNLL(A → B) + CoNLL(B → A))

where ``A → B`` scores B with A as the key. Each annotator's figure is the
mean over the N − 1 pairs it is in, and the overall figure the mean over the
N (N − 1) / 2 pairs (the mean of pairs of GATE's IAA plugin, user guide 10.5;
pairwise F as agreement where neither side is the reference: Hripcsak &
Rothschild 2005, "Agreement, the F-measure, and reliability in information
retrieval", JAMIA 12(3)).

Which metrics are symmetric. Under exact mention matching, MUC, B³, CEAFm,
CEAFe, LEA and mention detection count recall on one side exactly as they
count precision on the other (CEAF's φ is symmetric in its two entities), so
swapping key and response swaps R and P and leaves F (F1 is symmetric in P
and R): F(A → B) = F(B → A), and the symmetrised R equals the symmetrised P.
BLANC depends on the rule for a kind of link (coreference, non-coreference)
that is missing: the CoNLL-2012 Perl scorer (``blanc="conll"``) leaves out a
kind *the key* lacks, so when A has no coreference link and B has some, A → B
averages one kind and B → A two, and the directions differ. The CorefUD
scorer's rule (``blanc="corefud"``: a kind is left out only when neither side
has it, otherwise a side that lacks it scores 0 on it) gives the same F both
ways, hence it is the default here. Partial and head matching (the CorefUD
scorer's ``partial`` / ``head`` modes) read the *key's* minimal span or head
to decide whether a response mention matches, so they are not symmetric
either; the mean of both directions makes every figure symmetric whatever
the metric, rule or matching.

The figures of each direction come from
:func:`~spacy_anno_eval.coref.metrics.score_documents` with the same settings
(``keep_singletons``, ``blanc`` and any further keyword it takes, such as a
mention-matching mode), so a pair's ``a_as_key`` figures are exactly those of
``anno-eval coref A B``. Documents that differ between annotators (their
number, names, order or token counts) are the :class:`InputError`
``score_documents`` raises, naming the first difference and the two
annotators.
"""

from __future__ import annotations

import inspect
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

from ..errors import ConfigError, InputError
from .conll2012 import CorefDocument
from .metrics import BLANC_RULES, METRICS, score_documents

#: the metrics a matrix can show: the CoNLL average, then every metric of :data:`~.metrics.METRICS`
MATRIX_METRICS = ("conll", *METRICS)

Figures = dict[str, dict[str, float]]


def _mean(figures: Sequence[Mapping[str, Mapping[str, float]]]) -> Figures:
    """The mean of several ``{metric: {figure: value}}``, metric by metric and figure by figure (an empty
    sequence: ``{}``)."""
    if not figures:
        return {}
    return {metric: {k: sum(f[metric][k] for f in figures) / len(figures) for k in values}
            for metric, values in figures[0].items()}


@dataclass(frozen=True)
class CorefPair:
    """One pair of annotators: ``a`` (position ``i``) and ``b`` (position ``j``, ``i < j``); the figures of each
    direction (``a_as_key``: ``b`` scored with ``a`` as the key; ``b_as_key`` the other way), their mean
    (``figures``) and the mean per document (``per_doc``: ``(document name, figures)`` in document order)."""

    i: int
    j: int
    a: str
    b: str
    a_as_key: Figures
    b_as_key: Figures
    figures: Figures
    per_doc: tuple[tuple[str, Figures], ...] = ()

    def to_dict(self, per_doc: bool = True) -> dict[str, Any]:
        """JSON-ready: the two annotators, the symmetrised figures, each direction's, and with ``per_doc``
        the symmetrised figures of each document."""
        out: dict[str, Any] = {"i": self.i, "j": self.j, "a": self.a, "b": self.b, "figures": self.figures,
                               "a_as_key": self.a_as_key, "b_as_key": self.b_as_key}
        if per_doc:
            out["per_doc"] = [{"id": name, **figures} for name, figures in self.per_doc]
        return out


@dataclass(frozen=True)
class CorefAgreement:
    """Agreement of N annotators on coreference (see the module): the annotators in order, the documents, the
    pairs (``(0, 1), (0, 2), ..., (1, 2), ...``), each annotator's mean over its pairs, the mean over the pairs,
    and the settings every direction was scored with."""

    annotators: tuple[str, ...]
    documents: tuple[str, ...]
    pairs: tuple[CorefPair, ...]
    annotator_means: dict[str, Figures]
    mean_of_pairs: Figures
    settings: dict[str, Any] = field(default_factory=dict)

    @property
    def n_docs(self) -> int:
        """The number of documents (each annotator's)."""
        return len(self.documents)

    def pair(self, a: str, b: str) -> CorefPair:
        """The pair of annotators ``a`` and ``b`` (either order); :class:`ConfigError` naming the annotators
        when either is not one."""
        for name in (a, b):
            if name not in self.annotators:
                raise ConfigError(f"no annotator {name!r}; the annotators are {', '.join(self.annotators)}")
        for p in self.pairs:
            if {p.a, p.b} == {a, b} and a != b:
                return p
        raise ConfigError(f"{a!r} and {b!r} are one annotator; name two")

    def matrix(self, metric: str = "conll") -> dict[str, Any]:
        """The annotators x annotators view of one metric's symmetrised F: ``cells[x][y]`` the F of the pair of
        annotators ``x`` and ``y`` (the same both ways; ``None`` on the diagonal, an annotator is not compared
        with itself), ``annotator_mean[x]`` annotator ``x``'s mean over its pairs, ``mean_of_pairs`` the mean
        over all pairs. ``metric``: one of :data:`MATRIX_METRICS` (:class:`ConfigError` naming them
        otherwise)."""
        metric = check_metric(metric)
        n = len(self.annotators)
        cells: list[list[float | None]] = [[None] * n for _ in range(n)]
        for p in self.pairs:
            cells[p.i][p.j] = cells[p.j][p.i] = p.figures[metric]["f"]
        return {"metric": metric, "figure": "f", "annotators": list(self.annotators), "cells": cells,
                "annotator_mean": [self.annotator_means[a][metric]["f"] for a in self.annotators],
                "mean_of_pairs": self.mean_of_pairs[metric]["f"]}

    def to_dict(self, per_doc: bool = True, metric: str = "conll") -> dict[str, Any]:
        """JSON-ready: annotators, documents, settings, the metrics, every pair (:meth:`CorefPair.to_dict`),
        each annotator's mean, the mean of pairs, and the :meth:`matrix` of ``metric``."""
        return {"annotators": list(self.annotators), "n_docs": self.n_docs, "documents": list(self.documents),
                "settings": dict(self.settings), "metrics": list(MATRIX_METRICS),
                "pairs": [p.to_dict(per_doc) for p in self.pairs],
                "annotator_means": {a: self.annotator_means[a] for a in self.annotators},
                "mean_of_pairs": self.mean_of_pairs, "matrix": self.matrix(metric)}


def check_metric(metric: Any) -> str:
    """``metric`` when it is one of :data:`MATRIX_METRICS`; :class:`ConfigError` naming them otherwise."""
    if not isinstance(metric, str) or metric not in MATRIX_METRICS:
        raise ConfigError(f"metric must be one of {', '.join(MATRIX_METRICS)}, got {metric!r}")
    return metric


def _check_settings(settings: Mapping[str, Any]) -> None:
    """Refuse, by name, a setting :func:`score_documents` does not take (it names those it takes)."""
    params = inspect.signature(score_documents).parameters
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values()):
        return
    taken = [name for name, p in params.items() if p.kind is inspect.Parameter.KEYWORD_ONLY]
    unknown = [name for name in settings if name not in taken]
    if unknown:
        raise ConfigError(f"coreference scoring takes no setting {', '.join(map(repr, unknown))}; the settings "
                          f"are {', '.join(taken)}")


def _annotators(annotations: Any) -> list[tuple[str, Sequence[Any]]]:
    """``annotations`` as ``[(name, documents)]``, checked: a mapping of two or more names (strings) to
    sequences of documents, at least one document each."""
    if not isinstance(annotations, Mapping):
        raise ConfigError(f"annotations must map each annotator's name to its documents, got "
                          f"{type(annotations).__name__}")
    out = []
    for name, docs in annotations.items():
        if not isinstance(name, str) or not name:
            raise ConfigError(f"an annotator's name must be a non-empty string, got {name!r}")
        if isinstance(docs, (str, bytes)) or not isinstance(docs, Sequence):
            raise ConfigError(f"annotator {name!r}: give its documents as a sequence of CorefDocument (as "
                              f"read_coref returns them), got {type(docs).__name__}")
        if not docs:
            raise InputError(f"annotator {name!r} has no document; nothing to compare")
        odd = next((d for d in docs if not isinstance(d, CorefDocument)), None)
        if odd is not None:
            raise ConfigError(f"annotator {name!r}: each document must be a CorefDocument (as read_coref returns "
                              f"them), got {type(odd).__name__}")
        out.append((name, docs))
    if len(out) < 2:
        raise ConfigError(f"agreement needs two or more annotators, got {len(out)}"
                          f"{' (' + out[0][0] + ')' if out else ''}")
    return out


def _direction(key: tuple[str, Sequence[Any]], response: tuple[str, Sequence[Any]],
               settings: Mapping[str, Any]) -> Any:
    """``response`` scored with ``key`` as the key; a difference between their documents is an
    :class:`InputError` naming both annotators."""
    try:
        return score_documents(key[1], response[1], **settings)
    except InputError as err:
        raise InputError(f"annotators {key[0]!r} (as key) and {response[0]!r}: {err}") from err


def coref_agreement(annotations: Mapping[str, Sequence[Any]], *, keep_singletons: bool = True,
                    blanc: str = "corefud", **settings: Any) -> CorefAgreement:
    """Agreement of every pair of annotators on coreference, each pair scored both ways and averaged (see the
    module for the definition and which metrics are symmetric).

    ``annotations``: ``{annotator: documents}`` (:class:`~spacy_anno_eval.coref.conll2012.CorefDocument`, as
    :func:`~spacy_anno_eval.coref.readers.read_coref` returns them), two or more annotators, each with the
    same documents in the same order with the same tokens (the first difference is an :class:`InputError`
    naming it and the two annotators). ``keep_singletons``, ``blanc`` (one of
    :data:`~spacy_anno_eval.coref.metrics.BLANC_RULES`; default ``"corefud"``, which is symmetric) and any
    further ``settings`` go to :func:`~spacy_anno_eval.coref.metrics.score_documents` unchanged (a setting it
    does not take is a :class:`ConfigError` naming those it takes).

    >>> from spacy_anno_eval.coref.conll2012 import CorefDocument
    >>> a = [CorefDocument("d", ("Ada", "met", "her"), (((0, 0), (2, 2)),))]
    >>> b = [CorefDocument("d", ("Ada", "met", "her"), (((0, 0),), ((2, 2),)))]
    >>> result = coref_agreement({"A": a, "B": b})
    >>> result.pair("A", "B").figures["mentions"]["f"], result.matrix("muc")["cells"][0][1]
    (1.0, 0.0)
    """
    named = _annotators(annotations)
    if not isinstance(keep_singletons, bool):
        raise ConfigError(f"keep_singletons must be True or False, got {keep_singletons!r}")
    if blanc not in BLANC_RULES:
        raise ConfigError(f"blanc must be one of {', '.join(BLANC_RULES)}, got {blanc!r}")
    _check_settings(settings)
    options = {"keep_singletons": keep_singletons, "blanc": blanc, **settings}
    pairs = []
    for (i, first), (j, second) in combinations(enumerate(named), 2):
        forward, backward = _direction(first, second, options), _direction(second, first, options)
        one, other = forward.figures(), backward.figures()
        docs = forward.to_dict(per_doc=True)["per_doc"], backward.to_dict(per_doc=True)["per_doc"]
        per_doc = tuple((d["id"], _mean([_without_id(d), _without_id(e)])) for d, e in zip(*docs, strict=True))
        pairs.append(CorefPair(i, j, first[0], second[0], one, other, _mean([one, other]), per_doc))
    names = tuple(name for name, _ in named)
    means = {name: _mean([p.figures for p in pairs if name in (p.a, p.b)]) for name in names}
    return CorefAgreement(names, tuple(d.name for d in named[0][1]), tuple(pairs), means,
                          _mean([p.figures for p in pairs]), options)


def _without_id(entry: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in entry.items() if k != "id"}


__all__ = ["MATRIX_METRICS", "CorefAgreement", "CorefPair", "check_metric", "coref_agreement"]
