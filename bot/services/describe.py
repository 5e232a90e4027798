"""Events in words: what the bot writes under every board image."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rules import board, events
from rules.achievements import CARDS
from rules.events import Event
from rules.game import Game
from rules.modes import ALL_ACTIONS


def seat_name(game: Game, names: Sequence[str], seat: int) -> str:
    label = game.mode.seat_label(seat)
    name = names[seat] if seat < len(names) else ""
    return f"{name} ({label})" if name else label


def describe(game: Game, names: Sequence[str], happened: Iterable[Event]) -> list[str]:
    """One short sentence per thing that happened, in order."""
    lines: list[str] = []

    def who(seat: int) -> str:
        return seat_name(game, names, seat)

    for e in happened:
        if isinstance(e, events.Placed):
            extra = f" at height {e.height}" if e.height else ""
            lines.append(
                f"{who(e.seat)} brings a plane on at {board.name(e.cell)}, "
                f"facing {board.DIRECTIONS[e.facing]}{extra}."
            )
        elif isinstance(e, events.Moved):
            lines.append(f"{who(e.seat)} flies {board.name(e.start)} → {board.name(e.path[-1])}.")
        elif isinstance(e, events.HeightChanged) and e.cause == "turbulence":
            lines.append(f"Turbulence at {board.name(e.cell)}: down to height {e.height}.")
        elif isinstance(e, events.HeightChanged) and e.cause == "immelmann":
            lines.append(f"{who(e.seat)} pulls an Immelmann at {board.name(e.cell)}!")
        elif isinstance(e, events.ShotDown):
            lines.append(
                f"💥 {who(e.by)} shoots down {who(e.seat)}'s plane at {board.name(e.cell)}!"
            )
        elif isinstance(e, events.BecameAce):
            lines.append(f"⭐ {who(e.seat)}'s plane at {board.name(e.cell)} is now an ace.")
        elif isinstance(e, events.Crashed):
            lines.append(f"🔥 {who(e.seat)}'s plane at {board.name(e.cell)} crashes.")
        elif isinstance(e, events.Eliminated):
            why = {
                "shot": "shot out of the sky",
                "crash": "down to one plane",
                "resign": "resigns",
                "timeout": "runs out of time",
            }[e.cause]
            lines.append(f"☠️ {who(e.seat)} is out: {why}.")
        elif isinstance(e, events.CardClaimed):
            card = CARDS[e.card]
            lines.append(f"🏅 {who(e.seat)} claims **{card.name}** ({card.points} pts).")
        elif isinstance(e, events.DrawAgreed):
            lines.append("🤝 Draw agreed.")
        elif isinstance(e, events.GameOver):
            lines.append(result_line(game, names))
    return lines


def result_line(game: Game, names: Sequence[str]) -> str:
    if game.result is None:
        return ""
    if game.result.drawn:
        return f"🏁 The game is drawn ({game.result.reason})."
    winners = " and ".join(seat_name(game, names, s) for s in game.result.winners)
    verb = "win" if len(game.result.winners) > 1 else "wins"
    return f"🏆 {winners} {verb} ({game.result.reason})!"


def turn_line(game: Game, names: Sequence[str]) -> str:
    """Whose decision it is and how much of their turn is left."""
    if game.is_over:
        return result_line(game, names)
    who = seat_name(game, names, game.active)
    if game.phase == "setup":
        return f"{who} places cloud {len(game.clouds) + 1} of 16."
    ramp = game.ramp
    if ramp >= ALL_ACTIONS:
        left = "every plane flies"
    else:
        n = ramp - game.actions
        left = f"{n} action{'s' * (n != 1)} left"
    return f"Turn {game.turn}: {who} to fly — {left}."
