"""``anno-eval gamma``: γ, γcat and γk, unitizing agreement from the exact best alignment."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal

import typer

from ..errors import ConfigError
from .app import Dask, JsonOut, LabelFeature, MissingAsEmpty, Quiet, Seed, Sep, app, check_format

Categorical = Literal["absolute", "ordinal", "numeric"]
Sampler = Literal["statistical", "shuffle"]
EmptyPairs = Literal["ignore", "pygamma"]
Unit = Literal["char", "token"]


def check_continuum_format(value: str | None) -> str | None:
    """``--format`` of gamma: auto, one of γ's own formats (csv, tsv, json, textgrid, eaf, spacy) or an annotation
    corpus's (:func:`~spacy_anno_eval.cli.app.check_format`)."""
    from ..gamma.detect import FORMATS

    if value in FORMATS:
        return value
    try:
        return check_format(value)
    except ConfigError:
        from ..io import formats

        raise ConfigError(f"--format {value!r}: unknown format; use auto, one of γ's own ({', '.join(FORMATS)}) "
                          f"or an annotation corpus's ({', '.join(formats())})") from None


ContinuumFormat = Annotated[str, typer.Option("--format", "-f", callback=check_continuum_format,
                                              help="Input format: auto; γ's own csv, tsv, json (fixture), "
                                                   "textgrid, eaf, spacy (DocBin); or an annotation corpus's "
                                                   "(gate, xmi, tsv3, labelstudio, doccano, bioc, prodigy, nif, "
                                                   "jsonl, conll, brat).")]


@app.command()
def gamma(
    source: Annotated[Path, typer.Argument(metavar="SOURCE", help="Units: CSV (annotator,category,start,end), "
                                                                  "DKPro/pygamma fixture JSON, Praat TextGrid, ELAN "
                                                                  ".eaf; or annotations: a DocBin or any "
                                                                  "annotation corpus (GATE, INCEpTION, Label "
                                                                  "Studio, ...), one annotator per set.")],
    alpha: Annotated[float, typer.Option("--alpha", help="Weight of the positional dissimilarity.")] = 1.0,
    beta: Annotated[float, typer.Option("--beta", help="Weight of the categorical dissimilarity.")] = 1.0,
    delta_empty: Annotated[float, typer.Option("--delta-empty", help="Cost of a unit left unaligned (Δ∅).")] = 1.0,
    categorical: Annotated[Categorical, typer.Option("--categorical", help="Categories: absolute, ordinal or "
                                                                           "numeric.")] = "absolute",
    sampler: Annotated[Sampler, typer.Option("--sampler", help="Random continua: statistical or "
                                                               "shuffle.")] = "statistical",
    samples: Annotated[int, typer.Option("--samples", help="Least number of random continua.")] = 30,
    precision: Annotated[float | None, typer.Option("--precision", help="Sample until the expected disorder is "
                                                                        "known within this relative error (e.g. "
                                                                        "0.02).")] = None,
    max_samples: Annotated[int, typer.Option("--max-samples", help="Most random continua.")] = 1000,
    seed: Seed = 0,
    jobs: Annotated[int | None, typer.Option("--jobs", "-j", help="Processes for the random continua (-1: all "
                                                                  "cores; default: all cores for 2,000 units or "
                                                                  "more).")] = None,
    dask: Dask = None,
    empty_pairs: Annotated[EmptyPairs, typer.Option("--empty-pairs", help="γcat/γk: ignore pairs with an empty unit "
                                                                          "(Mathet 2017) or count them as pygamma "
                                                                          "does: ignore or pygamma.")] = "ignore",
    sets: Annotated[str | None, typer.Option("--sets", help="DocBin or corpus: one span set per annotator, ';' "
                                                            "or ',' between them: 'spans:ann1;spans:ann2'; default: "
                                                            "the file's annotator sets.")] = None,
    unit: Annotated[Unit, typer.Option("--unit", help="DocBin positions: char or token.")] = "char",
    fmt: ContinuumFormat = "auto",
    label_feature: LabelFeature = None,
    missing_as_empty: MissingAsEmpty = False,
    sep: Sep = None,
    ualpha: Annotated[bool, typer.Option("--ualpha", help="Also Krippendorff's (2004) unitizing alpha, overall and "
                                                          "per category, and the 2016 form, on the same units "
                                                          "(whole-number positions).")] = False,
    extent: Annotated[str | None, typer.Option("--extent", help="--ualpha: the stretch every annotator covered, "
                                                               "'BEGIN,END'; default: the documents' whole text, "
                                                               "or the first start to the last end.")] = None,
    json_out: JsonOut = None,
    quiet: Quiet = False,
) -> None:
    """γ, γcat and γk (Mathet et al., 2015; Mathet, 2017): unitizing agreement from the exact best alignment.
    The JSON holds γ, γcat, γk, the disorders, the interval, the alignment and, for documents, which were
    compared. A document an annotator has no record of is left out (γ needs every annotator on it)."""
    import warnings

    from ..files import check_outputs

    asked_quiet = quiet
    quiet = check_outputs([source], [json_out]) or quiet  # before any work; JSON on stdout: no table
    if extent is not None and not ualpha:  # the options, before reading and sampling
        raise ConfigError("--extent is the stretch --ualpha compares; give --ualpha with it")
    given_extent = _extent(extent) if extent is not None else None
    from ..gamma.dissimilarity import Dissimilarity
    from ..gamma.measure import gamma_with
    from ..gamma.readers import LEFT_OUT, read_continuum
    from ..gamma.settings import GammaSettings
    from ..gamma.unitizing import gamma_report, unitizing_alphas
    from ..report import gamma_terminal
    from ..report.json import write_json

    # every value of γ's, checked once before anything is read or sampled
    settings = GammaSettings(Dissimilarity(alpha=alpha, beta=beta, delta_empty=delta_empty, categorical=categorical),
                             sampler=sampler, n_samples=samples, precision=precision, max_samples=max_samples,
                             seed=seed, n_jobs=jobs, empty_pairs=empty_pairs)
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=f".*{LEFT_OUT}")  # the table and the JSON say it
        continuum = read_continuum(source, fmt=fmt, sets=sets, unit=unit, sep=sep, label_feature=label_feature,
                                   missing_as_empty=missing_as_empty)
    documents = continuum.documents
    # before the random continua: the extent is checked against the units here
    unitizing = unitizing_alphas(continuum, extent=given_extent, source=str(source)) if ualpha else None
    result = gamma_with(continuum, settings, progress=not quiet, scheduler=dask)
    if json_out is not None:
        write_json(gamma_report(result, unitizing), json_out)
    if not quiet:
        _echo(gamma_terminal.gamma_lines(result))
        _echo(gamma_terminal.gamma_warning_lines(result), err=True)
        if unitizing is not None:
            _echo(gamma_terminal.unitizing_lines(unitizing.alpha_2004, unitizing.alpha_2016))
        if documents is not None:
            _echo(gamma_terminal.documents_lines(documents))
    if documents is not None and sets is None and not asked_quiet:  # once done, never under -q
        typer.echo(gamma_terminal.sets_note_line(documents), err=True)


def _extent(text: str) -> tuple[float, float]:
    """``BEGIN,END`` -> two whole numbers (uα's positions), BEGIN < END; :class:`ConfigError` saying what was
    given otherwise. Whether the units lie inside it is checked once they are read, before any sampling."""
    import math

    from ..annotations.table import split_names

    parts = split_names(text)
    try:
        begin, end = (float(p) for p in parts)
    except ValueError:
        raise ConfigError(f"--extent {text!r}: expected BEGIN,END, two numbers such as 150,450") from None
    if not (math.isfinite(begin) and math.isfinite(end) and begin.is_integer() and end.is_integer() and begin < end):
        raise ConfigError(f"--extent {text!r}: expected BEGIN,END, two whole numbers with BEGIN < END, such as "
                          f"150,450")
    return begin, end


def _echo(lines: list[str], err: bool = False) -> None:
    for line in lines:
        typer.echo(line, err=err)
