"""``anno-eval iaa`` on the terminal: the lines of an IAA result at GATE's three verbosity levels.

GATE's IAA plugin has a ``verbosity`` parameter (user guide 10.5): level 2
prints the figures of each document, level 1 the figures averaged over the
documents, level 0 nothing. Here the levels are (:func:`iaa_lines`):

- ``0``: the overall figures only: the mean of pairs (F, or observed
  agreement, kappa and pi) and, for kappa, the chance-corrected family (mean
  of pairs, and all annotators, mean over types);
- ``1`` (the default): the agreement matrix, the overall figures, the
  figures per type and, for kappa, the chance-corrected figures of each pair,
  each annotator against the majority of the others and the bootstrap
  intervals;
- ``2``: also each pair's figures per document (and for kappa, each pair's
  PABAK with its prevalence and bias indices and the specific agreement of
  every category, per type).

Every figure is read from the result (:func:`~spacy_anno_eval.agreement.iaa.pairwise_f`,
:func:`~spacy_anno_eval.agreement.iaa.pairwise_kappa`), never computed here. F and observed agreement
are percentages with two decimals, coefficients have four; lines fit ``columns`` (set names become
``#1``, ``#2``... with a legend when the matrix would not fit; a document id too long for its column gets a
line of its own).
"""

from __future__ import annotations

from typing import Any

from ..errors import ConfigError
from .rows import figure, pct

#: GATE's verbosity levels
VERBOSITY = (0, 1, 2)
#: the chance-corrected coefficients by their short names (table heads) and long names (prose lines)
SHORT = {"gwet_ac": "AC1", "brennan_prediger": "BP", "pabak": "PABAK", "conger_kappa": "Conger",
         "fleiss_kappa_averaged": "Fleiss"}
LONG = {"gwet_ac": "Gwet AC1", "brennan_prediger": "Brennan-Prediger", "pabak": "PABAK",
        "conger_kappa": "Conger kappa", "fleiss_kappa_averaged": "Fleiss kappa"}
KAPPA_KEYS = ("observed_agreement", "cohen_kappa", "scott_pi")


def check_verbosity(verbosity: Any) -> int:
    """``verbosity`` as an int of :data:`VERBOSITY`; :class:`ConfigError` otherwise."""
    if isinstance(verbosity, bool) or verbosity not in VERBOSITY:
        raise ConfigError(f"verbosity must be 0 (overall figures), 1 (and per type) or 2 (and per document), "
                          f"got {verbosity!r}")
    return int(verbosity)


def iaa_lines(result: dict[str, Any], verbosity: int = 1, columns: int = 80) -> list[str]:
    """The lines ``anno-eval iaa`` prints for ``result`` at ``verbosity`` (see the module docstring), each at
    most ``columns`` wide where the data allow (at least 60 columns are assumed)."""
    verbosity = check_verbosity(verbosity)
    columns = max(int(columns), 60)
    kappa = result.get("measure") == "kappa"
    view = _View(result, columns)
    lines: list[str] = []
    if verbosity >= 1:
        lines += view.matrix(kappa)
    else:
        what = "Cohen kappa" if kappa else "pairwise F (%)"
        lines.append(f"{what}, {len(result['annotators'])} annotators, {result['n_docs']} documents")
    lines += _overall(result, kappa, columns)
    if verbosity >= 1:
        lines += _per_type(result, kappa, columns)
        if kappa:
            lines += view.pair_family()
            lines += view.majority()
            lines += _intervals(result)
    if verbosity >= 2:
        lines += view.per_document(kappa)
    return lines


class _View:
    """The names of the annotators as the matrix shows them (full, or ``#n`` with a legend)."""

    def __init__(self, result: dict[str, Any], columns: int) -> None:
        self.result, self.columns = result, columns
        names = result["annotators"]
        self.full = max(9, *(len(n) + 1 for n in names))
        self.aliased = (max(len(n) for n in names) + 2) + self.full * (len(names) + 1) > columns
        self.heads = [f"#{i + 1}" for i in range(len(names))] if self.aliased else list(names)
        self.rows = [f"#{i + 1} {n}" for i, n in enumerate(names)] if self.aliased else list(names)

    def pair_name(self, pair: dict[str, Any]) -> str:
        """``a / b`` with full names when they fit the line, else ``#i / #j``."""
        full = f"{pair['a']} / {pair['b']}"
        if not self.aliased and len(full) <= self.columns - 30:
            return full
        return f"#{pair['i'] + 1} / #{pair['j'] + 1}"

    def matrix(self, kappa: bool) -> list[str]:
        """The agreement matrix: full set names as headers when they fit the terminal, else numbers with the
        names as a legend on the rows; F as percentages, kappa with four decimals; with partial coverage, the
        documents each pair covers in the same layout."""
        result = self.result
        cell_width = 9 if self.aliased else self.full
        width = max(len(r) for r in self.rows) + 2
        docs = result["matrix"].get("docs_covered")
        total = result["n_docs"]
        partial = docs is not None and any(p.get("docs_covered", total) < total for p in result.get("pairs", []))
        lines = [f"{'Cohen kappa (mean over types)' if kappa else 'pairwise F (%)'} "
                 f"({result['matrix']['measure']}, micro), {total} documents",
                 " " * width + "".join(f"{h:>{cell_width}}" for h in self.heads) + f"{'mean':>{cell_width}}"]

        def cell(v: float | None) -> str:
            return f"{'n/a' if v is None else (figure(v) if kappa else pct(v)):>{cell_width}}"

        for a, name in enumerate(self.rows):
            cells = "".join(cell(v) for v in result["matrix"]["micro"][a])
            lines.append(f"{name:<{width}}{cells}{cell(result['matrix']['annotator_mean_micro'][a])}")
        if partial:
            lines.append(f"documents both annotated, per pair (of {total}; diagonal: each annotator's)")
            lines.append(" " * width + "".join(f"{h:>{cell_width}}" for h in self.heads))
            for a, name in enumerate(self.rows):
                lines.append(f"{name:<{width}}" + "".join(f"{v:>{cell_width}}" for v in docs[a]))
        return lines

    def pair_family(self) -> list[str]:
        """Each pair's Gwet AC1, Brennan-Prediger and PABAK, mean over types."""
        pairs = [p for p in self.result.get("pairs", []) if "chance_corrected" in p]
        if not pairs:
            return []
        keys = list(pairs[0]["chance_corrected"]["mean_over_types"])
        names = [self.pair_name(p) for p in pairs]
        width = max(len(n) for n in names) + 2
        lines = ["chance-corrected per pair (mean over types):",
                 f"  {'':<{width}}" + "".join(f"{SHORT.get(k, k):>9}" for k in keys)]
        for name, p in zip(names, pairs, strict=True):
            means = p["chance_corrected"]["mean_over_types"]
            lines.append(f"  {name:<{width}}" + "".join(f"{figure(means[k]):>9}" for k in keys))
        return lines

    def majority(self) -> list[str]:
        """Each annotator's observed agreement with the majority of the others, mean over types."""
        family = self.result.get("chance_corrected") or {}
        per = family.get("majority_per_annotator")
        if not per:
            return []
        width = max(len(n) for n in per) + 2
        lines = ["each annotator's agreement with the majority of the others (%, mean over types):"]
        lines += [f"  {name:<{width}}{pct(v) if v is not None else 'n/a':>8}" for name, v in per.items()]
        return lines

    def per_document(self, kappa: bool) -> list[str]:
        """Each pair's figures per document (kappa: per type too, with PABAK and specific agreement)."""
        lines: list[str] = [] if kappa else ["per document: C correct, Pa partial, M missing, S spurious"]
        for pair in self.result.get("pairs", []):
            head = f"{pair['a']} / {pair['b']}"
            if kappa:
                lines += _kappa_pair_detail(head, pair, self.columns)
            else:
                lines += _f_pair_documents(head, pair, self.columns)
        return lines


def _wrapped(head: str, items: list[str], columns: int) -> list[str]:
    """``head`` followed by ``items`` joined with ``, ``, broken into lines of at most ``columns`` (never
    inside an item; later lines indented by two spaces)."""
    lines: list[str] = []
    line = head
    for k, item in enumerate(items):
        piece = item + ("," if k < len(items) - 1 else "")
        if line.strip() and len(line) + 1 + len(piece) > columns and line != head:
            lines.append(line)
            line = "  " + piece
        else:
            line = f"{line} {piece}" if line else piece
    lines.append(line)
    return lines


def _overall(result: dict[str, Any], kappa: bool, columns: int) -> list[str]:
    """The mean of pairs, and for kappa the chance-corrected family overall."""
    mean = result["mean_of_pairs"]
    if not kappa:
        lines = _wrapped("mean of pairs:", [f"{m} F {pct(mean[m]['f'])}" for m in mean], columns)
        if "mean_of_pairs_bdm" in result:
            lines += _wrapped("mean of pairs, BDM-weighted:",
                              [f"{m} F {pct(v['f'])}" for m, v in result["mean_of_pairs_bdm"].items()], columns)
        return lines
    lines = _wrapped("mean of pairs:", [
        f"{k} {pct(v) + ' %' if k == 'observed_agreement' and v is not None else figure(v)}"
        for k, v in mean.items()], columns)
    family = result.get("chance_corrected")
    if family:
        lines += _wrapped("chance-corrected, mean of pairs:",
                          [f"{LONG.get(k, k)} {figure(v)}" for k, v in family["mean_of_pairs"].items()], columns)
        over = family["mean_over_types"]
        items = [f"{LONG.get(k, k)} {figure(v)}" for k, v in over.items() if k != "majority"]
        if over.get("majority") is not None:
            items.append(f"agreement with the majority {pct(over['majority'])} %")
        lines += _wrapped("all annotators (mean over types):", items, columns)
    return lines


def _per_type(result: dict[str, Any], kappa: bool, columns: int) -> list[str]:
    """The figures per type: F per measure (mean of pairs), or observed agreement, kappa and pi (mean of
    pairs) with the chance-corrected family of all annotators."""
    per_type = result.get("per_type") or {}
    if not per_type:
        return []
    if kappa:
        family = (result.get("chance_corrected") or {}).get("per_type", {})
        keys = ["gwet_ac", "brennan_prediger", "conger_kappa", "fleiss_kappa_averaged"] if family else []
        heads = ["Ao %", "kappa", "pi", *(SHORT[k] for k in keys)]
        rows = {}
        for t, f in per_type.items():
            fam = family.get(t, {})
            rows[t] = [pct(f["observed_agreement"]) if f["observed_agreement"] is not None else "n/a",
                       figure(f["cohen_kappa"]), figure(f["scott_pi"]),
                       *(figure((fam.get(k) or {}).get("value")) for k in keys)]
        title = ("per type (Ao, kappa, pi: mean of pairs; AC1 to Fleiss: all annotators):" if keys
                 else "per type (mean of pairs):")
    else:
        measures = list(next(iter(per_type.values())))
        heads = [f"{m} F" for m in measures]
        rows = {t: [pct(f[m]) for m in measures] for t, f in per_type.items()}
        title = "per type, F (%) (mean of pairs):"
    cell = max(9, *(len(h) + 2 for h in heads))
    room = columns - 2 - cell * len(heads)
    width = max(len(t) for t in rows) + 2
    own_line = width > room
    width = 6 if own_line else width
    lines = [title, "  " + f"{'type':<{width}}" + "".join(f"{h:>{cell}}" for h in heads)]
    for t, cells in rows.items():
        figures = "".join(f"{c:>{cell}}" for c in cells)
        if own_line:
            lines += [f"  {t}", f"  {'':<{width}}{figures}"]
        else:
            lines.append(f"  {t:<{width}}{figures}")
    return lines


def _intervals(result: dict[str, Any]) -> list[str]:
    """The bootstrap intervals of kappa and pi that the result holds, per pair and type (none: nothing)."""
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
    return [f"{info}, per pair and type:", *lines] if lines else []


def _doc_rows(ids: list[str], cells: list[list[str]], heads: list[str], columns: int) -> list[str]:
    """A table of documents: the id, then ``cells`` under ``heads`` (each column as wide as its widest entry,
    plus two); an id too long for its column on a line of its own."""
    widths = [max(len(h), *(len(row[k]) for row in cells)) + 2 for k, h in enumerate(heads)]
    room = columns - 2 - sum(widths)
    width = min(max([len("document"), *(len(i) for i in ids)]) + 2, max(room, 10))
    lines = ["  " + f"{'document':<{width}}" + "".join(f"{h:>{w}}" for h, w in zip(heads, widths, strict=True))]
    for doc_id, row in zip(ids, cells, strict=True):
        figures = "".join(f"{c:>{w}}" for c, w in zip(row, widths, strict=True))
        if len(doc_id) + 1 > width:
            lines += [f"  {doc_id}", f"  {'':<{width}}{figures}"]
        else:
            lines.append(f"  {doc_id:<{width}}{figures}")
    return lines


def _f_pair_documents(head: str, pair: dict[str, Any], columns: int) -> list[str]:
    """One pair's counts and F per document (those with annotations on either side)."""
    docs = pair.get("report", {}).get("per_doc") or []
    if not docs:
        return [f"per document, {head}: no document with annotations"]
    heads = ["C", "Pa", "M", "S", "strict F", "lenient F"]
    cells = [[str(d["counts"]["correct"]), str(d["counts"]["partial"]), str(d["counts"]["missing"]),
              str(d["counts"]["spurious"]), pct(d["strict"]["f"]), pct(d["lenient"]["f"])] for d in docs]
    return [f"per document, {head}:", *_doc_rows([str(d["id"]) for d in docs], cells, heads, columns)]


def _kappa_pair_detail(head: str, pair: dict[str, Any], columns: int) -> list[str]:
    """One pair, per type: PABAK with its indices, specific agreement per category, figures per document."""
    lines: list[str] = []
    for label, f in pair.get("per_type", {}).items():
        lines.append(f"{head}, {label}: {f['n']} item{'' if f['n'] == 1 else 's'}")
        family = f.get("chance_corrected") or {}
        pb = family.get("pabak") or {}
        items = [f"PABAK {figure(pb.get('pabak'))}"]
        if "prevalence_index" in pb:
            items += [f"prevalence index {figure(pb['prevalence_index'])}",
                      f"bias index {figure(pb['bias_index'])}"]
        lines += _wrapped(" ", items, columns)
        specific = family.get("specific_agreement") or {}
        if specific:
            width = min(max(len(c) for c in specific) + 2, columns - 2 - 2 * 10)
            lines.append("  " + f"{'category':<{width}}{'positive':>10}{'negative':>10}")
            for c, sa in specific.items():
                row = f"{figure(sa['positive']):>10}{figure(sa['negative']):>10}"
                lines += [f"  {c}", f"  {'':<{width}}{row}"] if len(c) + 1 > width else [f"  {c:<{width}}{row}"]
        docs = f.get("per_doc") or []
        if docs:
            cells = [[str(d["n"]), pct(d["observed_agreement"]), figure(d["cohen_kappa"]), figure(d["scott_pi"])]
                     for d in docs]
            lines += _doc_rows([str(d["doc_id"]) for d in docs], cells, ["items", "Ao %", "kappa", "pi"], columns)
    return lines


def warning_lines(result: dict[str, Any]) -> list[str]:
    """The result's warnings, ``warning: ...`` each (stderr; ``--measure kappa`` prints them)."""
    return [f"warning: {w}" for w in result["warnings"]]


def matrix_written_line(index: Any, result: dict[str, Any]) -> str:
    """Where ``--html`` wrote the agreement matrix (``index``: its ``index.html``), with the number of pair
    pages beside it: one per pair of the result."""
    return f"agreement matrix written to {index} ({len(result['pairs'])} pair pages)"


def note_lines(result: dict[str, Any]) -> list[str]:
    """The notes printed once the command is done (stderr, never under ``--quiet``): which sets were compared
    (``sets_note``) and, for documents as items (``units``), what an item is, with the first ten labels."""
    lines = []
    if result.get("sets_note"):
        lines.append(f"note: {result['sets_note']}")
    info = result.get("units")
    if info:
        labels = ", ".join(info["labels"][:10]) + (", ..." if len(info["labels"]) > 10 else "")
        each = "each document is an item, its category the label chosen" if info["layout"] == "single-label" else \
            "each label is a type, its items the documents, yes/no"
        lines.append(f"note: the units are documents ({info['layout']}: {each}; labels: {labels})")
    return lines


__all__ = ["VERBOSITY", "check_verbosity", "iaa_lines", "matrix_written_line", "note_lines", "warning_lines"]
