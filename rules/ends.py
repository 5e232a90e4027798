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

from i18n import N_
from rules import events
from rules.events import Event
from rules.modes import Mode
from rules.pieces import OVER, Result
from rules.state import GameState


class Referee:
    """The end rules of one mode, applied to a game's position (see the module docstring)."""

    def __init__(self, mode: Mode) -> None:
        self.trophies = mode.family.trophies
        self.circle = mode.family.circle
        self.teams = mode.teams

    def take_trophy(self, game: GameState, by: int, from_seat: int, ev: list[Event]) -> None:
        s = game._seats[by]
        game._seats[by] = s._replace(trophies=s.trophies + 1)
        ev.append(events.TrophyTaken(by, from_seat, s.trophies + 1))

    def check_elimination(
        self, game: GameState, seat: int, by: int | None, cause: str, ev: list[Event]
    ) -> None:
        if game.planes_left(seat) > 1 or game._seats[seat].out:
            return
        last = next((p for p in game._planes.values() if p.seat == seat), None)
        last_cell = -1
        if last is not None:
            last_cell = last.cell
            game._remove(last)
        winner = game.right_neighbour(seat)
        game._seats[seat] = game._seats[seat]._replace(reserve=0, out=True)
        ev.append(events.Eliminated(seat, by if cause == "shot" else None, cause, last_cell))
        if self.trophies and by is not None and cause == "shot":
            self.take_trophy(game, by, seat, ev)
        if self.circle and cause == "shot":
            self.finish(game, (winner,), N_("circle"), ev)
            return
        self.check_end(game, ev)

    def check_end(self, game: GameState, ev: list[Event]) -> bool:
        """End the game if one player or team is left; whether it is over."""
        alive = game.alive()
        teams = self.teams
        if len({teams[s] for s in alive}) > 1:
            return False
        seats = game._seats
        if self.trophies and alive:
            best = max(s.trophies for s in seats)
            tied = tuple(i for i, s in enumerate(seats) if s.trophies == best)
            if len(tied) == 1:
                self.finish(game, tied, N_("most trophies"), ev)
            elif alive[0] in tied:
                self.finish(game, (alive[0],), N_("trophies tied: the player left wins"), ev)
            else:
                self.finish(game, tied, N_("trophies tied: shared"), ev)
        elif alive:
            # A team wins together, members already shot out of the sky included.
            team = teams[alive[0]]
            winners = tuple(s for s in range(game.seats) if teams[s] == team)
            self.finish(game, winners, N_("last standing"), ev)
        return True

    def finish(
        self, game: GameState, winners: tuple[int, ...], reason: str, ev: list[Event]
    ) -> None:
        if game.phase == OVER:
            return
        game.diving = -1
        game.result = Result(winners, reason)
        game.phase = OVER
        if game.tracker is not None:
            game.tracker.game_over(winners, ev)
        ev.append(events.GameOver(winners, reason))
