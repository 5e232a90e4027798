"""Rematch: a player of a finished match asks for the same game again; the others of its
people each accept or decline; when every one of them has accepted (at once, against
the computer alone), a new match is made with the same settings and clock, each player
one seat on (in a duel, the two swap seats and so who flies first), fresh clouds.

The offers live in memory (:mod:`bot.services.rematch_offers`), like challenges. A match
gets one rematch: once an offer is accepted, declined or withdrawn, a further ask is told
what became of it. Every step is published (:class:`~bot.services.events.RematchChanged`):
the match's thread posts the offer and settles it, opening the new match's thread; the
live board shows it on every page of the match. Both surfaces ask through this service,
which checks each press (only the match's players, only after a result, one rematch per
match, an answer only from those asked) and changes the book with no await between its
last check and the change, so of two presses racing only one acts.
"""

from __future__ import annotations

import itertools
import secrets

from bot.services.events import RematchChanged
from bot.services.live import LiveMatch, Occupant
from bot.services.manager import Games
from bot.services.rating_service import Ratings
from bot.services.refusal import Refusal
from bot.services.rematch_offers import Outcome, RematchBook, RematchOffer, RematchPlan, Step
from bot.services.series import AchievementSeries
from i18n import _


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
    def __init__(self, games: Games, ratings: Ratings, series: AchievementSeries) -> None:
        self.games = games
        self.ratings = ratings
        self.series = series
        self.book = RematchBook()
        self._ids = itertools.count(1)

    async def offered(self, live: LiveMatch) -> bool:
        """Whether a finished match has a rematch to ask for: one people played (none of
        them forgotten at their request), outside any series or tournament (those set up
        their next games themselves)."""
        people = [e.user_id for e in live.seats if e.user_id is not None]
        if not people or min(people) < 0:  # a forgotten pilot has nobody left to ask
            return False
        return await self.series.series_of_match(live.id) is None

    def check(self, live: LiveMatch, user_id: int) -> None:
        """Why ``user_id`` may not ask for ``live``'s rematch now, if they may not."""
        if not live.game.is_over or live.aborted:
            raise Refusal(_("a rematch can be asked for only once the game has a result"))
        if not live.seats_of(user_id):
            raise Refusal(_("only the players of this match can ask for its rematch"))
        if any(e.user_id is not None and e.user_id < 0 for e in live.seats):
            raise Refusal(_("a pilot of this match was forgotten at their request: no rematch"))
        outcome = self.book.outcome(live.id)
        if outcome is not None:
            raise Refusal(told_again(outcome))
        pending = self.book.waiting_offer(live.id)
        if pending is not None and user_id not in pending.waiting:
            raise Refusal(_("you have already asked for this rematch: waiting for an answer"))

    def waiting_offer(self, match_id: int) -> RematchOffer | None:
        return self.book.waiting_offer(match_id)

    def outcome(self, match_id: int) -> Outcome | None:
        return self.book.outcome(match_id)

    def addressed(self, offer_id: int, user_id: int, op: str) -> RematchOffer:
        """The open offer ``offer_id`` (a number a press carries, which may be forged),
        if ``user_id`` may answer it with ``op`` (its host may only withdraw it)."""
        offer = self.book.pending.get(offer_id)
        if offer is None:
            closed = self.book.closed(offer_id)
            if closed is not None:
                raise Refusal(_("this rematch offer is closed: {why}", why=why(closed)))
            raise Refusal(
                _("this rematch offer is no longer open (the bot restarted): press Rematch again")
            )
        if user_id not in offer.waiting and not (op == "decline" and user_id == offer.host.user_id):
            raise Refusal(_("this rematch offer is not addressed to you"))
        return offer

    async def ask(self, live: LiveMatch, user_id: int, via: object = None) -> Step:
        """``user_id`` asks for ``live``'s rematch: an offer to the others (``asked``),
        a yes to theirs if they asked first, or, with only the computer to ask, the new
        match at once (``started``). ``via``: the press, for the surfaces."""
        self.check(live, user_id)
        if not await self.offered(live):
            raise Refusal(_("a game of a series or tournament has no rematch"))
        rated = not await self.ratings.chosen_unrated(live.id)
        self.check(live, user_id)  # again, after the awaits: another press may have come
        pending = self.book.waiting_offer(live.id)
        me = Occupant(user_id, live.seats[live.seats_of(user_id)[0]].name)
        if pending is not None:  # the other side asked too: that is a yes
            return await self._accept(live, pending, me, via)
        others = {e.user_id for e in live.seats if e.user_id is not None and e.user_id != user_id}
        offer = RematchOffer(
            id=next(self._ids),
            match_id=live.id,
            host=me,
            plan=RematchPlan.of(live, rated),
            asked=frozenset(others),
            waiting=set(others),
        )
        if not offer.waiting:  # only the computer to ask
            self.book.close(offer, Outcome("accepted"))
            return await self._start(live, offer, me, via)
        self.book.open(offer)
        await self.games.events.publish(RematchChanged(live, offer, "asked", me, via=via))
        return "asked"

    async def answer(
        self, live: LiveMatch, offer_id: int, by: Occupant, op: str, via: object = None
    ) -> Step:
        """``by`` accepts or declines (its host: withdraws) the offer ``offer_id`` of the
        finished ``live``: checked again, then changed, without an await in between."""
        assert by.user_id is not None, "only people answer"
        offer = self.addressed(offer_id, by.user_id, op)
        if offer.match_id != live.id:  # a number from another match's offer
            raise Refusal(_("this rematch offer is not addressed to you"))
        if op != "decline":
            return await self._accept(live, offer, by, via)
        withdrawn = by.user_id == offer.host.user_id
        self.book.close(offer, Outcome("withdrawn" if withdrawn else "declined", by.name))
        step: Step = "withdrawn" if withdrawn else "declined"
        await self.games.events.publish(RematchChanged(live, offer, step, by, via=via))
        return step

    async def _accept(
        self, live: LiveMatch, offer: RematchOffer, by: Occupant, via: object
    ) -> Step:
        assert by.user_id is not None, "only people answer"
        offer.waiting.discard(by.user_id)
        if offer.waiting:
            await self.games.events.publish(RematchChanged(live, offer, "accepted", by, via=via))
            return "accepted"
        self.book.close(offer, Outcome("accepted"))
        return await self._start(live, offer, by, via)

    async def _start(self, live: LiveMatch, offer: RematchOffer, by: Occupant, via: object) -> Step:
        """The rematch made (published by the game manager as any new match), then shown
        by its surfaces; if it could not be made, Rematch may be asked again."""
        plan = offer.plan
        try:
            rematch = await self.games.create(
                list(plan.seats),
                plan.settings,
                channel_id=plan.channel_id,
                guild_id=plan.guild_id,
                cloud_setup=plan.clouds,
                seed=secrets.randbelow(1 << 30),
                clock=plan.clock,
            )
            if not plan.rated:  # before its board is up, so before anyone can fly
                await self.ratings.mark_unrated(rematch.id)
        except Exception:
            self.book.reopen(offer.match_id)
            raise
        self.book.made(offer, rematch.id)
        await self.games.events.publish(
            RematchChanged(live, offer, "started", by, rematch=rematch, via=via)
        )
        return "started"
