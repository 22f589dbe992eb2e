"""``anno-eval trees`` on the terminal: the lines of a treebank comparison.

Each function returns the lines (no newline) the command prints, one ``typer.echo`` each, from the JSON-ready
dict of the result (:meth:`~spacy_anno_eval.trees.dependencies.TreeComparison.to_dict`, EVALB's and
disco-dop's ``to_dict``, Brants and Skut's levels); the figures are read, never computed:

- dependency trees (:func:`dependency_lines`): sentences and words, then UAS, LAS, LAS over universal
  relations and label accuracy as percentages;
- Penn Treebank brackets (:func:`evalb_lines`): EVALB's summary for all sentences and those up to its length
  cutoff (the JSON's ``len_le_N`` block), as EVALB prints it, with two decimals;
- discontinuous phrase structures (:func:`disco_lines`): disco-dop's summary, labeled or unlabeled;
- Brants & Skut's (1998) word, node and sentence levels (:func:`levels_lines`);
- a phrase-structure comparison whole, as the command prints it (:func:`phrase_lines`).
"""

from __future__ import annotations

from typing import Any

#: the figures of a dependency comparison printed, in order
DEPENDENCY_FIGURES = ("uas", "las", "las_universal", "label_accuracy")
#: the formats of phrase structures as the summary names them
PHRASE_FORMATS = {"export": "NEGRA export", "tiger": "TIGER-XML", "discbracket": "discbracket",
                  "mixed": "phrase structures"}
#: Brants and Skut's Table 4 rows, by their JSON key
LEVELS = {"1_parent_node": "word: parent node", "1_parent_category": "word: parent category",
          "2_grammatical_function": "word: function", "3_identical_nodes": "node: same yield",
          "4_identical_nodes_labels": "node: + category", "5_identical_nodes_functions": "node: + function",
          "6_identical_structure": "sentence: structure", "7_identical_annotation": "sentence: annotation"}


def dependency_lines(data: dict[str, Any]) -> list[str]:
    """Sentences and words, then each of :data:`DEPENDENCY_FIGURES` as a percentage (a text value as it is)."""
    from .rows import pct

    lines = [f"{data['n_sentences']} sentences, {data['n_words']} words"]
    for k in DEPENDENCY_FIGURES:
        v = data[k]
        lines.append(f"{k:<16}{v if isinstance(v, str) else f'{pct(v)} %'}")
    return lines


def _cutoff(data: dict[str, Any]) -> str:
    """The key of the length-cutoff block (``len_le_40``)."""
    return next(k for k in data if k.startswith("len_le_"))


def evalb_lines(data: dict[str, Any], prm_name: str | None = None) -> list[str]:
    """EVALB's summary: sentences, errors and skips, then each figure for all sentences and up to the cutoff
    (``prm_name``: the parameter file's name, shown in the title)."""
    cutoff = _cutoff(data)
    lines = [f"EVALB{f' ({prm_name})' if prm_name is not None else ''}: {data['all']['sentences']} sentences, "
             f"{data['all']['error']} error, {data['all']['skip']} skip",
             f"{'':24}{'all':>10}{'<= ' + cutoff[7:]:>10}"]
    for name, label in (("recall", "bracketing recall"), ("precision", "bracketing precision"),
                        ("fmeasure", "bracketing F"), ("complete_match", "complete match"),
                        ("average_crossing", "average crossing"), ("no_crossing", "no crossing"),
                        ("two_or_less_crossing", "2 or less crossing"), ("tagging_accuracy", "tagging accuracy")):
        a, b = data["all"][name], data[cutoff][name]
        unit = "" if name == "average_crossing" else " %"
        lines.append(f"{label:<24}{a:>8.2f}{unit or '  '}{b:>8.2f}{unit}")
    return lines


def disco_lines(data: dict[str, Any], kind: str, prm_name: str | None = None) -> list[str]:
    """disco-dop's summary of ``kind`` (a key of :data:`PHRASE_FORMATS`): sentences, brackets (discontinuous
    ones counted), then each figure for all sentences and up to the cutoff."""
    cutoff = _cutoff(data)
    counts = data["all"]["counts"]
    labeled = "labeled" if data["params"]["labeled"] else "unlabeled"
    only = ", discontinuous only" if data["params"]["disc_only"] else ""
    title = f"{PHRASE_FORMATS[kind]}{f' ({prm_name})' if prm_name is not None else ''}{only}"
    lines = [f"{title}: {counts['sentences']} sentence(s), {counts['error']} error, {counts['skip']} skip",
             f"brackets: gold {counts['gold_brackets']} ({counts['disc_gold']} discontinuous), test "
             f"{counts['test_brackets']} ({counts['disc_test']} discontinuous)",
             f"{'':24}{'all':>10}{'<= ' + cutoff[7:]:>10}"]
    for name, label in (("recall", f"{labeled} recall"), ("precision", f"{labeled} precision"),
                        ("fmeasure", f"{labeled} F"), ("exact_match", "exact match"),
                        ("pos_accuracy", "POS accuracy")):
        lines.append(f"{label:<24}{data['all'][name]:>8.2f} %{data[cutoff][name]:>8.2f} %")
    return lines


def levels_lines(levels: dict[str, Any]) -> list[str]:
    """Brants and Skut's levels: sentences compared and differing, then each row of :data:`LEVELS` as a
    percentage."""
    lines = [f"Brants & Skut (1998): {levels['n_compared']} of {levels['n_sentences']} sentences compared, "
             f"{levels['n_differing_sentences']} differ"]
    lines += [f"{label:<24}{100 * levels['table4'][key]:>8.2f} %" for key, label in LEVELS.items()]
    return lines


def phrase_lines(data: dict[str, Any], kind: str, prm_name: str | None = None) -> list[str]:
    """What ``anno-eval trees`` prints for phrase structures: EVALB's summary for Penn Treebank brackets
    (``kind`` ``brackets``), disco-dop's otherwise (:func:`disco_lines`), then Brants and Skut's levels
    (``data["brants_skut"]``)."""
    summary = evalb_lines(data, prm_name) if kind == "brackets" else disco_lines(data, kind, prm_name)
    return [*summary, *levels_lines(data["brants_skut"])]


__all__ = ["DEPENDENCY_FIGURES", "LEVELS", "PHRASE_FORMATS", "dependency_lines", "disco_lines", "evalb_lines",
           "levels_lines", "phrase_lines"]
