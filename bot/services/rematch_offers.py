"""The rematch offers (:mod:`bot.services.rematch`): what one is, and the book that keeps
them. Offers live in memory, like challenges: after a restart, Rematch is asked again."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Literal

from bot.services.live import ClockSettings, LiveMatch, Occupant
from rules.modes import Settings

KEEP_CLOSED = 1000  # closed offers and matches whose fate a late press is told

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


@dataclass
class RematchOffer:
    """A rematch asked for by ``host`` and waiting for the people in ``waiting``."""

    id: int
    match_id: int
    host: Occupant
    plan: RematchPlan
    asked: frozenset[int]  # everyone asked, for the pings
    waiting: set[int] = field(default_factory=set)


@dataclass(frozen=True)
class Outcome:
    """What became of an offer: ``by``, the name of who declined; ``rematch``, the new
    match once it was made."""

    how: Closing
    by: str = ""
    rematch: int | None = None


class RematchBook:
    """The open offers, one per finished match at most, and what became of the recent
    ones, so that a second or late press is told plainly instead of acting again."""

    def __init__(self) -> None:
        self.pending: dict[int, RematchOffer] = {}  # offer id → offer
        self._by_match: dict[int, int] = {}  # finished match → its pending offer
        self._done: dict[int, Outcome] = {}  # finished match → its rematch's fate
        self._closed: dict[int, Outcome] = {}  # offer id → its fate

    def waiting_offer(self, match_id: int) -> RematchOffer | None:
        return self.pending.get(self._by_match.get(match_id, 0))

    def open(self, offer: RematchOffer) -> None:
        self.pending[offer.id] = offer
        self._by_match[offer.match_id] = offer.id

    def close(self, offer: RematchOffer, outcome: Outcome) -> None:
        """Take the offer off the book (no await between the caller's check and this)."""
        self.pending.pop(offer.id, None)
        self._by_match.pop(offer.match_id, None)
        _remember(self._closed, offer.id, outcome)
        _remember(self._done, offer.match_id, outcome)

    def made(self, offer: RematchOffer, rematch: int) -> None:
        """The accepted offer's match was made: a further press is pointed to it."""
        outcome = Outcome("accepted", rematch=rematch)
        _remember(self._closed, offer.id, outcome)
        _remember(self._done, offer.match_id, outcome)

    def reopen(self, match_id: int) -> None:
        """The rematch could not be made: Rematch may be asked again."""
        self._done.pop(match_id, None)

    def outcome(self, match_id: int) -> Outcome | None:
        return self._done.get(match_id)

    def closed(self, offer_id: int) -> Outcome | None:
        return self._closed.get(offer_id)


def _remember(store: dict[int, Outcome], key: int, outcome: Outcome) -> None:
    store.pop(key, None)  # to the end: the oldest go first
    store[key] = outcome
    if len(store) > KEEP_CLOSED:  # only recent presses need the reason
        del store[next(iter(store))]
