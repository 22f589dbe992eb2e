"""Adjudication: build a gold standard from two annotation sets (GATE user guide 10.2.2).

GATE's Annotation Diff has an adjudication panel: the user ticks, row by row,
the key (K) or response (R) annotation to keep and copies the selection to a
target set, until no row is left. Here the same happens in batch:

1. with ``accept_agreed=True`` (the default) every pair with status
   ``correct`` (both sides agree on span, label and significant features) is
   accepted; the key's annotation is copied;
2. a **choices** file (JSONL, one decision per line) copies more annotations::

       {"doc": "d03", "side": "key", "start": 57, "end": 71, "label": "ORG"}
       {"doc": "d03", "side": "response", "start": 24, "end": 36, "label": "ORG"}
       {"doc": "d02", "side": "none", "start": 50, "end": 56, "label": "LOC"}

   ``side`` ``key`` / ``response``: copy that side's annotation with exactly
   these offsets and label in that document to the gold set. ``side`` ``none``:
   reject it, i.e. leave the annotation (of either side) out of the gold set
   even when both sides agreed on it. A decision that matches no annotation
   of its side in its document is an error naming the file, line and
   document; so is a document id the evaluation does not have, and a line
   that both chooses and rejects (another line) the same annotation. Other
   keys in a line (``"note"``, ...) are ignored.

An annotation is identified by (document, start, end, label): one that is
accepted twice (agreed and chosen, chosen from both sides, chosen twice) is
in the gold set once, with the features and origin of its first acceptance
(agreed, then choices in file order).

:func:`to_docs` turns the result into spaCy Docs whose tokens fall on every
accepted span's boundaries, and :func:`~spacy_anno_eval.io.convert.write_docbin` writes them atomically;
:func:`adjudicate_files` does all of it for two files (the ``anno-eval
adjudicate`` command). :func:`undecided_choices` lists the rows still
undecided in the choices format (``adjudicate --undecided FILE``): a person
edits that file (keeps a line, sets its ``side`` to ``none`` or deletes it)
and passes it back as ``--choices``.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import AdjudicationWarning, ConfigError, InputError, where
from ..io.convert import write_docbin
from ..spans.align import CORRECT, STATUS_NAMES

SIDES = ("key", "response", "none")


@dataclass(frozen=True)
class Choice:
    """One adjudication decision: copy (``side`` key / response) or reject (``none``) an annotation."""

    doc: str
    side: str
    start: int
    end: int
    label: str
    line: int | None = None
    source: str = ""

    def where(self) -> str:
        return where(self.source or "choices", self.doc, self.line, (self.start, self.end))

    @classmethod
    def from_dict(cls, record: Any, line: int | None = None, source: str = "") -> Choice:
        """Validate one decision (a JSON object); raise :class:`InputError` naming its line."""
        at = where(source or "choices", line=line)
        if not isinstance(record, Mapping):
            raise InputError(f"{at}: a decision must be a JSON object "
                                     f'{{"doc", "side", "start", "end", "label"}}, got {type(record).__name__}')
        missing = [k for k in ("doc", "side", "start", "end", "label") if k not in record]
        if missing:
            raise InputError(f"{at}: the decision lacks {', '.join(repr(k) for k in missing)}; every line "
                                     f'needs "doc", "side", "start", "end" and "label"')
        doc = record["doc"]
        if not isinstance(doc, (str, int)) or isinstance(doc, bool):
            raise InputError(f"{at}: \"doc\" must be a document id (string), got {doc!r}")
        side = record["side"]
        if side not in SIDES:
            raise InputError(f"{at}: \"side\" must be one of {', '.join(SIDES)}, got {side!r}")
        start, end = record["start"], record["end"]
        if not all(isinstance(x, int) and not isinstance(x, bool) for x in (start, end)):
            raise InputError(f"{at}: \"start\" and \"end\" must be integers (character offsets), "
                                     f"got {start!r} and {end!r}")
        if not 0 <= start < end:
            raise InputError(f"{at}: a span needs 0 <= start < end, got [{start}, {end})")
        label = record["label"]
        if not isinstance(label, str) or not label:
            raise InputError(f"{at}: \"label\" must be a non-empty string, got {label!r}")
        return cls(str(doc), side, start, end, label, line, source)


def read_choices(path: str | os.PathLike) -> list[Choice]:
    """Read a choices file (JSONL, see the module docstring); blank lines are skipped.

    Raise :class:`InputError` naming the file and line for invalid
    JSON or an invalid decision.
    """
    p = Path(path)
    source = str(path)
    if not p.is_file():
        raise InputError(f"{p}: no such choices file")
    from ..io.jsonl import json_lines

    return [Choice.from_dict(record, line_no, source) for line_no, record in json_lines(p)]


# ---------------------------------------------------------------------------
# adjudication


def _side_index(table: Any, labels: Sequence[str]) -> dict[tuple[int, int, int, str], int]:
    """(doc, start, end, label) -> first row of a SpanTable."""
    names = [labels[i] for i in table.label.tolist()]
    index: dict[tuple[int, int, int, str], int] = {}
    for row, key in enumerate(zip(table.doc.tolist(), table.start.tolist(), table.end.tolist(), names,
                                  strict=True)):
        index.setdefault(key, row)
    return index


def _annotation(table: Any, row: int, labels: Sequence[str], origin: str) -> dict[str, Any]:
    out: dict[str, Any] = {"start": int(table.start[row]), "end": int(table.end[row]),
                           "label": labels[int(table.label[row])], "origin": origin}
    if table.features is not None and table.features[row]:
        out["features"] = dict(table.features[row])
    return out


def _nearby(table: Any, labels: Sequence[str], doc: int, limit: int = 6) -> str:
    rows = table.rows(doc)
    shown = [f"[{int(table.start[r])}, {int(table.end[r])}) {labels[int(table.label[r])]}" for r in rows[:limit]]
    if not shown:
        return "it has none there"
    more = f", ... ({len(rows)} in all)" if len(rows) > limit else ""
    return "it has " + ", ".join(shown) + more


@dataclass
class _Result:
    accepted: list[list[dict[str, Any]]]
    rejected: int          # annotations left out of the gold set by "none" decisions
    decided: set[tuple[int, int, int, str]]  # every (doc, start, end, label) chosen or rejected


def _adjudicate(evaluation: Any, choices: Any, accept_agreed: bool) -> _Result:
    al = evaluation.require_pairs("adjudication")
    labels = al.labels
    n_docs = len(evaluation.doc_ids)
    gold: list[dict[tuple[int, int, str], dict[str, Any]]] = [{} for _ in range(n_docs)]

    def accept(doc: int, ann: dict[str, Any]) -> None:
        gold[doc].setdefault((ann["start"], ann["end"], ann["label"]), ann)

    if accept_agreed:
        rows = al.key_row[al.status == CORRECT]
        for row in rows.tolist():
            accept(int(al.key.doc[row]), _annotation(al.key, row, labels, "agreed"))

    decided: set[tuple[int, int, int, str]] = set()
    removed = 0
    if choices is not None:
        if isinstance(choices, (str, os.PathLike)):
            choices = read_choices(choices)
        decisions = [c if isinstance(c, Choice) else Choice.from_dict(c) for c in choices]
        doc_index = {d: i for i, d in enumerate(evaluation.doc_ids)}
        tables = {"key": al.key, "response": al.response}
        indexes: dict[str, dict[tuple[int, int, int, str], int]] = {}

        def find(side: str, key: tuple[int, int, int, str]) -> int | None:
            if side not in indexes:
                indexes[side] = _side_index(tables[side], labels)
            return indexes[side].get(key)

        chosen: dict[tuple[int, int, int, str], Choice] = {}
        rejected: dict[tuple[int, int, int, str], Choice] = {}
        to_copy: list[tuple[int, dict[str, Any]]] = []
        for c in decisions:
            d = doc_index.get(c.doc)
            if d is None:
                ids = ", ".join(repr(i) for i in evaluation.doc_ids[:5])
                raise InputError(f"{c.where()}: no document with this id in the evaluation (its ids: {ids}"
                                         f"{', ...' if n_docs > 5 else ''}); use the key's document ids")
            key = (d, c.start, c.end, c.label)
            if c.side == "none":
                if find("key", key) is None and find("response", key) is None:
                    raise InputError(
                        f"{c.where()}: rejects [{c.start}, {c.end}) {c.label}, but neither side has this "
                        f"annotation in this document (key: {_nearby(al.key, labels, d)}; response: "
                        f"{_nearby(al.response, labels, d)})")
                other = chosen.get(key)
                rejected.setdefault(key, c)
            else:
                row = find(c.side, key)
                if row is None:
                    raise InputError(
                        f"{c.where()}: the {c.side} has no annotation [{c.start}, {c.end}) {c.label} in this "
                        f"document ({_nearby(tables[c.side], labels, d)}); fix the offsets, label or side")
                other = rejected.get(key)
                chosen.setdefault(key, c)
                to_copy.append((d, _annotation(tables[c.side], row, labels, c.side)))
            if other is not None:
                at = f"line {other.line}" if other.line is not None else "another decision"
                raise InputError(f"{c.where()}: contradicts {at}, which "
                                         f"{'chooses' if c.side == 'none' else 'rejects'} the same annotation; "
                                         f"keep one of the two decisions")
        for d, ann in to_copy:
            accept(d, ann)
        for d, start, end, label in rejected:
            if gold[d].pop((start, end, label), None) is not None:
                removed += 1
        decided = set(chosen) | set(rejected)

    accepted = [sorted(g.values(), key=lambda a: (a["start"], a["end"], a["label"])) for g in gold]
    return _Result(accepted, removed, decided)


def adjudicate(evaluation: Any, choices: Any = None, *, accept_agreed: bool = True) -> list[list[dict[str, Any]]]:
    """The gold set of every document of ``evaluation``, in its document order.

    ``choices``: a path to a choices file, or an iterable of :class:`Choice`
    or of dicts with the same keys (see the module docstring). Each
    document's accepted annotations are dicts ``{"start", "end", "label",
    "origin"}`` (origin ``agreed``, ``key`` or ``response``), with
    ``"features"`` when the annotation has any, sorted by offsets.
    """
    return _adjudicate(evaluation, choices, accept_agreed).accepted


# ---------------------------------------------------------------------------
# spaCy Docs


def _words(text: str, starts: set[int], ends: set[int]) -> tuple[list[str], list[bool]]:
    """Words and trailing-space flags that rebuild ``text`` exactly, with a token boundary at every
    whitespace / non-whitespace change and at every offset in ``starts`` and ``ends``.

    A single space after a word becomes that word's trailing space unless a
    span starts on the space or ends right after it; other whitespace becomes
    whitespace tokens (as in spaCy).
    """
    n = len(text)
    is_space = np.fromiter((ch.isspace() for ch in text), dtype=bool, count=n)
    change = np.flatnonzero(is_space[1:] != is_space[:-1]) + 1 if n else np.zeros(0, dtype=np.int64)
    cuts = sorted({0, n, *change.tolist(), *(s for s in starts if 0 < s < n), *(e for e in ends if 0 < e < n)})
    words: list[str] = []
    spaces: list[bool] = []
    last_is_space = True
    for i, j in zip(cuts[:-1], cuts[1:], strict=True):
        space = bool(is_space[i])
        if (space and text[i] == " " and words and not last_is_space and not spaces[-1]
                and i not in starts and i + 1 not in ends):
            spaces[-1] = True
            i += 1
            if i == j:
                continue
        words.append(text[i:j])
        spaces.append(False)
        last_is_space = space
    return words, spaces


def check_target(target: Any) -> str:
    """The name of the span group the gold goes to, checked: one that the selector ``spans:<target>`` reads
    back everywhere (not empty, no spaces around it, no ``;``, which separates the selectors of ``--sets``)."""
    if not isinstance(target, str) or not target.strip() or target != target.strip() or ";" in target:
        raise ConfigError(f"--target {target!r}: the gold's span group needs a name that a selector can read "
                          f"back as spans:NAME (not empty, no spaces around it, no ';'), such as --target gold")
    return target


def to_docs(evaluation: Any, accepted: Sequence[Sequence[Mapping[str, Any]]], target: str = "gold",
            vocab: Any = None, *, ents: bool = True) -> list[Any]:
    """spaCy Docs holding the accepted annotations, one per document of ``evaluation``.

    The texts are ``evaluation.texts``, tokenised on whitespace and at every
    accepted span's start and end (see :func:`_words`), so every span lands
    on token boundaries with its exact character offsets. Each Doc has:

    - ``doc.spans[target]``: every accepted annotation (overlaps allowed), with
      ``kb_id`` / ``id`` set from the features of those names; other features
      are not stored;
    - ``doc.ents`` (when ``ents``): the same annotations when none of them
      overlap, every other token ``O``. A document whose annotations overlap
      cannot hold them as entities: its entity annotation is left unset
      (missing, not ``O``) and an :class:`AdjudicationWarning` names it;
    - ``doc.user_data["doc_id"]``: the document id.
    """
    from spacy.tokens import Doc
    from spacy.vocab import Vocab

    check_target(target)
    if evaluation.texts is None:
        raise ConfigError("this evaluation keeps no texts (it was merged from shards); build the Docs from an "
                         "evaluation made by evaluate()")
    if len(accepted) != len(evaluation.doc_ids):
        raise InputError(f"accepted has {len(accepted)} documents but the evaluation {len(evaluation.doc_ids)}; "
                         f"pass the list that adjudicate() returned")
    vocab = vocab if vocab is not None else Vocab()
    docs = []
    overlapping = []
    for doc_id, text, anns in zip(evaluation.doc_ids, evaluation.texts, accepted, strict=True):
        anns = sorted(anns, key=lambda a: (a["start"], a["end"], a["label"]))
        words, spaces = _words(text, {a["start"] for a in anns}, {a["end"] for a in anns})
        doc = Doc(vocab, words=words, spaces=spaces)
        if doc.text != text:  # pragma: no cover - a bug in _words
            raise RuntimeError(f"document {doc_id!r}: the tokens do not rebuild the text")
        spans = []
        for a in anns:
            feats = a.get("features") or {}
            kb_id, span_id = feats.get("kb_id"), feats.get("id")
            span = doc.char_span(a["start"], a["end"], label=a["label"],
                                 kb_id=kb_id if isinstance(kb_id, str) else "",
                                 span_id=span_id if isinstance(span_id, str) else "")
            if span is None:
                raise InputError(f"{where(doc=doc_id, span=(a['start'], a['end']))}: the span is outside the "
                                 f"text of {len(text)} characters")
            spans.append(span)
        doc.spans[target] = spans
        if ents:
            ends = np.array([s.end for s in spans])
            if len(spans) < 2 or (np.array([s.start for s in spans])[1:] >= np.maximum.accumulate(ends)[:-1]).all():
                doc.set_ents(spans, default="outside")
            else:
                overlapping.append(doc_id)
        doc.user_data["doc_id"] = doc_id
        docs.append(doc)
    if overlapping:
        shown = ", ".join(repr(d) for d in overlapping[:5])
        warnings.warn(f"{len(overlapping)} document(s) ({shown}{', ...' if len(overlapping) > 5 else ''}) have "
                      f"overlapping gold annotations; they are in doc.spans[{target!r}] but doc.ents is left unset "
                      f"there", AdjudicationWarning, stacklevel=2)
    return docs


def _undecided_rows(evaluation: Any, result: _Result, accept_agreed: bool) -> list[tuple[int, int, int, int]]:
    """``(doc, key_row, response_row, status)`` of the Diff rows none of whose annotations was accepted or
    decided on (GATE's rows left in the table), in document order."""
    al = evaluation.alignment
    labels = al.labels
    gold = [{(a["start"], a["end"], a["label"]) for a in anns} for anns in result.accepted]
    out = []
    for doc, k, r, status in zip(al.doc.tolist(), al.key_row.tolist(), al.response_row.tolist(),
                                 al.status.tolist(), strict=True):
        if accept_agreed and status == CORRECT:
            continue
        done = False
        for table, row in ((al.key, k), (al.response, r)):
            if row >= 0:
                span = (int(table.start[row]), int(table.end[row]), labels[int(table.label[row])])
                done = done or span in gold[doc] or (doc, *span) in result.decided
        if not done:
            out.append((doc, k, r, status))
    return out


def _unresolved(evaluation: Any, result: _Result, accept_agreed: bool) -> int:
    """How many Diff rows are left undecided (:func:`_undecided_rows`)."""
    return len(_undecided_rows(evaluation, result, accept_agreed))


def undecided_choices(evaluation: Any, choices: Any = None, *, accept_agreed: bool = True) -> list[dict[str, Any]]:
    """The Diff rows still undecided after ``choices`` (and, with ``accept_agreed``, the agreed rows), as lines
    of the choices format for a person to fill in.

    Each row gives one line per annotation it has (a correct row, only its
    key's): ``{"doc", "side", "start", "end", "label"}`` with ``side`` the
    side that has the annotation, so that the line, kept as it is, copies that
    annotation to the gold set; set ``side`` to ``"none"`` to reject it, or
    delete the line to leave it undecided. The extra keys, which
    :func:`read_choices` ignores, say what the row is: ``row`` (its number
    here: the lines of one row are alternatives), ``status`` (the Diff status),
    ``text`` (when the texts are known) and ``features`` (when it has any).
    """
    return _undecided_lines(evaluation, _adjudicate(evaluation, choices, accept_agreed), accept_agreed)


def _undecided_lines(evaluation: Any, result: _Result, accept_agreed: bool) -> list[dict[str, Any]]:
    al = evaluation.alignment
    lines: list[dict[str, Any]] = []
    for n, (doc, k, r, status) in enumerate(_undecided_rows(evaluation, result, accept_agreed), 1):
        sides = [("key", al.key, k)] + ([] if status == CORRECT else [("response", al.response, r)])
        for side, table, row in sides:
            if row < 0:
                continue
            ann = evaluation.annotation(table, row, doc)
            line = {"doc": evaluation.doc_ids[doc], "side": side, "start": ann["start"], "end": ann["end"],
                    "label": ann["label"], "row": n, "status": STATUS_NAMES[status]}
            if "text" in ann:
                line["text"] = ann["text"]
            if ann.get("features"):
                line["features"] = ann["features"]
            lines.append(line)
    return lines


def write_choices(lines: Iterable[Mapping[str, Any]], path: str | os.PathLike) -> Path:
    """Write choices lines (:func:`undecided_choices`) as JSONL to ``path``, atomically."""
    from ..files import json_text, write_text

    return write_text(path, "".join(json_text(dict(line), default=str) + "\n" for line in lines))


def adjudicate_files(key_path: str | os.PathLike, response_path: str | os.PathLike, out_path: str | os.PathLike,
                     choices_path: str | os.PathLike | None = None, key_set: str = "ents",
                     response_set: str | None = None, target: str = "gold", fmt: str = "auto",
                     accept_agreed: bool = True, reader_options: dict[str, Any] | None = None,
                     undecided_path: str | os.PathLike | None = None) -> dict[str, Any]:
    """Adjudicate two annotation files into a gold DocBin at ``out_path`` (``reader_options``, such as
    ``encoding`` or ``sep``, go to the file readers); with ``undecided_path``, also write the rows still
    undecided there, in the choices format, for a person to fill in (:func:`undecided_choices`).

    Reads and aligns ``key_path`` and ``response_path`` (any format
    :func:`spacy_anno_eval.io.read_corpus` reads; ``key_set`` /
    ``response_set`` select the sets), applies :func:`adjudicate` with the
    decisions of ``choices_path``, and writes the Docs of :func:`to_docs`
    (``doc.spans[target]`` and ``doc.ents``) with :func:`write_docbin`.
    Returns a summary::

        {"docs": int, "agreed": int, "chosen": int, "rejected": int, "total": int,
         "unresolved": int, "out": str, "target": str}

    ``agreed``: gold annotations accepted because both sides agreed;
    ``chosen``: further ones copied by a decision; ``rejected``: agreed or
    chosen annotations left out by a ``none`` decision; ``total`` = agreed +
    chosen, the size of the gold set; ``unresolved``: diff rows (pairs, misses,
    false alarms) on which no decision was made, which GATE would still show.
    """
    from ..spans.engine import evaluate

    check_target(target)  # before any work
    choices = read_choices(choices_path) if choices_path is not None else None
    evaluation = evaluate(os.fspath(key_path), os.fspath(response_path), key_set=key_set,
                          response_set=response_set, fmt=fmt, reader_options=reader_options)
    result = _adjudicate(evaluation, choices, accept_agreed)
    docs = to_docs(evaluation, result.accepted, target=target)
    out = write_docbin(docs, out_path)
    agreed = sum(a["origin"] == "agreed" for anns in result.accepted for a in anns)
    total = sum(len(anns) for anns in result.accepted)
    summary = {"docs": len(docs), "agreed": agreed, "chosen": total - agreed, "rejected": result.rejected,
               "total": total, "unresolved": _unresolved(evaluation, result, accept_agreed), "out": str(out),
               "target": target}
    if undecided_path is not None:
        lines = _undecided_lines(evaluation, result, accept_agreed)
        summary["undecided"] = str(write_choices(lines, undecided_path))
        summary["undecided_lines"] = len(lines)
    return summary


__all__ = ["AdjudicationWarning", "Choice", "SIDES", "adjudicate", "adjudicate_files", "read_choices", "to_docs",
           "undecided_choices", "write_choices", "write_docbin"]
