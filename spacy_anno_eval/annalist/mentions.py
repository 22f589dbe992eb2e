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
import re
from pathlib import Path
from typing import Any

from ..errors import ConfigError, InputError
from ..io.parse import first_line, json_lines, sniff_json
from .align import Mention


def is_mentions_jsonl(path: str | Path) -> bool:
    p = Path(path)
    if p.suffix.lower() != ".jsonl" or not p.is_file():
        return False
    line = first_line(p, "utf-8-sig", errors="replace", skip_blank=True)  # a sniff: the reader names bad bytes
    if not line:
        return False
    value = sniff_json(line)  # None when not JSON: the corpus reader names what is wrong
    return isinstance(value, dict) and "mentions" in value


def read_mentions_jsonl(path: str | Path, encoding: str = "utf-8-sig") -> tuple[list[Mention], dict[str, str]]:
    """Mentions and document texts (where given) from a mentions JSONL file; a file without a document line
    raises :class:`InputError` (nothing to compare)."""
    p = Path(path)
    mentions, texts = [], {}
    n_docs = 0
    for lineno, doc in json_lines(p, encoding=encoding):
        n_docs += 1
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
    if not n_docs:
        raise InputError(f"{p}: nothing to compare: no documents (the file holds no JSON line)")
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
                  section: str | None = None, **options: Any) -> tuple[list[Mention], dict[str, str]]:
    """Mentions and texts from a mentions JSONL file or any corpus format (``options``: the reader options,
    such as ``encoding``; a mentions file takes ``encoding`` only)."""
    if is_mentions_jsonl(path):
        other = sorted(set(options) - {"encoding"})
        if other:
            raise ConfigError(f"{path}: a mentions JSONL file takes the reader option encoding only, not "
                              f"{', '.join(other)}")
        mentions, texts = read_mentions_jsonl(path, encoding=options.get("encoding") or "utf-8-sig")
        if section and mentions and all(m.section is None for m in mentions):
            raise InputError(f"{path}: --section {section}: no mention of this mentions file has a \"section\"; "
                             f"a mentions file gives each mention's section itself")
        return mentions, texts
    return mentions_from_corpus(_load(path, selector, fmt, section, options), selector, section)


def _load(path: str | Path, selector: str, fmt: str, section: str | None, options: dict[str, Any]) -> Any:
    """The corpus of ``path`` with the set ``selector`` (a set no document holds is refused) and the feature
    naming the section; a ``section`` feature that no annotation carries raises :class:`InputError` listing
    what exists."""
    from ..spans.engine import load

    feature = section if section and section not in _BOUNDARY else None
    corpus = load(str(path), [selector], fmt, [feature] if feature else None, **options)
    if feature is not None:
        table = corpus.get_set(selector)
        if not any(feature in row for row in table.features or ()):
            names = sorted(set(corpus.found_features or ()))
            raise InputError(f"{path} ({selector}): --section {feature}: no annotation carries this feature; a "
                             f"section is sentence, paragraph or a feature: {', '.join(names) or 'none'}")
    return corpus


def read_mention_pair(key: str | Path, response: str | Path, key_set: str = "ents", response_set: str | None = None,
                      fmt: str = "auto", section: str | None = None, level: str = "offset", **options: Any,
                      ) -> tuple[list[Mention], list[Mention], dict[str, str]]:
    """The key's and the response's mentions, and the key's texts (:func:`read_mentions`; ``options``: the
    reader options).

    At the ``offset`` level the offsets must compare, so the two sides must hold the
    same documents with the same texts, checked as ``score`` checks them
    (:func:`~spacy_anno_eval.spans.engine.match_documents`,
    :func:`~spacy_anno_eval.spans.engine.check_texts`); a mentions file is
    checked on the texts it gives.
    """
    response_set = response_set or key_set
    if level != "offset" or is_mentions_jsonl(key) or is_mentions_jsonl(response):
        keys, texts = read_mentions(key, key_set, fmt, section, **options)
        resps, resp_texts = read_mentions(response, response_set, fmt, section, **options)
        if level == "offset":
            _check_given_texts(texts, resp_texts, str(key), str(response))
        return keys, resps, texts
    from ..spans.engine import check_texts, match_documents, options_per_source

    key_options, response_options = options_per_source([key, response], fmt, options)
    kc = _load(key, key_set, fmt, section, key_options)
    rc = _load(response, response_set, fmt, section, response_options)
    check_texts(kc, rc, match_documents(kc, rc))
    keys, texts = mentions_from_corpus(kc, key_set, section)
    resps, _ = mentions_from_corpus(rc, response_set, section)
    return keys, resps, texts


def _check_given_texts(key: dict[str, str], response: dict[str, str], key_source: str, response_source: str) -> None:
    """Raise :class:`InputError` for a document whose key and response texts are both given and differ."""
    for doc, text in key.items():
        other = response.get(doc)
        if other is not None and other != text:
            pos = next((n for n, (a, b) in enumerate(zip(text, other, strict=False)) if a != b),
                       min(len(text), len(other)))
            raise InputError(f"{key_source}, document {doc!r}: the key text differs from the response text "
                             f"({response_source}) at character {pos} (key {text[pos:pos + 20]!r} vs response "
                             f"{other[pos:pos + 20]!r}); character offsets only compare on identical texts")


__all__ = ["is_mentions_jsonl", "mentions_from_corpus", "read_mention_pair", "read_mentions", "read_mentions_jsonl",
           "section_starts"]
