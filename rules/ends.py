"""How a game ends: eliminations, trophies and the result (rules spec §5 and §7).

A seat is *eliminated* the moment it has a single plane left, on the board and in
reserve together: that last plane leaves the board with it. The game ends as soon as
one player or team is left, even in the middle of a turn:

* in a duel or team game the surviving side wins, members already eliminated included;
* in a free-for-all every kill earns the shooter a trophy (an elimination by a shot
  earns one more for the last plane), and the most trophies win — ties go to the player
  left, otherwise they are shared;
* in Circle of Death shots come only with the victim's right neighbour's help, and
  the first elimination by a shot hands the win to that neighbour.

A crash can eliminate too (with nobody taking trophies), and so can resigning; a game
can also end drawn by agreement, at a turn limit, or when nobody can act.
"""

from __future__ import annotations

from rules import events
from rules.events import Event
from rules.pieces import OVER, Result
from rules.undo import Undoable


class Ending(Undoable):
    """The end rules, as a layer of :class:`rules.game.Game`."""

    def _take_trophy(self, by: int, from_seat: int, ev: list[Event]) -> None:
        s = self._seats[by]
        self._seats[by] = s._replace(trophies=s.trophies + 1)
        ev.append(events.TrophyTaken(by, from_seat, s.trophies + 1))

    def _check_elimination(self, seat: int, by: int | None, cause: str, ev: list[Event]) -> None:
        if self.planes_left(seat) > 1 or self._seats[seat].out:
            return
        last = next((p for p in self._planes.values() if p.seat == seat), None)
        last_cell = -1
        if last is not None:
            last_cell = last.cell
            self._remove(last)
        winner = self.right_neighbour(seat)
        self._seats[seat] = self._seats[seat]._replace(reserve=0, out=True)
        ev.append(events.Eliminated(seat, by if cause == "shot" else None, cause, last_cell))
        if self._ffa and by is not None and cause == "shot":
            self._take_trophy(by, seat, ev)
        if self._cod and cause == "shot":
            self._finish((winner,), "circle", ev)
            return
        self._check_end(ev)

    def _check_end(self, ev: list[Event]) -> bool:
        alive = self.alive()
        if len({self._teams[s] for s in alive}) > 1:
            return False
        if self._ffa and alive:
            best = max(s.trophies for s in self._seats)
            tied = tuple(i for i, s in enumerate(self._seats) if s.trophies == best)
            if len(tied) == 1:
                self._finish(tied, "most trophies", ev)
            elif alive[0] in tied:
                self._finish((alive[0],), "trophies tied: the player left wins", ev)
            else:
                self._finish(tied, "trophies tied: shared", ev)
        elif alive:
            # A team wins together, members already shot out of the sky included.
            team = self._teams[alive[0]]
            self._finish(
                tuple(s for s in range(self.seats) if self._teams[s] == team), "last standing", ev
            )
        return True

    def _finish(self, winners: tuple[int, ...], reason: str, ev: list[Event]) -> None:
        if self.phase == OVER:
            return
        self.diving = -1
        self.result = Result(winners, reason)
        self.phase = OVER
        if self.tracker is not None:
            self.tracker.game_over(winners, ev)
        ev.append(events.GameOver(winners, reason))
