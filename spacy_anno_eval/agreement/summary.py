"""Classification agreement in one place: every coefficient of a units x annotators table.

``spacy_anno_eval.agreement.summary.krippendorff_alpha(data, level="nominal")`` takes
an annotators x units array with NaN for missing values, the convention of
the ``krippendorff`` package (``reliability_data``), so switching is one line.
Two-annotator coefficients from a contingency table live in
:mod:`spacy_anno_eval.agreement.coefficients`; multi-annotator ones in
:mod:`spacy_anno_eval.agreement.reliability`. :func:`agreement_summary` computes
all that apply and says why the others do not (``None`` and a warning).

Undefined figures follow the package's one policy (:mod:`spacy_anno_eval.figures`):
a coefficient that does not exist is ``None`` (``null`` in JSON) with an entry
in ``warnings``; a ratio with a zero denominator (observed agreement without a
pairable unit, the specific agreement of a category no pairable value takes)
is 0.0 (``zero_division``), with an entry too. NaN in the input marks a
missing value (the ``krippendorff`` convention); no output is NaN.

Multi-annotator generalisations used by the summary (Artstein & Poesio 2008,
section 3; Fleiss 1971):

- ``observed_agreement``: mean over units with two or more values of the
  proportion of agreeing annotator pairs (for two annotators without missing
  values: GATE's Ao);
- ``bennett_s``: ``(Ao - 1/q) / (1 - 1/q)`` over the ``q`` categories used;
- ``scott_pi``: Fleiss' (multi-)pi, i.e. Fleiss' kappa (two annotators: Scott's pi);
- ``cohen_kappa``: two annotators: Cohen's kappa; more: the mean of the pairs;
- ``specific_agreement`` of category ``c`` (Uebersax 1982):
  ``sum_u n_uc (n_uc - 1) / sum_u n_uc (m_u - 1)``; two annotators: ``2a / (2a + b + c)``.
"""

from __future__ import annotations

import codecs
import csv
import io
import itertools
import math
import os
import re
import warnings
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import AnnoEvalError, ConfigError, InputError, UndefinedFigureWarning, UnitIdColumnWarning, where
from ..figures import none_if_undefined, ratio
from ..io.parse import check_separator, decode, read_bytes
from .coefficients import (
    bennett_s,
    cohen_kappa,
    confusion_matrix,
    observed_agreement,
    scott_pi,
    specific_agreement,
    table_bootstrap,
)
from .reliability import (
    davies_fleiss_kappa,
    fleiss_kappa,
    fleiss_kappa_per_category,
    is_missing,
    krippendorff_alpha,
    reliability_counts,
    with_bootstrap,
)
from .settings import AgreementSettings


class Printed(float):
    """A number read from a table that keeps the text the table wrote it as: it computes as the number and is
    named by the text (``str(Printed(1.0, "1"))`` is ``"1"``), so the category ``1`` of a CSV file stays
    ``"1"`` in ``per_category``, not ``"1.0"``."""

    text: str

    def __new__(cls, value: float, text: str) -> Printed:
        number = super().__new__(cls, value)
        number.text = text
        return number

    def __str__(self) -> str:
        return self.text

    def __reduce__(self) -> tuple[Any, ...]:  # pickled with its text (Dask workers)
        return (Printed, (float(self), self.text))


#: headers of a leading column that names units rather than holding an annotator's values, compared
#: case-insensitively with spaces, hyphens and underscores alike (``Unit ID`` is ``unit_id``)
UNIT_HEADERS = ("unit", "units", "item", "items", "id", "ids", "subject", "subjects", "case", "cases", "unit_id",
                "item_id", "subject_id", "case_id")
#: headers of a leading column that groups units (irrCAC's ``Group``): set aside, beside the unit ids
GROUP_HEADERS = ("group", "groups")
#: the fewest unit rows on which a first column is taken for unit ids by its values alone
MIN_ID_UNITS = 3


class RatingsTable(tuple):
    """What :func:`read_table` returns: the pair ``(names, data)`` (so ``names, data = read_table(path)`` reads
    as before), with what the table said about its units: ``unit_ids`` (one text per unit, or ``None`` when the
    table has no id column), ``id_column`` (its header), ``set_aside`` (every column that is not an
    annotator: the id column and group columns) and ``note`` (how the id column was found, or ``None``)."""

    unit_ids: list[str] | None
    id_column: str | None
    set_aside: list[str]
    note: str | None

    def __new__(cls, names: list[str], data: list[list[Any]], *, unit_ids: list[str] | None = None,
                id_column: str | None = None, set_aside: Sequence[str] = (), note: str | None = None) -> RatingsTable:
        table = super().__new__(cls, (names, data))
        table.unit_ids, table.id_column, table.set_aside, table.note = unit_ids, id_column, list(set_aside), note
        return table

    def __getnewargs_ex__(self) -> tuple[tuple[Any, ...], dict[str, Any]]:  # pickled with its attributes
        return (self[0], self[1]), {"unit_ids": self.unit_ids, "id_column": self.id_column,
                                     "set_aside": self.set_aside, "note": self.note}

    def units(self) -> dict[str, Any] | None:
        """The units of the table for a report (``None`` without unit ids): what a unit is, the id column, the
        columns set aside and the ids in table order."""
        if self.unit_ids is None:
            return None
        return {"unit": "table row", "id_column": self.id_column, "set_aside": list(self.set_aside),
                "n_units": len(self.unit_ids), "ids": list(self.unit_ids)}


def _header_key(name: str) -> str:
    return re.sub(r"[\s_-]+", "_", name.strip().lower())


def _cell_key(cell: str) -> Any:
    """A cell as compared with others when telling ids from categories: its number when it is one (``1`` and
    ``1.0`` alike), else its text."""
    try:
        number = float(cell)
    except ValueError:
        return cell
    return number if math.isfinite(number) else cell


def _looks_like_ids(cells: list[list[str]]) -> bool:
    """Whether the first column of ``cells`` (units x columns, stripped) holds unit ids by its values alone:
    at least :data:`MIN_ID_UNITS` units and two other columns; every cell of the first column filled and no two
    alike; the other columns together use fewer categories than there are units (each id would be a category
    of its own, which no annotator does); and fewer than half of the ids are also values of the other columns."""
    if len(cells) < MIN_ID_UNITS or len(cells[0]) < 3:
        return False
    first = [r[0] for r in cells]
    if not all(first) or len(set(first)) != len(first):
        return False
    categories = {_cell_key(c) for r in cells for c in r[1:] if c}
    if len(categories) >= len(first):
        return False
    shared = sum(_cell_key(c) in categories for c in first)
    return 2 * shared < len(first)


def _id_columns(names: list[str], cells: list[list[str]], id_column: str | None, src: str) -> tuple[int | None,
                                                                                                     list[int], str]:
    """The position of the unit-id column (or ``None``), the positions of every column that is not an
    annotator, and how they were found (for the note)."""
    if id_column == "none":
        return None, [], ""
    if id_column != "auto":
        matches = [k for k, n in enumerate(names) if n == id_column.strip()] or \
                  [k for k, n in enumerate(names) if n.lower() == id_column.strip().lower()]
        if len(matches) != 1:
            how_many = "several columns" if matches else "no column"
            raise ConfigError(f"{src}: id_column {id_column!r} (--id-column) matches {how_many}; the columns: "
                              f"{', '.join(map(repr, names))}; give one of them, or none to read every column as an "
                              f"annotator")
        k = matches[0]
        groups = [j for j in range(k) if _header_key(names[j]) in UNIT_HEADERS + GROUP_HEADERS]
        return k, [*groups, k], "given"
    lead = 0
    while lead < len(names) and _header_key(names[lead]) in UNIT_HEADERS + GROUP_HEADERS:
        lead += 1
    if lead:
        units = [k for k in range(lead) if _header_key(names[k]) in UNIT_HEADERS]
        if units:
            return units[-1], list(range(lead)), "header"
        last = [r[lead - 1] for r in cells]  # group columns only: the ids when all filled and distinct
        if all(last) and len(set(last)) == len(last):
            return lead - 1, list(range(lead)), "header"
        return None, list(range(lead)), "header"
    if _looks_like_ids(cells):
        return 0, [0], "values"
    return None, [], ""


def read_table(path: str | os.PathLike, *, encoding: str = "utf-8", sep: str = ",",
               id_column: str | None = "auto") -> RatingsTable:
    """Annotator names and an annotators x units list of values from a CSV file (``sep``: the delimiter).

    The header row names the annotators; each further row is a unit; an empty
    cell is a missing value. Values are numbers when every value parses as a
    number, else strings. A number keeps the text the table wrote it as for
    its name (:class:`Printed`: the category ``1`` is ``"1"``; a number written
    two ways, ``1`` and ``1.0``, is one category named as first written). A
    number that is not finite (``inf``, ``nan``) is refused naming its line:
    an empty cell marks a missing value.

    **Unit ids.** A column that names the units is not an annotator. With
    ``id_column="auto"`` (the default) it is found:

    - by its header: the leading columns whose header is one of
      :data:`UNIT_HEADERS` (``Unit``, ``Units``, ``Item``, ``Items``, ``Id``,
      ``Ids``, ``Subject``, ``Subjects``, ``Case``, ``Cases``, ``unit_id``,
      ``item_id``, ``subject_id``, ``case_id``) or :data:`GROUP_HEADERS`
      (``Group``, ``Groups``), compared case-insensitively and trimmed, are set
      aside; the last unit-named one holds the unit ids (irrCAC's layout
      ``Group,Units,Rater1,...`` sets aside both and takes ``Units``); group
      columns alone give the ids only when their values are all distinct;
    - else by its values: the first column holds the ids when the table has at
      least :data:`MIN_ID_UNITS` (3) units and two other columns, its cells are
      all filled and distinct, the other columns together use fewer categories
      than there are units, and fewer than half of its values are also values
      of the other columns (so an annotator who chose among the others'
      categories is never taken for ids).

    A column found so is announced by an
    :class:`~spacy_anno_eval.errors.UnitIdColumnWarning` (``note`` holds its
    text). ``id_column=NAME`` names the id column (its header, exact or else
    case-insensitive; index-named columns before it, such as ``Group``, are
    set aside too); ``id_column=None`` or ``"none"`` reads every column as an
    annotator. The result is a :class:`RatingsTable`: ``names, data`` as
    before, with ``unit_ids``.

    Raise :class:`~spacy_anno_eval.errors.InputError` for a file that cannot
    be read or is not text in ``encoding`` (file, line, byte), a table with
    nothing to compare (no unit row), ragged rows, fewer than two annotator
    columns, an empty or repeated unit id (naming the line); and
    :class:`~spacy_anno_eval.errors.ConfigError` for a ``sep`` that is not one
    character, an unknown ``encoding``, or an ``id_column`` that names no
    column (listing the columns).
    """
    p = Path(path)
    src = str(p)
    sep = check_separator(sep, single=True) if sep is not None else None  # the one rule (io.parse)
    if sep is None:
        raise ConfigError("sep must be one character (the CSV delimiter, e.g. ';' or a tab), got None")
    if not isinstance(encoding, str) or not encoding:
        raise ConfigError(f"encoding must be a Python codec name such as utf-8 or latin-1, got {encoding!r}")
    try:
        codecs.lookup(encoding)
    except LookupError:
        raise ConfigError(f"encoding {encoding!r} is unknown; give a Python codec name such as utf-8 or "
                          "latin-1") from None
    if id_column is None:
        id_column = "none"
    if not isinstance(id_column, str) or not id_column.strip():
        raise ConfigError(f"id_column (--id-column) must be a column name, 'auto' or 'none', got {id_column!r}")
    id_column = id_column.strip() if id_column.strip().lower() not in ("auto", "none") else id_column.strip().lower()
    text = decode(read_bytes(p, what="a CSV table of ratings"), src, encoding,
                  fix="save the table as UTF-8 CSV, or pass its encoding with --encoding (Python: encoding=), e.g. "
                      "--encoding latin-1")
    reader = csv.reader(io.StringIO(text), delimiter=sep)
    rows: list[tuple[int, list[str]]] = []
    try:
        for r in reader:
            if any(c.strip() for c in r):
                rows.append((reader.line_num, r))
    except csv.Error as err:
        raise InputError(f"{where(src, line=reader.line_num)}: unreadable CSV ({err})") from None
    if len(rows) < 2:
        held = "the file holds no row" if not rows else f"line {rows[0][0]} is a header and no unit row follows"
        raise InputError(f"{p}: nothing to compare: {held}; give a header row of annotator names, then one row "
                         f"per unit")
    names = [c.strip() for c in rows[0][1]]
    if len(set(names)) != len(names) or not all(names):
        hint = " (a first column without a name, as pandas writes its index: name it, e.g. 'unit')" \
            if not names[0] and all(names[1:]) else ""
        raise InputError(f"{where(src, line=rows[0][0])}: annotator names must be non-empty and distinct, got "
                         f"{names}{hint}")
    if len(names) < 2:
        raise InputError(f"{where(src, line=rows[0][0])}: one column ({names[0]!r}) where agreement needs two or "
                         f"more annotators; if the file uses another delimiter than {sep!r}, pass it with --sep "
                         f"(Python: sep=)")
    for line, r in rows[1:]:
        if len(r) != len(names):
            raise InputError(f"{where(src, line=line)}: {len(r)} cells but {len(names)} annotators; "
                             f"leave a cell empty for a missing value")
    cells = [[c.strip() for c in r] for _, r in rows[1:]]
    ids_at, aside, found = _id_columns(names, cells, id_column, src)
    unit_ids = None
    if ids_at is not None:
        seen: dict[str, int] = {}
        for (line, _), r in zip(rows[1:], cells, strict=True):
            unit = r[ids_at]
            if not unit:
                raise InputError(f"{where(src, line=line)}: no unit id in the column {names[ids_at]!r}; give every "
                                 f"unit an id, or read the column as an annotator with --id-column none (Python: "
                                 f"id_column=None)")
            if unit in seen:
                raise InputError(f"{where(src, line=line)}: the unit id {unit!r} (column {names[ids_at]!r}) is "
                                 f"already the id of line {seen[unit]}; each row is one unit, so ids must be "
                                 f"distinct (or read the column as an annotator with --id-column none)")
            seen[unit] = line
        unit_ids = [r[ids_at] for r in cells]
    header = names
    note = None
    if aside and found != "given":
        how = "its header names units" if found == "header" else \
            "its values differ on every row while the other columns repeat categories"
        if ids_at is not None and aside == [ids_at]:
            note = (f"{src}: the column {names[ids_at]!r} read as unit ids, not as an annotator ({how}); give "
                    f"--id-column none (Python: id_column=None) to read it as an annotator")
        elif ids_at is not None:
            note = (f"{src}: the columns {', '.join(repr(names[k]) for k in aside)} read as unit ids and groups, "
                    f"not as annotators (their headers name units and groups; the unit ids are {names[ids_at]!r}); "
                    f"give --id-column none (Python: id_column=None) to read them as annotators")
        else:
            cols = ", ".join(repr(names[k]) for k in aside)
            one = len(aside) == 1
            note = (f"{src}: the column{'' if one else 's'} {cols} read as groups of units, not as annotators "
                    f"({'its header names' if one else 'their headers name'} groups; no column gives unit ids, as "
                    f"{'its' if one else 'their'} values repeat); give --id-column none (Python: id_column=None) to "
                    f"read {'it' if one else 'them'} as {'an annotator' if one else 'annotators'}")
    if aside:
        keep = [k for k in range(len(names)) if k not in aside]
        left = [names[k] for k in keep]
        if len(left) < 2:
            raise InputError(f"{where(src, line=rows[0][0])}: {len(left)} annotator column"
                             f"{'s' if len(left) != 1 else ''} ({', '.join(map(repr, left)) or 'none'}) beside "
                             f"{', '.join(repr(names[k]) for k in aside)} where agreement needs two or more; give "
                             f"--id-column none (Python: id_column=None) if "
                             f"{'they hold' if len(aside) > 1 else 'it holds'} ratings")
        names = left
        cells = [[r[k] for k in keep] for r in cells]
    if note is not None:
        warnings.warn(note, UnitIdColumnWarning, stacklevel=2)

    def table(data: list[list[Any]]) -> RatingsTable:
        return RatingsTable(names, data, unit_ids=unit_ids, id_column=header[ids_at] if ids_at is not None else None,
                            set_aside=[header[k] for k in aside], note=note)

    parsed: dict[str, float] = {}
    for c in (c for r in cells for c in r if c and c not in parsed):
        try:
            parsed[c] = float(c)
        except ValueError:
            units: list[list[Any]] = [[c or None for c in r] for r in cells]  # categories: the texts
            return table([list(col) for col in zip(*units, strict=True)])
    for (line, _), r in zip(rows[1:], cells, strict=True):
        bad = next((c for c in r if c and not math.isfinite(parsed[c])), None)
        if bad is not None:
            raise InputError(f"{where(src, line=line)}: the value {bad!r} is not a finite number; give finite "
                             f"numbers, and leave a cell empty for a missing value")
    named: dict[float, Printed] = {}
    for c in (c for r in cells for c in r if c):  # file order: a number is named as first written
        if parsed[c] not in named:
            named[parsed[c]] = Printed(parsed[c], c)
    units = [[named[parsed[c]] if c else np.nan for c in r] for r in cells]
    return table([list(col) for col in zip(*units, strict=True)])


def _pair(rows: list[list[Any]], names: list[str], i: int, j: int, values: list[Any],
          resample: dict[str, Any] | None, out_warnings: list[str]) -> dict[str, Any]:
    """The two-coder figures of annotators ``i`` and ``j`` on the units both valued (``resample``: the
    bootstrap settings of :func:`~spacy_anno_eval.agreement.coefficients.table_bootstrap`, or None)."""
    both = [(x, y) for x, y in zip(rows[i], rows[j], strict=True) if not is_missing(x) and not is_missing(y)]
    entry: dict[str, Any] = {"a": names[i], "b": names[j], "n": len(both)}
    if not both:
        out_warnings.append(f"pair {names[i]}/{names[j]}: no unit valued by both")
        return entry
    table = confusion_matrix([x for x, _ in both], [y for _, y in both], categories=values)
    figures = {}
    for key, coef in (("cohen_kappa", cohen_kappa), ("scott_pi", scott_pi), ("bennett_s", bennett_s)):
        if resample is not None:
            result = table_bootstrap(table, coef, **resample)
            entry[f"{key}_ci"] = result.ci
        else:
            result = coef(table)
        figures[key] = result.value
    entry.update(observed_agreement=float(observed_agreement(table)), **figures,
                 specific_agreement={str(v): float(x) for v, x in zip(values, specific_agreement(table), strict=True)})
    return entry


#: an argument not given (``None`` is a value, and refused where it is no setting's)
_UNSET: Any = object()


def agreement_summary(data: Any, level: Any = _UNSET, annotators: list[str] | None = None, *,
                      bootstrap: Any = _UNSET, seed: Any = _UNSET, confidence: Any = _UNSET,
                      client: Any = None, settings: AgreementSettings | None = None) -> AgreementSummary:
    """Every coefficient for annotators x units ``data`` (NaN / None missing), JSON-ready.

    Keys: ``n_units``, ``n_annotators``, ``level``, ``observed_agreement``,
    ``bennett_s``, ``scott_pi``, ``cohen_kappa``, ``fleiss_kappa``,
    ``davies_fleiss_kappa``, ``krippendorff_alpha`` (``value``,
    ``observed_disagreement``, ``expected_disagreement``), ``per_category``
    (``specific_agreement``, ``fleiss_kappa``), ``pairwise`` and ``warnings``.
    A coefficient that does not apply is ``None`` with a ``warnings`` entry.
    The nominal coefficients ignore ``level``; alpha uses it. ``bootstrap`` > 0
    adds a percentile interval over resampled units (``ci``) to alpha and
    Fleiss' kappa (:func:`~spacy_anno_eval.agreement.reliability.with_bootstrap`),
    and over resampled items to each pair's Cohen's kappa, Scott's pi and
    Bennett's S (``cohen_kappa_ci``, ... in ``pairwise``;
    :func:`~spacy_anno_eval.agreement.coefficients.table_bootstrap`); for two
    annotators ``cohen_kappa_ci`` is also given at the top level. ``client``: an
    open ``distributed.Client`` to compute the bootstrap samples on, with the
    same result as in-process (:mod:`spacy_anno_eval.samples`).

    ``level``, ``bootstrap``, ``seed`` and ``confidence`` are an
    :class:`~spacy_anno_eval.agreement.settings.AgreementSettings`, validated
    once before anything is computed: ``settings``, or built from these
    arguments (given with ``settings``, they replace its values); the
    summary carries it (``summary.settings``).
    """
    given = {k: v for k, v in (("level", level), ("bootstrap", bootstrap), ("seed", seed),
                               ("confidence", confidence)) if v is not _UNSET}
    settings = replace(settings, **given) if settings is not None else AgreementSettings(**given)
    level, bootstrap, seed, confidence = settings.level, settings.bootstrap, settings.seed, settings.confidence
    if isinstance(data, (str, bytes)) or not isinstance(data, (np.ndarray, Sequence)) or \
            any(isinstance(r, (str, bytes)) or not hasattr(r, "__len__") for r in data):
        raise ConfigError(f"data must be annotators x units (a list of rows, or a 2-D array; None for a missing "
                          f"value), got {type(data).__name__} {data!r:.60}; read a file with read_table(path)")
    rows = [list(r) for r in (data.tolist() if isinstance(data, np.ndarray) else data)]
    n_ann = len(rows)
    names = list(annotators) if annotators else [f"a{i + 1}" for i in range(n_ann)]
    out_warnings: list[str] = []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", UndefinedFigureWarning)
        counts, values = reliability_counts(rows)
        n_units = counts.shape[0]
        m = counts.sum(axis=1)
        pairable = m >= 2
        c = counts[pairable].astype(float)
        mp = m[pairable].astype(float)
        ao = float(((c * (c - 1)).sum(axis=1) / (mp * (mp - 1))).mean()) if len(mp) else 0.0
        if not len(mp):
            out_warnings.append("observed_agreement: no unit has two or more values; reported as zero_division = 0.0")
        q = len(values)
        s = (ao - 1.0 / q) / (1.0 - 1.0 / q) if q > 1 and len(mp) else None
        if q <= 1:
            out_warnings.append("bennett_s: fewer than two categories")
        elif not len(mp):
            out_warnings.append("bennett_s: no unit has two or more values")
        if bootstrap:
            resample = {"n_samples": bootstrap, "seed": seed, "confidence": confidence, "value_counts": counts,
                        "value_domain": values, "client": client}
            fk = with_bootstrap(None, fleiss_kappa, **resample)
            alpha = with_bootstrap(None, krippendorff_alpha, level=level, **resample)
        else:
            fk = fleiss_kappa(value_counts=counts)
            alpha = krippendorff_alpha(value_counts=counts, value_domain=values, level=level)
        complete = bool((m == n_ann).all())
        dfk = davies_fleiss_kappa(rows).value if complete and n_ann >= 2 else None
        if not complete:
            out_warnings.append("davies_fleiss_kappa: needs every unit rated by every annotator (missing values)")
        per_fleiss = None
        constant = pairable.any() and (m[m > 0] == m[m > 0][0]).all()
        if constant:
            per_fleiss = fleiss_kappa_per_category(value_counts=counts)
        else:
            out_warnings.append("per_category.fleiss_kappa: needs the same number of values on every unit")
        denom = (c * (mp[:, None] - 1)).sum(axis=0)
        spec = ratio((c * (c - 1)).sum(axis=0), denom, 0.0)
        if (denom == 0).any():
            out_warnings.append(f"per_category.specific_agreement: {int((denom == 0).sum())} categories without a "
                                f"pairable value; reported as zero_division = 0.0")
        resample = {"n_samples": bootstrap, "seed": seed, "confidence": confidence, "client": client}
        pairwise = [_pair(rows, names, i, j, values, resample if bootstrap else None, out_warnings)
                    for i, j in itertools.combinations(range(n_ann), 2)]
        kappas = [entry["cohen_kappa"] for entry in pairwise if "cohen_kappa" in entry]
        family = _chance_family(rows, level, confidence, out_warnings) if not callable(level) else None
    out_warnings.extend(str(w.message) for w in caught if issubclass(w.category, UndefinedFigureWarning))
    defined = [k for k in kappas if k is not None]
    return AgreementSummary(settings, {
        "n_units": n_units,
        "n_annotators": n_ann,
        "annotators": names,
        "level": level,
        "categories": [v if isinstance(v, str) else float(v) for v in values],
        "n_pairable_units": int(pairable.sum()),
        "observed_agreement": ao,
        "bennett_s": s,
        "scott_pi": fk.value,
        "cohen_kappa": float(np.mean(defined)) if defined else None,
        **({"cohen_kappa_ci": pairwise[0]["cohen_kappa_ci"]}
           if n_ann == 2 and pairwise and "cohen_kappa_ci" in pairwise[0] else {}),
        "fleiss_kappa": fk.value,
        **({"fleiss_kappa_ci": fk.ci} if fk.ci else {}),
        "davies_fleiss_kappa": dfk,
        "krippendorff_alpha": {"value": alpha.value, "observed_disagreement": alpha.observed,
                               "expected_disagreement": alpha.expected, "n_pairable_values": alpha.n,
                               **({"ci": alpha.ci} if alpha.ci else {})},
        "per_category": {str(v): {"specific_agreement": float(spec[k]),
                                  "fleiss_kappa": none_if_undefined(per_fleiss[k]) if per_fleiss is not None else None}
                         for k, v in enumerate(values)},
        "pairwise": pairwise,
        **({"chance_corrected": family} if family is not None else {}),
        "warnings": list(dict.fromkeys(out_warnings)),
    })


#: the irrCAC weighting that matches each Krippendorff level
LEVEL_WEIGHTS = {"nominal": "identity", "ordinal": "ordinal", "interval": "quadratic", "ratio": "ratio"}
#: the chance-corrected family reported beside the classic coefficients (:mod:`.chance`)
FAMILY = (("gwet_ac", "gwet"), ("brennan_prediger", "brennan_prediger"), ("conger_kappa", "conger"),
          ("fleiss_kappa_averaged", "fleiss"))


def _chance_family(rows: list[list[Any]], level: str, confidence: float, notes: list[str]) -> dict[str, Any]:
    """Gwet's AC1 (AC2 when weighted), Brennan-Prediger, Conger's kappa and Fleiss' kappa with irrCAC's averaged
    shares, under the weighting of ``level``, each with irrCAC's analytic standard error and interval; a
    coefficient that cannot be computed on these data is left out with a note."""
    from .chance import chance_agreement

    weights = LEVEL_WEIGHTS[level]
    out: dict[str, Any] = {"weights": weights}
    for key, measure in FAMILY:
        try:
            out[key] = chance_agreement(rows, measure, weights, confidence=confidence).to_dict()
        except AnnoEvalError as err:
            notes.append(f"chance_corrected.{key}: {err}")
    return out


def table_summary(table: Any, level: Any = _UNSET, *, bootstrap: Any = _UNSET, seed: Any = _UNSET,
                  confidence: Any = _UNSET, client: Any = None) -> AgreementSummary:
    """The finished summary ``anno-eval agreement`` writes and prints for ``table``: :func:`agreement_summary`
    of its annotators and values, with what the table says about its units.

    ``table``: a :class:`RatingsTable` (:func:`read_table`; ``units`` is added when the table has unit ids, and
    its ``note`` leads the ``warnings``) or a :class:`~spacy_anno_eval.agreement.units.UnitsTable` of a corpus
    (``units`` is its :meth:`~spacy_anno_eval.agreement.units.UnitsTable.to_dict`, and its notes lead the
    ``warnings``, which then hold each note once). The other arguments are :func:`agreement_summary`'s."""
    if isinstance(table, RatingsTable):
        names, data = table
        summary = agreement_summary(data, level, names, bootstrap=bootstrap, seed=seed, confidence=confidence,
                                    client=client)
        if table.units() is not None:
            summary["units"] = table.units()
        if table.note is not None:
            summary["warnings"] = list(dict.fromkeys([table.note, *summary["warnings"]]))
        return summary
    summary = agreement_summary(table.values, level, table.annotators, bootstrap=bootstrap, seed=seed,
                                confidence=confidence, client=client)
    summary["units"] = table.to_dict()
    summary["warnings"] = list(dict.fromkeys([*table.notes, *summary["warnings"]]))
    return summary


class AgreementSummary(dict):
    """The JSON-ready dict of :func:`agreement_summary`, which also renders itself in a notebook; ``settings``:
    the :class:`~spacy_anno_eval.agreement.settings.AgreementSettings` it was computed with."""

    def __init__(self, settings: AgreementSettings | None = None, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.settings = settings if settings is not None else AgreementSettings()

    def __reduce__(self) -> tuple[Any, ...]:  # pickled with its settings (Dask)
        return (AgreementSummary, (self.settings, dict(self)))

    def _repr_html_(self) -> str:
        from ..report.notebook import agreement_summary_html

        return agreement_summary_html(self)


__all__ = ["AgreementSummary", "Printed", "RatingsTable", "agreement_summary", "cohen_kappa", "davies_fleiss_kappa",
           "fleiss_kappa", "krippendorff_alpha", "read_table", "scott_pi", "table_summary"]
