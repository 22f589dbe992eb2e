"""``anno-eval convert``: any readable input to a spaCy DocBin (one span group per set) or a JSONL."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal

import typer

from .app import (
    Encoding,
    Features,
    Format,
    LabelFeature,
    Quiet,
    ReaderOption,
    Sep,
    app,
    reader_option_files,
    reader_settings,
    split,
)

Target = Literal["docbin", "jsonl"]
Alignment = Literal["expand", "split"]


@app.command()
def convert(
    source: Annotated[Path, typer.Argument(metavar="IN", help="A corpus file or folder of any readable format.")],
    out: Annotated[Path, typer.Argument(metavar="OUT", help="The file to write: .spacy (DocBin) or .jsonl.")],
    fmt: Format = "auto",
    sets: Annotated[str | None, typer.Option("--sets", help="The sets to write, ',' or ';' between them "
                                                            "('spans:ann1,spans:ann2'; ents: doc.ents); default: "
                                                            "every set the file holds (anno-eval sets FILE).")]
    = None,
    label_feature: LabelFeature = None,
    features: Features = "*",
    to: Annotated[Target | None, typer.Option("--to", help="docbin or jsonl; default: by OUT's suffix.")] = None,
    lang: Annotated[str, typer.Option("--lang", help="DocBin: the language of spaCy's blank tokenizer (xx: "
                                                     "multi-language).")] = "xx",
    align: Annotated[Alignment, typer.Option("--align", help="DocBin: a span that does not start or end on a "
                                                             "token boundary grows to whole tokens (expand) or "
                                                             "cuts the tokens (split: exact offsets).")]
    = "expand",
    encoding: Encoding = None,
    sep: Sep = None,
    reader_option: ReaderOption = None,
    quiet: Quiet = False,
) -> None:
    """Convert IN to a spaCy DocBin (doc.spans[NAME] per set spans:NAME, ids in user_data["doc_id"], features
    as span attributes, document categories in user_data["cats"][NAME] and, for one set, doc.cats) or a JSONL
    ("spans" and "cats" per record) that the jsonl reader (one set) or the prodigy reader (several) reads
    back. A document a set does not cover gets no span group and no categories."""
    from ..files import check_outputs

    # before any work: never over an input
    to_stdout = check_outputs([source, *reader_option_files(reader_option)], [out])
    from ..io.convert import convert as run
    from ..io.convert import target_of

    target = to or target_of(out)
    summary = run(source, out, fmt, to=target, sets=split(sets), features=split(features), lang=lang, align=align,
                  **reader_settings(encoding, sep, label_feature, reader_option))
    if not quiet:
        from ..report.convert_terminal import written_line

        typer.echo(written_line(summary), err=to_stdout)
