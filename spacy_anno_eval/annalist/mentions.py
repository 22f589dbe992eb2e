"""Mentions for ANNALIST alignment (:mod:`spacy_anno_eval.annalist.align`) from any corpus, or from a JSONL file
of mentions without offsets.

- Any corpus the readers know (DocBin, JSONL, CoNLL, brat): each annotation
  of the selected set becomes a mention with ``id`` = ``"start-end"``,
  ``value`` = its text, offsets, and ``section``: ``"sentence"`` (the
  sentence of the text the mention starts in: text up to ``.``, ``!`` or ``?``
  followed by white space, or a line break), ``"paragraph"`` (text between
  blank lines), or any other name = the value of that feature.
- A *mentions* JSONL file (one document per line; detected by a
  ``mentions`` key): ``{"id": doc id, "text": optional, "mentions": [{"id",
  "label" (or "name"), "text" (or "value"), "start"?, "end"?, "section"?}]}``
  — offsets may be left out (order level); mentions keep the file's order.
"""

from __future__ import annotations

import bisect
import json
import re
from pathlib import Path
from typing import Any

from ..errors import InputError
from .align import Mention


def is_mentions_jsonl(path: str | Path) -> bool:
    p = Path(path)
    if p.suffix.lower() != ".jsonl" or not p.is_file():
        return False
    with p.open(encoding="utf-8-sig") as handle:
        for line in handle:
            if line.strip():
                try:
                    return "mentions" in json.loads(line)
                except json.JSONDecodeError:
                    return False
    return False


def read_mentions_jsonl(path: str | Path) -> tuple[list[Mention], dict[str, str]]:
    """Mentions and document texts (where given) from a mentions JSONL file."""
    from ..io.jsonl import json_lines

    p = Path(path)
    mentions, texts = [], {}
    for lineno, doc in json_lines(p, encoding="utf-8-sig"):
        try:
            doc_id = str(doc.get("id", doc.get("meta", {}).get("id", lineno)))
            if "text" in doc:
                texts[doc_id] = doc["text"]
            for k, m in enumerate(doc["mentions"]):
                name = m.get("label", m.get("name"))
                value = m.get("text", m.get("value"))
                if name is None or value is None:
                    raise InputError(f"{p}, line {lineno}: mention {k + 1} needs a label and a text")
                start, end = m.get("start"), m.get("end")
                if (start is None) != (end is None):
                    raise InputError(f"{p}, line {lineno}: mention {k + 1} has only one of start/end")
                mentions.append(Mention(doc_id, str(m.get("id", k + 1)), str(name), str(value),
                                        None if start is None else int(start), None if end is None else int(end),
                                        None if m.get("section") is None else str(m["section"]), order=k))
        except InputError:
            raise
        except (AttributeError, KeyError, TypeError, ValueError) as err:
            expected = '{"id": ..., "mentions": [{"label", "text", "start"?, "end"?}]}'
            raise InputError(f"{p}, line {lineno}: not a mentions document ({err}); expected "
                                     f"{expected}") from None
    return mentions, texts


_BOUNDARY = {"sentence": re.compile(r"(?<=[.!?])\s+|\n+"), "paragraph": re.compile(r"\n\s*\n")}


def section_starts(text: str, kind: str) -> list[int]:
    """Start offsets of the sentences or paragraphs of ``text`` (see the module docstring)."""
    return [0] + [m.end() for m in _BOUNDARY[kind].finditer(text)]


def mentions_from_corpus(corpus: Any, selector: str, section: str | None = None) -> tuple[list[Mention], dict]:
    """Mentions of the set ``selector`` of a :class:`~spacy_anno_eval.annotations.table.Corpus`, and its texts."""
    table = corpus.get_set(selector)
    out = []
    texts = {corpus.doc_ids[d]: corpus.texts[d] for d in range(len(corpus))}
    starts: dict[int, list[int]] = {}
    for row in range(len(table)):
        d, s, e = int(table.doc[row]), int(table.start[row]), int(table.end[row])
        feats = table.features[row] if table.features is not None else {}
        if section in _BOUNDARY:
            if d not in starts:
                starts[d] = section_starts(corpus.texts[d], section)
            sec: Any = f"{section} {bisect.bisect_right(starts[d], s)}"
        else:
            sec = feats.get(section) if section else None
        out.append(Mention(corpus.doc_ids[d], f"{s}-{e}", table.labels[int(table.label[row])],
                           corpus.texts[d][s:e], s, e, None if sec is None else str(sec)))
    return out, texts


def read_mentions(path: str | Path, selector: str = "ents", fmt: str = "auto",
                  section: str | None = None) -> tuple[list[Mention], dict[str, str]]:
    """Mentions and texts from a mentions JSONL file or any corpus format."""
    if is_mentions_jsonl(path):
        return read_mentions_jsonl(path)
    from ..spans.engine import load

    corpus = load(str(path), [selector], fmt, [section] if section and section not in _BOUNDARY else None)
    return mentions_from_corpus(corpus, selector, section)


__all__ = ["is_mentions_jsonl", "mentions_from_corpus", "read_mentions", "read_mentions_jsonl", "section_starts"]
