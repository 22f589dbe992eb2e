"""The protocol of a credit accumulator: a mergeable sum built from the engine's pairs, carried by an
:class:`~spacy_anno_eval.spans.counts.Evaluation` beside its counts.

A *credit rule* (:class:`CreditRule`) reads the pairs of one comparison
(:class:`~spacy_anno_eval.spans.align.PairTable`) and returns a *credit sum*
(:class:`CreditSum`). A credit sum is a sum: the sum of two shards merges
(:meth:`CreditSum.merge`) into exactly the sum of the whole corpus, so every
figure it reports is the same whether the corpus was scored at once, in
shards or on a Dask cluster (DESIGN invariants 4 and 5).
:meth:`Evaluation.report() <spacy_anno_eval.spans.counts.Evaluation.report>`
puts ``credit_sum.report(beta, zero_division)`` under the key
``credit_sum.name``.

The span engine knows only this protocol; the families implement it (the
BDM-weighted P/R/F of Maynard et al. 2006 is
:class:`spacy_anno_eval.bdm.credit.BdmCredit`). A rule is handed to shard
tasks, so it must pickle.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol, runtime_checkable

from .align import PairTable


@runtime_checkable
class CreditSum(Protocol):
    """A mergeable sum of credit over pairs.

    ``name``: the report key; ``settings``: what the sum was made with (two
    sums merge only when their settings are equal).
    """

    name: str

    @property
    def settings(self) -> Mapping[str, Any]: ...

    def merge(self, other: Any) -> CreditSum:
        """The sum of both (the same settings; an :class:`Evaluation` checks them first)."""
        ...

    def report(self, beta: float, zero_division: float) -> dict[str, Any]:
        """JSON-ready figures computed from the sum alone."""
        ...


@runtime_checkable
class CreditRule(Protocol):
    """Makes a :class:`CreditSum` from the pairs of one comparison; picklable."""

    def accumulate(self, pairs: PairTable) -> CreditSum: ...


__all__ = ["CreditRule", "CreditSum"]
