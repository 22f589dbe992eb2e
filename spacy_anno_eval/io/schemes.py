"""Tag schemes (IOB1, IOB2, IOE1, IOE2, IOBES, BILOU): tag sequences to spans, as conlleval.pl and seqeval do.

A tag is ``O`` or ``PREFIX-TYPE``; its prefix is coded as an integer
(:data:`O`, :data:`B`, :data:`I`, :data:`E`, :data:`S`, :data:`L`,
:data:`U`: :func:`prefix_of`), and :data:`ALLOWED` says which prefixes each
scheme allows. The decoders take one prefix code and one type id per token,
with the first and last token of every sentence, and give the first and last
token of every span, vectorised (numpy). The CoNLL reader
(:mod:`spacy_anno_eval.io.conll`) and seqeval's API
(:mod:`spacy_anno_eval.metrics`) both decode with them.

Decoding:

- default (:func:`decode_conlleval`; the CoNLL reader's ``strict=False``):
  the chunk start/end rules of conlleval.pl (``startOfChunk`` /
  ``endOfChunk``, 2004-01-26) as extended to E/S tags by seqeval's
  ``get_entities`` (``seqeval.metrics.sequence_labeling``), with BILOU's L
  read as E and U as S (:data:`FOLD`). An ``I-`` after ``O`` or after another
  type starts a new chunk. A scheme only restricts which prefixes are allowed
  (``auto`` allows B, I, E, S, L, U); the decoding is the same for all.
- strict (:func:`decode_strict`; ``strict=True``, which needs an explicit
  scheme): seqeval's strict mode (``seqeval.scheme.Tokens.entities``,
  ``mode="strict"``): an entity is a run that starts, continues and ends by
  the scheme's patterns; an ill-formed run (``I-ORG I-ORG`` in IOB2) yields
  no entity.

Schemes (:func:`normalise_scheme`): ``IOB1``, ``IOB2`` (alias ``BIO``),
``IOE`` (IOE1/IOE2 share one prefix set; in strict mode ``IOE``/``IOE2`` use
seqeval's IOE2 patterns and ``IOE1`` its IOE1 patterns), ``IOBES`` (alias
``BIOES``), ``BILOU`` (alias ``BILUO``), ``auto``.
"""

from __future__ import annotations

import numpy as np

from ..annotations.table import INDEX
from ..errors import InputError

# prefix codes; L and U are folded into E and S after validation
O, B, I, E, S, L, U = range(7)  # noqa: E741 -- the tag prefixes themselves
PREFIX_CODES = {"O": O, "B": B, "I": I, "E": E, "S": S, "L": L, "U": U}
N_PREFIX = 7
FOLD = np.array([O, B, I, E, S, E, S], dtype=np.int8)
INVALID = -1  # a tag that is neither "O" nor "P-TYPE"

ALLOWED = {
    "auto": {O, B, I, E, S, L, U},
    "IOB1": {O, B, I},
    "IOB2": {O, B, I},
    "IOE": {O, I, E},
    "IOE1": {O, I, E},
    "IOE2": {O, I, E},
    "IOBES": {O, B, I, E, S},
    "BILOU": {O, B, I, L, U},
}
ALIASES = {"BIO": "IOB2", "BIOES": "IOBES", "BILUO": "BILOU", "AUTO": "auto"}


# ---------------------------------------------------------------------------
# rule tables: indexed [prev_prefix, prefix, same_type]


def _conlleval_tables() -> tuple[np.ndarray, np.ndarray]:
    """conlleval.pl's ``endOfChunk`` / ``startOfChunk`` as boolean tables.

    ``end[p, c, same]``: a chunk ends between a token with prefix ``p`` and the
    next with prefix ``c``; ``start[p, c, same]``: a chunk starts at the token
    with prefix ``c``. ``same`` says whether the two types are equal (an ``O``
    has no type). Rules as in seqeval's ``end_of_chunk`` / ``start_of_chunk``,
    which add S (and end every chunk after E) to conlleval.pl 2004-01-26.
    """
    end = np.zeros((5, 5, 2), dtype=bool)
    start = np.zeros((5, 5, 2), dtype=bool)
    for p in range(5):
        for c in range(5):
            for same in (0, 1):
                end[p, c, same] = (
                    p in (E, S)
                    or (p in (B, I) and c in (B, S, O))
                    or (p != O and not same)
                )
                start[p, c, same] = (
                    c in (B, S)
                    or (p in (E, S, O) and c in (E, I))
                    or (c != O and not same)
                )
    return end, start


CONLLEVAL_END, CONLLEVAL_START = _conlleval_tables()

# seqeval.scheme patterns: (prev prefixes, current prefixes, "same" | "diff" | "any")
_ANY = {O, B, I, E, S, L, U}
_SEQEVAL_PATTERNS: dict[str, dict[str, list[tuple[set[int], set[int], str]]]] = {
    "IOB1": {
        "start": [({O}, {I}, "any"), ({I}, {I}, "diff"), ({B}, {I}, "any"), ({I}, {B}, "same"),
                  ({B}, {B}, "same")],
        "inside": [({B}, {I}, "same"), ({I}, {I}, "same")],
        "end": [({I}, {I}, "diff"), ({I}, {O}, "any"), ({I}, {B}, "any"), ({B}, {O}, "any"),
                ({B}, {I}, "diff"), ({B}, {B}, "same")],
    },
    "IOE1": {
        "start": [({O}, {I}, "any"), ({I}, {I}, "diff"), ({E}, {I}, "any"), ({E}, {E}, "same")],
        "inside": [({I}, {I}, "same"), ({I}, {E}, "same")],
        "end": [({I}, {I}, "diff"), ({I}, {O}, "any"), ({I}, {E}, "diff"), ({E}, {I}, "same"),
                ({E}, {E}, "same")],
    },
    "IOB2": {
        "start": [(_ANY, {B}, "any")],
        "inside": [({B}, {I}, "same"), ({I}, {I}, "same")],
        "end": [({I}, {O}, "any"), ({I}, {I}, "diff"), ({I}, {B}, "any"), ({B}, {O}, "any"),
                ({B}, {I}, "diff"), ({B}, {B}, "any")],
    },
    "IOE2": {
        "start": [({O}, {I}, "any"), ({O}, {E}, "any"), ({E}, {I}, "any"), ({E}, {E}, "any"),
                  ({I}, {I}, "diff"), ({I}, {E}, "diff")],
        "inside": [({I}, {E}, "same"), ({I}, {I}, "same")],
        "end": [({E}, _ANY, "any")],
    },
    "IOBES": {
        "start": [(_ANY, {B}, "any"), (_ANY, {S}, "any")],
        "inside": [({B}, {I}, "same"), ({B}, {E}, "same"), ({I}, {I}, "same"), ({I}, {E}, "same")],
        "end": [({S}, _ANY, "any"), ({E}, _ANY, "any")],
    },
    "BILOU": {
        "start": [(_ANY, {B}, "any"), (_ANY, {U}, "any")],
        "inside": [({B}, {I}, "same"), ({B}, {L}, "same"), ({I}, {I}, "same"), ({I}, {L}, "same")],
        "end": [({U}, _ANY, "any"), ({L}, _ANY, "any")],
    },
}
_SEQEVAL_PATTERNS["IOE"] = _SEQEVAL_PATTERNS["IOE2"]


def _pattern_table(patterns: list[tuple[set[int], set[int], str]]) -> np.ndarray:
    """A seqeval pattern set (``Token.check_patterns``) as a [prev, cur, same] table."""
    table = np.zeros((N_PREFIX, N_PREFIX, 2), dtype=bool)
    for prevs, curs, cond in patterns:
        sames = {"same": (1,), "diff": (0,), "any": (0, 1)}[cond]
        for p in prevs:
            for c in curs:
                for same in sames:
                    table[p, c, same] = True
    return table


SEQEVAL_TABLES = {name: {k: _pattern_table(v) for k, v in pats.items()}
                  for name, pats in _SEQEVAL_PATTERNS.items()}


# ---------------------------------------------------------------------------
# decoding


def normalise_scheme(scheme: str, source: str) -> str:
    """The canonical name of ``scheme`` (case-insensitive, aliases resolved); an unknown name is an
    :class:`~spacy_anno_eval.errors.InputError` naming ``source`` and listing the schemes.

    >>> normalise_scheme("bio", "x.conll"), normalise_scheme("BILUO", "x.conll")
    ('IOB2', 'BILOU')
    """
    upper = str(scheme).upper()
    name = ALIASES.get(upper, upper)
    if name not in ALLOWED:
        raise InputError(f"{source}: unknown tagging scheme {scheme!r}; use one of "
                         f"auto, IOB1, IOB2, IOE, IOE1, IOE2, IOBES, BILOU")
    return name


def prefix_of(tag: str) -> int:
    """The prefix code of ``tag`` (``O``, or ``P-TYPE`` with ``P`` one of B, I, E, S, L, U), else :data:`INVALID`.

    >>> prefix_of("O") == O, prefix_of("B-PER") == B, prefix_of("U-LOC") == U, prefix_of("B-") == INVALID
    (True, True, True, True)
    """
    if tag == "O":
        return O
    if len(tag) >= 3 and tag[1] == "-" and tag[0] in PREFIX_CODES and tag[0] != "O":
        return PREFIX_CODES[tag[0]]
    return INVALID


def _neighbours(prefix: np.ndarray, types: np.ndarray, sent_first: np.ndarray,
                sent_last: np.ndarray) -> tuple[np.ndarray, ...]:
    """Previous / next prefix and "same type" flags; sentence edges see an ``O``."""
    prev_p = np.empty_like(prefix)
    prev_p[1:] = prefix[:-1]
    prev_p[sent_first] = O
    next_p = np.empty_like(prefix)
    next_p[:-1] = prefix[1:]
    next_p[sent_last] = O
    same_prev = np.zeros(len(prefix), dtype=np.int8)
    same_prev[1:] = (types[1:] == types[:-1]) & (types[1:] >= 0)
    same_prev[sent_first] = 0
    same_next = np.zeros(len(prefix), dtype=np.int8)
    same_next[:-1] = same_prev[1:]
    same_next[sent_last] = 0
    return prev_p, next_p, same_prev, same_next


def decode_conlleval(prefix: np.ndarray, types: np.ndarray, sent_first: np.ndarray,
                     sent_last: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """First and last token of every chunk by conlleval.pl's rules, vectorised.

    ``prefix`` holds folded codes (O, B, I, E, S); a chunk starts at token ``i``
    when ``startOfChunk(prev, cur)`` holds, and ends at ``i`` when
    ``endOfChunk(cur, next)`` holds (a sentence is closed by an ``O``, as in
    conlleval.pl and seqeval's ``get_entities``). With valid prefixes every
    start is matched by the next end, so the two lists pair in order.
    """
    if not len(prefix):
        z = np.zeros(0, dtype=INDEX)
        return z, z
    prev_p, next_p, same_prev, same_next = _neighbours(prefix, types, sent_first, sent_last)
    starts = np.flatnonzero(CONLLEVAL_START[prev_p, prefix, same_prev] & (prefix != O))
    ends = np.flatnonzero(CONLLEVAL_END[prefix, next_p, same_next] & (prefix != O))
    if len(starts) != len(ends):  # cannot happen with O/B/I/E/S prefixes; guard the invariant
        raise AssertionError("conlleval decoding: unmatched chunk boundaries")
    return starts.astype(INDEX), ends.astype(INDEX)


def decode_strict(prefix: np.ndarray, types: np.ndarray, sent_first: np.ndarray,
                  sent_last: np.ndarray, scheme: str) -> tuple[np.ndarray, np.ndarray]:
    """First and last token of every entity by seqeval's strict mode.

    Follows ``seqeval.scheme.Tokens.entities``: scanning left to right, a
    token that ``is_start`` (by the scheme's start patterns, given the previous
    token) opens a run that goes on while tokens are ``is_inside``; the run is
    an entity only when the token after it ``is_end``; scanning resumes after
    the run. ``prefix`` holds unfolded codes (L and U kept).
    """
    if not len(prefix):
        z = np.zeros(0, dtype=INDEX)
        return z, z
    tables = SEQEVAL_TABLES[scheme]
    n = len(prefix)
    prev_p, _, same_prev, _ = _neighbours(prefix, types, sent_first, sent_last)
    is_start = tables["start"][prev_p, prefix, same_prev]
    inside = tables["inside"][prev_p, prefix, same_prev]
    inside[sent_first] = False  # a sentence's first token continues nothing
    # a run goes from a start to the next token that is not inside (at the latest,
    # the first token of the next sentence, which continues nothing)
    breaks = np.append(np.flatnonzero(~inside), n)
    cand = np.flatnonzero(is_start)
    run_end = breaks[np.searchsorted(breaks, cand, side="right")]
    # a candidate inside an earlier candidate's run is skipped by the scan: it
    # shares that run's end, so keep the first candidate of each run end
    _, first = np.unique(run_end, return_index=True)
    cand, run_end = cand[first], run_end[first]
    last = run_end - 1
    # the token after the run (a sentence's closing "O" after its last token) must end it
    closes_sentence = np.isin(last, sent_last)
    nxt = np.where(closes_sentence, O, prefix[np.minimum(run_end, n - 1)])
    same = (~closes_sentence) & (nxt != O) & (types[np.minimum(run_end, n - 1)] == types[last])
    ok = tables["end"][prefix[last], nxt, same.astype(np.int8)]
    starts_out, ends_out = cand[ok], last[ok]
    return starts_out.astype(INDEX), ends_out.astype(INDEX)


__all__ = ["ALIASES", "ALLOWED", "CONLLEVAL_END", "CONLLEVAL_START", "FOLD", "INVALID", "N_PREFIX", "PREFIX_CODES",
           "SEQEVAL_TABLES", "B", "E", "I", "L", "O", "S", "U", "decode_conlleval", "decode_strict",
           "normalise_scheme", "prefix_of"]
