"""The pure scoring engine: records, agreements, validation, scoring, protocol."""

from scorer.engine.catalog import (
    Agreements,
    Catalog,
    Group,
    Preset,
    Spec,
    catalog,
    resolve_agreements,
)
from scorer.engine.errors import RuleError

__all__ = [
    "Agreements",
    "Catalog",
    "Group",
    "Preset",
    "RuleError",
    "Spec",
    "catalog",
    "resolve_agreements",
]
