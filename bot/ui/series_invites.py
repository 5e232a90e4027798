"""``/crosshairs-series start``: a series is an invitation first.

The organiser names the players; each invited person accepts or declines with the
buttons under the invitation. Nothing is stored, rated or clocked until every one of
them has accepted: then the series gets its thread and its first game. Anyone invited
(or the organiser) may decline, which calls it off; an invitation nobody answered in
:data:`INVITATION_TIMEOUT` seconds has expired. Like a challenge, invitations live in
memory: their buttons say so politely if the bot restarted in between. The computer is
never asked: a series against it alone starts at once.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot.services.computer_seat import computer_name
from bot.services.live import Occupant
from bot.services.refusal import Refusal
from bot.services.series import SeriesPlan
from bot.ui.access import require_play
from bot.ui.commands import add_commands
from bot.ui.components import OfferAnswer, components
from bot.ui.context import bot_of
from bot.ui.desks import desks_of
from bot.ui.language import for_everyone
from bot.ui.offers import Invitation, offers_of
from bot.ui.options import (
    GAME_DESCRIPTIONS,
    STRENGTH_CHOICES,
    game_choices,
    turn_clock,
)
from bot.ui.series import MODE_CHOICES, series
from bot.ui.text import LIST, Picked, bounded, name_of
from competition.ratings import MAX_HANDICAP
from competition.series import MAX_GAMES
from i18n import N_, _, n_
from rules.modes import MODES

if TYPE_CHECKING:
    from bot.discord_app import CrosshairsBot

INVITATION_TIMEOUT = 15 * 60.0  # seconds


def _close(interaction: discord.Interaction, offer: Invitation, why: str) -> None:
    """Off the pending list before any await, so only one press can start the series."""
    offers_of(bot_of(interaction)).invitations.close(offer.id, why)


class InvitationButton(OfferAnswer, prefix="xh:si"):
    def _offer(self, interaction: discord.Interaction) -> Invitation:
        book = offers_of(bot_of(interaction)).invitations
        offer = book.get(self.offer_id)
        if offer is not None and offer.guild_id != interaction.guild_id:
            offer = None  # another server's invitation: as if it did not exist
        if offer is None:
            raise Refusal(
                book.why_closed(self.offer_id)
                or _(
                    "this invitation is no longer open (it started, was declined or expired, "
                    "or the bot restarted)"
                )
            )
        user = interaction.user
        invited = {e.user_id for e in offer.entrants[1:]}
        organiser = user.id == offer.entrants[0].user_id
        if user.id not in invited and not (self.op == "decline" and organiser):
            raise Refusal(_("this invitation is not addressed to you"))
        expired = bot_of(interaction).env.clock.now() >= offer.expires_at
        if self.op == "accept" and not expired and user.id not in offer.waiting:
            raise Refusal(_("you have already accepted; waiting for the others"))
        if self.op == "accept" and not expired and offer.waiting <= {user.id}:
            # This press starts the series: moderators may have taken a permission
            # away since the invitation was posted.
            require_play(interaction)
        return offer

    async def press(self, interaction: discord.Interaction) -> None:
        self._offer(interaction)
        # Answered first: a press Discord refuses (late, or a second delivery) stops
        # here, before the invitation is touched.
        await interaction.response.defer()
        offer = self._offer(interaction)  # again: other presses came meanwhile
        # the invitation is the channel's: it speaks the server's language
        with for_everyone(bot_of(interaction), offer.guild_id):
            await self._answer(interaction, offer)

    async def _answer(self, interaction: discord.Interaction, offer: Invitation) -> None:
        user = interaction.user
        organiser = user.id == offer.entrants[0].user_id
        if bot_of(interaction).env.clock.now() >= offer.expires_at:
            _close(interaction, offer, _("this invitation has expired"))
            said = _("The invitation expired.")
            await interaction.edit_original_response(
                content=f"{offer.text()}\n\n⌛ {said}", view=None
            )
            return
        if self.op == "decline":
            if organiser:
                _close(interaction, offer, _("this invitation was withdrawn"))
                said = _("Invitation withdrawn: no series.")
            else:
                name = name_of(user)
                _close(interaction, offer, _("this invitation was declined by {name}", name=name))
                said = _("Invitation declined by {name}: no series.", name=name)
            await interaction.edit_original_response(
                content=f"{offer.text()}\n\n❌ {said}", view=None
            )
            return
        offer.waiting.discard(user.id)
        offer.accepted.append(name_of(user))
        if offer.waiting:
            await interaction.edit_original_response(
                content=offer.text(), view=invitation_view(offer.id)
            )
            return
        _close(interaction, offer, _("this invitation has already been accepted: the series is on"))
        said = _("Everyone accepted.")
        await interaction.edit_original_response(content=f"{offer.text()}\n\n✅ {said}", view=None)
        await _begin(interaction, offer)


def invitation_view(invitation_id: int) -> discord.ui.View:
    view = components()
    view.add_item(InvitationButton(invitation_id, "accept"))
    view.add_item(InvitationButton(invitation_id, "decline"))
    return view


@app_commands.command(
    name="start", description="Start a series of games with one pool of achievement cards"
)
@app_commands.describe(
    opponent="The second player (the bot itself: the computer)",
    games=f"Games in the series (1 to {MAX_GAMES})",
    mode="Duel (default), or a mode for 3 to 6 players or teams",
    player3="Third player (in 2 vs 2, the first two are team A)",
    player4="Fourth player",
    player5="Fifth player",
    player6="Sixth player",
    handicaps="Height tokens per player (you first), e.g. 0,2, or 'suggest'",
    rate_handicapped="Rate games played with handicap tokens",
    alternate="Rotate the seats each game",
    planes="Planes each (3 to 6; duels and free-for-alls)",
    **GAME_DESCRIPTIONS,
    strength="The computer's strength when you play the bot",
)
@app_commands.choices(mode=MODE_CHOICES)
@game_choices
@app_commands.choices(strength=STRENGTH_CHOICES)
async def start(
    interaction: discord.Interaction,
    opponent: discord.User,
    games: app_commands.Range[int, 1, MAX_GAMES] = 3,
    mode: Picked | None = None,
    player3: discord.User | None = None,
    player4: discord.User | None = None,
    player5: discord.User | None = None,
    player6: discord.User | None = None,
    handicaps: app_commands.Range[str, 0, LIST] = "",
    rate_handicapped: bool = False,
    alternate: bool = True,
    ruleset: Picked = "2026",
    planes: app_commands.Range[int, 3, 6] | None = None,
    variants: app_commands.Range[str, 0, LIST] = "",
    clouds: Picked = "random",
    fire: Picked = "auto",
    clock: int | None = None,
    strength: Picked = "medium",
) -> None:
    bounded(handicaps, LIST, N_("handicaps"))
    bounded(variants, LIST, N_("variants"))
    require_play(interaction)
    bot = bot_of(interaction)
    users = [interaction.user, opponent, *(u for u in (player3, player4, player5, player6) if u)]
    chosen = mode or ("duel" if len(users) == 2 else f"ffa{len(users)}")
    entrants = [_entrant(bot, u, strength) for u in users]
    if entrants[0].user_id is None:
        raise Refusal(_("the organiser plays in the series"))
    tokens = _handicaps(handicaps, len(entrants))
    service = bot.env.series
    service.check(chosen, entrants, games)
    if tokens is None:
        tokens = await service.suggest_handicaps(chosen, [e.user_id for e in entrants])
    plan = SeriesPlan(
        organiser=interaction.user.id,
        mode=chosen,
        games=games,
        ruleset=ruleset,
        planes=planes,
        fire=fire,
        variants=tuple(v.strip().lower() for v in variants.split(",") if v.strip()),
        clouds=clouds,
        clock_per_turn=turn_clock(clock),
        alternate_first=alternate,
        rate_handicapped=rate_handicapped,
    )
    plan.settings(tokens)  # a bad mode or variant is refused before anything is posted
    offer = Invitation(
        id=offers_of(bot).invitations.number(),
        plan=plan,
        entrants=entrants,
        handicaps=tokens,
        guild_id=interaction.guild_id,
        expires_at=bot.env.clock.now() + INVITATION_TIMEOUT,
        waiting={e.user_id for e in entrants[1:] if e.user_id is not None},
    )
    if not offer.waiting:  # only the computer to ask: nobody's consent is needed
        await interaction.response.defer(thinking=True)
        await _begin(interaction, offer)
        return
    offers_of(bot).invitations.add(offer.id, offer)
    with for_everyone(bot, offer.guild_id):
        content, view = offer.text(), invitation_view(offer.id)
    await interaction.response.send_message(
        content,
        view=view,
        allowed_mentions=discord.AllowedMentions(users=True),
    )


async def _begin(interaction: discord.Interaction, offer: Invitation) -> None:
    """Everyone agreed: store the series, open its thread and its first game."""
    bot = bot_of(interaction)
    plan, entrants, games, chosen = offer.plan, offer.entrants, offer.plan.games, offer.plan.mode
    service = bot.env.series
    channel = interaction.channel
    target: discord.abc.Messageable
    if isinstance(channel, discord.TextChannel):
        with for_everyone(bot, offer.guild_id):
            name = _("Series: {players}", players=_(" vs ").join(e.name for e in entrants))
        target = await channel.create_thread(
            name=name[:90], type=discord.ChannelType.public_thread, auto_archive_duration=10080
        )
    else:
        assert isinstance(channel, discord.abc.Messageable)
        target = channel
    assert isinstance(target, discord.abc.Snowflake)
    parent = target.parent_id if isinstance(target, discord.Thread) else None
    created = await service.create(
        plan,
        entrants,
        offer.handicaps,
        channel_id=parent or target.id,
        guild_id=interaction.guild_id,
        thread_id=target.id,
    )
    with for_everyone(bot, offer.guild_id):
        said = n_(
            "**Series #{id}** is on: {n} game of {mode} in {where}.",
            "**Series #{id}** is on: {n} games of {mode} in {where}.",
            games,
            id=created.id,
            mode=_(MODES[chosen].title),
            where=getattr(target, "mention", None) or _("this channel"),
        )
    await interaction.followup.send(f"🎴 {said}")
    await desks_of(bot).series.start_next(created.id, target)


def _handicaps(text: str, count: int) -> list[int] | None:
    """Tokens per player from ``"0,2"``; None for ``suggest``."""
    text = text.strip().lower()
    if text == "suggest":
        return None
    if not text:
        return [0] * count
    try:
        values = [int(v) for v in text.replace(" ", ",").split(",") if v]
    except ValueError:
        raise Refusal(_("handicaps: numbers separated by commas, e.g. 0,2, or 'suggest'")) from None
    if len(values) != count or any(not 0 <= v <= MAX_HANDICAP for v in values):
        raise Refusal(
            _(
                "handicaps: one number 0..{most} per player ({n} players)",
                most=MAX_HANDICAP,
                n=count,
            )
        )
    return values


def _entrant(bot: CrosshairsBot, user: discord.User | discord.Member, strength: str) -> Occupant:
    if bot.user is not None and user.id == bot.user.id:
        return Occupant(None, computer_name(strength), strength)
    if user.bot:
        raise Refusal(_("{name} is a bot that cannot play Crosshairs", name=name_of(user)))
    return Occupant(user.id, name_of(user))


async def setup(bot: CrosshairsBot) -> None:
    add_commands(start, to=series)
    bot.add_dynamic_items(InvitationButton)
