"""``anno-eval iaa``: inter-annotator agreement of N annotators on spans, pairwise F or kappa."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Literal

import typer

from ..errors import ConfigError
from .app import (
    Bdm,
    BdmFeature,
    Beta,
    Bootstrap,
    ChunkDocs,
    Dask,
    Encoding,
    Format,
    JsonOut,
    LabelFeature,
    MissingAsEmpty,
    Quiet,
    Seed,
    Sep,
    Shards,
    Types,
    app,
    bdm_credit,
    reader_settings,
)

IaaMeasure = Literal["fmeasure", "kappa"]


@app.command()
def iaa(
    corpus: Annotated[Path, typer.Argument(metavar="CORPUS", help="A corpus holding every annotator's set (DocBin "
                                                                  "span groups, CoNLL columns, ...).")],
    sets: Annotated[str | None, typer.Option("--sets", help="Annotation sets, ';' or ',' between them: "
                                                          "'spans:ann1;spans:ann2'; default: every annotator "
                                                          "set of the file.")] = None,
    types: Types = None,
    measure: Annotated[IaaMeasure, typer.Option("--measure", help="fmeasure (pairwise P/R/F) or kappa (observed "
                                                                  "agreement, Cohen's kappa, Scott's pi on "
                                                                  "coextensive annotations; GATE's "
                                                                  "Non-cat).")] = "fmeasure",
    consensus: Annotated[str | None, typer.Option("--consensus", help="A consensus set to compare each annotator "
                                                                      "with.")] = None,
    fmt: Format = "auto",
    beta: Beta = 1.0,
    bootstrap: Bootstrap = 0,
    bdm: Bdm = None,
    bdm_feature: BdmFeature = None,
    seed: Seed = 0,
    shards: Shards = False,
    dask: Dask = None,
    chunk_docs: ChunkDocs = None,
    encoding: Encoding = None,
    sep: Sep = None,
    label_feature: LabelFeature = None,
    missing_as_empty: MissingAsEmpty = False,
    html_out: Annotated[Path | None, typer.Option("--html", help="Folder for the agreement matrix (index.html) and "
                                                                 "one page per pair.")] = None,
    json_out: JsonOut = None,
    quiet: Quiet = False,
) -> None:
    """Inter-annotator agreement of N annotators on spans: pairwise F or kappa, mean of pairs, the agreement matrix."""
    from ..files import check_outputs

    quiet = check_outputs([corpus, bdm], [json_out, html_out and html_out / "index.html"],
                          folders=[html_out]) or quiet  # before any work; JSON on stdout: no table
    from ..agreement.iaa import pairwise_f, pairwise_kappa, parse_types, to_json
    from ..cluster import dask_client
    from ..report.json import write_json

    kappa = measure == "kappa"
    if bdm is not None and kappa:
        raise ConfigError("--bdm weights F-measures (GATE 10.5.3); use it with --measure fmeasure")
    if dask is not None and not (kappa and bootstrap):
        raise ConfigError("--dask spreads the bootstrap samples of --measure kappa --bootstrap N; use it with those")
    options = reader_settings(encoding, sep, label_feature)
    if kappa:
        with dask_client(dask) as client:
            result = pairwise_kappa(str(corpus), sets, types=types, fmt=fmt, consensus=consensus, bootstrap=bootstrap,
                                    seed=seed, shards=shards, progress=not quiet, client=client,
                                    docs_per_chunk=chunk_docs, reader_options=options,
                                    missing_as_empty=missing_as_empty)
    else:
        result = pairwise_f(str(corpus), sets, types=types, fmt=fmt, beta=beta, consensus=consensus,
                            credit=bdm_credit(bdm, bdm_feature, parse_types(types)[1]), shards=shards,
                            progress=not quiet, docs_per_chunk=chunk_docs, reader_options=options,
                            missing_as_empty=missing_as_empty)
    if result.get("sets_note"):  # which sets were chosen, even with -q: the figures depend on it
        typer.echo(result["sets_note"], err=True)
    if json_out is not None:  # machine output first
        write_json(to_json(result), json_out)
    written = {}
    if html_out is not None:
        from ..report.matrix import write_matrix_reports

        written = write_matrix_reports(result, html_out)
    if not quiet:
        _print_matrix(result, kappa)
        if written:
            typer.echo(f"agreement matrix written to {html_out / 'index.html'} ({len(written) - 1} pair pages)",
                       err=True)


def _print_matrix(result: dict[str, Any], kappa: bool) -> None:
    """The agreement matrix: full set names as headers when they fit the terminal, else numbers with the names
    as a legend on the rows; F as percentages, kappa with four decimals; then the mean of pairs and, with
    --bootstrap, the intervals of every pair and type."""
    import shutil

    from ..report.rows import figure, pct

    names = result["annotators"]
    columns = shutil.get_terminal_size((80, 24)).columns
    full = max(9, *(len(n) + 1 for n in names))
    aliased = (max(len(n) for n in names) + 2) + full * (len(names) + 1) > columns
    heads = [f"#{i + 1}" for i in range(len(names))] if aliased else names
    rows = [f"#{i + 1} {n}" for i, n in enumerate(names)] if aliased else names
    cell_width = 9 if aliased else full
    width = max(len(r) for r in rows) + 2
    docs = result["matrix"].get("docs_covered")
    total = result["n_docs"]
    partial = docs is not None and any(p.get("docs_covered", total) < total for p in result.get("pairs", []))
    typer.echo(f"{'Cohen kappa (mean over types)' if kappa else 'pairwise F (%)'} "
               f"({result['matrix']['measure']}, micro), {total} documents")
    typer.echo(" " * width + "".join(f"{h:>{cell_width}}" for h in heads) + f"{'mean':>{cell_width}}")

    def cell(v: float | None) -> str:
        return f"{'n/a' if v is None else (figure(v) if kappa else pct(v)):>{cell_width}}"

    for a, name in enumerate(rows):
        cells = "".join(cell(v) for v in result["matrix"]["micro"][a])
        typer.echo(f"{name:<{width}}{cells}{cell(result['matrix']['annotator_mean_micro'][a])}")
    if partial:  # the documents each pair covers, in the same layout (the diagonal: each annotator's own)
        typer.echo(f"documents both annotated, per pair (of {total}; diagonal: each annotator's)")
        typer.echo(" " * width + "".join(f"{h:>{cell_width}}" for h in heads))
        for a, name in enumerate(rows):
            typer.echo(f"{name:<{width}}" + "".join(f"{v:>{cell_width}}" for v in docs[a]))
    mean = result["mean_of_pairs"]
    if kappa:
        typer.echo("mean of pairs: " + ", ".join(
            f"{k} {pct(v) + ' %' if k == 'observed_agreement' and v is not None else figure(v)}"
            for k, v in mean.items()))
        _print_intervals(result)
        for w in result["warnings"]:
            typer.echo(f"warning: {w}", err=True)
    else:
        typer.echo("mean of pairs: " + ", ".join(f"{m} F {pct(mean[m]['f'])}" for m in mean))
        if "mean_of_pairs_bdm" in result:
            typer.echo("mean of pairs, BDM-weighted: " + ", ".join(
                f"{m} F {pct(v['f'])}" for m, v in result["mean_of_pairs_bdm"].items()))


def _print_intervals(result: dict[str, Any]) -> None:
    """The bootstrap intervals of kappa and pi that the result holds, per pair and type (none: nothing)."""
    from ..report.rows import figure

    lines: list[str] = []
    info = ""
    for pair in result.get("pairs", []):
        shown = []
        for type_, f in pair.get("per_type", {}).items():
            parts = []
            for key, name in (("cohen_kappa", "kappa"), ("scott_pi", "pi")):
                ci = f.get(f"{key}_ci")
                if isinstance(ci, dict):
                    interval = "" if ci.get("low") is None else f" [{figure(ci['low'])}, {figure(ci['high'])}]"
                    parts.append(f"{name} {figure(f.get(key))}{interval}")
                    info = f"{ci.get('confidence', 0.95):.0%} bootstrap intervals ({ci.get('n_samples', '?')} samples)"
            if parts:
                shown.append(f"  {type_}: {'; '.join(parts)}")
        if shown:
            lines += [f"{pair['a']} / {pair['b']}", *shown]
    if lines:
        typer.echo(f"{info}, per pair and type:")
        for line in lines:
            typer.echo(line)
