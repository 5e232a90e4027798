"""Where everything stands: the board, the planes, the seats and whose turn it is.

A game of Crosshairs is played on a hexagonal board of 91 cells (rows a to k) with 16
clouds. :class:`GameState` holds one game's position and answers questions about it —
which plane is where, which seats are hostile, who is still playing, whose decision it
is — without knowing how steps are generated or played. :class:`rules.game.Game` is a
position with a player's verbs; it holds one collaborator per part of the rules, each in
a module of its own, which read and change the position's fields (the underscored ones
are for the ``rules`` package only):

* :mod:`rules.undo` — snapshots for taking steps back;
* :mod:`rules.ends` — eliminations, trophies and the result (the :class:`Referee`);
* :mod:`rules.fire` — lines of fire and shots (the :class:`Guns`);
* :mod:`rules.legal` — the legal steps (:class:`LegalSteps`);
* :mod:`rules.turns` — playing a step and passing the turn (:class:`TurnFlow`).

A *player-turn* is numbered over all seats (turn 1 is seat 0's first, turn 2 the next
seat's …). It allows :attr:`GameState.ramp` actions — 1, 2, 3, 4 in a duel's opening,
then every plane must act — and the active seat may act with each plane once.
"""

from __future__ import annotations

from typing import Self

from rules import board
from rules.achievements import Tracker
from rules.board import HOME
from rules.events import Event
from rules.modes import Mode, Settings
from rules.pieces import OVER, PLAY, SETUP, Plane, Played, Result, SeatState
from rules.steps import Step


class GameState:
    """The position of one game and the questions it answers. See the module docstring."""

    settings: Settings
    mode: Mode
    phase: str  # SETUP (clouds are being placed), PLAY or OVER
    turn: int  # the player-turn being played, 1-based, counted over all seats
    active: int  # the seat whose decision it is
    actions: int  # actions taken in this player-turn
    acted: frozenset[int]  # planes that acted (or were placed) in this player-turn
    diving: int  # the plane in the middle of a dive, or -1
    result: Result | None
    history: list[Played]

    def __init__(self, settings: Settings | None = None) -> None:
        """An empty board with every plane in reserve, clouds still to be placed."""
        self.settings = settings or Settings()
        self.mode = self.settings.spec
        self._teams = self.mode.teams
        self._homes = tuple(HOME[side] for side in self.mode.sides)
        self._cloud = [False] * board.CELL_COUNT
        self._at: list[Plane | None] = [None] * board.CELL_COUNT
        self._planes: dict[int, Plane] = {}
        self._seats = [
            SeatState(reserve=n, handicap=h)
            for n, h in zip(self.settings.plane_counts(), self.settings.handicaps, strict=True)
        ]
        self._next_id = 0
        self._legal: list[Step] | None = None  # the legal steps, until the next step
        self.phase = SETUP
        self.turn = 1
        self.active = 0
        self.actions = 0
        self.acted = frozenset()
        self.diving = -1
        self.result = None
        self.history = []
        self.start_position: str | None = None
        self.opening: tuple[Event, ...] = ()
        self.tracker = Tracker(self) if self.settings.cards else None

    # ------------------------------------------------------------------ reading

    @property
    def clouds(self) -> frozenset[int]:
        return frozenset(c for c in board.CELLS if self._cloud[c])

    def is_cloud(self, cell: int) -> bool:
        return self._cloud[cell]

    @property
    def seats(self) -> int:
        return self.mode.seats

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    @property
    def to_move(self) -> int | None:
        """The seat whose decision it is, or None once the game is over."""
        return None if self.phase == OVER else self.active

    def planes(self, seat: int | None = None) -> list[Plane]:
        """Planes on the board (of one seat), in board order."""
        found = sorted(self._planes.values(), key=lambda p: p.cell)
        return found if seat is None else [p for p in found if p.seat == seat]

    def plane_at(self, cell: int) -> Plane | None:
        return self._at[cell]

    def plane(self, plane_id: int) -> Plane | None:
        return self._planes.get(plane_id)

    def seat(self, seat: int) -> SeatState:
        return self._seats[seat]

    def planes_left(self, seat: int) -> int:
        """Planes a seat still has, on the board and in reserve."""
        s = self._seats[seat]
        return s.reserve + sum(1 for p in self._planes.values() if p.seat == seat)

    def hostile(self, seat_a: int, seat_b: int) -> bool:
        return self._teams[seat_a] != self._teams[seat_b]

    def alive(self) -> list[int]:
        return [s for s in range(self.seats) if not self._seats[s].out]

    def right_neighbour(self, seat: int) -> int:
        """The previous seat in turn order still playing (Circle of Death's shooter)."""
        n = self.seats
        for k in range(1, n):
            s = (seat - k) % n
            if not self._seats[s].out:
                return s
        return seat

    def left_neighbour(self, seat: int) -> int:
        n = self.seats
        for k in range(1, n):
            s = (seat + k) % n
            if not self._seats[s].out:
                return s
        return seat

    def state_key(self) -> tuple[object, ...]:
        """Everything that decides what happens next, as a hashable value; two games
        with equal keys play on identically (plane ids and the record left aside)."""
        acted = frozenset(self._planes[i].cell for i in self.acted if i in self._planes)
        diving = self._planes[self.diving].cell if self.diving >= 0 else -1
        return (
            self.settings,
            self.phase,
            self.turn,
            self.active,
            self.actions,
            acted,
            diving,
            self.result,
            tuple(self._cloud),
            tuple(
                sorted((p.cell, p.seat, p.facing, p.height, p.ace) for p in self._planes.values())
            ),
            tuple(self._seats),
        )

    @property
    def ramp(self) -> int:
        """Actions this player-turn allows (ALL_ACTIONS once the opening is over)."""
        return self.mode.ramp(self.turn)

    @property
    def at_turn_start(self) -> bool:
        """No action has been taken yet in this player-turn (shots may have been)."""
        return self.phase == PLAY and self.actions == 0

    # ------------------------------------------------------------ changing

    def _give_rings(self, seat: int, n: int) -> None:
        s = self._seats[seat]
        self._seats[seat] = s._replace(rings=s.rings + n)

    def _remove(self, p: Plane) -> None:
        self._at[p.cell] = None
        del self._planes[p.id]

    def copy(self, with_history: bool = True) -> Self:
        """An independent game in the same state (without the steps to take back)."""
        other = type(self).__new__(type(self))
        other.__dict__.update(self.__dict__)
        other._at = list(self._at)
        other._planes = dict(self._planes)
        other._seats = list(self._seats)
        other._cloud = list(self._cloud)
        other._legal = None
        other.history = list(self.history) if with_history else []
        if self.tracker is not None:
            other.tracker = self.tracker.clone(other)
        return other
