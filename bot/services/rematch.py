"""Rematch: a player of a finished match asks for the same game again; the others of its
people each accept or decline; when every one of them has accepted (at once, against
the computer alone), a new match is made with the same settings and clock, each player
one seat on (in a duel, the two swap seats and so who flies first), fresh clouds.

The offers are stored (:mod:`storage.rematches`), so every process of a sharded bot
answers the same offer and an offer outlives a restart. A match gets one rematch: once
an offer is accepted, declined or withdrawn, a further ask is told what became of it.
Every step is published (:class:`~bot.services.events.RematchChanged`): the match's
thread posts the offer and settles it, opening the new match's thread; the live board
shows it on every page of the match (a page served by another process, within its
follow period). Both surfaces ask through this service, which checks each press (only
the match's players, only after a result, one rematch per match, an answer only from
those asked) and changes the offer by a conditional write on it still being open (and
the presser still waited for), so of two presses racing, in one process or two, only
one acts: the other is told what became of the offer.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable
from typing import TypeVar

from bot.services.agreed import agreed_match
from bot.services.events import RematchChanged
from bot.services.live import LiveMatch, Occupant
from bot.services.manager import Games
from bot.services.rating_service import Ratings
from bot.services.refusal import Refusal, stored
from bot.services.rematch_offers import Outcome, RematchOffer, Step
from bot.services.series import AchievementSeries
from i18n import _
from storage.errors import StorageError
from storage.rematches import RematchRepo, StoredOffer

log = logging.getLogger(__name__)
T = TypeVar("T")


def why(outcome: Outcome) -> str:
    """What closed an offer, in words."""
    if outcome.how == "withdrawn":
        return _("it was withdrawn")
    if outcome.how == "declined":
        return _("it was declined by {name}", name=outcome.by)
    return _("the rematch is on")


def told_again(outcome: Outcome) -> str:
    """What a further ask for a match's rematch is told."""
    if outcome.rematch is not None:
        where = _("match #{id}", id=outcome.rematch)
        return _("this match's rematch is already on: {where}", where=where)
    return _("this match's rematch was already asked for: {why}", why=why(outcome))


class Rematches:
    def __init__(
        self, games: Games, ratings: Ratings, series: AchievementSeries, repo: RematchRepo
    ) -> None:
        self.games = games
        self.ratings = ratings
        self.series = series
        self.repo = repo

    async def offered(self, live: LiveMatch) -> bool:
        """Whether a finished match has a rematch to ask for: one people played (none of
        them forgotten at their request), outside any series or tournament (those set up
        their next games themselves)."""
        people = [e.user_id for e in live.seats if e.user_id is not None]
        if not people or min(people) < 0:  # a forgotten pilot has nobody left to ask
            return False
        return await self.series.series_of_match(live.id) is None

    async def check(self, live: LiveMatch, user_id: int) -> StoredOffer | None:
        """Why ``user_id`` may not ask for ``live``'s rematch now, if they may not; else
        the offer they would answer by asking, if the others asked first."""
        if not live.game.is_over or live.aborted:
            raise Refusal(_("a rematch can be asked for only once the game has a result"))
        if not live.seats_of(user_id):
            raise Refusal(_("only the players of this match can ask for its rematch"))
        if any(e.user_id is not None and e.user_id < 0 for e in live.seats):
            raise Refusal(_("a pilot of this match was forgotten at their request: no rematch"))
        stored = await self._stored(self.repo.of_match(live.id))
        if stored is None:
            return None
        outcome = Outcome.of(stored)
        if outcome is not None:
            raise Refusal(told_again(outcome))
        if user_id not in stored.waiting:
            raise Refusal(_("you have already asked for this rematch: waiting for an answer"))
        return stored

    async def shown(self, live: LiveMatch) -> tuple[RematchOffer | None, Outcome | None]:
        """The finished ``live``'s open offer, or what became of its rematch, as stored."""
        stored = await self._stored(self.repo.of_match(live.id))
        if stored is None:
            return None, None
        outcome = Outcome.of(stored)
        return (RematchOffer.of(stored, live) if outcome is None else None), outcome

    async def waiting_offer(self, live: LiveMatch) -> RematchOffer | None:
        return (await self.shown(live))[0]

    async def addressed(self, offer_id: int, user_id: int, op: str) -> StoredOffer:
        """The open offer ``offer_id`` (a number a press carries, which may be forged),
        if ``user_id`` may answer it with ``op`` (its host may only withdraw it)."""
        stored = await self._stored(self.repo.get(offer_id))
        if stored is None or stored.status == "lapsed":
            raise Refusal(_("this rematch offer is no longer open: press Rematch again"))
        closed = Outcome.of(stored)
        if closed is not None:
            raise Refusal(_("this rematch offer is closed: {why}", why=why(closed)))
        if user_id not in stored.waiting and not (op == "decline" and user_id == stored.host_id):
            raise Refusal(_("this rematch offer is not addressed to you"))
        return stored

    async def placed(self, offer: RematchOffer, channel_id: int, message_id: int) -> None:
        """Where the offer's message was posted, for whichever process settles it."""
        await self._stored(self.repo.placed(offer.id, channel_id, message_id))

    async def message_of(self, offer: RematchOffer) -> tuple[int, int] | None:
        """The channel and message the offer was posted as, if noted (by any process)."""
        try:
            stored = await self.repo.get(offer.id)
        except StorageError as exc:
            log.warning("rematch offer %s: its message not read (%s)", offer.id, exc)
            return None
        return None if stored is None else stored.message

    async def ask(self, live: LiveMatch, user_id: int, via: object = None) -> Step:
        """``user_id`` asks for ``live``'s rematch: an offer to the others (``asked``),
        a yes to theirs if they asked first, or, with only the computer to ask, the new
        match at once (``started``). ``via``: the press, for the surfaces."""
        await self.check(live, user_id)
        if not await self.offered(live):
            raise Refusal(_("a game of a series or tournament has no rematch"))
        rated = not await self.ratings.chosen_unrated(live.id)
        me = Occupant(user_id, live.seats[live.seats_of(user_id)[0]].name)
        others = {e.user_id for e in live.seats if e.user_id is not None and e.user_id != user_id}
        opened = await self._stored(self.repo.open(live.id, user_id, me.name, rated, others))
        if opened is None:  # the others asked first (perhaps meanwhile): that is a yes
            pending = await self.check(live, user_id)
            if pending is None:  # gone meanwhile (its match could not be made)
                raise Refusal(_("this rematch offer is no longer open: press Rematch again"))
            return await self._accept(live, pending.id, me, via)
        offer = RematchOffer.of(opened, live)
        if opened.status == "accepted":  # only the computer to ask
            return await self._start(live, offer, me, via)
        await self.games.events.publish(RematchChanged(live, offer, "asked", me, via=via))
        return "asked"

    async def answer(
        self, live: LiveMatch, offer_id: int, by: Occupant, op: str, via: object = None
    ) -> Step:
        """``by`` accepts or declines (its host: withdraws) the offer ``offer_id`` of the
        finished ``live``: checked, then changed only if still as checked."""
        assert by.user_id is not None, "only people answer"
        stored = await self.addressed(offer_id, by.user_id, op)
        if stored.match_id != live.id:  # a number from another match's offer
            raise Refusal(_("this rematch offer is not addressed to you"))
        if op != "decline":
            return await self._accept(live, offer_id, by, via)
        step: Step = "withdrawn" if by.user_id == stored.host_id else "declined"
        if not await self._stored(self.repo.close(offer_id, step, by.name)):
            await self._late(offer_id, by.user_id, op)
        offer = RematchOffer.of(stored, live)
        await self.games.events.publish(RematchChanged(live, offer, step, by, via=via))
        return step

    async def _accept(self, live: LiveMatch, offer_id: int, by: Occupant, via: object) -> Step:
        assert by.user_id is not None, "only people answer"
        stored = await self._stored(self.repo.accept(offer_id, by.user_id))
        if stored is None:
            await self._late(offer_id, by.user_id, "accept")
        assert stored is not None
        offer = RematchOffer.of(stored, live)
        if stored.status == "open":
            await self.games.events.publish(RematchChanged(live, offer, "accepted", by, via=via))
            return "accepted"
        return await self._start(live, offer, by, via)

    async def _late(self, offer_id: int, user_id: int, op: str) -> None:
        """A press that lost the race to another: told what became of the offer."""
        await self.addressed(offer_id, user_id, op)
        raise Refusal(_("this rematch offer is not addressed to you"))

    async def _start(self, live: LiveMatch, offer: RematchOffer, by: Occupant, via: object) -> Step:
        """The rematch made (published by the game manager as any new match), recorded
        with its offer, then shown by its surfaces; if it could not be made, Rematch may
        be asked again."""
        rematch = await agreed_match(
            self.games,
            self.ratings,
            offer.plan,
            f"the rematch offer {offer.id} of match {live.id}",
            lambda: self.repo.lapse(offer.id),
            lambda made: self.repo.made(offer.id, made),
        )
        await self.games.events.publish(
            RematchChanged(live, offer, "started", by, rematch=rematch, via=via)
        )
        return "started"

    async def _stored(self, write: Awaitable[T]) -> T:
        return await stored(write, "a rematch offer")
