"""``anno-eval adjudicate``: a gold DocBin from two annotation sets, the agreed rows and the user's choices."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from .app import (
    Encoding,
    Format,
    KeySet,
    LabelFeature,
    ReaderOption,
    ResponseSet,
    Sep,
    app,
    reader_option_files,
    reader_settings,
    warn_same_input,
)


@app.command()
def adjudicate(
    key: Annotated[Path, typer.Argument(metavar="KEY", help="First annotation set (e.g. annotator A).")],
    response: Annotated[Path, typer.Argument(metavar="RESPONSE", help="Second annotation set (e.g. annotator B), "
                                                                      "same documents and texts.")],
    out: Annotated[Path, typer.Option("--out", "-o", help="The gold DocBin (.spacy) to write (tree "
                                                                 "choices: the adjudicated treebank).")],
    choices: Annotated[Path | None, typer.Option("--choices", help="JSONL of decisions: one {\"doc\", \"side\": "
                                                                   "\"key\"|\"response\"|\"none\", \"start\", "
                                                                   "\"end\", \"label\"} a line; for two "
                                                                   "treebanks (CoNLL-U, NEGRA export), 'trees "
                                                                   "--resolve --suggestions' rows {\"sent_id\", "
                                                                   "\"choose\": \"A\"|\"B\"}.")] = None,
    fmt: Format = "auto",
    key_set: KeySet = "ents",
    response_set: ResponseSet = None,
    target: Annotated[str, typer.Option("--target", help="Span group of the gold Docs (doc.spans[TARGET]).")] = "gold",
    agreed: Annotated[bool, typer.Option("--agreed/--no-agreed", help="Accept every annotation both sides agree "
                                                                      "on.")] = True,
    encoding: Encoding = None,
    sep: Sep = None,
    label_feature: LabelFeature = None,
    reader_option: ReaderOption = None,
    undecided: Annotated[Path | None, typer.Option("--undecided", help="Also write the rows still undecided "
                                                                       "to this JSONL file, in the --choices "
                                                                       "format, for a person to fill in (keep a "
                                                                       "line, set its side to none, or delete "
                                                                       "it) and pass back as --choices.")] = None,
) -> None:
    """Build a gold set from two annotation sets (GATE's adjudication): agreed rows, then your choices."""
    from ..files import check_outputs

    # before any work: never over an input
    to_stdout = check_outputs([key, response, choices, *reader_option_files(reader_option)], [out, undecided])
    warn_same_input(key, response, key_set, response_set)
    from ..workflows.tree_models import is_tree_choices

    if choices is not None and is_tree_choices(choices):  # trees --resolve --suggestions rows: a treebank
        from ..workflows.tree_models import adjudicate_treebanks

        made = adjudicate_treebanks(key, response, choices, out)
        typer.echo(f"adjudicated treebank written to {out}: {made.n_sentences} sentences, {len(made.from_b)} from "
                   f"RESPONSE", err=to_stdout)
        return
    from ..workflows.adjudicate import adjudicate_files

    summary = adjudicate_files(key, response, out, choices, key_set=key_set, response_set=response_set,
                               target=target, fmt=fmt, accept_agreed=agreed,
                               reader_options=reader_settings(encoding, sep, label_feature, reader_option),
                               undecided_path=undecided)
    from ..report.adjudicate_terminal import summary_line

    typer.echo(summary_line(summary), err=to_stdout)
