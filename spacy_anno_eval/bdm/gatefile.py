"""GATE's BDM file: read and write the BDM of pairs of concepts as GATE's BDM plugin does.

Source: GATE user guide section 10.6 (the BDM computation plugin,
``gate.bdmComp.BDMTool``). The file is a ``##`` header naming the ontology,
then one line per pair such as (one line in the file)::

    key=Service, response=Object, bdm=0.6617647, msca=Object, cp=1, dpk=1, dpr=0,
    n0=2.0, n1=2.0, n2=2.8333333, bran=1.9565217

with floats printed as Java's ``Float.toString`` does (the shortest decimal
of the float32 value) and ``msca=null`` for disconnected pairs. The fields are
those of :class:`~spacy_anno_eval.bdm.distance.BDMPair`.
"""

from __future__ import annotations

import functools
import math
import os
import re
from pathlib import Path
from typing import Any

import numpy as np

from .. import files
from ..errors import InputError
from ..io.parse import read_text
from .distance import FIELDS, BDMPair, BDMScores

HEADER = "##The following are the BDM scores for each pair of concepts in the ontology named {name}."
_FLOAT_FIELDS = ("bdm", "n0", "n1", "n2", "bran")
_INT_FIELDS = ("cp", "dpk", "dpr")


def java_float(x: float) -> str:
    """``x`` as Java's ``Float.toString`` prints it: the shortest decimal of its float32 value (``2.0``, ``1.0E-4``)."""
    return _java_float(float(x))


@functools.lru_cache(maxsize=1 << 16)
def _java_float(x: float) -> str:
    f = np.float32(x)
    v = float(f)
    if v != v:
        return "NaN"
    if math.isinf(v):
        return "Infinity" if v > 0 else "-Infinity"
    if v == 0 or 1e-3 <= abs(v) < 1e7:
        text = np.format_float_positional(f, unique=True, trim="0")
        return "-0.0" if text == "0.0" and math.copysign(1.0, v) < 0 else text
    return np.format_float_scientific(f, unique=True, trim="0", exp_digits=1).replace("e+", "E").replace("e", "E")


def format_bdm_line(rec: BDMPair) -> str:
    """One line of GATE's BDM file (no line end)."""
    for concept in (rec.key, rec.response, rec.msca):
        if concept is not None and ("\n" in concept or "\r" in concept):
            raise InputError(f"concept {concept!r}: a name with a line break cannot be written to a BDM file")
    return (f"key={rec.key}, response={rec.response}, bdm={java_float(rec.bdm)}, "
            f"msca={'null' if rec.msca is None else rec.msca}, cp={rec.cp}, dpk={rec.dpk}, dpr={rec.dpr}, "
            f"n0={java_float(rec.n0)}, n1={java_float(rec.n1)}, n2={java_float(rec.n2)}, bran={java_float(rec.bran)}")


def write_bdm_file(scores: BDMScores, path: str | os.PathLike) -> Path:
    """Write ``scores`` in GATE's BDM file format, atomically; return the path."""
    lines = [HEADER.format(name=scores.name)] + [format_bdm_line(rec) for rec in scores.pairs]
    return files.write_text(path, "\n".join(lines) + "\n")


_FIELD_START = re.compile(r"(" + "|".join(FIELDS) + r")=")
_NAME = r"((?:[^,]|,(?! ))*)"  # a concept name without ", " (other names take the slow path)
_CANONICAL_LINE = re.compile(rf"key={_NAME}, response={_NAME}, bdm=([^,\s]+), msca={_NAME}, cp=(-?\d+), "
                             r"dpk=(-?\d+), dpr=(-?\d+), n0=([^,\s]+), n1=([^,\s]+), n2=([^,\s]+), bran=([^,\s]+)")
_HEADER_NAME = re.compile(r"ontology named (.*?)\.?\s*$")


def parse_bdm_line(line: str, where: str = "BDM line") -> BDMPair:
    """A :class:`BDMPair` from one line of a BDM file; ``where`` prefixes error messages (e.g. ``path:line``).

    The line is split on ``", "`` into ``field=value`` parts; a part that does
    not start with a known field name continues the previous value (a concept
    name with ``", "`` in it).
    """
    line = line.strip()
    m = _CANONICAL_LINE.fullmatch(line)
    if m:  # fast path: the fields in GATE's order
        key, response, value, msca, cp, dpk, dpr, n0, n1, n2, bran = m.groups()
        try:
            return BDMPair(key, response, float(value), None if msca == "null" else msca, int(cp), int(dpk),
                           int(dpr), float(n0), float(n1), float(n2), float(bran))
        except ValueError:
            pass  # the slow path below says which field is wrong
    values: dict[str, str] = {}
    last: str | None = None
    for part in line.split(", "):
        m = _FIELD_START.match(part)
        if m and m.group(1) not in values:
            last = m.group(1)
            values[last] = part[m.end():]
        elif m:
            raise InputError(f"{where}: field {m.group(1)!r} appears twice; a BDM line has the fields "
                                     f"{', '.join(FIELDS)} once each")
        elif last is None:
            raise InputError(f"{where}: does not start with 'key='; expected a line like 'key=A, "
                                     "response=B, bdm=0.5, msca=C, cp=1, dpk=1, dpr=1, n0=2.0, n1=2.0, n2=2.0, "
                                     "bran=1.0'")
        else:
            values[last] += ", " + part
    missing = [f for f in FIELDS if f not in values]
    if missing:
        raise InputError(f"{where}: missing field(s) {', '.join(missing)}; a BDM line has the fields "
                                 f"{', '.join(FIELDS)}")
    out: dict[str, Any] = {"key": values["key"], "response": values["response"],
                           "msca": None if values["msca"] == "null" else values["msca"]}
    for f in _FLOAT_FIELDS:
        try:
            out[f] = float(values[f])
        except ValueError:
            raise InputError(f"{where}: {f}={values[f]!r} is not a number") from None
    for f in _INT_FIELDS:
        try:
            out[f] = int(values[f])
        except ValueError:
            raise InputError(f"{where}: {f}={values[f]!r} is not an integer") from None
    return BDMPair(**out)


def read_bdm_file(path: str | os.PathLike) -> BDMScores:
    """Read a BDM file (as :func:`write_bdm_file` or GATE's BDM plugin writes it).

    A first line starting with ``##`` is the header (it gives the ontology
    name; otherwise the file's stem is used); blank lines are skipped. A pair
    listed twice (in either order) must have the same BDM.
    """
    p = Path(path)
    text = read_text(p, fix="save the BDM file as UTF-8")  # a byte-order mark dropped
    name = p.stem
    pairs: list[BDMPair] = []
    seen: dict[tuple[str, str], tuple[int, float]] = {}
    for lineno, line in enumerate(text.splitlines(), 1):
        if lineno == 1 and line.startswith("##"):
            m = _HEADER_NAME.search(line)
            if m and m.group(1).strip():
                name = m.group(1).strip()
            continue
        if not line.strip():
            continue
        rec = parse_bdm_line(line, f"{p}:{lineno}")
        pair_id = (rec.key, rec.response) if rec.key <= rec.response else (rec.response, rec.key)
        if pair_id in seen:
            first_line, first_bdm = seen[pair_id]
            if np.float32(first_bdm) != np.float32(rec.bdm) and not (rec.bdm != rec.bdm and first_bdm != first_bdm):
                raise InputError(f"{p}:{lineno}: pair {rec.key!r} / {rec.response!r} was given "
                                         f"bdm={java_float(first_bdm)} on line {first_line}, now "
                                         f"bdm={java_float(rec.bdm)}; keep one of the two lines")
            continue
        seen[pair_id] = (lineno, rec.bdm)
        pairs.append(rec)
    return BDMScores(pairs, name=name)


__all__ = ["HEADER", "format_bdm_line", "java_float", "parse_bdm_line", "read_bdm_file", "write_bdm_file"]
