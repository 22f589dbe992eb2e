"""Which format a continuum file is in (:func:`continuum_format`), told by the one reader registry of ``io``.

γ reads its own formats (:data:`FORMATS`: CSV and TSV units, fixture JSON,
TextGrid, ELAN; ``spacy`` for DocBins) and every annotation corpus
:mod:`spacy_anno_eval.io` reads. The suffixes come from
:mod:`spacy_anno_eval.io.registry`: those of γ's readers (kind
``continuum``: ``gamma-csv``, ``gamma-json``, ``textgrid``, ``eaf``) and of the
``docbin`` reader (``spacy``). Only ``.tsv`` is γ's own here: the registry lists
no TSV reader of units (γ reads them with the CSV reader and a tab). Where an
annotation corpus reader shares one of these suffixes and tells its files by
content (``.json``: Label Studio, GATE, BioC; ``.tsv``: WebAnno TSV3), the
file's beginning decides (:func:`spacy_anno_eval.io.sniff_format`); any other
file, and a folder, is detected as a corpus
(:func:`spacy_anno_eval.io.detect_format`).
"""

from __future__ import annotations

import os
from pathlib import Path

from ..errors import InputError
from ..io.registry import BY_CONTENT, reader, readers

PathLike = str | os.PathLike

#: γ's formats: its own units and ``spacy`` (DocBins, read by :func:`~spacy_anno_eval.gamma.corpora.read_docbin`)
FORMATS = ("csv", "tsv", "json", "textgrid", "eaf", "spacy")
#: γ's formats as :mod:`spacy_anno_eval.io.registry` names their readers
_REGISTERED = {"gamma-csv": "csv", "gamma-json": "json", "textgrid": "textgrid", "eaf": "eaf", "docbin": "spacy"}
#: γ's units separated by tabs: the registry has no reader of them, γ reads them with its CSV reader
_UNREGISTERED = {".tsv": "tsv"}
#: suffixes that a corpus format (CoNLL) reads but say nothing of the content: never taken for a corpus unguided
_UNTOLD_SUFFIXES = (".txt",)


def suffix_formats() -> dict[str, str]:
    """``{suffix: format}`` of γ's formats: the suffixes (shared ones too) of the registered readers of γ's own
    formats and of DocBins, and ``.tsv``."""
    table: dict[str, str] = {}
    for r in (*readers("continuum"), reader("docbin", "spans")):
        name = _REGISTERED.get(r.name)
        if name is not None:
            table.update(dict.fromkeys((*r.suffixes, *r.shared_suffixes), name))
    table.update(_UNREGISTERED)
    return table


def shared_suffixes(table: dict[str, str]) -> set[str]:
    """The suffixes of ``table`` that an annotation-corpus reader shares and tells by the file's beginning
    (:func:`spacy_anno_eval.io.sniff_format`)."""
    return {s for r in readers("spans") if r.sniff == BY_CONTENT for s in r.shared_suffixes if s in table}


def continuum_format(path: PathLike, fmt: str = "auto") -> str:
    """The format :func:`~spacy_anno_eval.gamma.readers.read_continuum` reads ``path`` in: one of :data:`FORMATS`
    (γ's own, ``spacy`` for a DocBin) or the name of a corpus format of :mod:`spacy_anno_eval.io` (``gate``,
    ``xmi``, ``tsv3``, ...).

    ``auto``: a ``.json`` or ``.tsv`` file is a corpus when its beginning says so
    (:func:`spacy_anno_eval.io.sniff_format`: Label Studio, GATE, BioC JSON,
    WebAnno TSV3), else γ's fixture JSON or TSV units; ``.csv``, ``.TextGrid``,
    ``.eaf`` and ``.spacy`` are γ's own; any other suffix, and a folder, is
    detected as a corpus (:func:`spacy_anno_eval.io.detect_format`; a DocBin
    folder is ``spacy``). A ``.txt`` file is read only when named (or as brat
    beside its ``.ann``). ``fmt`` names the format instead (``docbin`` is ``spacy``).
    Raise :class:`InputError` for an unknown ``fmt`` and for a file whose format cannot be told, listing the
    formats (or suffixes) there are.
    """
    from ..io import detect_format, formats, sniff_format

    p = Path(path)
    if fmt != "auto":
        if fmt in FORMATS:
            return fmt
        if fmt in formats():
            return "spacy" if fmt == "docbin" else fmt
        raise InputError(f"unknown continuum format {fmt!r}; use one of {', '.join(FORMATS)} (units) or "
                         f"{', '.join(f for f in formats() if f != 'docbin')} (annotation corpora)")
    suffix = p.suffix.lower()
    table = suffix_formats()
    if not p.is_dir():
        if suffix in shared_suffixes(table):
            return sniff_format(p) or table[suffix]
        if suffix in table:
            return table[suffix]
        if suffix in _UNTOLD_SUFFIXES and not p.with_suffix(".ann").exists():
            raise InputError(f"{p}: cannot tell the format from the suffix {p.suffix!r}; use one of "
                             f"{', '.join(sorted(table))} or name the format")
    try:
        name = detect_format(p)
    except InputError:
        if p.is_dir() or not p.exists():
            raise
        raise InputError(f"{p}: cannot tell the format from the suffix {p.suffix!r}; use one of "
                         f"{', '.join(sorted(table))} or an annotation corpus's, or name the "
                         f"format") from None
    return "spacy" if name == "docbin" else name


__all__ = ["FORMATS", "continuum_format", "shared_suffixes", "suffix_formats"]
