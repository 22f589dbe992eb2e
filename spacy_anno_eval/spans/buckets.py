"""Where does a system fail? Strict and lenient P/R/F per bucket of a span or document feature.

ExplainaBoard's fine-grained analysis (Liu et al. 2021, "ExplainaBoard: An
Explainable Leaderboard for NLP", §3): every key annotation falls into a
bucket by its own feature value, every response annotation by its own, and
each bucket gets its figures from the one alignment:

    R_b = hits among the key annotations of bucket b / key annotations of b
    P_b = hits among the response annotations of b  / response annotations of b
    F_b = (1 + β²) P_b R_b / (β² P_b + R_b)

A *hit* is a correct pair (strict) or a correct or partial pair (lenient), as
GATE counts them (user guide §10.1.3): the two annotations of a label-error
pair are a miss and a false alarm. Pairs are never recomputed per bucket.

The features and their bucket edges:

- ``span_length``: tokens of the annotation's text (the package's token rule,
  :func:`~spacy_anno_eval.spans.units.count_tokens`): ``1``, ``2``, ``3``, ``4+``;
- ``label``: the annotation's label;
- ``doc_length``: tokens of its document's text; and ``density``: key
  annotations per token of its document. Both are cut at the quartiles of the
  documents' values (at most four buckets, ``lo–hi`` inclusive; equal
  quartiles merge), so each bucket holds about a quarter of the documents;
- with a training corpus (``train``, ExplainaBoard's ``efre`` and ``econ``):
  ``train_frequency``, how often the annotation's text is annotated in the
  training corpus: ``unseen`` (0), ``rare`` (1–4), ``frequent`` (5+); and
  ``label_consistency``, the share of those training annotations that carry
  this annotation's label: ``unseen``, ``0`` (never), ``mixed``, ``1`` (always).

Counts are kept per document and bucket, so a bucket's figures get a
document-bootstrap interval as the corpus figures do
(:func:`spacy_anno_eval.resampling.intervals.bucket_intervals`).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import ConfigError
from ..figures import fbeta, ratio
from .align import CORRECT, PARTIAL
from .units import count_tokens

FEATURES = ("span_length", "label", "doc_length", "density", "train_frequency", "label_consistency")
#: the features that need a training corpus
TRAIN_FEATURES = ("train_frequency", "label_consistency")
#: the columns of the counts: per side (key, response), annotations, strict hits, lenient hits
COLUMNS = ("key", "key_strict", "key_lenient", "response", "response_strict", "response_lenient")
SPAN_LENGTHS = ("1", "2", "3", "4+")
FREQUENCIES = ("unseen", "rare", "frequent")
RARE_BELOW = 5
CONSISTENCIES = ("unseen", "0", "mixed", "1")


def check_features(features: Sequence[str] | None, has_train: bool) -> tuple[str, ...]:
    """The features asked for (default: all, the training ones only with a training corpus); a name that is
    no feature, or a training feature without a training corpus, is a :class:`ConfigError`."""
    if features is None:
        return tuple(f for f in FEATURES if has_train or f not in TRAIN_FEATURES)
    chosen = tuple(features)
    unknown = [f for f in chosen if f not in FEATURES]
    if unknown:
        raise ConfigError(f"unknown bucket feature(s) {', '.join(map(repr, unknown))}; the features are "
                          f"{', '.join(FEATURES)}")
    needs = [f for f in chosen if f in TRAIN_FEATURES]
    if needs and not has_train:
        raise ConfigError(f"{', '.join(needs)} need a training corpus: give train (--train FILE)")
    return chosen


def bucket_figures(sums: np.ndarray, beta: float = 1.0, zero_division: float = 0.0) -> np.ndarray:
    """Figures ``(..., 2, 3)`` (strict, lenient × P, R, F) of bucket counts ``(..., len(COLUMNS))``."""
    sums = np.asarray(sums, dtype=float)
    out = []
    for mode in (1, 2):
        r = ratio(sums[..., mode], sums[..., 0], zero_division)
        p = ratio(sums[..., 3 + mode], sums[..., 3], zero_division)
        undefined = (sums[..., 0] == 0) & (sums[..., 3] == 0)
        out.append(np.stack([p, r, fbeta(p, r, beta, undefined=undefined, zero_division=zero_division)], axis=-1))
    return np.stack(out, axis=-2)


@dataclass(frozen=True)
class Buckets:
    """One feature's buckets: ``counts[d, b]`` holds document ``d``'s :data:`COLUMNS` in bucket ``names[b]``."""

    feature: str
    names: tuple[str, ...]
    counts: np.ndarray
    beta: float = 1.0
    zero_division: float = 0.0

    def figures(self) -> dict[str, dict[str, Any]]:
        """``{bucket: {"strict": {p, r, f}, "lenient": {...}, "key": n, "response": n}}`` of the whole corpus."""
        total = self.counts.sum(axis=0)
        table = bucket_figures(total, self.beta, self.zero_division)
        return {name: {"strict": dict(zip("prf", map(float, table[b, 0]), strict=True)),
                       "lenient": dict(zip("prf", map(float, table[b, 1]), strict=True)),
                       "key": int(total[b, 0]), "response": int(total[b, 3])}
                for b, name in enumerate(self.names)}

    def to_dict(self) -> dict[str, Any]:
        return {"feature": self.feature, "buckets": self.figures()}


def _quartile_buckets(values: np.ndarray, decimals: int) -> tuple[np.ndarray, tuple[str, ...]]:
    """Each value's bucket at the quartiles of ``values`` (equal edges merge) and the buckets' names."""
    values = np.round(np.asarray(values, dtype=float), decimals)
    if not len(values):
        return np.zeros(0, dtype=np.int64), ()
    inner = np.unique(np.quantile(values, [0.25, 0.5, 0.75], method="lower"))
    which = np.searchsorted(inner, values, side="left")  # bucket b: (inner[b-1], inner[b]]
    names = []
    kept = []
    for b in range(len(inner) + 1):
        members = values[which == b]
        if len(members):
            kept.append(b)
            lo, hi = members.min(), members.max()
            names.append(f"{lo:.{decimals}f}" if lo == hi else f"{lo:.{decimals}f}–{hi:.{decimals}f}")
    remap = {b: i for i, b in enumerate(kept)}
    return np.array([remap[b] for b in which.tolist()], dtype=np.int64), tuple(names)


def train_counts(train: Any, key_set: str = "ents") -> dict[str, Counter[str]]:
    """``{text: Counter(label)}`` of the annotations of a training corpus (a
    :class:`~spacy_anno_eval.annotations.table.Corpus`) in ``key_set``; a mapping is taken as it is."""
    if isinstance(train, Mapping):
        return {str(k): Counter(v) for k, v in train.items()}
    table = train.get_set(key_set)
    out: dict[str, Counter[str]] = defaultdict(Counter)
    names = table.label_names()
    for d, s, e, lab in zip(table.doc.tolist(), table.start.tolist(), table.end.tolist(), table.label.tolist(),
                            strict=True):
        out[train.texts[d][s:e]][str(names[lab])] += 1
    return dict(out)


def compute_buckets(evaluation: Any, features: Sequence[str] | None = None, train: Any = None,
                    key_set: str = "ents") -> list[Buckets]:
    """The buckets of ``evaluation`` (an :class:`~spacy_anno_eval.spans.counts.Evaluation` with its pairs and
    texts) for each feature (see the module). ``train``: a training corpus, or ``{text: {label: n}}``."""
    chosen = check_features(features, train is not None)
    al = evaluation.require_pairs("the bucket breakdown")
    texts = evaluation.texts
    if texts is None:
        raise ConfigError("the bucket breakdown needs the documents' texts; this evaluation was made without them")
    n_docs = len(evaluation.doc_ids)
    settings = evaluation.settings
    beta, zd = float(settings.beta), float(settings.zero_division)
    status = al.status
    # one entry per annotation of each side: its document, text, label and whether it is a strict / lenient hit
    sides = []
    for table, rows in ((al.key, al.key_row), (al.response, al.response_row)):
        has = rows >= 0
        r = rows[has]
        sides.append({"doc": al.doc[has], "start": table.start[r], "end": table.end[r],
                      "label": np.asarray(evaluation.labels, dtype=object)[table.label[r]] if len(r) else
                      np.zeros(0, dtype=object),
                      "strict": status[has] == CORRECT, "lenient": np.isin(status[has], (CORRECT, PARTIAL))})
    doc_tokens = np.array([count_tokens(t) for t in texts], dtype=float)
    key_per_doc = np.bincount(sides[0]["doc"], minlength=n_docs).astype(float)
    density = np.divide(key_per_doc, doc_tokens, out=np.zeros(n_docs), where=doc_tokens > 0)
    seen = train_counts(train, key_set) if train is not None else {}
    out = []
    for feature in chosen:
        if feature in ("doc_length", "density"):
            values = doc_tokens if feature == "doc_length" else density
            per_doc, names = _quartile_buckets(values, 0 if feature == "doc_length" else 3)
            assign = [per_doc[side["doc"]] for side in sides]
        elif feature == "label":
            names = tuple(sorted(set(sides[0]["label"].tolist()) | set(sides[1]["label"].tolist())))
            index = {n: i for i, n in enumerate(names)}
            assign = [np.array([index[x] for x in side["label"].tolist()], dtype=np.int64) for side in sides]
        else:
            names, assign = _span_buckets(feature, sides, texts, seen)
        counts = np.zeros((n_docs, len(names), len(COLUMNS)), dtype=np.int64)
        for s, (side, b) in enumerate(zip(sides, assign, strict=True)):
            for c, hit in enumerate((None, "strict", "lenient")):
                weight = None if hit is None else side[hit].astype(np.int64)
                flat = np.bincount(side["doc"] * len(names) + b, weights=weight, minlength=n_docs * len(names))
                counts[:, :, 3 * s + c] = flat.reshape(n_docs, len(names)).astype(np.int64)
        out.append(Buckets(feature, tuple(names), counts, beta, zd))
    return out


def _span_buckets(feature: str, sides: list[dict[str, np.ndarray]], texts: Sequence[str],
                  seen: dict[str, Counter[str]]) -> tuple[tuple[str, ...], list[np.ndarray]]:
    """Bucket names and each annotation's bucket for the features read off the annotation's own text."""
    assign = []
    for side in sides:
        spans = [texts[d][s:e] for d, s, e in zip(side["doc"].tolist(), side["start"].tolist(),
                                                   side["end"].tolist(), strict=True)]
        if feature == "span_length":
            names = SPAN_LENGTHS
            values = [min(max(count_tokens(t), 1), 4) - 1 for t in spans]
        elif feature == "train_frequency":
            names = FREQUENCIES
            values = [_frequency(sum(seen.get(t, Counter()).values())) for t in spans]
        else:
            names = CONSISTENCIES
            values = [_consistency(seen.get(t), lab) for t, lab in zip(spans, side["label"].tolist(), strict=True)]
        assign.append(np.array(values, dtype=np.int64))
    return names, assign


def _frequency(n: int) -> int:
    return 0 if n == 0 else 1 if n < RARE_BELOW else 2


def _consistency(labels: Counter[str] | None, label: str) -> int:
    if not labels:
        return 0
    share = labels.get(label, 0) / sum(labels.values())
    return 1 if share == 0 else 3 if share == 1 else 2


__all__ = ["COLUMNS", "FEATURES", "Buckets", "bucket_figures", "check_features", "compute_buckets", "train_counts"]
