"""Words shared by every description: directions, seats, results and lists."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Final

from i18n import N_, _, n_
from rules import board
from rules.modes import ALL_ACTIONS

if TYPE_CHECKING:
    from rules.game import Game, Plane

# Facings in words, indexed like board.DIRECTIONS (counter-clockwise from east).
_DIRECTIONS: Final = (
    N_("east"),
    N_("north-east"),
    N_("north-west"),
    N_("west"),
    N_("south-west"),
    N_("south-east"),
)
_SIDES: Final = {
    "S": N_("south"),
    "SW": N_("south-west"),
    "NW": N_("north-west"),
    "N": N_("north"),
    "NE": N_("north-east"),
    "SE": N_("south-east"),
}


def direction(f: int) -> str:
    """Facing ``f`` (an index of board.DIRECTIONS) in words."""
    return _(_DIRECTIONS[f])


def side(key: str) -> str:
    """A home side (``S``, ``NE``…) in words."""
    return _(_SIDES[key])


def facing(f: int) -> str:
    return _("facing {direction}", direction=direction(f))


def cell(c: int) -> str:
    return board.name(c)


def seat_name(game: Game, names: Sequence[str], seat: int) -> str:
    """``alice (P1)`` when the seat has a name, else its label."""
    label = game.mode.seat_label(seat)
    name = names[seat] if seat < len(names) else ""
    return f"{name} ({label})" if name else label


def plane_pose(p: Plane) -> str:
    """``d4, height 3, facing north-east`` (and ``ace`` when it is one)."""
    pose = _(
        "{cell}, height {height}, {facing}",
        cell=board.name(p.cell),
        height=p.height,
        facing=facing(p.facing),
    )
    return _("{pose}, ace", pose=pose) if p.ace else pose


def join(items: Iterable[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    words = list(items)
    if len(words) <= 1:
        return "".join(words)
    return _("{some} and {last}", some=", ".join(words[:-1]), last=words[-1])


def result_line(game: Game, names: Sequence[str]) -> str:
    """How the game ended, or ``""`` while it goes on."""
    if game.result is None:
        return ""
    if game.result.drawn:
        return _("The game is drawn ({reason}).", reason=_(game.result.reason))
    winners = [seat_name(game, names, s) for s in game.result.winners]
    return n_(
        "{winners} wins ({why}).",
        "{winners} win ({why}).",
        len(winners),
        winners=join(winners),
        why=why(game, names),
    )


def why(game: Game, names: Sequence[str]) -> str:
    """The result's reason, naming who resigned or ran out of time when that ended it
    (the engine's reason is then just "last standing"): the text and the final
    picture's title say it in these same words."""
    assert game.result is not None
    last = game.history[-1] if game.history else None
    if last is not None and last.token.startswith(("resign:", "timeout:")):
        who = seat_name(game, names, last.seat)
        if last.token.startswith("resign:"):
            return _("{who} resigned", who=who)
        return _("{who} ran out of time", who=who)
    return _(game.result.reason)


def turn_left(game: Game) -> str:
    """What is left of the player-turn in play: ``2 still to fly and 1 to place``, or
    ``3 actions left`` in the early turns of a free-for-all. The board's title and seat
    card say it in these same words."""
    waiting = sum(1 for p in game.planes(game.active) if p.id not in game.acted)
    reserve = game.seat(game.active).reserve
    if game.ramp >= ALL_ACTIONS:
        still = [_("{n} still to fly", n=waiting)] if waiting else []
        still += [_("{n} to place", n=reserve)] if reserve else []
        return join(still) if still else _("every plane has flown")
    # Early free-for-all turns allow more actions than the seat has planes to use.
    left = max(0, min(game.ramp - game.actions, waiting + reserve))
    return n_("{n} action left", "{n} actions left", left)


def turn_line(game: Game, names: Sequence[str]) -> str:
    """Whose decision it is and how much of their turn is left."""
    if game.is_over:
        return result_line(game, names)
    who = seat_name(game, names, game.active)
    if game.phase == "setup":
        return _("{who} places cloud {n} of 16.", who=who, n=len(game.clouds) + 1)
    left = turn_left(game)
    if game.ramp >= ALL_ACTIONS and left != _("every plane has flown"):
        # "every plane flies" alone read as "done" beside a cockpit still asking to place
        left = _("every plane flies: {left}", left=left)
    diver = game.plane(game.diving) if game.diving >= 0 else None
    if diver is not None:
        left = _("{left}; the plane at {cell} may dive on", left=left, cell=board.name(diver.cell))
    return _("Turn {turn}: {who} to fly, {left}.", turn=game.turn, who=who, left=left)
