"""Read (and write) a γ :class:`~.continuum.Continuum` from the files annotators and γ tools use.

The formats, each in its module:

- γ's own files (:mod:`.formats`): **CSV** units (``.csv``; ``.tsv`` with a
  tab; pygamma-agreement's layout), **DKPro / pygamma JSON fixtures**
  (``.json``), **Praat TextGrid** (``.TextGrid``) and **ELAN EAF** (``.eaf``):
  :func:`read_csv`, :func:`write_csv`, :func:`read_fixture`,
  :func:`fixture_samples`, :func:`read_textgrid`, :func:`read_eaf`;
- **spaCy** Docs or a ``.spacy`` DocBin, and **annotation corpora** (any
  format :func:`spacy_anno_eval.io.read_corpus` reads), one annotator per
  annotation set, documents laid end to end, a document some set does not
  cover left out (:mod:`.corpora`: :func:`from_docs`, :func:`read_docbin`,
  :func:`from_corpus`, :func:`read_annotations`, :func:`parse_sets`,
  :func:`default_sets`);
- the format of a path (:mod:`.detect`: :func:`continuum_format`, from the
  suffixes and sniffs of :mod:`spacy_anno_eval.io.registry`).

:func:`read_continuum` reads any of them, in the format :func:`continuum_format`
tells; this module also names every public reader above, where the README,
the registry and the tests import them. Every reader raises
:class:`~spacy_anno_eval.errors.InputError` naming the file (and line, tier or
document) on bad input.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from ..errors import ConfigError, InputError
from ..io.parse import check_separator
from .continuum import Continuum
from .corpora import (
    LEFT_OUT,
    UNITS,
    default_sets,
    from_corpus,
    from_docs,
    parse_sets,
    read_annotations,
    read_docbin,
)
from .detect import FORMATS, continuum_format
from .formats import fixture_samples, read_csv, read_eaf, read_fixture, read_textgrid, read_units, write_csv

PathLike = str | os.PathLike

def read_continuum(path: PathLike, *, fmt: str = "auto", sets: str | Sequence[str] | None = None,
                   unit: str = "char", sep: str | None = None, label_feature: str | None = None,
                   missing_as_empty: bool = False) -> Continuum:
    """Read a continuum from ``path``, in the format :func:`continuum_format` tells (or ``fmt`` names).

    γ's own formats: ``csv`` (``.csv``), ``tsv`` (``.tsv``), ``json``
    (DKPro/pygamma fixture), ``textgrid`` (``.TextGrid``), ``eaf``; they name
    their annotators. ``spacy``: a ``.spacy`` DocBin or a folder of them
    (:func:`read_docbin`; uses ``unit``). Any annotation corpus
    :func:`spacy_anno_eval.io.read_corpus` reads (GATE, INCEpTION XMI / TSV3,
    Label Studio, doccano, BioC, Prodigy, NIF, brat, JSONL, CoNLL; character
    positions): :func:`from_corpus`, with ``label_feature`` and ``sep`` for
    its reader. For DocBins and corpora ``sets`` names one selector per
    annotator (default: the input's annotator sets), and a document a set does
    not cover is left out unless ``missing_as_empty``. ``sep``: the delimiter
    of a CSV file (default ``,``; ``.tsv``: a tab).
    """
    p = Path(path)
    fmt = continuum_format(p, fmt)
    if fmt not in FORMATS or fmt == "spacy":
        if label_feature is not None and fmt == "spacy":
            raise ConfigError(f"{p}: --label-feature (label_feature=) reads labels of annotation-tool exports; a "
                              f"DocBin's spans carry their labels")
        if fmt == "spacy":
            if sep is not None:
                raise ConfigError(f"{p}: --sep (sep=) is the delimiter of a CSV file; a DocBin has none")
            return read_docbin(p, sets, unit=unit, missing_as_empty=missing_as_empty)
        if unit != "char":
            raise ConfigError(f"{p}: --unit {unit} (unit=) needs spaCy Docs; a {fmt} corpus has character "
                              f"offsets only")
        options = {k: v for k, v in (("label_feature", label_feature), ("sep", sep)) if v is not None}
        return read_annotations(p, fmt, sets, missing_as_empty=missing_as_empty, **options)
    if label_feature is not None:
        raise ConfigError(f"{p}: --label-feature (label_feature=) reads labels of annotation-tool exports; a {fmt} "
                          f"file's units carry their categories")
    if sep is not None and fmt not in ("csv", "tsv"):
        raise ConfigError(f"{p}: --sep (sep=) is the delimiter of a CSV file; a {fmt} file has none")
    sep = check_separator(sep, single=True)  # the one rule (io.parse)
    if sets:
        names = read_units(p, fmt, sep).annotators  # a file that cannot be read says so first
        given = sets if isinstance(sets, str) else ",".join(map(str, sets))
        raise InputError(f"{p}: --sets {given}: --sets applies to spaCy input only and to annotation corpora; a "
                         f"{fmt} file names its annotators ({', '.join(names) or 'none'}): leave --sets out")
    return read_units(p, fmt, sep)


__all__ = ["FORMATS", "LEFT_OUT", "UNITS", "continuum_format", "default_sets", "fixture_samples", "from_corpus",
           "from_docs", "parse_sets", "read_annotations", "read_continuum", "read_csv", "read_docbin", "read_eaf",
           "read_fixture", "read_textgrid", "write_csv"]
