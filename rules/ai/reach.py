"""Where a plane could point its guns after one action, on an otherwise empty board.

The computer player needs, many thousands of times per turn, the answer to "which
cells and facings can this enemy plane reach before it fires?". Working it out exactly
means playing every climb, level flight and dive on the real board, which is far too
slow for an evaluation function. Geometry alone (the board edge, the plane's height,
the ruleset) answers most of it, does not change during a game and fits in a table, so
the answer is computed once per (cell, facing, height) and kept.

A *pose* is ``cell * 6 + facing``. Every pose a dive passes through counts, not only
where it stops, because the engine fires after each manoeuvre: a plane can swoop
through a crossfire position and kill on the way down.

The table ignores other planes, so it overstates what a boxed-in plane can do. For a
threat estimate that errs on the cautious side, which is the side we want.
"""

from __future__ import annotations

from functools import cache

from rules.board import NEIGHBOUR


@cache
def poses(
    cell: int, facing: int, height: int, ace: bool, level: int, climb: bool
) -> frozenset[int]:
    """The poses a plane at (cell, facing, height) can take within one action.

    ``level`` is 0 without level flight, 1 for two cells (2026), 2 for one or two cells
    (classic); ``climb`` is False when a classic player has no rings left.
    """
    found: set[int] = set()
    n1 = NEIGHBOUR[cell * 6 + facing]
    if n1 >= 0:
        if climb and height < 6:
            _turns(found, n1, facing)
        if level == 2:
            _turns(found, n1, facing)
        if level:
            n2 = NEIGHBOUR[n1 * 6 + facing]
            if n2 >= 0:
                _turns(found, n2, facing)
    seen: set[tuple[int, int, int]] = set()
    stack = [(cell, facing, height)]
    while stack:
        c, f, h = stack.pop()
        nexts: list[tuple[int, int, int]] = []
        if h >= 1:
            n = NEIGHBOUR[c * 6 + f]
            if n >= 0:
                nexts += [(n, (f + t) % 6, h - 1) for t in (0, 1, 5)]
        if h >= 2:
            nexts += [(c, (f + t) % 6, h - 2) for t in (0, 1, 5)]
        if h >= 3 and ace:
            nexts.append((c, (f + 3) % 6, h - 3))
        for state in nexts:
            if state not in seen:
                seen.add(state)
                found.add(state[0] * 6 + state[1])
                stack.append(state)
    return frozenset(found)


def _turns(found: set[int], cell: int, facing: int) -> None:
    for t in (0, 1, 5):
        found.add(cell * 6 + (facing + t) % 6)
