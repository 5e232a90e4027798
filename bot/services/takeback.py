"""Takebacks in unrated games: a player returns the game to the start of their latest
turn, once every other person in it has agreed (the computer always agrees).

Only games no rating depends on allow one (docs/correspondence.md): a game with the
computer or with handicap tokens, or one its players chose to leave unrated, outside any
series or tournament (whose games count for cards and standings). The game in memory
and in storage go back together (:class:`storage.takebacks.TakebackRepo`), under the
match's lock, and only from the ply the takeback was asked at: a step flown in between
makes the request stale, and so does another takeback done since. A takeback is a
stored request with its own id, answered only by the people it asks. Each step is
published (:class:`~bot.services.events.TakebackChanged`), whichever surface acted: the
thread and the live board show it.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable
from dataclasses import dataclass
from typing import TypeVar

from bot.services.events import TakebackChanged, TakebackStep
from bot.services.live import LiveMatch, Update
from bot.services.manager import Games, _snapshot
from bot.services.refusal import Refusal, stored
from bot.services.series import AchievementSeries
from i18n import _, n_
from rules import serialize
from storage.errors import StepConflict, StorageError
from storage.takebacks import Answer, Position, Takeback, TakebackRepo
from storage.unrated import UnratedRepo

__all__ = ["Answer", "Takeback", "Takebacks"]  # the surfaces read a request from here
log = logging.getLogger(__name__)
T = TypeVar("T")
# What each answer stored did, as published (a stale one is refused before).
_STEPS: dict[Answer, TakebackStep] = {
    Answer.DONE: "done",
    Answer.WAITING: "accepted",
    Answer.DECLINED: "declined",
}


@dataclass(frozen=True)
class Takebacks:
    games: Games
    series: AchievementSeries
    repo: TakebackRepo
    unrated: UnratedRepo

    async def askable(self, live: LiveMatch, user_id: int) -> None:
        """Why ``user_id`` cannot ask for a takeback in ``live``, if they cannot."""
        self.has_a_turn_to_take_back(live, user_id)
        rated_why = await self.rated_reason(live)
        if rated_why:
            raise Refusal(_("takebacks are only for unrated games, and {why}", why=rated_why))

    def has_a_turn_to_take_back(self, live: LiveMatch, user_id: int) -> None:
        """Why ``user_id`` has nothing in ``live`` to take back, if they have not: the
        part of :meth:`askable` that asks nothing of storage."""
        if live.over:
            raise Refusal(live.over_text())
        seats = live.seats_of(user_id)
        if not seats:
            raise Refusal(_("you are not playing in this match"))
        if not any(p.seat in seats for p in live.game.history):
            raise Refusal(_("you have not flown a turn yet: there is nothing to take back"))

    async def request(
        self, live: LiveMatch, user_id: int, via: object = None
    ) -> tuple[Takeback, Update | None]:
        """Ask for a takeback (:meth:`ask`); with nobody but the computer to ask, it
        agrees at once, and the update of the takeback done comes with it (to be shown
        by the match's life, as any action's)."""
        asked = await self.ask(live, user_id, via)
        if asked.asked:
            return asked, None
        await self.answer(asked, None, yes=True, via=via)
        return asked, await self.update(asked)

    async def ask(self, live: LiveMatch, user_id: int, via: object = None) -> Takeback:
        """Store a takeback of ``user_id``'s latest turn, asked now, and publish it; or
        say why it cannot be asked."""
        await self.askable(live, user_id)
        seats = live.seats_of(user_id)
        async with live.lock:  # the ply and the turn it goes back to, read together
            mine = [i for i, p in enumerate(live.game.history) if p.seat in seats]
            if live.over or not mine:  # ended, or taken back, while it was asked
                raise Refusal(_("the game has moved on since the takeback was asked for"))
            last = live.game.history[mine[-1]]
            start = next(
                i
                for i, p in enumerate(live.game.history)
                if p.seat == last.seat and p.turn == last.turn
            )
            others = {e.user_id for e in live.seats if e.user_id not in (None, user_id)}
            asked = await self._stored(self.repo.ask(live.id, user_id, live.ply, start, others))
        await self.games.events.publish(TakebackChanged(live, asked, "asked", user_id, via))
        return asked

    async def standing(self, live: LiveMatch) -> Takeback | None:
        """The request a page of ``live`` shows: the latest open one asked at its ply
        (None if none, or if storage cannot tell now: shown with the next state)."""
        try:
            return await self.repo.open_at(live.id, live.ply)
        except StorageError as exc:
            log.info("match %s: its takeback request not read (%s)", live.id, exc)
            return None

    async def find(self, takeback_id: int) -> Takeback:
        """An open takeback, by the id its buttons carry (which may be forged)."""
        found = await self._stored(self.repo.get(takeback_id))
        if found is None or found.status != "open":
            raise Refusal(_("this takeback request is out of date: the game has moved on"))
        return found

    def check(self, live: LiveMatch, takeback: Takeback, user_id: int) -> None:
        """Refuse an answer by someone not asked, or to a takeback the game left behind."""
        if user_id not in takeback.asked:
            raise Refusal(_("this takeback request is not addressed to you"))
        if live.over or live.ply != takeback.at_ply:
            raise Refusal(_("this takeback request is out of date: the game has moved on"))

    async def answer(
        self, takeback: Takeback, user_id: int | None, yes: bool, via: object = None
    ) -> Answer:
        """Record an answer and, with the last yes, return the match to where the
        takeback goes, in storage and then in memory: under the match's lock, so that
        no move is stored in between, and only while the match is at the ply the
        takeback was asked at (a move acknowledged is never taken back)."""
        live = await self.games.get(takeback.match_id)
        async with live.lock:
            if user_id is not None:
                self.check(live, takeback, user_id)
            data = serialize.to_dict(live.game)
            data["steps"] = data["steps"][: takeback.to_ply]
            game = serialize.from_dict(data)
            per_turn = live.clock.per_turn
            deadline = None if per_turn is None else self.games.clock.now() + per_turn
            there = Position(_snapshot(game, live.seats), game.to_move, deadline)
            try:
                said = await self.repo.answer(takeback.id, user_id, yes, there)
            except StepConflict:
                said = Answer.STALE
            except StorageError as exc:  # rolled back whole: memory is still as stored
                log.warning("match %s: takeback not stored (%s)", live.id, exc)
                raise Refusal(
                    _("that could not be saved, so nothing changed; please try again in a moment")
                ) from None
            if said is Answer.STALE:
                raise Refusal(_("this takeback request is out of date: the game has moved on"))
            if said is Answer.DONE:
                live.game = game
                live.deadline = deadline
                live.reminded = False
                live.draw_offers.clear()
                live.computer_plan.clear()
        step = _STEPS[said]
        await self.games.events.publish(TakebackChanged(live, takeback, step, user_id, via))
        return said

    async def update(self, takeback: Takeback) -> Update:
        """What a takeback done did: the game back at an earlier turn, said to the
        person who acted and noted on the board (in its own language)."""
        live = await self.games.get(takeback.match_id)
        taken = takeback.at_ply - takeback.to_ply
        who = live.who(live.seats_of(takeback.asker_id)[0])

        def said() -> str:
            return "↩️ " + n_(
                "{who} took back their last turn ({n} step).",
                "{who} took back their last turn ({n} steps).",
                taken,
                who=who,
            )

        return Update(live, (), [said()], notes=(said,))

    async def _stored(self, write: Awaitable[T]) -> T:
        return await stored(write, "a takeback")

    async def rated_reason(self, live: LiveMatch) -> str:
        """Why the game counts for something (a rating, a series), or "" if it does not."""
        if await self.series.series_of_match(live.id) is not None:
            return _("this game counts for its series or tournament")
        computer = any(e.user_id is None for e in live.seats)
        if computer or any(live.game.settings.handicaps):
            return ""
        if await self.unrated.contains(live.id):
            return ""
        return _("this game is rated (challenge with rated:false for an unrated one)")
