"""Rematch: the **Rematch** button on a finished board offers the same game again.

A player of the finished match presses it; the others of its people are asked in the
match thread, pinged by name, and each accepts or declines with a button. When every
one of them has accepted (at once, against the computer alone), a new match starts in
the channel the first one was started from, with the same settings and clock, each
player one seat on (in a duel, the two swap seats and so who flies first). A finished
game had its clouds; the rematch gets a fresh random layout (or none, if it had none).
Where the bot only answers (:mod:`bot.ui.anywhere`) there is no thread: the offer is a
follow-up of the press, and the rematch's board the offer itself or a follow-up.

The offers live in memory, like challenges: a press after a restart is told to press
Rematch again. A match gets one rematch: once an offer is accepted, declined or
withdrawn, its Rematch button says so. The custom ids:

* ``xh:rm:<match>`` — the board's Rematch button (drawn by :mod:`bot.ui.board`);
* ``xh:ra:<offer>:accept|decline`` — the answer to an offer.
"""

from __future__ import annotations

import itertools
import logging
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import discord

from bot.services.live import LiveMatch, Occupant
from bot.services.refusal import Refusal
from bot.ui.board import REMATCH_ID
from bot.ui.components import OfferAnswer, Persistent, components
from bot.ui.context import bot_of
from bot.ui.desks import desks_of
from bot.ui.errors import guarded, tell
from bot.ui.invites import create_match
from bot.ui.language import for_everyone
from bot.ui.offers import Table
from bot.ui.rematch_offers import Offer, RematchOffers
from bot.ui.surfaces import surfaces_of
from bot.ui.text import name_of
from bot.ui.walls import match_of_press
from i18n import _

if TYPE_CHECKING:
    from bot.discord_app import CrosshairsBot

log = logging.getLogger(__name__)
_ids = itertools.count(1)


def _offers(interaction: discord.Interaction) -> RematchOffers:
    return desks_of(bot_of(interaction)).rematches


def rematch_table(live: LiveMatch, host: Occupant, rated: bool) -> Table:
    """The finished match's game again: every seat's occupant (and handicap) one seat
    on, the same settings, clock and choice of rated or not, fresh clouds."""
    settings = live.game.settings
    seats = [live.seats[-1], *live.seats[:-1]]
    handicaps = (settings.handicaps[-1], *settings.handicaps[:-1])
    return Table(
        id=next(_ids),
        host=host,
        settings=replace(settings, handicaps=handicaps, cards=()),
        clouds="random" if live.game.clouds else "none",
        clock=live.clock,
        channel_id=live.record.channel_id,
        guild_id=live.record.guild_id,
        seats=list(seats),
        rated=rated,
    )


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
        rated = not await bot_of(interaction).env.ratings.chosen_unrated(live.id)
        book = _offers(interaction)
        _check(book, live, interaction.user.id)
        offer = book.waiting_offer(live.id)
        if offer is not None:  # the other side pressed Rematch too: that is a yes
            await answer_offer(interaction, offer.id, "accept")
            return
        # Answered first: a press Discord refuses (late, or delivered twice) stops here.
        await interaction.response.defer()
        _check(book, live, interaction.user.id)  # again: another press may have come
        offer = book.waiting_offer(live.id)
        if offer is not None:
            await answer_offer(interaction, offer.id, "accept")
            return
        user = interaction.user
        me = live.seats[live.seats_of(user.id)[0]]
        offer = Offer(
            id=next(_ids),
            match_id=live.id,
            host=user.id,
            table=rematch_table(live, Occupant(user.id, me.name), rated),
            waiting={e.user_id for e in live.seats if e.user_id not in (None, user.id)},
        )
        if not offer.waiting:  # only the computer to ask
            book.close(offer, _("the rematch is on"))
            await _start(interaction, offer)
            return
        book.pending[offer.id] = offer
        book.by_match[live.id] = offer.id
        with for_everyone(bot_of(interaction), live.record.guild_id):
            content, view = _offer_text(offer), _offer_view(offer)
        sent = await interaction.followup.send(
            content,
            view=view,
            allowed_mentions=discord.AllowedMentions(
                users=[discord.Object(u) for u in sorted(offer.waiting)]
            ),
            wait=True,
        )
        offer.message = surfaces_of(bot_of(interaction)).of(live).kept(sent)


def _check(book: RematchOffers, live: LiveMatch, user_id: int) -> None:
    if not live.game.is_over or live.aborted:
        raise Refusal(_("a rematch can be asked for only once the game has a result"))
    if not live.seats_of(user_id):
        raise Refusal(_("only the players of this match can ask for its rematch"))
    if any(e.user_id is not None and e.user_id < 0 for e in live.seats):
        raise Refusal(_("a pilot of this match was forgotten at their request: no rematch"))
    if live.id in book.done:
        raise Refusal(book.done[live.id])
    pending = book.waiting_offer(live.id)
    if pending is not None and user_id not in pending.waiting:
        raise Refusal(_("you have already asked for this rematch: waiting for an answer"))


def _offer_text(offer: Offer) -> str:
    table = offer.table
    asked = " ".join(f"<@{u}>" for u in sorted(offer.waiting))
    said = _("**Rematch?** {host} asks {asked}", host=table.host.name, asked=asked)
    return f"🔁 {said}\n{table.describe()}"


def _offer_view(offer: Offer) -> discord.ui.View:
    view = components()
    view.add_item(AnswerButton(offer.id, "accept"))
    view.add_item(AnswerButton(offer.id, "decline"))
    return view


def _offer(book: RematchOffers, offer_id: int, user_id: int, op: str) -> Offer:
    offer = book.pending.get(offer_id)
    if offer is None:
        raise Refusal(
            book.closed.get(offer_id)
            or _("this rematch offer is no longer open (the bot restarted): press Rematch again")
        )
    if user_id not in offer.waiting and not (op == "decline" and user_id == offer.host):
        raise Refusal(_("this rematch offer is not addressed to you"))
    return offer


async def answer_offer(interaction: discord.Interaction, offer_id: int, op: str) -> None:
    """Accept or decline (or, by its host, withdraw) an offer: checked, answered, checked
    again and only then changed, without an await in between."""
    user = interaction.user
    book = _offers(interaction)
    await match_of_press(interaction, _offer(book, offer_id, user.id, op).match_id)
    if not interaction.response.is_done():
        await interaction.response.defer()
    offer = _offer(book, offer_id, user.id, op)
    if op == "decline":
        withdrawn = user.id == offer.host
        if withdrawn:
            book.close(offer, _("it was withdrawn"))
            await tell(interaction, "❌ " + _("Rematch withdrawn."))
        else:
            book.close(offer, _("it was declined by {name}", name=name_of(user)))
            await tell(interaction, "❌ " + _("Rematch declined by {name}.", name=name_of(user)))
        with for_everyone(bot_of(interaction), offer.table.guild_id):
            if withdrawn:
                said = _("Rematch withdrawn.")
            else:
                said = _("Rematch declined by {name}.", name=name_of(user))
            await _settle(interaction, offer, f"❌ {said}")
        return
    offer.waiting.discard(user.id)
    if offer.waiting:
        await tell(interaction, "✅ " + _("Accepted: waiting for the others."))
        return
    book.close(offer, _("the rematch is on"))
    await _start(interaction, offer)


async def _start(interaction: discord.Interaction, offer: Offer) -> None:
    """The rematch as a new match, with its own thread in the first match's channel."""
    bot = bot_of(interaction)
    table = offer.table
    try:
        live = await create_match(bot, table, table.id * 7919 + interaction.id % 1000)
    except Exception:
        # nothing was made: Rematch may be pressed again
        _offers(interaction).reopen(offer.match_id)
        raise
    # the board on the offer it was accepted on (where the bot only answers), else
    # a follow-up of the press or a thread of its own
    on_offer = _on_offer(interaction, offer)
    with for_everyone(bot, table.guild_id):
        intro = _intro(offer, live)
    target = await surfaces_of(bot).of(live).open(interaction, live, intro, not on_offer)
    with for_everyone(bot, table.guild_id):
        if isinstance(target, discord.Thread):
            where = target.mention
        else:
            where = _("match #{id}", id=live.id)
        said = _("this match's rematch is already on: {where}", where=where)
        _offers(interaction).settle(offer.match_id, said)
        if target is not None:  # posted on its own: the press is told where
            await interaction.followup.send("🔁 " + _("The rematch is on: {where}.", where=where))
        if target is not None or not on_offer:  # the offer did not become the board
            accepted = _("Accepted: the rematch is on, {where}.", where=where)
            await _settle(interaction, offer, f"✅ {accepted}")


def _intro(offer: Offer, live: LiveMatch) -> str:
    return "🔁 " + _(
        "**Match #{id}**, a rematch of #{old} — {table}",
        id=live.id,
        old=offer.match_id,
        table=offer.table.describe(),
    )


def _on_offer(interaction: discord.Interaction, offer: Offer) -> bool:
    """Whether ``interaction`` is a press on the offer's own message."""
    pressed = interaction.message
    return pressed is not None and offer.message is not None and pressed.id == offer.message.id


async def _settle(interaction: discord.Interaction, offer: Offer, said: str) -> None:
    """The offer message loses its buttons and says what became of it: through the press
    on it when that is where ``interaction`` came from, else through its handle (where
    the bot only answers, that is the token of the press that posted it: past its 15
    minutes the offer keeps its buttons, which tell a press what became of it)."""
    if offer.message is None:
        return
    content = f"{_offer_text(offer)}\n\n{said}"
    try:
        if _on_offer(interaction, offer):
            await interaction.edit_original_response(content=content, view=None)
        else:
            await offer.message.edit(content=content, view=None)
    except discord.HTTPException as exc:
        log.info("rematch offer %s: its message could not be updated (%s)", offer.id, exc)


class AnswerButton(OfferAnswer, prefix="xh:ra"):
    async def press(self, interaction: discord.Interaction) -> None:
        await answer_offer(interaction, self.offer_id, self.op)


async def setup(bot: CrosshairsBot) -> None:
    bot.add_dynamic_items(RematchButton, AnswerButton)
