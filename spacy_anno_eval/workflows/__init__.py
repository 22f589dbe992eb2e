"""Workflows built from the engine and the families: Corpus QA (:mod:`.qa`), adjudication
(:mod:`.adjudicate`), shard and chunk streams on one machine or Dask (:mod:`.stream`), GATE's corpus
benchmark (:mod:`.benchmark`), and a language model's extractions grounded and scored (:mod:`.llm`,
:mod:`.llm_relations`).

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
    benchmark.run: run_benchmark
    benchmark.store: store_baseline
""")
