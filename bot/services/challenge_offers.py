"""A challenge as the domain keeps it (:mod:`bot.services.challenges`) and its steps, on
their own so that the events can name them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from bot.services.live import ClockSettings, Occupant
from rules.modes import Settings

ChallengeStep = Literal["asked", "declined", "withdrawn", "started"]


@dataclass
class Challenge:
    """A duel offered by ``host`` to ``invited``: played in ``channel_id`` (the match's
    thread hangs off it), asked in ``asked_in`` (that channel, or a thread of it where
    the live board was opened)."""

    id: int
    host: Occupant
    invited: Occupant
    settings: Settings
    clouds: str
    clock: ClockSettings
    channel_id: int
    guild_id: int | None
    rated: bool
    asked_in: int
    # where its message was posted (channel, message), for whichever surface settles it
    message: tuple[int, int] | None = None

    def involves(self, user_id: int) -> bool:
        return user_id in (self.host.user_id, self.invited.user_id)
