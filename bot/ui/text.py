"""People's free text, held to Discord's limits and kept from pinging anyone.

Each free-text option declares its longest value (``app_commands.Range[str, …]``, so
Discord refuses more in the box) and the command checks it again with ``bounded``, since a
command can be sent by anything that speaks the API. Text shown back to people is cut to
fit a message (``fit``), and a name people chose is stored with its mentions escaped
(``plain``) so that a tournament called ``@everyone cup`` pings nobody wherever it is shown.
Directional controls never go out (a name starting with U+202E would reverse the rest of
the bot's line), and a name that shows nothing (zero-width characters only) is refused.
"""

from __future__ import annotations

import unicodedata
from typing import TypeAlias

import discord
from discord import app_commands

from bot.services.live import MatchError
from i18n import _

MESSAGE = 2000  # characters of a Discord message's content
NAME = 100  # a tournament's name
LIST = 200  # a comma-separated list: variants, tie-breaks, handicaps
TOKENS = 1000  # a typed turn for /crosshairs move
WORD = 100  # a short thing typed: a puzzle's number, a lesson
CHOICE = 40  # a value picked from an option's choices (a modified client sends any)

Word: TypeAlias = app_commands.Range[str, 1, WORD]
Picked: TypeAlias = app_commands.Range[str, 1, CHOICE]
ELLIPSIS = "…"


def fit(text: str, limit: int = MESSAGE) -> str:
    """``text`` cut to ``limit`` characters, marked with "…" where it was cut."""
    return text if len(text) <= limit else text[: limit - len(ELLIPSIS)] + ELLIPSIS


def bounded(value: str, limit: int, what: str) -> str:
    """``value`` if it is at most ``limit`` characters; else a friendly refusal that does
    not repeat it. ``what`` is English, marked with ``N_`` where it is written."""
    if len(value) > limit:
        raise MatchError(
            _("{what} is too long: at most {limit} characters, please", what=_(what), limit=limit)
        )
    return value


# Directional controls: a name starting with U+202E would turn the rest of the bot's
# line around wherever it is shown, so people's text goes out without them.
_BIDI = dict.fromkeys(
    map(ord, "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
)
# Letters that show nothing (fillers, the blank braille cell), besides format characters
_BLANK = frozenset("\u115f\u1160\u3164\uffa0\u2800\u180e")


def plain(text: str) -> str:
    """``text`` with its mentions (@everyone, @here, users, roles) made harmless and its
    directional controls taken out."""
    return discord.utils.escape_mentions(" ".join(text.translate(_BIDI).split()))


def visible(text: str) -> bool:
    """Whether ``text`` shows anything: not only spaces, zero-width characters and
    other invisible ones."""
    return any(
        not c.isspace() and c not in _BLANK and unicodedata.category(c) not in ("Cf", "Cc")
        for c in text
    )


def name_of(user: discord.abc.User) -> str:
    """A person's display name, as the bot echoes it: without directional controls."""
    return user.display_name.translate(_BIDI)
