"""The errors storage raises; each message says what went wrong and what to do."""

from __future__ import annotations

from collections.abc import Awaitable
from pathlib import Path
from typing import TypeVar

_T = TypeVar("_T")


class StorageError(Exception):
    """Base class: the database cannot do what was asked."""


class SchemaTooNew(StorageError):
    """The file was written by a newer bot; opening it could corrupt its data."""

    def __init__(self, path: Path | str, found: int, supported: int) -> None:
        super().__init__(
            f"{path} has schema version {found} but this bot only knows versions up to "
            f"{supported}; upgrade the bot, or restore a backup made by this version"
        )
        self.path = path
        self.found = found
        self.supported = supported


class NotFound(StorageError, LookupError):
    """No stored row has that id."""


async def unless_missing(lookup: Awaitable[_T]) -> _T | None:
    """What ``lookup`` finds; None where it is not stored."""
    try:
        return await lookup
    except NotFound:
        return None


class MatchNotFound(NotFound):
    def __init__(self, match_id: int) -> None:
        super().__init__(f"no match {match_id}")
        self.match_id = match_id


class StepConflict(StorageError):
    """A step that does not follow the stored ones: a double press, a stale view of the
    game or a match that is already over. Nothing was written."""

    def __init__(self, match_id: int, ply: int, why: str) -> None:
        super().__init__(f"match {match_id}, ply {ply}: {why}")
        self.match_id = match_id
        self.ply = ply
        self.why = why


class InvalidSnapshot(StorageError, ValueError):
    """A game JSON document that storage refuses to write, so it can always load it."""


class CorruptMatch(StorageError):
    """A stored match that cannot be read back; the other matches are unaffected."""

    def __init__(self, match_id: int, why: str) -> None:
        super().__init__(f"match {match_id} cannot be loaded: {why}")
        self.match_id = match_id
        self.why = why


class MatchOver(StorageError):
    def __init__(self, match_id: int, status: str) -> None:
        super().__init__(f"match {match_id} is already {status}")
        self.match_id = match_id
        self.status = status


class Constraint(StorageError):
    """The database refused a write that breaks a rule of the schema (a duplicate key,
    a missing referenced row, the append-only step log). Nothing was written."""


class Unreadable(StorageError):
    """Stored data the database cannot read back: a damaged page, undecodable text."""
