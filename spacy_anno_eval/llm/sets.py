"""The set mode: generated extractions scored without grounding, as UniversalNER scores them.

Per document, the key's and the response's ``(text, label)`` pairs are normalised and matched one to one: a pair
counts as correct as many times as it occurs on both sides (multisets: ``min(key count, response count)``), so a
string the key holds twice and the response once is one correct and one missed. Counts are added over documents
(micro) and per label; P = correct / response pairs, R = correct / key pairs, F1 their harmonic mean, with the
package's one rule for a zero denominator (:func:`spacy_anno_eval.figures.ratio`: ``zero_division``, warned).

**UniversalNER's rule** (Zhou et al. 2024, https://github.com/universal-ner/universal-ner, ``src/eval/evaluate.py``,
``normalize_answer`` and ``NEREvaluator``): each answer is lower-cased, stripped of ASCII punctuation
(``string.punctuation``), of the articles ``a``, ``an``, ``the`` (``re.sub(r'\\b(a|an|the)\\b', ' ', text)``) and
of extra whitespace (``' '.join(text.split())``), in that order (:func:`normalize_universalner`, the same steps);
micro P/R/F1 over the queries. Where this mode differs, it says so:

- UniversalNER's ``parser`` keeps each normalised answer once per query (``if item not in formatted_items``);
  this mode counts repeats (multisets) unless ``dedupe=True``, which is UniversalNER's set semantics.
- UniversalNER asks one entity type per query, so the type is compared as given; so is the label here (the
  readers map a model's label spellings to the task's). ``normalize="none"`` compares texts as given too.
- UniversalNER adds 1e-10 to its denominators (0 for no answer); here they are the package's ``zero_division``.

Documents pair by id. A document that only the key has counts its pairs as missed, one that only the response
has its pairs as spurious; both are listed in the result and told once
(:class:`~spacy_anno_eval.errors.CoverageWarning`). No document on both sides is an
:class:`~spacy_anno_eval.errors.InputError`: the ids do not pair.
"""

from __future__ import annotations

import re
import string
import warnings
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..errors import ConfigError, CoverageWarning, InputError
from ..figures import check_zero_division, fbeta, json_safe, ratio, warn_zero_division
from .extractions import Extractions

NORMALIZE = ("universalner", "none")
_ARTICLES = re.compile(r"\b(a|an|the)\b")
_PUNCTUATION = frozenset(string.punctuation)


def normalize_universalner(s: str) -> str:
    """UniversalNER's ``normalize_answer`` (``src/eval/evaluate.py``): lower-case, drop ASCII punctuation, drop the
    articles a/an/the, collapse whitespace (module docstring).

    >>> normalize_universalner("The  U.S. Army"), normalize_universalner("an Apple, Inc."), normalize_universalner("A")
    ('us army', 'apple inc', '')
    """
    text = s.lower()
    text = "".join(ch for ch in text if ch not in _PUNCTUATION)
    text = _ARTICLES.sub(" ", text)
    return " ".join(text.split())


@dataclass
class SetCounts:
    """Correct pairs, and the pairs of the key and of the response, added up."""

    correct: int = 0
    key: int = 0
    response: int = 0

    def add(self, correct: int, key: int, response: int) -> None:
        self.correct += correct
        self.key += key
        self.response += response


@dataclass
class SetScores:
    """What :func:`set_scores` counted: ``micro`` over every document, ``labels`` per label, ``documents`` per
    document id (mergeable sums: :meth:`merge`); the settings; the documents only one side has."""

    normalize: str
    dedupe: bool
    zero_division: float = 0.0
    micro: SetCounts = field(default_factory=SetCounts)
    labels: dict[str, SetCounts] = field(default_factory=dict)
    documents: dict[str, SetCounts] = field(default_factory=dict)
    key_only: list[str] = field(default_factory=list)
    response_only: list[str] = field(default_factory=list)

    def figures(self, label: str | None = None) -> dict[str, float]:
        """P, R and F1, micro or of one ``label``, a zero denominator giving ``zero_division`` (warned). A label
        that neither side has is a :class:`ConfigError` naming those that exist."""
        if label is not None and label not in self.labels:
            raise ConfigError(f"no pair has the label {label!r}; the labels are {', '.join(sorted(self.labels))}")
        return self._figures([self.micro if label is None else self.labels[label]], [label or "micro"])[0]

    def _figures(self, counts: Sequence[SetCounts], names: Sequence[str]) -> list[dict[str, float]]:
        correct = [c.correct for c in counts]
        p = ratio(correct, [c.response for c in counts], self.zero_division)
        r = ratio(correct, [c.key for c in counts], self.zero_division)
        no_p = [c.response == 0 for c in counts]
        no_r = [c.key == 0 for c in counts]
        f = fbeta(p, r, 1.0, undefined=[a and b for a, b in zip(no_p, no_r, strict=True)],
                  zero_division=self.zero_division)
        warn_zero_division([f"{what} of {n}" for n, a, b in zip(names, no_p, no_r, strict=True)
                            for what, bad in (("precision", a), ("recall", b)) if bad], self.zero_division,
                           stacklevel=3)
        return [{"p": float(p[i]), "r": float(r[i]), "f": float(f[i])} for i in range(len(counts))]

    def merge(self, other: SetScores) -> SetScores:
        """The scores of both corpora (different documents) as one; results made with other settings are refused."""
        if (self.normalize, self.dedupe, self.zero_division) != (other.normalize, other.dedupe, other.zero_division):
            raise ConfigError("cannot merge set scores made with different settings (normalize, dedupe, "
                              "zero_division)")
        both = sorted(set(self.documents) & set(other.documents))
        if both:
            raise ConfigError(f"cannot merge set scores that both count the documents {both[:3]}: merge scores of "
                              f"different documents")
        out = SetScores(self.normalize, self.dedupe, self.zero_division)
        for part in (self, other):
            out.micro.add(part.micro.correct, part.micro.key, part.micro.response)
            for label, c in part.labels.items():
                out.labels.setdefault(label, SetCounts()).add(c.correct, c.key, c.response)
            out.documents.update({d: SetCounts(c.correct, c.key, c.response) for d, c in part.documents.items()})
            out.key_only += part.key_only
            out.response_only += part.response_only
        return out

    def to_dict(self) -> dict[str, Any]:
        """The scores for JSON: micro and per-label counts and figures, the settings, the documents compared."""
        names = sorted(self.labels)
        figures = self._figures([self.micro, *(self.labels[n] for n in names)], ["micro", *names])

        def row(c: SetCounts, fig: dict[str, float]) -> dict[str, Any]:
            return {"correct": c.correct, "key": c.key, "response": c.response, **fig}

        return json_safe({
            "mode": "set", "normalize": self.normalize, "dedupe": self.dedupe, "zero_division": self.zero_division,
            "micro": row(self.micro, figures[0]),
            "labels": {n: row(self.labels[n], fig) for n, fig in zip(names, figures[1:], strict=True)},
            "documents": {"compared": len(self.documents) - len(self.key_only) - len(self.response_only),
                          "key_only": list(self.key_only), "response_only": list(self.response_only)},
        })


def _pairs(side: Mapping[str, Sequence[tuple[str, str]]] | Extractions, what: str) -> dict[str, list]:
    """``{doc_id: [(text, label), ...]}`` of a mapping or of :class:`Extractions`, every pair checked."""
    if isinstance(side, Extractions):
        return {d: [(e.text, e.label) for e in side.documents.get(d, [])] for d in side.doc_ids}
    if not isinstance(side, Mapping):
        raise ConfigError(f"{what}: a mapping of document id -> [(text, label), ...] or Extractions, got "
                          f"{type(side).__name__}")
    out = {}
    for doc, pairs in side.items():
        if isinstance(pairs, str | bytes) or not isinstance(pairs, Iterable):
            raise InputError(f"{what}, document {doc!r}: expected a list of (text, label) pairs, got {pairs!r:.60}")
        found = list(pairs)
        for pair in found:
            if not (isinstance(pair, tuple | list) and len(pair) == 2 and all(isinstance(v, str) for v in pair)):
                raise InputError(f"{what}, document {doc!r}: expected (text, label) pairs of strings, got "
                                 f"{pair!r:.60}")
        out[str(doc)] = found
    return out


def set_scores(key: Mapping[str, Sequence[tuple[str, str]]] | Extractions,
               response: Mapping[str, Sequence[tuple[str, str]]] | Extractions, normalize: str = "universalner", *,
               dedupe: bool = False, zero_division: float = 0.0) -> SetScores:
    """Score ``response`` against ``key`` in the set mode (module docstring): each a mapping of document id ->
    ``(text, label)`` pairs, or :class:`~spacy_anno_eval.llm.extractions.Extractions`. ``normalize``:
    ``"universalner"`` (:func:`normalize_universalner` on the text) or ``"none"``; ``dedupe``: count each
    normalised pair once per document, as UniversalNER's parser does.

    >>> s = set_scores({"d1": [("Ada Lovelace", "PER"), ("London", "LOC")]},
    ...                {"d1": [("ada lovelace.", "PER"), ("Paris", "LOC")]})
    >>> s.figures()
    {'p': 0.5, 'r': 0.5, 'f': 0.5}
    """
    if normalize not in NORMALIZE:
        raise ConfigError(f"normalize must be one of {', '.join(NORMALIZE)}, got {normalize!r}")
    if not isinstance(dedupe, bool):
        raise ConfigError(f"dedupe must be True or False, got {dedupe!r}")
    keys, responses = _pairs(key, "key"), _pairs(response, "response")
    out = SetScores(normalize, dedupe, check_zero_division(zero_division))
    if keys and responses and not set(keys) & set(responses):
        raise InputError(f"the key and the response have no document id in common (key: {sorted(keys)[:3]}, "
                         f"response: {sorted(responses)[:3]}); give both the same ids")
    if not keys and not responses:
        raise InputError("nothing to compare: neither the key nor the response has a document")
    norm = normalize_universalner if normalize == "universalner" else str
    for doc in [*keys, *(d for d in responses if d not in keys)]:
        if doc not in responses:
            out.key_only.append(doc)
        elif doc not in keys:
            out.response_only.append(doc)
        sides = [Counter((norm(t), label) for t, label in side.get(doc, ())) for side in (keys, responses)]
        if dedupe:
            sides = [Counter(dict.fromkeys(c, 1)) for c in sides]
        per_label: dict[str, list[int]] = {}
        for i, counter in enumerate((sides[0] & sides[1], *sides)):  # correct, key, response
            for (_, label), n in counter.items():
                per_label.setdefault(label, [0, 0, 0])[i] += n
        totals = [sum(n[i] for n in per_label.values()) for i in range(3)]
        out.documents[doc] = SetCounts(*totals)
        out.micro.add(*totals)
        for label, n in per_label.items():
            out.labels.setdefault(label, SetCounts()).add(*n)
    if out.key_only or out.response_only:
        warnings.warn(f"set mode: {len(out.key_only)} document(s) only in the key (their pairs counted as missed: "
                      f"{out.key_only[:3]}) and {len(out.response_only)} only in the response (counted as spurious: "
                      f"{out.response_only[:3]}); give both sides the same documents", CoverageWarning, stacklevel=2)
    return out


__all__ = ["NORMALIZE", "SetCounts", "SetScores", "normalize_universalner", "set_scores"]
