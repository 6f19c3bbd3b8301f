"""The pure scoring engine: records, agreements, validation, scoring, protocol."""

from scorer.engine.errors import RuleError

__all__ = ["RuleError"]
