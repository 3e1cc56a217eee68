"""The reference engine's error for an illegal action."""

from __future__ import annotations


class RuleError(ValueError):
    """An illegal action. The message names the rule it breaks; the state is unchanged."""
