"""``anno-eval bdm``: the balanced distance metric of every pair of concepts of a taxonomy."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ..errors import InputError
from .app import JsonOut, Quiet, app


@app.command()
def bdm(
    taxonomy: Annotated[Path, typer.Argument(metavar="TAXONOMY", help="A taxonomy: child<TAB>parent lines (.tsv, "
                                                                      ".txt), or OWL/RDFS (.owl, .rdf, .ttl, ...; "
                                                                      "needs the [owl] extra).")],
    out: Annotated[Path, typer.Option("--out", "-o", help="Write the BDM of every pair of concepts here, in GATE's "
                                                          "line format.")],
    json_out: JsonOut = None,
    quiet: Quiet = False,
) -> None:
    """Balanced distance metric (Maynard et al., 2006) of every pair of concepts of a taxonomy (GATE 10.6).
    The JSON holds the concepts and the pairs."""
    from ..files import check_outputs

    quiet = check_outputs([taxonomy], [out, json_out]) or quiet  # before any work: never over the taxonomy
    from ..bdm.distance import compute_bdm
    from ..bdm.gatefile import write_bdm_file
    from ..bdm.taxonomy import read_taxonomy
    from ..report.json import write_json

    concepts = read_taxonomy(taxonomy)
    if not concepts.concepts:
        raise InputError(f"{taxonomy}: the taxonomy holds no concept (no child<TAB>parent line, no class); "
                         f"give a file with at least one")
    scores = compute_bdm(concepts)
    write_bdm_file(scores, out)
    if json_out is not None:
        write_json({"name": scores.name, "concepts": list(scores.concepts), "pairs": scores.to_rows()}, json_out)
    if not quiet:
        from ..report.bdm_terminal import written_line

        typer.echo(written_line(scores, out), err=True)
