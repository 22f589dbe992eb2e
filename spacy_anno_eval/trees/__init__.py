"""Treebank comparison: dependency trees and phrase structures (with crossing branches), EVALB and disco-dop.

:mod:`~.conllu` reads CoNLL-U files and spaCy parses into treebanks,
:mod:`~.dependencies` compares two of them (Brants & Skut 1998, section 4)
and :mod:`~.diff` turns the differences into rows and text; the records both
comparisons share (sentences, differences, Table 4's ratios) are in
:mod:`~.records`, which imports no other module of this package.
:mod:`~.brackets` reads Penn Treebank brackets into constituents (a label and
a yield of terminal positions) and :mod:`~.evalb` scores them as EVALB does
(Sekine & Collins 1997; PARSEVAL, Black et al. 1991).
:mod:`~.phrase` holds phrase structures whose yields may be discontinuous,
read from NEGRA export (:mod:`~.negra`), TIGER-XML (:mod:`~.tiger`),
discbracket (:mod:`~.discbracket`) or brackets (:mod:`~.readers`);
:mod:`~.disco` scores them as disco-dop's ``eval`` does, and
:mod:`~.phrase_compare` compares them at Brants & Skut's word, node and
sentence levels with per-sentence differences. The statistical half of
Brants & Skut: :mod:`~.tnt` (TnT's trigram HMM), :mod:`~.structure` (the
depth-one substructures the models read), :mod:`~.structure_model` (function
and category models, perplexity, reliability levels) and :mod:`~.resolution`
(which of two conflicting annotations has the lower perplexity);
:mod:`~.adjudicated` writes the treebank of the suggested versions.
Imports are lazy: naming a function imports its module.
"""

from __future__ import annotations

from ..lazy import lazy_package

__getattr__, __dir__, __all__ = lazy_package(__name__, """
    conllu: Sentence Treebank Word read_conllu treebank_from_docs
    records: TABLE4 EdgeDiff NodeDiff SentenceResult format_ids
    dependencies: ROOT_CATEGORY SPACY_IGNORE_LABELS TreeComparison compare_docs compare_files compare_treebanks
        spacy_dep_scores tree_nodes universal_relation
    diff: DIFF_COLUMNS diff_rows render_diff write_diff
    brackets: BracketTree Constituent read_brackets
    evalb: EvalbParams EvalbResult evaluate_files evaluate_trees
    phrase: PhraseNode PhraseTree from_brackets
    negra: parse_negra read_negra
    tiger: VIRTUAL_ROOT_CATEGORIES parse_tiger read_tiger
    discbracket: parse_discbracket read_discbracket
    readers: read_phrase_trees
    disco: DiscoResult evaluate_disco evaluate_disco_files
    phrase_compare: PhraseComparison compare_phrase_files compare_phrase_treebanks
    tnt: TrigramHMM
    structure: Phrase substructures
    structure_model: StructureModel Doubt cross_validated_models doubts reliability
    resolution: Resolution ResolvedSentence resolve check_doubts
    adjudicated: Adjudicated adjudicated_treebank write_adjudicated
""")
