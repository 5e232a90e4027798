"""What happened, for the Discord thread: the sentences of :mod:`rules.words.telling`,
each marked with an emoji that Discord draws in colour. The result goes unmarked: it
is also the board's status line, which is then not repeated."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from bot.services.live import LiveMatch
from rules.events import Event
from rules.words.telling import tell_events

_MARKS: Final = {
    "shot": "💥 ",
    "crash": "🔥 ",
    "ace": "⭐ ",
    "out": "☠️ ",
    "card": "🏅 ",
    "draw": "🤝 ",
}


def describe(live: LiveMatch, happened: Sequence[Event]) -> list[str]:
    """One sentence per thing the match's last steps (with events ``happened``) did."""
    told = tell_events(live.game, live.names, happened, live.telling())
    return [f"{_MARKS.get(s.kind, '')}{s.text}." for s in told]
