"""Words shared by every description: directions, seats, results and lists."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Final

from rules import board
from rules.modes import ALL_ACTIONS

if TYPE_CHECKING:
    from rules.game import Game, Plane

# Facings in words, indexed like board.DIRECTIONS (counter-clockwise from east).
DIRECTION_WORDS: Final = ("east", "north-east", "north-west", "west", "south-west", "south-east")
SIDE_WORDS: Final = {
    "S": "south",
    "SW": "south-west",
    "NW": "north-west",
    "N": "north",
    "NE": "north-east",
    "SE": "south-east",
}


def facing(f: int) -> str:
    return f"facing {DIRECTION_WORDS[f]}"


def cell(c: int) -> str:
    return board.name(c)


def seat_name(game: Game, names: Sequence[str], seat: int) -> str:
    """``alice (P1)`` when the seat has a name, else its label."""
    label = game.mode.seat_label(seat)
    name = names[seat] if seat < len(names) else ""
    return f"{name} ({label})" if name else label


def plane_pose(p: Plane) -> str:
    """``d4, height 3, facing north-east`` (and ``ace`` when it is one)."""
    ace = ", ace" if p.ace else ""
    return f"{board.name(p.cell)}, height {p.height}, {facing(p.facing)}{ace}"


def join(items: Iterable[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    words = list(items)
    if len(words) <= 1:
        return "".join(words)
    return f"{', '.join(words[:-1])} and {words[-1]}"


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'s' * (n != 1)}"


def result_line(game: Game, names: Sequence[str]) -> str:
    """How the game ended, or ``""`` while it goes on."""
    if game.result is None:
        return ""
    if game.result.drawn:
        return f"The game is drawn ({game.result.reason})."
    winners = join(seat_name(game, names, s) for s in game.result.winners)
    verb = "win" if len(game.result.winners) > 1 else "wins"
    return f"{winners} {verb} ({_why(game, names)})."


def _why(game: Game, names: Sequence[str]) -> str:
    """The result's reason, naming who resigned or ran out of time when that ended it
    (the engine's reason is then just "last standing")."""
    assert game.result is not None
    last = game.history[-1] if game.history else None
    if last is not None and last.token.startswith(("resign:", "timeout:")):
        how = "resigned" if last.token.startswith("resign:") else "ran out of time"
        return f"{seat_name(game, names, last.seat)} {how}"
    return game.result.reason


EVERY_PLANE_FLOWN: Final = "every plane has flown"


def turn_left(game: Game) -> str:
    """What is left of the player-turn in play: ``2 still to fly and 1 to place``, or
    ``3 actions left`` in the early turns of a free-for-all. The board's title and seat
    card say it in these same words."""
    waiting = sum(1 for p in game.planes(game.active) if p.id not in game.acted)
    reserve = game.seat(game.active).reserve
    if game.ramp >= ALL_ACTIONS:
        still = [f"{waiting} still to fly"] if waiting else []
        still += [f"{reserve} to place"] if reserve else []
        return join(still) if still else EVERY_PLANE_FLOWN
    # Early free-for-all turns allow more actions than the seat has planes to use.
    return f"{plural(max(0, min(game.ramp - game.actions, waiting + reserve)), 'action')} left"


def turn_line(game: Game, names: Sequence[str]) -> str:
    """Whose decision it is and how much of their turn is left."""
    if game.is_over:
        return result_line(game, names)
    who = seat_name(game, names, game.active)
    if game.phase == "setup":
        return f"{who} places cloud {len(game.clouds) + 1} of 16."
    left = turn_left(game)
    if game.ramp >= ALL_ACTIONS and left != EVERY_PLANE_FLOWN:
        # "every plane flies" alone read as "done" beside a cockpit still asking to place
        left = f"every plane flies: {left}"
    diver = game.plane(game.diving) if game.diving >= 0 else None
    if diver is not None:
        left += f"; the plane at {board.name(diver.cell)} may dive on"
    return f"Turn {game.turn}: {who} to fly, {left}."
