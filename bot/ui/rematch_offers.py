"""The book of rematch offers (:mod:`bot.ui.rematch`): one per bot, since match numbers
are per database; built once by :mod:`bot.app`. Offers live in memory, like challenges."""

from __future__ import annotations

from dataclasses import dataclass, field

import discord

from bot.ui.offers import Table
from i18n import _

KEEP_CLOSED = 1000


@dataclass
class Offer:
    """A rematch asked for by ``host`` and waiting for the people in ``waiting``."""

    id: int
    match_id: int
    host: int
    table: Table
    waiting: set[int] = field(default_factory=set)
    # the offer with its buttons: in the channel, or (anywhere) through its press's token
    message: discord.PartialMessage | discord.WebhookMessage | None = None


class RematchOffers:
    def __init__(self) -> None:
        self.pending: dict[int, Offer] = {}  # offer id → offer
        self.by_match: dict[int, int] = {}  # finished match → its pending offer
        # What became of each match's rematch (and of each closed offer), so that a
        # second or late press is told plainly instead of acting again.
        self.done: dict[int, str] = {}
        self.closed: dict[int, str] = {}

    def waiting_offer(self, match_id: int) -> Offer | None:
        return self.pending.get(self.by_match.get(match_id, 0))

    def close(self, offer: Offer, why: str) -> None:
        """Take the offer off the pending list (no await between the check and this)."""
        self.pending.pop(offer.id, None)
        self.by_match.pop(offer.match_id, None)
        _remember(self.closed, offer.id, _("this rematch offer is closed: {why}", why=why))
        self.settle(offer.match_id, _("this match's rematch was already asked for: {why}", why=why))

    def settle(self, match_id: int, why: str) -> None:
        """What a further press of the match's Rematch is told."""
        _remember(self.done, match_id, why)

    def reopen(self, match_id: int) -> None:
        """The rematch could not be made: Rematch may be pressed again."""
        self.done.pop(match_id, None)


def _remember(store: dict[int, str], key: int, why: str) -> None:
    store[key] = why
    if len(store) > KEEP_CLOSED:  # only recent presses need the reason
        del store[next(iter(store))]
