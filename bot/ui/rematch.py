"""Rematch in the thread: the **Rematch** button on a finished board, the offer's
**Accept** / **Decline**, and the thread's side of every step of an offer.

The rules are :mod:`bot.services.rematch`'s: a press asks the service, which checks it,
changes the stored offer and publishes the step; :class:`RematchThread` shows each step, whether
the press came from here or from the live board (bot/live): the offer posted in the match
thread pinging only those asked (where it is, stored with the offer, so whichever process
handles a later step settles it), settled when declined, withdrawn or accepted, and the
new match's thread opened in the channel the first one was started from. Where the bot
only answers (:mod:`bot.ui.anywhere`) there is no thread: the offer is a follow-up of the
press, and the rematch's board the offer itself or a follow-up (the live board does not
ask there: only these buttons do).

The custom ids:

* ``xh:rm:<match>`` — the board's Rematch button (drawn by :mod:`bot.ui.board`);
* ``xh:ra:<offer>:accept|decline`` — the answer to an offer.
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from typing import TYPE_CHECKING, Any

import discord

from bot.services.events import RematchChanged
from bot.services.live import LiveMatch, Occupant
from bot.services.refusal import Refusal
from bot.services.rematch import Rematches
from bot.services.rematch_offers import RematchOffer, Step
from bot.ui import questions
from bot.ui.board import REMATCH_ID
from bot.ui.components import OfferAnswer, Persistent, components
from bot.ui.context import bot_of
from bot.ui.errors import guarded, tell
from bot.ui.language import for_everyone
from bot.ui.offers import Table
from bot.ui.surfaces import surfaces_of
from bot.ui.text import name_of
from bot.ui.walls import match_of_press
from i18n import _

if TYPE_CHECKING:
    from bot.discord_app import CrosshairsBot

log = logging.getLogger(__name__)
KEEP_TOKENED = 1000  # offers posted where the bot only answers, whose token is kept


def _service(interaction: discord.Interaction) -> Rematches:
    return bot_of(interaction).env.rematches


class RematchButton(Persistent[discord.ui.Button[Any]], template=r"xh:rm:(?P<id>\d+)"):
    def __init__(self, match_id: int) -> None:
        super().__init__(
            discord.ui.Button(label=_("Rematch"), custom_id=REMATCH_ID.format(match_id))
        )
        self.match_id = match_id

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, self._press(interaction))

    async def _press(self, interaction: discord.Interaction) -> None:
        live = await match_of_press(interaction, self.match_id)
        service = _service(interaction)
        offer = await service.check(live, interaction.user.id)
        if offer is not None:  # the other side asked first: that is a yes
            await answer_offer(interaction, offer.id, "accept")
            return
        # Answered first: a press Discord refuses (late, or delivered twice) stops here.
        await interaction.response.defer()
        step = await service.ask(live, interaction.user.id, via=interaction)
        await _told(interaction, step)


async def answer_offer(interaction: discord.Interaction, offer_id: int, op: str) -> None:
    """Accept or decline (or, by its host, withdraw) an offer: checked, answered, then
    checked again and changed by the service."""
    user = interaction.user
    service = _service(interaction)
    offer = await service.addressed(offer_id, user.id, op)
    live = await match_of_press(interaction, offer.match_id)
    if not interaction.response.is_done():
        await interaction.response.defer()
    by = Occupant(user.id, name_of(user))
    await _told(interaction, await service.answer(live, offer_id, by, op, via=interaction))


async def _told(interaction: discord.Interaction, step: Step) -> None:
    """The presser's own answer (what everyone sees, the thread shows)."""
    if step == "accepted":
        await tell(interaction, "✅ " + _("Accepted: waiting for the others."))
    elif step == "declined":
        said = _("Rematch declined by {name}.", name=name_of(interaction.user))
        await tell(interaction, f"❌ {said}")
    elif step == "withdrawn":
        await tell(interaction, "❌ " + _("Rematch withdrawn."))


class AnswerButton(OfferAnswer, prefix="xh:ra"):
    async def press(self, interaction: discord.Interaction) -> None:
        await answer_offer(interaction, self.offer_id, self.op)


class RematchThread:
    """The thread's side of each offer's steps (subscribed by :mod:`bot.app`): the
    offer's message, its place stored to be settled by any process, and the new match's
    thread."""

    def __init__(self, bot: CrosshairsBot) -> None:
        self.bot = bot
        # a follow-up only its press's token edits, where the bot only answers: the one
        # handle storage cannot give (any process's press on it settles it all the same)
        self._tokened: OrderedDict[int, questions.Handle] = OrderedDict()  # by offer

    async def changed(self, event: RematchChanged) -> None:
        press = event.via if isinstance(event.via, discord.Interaction) else None
        offer = event.offer
        if event.step == "asked":
            await self._post(event.match, offer, press)
        elif event.step in ("withdrawn", "declined"):
            with for_everyone(self.bot, offer.plan.guild_id):
                if event.step == "withdrawn":
                    said = _("Rematch withdrawn.")
                else:
                    said = _("Rematch declined by {name}.", name=event.by.name)
            await self._settle(press, offer, f"❌ {said}")
        elif event.step == "started":
            assert event.rematch is not None, "a started rematch has its match"
            await self._start(event.rematch, offer, event.by, press)
        # "accepted" with others still to answer: only the presser is told

    async def _post(
        self, live: LiveMatch, offer: RematchOffer, press: discord.Interaction | None
    ) -> None:
        """The offer with Accept and Decline, pinging only those asked: a follow-up of
        the press, else (asked on the live board) posted in the match's thread."""
        with for_everyone(self.bot, live.record.guild_id):
            content, view = _offer_text(offer), _offer_view(offer)
        handle = await questions.ask(self.bot, live, press, content, view, offer.asked)
        if isinstance(handle, discord.WebhookMessage):
            self._tokened[offer.id] = handle
            while len(self._tokened) > KEEP_TOKENED:
                self._tokened.popitem(last=False)
        else:
            try:
                await self.bot.env.rematches.placed(offer, handle.channel.id, handle.id)
            except Refusal as refused:  # then only a press on the offer itself settles it
                log.warning("rematch offer %s: its message not noted (%s)", offer.id, refused)

    async def _start(
        self,
        rematch: LiveMatch,
        offer: RematchOffer,
        by: Occupant,
        press: discord.Interaction | None,
    ) -> None:
        """The rematch's own thread in the first match's channel (where the bot only
        answers: its board on the offer it was accepted on, or a follow-up of the press)."""
        bot = self.bot
        on_offer = await self._on_offer(press, offer)
        with for_everyone(bot, offer.plan.guild_id):
            intro = _intro(offer, rematch)
        surfaces = surfaces_of(bot)
        if press is not None:
            target = await surfaces.of(rematch).open(press, rematch, intro, not on_offer)
        else:  # agreed on the live board, which asks only where the bot posts on its own
            target = await surfaces.thread.open_unasked(rematch, intro, by.user_id)
        with for_everyone(bot, offer.plan.guild_id):
            if isinstance(target, discord.Thread):
                where = target.mention
            else:
                where = _("match #{id}", id=rematch.id)
            if press is not None and target is not None:  # posted on its own: told where
                await press.followup.send("🔁 " + _("The rematch is on: {where}.", where=where))
            accepted = _("Accepted: the rematch is on, {where}.", where=where)
        if target is not None or not on_offer:  # the offer did not become the board
            await self._settle(press, offer, f"✅ {accepted}")

    async def _on_offer(self, press: discord.Interaction | None, offer: RematchOffer) -> bool:
        """Whether ``press`` is a press on the offer's own message."""
        handle = await self._handle(offer)
        pressed = press.message if press is not None else None
        return pressed is not None and handle is not None and pressed.id == handle.id

    async def _settle(
        self, press: discord.Interaction | None, offer: RematchOffer, said: str
    ) -> None:
        """The offer message loses its buttons and says what became of it: through the
        press on it when that is where the step came from, else through its handle
        (where the bot only answers, that is the token of the press that posted it: past
        its 15 minutes the offer keeps its buttons, which tell a press what became of
        it)."""
        handle = await self._handle(offer)
        if handle is None:
            return
        with for_everyone(self.bot, offer.plan.guild_id):
            content = f"{_offer_text(offer)}\n\n{said}"
        try:
            if press is not None and await self._on_offer(press, offer):
                await press.edit_original_response(content=content, view=None)
            else:
                await handle.edit(content=content, view=None)
        except discord.HTTPException as exc:
            log.info("rematch offer %s: its message could not be updated (%s)", offer.id, exc)

    async def _handle(self, offer: RematchOffer) -> questions.Handle | None:
        """The offer's message: where storage says it is, else the press's follow-up
        this process posted."""
        where = await self.bot.env.rematches.message_of(offer)
        if where is not None:
            channel_id, message_id = where
            return self.bot.get_partial_messageable(channel_id).get_partial_message(message_id)
        return self._tokened.get(offer.id)


def _table(offer: RematchOffer) -> Table:
    """The offer as a table, for its words."""
    return Table.agreed(offer.id, offer.host, offer.plan)


def _offer_text(offer: RematchOffer) -> str:
    asked = " ".join(f"<@{u}>" for u in sorted(offer.asked))
    said = _("**Rematch?** {host} asks {asked}", host=offer.host.name, asked=asked)
    return f"🔁 {said}\n{_table(offer).describe()}"


def _offer_view(offer: RematchOffer) -> discord.ui.View:
    view = components()
    view.add_item(AnswerButton(offer.id, "accept"))
    view.add_item(AnswerButton(offer.id, "decline"))
    return view


def _intro(offer: RematchOffer, live: LiveMatch) -> str:
    return "🔁 " + _(
        "**Match #{id}**, a rematch of #{old} — {table}",
        id=live.id,
        old=offer.match_id,
        table=_table(offer).describe(),
    )


async def setup(bot: CrosshairsBot) -> None:
    bot.add_dynamic_items(RematchButton, AnswerButton)
