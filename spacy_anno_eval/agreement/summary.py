"""Classification agreement in one place: every coefficient of a units x annotators table.

``spacy_anno_eval.agreement.summary.krippendorff_alpha(data, level="nominal")`` takes
an annotators x units array with NaN for missing values, the convention of
the ``krippendorff`` package (``reliability_data``), so switching is one line.
Two-annotator coefficients from a contingency table live in
:mod:`spacy_anno_eval.agreement.coefficients`; multi-annotator ones in
:mod:`spacy_anno_eval.agreement.reliability`. :func:`agreement_summary` computes
all that apply and says why the others do not (``None`` and a warning).

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
import os
import warnings
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import InputError
from .coefficients import (
    DegenerateAgreementWarning,
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
    krippendorff_alpha,
    reliability_counts,
    with_bootstrap,
)


def _plain(x: Any) -> Any:
    """A float, or None for NaN (JSON has no NaN)."""
    x = float(x)
    return None if x != x else x


def read_table(path: str | os.PathLike) -> tuple[list[str], list[list[Any]]]:
    """Annotator names and an annotators x units list of values from a CSV file.

    The header row names the annotators; each further row is a unit; an empty
    cell is a missing value. Values are numbers when every value parses as one,
    else strings.
    """
    p = Path(path)
    if not p.is_file():
        raise InputError(f"{p}: no such file")
    text = p.read_text(encoding="utf-8-sig")
    rows = [r for r in csv.reader(io.StringIO(text)) if any(c.strip() for c in r)]
    if len(rows) < 2:
        raise InputError(f"{p}: needs a header row of annotator names and at least one unit row")
    names = [c.strip() for c in rows[0]]
    if len(set(names)) != len(names) or not all(names):
        raise InputError(f"{p}, line 1: annotator names must be non-empty and distinct, got {names}")
    for i, r in enumerate(rows[1:], 2):
        if len(r) != len(names):
            raise InputError(f"{p}, unit row {i}: {len(r)} cells but {len(names)} annotators; "
                                     f"leave a cell empty for a missing value")
    cells = [[c.strip() for c in r] for r in rows[1:]]
    present = [c for r in cells for c in r if c]
    try:
        [float(c) for c in present]
        numeric = True
    except ValueError:
        numeric = False
    conv = (lambda c: float(c) if c else np.nan) if numeric else (lambda c: c if c else None)
    units = [[conv(c) for c in r] for r in cells]
    return names, [list(col) for col in zip(*units, strict=True)]


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
    rows = [list(r) for r in (data.tolist() if isinstance(data, np.ndarray) else data)]
    n_ann = len(rows)
    names = list(annotators) if annotators else [f"a{i + 1}" for i in range(n_ann)]
    out_warnings: list[str] = []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", DegenerateAgreementWarning)
        counts, values = reliability_counts(rows)
        n_units = counts.shape[0]
        m = counts.sum(axis=1)
        pairable = m >= 2
        c = counts[pairable].astype(float)
        mp = m[pairable].astype(float)
        ao = float(((c * (c - 1)).sum(axis=1) / (mp * (mp - 1))).mean()) if len(mp) else float("nan")
        q = len(values)
        s = (ao - 1.0 / q) / (1.0 - 1.0 / q) if q > 1 and ao == ao else float("nan")
        if q <= 1:
            out_warnings.append("bennett_s: fewer than two categories")
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
        spec = np.where(denom > 0, (c * (c - 1)).sum(axis=0) / np.where(denom > 0, denom, 1), np.nan)
        pairwise = []
        kappas = []
        for i, j in itertools.combinations(range(n_ann), 2):
            both = [(x, y) for x, y in zip(rows[i], rows[j], strict=True) if not _missing(x) and not _missing(y)]
            entry: dict[str, Any] = {"a": names[i], "b": names[j], "n": len(both)}
            if both:
                table = confusion_matrix([x for x, _ in both], [y for _, y in both], categories=values)
                figures = {}
                for key, coef in (("cohen_kappa", cohen_kappa), ("scott_pi", scott_pi), ("bennett_s", bennett_s)):
                    if bootstrap:
                        result = table_bootstrap(table, coef, n_samples=bootstrap, seed=seed, confidence=confidence,
                                                 client=client, undefined=float("nan"))
                        entry[f"{key}_ci"] = result.ci
                    else:
                        result = coef(table, undefined=float("nan"))
                    figures[key] = result.value
                entry.update(observed_agreement=_plain(observed_agreement(table)),
                             **{key: _plain(v) for key, v in figures.items()},
                             specific_agreement={str(v): _plain(x) for v, x in zip(values, specific_agreement(table),
                                                                                   strict=True)})
                kappas.append(figures["cohen_kappa"])
            else:
                out_warnings.append(f"pair {names[i]}/{names[j]}: no unit valued by both")
            pairwise.append(entry)
    out_warnings.extend(str(w.message) for w in caught if issubclass(w.category, DegenerateAgreementWarning))
    finite = [k for k in kappas if k == k]
    return {
        "n_units": n_units,
        "n_annotators": n_ann,
        "annotators": names,
        "level": level,
        "categories": [v if isinstance(v, str) else float(v) for v in values],
        "n_pairable_units": int(pairable.sum()),
        "observed_agreement": _plain(ao),
        "bennett_s": _plain(s),
        "scott_pi": _plain(fk.value),
        "cohen_kappa": _plain(np.mean(finite)) if finite else None,
        **({"cohen_kappa_ci": pairwise[0]["cohen_kappa_ci"]}
           if n_ann == 2 and pairwise and "cohen_kappa_ci" in pairwise[0] else {}),
        "fleiss_kappa": _plain(fk.value),
        **({"fleiss_kappa_ci": fk.ci} if fk.ci else {}),
        "davies_fleiss_kappa": _plain(dfk) if dfk is not None else None,
        "krippendorff_alpha": {"value": _plain(alpha.value), "observed_disagreement": _plain(alpha.observed),
                               "expected_disagreement": _plain(alpha.expected), "n_pairable_values": alpha.n,
                               **({"ci": alpha.ci} if alpha.ci else {})},
        "per_category": {str(v): {"specific_agreement": _plain(spec[k]),
                                  "fleiss_kappa": _plain(per_fleiss[k]) if per_fleiss is not None else None}
                         for k, v in enumerate(values)},
        "pairwise": pairwise,
        "warnings": list(dict.fromkeys(out_warnings)),
    }


def _missing(x: Any) -> bool:
    return x is None or (isinstance(x, float) and x != x)


__all__ = ["agreement_summary", "cohen_kappa", "davies_fleiss_kappa", "fleiss_kappa", "krippendorff_alpha",
           "read_table", "scott_pi"]
