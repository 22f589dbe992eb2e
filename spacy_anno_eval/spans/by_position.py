"""Tokens paired by position, as conlleval pairs them, when a response re-spells some of the key's tokens.

conlleval.pl, seqeval and nervaluate compare tag sequences line by line: they never look at the
tokens. Character offsets do, so a CoNLL response that writes "get" where the key has "gt" (WNUT-17's
MIC-CIS submission) has another text, and :func:`~spacy_anno_eval.spans.engine.check_texts` would
refuse it. When both corpora were read from token-per-line files (:attr:`Corpus.tokens`) and every
paired document has the same sentences with the same number of tokens, :func:`pair_by_position`
moves the response's spans onto the key's text, token ``n`` of the response on token ``n`` of the
key, and warns once (:class:`~spacy_anno_eval.errors.TokenMismatchWarning`) with how many tokens
differ and the first one. Different sentence or token counts stay an error (:class:`InputError`).
"""

from __future__ import annotations

import dataclasses
import warnings

import numpy as np

from ..annotations.table import INDEX, Corpus, SpanTable, Tokens
from ..errors import InputError, TokenMismatchWarning, where


def _texts_differ(key: Corpus, response: Corpus, order: np.ndarray) -> bool:
    """Whether some key text differs from its response text (fingerprints first, as ``check_texts``)."""
    kf, rf = key.text_fingerprints, response.text_fingerprints
    same = None
    if kf is not None and rf is not None:
        same = np.asarray(kf) == np.asarray(rf)[order]
    return any(not (same is not None and same[i]) and key.texts[i] != response.texts[int(j)]
               for i, j in enumerate(order))


def _sentence_lengths(tokens: Tokens, doc: int) -> np.ndarray:
    """Token count of each sentence of document ``doc``."""
    a, b = int(tokens.doc_first[doc]), int(tokens.doc_first[doc + 1])
    lo, hi = np.searchsorted(tokens.sent_first, [a, b])
    return np.diff(np.append(tokens.sent_first[lo:hi], b))


def _check_counts(key: Corpus, response: Corpus, order: np.ndarray) -> None:
    """Raise :class:`InputError` at the first paired document whose sentences or token counts differ."""
    kt, rt = key.tokens, response.tokens
    assert kt is not None and rt is not None
    if np.array_equal(order, np.arange(len(key))) and np.array_equal(kt.doc_first, rt.doc_first) \
            and np.array_equal(kt.sent_first, rt.sent_first):
        return
    for i, j in enumerate(order):
        j = int(j)
        kl, rl = _sentence_lengths(kt, i), _sentence_lengths(rt, j)
        if np.array_equal(kl, rl):
            continue
        if len(kl) != len(rl):
            what = f"{len(kl)} sentences in the key but {len(rl)} in the response"
            line_k, line_r = kt.lines[kt.doc_first[i]], rt.lines[rt.doc_first[j]]
        else:
            s = int(np.flatnonzero(kl != rl)[0])
            what = f"sentence {s + 1} has {kl[s]} tokens in the key but {rl[s]} in the response"
            line_k = kt.lines[int(kt.doc_first[i]) + int(kl[:s].sum())]
            line_r = rt.lines[int(rt.doc_first[j]) + int(rl[:s].sum())]
        raise InputError(
            f"{where(key.source, key.doc_ids[i], int(line_k))}: the key text differs from the response text "
            f"({response.source or 'response'}, line {int(line_r)}) and {what}; tokens pair by position only "
            f"when every sentence has the same number of tokens on both sides")


def pair_by_position(key: Corpus, response: Corpus, order: np.ndarray) -> Corpus:
    """``response`` with its spans moved onto the key's texts by token position (see the module docstring).

    ``order[i]`` is the response document paired with key document ``i`` (a permutation). Returned
    unchanged when either corpus has no :attr:`~Corpus.tokens` or no text differs; otherwise a copy whose
    texts are the key's and whose spans start and end on the key's tokens, after one
    :class:`TokenMismatchWarning`.
    """
    kt, rt = key.tokens, response.tokens
    if kt is None or rt is None or response is key or len(order) != len(response) \
            or not _texts_differ(key, response, order):
        return response
    _check_counts(key, response, order)
    n_docs = len(response)
    inverse = np.empty(n_docs, dtype=INDEX)
    inverse[np.asarray(order, dtype=INDEX)] = np.arange(n_docs, dtype=INDEX)
    # response token t of document j is key token t + delta[j]
    delta = kt.doc_first[:-1][inverse] - rt.doc_first[:-1]
    r_doc = np.repeat(np.arange(n_docs, dtype=INDEX), np.diff(rt.doc_first))
    # a global position per character: documents laid end to end, one separator between them
    r_lengths = rt.end[rt.doc_first[1:] - 1] if len(rt.end) else np.zeros(0, dtype=INDEX)
    r_lengths = np.where(np.diff(rt.doc_first) > 0, r_lengths, 0)
    offset = np.concatenate(([0], np.cumsum(r_lengths + 1)[:-1])).astype(INDEX)
    g_start, g_end = offset[r_doc] + rt.start, offset[r_doc] + rt.end
    sets = {}
    for name, table in response.sets.items():
        sets[name] = _moved(table, key, response, name, kt, delta, offset, g_start, g_end)
    texts = [key.texts[int(i)] for i in inverse]
    lengths = key.lengths()[inverse]
    _warn_respelt(key, response, order)
    return dataclasses.replace(response, texts=texts, sets=sets, text_fingerprints=None, text_lengths=lengths,
                               tokens=None)


def _moved(table: SpanTable, key: Corpus, response: Corpus, name: str, kt: Tokens, delta: np.ndarray,
           offset: np.ndarray, g_start: np.ndarray, g_end: np.ndarray) -> SpanTable:
    """``table``'s spans on the key's tokens (raise when a span does not start and end on a token)."""
    if not len(table):
        return table
    s, e = offset[table.doc] + table.start, offset[table.doc] + table.end
    first = np.searchsorted(g_start, s)
    last = np.searchsorted(g_end, e)
    n = len(g_start)
    ok = (first < n) & (last < n)
    ok[ok] = (g_start[first[ok]] == s[ok]) & (g_end[last[ok]] == e[ok])
    if not ok.all():
        bad = int(np.flatnonzero(~ok)[0])
        span = (int(table.start[bad]), int(table.end[bad]))
        raise InputError(
            f"{where(response.source, response.doc_ids[int(table.doc[bad])], span=span)}: "
            f"set {name!r}: the span does not start and end on tokens, so it cannot be moved onto the key's "
            f"tokens ({key.source or 'key'}), whose text differs")
    k_first, k_last = first + delta[table.doc], last + delta[table.doc]
    return SpanTable(table.doc, kt.start[k_first], kt.end[k_last], table.label, table.labels, table.features)


def _warn_respelt(key: Corpus, response: Corpus, order: np.ndarray) -> None:
    """One :class:`TokenMismatchWarning`: how many tokens differ, and the first (file, line, both spellings)."""
    kt, rt = key.tokens, response.tokens
    assert kt is not None and rt is not None
    count, first = 0, None
    for i, j in enumerate(order):
        j = int(j)
        ktext, rtext = key.texts[i], response.texts[j]
        if ktext == rtext:
            continue
        ka, kb = int(kt.doc_first[i]), int(kt.doc_first[i + 1])
        ra = int(rt.doc_first[j])
        for t in range(kb - ka):
            kw = ktext[int(kt.start[ka + t]):int(kt.end[ka + t])]
            rw = rtext[int(rt.start[ra + t]):int(rt.end[ra + t])]
            if kw != rw:
                count += 1
                if first is None:
                    first = (int(kt.lines[ka + t]), kw, int(rt.lines[ra + t]), rw)
    if first is None:  # the texts differ only in the separators between tokens (not reached with CoNLL texts)
        return
    k_line, kw, r_line, rw = first
    s = "s" if count > 1 else ""
    warnings.warn(
        f"{response.source or 'response'}: {count} token{s} differ{'' if s else 's'} in spelling from the key "
        f"({key.source or 'key'}); tokens are paired by position, as conlleval does. The first: "
        f"{where(key.source or 'key', line=k_line)} {kw!r} vs {where(response.source or 'response', line=r_line)} "
        f"{rw!r}", TokenMismatchWarning, stacklevel=4)


__all__ = ["pair_by_position"]
