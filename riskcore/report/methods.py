"""The method notes printed in every report: how each figure is computed, with its citation."""

from __future__ import annotations

__all__ = ["CONTEXT_METHOD_NOTE", "EVENT_METHOD_NOTES", "METHOD_NOTES", "MODEL_METHOD_NOTES"]

#: Method notes printed in every report: (topic, how it is computed, citation).
METHOD_NOTES: tuple[tuple[str, str, str], ...] = (
    (
        "k-anonymity",
        "k = min_j f_j, the size of the smallest equivalence class on the quasi-identifiers",
        "Sweeney L. k-anonymity: a model for protecting privacy. IJUFKS 10(5), 2002",
    ),
    (
        "prosecutor / journalist / marketer risk",
        "record risk 1/f_j (prosecutor), 1/F_j or E[1/F_j | f_j] (journalist), the average "
        "(marketer); a record passes a threshold when its risk is at most the threshold",
        "El Emam K. Guide to the De-Identification of Personal Health Information, 2013; "
        "Dankar F, El Emam K. Estimating the re-identification risk of clinical data sets, 2012",
    ),
    (
        "l-diversity",
        "distinct l = fewest distinct sensitive values in a class; entropy l = exp(min_j H_j); "
        "recursive (c,l): r_1 < c (r_l + ... + r_m)",
        "Machanavajjhala A et al. l-diversity: privacy beyond k-anonymity. ACM TKDD 1(1), 2007",
    ),
    (
        "t-closeness",
        "t = max_j EMD(P_j, Q), earth mover's distance of each class's sensitive distribution "
        "from the whole table's (ordered, equal or hierarchical ground distance)",
        "Li N, Li T, Venkatasubramanian S. t-closeness: privacy beyond k-anonymity and "
        "l-diversity. ICDE 2007",
    ),
    (
        "the verdict",
        "every target judged per class by its privacy model (riskcore.criteria); a remediation "
        "suppresses the classes that break a target within the limit and the release is judged "
        "again",
        "Prasser F, Kohlmayer F, et al. ARX - a comprehensive tool for anonymizing biomedical "
        "data. AMIA 2014",
    ),
    (
        "missing values",
        "policy 'own': a missing quasi-identifier value is one more value; policy 'any': it "
        "matches any value, f_k(r) = number of records agreeing with r wherever both are "
        "known, k = min f_k, risk 1/f_k, l and t over each record's compatible records",
        "Templ M, Kowarik A, Meindl B. Statistical disclosure control for micro-data using the "
        "R package sdcMicro. J Stat Softw 67(4), 2015 (freqCalc)",
    ),
    (
        "special uniques (SUDA)",
        "minimal sample uniques found by SUDA2; SUDA scores and DIS-SUDA as in sdcMicro",
        "Elliot M, Manning A, Ford R. A computational algorithm for handling the special "
        "uniques problem. IJUFKS 10(5), 2002; Manning A, Haglin D, Keane J. SUDA2, 2008",
    ),
    (
        "population estimates",
        "record risk E[1/F_j | f_j] with sampling weights (a weight column, or 1/pi for a "
        "sampling fraction pi); population uniques by the Pitman, Zayatz, SNB and Dankar models",
        "Benedetti R, Franconi L 1998; Dankar F et al. Estimating the re-identification risk "
        "of clinical data sets. BMC Med Inform Decis Mak 12:66, 2012",
    ),
    (
        "attacks",
        "linkage: the attacker knows every quasi-identifier of everyone (no error) and joins "
        "on them; unique = exactly one matching record, correct = it is the target's own, "
        "with 95% Wilson intervals; expected correct under a random pick among the matches, "
        "with a normal interval. Homogeneity: classes where every record shares one "
        "sensitive value (an exact count of every record, so no interval)",
        "Sweeney L. k-anonymity, IJUFKS 10(5), 2002; Wilson EB, JASA 22(158), 1927; "
        "Machanavajjhala A et al., ACM TKDD 1(1), 2007",
    ),
    (
        "remediation",
        "masking of direct identifiers, generalization along hierarchies, suppression of "
        "classes breaking the targets; information loss as the normalized certainty penalty",
        "Samarati P. Protecting respondents' identities in microdata release. IEEE TKDE 2001; "
        "Xu J et al. Utility-based anonymization using local recoding. KDD 2006",
    ),
    (
        "differential privacy budget",
        "epsilons and deltas of the releases charged to the ledger, added up under basic "
        "sequential composition (or zCDP when the ledger says so)",
        "Dwork C, Roth A. The algorithmic foundations of differential privacy, 2014, Thm 3.16; "
        "Bun M, Steinke T. Concentrated differential privacy, TCC 2016",
    ),
)


#: Method notes of the models of many rows per person, printed when the profile uses them:
#: ``events`` (k^m-anonymity) and ``household`` (household risk).
EVENT_METHOD_NOTES: dict[str, tuple[str, str, str]] = {
    "events": (
        "k^m-anonymity of a person's visits",
        "each person holds the set S_p of their visits (the event columns' values on one row, a "
        "missing value a value of its own); support(I) = |{p : I subset of S_p}|; k^m-anonymous "
        "iff support(I) >= k for every I of at most m visits held by someone; a person is at "
        "risk when one of their sets of at most m visits has support < k; a class of people "
        "fails when it holds a person at risk",
        "Terrovitis M, Mamoulis N, Kalnis P. Privacy-preserving anonymization of set-valued "
        "data. PVLDB 1(1), 2008; El Emam K et al. De-identification methods for open health "
        "data: the Heritage Health Prize claims dataset. JMIR 14(1):e33, 2012",
    ),
    "household": (
        "household risk",
        "r_h = 1 - prod over the household's members of (1 - r_i), r_i the individual risk "
        "(E[1/F_j | f_j], or 1/f_j without a population model); each member carries r_h; "
        "expected re-identifications = sum over members of r_h, global risk = that sum / the "
        "members (members are people with a person column)",
        "Templ M, Kowarik A, Meindl B. sdcMicro, J Stat Softw 67(4), 2015 (measure_risk, hid); "
        "Franconi L, Polettini S. Individual risk estimation in mu-Argus, PSD 2004",
    ),
}

#: Method notes of the privacy models a report prints only when its targets hold them, by kind.
MODEL_METHOD_NOTES: dict[str, tuple[str, str, str]] = {
    "beta-likeness": (
        "beta-likeness",
        "relative gain g_j(s) = (p_j(s) - q(s)) / q(s) of each value s present in class j; "
        "basic: g_j(s) <= beta; enhanced: g_j(s) <= min(beta, -ln q(s)) (ARX 3.9.2's "
        "BasicBLikeness, EnhancedBLikeness); q the release's distribution, judged again after "
        "suppression, or the input's as ARX's (--likeness-reference input)",
        "Cao J, Karras P. Publishing microdata with a robust privacy guarantee. PVLDB 5(11), 2012",
    ),
    "delta-disclosure": (
        "delta-disclosure privacy",
        "|log2(p_j(s) / q(s))| < delta for each value s present in class j (ARX 3.9.2's "
        "DDisclosurePrivacy); q the release's distribution, judged again after suppression, "
        "or the input's as ARX's (--likeness-reference input)",
        "Brickell J, Shmatikov V. The cost of privacy: destruction of data-mining utility in "
        "anonymized data publishing. KDD 2008",
    ),
}

#: The method note of a profile with a release context (riskcore.criteria.context).
CONTEXT_METHOD_NOTE: tuple[str, str, str] = (
    "threshold from the release context",
    "overall risk = Pr(re-id | attack) x Pr(attack) <= threshold; the threshold from the "
    "invasion of privacy (0.1 / 0.075 / 0.05); Pr(attack) = 1 for a public release, else the "
    "highest of the deliberate attack (controls x motives and capacity table), the acquaintance "
    "1 - (1 - p)^m and the breach rate; data risk: the maximum (public, semi-public) or the "
    "strict average (non-public)",
    "Information and Privacy Commissioner of Ontario. De-identification Guidelines for "
    "Structured Data, June 2016, steps 3-6; El Emam K. Guide to the De-Identification of "
    "Personal Health Information. CRC Press, 2013",
)
