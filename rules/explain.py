"""Why a step is not legal: reasons written for the player who tried it."""

from __future__ import annotations

from collections.abc import Collection

from rules import board, steps
from rules.board import NEIGHBOUR
from rules.state import GameState
from rules.steps import Step


def why_illegal(game: GameState, step: Step, caught: Collection[int]) -> str:
    """Why ``step`` is not legal in ``game``, whose caught planes (by id) are ``caught``."""
    if game.phase == "over":
        return "the game is over"
    if game.phase == "setup":
        if step.kind != steps.CLOUD:
            return "clouds are still being placed (~cell)"
        if game.is_cloud(step.cell):
            return f"{board.name(step.cell)} already holds a cloud"
        return "no cloud group may be larger than two cells"
    kind = step.kind
    if kind == steps.CLOUD:
        return "all clouds are already placed"
    seat = game.active
    if kind == steps.SHOOT:
        return _why_not_shot(game, step, caught)
    if kind == steps.END:
        if game.diving < 0:
            return "there is no dive to end and planes still have to act"
        return "the turn is not over"  # unreachable: '-' is legal whenever a dive runs
    if game.diving >= 0 and step.kind in steps.DIVES:
        diver = game.plane(game.diving)
        if diver is not None and diver.cell == step.cell:
            return _why_not_manoeuvre(game, step, continuing=True)
    if game.actions >= game.ramp:
        return f"this player-turn allows only {game.ramp} action{'s' * (game.ramp != 1)}"
    if kind == steps.PLACE:
        label = game.mode.seat_label(seat)
        if game.seat(seat).reserve == 0:
            return f"{label} has no plane in reserve"
        if step.cell not in board.HOME[game.mode.sides[seat]]:
            return (
                f"{board.name(step.cell)} is not in {label}'s home side ({game.mode.sides[seat]})"
            )
        return f"{board.name(step.cell)} is occupied"
    plane = game.plane_at(step.cell)
    if plane is None:
        return f"there is no plane at {board.name(step.cell)}"
    if plane.seat != seat:
        return f"the plane at {board.name(step.cell)} is not yours"
    if plane.id in game.acted:
        if plane.id == game.diving:
            return "the dive goes on with S, P or I, or ends with '-'"
        return f"the plane at {board.name(step.cell)} has already acted this turn"
    return _why_not_manoeuvre(game, step, continuing=False)


def _why_not_shot(game: GameState, step: Step, caught: Collection[int]) -> str:
    victim = game.plane_at(step.cell)
    where = board.name(step.cell)
    if victim is None:
        return f"there is no plane at {where}"
    if not game.hostile(victim.seat, game.active):
        return "no friendly fire"
    if game.settings.rules.auto_fire:
        return "shots are fired automatically in this game"
    if victim.id not in caught:
        return f"the plane at {where} is not caught by two hostile planes"
    return f"the plane at {where} may only be shot down with its right neighbour's help"


def _why_not_manoeuvre(game: GameState, step: Step, continuing: bool) -> str:
    plane = game.plane_at(step.cell)
    assert plane is not None
    kind = step.kind
    ahead = NEIGHBOUR[plane.cell * 6 + plane.facing]
    blocked = "the board edge" if ahead < 0 else None
    if ahead >= 0 and game.plane_at(ahead) is not None:
        blocked = f"a plane at {board.name(ahead)}"
    h = plane.height
    if kind == steps.CRASH:
        return "a plane only crashes when it can do nothing else"
    if continuing and kind not in steps.DIVES:
        return "a diving plane can only swoop, power dive or make an Immelmann"
    if kind == steps.IMMELMANN and not plane.ace:
        return "only aces can make an Immelmann"
    need = {steps.SWOOP: 1, steps.POWER: 2, steps.IMMELMANN: 3}.get(kind, 0)
    if h < need:
        return f"the plane is at height {h}; that manoeuvre needs {need}"
    if kind == steps.CLIMB and h >= 6:
        return "a plane at height 6 cannot climb"
    if kind == steps.CLIMB and game.settings.rules.rings and game.seat(plane.seat).rings <= 0:
        return "no altitude rings are left in the supply"
    level_flights = game.settings.rules.level_flights
    if kind in (steps.LEVEL, steps.LEVEL1) and not level_flights:
        return "there is no level flight in this game"
    if kind == steps.LEVEL1 and level_flights < 2:
        return "level flight is two cells in the 2026 rules (F1 is classic only)"
    if blocked is not None:
        return f"the way ahead is blocked by {blocked}"
    if kind == steps.LEVEL:
        second = NEIGHBOUR[ahead * 6 + plane.facing]
        if second < 0:
            return "level flight would leave the board"
        return f"level flight would pass through the plane at {board.name(second)}"
    return "not possible here"
