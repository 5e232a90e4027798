"""Takebacks in unrated games: a player returns the game to the start of their latest
turn, once every other person in it has agreed (the computer always agrees).

Only games no rating depends on allow one (docs/correspondence.md): a game with the
computer or with handicap tokens, or one its players chose to leave unrated, outside any
series or tournament (whose games count for cards and standings). The game in memory
and in storage go back together (:class:`storage.takebacks.TakebackRepo`), under the
match's lock, and only from the ply the takeback was asked at: a step flown in between
makes the request stale.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from bot.services.live import LiveMatch, MatchError, Update
from bot.services.manager import GameManager, _snapshot
from bot.services.series import SeriesService
from i18n import _, n_
from rules import serialize
from storage.errors import StorageError
from storage.takebacks import TakebackRepo
from storage.unrated import UnratedMatches

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Request:
    """A player's takeback: the match, at which ply it was asked, and where it goes."""

    match_id: int
    user_id: int
    at_ply: int
    to_ply: int
    agree: frozenset[int]  # the other people in the match, who must agree


class Takebacks:
    def __init__(
        self,
        games: GameManager,
        series: SeriesService,
        repo: TakebackRepo,
        unrated: UnratedMatches,
    ) -> None:
        self.games = games
        self.repo = repo
        self.unrated = unrated
        self.series = series
        # (match, ply asked at, asker) → the people who accepted so far
        self._agreed: dict[tuple[int, int, int], set[int]] = {}

    def accept(self, request: Request, user_id: int) -> bool:
        """Count ``user_id``'s yes; True once everyone asked has agreed, which settles
        the request (no await between this and taking the turn back)."""
        key = (request.match_id, request.at_ply, request.user_id)
        accepted = self._agreed.setdefault(key, set())
        accepted.add(user_id)
        if not request.agree <= accepted:
            return False
        del self._agreed[key]
        return True

    def decline(self, request: Request) -> None:
        self._agreed.pop((request.match_id, request.at_ply, request.user_id), None)

    async def request(self, live: LiveMatch, user_id: int) -> Request:
        """What a takeback by ``user_id`` would do now, or why it cannot be done."""
        if live.over:
            raise MatchError(live.over_text())
        seats = live.seats_of(user_id)
        if not seats:
            raise MatchError(_("you are not playing in this match"))
        rated_why = await self.rated_reason(live)
        if rated_why:
            raise MatchError(_("takebacks are only for unrated games, and {why}", why=rated_why))
        mine = [i for i, p in enumerate(live.game.history) if p.seat in seats]
        if not mine:
            raise MatchError(_("you have not flown a turn yet: there is nothing to take back"))
        last = live.game.history[mine[-1]]
        start = next(
            i
            for i, p in enumerate(live.game.history)
            if p.seat == last.seat and p.turn == last.turn
        )
        others = frozenset(
            e.user_id for e in live.seats if e.user_id is not None and e.user_id != user_id
        )
        return Request(live.id, user_id, live.ply, start, others)

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

    async def take_back(self, request: Request) -> Update:
        """Return the match to ``request.to_ply``, in storage and then in memory."""
        live = await self.games.get(request.match_id)
        async with live.lock:
            if live.over:
                raise MatchError(live.over_text())
            if live.ply != request.at_ply:
                raise MatchError(_("the game has moved on since the takeback was asked for"))
            data = serialize.to_dict(live.game)
            data["steps"] = data["steps"][: request.to_ply]
            game = serialize.from_dict(data)
            per_turn = live.clock.per_turn
            deadline = None if per_turn is None else self.games.clock.now() + per_turn
            snapshot = _snapshot(game, live.seats)
            try:
                await self.repo.take_back(
                    live.id,
                    request.at_ply,
                    request.to_ply,
                    snapshot,
                    to_move_seat=game.to_move,
                    turn_deadline=deadline,
                )
            except StorageError as exc:  # rolled back whole: memory is still as stored
                log.warning("match %s: takeback not stored (%s)", live.id, exc)
                raise MatchError(
                    _("that could not be saved, so nothing changed; please try again in a moment")
                ) from None
            live.game = game
            live.deadline = deadline
            live.reminded = False
            live.draw_offers.clear()
            live.computer_plan.clear()
        taken = request.at_ply - request.to_ply
        who = live.who(live.seats_of(request.user_id)[0])
        lines = [
            "↩️ "
            + n_(
                "{who} took back their last turn ({n} step).",
                "{who} took back their last turn ({n} steps).",
                taken,
                who=who,
            )
        ]
        return Update(live, (), lines)
