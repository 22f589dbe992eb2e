"""The options of ``anno-eval trees --resolve`` / ``--doubt`` (Brants & Skut's models) and what they add.

``--resolve`` (KEY and RESPONSE): for every sentence where the two differ,
both perplexities and the suggestion (section 4.2), in the JSON (``resolve``),
the text ``--diff`` (a line under each differing sentence), ``--suggestions``
(JSON lines ``{"sent_id", "choose": "A"|"B", "pp_a", "pp_b"}``) and on the
terminal; with ``--gold``, Table 5's accuracy and the precision/recall curve.
``--doubt``: the labels a reliable decision contradicts (section 3.5), of
KEY alone (RESPONSE optional: cross-validated on KEY) or, with RESPONSE, of
RESPONSE judged by the models trained on KEY; in the JSON (``doubt``),
``--doubts`` (rows) and on the terminal; with ``--gold``, the precision of
the doubt list. ``--train`` trains the models on another treebank instead.

Every option is checked before any work: ``--gold``, ``--train``,
``--folds`` without ``--resolve`` or ``--doubt``, ``--suggestions`` without
``--resolve``, ``--doubts``/``--theta1``/``--theta2`` without ``--doubt``,
``--folds`` where nothing is cross-validated, ``folds < 2`` and ``theta1 >
theta2`` are a :class:`~spacy_anno_eval.errors.ConfigError` (exit 2).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import typer

from ..errors import ConfigError

ResolveOpt = Annotated[bool, typer.Option("--resolve", help="Brants & Skut's perplexity test (section 4.2): for "
                                                            "every sentence where KEY (A) and RESPONSE (B) "
                                                            "differ, both perplexities under the function and "
                                                            "category models and the suggestion (the lower); in "
                                                            "the JSON (resolve), --diff, --suggestions.")]
DoubtOpt = Annotated[bool, typer.Option("--doubt", help="The labels a reliable decision of the models "
                                                        "contradicts (section 3.5), per sentence, with the "
                                                        "quotient P_best/P_second: KEY's alone (RESPONSE may be "
                                                        "left out; cross-validated on KEY), or with RESPONSE, "
                                                        "RESPONSE's judged by the models trained on KEY.")]
TrainOpt = Annotated[Path | None, typer.Option("--train", help="--resolve/--doubt: train the models on this "
                                                               "treebank (same kind as KEY) instead of "
                                                               "cross-validating on the compared sentences.")]
FoldsOpt = Annotated[int | None, typer.Option("--folds", help="--resolve/--doubt without --train: k-fold "
                                                              "cross-validation, each sentence judged by models "
                                                              "trained on the other folds (at least 2; default "
                                                              "10; sentences dealt with seed 0).")]
GoldOpt = Annotated[Path | None, typer.Option("--gold", help="An adjudicated version of the same sentences: with "
                                                             "--resolve Table 5's accuracy and the precision/"
                                                             "recall curve over minimum perplexity differences; "
                                                             "with --doubt how many doubted labels are really "
                                                             "wrong.")]
SuggestionsOpt = Annotated[Path | None, typer.Option("--suggestions", help="--resolve: write a JSON line per "
                                                                           "differing sentence with a suggestion: "
                                                                           "{sent_id, choose: A|B, pp_a, pp_b}; "
                                                                           "'adjudicate A B --choices' takes "
                                                                           "them.")]
AdjudicatedOpt = Annotated[Path | None, typer.Option("--adjudicated", help="--resolve: write the treebank of the "
                                                                           "suggested versions (each sentence "
                                                                           "copied as written from KEY or "
                                                                           "RESPONSE; ties keep KEY's); CoNLL-U "
                                                                           "and NEGRA export.")]
DoubtsOpt = Annotated[Path | None, typer.Option("--doubts", help="--doubt: write the doubtful labels as rows "
                                                                 "(.jsonl, .csv or .tsv by suffix).")]
Theta1Opt = Annotated[float | None, typer.Option("--theta1", help="--doubt: a quotient P_best/P_second below "
                                                                  "this is unreliable (default 5).")]
Theta2Opt = Annotated[float | None, typer.Option("--theta2", help="--doubt: a quotient above this is reliable, "
                                                                  "and only reliable decisions doubt a label "
                                                                  "(default 100).")]


@dataclass(frozen=True)
class ModelRequest:
    """What the options ask of the models; ``settings`` a checked
    :class:`~spacy_anno_eval.workflows.tree_models.TreeModelSettings`."""

    resolve: bool
    doubt: bool
    train: Path | None
    gold: Path | None
    suggestions: Path | None
    doubts: Path | None
    settings: Any
    adjudicated: Path | None = None


def model_request(resolve: bool, doubt: bool, train: Path | None, folds: int | None, gold: Path | None,
                  suggestions: Path | None, doubts: Path | None, theta1: float | None, theta2: float | None,
                  two_treebanks: bool, adjudicated: Path | None = None) -> ModelRequest | None:
    """The checked request (module docstring), or ``None`` when neither ``--resolve`` nor ``--doubt`` is given
    (then no option of theirs may be)."""
    if not (resolve or doubt):
        given = [name for name, value in (("--gold", gold), ("--train", train), ("--folds", folds),
                                          ("--suggestions", suggestions), ("--doubts", doubts),
                                          ("--adjudicated", adjudicated),
                                          ("--theta1", theta1), ("--theta2", theta2)) if value is not None]
        if given:
            raise ConfigError(f"{', '.join(given)} {'is' if len(given) == 1 else 'are'} for Brants & Skut's models: "
                              f"add --resolve (which of KEY and RESPONSE to keep) or --doubt (which labels to "
                              f"check)")
        return None
    for name, value in (("--suggestions", suggestions), ("--adjudicated", adjudicated)):
        if value is not None and not resolve:
            raise ConfigError(f"{name} writes what --resolve suggests; add --resolve")
    for name, value in (("--doubts", doubts), ("--theta1", theta1), ("--theta2", theta2)):
        if value is not None and not doubt:
            raise ConfigError(f"{name} is for --doubt (section 3.5's reliability levels); add --doubt")
    cross_validates = train is None and (resolve or not two_treebanks)
    if folds is not None and not cross_validates:
        why = "--train is given" if train is not None else "with RESPONSE, --doubt trains the models on KEY"
        raise ConfigError(f"--folds sets the cross-validation, and nothing is cross-validated: {why}")
    from ..workflows.tree_models import TreeModelSettings

    settings = TreeModelSettings(folds=10 if folds is None else folds,
                                 theta1=5.0 if theta1 is None else theta1, theta2=100.0 if theta2 is None else theta2)
    return ModelRequest(resolve, doubt, train, gold, suggestions, doubts, settings, adjudicated)


@dataclass
class ModelOutcome:
    """The sections for the JSON, the notes for the diff (by ``sent_id``), and the results to write."""

    sections: dict[str, Any]
    notes: dict[str, str]
    resolution: Any = None
    doubts: Any = None
    adjudicated: Any = None


def run_models(request: ModelRequest, key: Path, key_trees: list, response: Path | None,
               response_trees: list | None, format_of: Callable[[Path], str]) -> ModelOutcome:
    """Run what ``request`` asks on the trees already read (``--train``/``--gold`` read here, each in
    ``format_of(path)``) and return the JSON sections and the diff notes."""
    from ..report.trees_models_terminal import perplexity_notes
    from ..workflows.tree_models import doubt_treebank, read_trees, resolve_treebanks

    train = read_trees(request.train, format_of(request.train)) if request.train is not None else None
    gold = read_trees(request.gold, format_of(request.gold)) if request.gold is not None else None
    out = ModelOutcome({}, {})
    if request.resolve:
        out.resolution = resolve_treebanks(key_trees, response_trees, train=train, gold=gold,
                                           settings=request.settings)
        out.sections["resolve"] = {**out.resolution.to_dict(), "a": str(key), "b": str(response),
                                   "train": str(request.train) if request.train is not None else None,
                                   "gold_file": str(request.gold) if request.gold is not None else None}
        out.notes = perplexity_notes(out.sections["resolve"])
        if request.adjudicated is not None:
            from ..trees.adjudicated import adjudicated_treebank

            out.adjudicated = adjudicated_treebank(key, response, key_trees, response_trees, out.resolution,
                                                   format_of(key))
            out.sections["resolve"]["adjudicated"] = {"file": str(request.adjudicated),
                                                      **out.adjudicated.to_dict()}
    if request.doubt:
        judged, reference = (response_trees, key_trees) if response_trees is not None else (key_trees, None)
        out.doubts = doubt_treebank(judged, reference=reference, train=train, gold=gold, settings=request.settings,
                                    source=str(response if response is not None else key),
                                    reference_source=str(key), train_source=str(request.train))
        out.sections["doubt"] = out.doubts.to_dict()
    return out


def write_model_outputs(request: ModelRequest, outcome: ModelOutcome) -> None:
    """``--suggestions`` (JSON lines) and ``--doubts`` (rows), through :mod:`spacy_anno_eval.files`."""
    from ..files import write_jsonl

    if request.suggestions is not None:
        write_jsonl(request.suggestions, outcome.resolution.suggestions())
    if request.adjudicated is not None:
        from ..trees.adjudicated import write_adjudicated

        write_adjudicated(request.adjudicated, outcome.adjudicated)
    if request.doubts is not None:
        outcome.doubts.write_rows(request.doubts)


def model_lines(request: ModelRequest, sections: dict[str, Any]) -> list[str]:
    """The terminal lines of ``--resolve`` and ``--doubt``
    (:mod:`spacy_anno_eval.report.trees_models_terminal`)."""
    from ..report.trees_models_terminal import doubt_lines, resolve_lines

    lines: list[str] = []
    if "resolve" in sections:
        trained = str(request.train) if request.train is not None else None
        lines += resolve_lines(sections["resolve"], trained_on=trained)
    if "doubt" in sections:
        lines += doubt_lines(sections["doubt"])
    return lines


__all__ = ["AdjudicatedOpt", "DoubtOpt", "DoubtsOpt", "FoldsOpt", "GoldOpt", "ModelOutcome", "ModelRequest",
           "ResolveOpt", "SuggestionsOpt", "Theta1Opt", "Theta2Opt", "TrainOpt", "model_lines", "model_request",
           "run_models", "write_model_outputs"]
