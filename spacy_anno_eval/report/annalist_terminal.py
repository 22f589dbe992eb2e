"""``anno-eval align`` and ``anno-eval relations`` on the terminal, and the rows of their alignment report.

ANNALIST (Demetriou et al. 2008) reports MUC counts and recall, precision and F (Chinchor 1992). Each
``*_lines`` function returns the lines (no newline) a command prints, one ``typer.echo`` each; the figures are
read from the results, never computed here:

- :func:`muc_lines`: the table both commands print, a line per (name, counts, recall, precision, F), the
  counts :data:`COUNTS` as integers and the ratios as percentages with two decimals;
- :func:`alignment_lines`: ``align``'s table, from :func:`~spacy_anno_eval.annalist.align.scores` (figures
  ``REC``, ``PRE``, ``F`` per name, ``all`` among them);
- :func:`relation_lines`: ``relations``' table, from
  :meth:`~spacy_anno_eval.annalist.relations.RelationScores.to_dict` (figures ``r``, ``p``, ``f`` per relation
  name, then ``all``);
- :func:`unscored_line`: how many relations were left out of scoring
  (:attr:`~spacy_anno_eval.annalist.relations.RelationScores.n_unscored`), for stderr.

:func:`entity_row` and :func:`relations_report_rows` build the rows of ``relations``' alignment report
(``alignment.tsv`` and ``alignment.jsonl``): the entity alignment's Annotation Diff rows, flattened, then the
relation decisions.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

#: the MUC counts of a table, in the order printed
COUNTS = ("POS", "ACT", "COR", "PAR", "INC", "MIS", "SPU")


def muc_lines(title: str, rows: Iterable[tuple[str, Mapping[str, Any], float, float, float]]) -> list[str]:
    """MUC counts and recall / precision / F as percentages, one line per (name, counts, r, p, f) after a head
    whose first column is ``title``; names are never cut (a long one widens the first column)."""
    from .rows import pct

    rows = list(rows)
    width = max(16, len(title) + 2, *(len(str(name)) + 2 for name, *_ in rows))
    lines = [f"{title:<{width}}" + "".join(f"{c:>5}" for c in COUNTS) + f"{'REC %':>8}{'PRE %':>8}{'F %':>8}"]
    for name, f, r, p, fscore in rows:
        lines.append(f"{name:<{width}}" + "".join(f"{f[c]:>5}" for c in COUNTS)
                     + f"{pct(r):>8}{pct(p):>8}{pct(fscore):>8}")
    return lines


def alignment_lines(entities: Mapping[str, Any]) -> list[str]:
    """``align``'s table: a line per name of ``entities["collection"]`` (the dict of
    :func:`~spacy_anno_eval.annalist.align.scores`; ``all`` is one of its names), with its REC, PRE and F."""
    return muc_lines("name", [(name, f, f["REC"], f["PRE"], f["F"]) for name, f in entities["collection"].items()])


def relation_lines(relations: Mapping[str, Any]) -> list[str]:
    """``relations``' table: a line per relation name of ``relations["per_name"]``, then ``all``
    (``relations["all"]``), from :meth:`~spacy_anno_eval.annalist.relations.RelationScores.to_dict`."""
    return muc_lines("relation", [(name, f, f["r"], f["p"], f["f"])
                                  for name, f in [*relations["per_name"].items(), ("all", relations["all"])]])


def unscored_line(result: Any) -> str | None:
    """``N relations unscored (see unscored_by_reason)`` for a
    :class:`~spacy_anno_eval.annalist.relations.RelationScores` that left ``N > 0`` relations out of scoring
    (its ``n_unscored``); ``None`` when every relation was scored."""
    n = result.n_unscored
    return f"{n} relations unscored (see unscored_by_reason)" if n else None


def entity_row(row: Mapping[str, Any]) -> dict[str, Any]:
    """An Annotation Diff row (:meth:`Evaluation.diff_rows`) as a flat alignment-report row."""
    k, r = row["key"] or {}, row["response"] or {}
    return {"kind": "entity", "doc": row["doc_id"], "status": row["status"], "name": k.get("label", r.get("label")),
            "key_id": f"{k['start']}-{k['end']}" if k else None,
            "response_id": f"{r['start']}-{r['end']}" if r else None,
            "key_value": k.get("text"), "response_value": r.get("text"), "key_start": k.get("start"),
            "key_end": k.get("end"), "response_start": r.get("start"), "response_end": r.get("end")}


def relations_report_rows(diff_rows: Iterable[Mapping[str, Any]],
                          decision_rows: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """``relations``' alignment report: a row per entity (:func:`entity_row` of each Annotation Diff row, kind
    ``entity``), then a row per relation decision
    (:meth:`~spacy_anno_eval.annalist.relations.RelationScores.decision_rows`, kind ``relation``)."""
    return [*(entity_row(r) for r in diff_rows), *({"kind": "relation", **r} for r in decision_rows)]


__all__ = ["COUNTS", "alignment_lines", "entity_row", "muc_lines", "relation_lines", "relations_report_rows",
           "unscored_line"]
