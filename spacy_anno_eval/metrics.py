"""seqeval-compatible metrics for tag sequences, computed by the span engine.

The functional interface of seqeval 1.2 (``seqeval.metrics``), which Hugging
Face examples and sklearn-crfsuite users call: :func:`classification_report`,
:func:`precision_score`, :func:`recall_score`, :func:`f1_score`,
:func:`accuracy_score`, :func:`performance_measure` (and
:func:`precision_recall_fscore_support`), with seqeval's signatures, defaults
and results. ``from spacy_anno_eval.metrics import f1_score, IOB2`` replaces
``from seqeval.metrics import f1_score; from seqeval.scheme import IOB2``.

How a figure is made
--------------------
1. Tags to entities (:mod:`spacy_anno_eval.io.schemes`). Default mode
   (``mode=None``, or ``mode="strict"`` without a scheme in the ``*_score``
   functions, as in seqeval): :func:`~spacy_anno_eval.io.schemes.decode_conlleval`,
   conlleval.pl's chunk rules as extended by seqeval's ``get_entities``
   (sentences are separated by an ``O``; a tag is ``P-TYPE``, or ``TYPE-P``
   with ``suffix=True``; the type is split off as seqeval does). Tags whose
   prefix is not one of O, B, I, E, S (BILOU's L and U included: seqeval's
   default mode does not know them) follow seqeval's ``start_of_chunk`` /
   ``end_of_chunk`` rules literally, including the chunk start it keeps from
   an earlier chunk (:func:`_decode_any_prefix`). ``mode="strict"`` with a
   scheme: :func:`~spacy_anno_eval.io.schemes.decode_strict`, seqeval's
   ``seqeval.scheme.Tokens.entities`` (a tag the scheme does not allow is a
   ``ValueError``). ``classification_report(mode="strict")`` without a scheme
   detects it as seqeval's ``auto_detect`` does (IOB2, IOE2, IOBES, BILOU).
2. Entities to pairs: each side becomes a
   :class:`~spacy_anno_eval.annotations.table.SpanTable` over token positions
   (sentence ``s``, token ``t`` at position ``offset(s) + t + s``, the same on
   both sides), paired one-to-one by
   :func:`~spacy_anno_eval.spans.align.align_spans` and counted per type by
   :class:`~spacy_anno_eval.spans.counts.Evaluation` (C correct, Pa partial,
   M missing, S spurious, as in GATE; :mod:`spacy_anno_eval.spans.measures`).
3. Figures, per type (labels sorted as strings, as seqeval does), with
   ``measure="strict"`` (the default, = seqeval: an entity counts when type,
   start and end agree)::

       tp = C,  pred = C + Pa + S,  true = C + Pa + M   (= seqeval's tp_sum, pred_sum, true_sum)
       P = tp / pred,  R = tp / true,  F = 2 P R / (P + R)  (0 when P + R = 0)

   ``measure="lenient"``: tp = C + Pa (an overlapping entity of the same type
   counts too); ``measure="average"``: the mean of the strict and the lenient
   result (GATE user guide 10.5-10.7). A zero denominator gives
   ``zero_division`` (``"warn"`` acts as 0 and warns). Averages as seqeval
   (and scikit-learn's ``precision_recall_fscore_support``): micro = the
   ratios of summed counts; macro = the unweighted mean over types; weighted
   = the mean weighted by ``true`` (all-zero support: P and F are
   ``zero_division`` when nothing was predicted, else 0; R is
   ``zero_division``). ``support`` is the number of key entities.
4. :func:`semeval_report`: what seqeval lacks, the MUC figures (Chinchor
   1992) and the four SemEval-2013 task 9.1 schemas (strict, exact, partial,
   type; names as in nervaluate) from the same pairs
   (:func:`~spacy_anno_eval.spans.measures.muc_prf`,
   :func:`~spacy_anno_eval.spans.measures.semeval_prf`).

:func:`accuracy_score` and :func:`performance_measure` compare tags position by
position, as seqeval does (TP: equal tags, not both ``O``; FP: different tags,
predicted not ``O``; FN: true not ``O``, predicted ``O``; TN: both ``O``).

Where we differ from seqeval 1.2.2 (each tested in tests/metrics/test_seqeval_api.py)
------------------------------------------------------------------------------------
- Undefined ratios warn once per call with
  :class:`~spacy_anno_eval.errors.UndefinedFigureWarning` (the package's one
  rule), not with scikit-learn's ``UndefinedMetricWarning``; they warn in the
  same cases.
- ``zero_division`` must be ``"warn"``, 0 or 1 (a
  :class:`~spacy_anno_eval.errors.ConfigError`, which is a ``ValueError``,
  otherwise: NaN included) and ``mode`` None or ``"strict"`` (``ValueError``);
  seqeval reads any other ``zero_division`` as 1 and any other ``mode`` as None.
- ``beta`` must be a number >= 0 or ``inf``
  (:func:`~spacy_anno_eval.figures.check_beta`); seqeval gives F = NaN for a
  NaN β and a ``TypeError`` for a string.
- A macro average over no type at all (neither side has an entity) is
  ``zero_division`` (with a warning under ``"warn"``); seqeval gives NaN
  (numpy's mean of nothing).
- ``output_dict=True`` holds Python ``float`` and ``int`` (seqeval: numpy
  scalars; they compare equal); the ``*_score`` functions return a ``float``
  for an average and a numpy array for ``average=None``, as seqeval.
- An unknown prefix letter in strict mode is a ``ValueError`` (seqeval: ``KeyError``).
- Sentences may be any sequences (tuples too); seqeval's ``*_score`` functions
  want lists (``TypeError``). A flat list of tags is still a ``TypeError``.
- ``sample_weight`` is accepted and, as in seqeval 1.2, does not change any
  figure (seqeval uses it only for ``average="samples"``, which it refuses).

Where seqeval differs from the package's policy (:mod:`spacy_anno_eval.figures`), on purpose
---------------------------------------------------------------------------------------------
The figures are those of :func:`~spacy_anno_eval.figures.ratio` and
:func:`~spacy_anno_eval.figures.fbeta` (``zero_division`` for a zero
denominator, F = ``zero_division`` where P and R both are, F = 0 where
P + R = 0: seqeval's values too). The warning keeps seqeval's rule, which is
scikit-learn's: only ``zero_division="warn"`` warns (an explicit 0 or 1 is
silent, where the package warns on every ``zero_division`` ratio), and only for
the figures the function returns (``warn_for``). seqeval's callers filter and
test on these warnings, so the difference stays
(tests/metrics/test_seqeval_policy.py shows it).

The module imports nothing heavy: numpy and the engine are imported on the
first call.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

__all__ = [
    "BILOU", "IOB1", "IOB2", "IOBES", "IOE1", "IOE2",
    "accuracy_score", "classification_report", "f1_score", "performance_measure",
    "precision_recall_fscore_support", "precision_score", "recall_score", "semeval_report",
]

AVERAGES = (None, "micro", "macro", "weighted")
MEASURES = ("strict", "lenient", "average")


class _Scheme:
    """A tagging scheme, named like seqeval's ``seqeval.scheme`` classes (pass the class, or its name)."""


class IOB1(_Scheme):
    """IOB1 (I inside, B only between two chunks of one type)."""


class IOB2(_Scheme):
    """IOB2 / BIO."""


class IOE1(_Scheme):
    """IOE1."""


class IOE2(_Scheme):
    """IOE2."""


class IOBES(_Scheme):
    """IOBES / BIOES."""


class BILOU(_Scheme):
    """BILOU / BILUO."""


_SCHEMES = ("IOB1", "IOB2", "IOE1", "IOE2", "IOBES", "BILOU")
_SCHEME_ALIASES = {"BIO": "IOB2", "IOE": "IOE2", "BIOES": "IOBES", "BILUO": "BILOU"}


def _scheme_name(scheme: Any) -> str:
    """The scheme's name from a class (ours or seqeval's) or a string; ``ValueError`` otherwise."""
    name = scheme.__name__ if isinstance(scheme, type) else scheme
    if isinstance(name, str):
        upper = name.upper()
        upper = _SCHEME_ALIASES.get(upper, upper)
        if upper in _SCHEMES:
            return upper
    raise ValueError(f"unknown tagging scheme {scheme!r}: use one of {', '.join(_SCHEMES)} "
                     f"(a name, or the class from spacy_anno_eval.metrics or seqeval.scheme)")


# ---------------------------------------------------------------------------
# checks


def _check_zero_division(zero_division: Any) -> Any:
    """seqeval's ``zero_division``: ``"warn"`` (0 with a warning), 0 or 1; anything else (NaN, 0.5, a boolean,
    another string) is a :class:`~spacy_anno_eval.errors.ConfigError` (a ``ValueError``). A number goes through
    :func:`~spacy_anno_eval.figures.check_zero_division`, the package's rule, then must be 0 or 1 (seqeval's
    values)."""
    from .errors import ConfigError
    from .figures import check_zero_division

    if isinstance(zero_division, str):
        if zero_division == "warn":
            return zero_division
    elif not isinstance(zero_division, bool):
        try:
            value = check_zero_division(zero_division)
        except ConfigError:
            value = None
        if value in (0.0, 1.0):
            return zero_division
    raise ConfigError(f"zero_division must be 'warn', 0 or 1, got {zero_division!r}")


def _zd_value(zero_division: Any) -> float:
    return 0.0 if zero_division in ("warn", 0) else 1.0


def _check_mode(mode: Any) -> None:
    if mode not in (None, "strict"):
        raise ValueError(f"mode must be None (conlleval's rules) or 'strict', got {mode!r}")


def _check_average(average: Any) -> None:
    if average not in AVERAGES:
        raise ValueError(f"average has to be one of {AVERAGES}")


def _check_measure(measure: Any) -> None:
    if measure not in MEASURES:
        raise ValueError(f"measure must be one of {', '.join(MEASURES)}, got {measure!r}")


def _sentences(y: Any, what: str) -> list[Sequence[str]]:
    """``y`` as a list of sentences; a flat sequence of tags is a ``TypeError`` (as seqeval)."""
    if isinstance(y, str) or not isinstance(y, Sequence) and not hasattr(y, "__iter__"):
        raise TypeError("Found input variables without list of list.")
    sents = list(y)
    for s in sents:
        if isinstance(s, str) or not hasattr(s, "__len__"):
            raise TypeError(f"Found input variables without list of list ({what} must be a list of sentences, "
                            f"each a list of tags).")
    return sents


def _check_lengths(y_true: list, y_pred: list) -> None:
    len_true = [len(s) for s in y_true]
    len_pred = [len(s) for s in y_pred]
    if len(y_true) != len(y_pred) or len_true != len_pred:
        raise ValueError(f"Found input variables with inconsistent numbers of samples:\n{len_true}\n{len_pred}")


# ---------------------------------------------------------------------------
# tags -> entities (positions in the sentences joined by one "O")


def _parse_default(tag: str, suffix: bool) -> tuple[str, str]:
    """seqeval's ``get_entities`` split: (prefix letter, type)."""
    if suffix:
        return tag[-1], tag[:-1].rsplit("-", maxsplit=1)[0] or "_"
    return tag[0], tag[1:].split("-", maxsplit=1)[-1] or "_"


def _parse_strict(tag: str, suffix: bool) -> tuple[str, str]:
    """seqeval's ``Token`` split: (prefix letter, type)."""
    body = tag[:-1] if suffix else tag[1:]
    return (tag[-1] if suffix else tag[0]), body.strip("-") or "_"


class _Layout:
    """Flattened tags with sentence bounds; positions count one separator after each sentence."""

    def __init__(self, sents: list[Sequence[str]]) -> None:
        import numpy as np

        lengths = np.fromiter((len(s) for s in sents), dtype=np.int64, count=len(sents))
        self.tags = [t for s in sents for t in s]
        keep = lengths > 0
        starts = np.cumsum(lengths) - lengths
        self.sent_first = starts[keep]
        self.sent_last = (starts + lengths - 1)[keep]
        sent_of_tok = np.repeat(np.arange(len(sents)), lengths)
        self.position = np.arange(len(self.tags)) + sent_of_tok  # token -> position with separators
        self.n_positions = int(lengths.sum()) + len(sents)


def _entities(sents: list[Sequence[str]], strict_scheme: str | None, suffix: bool) -> tuple[Any, Any, Any, list]:
    """(start, end exclusive, type id, types) of every entity, in separator-counting positions."""
    import numpy as np

    from .io.schemes import B, E, I, L, O, S, U, decode_conlleval, decode_strict  # noqa: E741

    layout = _Layout(sents)
    distinct = {t: i for i, t in enumerate(dict.fromkeys(layout.tags))}
    ids = np.fromiter((distinct[t] for t in layout.tags), dtype=np.int64, count=len(layout.tags))
    parse = _parse_strict if strict_scheme else _parse_default
    types: dict[str, int] = {}
    prefix_of = np.zeros(len(distinct), dtype=np.int8)
    type_of = np.full(len(distinct), -1, dtype=np.int64)
    letters = []
    for tag, i in distinct.items():
        if not isinstance(tag, str) or not tag:
            raise ValueError(f"a tag must be a non-empty string, got {tag!r}")
        letter, typ = parse(tag, suffix)
        letters.append(letter)
        if letter != "O":
            type_of[i] = types.setdefault(typ, len(types))
    if strict_scheme:
        codes = {"O": O, "B": B, "I": I, "E": E, "S": S, "L": L, "U": U}
        from .io.schemes import ALLOWED

        allowed = ALLOWED[strict_scheme]
        for tag, letter in zip(distinct, letters, strict=True):
            if letter not in codes:
                raise ValueError(f"Invalid token is found: {tag}. Its prefix {letter!r} is none of "
                                 f"I, O, B, E, S, U, L.")
            if codes[letter] not in allowed:
                raise ValueError(f"Invalid token is found: {tag}. Allowed prefixes in {strict_scheme} are: "
                                 f"{', '.join(p for p, c in codes.items() if c in allowed)}.")
            prefix_of[distinct[tag]] = codes[letter]
        prefix, typ = prefix_of[ids], type_of[ids]
        first, last = decode_strict(prefix, typ, layout.sent_first, layout.sent_last, strict_scheme)
    elif set(letters) <= {"O", "B", "I", "E", "S"}:
        codes = {"O": O, "B": B, "I": I, "E": E, "S": S}
        for i, letter in enumerate(letters):
            prefix_of[i] = codes[letter]
        prefix, typ = prefix_of[ids], type_of[ids]
        first, last = decode_conlleval(prefix, typ, layout.sent_first, layout.sent_last)
    else:
        return _decode_any_prefix(layout, ids, letters, distinct, suffix)
    start = layout.position[first] if len(first) else np.zeros(0, dtype=np.int64)
    end = layout.position[last] + 1 if len(last) else np.zeros(0, dtype=np.int64)
    return start, end, typ[first] if len(first) else np.zeros(0, dtype=np.int64), list(types)


# codes of seqeval's default rules for any prefix letter
_O, _B, _I, _E, _S, _DOT, _X = range(7)


def _default_tables() -> tuple[Any, Any]:
    """seqeval's ``end_of_chunk`` / ``start_of_chunk`` as tables [prev, cur, same type] over 7 codes."""
    import numpy as np

    name = "OBIES.X"
    end = np.zeros((7, 7, 2), dtype=bool)
    start = np.zeros((7, 7, 2), dtype=bool)
    for p in range(7):
        for c in range(7):
            for same in (0, 1):
                pt, ct = name[p], name[c]
                end[p, c, same] = (pt in "ES" or (pt in "BI" and ct in "BSO")
                                   or (pt not in "O." and not same))
                start[p, c, same] = (ct in "BS" or (pt in "ESO" and ct in "EI")
                                     or (ct not in "O." and not same))
    return end, start


def _decode_any_prefix(layout: _Layout, ids: Any, letters: list[str], distinct: dict[str, int],
                       suffix: bool) -> tuple[Any, Any, Any, list]:
    """seqeval's ``get_entities`` loop for tags with other prefixes than O, B, I, E, S, vectorised.

    On the sentences joined by ``O`` (and one more ``O``): an end between
    positions ``i - 1`` and ``i`` yields the chunk (type of ``i - 1``, the
    latest start at or before ``i - 1`` (0 if none), ``i - 1``); seqeval keeps
    that start even when a chunk ended since, so chunks may nest.
    """
    import numpy as np

    end_t, start_t = _default_tables()
    code = {"O": _O, "B": _B, "I": _I, "E": _E, "S": _S, ".": _DOT}
    types: dict[str, int] = {"_": 0}
    prefix_of = np.array([code.get(letter, _X) for letter in letters], dtype=np.int8)
    type_of = np.array([types.setdefault(_parse_default(tag, suffix)[1], len(types)) for tag in distinct],
                       dtype=np.int64)
    n = layout.n_positions + 1  # joined sentences, then the closing "O"
    prefix = np.full(n, _O, dtype=np.int8)
    typ = np.zeros(n, dtype=np.int64)  # an "O" has type "_"
    prefix[layout.position] = prefix_of[ids]
    typ[layout.position] = type_of[ids]
    prev_p = np.concatenate(([_O], prefix[:-1]))
    prev_t = np.concatenate(([-1], typ[:-1]))  # before the first tag: type ""
    same = (prev_t == typ).astype(np.int8)
    ends = np.flatnonzero(end_t[prev_p, prefix, same]) - 1  # last position of each chunk
    starts = np.flatnonzero(start_t[prev_p, prefix, same])
    k = np.searchsorted(starts, ends, side="right") - 1
    begin = np.where(k >= 0, starts[np.maximum(k, 0)] if len(starts) else 0, 0)
    names = list(types)
    used = sorted(set(typ[ends].tolist()))
    remap = np.full(len(names), -1, dtype=np.int64)
    remap[used] = np.arange(len(used))
    return begin, ends + 1, remap[typ[ends]], [names[u] for u in used]


def _table(start: Any, end: Any, type_id: Any, types: list[str]) -> Any:
    import numpy as np

    from .annotations.table import SpanTable

    used = sorted(set(np.asarray(type_id).tolist()))
    remap = np.full(max(len(types), 1), -1, dtype=np.int64)
    remap[used] = np.arange(len(used))
    return SpanTable(np.zeros(len(start), dtype=np.int64), start, end,
                     remap[type_id] if len(start) else type_id, [types[u] for u in used])


def _evaluation(y_true: Any, y_pred: Any, *, mode: Any, scheme: Any, suffix: bool,
                report: bool = False) -> Any:
    """The :class:`~spacy_anno_eval.spans.counts.Evaluation` of the entities of both sides."""
    from .spans.align import align_spans
    from .spans.counts import Evaluation

    _check_mode(mode)
    true = _sentences(y_true, "y_true")
    pred = _sentences(y_pred, "y_pred")
    _check_lengths(true, pred)
    strict_scheme = None
    if mode == "strict" and (scheme or report):
        strict_scheme = _scheme_name(scheme) if scheme else _auto_detect(true, suffix)
    key = _table(*_entities(true, strict_scheme, suffix))
    response = _table(*_entities(pred, strict_scheme, suffix))
    return Evaluation.from_alignment(align_spans(key, response), ["0"])


# seqeval.scheme.auto_detect: the prefix sets that select each scheme, tried in this order
_AUTO_DETECT = (("IOB2", "IOB IB BO B"), ("IOE2", "IOE IE EO E"),
                ("IOBES", "IOBES IBES IOBE OBES IBE BES OBE BE S"),
                ("BILOU", "IOBLU IBLU IOBL OBLU IBL BLU OBL BL U"))


def _auto_detect(sents: list[Sequence[str]], suffix: bool) -> str:
    """seqeval's ``auto_detect``: the scheme whose prefix sets include the prefixes of ``sents``."""
    found = set()
    for s in sents:
        for tag in s:
            letter = tag[-1] if suffix else tag[0]
            if letter not in "IOBESUL":
                raise ValueError(f"This scheme is not supported: {tag}")
            found.add(letter)
    for name, sets in _AUTO_DETECT:
        if any(found == set(allowed) for allowed in sets.split()):
            return name
    raise ValueError(f"This scheme is not supported: {found}")


# ---------------------------------------------------------------------------
# counts -> figures


def _sums(ev: Any, measure: str) -> tuple[Any, Any, Any, Any]:
    """(tp, pred, true) per type for the strict or lenient measure, and the labels."""
    from .spans.measures import gate_counts

    c = gate_counts(ev.by_type)
    tp = c["correct"] + (c["partial"] if measure == "lenient" else 0)
    return tp, c["correct"] + c["partial"] + c["spurious"], c["correct"] + c["partial"] + c["missing"], ev.labels


def _prfs(tp: Any, pred: Any, true: Any, *, average: Any, beta: float, zero_division: Any,
          warn_for: tuple[str, ...], undefined: list[str]) -> tuple[Any, Any, Any, Any]:
    """seqeval's ``_precision_recall_fscore_support`` on summed counts; undefined ratios go to ``undefined``.

    The ratios are :func:`~spacy_anno_eval.figures.ratio` and F is :func:`~spacy_anno_eval.figures.fbeta`
    with P and R undefined together marked: its value there is ``zero_division``, which is also what seqeval's
    ``(1 + β²)·zd·zd / (β²·zd + zd)`` gives for zd 0 or 1, and 0 where P + R = 0, as seqeval. Only seqeval's
    warning differs from the package's policy: see :func:`_undefined_names`.
    """
    import numpy as np

    from .figures import fbeta, ratio

    zd = _zd_value(zero_division)
    tp, pred, true = (np.asarray(a, dtype=np.int64) for a in (tp, pred, true))
    if average == "micro":
        tp, pred, true = (np.array([a.sum()]) for a in (tp, pred, true))
    precision = ratio(tp, pred, zd)
    recall = ratio(tp, true, zd)
    f = fbeta(precision, recall, beta, undefined=(pred == 0) & (true == 0), zero_division=zd)
    undefined += _undefined_names(pred, true, zero_division, warn_for)
    if average is None:
        return precision, recall, f, true
    if average == "weighted":
        if true.sum() == 0:  # scikit-learn's rule, which seqeval copies: P and F 0 once anything was predicted
            nothing = pred.sum() == 0
            return (zd if nothing else 0.0), zd, (zd if nothing else 0.0), int(true.sum())
        weights = true
    else:
        weights = None
    if not len(precision):  # macro over no type (seqeval: NaN)
        if zero_division == "warn":
            undefined.append("macro average over no type")
        return zd, zd, zd, 0
    return (float(np.average(precision, weights=weights)), float(np.average(recall, weights=weights)),
            float(np.average(f, weights=weights)), int(true.sum()))


def _undefined_names(pred: Any, true: Any, zero_division: Any, warn_for: tuple[str, ...]) -> list[str]:
    """The figures seqeval warns about: where the package's policy (:mod:`spacy_anno_eval.figures`) warns on every
    ratio given ``zero_division``, seqeval (as scikit-learn) warns only under ``zero_division="warn"`` (an explicit
    0 or 1 is the caller saying they know), and only for the figures of ``warn_for``: P with nothing predicted, R
    with nothing true, and for F alone (``f1_score``) a type with neither. Kept so that seqeval's callers see the
    warnings they expect (tests/metrics/test_seqeval_policy.py)."""
    if zero_division != "warn":
        return []
    names = [metric for metric, den in (("precision", pred), ("recall", true))
             if metric in warn_for and (den == 0).any()]
    if warn_for == ("f-score",) and (pred[true == 0] == 0).any():
        names.append("f-score")
    return names


def _figures(ev: Any, measure: str, *, average: Any, beta: float, zero_division: Any,
             warn_for: tuple[str, ...], undefined: list[str]) -> tuple[Any, Any, Any, Any]:
    """P, R, F, support of one measure (strict, lenient, or their mean)."""
    if measure != "average":
        tp, pred, true, _ = _sums(ev, measure)
        return _prfs(tp, pred, true, average=average, beta=beta, zero_division=zero_division,
                     warn_for=warn_for, undefined=undefined)
    a = _figures(ev, "strict", average=average, beta=beta, zero_division=zero_division, warn_for=warn_for,
                 undefined=undefined)
    b = _figures(ev, "lenient", average=average, beta=beta, zero_division=zero_division, warn_for=warn_for,
                 undefined=[])
    return (a[0] + b[0]) / 2, (a[1] + b[1]) / 2, (a[2] + b[2]) / 2, a[3]


def _warn(undefined: list[str], zero_division: Any) -> None:
    if undefined:
        from .figures import warn_zero_division

        names = list(dict.fromkeys(f"{m} (no {'predicted' if m == 'precision' else 'true'} entities)"
                                   if m in ("precision", "recall") else m for m in undefined))
        warn_zero_division(names, _zd_value(zero_division), stacklevel=3)


# ---------------------------------------------------------------------------
# the seqeval interface


def precision_recall_fscore_support(y_true: Any, y_pred: Any, *, average: str | None = None,
                                    warn_for: tuple[str, ...] = ("precision", "recall", "f-score"),
                                    beta: float = 1.0, sample_weight: Any = None, zero_division: Any = "warn",
                                    suffix: bool = False, mode: str | None = None, scheme: Any = None,
                                    measure: str = "strict") -> tuple[Any, Any, Any, Any]:
    """Precision, recall, F-beta and support, per type (``average=None``) or averaged; as seqeval's
    ``precision_recall_fscore_support`` (its ``sequence_labeling`` and ``v1`` versions in one).

    ``beta`` must be a number >= 0 or ``inf`` (F = recall); NaN, a negative number or a string is a
    :class:`~spacy_anno_eval.errors.ConfigError` (a ``ValueError``, as seqeval raises for a negative β)."""
    from .figures import check_beta

    beta = check_beta(beta)
    _check_average(average)
    _check_measure(measure)
    zero_division = _check_zero_division(zero_division)
    ev = _evaluation(y_true, y_pred, mode=mode, scheme=scheme, suffix=suffix)
    undefined: list[str] = []
    out = _figures(ev, measure, average=average, beta=beta, zero_division=zero_division,
                   warn_for=tuple(warn_for), undefined=undefined)
    _warn(undefined, zero_division)
    return out


def precision_score(y_true: Any, y_pred: Any, *, average: str | None = "micro", suffix: bool = False,
                    mode: str | None = None, sample_weight: Any = None, zero_division: Any = "warn",
                    scheme: Any = None, measure: str = "strict") -> Any:
    """Precision of the entities (seqeval's ``precision_score``); ``measure``: strict, lenient or average."""
    return precision_recall_fscore_support(y_true, y_pred, average=average, warn_for=("precision",),
                                           zero_division=zero_division, suffix=suffix, mode=mode,
                                           scheme=scheme, measure=measure)[0]


def recall_score(y_true: Any, y_pred: Any, *, average: str | None = "micro", suffix: bool = False,
                 mode: str | None = None, sample_weight: Any = None, zero_division: Any = "warn",
                 scheme: Any = None, measure: str = "strict") -> Any:
    """Recall of the entities (seqeval's ``recall_score``); ``measure``: strict, lenient or average."""
    return precision_recall_fscore_support(y_true, y_pred, average=average, warn_for=("recall",),
                                           zero_division=zero_division, suffix=suffix, mode=mode,
                                           scheme=scheme, measure=measure)[1]


def f1_score(y_true: Any, y_pred: Any, *, average: str | None = "micro", suffix: bool = False,
             mode: str | None = None, sample_weight: Any = None, zero_division: Any = "warn",
             scheme: Any = None, measure: str = "strict") -> Any:
    """F1 of the entities (seqeval's ``f1_score``); ``measure``: strict, lenient or average."""
    return precision_recall_fscore_support(y_true, y_pred, average=average, warn_for=("f-score",),
                                           zero_division=zero_division, suffix=suffix, mode=mode,
                                           scheme=scheme, measure=measure)[2]


def _flat(y: Any) -> list:
    if any(not isinstance(s, str) and isinstance(s, Sequence) for s in y):
        return [t for s in y for t in s]
    return list(y)


def accuracy_score(y_true: Any, y_pred: Any) -> float:
    """The share of positions whose tags are equal (seqeval's ``accuracy_score``)."""
    true, pred = _flat(y_true), _flat(y_pred)
    return sum(t == p for t, p in zip(true, pred, strict=False)) / len(true)  # as seqeval: up to the shorter


def performance_measure(y_true: Any, y_pred: Any) -> dict[str, int]:
    """Token-level TP, FP, FN, TN (seqeval's ``performance_measure``; see the module docstring)."""
    pairs = list(zip(_flat(y_true), _flat(y_pred), strict=False))
    return {
        "TP": sum(t == p for t, p in pairs if t != "O" or p != "O"),
        "FP": sum(t != p and p != "O" for t, p in pairs),
        "FN": sum(t != "O" and p == "O" for t, p in pairs),
        "TN": sum(t == p == "O" for t, p in pairs),
    }


def classification_report(y_true: Any, y_pred: Any, digits: int = 2, suffix: bool = False,
                          output_dict: bool = False, mode: str | None = None, sample_weight: Any = None,
                          zero_division: Any = "warn", scheme: Any = None, *,
                          measure: str = "strict") -> str | dict[str, dict[str, Any]]:
    """seqeval's ``classification_report``: a row per type, then the micro, macro and weighted averages.

    The text is seqeval's, character for character; ``output_dict=True`` gives
    ``{type or "micro avg"...: {"precision", "recall", "f1-score", "support"}}``.
    ``mode="strict"`` without a scheme detects it (as seqeval).
    """
    _check_measure(measure)
    zero_division = _check_zero_division(zero_division)
    ev = _evaluation(y_true, y_pred, mode=mode, scheme=scheme, suffix=suffix, report=True)
    undefined: list[str] = []
    rows: list[tuple[str, float, float, float, int]] = []
    warn_for = ("precision", "recall", "f-score")
    p, r, f, s = _figures(ev, measure, average=None, beta=1.0, zero_division=zero_division, warn_for=warn_for,
                          undefined=undefined)
    rows = [(name, float(a), float(b), float(c), int(d)) for name, a, b, c, d in zip(ev.labels, p, r, f, s,
                                                                                    strict=True)]
    averages = []
    for average in ("micro", "macro", "weighted"):
        a, b, c, d = _figures(ev, measure, average=average, beta=1.0, zero_division=zero_division,
                              warn_for=warn_for, undefined=undefined)
        averages.append((f"{average} avg", float(a), float(b), float(c), int(d)))
    _warn(undefined, zero_division)
    if output_dict:
        return {name: {"precision": a, "recall": b, "f1-score": c, "support": d}
                for name, a, b, c, d in rows + averages}
    if not rows:
        raise ValueError("classification_report: neither y_true nor y_pred has an entity, so there is no row "
                         "(seqeval fails here too); use output_dict=True")
    width = max(max(len(name) for name, *_ in rows), len("weighted avg"), digits)
    head = f"{'':>{width}s} " + "".join(f" {h:>9}" for h in ("precision", "recall", "f1-score", "support"))

    def line(row: tuple[str, float, float, float, int]) -> str:
        name, a, b, c, d = row
        return f"{name:>{width}s} " + "".join(f" {v:>9.{digits}f}" for v in (a, b, c)) + f" {d:>9}"

    return head + "\n\n" + "\n".join([*map(line, rows), "", *map(line, averages), ""])


def semeval_report(y_true: Any, y_pred: Any, *, suffix: bool = False, mode: str | None = None,
                   scheme: Any = None, zero_division: Any = 0, beta: float = 1.0) -> dict[str, Any]:
    """What seqeval lacks: the MUC figures and the four SemEval-2013 schemas, from the same pairs.

    Returns ``{"overall": {...}, "by_type": {type: {...}}}``, each ``{...}``
    holding ``"muc"`` (COR, PAR, INC, MIS, SPU, POS, ACT, precision, recall,
    f1-score; Chinchor 1992) and ``"strict"``, ``"exact"``, ``"partial"``,
    ``"type"`` (SemEval-2013 task 9.1, names as in nervaluate; see
    :func:`~spacy_anno_eval.spans.measures.semeval_prf`), and GATE's
    ``"gate"`` strict / lenient / average precision, recall and F. Decoding as
    the other functions (``mode``, ``scheme``, ``suffix``). ``beta`` as in
    :func:`precision_recall_fscore_support`: a number >= 0 or ``inf``, else a
    :class:`~spacy_anno_eval.errors.ConfigError`.
    """
    import numpy as np

    from .figures import check_beta
    from .spans.measures import gate_prf, muc_prf, semeval_prf

    beta = check_beta(beta)
    zero_division = _check_zero_division(zero_division)
    zd = _zd_value(zero_division)
    ev = _evaluation(y_true, y_pred, mode=mode, scheme=scheme, suffix=suffix)
    total = ev.by_type.sum(axis=0) if len(ev.labels) else np.zeros(ev.by_type.shape[-1], dtype=np.int64)

    def block(raw: Any) -> dict[str, Any]:
        def named(d: dict[str, Any]) -> dict[str, Any]:
            rename = {"p": "precision", "r": "recall", "f": "f1-score" if beta == 1 else "f-score"}
            return {rename.get(k, k): (float(v) if k in rename else int(v)) for k, v in d.items()}

        out = {"muc": named(muc_prf(raw, beta, zd))}
        out.update({k: named(v) for k, v in semeval_prf(raw, beta, zd).items()})
        out["gate"] = {k: named(v) for k, v in gate_prf(raw, beta, zd).items()}
        return out

    return {"overall": block(total), "by_type": {name: block(ev.by_type[i]) for i, name in enumerate(ev.labels)}}
