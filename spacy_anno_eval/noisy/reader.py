"""A BIO / BIOES / BILOU reader compatible with nerval's ``parse_bio``: text and character tags.

File format, as nerval's parser: one ``TOKEN LABEL`` per line, separated by
one space (no tab, no third column); ``LABEL`` is ``O`` or a prefix
``B- I- E- S- L- U-`` and a type. The tokens are joined by single spaces;
the characters of a token get its entity type, the space between two tokens
the entity type when both tokens are in the same entity, else ``O``. The
first character of a token labelled ``B-``, ``S-`` or ``U-`` begins an
entity; ``I-``, ``E-`` and ``L-`` continue one. Blank lines are ignored; one
file is one document. Nested entities (an entity interrupted by another type
and continued with ``I-`` tokens) follow nerval's state machine exactly. The
details, and where we differ from nerval on input it mishandles, are in
:mod:`spacy_anno_eval.noisy.evaluate` (step 1).
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Iterable
from pathlib import Path

import numpy as np

from ..errors import InputError, where
from ..io.parse import decode, read_bytes
from .settings import OUTSIDE
from .tags import CharTags

_LINE = re.compile(r"(\S+) (O|[BIESLU]-\S*)")
_BEGIN_PREFIXES = frozenset("BSU")


def _bad_line(source: str | None, number: int, line: str, why: str) -> InputError:
    return InputError(
        f"{where(source or '<bio>', line=number)}: {why}; got {line!r}. Expected 'TOKEN LABEL' separated by one "
        f"space, LABEL being O or B-/I-/E-/S-/L-/U- and a type (the BIO/BIOES format nerval reads)"
    )


def parse_bio(lines: Iterable[str], source: str | None = None) -> CharTags | None:
    """Text and character tags of BIO/BIOES lines, as nerval's ``parse_bio``; None when there is no token.

    ``source`` names the file in error messages; lines are numbered from 1.
    """
    words: list[str] = []
    wtype: list[int] = []
    wbegin: list[bool] = []
    labels = [OUTSIDE]
    index = {OUTSIDE: 0}
    for number, raw in enumerate(lines, 1):
        line = raw.strip()
        if not line:
            continue
        m = _LINE.fullmatch(line)
        if m is None:
            if " " not in line and "\t" not in line:
                why = "no label"
            elif "\t" in line:
                why = "tab-separated or malformed line"
            elif len(line.split()) > 2:
                why = "more than two fields"
            else:
                why = "invalid label"
            raise _bad_line(source, number, raw, why)
        word, label = m.groups()
        if label == OUTSIDE:
            wtype.append(0)
            wbegin.append(False)
        else:
            name = label[2:]
            if not name or name == OUTSIDE:
                raise _bad_line(source, number, raw, f"invalid entity type {name!r}")
            t = index.get(name)
            if t is None:
                t = index[name] = len(labels)
                labels.append(name)
            wtype.append(t)
            wbegin.append(label[0] in _BEGIN_PREFIXES)
        words.append(word)
    if not words:
        return None
    space = _space_types(wtype, wbegin)
    n_words = len(words)
    lengths = np.fromiter(map(len, words), dtype=np.int64, count=n_words)
    seg_types = np.empty(2 * n_words - 1, dtype=np.int32)
    seg_types[0::2] = wtype
    seg_types[1::2] = space
    seg_lens = np.ones(2 * n_words - 1, dtype=np.int64)
    seg_lens[0::2] = lengths
    types = np.repeat(seg_types, seg_lens)
    begins = np.zeros(len(types), dtype=bool)
    word_start = np.concatenate(([0], np.cumsum(lengths[:-1] + 1)))
    wb = np.asarray(wbegin, dtype=bool)
    begins[word_start[wb]] = True
    n_ent = np.bincount(np.asarray(wtype, dtype=np.int64)[wb], minlength=len(labels))
    counts = {labels[t]: int(c) for t, c in enumerate(n_ent.tolist()) if t and c}
    return CharTags(" ".join(words), types, begins, labels, counts)


def _space_types(wtype: list[int], wbegin: list[bool]) -> list[int]:
    """Type of the space after each token but the last, by nerval's rules (including nested entities)."""
    n = len(wtype)
    out = [0] * (n - 1)
    nested = False
    outer = 0
    for k in range(1, n):
        t, b, prev = wtype[k], wbegin[k], wtype[k - 1]
        if t and t == prev and not b:
            out[k - 1] = prev
        elif t and prev and t != prev and b:
            # an entity right after another type: nested if the earlier entity continues later
            j, ft, fb = k, t, b
            while j < n and ft and ft != prev:
                j += 1
                if j < n:
                    ft, fb = wtype[j], wbegin[j]
            if j < n and ft == prev and not fb:
                out[k - 1] = prev
                nested, outer = True, prev
            else:
                nested = False
        elif nested:  # nerval keeps this state until the branch above resets it
            out[k - 1] = outer
    return out


def read_bio(path: str | Path) -> CharTags:
    """Read a BIO/BIOES file (UTF-8) as nerval does; raise when it has no token.

    The bytes are read and decoded by :mod:`spacy_anno_eval.io.parse` (a folder, an unreadable file or text that
    is not UTF-8 is an :class:`InputError` naming the file, and the line and byte where it stops being UTF-8). A
    leading byte-order mark stays in the text, a character of the first token, as this reader has always read it."""
    path = Path(path)
    if not path.exists():
        raise InputError(f"{path}: file not found")
    data = read_bytes(path)
    content = decode(data, path, fix="save it as UTF-8")
    if data.startswith(codecs.BOM_UTF8):  # decode drops it; this reader has always kept it
        content = "\ufeff" + content
    tags = parse_bio(content.splitlines(), str(path))
    if tags is None:
        raise InputError(f"{path}: no token found (an empty BIO file cannot be evaluated)")
    return tags


__all__ = ["parse_bio", "read_bio"]
