"""Is system B really better than A? Every pair of systems scored on one key, with paired tests.

``compare_systems(key, [A, B, C, ...])`` scores each response against the
key once, then for every pair of systems (A before B in the order given)
compares every figure — measure (strict, lenient, average) × P/R/F, overall
and per type — exactly as the benchmark compares two versions
(:func:`spacy_anno_eval.workflows.benchmark.compare.compare_evaluations`,
``old`` = the first system of the pair, ``new`` = the second): both values,
the delta, the paired-bootstrap percentile interval of the delta, and the
paired-bootstrap and approximate-randomization p-values over documents
(:mod:`spacy_anno_eval.resampling.paired`; sacrebleu's and art's convention
``p = (c + 1) / (R + 1)``), seeded.

With more than two systems the ``k (k − 1) / 2`` pairs are one family per
figure, and Holm's step-down correction
(:func:`spacy_anno_eval.resampling.paired.holm`) adjusts each figure's
p-values across the pairs: ``p_bootstrap_holm`` and
``p_randomization_holm`` beside the raw ones. A difference is called
*significant* when its adjusted (with two systems: its raw) randomization
p-value is at most ``alpha`` (0.05).

The settings are the benchmark's (:class:`~spacy_anno_eval.workflows.benchmark.settings.BenchmarkSettings`:
sets, types, features, β, measures, samples, confidence, seed, pairing); its
gate (``max_drop``, ``gate``) is not applied: comparing systems is a question,
not a CI gate, and always exits 0.

:meth:`SystemsComparison.error_difference` lists, for one pair, the decisions
(:mod:`spacy_anno_eval.spans.decisions`) that one system gets right and the
other wrong, in context: read from the pair's ``changes``
(:func:`~spacy_anno_eval.workflows.benchmark.compare.annotation_changes`, key
annotations matched by position, spurious responses by document, offsets and
label), a key annotation one system finds correctly and the other does not, and
a spurious response only one of them makes (the other is right not to).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import combinations
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import ConfigError, InputError
from ..figures import FIGURES
from ..resampling.paired import holm, paired_tests
from ..spans.align import STATUS_NAMES
from ..spans.counts import Evaluation
from ..spans.decisions import CONTEXT, DECISION_OF_STATUS
from ..spans.engine import load, options_per_source
from .benchmark.compare import OVERALL, compare_evaluations, doc_type_counts, figure_statistic
from .benchmark.settings import BenchmarkSettings

#: the significance level a difference is called significant at
ALPHA = 0.05
#: the decision (:data:`~spacy_anno_eval.spans.decisions.DECISIONS`) of each pair status name
_DECISION_OF_NAME = {STATUS_NAMES[code]: name for code, name in DECISION_OF_STATUS.items()}


def system_names(responses: Sequence[Any], names: Sequence[str] | None = None) -> list[str]:
    """The systems' names: ``names`` when given (one per response, all different), else each file's name
    without its suffix (with its folder when two files share a name), else ``system1``, ``system2``, ..."""
    if names is not None:
        names = [str(n) for n in names]
        if len(names) != len(responses):
            raise ConfigError(f"{len(names)} names for {len(responses)} systems; give one name per response")
        if len(set(names)) != len(names):
            raise ConfigError(f"the systems' names must differ, got {', '.join(names)}")
        return names
    if all(isinstance(r, (str, os.PathLike)) for r in responses):
        stems = [Path(r).stem for r in responses]
        if len(set(stems)) == len(stems):
            return stems
        parents = [f"{Path(r).parent.name}/{Path(r).stem}" for r in responses]
        if len(set(parents)) == len(parents):
            return parents
    return [f"system{i + 1}" for i in range(len(responses))]


@dataclass
class SystemsComparison:
    """Each system's evaluation and the comparison of every pair (see the module)."""

    names: list[str]
    evaluations: list[Evaluation]
    pairs: list[dict[str, Any]]
    settings: BenchmarkSettings
    alpha: float = ALPHA
    notes: list[str] = field(default_factory=list)

    @property
    def corrected(self) -> bool:
        """Whether the p-values are Holm-corrected across pairs (more than two systems)."""
        return len(self.names) > 2

    def pair(self, a: str, b: str) -> dict[str, Any]:
        """The comparison of system ``a`` (old) with system ``b`` (new); a name that is no system is a
        :class:`ConfigError` listing them."""
        for name in (a, b):
            if name not in self.names:
                raise ConfigError(f"no system {name!r}; the systems are {', '.join(self.names)}")
        for p in self.pairs:
            if (p["old"], p["new"]) == (a, b):
                return p
        raise ConfigError(f"{a!r} and {b!r} are compared in the order the systems were given: "
                          f"{', '.join(self.names)}; ask pair({b!r}, {a!r})")

    def significant(self, entry: dict[str, Any]) -> bool:
        """Whether one figure's difference is significant: its (Holm-adjusted, with more than two systems)
        approximate-randomization p-value is at most :attr:`alpha`, and the delta is not 0."""
        p = entry["p_randomization_holm"] if self.corrected else entry["p_randomization"]
        return entry["delta"] != 0 and p <= self.alpha

    def error_difference(self, a: str, b: str, context: int = CONTEXT) -> dict[str, Any]:
        """The decisions that one of systems ``a`` and ``b`` (names, in either order) gets right and the other
        wrong, in context, grouped: ``a_right`` (``a`` right, ``b`` wrong) and ``b_right``.

        Each row, in document order: ``doc`` and ``doc_id``; ``type`` (the key's label, a spurious response's
        own); ``key`` (``{"start", "end", "label", "text"}``, ``None`` for a spurious response); ``a`` and ``b``,
        each ``{"decision", "response"}`` (``decision`` one of
        :data:`~spacy_anno_eval.spans.decisions.DECISIONS`, ``None`` where the system has no annotation: the
        right side of a spurious response); ``start`` / ``end`` (the union of the key's and both responses'
        spans), ``text`` (the text there), ``left_context`` / ``right_context`` (``context`` characters before
        and after; all ``None`` when the texts are not known). ``counts``: the rows of each group, overall
        (``a_right``, ``b_right``) and per type. A key annotation both systems get wrong (differently) is in
        neither group. Read from the pair's ``changes``, never from the figures.
        """
        if isinstance(context, bool) or not isinstance(context, (int, np.integer)) or context < 0:
            raise ConfigError(f"context must be a whole number of characters >= 0, got {context!r}")
        swap = (a in self.names and b in self.names and self.names.index(a) > self.names.index(b))
        pair = self.pair(b, a) if swap else self.pair(a, b)
        texts = self.evaluations[0].texts
        groups: dict[str, list[dict[str, Any]]] = {"a_right": [], "b_right": []}
        per_type: dict[str, dict[str, int]] = {}
        for change in pair["changes"]:
            if change["change"] not in ("fixed", "broken"):  # both wrong, differently
                continue
            first, second = (change["new"], change["old"]) if swap else (change["old"], change["new"])
            group = "a_right" if (change["change"] == "broken") != swap else "b_right"
            row = _difference_row(change, first, second, texts, int(context))
            groups[group].append(row)
            per_type.setdefault(row["type"], {"a_right": 0, "b_right": 0})[group] += 1
        return {"a": a, "b": b, **groups, "context": int(context),
                "counts": {"a_right": len(groups["a_right"]), "b_right": len(groups["b_right"]),
                           "per_type": {t: per_type[t] for t in sorted(per_type)}}}

    def to_dict(self, per_doc: bool = False) -> dict[str, Any]:
        """JSON-ready: the systems with their overall figures, and one entry per pair in the benchmark's
        comparison layout (``per_doc`` and ``changes`` only when ``per_doc``)."""
        systems = []
        for name, ev in zip(self.names, self.evaluations, strict=True):
            report = ev.report(beta=self.settings.beta, per_doc=False)
            systems.append({"name": name, "micro": report["micro"], "n_docs": report["n_docs"]})
        pairs = []
        for p in self.pairs:
            entry = dict(p)
            if not per_doc:
                entry.pop("per_doc", None)
                entry.pop("changes", None)
            pairs.append(entry)
        return {"systems": systems, "pairs": pairs, "alpha": self.alpha,
                "correction": "holm" if self.corrected else None, "settings": self.settings.to_dict(),
                "notes": list(self.notes)}


def _difference_row(change: dict[str, Any], a: dict[str, Any], b: dict[str, Any], texts: Sequence[str] | None,
                    context: int) -> dict[str, Any]:
    """One row of :meth:`SystemsComparison.error_difference`: a changed annotation (``change``) with system
    ``a``'s and ``b``'s side (each ``{"status", "response"}``), its decisions and its text in context."""
    key = change["key"]
    spans = [s for s in (key, a["response"], b["response"]) if s is not None]
    start, end = min(s["start"] for s in spans), max(s["end"] for s in spans)
    text = None if texts is None else texts[change["doc"]]
    sides = {name: {"decision": None if side["status"] is None else _DECISION_OF_NAME[side["status"]],
                    "response": side["response"]} for name, side in (("a", a), ("b", b))}
    return {"doc": change["doc"], "doc_id": change["doc_id"], "type": (key or spans[0])["label"], "key": key,
            **sides, "start": start, "end": end, "text": None if text is None else text[start:end],
            "left_context": None if text is None else text[max(0, start - context):start],
            "right_context": None if text is None else text[end:end + context]}


def _correct(pairs: list[dict[str, Any]]) -> None:
    """Holm-adjust each figure's p-values across the pairs (a figure a pair lacks, a type only some systems
    have, is adjusted in the family of the pairs that have it)."""
    families: dict[tuple[str, str, str], list[dict[str, Any]]] = {}
    for pair in pairs:
        for scope, block in [(OVERALL, pair["overall"]), *pair["per_type"].items()]:
            for measure, figures in block.items():
                for k in FIGURES:
                    families.setdefault((scope, measure, k), []).append(figures[k])
    for entries in families.values():
        for name in ("p_bootstrap", "p_randomization"):
            adjusted = holm(np.array([e[name] for e in entries]))
            for e, value in zip(entries, adjusted.tolist(), strict=True):
                e[f"{name}_holm"] = value


def compare_systems(key: Any, responses: Sequence[Any], *, names: Sequence[str] | None = None,
                    settings: BenchmarkSettings | None = None, fmt: str = "auto",
                    reader_options: dict[str, Any] | None = None, alpha: float = ALPHA,
                    client: Any = None, per_doc: bool = False, **overrides: Any) -> SystemsComparison:
    """Score every response against ``key`` and compare every pair of systems (see the module).

    ``key`` and each response: a path (any format :func:`spacy_anno_eval.io.read_corpus` reads), a
    :class:`~spacy_anno_eval.annotations.table.Corpus` or Docs; the key is read once. ``settings``: a
    :class:`BenchmarkSettings` (``overrides`` of its fields replace its values, e.g. ``n_samples=2000``).
    ``client``: an open ``distributed.Client`` for the resampling (the same result as without). ``per_doc``:
    list each pair's documents whose figures changed (``to_dict(per_doc=True)``); off by default, as it costs
    more than the tests on large corpora.
    """
    if isinstance(responses, (str, os.PathLike)) or len(responses) < 2:
        raise ConfigError("compare needs at least two systems' responses to compare; to score one system, "
                          "use score (evaluate)")
    if isinstance(alpha, bool) or not isinstance(alpha, (int, float)) or not 0 < alpha < 1:
        raise ConfigError(f"alpha must be a number in (0, 1), e.g. 0.05, got {alpha!r}")
    settings = (settings or BenchmarkSettings()).replace(**overrides)
    labels = system_names(responses, names)
    span = settings.span
    options = dict(reader_options or {})
    key_options, *response_options = options_per_source([key, *responses], fmt, options)  # each its share
    key_corpus = load(key, [span.key_set], fmt, span.features, what="key", **key_options)
    from ..spans.engine import evaluate

    evaluations = []
    for name, response, own in zip(labels, responses, response_options, strict=True):
        try:
            evaluations.append(evaluate(key_corpus, response, settings=span, fmt=fmt, reader_options=own))
        except InputError as err:
            raise InputError(f"system {name}: {err}") from err
    pairs = []
    order = list(combinations(range(len(labels)), 2))
    types = sorted({t for ev in evaluations for t in ev.labels})
    counts = [doc_type_counts(ev, types) for ev in evaluations]
    zd = float(evaluations[0].settings.get("zero_division", 0.0))
    tests = paired_tests(counts, order, figure_statistic(settings, zd), n_samples=settings.n_samples,
                         seed=settings.seed, confidence=settings.confidence, client=client)  # one draw for all
    for (i, j), test in zip(order, tests, strict=True):
        pairs.append(compare_evaluations(evaluations[i], evaluations[j], settings, old_name=labels[i],
                                         new_name=labels[j], counts=(counts[i], counts[j], types), test=test,
                                         per_doc=per_doc, gated=False))  # a question, not the CI gate
    if len(labels) > 2:
        _correct(pairs)
    return SystemsComparison(labels, evaluations, pairs, settings, float(alpha))


#: the Python door (``spacy_anno_eval.compare(key, [a, b, ...])``)
compare = compare_systems

__all__ = ["ALPHA", "SystemsComparison", "compare", "compare_systems", "system_names"]
