"""Aligners: pair key and response annotations (by offsets; GATE's greedy choice)."""

from .offsets import STATUS_NAMES, Alignment, align_spans, overlap_candidates

__all__ = ["Alignment", "STATUS_NAMES", "align_spans", "overlap_candidates"]
