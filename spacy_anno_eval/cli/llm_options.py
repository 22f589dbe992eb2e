"""What ``anno-eval score`` and ``anno-eval relations`` add for a language model's output given as strings.

``--format llm-ner|llm-json|langextract`` (score) or ``--format llm-relations`` (relations) names the format
of RESPONSE only: the model's extractions, read by :mod:`spacy_anno_eval.llm.readers`; the key's format is then
detected (``auto``). Such a run goes to :func:`spacy_anno_eval.workflows.llm.score_extractions` (or
:func:`~spacy_anno_eval.workflows.llm_relations.score_relation_extractions`), with the grounding options of
this module: ``--ground`` (the ladder), ``--ground-all``, ``--snap``, ``--labels`` (llm-ner's task labels) and
``--grounding OUT`` (one row per extraction, by suffix JSON lines, CSV or TSV). Those options with any other
format are refused (exit 2), as are the options an extraction run cannot take (``--response-set``,
``--shards``, ``--dask``, ``--chunk-docs``).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated, Any, Literal

import typer

from ..errors import ConfigError
from .app import FORMAT_HELP

#: the extraction formats ``score`` does not read (their documents hold triples, not entities)
RELATION_FORMATS = ("llm-relations",)
DEFAULT_GROUND = "exact,casefold,normalized,fuzzy:0.8"
SnapMode = Literal["strict", "contract", "expand", "none"]


def _llm_formats() -> list[str]:
    from ..llm.readers import llm_formats

    return llm_formats()


def is_llm_format(fmt: str | None) -> bool:
    """Whether ``fmt`` names an extraction reader (a language model's output) rather than a span reader."""
    if fmt in (None, "auto"):
        return False
    from ..io import formats

    return fmt not in formats() and fmt in _llm_formats()


def _check(value: str | None, relations: bool) -> str | None:
    if value is None or value == "auto":
        return value
    from ..io import formats

    spans = formats()
    llm = [f for f in _llm_formats() if (f in RELATION_FORMATS) == relations]
    if value in spans or value in llm:
        return value
    raise ConfigError(f"--format {value!r}: unknown format; use auto or one of {', '.join(spans)}; for a language "
                      f"model's output as RESPONSE: {', '.join(llm)}")


def check_score_format(value: str | None) -> str | None:
    """score's ``--format``: ``auto``, a span reader's format, or (RESPONSE only) an extraction format other than
    the relation formats; a :class:`ConfigError` listing both otherwise."""
    return _check(value, relations=False)


def check_relations_format(value: str | None) -> str | None:
    """relations' ``--format``: ``auto``, a span reader's format, or (RESPONSE only) ``llm-relations``."""
    return _check(value, relations=True)


ScoreFormat = Annotated[str, typer.Option("--format", "-f", callback=lambda value: check_score_format(value),
                                          help=FORMAT_HELP[:-1] + "; RESPONSE only: llm-ner, llm-json, langextract "
                                               "(a language model's extractions as strings, grounded in KEY's "
                                               "texts; KEY's format is then detected).")]
RelationsFormat = Annotated[str, typer.Option("--format", "-f",
                                              callback=lambda value: check_relations_format(value),
                                              help=FORMAT_HELP[:-1] + "; RESPONSE only: llm-relations (a language "
                                                   "model's triples as strings, grounded in KEY's texts; KEY's "
                                                   "format is then detected).")]
Ground = Annotated[str | None, typer.Option("--ground", help="llm formats: the grounding ladder, steps in this "
                                                             "order, each optional: exact,casefold,normalized,"
                                                             "fuzzy:0.8 (the default; fuzzy's least similarity "
                                                             "1 - edits / length).")]
GroundAll = Annotated[bool, typer.Option("--ground-all", help="llm formats: ground every occurrence of a string "
                                                              "(spacy-llm without single_match), not one per "
                                                              "extraction.")]
Snap = Annotated[SnapMode | None, typer.Option("--snap", case_sensitive=False,
                                               help="llm formats: snap found spans to KEY's tokens as spaCy's "
                                                    "alignment_mode (strict, contract, expand) or not (none); "
                                                    "default contract.")]
Labels = Annotated[str | None, typer.Option("--labels", help="llm-ner: the task's labels (',' or ';' between "
                                                             "them), spacy-llm's canonical spellings; a label "
                                                             "the model wrote outside them is left out, and "
                                                             "told.")]
GroundingOut = Annotated[Path | None, typer.Option("--grounding", help="llm formats: write one row per "
                                                                       "extraction (step, offsets, similarity, "
                                                                       "reason): .jsonl, .csv or .tsv by "
                                                                       "suffix.")]


def refuse_llm_options(fmt: str, **given: Any) -> None:
    """Raise :class:`ConfigError` for an llm-only option (``given``: ``{"--ground": value, ...}``, ``None`` /
    ``False`` when not given) used with a span format."""
    used = [name for name, value in given.items() if value not in (None, False)]
    if used:
        raise ConfigError(f"{used[0]} applies to a language model's output (--format "
                          f"{'|'.join(f for f in _llm_formats() if f not in RELATION_FORMATS)} or llm-relations); "
                          f"the format here is {fmt}")


def refuse_for_llm(fmt: str, **given: Any) -> None:
    """Raise :class:`ConfigError` for an option an extraction run cannot take (``given`` as above)."""
    used = [name for name, value in given.items() if value not in (None, False)]
    if used:
        raise ConfigError(f"{used[0]} does not apply with --format {fmt}: the extractions are one set, read at once "
                          f"and grounded in the key's texts; leave it out")


def grounding_settings(ground: str | None, ground_all: bool, snap: str | None) -> Any:
    """The :class:`~spacy_anno_eval.llm.grounding.GroundingSettings` of ``--ground``, ``--ground-all`` and
    ``--snap`` (checked before any work)."""
    from ..llm.grounding import parse_ground

    return parse_ground(DEFAULT_GROUND if ground is None else ground, ground_all=ground_all,
                        snap=(snap or "contract").lower())


def split_reader_options(key: str | os.PathLike, fmt: str, options: dict[str, Any],
                         labels: str | None) -> tuple[dict[str, Any], dict[str, Any]]:
    """The reader options for the key's reader (format detected) and for the extraction reader ``fmt``: each gets
    those it takes (both, for one both take: ``encoding``); one that neither takes is a :class:`ConfigError`
    naming what each takes. ``--labels`` goes to the extraction reader, which must take it (llm-ner)."""
    from ..io import detect_format, reader_options
    from ..llm.readers import llm_reader_options

    llm_takes = llm_reader_options(fmt)
    extraction: dict[str, Any] = {}
    if labels is not None:
        if llm_takes is not None and "labels" not in llm_takes:
            raise ConfigError(f"--labels names the task's labels of llm-ner; the {fmt} reader takes none")
        extraction["labels"] = labels
    if not options:
        return {}, extraction
    key_takes = reader_options(detect_format(key)) if Path(key).exists() else None
    key_options: dict[str, Any] = {}
    for name, value in options.items():
        to_key = key_takes is None or name in key_takes
        to_llm = llm_takes is None or name in llm_takes
        if not (to_key or to_llm):
            raise ConfigError(f"neither the key's reader nor the {fmt} reader takes the option {name!r}; the key's "
                              f"takes {', '.join(key_takes or ()) or 'no options'}, the {fmt} reader "
                              f"{', '.join(llm_takes or ()) or 'no options'}")
        if to_key:
            key_options[name] = value
        if to_llm:
            extraction[name] = value
    return key_options, extraction


#: the columns of ``--grounding`` (CSV, TSV), the grounding's rows
GROUNDING_COLUMNS = ("doc", "order", "label", "text", "step", "start", "end", "matched", "similarity", "repeat",
                     "reason", "source")


def write_grounding(path: Path | None, result: Any) -> None:
    """Write ``--grounding``: every row of the result's grounding, through :func:`spacy_anno_eval.files.write_rows`."""
    if path is None:
        return
    from ..files import write_rows

    write_rows(path, result.grounding.rows(), GROUNDING_COLUMNS)


# -- the runs -----------------------------------------------------------------------------------------------------


def score_llm(key: Path, response: Path, settings: dict[str, Any], analysis: Any, *, ground: str | None,
              ground_all: bool, snap: str | None, labels: str | None, streamed: dict[str, Any],
              outputs: dict[str, Path | None], per_doc: bool, errors_all: bool, quiet: bool) -> None:
    """``anno-eval score KEY RESPONSE --format llm-...``: ``settings`` are score's (:func:`~spacy_anno_eval.cli.
    score.score`), ``analysis`` its error-analysis settings; writes ``outputs`` (``json``, ``errors``,
    ``grounding``, ``html``: the JSON first), then prints the tables."""
    from ..workflows.llm import score_extractions

    fmt = settings.pop("fmt")
    refuse_for_llm(fmt, **streamed, **{"--response-set": settings.pop("response_set")})
    ladder = grounding_settings(ground, ground_all, snap)
    key_options, extraction_options = split_reader_options(key, fmt, settings.pop("reader_options"), labels)
    result = score_extractions(str(key), str(response), grounding=ladder, fmt=fmt, reader_options=key_options,
                               extraction_options=extraction_options, **settings)
    report = result.report(per_doc=per_doc, lazy=True, rows=per_doc)  # the rows with the per-document rows
    from ..workflows.analysis import analysis_sections, error_rows

    sections = analysis_sections(result.evaluation, analysis)
    report.update(sections)
    if outputs["errors"] is not None:
        from ..files import write_rows
        from ..spans.decisions import COLUMNS

        write_rows(outputs["errors"], error_rows(result.evaluation, analysis), COLUMNS)
    if outputs["json"] is not None:
        from ..report.json import write_json

        write_json(report, outputs["json"])
    write_grounding(outputs["grounding"], result)
    if outputs["html"] is not None:
        from ..files import write_text
        from ..report.grounding import grounding_panel
        from ..report.html import render_html

        panel = grounding_panel(report["grounding"], report["sets"], result.hallucination_rows())
        write_text(outputs["html"], render_html(report, result.evaluation, title="Language model extractions",
                                                extra_tabs=[("grounding", "Grounding", panel)]))
    if not quiet:
        from ..report.analysis_terminal import analysis_lines
        from ..report.grounding import print_grounding
        from ..report.terminal import print_report
        from ..report.written_terminal import written_line

        print_report(report)
        for line in analysis_lines(sections):
            typer.echo(line)
        print_grounding(report["grounding"], report["sets"])
        names = {"json": "report", "errors": "decisions" if errors_all else "errors", "grounding": "grounding",
                 "html": "HTML report"}
        for what, path in outputs.items():
            if path is not None:
                typer.echo(written_line(names[what], path), err=True)


def relations_llm(key: Path, response: Path, *, fmt: str, key_set: str, response_set: str | None, alignment: str,
                  partial_entities: str, report: Path | None, grounding: Path | None,
                  ground: tuple[str | None, bool, str | None], reader_options: dict[str, Any], encoding: str,
                  quiet: bool) -> None:
    """``anno-eval relations KEY RESPONSE --format llm-relations``: the triples grounded and scored
    (:func:`~spacy_anno_eval.workflows.llm_relations.score_relation_extractions`); the alignment report
    (``--report``) with a row per triple left unscored because an argument is not in the text, ``--grounding``,
    then the tables."""
    from ..workflows.llm_relations import score_relation_extractions

    refuse_for_llm(fmt, **{"--response-set": response_set})
    ladder = grounding_settings(*ground)
    key_options, extraction_options = split_reader_options(key, fmt, reader_options, None)
    result = score_relation_extractions(str(key), str(response), key_set=key_set, grounding=ladder, fmt=fmt,
                                        reader_options=key_options, extraction_options=extraction_options,
                                        encoding=encoding, alignment=alignment, partial_entities=partial_entities)
    data = result.to_dict(rows=True)
    if report is not None:
        from ..report.annalist_terminal import relations_report_rows
        from .alignment_report import write_alignment_report

        rows = relations_report_rows(result.entities.diff_rows(), result.relations.decision_rows())
        rows += [{"kind": "relation", "doc": u["doc"], "status": "unscored", "name": u["name"], "key_id": None,
                  "response_id": u["relation"], "attributes": "", "reason": u["reason"]} for u in result.ungrounded]
        write_alignment_report(report, rows, data)
    write_grounding(grounding, result)
    if not quiet:
        from ..report.annalist_terminal import relation_lines, unscored_line
        from ..report.grounding import print_grounding, ungrounded_line

        for line in relation_lines(data["relations"]):
            typer.echo(line)
        print_grounding(data["grounding"])
        for line in (unscored_line(result.relations), ungrounded_line(data["n_ungrounded"])):
            if line is not None:
                typer.echo(line, err=True)


__all__ = ["DEFAULT_GROUND", "GROUNDING_COLUMNS", "Ground", "GroundAll", "GroundingOut", "Labels", "RelationsFormat",
           "ScoreFormat", "Snap", "check_relations_format", "check_score_format", "grounding_settings",
           "is_llm_format", "refuse_for_llm", "refuse_llm_options", "split_reader_options",
           "relations_llm", "score_llm", "write_grounding"]
