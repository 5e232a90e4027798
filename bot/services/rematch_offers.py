"""The rematch offers (:mod:`bot.services.rematch`): what one is, read from its stored
row (:mod:`storage.rematches`) and the finished match it is for. Offers are stored, so
every process sees the same offer, and one survives a restart."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

from bot.services.live import ClockSettings, LiveMatch, Occupant
from rules.modes import Settings
from storage.rematches import StoredOffer

# What closed an offer: a decline, its host's withdrawal, or everyone's yes.
Closing = Literal["declined", "withdrawn", "accepted"]
# What one answer did to an offer (bot.services.events.RematchChanged).
Step = Literal["asked", "accepted", "declined", "withdrawn", "started"]


@dataclass(frozen=True)
class RematchPlan:
    """The finished match's game again: every seat's occupant (and handicap) one seat
    on, the same settings, clock and choice of rated or not, fresh clouds (random if it
    had any), in the channel the first one was started from."""

    seats: tuple[Occupant, ...]
    settings: Settings
    clouds: str
    clock: ClockSettings
    channel_id: int
    guild_id: int | None
    rated: bool

    @classmethod
    def of(cls, live: LiveMatch, rated: bool) -> RematchPlan:
        settings = live.game.settings
        handicaps = (settings.handicaps[-1], *settings.handicaps[:-1])
        return cls(
            seats=(live.seats[-1], *live.seats[:-1]),
            settings=replace(settings, handicaps=handicaps, cards=()),
            clouds="random" if live.game.clouds else "none",
            clock=live.clock,
            channel_id=live.record.channel_id,
            guild_id=live.record.guild_id,
            rated=rated,
        )


@dataclass(frozen=True)
class RematchOffer:
    """A rematch asked for by ``host`` and waiting for the people in ``waiting``."""

    id: int
    match_id: int
    host: Occupant
    plan: RematchPlan
    asked: frozenset[int]  # everyone asked, for the pings
    waiting: frozenset[int]

    @classmethod
    def of(cls, stored: StoredOffer, live: LiveMatch) -> RematchOffer:
        """The stored offer for the finished ``live`` (whose seats its plan turns)."""
        return cls(
            id=stored.id,
            match_id=stored.match_id,
            host=Occupant(stored.host_id, stored.host_name),
            plan=RematchPlan.of(live, stored.rated),
            asked=stored.asked,
            waiting=stored.waiting,
        )


@dataclass(frozen=True)
class Outcome:
    """What became of an offer: ``by``, the name of who declined; ``rematch``, the new
    match once it was made."""

    how: Closing
    by: str = ""
    rematch: int | None = None

    @classmethod
    def of(cls, stored: StoredOffer) -> Outcome | None:
        """What became of the stored offer; None while it is open."""
        if stored.status == "declined":
            return cls("declined", stored.closed_by)
        if stored.status == "withdrawn":
            return cls("withdrawn", stored.closed_by)
        if stored.status == "accepted":
            return cls("accepted", rematch=stored.rematch_id)
        return None
