"""What happened, for the Discord thread: the sentences of :mod:`rules.words.telling`,
each marked with an emoji that Discord draws in colour. The result goes unmarked: it
is also the board's status line, which is then not repeated."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from rules.events import Event
from rules.game import Game
from rules.words.telling import tell_events

_MARKS: Final = {
    "shot": "💥 ",
    "crash": "🔥 ",
    "ace": "⭐ ",
    "out": "☠️ ",
    "card": "🏅 ",
    "draw": "🤝 ",
}


def describe(game: Game, names: Sequence[str], happened: Sequence[Event]) -> list[str]:
    """One sentence per thing the game's last steps (with events ``happened``) did."""
    return [f"{_MARKS.get(s.kind, '')}{s.text}." for s in tell_events(game, names, happened)]
