"""``anno-eval align``: ANNALIST alignment and scoring, by offsets, section or order."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal

import typer

from ..errors import ConfigError
from .alignment_report import write_alignment_report
from .app import (
    AlignmentReport,
    Encoding,
    Format,
    KeyCorpus,
    KeySet,
    LabelFeature,
    Quiet,
    ReaderOption,
    ResponseSet,
    Sep,
    app,
    reader_option_files,
    reader_settings,
    warn_same_input,
)

AlignLevel = Literal["offset", "section", "order"]
Algorithm = Literal["optimal", "greedy", "dp"]
Match = Literal["strict", "inclusive"]
DpObjective = Literal["match", "graded"]


@app.command()
def align(
    key: KeyCorpus,
    response: Annotated[Path, typer.Argument(metavar="RESPONSE", help="Response corpus (any format), or a mentions "
                                                                      "JSONL file.")],
    fmt: Format = "auto",
    key_set: KeySet = "ents",
    response_set: ResponseSet = None,
    level: Annotated[AlignLevel, typer.Option("--level", help="offset, section or order (no "
                                                              "positions).")] = "offset",
    algorithm: Annotated[Algorithm | None, typer.Option("--algorithm", help="optimal (offsets; the default there), "
                                                                            "greedy (MUC; the default otherwise) or "
                                                                            "dp.")] = None,
    match: Annotated[Match, typer.Option("--match", help="strict or inclusive (partial matches).")] = "inclusive",
    gap_penalty: Annotated[float, typer.Option("--gap-penalty", min=0, help="DP: cost of aligning an annotation to "
                                                                            "a gap.")] = 1.0,
    split: Annotated[str, typer.Option("--split", help="One key, several partial responses: first-<correct|partial>"
                                                       "-rest-<correct|partial|incorrect|spurious>.")]
    = "first-partial-rest-spurious",
    merge: Annotated[str, typer.Option("--merge", help="One response, several partial keys: first-<correct|partial>"
                                                       "-rest-<correct|partial|incorrect|missing>.")]
    = "first-partial-rest-missing",
    section: Annotated[str | None, typer.Option("--section", help="section level: sentence, paragraph, or the "
                                                                  "feature naming the section.")] = None,
    anchor_text: Annotated[bool, typer.Option("--anchor-text", help="order level: place mentions at the next "
                                                                    "occurrence of their text.")] = False,
    dp_objective: Annotated[DpObjective, typer.Option("--dp-objective", help="DP: match (correct and partial "
                                                                             "score alike, ties to early pairs; "
                                                                             "ANNALIST Fig. 2) or graded.")]
    = "match",
    report: AlignmentReport = None,
    encoding: Encoding = None,
    sep: Sep = None,
    label_feature: LabelFeature = None,
    reader_option: ReaderOption = None,
    quiet: Quiet = False,
) -> None:
    """ANNALIST alignment and scoring: by offsets, section or order; greedy or DP; split/merge policies."""
    from ..files import check_outputs
    from .alignment_report import report_files

    inputs = [key, response, *reader_option_files(reader_option)]
    check_outputs(inputs, report_files(report), folders=[report])  # before any work
    warn_same_input(key, response, key_set, response_set)
    from ..annalist.align import MERGE_REST, SPLIT_REST, Settings, align_and_score, parse_policy
    from ..annalist.mentions import read_mention_pair

    if algorithm is None:
        algorithm = "optimal" if level == "offset" else "greedy"
    if level == "section" and not section:
        raise ConfigError("--level section needs --section sentence, paragraph or a feature name")
    if section and level != "section":
        raise ConfigError(f"--section {section} applies to --level section only (the level is {level}); add "
                          f"--level section or leave --section out")
    settings = Settings(level=level, algorithm=algorithm, match=match, gap_penalty=gap_penalty,
                        split=parse_policy(split, SPLIT_REST, "split"), merge=parse_policy(merge, MERGE_REST, "merge"),
                        anchor_text=anchor_text, dp_objective=dp_objective)
    keys, resps, texts = read_mention_pair(key, response, key_set, response_set, fmt, section, level,
                                           **reader_settings(encoding, sep, label_feature, reader_option))
    result = align_and_score(keys, resps, settings, texts, split=split, merge=merge)
    if report is not None:
        write_alignment_report(report, result.rows(), result.to_dict())
    if not quiet:
        from ..report.annalist_terminal import alignment_lines
        from ..report.written_terminal import written_line

        for line in alignment_lines(result.entities):
            typer.echo(line)
        if report is not None:
            typer.echo(written_line("reports", report), err=True)
