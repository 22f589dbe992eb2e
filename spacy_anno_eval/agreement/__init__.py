"""Agreement between annotators: two coders (:mod:`.coefficients`), many coders with missing values
(:mod:`.reliability`), a ratings table summarised (:mod:`.summary`), one classification / span-kappa accumulator
(:mod:`.classification`), span IAA over N annotation sets (:mod:`.iaa`, GATE's IAA plugin), span positions as
units (:mod:`.units`), and the chance-corrected family with irrCAC's weights and standard errors (:mod:`.chance`,
:mod:`.weights`: Gwet's AC1/AC2, Brennan-Prediger, Conger, Fleiss with missing ratings, PABAK).

Imports are lazy: naming a function imports its module.
"""

from __future__ import annotations

from ..lazy import lazy_package

__getattr__, __dir__, __all__ = lazy_package(__name__, """
    coefficients: Agreement ContingencyTable bennett_s cohen_kappa confusion_matrix observed_agreement scott_pi
        specific_agreement table_bootstrap
    reliability: davies_fleiss_kappa fleiss_kappa krippendorff_alpha with_bootstrap
    summary: agreement_summary read_table
    classification: ClassificationCounts ContingencyCounts
    iaa: pairwise_f pairwise_kappa
    chance: ChanceAgreement brennan_prediger chance_agreement conger_kappa fleiss_kappa_missing gwet_ac
        krippendorff_alpha_gwet majority_agreement pabak specific_agreements table_agreement
    weights: WEIGHTS weight_matrix
    units: units_table
""")
