"""A plain-text picture of a game, for terminals and bug reports.

Each cell is four characters: a plane is its seat number, an arrow for its facing and
its height (``1↗3``; ``*`` instead of the seat's number marks nothing, ``!`` after the
height marks an ace), a cloud is ``~~``, an empty cell a dot. Rows run from ``k`` at
the top to ``a`` at the bottom, like the board seen by player 1.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from rules import board
from rules.modes import ALL_ACTIONS

if TYPE_CHECKING:
    from rules.game import Game

ARROWS: Final = ("→", "↗", "↖", "←", "↙", "↘")


def _cell(game: Game, c: int) -> str:
    p = game.plane_at(c)
    if p is not None:
        text = f"{p.seat + 1}{ARROWS[p.facing]}{p.height}{'!' if p.ace else ''}"
    elif game.is_cloud(c):
        text = "~~"
    else:
        text = "·"
    return text.center(4)


def board_text(game: Game) -> str:
    lines = []
    for row in range(10, -1, -1):
        cells = [c for c in board.CELLS if board.coords(c)[0] == row]
        indent = 2 * abs(row - 5)
        label = board.ROWS[row]
        lines.append(f"{label} {' ' * indent}{''.join(_cell(game, c) for c in cells)}")
        first, last = board.name(cells[0]), board.name(cells[-1])
        lines[-1] += f"   {first}..{last}"
    return "\n".join(lines)


def status_text(game: Game) -> str:
    m = game.mode
    out = [f"{m.title}, {game.settings.ruleset} rules, {game.settings.fire} fire"]
    for seat in range(game.seats):
        s = game.seat(seat)
        label = m.seat_label(seat)
        if s.out:
            out.append(f"  {label} ({m.sides[seat]}): eliminated")
            continue
        extra = [f"{len(game.planes(seat))} on board", f"{s.reserve} in reserve"]
        if s.handicap:
            extra.append(f"{s.handicap} handicap tokens")
        if game.settings.rules.rings:
            extra.append(f"{s.rings} rings")
        if m.family.trophies:
            extra.append(f"{s.trophies} trophies")
        mark = "▶" if seat == game.to_move else " "
        out.append(f"{mark} {label} ({m.sides[seat]}): {', '.join(extra)}")
    if game.result is not None:
        winners = ", ".join(m.seat_label(s) for s in game.result.winners) or "nobody"
        out.append(
            f"Game over: {winners} {'win' if len(game.result.winners) > 1 else 'wins'}"
            f" ({game.result.reason})"
            if game.result.winners
            else f"Game over: drawn ({game.result.reason})"
        )
    elif game.phase == "setup":
        out.append(f"Setup: {m.seat_label(game.active)} places cloud {len(game.clouds) + 1} of 16")
    else:
        ramp = game.ramp
        left = "all planes" if ramp >= ALL_ACTIONS else f"{ramp - game.actions} of {ramp} actions"
        out.append(f"Player-turn {game.turn}: {m.seat_label(game.active)} to move, {left} left")
    return "\n".join(out)


def show(game: Game) -> str:
    return f"{board_text(game)}\n\n{status_text(game)}"
