"""A second-order hidden Markov model as Brants' TnT (2000): trigram transitions, deleted interpolation.

Brants & Skut (1998, section 3.1) tag grammatical functions the way TnT tags
words: the *states* of the model are the labels (tags, functions), the
*outputs* what is seen (words, the children's categories). For outputs
``w_1..w_T`` and states ``t_1..t_T`` (TnT, Brants 2000, equation 1, with the
end transition as NLTK's ``nltk.tag.tnt.TnT`` scores it)::

    P(t, w) = prod_i P(t_i | t_{i-2}, t_{i-1}) P(w_i | t_i)  *  P(EOS | t_{T-1}, t_T)

with ``t_{-1} = t_0 = BOS``. Counts (one training sequence: ``BOS BOS t_1 ..
t_T EOS``; EOS is an ordinary next state in the unigram, bigram and trigram
counts, BOS only ever a context, an empty sequence counts nothing)::

    P(t3 | t1, t2) = l1 f(t3)/N + l2 f(t2, t3)/f(t2, .) + l3 f(t1, t2, t3)/f(t1, t2, .)

where ``N`` is the number of unigram events (states and EOS) and ``f(x, .)``
the number of times ``x`` is a context; a term whose context was never seen
is 0. The weights come from **deleted interpolation** (TnT, section 2.2,
figure 1): for every trigram ``(t1, t2, t3)`` with ``f(t1, t2, t3) > 0``::

    c1 = (f(t3) - 1) / (N - 1)
    c2 = (f(t2, t3) - 1) / (f(t2, .) - 1)
    c3 = (f(t1, t2, t3) - 1) / (f(t1, t2, .) - 1)

(a zero denominator makes its ``c`` 0), and ``f(t1, t2, t3)`` is added to the
weight of the largest ``c``; a tie splits it evenly between the tied weights
(NLTK's rule; Brants adds it to one). The weights are then normalised to sum
to 1 (all 0 when no trigram was seen). Emissions are relative frequencies,
``P(w | t) = f(w, t) / f(t)``.

Decisions NLTK's TnT makes and this model keeps, so that the two agree (see
``tests/trees/test_tnt_nltk.py``): probabilities are taken in log base 2 and
a probability at or below ``1e-300`` counts as ``1e-300`` (NLTK's
``_safe_log2``: with ``l1 = 0`` an unseen transition has probability 0); a
*known* output is only tagged with the states it was seen with (TnT's
lexicon).

**Unseen outputs** (the stated rule): an output never seen in training has
``P(w | t) = 1 / (n + 1)`` for every state ``t`` seen in training, ``n`` the
number of training outputs -- as if it had been seen once, with the same
probability under every state, so that its state is chosen by the
transitions alone. That is what NLTK's TnT does when its suffix model
matches no suffix of the word (every tag then scores 1); NLTK's default
suffix model (Brants' section 2.3) reads the last letters of a *word*, which
mean nothing for category labels, so the comparison with NLTK empties its
suffix tries (no suffix matches). :meth:`TrigramHMM.log_prob` scores any
state sequence, also one with a state never seen with its output: that
zero is floored at ``1e-300`` like a transition.

The tables are numpy arrays: ``state x state x state`` transitions (log2),
``state x output`` emissions; Viterbi works on the pair lattice ``(t_{i-1},
t_i)`` (TnT's second-order Viterbi) without a beam (NLTK's beam is made wide
enough to prune nothing).

>>> m = TrigramHMM.fit([[("the", "D"), ("dog", "N")], [("a", "D"), ("cat", "N")], [("dog", "N")]])
>>> m.tag(["the", "cat"]), m.tag(["the", "mouse"])
(['D', 'N'], ['D', 'N'])
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from ..errors import InputError

#: the probability floor of NLTK's TnT (``_safe_log2``): log2(1e-300)
LOG2_FLOOR = math.log2(1e-300)
LN2 = math.log(2.0)


@dataclass
class Counts:
    """The counts of a model over ``S`` states and ``O`` outputs. State indices: ``0..S-1`` the states,
    ``S`` an unseen state (never counted), ``S+1`` BOS, ``S+2`` EOS (``K = S + 3``). ``uni`` (K,), ``bi``
    (K, K), ``tri`` (K, K, K), ``emit`` (K, O). Counts add and subtract (cross-validation)."""

    uni: np.ndarray
    bi: np.ndarray
    tri: np.ndarray
    emit: np.ndarray

    @classmethod
    def zeros(cls, n_states: int, n_outputs: int) -> Counts:
        k = n_states + 3
        return cls(np.zeros(k), np.zeros((k, k)), np.zeros((k, k, k)), np.zeros((k, n_outputs)))

    def __add__(self, other: Counts) -> Counts:
        return Counts(self.uni + other.uni, self.bi + other.bi, self.tri + other.tri, self.emit + other.emit)

    def __sub__(self, other: Counts) -> Counts:
        return Counts(self.uni - other.uni, self.bi - other.bi, self.tri - other.tri, self.emit - other.emit)


def windows(states: np.ndarray, lengths: np.ndarray, n_states: int) -> tuple[np.ndarray, ...]:
    """The trigrams ``(a, b, c)`` of flat state sequences (``lengths`` of them, each > 0) padded ``BOS BOS s_1
    .. s_T EOS`` (``T + 1`` trigrams each, the last one ending in EOS), and the sequence of each trigram."""
    bos, eos = n_states + 1, n_states + 2
    n = len(lengths)
    seq_of_token = np.repeat(np.arange(n), lengths)
    # the padded stream: every sequence's states shifted by 2 per earlier sequence and 3 per own start
    padded_len = lengths + 3
    starts = np.concatenate(([0], np.cumsum(padded_len)[:-1])).astype(np.int64)
    padded = np.full(int(padded_len.sum()), bos, dtype=np.int64)
    token_start = np.concatenate(([0], np.cumsum(lengths)[:-1])).astype(np.int64)
    pos = starts[seq_of_token] + 2 + (np.arange(len(states)) - token_start[seq_of_token])
    padded[pos] = states
    padded[starts + padded_len - 1] = eos
    per = lengths + 1
    seq_of_window = np.repeat(np.arange(n), per)
    first = starts[seq_of_window] + (np.arange(int(per.sum())) - np.repeat(np.cumsum(per) - per, per))
    return padded[first], padded[first + 1], padded[first + 2], seq_of_window


def count_flat(outputs: np.ndarray, states: np.ndarray, lengths: np.ndarray, n_states: int,
               n_outputs: int) -> Counts:
    """The counts of flat index sequences (outputs ``0..O-1``, or ``O`` for an unseen one; states
    ``0..S-1``, or ``S`` for an unseen one; ``lengths`` per sequence), vectorised: every sequence padded
    ``BOS BOS s_1 .. s_T EOS`` and cut into its ``T + 1`` trigrams. Empty sequences count nothing."""
    k = n_states + 3
    outputs = np.asarray(outputs, dtype=np.int64)
    states = np.asarray(states, dtype=np.int64)
    lengths = np.asarray(lengths, dtype=np.int64)
    lengths = lengths[lengths > 0]
    counts = Counts.zeros(n_states, n_outputs)
    if not len(lengths):
        return counts
    a, b, c, _ = windows(states, lengths, n_states)
    counts.uni = np.bincount(c, minlength=k).astype(float)
    counts.bi = np.bincount(b * k + c, minlength=k * k).astype(float).reshape(k, k)
    counts.tri = np.bincount((a * k + b) * k + c, minlength=k ** 3).astype(float).reshape(k, k, k)
    known = outputs < n_outputs
    counts.emit = np.bincount(states[known] * n_outputs + outputs[known],
                              minlength=k * n_outputs).astype(float).reshape(k, n_outputs)
    return counts


def count_sequences(sequences: Sequence[tuple[np.ndarray, np.ndarray]], n_states: int, n_outputs: int) -> Counts:
    """:func:`count_flat` of a list of index sequences ``(outputs, states)``."""
    seqs = [(o, s) for o, s in sequences if len(s)]
    if not seqs:
        return Counts.zeros(n_states, n_outputs)
    return count_flat(np.concatenate([o for o, _ in seqs]), np.concatenate([s for _, s in seqs]),
                      np.array([len(s) for _, s in seqs]), n_states, n_outputs)


def deleted_interpolation(counts: Counts) -> tuple[float, float, float]:
    """``(l1, l2, l3)`` by deleted interpolation (TnT, Brants 2000, section 2.2), ties split evenly and zero
    denominators giving 0, as NLTK's ``TnT._compute_lambda`` (see the module docstring)."""
    a, b, c = np.nonzero(counts.tri > 0)
    if not len(a):
        return 0.0, 0.0, 0.0
    f = counts.tri[a, b, c]
    n1 = counts.uni.sum() - 1
    bctx = counts.bi.sum(axis=1)[b] - 1
    tctx = counts.tri.sum(axis=2)[a, b] - 1
    c1 = (counts.uni[c] - 1) / n1 if n1 else np.zeros(len(a))
    c2 = np.divide(counts.bi[b, c] - 1, bctx, out=np.zeros(len(a)), where=bctx != 0)
    c3 = np.divide(f - 1, tctx, out=np.zeros(len(a)), where=tctx != 0)
    best = np.maximum(np.maximum(c1, c2), c3)
    wins = np.stack([c1 == best, c2 == best, c3 == best])
    share = f / wins.sum(axis=0)
    mass = (wins * share).sum(axis=1)
    total = mass.sum()
    if total <= 0:
        return 0.0, 0.0, 0.0
    return float(mass[0] / total), float(mass[1] / total), float(mass[2] / total)


class _Tables(NamedTuple):
    """A model's log2 tables (:meth:`TrigramHMM._prepare`): ``trans`` (K, K, K) over ``(t1, t2, t3)``, EOS
    included as ``t3``; ``emit_score`` (K, O) with zeros floored (scoring), ``emit_tag`` with zeros ``-inf``
    (tagging: TnT's lexicon); ``unk`` the log2 probability of an unseen output; ``live`` the states seen in
    training; ``reduced`` (live + BOS, live + BOS, live) and ``reduced_eos`` (live + BOS, live + BOS) the
    transitions among them; ``known`` which outputs were seen."""

    trans: np.ndarray
    emit_score: np.ndarray
    emit_tag: np.ndarray
    unk: float
    live: np.ndarray
    reduced: np.ndarray
    reduced_eos: np.ndarray
    known: np.ndarray


def _log2_floor(p: np.ndarray) -> np.ndarray:
    """log2 with NLTK's floor: ``log2(p)`` for ``p > 1e-300``, else ``log2(1e-300)``."""
    out = np.full(np.shape(p), LOG2_FLOOR)
    np.log2(p, out=out, where=p > 1e-300)
    return out


class TrigramHMM:
    """TnT's trigram HMM (see the module docstring). Build it with :meth:`fit` (sequences of ``(output,
    state)`` pairs) or :meth:`from_counts`; ``states`` and ``outputs`` are the vocabularies (sorted by
    :meth:`fit`), ``lambdas`` the deleted-interpolation weights."""

    def __init__(self, states: Sequence[str], outputs: Sequence[str], counts: Counts):
        self.states = tuple(states)
        self.outputs = tuple(outputs)
        self.counts = counts
        self._state_index = {s: i for i, s in enumerate(self.states)}
        self._output_index = {o: i for i, o in enumerate(self.outputs)}
        self.lambdas = deleted_interpolation(counts)
        self._tables: _Tables | None = None

    # -- building -------------------------------------------------------------------------------------------

    @classmethod
    def fit(cls, sequences: Iterable[Sequence[tuple[str, str]]]) -> TrigramHMM:
        """Train on sequences of ``(output, state)`` pairs (NLTK's ``(word, tag)``)."""
        seqs = [list(s) for s in sequences]
        for n, seq in enumerate(seqs):
            for pair in seq:
                if not (isinstance(pair, (tuple, list)) and len(pair) == 2):
                    raise InputError(f"training sequence {n + 1}: {pair!r} is not an (output, state) pair")
        states = sorted({s for seq in seqs for _, s in seq})
        outputs = sorted({o for seq in seqs for o, _ in seq})
        si = {s: i for i, s in enumerate(states)}
        oi = {o: i for i, o in enumerate(outputs)}
        outs = np.array([oi[o] for seq in seqs for o, _ in seq], dtype=np.int64)
        sts = np.array([si[s] for seq in seqs for _, s in seq], dtype=np.int64)
        return cls(states, outputs, count_flat(outs, sts, np.array([len(seq) for seq in seqs]), len(states),
                                               len(outputs)))

    @classmethod
    def from_counts(cls, states: Sequence[str], outputs: Sequence[str], counts: Counts) -> TrigramHMM:
        """A model from counts made by :func:`count_sequences` over these vocabularies."""
        return cls(states, outputs, counts)

    @property
    def n_states(self) -> int:
        return len(self.states)

    @property
    def trained(self) -> bool:
        """Whether any sequence was counted."""
        return bool(self.counts.uni.sum() > 0)

    def _prepare(self) -> _Tables:
        """The log2 tables, computed once: transitions ``(K, K, K)`` (last axis: next state, EOS included),
        emissions ``(K, O)`` with 0 -> the floor (scoring) and with 0 -> -inf (tagging: TnT's lexicon), the
        unseen-output log2 probability, and the seen (live) states."""
        if self._tables is not None:
            return self._tables
        cnt = self.counts
        s = self.n_states
        eos = s + 2
        l1, l2, l3 = self.lambdas
        n = cnt.uni.sum()
        bctx = cnt.bi.sum(axis=1)
        tctx = cnt.tri.sum(axis=2)
        inv_n = 1.0 / n if n else 0.0
        inv_b = np.divide(1.0, bctx, out=np.zeros_like(bctx), where=bctx != 0)
        inv_t = np.divide(1.0, tctx, out=np.zeros_like(tctx), where=tctx != 0)
        # the operations in NLTK's order (its transition cache), so that the floats are the same
        uni_part = l1 * (cnt.uni * inv_n)
        p = (uni_part[None, None, :] + (l2 * cnt.bi)[None, :, :] * inv_b[None, :, None]) + \
            (l3 * cnt.tri) * inv_t[:, :, None]
        # EOS as NLTK's decoder scores it: l1 f(EOS)/N + l2 f(t2, EOS)/f(t2, .) + l3 f(t1, t2, EOS)/f(t1, t2, .)
        p_uni = cnt.uni[eos] / n if n else 0.0
        p_bi = np.divide(cnt.bi[:, eos], bctx, out=np.zeros_like(bctx), where=bctx != 0)
        p_tri = np.divide(cnt.tri[:, :, eos], tctx, out=np.zeros_like(tctx), where=tctx != 0)
        p[:, :, eos] = (l1 * p_uni + l2 * p_bi[None, :]) + l3 * p_tri
        trans = _log2_floor(p)
        seen = cnt.uni[:s] > 0
        n_out = cnt.uni[:s].sum()
        unk = math.log2(1.0 / (n_out + 1.0))
        denom = cnt.uni[:, None]
        emit_p = np.divide(cnt.emit, denom, out=np.zeros_like(cnt.emit), where=denom > 0)
        emit_score = _log2_floor(emit_p)
        emit_tag = np.full(cnt.emit.shape, -np.inf)
        np.log2(emit_p, out=emit_tag, where=emit_p > 0)
        live = np.flatnonzero(seen)
        ctx = np.concatenate((live, [s + 1]))
        reduced = trans[np.ix_(ctx, ctx, live)]
        reduced_eos = trans[np.ix_(ctx, ctx, [eos])][:, :, 0]
        known = cnt.emit.sum(axis=0) > 0
        self._tables = _Tables(trans, emit_score, emit_tag, unk, live, reduced, reduced_eos, known)
        return self._tables

    # -- scoring --------------------------------------------------------------------------------------------

    def _index_outputs(self, outputs: Sequence[str]) -> np.ndarray:
        o = len(self.outputs)
        return np.array([self._output_index.get(w, o) for w in outputs], dtype=np.int64)

    def _index_states(self, states: Sequence[str]) -> np.ndarray:
        s = self.n_states
        return np.array([self._state_index.get(t, s) for t in states], dtype=np.int64)

    def log2_batch(self, outputs: np.ndarray, states: np.ndarray, lengths: np.ndarray, *,
                   end: bool = True) -> np.ndarray:
        """The log2 probability of each of several flat index sequences (see :func:`count_flat`; every
        length > 0), vectorised: the sum of its transitions (with the end transition when ``end``) and
        emissions."""
        tb = self._prepare()
        trans, emit_score, unk, known_col = tb.trans, tb.emit_score, tb.unk, tb.known
        outputs = np.asarray(outputs, dtype=np.int64)
        states = np.asarray(states, dtype=np.int64)
        lengths = np.asarray(lengths, dtype=np.int64)
        a, b, c, seq = windows(states, lengths, self.n_states)
        t = trans[a, b, c]
        if not end:
            t = np.where(c == self.n_states + 2, 0.0, t)
        n_out = len(self.outputs)
        inside = outputs < n_out
        safe = np.where(inside, outputs, 0)
        known = inside & known_col[safe] if n_out else inside
        e = emit_score[states, safe] if n_out else np.full(len(states), LOG2_FLOOR)
        # an unseen output: 1/(n+1) under a state seen in training, the floor under any other
        e = np.where(known, e, np.where(self.counts.uni[states] > 0, unk, LOG2_FLOOR))
        n = len(lengths)
        return (np.bincount(seq, weights=t, minlength=n) +
                np.bincount(np.repeat(np.arange(n), lengths), weights=e, minlength=n))

    def log_prob(self, outputs: Sequence[str], states: Sequence[str], *, end: bool = True) -> float:
        """``ln P(states, outputs)``: the product of the module docstring, starting from ``BOS BOS``, with the
        end transition ``P(EOS | t_{T-1}, t_T)`` when ``end`` (as NLTK's TnT); natural log. Zero probabilities
        count as ``1e-300``; an unseen state has zero counts."""
        if len(outputs) != len(states):
            raise InputError(f"{len(outputs)} outputs but {len(states)} states")
        if not len(states):  # the end transition straight from BOS BOS (never trained: NLTK counts no empty one)
            s = self.n_states
            return float(self._prepare().trans[s + 1, s + 1, s + 2] * LN2) if end else 0.0
        return float(self.log2_batch(self._index_outputs(outputs), self._index_states(states),
                                     np.array([len(states)]), end=end)[0] * LN2)

    # -- decoding -------------------------------------------------------------------------------------------

    def _emission_columns(self, outputs: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
        """Per position, the log2 emission of each live state (tagging: TnT's lexicon for known outputs)."""
        tb = self._prepare()
        emit_tag, unk, live, known = tb.emit_tag, tb.unk, tb.live, tb.known
        idx = self._index_outputs(outputs)
        cols = np.empty((len(idx), len(live)))
        for i, o in enumerate(idx):
            cols[i] = emit_tag[live, o] if o < len(self.outputs) and known[o] else unk
        return idx, cols

    def _forward(self, cols: np.ndarray) -> tuple[list[np.ndarray], list[np.ndarray]]:
        """Viterbi forward over the pair lattice: per position ``delta[b, c]`` (``b``: context index among the
        live states + BOS, ``c``: live state) and the back-pointers."""
        live, reduced = self._prepare().live, self._prepare().reduced
        m = len(live)
        delta = np.full((m + 1, m + 1), -np.inf)
        delta[m, m] = 0.0
        deltas, backs = [], []
        for col in cols:
            cand = delta[:, :, None] + (reduced + col[None, None, :])
            backs.append(cand.argmax(axis=0))
            step = cand.max(axis=0)
            deltas.append(step)
            delta = np.full((m + 1, m + 1), -np.inf)
            delta[:, :m] = step
        return deltas, backs

    def tag(self, outputs: Sequence[str]) -> list[str]:
        """The most probable state sequence (second-order Viterbi with the end transition, TnT's decoder)."""
        outputs = list(outputs)
        if not outputs:
            return []
        live, reduced_eos = self._prepare().live, self._prepare().reduced_eos
        if not len(live):
            raise InputError("the model was trained on no sequence; it cannot tag")
        m = len(live)
        _, cols = self._emission_columns(outputs)
        deltas, backs = self._forward(cols)
        final = deltas[-1] + reduced_eos[:, :m]
        b, c = np.unravel_index(int(np.argmax(final)), final.shape)
        path = [int(c)]
        if len(outputs) >= 2:
            path.append(int(b))
        for i in range(len(outputs) - 1, 1, -1):
            a = int(backs[i][b, c])
            path.append(a)
            b, c = a, b
        return [self.states[live[k]] for k in reversed(path)]

    def max_marginals(self, outputs: Sequence[str]) -> np.ndarray:
        """``(T, live)`` log2 probabilities: at each position, for each state seen in training, the probability
        of the best state sequence through that state there (Viterbi forward times Viterbi backward, end
        transition included). Its maximum in every row is the probability of :meth:`tag`'s sequence."""
        tb = self._prepare()
        live, reduced, reduced_eos = tb.live, tb.reduced, tb.reduced_eos
        m = len(live)
        _, cols = self._emission_columns(outputs)
        if not len(cols):
            return np.zeros((0, m))
        deltas, _ = self._forward(cols)
        beta = reduced_eos[:, :m]
        out = np.empty((len(cols), m))
        for i in range(len(cols) - 1, -1, -1):
            out[i] = (deltas[i] + beta).max(axis=0)
            if i:
                beta = (reduced[:, :m, :] + cols[i][None, None, :] + beta[None, :m, :]).max(axis=2)
        return out

    def alternatives(self, outputs: Sequence[str]) -> list[tuple[str, float, str, float]]:
        """Per position ``(best, ln P_best, second, ln P_second)`` (Brants & Skut 1998, section 3.5): the
        probability (natural log, joint with the outputs) of the best state sequence with ``best`` at that
        position -- the Viterbi sequence -- and of the best sequence with another state there (see
        :meth:`max_marginals`). ``second`` is ``""`` with ``-inf`` when no other state can emit the output."""
        live = self._prepare().live
        if len(outputs) and not len(live):
            raise InputError("the model was trained on no sequence; it has no alternatives")
        mm = self.max_marginals(outputs)
        out = []
        for row in mm:
            order = np.argsort(-row, kind="stable")
            best = int(order[0])
            second = int(order[1]) if len(order) > 1 and np.isfinite(row[order[1]]) else None
            out.append((self.states[live[best]], float(row[best] * LN2),
                        self.states[live[second]] if second is not None else "",
                        float(row[second] * LN2) if second is not None else -math.inf))
        return out

    def best_log_prob(self, outputs: Sequence[str]) -> float:
        """``ln max_G P(G, outputs)``: the probability of :meth:`tag`'s sequence (natural log)."""
        if not outputs:
            return 0.0
        return float(self.max_marginals(outputs)[0].max() * LN2)

    def __repr__(self) -> str:
        l1, l2, l3 = self.lambdas
        return (f"TrigramHMM({len(self.states)} states, {len(self.outputs)} outputs, "
                f"lambdas=({l1:.4f}, {l2:.4f}, {l3:.4f}))")


__all__ = ["LOG2_FLOOR", "Counts", "TrigramHMM", "count_flat", "count_sequences", "deleted_interpolation", "windows"]
