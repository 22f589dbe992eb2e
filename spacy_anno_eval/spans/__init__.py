"""System vs gold on spans, the one engine under every door: pair the annotations of a key and a response
(:mod:`.align`, GATE's Annotation Diff statuses), count the pairs (:mod:`.counts`, the :class:`Evaluation`
that every report asks for its figures), turn counts into GATE / MUC / SemEval figures (:mod:`.measures`), and
carry optional credit sums beside the counts (:mod:`.credit`, e.g. BDM). :func:`evaluate` (:mod:`.engine`)
reads two corpora and returns an :class:`Evaluation`.

Imports are lazy: naming a function imports its module.
"""

from __future__ import annotations

from ..lazy import lazy_package

__getattr__, __dir__, __all__ = lazy_package(__name__, """
    engine: evaluate
    counts: Evaluation doc_results
    decisions: decision_rows decision_counts DECISIONS
    confusion: SpanConfusion
    align: align_spans select_types PairTable STATUS_NAMES
    measures: gate_prf muc_prf semeval_prf
    credit: CreditRule CreditSum
""")
