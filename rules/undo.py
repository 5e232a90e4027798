"""Taking steps back: snapshots of a game's position.

Like python-chess's ``Board.push``/``Board.pop``, a game keeps a stack of what each step
changed so that a search can try a step and take it back. Crosshairs steps change too
much at once for cheap reverse moves — one manoeuvre can trigger a chain of shots,
eliminations, a passed turn and the next seat's automatic fire — so each pushed step
saves a :class:`Snapshot` of the whole position instead. The lists and dicts of the
position are copied, never shared, so a snapshot stays as it was.
"""

from __future__ import annotations

from typing import NamedTuple

from rules.achievements import TrackerState
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


def snapshot(game: GameState) -> Snapshot:
    return Snapshot(
        list(game._at),
        dict(game._planes),
        list(game._seats),
        list(game._cloud),
        game._next_id,
        game.phase,
        game.turn,
        game.active,
        game.actions,
        game.acted,
        game.diving,
        game.result,
        len(game.history),
        game.tracker.snapshot() if game.tracker is not None else None,
    )


def restore(game: GameState, snap: Snapshot) -> None:
    game._at = snap.at
    game._planes = snap.planes
    game._seats = snap.seats
    game._cloud = snap.cloud
    game._next_id = snap.next_id
    game.phase = snap.phase
    game.turn = snap.turn
    game.active = snap.active
    game.actions = snap.actions
    game.acted = snap.acted
    game.diving = snap.diving
    game.result = snap.result
    del game.history[snap.history :]
    if game.tracker is not None and snap.tracker is not None:
        game.tracker.restore(snap.tracker)
    game._legal = None
