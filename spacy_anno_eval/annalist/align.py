"""ANNALIST alignment: pairing annotations by offsets, by section or by order of occurrence; greedy or DP.

Demetriou, Gaizauskas, Sun & Roberts (2008), "ANNALIST: ANNotation ALIgnment
and Scoring Tool", LREC, sections 4-6. A :class:`Mention` is an annotation
with a name (label), a value (its text), an identifier, and optionally
character offsets and a section. Key and response mentions pair only within a
document, with the same name (ANNALIST's constraint), and:

- ``level="offset"``: only overlapping mentions (offsets required);
- ``level="section"``: only mentions of the same section (a sentence,
  paragraph, or any ``section`` value the reader gives);
- ``level="order"``: no positions; mentions in order of occurrence.

**Match classes.** With offsets: coextensive = correct; overlapping =
partial (``match="inclusive"``) or incorrect (``"strict"``). Without: equal
values = correct; one value containing the other as whole tokens = partial
(inclusive) or incorrect (strict); anything else = incorrect.
``anchor_text=True`` (order level, texts given) first places each mention at
the next occurrence of its value in the document text after the previous mention,
in order of occurrence over all names, and classifies by those positions — how the DP
recovers the seed's McCain/Obama alignment.

**Greedy** (MUC style, Douthat 1998; at the section and order levels it
scores every pair of a group, so it suits sections, not whole long
documents): every candidate pair gets a score (the
token F-score of the two values; by offsets: 1 correct, 0.5 partial), pairs are
sorted by score (then document order) and taken from the top when both are
still free. **DP**: order-preserving global alignment per document, section
and name (:func:`spacy_anno_eval.annalist.dp.dp_align`; match scores
correct / partial / incorrect, a gap penalty). **Optimal** (offset level):
the core engine's pairing (:mod:`spacy_anno_eval.spans.align`).

**The DP objective** (``dp_objective``). ``"match"`` (the default): a pair
that matches, correct or partial, scores ``scores["correct"]``, a pair that
does not ``scores["incorrect"]``, and among equally scoring alignments each
pair is taken as early as possible (``dp_align(ties="early")``). The DP then
decides *which* key a response is, by order of occurrence; whether the match is
exact or partial is graded afterwards, on the chosen pairs. This is the
paper's point (seed section 5, Fig. 2): the response "Obama" (of "Barack
Obama") and the key "Obama" (of "Sen.Obama") are equal strings, so any
objective that pays an exact value more than a partial one (the token F-score
greedy sorts by, or correct 2 > partial 1) prefers the pair "Obama"/"Obama"
and leaves "Barack Obama" missing: greedy's answer, with one correct where the
paper's "true score" has one partial. Scoring both as a match ties the two
alignments (one missing each), and in order of occurrence the response's second
person is the key's second person, so the earliest pairing follows the
diagonal of Fig. 2: John McCain C, Barack Obama / Obama P, Obama M, McCain C.
``"graded"``: correct, partial and incorrect score ``scores[...]`` each, ties
broken toward late pairs (the DP maximises exact matches; without offsets it
then gives greedy's answer on Fig. 2).

**Split and merge** (seed section 4, the Halifax example): when one key
partially matches several responses, the first match is scored as
``first`` and each further partially matching response (otherwise spurious)
as ``rest``: ``split="first-partial-rest-spurious"`` (default) or e.g.
``"first-correct-rest-partial"``. ``merge`` is the same for one response and
several keys (``rest`` in correct, partial, incorrect, missing).

Counts are kept per side: each key once (correct, partial, incorrect or
missing), each response once (correct, partial, incorrect or spurious);
MUC figures: ``REC = (COR + PAR/2) / POS`` over keys, ``PRE = (COR + PAR/2) /
ACT`` over responses.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from ..errors import ConfigError, InputError

LEVELS = ("offset", "section", "order")
ALGORITHMS = ("optimal", "greedy", "dp")
DP_OBJECTIVES = ("match", "graded")
MATCHES = ("strict", "inclusive")
CORRECT, PARTIAL, INCORRECT = "correct", "partial", "incorrect"
SPLIT_FIRST = (CORRECT, PARTIAL)
SPLIT_REST = (CORRECT, PARTIAL, INCORRECT, "spurious")
MERGE_REST = (CORRECT, PARTIAL, INCORRECT, "missing")
_TOKEN = re.compile(r"\w+|[^\w\s]", re.UNICODE)


@dataclass(frozen=True)
class Mention:
    """One annotation: ``doc``, ``id``, ``name`` (label), ``value`` (text), optional offsets and section;
    ``order`` is its rank in its document (set by :func:`in_order`)."""

    doc: str
    id: str
    name: str
    value: str
    start: int | None = None
    end: int | None = None
    section: str | None = None
    order: int = 0
    type: str = "entity"

    def to_dict(self) -> dict[str, Any]:
        return {"doc": self.doc, "id": self.id, "name": self.name, "value": self.value, "start": self.start,
                "end": self.end, "section": self.section}


@dataclass
class Decision:
    """One key/response decision: ``key_status`` / ``response_status`` per side (``None`` where a side is
    absent); ``extra`` marks a further split/merge match."""

    doc: str
    key: Mention | None
    response: Mention | None
    key_status: str | None
    response_status: str | None
    score: float = 0.0
    extra: bool = False

    @property
    def status(self) -> str:
        """The decision's status: the key side's, or the response side's where there is no key status."""
        return self.key_status or self.response_status or "missing"

    def to_row(self) -> dict[str, Any]:
        """A flat row for the alignment report (TSV / JSONL)."""
        k, r = self.key, self.response
        return {"doc": self.doc, "status": self.status, "extra": self.extra, "name": (k or r).name,
                "key_id": k.id if k else None, "response_id": r.id if r else None,
                "key_value": k.value if k else None, "response_value": r.value if r else None,
                "key_start": k.start if k else None, "key_end": k.end if k else None,
                "response_start": r.start if r else None, "response_end": r.end if r else None,
                "score": round(float(self.score), 6)}


@dataclass
class Settings:
    level: str = "offset"
    algorithm: str = "greedy"
    match: str = "inclusive"
    gap_penalty: float = 1.0
    scores: dict[str, float] = field(default_factory=lambda: {CORRECT: 2.0, PARTIAL: 1.0, INCORRECT: -1.0})
    split: tuple[str, str] = (PARTIAL, "spurious")
    merge: tuple[str, str] = (PARTIAL, "missing")
    anchor_text: bool = False
    #: the DP's objective (module docstring): "match" (correct and partial score alike, ties to early pairs)
    #: or "graded" (correct / partial / incorrect scored apart, ties to late pairs)
    dp_objective: str = "match"

    def __post_init__(self) -> None:
        import math

        from ..errors import ConfigError

        gap = self.gap_penalty
        if isinstance(gap, bool) or not isinstance(gap, (int, float)) or not math.isfinite(gap) or gap < 0:
            raise ConfigError(f"gap_penalty (--gap-penalty) must be a finite number >= 0, got {gap!r}")
        bad = {k: v for k, v in self.scores.items() if isinstance(v, bool) or not isinstance(v, (int, float))
               or not math.isfinite(v)}
        if bad:
            raise ConfigError(f"alignment scores must be finite numbers, got {bad}")
        if self.dp_objective not in DP_OBJECTIVES:
            raise ConfigError(f"dp_objective (--dp-objective) must be one of {', '.join(DP_OBJECTIVES)}, got "
                              f"{self.dp_objective!r}")


    def to_dict(self, split: str | None = None, merge: str | None = None) -> dict[str, Any]:
        """The settings for a report, as the scores file of ``anno-eval align`` holds them: level, algorithm,
        match, gap penalty, the split and merge policies (``split`` / ``merge``: the texts given, e.g. on the
        command line; default ``first-X-rest-Y`` of :attr:`split` / :attr:`merge`), ``anchor_text`` and the DP
        objective."""
        return {"level": self.level, "algorithm": self.algorithm, "match": self.match,
                "gap_penalty": self.gap_penalty,
                "split": split if split is not None else "first-{}-rest-{}".format(*self.split),
                "merge": merge if merge is not None else "first-{}-rest-{}".format(*self.merge),
                "anchor_text": self.anchor_text, "dp_objective": self.dp_objective}


def parse_policy(text: str, rest_values: Sequence[str], what: str) -> tuple[str, str]:
    """``"first-partial-rest-spurious"`` -> ("partial", "spurious")."""
    m = re.fullmatch(r"first-(\w+)-rest-(\w+)", text.strip().lower())
    if not m or m.group(1) not in SPLIT_FIRST or m.group(2) not in rest_values:
        raise InputError(f"--{what} {text!r}: write first-<{'|'.join(SPLIT_FIRST)}>-rest-"
                                 f"<{'|'.join(rest_values)}>")
    return m.group(1), m.group(2)


def tokens(value: str) -> list[str]:
    return _TOKEN.findall(value.lower())


def value_f(a: str, b: str) -> float:
    """Token F-score of two values (multiset overlap): ANNALIST's attribute score."""
    ta, tb = tokens(a), tokens(b)
    if not ta or not tb:
        return 1.0 if a == b else 0.0
    common = sum(min(ta.count(t), tb.count(t)) for t in set(ta))
    return 2 * common / (len(ta) + len(tb))


def _contains(a: list[str], b: list[str]) -> bool:
    """Whether token list ``b`` occurs in ``a`` as a contiguous run."""
    n = len(b)
    return n > 0 and any(a[i:i + n] == b for i in range(len(a) - n + 1))


def classify(k: Mention, r: Mention, settings: Settings) -> str:
    """correct / partial / incorrect for a key and a response of the same name."""
    if k.start is not None and r.start is not None and settings.level != "order" or settings.anchor_text:
        if k.start is None or r.start is None:
            return INCORRECT
        if k.start == r.start and k.end == r.end:
            return CORRECT
        if k.start < r.end and r.start < k.end:
            return PARTIAL if settings.match == "inclusive" else INCORRECT
        return INCORRECT
    if k.value == r.value:
        return CORRECT
    tk, tr = tokens(k.value), tokens(r.value)
    if settings.match == "inclusive" and (_contains(tk, tr) or _contains(tr, tk)):
        return PARTIAL
    return INCORRECT


def _pair_score(k: Mention, r: Mention, cls: str, settings: Settings) -> float:
    if settings.level == "order" and not settings.anchor_text:
        return value_f(k.value, r.value)
    return {CORRECT: 1.0, PARTIAL: 0.5, INCORRECT: 0.0}[cls]


def in_order(mentions: Iterable[Mention]) -> list[Mention]:
    """Mentions with ``order`` set to their rank within their document (offsets first, else the given order)."""
    out: list[Mention] = []
    by_doc: dict[str, list[Mention]] = defaultdict(list)
    for m in mentions:
        by_doc[m.doc].append(m)
    for ms in by_doc.values():
        keyed = sorted(enumerate(ms), key=lambda p: (p[1].start if p[1].start is not None else -1, p[0]))
        out.extend(replace(m, order=rank) for rank, (_, m) in enumerate(keyed))
    return out


def anchor(mentions: Sequence[Mention], texts: dict[str, str]) -> list[Mention]:
    """Offsets found by searching each mention's value in its document's text after the end of the previous
    mention, in order of occurrence (mentions are taken not to overlap; one whose value is not found there keeps
    no offsets)."""
    out = []
    by_doc: dict[str, list[Mention]] = defaultdict(list)
    for m in sorted(mentions, key=lambda m: (m.doc, m.order)):
        by_doc[m.doc].append(m)
    for doc, ms in by_doc.items():
        text = texts.get(doc)
        pos = 0
        for m in ms:
            at = text.find(m.value, pos) if text is not None else -1
            if at < 0:
                out.append(replace(m, start=None, end=None))
                continue
            out.append(replace(m, start=at, end=at + len(m.value)))
            pos = at + len(m.value)
    return out


def _groups(mentions: Sequence[Mention], level: str) -> dict[tuple, list[Mention]]:
    out: dict[tuple, list[Mention]] = defaultdict(list)
    for m in sorted(mentions, key=lambda m: (m.doc, m.order)):
        section = m.section if level == "section" else None
        out[(m.doc, section, m.type, m.name)].append(m)
    return out


def _overlapping(keys: list[Mention], resps: list[Mention]) -> list[tuple[int, int]]:
    """Pairs of overlapping key and response mentions, by a sorted sweep (not all pairs)."""
    import bisect

    order = sorted(range(len(resps)), key=lambda j: resps[j].start)
    starts = [resps[j].start for j in order]
    longest = max((r.end - r.start for r in resps), default=0)
    out = []
    for i, k in enumerate(keys):
        lo = bisect.bisect_left(starts, k.start - longest)
        hi = bisect.bisect_left(starts, k.end)
        out.extend((i, order[p]) for p in range(lo, hi) if resps[order[p]].end > k.start)
    return out


def _candidates(keys: list[Mention], resps: list[Mention], settings: Settings) -> list[tuple[float, int, int, str]]:
    """Scored candidate pairs: overlapping ones at the offset level, every pair of the group otherwise."""
    out = []
    if settings.level == "offset":
        pairs: Iterable[tuple[int, int]] = _overlapping(keys, resps)
    else:
        pairs = ((i, j) for i in range(len(keys)) for j in range(len(resps)))
    for i, j in pairs:
        k, r = keys[i], resps[j]
        cls = classify(k, r, settings)
        score = _pair_score(k, r, cls, settings)
        if score > 0 or cls != INCORRECT:
            out.append((score, i, j, cls))
    return out


def _greedy(keys: list[Mention], resps: list[Mention], settings: Settings) -> list[tuple[int, int, str, float]]:
    cands = sorted(_candidates(keys, resps, settings), key=lambda c: (-c[0], c[1], c[2]))
    used_k, used_r, pairs = set(), set(), []
    for score, i, j, cls in cands:
        if i in used_k or j in used_r:
            continue
        used_k.add(i)
        used_r.add(j)
        pairs.append((i, j, cls, score))
    return pairs


class _Matcher:
    """Vectorised match scores of key ``i`` x response ``j`` for the DP, computed only for the cells asked.

    With positions: coextensive = correct, overlapping = partial (inclusive) or incorrect (strict), no overlap =
    ``-inf`` (may not pair). Without: equal values (integer codes) = correct; otherwise a containment test per
    distinct value pair, cached (partial or incorrect).
    """

    def __init__(self, keys: list[Mention], resps: list[Mention], settings: Settings) -> None:
        self.settings = settings
        self.positional = settings.level == "offset" or settings.anchor_text
        sc = settings.scores
        self.correct, self.partial, self.incorrect = sc[CORRECT], sc[PARTIAL], sc[INCORRECT]
        if settings.dp_objective == "match":  # a partial match is a match: graded after the alignment
            self.partial = self.correct
        if self.positional:
            def col(ms: list[Mention], attr: str) -> np.ndarray:
                return np.array([-1 if getattr(m, attr) is None else getattr(m, attr) for m in ms], dtype=np.int64)

            self.ks, self.ke = col(keys, "start"), col(keys, "end")
            self.rs, self.re = col(resps, "start"), col(resps, "end")
            self.k_known, self.r_known = self.ks >= 0, self.rs >= 0
        else:
            values = sorted({m.value for m in keys} | {m.value for m in resps})
            index = {v: c for c, v in enumerate(values)}
            self.values = values
            self.kc = np.array([index[m.value] for m in keys], dtype=np.int64)
            self.rc = np.array([index[m.value] for m in resps], dtype=np.int64)
            self.n_tokens = np.array([len(tokens(v)) for v in values], dtype=np.int64)
            self.cache: dict[tuple[int, int], float] = {}

    def __call__(self, i: np.ndarray, j: np.ndarray) -> np.ndarray:
        if self.positional:
            ks, ke, rs, re_ = self.ks[i], self.ke[i], self.rs[j], self.re[j]
            known = self.k_known[i] & self.r_known[j]
            same = known & (ks == rs) & (ke == re_)
            over = known & (ks < re_) & (rs < ke)
            partial = self.partial if self.settings.match == "inclusive" else self.incorrect
            return np.where(same, self.correct, np.where(over, partial, -np.inf))
        a, b = self.kc[i], self.rc[j]
        out = np.full(len(a), self.incorrect)
        out[a == b] = self.correct
        # containment needs a strictly shorter value (in tokens) on one side: equal lengths and different values
        # are incorrect without looking at the tokens
        other = np.flatnonzero((a != b) & (self.n_tokens[a] != self.n_tokens[b]))
        if len(other) and self.settings.match == "inclusive":
            pairs, inverse = np.unique(np.stack([a[other], b[other]], axis=1), axis=0, return_inverse=True)
            scores = np.array([self._pair(int(x), int(y)) for x, y in pairs])
            out[other] = scores[inverse.reshape(-1)]
        return out

    def _pair(self, a: int, b: int) -> float:
        got = self.cache.get((a, b))
        if got is None:
            ta, tb = tokens(self.values[a]), tokens(self.values[b])
            got = self.cache[(a, b)] = self.partial if _contains(ta, tb) or _contains(tb, ta) else self.incorrect
        return got


def _dp(keys: list[Mention], resps: list[Mention], settings: Settings) -> list[tuple[int, int, str, float]]:
    from .dp import dp_align

    if not keys or not resps:
        return []
    match = _Matcher(keys, resps, settings)
    ties = "early" if settings.dp_objective == "match" else "late"
    path = dp_align(len(keys), len(resps), match, gap=settings.gap_penalty, ties=ties)
    i, j = path.key_index, path.response_index
    both = (i >= 0) & (j >= 0)
    i, j = i[both], j[both]
    scores = match(i, j)
    return [(a, b, classify(keys[a], resps[b], settings), sc)
            for a, b, sc in zip(i.tolist(), j.tolist(), scores.tolist(), strict=True)]


def _mentions(value: Any, what: str) -> list[Mention]:
    """``value`` as a list of :class:`Mention`; :class:`ConfigError` saying what was given when it is not one."""
    if value is None or isinstance(value, (str, bytes, Mention)) or not isinstance(value, Iterable):
        raise ConfigError(f"{what}: expected a list of Mention objects (read_mentions gives them), got "
                          f"{type(value).__name__} {value!r:.60}")
    items = list(value)
    bad = next((i for i, m in enumerate(items) if not isinstance(m, Mention)), None)
    if bad is not None:
        raise ConfigError(f"{what}: item {bad} is a {type(items[bad]).__name__}, not a Mention")
    return items


def align_mentions(key: Iterable[Mention], response: Iterable[Mention], settings: Settings | None = None,
                   texts: dict[str, str] | None = None) -> list[Decision]:
    """Every key/response decision (see the module docstring), in document order."""
    settings = settings or Settings()
    if not isinstance(settings, Settings):
        raise ConfigError(f"settings must be an annalist Settings, got {type(settings).__name__}")
    key, response = _mentions(key, "key"), _mentions(response, "response")
    if settings.level not in LEVELS:
        raise InputError(f"level must be one of {', '.join(LEVELS)}, got {settings.level!r}")
    if settings.algorithm not in ALGORITHMS:
        raise InputError(f"algorithm must be one of {', '.join(ALGORITHMS)}, got {settings.algorithm!r}")
    if settings.match not in MATCHES:
        raise InputError(f"match must be one of {', '.join(MATCHES)}, got {settings.match!r}")
    if settings.algorithm == "optimal" and settings.level != "offset":
        raise InputError("the optimal pairing needs offsets: use --level offset, or --algorithm greedy|dp")
    key, response = in_order(key), in_order(response)
    if settings.level == "offset":
        bad = next((m for m in list(key) + list(response) if m.start is None), None)
        if bad is not None:
            raise InputError(f"document {bad.doc!r}, annotation {bad.id!r} ({bad.value!r}) has no offsets; "
                                     f"use --level section or --level order")
    if settings.anchor_text:
        if settings.level != "order" or not texts:
            raise InputError("anchor_text needs --level order and the document texts")
        key, response = anchor(key, texts), anchor(response, texts)
    kg, rg = _groups(key, settings.level), _groups(response, settings.level)
    decisions: list[Decision] = []
    for g in sorted(set(kg) | set(rg), key=lambda g: tuple("" if x is None else str(x) for x in g)):
        ks, rs = kg.get(g, []), rg.get(g, [])
        if settings.algorithm == "dp":
            pairs = _dp(ks, rs, settings)
        elif settings.algorithm == "optimal":
            pairs = _optimal(ks, rs, settings)
        else:
            pairs = _greedy(ks, rs, settings)
        decisions.extend(_decide(g[0], ks, rs, pairs, settings))
    decisions.sort(key=lambda d: (d.doc, (d.key or d.response).order, d.key is None, d.extra))
    return decisions


def _optimal(keys: list[Mention], resps: list[Mention], settings: Settings) -> list[tuple[int, int, str, float]]:
    """The engine's pairing rule within one group: most correct, then partial pairs, then overlap (exact)."""
    from scipy.optimize import linear_sum_assignment

    if not keys or not resps:
        return []
    w = np.zeros((len(keys), len(resps)))
    classes = {}
    for score, i, j, cls in _candidates(keys, resps, settings):
        overlap = min(keys[i].end, resps[j].end) - max(keys[i].start, resps[j].start)
        w[i, j] = {CORRECT: 1e6, PARTIAL: 1e3, INCORRECT: 1.0}[cls] + overlap * 1e-6
        classes[(i, j)] = (cls, score)
    rows, cols = linear_sum_assignment(w, maximize=True)
    return [(i, j, *classes[(i, j)]) for i, j in zip(rows.tolist(), cols.tolist(), strict=True) if (i, j) in classes]


def _decide(doc: str, keys: list[Mention], resps: list[Mention], pairs: list[tuple[int, int, str, float]],
            settings: Settings) -> list[Decision]:
    out = []
    paired_k, paired_r = {}, {}
    for i, j, cls, score in pairs:
        paired_k[i], paired_r[j] = j, i
        out.append(Decision(doc, keys[i], resps[j], cls, cls, score))
    free_r = [j for j in range(len(resps)) if j not in paired_r]
    free_k = [i for i in range(len(keys)) if i not in paired_k]
    # split: a key partially matched, and further responses partially matching it
    first, rest = settings.split
    taken_r = set()
    for d in list(out):
        if d.key_status != PARTIAL:
            continue
        extra = [j for j in free_r if j not in taken_r and classify(d.key, resps[j], settings) == PARTIAL]
        if not extra:
            continue
        d.key_status = d.response_status = first
        for j in extra:
            taken_r.add(j)
            if rest != "spurious":
                out.append(Decision(doc, d.key, resps[j], None, rest, 0.0, extra=True))
    first_m, rest_m = settings.merge
    taken_k = set()
    for d in list(out):
        if d.extra or d.response_status != PARTIAL and d.response_status != first:
            continue
        extra = [i for i in free_k if i not in taken_k and classify(keys[i], d.response, settings) == PARTIAL]
        if not extra:
            continue
        d.key_status = d.response_status = first_m if d.response_status == PARTIAL else d.response_status
        for i in extra:
            taken_k.add(i)
            if rest_m != "missing":
                out.append(Decision(doc, keys[i], d.response, rest_m, None, 0.0, extra=True))
    for j in free_r:
        if j not in taken_r or settings.split[1] == "spurious":
            out.append(Decision(doc, None, resps[j], None, "spurious"))
    for i in free_k:
        if i not in taken_k or settings.merge[1] == "missing":
            out.append(Decision(doc, keys[i], None, "missing", None))
    return out


FIELDS = ("COR", "PAR", "INC", "MIS", "SPU")


def count(decisions: Iterable[Decision]) -> dict[str, dict[str, int]]:
    """MUC counts per name (and ``"all"``), per side: keys give COR/PAR/INC/MIS, responses COR/PAR/INC/SPU."""
    table: dict[str, dict[str, int]] = defaultdict(lambda: {f"key_{s}": 0 for s in ("COR", "PAR", "INC", "MIS")}
                                                   | {f"resp_{s}": 0 for s in ("COR", "PAR", "INC", "SPU")})
    short = {CORRECT: "COR", PARTIAL: "PAR", INCORRECT: "INC", "missing": "MIS", "spurious": "SPU"}
    for d in decisions:
        name = (d.key or d.response).name
        for row in (table[name], table["all"]):
            if d.key is not None and d.key_status is not None:
                row[f"key_{short[d.key_status]}"] += 1
            if d.response is not None and d.response_status is not None:
                row[f"resp_{short[d.response_status]}"] += 1
    return dict(table)


def figures(counts: dict[str, int]) -> dict[str, Any]:
    """POS, ACT, COR, PAR, INC, MIS, SPU, REC, PRE, F (MUC; recall over keys, precision over responses)."""
    pos = counts["key_COR"] + counts["key_PAR"] + counts["key_INC"] + counts["key_MIS"]
    act = counts["resp_COR"] + counts["resp_PAR"] + counts["resp_INC"] + counts["resp_SPU"]
    rec = (counts["key_COR"] + 0.5 * counts["key_PAR"]) / pos if pos else 0.0
    pre = (counts["resp_COR"] + 0.5 * counts["resp_PAR"]) / act if act else 0.0
    f = 2 * pre * rec / (pre + rec) if pre + rec else 0.0
    return {"POS": pos, "ACT": act, "COR": counts["key_COR"], "PAR": counts["key_PAR"], "INC": counts["key_INC"],
            "MIS": counts["key_MIS"], "SPU": counts["resp_SPU"], "REC": rec, "PRE": pre, "F": f}


def scores(decisions: Sequence[Decision]) -> dict[str, Any]:
    """Figures per name and for all, over the collection and per document."""
    by_doc: dict[str, list[Decision]] = defaultdict(list)
    for d in decisions:
        by_doc[d.doc].append(d)
    collection = {name: figures(c) for name, c in sorted(count(decisions).items())}
    per_doc = {doc: {name: figures(c) for name, c in sorted(count(ds).items())} for doc, ds in by_doc.items()}
    return {"collection": collection, "per_doc": per_doc}


@dataclass
class AlignmentResult:
    """ANNALIST's alignment of key and response mentions, scored: ``settings`` (:meth:`Settings.to_dict`, the
    policies as given), ``decisions`` (one :class:`Decision` per pair, missing key or spurious response) and
    ``entities``, their figures (:func:`scores`: per name and for all, over the collection and per document)."""

    settings: dict[str, Any]
    decisions: list[Decision]
    entities: dict[str, Any]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: ``settings`` and ``entities`` (the scores file of ``anno-eval align``)."""
        return {"settings": dict(self.settings), "entities": self.entities}

    def rows(self) -> list[dict[str, Any]]:
        """The decisions as flat rows (:meth:`Decision.to_row`), for the alignment report."""
        return [d.to_row() for d in self.decisions]


def align_and_score(key: Iterable[Mention], response: Iterable[Mention], settings: Settings,
                    texts: dict[str, str] | None = None, *, split: str | None = None,
                    merge: str | None = None) -> AlignmentResult:
    """:func:`align_mentions` of ``key`` and ``response`` under ``settings`` (``texts``: the documents' texts),
    scored (:func:`scores`); ``split`` / ``merge``: the policies as given, for the result's settings
    (:meth:`Settings.to_dict`)."""
    decisions = align_mentions(key, response, settings, texts)
    return AlignmentResult(settings.to_dict(split, merge), decisions, scores(decisions))


__all__ = ["ALGORITHMS", "DP_OBJECTIVES", "LEVELS", "MATCHES", "AlignmentResult", "Decision", "Mention", "Settings",
           "align_and_score", "align_mentions", "anchor", "classify", "count", "figures", "in_order", "parse_policy",
           "scores", "value_f"]
