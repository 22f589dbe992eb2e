"""XML read safely: entity declarations and nesting beyond 200 levels are refused, errors name the file and line.

Every XML reader of the package (GATE XML, UIMA CAS XMI, BioC, ELAN, TIGER-XML) parses through
:func:`parse_xml`, which lives with the package's other located loaders in :mod:`spacy_anno_eval.io.parse`.
"""

from __future__ import annotations

from .parse import local_name, parse_xml, root_name

__all__ = ["local_name", "parse_xml", "root_name"]
