"""The grounding of a language model's extractions on the terminal and in the HTML report.

:func:`grounding_table` is the ``rich`` table of how many extractions each step of the ladder grounded, how
many are hallucinations (not in the text), and the total, with each count's share of the extractions; it has
three narrow columns, so it fits 80 columns and a pipe. :func:`grounding_lines` adds the ladder, the
totals and the set mode's micro figures, :func:`ungrounded_line` the relations left unscored because an
argument is not in the text. :func:`grounding_panel` is the same as HTML, for the report's *Grounding* tab,
with every hallucinated string listed (the Annotation Diff shows them too, in their documents' appendices).

Every figure is read from the dicts of :mod:`spacy_anno_eval.workflows.llm` (``grounding``: counts per step,
their ``by_step_share``, hallucinations and ``hallucination_rate``; ``sets``), never computed here. User text
(labels, strings, ids) is escaped in HTML and given to ``rich`` as :class:`rich.text.Text`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .escape import esc
from .rows import pct

#: how each step is named in the tables
STEP_NAMES = {"claimed": "claimed offsets", "exact": "exact", "casefold": "case-folded", "normalized": "normalized",
              "fuzzy": "fuzzy", "hallucination": "not in the text"}
#: hallucinated strings listed in the HTML report at most (the JSON and --grounding hold them all)
MAX_HALLUCINATION_ROWS = 500


def _title(grounding: Mapping[str, Any]) -> str:
    """``ladder exact,casefold,normalized,fuzzy:0.8 · snap contract`` (``· every occurrence`` with ground_all)."""
    s = grounding.get("settings") or {}
    extra = " · every occurrence" if s.get("ground_all") else ""
    return f"ladder {s.get('spec', '?')} · snap {s.get('snap', '?')}{extra}"


def _step_rows(grounding: Mapping[str, Any]) -> list[tuple[str, str, str]]:
    """``(name, count, share)`` per step, then the total of extractions."""
    shares = grounding.get("by_step_share") or {}
    rows = [(STEP_NAMES.get(step, step), str(n), pct(shares.get(step))) for step, n in grounding["by_step"].items()]
    rows.append(("extractions", str(grounding["extractions"]), ""))
    return rows


def grounding_table(grounding: Mapping[str, Any]) -> Any:
    """A ``rich.table.Table``: extractions grounded at each step, not in the text, and their total."""
    from rich.table import Table

    table = Table(title="Grounding", header_style="bold")
    table.add_column("Step", no_wrap=True)
    table.add_column("Extractions", justify="right", no_wrap=True)
    table.add_column("%", justify="right", no_wrap=True)
    rows = _step_rows(grounding)
    for name, n, share in rows[:-1]:
        table.add_row(name, n, share, style="bold" if name == STEP_NAMES["hallucination"] else None)
    table.add_section()
    table.add_row(*rows[-1], style="bold")
    return table


def grounding_lines(grounding: Mapping[str, Any], sets: Mapping[str, Any] | None = None) -> list[str]:
    """The lines under the table, each at most 80 characters but for long labels: the ladder, the
    hallucinations and their rate, the annotations and repeats, and the set mode's micro figures."""
    lines = [_title(grounding),
             f"not in the text: {grounding['hallucinations']} of {grounding['extractions']} extractions "
             f"({pct(grounding.get('hallucination_rate'))}%), each a spurious response",
             f"annotations {grounding['annotations']} · repeats {grounding['repeats']}"
             + (f" · claimed offsets wrong {grounding['claimed_mismatches']}"
                if grounding.get("claimed_mismatches") else "")]
    if sets:
        m = sets["micro"]
        lines += [f"set mode ({sets['normalize']}, no grounding): P {pct(m['p'])} R {pct(m['r'])} "
                  f"F {pct(m['f'])}",
                  f"  correct {m['correct']}, key {m['key']}, response {m['response']}"]
    return lines


def ungrounded_line(n: int) -> str | None:
    """``3 relations left unscored: an argument is not in the text ...`` (``None`` for 0)."""
    if not n:
        return None
    return f"{n} relation{'s' if n != 1 else ''} left unscored: an argument is not in the text (see ungrounded)"


def print_grounding(grounding: Mapping[str, Any], sets: Mapping[str, Any] | None = None, console: Any = None) -> None:
    """Print the grounding table and :func:`grounding_lines`."""
    from rich.console import Console

    console = console or Console()
    console.print(grounding_table(grounding))
    for line in grounding_lines(grounding, sets):
        console.print(line, markup=False, highlight=False, soft_wrap=True)


# -- HTML ---------------------------------------------------------------------------------------------------------


def grounding_panel(grounding: Mapping[str, Any], sets: Mapping[str, Any] | None = None,
                    hallucinations: Sequence[Mapping[str, Any]] = ()) -> str:
    """The *Grounding* tab: the steps table (``#grounding-steps``), the counts per label, the set mode, and the
    hallucinated strings (``#hallucinations``: document, label, string, reason; at most
    :data:`MAX_HALLUCINATION_ROWS`). Safe HTML."""
    head = "".join(f'<th scope="col">{c}</th>' for c in ("Step", "Extractions", "%"))
    rows = _step_rows(grounding)
    body = "".join(f'<tr class="step"><th scope="row">{esc(name)}</th><td class="num">{esc(n)}</td>'
                   f'<td class="num">{esc(share)}</td></tr>' for name, n, share in rows[:-1])
    foot = (f'<tr class="summary micro"><th scope="row">{esc(rows[-1][0])}</th><td class="num">{esc(rows[-1][1])}'
            f'</td><td class="num">{esc(rows[-1][2])}</td></tr>')
    out = [f'<p class="muted">{esc(_title(grounding))}</p>',
           f'<table class="stats" id="grounding-steps"><thead><tr>{head}</tr></thead><tbody>{body}</tbody>'
           f"<tfoot>{foot}</tfoot></table>",
           "".join(f'<p class="note">{esc(line)}</p>' for line in grounding_lines(grounding)[1:]),
           '<p class="note">A string not in the text is shown in the Annotation Diff after the marker ⟦not in the '
           "text⟧, below its document's text, as a spurious response.</p>"]
    labels = grounding.get("by_label") or {}
    if labels:
        cols = ("extractions", "grounded", "hallucinations", "repeats")
        lhead = "".join(f'<th scope="col">{esc(c)}</th>' for c in ("Label", *cols))
        lbody = "".join(f'<tr><th scope="row">{esc(label)}</th>'
                        + "".join(f'<td class="num">{esc(c.get(k, 0))}</td>' for k in cols) + "</tr>"
                        for label, c in labels.items())
        out.append(f'<h3>Per label</h3><table class="stats sortable" id="grounding-labels"><thead><tr>{lhead}'
                   f"</tr></thead><tbody>{lbody}</tbody></table>")
    if sets:
        shead = "".join(f'<th scope="col">{c}</th>' for c in ("Label", "Correct", "Key", "Response", "P", "R", "F"))

        def srow(name: str, r: Mapping[str, Any], cls: str = "") -> str:
            attr = f' class="{cls}"' if cls else ""
            return (f'<tr{attr}><th scope="row">{esc(name)}</th>'
                    + "".join(f'<td class="num">{esc(r[k])}</td>' for k in ("correct", "key", "response"))
                    + "".join(f'<td class="num">{pct(r[k])}</td>' for k in "prf") + "</tr>")

        sbody = "".join(srow(label, r) for label, r in sets.get("labels", {}).items())
        out.append(f"<h3>Set mode ({esc(sets['normalize'])} normalisation, no grounding)</h3>"
                   f'<table class="stats sortable" id="grounding-sets"><thead><tr>{shead}</tr></thead>'
                   f'<tbody>{sbody}</tbody><tfoot>{srow("micro", sets["micro"], "summary micro")}</tfoot></table>')
    if hallucinations:
        hhead = "".join(f'<th scope="col">{c}</th>' for c in ("Document", "Label", "String", "Reason"))
        hbody = "".join(f'<tr class="hallucination"><td>{esc(h["doc"])}</td><td>{esc(h["label"])}</td>'
                        f'<td class="txt">{esc(h["text"])}</td><td>{esc(h.get("reason") or "")}</td></tr>'
                        for h in hallucinations[:MAX_HALLUCINATION_ROWS])
        more = (f'<p class="note">Showing {MAX_HALLUCINATION_ROWS} of {len(hallucinations)}; the JSON report and '
                f"--grounding hold all of them.</p>" if len(hallucinations) > MAX_HALLUCINATION_ROWS else "")
        out.append(f'<h3>Not in the text</h3><table class="stats sortable" id="hallucinations"><thead><tr>{hhead}'
                   f"</tr></thead><tbody>{hbody}</tbody></table>{more}")
    return "".join(out)


__all__ = ["MAX_HALLUCINATION_ROWS", "STEP_NAMES", "grounding_lines", "grounding_panel", "grounding_table",
           "print_grounding", "ungrounded_line"]
