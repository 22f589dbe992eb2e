"""The corpus statistics table on the terminal (GATE user guide 10.3.3), rendered with ``rich``.

One row per type: Match (correct), Only key (missing), Only response
(spurious), Overlap (partial), then P/R/F for each chosen measure; summary
rows give the micro average (counts added over the corpus) and the macro
averages over types and over documents. A second table gives GATE's error
rate (1 - P per measure) and false-positive rate (Spurious / c, c the tokens or
sentences; user guide §10.1.3 eq. 10.8). Figures are read from the report
as they are, never recomputed. User text (labels, ids, set names, annotated
text) goes to ``rich`` as :class:`rich.text.Text`, never read as markup: a
label ``[/bold]`` prints as it is.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

COUNT_COLUMNS = (("Match", "correct"), ("Only\nkey", "missing"), ("Only\nresp.", "spurious"),
                 ("Overlap", "partial"))


def _cells(entry: dict[str, Any], measures: Sequence[str]) -> list[str]:
    from .rows import pct

    return [pct(entry[m][k]) for m in measures for k in "prf"]


def corpus_table(report: dict[str, Any], measures: Sequence[str] = ("strict", "lenient", "average"),
                 title: str | None = None, counts: bool = True) -> Any:
    """A ``rich.table.Table`` of the per-type, micro and macro figures (percentages); ``counts=False``: the
    figures alone (the narrow form of :func:`print_report`)."""
    from rich.table import Table
    from rich.text import Text

    shown = COUNT_COLUMNS if counts else ()
    table = Table(title=None if title is None else Text(title), show_lines=False, header_style="bold")
    table.add_column("Type", style="bold", no_wrap=True)
    for name, _ in shown:
        table.add_column(name, justify="right", no_wrap=True)
    for m in measures:
        for k in "PRF":
            table.add_column(f"{k}\n{m}", justify="right", no_wrap=True)
    for label, entry in sorted(report["per_type"].items()):
        table.add_row(Text(str(label)), *(str(entry["counts"][c]) for _, c in shown), *_cells(entry, measures))
    table.add_section()
    table.add_row("micro", *(str(report["counts"][c]) for _, c in shown), *_cells(report["micro"], measures),
                  style="bold")
    blank = [""] * len(shown)
    table.add_row("macro (types)", *blank, *_cells(report["macro_types"], measures))
    table.add_row("macro (docs)", *blank, *_cells(report["macro_docs"], measures))
    return table


def fits(console: Any, table: Any) -> bool:
    """Whether ``table`` prints on ``console`` without a cell cut (a pipe or ``COLUMNS=80``: 80 columns)."""
    from rich.measure import Measurement

    natural = Measurement.get(console, console.options.update_width(100_000), table).maximum  # not squeezed
    return natural <= console.width


def print_fitting(console: Any, wide: Any, *narrow: Any) -> None:
    """Print ``wide`` when it fits the console, else the narrower tables ``narrow`` one after the other (the
    same figures, split), so that no figure is ever cut to ``6…``."""
    for table in (wide,) if fits(console, wide) or not narrow else narrow:
        console.print(table)


def error_table(report: dict[str, Any], measures: Sequence[str] = ("strict", "lenient", "average")) -> Any:
    """A ``rich.table.Table`` of the error rate per measure (percentages) and the false-positive rate (Spurious
    per token or sentence, four decimals) per type, micro and macro; ``None`` when the report has neither."""
    from rich.table import Table
    from rich.text import Text

    from .rows import figure, pct

    rates = report.get("error_rate")
    if rates is None:
        return None
    fp = report.get("false_positive")
    per = fp["per"] if fp else None
    unit = {"tokens": "token", "sentences": "sentence"}.get(per, per)
    title = "Error rate (1 - P)" + (f" and false positives per {unit} (Spurious / {per}, {fp[per]} {per})"
                                    if fp else "")
    table = Table(title=Text(title), header_style="bold")
    table.add_column("Type", style="bold", no_wrap=True)
    for m in measures:
        table.add_column(f"E\n{m}", justify="right", no_wrap=True)
    if fp:
        table.add_column(f"FP per\n{unit}", justify="right", no_wrap=True)

    def cells(e: dict[str, Any], f: Any) -> list[str]:
        return [pct(e[m]) for m in measures] + ([figure(f)] if fp else [])

    for label, entry in sorted(report["per_type"].items()):
        table.add_row(Text(str(label)), *cells(entry.get("error_rate") or {m: None for m in measures},
                                               entry.get("false_positive")))
    table.add_section()
    for name, key in (("micro", "micro"), ("macro (types)", "macro_types"), ("macro (docs)", "macro_docs")):
        table.add_row(name, *cells(rates[key], fp[key] if fp else None), style="bold" if key == "micro" else None)
    return table


MUC_COUNTS = ("COR", "PAR", "INC", "MIS", "SPU", "POS", "ACT")


def muc_semeval_table(report: dict[str, Any], counts: bool = True, figures: bool = True) -> Any:
    """A ``rich.table.Table`` of the MUC and SemEval-2013 counts and P/R/F (percentages); ``counts`` /
    ``figures`` False leave those columns out (the narrow form of :func:`print_report`)."""
    from rich.table import Table

    from .rows import pct

    table = Table(header_style="bold")
    table.add_column("Scheme", style="bold", no_wrap=True)
    shown = MUC_COUNTS if counts else ()
    prf = "prf" if figures else ""
    for name in shown:
        table.add_column(name, justify="right", no_wrap=True)
    for k in prf:
        table.add_column(k.upper(), justify="right", no_wrap=True)
    rows = [("MUC", report["muc"])] + [(f"SemEval {s}", v) for s, v in report["semeval"].items()]
    for name, entry in rows:
        table.add_row(name, *(str(entry[c]) for c in shown), *(pct(entry[k]) for k in prf))
    return table


def print_report(report: dict[str, Any], console: Any = None,
                 measures: Sequence[str] = ("strict", "lenient", "average")) -> None:
    """Print the corpus table and the MUC / SemEval table; with BDM credit (``report["bdm"]``), its micro
    figures."""
    from rich.console import Console

    from .rows import pct

    console = console or Console()
    settings = report.get("settings", {})
    title = (f"{report['n_docs']} documents · key {settings.get('key_set', '?')} vs response "
             f"{settings.get('response_set', '?')} · F-beta {settings.get('beta', 1.0):g}")
    print_fitting(console, corpus_table(report, measures, title=title), *_packed(console, report, measures, title))
    coverage = report.get("macro_docs_coverage") or {}
    if coverage.get("n_left_out"):
        shown, left = coverage["n_docs"], coverage["n_left_out"]
        console.print(f"macro (docs): the mean over {shown} of {shown + left} documents; {left} left out, because "
                      f"{coverage['reason']}", markup=False, highlight=False)
    errors = error_table(report, measures)
    if errors is not None:
        console.print(errors)
    print_fitting(console, muc_semeval_table(report), muc_semeval_table(report, figures=False),
                  muc_semeval_table(report, counts=False))
    if report.get("bdm") is not None:
        console.print("BDM-weighted (micro): " + ", ".join(
            f"{m} P {pct(v['p'])} R {pct(v['r'])} F {pct(v['f'])}"
            for m, v in report["bdm"]["micro"].items()), markup=False, highlight=False)


def _packed(console: Any, report: dict[str, Any], measures: Sequence[str], title: str) -> list[Any]:
    """The narrow form of the corpus table: the counts, then the measures' P/R/F, as many side by side as the
    console holds (at 80 columns: counts and strict, then lenient and average)."""
    tables: list[Any] = []
    counts, group = True, []  # the table being filled
    for m in measures:
        if group and not fits(console, corpus_table(report, [*group, m], counts=counts)):
            tables.append(corpus_table(report, group, title=None if tables else title, counts=counts))
            counts, group = False, []
        elif not group and counts and not fits(console, corpus_table(report, [m])):
            tables.append(corpus_table(report, (), title=title))  # the counts alone
            counts = False
        group.append(m)
    tables.append(corpus_table(report, group, title=None if tables else title, counts=counts))
    return tables


def _ci(low: Any, high: Any) -> str:
    from .rows import figure

    return f"[{figure(low)}, {figure(high)}]"


def print_classification(table: dict[str, Any], console: Any = None) -> None:
    """The classification of ``qa --classify`` (:func:`spacy_anno_eval.agreement.classification`'s table):
    observed and specific agreement (percentages), Cohen's kappa and Scott's pi (with their intervals when a
    bootstrap gave them), the confusion matrix (rows: key, columns: response)."""
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    from .rows import figure, pct

    console = console or Console()
    console.print(Text(f"Classification of {table['type']} by {table['feature']} ({table['n']} coextensive "
                       f"pairs)"))
    console.print(Text(f"  {'observed agreement':<20}{pct(table['observed_agreement'])} %"))
    for key, name in (("cohen_kappa", "Cohen's kappa"), ("scott_pi", "Scott's pi")):
        line = f"  {name:<20}{figure(table.get(key))}"
        ci = table.get(f"{key}_ci")
        if isinstance(ci, dict) and ci.get("low") is not None:
            line += f"  {ci.get('confidence', 0.95):.0%} CI {_ci(ci['low'], ci['high'])}"
        console.print(Text(line))
    matrix = Table(title=Text("key (rows) × response (columns)"), header_style="bold")
    matrix.add_column("key", style="bold", no_wrap=True)
    for c in table["categories"]:
        matrix.add_column(Text(str(c)), justify="right", no_wrap=True)
    matrix.add_column("specific %", justify="right", no_wrap=True)
    specific = table.get("specific_agreement", {})
    for c, row in zip(table["categories"], table["matrix"], strict=True):
        matrix.add_row(Text(str(c)), *(str(v) for v in row), pct(specific.get(c)))
    if fits(console, matrix):
        console.print(matrix)
    else:  # too many categories side by side: one line each
        for c, row in zip(table["categories"], table["matrix"], strict=True):
            cells = ", ".join(f"{b} {v}" for b, v in zip(table["categories"], row, strict=True) if v)
            console.print(Text(f"  key {c}: {cells or 'none'}; specific agreement {pct(specific.get(c))} %"))


def print_below_threshold(low: dict[str, Any], threshold: float, console: Any = None, max_rows: int = 50) -> None:
    """GATE's verbose benchmark output: per type below ``threshold``, its low figures and the
    non-coextensive annotations with their text (as :func:`spacy_anno_eval.workflows.benchmark.compare.below_threshold`
    lists them)."""
    from rich.console import Console
    from rich.text import Text

    from .rows import pct

    console = console or Console()
    if not low:
        console.print(f"every per-type precision and recall is at or above the threshold {threshold:g}")
        return
    for label, entry in sorted(low.items()):
        figures = ", ".join(f"{k} {pct(v)}" for k, v in entry["figures"].items())
        console.print(Text.assemble((str(label), "bold"), f" below {threshold:g}: {figures}"))
        rows = entry["annotations"]
        for row in rows[:max_rows]:
            sides = []
            for side in ("key", "response"):
                s = row[side]
                if s is not None:
                    sides.append(f"{side} {s['label']} [{s['start']}, {s['end']}) {s.get('text', '')!r}")
            console.print(Text(f"  {row['doc_id']}  {row['status']:<9} {' | '.join(sides)}"))
        if len(rows) > max_rows:
            console.print(f"  ... and {len(rows) - max_rows} more")
