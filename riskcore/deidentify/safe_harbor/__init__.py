"""HIPAA Safe Harbor (45 CFR 164.514(b)(2)): the 18-category checklist and the standard transforms.

:func:`safe_harbor_check` lists, for each of the 18 identifier categories
(A)-(R) of 164.514(b)(2)(i), the columns of a table that hold it and how they
were found, the status of every text column's free text, and a verdict: pass,
or what remains. Columns are recognised by the one rule of
:func:`riskcore.roles.suggest_roles` (each suggestion carries its category
letters as data), by the built-in free-text scan
(:func:`riskcore.freetext.scan_text`, every text column whatever its role),
plus the columns the user tagged as direct identifiers; nothing here is a
second rule. A text column whose text was not fully scanned never passes.

The standard transforms keep what Safe Harbor allows:

- :func:`zip_to_zip3`: the first 3 digits of a ZIP code, ``000`` for the
  areas of 20,000 people or fewer (:data:`RESTRICTED_ZIP3`);
- :func:`ages_to_90_plus`: ages over 89 become one category ``"90+"``;
- :func:`dates_to_year`: dates become their year; birth years implying an
  age over 89 become one category;
- :func:`redact_text`: identifiers written inside free text become
  placeholders.

:func:`apply_safe_harbor` applies them to every column the rule recognises and
drops the other identifier columns. The checklist cannot see (ii), the
requirement that the covered entity have no actual knowledge that the rest
could identify someone, nor identifiers that look like nothing in particular
(device serials, photographs), nor names written in free text; the notes say
so.

categories
    :data:`CATEGORIES`, :data:`RESTRICTED_ZIP3`.
transforms
    :class:`TransformStep`, :class:`SafeHarborTransform` and the transforms.
check
    :class:`CategoryFinding`, :class:`SafeHarborCheck`, :func:`safe_harbor_check`.
plan
    :func:`safe_harbor_plan`, :func:`run_safe_harbor`, :func:`apply_safe_harbor`.
"""

from __future__ import annotations

from riskcore.deidentify.safe_harbor.categories import (
    CATEGORIES,
    RESTRICTED_ZIP3,
    RESTRICTED_ZIP3_YEAR,
)
from riskcore.deidentify.safe_harbor.check import (
    CategoryFinding,
    SafeHarborCheck,
    safe_harbor_check,
)
from riskcore.deidentify.safe_harbor.plan import (
    apply_safe_harbor,
    run_safe_harbor,
    safe_harbor_plan,
)
from riskcore.deidentify.safe_harbor.transforms import (
    SafeHarborStep,
    SafeHarborTransform,
    TransformStep,
    ages_to_90_plus,
    dates_to_year,
    redact_text,
    safe_harbor_step,
    zip_to_zip3,
)

__all__ = [
    "CATEGORIES",
    "RESTRICTED_ZIP3",
    "RESTRICTED_ZIP3_YEAR",
    "CategoryFinding",
    "SafeHarborCheck",
    "SafeHarborStep",
    "SafeHarborTransform",
    "TransformStep",
    "ages_to_90_plus",
    "apply_safe_harbor",
    "dates_to_year",
    "redact_text",
    "run_safe_harbor",
    "safe_harbor_check",
    "safe_harbor_plan",
    "safe_harbor_step",
    "zip_to_zip3",
]
