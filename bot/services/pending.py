"""A book of offers waiting for an answer, in memory (each is short-lived, and a press
after a restart is told so politely): lobbies and series invitations
(:mod:`bot.ui.offers`)."""

from __future__ import annotations

import itertools
from typing import Generic, TypeVar

KEEP_CLOSED = 1000  # closed offers whose fate a late press is told

T = TypeVar("T")


class Pending(Generic[T]):
    """Offers of one kind waiting for an answer, by number, and what became of the
    recently closed ones, so that a late or second press is told plainly ("already
    accepted") instead of being refused in general terms."""

    def __init__(self, keep_closed: int = KEEP_CLOSED) -> None:
        self._open: dict[int, T] = {}
        self._closed: dict[int, str] = {}
        self._keep = keep_closed
        self._ids = itertools.count(1)

    def number(self) -> int:
        """A new offer's number."""
        return next(self._ids)

    def add(self, offer_id: int, offer: T) -> None:
        """Open an offer (again: one whose match could not be started is put back)."""
        self._closed.pop(offer_id, None)
        self._open[offer_id] = offer

    def get(self, offer_id: int) -> T | None:
        return self._open.get(offer_id)

    def waiting(self) -> list[T]:
        """The open offers, oldest first."""
        return list(self._open.values())

    def why_closed(self, offer_id: int) -> str | None:
        return self._closed.get(offer_id)

    def close(self, offer_id: int, why: str) -> None:
        """Take the offer off the book, with no await between the caller's check and
        this: of two presses racing to act on one offer, only the first gets past."""
        self._open.pop(offer_id, None)
        self._closed[offer_id] = why
        if len(self._closed) > self._keep:  # only recent presses need the reason
            del self._closed[next(iter(self._closed))]
