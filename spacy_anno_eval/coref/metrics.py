"""The coreference metrics, as the official CoNLL-2012 scorer (v8.01, Pradhan et al. 2014) and coval count them.

Key entities K and response entities R of one document are sets of mentions
(``(start, end)``, matched exactly). Each metric gives four counts per
document, recall numerator and denominator, precision numerator and
denominator; the counts are **summed over the documents** and R, P and
F = 2PR / (P + R) computed from the sums (micro, as the official scorer).

- **MUC** (Vilain et al. 1995): R = Σ_k (|k| − p(k)) / Σ_k (|k| − 1), where p(k)
  is the number of parts R cuts k into (a key mention in no response entity is
  a part of its own); P likewise with K and R swapped.
- **B³** (Bagga & Baldwin 1998): R = Σ_k Σ_r |k ∩ r|² / |k| / Σ_k |k|;
  P = Σ_r Σ_k |k ∩ r|² / |r| / Σ_r |r|.
- **CEAF** (Luo 2005): the one-to-one alignment g* of key and response entities
  that maximises Σ φ(k, g(k)) (the Hungarian algorithm,
  ``scipy.optimize.linear_sum_assignment``); R = Φ(g*) / Σ_k φ(k, k),
  P = Φ(g*) / Σ_r φ(r, r). CEAFm: φ = |k ∩ r|; CEAFe: φ = 2 |k ∩ r| / (|k| + |r|).
- **BLANC** (Recasens & Hovy 2011; Luo et al. 2014 for predicted mentions):
  coreference links C (pairs of mentions in one entity) and non-coreference
  links N (pairs in two entities of the same document), of each side;
  R_c = |C_K ∩ C_R| / |C_K|, P_c = |C_K ∩ C_R| / |C_R|, likewise for N; R, P and F
  are the means of the two kinds. Where the key has no link of one kind, the
  other kind alone (both: 0), as the official scorer does.
- **LEA** (Moosavi & Strube 2016): R = Σ_k |k| · links(k ∩ R) / links(k) / Σ_k |k|,
  links(e) = |e|(|e| − 1)/2 and links(k ∩ R) the key links both of whose
  mentions are in one response entity; a key singleton counts as resolved
  when it is a response singleton. P likewise with K and R swapped.
- **CoNLL**: the mean of the F of MUC, B³ and CEAFe.
- **mentions**: R = mentions in both / key mentions, P = mentions in both /
  response mentions.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

import numpy as np

from ..errors import ConfigError, InputError
from ..figures import fbeta, ratio
from .overlaps import document_counts as _from_overlaps

Mention = tuple[int, int]
Entity = frozenset[Mention]
METRICS = ("muc", "bcub", "ceafm", "ceafe", "blanc", "lea", "mentions")


def _entities(entities: Sequence[Sequence[Mention]]) -> list[Entity]:
    return [frozenset(e) for e in entities if e]


def _owner(entities: Sequence[Entity]) -> dict[Mention, int]:
    return {m: i for i, e in enumerate(entities) for m in e}


def muc(key: Sequence[Entity], response: Sequence[Entity]) -> tuple[float, float, float, float]:
    """MUC's recall and precision counts of one document (see the module)."""
    def side(gold: Sequence[Entity], other: Sequence[Entity]) -> tuple[float, float]:
        owner = _owner(other)
        num = den = 0
        for e in gold:
            parts = {owner.get(m, ("alone", m)) for m in e}
            num += len(e) - len(parts)
            den += len(e) - 1
        return num, den

    rn, rd = side(key, response)
    pn, pd = side(response, key)
    return rn, rd, pn, pd


def b_cubed(key: Sequence[Entity], response: Sequence[Entity]) -> tuple[float, float, float, float]:
    """B³'s recall and precision counts of one document (see the module)."""
    def side(gold: Sequence[Entity], other: Sequence[Entity]) -> tuple[float, float]:
        owner = _owner(other)
        num = 0.0
        for e in gold:
            shared: dict[int, int] = {}
            for m in e:
                if m in owner:
                    shared[owner[m]] = shared.get(owner[m], 0) + 1
            num += sum(n * n for n in shared.values()) / len(e)
        return num, float(sum(len(e) for e in gold))

    rn, rd = side(key, response)
    pn, pd = side(response, key)
    return rn, rd, pn, pd


def ceaf(key: Sequence[Entity], response: Sequence[Entity], kind: str = "e") -> tuple[float, float, float, float]:
    """CEAFm (``kind="m"``) or CEAFe (``"e"``) counts of one document: the optimal alignment's similarity over
    each side's self-similarity (see the module)."""
    from scipy.optimize import linear_sum_assignment

    def phi(k: Entity, r: Entity) -> float:
        common = len(k & r)
        return float(common) if kind == "m" else 2.0 * common / (len(k) + len(r))

    rd = float(sum(len(k) for k in key)) if kind == "m" else float(len(key))
    pd = float(sum(len(r) for r in response)) if kind == "m" else float(len(response))
    if not key or not response:
        return 0.0, rd, 0.0, pd
    sim = np.array([[phi(k, r) for r in response] for k in key])
    rows, cols = linear_sum_assignment(sim, maximize=True)
    best = float(sim[rows, cols].sum())
    return best, rd, best, pd


def lea(key: Sequence[Entity], response: Sequence[Entity]) -> tuple[float, float, float, float]:
    """LEA's recall and precision counts of one document (see the module)."""
    def side(gold: Sequence[Entity], other: Sequence[Entity]) -> tuple[float, float]:
        owner = _owner(other)
        num = den = 0.0
        for e in gold:
            if len(e) == 1:
                (m,) = e
                resolved = 1.0 if m in owner and len(other[owner[m]]) == 1 else 0.0
            else:
                links = len(e) * (len(e) - 1) / 2.0
                common = sum(1 for a, b in combinations(sorted(e), 2)
                             if a in owner and b in owner and owner[a] == owner[b])
                resolved = common / links
            num += len(e) * resolved
            den += len(e)
        return num, den

    rn, rd = side(key, response)
    pn, pd = side(response, key)
    return rn, rd, pn, pd


def _links(entities: Sequence[Entity]) -> tuple[set[tuple[Mention, Mention]], set[tuple[Mention, Mention]]]:
    """The coreference and non-coreference links of one side."""
    coref = {pair for e in entities for pair in combinations(sorted(e), 2)}
    mentions = sorted(m for e in entities for m in e)
    owner = _owner(entities)
    non = {(a, b) for a, b in combinations(mentions, 2) if owner[a] != owner[b]}
    return coref, non


def blanc_counts(key: Sequence[Entity], response: Sequence[Entity]) -> tuple[float, ...]:
    """BLANC's eight counts of one document: coreference links (R num, R den, P num, P den), then
    non-coreference links likewise."""
    kc, kn = _links(key)
    rc, rn = _links(response)
    return (float(len(kc & rc)), float(len(kc)), float(len(kc & rc)), float(len(rc)),
            float(len(kn & rn)), float(len(kn)), float(len(kn & rn)), float(len(rn)))


def mention_counts(key: Sequence[Entity], response: Sequence[Entity]) -> tuple[float, float, float, float]:
    """Mention identification: mentions in both over key mentions (R) and over response mentions (P)."""
    k = {m for e in key for m in e}
    r = {m for e in response for m in e}
    both = float(len(k & r))
    return both, float(len(k)), both, float(len(r))


def _f1(p: float, r: float) -> float:
    """F1 by the package's one rule (:func:`spacy_anno_eval.figures.fbeta`: 0 where P + R = 0)."""
    return float(fbeta(p, r))


def _prf(rn: float, rd: float, pn: float, pd: float) -> dict[str, float]:
    """R, P (0/0: 0, as the official scorers report it: :func:`spacy_anno_eval.figures.ratio`) and F1."""
    r, p = float(ratio(rn, rd)), float(ratio(pn, pd))
    return {"r": r, "p": p, "f": _f1(p, r)}


#: where a kind of link is missing, BLANC keeps the other kind alone: when the key lacks it (the CoNLL-2012 Perl
#: scorer) or only when key and response both lack it (the CorefUD scorer, which otherwise averages in a 0)
BLANC_RULES = ("conll", "corefud")


def blanc_prf(c: Sequence[float], rule: str = "conll") -> dict[str, float]:
    """BLANC's R, P and F from its eight summed counts. A kind of link (coreference, non-coreference) is left
    out of the mean when the key has none of it (``rule="conll"``, the official CoNLL-2012 scorer), or only when
    neither side has any (``"corefud"``, the CorefUD scorer: a kind the key lacks but the response has scores
    0); with both kinds left out, 0."""
    if rule not in BLANC_RULES:
        raise ConfigError(f"the BLANC rule must be one of {', '.join(BLANC_RULES)}, got {rule!r}")
    if rule == "corefud":
        ra = None if not c[1] and not c[3] else (c[0] / c[1] if c[1] else 0.0)
        rr = None if not c[5] and not c[7] else (c[4] / c[5] if c[5] else 0.0)
    else:
        ra = c[0] / c[1] if c[1] else None
        rr = c[4] / c[5] if c[5] else None
    pa, pr = float(ratio(c[2], c[3])), float(ratio(c[6], c[7]))
    fa = _f1(pa, ra) if ra is not None else 0.0
    fr = _f1(pr, rr) if rr is not None else 0.0
    if ra is None and rr is None:
        return {"r": 0.0, "p": 0.0, "f": 0.0}
    if ra is None:
        return {"r": rr, "p": pr, "f": fr}
    if rr is None:
        return {"r": ra, "p": pa, "f": fa}
    return {"r": (ra + rr) / 2, "p": (pa + pr) / 2, "f": (fa + fr) / 2}


def document_counts(key: Sequence[Sequence[Mention]], response: Sequence[Sequence[Mention]]
                    ) -> dict[str, tuple[float, ...]]:
    """Every metric's counts of one document (its key and response entities), from one table of the mentions
    each key entity shares with each response entity (:func:`spacy_anno_eval.coref.overlaps.document_counts`,
    O(mentions); equal to :func:`direct_counts`, the metrics' own definitions, which BLANC makes O(mentions²))."""
    return _from_overlaps(key, response)


def direct_counts(key: Sequence[Sequence[Mention]], response: Sequence[Sequence[Mention]]
                  ) -> dict[str, tuple[float, ...]]:
    """Every metric's counts of one document by each metric's own function (the definitions of the module)."""
    k, r = _entities(key), _entities(response)
    return {"muc": muc(k, r), "bcub": b_cubed(k, r), "ceafm": ceaf(k, r, "m"), "ceafe": ceaf(k, r, "e"),
            "blanc": blanc_counts(k, r), "lea": lea(k, r), "mentions": mention_counts(k, r)}


def figures_of(counts: dict[str, Sequence[float]], blanc: str = "conll") -> dict[str, dict[str, float]]:
    """``{metric: {"r", "p", "f"}}`` of (summed) counts, and ``conll``: the mean F of MUC, B³ and CEAFe.
    ``blanc``: the rule of :func:`blanc_prf`."""
    counts = {name: counts.get(name, (0.0,) * WIDTHS[name]) for name in METRICS}  # no document: every figure 0
    out = {name: (blanc_prf(c, blanc) if name == "blanc" else _prf(*c)) for name, c in counts.items()}
    out["conll"] = {"f": (out["muc"]["f"] + out["bcub"]["f"] + out["ceafe"]["f"]) / 3}
    return out


#: the number of counts each metric keeps per document, in :data:`METRICS` order (BLANC: two kinds of link)
WIDTHS = {"muc": 4, "bcub": 4, "ceafm": 4, "ceafe": 4, "blanc": 8, "lea": 4, "mentions": 4}
#: the figures :func:`figures_array` gives, in order: each metric's R, P and F, then the CoNLL average
FIGURE_NAMES = tuple(f"{metric}_{k}" for metric in METRICS for k in ("r", "p", "f")) + ("conll_f",)


def counts_vector(counts: dict[str, Sequence[float]]) -> np.ndarray:
    """One document's (or a sum's) counts as one vector, every metric's in :data:`METRICS` order."""
    return np.concatenate([np.asarray(counts[m], dtype=float) for m in METRICS])


def _ratio(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    return np.divide(num, den, out=np.zeros_like(num), where=den != 0)


def _f1_array(p: np.ndarray, r: np.ndarray) -> np.ndarray:
    return _ratio(2 * p * r, p + r)


def figures_array(sums: np.ndarray, blanc: str = "conll") -> np.ndarray:
    """:data:`FIGURE_NAMES` of summed count vectors (:func:`counts_vector`), shape ``(batch, 32)`` ->
    ``(batch, 22)``: the same figures as :func:`figures_of`, vectorised for resampling (each row a resampled
    corpus). BLANC averages the kinds of link its rule keeps (:func:`blanc_prf`): weights 1 or 0 per kind."""
    sums = np.asarray(sums, dtype=float)
    out, at = [], 0
    for metric in METRICS:
        c = sums[:, at:at + WIDTHS[metric]]
        at += WIDTHS[metric]
        if metric != "blanc":
            r, p = _ratio(c[:, 0], c[:, 1]), _ratio(c[:, 2], c[:, 3])
            out += [r, p, _f1_array(p, r)]
            continue
        if blanc == "corefud":
            has_c, has_n = (c[:, 1] > 0) | (c[:, 3] > 0), (c[:, 5] > 0) | (c[:, 7] > 0)
        else:
            has_c, has_n = c[:, 1] > 0, c[:, 5] > 0
        ra, rn = _ratio(c[:, 0], c[:, 1]), _ratio(c[:, 4], c[:, 5])
        pa, pn = _ratio(c[:, 2], c[:, 3]), _ratio(c[:, 6], c[:, 7])
        kinds = np.maximum(has_c.astype(float) + has_n, 1.0)
        out += [(has_c * ra + has_n * rn) / kinds, (has_c * pa + has_n * pn) / kinds,
                (has_c * _f1_array(pa, ra) + has_n * _f1_array(pn, rn)) / kinds]
    f = {name: out[i] for i, name in enumerate(FIGURE_NAMES[:-1])}
    out.append((f["muc_f"] + f["bcub_f"] + f["ceafe_f"]) / 3)
    return np.stack(out, axis=1)


@dataclass
class CorefScores:
    """The summed counts of every metric over documents, each document's own, and their R/P/F
    (:meth:`figures`). A sum: :meth:`merge` adds two."""

    counts: dict[str, list[float]] = field(default_factory=dict)
    n_docs: int = 0
    per_doc: list[tuple[str, dict[str, tuple[float, ...]]]] = field(default_factory=list)
    blanc: str = "conll"

    def add(self, key: Sequence[Sequence[Mention]], response: Sequence[Sequence[Mention]], name: str = "") -> None:
        """Add one document's counts (its key and response entities; ``name``: its id)."""
        parts = document_counts(key, response)
        for metric, values in parts.items():
            total = self.counts.setdefault(metric, [0.0] * len(values))
            for i, v in enumerate(values):
                total[i] += v
        self.per_doc.append((name or str(self.n_docs), parts))
        self.n_docs += 1

    def merge(self, other: CorefScores) -> CorefScores:
        """The scores of both sets of documents."""
        if other.blanc != self.blanc:
            raise ConfigError(f"cannot merge coref scores of BLANC rules {self.blanc!r} and {other.blanc!r}")
        out = CorefScores({k: list(v) for k, v in self.counts.items()}, self.n_docs, list(self.per_doc), self.blanc)
        for metric, values in other.counts.items():
            total = out.counts.setdefault(metric, [0.0] * len(values))
            for i, v in enumerate(values):
                total[i] += v
        out.n_docs += other.n_docs
        out.per_doc += other.per_doc
        return out

    def figures(self) -> dict[str, dict[str, float]]:
        """``{metric: {"r", "p", "f"}}`` for every metric, and ``conll`` (the mean F of MUC, B³ and CEAFe)."""
        return figures_of(self.counts, self.blanc)

    def to_dict(self, per_doc: bool = True) -> dict[str, Any]:
        """JSON-ready: the number of documents, every metric's figures and, with ``per_doc``, each document's."""
        out: dict[str, Any] = {"n_docs": self.n_docs, **self.figures()}
        if per_doc:
            out["per_doc"] = [{"id": name, **figures_of(counts, self.blanc)} for name, counts in self.per_doc]
        return out


def without_singletons(entities: Sequence[Sequence[Mention]]) -> list[Sequence[Mention]]:
    """The entities of more than one mention (``--no-singletons``: the CoNLL-2012 shared task removed them
    from the key, OntoNotes having none; the scorers keep whatever they are given)."""
    return [e for e in entities if len(e) > 1]


def first_difference(key: Any, response: Any) -> str | None:
    """Where a response document first differs from its key document (name, number of tokens, a token's form
    unless the key's format does not ask for the same forms; named by sentence id and word where the documents
    record sentences), as the CorefUD scorer checks them; ``None`` when they hold the same tokens."""
    if key.name != response.name:
        return f"the key's is {key.name!r}, the response's {response.name!r}"
    if key.same_forms and key.sentences and response.sentences and key.sentences != response.sentences:
        at = next((i for i, (a, b) in enumerate(zip(key.sentences, response.sentences, strict=False)) if a != b),
                  min(len(key.sentences), len(response.sentences)))
        if at < min(len(key.sentences), len(response.sentences)):
            (ka, ki), (ra, ri) = key.sentences[at], response.sentences[at]
            return (f"sentence {at + 1} is {ki!r} (from token {ka + 1}) in the key and {ri!r} (from token "
                    f"{ra + 1}) in the response")
        return f"the key has {len(key.sentences)} sentences and the response {len(response.sentences)}"
    if key.tokens == response.tokens or (not key.same_forms and len(key.tokens) == len(response.tokens)):
        return None
    n = min(len(key.tokens), len(response.tokens))
    at = next((i for i in range(n) if key.tokens[i] != response.tokens[i]), n)
    where = f"token {at + 1}"
    sentence = next((s for s in reversed(key.sentences) if s[0] <= at), None)
    if sentence is not None:
        where = f"sentence {sentence[1]!r}, word {at - sentence[0] + 1}"
    if at == n:
        return (f"the key has {len(key.tokens)} tokens and the response {len(response.tokens)}; the shorter ends "
                f"before {where}")
    return f"{where} is {key.tokens[at]!r} in the key and {response.tokens[at]!r} in the response"


def score_documents(key_docs: Sequence[Any], response_docs: Sequence[Any], *,
                    keep_singletons: bool = True, blanc: str = "conll", match: str = "exact",
                    keep_zeros: bool = True) -> CorefScores:
    """Every metric over paired documents (:class:`~spacy_anno_eval.coref.conll2012.CorefDocument`), micro over
    them. Key and response must have the same documents in the same order with the same tokens; the first
    difference (:func:`first_difference`) is an :class:`InputError` naming it. ``keep_singletons=False``
    removes single-mention entities from both sides first, ``keep_zeros=False`` then zero mentions.
    ``match``: ``exact``, ``partial`` or ``head`` mention matching, as the CorefUD scorer
    (:mod:`spacy_anno_eval.coref.matching`; partial and head read the key's mention heads, which only
    CorefUD files give). ``blanc``: the BLANC rule (:func:`blanc_prf`; ``"corefud"`` as the CorefUD scorer)."""
    from .matching import align_document, check_match

    check_match(match)
    if len(key_docs) != len(response_docs):
        raise InputError(f"the key has {len(key_docs)} documents and the response {len(response_docs)}; score "
                         f"the response of the same documents")
    if blanc not in BLANC_RULES:
        raise ConfigError(f"the BLANC rule must be one of {', '.join(BLANC_RULES)}, got {blanc!r}")
    if match != "exact" and not any(k.heads for k in key_docs):
        raise ConfigError(f"{match} matching compares mention heads, and the key gives none (CoNLL-2012, DocBin "
                          f"and JSONL files have no heads); use --match exact, or CorefUD files whose Entity= "
                          f"brackets name each mention's head")
    scores = CorefScores(blanc=blanc)
    for i, (k, r) in enumerate(zip(key_docs, response_docs, strict=True)):
        difference = first_difference(k, r)
        if difference is not None:
            named = f"document {i + 1}" + (f" ({k.name!r})" if k.name == r.name else "")
            raise InputError(f"{named}: {difference}; the key and the response must hold "
                             f"the same documents, in the same order, with the same tokens")
        aligned = align_document(k, r, match=match, keep_singletons=keep_singletons, keep_zeros=keep_zeros)
        scores.add(aligned.key, aligned.response, k.name)
    return scores


__all__ = [
    "BLANC_RULES", "FIGURE_NAMES", "METRICS", "WIDTHS", "CorefScores", "b_cubed", "blanc_counts", "blanc_prf",
    "ceaf", "direct_counts", "document_counts", "counts_vector", "figures_array", "figures_of", "first_difference",
    "lea", "mention_counts", "muc", "score_documents", "without_singletons"
]
