"""The ways a match ends other than by a step of play: a resignation (or the abort it
becomes before every side has flown), a draw offered and agreed or declined, an abort,
a match withdrawn because its place is gone. The game manager owns one
(``Games.endings``) and offers its verbs under its own names; each acts through
the manager as a press does, under the match's lock, storing before it tells."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Protocol

from bot.services.live import (
    AlreadyOut,
    AlreadyOver,
    LiveMatch,
    MatchUnavailable,
    NotYours,
    Update,
    turn_of,
)
from bot.services.live_set import LiveSet
from bot.services.refusal import Refusal
from i18n import _
from rules.errors import RulesError
from rules.events import Event
from rules.game import Game
from storage.errors import StorageError
from storage.matches import MatchRepo, MatchStatus


class EndingHost(Protocol):
    """What the endings use of the game manager: its matches, and its way of storing an
    action and telling what it did."""

    repo: MatchRepo
    live: LiveSet

    async def get(self, match_id: int) -> LiveMatch: ...

    async def concede(
        self, live: LiveMatch, seat: int, reason: str, actor: int | None
    ) -> Update: ...

    async def save(
        self, live: LiveMatch, token: str, actor: int | None, before: int | None
    ) -> None: ...

    async def explain(
        self,
        live: LiveMatch,
        happened: Sequence[Event],
        turn: tuple[int, int | None],
        actor: int | None,
    ) -> Update: ...

    async def unsaved(self, live: LiveMatch, exc: Exception) -> MatchUnavailable: ...


class Endings:
    def __init__(self, host: EndingHost) -> None:
        self._host = host

    async def resign(self, match_id: int, user_id: int, *, forced: bool = False) -> Update:
        """Resign ``user_id``'s seat. Before every side has flown a turn that aborts the
        game instead (the abort rule), unless the resignation is ``forced`` by a decision
        made elsewhere (an organiser's result, a person leaving for good) that the board
        must agree with; such a game is unrated all the same."""
        live = await self._host.get(match_id)
        async with live.lock:
            seated = live.seats_of(user_id)
            mine = [s for s in seated if not live.game.seat(s).out]
            if live.over:
                raise AlreadyOver(live.over_text())
            if not seated:
                raise NotYours(_("you are not playing in this match"))
            if not mine:
                raise AlreadyOut(_("you are already out of this game"))
            if not forced and _ends_early(live.game, lambda g: g.concede(mine[0], "resign")):
                return await self._call_off(
                    live,
                    user_id,
                    _(
                        "{who} resigned before every side had flown a turn: "
                        "the game is aborted, not rated.",
                        who=live.who(mine[0]),
                    ),
                )
            return await self._host.concede(live, mine[0], "resign", user_id)

    async def offer_draw(self, match_id: int, user_id: int) -> Update:
        """Offer (or accept) a draw; the game is drawn once every player still in it
        has agreed. Computer players never agree."""
        live = await self._host.get(match_id)
        async with live.lock:
            game = live.game
            mine = [s for s in live.seats_of(user_id) if not game.seat(s).out]
            if live.over:
                raise AlreadyOver(live.over_text())
            if not mine:
                raise NotYours(_("you are not playing in this match"))
            if set(mine) <= live.draw_offers:
                others = ", ".join(live.who(s) for s in game.alive() if s not in live.draw_offers)
                raise Refusal(
                    _("that is your own draw offer: only {others} can accept it", others=others)
                )
            offered = live.draw_offers | set(mine)
            waiting = [s for s in game.alive() if s not in offered]
            if any(live.seats[s].user_id is None for s in waiting):
                raise Refusal(_("the computer does not accept draws"))
            if waiting:
                # stored with the match: every process, and the bot after a restart, sees it
                try:
                    await self._host.repo.offer_draw(live.id, live.ply, mine)
                except StorageError as exc:
                    raise await self._host.unsaved(live, exc) from None
                live.draw_offers.update(mine)
                names = ", ".join(live.who(s) for s in waiting)
                return Update(
                    live,
                    (),
                    [
                        "🤝 "
                        + _(
                            "{who} offers a draw; waiting for {names}.",
                            who=live.who(mine[0]),
                            names=names,
                        )
                    ],
                )
            if _ends_early(game, Game.agree_draw):
                return await self._call_off(
                    live,
                    user_id,
                    _(
                        "A draw agreed before every side had flown a turn: "
                        "the game is aborted, not rated."
                    ),
                )
            live.draw_offers.update(mine)
            before, turn = game.to_move, turn_of(live)
            happened = game.agree_draw()
            await self._host.save(live, "draw", user_id, before)
            return await self._host.explain(live, happened, turn, user_id)

    async def decline_draw(self, match_id: int, user_id: int) -> Update:
        """Turn down the draw offer standing in the match; play goes on."""
        live = await self._host.get(match_id)
        async with live.lock:
            mine = [s for s in live.seats_of(user_id) if not live.game.seat(s).out]
            if live.game.is_over or not mine:
                raise Refusal(
                    _("you are not playing in this match") if not mine else _("this game is over")
                )
            if not live.draw_offers:
                raise Refusal(_("no draw is on offer"))
            if set(mine) <= live.draw_offers:
                raise Refusal(_("that is your own offer; play on, and it lapses with the turn"))
            try:
                await self._host.repo.withdraw_draw_offers(live.id, live.ply)
            except StorageError as exc:
                raise await self._host.unsaved(live, exc) from None
            live.draw_offers.clear()
            return Update(
                live, (), [_("{who} declines the draw; play goes on.", who=live.who(mine[0]))]
            )

    async def abort(self, match_id: int, user_id: int) -> Update:
        """Call the game off before every side has flown a turn: no result, nothing
        rated (docs/ratings.md, the abort rule)."""
        live = await self._host.get(match_id)
        async with live.lock:
            if not live.seats_of(user_id):
                raise NotYours(_("you are not playing in this match"))
            if live.over:
                raise AlreadyOver(live.over_text())
            if not live.game.unflown():
                raise Refusal(_("every side has flown a turn: resign or offer a draw instead"))
            return await self._call_off(
                live, user_id, _("The match was aborted by {who}.", who=_name_of(live, user_id))
            )

    async def _call_off(self, live: LiveMatch, user_id: int, said: str) -> Update:
        """End the match without a result (the caller holds its lock)."""
        try:
            await self._host.repo.finish(
                live.id, MatchStatus.ABANDONED, json.dumps({"aborted_by": user_id})
            )
            live.record = await self._host.repo.get(live.id)
        except StorageError as exc:
            raise await self._host.unsaved(live, exc) from None
        self._host.live.drop(live.id)
        # Published as MatchAborted: nothing is rated or booked, and a series plays the
        # game again (docs/series.md).
        return Update(live, (), [said], ended=True)

    async def withdraw(self, match_id: int, why: str) -> LiveMatch | None:
        """Call the match off because its place is gone (``why``): no result, nothing
        rated, no longer clocked, whatever was flown. Returns the match called off, or
        None when it had already ended (its end is someone else's to publish)."""
        live = await self._host.get(match_id)
        async with live.lock:
            if live.over:
                return None
            await self._host.repo.finish(
                live.id, MatchStatus.ABANDONED, json.dumps({"withdrawn": why})
            )
            live.record = await self._host.repo.get(live.id)
            self._host.live.drop(live.id)
            return live


def _ends_early(game: Game, ending: Callable[[Game], object]) -> bool:
    """Whether ``ending`` (a resignation, a draw) would end ``game`` before every side
    in it had flown a turn; tried on a copy, so the game itself is untouched."""
    trial = game.copy()
    try:
        ending(trial)
    except RulesError:
        return False  # the real call explains why it cannot be done
    return trial.ended_early


def _name_of(live: LiveMatch, user_id: int) -> str:
    seats = live.seats_of(user_id)
    return live.who(seats[0]) if seats else "a player"
