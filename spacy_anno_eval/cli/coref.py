"""``anno-eval coref``: coreference of a RESPONSE against a KEY, every standard metric; with several responses,
every pair of systems compared with paired significance."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal

import typer

from .app import JsonOut, Quiet, Seed, app, split, warn_same_input
from .coref_options import CorefFormatOpt, MatchOpt, PrefixOpt, ZerosOpt, coref_reader_options

BlancRule = Literal["auto", "conll", "corefud"]


@app.command()
def coref(
    key: Annotated[Path, typer.Argument(metavar="KEY", help="Key coreference file: CoNLL-2011/2012 columns, "
                                                             "CorefUD 1.0 CoNLL-U, spaCy DocBin span groups or "
                                                             "JSONL clusters.")],
    responses: Annotated[list[Path], typer.Argument(metavar="RESPONSE...", help="Response coreference file, the "
                                                                                "same documents and tokens; two or "
                                                                                "more: the systems are "
                                                                                "compared.")],
    fmt: CorefFormatOpt = "auto",
    match: MatchOpt = "exact",
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
    keep_zeros: ZerosOpt = True,
    prefix: PrefixOpt = "coref_clusters",
    names: Annotated[str | None, typer.Option("--names", help="Several responses: the systems' names, ',' "
                                                              "between them (default: the file names).")] = None,
    n_samples: Annotated[int, typer.Option("--samples", min=1, help="Several responses: bootstrap and "
                                                                    "randomization samples.")] = 10_000,
    confidence: Annotated[float, typer.Option("--confidence", help="Several responses: confidence of each "
                                                                   "delta's bootstrap interval, in (0, 1).")] = 0.95,
    seed: Seed = 0,
    alpha: Annotated[float, typer.Option("--alpha", help="Several responses: the level a difference is called "
                                                         "better at (Holm-corrected with three or more).")] = 0.05,
    json_out: JsonOut = None,
    html_out: Annotated[Path | None, typer.Option("--html", help="Folder for an index of every document "
                                                                 "(index.html) and one page per document: key "
                                                                 "and response clusters in the text, moved, "
                                                                 "missing and spurious mentions marked.")] = None,
    per_doc: Annotated[bool, typer.Option("--per-doc/--no-per-doc", help="Include per-document figures in the "
                                                                         "JSON.")] = True,
    quiet: Quiet = False,
) -> None:
    """Score coreference: MUC, B-cubed, CEAFm, CEAFe, BLANC, LEA, mention detection and the CoNLL average,
    micro over documents, as the official CoNLL-2012 scorer counts them. With two or more responses, every pair
    of systems: each figure's delta, its paired-bootstrap interval and approximate-randomization p-value over
    documents (Holm-corrected with three or more)."""
    from ..files import check_outputs

    if html_out is not None and len(responses) > 1:
        from ..errors import ConfigError

        raise ConfigError(f"--html draws one response against the key, and {len(responses)} were given; run "
                          f"'anno-eval coref KEY RESPONSE --html FOLDER' for each")
    quiet = check_outputs([key, *responses], [json_out, html_out and html_out / "index.html"],
                          folders=[html_out]) or quiet  # before any work; JSON on stdout: no table
    for response in responses:
        warn_same_input(key, response)
    from ..coref.readers import detect_coref_format, read_coref

    if fmt == "auto":
        fmt = detect_coref_format(key)

    def read(path: Path) -> list:
        return read_coref(path, fmt, **coref_reader_options(fmt, prefix))

    rule = ("corefud" if fmt == "corefud" else "conll") if blanc == "auto" else blanc
    settings = {"keep_singletons": keep_singletons, "blanc": rule, "match": match, "keep_zeros": keep_zeros}
    described = (f"{fmt}, {match} matching, {'singletons kept' if keep_singletons else 'singletons removed'}"
                 f"{'' if keep_zeros else ', zeros removed'}, BLANC as {rule}")
    key_docs = read(key)
    if len(responses) > 1:
        _compare(key_docs, [read(r) for r in responses], responses, names, settings, described, fmt,
                 dict(n_samples=n_samples, seed=seed, confidence=confidence, alpha=alpha), json_out, per_doc, quiet)
        return
    from ..coref.metrics import score_documents

    response_docs = read(responses[0])
    scores = score_documents(key_docs, response_docs, **settings)
    result = scores.to_dict(per_doc=per_doc)
    result["settings"] = {"format": fmt, "match": match, "keep_singletons": keep_singletons,
                          "keep_zeros": keep_zeros, "blanc": rule}
    if json_out is not None:
        from ..report.json import write_json

        write_json(result, json_out)
    if html_out is not None:
        _pages(key_docs, response_docs, scores, result["settings"], settings, html_out)
    if not quiet:
        from ..report.coref_terminal import coref_lines
        from ..report.written_terminal import written_line

        for line in coref_lines(result, described):
            typer.echo(line)
        if json_out is not None:
            typer.echo(written_line("report", json_out), err=True)
        if html_out is not None:
            typer.echo(f"pages written to {html_out / 'index.html'} ({len(key_docs)} document page(s))", err=True)


def _pages(key_docs: list, response_docs: list, scores: object, shown: dict, settings: dict, folder: Path) -> None:
    """``--html``: the index and a page per document, with each document's figures and, under partial or head
    matching, the mention pairs the metrics used."""
    from ..coref.matching import align_document
    from ..report.coref_html import write_coref_reports

    pairs = None
    if settings["match"] != "exact":
        pairs = [align_document(k, r, match=settings["match"], keep_singletons=settings["keep_singletons"],
                                keep_zeros=settings["keep_zeros"]).pairs for k, r in zip(key_docs, response_docs,
                                                                                         strict=True)]
    data = scores.to_dict(per_doc=True)  # type: ignore[attr-defined]
    data["settings"] = shown
    write_coref_reports(key_docs, response_docs, data, folder, pairs=pairs)  # the settings line: from data


def _compare(key_docs: list, systems: list, responses: list[Path], names: str | None, settings: dict,
             described: str, fmt: str, tests: dict, json_out: Path | None, per_doc: bool, quiet: bool) -> None:
    """Several responses: every pair of systems compared (:func:`~spacy_anno_eval.workflows.coref_compare.
    compare_coref`)."""
    from ..workflows.compare import system_names
    from ..workflows.coref_compare import compare_coref

    labels = system_names(responses, split(names) if names else None)
    result = compare_coref(key_docs, systems, names=labels, **tests, **settings)
    out = result.to_dict(per_doc=per_doc)
    out["settings"]["format"] = fmt
    if json_out is not None:
        from ..report.json import write_json

        write_json(out, json_out)
    if not quiet:
        from ..report.coref_compare_terminal import coref_compare_lines
        from ..report.written_terminal import written_line

        for line in coref_compare_lines(out, result.significant, described):
            typer.echo(line)
        if json_out is not None:
            typer.echo(written_line("comparison", json_out), err=True)
