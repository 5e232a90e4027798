"""DMs about your games: :meth:`TurnNotifier.turn_passed` hears each
:class:`~bot.services.events.TurnPassed` on the event bus, and the clocks call
:func:`clock_low`, to send them (``/crosshairs notify`` in :mod:`bot.ui.notify_setting`
chooses how often). What is sent to whom
is :mod:`bot.services.notifications`'s decision; a DM that cannot be delivered (a person
who closed their DMs, or left every server the bot shares with them) is logged and
dropped, never retried: it must not hold up the match.

A DM is written in its reader's language, as their latest interaction told it, else in
the match's server's (its preferred locale; English for a match outside a server): the
DM is sent when someone else acts (:mod:`bot.services.notifications`,
docs/localisation.md)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import discord

from bot.services.events import TurnPassed, nonce
from bot.services.live import LiveMatch
from bot.services.notifications import Notice, Notifications
from bot.ui.language import server_locale

if TYPE_CHECKING:
    from bot.discord_app import CrosshairsBot

log = logging.getLogger(__name__)

NO_PINGS = discord.AllowedMentions.none()


class TurnNotifier:
    """Hears each turn passed on the event bus (bot/app.py subscribes it)."""

    def __init__(self, bot: CrosshairsBot, service: Notifications) -> None:
        self.bot = bot
        self.service = service

    async def turn_passed(self, event: TurnPassed) -> None:
        """A DM for whoever is now to move (see :class:`Notifications`), with a nonce of
        the match, ply and reader: a turn told again after a restart (the process died
        before marking it told) returns the first DM instead of sending a second."""
        server = server_locale(self.bot, event.match.record.guild_id)
        notices = await self.service.turn_passed(event.match, event.actor, server)
        await _send(self.bot, notices, lambda user: nonce(event.match.id, "turn", event.ply, user))


async def game_opened(bot: CrosshairsBot, live: LiveMatch, actor: int | None) -> None:
    server = server_locale(bot, live.record.guild_id)
    await _send(bot, await bot.env.notifications.game_opened(live, actor, server))


async def clock_low(bot: CrosshairsBot, live: LiveMatch) -> None:
    server = server_locale(bot, live.record.guild_id)
    await _send(bot, await bot.env.notifications.clock_low(live, server))


async def _send(
    bot: CrosshairsBot, notices: list[Notice], nonce_of: Callable[[int], str] | None = None
) -> None:
    """Send each notice; ``nonce_of`` (a reader's id) gives the nonce of a DM that a
    restart may send again."""
    for notice in notices:
        extra: dict[str, Any] = {} if nonce_of is None else {"nonce": nonce_of(notice.user_id)}
        try:
            user = bot.get_user(notice.user_id) or await bot.fetch_user(notice.user_id)
            await user.send(notice.text, allowed_mentions=NO_PINGS, **extra)
        except discord.HTTPException as exc:
            log.info("no DM to %s (%s)", notice.user_id, exc)
