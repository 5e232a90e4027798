"""Challenges in Discord: the challenge's **Accept** / **Decline** (custom id
``xh:ch:<challenge>:accept|decline``), and the Discord side of every step of a
challenge, asked and answered here or on the live board (bot/live).

The rules are :mod:`bot.services.challenges`'s: a press asks the service, which checks
it, changes the challenge and publishes the step; :class:`ChallengeChannel` shows each
step whichever surface it came from: the challenge posted pinging only the one
challenged (the command's answer, or a message in the channel the live board was
opened in), settled when declined, withdrawn or accepted, and the new match's thread
opened in the challenge's channel.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from enum import Enum
from typing import TYPE_CHECKING, Literal

import aiohttp
import discord

from bot.services.challenge_offers import Challenge
from bot.services.events import ChallengeChanged, nonce
from bot.services.live import LiveMatch, Occupant
from bot.services.refusal import Refusal
from bot.ui import anywhere
from bot.ui.access import require_play
from bot.ui.components import OfferAnswer, components
from bot.ui.context import bot_of
from bot.ui.invites import match_is_on
from bot.ui.language import for_everyone
from bot.ui.offers import Table
from bot.ui.questions import Handle
from bot.ui.surfaces import surfaces_of
from bot.ui.text import name_of
from i18n import _

if TYPE_CHECKING:
    from bot.discord_app import CrosshairsBot

log = logging.getLogger(__name__)
# seconds between tries of a challenge's post Discord could not take: about an hour in all
POST_AGAIN = (30.0, 60.0, 120.0, 300.0, 600.0, 900.0, 1800.0)


class Post(Enum):
    """What became of a challenge's post."""

    SENT = "sent"
    AGAIN = "again"  # Discord could not take it: to try again
    REFUSED = "refused"  # the bot may not post there


KEPT = 1000  # challenges posted where the bot only answers, whose token is kept


def home_of(bot: CrosshairsBot, guild_id: int | None, channel_id: int) -> int | None:
    """The channel a challenge asked in ``channel_id`` is played in (a thread's own
    channel: the match's thread hangs off it); None where the bot does not post on its
    own (there only the command's challenge, answered through its presses, is made)."""
    if not anywhere.in_guild(bot, guild_id):
        return None
    channel = bot.get_channel(channel_id)
    if isinstance(channel, discord.Thread) and channel.parent_id:
        return channel.parent_id
    return channel_id


class ChallengeButton(OfferAnswer, prefix="xh:ch"):
    async def press(self, interaction: discord.Interaction) -> None:
        service = bot_of(interaction).env.challenges
        user, guild = interaction.user, interaction.guild_id
        op: Literal["accept", "decline"] = "accept" if self.op == "accept" else "decline"
        await service.addressed(self.offer_id, user.id, op, guild)
        if op == "accept":
            # Moderators may have taken a permission away since the challenge was posted.
            require_play(interaction)
        # Answered first: a press Discord refuses (late, or a second delivery) stops
        # here, before the challenge is touched; the service checks it all again.
        await interaction.response.defer()
        by = Occupant(user.id, name_of(user))
        await service.answer(self.offer_id, by, op, guild, via=interaction)


def challenge_view(challenge: Challenge) -> discord.ui.View:
    view = components()
    view.add_item(ChallengeButton(challenge.id, "accept"))
    view.add_item(ChallengeButton(challenge.id, "decline"))
    return view


def table_of(challenge: Challenge, seated: bool = False) -> Table:
    """The challenge as a table, for its words (``seated``: accepted, both seats taken)."""
    seats: list[Occupant | None] = [challenge.host, challenge.invited if seated else None]
    return Table.agreed(challenge.id, challenge.host, challenge, seats, challenge.invited)


class ChallengeChannel:
    """The Discord side of each step of a challenge (subscribed by :mod:`bot.app`)."""

    def __init__(self, bot: CrosshairsBot) -> None:
        self.bot = bot
        # a follow-up only its press's token edits, where the bot only answers: the one
        # handle storage cannot give (any process's press on it settles it all the same)
        self._tokened: OrderedDict[int, Handle] = OrderedDict()  # by challenge

    async def changed(self, event: ChallengeChanged) -> None:
        press = event.via if isinstance(event.via, discord.Interaction) else None
        challenge = event.challenge
        if event.step == "asked":
            await self._post(challenge, press)
            return
        if event.step == "started":
            assert event.match is not None, "a started challenge has its match"
            target = await self._start(event.match, challenge, event.by, press)
            if target is None:  # the challenge's own message became the board
                return
            with for_everyone(self.bot, challenge.guild_id):
                said = "✅ " + match_is_on(target)
        else:
            with for_everyone(self.bot, challenge.guild_id):
                if event.step == "withdrawn":
                    said = "❌ " + _("Challenge withdrawn.")
                else:
                    said = "❌ " + _("Challenge declined.")
        with for_everyone(self.bot, challenge.guild_id):
            described = table_of(challenge, seated=event.step == "started").describe()
        await self._settle(challenge, press, f"{described}\n\n{said}")

    async def _post(self, challenge: Challenge, press: discord.Interaction | None) -> None:
        """The challenge with Accept and Decline, pinging only the one challenged: the
        answer to the command, else (asked on the live board) in the channel the live
        board was opened in."""
        if press is None:
            if await self._sent(challenge) is Post.AGAIN:
                self.bot.spawn(self._post_later(challenge))
            return
        content, view, pings = self._words(challenge)
        await press.response.send_message(content, view=view, allowed_mentions=pings)
        sent = await press.original_response()
        if anywhere.posts_on_its_own(press):
            await self._placed(challenge, sent.channel.id, sent.id)
            return
        self._tokened[challenge.id] = sent
        while len(self._tokened) > KEPT:
            self._tokened.popitem(last=False)

    def _words(self, challenge: Challenge) -> tuple[str, discord.ui.View, discord.AllowedMentions]:
        invited = challenge.invited.user_id
        with for_everyone(self.bot, challenge.guild_id):
            said = _(
                "{opponent}, {name} challenges you!",
                opponent=f"<@{invited}>",
                name=challenge.host.name,
            )
            content = f"⚔️ {said}\n{table_of(challenge).describe()}"
        pings = discord.AllowedMentions(users=[discord.Object(invited or 0)])
        return content, challenge_view(challenge), pings

    async def _placed(self, challenge: Challenge, channel_id: int, message_id: int) -> None:
        try:
            await self.bot.env.challenges.placed(challenge, channel_id, message_id)
        except Refusal as refused:  # then only a press on the challenge itself settles it
            log.warning("challenge %s: its message not noted (%s)", challenge.id, refused)

    async def _sent(self, challenge: Challenge) -> Post:
        """The challenge asked on the live board, posted in the channel it was asked in:
        ``SENT``, or ``AGAIN`` where Discord could not take it (the bot's calls try
        again for a while first), or ``REFUSED`` where Discord refused it (the
        bot may not post there: the two pages still show and answer it)."""
        content, view, pings = self._words(challenge)
        channel = self.bot.get_partial_messageable(challenge.asked_in)
        # the nonce: a post that landed although its answer was lost is not doubled
        said = nonce("challenge", challenge.id)
        try:
            posted = await channel.send(content, view=view, allowed_mentions=pings, nonce=said)
        except discord.HTTPException as exc:
            if exc.status < 500:
                log.warning("challenge %s not posted: Discord refused (%s)", challenge.id, exc)
                return Post.REFUSED
            log.info("challenge %s not posted yet (%s)", challenge.id, exc)
            return Post.AGAIN
        except (aiohttp.ClientError, TimeoutError) as exc:
            log.info("challenge %s not posted yet (%s)", challenge.id, exc)
            return Post.AGAIN
        await self._placed(challenge, posted.channel.id, posted.id)
        return Post.SENT

    async def _post_later(self, challenge: Challenge) -> None:
        """The challenge's post tried again, less and less often, while it is open:
        shown once Discord is back."""
        for wait in POST_AGAIN:
            await asyncio.sleep(wait)
            if not await self.bot.env.challenges.still_open(challenge):
                return
            if await self._sent(challenge) is not Post.AGAIN:
                return
        log.warning("challenge %s: never posted, Discord did not take it", challenge.id)

    async def _start(
        self,
        live: LiveMatch,
        challenge: Challenge,
        by: Occupant,
        press: discord.Interaction | None,
    ) -> discord.abc.Messageable | None:
        """The new match's thread (where the bot only answers, its board on the
        challenge's own message: then None)."""
        with for_everyone(self.bot, challenge.guild_id):
            table = table_of(challenge, seated=True).describe()
            intro = "✈️ " + _("**Match #{id}** — {table}", id=live.id, table=table)
        surfaces = surfaces_of(self.bot)
        if press is not None:
            return await surfaces.of(live).open(press, live, intro, False)
        # accepted on the live board, which asks only where the bot posts on its own
        return await surfaces.thread.open_unasked(live, intro, by.user_id)

    async def _settle(
        self, challenge: Challenge, press: discord.Interaction | None, content: str
    ) -> None:
        """The challenge's message loses its buttons and says what became of it: through
        the press on it, else through the handle kept when it was posted."""
        try:
            if press is not None:
                self._tokened.pop(challenge.id, None)
                await press.edit_original_response(content=content, view=None)
            elif (handle := await self._handle(challenge)) is not None:
                await handle.edit(content=content, view=None)
        except discord.HTTPException as exc:
            log.info("challenge %s: its message could not be updated (%s)", challenge.id, exc)

    async def _handle(self, challenge: Challenge) -> Handle | None:
        """The challenge's message: where storage says it is, else the press's answer
        this process posted."""
        where = await self.bot.env.challenges.message_of(challenge)
        if where is not None:
            channel_id, message_id = where
            return self.bot.get_partial_messageable(channel_id).get_partial_message(message_id)
        return self._tokened.pop(challenge.id, None)


async def setup(bot: CrosshairsBot) -> None:
    bot.add_dynamic_items(ChallengeButton)
