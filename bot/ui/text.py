"""People's free text, held to Discord's limits and kept from pinging anyone.

Each free-text option declares its longest value (``app_commands.Range[str, …]``, so
Discord refuses more in the box) and the command checks it again with ``bounded``, since a
command can be sent by anything that speaks the API. Text shown back to people is cut to
fit a message (``fit``), and a name people chose is stored with its mentions escaped
(``plain``) so that a tournament called ``@everyone cup`` pings nobody wherever it is shown.
"""

from __future__ import annotations

import discord

from bot.services.live import MatchError
from i18n import _

MESSAGE = 2000  # characters of a Discord message's content
NAME = 100  # a tournament's name
LIST = 200  # a comma-separated list: variants, tie-breaks, handicaps
TOKENS = 1000  # a typed turn for /crosshairs move
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


def plain(text: str) -> str:
    """``text`` with its mentions (@everyone, @here, users, roles) made harmless."""
    return discord.utils.escape_mentions(" ".join(text.split()))
