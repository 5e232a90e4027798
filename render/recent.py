"""What just happened, read from the game record: paths flown, dives, planes lost.

The window is the player-turn in progress. When that turn has barely begun (nothing
played in it yet beyond the shots that open it), the window reaches back to the start
of the previous player-turn instead: the board posted after a player ends their turn is
the one the next player looks at, and it must show what the opponent just did.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rules import events
from rules.events import Event
from rules.game import Game


@dataclass
class Recent:
    """Marks for the board. Paths are lists of cells, the first being where the plane
    started; dives are (seat, cell the dive left from, next cell or -1, height lost)."""

    paths: dict[int, tuple[int, list[int]]] = field(default_factory=dict)  # plane: (seat, cells)
    dives: list[tuple[int, int, int, int]] = field(default_factory=list)
    placed: list[tuple[int, int]] = field(default_factory=list)  # (seat, cell)
    shot: list[tuple[int, int]] = field(default_factory=list)
    crashed: list[tuple[int, int]] = field(default_factory=list)
    withdrawn: list[tuple[int, int]] = field(default_factory=list)  # a seat's last plane


def window(game: Game) -> list[Event]:
    """The events of the current player-turn, or of the previous one as well when the
    current one has not started in earnest (see the module docstring)."""
    chunks = [game.opening, *(p.events for p in game.history)]
    starts = [
        (i, j)
        for i, chunk in enumerate(chunks)
        for j, e in enumerate(chunk)
        if isinstance(e, events.TurnPassed)
    ]
    if not starts:
        return [e for chunk in chunks for e in chunk]
    i, j = starts[-1]
    if i == len(chunks) - 1 and len(starts) > 1 and game.phase != "over":
        i, j = starts[-2]
    out = list(chunks[i][j:])
    for chunk in chunks[i + 1 :]:
        out.extend(chunk)
    return out


_DROP = {"immelmann": 3, "turbulence": 1}


def recent(game: Game) -> Recent:
    found = Recent()
    evs = window(game)
    for k, e in enumerate(evs):
        if isinstance(e, events.Moved):
            _, cells = found.paths.setdefault(e.plane, (e.seat, [e.start]))
            if cells[-1] != e.start:
                cells.append(e.start)
            cells.extend(e.path)
        elif isinstance(e, events.HeightChanged) and e.cause in ("dive", "immelmann"):
            # A swoop is reported as the height change followed by its one-cell move;
            # a power dive changes height without moving.
            nxt = evs[k + 1] if k + 1 < len(evs) else None
            moves = isinstance(nxt, events.Moved) and nxt.plane == e.plane
            to = nxt.path[0] if isinstance(nxt, events.Moved) and moves else -1
            drop = _DROP.get(e.cause, 1 if moves else 2)
            found.dives.append((e.seat, e.cell, to, drop))
        elif isinstance(e, events.Placed):
            found.placed.append((e.seat, e.cell))
        elif isinstance(e, events.ShotDown):
            found.shot.append((e.seat, e.cell))
        elif isinstance(e, events.Crashed):
            found.crashed.append((e.seat, e.cell))
        elif isinstance(e, events.Eliminated) and e.last_cell >= 0:
            found.withdrawn.append((e.seat, e.last_cell))
    return found
