"""Helpers shared by the rules tests: hand-built positions and short play-throughs."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TypeVar

from rules import board, events, notation, position
from rules.events import Event
from rules.game import Game

# A legal 16-cloud layout (point-symmetric, no group over two cells), for setup tests.
LAYOUT = "b5 d5 d6 d9 e1 e8 f1 f5 f7 f11 g4 g11 h3 h6 h7 j7".split()  # noqa: SIM905


def pos(text: str, fire: str = "manual", **settings: object) -> Game:
    """A hand-built position (manual fire unless asked, so shots show as steps)."""
    return position.parse(text, fire=fire, **settings)


def play(game: Game, *tokens: str) -> list[Event]:
    """Apply tokens; return every event they caused, in order."""
    happened: list[Event] = []
    for _, evs in notation.play_tokens(game, tokens):
        happened.extend(evs)
    return happened


def legal(game: Game) -> set[str]:
    return {s.token for s in game.legal_steps()}


def legal_for(game: Game, cell: str) -> set[str]:
    """Legal single-step tokens of the plane at ``cell``."""
    return {t for t in legal(game) if t.startswith(cell) and not t.startswith(("+", "*"))}


def at(game: Game, cell: str) -> tuple[int, str, int] | None:
    """(seat, facing name, height) of the plane at ``cell``, or None."""
    p = game.plane_at(board.cell(cell))
    return None if p is None else (p.seat, board.DIRECTIONS[p.facing], p.height)


E = TypeVar("E")


def of_type(happened: Iterable[Event], kind: type[E]) -> list[E]:
    return [e for e in happened if isinstance(e, kind)]


__all__ = ["LAYOUT", "at", "events", "legal", "legal_for", "of_type", "play", "pos"]
