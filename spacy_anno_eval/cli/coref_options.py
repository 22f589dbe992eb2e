"""The options ``anno-eval coref`` and ``anno-eval coref-iaa`` share: one definition, one help text each."""

from __future__ import annotations

from typing import Annotated, Literal

import typer

from ..errors import ConfigError

Match = Literal["exact", "partial", "head"]


def check_coref_format(value: str | None) -> str | None:
    """``--format``: ``auto`` or a format a coreference reader (built in or a plugin) registered
    (:func:`spacy_anno_eval.coref.readers.coref_formats`); a :class:`ConfigError` listing them otherwise."""
    if value is None or value == "auto":
        return value
    from ..coref.readers import coref_formats

    if value not in coref_formats():
        raise ConfigError(f"--format {value!r}: unknown coreference format; use auto or one of "
                          f"{', '.join(coref_formats())}")
    return value


CorefFormatOpt = Annotated[str, typer.Option("--format", "-f", callback=lambda value: check_coref_format(value),
                                             help="The files' format: auto (told by the suffix, then the first "
                                                  "line), conll2012, corefud, docbin (spaCy span groups), jsonl, "
                                                  "or a plugin's.")]
MatchOpt = Annotated[Match, typer.Option("--match", help="Mention matching: exact (the same words), partial (a "
                                                         "response inside the key mention holding its head) or "
                                                         "head (the same head), one-to-one as the CorefUD scorer "
                                                         "pairs them; partial and head need CorefUD heads.")]
ZerosOpt = Annotated[bool, typer.Option("--zeros/--no-zeros", help="Score zero mentions (CorefUD empty nodes; "
                                                                   "matched by position) or remove them after "
                                                                   "singletons.")]
PrefixOpt = Annotated[str, typer.Option("--prefix", help="docbin: the span-group prefix of the clusters "
                                                         "(spacy-experimental's coref_clusters_1, _2, ...).")]


def coref_reader_options(fmt: str, prefix: str) -> dict[str, str]:
    """The reader options the coreference commands pass: ``--prefix`` to the DocBin reader only."""
    return {"prefix": prefix} if fmt == "docbin" else {}


__all__ = ["CorefFormatOpt", "Match", "MatchOpt", "PrefixOpt", "ZerosOpt", "check_coref_format",
           "coref_reader_options"]
