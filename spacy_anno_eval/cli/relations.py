"""``anno-eval relations``: ANNALIST relation scoring over entities aligned by offsets."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal

import typer

from .alignment_report import write_alignment_report
from .app import (
    AlignmentReport,
    Encoding,
    KeyCorpus,
    KeySet,
    Quiet,
    ReaderOption,
    ResponseSet,
    Sep,
    app,
    reader_option_files,
    reader_settings,
    warn_same_input,
)
from .llm_options import Ground, GroundAll, GroundingOut, RelationsFormat, Snap

RelationAlignment = Literal["strict", "lenient"]
PartialEntities = Literal["partial", "correct"]


@app.command()
def relations(
    key: KeyCorpus,
    response: Annotated[Path, typer.Argument(metavar="RESPONSE", help="Response corpus with relations (JSONL or "
                                                                      "DocBin), same documents.")],
    fmt: RelationsFormat = "auto",
    key_set: KeySet = "ents",
    response_set: ResponseSet = None,
    alignment: Annotated[RelationAlignment, typer.Option("--alignment", help="strict (every argument aligned) or "
                                                                             "lenient (any).")] = "strict",
    partial_entities: Annotated[PartialEntities, typer.Option("--partial-entities", help="An argument whose "
                                                                                         "entities match partially "
                                                                                         "counts as partial or "
                                                                                         "correct.")] = "partial",
    report: AlignmentReport = None,
    encoding: Encoding = None,
    sep: Sep = None,
    reader_option: ReaderOption = None,
    ground: Ground = None,
    ground_all: GroundAll = False,
    snap: Snap = None,
    grounding: GroundingOut = None,
    quiet: Quiet = False,
) -> None:
    """ANNALIST relation scoring: entities aligned by offsets, relations strict or lenient, unscored relations.
    A language model's triples (--format llm-relations): heads and tails grounded in KEY's text (--ground); a
    triple with an argument not in the text is left unscored, and counted."""
    from ..files import check_outputs
    from .alignment_report import report_files
    from .llm_options import is_llm_format, refuse_llm_options

    llm = is_llm_format(fmt)
    if not llm:
        refuse_llm_options(fmt, **{"--ground": ground, "--ground-all": ground_all, "--snap": snap,
                                   "--grounding": grounding})
    inputs = [key, response, *reader_option_files(reader_option)]
    check_outputs(inputs, [*report_files(report), grounding], folders=[report])  # before any work
    if not llm:  # a model's output is never the key itself
        warn_same_input(key, response, key_set, response_set)
    if llm:
        from .llm_options import relations_llm

        relations_llm(key, response, fmt=fmt, key_set=key_set, response_set=response_set, alignment=alignment,
                      partial_entities=partial_entities, report=report, grounding=grounding,
                      ground=(ground, ground_all, snap),
                      reader_options=reader_settings(encoding, sep, reader_option=reader_option),
                      encoding=encoding or "utf-8", quiet=quiet)
        return
    from ..annalist.relation_files import score_relation_files

    result = score_relation_files(key, response, key_set=key_set, response_set=response_set, fmt=fmt,
                                  reader_options=reader_settings(encoding, sep, reader_option=reader_option),
                                  encoding=encoding or "utf-8", alignment=alignment,
                                  partial_entities=partial_entities)
    data = result.to_dict()
    if report is not None:
        from ..report.annalist_terminal import relations_report_rows

        write_alignment_report(report, relations_report_rows(result.entities.diff_rows(),
                                                             result.relations.decision_rows()), data)
    if not quiet:
        from ..report.annalist_terminal import relation_lines, unscored_line

        for line in relation_lines(data["relations"]):
            typer.echo(line)
        unscored = unscored_line(result.relations)
        if unscored is not None:
            typer.echo(unscored, err=True)
