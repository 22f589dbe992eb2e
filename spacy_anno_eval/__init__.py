"""spacy-anno-eval: annotation evaluation and agreement inside spaCy.

The stable Python API (listed in the README, "Python API"): every name below
is importable from ``spacy_anno_eval``; each family package (``agreement``,
``gamma``, ``annalist``, ``noisy``, ``trees``, ``bdm``, ``resampling``, ``workflows``) exports
its own. Imports are lazy (:mod:`.lazy`) so that spaCy's entry-point loading
stays light. γ is ``spacy_anno_eval.gamma.gamma``: the name ``gamma`` here is
the subpackage (Python binds a subpackage to its name once it is imported).
"""

from __future__ import annotations

from .lazy import lazy_exports

__version__ = "0.1.0"

_EXPORTS = {
    # spans: system vs gold
    "evaluate": "spans.engine",
    "Evaluation": "spans.counts",
    "align_spans": "spans.align",
    "PairTable": "spans.align",
    # annotations and readers
    "Corpus": "annotations.table",
    "SpanTable": "annotations.table",
    "corpus_from_docs": "annotations.docs",
    "read_corpus": "io",
    "register_reader": "io",
    # annotator vs annotator
    "agreement_summary": "agreement.summary",
    "cohen_kappa": "agreement.coefficients",
    "scott_pi": "agreement.coefficients",
    "fleiss_kappa": "agreement.reliability",
    "krippendorff_alpha": "agreement.reliability",
    "pairwise_f": "agreement.iaa",
    "pairwise_kappa": "agreement.iaa",
    # the hard cases
    "align_mentions": "annalist.align",
    "score_relations": "annalist.relations",
    "evaluate_files": "noisy.evaluate",
    "compare_files": "trees.dependencies",
    # workflows and reports
    "run_qa": "workflows.qa",
    "run_benchmark": "workflows.benchmark.run",
    "compare": "workflows.compare",
    "write_reports": "report",
    "write_json": "report.json",
    "to_rows": "report.rows",
    "to_dataframe": "report.rows",
    # errors
    "AnnoEvalError": "errors",
    "InputError": "errors",
    "ConfigError": "errors",
}
__all__ = sorted(_EXPORTS) + ["__version__"]
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
