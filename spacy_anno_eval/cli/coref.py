"""``anno-eval coref``: coreference of a RESPONSE against a KEY, every standard metric."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal

import typer

from .app import JsonOut, Quiet, app, warn_same_input

CorefFormat = Literal["conll2012", "corefud"]
BlancRule = Literal["auto", "conll", "corefud"]
Match = Literal["exact", "partial", "head"]


@app.command()
def coref(
    key: Annotated[Path, typer.Argument(metavar="KEY", help="Key coreference file (CoNLL-2011/2012 columns, or "
                                                             "CorefUD 1.0 CoNLL-U).")],
    response: Annotated[Path, typer.Argument(metavar="RESPONSE", help="Response coreference file, the same "
                                                                      "documents and tokens.")],
    fmt: Annotated[CorefFormat, typer.Option("--format", "-f", help="The files' format: conll2012 (the "
                                                                    "brackets in the last column) or corefud "
                                                                    "(Entity= in MISC, with mention "
                                                                    "heads).")] = "conll2012",
    match: Annotated[Match, typer.Option("--match", help="Mention matching: exact (the same words), partial (a "
                                                         "response inside the key mention holding its head) or "
                                                         "head (the same head), one-to-one as the CorefUD scorer "
                                                         "pairs them; partial and head need CorefUD "
                                                         "heads.")] = "exact",
    blanc: Annotated[BlancRule, typer.Option("--blanc", help="BLANC where the key lacks a kind of link: conll "
                                                             "(the Perl scorer: the other kind alone), corefud "
                                                             "(the CorefUD scorer: a 0 averaged in unless the "
                                                             "response lacks it too); auto: the format's own "
                                                             "scorer.")] = "auto",
    keep_singletons: Annotated[bool, typer.Option("--keep-singletons/--no-singletons", help="Score single-mention "
                                                                                              "entities (the "
                                                                                              "official scorer "
                                                                                              "scores what it is "
                                                                                              "given) or remove "
                                                                                              "them from both "
                                                                                              "sides.")] = True,
    keep_zeros: Annotated[bool, typer.Option("--zeros/--no-zeros", help="Score zero mentions (CorefUD empty "
                                                                        "nodes; matched by position) or remove "
                                                                        "them after singletons.")] = True,
    json_out: JsonOut = None,
    per_doc: Annotated[bool, typer.Option("--per-doc/--no-per-doc", help="Include per-document figures in the "
                                                                         "JSON.")] = True,
    quiet: Quiet = False,
) -> None:
    """Score coreference: MUC, B-cubed, CEAFm, CEAFe, BLANC, LEA, mention detection and the CoNLL average,
    micro over documents, as the official CoNLL-2012 scorer counts them."""
    from ..files import check_outputs

    quiet = check_outputs([key, response], [json_out]) or quiet  # before any work; JSON on stdout: no table
    warn_same_input(key, response)
    from ..coref.metrics import score_documents

    if fmt == "corefud":
        from ..coref.corefud import read_corefud as read
    else:
        from ..coref.conll2012 import read_conll2012 as read
    rule = ("corefud" if fmt == "corefud" else "conll") if blanc == "auto" else blanc
    scores = score_documents(read(key), read(response), keep_singletons=keep_singletons, blanc=rule, match=match,
                             keep_zeros=keep_zeros)
    result = scores.to_dict(per_doc=per_doc)
    result["settings"] = {"format": fmt, "match": match, "keep_singletons": keep_singletons,
                          "keep_zeros": keep_zeros, "blanc": rule}
    if json_out is not None:
        from ..report.json import write_json

        write_json(result, json_out)
    if not quiet:
        from ..report.coref_terminal import coref_lines
        from ..report.written_terminal import written_line

        singletons = "singletons kept" if keep_singletons else "singletons removed"
        zeros = "" if keep_zeros else ", zeros removed"
        for line in coref_lines(result, f"{fmt}, {match} matching, {singletons}{zeros}, BLANC as {rule}"):
            typer.echo(line)
        if json_out is not None:
            typer.echo(written_line("report", json_out), err=True)
