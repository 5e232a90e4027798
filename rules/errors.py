"""The errors the rules engine raises; each message is fit to show a player."""

from __future__ import annotations

from i18n import _


class RulesError(ValueError):
    """Base class: something a player or a file asked for is not possible."""


class NotationError(RulesError):
    """A token that cannot be read; names the token and says why."""

    def __init__(self, token: str, why: str) -> None:
        super().__init__(f"{token!r}: {why}")
        self.token = token
        self.why = why


class IllegalStep(RulesError):
    """A well-formed step that the rules do not allow here; says why."""

    def __init__(self, token: str, why: str) -> None:
        super().__init__(_("{token} is not allowed: {why}", token=repr(token), why=why))
        self.token = token
        self.why = why


class PositionError(RulesError):
    """Position text that cannot be read or describes an impossible position."""


class GameFileError(RulesError):
    """A game JSON document that cannot be read."""
