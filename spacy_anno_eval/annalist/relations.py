"""Relation scoring over an entity alignment, after ANNALIST.

Source: Demetriou, Gaizauskas, Sun & Roberts (2008), "ANNALIST: ANNotation
ALIgnment and Scoring Tool", LREC 2008, sections 3, 4 and 6 and Fig. 3.

**Data.** A :class:`Relation` has a document, an id unique in its document
and on its side, a name (``authorOf``, ``lastname_of``) and attributes
(``args``) naming entities of the same document (``{"arg1": "27", "arg2":
"35"}``; ``None`` for an absent attribute). Relations are scored given an
:class:`EntityAlignment`: per document, which key entity is aligned to which
response entity (correct or partial), which pairs were aligned as incorrect,
and which key entities are missing and which response entities spurious.

**Unscored relations** (section 4). Relation scoring is kept apart from
entity recognition: a relation that points at an entity the entity alignment
already penalised does not take part in relation scoring at all. It is not
missing and not spurious; it is recorded in ``unscored`` with the reason.

- A key relation is unscored when an attribute's entity is missing from the
  response (``"missing arg2"``) or was aligned as incorrect
  (``"incorrect arg2"``).
- A response relation is unscored when an attribute's entity is spurious
  (``"spurious arg1"``) or was aligned as incorrect (``"incorrect arg1"``).
- An entity id the alignment does not know at all (neither aligned nor
  missing nor spurious) gives ``"unaligned arg1"``: usually the relations and
  the entities were read with different ids, or the entity alignment was
  restricted to some types.

ANNALIST's example: the key has entities 27 (author) and 35 (document) and
the relation authorOf(Arg1=27, Arg2=35); the response found 27 only, so it
could not produce the relation. The key relation is unscored with the reason
``missing arg2`` and the relation figures stay at POS 0; MUC would count the
relation missing (under-generation charged twice, once to entities and once
to relations). Likewise when an attribute's entity was aligned as incorrect
both the key and the response relation are unscored, where MUC would score
the response relation and its attribute as incorrect.

**Alignment** (section 4). Only relations of the same document and the same
name are compared. Attribute ``a`` of key relation ``k`` and response
relation ``r`` *matches* when ``k``'s entity maps to ``r``'s entity through
the entity alignment (correct or partial). With ``alignment="strict"``
(ANNALIST's strict criterion) ``k`` and ``r`` are candidates when every
attribute of either matches (an attribute absent on both sides is ignored);
with ``"lenient"`` (MUC's criterion) when at least one attribute matches.
Candidates are paired one to one, greedily: most matching attributes first,
then most attributes whose entity is aligned as correct (not partial), then
key order, then response order (the order of the input lists), so the result
is deterministic. Unpaired key relations are missing, unpaired response
relations spurious.

**Attribute statuses.** In a pair, an attribute is

- correct: its entities are aligned as correct;
- partial: its entities are aligned as partial (with
  ``partial_entities="partial"``, the default; ``"correct"`` counts them as
  correct);
- incorrect: both sides name an entity but they are not aligned with each
  other (only under lenient alignment);
- missing / spurious: only the key / only the response names an entity;
- not counted: absent on both sides.

Attributes of missing relations are missing and of spurious relations
spurious (absent attributes are not counted).

**Relation statuses.** A pair is correct when all its attributes are correct
and partial otherwise (a partially aligned entity, or a lenient pair with an
attribute that does not match). Relation INC stays 0: a pair whose
attributes do not all match is ANNALIST's partial under lenient alignment and
is not a pair at all under strict alignment; an attribute-level mismatch is
reported as attribute INC. Partial attributes follow Fig. 3 of the paper:
there, lastname_of has relation COR 28 PAR 1 and attributes subject COR 29
PAR 0, object COR 28 PAR 1, and the whole table attribute COR 301 PAR 9 with
relation COR 147 PAR 8 (seven partial relations with one partial attribute,
one with two), which only a partial *entity* under a strict pair produces;
a mismatching attribute counted INC (or PAR) cannot give these sums.

**Figures** (MUC, Chinchor 1992; ANNALIST's scores report), for relations per
name and over all names, for attributes per name and attribute and over all
attributes, and for relations per document::

    POS = COR + PAR + INC + MIS         ACT = COR + PAR + INC + SPU
    REC = (COR + PAR/2) / POS           PRE = (COR + PAR/2) / ACT
    F   = (1 + b^2) PRE REC / (b^2 PRE + REC)

under the keys ``COR PAR INC MIS SPU POS ACT p r f``, as
:func:`spacy_anno_eval.spans.measures.muc_prf`. A ratio with a zero
denominator is ``zero_division`` (default 0.0), F is 0 when P + R = 0, and F
is ``zero_division`` when both POS and ACT are 0. Fig. 3, lastname_of: POS 35,
ACT 87, COR 28, PAR 1, SPU 58, MIS 6 give REC 0.8143 and PRE 0.3276.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import ConfigError, InputError
from ..figures import check_beta, check_zero_division, fbeta, ratio

ALIGNMENTS = ("strict", "lenient")
PARTIAL_ENTITIES = ("partial", "correct")
ENTITY_STATUSES = ("correct", "partial", "incorrect", "overlap", "missing", "spurious")
STATUSES = ("correct", "partial", "incorrect", "missing", "spurious")
COUNTS = ("COR", "PAR", "INC", "MIS", "SPU")
_COUNT_OF = dict(zip(STATUSES, COUNTS, strict=True))
DECISION_COLUMNS = ("doc", "status", "name", "key_id", "response_id", "attributes", "reason")


@dataclass
class Relation:
    """A relation annotation: ``name`` over the entities ``args`` (attribute -> entity id) of ``doc``.

    ``doc`` and ``id`` are made strings, as are the entity ids (``None`` stays:
    an absent attribute).
    """

    doc: str
    id: str
    name: str
    args: dict[str, str | None]

    def __post_init__(self) -> None:
        if not isinstance(self.args, Mapping):
            raise InputError(f"relation {self.id!r} of document {self.doc!r}: args must map attribute "
                                     f"names to entity ids, got {type(self.args).__name__}")
        if not isinstance(self.name, str) or not self.name:
            raise InputError(f"relation {self.id!r} of document {self.doc!r}: the name must be a "
                                     f"non-empty string, got {self.name!r}")
        self.doc = str(self.doc)
        self.id = str(self.id)
        self.args = {str(a): None if e is None else str(e) for a, e in self.args.items()}


def _by_doc(data: Mapping[Any, Any] | None, kind: type) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for doc, items in (data or {}).items():
        if kind is dict:
            out[str(doc)] = {str(k): str(v) for k, v in items.items()}
        else:
            out[str(doc)] = {str(x) for x in items}
    return out


@dataclass
class EntityAlignment:
    """The entity alignment that relation scoring builds on; every field is keyed by document id.

    - ``key_to_response``: key entity id -> response entity id, for pairs
      aligned as correct or partial;
    - ``partial``: the key entity ids of ``key_to_response`` aligned as partial;
    - ``incorrect``: key entity id -> response entity id, for pairs aligned as incorrect;
    - ``missing``: key entity ids with no response entity;
    - ``spurious``: response entity ids with no key entity.

    Ids are made strings. An entity may appear once per side and document;
    :class:`InputError` otherwise.
    """

    key_to_response: dict[str, dict[str, str]] = field(default_factory=dict)
    partial: dict[str, set[str]] = field(default_factory=dict)
    incorrect: dict[str, dict[str, str]] = field(default_factory=dict)
    missing: dict[str, set[str]] = field(default_factory=dict)
    spurious: dict[str, set[str]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.key_to_response = _by_doc(self.key_to_response, dict)
        self.partial = _by_doc(self.partial, set)
        self.incorrect = _by_doc(self.incorrect, dict)
        self.missing = _by_doc(self.missing, set)
        self.spurious = _by_doc(self.spurious, set)
        self._key: dict[str, dict[str, str]] = {}  # doc -> key id -> status
        self._response: dict[str, dict[str, str]] = {}  # doc -> response id -> status
        for doc, pairs in self.key_to_response.items():
            for k, r in pairs.items():
                self._note(doc, k, r, "aligned")
        for doc, ids in self.partial.items():
            stray = sorted(ids - set(self.key_to_response.get(doc, {})))
            if stray:
                raise InputError(f"entity alignment, document {doc!r}: partial key entity {stray[0]!r} "
                                         f"is not in key_to_response")
        for doc, pairs in self.incorrect.items():
            for k, r in pairs.items():
                self._note(doc, k, r, "incorrect")
        for doc, ids in self.missing.items():
            for k in sorted(ids):
                self._note(doc, k, None, "missing")
        for doc, ids in self.spurious.items():
            for r in sorted(ids):
                self._note(doc, None, r, "spurious")

    def _note(self, doc: str, key_id: str | None, response_id: str | None, status: str) -> None:
        for side, table, ident in (("key", self._key, key_id), ("response", self._response, response_id)):
            if ident is None:
                continue
            seen = table.setdefault(doc, {})
            if ident in seen:
                raise InputError(f"entity alignment, document {doc!r}: {side} entity {ident!r} is both "
                                         f"{seen[ident]} and {status}; each entity is aligned once")
            seen[ident] = status

    @classmethod
    def from_rows(cls, rows: Iterable[Mapping[str, Any]]) -> EntityAlignment:
        """Build from decision rows ``{"doc", "status", "key_id", "response_id"}``.

        ``status`` is correct, partial, incorrect, missing or spurious;
        ``overlap`` (this toolkit's overlapping pair with another label) counts
        as incorrect. Rows of :meth:`Evaluation.diff_rows
        <spacy_anno_eval.spans.counts.Evaluation.diff_rows>` are read too: their
        ``doc_id`` is the document and the ids of their ``key`` / ``response``
        spans are ``"start-end"`` (:func:`entity_id`), as the relation readers
        of :mod:`spacy_anno_eval.annalist.relations_reader` make them. A ``doc_id`` wins over
        ``doc``.
        """
        data: dict[str, dict[str, Any]] = {name: {} for name in ("key_to_response", "partial", "incorrect",
                                                                 "missing", "spurious")}
        for i, row in enumerate(rows):
            if not isinstance(row, Mapping):
                raise InputError(f"entity alignment row {i}: expected a mapping with doc, status, key_id "
                                         f"and response_id, got {type(row).__name__}")
            status = row.get("status")
            if status not in ENTITY_STATUSES:
                raise InputError(f"entity alignment row {i}: unknown status {status!r}; use one of "
                                         f"{', '.join(ENTITY_STATUSES)}")
            doc = row.get("doc_id", row.get("doc"))
            if doc is None:
                raise InputError(f"entity alignment row {i}: no document (\"doc\")")
            doc = str(doc)
            key_id, response_id = _row_id(row, "key"), _row_id(row, "response")
            need_key = status != "spurious"
            need_response = status != "missing"
            if (key_id is None) == need_key or (response_id is None) == need_response:
                raise InputError(
                    f"entity alignment row {i}, document {doc!r}: a {status} row needs "
                    f"{'a key_id' if need_key else 'no key_id'} and "
                    f"{'a response_id' if need_response else 'no response_id'}, got key_id={key_id!r}, "
                    f"response_id={response_id!r}")
            if status in ("correct", "partial", "incorrect", "overlap"):
                table = "key_to_response" if status in ("correct", "partial") else "incorrect"
                pairs = data[table].setdefault(doc, {})
                if key_id in pairs:
                    raise InputError(f"entity alignment row {i}, document {doc!r}: key entity {key_id!r} "
                                             f"is aligned twice")
                pairs[key_id] = response_id
                if status == "partial":
                    data["partial"].setdefault(doc, set()).add(key_id)
            elif status == "missing":
                data["missing"].setdefault(doc, set()).add(key_id)
            else:
                data["spurious"].setdefault(doc, set()).add(response_id)
        return cls(**data)

    def key_status(self, doc: str, key_id: str) -> str | None:
        """``aligned`` (correct or partial), ``incorrect``, ``missing``, or None for an unknown key entity."""
        return self._key.get(doc, {}).get(key_id)

    def response_status(self, doc: str, response_id: str) -> str | None:
        """``aligned`` (correct or partial), ``incorrect``, ``spurious``, or None for an unknown response entity."""
        return self._response.get(doc, {}).get(response_id)


def entity_id(start: int, end: int) -> str:
    """The id of the entity at characters ``[start, end)``: ``"start-end"``."""
    return f"{start}-{end}"


def _row_id(row: Mapping[str, Any], side: str) -> str | None:
    value = row.get(f"{side}_id")
    if value is None and isinstance(row.get(side), Mapping):
        span = row[side]
        if "start" in span and "end" in span:
            return entity_id(span["start"], span["end"])
    return None if value is None else str(value)


def relation_figures(counts: Mapping[str, int], beta: float = 1.0, zero_division: float = 0.0) -> dict[str, Any]:
    """COR, PAR, INC, MIS, SPU, POS, ACT and p (PRE), r (REC), f from counts (see the module docstring).

    ``p = (COR + PAR / 2) / ACT``, ``r = (COR + PAR / 2) / POS``. Demetriou et
    al. (2008), ANNALIST, fig. 3, row ``title_of``
    (``tests/reference/test_annalist_2008.py``): REC 0.9239, PRE 0.9884, F 0.9551.

    >>> out = relation_figures({"COR": 42, "PAR": 1, "INC": 0, "MIS": 3, "SPU": 0})
    >>> out["POS"], out["ACT"], round(out["r"], 4), round(out["p"], 4), round(out["f"], 4)
    (46, 43, 0.9239, 0.9884, 0.9551)
    """
    cor, par, inc, mis, spu = (int(counts.get(c, 0)) for c in COUNTS)
    pos = cor + par + inc + mis
    act = cor + par + inc + spu
    hits = cor + 0.5 * par
    p = float(ratio(hits, act, zero_division))
    r = float(ratio(hits, pos, zero_division))
    f = float(fbeta(p, r, beta, undefined=pos == 0 and act == 0, zero_division=zero_division))
    return {"COR": cor, "PAR": par, "INC": inc, "MIS": mis, "SPU": spu, "POS": pos, "ACT": act,
            "p": p, "r": r, "f": f}


@dataclass
class RelationScores:
    """Counts and decisions of :func:`score_relations`; :meth:`to_dict` adds the figures.

    ``by_name`` / ``by_doc``: relation counts (``COR`` ... ``SPU``) per
    relation name / document; ``by_attribute``: attribute counts per name and
    attribute; ``decisions``: one dict per scored key or response relation;
    ``unscored``: one dict per relation left out, with the reasons.
    """

    by_name: dict[str, Counter]
    by_attribute: dict[str, dict[str, Counter]]
    by_doc: dict[str, Counter]
    decisions: list[dict[str, Any]]
    unscored: list[dict[str, Any]]
    settings: dict[str, Any]

    def _figures(self, counts: Mapping[str, int]) -> dict[str, Any]:
        return relation_figures(counts, self.settings["beta"], self.settings["zero_division"])

    @property
    def total(self) -> dict[str, int]:
        """Relation counts over all names."""
        return {c: sum(counts[c] for counts in self.by_name.values()) for c in COUNTS}

    @property
    def attribute_total(self) -> dict[str, int]:
        """Attribute counts over all names and attributes."""
        return {c: sum(counts[c] for attrs in self.by_attribute.values() for counts in attrs.values())
                for c in COUNTS}

    @property
    def n_unscored(self) -> int:
        """Relations left out of scoring (section 4: an attribute's entity missing, spurious, incorrect or
        unaligned), key and response sides together: one per row of ``unscored``, however many reasons it has
        (:meth:`unscored_by_reason` counts the reasons)."""
        return len(self.unscored)

    def unscored_by_reason(self) -> dict[str, dict[str, int]]:
        """``{"key": {reason: n}, "response": {reason: n}}``, counting every reason of every unscored relation."""
        out: dict[str, Counter] = {"key": Counter(), "response": Counter()}
        for row in self.unscored:
            for problem in row["reasons"]:
                out[row["side"]][problem["reason"]] += 1
        return {side: dict(sorted(c.items())) for side, c in out.items()}

    def to_dict(self) -> dict[str, Any]:
        """Every figure, JSON-ready: ``settings``, ``per_name``, ``all``, ``per_attribute``,
        ``all_attributes``, ``per_doc``, ``unscored``, ``unscored_by_reason`` and ``decisions``."""
        return {
            "settings": dict(self.settings),
            "per_name": {name: self._figures(c) for name, c in self.by_name.items()},
            "all": self._figures(self.total),
            "per_attribute": {name: {a: self._figures(c) for a, c in attrs.items()}
                              for name, attrs in self.by_attribute.items()},
            "all_attributes": self._figures(self.attribute_total),
            "per_doc": {doc: self._figures(c) for doc, c in self.by_doc.items()},
            "unscored": [dict(row, reasons=[dict(p) for p in row["reasons"]]) for row in self.unscored],
            "unscored_by_reason": self.unscored_by_reason(),
            "decisions": [dict(row, attributes=[dict(a) for a in row["attributes"]]) for row in self.decisions],
        }

    def decision_rows(self, include_unscored: bool = True) -> list[dict[str, Any]]:
        """The alignment report as flat rows (columns :data:`DECISION_COLUMNS`), for TSV or JSONL.

        One row per decision (in document order: key relations, then spurious
        responses), then, with ``include_unscored``, one row per unscored
        relation with status ``unscored``. ``attributes`` reads
        ``"arg1=correct arg2=partial"``; ``reason`` is the unscored reasons
        joined by ``"; "`` (empty for scored relations).
        """
        rows = []
        for d in self.decisions:
            rows.append({"doc": d["doc"], "status": d["status"], "name": d["name"], "key_id": d["key_id"],
                         "response_id": d["response_id"],
                         "attributes": " ".join(f"{a['attribute']}={a['status']}" for a in d["attributes"]),
                         "reason": ""})
        if include_unscored:
            for u in self.unscored:
                rows.append({"doc": u["doc"], "status": "unscored", "name": u["name"],
                             "key_id": u["relation"] if u["side"] == "key" else None,
                             "response_id": u["relation"] if u["side"] == "response" else None,
                             "attributes": " ".join(f"{p['attribute']}={p['reason'].split()[0]}"
                                                    for p in u["reasons"]),
                             "reason": "; ".join(p["reason"] for p in u["reasons"])})
        return rows

    def write_decisions(self, path: str | os.PathLike, include_unscored: bool = True) -> Path:
        """Write :meth:`decision_rows` atomically: JSON lines for ``.jsonl``, else TSV with a header.

        In TSV, ``None`` is an empty cell and tabs or line breaks inside
        values become spaces.
        """
        from ..files import write_rows

        return write_rows(path, self.decision_rows(include_unscored), DECISION_COLUMNS)


def _check_relations(relations: Iterable[Relation], side: str) -> list[Relation]:
    out = list(relations)
    seen: set[tuple[str, str]] = set()
    for i, rel in enumerate(out):
        if not isinstance(rel, Relation):
            raise InputError(f"{side} relation {i}: expected a Relation, got {type(rel).__name__}")
        if (rel.doc, rel.id) in seen:
            raise InputError(f"{side} relations, document {rel.doc!r}: the id {rel.id!r} is used twice")
        seen.add((rel.doc, rel.id))
    return out


def _problems(rel: Relation, side: str, entities: EntityAlignment) -> list[dict[str, str]]:
    """Why ``rel`` cannot be scored: one entry per attribute pointing at a penalised or unknown entity."""
    problems = []
    for attr, ent in rel.args.items():
        if ent is None:
            continue
        status = (entities.key_status if side == "key" else entities.response_status)(rel.doc, ent)
        if status == "aligned":
            continue
        kind = "unaligned" if status is None else status
        problems.append({"reason": f"{kind} {attr}", "attribute": attr, "entity": ent})
    return problems


def _compare(k: Relation, r: Relation, entities: EntityAlignment, partial_ok: bool) -> list[dict[str, Any]]:
    """Attribute statuses of a key/response pair (attributes absent on both sides are left out)."""
    to_response = entities.key_to_response.get(k.doc, {})
    partial = entities.partial.get(k.doc, set())
    out = []
    for attr in dict.fromkeys([*k.args, *r.args]):
        ke, re_ = k.args.get(attr), r.args.get(attr)
        if ke is None and re_ is None:
            continue
        if ke is None:
            status = "spurious"
        elif re_ is None:
            status = "missing"
        elif to_response.get(ke) == re_:
            status = "partial" if ke in partial and not partial_ok else "correct"
        else:
            status = "incorrect"
        out.append({"attribute": attr, "status": status, "key": ke, "response": re_})
    return out


def _one_side(rel: Relation, status: str, side: str) -> dict[str, Any]:
    attrs = [{"attribute": a, "status": status, "key": e if side == "key" else None,
              "response": e if side == "response" else None} for a, e in rel.args.items() if e is not None]
    return {"doc": rel.doc, "status": status, "name": rel.name, "key_id": rel.id if side == "key" else None,
            "response_id": rel.id if side == "response" else None, "attributes": attrs}


def score_relations(key: Iterable[Relation], response: Iterable[Relation], entities: EntityAlignment, *,
                    alignment: str = "strict", partial_entities: str = "partial", beta: float = 1.0,
                    zero_division: float = 0.0) -> RelationScores:
    """Score ``response`` relations against ``key`` relations given the entity alignment ``entities``.

    ``alignment``: ``"strict"`` (every attribute must match for two relations
    to be candidates) or ``"lenient"`` (one attribute suffices);
    ``partial_entities``: ``"partial"`` (an attribute whose entities are
    aligned as partial is PAR, as in ANNALIST's Fig. 3) or ``"correct"``
    (COR). See the module docstring for the rules.
    """
    if alignment not in ALIGNMENTS:
        raise ConfigError(f"alignment must be one of {', '.join(ALIGNMENTS)}, got {alignment!r}")
    if partial_entities not in PARTIAL_ENTITIES:
        raise ConfigError(f"partial_entities must be one of {', '.join(PARTIAL_ENTITIES)}, got {partial_entities!r}")
    zero_division = check_zero_division(zero_division)
    beta = check_beta(beta)
    if not isinstance(entities, EntityAlignment):
        raise ConfigError(f"entities must be an EntityAlignment (EntityAlignment.from_rows(evaluation.diff_rows()) "
                          f"builds one), got {type(entities).__name__}")
    keys = _check_relations(key, "key")
    responses = _check_relations(response, "response")
    partial_ok = partial_entities == "correct"

    docs: dict[str, None] = {}
    names: set[str] = set()
    attributes: dict[str, dict[str, None]] = {}
    for rel in (*keys, *responses):
        docs.setdefault(rel.doc)
        names.add(rel.name)
        attrs = attributes.setdefault(rel.name, {})
        for a in rel.args:
            attrs.setdefault(a)

    unscored: list[dict[str, Any]] = []
    scored: dict[tuple[str, str], tuple[list[int], list[int]]] = {}
    for side, rels in (("key", keys), ("response", responses)):
        for i, rel in enumerate(rels):
            problems = _problems(rel, side, entities)
            if problems:
                unscored.append({"side": side, "doc": rel.doc, "relation": rel.id, "name": rel.name,
                                 **problems[0], "reasons": problems})
            else:
                scored.setdefault((rel.doc, rel.name), ([], []))[0 if side == "key" else 1].append(i)

    pair_of_key: dict[int, tuple[int, list[dict[str, Any]]]] = {}
    paired_responses: set[int] = set()
    for ks, rs in scored.values():
        candidates = []
        for ki in ks:
            for ri in rs:
                attrs = _compare(keys[ki], responses[ri], entities, partial_ok)
                n_match = sum(a["status"] in ("correct", "partial") for a in attrs)
                if (n_match == len(attrs)) if alignment == "strict" else n_match > 0:
                    n_correct = sum(a["status"] == "correct" for a in attrs)
                    candidates.append((-n_match, -n_correct, ki, ri, attrs))
        candidates.sort(key=lambda c: c[:4])
        for _, _, ki, ri, attrs in candidates:
            if ki not in pair_of_key and ri not in paired_responses:
                pair_of_key[ki] = (ri, attrs)
                paired_responses.add(ri)

    decisions: list[dict[str, Any]] = []
    by_doc_rows: dict[str, list[dict[str, Any]]] = {doc: [] for doc in docs}
    for ks, _ in scored.values():
        for ki in ks:
            k = keys[ki]
            if ki in pair_of_key:
                ri, attrs = pair_of_key[ki]
                status = "correct" if all(a["status"] == "correct" for a in attrs) else "partial"
                row = {"doc": k.doc, "status": status, "name": k.name, "key_id": k.id,
                       "response_id": responses[ri].id, "attributes": attrs, "_order": (0, ki)}
            else:
                row = {**_one_side(k, "missing", "key"), "_order": (0, ki)}
            by_doc_rows[k.doc].append(row)
    for _, rs in scored.values():
        for ri in rs:
            if ri not in paired_responses:
                by_doc_rows[responses[ri].doc].append({**_one_side(responses[ri], "spurious", "response"),
                                                       "_order": (1, ri)})
    for rows in by_doc_rows.values():
        rows.sort(key=lambda row: row["_order"])
        for row in rows:
            del row["_order"]
            decisions.append(row)

    by_name = {name: Counter(dict.fromkeys(COUNTS, 0)) for name in sorted(names)}
    by_attribute = {name: {a: Counter(dict.fromkeys(COUNTS, 0)) for a in attributes[name]} for name in by_name}
    by_doc = {doc: Counter(dict.fromkeys(COUNTS, 0)) for doc in docs}
    for row in decisions:
        count = _COUNT_OF[row["status"]]
        by_name[row["name"]][count] += 1
        by_doc[row["doc"]][count] += 1
        for a in row["attributes"]:
            by_attribute[row["name"]][a["attribute"]][_COUNT_OF[a["status"]]] += 1
    settings = {"alignment": alignment, "partial_entities": partial_entities, "beta": beta,
                "zero_division": zero_division}
    return RelationScores(by_name, by_attribute, by_doc, decisions, unscored, settings)


__all__ = ["ALIGNMENTS", "DECISION_COLUMNS", "EntityAlignment", "Relation", "RelationScores", "entity_id",
           "relation_figures", "score_relations"]
