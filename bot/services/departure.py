"""A person who leaves for good (a deletion request, ``crosshairs db forget-user``)
while seated in matches still being played: each is ended sensibly before their data is
anonymised (docs/admins.md).

* Before every side has flown a turn the match is **aborted**, as any player may abort
  it then (the abort rule, docs/ratings.md): nothing is rated or booked.
* After that they **resign** it: the others win (a duel, a team game) or play on without
  them (a free-for-all). The result counts for a series or tournament, so an event is
  not stalled, but it is not rated: a forgotten person has no rating to move
  (:class:`~bot.services.rating_service.Ratings` skips a game with a forgotten
  seat).

The bot that shows the thread learns of it at its next start (finished matches whose end
was never shown are announced then), so admins run this with the bot stopped or restart
it afterwards.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.services.live import AlreadyOut
from bot.services.manager import Games


@dataclass(frozen=True)
class Departure:
    aborted: tuple[int, ...]  # match ids called off
    resigned: tuple[int, ...]  # match ids the person resigned (and may still be seated in)

    def lines(self) -> list[str]:
        said = [f"match #{m} aborted (not every side had flown)" for m in self.aborted]
        said += [f"match #{m}: resigned for them (unrated)" for m in self.resigned]
        return said


async def leave_matches(games: Games, user_id: int) -> Departure:
    """End ``user_id``'s part in every match they are playing."""
    async with games.db.read() as conn:
        rows = await conn.fetchall(
            "SELECT DISTINCT m.id FROM matches m JOIN seats s ON s.match_id = m.id "
            "WHERE s.user_id = ? AND m.status = 'active' ORDER BY m.id",
            (user_id,),
        )
    aborted: list[int] = []
    resigned: list[int] = []
    for (match_id,) in rows:
        live = await games.get(int(match_id))
        try:
            if live.game.unflown():
                await games.abort(live.id, user_id)
                aborted.append(live.id)
            else:
                await games.resign(live.id, user_id, forced=True)
                resigned.append(live.id)
        except AlreadyOut:
            resigned.append(live.id)  # out already: only their seat is left to anonymise
    return Departure(tuple(aborted), tuple(resigned))
