"""Helpers shared by the rules tests: hand-built positions and short play-throughs."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TypeVar

from rules import board, events, notation, position
from rules.events import Event
from rules.game import Game


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


__all__ = ["at", "events", "legal", "legal_for", "of_type", "play", "pos"]
