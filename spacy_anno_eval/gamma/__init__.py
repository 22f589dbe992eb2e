"""The γ family of unitizing agreement: γ, γcat and γk (Mathet, Widlöcher & Métivier 2015; Mathet 2017).

- :mod:`.continuum`: the units of every annotator (annotator, start, end, category) and their readers;
- :mod:`.dissimilarity`: positional, categorical and combined dissimilarities;
- :mod:`.alignment`: the exact best (minimum-disorder) alignment;
- :mod:`.sampling`: random continua for the expected disorder;
- :mod:`.measure`: γ, γcat, γk with their confidence interval;
- :mod:`.cst`: the Corpus Shuffling Tool (Mathet et al. 2012);
- :mod:`.unitizing`: Krippendorff's (2004) unitizing alpha uα, overall and per category, and the 2016 uα.

``gamma(data, sets=...)`` takes a :class:`~.continuum.Continuum`, a file
path or spaCy Docs. Nothing here is imported by spaCy's registry.
Imports are lazy: naming a function imports its module.
"""

from __future__ import annotations

from ..lazy import lazy_package

__getattr__, __dir__, __all__ = lazy_package(__name__, """
    continuum: Continuum
    dissimilarity: Dissimilarity
    measure: GammaResult gamma
    unitizing: UnitizingAlpha2016Result UnitizingAlphaResult UnitizingAlphas unitizing_alpha unitizing_alpha_2016
        unitizing_alphas unitizing_distance
""")
