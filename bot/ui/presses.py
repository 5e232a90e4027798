"""A press, start to finish: the persistent buttons of a match and its cockpit, and what
they ask the services to do. Each checks what it can, answers Discord first, then acts
through the game manager and hands the committed action to the match's life
(:meth:`bot.services.life.MatchLife.after`), which publishes what it did; what the press
shows of its own (the cockpit, the board it was pressed on) it asks of the match's
surface (:class:`bot.ui.surfaces.MatchSurface`), chosen once per match. The buttons
themselves are built with the board (:mod:`bot.ui.board`, which documents their custom
ids).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any

import discord

from bot.services import cockpit
from bot.services.live import LiveMatch
from bot.services.palettes import person_theme
from bot.services.refusal import Refusal
from bot.ui.board import ACTIONS, COCKPIT_BUTTON, COCKPIT_MENU, LABELS, send_cockpit
from bot.ui.cockpit_items import (
    CHOICE,
    Chosen,
    choice_button,
    choice_id,
    choice_of,
    menu_select,
    read_menu,
)
from bot.ui.components import Persistent, components
from bot.ui.context import bot_of
from bot.ui.errors import guarded, tell
from bot.ui.surfaces import MatchSurface, surfaces_of
from bot.ui.thread import board_file, drawings_of, send_record
from bot.ui.walls import match_of_press
from i18n import _

if TYPE_CHECKING:
    from bot.discord_app import CrosshairsBot


def surface_of(interaction: discord.Interaction, live: LiveMatch) -> MatchSurface:
    return surfaces_of(bot_of(interaction)).of(live)


async def _at_turn(
    interaction: discord.Interaction, match_id: int, ply: int
) -> tuple[LiveMatch, MatchSurface] | None:
    """The match and surface of a cockpit press made at ``ply`` by the player to fly
    (a stranger's or a stale one is refused); None when the press was answered by
    bringing its board up to date instead."""
    live = await match_of_press(interaction, match_id)
    surface = surface_of(interaction, live)
    if await surface.caught_up(interaction, live, ply):
        return None
    bot_of(interaction).games.check_turn(live, interaction.user.id, ply)
    return live, surface


class MatchButton(
    Persistent[discord.ui.Button[Any]],
    template=r"xh:(?P<action>" + ACTIONS + r"):(?P<id>\d+)",
):
    def __init__(self, action: str, match_id: int) -> None:
        label, style, emoji = LABELS[action]
        super().__init__(
            discord.ui.Button(
                label=_(label), style=style, emoji=emoji, custom_id=f"xh:{action}:{match_id}"
            )
        )
        self.action = action
        self.match_id = match_id

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, self._act(interaction))

    async def _act(self, interaction: discord.Interaction) -> None:
        bot = bot_of(interaction)
        games = bot.games
        live = await match_of_press(interaction, self.match_id)
        if self.action == "record":  # also on a finished board played in one message
            await send_record(interaction, await games.get(self.match_id))
            return
        surface = surface_of(interaction, live)
        if await surface.caught_up(interaction, live):
            return
        if live.over:
            raise Refusal(live.over_text())
        if self.action == "play":
            games.check_turn(live, interaction.user.id)
            await interaction.response.defer(ephemeral=True, thinking=True)
            await send_cockpit(interaction, live, ())
        elif self.action == "lines":
            await interaction.response.defer(ephemeral=True, thinking=True)
            await interaction.followup.send(
                _("Lines of fire of the side to move; caught planes are marked."),
                file=await board_file(
                    bot.workers,
                    drawings_of(bot),
                    live,
                    lines=True,
                    theme=await person_theme(
                        bot.env.stores.palettes, interaction.user.id, live.record.guild_id
                    ),
                ),
                ephemeral=True,
            )
        elif self.action == "resign":
            await ask_to_resign(interaction, live)
        elif self.action == "live":
            await launch_live_board(interaction, live)
        else:
            await interaction.response.defer()
            if self.action in ("draw", "accept"):
                update = await games.offer_draw(self.match_id, interaction.user.id)
            elif self.action == "decline":
                update = await games.decline_draw(self.match_id, interaction.user.id)
            else:
                update = await games.clocks.claim_timeout(self.match_id, interaction.user.id)
            await bot.env.life.after(update, via=surface.shown_through(interaction))
            await tell(interaction, _("Done."))


class ConfirmResign(Persistent[discord.ui.Button[Any]], template=r"xh:sure:(?P<id>\d+)"):
    def __init__(self, match_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label=_("Yes, resign"),
                style=discord.ButtonStyle.danger,
                custom_id=f"xh:sure:{match_id}",
            )
        )
        self.match_id = match_id

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, self._act(interaction))

    async def _act(self, interaction: discord.Interaction) -> None:
        await match_of_press(interaction, self.match_id)
        await interaction.response.defer()
        update = await bot_of(interaction).games.resign(self.match_id, interaction.user.id)
        # the confirmation is used up: its button stays, disabled, under the outcome (its
        # label said again in the asker's language: discord.py rebuilt it before they spoke)
        self.item.disabled = True
        self.item.label = _("Yes, resign")
        view = components()
        view.add_item(self.item)
        said = (
            "🛑 " + _("The game is aborted.") if update.match.aborted else "🏳️ " + _("You resigned.")
        )
        await interaction.edit_original_response(content=said, view=view)
        await bot_of(interaction).env.life.after(update)


async def launch_live_board(interaction: discord.Interaction, live: LiveMatch) -> None:
    """Open the live board (the Activity, docs/activity.md) where the board was pressed:
    Discord's LAUNCH_ACTIVITY answer. Where Discord will not launch it (not in a thread;
    Activities off in this server), the presser is told why and where else to open it
    (the App Launcher in the match's channel, which shows that channel's matches); the
    thread's own play goes on as before."""
    try:
        await interaction.response.launch_activity()
    except discord.HTTPException as exc:
        raise Refusal(
            _(
                "Discord cannot open the live board here ({why}): open it from the App "
                "Launcher in <#{channel}>, or play on with the board's buttons.",
                why=exc.text or exc.status,
                channel=live.record.channel_id,
            )
        ) from None


async def ask_to_resign(interaction: discord.Interaction, live: LiveMatch) -> None:
    """The Resign button and ``/crosshairs resign`` both ask before resigning."""
    if not live.seats_of(interaction.user.id):
        raise Refusal(_("you are not playing in this match"))
    early = bool(live.game.unflown())
    question = (
        _(
            "Really resign? Not every side has flown a turn yet, so the game is aborted and "
            "not rated."
        )
        if early
        else _("Really resign? This cannot be undone.")
    )
    view = components()
    view.add_item(ConfirmResign(live.id))
    await interaction.response.send_message(question, view=view, ephemeral=True)


# ------------------------------------------------------------------ cockpit


class CockpitButton(
    Persistent[discord.ui.Button[Any]],
    template=r"xh:ck:(?P<id>\d+):(?P<ply>\d+):" + CHOICE,
):
    def __init__(
        self, match_id: int, ply: int, choice: cockpit.Choice, row: int | None = None
    ) -> None:
        custom_id = COCKPIT_BUTTON.format(match=match_id, ply=ply, choice=choice_id(choice))
        super().__init__(choice_button(choice, custom_id, row))
        self.match_id = match_id
        self.ply = ply
        self.choice = choice

    @classmethod
    def from_groups(cls, *groups: str) -> CockpitButton:
        match_id, ply, op, arg = groups
        return cls(int(match_id), int(ply), choice_of(op, arg))

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, _steer(interaction, self.match_id, self.ply, self._chosen))

    def _chosen(self) -> Chosen:
        token = self.choice.token
        return Chosen(self.choice.path, []) if token is None else Chosen(None, [token])


class CockpitMenu(
    Persistent[discord.ui.Select[Any]],
    template=r"xh:cm:(?P<id>\d+):(?P<ply>\d+):(?P<n>\d)",
):
    """A menu of whole plane actions (or placements): the value is their notation."""

    def __init__(self, match_id: int, ply: int, n: int, menu: cockpit.Menu | None = None) -> None:
        super().__init__(menu_select(COCKPIT_MENU.format(match=match_id, ply=ply, n=n), menu))
        self.match_id = match_id
        self.ply = ply

    async def callback(self, interaction: discord.Interaction) -> None:
        chosen = partial(read_menu, self.item.values)
        await guarded(interaction, _steer(interaction, self.match_id, self.ply, chosen))


async def _steer(
    interaction: discord.Interaction, match_id: int, ply: int, chosen: Callable[[], Chosen]
) -> None:
    """A cockpit press by the player to fly, read (``chosen``) once it is known to be
    theirs and current: it opens another stage of the cockpit, or plays what it chose;
    the surface shows it and turns the cockpit to the next choice (or closes it when the
    turn is done)."""
    at = await _at_turn(interaction, match_id, ply)
    if at is None:
        return
    live, surface = at
    choice = chosen()
    await interaction.response.defer()
    if choice.path is not None:
        await surface.cockpit(interaction, live, choice.path, "")
        return
    update = await bot_of(interaction).games.play(
        live.id, interaction.user.id, choice.tokens, expect_ply=ply
    )
    await surface.flown(interaction, update)


async def setup(bot: CrosshairsBot) -> None:
    bot.add_dynamic_items(MatchButton, ConfirmResign, CockpitButton, CockpitMenu)
