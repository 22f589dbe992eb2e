"""The ``anno-eval`` command line (also ``python -m spacy_anno_eval``): the app, its shared options, its exit codes.

Each command lives in a module of its own (``cli/score.py``, ``cli/qa.py``, ...) and registers itself on
:data:`app`; ``cli/__init__.py`` imports them all, so importing this module gives the whole command line.

Exit codes (DESIGN.md, Contracts) are decided in one place, :meth:`AnnoEvalGroup.main`:

- 0 done; 1 only for a regression found by ``benchmark``;
- 2 bad input or bad setting: an :class:`~spacy_anno_eval.errors.AnnoEvalError`, a usage error, an input
  file that cannot be read; one line on stderr, ``anno-eval: error: ...``;
- 3 anything else, an internal error: ``anno-eval: internal error: Type: message; rerun with --debug``
  (``anno-eval --debug ...`` prints the traceback); a ``sys.exit()`` inside a command too, never its own code
  (a crash is never 1), except that a broken pipe (``| head``) is 0.

Warnings show as ``anno-eval: warning: message``, one line each, without the path of the code that warned,
each once, after the command: when it ends with 0 or 1. On an error the error's one line is all stderr gets
(``--debug`` adds the warnings).
"""

from __future__ import annotations

import re
import sys
import traceback
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any, Literal

import typer
from typer.core import TyperCommand, TyperGroup

from .. import __version__
from ..errors import AnnoEvalError, ConfigError

EXIT_OK = 0
EXIT_REGRESSION = 1  # only benchmark's default and verbose modes
EXIT_BAD_INPUT = 2
EXIT_INTERNAL = 3
PROG = "anno-eval"

# -- exit codes ----------------------------------------------------------------------------------------------------

_PATH_ERRORS = (FileNotFoundError, PermissionError, IsADirectoryError, NotADirectoryError, FileExistsError)
_PACKAGE = Path(__file__).resolve().parents[1]
_NOT_ONE_OF = re.compile(r"^(?:Value error, )?(?P<value>.*) is not one of (?P<choices>.*?)\.?$")


class AnnoEvalGroup(TyperGroup):
    """The ``anno-eval`` group: runs a command and turns whatever it raises into one exit code."""

    def main(self, args: Sequence[str] | None = None, prog_name: str | None = None, complete_var: str | None = None,
             standalone_mode: bool = True, **extra: Any) -> Any:
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode, **extra)
        argv = list(sys.argv[1:] if args is None else args)
        shown: list[str] = []
        with warnings.catch_warnings():  # the filters stay as they are; only how a warning shows changes
            warnings.showwarning = _keep_warning(shown)
            try:
                code = super().main(argv, prog_name, complete_var, standalone_mode=False, **extra)
            except SystemExit as stop:  # sys.exit() inside a command (the app's own exits come back as codes)
                code = _inner_exit(stop, argv)
            except Exception as err:  # noqa: BLE001 - the one place where every error becomes an exit code
                code = exit_code(err, argv)
        code = code if isinstance(code, int) else 0
        if code in (EXIT_OK, EXIT_REGRESSION) or "--debug" in _global_options(argv):
            for message in shown:  # on an error, the error's one line is all there is
                typer.echo(f"{PROG}: warning: {message}", err=True)
        sys.exit(code)


def _keep_warning(shown: list[str]) -> Any:
    """A ``warnings.showwarning`` that keeps each warning's message once, in one line, without the file and
    line of the code that warned (an internal path): the CLI prints them when the command is done."""

    def keep(message: Warning | str, category: type[Warning], filename: str, lineno: int, file: Any = None,
             line: str | None = None) -> None:
        text = " ".join(part.strip() for part in str(message).splitlines() if part.strip()) or category.__name__
        if text not in shown:
            shown.append(text)

    return keep


def _inner_exit(stop: SystemExit, argv: Sequence[str]) -> int:
    """The exit code of a ``SystemExit`` raised while a command ran: 0 for a clean one; 0 too when the reader
    of the output went away (``| head``: typer and rich exit 1 on a broken pipe, which CI would read as a
    regression; ``benchmark`` keeps its verdict's code itself);
    any other code is an internal error (3), never passed on as it is."""
    if stop.code in (None, 0):
        return EXIT_OK
    if isinstance(stop.__context__, BrokenPipeError):
        return EXIT_OK
    return exit_code(stop, argv)


def exit_code(err: BaseException, argv: Sequence[str]) -> int:
    """Print ``err`` as the contract wants it (one line, or the traceback with --debug) and return its exit code."""
    if isinstance(err, typer.TyperException):  # a usage error (click's, as typer vendors it)
        from typer._click.exceptions import NoArgsIsHelpError

        if isinstance(err, NoArgsIsHelpError):
            err.show()  # no arguments: the help
            return EXIT_BAD_INPUT
        return _error(_usage_message(err))
    debug = "--debug" in _global_options(argv)
    if debug:
        traceback.print_exception(err, file=sys.stderr)
    if isinstance(err, AnnoEvalError):
        return _error(_first_line(err))
    named = _user_path(err.filename, argv) if isinstance(err, _PATH_ERRORS) else None
    if named is not None:
        return _error(f"{named}: {err.strerror or type(err).__name__}; check the path and its permissions")
    if isinstance(err, UnicodeDecodeError):
        inputs = [a for a in argv if Path(a).is_file()]
        return _error(f"an input file is not UTF-8 text ({err.reason} at byte {err.start}; inputs: "
                      f"{', '.join(inputs) or 'none'}); save it as UTF-8")
    rerun = "" if debug else "; rerun with --debug"
    typer.echo(f"{PROG}: internal error: {type(err).__name__}: {_first_line(err)}{rerun}", err=True)
    return EXIT_INTERNAL


def _error(message: str) -> int:
    typer.echo(f"{PROG}: error: {message}", err=True)
    return EXIT_BAD_INPUT


def _first_line(err: BaseException) -> str:
    return _line(str(err)) or type(err).__name__


def _line(text: str) -> str:
    """The first line of ``text`` that is not blank ("" when none is)."""
    return next((line.strip() for line in text.splitlines() if line.strip()), "")


def _global_options(argv: Sequence[str]) -> list[str]:
    """The options before the command's name (``--debug``, ``--version``)."""
    out = []
    for a in argv:
        if not a.startswith("-"):
            break
        out.append(a)
    return out


def _user_path(filename: Any, argv: Sequence[str]) -> str | None:
    """The path to name when ``filename`` is one the user gave, lies inside one (a folder of inputs), is a folder
    on the way to one, or is the temporary file of an atomic write to one (then the path given); None for any
    other file (an internal error)."""
    if filename is None:
        return None
    try:
        path = Path(filename).resolve()
    except (OSError, ValueError, TypeError):
        return None
    if path.is_relative_to(_PACKAGE):
        return None
    for a in argv:
        if a.startswith("-") or not a.strip():
            continue
        given = Path(a).resolve()
        if path.is_relative_to(given) or given.is_relative_to(path):  # the path, a file in it, a folder on its way
            return str(filename)
        if path.parent == given.parent and path.name.startswith(f".{given.name}."):
            return a
    return None


def _usage_message(err: Any) -> str:
    """A usage error in one line: ``--level must be one of nominal, ordinal, got 'cardinal'``."""
    message = _line(err.format_message()) or type(err).__name__
    param = getattr(err, "param", None)
    if type(err) is not typer.BadParameter or param is None or not _line(err.message):
        return message  # a missing argument, an unknown option or command: click's words
    option = getattr(param, "param_type_name", "") == "option"
    hint = max(param.opts, key=len) if option else str(param.metavar or param.name).upper()
    detail = _line(err.message)
    choice = _NOT_ONE_OF.match(detail)
    if choice:
        return f"{hint} must be one of {choice['choices'].replace(chr(39), '')}, got {choice['value']}"
    bad = getattr(err.__cause__, "errors", None)
    got = f", got {bad()[0]['input']!r}" if callable(bad) and bad() and "input" in bad()[0] else ""
    return f"{hint}: {detail[:1].lower()}{detail[1:]}{got}"


# -- the app -------------------------------------------------------------------------------------------------------


def _version(value: bool) -> None:
    if value:
        typer.echo(f"spacy-anno-eval {__version__}")
        raise typer.Exit(0)


class AnnoEvalCommand(TyperCommand):
    """A command whose usage line reads ``KEY RESPONSE...``, as click writes it, not typer's
    ``{KEY} {RESPONSE}...``."""

    def collect_usage_pieces(self, ctx: Any) -> list[str]:
        pieces = super().collect_usage_pieces(ctx)
        return [re.sub(r"^\{(.*)\}((?:\.\.\.)?)$", r"\1\2", p) for p in pieces]


class AnnoEvalTyper(typer.Typer):
    """The app: every command it registers is an :class:`AnnoEvalCommand`."""

    def command(self, *args: Any, cls: type[TyperCommand] | None = None, **kwargs: Any) -> Any:
        return super().command(*args, cls=cls or AnnoEvalCommand, **kwargs)


app = AnnoEvalTyper(
    name=PROG,
    cls=AnnoEvalGroup,
    help="Evaluate annotations: system vs gold, annotator vs annotator.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,  # help texts keep their brackets: "[owl]", "[benchmark]"
)


@app.callback()
def main_callback(
    version: Annotated[bool, typer.Option("--version", callback=_version, is_eager=True,
                                          help="Print the version and exit.")] = False,
    debug: Annotated[bool, typer.Option("--debug", help="On an internal error (exit code 3), print the full "
                                                        "traceback (give it before the command).")] = False,
) -> None:
    """Evaluate annotations: system vs gold, annotator vs annotator."""


def main(argv: list[str] | None = None) -> None:
    """Entry point of the ``anno-eval`` console script."""
    app(args=argv if argv is not None else sys.argv[1:], prog_name=PROG)


# -- helpers of the commands ---------------------------------------------------------------------------------------


def split(value: str | None) -> list[str] | None:
    """``"A,B"`` or ``"A;B"`` -> ``["A", "B"]`` (every list option takes ``,`` or ``;`` alike); empty or None ->
    None."""
    if not value:
        return None
    from ..annotations.table import split_names

    return split_names(value) or None


def check_list(option: str, value: str | None, allowed: Sequence[str]) -> list[str] | None:
    """A list of choices (``,`` or ``;`` between them), each checked: ``--measures strict,lenient``."""
    items = split(value)
    if value is not None and (not items or any(i not in allowed for i in items)):
        raise ConfigError(f"{option} takes a comma-separated list of {', '.join(allowed)} (';' works as well), "
                          f"got {value!r}")
    return items


def check_format(value: str | None) -> str | None:
    """``--format``: ``auto`` or a format some reader (built in or a plugin) registered."""
    if value is None or value == "auto":
        return value
    from ..io import formats

    if value not in formats():
        raise ConfigError(f"--format {value!r}: unknown format; use auto or one of {', '.join(formats())}")
    return value


def check_encoding(value: str | None) -> str | None:
    """``--encoding``: a codec Python knows (None: the readers' default, UTF-8); the one rule,
    :func:`spacy_anno_eval.io.parse.check_encoding`."""
    from ..io.parse import check_encoding as check

    return check(value, what="--encoding")


def check_sep(value: str | None) -> str | None:
    """``--sep``: a column delimiter; ``tab`` or ``\\t`` (as typed in a shell) is a tab; the one rule,
    :func:`spacy_anno_eval.io.parse.check_separator`."""
    from ..io.parse import check_separator

    return check_separator(value, what="--sep")


_INTEGER = re.compile(r"[+-]?[0-9]+")


def parse_reader_options(values: Sequence[str] | None) -> dict[str, Any]:
    """``--reader-option NAME=VALUE`` (``-O``, repeatable) as reader options, ``{NAME: value}``.

    The rule for VALUE: ``true`` / ``false`` (any case) is a boolean; an integer (digits, an optional sign) is an
    ``int``; anything else is the string as typed (``typesystem=TypeSystem.xml``, ``unit=utf16``; an empty VALUE
    is the empty string). NAME is the reader's parameter (``relations``, ``structural``, ``typesystem``, ...); a
    ``-`` in it reads as ``_``. Raise :class:`ConfigError` for a value without ``=``, a NAME that is no Python
    identifier, or a NAME given twice. Which reader takes which NAME is checked where the inputs are read
    (:func:`spacy_anno_eval.io.split_options`: an option no input's reader takes is refused, naming those they
    take)."""
    out: dict[str, Any] = {}
    for raw in values or ():
        name, eq, text = raw.partition("=")
        name = name.strip().replace("-", "_")
        if not eq or not name.isidentifier():
            raise ConfigError(f"--reader-option {raw!r}: give NAME=VALUE, as in --reader-option relations=true "
                              f"(the reader's option NAME, and its VALUE: true/false, an integer or a string)")
        if name in out:
            raise ConfigError(f"--reader-option {name} is given twice ({name}={out[name]!r} and {raw!r}); give it "
                              f"once")
        if text.lower() in ("true", "false"):
            out[name] = text.lower() == "true"
        elif _INTEGER.fullmatch(text):
            out[name] = int(text)
        else:
            out[name] = text
    return out


def check_reader_options(values: list[str] | None) -> list[str] | None:
    """``--reader-option``: each value checked for its form as the option is parsed, before any work
    (:func:`parse_reader_options`); the values themselves are kept as typed."""
    parse_reader_options(values)
    return values


def reader_option_files(reader_option: Sequence[str] | None) -> list[str]:
    """The ``--reader-option`` values that name an existing file (``typesystem=TypeSystem.xml``): inputs of the
    command too, so that no output is written over them (:func:`spacy_anno_eval.files.check_outputs`)."""
    import os

    return [v for v in parse_reader_options(reader_option).values() if isinstance(v, str) and v and os.path.isfile(v)]


def reader_settings(encoding: str | None, sep: str | None, label_feature: str | None = None,
                    reader_option: Sequence[str] | None = None, *,
                    given: dict[str, tuple[str, Any]] | None = None) -> dict[str, Any]:
    """The reader options of ``--encoding`` / ``--sep`` / ``--label-feature`` and ``--reader-option NAME=VALUE``
    (:func:`parse_reader_options`): only those given (a reader that takes none of them still reads the file; one
    given to a reader that does not take it is refused by name when the file is read).

    ``given``: the reader options that other options of the command set, ``{name: (option, value)}`` (score's
    ``--scheme``: ``{"scheme": ("--scheme", "IOB2")}``), merged in too. A ``--reader-option`` that names an
    option one of these also sets (``-O encoding=latin-1`` beside ``--encoding``) raises :class:`ConfigError`."""
    dedicated: dict[str, tuple[str, Any]] = {"encoding": ("--encoding", encoding), "sep": ("--sep", sep),
                                             "label_feature": ("--label-feature", label_feature), **(given or {})}
    out = {name: value for name, (_, value) in dedicated.items() if value is not None}
    for name, value in parse_reader_options(reader_option).items():
        if name in out:
            raise ConfigError(f"--reader-option {name}={value!r} and {dedicated[name][0]} both set the reader "
                              f"option {name!r}; give one of them")
        out[name] = value
    return out


# -- the choices (typer checks them; tests/cli/test_options.py checks they match the families' own lists) ----------

Pairing = Literal["optimal", "gate"]

# -- the shared options: one definition, one help text each --------------------------------------------------------

KeyCorpus = Annotated[Path, typer.Argument(metavar="KEY", help="Key (gold) corpus: a .spacy DocBin, .jsonl, CoNLL "
                                                              "file or brat folder.")]
ResponseCorpus = Annotated[Path, typer.Argument(metavar="RESPONSE", help="Response (system) corpus, same documents "
                                                                         "and texts as the key.")]
LabelFeature = Annotated[str | None, typer.Option("--label-feature", help="Annotation-tool exports: take each "
                                                  "annotation's label from this feature (INCEpTION keeps NER labels "
                                                  "in 'value'); default: the annotation type.")]
MissingAsEmpty = Annotated[bool, typer.Option("--missing-as-empty", help="Count a document an annotator never "
                                              "annotated as annotated with nothing (by default it is left out of "
                                              "that annotator's pairs).")]
#: the help of ``--format`` (score and relations add the language-model formats they read as RESPONSE)
FORMAT_HELP = ("Input format: auto, docbin, jsonl, conll, brat, gate, xmi, tsv3, labelstudio, doccano, bioc, prodigy, "
               "nif (or a plugin's).")
Format = Annotated[str, typer.Option("--format", "-f", callback=check_format, help=FORMAT_HELP)]
KeySet = Annotated[str, typer.Option("--key-set", help="Key (gold) annotation set: ents, spans:NAME, column:N "
                                                       "(CoNLL).")]
ResponseSet = Annotated[str | None, typer.Option("--response-set", help="Response annotation set; default: the "
                                                                        "key's.")]
Types = Annotated[str | None, typer.Option("--types", help="Types (labels) to score, ',' or ';' between them "
                                                           "('PER,ORG'); default: all. iaa: TYPE->FEATURE compares "
                                                           "a feature, GATE style ('Per->label;Org'; '*': every "
                                                           "type).")]
Features = Annotated[str | None, typer.Option("--features", help="Comma-separated significant features; '*': "
                                                                 "every feature an annotation carries (GATE's "
                                                                 "all features).")]
Beta = Annotated[float | None, typer.Option("--beta", help="F-beta weight of recall (inf: recall).")]
PairingOpt = Annotated[Pairing | None, typer.Option("--pairing", help="How keys and responses pair: optimal "
                                                                      "(the default) or gate (GATE's greedy "
                                                                      "differ).")]
Measures = Annotated[str | None, typer.Option("--measures", help="Measures, ',' or ';' between them: strict, "
                                                                 "lenient, average.")]
Bdm = Annotated[Path | None, typer.Option("--bdm", help="BDM scores (a file from 'anno-eval bdm' or GATE's) or a "
                                                        "taxonomy (child<TAB>parent, OWL): add BDM-weighted "
                                                        "P/R/F.")]
BdmFeature = Annotated[str | None, typer.Option("--bdm-feature", help="Feature holding the concept (default: the "
                                                                      "label).")]
Shards = Annotated[bool, typer.Option("--shards", help="The inputs are folders or glob patterns of shard files, "
                                                       "read one at a time and merged (bounded memory); KEY and "
                                                       "RESPONSE shards pair in sorted order.")]
Dask = Annotated[str | None, typer.Option("--dask", callback=lambda value: check_dask(value),  # defined below
                                          help="Spread the work on Dask: local:N (N local workers) or a "
                                               "scheduler address (tcp://host:8786); the same result as "
                                               "in-process. score, qa: the shards or chunks (implies "
                                               "--shards); agreement, iaa, benchmark: the bootstrap or "
                                               "significance samples; gamma: the random continua.")]
ChunkDocs = Annotated[int | None, typer.Option("--chunk-docs", min=1, help="Read JSONL and CoNLL files lazily, "
                                                                           "this many documents at a time (every "
                                                                           "input: the same documents in the same "
                                                                           "order).")]
Bootstrap = Annotated[int, typer.Option("--bootstrap", min=0, help="Bootstrap samples (units resampled) for "
                                                                   "confidence intervals: agreement on alpha and "
                                                                   "Fleiss' kappa, iaa --measure kappa on kappa "
                                                                   "and pi; 0: none.")]
Seed = Annotated[int | None, typer.Option("--seed", help="Seed of the random draws (bootstrap, significance "
                                                         "samples, random continua).")]
JsonOut = Annotated[Path | None, typer.Option("--json", help="Write the full result as JSON to this file (before "
                                                             "anything is printed).")]
MdOut = Annotated[Path | None, typer.Option("--md", help="Write the Markdown report.")]
HtmlOut = Annotated[Path | None, typer.Option("--html", help="Write the HTML report.")]
AlignmentReport = Annotated[Path | None, typer.Option("--report", help="Folder for scores.json, alignment.tsv and "
                                                                       "alignment.jsonl (relations: the relation "
                                                                       "decisions too, and unscored relations "
                                                                       "with their reason).")]
ErrorsOut = Annotated[Path | None, typer.Option("--errors", help="Write every error (label, boundary, missing, "
                                                                   "spurious) as a row with its context: .jsonl, "
                                                                   ".csv or .tsv by suffix.")]
ErrorsAll = Annotated[bool, typer.Option("--errors-all", help="--errors writes every decision, correct ones "
                                                              "too.")]
Context = Annotated[int, typer.Option("--context", min=0, help="Characters of text on each side of an --errors "
                                                               "row.")]
Confusion = Annotated[bool, typer.Option("--confusion", help="The label confusion matrix (key x response labels, "
                                                             "same span and any overlap).")]
Ci = Annotated[int | None, typer.Option("--ci", help="Document-bootstrap intervals of every figure, with this "
                                                     "many samples (e.g. 1000).")]
Confidence = Annotated[float, typer.Option("--confidence", help="Confidence of the --ci intervals, in (0, 1).")]
BucketsOpt = Annotated[bool, typer.Option("--buckets", help="P/R/F by span length, label, document length and "
                                                            "density (with --train: training frequency and "
                                                            "label consistency).")]
Train = Annotated[Path | None, typer.Option("--train", help="--buckets: the training corpus (same format as KEY) "
                                                            "for the frequency and consistency buckets.")]
Quiet = Annotated[bool, typer.Option("--quiet", "-q", help="Print no tables, notes or progress bars (errors "
                                                           "only).")]
Encoding = Annotated[str | None, typer.Option("--encoding", callback=check_encoding,
                                              help="Text encoding of the input files (a Python codec name: "
                                                   "latin-1, cp1252, utf-16, ...); default UTF-8.")]
Sep = Annotated[str | None, typer.Option("--sep", callback=check_sep,
                                         help="Column delimiter of the input: CSV (default ',') or CoNLL (default "
                                              "any whitespace); 'tab' or '\\t' for a tab.")]
ReaderOption = Annotated[list[str] | None, typer.Option(
    "--reader-option", "-O", metavar="NAME=VALUE", callback=check_reader_options,
    help="An option of the input's reader, NAME=VALUE (repeat it for more): relations=true (XMI, TSV3: read "
         "relations as the span of their dependent), structural=true (XMI: tokens, sentences, metadata), "
         "typesystem=PATH (XMI), unit=utf16 (NIF), ... VALUE true/false is a boolean, an integer a number, "
         "anything else a string. An option no input's reader takes is refused, naming those it takes.")]


def bdm_credit(bdm: Path | None, feature: str | None, features: Sequence[str] | None = None) -> Any:
    """The BDM credit rule of ``--bdm`` / ``--bdm-feature`` (None without ``--bdm``): the result object
    computes the BDM-weighted figures (``report()["bdm"]``), in one process or shard by shard. The concept's
    feature must be significant (``--features``): a differing concept is what makes a pair a near miss."""
    if bdm is None:
        if feature is not None:
            raise ConfigError("--bdm-feature names the feature holding the BDM concept; give --bdm too")
        return None
    if feature is not None and feature not in (features or ()) and "*" not in (features or ()):
        raise ConfigError(f"--bdm-feature {feature} reads the concept from a significant feature; add "
                          f"--features {feature} (iaa: --types TYPE->{feature})")
    from ..bdm.credit import BdmCredit

    return BdmCredit.from_file(bdm, feature=feature)


def check_dask(value: str | None) -> str | None:
    """``--dask``: ``local:N`` or a scheduler address, checked as the option is parsed, before any work
    (:func:`spacy_anno_eval.cluster.check_scheduler`); a :class:`ConfigError` naming the accepted forms otherwise."""
    if value is None:
        return None
    from ..cluster import check_scheduler

    return check_scheduler(value)


def warn_same_input(key: Path | str | None, response: Path | str | None, key_set: str | None = None,
                    response_set: str | None = None, *, names: tuple[str, str] = ("key", "response")) -> bool:
    """Warn with :class:`~spacy_anno_eval.errors.SameInputWarning` when the two inputs of a comparison are the same
    file or folder (the same path, or one reached through a symlink or a hard link; for a glob pattern or a path
    that does not exist, the same absolute path) and the same annotation set (``response_set`` None: the key's):
    every figure will be perfect. ``names``: how the command calls its two inputs. Call it before any work; the
    warning prints once the command has succeeded. Return whether it warned."""
    import os
    import warnings

    from ..errors import SameInputWarning

    if key is None or response is None or (response_set or key_set) != key_set:
        return False
    try:
        same = os.path.samefile(key, response)
    except (OSError, ValueError):  # a glob of shards, a path that does not exist (the reader says so)
        same = os.path.abspath(key) == os.path.abspath(response)
    if same:
        kind = "folder" if os.path.isdir(key) else "file"
        shown = str(key) if str(key) == str(response) else f"{key} and {response}"
        warnings.warn(f"the {names[0]} and the {names[1]} are the same {kind} ({shown}); every figure will be "
                      f"perfect", SameInputWarning, stacklevel=2)
    return same


def analysis_settings(errors: Path | None, errors_all: bool, context: int, confusion: bool, ci: int | None,
                      seed: int | None, confidence: float, buckets: bool, train: Path | None, *,
                      key_set: str = "ents", fmt: str = "auto") -> Any:
    """The :class:`~spacy_anno_eval.workflows.analysis.AnalysisSettings` of score's and qa's error-analysis
    options, checked before any work (``--errors-all`` without ``--errors`` is refused)."""
    from ..workflows.analysis import AnalysisSettings

    if errors_all and errors is None:
        raise ConfigError("--errors-all widens --errors to every decision; give --errors FILE with it")
    return AnalysisSettings(errors=None if errors is None else "all" if errors_all else "errors",
                            confusion=confusion, ci=ci, seed=0 if seed is None else seed, confidence=confidence,
                            buckets=buckets, train=train, context=context, key_set=key_set, train_format=fmt)
