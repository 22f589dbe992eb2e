"""BDM-weighted (augmented) precision, recall and F: partial credit for a near-miss concept.

Maynard, Peters & Li (2006), "Metrics for evaluation of ontology-based
information extraction" (EON workshop, WWW 2006), section 5: a response whose
span is right but whose concept is only close to the key's earns the BDM of
the two concepts (:mod:`spacy_anno_eval.bdm.distance`) instead of nothing::

    AP = BDM / (n + Spurious)        AR = BDM / (n + Missing)

where ``BDM`` is the sum of the BDM scores of the ``n`` matched pairs (an
exact match scores 1). Every response is either in a matched pair or
spurious, every key in a matched pair or missing, so ``n + Spurious`` is the
number of responses and ``n + Missing`` the number of keys; the scores are
read from the pairs of the engine's alignment (:mod:`spacy_anno_eval.spans.align`):

=============  =================  =================
pair status    strict credit      lenient credit
=============  =================  =================
``correct``    1                  1
``partial``    0                  1
``incorrect``  BDM(key, resp)     BDM(key, resp)
``overlap``    0                  BDM(key, resp)
=============  =================  =================

(``incorrect``: same span, different concept; ``overlap``: overlapping
spans, different concept.) ``average`` is the mean of the strict and lenient
P, R and F, as GATE averages them. The concept of an annotation is its label,
or the value of one feature (``feature=``, GATE's ``Mention->class``). A pair
whose concepts are equal scores 1 even when other significant features made
it ``incorrect``; a concept missing from the taxonomy earns 0 and is listed in
``unknown_concepts``.

Per type, a pair's credit counts towards the recall of the key's type and the
precision of the response's type (so per-type figures add up to the micro
figures); ``macro`` is the mean over types.

**A sum that merges.** The credit is accumulated per type as exact sums
(:class:`BdmCreditSum`: numbers of keys and responses, and the strict and
lenient credit on each side as :class:`fractions.Fraction`, so a float BDM
adds without rounding), built from the pairs by the rule :class:`BdmCredit`
(the span engine's :class:`~spacy_anno_eval.spans.credit.CreditRule`). The
sums of shards merge into exactly the sum of the whole corpus, and every
figure is computed from the sums with one rounding, so it is the same
whether the corpus was scored at once, in shards or on Dask.
``evaluate(..., credit=BdmCredit.from_file(path))`` makes the report carry
the figures under ``"bdm"``; :func:`bdm_prf` computes them from one
alignment.

GATE's Corpus QA (``gate.util.OntologyMeasures``) differs in two ways, on
purpose: it divides by Correct + Spurious, which leaves partially correct
responses out of the denominator (the two agree when there is no partial
match), and it averages the per-type figures (our ``macro``) where we also
give the micro figures.
"""

from __future__ import annotations

import functools
import io
import os
import warnings
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any, ClassVar, Protocol

import numpy as np

from ..errors import ConfigError, InputError, UnknownConceptWarning
from ..figures import MEASURES as MODES
from ..figures import fbeta, ratio
from ..io.parse import decode, read_bytes
from ..spans.align import CORRECT, INCORRECT, OVERLAP, PARTIAL, PairTable


class ConceptScores(Protocol):
    """Anything with ``get(a, b)``: the BDM of two concepts, or None when either is unknown."""

    def get(self, a: str, b: str) -> float | None: ...


def _concepts(table: Any, labels: list[str], rows: np.ndarray, feature: str | None) -> list[str | None]:
    if feature is None:
        return [labels[int(table.label[r])] for r in rows]
    feats = table.features
    return [None if feats is None or feats[r].get(feature) is None else str(feats[r][feature]) for r in rows]


def pair_credit(alignment: PairTable, scores: ConceptScores, *, feature: str | None = None
                ) -> tuple[np.ndarray, np.ndarray, dict[tuple[str, str], int]]:
    """Strict and lenient credit of every pair of ``alignment`` (0 for missing and spurious rows), and the
    concept pairs that had no score, with how often they occurred."""
    status = alignment.status
    strict = np.zeros(len(status))
    lenient = np.zeros(len(status))
    strict[status == CORRECT] = 1.0
    lenient[(status == CORRECT) | (status == PARTIAL)] = 1.0
    near = np.flatnonzero((status == INCORRECT) | (status == OVERLAP))
    unknown: dict[tuple[str, str], int] = {}
    if len(near):
        keys = _concepts(alignment.key, alignment.labels, alignment.key_row[near], feature)
        resps = _concepts(alignment.response, alignment.labels, alignment.response_row[near], feature)
        cache: dict[tuple[str, str], float | None] = {}
        credit = np.zeros(len(near))
        for k, (a, b) in enumerate(zip(keys, resps, strict=True)):
            if a is None or b is None:
                value = None
            elif (a, b) in cache:
                value = cache[(a, b)]
            else:
                value = cache[(a, b)] = scores.get(a, b)
            if value is None:
                pair = (str(a), str(b))
                unknown[pair] = unknown.get(pair, 0) + 1
            else:
                credit[k] = value
        lenient[near] = credit
        strict[near] = np.where(status[near] == INCORRECT, credit, 0.0)
    return strict, lenient, unknown


def _exact_sums(group: np.ndarray, values: np.ndarray, n: int) -> list[Fraction]:
    """``sum(values[group == g])`` for ``g`` in ``range(n)``, exactly (each float is a dyadic rational).

    Equal values of a group are counted first (a corpus has few distinct BDM
    values), so the exact arithmetic costs one multiplication per distinct
    (group, value) pair.
    """
    out = [Fraction(0)] * n
    nonzero = values != 0
    group, values = group[nonzero], values[nonzero]
    if not len(values):
        return out
    order = np.lexsort((values, group))
    group, values = group[order], values[order]
    start = np.flatnonzero(np.concatenate([[True], (group[1:] != group[:-1]) | (values[1:] != values[:-1])]))
    counts = np.diff(np.append(start, len(values)))
    for g, v, c in zip(group[start].tolist(), values[start].tolist(), counts.tolist(), strict=True):
        out[g] += Fraction(v) * c
    return out


#: the per-type fields of a :class:`BdmCreditSum`: numbers of keys and responses, then the strict and
#: lenient credit counted towards the type's recall (key side) and precision (response side)
SUM_FIELDS = ("keys", "responses", "strict_key", "strict_response", "lenient_key", "lenient_response")


@dataclass(frozen=True)
class BdmCreditSum:
    """The BDM credit of a corpus as exact sums per type (see the module docstring); merges exactly.

    ``by_type``: type -> the fields of :data:`SUM_FIELDS` (ints, then
    :class:`~fractions.Fraction`); ``unknown``: ``(key concept, response
    concept)`` -> how many near-miss pairs had no score, in order of first
    occurrence; ``scores`` names the concept scores and ``feature`` the
    feature holding the concept (``None``: the label).
    """

    name: ClassVar[str] = "bdm"
    by_type: Mapping[str, tuple[Any, ...]]
    unknown: Mapping[tuple[str, str], int] = field(default_factory=dict)
    scores: str = ""
    feature: str | None = None

    @property
    def settings(self) -> dict[str, Any]:
        """What the sum was made with: two sums merge only when these are equal."""
        return {"scores": self.scores, "feature": self.feature}

    def merge(self, other: BdmCreditSum) -> BdmCreditSum:
        """The sum of both corpora (types united; unknown concept pairs in order of first occurrence). Sums made
        with other scores or another concept feature do not add up: :class:`ConfigError` names the setting."""
        if not isinstance(other, BdmCreditSum):
            raise ConfigError(f"a BDM credit sum merges with another BDM credit sum, got {type(other).__name__}")
        for key, mine in self.settings.items():
            if other.settings[key] != mine:
                raise ConfigError(f"cannot merge BDM credit sums made with different settings: {key} is {mine!r} "
                                  f"in one and {other.settings[key]!r} in the other; score every part with the "
                                  f"same --bdm file and --bdm-feature")
        by_type: dict[str, tuple[Any, ...]] = {}
        for name in sorted(set(self.by_type) | set(other.by_type)):
            a, b = self.by_type.get(name), other.by_type.get(name)
            by_type[name] = a if b is None else b if a is None else tuple(x + y for x, y in zip(a, b, strict=True))
        unknown = dict(self.unknown)
        for pair, n in other.unknown.items():
            unknown[pair] = unknown.get(pair, 0) + n
        return BdmCreditSum(by_type, unknown, self.scores, self.feature)

    def report(self, beta: float = 1.0, zero_division: float = 0.0) -> dict[str, Any]:
        """Augmented strict, lenient and average P/R/F per type, micro and macro (over types).

        Per type ``t``: AP = credit of ``t``'s responses / responses of ``t``,
        AR = credit of ``t``'s keys / keys of ``t``; micro: the credit of all
        pairs over all responses (keys); ``average``: the mean of strict and
        lenient; ``macro``: the mean over types. Returns JSON-ready ``{"micro":
        {mode: {"p", "r", "f"}}, "macro": ..., "per_type": {type: {mode: ...}},
        "counts": {"keys", "responses", "bdm_strict", "bdm_lenient"},
        "feature", "unknown_concepts": [{"key", "response", "count"}]}``
        (``bdm_*`` are the credit sums). Warns :class:`UnknownConceptWarning`
        when some near-miss pairs had no score.
        """
        if self.unknown:
            sample = ", ".join(f"{a}/{b}" for a, b in list(self.unknown)[:3])
            warnings.warn(f"BDM: {sum(self.unknown.values())} near-miss pairs have a concept missing from the BDM "
                          f"scores ({sample}...); they earn no credit", UnknownConceptWarning, stacklevel=2)
        names = sorted(self.by_type)
        rows = [self.by_type[t] for t in names]
        n_key = np.array([row[0] for row in rows], dtype=float)
        n_resp = np.array([row[1] for row in rows], dtype=float)
        undefined = (n_key == 0) & (n_resp == 0)
        per_type_fig, micro, totals = {}, {}, {}
        for mode, k_field, r_field in (("strict", 2, 3), ("lenient", 4, 5)):
            by_key = np.array([float(row[k_field]) for row in rows], dtype=float)
            by_resp = np.array([float(row[r_field]) for row in rows], dtype=float)
            p = ratio(by_resp, n_resp, zero_division)
            r = ratio(by_key, n_key, zero_division)
            per_type_fig[mode] = (p, r, fbeta(p, r, beta, undefined=undefined, zero_division=zero_division))
            totals[mode] = float(sum((row[k_field] for row in rows), Fraction(0)))  # every credited pair has a key
            mp = float(ratio(totals[mode], n_resp.sum(), zero_division))
            mr = float(ratio(totals[mode], n_key.sum(), zero_division))
            mf = float(fbeta(mp, mr, beta, undefined=np.asarray(n_key.sum() == 0 and n_resp.sum() == 0),
                             zero_division=zero_division))
            micro[mode] = {"p": mp, "r": mr, "f": mf}
        micro["average"] = {k: (micro["strict"][k] + micro["lenient"][k]) / 2 for k in "prf"}
        per_type: dict[str, Any] = {}
        for t, name in enumerate(names):
            row = {mode: dict(zip("prf", (float(x[t]) for x in per_type_fig[mode]), strict=True))
                   for mode in ("strict", "lenient")}
            row["average"] = {k: (row["strict"][k] + row["lenient"][k]) / 2 for k in "prf"}
            per_type[name] = row
        macro = {mode: {k: float(np.mean([per_type[t][mode][k] for t in per_type])) if per_type else
                        float(zero_division) for k in "prf"} for mode in MODES}
        return {
            "micro": micro,
            "macro": macro,
            "per_type": per_type,
            "counts": {"keys": int(n_key.sum()), "responses": int(n_resp.sum()), "bdm_strict": totals["strict"],
                       "bdm_lenient": totals["lenient"]},
            "feature": self.feature,
            "unknown_concepts": [{"key": a, "response": b, "count": c} for (a, b), c in self.unknown.items()],
        }


class BdmCredit:
    """The credit rule of BDM-weighted P/R/F (a :class:`~spacy_anno_eval.spans.credit.CreditRule`).

    ``scores``: the BDM of concept pairs (:class:`ConceptScores`);
    ``feature``: the feature holding the concept (default: the label);
    ``source``: names the scores in :attr:`settings` (default: their
    ``name``). Give it to :func:`~spacy_anno_eval.spans.engine.evaluate`,
    :func:`~spacy_anno_eval.workflows.stream.score_shards` or
    :func:`~spacy_anno_eval.workflows.qa.run_qa` as ``credit=``. A rule made
    by :meth:`from_file` pickles as its path (a Dask worker reads the file
    once per process), so it costs nothing to send to shard tasks.
    """

    def __init__(self, scores: ConceptScores, *, feature: str | None = None, source: str | None = None) -> None:
        if not callable(getattr(scores, "get", None)):
            raise ConfigError(f"BDM credit needs concept scores with get(a, b) (BDMScores, or "
                              f"BdmCredit.from_file(path)), got {type(scores).__name__}")
        if feature is not None and (not isinstance(feature, str) or not feature):
            raise ConfigError(f"the BDM feature must be a feature name or None (the label), got {feature!r}")
        self.scores = scores
        self.feature = feature
        self.source = source if source is not None else str(getattr(scores, "name", type(scores).__name__))
        self._path: str | None = None

    @classmethod
    def from_file(cls, path: str | os.PathLike, feature: str | None = None) -> BdmCredit:
        """The rule for the scores of ``path`` (see :func:`load_concept_scores`), read now."""
        p = str(Path(path).resolve())
        rule = cls(_load_cached(p, *_stamp(p)), feature=feature, source=p)
        rule._path = p
        return rule

    @property
    def settings(self) -> dict[str, Any]:
        return {"scores": self.source, "feature": self.feature}

    def accumulate(self, pairs: PairTable) -> BdmCreditSum:
        """The exact credit sums per type of ``pairs`` (a pair's credit goes to the recall of its key's type
        and the precision of its response's type)."""
        strict, lenient, unknown = pair_credit(pairs, self.scores, feature=self.feature)
        n_types = len(pairs.labels)
        key_label, resp_label = pairs.key_label(), pairs.response_label()
        has_key, has_resp = key_label >= 0, resp_label >= 0
        kl, rl = key_label[has_key], resp_label[has_resp]
        columns = [np.bincount(kl, minlength=n_types).tolist(), np.bincount(rl, minlength=n_types).tolist(),
                   _exact_sums(kl, strict[has_key], n_types), _exact_sums(rl, strict[has_resp], n_types),
                   _exact_sums(kl, lenient[has_key], n_types), _exact_sums(rl, lenient[has_resp], n_types)]
        by_type = {name: tuple(col[t] for col in columns) for t, name in enumerate(pairs.labels)}
        return BdmCreditSum(by_type, unknown, self.source, self.feature)

    def __reduce__(self) -> tuple[Any, ...]:
        if self._path is not None:
            return (BdmCredit.from_file, (self._path, self.feature))
        return (_rebuild, (self.scores, self.feature, self.source))

    def __repr__(self) -> str:
        return f"BdmCredit(scores={self.source!r}, feature={self.feature!r})"


def _rebuild(scores: ConceptScores, feature: str | None, source: str) -> BdmCredit:
    return BdmCredit(scores, feature=feature, source=source)


def bdm_prf(alignment: PairTable, scores: ConceptScores, *, feature: str | None = None, beta: float = 1.0,
            zero_division: float = 0.0) -> dict[str, Any]:
    """Augmented (BDM-weighted) strict, lenient and average P/R/F of one alignment: the report of its
    :class:`BdmCreditSum` (see :meth:`BdmCreditSum.report` for the shape)."""
    return BdmCredit(scores, feature=feature).accumulate(alignment).report(beta, zero_division)


def _stamp(path: str) -> tuple[int, int]:
    """What tells two versions of a file apart for the cache: modification time and size."""
    try:
        st = os.stat(path)
    except OSError:
        return (0, 0)  # load_concept_scores says what is wrong
    return (st.st_mtime_ns, st.st_size)


@functools.lru_cache(maxsize=4)
def _load_cached(path: str, mtime_ns: int, size: int) -> ConceptScores:
    return load_concept_scores(path)


def load_concept_scores(path: Any) -> ConceptScores:
    """BDM scores from ``path``: a BDM score file (``anno-eval bdm``'s or GATE's: lines ``key=..., response=...,
    bdm=...``), or a taxonomy (``child<TAB>parent`` lines, or OWL/RDF) whose scores are computed."""
    from .distance import compute_bdm
    from .gatefile import read_bdm_file
    from .taxonomy import read_taxonomy

    p = Path(path)
    give = "give BDM scores (from 'anno-eval bdm' or GATE) or a taxonomy"
    if p.is_dir():
        raise InputError(f"{p}: is a folder; {give}")
    if not p.exists():
        raise InputError(f"{p}: no such file; {give}")
    # UTF-8, a byte-order mark dropped (io.parse.decode); line ends as a text stream reads them
    text = decode(read_bytes(p), p, fix="save the BDM scores or taxonomy as UTF-8")
    line = next((ln for ln in io.StringIO(text, newline=None) if ln.strip() and not ln.startswith("#")), "")
    if line.startswith("key="):
        return read_bdm_file(p)
    return compute_bdm(read_taxonomy(p))


__all__ = ["SUM_FIELDS", "BdmCredit", "BdmCreditSum", "ConceptScores", "UnknownConceptWarning", "bdm_prf",
           "load_concept_scores", "pair_credit"]
