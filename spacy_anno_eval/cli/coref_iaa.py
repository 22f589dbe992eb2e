"""``anno-eval coref-iaa``: agreement of N annotators on coreference, every pair scored both ways.

Each FILE is one annotator's coreference of the same documents, in any format a coreference reader reads
(:func:`spacy_anno_eval.coref.readers.read_coref`; ``--format auto`` tells it from the suffix, then the first
line); every pair is scored both ways (:func:`spacy_anno_eval.coref.agreement.coref_agreement`) and the matrix
shows one metric's F per pair, the mean of both directions.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Literal

import typer

from ..errors import ConfigError
from .app import JsonOut, Quiet, app, split, warn_same_input
from .coref_options import CorefFormatOpt, MatchOpt, PrefixOpt, ZerosOpt, coref_reader_options

BlancRule = Literal["conll", "corefud"]
#: the metrics the matrix can show (tests/cli/test_options.py: those of coref.agreement.MATRIX_METRICS)
MatrixMetric = Literal["conll", "muc", "bcub", "ceafm", "ceafe", "blanc", "lea", "mentions"]


def annotator_names(paths: Sequence[Path], names: str | None) -> list[str]:
    """``--names`` (``A,B,C``: one per file, distinct), or by default each file's stem, made unique: files
    whose stems are the same are named by their whole file names (``k.key``, ``k.response``), else by as many
    of their folders as tell them apart (``alice/doc``, ``bob/doc``), and the same path given twice gets
    ``#2``, ``#3``... Raise :class:`ConfigError` for a ``--names`` that does not name each file once."""
    if names is not None:
        given = split(names) or []
        if len(given) != len(paths):
            raise ConfigError(f"--names gives {len(given)} name{'' if len(given) == 1 else 's'} "
                              f"({', '.join(given) or 'none'}) for {len(paths)} files; give one per file, in "
                              f"order, ',' between them")
        repeated = sorted({n for n in given if given.count(n) > 1})
        if repeated:
            raise ConfigError(f"--names gives {', '.join(repeated)} twice; give each annotator a name of its own")
        return given
    folders = [[f for f in Path(os.path.normpath(p)).parent.parts if f not in (os.sep, ".")] for p in paths]
    normal = [os.path.normpath(p) for p in paths]
    level = [0] * len(paths)  # 0: the stem; 1: the file name; 2...: that many - 1 folders, then the stem

    def name(k: int) -> str:
        path = Path(paths[k])
        if level[k] < 2:
            return (path.stem if level[k] == 0 else path.name) or path.name
        return "/".join([*folders[k][len(folders[k]) + 1 - level[k]:], path.stem or path.name])

    while True:
        current = [name(k) for k in range(len(paths))]
        clash = [k for k, n in enumerate(current) if level[k] <= len(folders[k]) and any(
            current[m] == n and normal[m] != normal[k] for m in range(len(paths)))]  # one path twice: #2 below
        if not clash:
            break
        for k in clash:
            level[k] += 1
    seen: dict[str, int] = {}
    out = []
    for n in current:
        seen[n] = seen.get(n, 0) + 1
        out.append(n if seen[n] == 1 else f"{n}#{seen[n]}")
    return out


@app.command("coref-iaa")
def coref_iaa(
    files: Annotated[list[Path], typer.Argument(metavar="FILE", help="Two or more coreference files, one per "
                                                                     "annotator, of the same documents and "
                                                                     "tokens.")],
    fmt: CorefFormatOpt = "auto",
    match: MatchOpt = "exact",
    names: Annotated[str | None, typer.Option("--names", help="The annotators' names, one per file in order, ',' "
                                                              "between them; default: the file names without "
                                                              "suffix (with folders where two are alike).")] = None,
    metric: Annotated[MatrixMetric, typer.Option("--metric", help="The metric whose F the matrix shows: conll (the "
                                                                  "mean F of MUC, B-cubed, CEAFe), muc, bcub, "
                                                                  "ceafm, ceafe, blanc, lea, mentions.")] = "conll",
    blanc: Annotated[BlancRule, typer.Option("--blanc", help="BLANC where a side lacks a kind of link: conll "
                                                             "(the Perl scorer: depends on which side is the "
                                                             "key) or corefud (the CorefUD scorer; the same both "
                                                             "ways).")] = "corefud",
    keep_singletons: Annotated[bool, typer.Option("--keep-singletons/--no-singletons", help="Score single-mention "
                                                                                              "entities or remove "
                                                                                              "them from every "
                                                                                              "file.")] = True,
    keep_zeros: ZerosOpt = True,
    prefix: PrefixOpt = "coref_clusters",
    json_out: JsonOut = None,
    html_out: Annotated[Path | None, typer.Option("--html", help="Folder for the agreement matrix (index.html) and "
                                                                 "one page per pair.")] = None,
    quiet: Quiet = False,
) -> None:
    """Agreement of N annotators on coreference: each pair scored both ways (MUC, B-cubed, CEAFm, CEAFe, BLANC,
    LEA, mentions, CoNLL) and the two directions averaged (partial and head matching read the key's heads, and
    BLANC as conll depends on the key, so a direction matters); the matrix of one metric's F, each annotator's
    mean over its pairs, the mean of pairs."""
    from ..files import check_outputs

    quiet = check_outputs(files, [json_out, html_out and html_out / "index.html"],
                          folders=[html_out]) or quiet  # before any work; JSON on stdout: no table
    if len(files) < 2:
        raise ConfigError(f"coref-iaa compares two or more annotators' files, got {len(files)} ({files[0]}); give "
                          f"one file per annotator")
    annotators = annotator_names(files, names)
    for i in range(len(files)):
        for j in range(i + 1, len(files)):
            warn_same_input(files[i], files[j], names=(f"file of {annotators[i]}", f"file of {annotators[j]}"))
    from ..coref.agreement import coref_agreement
    from ..coref.readers import detect_coref_format, read_coref

    paths: dict[str, Path] = {}  # a file given twice is read once (named as given)
    for p in files:
        paths.setdefault(os.path.abspath(p), p)
    formats = {key: detect_coref_format(p) if fmt == "auto" else fmt for key, p in paths.items()}
    docs = {key: read_coref(p, formats[key], **coref_reader_options(formats[key], prefix))
            for key, p in paths.items()}
    agreement = coref_agreement({a: docs[os.path.abspath(p)] for a, p in zip(annotators, files, strict=True)},
                                keep_singletons=keep_singletons, blanc=blanc, match=match, keep_zeros=keep_zeros)
    result = agreement.to_dict(metric=metric)
    read_as = sorted(set(formats.values()))
    result["settings"] = {"format": read_as[0] if len(read_as) == 1 else read_as, **result["settings"]}
    if json_out is not None:  # machine output first
        from ..report.json import write_json

        write_json(result, json_out)
    if html_out is not None:
        from ..report.coref_matrix import write_coref_matrix_reports

        write_coref_matrix_reports(result, html_out)
    if not quiet:
        import shutil

        from ..report.coref_iaa_terminal import coref_iaa_lines
        from ..report.iaa_terminal import matrix_written_line
        from ..report.written_terminal import written_line

        singletons = "singletons kept" if keep_singletons else "singletons removed"
        settings = [" and ".join(read_as), f"{match} matching", singletons, *([] if keep_zeros else ["zeros removed"]),
                    f"BLANC as {blanc}"]
        for line in coref_iaa_lines(result, settings, shutil.get_terminal_size((80, 24)).columns):
            typer.echo(line)
        if json_out is not None:
            typer.echo(written_line("report", json_out), err=True)
        if html_out is not None:
            typer.echo(matrix_written_line(html_out / "index.html", result), err=True)
