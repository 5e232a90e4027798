"""Taking steps back: snapshots of a game, and independent copies.

Like python-chess's ``Board.push``/``Board.pop``, a game keeps a stack of what each step
changed so that a search can try a step and take it back. Crosshairs steps change too
much at once for cheap reverse moves — one manoeuvre can trigger a chain of shots,
eliminations, a passed turn and the next seat's automatic fire — so each pushed step
saves a :class:`Snapshot` of the whole position instead. The lists and dicts of the
position are copied, never shared, so a snapshot stays as it was.
"""

from __future__ import annotations

from typing import NamedTuple, Self

from rules.achievements import TrackerState
from rules.modes import Settings
from rules.pieces import Plane, Result, SeatState
from rules.state import GameState


class Snapshot(NamedTuple):
    """Everything taking back a step restores."""

    at: list[Plane | None]
    planes: dict[int, Plane]
    seats: list[SeatState]
    cloud: list[bool]
    next_id: int
    phase: str
    turn: int
    active: int
    actions: int
    acted: frozenset[int]
    diving: int
    result: Result | None
    history: int
    tracker: TrackerState | None


class Undoable(GameState):
    """A game position that can be saved and restored (see the module docstring)."""

    def __init__(self, settings: Settings | None = None) -> None:
        super().__init__(settings)
        self._undo: list[Snapshot] = []

    def _snapshot(self) -> Snapshot:
        return Snapshot(
            list(self._at),
            dict(self._planes),
            list(self._seats),
            list(self._cloud),
            self._next_id,
            self.phase,
            self.turn,
            self.active,
            self.actions,
            self.acted,
            self.diving,
            self.result,
            len(self.history),
            self.tracker.snapshot() if self.tracker is not None else None,
        )

    def _restore(self, snap: Snapshot) -> None:
        self._at = snap.at
        self._planes = snap.planes
        self._seats = snap.seats
        self._cloud = snap.cloud
        self._next_id = snap.next_id
        self.phase = snap.phase
        self.turn = snap.turn
        self.active = snap.active
        self.actions = snap.actions
        self.acted = snap.acted
        self.diving = snap.diving
        self.result = snap.result
        del self.history[snap.history :]
        if self.tracker is not None and snap.tracker is not None:
            self.tracker.restore(snap.tracker)
        self._legal = None

    def copy(self, with_history: bool = True) -> Self:
        """An independent game in the same state (without the undo stack)."""
        other = type(self).__new__(type(self))
        other.__dict__.update(self.__dict__)
        other._at = list(self._at)
        other._planes = dict(self._planes)
        other._seats = list(self._seats)
        other._cloud = list(self._cloud)
        other._undo = []
        other._legal = None
        other.history = list(self.history) if with_history else []
        if self.tracker is not None:
            other.tracker = self.tracker.clone(other)
        return other
