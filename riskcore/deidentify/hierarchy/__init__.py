"""Generalization hierarchies: for each value of a column, its label at every level.

A hierarchy of height h maps every value (a leaf) to one label per level
0..h: level 0 is the value itself, each level groups the groups of the level
below (it is a coarsening: two values with the same label at level l share it
at every higher level), and the top level is usually ``"*"`` (one group).
This is ARX's value generalization hierarchy (Prasser et al. 2014, the
``HierarchyBuilder*`` family): full-domain generalization recodes a column by
replacing each value with its label at one level.

Modules:

* :mod:`~riskcore.deidentify.hierarchy.base`: the :class:`Hierarchy` type;
* :mod:`~riskcore.deidentify.hierarchy.builders`: :func:`interval_hierarchy`
  (nested bands of growing width, "30-34", "30-39", ..., with optional bottom
  and top coding "<18", "90+", range or interval labels) and
  :func:`banded_hierarchy` (round widths, doubling); :func:`prefix_hierarchy`
  (codes such as ZIP codes masked from the right, "02139", "0213*", ...,
  or the left, or cut to their first characters "02139*", "021*" whatever
  their length, leading zeros kept); :func:`grouping_hierarchy` (user-given groups per
  level); :func:`flat_hierarchy` (the value or ``"*"``);
* :mod:`~riskcore.deidentify.hierarchy.dates`: :func:`detect_date_format`
  (ISO, US, European, with times) and :func:`date_hierarchy` (day, week,
  month, quarter, year, 5 years, decade);
* :mod:`~riskcore.deidentify.hierarchy.grammar`: the builder string of the
  CLI (``interval:5,10,20;top=90``, ``date:month,year``, ``mask:1,2,3``):
  :func:`parse_builder`, :func:`builder_string`;
* :mod:`~riskcore.deidentify.hierarchy.level_groups`: :func:`preview`, the groups
  of every level and their sizes in the data;
* :mod:`~riskcore.deidentify.hierarchy.tables`: ARX's CSV format
  (:func:`read_arx_hierarchy`, :func:`load_arx_hierarchy`,
  :meth:`Hierarchy.to_arx_csv`), a table edited by the user
  (:func:`hierarchy_from_table`), and a recipe's spec built again
  (:func:`hierarchy_from_spec`);
* :mod:`~riskcore.deidentify.hierarchy.defaults`: :func:`default_hierarchy`
  when the user gave none, and :func:`builtin_hierarchy` (UCI Adult's census
  categories);
* :mod:`~riskcore.deidentify.hierarchy.words`: a level in words
  (:func:`level_words`: "10-year bands", "year", "removed (*)").

A missing value stays missing at every level: it is already the least precise
value, and it remains one more value of its column (no record is dropped).
"""

from __future__ import annotations

from riskcore.deidentify.hierarchy.base import TOP, Hierarchy, at_leaves
from riskcore.deidentify.hierarchy.builders import (
    banded_hierarchy,
    date_hierarchy,
    flat_hierarchy,
    grouping_hierarchy,
    interval_hierarchy,
    prefix_hierarchy,
)
from riskcore.deidentify.hierarchy.dates import (
    DATE_LEVELS,
    DateFormat,
    date_labels,
    detect_date_format,
)
from riskcore.deidentify.hierarchy.defaults import builtin_hierarchy, default_hierarchy
from riskcore.deidentify.hierarchy.grammar import BUILDER_KINDS, builder_string, parse_builder
from riskcore.deidentify.hierarchy.level_groups import HierarchyPreview, LevelGroups, preview
from riskcore.deidentify.hierarchy.tables import (
    ARX_MAX_BYTES,
    REBUILDERS,
    check_covers,
    hierarchy_from_spec,
    hierarchy_from_table,
    load_arx_hierarchy,
    read_arx_hierarchy,
    rebuild,
)
from riskcore.deidentify.hierarchy.words import LEVEL_WORDS, level_words

__all__ = [
    "ARX_MAX_BYTES",
    "BUILDER_KINDS",
    "DATE_LEVELS",
    "LEVEL_WORDS",
    "REBUILDERS",
    "TOP",
    "DateFormat",
    "Hierarchy",
    "HierarchyPreview",
    "LevelGroups",
    "at_leaves",
    "banded_hierarchy",
    "builder_string",
    "builtin_hierarchy",
    "check_covers",
    "date_hierarchy",
    "date_labels",
    "default_hierarchy",
    "detect_date_format",
    "flat_hierarchy",
    "grouping_hierarchy",
    "hierarchy_from_spec",
    "hierarchy_from_table",
    "interval_hierarchy",
    "level_words",
    "load_arx_hierarchy",
    "parse_builder",
    "prefix_hierarchy",
    "preview",
    "read_arx_hierarchy",
    "rebuild",
]
