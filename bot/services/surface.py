"""How a match is shown, as the domain sees it: a :class:`Surface`, chosen once per match.

The domain publishes what happened to a match (:mod:`bot.services.events`); the surface
of that match shows it. In Discord a match is shown in its thread, or in one message
where the bot can only answer (the Discord layer's surfaces); a test shows it on a
recording surface. :class:`Shown` is the subscriber that hands each event to the surface of its
match, subscribed where the bot is put together in the place of the order it needs.
"""

from __future__ import annotations

from typing import Protocol

from bot.services.events import Acted, MatchAborted, MatchFinished
from bot.services.live import LiveMatch


class Surface(Protocol):
    """How one match is shown."""

    @property
    def at_once(self) -> bool:
        """Whether the computer's turns are flown within the action that passed it the
        turn, and shown with it (a board that only a press can change), rather than
        one plane action at a time, each shown as it is flown."""
        ...

    async def acted(self, event: Acted) -> None:
        """Bring the board up to date after an action that did not end the match, with
        the action's notes (``event.update.noted()``: a takeback, a vacation)."""
        ...

    async def finished(self, event: MatchFinished) -> None:
        """The final board: the result, then the ratings line (each shown once)."""
        ...

    async def aborted(self, event: MatchAborted) -> None:
        """The board says the match was called off."""
        ...


class Surfaces(Protocol):
    def of(self, live: LiveMatch) -> Surface:
        """The surface ``live`` is shown on (the same every time it is asked)."""
        ...


class Shown:
    """The bus's subscriber that shows each event on its match's surface."""

    def __init__(self, surfaces: Surfaces) -> None:
        self.surfaces = surfaces

    async def acted(self, event: Acted) -> None:
        await self.surfaces.of(event.match).acted(event)

    async def finished(self, event: MatchFinished) -> None:
        await self.surfaces.of(event.match).finished(event)

    async def aborted(self, event: MatchAborted) -> None:
        await self.surfaces.of(event.match).aborted(event)
