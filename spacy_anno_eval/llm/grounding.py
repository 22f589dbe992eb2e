"""Grounding extracted strings in their document's text: a stated ladder of steps, an order-preserving choice
among repeated occurrences, spans snapped to tokens, and every string that cannot be grounded kept as a
*hallucination* (issue 30).

**The ladder.** Each extraction is grounded by the first step (of :attr:`GroundingSettings.steps`, in this
order) that finds it; each step is switchable (``--ground exact,casefold,normalized,fuzzy:0.8``,
:func:`parse_ground`):

0. ``claimed`` (``use_claimed_offsets``): an extraction whose producer claims offsets (langextract's
   ``char_interval``) is grounded there when ``text[start:end]`` is exactly its string (and the snap mode keeps
   the span); otherwise the ladder runs as for any other, and a claim that does not hold the string is counted
   (``claimed_mismatches``).
1. ``exact``: the occurrences of the string as given (``str.find``).
2. ``casefold``: the occurrences of ``s.casefold()`` in ``text.casefold()``; the offsets are mapped back to the
   original text character by character, so a text with ``'ß'`` (``'ss'`` folded) keeps its offsets, and a
   match must not begin or end inside a folded character (:mod:`spacy_anno_eval.llm.normalize`).
3. ``normalized``: the same on both normalised forms (Unicode NFKC, case folding, the quotes and dashes of
   :data:`~spacy_anno_eval.llm.normalize.QUOTES_AND_DASHES` as ASCII, runs of white space as one space, the
   string stripped), offsets mapped back to the original text.
4. ``fuzzy``: ``edlib.align(q, t, mode="HW", task="path")`` of the normalised string ``q`` against the
   normalised text ``t`` (infix alignment: ``q`` whole against the best substring of ``t``; Levenshtein
   distance ``d``). The **similarity** is ``1 - d / len(q)``; the string is grounded when it reaches
   ``fuzzy_threshold`` (``>=``, compared with a tolerance of 1e-12 so that a decimal threshold means what it
   says). The locations edlib reports at the minimal distance, overlapping ones merged (of each group the one
   whose length is nearest ``len(q)``, then the first) and trimmed of white space at either end, are the
   occurrences.

   *How the threshold relates to the peers'.* nerval (Teklia; :mod:`spacy_anno_eval.noisy`) matches a gold
   and a predicted entity when ``d / len(gold) <= τ`` (default ``τ = 0.30``): that is a similarity
   ``1 - d / len(gold) >= 1 - τ`` measured against the gold entity; ours is measured against the extracted
   string (there is no gold string here), so nerval's default is our ``t = 0.70`` and our default ``0.8`` is
   nerval's ``τ = 0.20``. langextract's ``fuzzy_alignment_threshold = 0.75`` is not a character similarity:
   it is the share of the extraction's *tokens* (lower-cased, a plural ``s`` stripped) that a longest common
   subsequence must find in order in one source window (``matches >= ceil(0.75·m)``, at least one match per
   three tokens of window). A typo inside a one-word string fails it (0 of 1 tokens) where our similarity is
   ``1 - 1/len``; a string whose words are scattered over a long window passes it where ours fails. Setting
   ``t = 0.75`` here does not reproduce langextract (``tests/llm/test_grounding_peers.py`` shows both ways).

An empty or white-space-only string is a hallucination with reason ``empty``.

**Snapping.** Every occurrence a step finds is snapped to token boundaries by :attr:`GroundingSettings.snap`
(``strict``, ``contract``, ``expand`` as spaCy's ``Doc.char_span(alignment_mode=...)``, or ``none``;
:mod:`spacy_anno_eval.llm.snap`), on the key's tokens when the caller gives them (``tokens``), else on the
word rule. An occurrence the mode refuses is dropped: the extraction takes its other occurrences, or the next
step; when nothing is left it is a hallucination with reason ``not on token boundaries``. A span that
snapping changed gets the similarity of its own text (``1 - d / len(q)`` on the normalised forms, at least 0);
at the fuzzy step it must still reach the threshold, at the others it is kept as spaCy's mode gives it: under
``contract`` a string that ends inside a word (``heart problem`` in ``heart problems``) is grounded to the whole
tokens inside it (``heart``), as spacy-llm does, and ``expand`` grounds it to ``heart problems``.

**Occurrences.** A document's extractions are grounded together, in the order they are listed. Each has the
occurrences its step found (after snapping), in text order. Among all ways of giving extractions *distinct*
occurrences in *increasing* text order (by ``(start, end)``), dynamic programming chooses one that keeps the
most extractions (a longest increasing chain, as ANNALIST's order-level alignment keeps mentions in order:
Demetriou et al. 2008); among those, each extraction in list order takes the first occurrence that still
completes a longest chain (pairs as early as possible, ANNALIST's ``ties="early"``). Every extraction left
out of the chain takes, in list order, the first occurrence nobody has taken. An extraction whose occurrences
are all taken (the model repeated itself) is grounded again to its first occurrence and marked ``repeat``
(the scoring counts it as a duplicate spurious). Extractions grounded by their claimed offsets are placed
first and take their occurrences before the chain is chosen. With ``ground_all=True`` every occurrence of
every extraction (all those of the step that grounds it) is a grounded annotation (spacy-llm's behaviour without
``single_match``), in list order and then text order; an occurrence an earlier extraction already holds is marked
``repeat``. Occurrences of one string are found left to right without overlapping (as spacy-llm's
``find_substrings``).
"""

from __future__ import annotations

import gc
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from ..errors import ConfigError, InputError
from .extractions import Extraction
from .normalize import TextMap, casefold_map, normalize, normalized_map
from .occurrences import best_locations, distinct, infix, levenshtein, longest_chain, mapped, occurrences
from .snap import SNAP_MODES, Tokens

#: the steps of the ladder, in the only order they may be given
STEPS = ("exact", "casefold", "normalized", "fuzzy")
#: the step of an extraction grounded by the offsets its producer claimed
CLAIMED = "claimed"
#: the ``step`` column of a row for an extraction that could not be grounded
HALLUCINATION = "hallucination"
DEFAULT_FUZZY_THRESHOLD = 0.8
#: why an extraction is a hallucination
EMPTY, NOT_FOUND, BELOW_THRESHOLD, NOT_ON_TOKENS = ("empty", "not found", "below threshold",
                                                    "not on token boundaries")
REASONS = (EMPTY, NOT_FOUND, BELOW_THRESHOLD, NOT_ON_TOKENS)
_TOLERANCE = 1e-12


@dataclass(frozen=True)
class GroundingSettings:
    """How extracted strings are grounded (see the module docstring); validated on construction.

    >>> GroundingSettings(steps=("exact", "fuzzy"), fuzzy_threshold=0.9).spec
    'exact,fuzzy:0.9'
    """

    steps: tuple[str, ...] = STEPS
    fuzzy_threshold: float = DEFAULT_FUZZY_THRESHOLD
    ground_all: bool = False
    snap: str = "contract"
    use_claimed_offsets: bool = True

    def __post_init__(self) -> None:
        object.__setattr__(self, "steps", _check_steps(self.steps))
        object.__setattr__(self, "fuzzy_threshold", _check_threshold(self.fuzzy_threshold))
        for name in ("ground_all", "use_claimed_offsets"):
            if not isinstance(getattr(self, name), bool):
                raise ConfigError(f"{name} must be True or False, got {getattr(self, name)!r}")
        if self.snap not in SNAP_MODES:
            raise ConfigError(f"snap must be one of {', '.join(SNAP_MODES)} (spaCy's alignment_mode, or none: the "
                              f"offsets as found), got {self.snap!r}")

    @property
    def spec(self) -> str:
        """The steps in the CLI form of :func:`parse_ground`."""
        return ",".join(f"{s}:{self.fuzzy_threshold:g}" if s == "fuzzy" else s for s in self.steps)

    def to_dict(self) -> dict[str, Any]:
        return {"steps": list(self.steps), "fuzzy_threshold": self.fuzzy_threshold, "ground_all": self.ground_all,
                "snap": self.snap, "use_claimed_offsets": self.use_claimed_offsets, "spec": self.spec}


def _shares(counts: dict[str, int], total: int) -> dict[str, float | None]:
    return {step: (n / total if total else None) for step, n in counts.items()}


def _check_steps(steps: Any) -> tuple[str, ...]:
    if isinstance(steps, str):
        steps = [s.strip() for s in steps.split(",")]
    try:
        given = tuple(steps)
    except TypeError:
        raise ConfigError(f"steps must be a sequence of step names ({', '.join(STEPS)}), got {steps!r}") from None
    if not given:
        raise ConfigError(f"give at least one grounding step ({', '.join(STEPS)})")
    for s in given:
        if s not in STEPS:
            raise ConfigError(f"unknown grounding step {s!r}; the steps are {', '.join(STEPS)} (in that order)")
    if len(set(given)) != len(given):
        twice = next(s for s in given if given.count(s) > 1)
        raise ConfigError(f"grounding step {twice!r} is given twice in {','.join(given)}")
    if list(given) != sorted(given, key=STEPS.index):
        raise ConfigError(f"grounding steps must keep the ladder's order {', '.join(STEPS)}; got {','.join(given)} "
                          f"(each step finds what the one before it finds, so a later one never runs first)")
    return given


def _check_threshold(value: Any) -> float:
    try:
        t = float(value)
    except (TypeError, ValueError):
        t = math.nan
    if isinstance(value, bool) or not 0.0 < t <= 1.0:
        raise ConfigError(f"fuzzy_threshold must be a number in (0, 1] (the least similarity 1 - edit distance / "
                          f"extraction length of a fuzzy match; default {DEFAULT_FUZZY_THRESHOLD}), got {value!r}")
    return t


def parse_ground(spec: str, **settings: Any) -> GroundingSettings:
    """Settings from the CLI form ``exact,casefold,normalized,fuzzy:0.8`` (``fuzzy`` alone: threshold
    :data:`DEFAULT_FUZZY_THRESHOLD`); ``settings`` are the other fields of :class:`GroundingSettings`.

    >>> s = parse_ground("exact, fuzzy:0.75", snap="expand")
    >>> s.steps, s.fuzzy_threshold, s.snap
    (('exact', 'fuzzy'), 0.75, 'expand')
    """
    if not isinstance(spec, str) or not spec.strip():
        raise ConfigError(f"--ground needs steps such as exact,casefold,normalized,fuzzy:0.8 (the steps are "
                          f"{', '.join(STEPS)}), got {spec!r}")
    steps = []
    threshold: Any = settings.pop("fuzzy_threshold", DEFAULT_FUZZY_THRESHOLD)
    for item in spec.split(","):
        name, sep, value = (part.strip() for part in item.partition(":"))
        if sep:
            if name != "fuzzy":
                raise ConfigError(f"--ground: only fuzzy takes a threshold (fuzzy:0.8), got {item.strip()!r}")
            try:
                threshold = float(value)
            except ValueError:
                raise ConfigError(f"--ground: the fuzzy threshold must be a number in (0, 1], got {value!r}") from None
        steps.append(name)
    return GroundingSettings(steps=tuple(steps), fuzzy_threshold=threshold, **settings)


class Grounded(NamedTuple):
    """An extraction grounded at ``[start, end)`` of its document's text by ``step`` (``claimed``, ``exact``,
    ``casefold``, ``normalized``, ``fuzzy``); ``similarity`` 1 - edit distance / length on the normalised forms
    (1.0 where the step matched and snapping kept the span); ``repeat``: the occurrence was already taken by an
    earlier extraction."""

    extraction: Extraction
    start: int
    end: int
    step: str
    similarity: float = 1.0
    repeat: bool = False


class Hallucination(NamedTuple):
    """An extraction that could not be grounded, and why (:data:`REASONS`); ``similarity`` the best fuzzy
    similarity found, where the fuzzy step ran and found something below the threshold."""

    extraction: Extraction
    reason: str
    similarity: float | None = None


@dataclass
class DocumentGrounding:
    """One document's grounded annotations (in list order; with ``ground_all`` each extraction's occurrences in
    text order) and hallucinations, with its text."""

    doc_id: str
    text: str
    grounded: list[Grounded] = field(default_factory=list)
    hallucinations: list[Hallucination] = field(default_factory=list)
    claimed_mismatches: int = 0


@dataclass
class Grounding:
    """The grounding of every document (:func:`ground`), its settings, and the counts of the grounding table."""

    documents: dict[str, DocumentGrounding]
    settings: GroundingSettings

    def _outcomes(self) -> Iterable[tuple[Extraction, str, bool]]:
        """``(extraction, step or 'hallucination', every annotation a repeat)`` once per extraction."""
        for d in self.documents.values():
            prev: Extraction | None = None
            steps: list[tuple[Extraction, str, bool]] = []
            for g in d.grounded:
                if g.extraction is prev:
                    if not g.repeat:
                        steps[-1] = (prev, g.step, False)
                    continue
                prev = g.extraction
                steps.append((prev, g.step, g.repeat))
            yield from steps
            for h in d.hallucinations:
                yield h.extraction, HALLUCINATION, False

    @property
    def n_extractions(self) -> int:
        return sum(1 for _ in self._outcomes())

    @property
    def n_hallucinations(self) -> int:
        return sum(len(d.hallucinations) for d in self.documents.values())

    @property
    def n_annotations(self) -> int:
        """Grounded annotations (several per extraction with ``ground_all``), repeats included."""
        return sum(len(d.grounded) for d in self.documents.values())

    @property
    def n_repeats(self) -> int:
        """Grounded annotations marked ``repeat``."""
        return sum(g.repeat for d in self.documents.values() for g in d.grounded)

    @property
    def hallucination_rate(self) -> float | None:
        """Hallucinations / extractions; ``None`` when there is no extraction."""
        n = self.n_extractions
        return self.n_hallucinations / n if n else None

    @property
    def by_step(self) -> dict[str, int]:
        """Extractions grounded at each step (every step of the settings, 0 included; ``claimed`` first when
        claimed offsets are used), and ``hallucination``."""
        counts = dict.fromkeys(([CLAIMED] if self.settings.use_claimed_offsets else []) + list(self.settings.steps),
                               0)
        counts[HALLUCINATION] = 0
        for _, step, _ in self._outcomes():
            counts[step] += 1
        return counts

    @property
    def by_step_share(self) -> dict[str, float | None]:
        """Each step's count of :attr:`by_step` as a share of the extractions (``None`` without extractions)."""
        return _shares(self.by_step, self.n_extractions)

    @property
    def by_label(self) -> dict[str, dict[str, int]]:
        """Per label: ``extractions``, ``grounded``, ``hallucinations``, ``repeats`` (extractions all of whose
        annotations are repeats), labels sorted."""
        out: dict[str, dict[str, int]] = {}
        for ex, step, repeat in self._outcomes():
            c = out.setdefault(ex.label, {"extractions": 0, "grounded": 0, "hallucinations": 0, "repeats": 0})
            c["extractions"] += 1
            c["hallucinations" if step == HALLUCINATION else "grounded"] += 1
            c["repeats"] += repeat
        return dict(sorted(out.items()))

    def to_dict(self, documents: bool = True) -> dict[str, Any]:
        """The grounding table, JSON-ready; with ``documents`` also every annotation and hallucination."""
        steps = self.by_step
        out: dict[str, Any] = {
            "settings": self.settings.to_dict(), "extractions": self.n_extractions,
            "annotations": self.n_annotations, "hallucinations": self.n_hallucinations,
            "hallucination_rate": self.hallucination_rate, "repeats": self.n_repeats,
            "claimed_mismatches": sum(d.claimed_mismatches for d in self.documents.values()),
            "by_step": steps, "by_step_share": _shares(steps, self.n_extractions), "by_label": self.by_label,
        }
        if documents:
            out["documents"] = {
                doc_id: {"grounded": [_grounded_dict(g, d.text) for g in d.grounded],
                         "hallucinations": [{"order": h.extraction.order, "label": h.extraction.label,
                                             "text": h.extraction.text, "reason": h.reason,
                                             "similarity": h.similarity} for h in d.hallucinations]}
                for doc_id, d in self.documents.items()}
        return out

    def rows(self) -> list[dict[str, Any]]:
        """One row per grounded annotation and per hallucination (so one per extraction unless ``ground_all``),
        by document and then extraction order: ``doc``, ``order``, ``label``, ``text``, ``step`` (or
        ``hallucination``), ``start``, ``end``, ``matched`` (the text grounded to), ``similarity``, ``repeat``,
        ``reason``, ``source``."""
        rows: list[dict[str, Any]] = []
        for doc_id, d in self.documents.items():
            doc_rows = [(g.extraction.order, {"doc": doc_id, **_grounded_dict(g, d.text)}) for g in d.grounded]
            doc_rows += [(h.extraction.order, {
                "doc": doc_id, "order": h.extraction.order, "label": h.extraction.label, "text": h.extraction.text,
                "step": HALLUCINATION, "start": None, "end": None, "matched": None, "similarity": h.similarity,
                "repeat": False, "reason": h.reason, "source": h.extraction.source}) for h in d.hallucinations]
            doc_rows.sort(key=lambda r: r[0])
            rows.extend(r for _, r in doc_rows)
        return rows


def _grounded_dict(g: Grounded, text: str) -> dict[str, Any]:
    ex = g.extraction
    return {"order": ex.order, "label": ex.label, "text": ex.text, "step": g.step, "start": g.start, "end": g.end,
            "matched": text[g.start:g.end], "similarity": g.similarity, "repeat": g.repeat, "reason": None,
            "source": ex.source}


def _from_docs(docs: Any, tokens: Any) -> tuple[dict[str, str], Any]:
    """Texts (and, unless given, tokens) by id of a sequence of spaCy Docs."""
    from ..annotations.docs import doc_id, token_offsets

    if isinstance(docs, (str, bytes)) or not all(hasattr(d, "text") and hasattr(d, "user_data") for d in docs):
        raise ConfigError("texts must be a mapping of document id -> text, or spaCy Docs")
    ids = [doc_id(d, i) for i, d in enumerate(docs)]
    return (dict(zip(ids, (d.text for d in docs), strict=True)),
            tokens if tokens is not None else dict(zip(ids, (token_offsets(d) for d in docs), strict=True)))


def ground(documents: Mapping[str, Sequence[Extraction]] | Any, texts: Mapping[str, str], *,
           tokens: Mapping[str, Sequence[tuple[int, int]]] | None = None,
           settings: GroundingSettings = GroundingSettings()) -> Grounding:
    """Ground each document's extractions in its text (see the module docstring).

    ``documents``: extractions by document id, in the order the model listed them (an
    :class:`~spacy_anno_eval.llm.extractions.Extractions` is taken as its ``documents``); ``texts``: the key's text
    of each document, or the key's spaCy Docs (ids by :func:`spacy_anno_eval.annotations.docs.doc_id`, their tokens
    snapped to unless ``tokens`` is given); ``tokens``: the key's tokens per document as ``(start, end)`` character
    offsets (``None``: the word rule of :mod:`spacy_anno_eval.llm.snap`). A document with extractions but no text
    (or, when ``tokens`` is given, no tokens) raises :class:`~spacy_anno_eval.errors.InputError` naming ids that
    exist: nothing is dropped silently. The cyclic garbage collector is paused during the call (it builds many small
    tuples and no cycle) and restored after it.

    >>> from spacy_anno_eval.llm.extractions import Extraction
    >>> exs = [Extraction("d", "PER", "Ada", 0), Extraction("d", "PER", "ada", 1), Extraction("d", "LOC", "Mars", 2)]
    >>> g = ground({"d": exs}, {"d": "Ada met ADA."})
    >>> [(x.start, x.end, x.step) for x in g.documents["d"].grounded], g.by_step["hallucination"]
    ([(0, 3, 'exact'), (8, 11, 'casefold')], 1)
    """
    if not isinstance(settings, GroundingSettings):
        raise ConfigError(f"settings must be a GroundingSettings (see parse_ground), got {type(settings).__name__}")
    if not isinstance(documents, Mapping) and hasattr(documents, "documents"):
        documents = documents.documents
    if not isinstance(texts, Mapping):  # spaCy Docs: their ids (the package's rule), texts and tokens
        texts, tokens = _from_docs(texts, tokens)
    _check_ids(documents, texts, "text", "texts")
    if tokens is not None:
        _check_ids(documents, tokens, "tokens", "tokens")
    ladder = _Ladder(settings)
    out = {}
    gc_was_enabled = gc.isenabled()
    gc.disable()  # hundreds of thousands of small tuples and no cycle: a collection would walk them for nothing
    try:
        for doc_id, extractions in documents.items():
            text = texts.get(doc_id, "")
            if not isinstance(text, str):
                raise InputError(f"document {doc_id!r}: its text must be a str, got {type(text).__name__}")
            given = tokens.get(doc_id) if tokens is not None else None
            out[doc_id] = ladder.document(doc_id, text, extractions, given)
    finally:
        if gc_was_enabled:
            gc.enable()
    return Grounding(out, settings)


def _check_ids(documents: Mapping[str, Sequence[Extraction]], found: Mapping[str, Any], what: str,
               where: str) -> None:
    missing = [d for d, exs in documents.items() if exs and d not in found]
    if missing:
        some = ", ".join(repr(d) for d in missing[:5])
        have = ", ".join(repr(d) for d in list(found)[:5]) or "none"
        raise InputError(f"{len(missing)} document(s) with extractions have no {what}: {some}"
                         f"{' ...' if len(missing) > 5 else ''}; the {where} have ids such as {have} "
                         f"({len(found)} in all); pair the extractions with the key by the same document ids")


Span = tuple[int, int]
Candidate = tuple[Span, float]  # ((start, end), similarity)


class _Found(NamedTuple):
    step: str
    candidates: list[Candidate]  # in text order, distinct spans


class _Missed(NamedTuple):
    reason: str
    similarity: float | None = None


_EMPTY = _Missed(EMPTY)


class _Doc:
    """One document's text, its forms (built on first need) and its tokens."""

    __slots__ = ("_casefold", "_normalized", "text", "tokens")

    def __init__(self, text: str, tokens: Tokens) -> None:
        self.text = text
        self.tokens = tokens
        self._casefold: TextMap | None = None
        self._normalized: TextMap | None = None

    @property
    def casefold(self) -> TextMap:
        if self._casefold is None:
            self._casefold = casefold_map(self.text)
        return self._casefold

    @property
    def normalized(self) -> TextMap:
        if self._normalized is None:
            self._normalized = normalized_map(self.text)
        return self._normalized


class _Ladder:
    """The ladder of one settings object, applied document by document."""

    def __init__(self, settings: GroundingSettings) -> None:
        self.settings = settings
        self.steps = settings.steps
        self.snap = settings.snap
        self.threshold = settings.fuzzy_threshold - _TOLERANCE

    def document(self, doc_id: str, text: str, extractions: Sequence[Extraction],
                 given: Sequence[tuple[int, int]] | None) -> DocumentGrounding:
        doc = _Doc(text, Tokens(text, given, doc_id))
        result = DocumentGrounding(doc_id, text)
        cache: dict[str, _Found | _Missed] = {}
        outcome: list[Any] = []  # per extraction: _Found, _Missed or a claimed Grounded
        use_claimed = self.settings.use_claimed_offsets
        find = self._find
        for ex in extractions:
            s = ex.text
            if use_claimed and ex.start is not None and ex.end is not None and s and not s.isspace():
                claimed = self._claimed(doc, ex)
                if claimed is not None:
                    outcome.append(claimed)
                    continue
                if not (isinstance(ex.start, int) and isinstance(ex.end, int) and 0 <= ex.start < ex.end
                        and text[ex.start:ex.end] == s):
                    result.claimed_mismatches += 1
            found = cache.get(s)
            if found is None:
                found = cache[s] = _EMPTY if not s or s.isspace() else find(doc, s)
            outcome.append(found)
        placed = (_place_all if self.settings.ground_all else _place)(extractions, outcome, len(text) + 1)
        grounded, hallucinations = result.grounded, result.hallucinations
        for ex, item in zip(extractions, placed, strict=True):
            if item.__class__ is _Missed:
                hallucinations.append(Hallucination(ex, item.reason, item.similarity))
            elif len(item) == 1:
                grounded.append(item[0])
            else:
                grounded.extend(item)
        return result

    def _claimed(self, doc: _Doc, ex: Extraction) -> Grounded | None:
        s, e = ex.start, ex.end
        if not (isinstance(s, int) and isinstance(e, int) and 0 <= s < e <= len(doc.text)) \
                or doc.text[s:e] != ex.text:
            return None
        snapped = doc.tokens.snap(s, e, self.snap)
        if snapped is None:
            return None
        sim = 1.0 if snapped == (s, e) else _similarity(normalize(ex.text), doc, snapped)
        return Grounded(ex, snapped[0], snapped[1], CLAIMED, sim)

    def _find(self, doc: _Doc, s: str) -> _Found | _Missed:
        """The first step that finds ``s``, with its snapped occurrences; or why none does."""
        refused = False
        best: float | None = None
        query: str | None = None
        for step in self.steps:
            if step == "exact":
                spans = occurrences(doc.text, s)
            elif step == "casefold":
                spans = mapped(doc.casefold, s.casefold())
            else:
                if query is None:
                    query = normalize(s)
                if not query:
                    continue
                if step == "normalized":
                    spans = mapped(doc.normalized, query)
                else:
                    fuzzy, best, refused_fuzzy = self._fuzzy(doc, query)
                    refused = refused or refused_fuzzy
                    if fuzzy:
                        return _Found(step, fuzzy)
                    continue
            if not spans:
                continue
            candidates: list[Candidate] = []
            changed = False
            tokens, mode = doc.tokens, self.snap
            for span in spans:
                if mode == "none" or tokens.aligned(*span):
                    candidates.append((span, 1.0))
                    continue
                snapped = tokens.snap(span[0], span[1], mode)
                if snapped is None:
                    refused = True
                    continue
                if query is None:
                    query = normalize(s)
                candidates.append((snapped, _similarity(query, doc, snapped)))
                changed = True
            if candidates:
                return _Found(step, distinct(candidates) if changed else candidates)
        if refused:
            return _Missed(NOT_ON_TOKENS, best)
        return _Missed(BELOW_THRESHOLD if best is not None else NOT_FOUND, best)

    def _fuzzy(self, doc: _Doc, query: str) -> tuple[list[Candidate], float | None, bool]:
        """(snapped occurrences that reach the threshold, the best similarity, whether snapping refused one)."""
        form = doc.normalized
        if not form.text:
            return [], None, False
        res = infix(query, form.text)
        if res is None:
            return [], None, False
        best = 1.0 - res["editDistance"] / len(query)
        if best < self.threshold:
            return [], best, False
        out: list[Candidate] = []
        refused, top = False, 0.0
        for a, b in best_locations(res["locations"], len(query), form.text):
            span = form.original(a, b)
            snapped = doc.tokens.snap(span[0], span[1], self.snap)
            if snapped is None:
                refused = True
                continue
            sim = best if snapped == span else _similarity(query, doc, snapped)
            top = max(top, sim)
            if sim >= self.threshold:
                out.append((snapped, sim))
        # nothing kept: the best similarity of what snapping left (below the threshold), or of edlib's locations
        return distinct(out), best if out or refused else top, refused


def _similarity(query: str, doc: _Doc, span: Span) -> float:
    """``max(0, 1 - d / len(query))``, ``d`` the Levenshtein distance of ``query`` and the normalised text of
    ``span``."""
    other = normalize(doc.text[span[0]:span[1]])
    if not query:
        return 0.0
    return max(0.0, 1.0 - levenshtein(query, other) / len(query))


def _place_all(extractions: Sequence[Extraction], outcome: list[Any], width: int = 0) -> list[Any]:
    """``ground_all``: every occurrence of each extraction; one taken earlier is a repeat (claimed first)."""
    taken = {(g.start, g.end) for g in outcome if g.__class__ is Grounded}
    placed: list[Any] = []
    for ex, item in zip(extractions, outcome, strict=True):
        cls = item.__class__
        if cls is Grounded:
            placed.append([item])
        elif cls is _Missed:
            placed.append(item)
        else:
            out = []
            for span, sim in item.candidates:
                out.append(Grounded(ex, span[0], span[1], item.step, sim, span in taken))
                taken.add(span)
            placed.append(out)
    return placed


def _place(extractions: Sequence[Extraction], outcome: list[Any], width: int) -> list[Any]:
    """One occurrence per extraction: claimed spans first, then the longest order-preserving chain, then the
    first free occurrence, else a repeat (see the module docstring).

    Shortcut: when, in list order, each extraction's first free occurrence comes after the one taken before it
    (an extraction with no free occurrence left being a repeat), these occurrences are a longest chain and the
    one :func:`~spacy_anno_eval.llm.occurrences.longest_chain` chooses: each takes its earliest occurrence that
    completes a longest chain, as any earlier one is taken already (``tests/llm/test_grounding.py`` compares
    both on random cases).
    """
    placed: list[Any] = list(outcome)
    todo: list[int] = []
    claimed: set[Span] = set()
    for k, item in enumerate(outcome):
        cls = item.__class__
        if cls is _Found:
            todo.append(k)
        elif cls is Grounded:
            claimed.add((item.start, item.end))
            placed[k] = [item]
    if not todo:
        return placed
    taken = set(claimed)
    prev: Span = (-1, -1)
    greedy: list[Candidate] = []
    for k in todo:
        cs = outcome[k].candidates
        c = cs[0]
        if c[0] in taken:
            c = next((c for c in cs if c[0] not in taken), None)
            if c is None:  # every occurrence taken: a repeat, which no chain can hold
                greedy.append(None)
                continue
        if c[0] <= prev:
            break
        prev = c[0]
        taken.add(prev)
        greedy.append(c)
    if len(greedy) < len(todo):
        taken = claimed
        cands = [outcome[k].candidates for k in todo]
        if taken:
            cands = [[c for c in cs if c[0] not in taken] for cs in cands]
        chosen = longest_chain(cands, width)
        taken.update(c[0] for c in chosen.values())
        greedy = []
        for i, cs in enumerate(cands):
            c = chosen.get(i)
            if c is None:
                for c in cs:
                    if c[0] not in taken:
                        taken.add(c[0])
                        break
                else:
                    c = None  # every occurrence taken: a repeat
            greedy.append(c)
    for k, c in zip(todo, greedy, strict=True):
        found = outcome[k]
        if c is None:
            c = found.candidates[0]
            placed[k] = [Grounded(extractions[k], c[0][0], c[0][1], found.step, c[1], True)]
        else:
            placed[k] = [Grounded(extractions[k], c[0][0], c[0][1], found.step, c[1], False)]
    return placed


__all__ = ["BELOW_THRESHOLD", "CLAIMED", "DEFAULT_FUZZY_THRESHOLD", "DocumentGrounding", "EMPTY", "Grounded",
           "Grounding", "GroundingSettings", "HALLUCINATION", "Hallucination", "NOT_FOUND", "NOT_ON_TOKENS",
           "REASONS", "STEPS", "ground", "parse_ground"]
