"""``anno-eval trees``: two dependency treebanks compared, word, node and sentence level."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from .app import JsonOut, Quiet, app


@app.command()
def trees(
    key: Annotated[Path, typer.Argument(metavar="KEY", help="Key treebank (CoNLL-U).")],
    response: Annotated[Path, typer.Argument(metavar="RESPONSE", help="Response treebank (CoNLL-U), same sentences "
                                                                      "and words.")],
    json_out: JsonOut = None,
    diff_out: Annotated[Path | None, typer.Option("--diff", help="Write the per-sentence differences "
                                                                 "(text).")] = None,
    quiet: Quiet = False,
) -> None:
    """Compare two dependency treebanks: word, node (yields) and sentence level agreement, and the differences.
    The JSON holds UAS, LAS, label accuracy, per relation, node and sentence levels."""
    from ..files import check_outputs

    quiet = check_outputs([key, response], [json_out, diff_out]) or quiet  # before any work; JSON on stdout: no table
    from ..files import write_text
    from ..report.json import write_json
    from ..trees.dependencies import compare_files

    result = compare_files(key, response)
    data = result.to_dict()
    if json_out is not None:
        write_json(data, json_out)
    if diff_out is not None:
        write_text(diff_out, result.render_diff())
    if not quiet:
        from ..report.rows import pct

        typer.echo(f"{data['n_sentences']} sentences, {data['n_words']} words")
        for k in ("uas", "las", "las_universal", "label_accuracy"):
            v = data[k]
            typer.echo(f"{k:<16}{v if isinstance(v, str) else f'{pct(v)} %'}")
