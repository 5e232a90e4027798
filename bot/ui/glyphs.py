"""Glyphs in text: each seat's insignia and each manoeuvre as the application's own
emojis, which Discord shows in every server and DM the bot's messages reach. They are
drawn by :mod:`render.glyphs` and uploaded when the bot starts, only those missing (by
name); then the cockpit's menus and step buttons show them as their options' and
buttons' emoji, and a turn told in words starts with its seat's insignia
(``<:name:id>``). Where an upload is refused or fails, the text is what it was without
them: nothing else depends on a glyph.
"""

from __future__ import annotations

import asyncio
import logging
import re
from typing import TYPE_CHECKING

import discord

from bot.services.live import LiveMatch
from render import glyphs as drawn

if TYPE_CHECKING:
    from bot.discord_app import CrosshairsBot

log = logging.getLogger(__name__)

# a plane action's notation: its cell, then its first manoeuvre (a placement is "+")
ACTION = re.compile(r"^[a-z]+\d+(F1|[CFSPIX])")
# Discord refusing or failing, no application id yet, the network down
FAILURES = (discord.DiscordException, OSError)


class Glyphs:
    """The emojis uploaded, by name (none: every text as it was)."""

    def __init__(self, emojis: dict[str, discord.Emoji] | None = None) -> None:
        self.emojis = dict(emojis or {})

    def insignia(self, live: LiveMatch, seat: int) -> discord.Emoji | None:
        return self.emojis.get(drawn.insignia_name(live.game.mode, seat))

    def of_action(self, live: LiveMatch, notation: str) -> discord.Emoji | None:
        """The glyph of a plane action written in notation: the seat's insignia for a
        placement, else its first manoeuvre's (none for a shot or the end of a turn)."""
        seat = live.game.to_move
        if notation.startswith("+"):
            return None if seat is None else self.insignia(live, seat)
        found = ACTION.match(notation)
        return self.emojis.get(drawn.MANOEUVRE_NAMES[found[1]]) if found else None

    def said(self, emoji: discord.Emoji | None) -> str:
        """``emoji`` as text followed by a space, or nothing (the plain-text fallback)."""
        return f"{emoji} " if emoji is not None else ""


NONE = Glyphs()


def glyphs_of(bot: CrosshairsBot) -> Glyphs:
    found = bot.glyphs
    return found if isinstance(found, Glyphs) else NONE


async def upload(bot: CrosshairsBot) -> Glyphs:
    """The application's glyph emojis, each uploaded unless one of its name is there; on
    a refusal or a failure, those there are used and the rest of the text stays plain."""
    try:
        have = {e.name: e for e in await bot.fetch_application_emojis()}
    except FAILURES as exc:
        log.warning("the application's emojis could not be listed (%s): plain text", exc)
        return NONE
    wanted = drawn.names()
    missing = [name for name in wanted if name not in have]
    if missing:
        images = await asyncio.to_thread(drawn.glyphs)
        for name in missing:
            try:
                have[name] = await bot.create_application_emoji(name=name, image=images[name])
            except FAILURES as exc:
                log.warning("emoji %s was refused (%s): its glyph stays plain text", name, exc)
                break
    found = Glyphs({name: have[name] for name in wanted if name in have})
    log.info("glyphs: %d of %d emojis in use", len(found.emojis), len(wanted))
    return found
