"""The ``anno-eval`` command line (also ``python -m spacy_anno_eval``).

A thin door over :func:`spacy_anno_eval.spans.engine.evaluate`: it parses options,
runs the engine once, prints the report and writes it as JSON. Bad input
(an :class:`~spacy_anno_eval.errors.InputError`, a missing file, a
bad option value) ends with a one-line message on stderr and exit code 2.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import typer

from .. import __version__

app = typer.Typer(
    name="anno-eval",
    help="Evaluate annotations: system vs gold, annotator vs annotator.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

FORMATS = ("auto", "docbin", "jsonl", "conll", "brat")
EXIT_BAD_INPUT = 2

# options shared by several commands (typer allows one OptionInfo as the default of many parameters)
KEY_ARG = typer.Argument(..., help="Key (gold) corpus: a .spacy DocBin, .jsonl, CoNLL file or brat folder.")
FORMAT_OPT = typer.Option("auto", "--format", "-f", help=f"Input format: {', '.join(FORMATS)} (or a plugin's).")
KEY_SET_OPT = typer.Option("ents", "--key-set", help="Key annotation set: ents, spans:NAME, column:N (CoNLL).")
RESPONSE_SET_OPT = typer.Option(None, "--response-set", help="Response set; default: --key-set.")
TYPES_OPT = typer.Option(None, "--types", help="Comma-separated labels to score (default: all).")
FEATURES_OPT = typer.Option(None, "--features", help="Comma-separated significant features.")
BETA_OPT = typer.Option(1.0, "--beta", help="F-beta weight of recall.")
PAIRING_OPT = typer.Option("optimal", "--pairing", help="optimal (default) or gate (GATE's greedy differ).")
BDM_OPT = typer.Option(None, "--bdm", help="BDM scores (a file from 'anno-eval bdm' or GATE's) or a taxonomy "
                                         "(child<TAB>parent, OWL): add BDM-weighted P/R/F.")
BDM_FEATURE_OPT = typer.Option(None, "--bdm-feature", help="Feature holding the concept (default: the label).")
SHARDS_OPT = typer.Option(False, "--shards", help="KEY and RESPONSE are folders or glob patterns of shard files, "
                                                  "paired in sorted order: score one pair at a time and merge "
                                                  "(bounded memory).")
DASK_OPT = typer.Option(None, "--dask", help="Score the shards (or chunks) on Dask (implies --shards): local:N (N "
                                             "workers) or a scheduler address (tcp://host:8786).")
CHUNK_OPT = typer.Option(None, "--chunk-docs", help="Read JSONL and CoNLL files lazily, this many documents at a "
                                                    "time (key and response: same documents, same order).")


def _split(value: str | None) -> list[str] | None:
    """``"A,B"`` -> ``["A", "B"]``; empty or None -> None."""
    if not value:
        return None
    items = [v.strip() for v in value.split(",") if v.strip()]
    return items or None


def _check_chunks(chunk_docs: int | None) -> None:
    if chunk_docs is not None and chunk_docs < 1:
        _fail(f"--chunk-docs must be >= 1, got {chunk_docs}")


def _fail(message: str) -> None:
    typer.echo(f"anno-eval: error: {message}", err=True)
    raise typer.Exit(EXIT_BAD_INPUT)


def _fail_from(err: BaseException) -> None:
    """:func:`_fail` with the first line of ``err``'s message (its type when it has none)."""
    _fail(str(err).splitlines()[0] if str(err) else type(err).__name__)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"spacy-anno-eval {__version__}")
        raise typer.Exit(0)


@app.callback()
def main_callback(
    version: bool = typer.Option(False, "--version", callback=_version, is_eager=True,
                                 help="Print the version and exit."),
) -> None:
    """Evaluate annotations: system vs gold, annotator vs annotator."""


@app.command()
def score(
    key: Path = KEY_ARG,
    response: Path = typer.Argument(..., help="Response (system) corpus, same documents and texts as the key."),
    fmt: str = FORMAT_OPT,
    key_set: str = KEY_SET_OPT,
    response_set: str | None = RESPONSE_SET_OPT,
    types: str | None = TYPES_OPT,
    features: str | None = FEATURES_OPT,
    beta: float = BETA_OPT,
    pairing: str = PAIRING_OPT,
    min_overlap: float = typer.Option(0.0, "--min-overlap",
                                      help="Least overlap (% of the key's length) for a partial match."),
    zero_division: float = typer.Option(0.0, "--zero-division", help="Value of 0/0 ratios, in [0, 1]."),
    scheme: str = typer.Option("auto", "--scheme", help="CoNLL tag scheme: auto, IOB1, IOB2, IOE, IOBES, BILOU."),
    strict_scheme: bool = typer.Option(False, "--strict-scheme",
                                       help="CoNLL: drop ill-formed tag sequences (seqeval strict mode)."),
    bdm: Path | None = BDM_OPT,
    bdm_feature: str | None = BDM_FEATURE_OPT,
    shards: bool = SHARDS_OPT,
    dask: str | None = DASK_OPT,
    chunk_docs: int | None = CHUNK_OPT,
    json_out: Path | None = typer.Option(None, "--json", help="Write the full report as JSON to this file."),
    per_doc: bool = typer.Option(True, "--per-doc/--no-per-doc", help="Include per-document rows in the JSON."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="Print no table and no progress bar."),
) -> None:
    """Score RESPONSE against KEY: strict, lenient and average P/R/F per type, micro and macro; MUC; SemEval;
    with --bdm, BDM-weighted P/R/F (near-miss concepts earn partial credit)."""
    from ..errors import InputError
    from ..report.json import write_json
    from ..spans.engine import evaluate

    if pairing not in ("optimal", "gate"):
        _fail(f"--pairing must be optimal or gate, got {pairing!r}")
    _check_chunks(chunk_docs)
    options: dict[str, Any] = {}
    if scheme != "auto" or strict_scheme:
        options = {"scheme": scheme, "strict": strict_scheme}
    try:
        settings = dict(key_set=key_set, response_set=response_set, types=_split(types), features=_split(features),
                        beta=beta, pairing=pairing, min_overlap=min_overlap, zero_division=zero_division, fmt=fmt,
                        reader_options=options)
        if shards or dask or chunk_docs:
            if bdm is not None:
                raise InputError("--bdm reads the pairs, which shards do not keep; score without --shards, "
                                         "--dask and --chunk-docs")
            from ..workflows.stream import score_shards

            ev = score_shards(key, response, scheduler=dask, docs_per_chunk=chunk_docs,
                              sharded=shards or dask is not None, progress=not quiet, **settings)
        else:
            ev = evaluate(str(key), str(response), **settings)
        report = ev.report(per_doc=per_doc, lazy=True)  # per-document rows built as the JSON is written
        if bdm is not None:
            from ..bdm.credit import bdm_prf, load_concept_scores

            report["bdm"] = bdm_prf(ev.alignment, load_concept_scores(bdm), feature=bdm_feature, beta=beta,
                                    zero_division=zero_division)
    except (InputError, ValueError, OSError, UnicodeDecodeError) as err:
        _fail_from(err)
    if not quiet:
        from ..report.terminal import print_report

        print_report(report)
        if bdm is not None:
            typer.echo("BDM-weighted (micro): " + ", ".join(
                f"{m} P {100 * v['p']:.2f} R {100 * v['r']:.2f} F {100 * v['f']:.2f}"
                for m, v in report["bdm"]["micro"].items()))
    if json_out is not None:
        write_json(report, json_out)
        if not quiet:
            typer.echo(f"report written to {json_out}", err=True)


@app.command()
def qa(
    key: Path = KEY_ARG,
    response: Path = typer.Argument(..., help="Response corpus, same documents and texts as the key."),
    fmt: str = FORMAT_OPT,
    key_set: str = KEY_SET_OPT,
    response_set: str | None = RESPONSE_SET_OPT,
    types: str | None = TYPES_OPT,
    features: str | None = FEATURES_OPT,
    beta: float = BETA_OPT,
    pairing: str = PAIRING_OPT,
    measures: str = typer.Option("strict,lenient,average", "--measures",
                                 help="Comma-separated measures for the tables: strict, lenient, average."),
    classify: str | None = typer.Option(None, "--classify",
                                        help="TYPE:FEATURE for the classification tab (kappa, pi, confusion); "
                                             "FEATURE 'label' uses the labels, any other needs --features FEATURE."),
    html_out: Path | None = typer.Option(None, "--html", help="Write the HTML report (tables + Annotation Diff)."),
    md_out: Path | None = typer.Option(None, "--md", help="Write the Markdown report."),
    json_out: Path | None = typer.Option(None, "--json", help="Write the JSON report."),
    max_diff_docs: int = typer.Option(100, "--max-diff-docs", help="Documents shown in the HTML Annotation Diff "
                                                                  "(0: all; the Diff is written as shards come)."),
    shards: bool = SHARDS_OPT,
    dask: str | None = DASK_OPT,
    chunk_docs: int | None = CHUNK_OPT,
    quiet: bool = typer.Option(False, "--quiet", "-q", help="Print no table and no progress bar."),
) -> None:
    """Corpus quality assurance (GATE's Corpus QA): corpus and document tables, Annotation Diff, as HTML/MD/JSON."""
    from ..errors import InputError
    from ..workflows.qa import run_qa

    chosen = _split(measures) or []
    bad = [m for m in chosen if m not in ("strict", "lenient", "average")]
    if bad or not chosen:
        _fail(f"--measures takes strict, lenient and/or average, got {measures!r}")
    if pairing not in ("optimal", "gate"):
        _fail(f"--pairing must be optimal or gate, got {pairing!r}")
    if max_diff_docs < 0:
        _fail(f"--max-diff-docs must be >= 0, got {max_diff_docs}")
    split_classify = None
    if classify:
        type_, _, feature = classify.partition(":")
        if not type_ or not feature:
            _fail(f"--classify takes TYPE:FEATURE, got {classify!r}")
        split_classify = (type_, feature)
    _check_chunks(chunk_docs)
    try:
        paths = {fmt_: p for fmt_, p in (("json", json_out), ("md", md_out), ("html", html_out)) if p is not None}
        report, _, written = run_qa(
            key, response, paths=paths, sharded=shards or dask is not None, measures=chosen,
            classify=split_classify,
            max_diff_docs=max_diff_docs or None, scheduler=dask, docs_per_chunk=chunk_docs, progress=not quiet,
            key_set=key_set, response_set=response_set, types=_split(types), features=_split(features), beta=beta,
            pairing=pairing, fmt=fmt)
    except (InputError, ValueError, OSError, UnicodeDecodeError) as err:
        _fail_from(err)
    if not quiet:
        from ..report.terminal import print_report

        print_report(report, measures=chosen)
        for name, path in written.items():
            typer.echo(f"{name} report written to {path}", err=True)


@app.command()
def adjudicate(
    key: Path = typer.Argument(..., help="First annotation set (e.g. annotator A)."),
    response: Path = typer.Argument(..., help="Second annotation set (e.g. annotator B), same documents and texts."),
    out: Path = typer.Option(..., "--out", "-o", help="The gold DocBin (.spacy) to write."),
    choices: Path | None = typer.Option(None, "--choices", help="JSONL of decisions: one "
                                        '{"doc", "side": "key"|"response"|"none", "start", "end", "label"} a line.'),
    fmt: str = FORMAT_OPT,
    key_set: str = KEY_SET_OPT,
    response_set: str | None = RESPONSE_SET_OPT,
    target: str = typer.Option("gold", "--target", help="Span group of the gold Docs (doc.spans[TARGET])."),
    agreed: bool = typer.Option(True, "--agreed/--no-agreed", help="Accept every annotation both sides agree on."),
) -> None:
    """Build a gold set from two annotation sets (GATE's adjudication): agreed rows, then your choices."""
    from ..errors import InputError
    from ..workflows.adjudicate import adjudicate_files

    try:
        summary = adjudicate_files(key, response, out, choices, key_set=key_set, response_set=response_set,
                                   target=target, fmt=fmt, accept_agreed=agreed)
    except (InputError, ValueError, OSError, UnicodeDecodeError) as err:
        _fail_from(err)
    typer.echo(f"{summary['total']} gold annotations ({summary['agreed']} agreed, {summary['chosen']} chosen, "
               f"{summary['rejected']} rejected) in {summary['docs']} documents written to {summary['out']}; "
               f"{summary['unresolved']} rows left undecided")



@app.command()
def agreement(
    table: Path = typer.Argument(..., help="CSV: a header row of annotator names, then one row per unit; "
                                           "an empty cell is a missing value."),
    level: str = typer.Option("nominal", "--level", help="Krippendorff's alpha: nominal, ordinal, interval, ratio."),
    json_out: Path | None = typer.Option(None, "--json", help="Write every coefficient as JSON."),
    bootstrap: int = typer.Option(0, "--bootstrap", help="Bootstrap samples (units resampled) for an interval "
                                                         "on alpha and Fleiss' kappa; 0: none."),
    seed: int = typer.Option(0, "--seed", help="Seed of the bootstrap."),
    dask: str | None = typer.Option(None, "--dask", help="Draw the bootstrap samples on Dask (local:N or a "
                                                        "scheduler address); the same result as in-process."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="Print nothing."),
) -> None:
    """Agreement of annotators on a classification: Ao, S, pi, kappa (Cohen, Fleiss, Davies & Fleiss), alpha."""
    from ..agreement.reliability import LEVELS
    from ..agreement.summary import agreement_summary, read_table
    from ..cluster import dask_client
    from ..errors import InputError
    from ..report.json import write_json

    if level not in LEVELS:
        _fail(f"--level must be one of {', '.join(LEVELS)}, got {level!r}")
    try:
        names, data = read_table(table)
        if bootstrap < 0:
            _fail(f"--bootstrap must be >= 0, got {bootstrap}")
        if dask is not None and not bootstrap:
            _fail("--dask spreads the --bootstrap samples; give --bootstrap N")
        with dask_client(dask) as client:
            summary = agreement_summary(data, level, names, bootstrap=bootstrap, seed=seed, client=client)
        if json_out is not None:
            write_json(summary, json_out)
    except (InputError, ValueError, OSError, UnicodeDecodeError) as err:
        _fail_from(err)
    if not quiet:
        def show(x: Any) -> str:
            return "n/a" if x is None else f"{x:.4f}"

        alpha = summary["krippendorff_alpha"]
        typer.echo(f"{summary['n_units']} units, {summary['n_annotators']} annotators, "
                   f"{summary['n_pairable_units']} with two or more values")
        for key in ("observed_agreement", "bennett_s", "scott_pi", "cohen_kappa", "fleiss_kappa",
                    "davies_fleiss_kappa"):
            typer.echo(f"  {key:<22}{show(summary[key])}")
        parts = f"Do {show(alpha['observed_disagreement'])}, De {show(alpha['expected_disagreement'])}"
        if "ci" in alpha:
            parts += f"; {alpha['ci']['confidence']:.0%} CI [{show(alpha['ci']['low'])}, {show(alpha['ci']['high'])}]"
        typer.echo(f"  {'krippendorff_alpha':<22}{show(alpha['value'])}  ({level}; {parts})")
        for w in summary["warnings"]:
            typer.echo(f"  note: {w}", err=True)


@app.command()
def iaa(
    corpus: Path = typer.Argument(..., help="A corpus holding every annotator's set (DocBin span groups, CoNLL "
                                            "columns, ...)."),
    sets: str = typer.Option(..., "--sets", help="Annotation sets, ';'-separated: 'spans:ann1;spans:ann2'."),
    types: str | None = typer.Option(None, "--types", help="Types, ';'-separated, GATE style: 'Per->label;Org'."),
    measure: str = typer.Option("fmeasure", "--measure", help="fmeasure (pairwise P/R/F) or kappa (observed "
                                                                  "agreement, Cohen's kappa, Scott's pi on "
                                                                  "coextensive annotations; GATE's Non-cat)."),
    consensus: str | None = typer.Option(None, "--consensus", help="A consensus set to compare each annotator with."),
    fmt: str = FORMAT_OPT,
    beta: float = BETA_OPT,
    bootstrap: int = typer.Option(0, "--bootstrap", help="kappa: bootstrap samples for an interval on kappa and pi."),
    bdm: Path | None = BDM_OPT,
    bdm_feature: str | None = BDM_FEATURE_OPT,
    seed: int = typer.Option(0, "--seed", help="Seed of the bootstrap."),
    shards: bool = typer.Option(False, "--shards", help="CORPUS is a folder or glob of shard files, read one at a "
                                                        "time (counts summed; bounded memory)."),
    dask: str | None = typer.Option(None, "--dask", help="kappa: draw the bootstrap samples on Dask (local:N or a "
                                                        "scheduler address); the same result as in-process."),
    chunk_docs: int | None = CHUNK_OPT,
    html_out: Path | None = typer.Option(None, "--html", help="Folder for the agreement matrix (index.html) and "
                                                              "one page per pair."),
    json_out: Path | None = typer.Option(None, "--json", help="Write the result as JSON."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="Print nothing."),
) -> None:
    """Inter-annotator agreement of N annotators on spans: pairwise F or kappa, mean of pairs, the agreement matrix."""
    from ..agreement.iaa import pairwise_f, pairwise_kappa, to_json
    from ..cluster import dask_client
    from ..errors import InputError
    from ..report.json import write_json

    if measure not in ("fmeasure", "kappa"):
        _fail(f"--measure must be fmeasure or kappa, got {measure!r}")
    if bdm is not None and measure == "kappa":
        _fail("--bdm weights F-measures (GATE 10.5.3); use it with --measure fmeasure")
    if dask is not None and not (measure == "kappa" and bootstrap):
        _fail("--dask spreads the bootstrap samples of --measure kappa --bootstrap N; use it with those")
    if bootstrap < 0:
        _fail(f"--bootstrap must be >= 0, got {bootstrap}")
    _check_chunks(chunk_docs)
    try:
        if measure == "kappa":
            with dask_client(dask) as client:
                result = pairwise_kappa(str(corpus), sets, types=types, fmt=fmt, consensus=consensus,
                                        bootstrap=bootstrap, seed=seed, shards=shards, progress=not quiet,
                                        client=client, docs_per_chunk=chunk_docs)
        else:
            scores = None
            if bdm is not None:
                from ..bdm.credit import load_concept_scores

                scores = load_concept_scores(bdm)
            result = pairwise_f(str(corpus), sets, types=types, fmt=fmt, beta=beta, consensus=consensus,
                                bdm=scores, bdm_feature=bdm_feature, shards=shards, progress=not quiet,
                                docs_per_chunk=chunk_docs)
        written = {}
        if html_out is not None:
            from ..report.matrix import write_matrix_reports

            written = write_matrix_reports(result, html_out)
        if json_out is not None:
            write_json(to_json(result), json_out)
    except (InputError, ValueError, OSError, UnicodeDecodeError) as err:
        _fail_from(err)
    if not quiet:
        names = result["annotators"]
        width = max(len(n) for n in names) + 2
        kappa = measure == "kappa"
        typer.echo(f"{'Cohen kappa (mean over types)' if kappa else 'pairwise F'} "
                   f"({result['matrix']['measure']}, micro), {result['n_docs']} documents")
        typer.echo(" " * width + "".join(f"{n[:8]:>9}" for n in names) + "     mean")

        def cell(v: float | None) -> str:
            return f"{'n/a':>9}" if v is None else (f"{v:9.3f}" if kappa else f"{100 * v:9.2f}")

        for a, name in enumerate(names):
            cells = "".join(cell(v) for v in result["matrix"]["micro"][a])
            typer.echo(f"{name:<{width}}{cells}{cell(result['matrix']['annotator_mean_micro'][a])}")
        mean = result["mean_of_pairs"]
        if kappa:
            typer.echo("mean of pairs: " + ", ".join(f"{k} {'n/a' if v is None else f'{v:.3f}'}"
                                                     for k, v in mean.items()))
            for w in result["warnings"]:
                typer.echo(f"warning: {w}", err=True)
        else:
            typer.echo("mean of pairs: " + ", ".join(f"{m} F {100 * mean[m]['f']:.2f}" for m in mean))
            if "mean_of_pairs_bdm" in result:
                typer.echo("mean of pairs, BDM-weighted: " + ", ".join(
                    f"{m} F {100 * v['f']:.2f}" for m, v in result["mean_of_pairs_bdm"].items()))
        if written:
            typer.echo(f"agreement matrix written to {html_out / 'index.html'} ({len(written) - 1} pair pages)",
                       err=True)


@app.command()
def bdm(
    taxonomy: Path = typer.Argument(..., help="A taxonomy: child<TAB>parent lines (.tsv, .txt), or OWL/RDFS "
                                              "(.owl, .rdf, .ttl, ...; needs the [owl] extra)."),
    out: Path = typer.Option(..., "--out", "-o", help="Write the BDM of every pair of concepts here, in GATE's "
                                                     "line format."),
    json_out: Path | None = typer.Option(None, "--json", help="Also write the pairs as JSON."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="Print nothing."),
) -> None:
    """Balanced distance metric (Maynard et al. 2006) of every pair of concepts of a taxonomy (GATE 10.6)."""
    from ..bdm.distance import compute_bdm, read_taxonomy, write_bdm_file
    from ..errors import InputError
    from ..report.json import write_json

    try:
        tax = read_taxonomy(taxonomy)
        scores = compute_bdm(tax)
        write_bdm_file(scores, out)
        if json_out is not None:
            write_json({"name": scores.name, "concepts": list(scores.concepts), "pairs": scores.to_rows()},
                       json_out)
    except (InputError, ValueError, OSError, UnicodeDecodeError) as err:
        _fail_from(err)
    if not quiet:
        typer.echo(f"{len(scores.concepts)} concepts, {len(scores.to_rows())} pairs written to {out}", err=True)


@app.command()
def gamma(
    source: Path = typer.Argument(..., help="Units: CSV (annotator,category,start,end), DKPro/pygamma fixture JSON, "
                                            "Praat TextGrid, ELAN .eaf, or a DocBin with --sets."),
    alpha: float = typer.Option(1.0, "--alpha", help="Weight of the positional dissimilarity."),
    beta: float = typer.Option(1.0, "--beta", help="Weight of the categorical dissimilarity."),
    delta_empty: float = typer.Option(1.0, "--delta-empty", help="Cost of a unit left unaligned (Δ∅)."),
    categorical: str = typer.Option("absolute", "--categorical", help="absolute, ordinal or numeric categories."),
    sampler: str = typer.Option("statistical", "--sampler", help="Random continua: statistical or shuffle."),
    samples: int = typer.Option(30, "--samples", help="Least number of random continua."),
    precision: float | None = typer.Option(None, "--precision", help="Sample until the expected disorder is known "
                                                                     "within this relative error (e.g. 0.02)."),
    max_samples: int = typer.Option(1000, "--max-samples", help="Most random continua."),
    seed: int = typer.Option(0, "--seed", help="Seed of the random continua."),
    jobs: int | None = typer.Option(None, "--jobs", "-j", help="Processes for the random continua (-1: all cores; "
                                                               "default: all cores for 2,000 units or more)."),
    dask: str | None = typer.Option(None, "--dask", help="Run the random continua on Dask: local:N or a scheduler "
                                                        "address."),
    empty_pairs: str = typer.Option("ignore", "--empty-pairs", help="γcat/γk: ignore pairs with an empty unit "
                                                                    "(Mathet 2017) or count them (pygamma)."),
    sets: str | None = typer.Option(None, "--sets", help="DocBin: one span set per annotator, "
                                                         "'spans:ann1;spans:ann2'."),
    unit: str = typer.Option("char", "--unit", help="DocBin positions: char or token."),
    json_out: Path | None = typer.Option(None, "--json", help="Write γ, γcat, γk, disorders, the interval and the "
                                                              "alignment as JSON."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="Print nothing."),
) -> None:
    """γ, γcat and γk (Mathet et al. 2015; Mathet 2017): unitizing agreement from the exact best alignment."""

    from ..errors import InputError
    from ..gamma.dissimilarity import Dissimilarity
    from ..gamma.measure import gamma as compute_gamma
    from ..report.json import write_json

    try:
        dissim = Dissimilarity(alpha=alpha, beta=beta, delta_empty=delta_empty, categorical=categorical)
        result = compute_gamma(str(source), dissimilarity=dissim, sampler=sampler, n_samples=samples,
                               precision=precision, max_samples=max_samples, seed=seed, n_jobs=jobs,
                               empty_pairs=empty_pairs, sets=sets, unit=unit,
                               progress=not quiet, scheduler=dask)
        if json_out is not None:
            write_json(result.to_dict(), json_out)
    except (InputError, ValueError, OSError, UnicodeDecodeError) as err:
        _fail_from(err)
    if not quiet:
        def num(v: float | None) -> str:
            return "NA" if v is None else f"{v:.4f}"

        ci = result.ci
        typer.echo(f"gamma      {num(result.gamma)}  [{num(ci['low'])}, {num(ci['high'])}] "
                   f"({100 * ci['confidence']:.0f} %, {result.n_samples} samples)")
        typer.echo(f"gamma-cat  {num(result.gamma_cat)}")
        typer.echo("gamma-k    " + ", ".join(f"{k} {num(v)}" for k, v in result.gamma_k.items()))
        typer.echo(f"disorder   observed {result.observed_disorder:.6f}, expected {result.expected_disorder:.6f}; "
                   f"{result.n_unitary_alignments} unitary alignments")
        for w in result.warnings:
            typer.echo(f"warning: {w}", err=True)


def _write_alignment_report(folder: Path, rows: list[dict[str, Any]], data: dict[str, Any]) -> None:
    """``scores.json``, ``alignment.tsv`` and ``alignment.jsonl`` in ``folder``, each written atomically."""
    import json

    from ..files import rows_as_jsonl, rows_as_tsv, write_text

    columns = list(dict.fromkeys(c for r in rows for c in r)) if rows else ["doc", "status"]
    pages = {"scores.json": json.dumps(data, indent=2, ensure_ascii=False) + "\n",
             "alignment.tsv": rows_as_tsv(rows, columns), "alignment.jsonl": rows_as_jsonl(rows)}
    for name, text in pages.items():
        write_text(folder / name, text)


@app.command()
def align(
    key: Path = KEY_ARG,
    response: Path = typer.Argument(..., help="Response corpus (any format), or a mentions JSONL file."),
    fmt: str = FORMAT_OPT,
    key_set: str = KEY_SET_OPT,
    response_set: str | None = RESPONSE_SET_OPT,
    level: str = typer.Option("offset", "--level", help="offset, section or order (no positions)."),
    algorithm: str | None = typer.Option(None, "--algorithm", help="optimal (offsets; the default there), greedy "
                                                                   "(MUC; the default otherwise) or dp."),
    match: str = typer.Option("inclusive", "--match", help="strict or inclusive (partial matches)."),
    gap_penalty: float = typer.Option(1.0, "--gap-penalty", help="DP: cost of aligning an annotation to a gap."),
    split: str = typer.Option("first-partial-rest-spurious", "--split",
                              help="One key, several partial responses: first-<correct|partial>-rest-"
                                   "<correct|partial|incorrect|spurious>."),
    merge: str = typer.Option("first-partial-rest-missing", "--merge",
                              help="One response, several partial keys: first-<correct|partial>-rest-"
                                   "<correct|partial|incorrect|missing>."),
    section: str | None = typer.Option(None, "--section", help="section level: sentence, paragraph, or the feature "
                                                               "naming the section."),
    anchor_text: bool = typer.Option(False, "--anchor-text", help="order level: place mentions at the next "
                                                                  "occurrence of their text."),
    report: Path | None = typer.Option(None, "--report", help="Folder for scores.json, alignment.tsv and "
                                                              "alignment.jsonl."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="Print nothing."),
) -> None:
    """ANNALIST alignment and scoring: by offsets, section or order; greedy or DP; split/merge policies."""
    from ..annalist.align import MERGE_REST, SPLIT_REST, Settings, align_mentions, parse_policy, scores
    from ..annalist.mentions import read_mentions
    from ..errors import InputError

    if algorithm is None:
        algorithm = "optimal" if level == "offset" else "greedy"
    if level == "section" and not section:
        _fail("--level section needs --section sentence, paragraph or a feature name")
    try:
        settings = Settings(level=level, algorithm=algorithm, match=match, gap_penalty=gap_penalty,
                            split=parse_policy(split, SPLIT_REST, "split"),
                            merge=parse_policy(merge, MERGE_REST, "merge"), anchor_text=anchor_text)
        if gap_penalty < 0:
            raise InputError(f"--gap-penalty must be >= 0, got {gap_penalty}")
        keys, texts = read_mentions(key, key_set, fmt, section)
        resps, _ = read_mentions(response, response_set or key_set, fmt, section)
        decisions = align_mentions(keys, resps, settings, texts)
        result = {"settings": {"level": level, "algorithm": algorithm, "match": match, "gap_penalty": gap_penalty,
                               "split": split, "merge": merge, "anchor_text": anchor_text},
                  "entities": scores(decisions)}
        rows = [d.to_row() for d in decisions]
        if report is not None:
            _write_alignment_report(report, rows, result)
    except (InputError, ValueError, OSError, UnicodeDecodeError) as err:
        _fail_from(err)
    if not quiet:
        _print_muc_table("name", [(name, f, f["REC"], f["PRE"], f["F"])
                                  for name, f in result["entities"]["collection"].items()])
        if report is not None:
            typer.echo(f"reports written to {report}", err=True)


def _print_muc_table(title: str, rows: list[tuple[str, dict[str, Any], float, float, float]]) -> None:
    """MUC counts and recall / precision / F, one line per (name, counts, r, p, f)."""
    counts = ("POS", "ACT", "COR", "PAR", "INC", "MIS", "SPU")
    typer.echo(f"{title:<16}" + "".join(f"{c:>6}" for c in counts) + f"{'REC':>8}{'PRE':>8}{'F':>8}")
    for name, f, r, p, fscore in rows:
        typer.echo(f"{name[:15]:<16}" + "".join(f"{f[c]:>6}" for c in counts) + f"{r:>8.4f}{p:>8.4f}{fscore:>8.4f}")


def _entity_row(row: dict[str, Any]) -> dict[str, Any]:
    """An Annotation Diff row (:meth:`Evaluation.diff_rows`) as a flat alignment-report row."""
    k, r = row["key"] or {}, row["response"] or {}
    return {"kind": "entity", "doc": row["doc_id"], "status": row["status"], "name": k.get("label", r.get("label")),
            "key_id": f"{k['start']}-{k['end']}" if k else None,
            "response_id": f"{r['start']}-{r['end']}" if r else None,
            "key_value": k.get("text"), "response_value": r.get("text"), "key_start": k.get("start"),
            "key_end": k.get("end"), "response_start": r.get("start"), "response_end": r.get("end")}


@app.command()
def relations(
    key: Path = KEY_ARG,
    response: Path = typer.Argument(..., help="Response corpus with relations (JSONL or DocBin), same documents."),
    fmt: str = FORMAT_OPT,
    key_set: str = KEY_SET_OPT,
    response_set: str | None = RESPONSE_SET_OPT,
    alignment: str = typer.Option("strict", "--alignment", help="strict (every argument aligned) or lenient (any)."),
    partial_entities: str = typer.Option("partial", "--partial-entities", help="An argument whose entities match "
                                                                               "partially counts as partial or "
                                                                               "correct."),
    report: Path | None = typer.Option(None, "--report", help="Folder for scores.json, alignment.tsv and "
                                                              "alignment.jsonl (relation decisions, unscored "
                                                              "relations with their reason)."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="Print nothing."),
) -> None:
    """ANNALIST relation scoring: entities aligned by offsets, relations strict or lenient, unscored relations."""
    from ..annalist.relations import EntityAlignment, score_relations
    from ..annalist.relations_reader import read_relations
    from ..errors import InputError
    from ..spans.engine import evaluate

    try:
        ev = evaluate(str(key), str(response), key_set=key_set, response_set=response_set, fmt=fmt)
        entities = EntityAlignment.from_rows(ev.diff_rows())
        result = score_relations(read_relations(key), read_relations(response), entities, alignment=alignment,
                                 partial_entities=partial_entities)
        data = {"entities": ev.report(), "relations": result.to_dict()}
        if report is not None:
            rows = [_entity_row(r) for r in ev.diff_rows()]
            rows += [{"kind": "relation", **r} for r in result.decision_rows()]
            _write_alignment_report(report, rows, data)
    except (InputError, ValueError, OSError, UnicodeDecodeError) as err:
        _fail_from(err)
    if not quiet:
        rel = data["relations"]
        _print_muc_table("relation", [(name, f, f["r"], f["p"], f["f"])
                                      for name, f in [*rel["per_name"].items(), ("all", rel["all"])]])
        if rel["unscored"]:
            typer.echo(f"{len(rel['unscored'])} relations unscored (see unscored_by_reason)", err=True)


@app.command()
def noisy(
    gold: Path = typer.Argument(..., help="Gold BIO/BIOES file (token and tag per line, as nerval reads it)."),
    pred: Path = typer.Argument(..., help="Predicted BIO/BIOES file on the noisy (OCR/HTR/ASR) text."),
    threshold: float = typer.Option(0.30, "--threshold", help="Most edit distance / gold entity length for a match."),
    json_out: Path | None = typer.Option(None, "--json", help="Write all, per_type, the per-entity table and MUC "
                                                              "counts as JSON."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="Print nothing."),
) -> None:
    """Noisy-text NER (nerval): entities matched through an edlib character alignment of the two texts."""
    from ..errors import InputError
    from ..noisy.evaluate import evaluate_files
    from ..report.json import write_json

    if not 0 <= threshold <= 1:
        _fail(f"--threshold must be in [0, 1], got {threshold}")
    try:
        result = evaluate_files(gold, pred, threshold=threshold)
        if json_out is not None:
            write_json(result, json_out)
    except (InputError, ValueError, OSError, UnicodeDecodeError) as err:
        _fail_from(err)
    if not quiet:
        def num(v: Any) -> str:
            return "None" if v is None else f"{v:.4f}"

        typer.echo(f"{'type':<12}{'predicted':>10}{'matched':>9}{'support':>9}{'P':>9}{'R':>9}{'F1':>9}")
        for name, f in [*result["per_type"].items(), ("ALL", result["all"])]:
            typer.echo(f"{name[:11]:<12}{str(f['predicted']):>10}{str(f['matched']):>9}{str(f['support']):>9}"
                       f"{num(f['p']):>9}{num(f['r']):>9}{num(f['f']):>9}")


@app.command()
def trees(
    key: Path = typer.Argument(..., help="Key treebank (CoNLL-U)."),
    response: Path = typer.Argument(..., help="Response treebank (CoNLL-U), same sentences and words."),
    json_out: Path | None = typer.Option(None, "--json", help="Write UAS, LAS, label accuracy, per relation, node "
                                                              "and sentence levels as JSON."),
    diff_out: Path | None = typer.Option(None, "--diff", help="Write the per-sentence differences (text)."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="Print nothing."),
) -> None:
    """Compare two dependency treebanks: word, node (yields) and sentence level agreement, and the differences."""
    from ..errors import InputError
    from ..files import write_text
    from ..report.json import write_json
    from ..trees.dependencies import compare_files

    try:
        result = compare_files(key, response)
        data = result.to_dict()
        if json_out is not None:
            write_json(data, json_out)
        if diff_out is not None:
            write_text(diff_out, result.render_diff())
    except (InputError, ValueError, OSError, UnicodeDecodeError) as err:
        _fail_from(err)
    if not quiet:
        typer.echo(f"{data['n_sentences']} sentences, {data['n_words']} words")
        for k in ("uas", "las", "las_universal", "label_accuracy"):
            v = data[k]
            typer.echo(f"{k:<16}{v if isinstance(v, str) else f'{100 * float(v):.2f}'}")


@app.command()
def benchmark(
    mode: str = typer.Argument(..., help="store, marked-vs-stored, marked-vs-current, default or verbose."),
    directory: Path = typer.Argument(..., help="Benchmark folder holding clean/, marked/ and processed/."),
    model: str | None = typer.Option(None, "--model", "-m", help="Pipeline to run (a path or a package name)."),
    name: str | None = typer.Option(None, "--name", help="Baseline to store under / compare with (default: the "
                                                         "model's name and version; newest when comparing)."),
    against: str | None = typer.Option(None, "--against", help="default mode: compare the baseline with this "
                                                               "stored baseline instead of running --model."),
    predictions: Path | None = typer.Option(None, "--predictions", help="store: import results from this file "
                                                                         "(any input format) instead of running "
                                                                         "a model; needs --name."),
    predictions_format: str = typer.Option("auto", "--predictions-format", help="Format of --predictions."),
    force: bool = typer.Option(False, "--force", help="store: replace a baseline of the same name."),
    config: Path | None = typer.Option(None, "--config", "-c", help="Settings file ([benchmark] section); "
                                                                    "default: DIRECTORY/benchmark.cfg if present."),
    threshold: float | None = typer.Option(None, "--threshold", help="verbose: list annotations of per-type "
                                                                     "figures below this."),
    key_set: str | None = typer.Option(None, "--key-set", help="Gold annotation set in marked/ (ents, spans:NAME)."),
    response_set: str | None = typer.Option(None, "--response-set", help="Set the pipeline writes."),
    types: str | None = TYPES_OPT,
    features: str | None = FEATURES_OPT,
    measures: str | None = typer.Option(None, "--measures", help="Comma-separated: strict, lenient, average."),
    beta: float | None = typer.Option(None, "--beta", help="F-beta weight of recall."),
    max_drop: float | None = typer.Option(None, "--max-drop", help="Least drop (fraction, 0.01 = 1 point) that "
                                                                   "counts as a regression."),
    gate: str | None = typer.Option(None, "--gate", help="Figures that gate CI: comma-separated p, r, f."),
    n_samples: int | None = typer.Option(None, "--samples", help="Bootstrap / randomization samples."),
    confidence: float | None = typer.Option(None, "--confidence", help="Confidence of the bootstrap interval."),
    seed: int | None = typer.Option(None, "--seed", help="Seed of the resampling."),
    pairing: str | None = typer.Option(None, "--pairing", help="optimal or gate."),
    verbose: bool = typer.Option(False, "--verbose", "-v", help="List annotations of figures below --threshold."),
    json_out: Path | None = typer.Option(None, "--json", help="Write the full result as JSON."),
    html_out: Path | None = typer.Option(None, "--html", help="Write the HTML report."),
    md_out: Path | None = typer.Option(None, "--md", help="Write the Markdown report."),
    dask: str | None = typer.Option(None, "--dask", help="Draw the significance samples on Dask (local:N or a "
                                                        "scheduler address); the same result as in-process."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No tables, no progress bar."),
) -> None:
    """GATE's Corpus Benchmark Tool: store a version's results, score versions, gate CI on regressions.

    Exit code 0: no regression; 1: the default mode found a regression; 2: bad input.
    """
    from ..cluster import dask_client
    from ..errors import InputError
    from ..workflows.benchmark.run import run_benchmark
    from ..workflows.benchmark.settings import load_settings

    try:
        cfg = config if config is not None else (directory / "benchmark.cfg" if (directory / "benchmark.cfg")
                                                 .is_file() else None)
        settings = load_settings(cfg, threshold=threshold, key_set=key_set, response_set=response_set,
                                 types=_split(types), features=_split(features), measures=_split(measures),
                                 beta=beta, max_drop=max_drop, gate=_split(gate), n_samples=n_samples,
                                 confidence=confidence, seed=seed, pairing=pairing)
        with dask_client(dask if mode in ("default", "verbose") else None) as client:  # the only samples
            result = run_benchmark(mode, directory, settings=settings, model=model, name=name, against=against,
                                   predictions=predictions, predictions_format=predictions_format, force=force,
                                   verbose=verbose, quiet=quiet, client=client)
        written = _write_benchmark(result, json_out, html_out, md_out)
    except (InputError, ValueError, OSError, UnicodeDecodeError) as err:
        _fail_from(err)
    if not quiet:
        _print_benchmark(result.report)
        for what, path in written.items():
            typer.echo(f"{what} written to {path}", err=True)
    raise typer.Exit(result.exit_code)


def _write_benchmark(result: Any, json_out: Path | None, html_out: Path | None,
                     md_out: Path | None) -> dict[str, Path]:
    """Write the benchmark result: the whole of it as JSON, the comparison (or the one evaluation) as HTML/MD."""
    from ..files import write_text
    from ..report.json import write_json

    written: dict[str, Path] = {}
    report = result.report
    if json_out is not None:
        written["JSON report"] = write_json(report, json_out)
    if html_out is None and md_out is None:
        return written
    if "comparison" in report:
        from ..report.benchmark import render_benchmark_html, render_benchmark_markdown

        if html_out is not None:
            written["HTML report"] = write_text(html_out, render_benchmark_html(report))
        if md_out is not None:
            written["Markdown report"] = write_text(md_out, render_benchmark_markdown(report))
    elif result.evaluations:
        from ..report import write_reports

        (scope, ev), = result.evaluations.items()
        paths = {f: p for f, p in (("html", html_out), ("md", md_out)) if p is not None}
        files = write_reports(ev, paths=paths, report=report[scope]["report"],
                              measures=report["settings"]["measures"],
                              title=f"Benchmark {report['mode']}: {report[scope]['name']}",
                              diff=result.diffs.get(scope))
        written.update({f"{k} report": v for k, v in files.items()})
    return written


def _print_benchmark(report: dict[str, Any]) -> None:
    from ..report.terminal import print_below_threshold, print_report

    if report["mode"] == "store":
        b = report["baseline"]
        typer.echo(f"stored baseline {b['name']!r}: {b['n_docs']} documents, {b.get('n_entities', 0)} entities "
                   f"-> {report['path']}")
        return
    if "comparison" in report:
        from ..report.benchmark import print_benchmark

        print_benchmark(report)
        low = report["new"].get("below_threshold")
    else:
        scope = "stored" if "stored" in report else "current"
        print_report(report[scope]["report"], measures=report["settings"]["measures"])
        low = report[scope].get("below_threshold")
    if low is not None:
        print_below_threshold(low, report["settings"]["threshold"])

def main(argv: list[str] | None = None) -> None:
    """Entry point of the ``anno-eval`` console script."""
    app(args=argv if argv is not None else sys.argv[1:], prog_name="anno-eval")


if __name__ == "__main__":  # pragma: no cover
    main()
