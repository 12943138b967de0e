"""JSON-ready conversion of frozen result dataclasses (private helper)."""

from __future__ import annotations

import dataclasses
import math
from typing import Any

import numpy as np


def plain(value: Any) -> Any:
    """Return ``value`` with numpy arrays, numpy scalars and tuples made JSON-ready.

    Non-finite floats become ``None`` (JSON has no NaN or infinity).
    """
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, np.ndarray):
        return [plain(v) for v in value.tolist()]
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def fields_dict(obj: Any) -> dict[str, Any]:
    """Return the dataclass ``obj`` as a JSON-ready dict."""
    return plain(obj)
