"""Workflows built from the engine and the families: Corpus QA (:mod:`.qa`), adjudication
(:mod:`.adjudicate`), shard and chunk streams on one machine or Dask (:mod:`.stream`), GATE's corpus
benchmark (:mod:`.benchmark`), a language model's extractions grounded and scored (:mod:`.llm`,
:mod:`.llm_relations`), and Brants & Skut's models on treebanks: which of two annotations to keep, which labels
to doubt (:mod:`.tree_models`).

Imports are lazy: naming a function imports its module.
"""

from __future__ import annotations

from ..lazy import lazy_package

__getattr__, __dir__, __all__ = lazy_package(__name__, """
    qa: run_qa
    adjudicate: adjudicate adjudicate_files
    stream: score_shards
    compare: compare compare_systems SystemsComparison
    coref_compare: compare_coref CorefComparison
    llm: score_extractions LlmEvaluation
    llm_relations: score_relation_extractions LlmRelations
    tree_models: resolve_files resolve_treebanks doubt_files doubt_treebank DoubtReport TreeModelSettings
        adjudicate_treebanks
    benchmark.run: run_benchmark
    benchmark.store: store_baseline
""")
