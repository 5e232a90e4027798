"""Cloud setups (rules spec §6): 16 clouds, placed by the players in turn, laid out at
random with the board's symmetry, or taken from a named preset.

Random layouts are point-symmetric (180°) in a duel and rotation-symmetric for more
players: 120° when the seats' home sides allow it (3 and 6 seats), 180° otherwise.
They leave the seated players' home cells free of clouds.
No cloud group may be larger than two cells unless that rule is switched off.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Final

from rules import board
from rules.board import NEIGHBOUR
from rules.errors import RulesError
from rules.modes import Mode

COUNT: Final = 16


def groups_ok(clouds: Iterable[int]) -> bool:
    """Whether no connected group of cloud cells is larger than two."""
    cells = set(clouds)
    for c in cells:
        near = [n for n in (NEIGHBOUR[c * 6 + f] for f in range(6)) if n in cells]
        if len(near) > 1:
            return False
    return True


def symmetry(mode: Mode) -> int:
    """The rotation (in sixths of a turn) that maps the seats' home sides onto each other."""
    sides = {board.SIDES.index(s) for s in mode.sides}
    if len(sides) in (3, 6) and {(s + 2) % 6 for s in sides} == sides:
        return 2
    return 3


def random_layout(mode: Mode, seed: int, groups: bool = True) -> frozenset[int]:
    """A random symmetric layout of 16 clouds; the same seed gives the same layout."""
    rng = random.Random(seed)
    sixths = symmetry(mode)
    # Home cells stay clear so that every seat can bring its planes on in the open.
    homes = {c for side in mode.sides for c in board.HOME[side]}
    orbits = sorted(
        {
            tuple(sorted({board.rotate(c, k * sixths) for k in range(6 // sixths)}))
            for c in board.CELLS
            if c not in homes
        }
    )
    orbits = [o for o in orbits if not homes & set(o)]
    centre = [o for o in orbits if len(o) == 1]
    others = [o for o in orbits if len(o) > 1]
    size = len(others[0])
    for _ in range(1000):
        chosen: set[int] = set()
        if COUNT % size:
            chosen.update(centre[0])
        pool = others[:]
        rng.shuffle(pool)
        for orbit in pool:
            if len(chosen) >= COUNT:
                break
            trial = chosen | set(orbit)
            if not groups or groups_ok(trial):
                chosen = trial
        if len(chosen) == COUNT:
            return frozenset(chosen)
    raise RulesError("could not lay out the clouds")  # never seen: the board has room


def _mirror(cells: str) -> frozenset[int]:
    half = {board.cell(c) for c in cells.split()}
    return frozenset(half | {board.rotate(c, 3) for c in half})


# Point-symmetric presets; each lists one half, the other is its 180° image.
PRESETS: Final[dict[str, frozenset[int]]] = {
    "classic": _mirror("b3 c5 c7 d2 e4 f9 e8 d6"),
    "lanes": _mirror("b2 b5 c7 d3 d6 e9 f3 g8"),
    "fortress": _mirror("b4 c2 c6 d8 e5 f3 g9 h6"),
    "open-sky": _mirror("a3 b6 c1 d5 e8 f2 g10 h4"),
}


def preset(name: str) -> frozenset[int]:
    found = PRESETS.get(name.lower())
    if found is None:
        raise RulesError(f"unknown cloud preset {name!r}; presets are: {', '.join(PRESETS)}")
    return found
