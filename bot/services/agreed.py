"""The match an accepted offer agreed on (a challenge, a rematch): made as every new match
is (published by the game manager), unrated where the players chose so, its offer told
the match's number; if it could not be made, its offer is open again and the failure
goes on to the press that accepted."""

from __future__ import annotations

import logging
import secrets
from collections.abc import Awaitable, Callable, Sequence
from typing import Protocol

from bot.services.live import ClockSettings, LiveMatch, Occupant
from bot.services.manager import Games
from bot.services.rating_service import Ratings
from rules.modes import Settings
from storage.errors import StorageError

log = logging.getLogger(__name__)


class Plan(Protocol):
    """The game an offer agreed on."""

    @property
    def seats(self) -> Sequence[Occupant]: ...
    @property
    def settings(self) -> Settings: ...
    @property
    def clouds(self) -> str: ...
    @property
    def clock(self) -> ClockSettings: ...
    @property
    def channel_id(self) -> int: ...
    @property
    def guild_id(self) -> int | None: ...
    @property
    def rated(self) -> bool: ...


async def agreed_match(
    games: Games,
    ratings: Ratings,
    plan: Plan,
    what: str,
    reopen: Callable[[], Awaitable[None]] | None = None,
    noted: Callable[[int], Awaitable[None]] | None = None,
) -> LiveMatch:
    """``plan``'s match; ``what`` names its offer in the log. ``reopen`` opens the offer
    again when no match could be made; ``noted`` tells it the match made (a failure of
    either is logged: a late press is then told the offer is taken, or on). Neither: an
    offer never stored (the computer accepts at once)."""
    try:
        live = await games.create(
            list(plan.seats),
            plan.settings,
            channel_id=plan.channel_id,
            guild_id=plan.guild_id,
            cloud_setup=plan.clouds,
            seed=secrets.randbelow(1 << 30),
            clock=plan.clock,
        )
        if not plan.rated:  # before its board is up, so before anyone can fly
            await ratings.mark_unrated(live.id)
    except Exception:
        try:
            if reopen is not None:
                await reopen()
        except StorageError as exc:
            log.warning("%s not reopened (%s)", what, exc)
        raise
    try:
        if noted is not None:
            await noted(live.id)
    except StorageError as exc:
        log.warning("%s: its match %s not noted (%s)", what, live.id, exc)
    return live
