"""What language models extract, given as strings: the readers of their outputs (spacy-llm's response lines,
JSON lists of label and text, langextract's records, relation triples), the grounding of each string in the
document's text by a stated ladder (exact, case-folded, normalised, fuzzy), hallucinations counted, and the
set mode that needs no grounding.

Imports are lazy: naming a function imports its module.
"""

from __future__ import annotations

from ..lazy import lazy_package

__getattr__, __dir__, __all__ = lazy_package(__name__, """
    extractions: Extraction Triple Extractions
    readers: read_extractions llm_formats llm_readers get_llm_reader llm_reader_options detect_llm_format
        register_llm_reader unregister_llm_reader LlmReader ReadExtractions read_llm_json read_langextract
        read_llm_relations
    spacy_llm: parse_ner_response ParsedResponse read_llm_ner extractions_from_docs
    sets: set_scores SetScores SetCounts normalize_universalner
    grounding: GroundingSettings Grounding DocumentGrounding Grounded Hallucination ground parse_ground
        STEPS REASONS CLAIMED HALLUCINATION DEFAULT_FUZZY_THRESHOLD
    normalize: QUOTES_AND_DASHES
    snap: SNAP_MODES
""")
