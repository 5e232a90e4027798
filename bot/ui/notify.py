"""DMs about your games: :meth:`NotifyDesk.turn_passed` hears each
:class:`~bot.services.events.TurnPassed` on the event bus, and the clocks call
:func:`clock_low`, to send them (``/crosshairs notify`` in :mod:`bot.ui.notify_setting`
chooses how often). What is sent to whom
is :mod:`bot.services.notifications`'s decision; a DM that cannot be delivered (a person
who closed their DMs, or left every server the bot shares with them) is logged and
dropped, never retried: it must not hold up the match.

A DM is said in the language of the match's server (its preferred locale; English for a
match outside a server): Discord tells the bot a person's own language only with an
interaction of theirs, and the DM is sent when someone else acts (docs/localisation.md)."""

from __future__ import annotations

import logging
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING

import discord

from bot.services.events import TurnPassed
from bot.services.live import LiveMatch
from bot.services.notifications import Notice, Notifications
from bot.ui.language import server_locale
from i18n import speaking

if TYPE_CHECKING:
    from bot.discord_app import CrosshairsBot

log = logging.getLogger(__name__)

NO_PINGS = discord.AllowedMentions.none()


class NotifyDesk:
    """Hears each turn passed on the event bus (bot/app.py subscribes it)."""

    def __init__(self, bot: CrosshairsBot, service: Notifications) -> None:
        self.bot = bot
        self.service = service

    async def turn_passed(self, event: TurnPassed) -> None:
        """A DM for whoever is now to move (see :class:`Notifications`)."""
        with _dm_language(self.bot, event.match):
            notices = await self.service.turn_passed(event.match, event.actor)
        await _send(self.bot, notices)


async def game_opened(bot: CrosshairsBot, live: LiveMatch, actor: int | None) -> None:
    with _dm_language(bot, live):
        notices = await bot.env.notifications.game_opened(live, actor)
    await _send(bot, notices)


async def clock_low(bot: CrosshairsBot, live: LiveMatch) -> None:
    with _dm_language(bot, live):
        notices = await bot.env.notifications.clock_low(live)
    await _send(bot, notices)


def _dm_language(bot: CrosshairsBot, live: LiveMatch) -> AbstractContextManager[str]:
    """The language a DM about ``live`` is written in: its server's, not the language
    of whoever acted (the reader is someone else)."""
    return speaking(server_locale(bot, live.record.guild_id))


async def _send(bot: CrosshairsBot, notices: list[Notice]) -> None:
    for notice in notices:
        try:
            user = bot.get_user(notice.user_id) or await bot.fetch_user(notice.user_id)
            await user.send(notice.text, allowed_mentions=NO_PINGS)
        except discord.HTTPException as exc:
            log.info("no DM to %s (%s)", notice.user_id, exc)
