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

import csv
import io
import itertools
import math
import os
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import AnnoEvalError, ConfigError, InputError, UndefinedFigureWarning, where
from ..figures import check_count, check_fraction, none_if_undefined, ratio
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
    LEVELS,
    davies_fleiss_kappa,
    fleiss_kappa,
    fleiss_kappa_per_category,
    is_missing,
    krippendorff_alpha,
    reliability_counts,
    with_bootstrap,
)


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


def read_table(path: str | os.PathLike, *, encoding: str = "utf-8",
               sep: str = ",") -> tuple[list[str], list[list[Any]]]:
    """Annotator names and an annotators x units list of values from a CSV file (``sep``: the delimiter).

    The header row names the annotators; each further row is a unit; an empty
    cell is a missing value. Values are numbers when every value parses as a
    number, else strings. A number keeps the text the table wrote it as for
    its name (:class:`Printed`: the category ``1`` is ``"1"``; a number written
    two ways, ``1`` and ``1.0``, is one category named as first written). A
    number that is not finite (``inf``, ``nan``) is refused naming its line:
    an empty cell marks a missing value.
    """
    p = Path(path)
    src = str(p)
    if not p.is_file():
        raise InputError(f"{p}: no such file")
    if not isinstance(sep, str) or len(sep) != 1 or sep in "\r\n\"":
        raise ConfigError(f"sep must be one character (the CSV delimiter, e.g. ';' or a tab), got {sep!r}")
    data = p.read_bytes()
    utf8 = encoding.lower().replace("_", "-") in ("utf-8", "utf8")
    try:
        text = data.decode("utf-8-sig" if utf8 else encoding)
    except LookupError:
        raise ConfigError(f"encoding {encoding!r} is unknown; give a Python codec name such as utf-8 or "
                          "latin-1") from None
    except UnicodeDecodeError as err:
        line = data.count(b"\n", 0, err.start) + 1
        raise InputError(f"{where(src, line=line)}: not {'UTF-8' if utf8 else encoding} text ({err.reason} at byte "
                         f"{err.start}); save the table as UTF-8 CSV, or pass its encoding with --encoding "
                         f"(Python: encoding=), e.g. --encoding latin-1") from None
    reader = csv.reader(io.StringIO(text), delimiter=sep)
    rows: list[tuple[int, list[str]]] = []
    try:
        for r in reader:
            if any(c.strip() for c in r):
                rows.append((reader.line_num, r))
    except csv.Error as err:
        raise InputError(f"{where(src, line=reader.line_num)}: unreadable CSV ({err})") from None
    if len(rows) < 2:
        raise InputError(f"{p}: needs a header row of annotator names and at least one unit row")
    names = [c.strip() for c in rows[0][1]]
    if len(set(names)) != len(names) or not all(names):
        raise InputError(f"{where(src, line=rows[0][0])}: annotator names must be non-empty and distinct, got "
                         f"{names}")
    if len(names) < 2:
        raise InputError(f"{where(src, line=rows[0][0])}: one column ({names[0]!r}) where agreement needs two or "
                         f"more annotators; if the file uses another delimiter than {sep!r}, pass it with --sep "
                         f"(Python: sep=)")
    for line, r in rows[1:]:
        if len(r) != len(names):
            raise InputError(f"{where(src, line=line)}: {len(r)} cells but {len(names)} annotators; "
                             f"leave a cell empty for a missing value")
    cells = [[c.strip() for c in r] for _, r in rows[1:]]
    parsed: dict[str, float] = {}
    for c in (c for r in cells for c in r if c and c not in parsed):
        try:
            parsed[c] = float(c)
        except ValueError:
            units: list[list[Any]] = [[c or None for c in r] for r in cells]  # categories: the texts
            return names, [list(col) for col in zip(*units, strict=True)]
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
    return names, [list(col) for col in zip(*units, strict=True)]


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


def agreement_summary(data: Any, level: str = "nominal", annotators: list[str] | None = None, *,
                      bootstrap: int = 0, seed: int = 0, confidence: float = 0.95,
                      client: Any = None) -> dict[str, Any]:
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
    """
    check_count("bootstrap", bootstrap, low=0)
    check_fraction("confidence", confidence, open_ends=True, example="0.95")
    if not callable(level) and level not in LEVELS:
        raise ConfigError(f"level must be one of {', '.join(LEVELS)} or a callable, got {level!r}")
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
    return AgreementSummary({
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


class AgreementSummary(dict):
    """The JSON-ready dict of :func:`agreement_summary`, which also renders itself in a notebook."""

    def _repr_html_(self) -> str:
        from ..report.notebook import agreement_summary_html

        return agreement_summary_html(self)


__all__ = ["AgreementSummary", "Printed", "agreement_summary", "cohen_kappa", "davies_fleiss_kappa", "fleiss_kappa",
           "krippendorff_alpha", "read_table", "scott_pi"]
