"""Renderers: turn a report (the dict of :meth:`Evaluation.report`) into text.

Renderers never recompute a measure: they format the figures they are given.
"""
