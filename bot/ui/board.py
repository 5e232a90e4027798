"""A match's board in Discord: its buttons (the presses are :mod:`bot.ui.presses`), the
player's cockpit, the final board's buttons, and the first board of a new match, posted
in its thread (a match in one message is :mod:`bot.ui.anywhere_board`). Drawing and
posting the messages is :mod:`bot.ui.thread`.

The buttons' custom ids carry everything needed to act, so they keep working after a
restart (the match is reloaded from storage on first use):

* ``xh:<action>:<match>`` — the board's buttons: play, lines, draw (accept, decline
  while an offer stands), resign, record, claim;
* ``xh:sure:<match>`` — confirms a resignation;
* ``xh:rm:<match>`` — **Rematch**, on the final board of a match outside any series or
  tournament (handled by :mod:`bot.ui.rematch`);
* ``xh:an:<match>`` — **Analyse**, on the final board beside Record (handled by
  :mod:`bot.ui.analysis`, as ``/crosshairs analyse``);
* ``xh:ck:<match>:<ply>:n:<path>`` / ``…:g:<token>`` — the cockpit: navigate to a
  stage, or play a step; ``xh:cm:<match>:<ply>:<n>`` — a cockpit menu, whose chosen
  value is the notation of a whole plane action. The ply makes a button pressed for an
  older state fail politely instead of acting on a game its presser never saw.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord

from bot.services import cockpit
from bot.services.live import LiveMatch
from bot.services.palettes import person_theme
from bot.ui.cockpit_items import choice_button, choice_id, lay_out, menu_select
from bot.ui.components import components
from bot.ui.context import bot_of
from bot.ui.glyphs import NONE, Glyphs, glyphs_of
from bot.ui.language import for_everyone
from bot.ui.notify import game_opened
from bot.ui.team_rooms import open_rooms, share_item
from bot.ui.thread import board_file, draw_lines, drawings_of, seats_line, send_board
from i18n import N_, _

if TYPE_CHECKING:
    from bot.discord_app import CrosshairsBot

log = logging.getLogger(__name__)

LABELS = {
    "play": (N_("Play"), discord.ButtonStyle.primary, "✈️"),
    "lines": (N_("Lines of fire"), discord.ButtonStyle.secondary, "🎯"),
    "draw": (N_("Offer draw"), discord.ButtonStyle.secondary, "🤝"),
    "accept": (N_("Accept draw"), discord.ButtonStyle.success, "🤝"),
    "decline": (N_("Decline draw"), discord.ButtonStyle.secondary, "✖️"),
    "resign": (N_("Resign"), discord.ButtonStyle.danger, "🏳️"),
    "record": (N_("Record"), discord.ButtonStyle.secondary, "📜"),
    "claim": (N_("Claim on time"), discord.ButtonStyle.secondary, "⏰"),
    "live": (N_("Live board"), discord.ButtonStyle.primary, "📺"),
}

ACTIONS = "|".join(LABELS)
COCKPIT_BUTTON = "xh:ck:{match}:{ply}:{choice}"
COCKPIT_MENU = "xh:cm:{match}:{ply}:{n}"


def match_button(action: str, match_id: int, row: int | None = None) -> discord.ui.Button[Any]:
    """One of the board's buttons (pressed: :class:`bot.ui.presses.MatchButton`)."""
    label, style, emoji = LABELS[action]
    return discord.ui.Button(
        label=_(label), style=style, emoji=emoji, custom_id=f"xh:{action}:{match_id}", row=row
    )


async def send_cockpit(
    interaction: discord.Interaction,
    live: LiveMatch,
    path: tuple[str, ...],
    edit: bool = False,
    note: str = "",
) -> None:
    """Show (or refresh) the player's own cockpit: the stage's choices as buttons and a
    board preview highlighting what they are about to fly. From the match as storage
    holds it, as every board: an action under way may yet be lost."""
    live = await live.committed()
    stage = cockpit.panel(live.game, path)
    bot = bot_of(interaction)
    shared = await share_item(bot, live, interaction.user.id)
    view = cockpit_view(live, stage, shared, glyphs_of(bot))
    drawings = drawings_of(bot)
    file = await board_file(
        bot.workers,
        drawings,
        live,
        highlight_cells=stage.highlight_cells,
        highlight_plane=stage.highlight_plane,
        labels=stage.labels,
        size=drawings.preview_pixels,
        filename="cockpit.png",
        theme=await person_theme(
            bot.env.stores.palettes, interaction.user.id, live.record.guild_id
        ),
    )
    content = f"{note}\n\n**{stage.title}**".strip() if note else f"**{stage.title}**"
    if edit:
        await interaction.edit_original_response(content=content, attachments=[file], view=view)
    else:
        await interaction.followup.send(content, file=file, view=view, ephemeral=True)


def cockpit_view(
    live: LiveMatch,
    stage: cockpit.Panel,
    extra: Sequence[discord.ui.Item[Any]] = (),
    glyphs: Glyphs = NONE,
) -> discord.ui.View:
    """The stage's menus and choices with their glyphs (pressed:
    :class:`bot.ui.presses.CockpitButton`, :class:`bot.ui.presses.CockpitMenu`), then
    ``extra`` (sharing it with the team)."""

    def glyph(notation: str) -> discord.Emoji | None:
        return glyphs.of_action(live, notation)

    return lay_out(
        stage,
        lambda n, menu: menu_select(
            COCKPIT_MENU.format(match=live.id, ply=live.ply, n=n), menu, glyph
        ),
        lambda choice, row: choice_button(
            choice,
            COCKPIT_BUTTON.format(match=live.id, ply=live.ply, choice=choice_id(choice)),
            row,
            glyph,
        ),
        extra,
    )


def board_view(live: LiveMatch, live_board: bool = False) -> discord.ui.View | None:
    """The persistent buttons under the board (none once the game is over); while a draw
    offer stands, Accept and Decline take the place of Offer draw. With ``live_board``
    (the bot serves it: docs/activity.md), **Live board** opens the match as an
    Activity."""
    if live.over:
        return None
    view = components()
    draw = ("accept", "decline") if live.draw_offers else ("draw",)
    for action in ("play", "lines", *draw, "resign", "record"):
        view.add_item(match_button(action, live.id))
    if live.clock.per_turn is not None and live.clock.on_expiry == "claim":
        view.add_item(match_button("claim", live.id))
    if live_board:
        view.add_item(match_button("live", live.id))
    return view


REMATCH_ID = "xh:rm:{}"
ANALYSE_ID = "xh:an:{}"


async def final_view(
    bot: CrosshairsBot, live: LiveMatch, analyse: bool = True
) -> discord.ui.View | None:
    """The finished board's buttons, on one row: **Rematch**, for a game people played
    outside any series or tournament (those set up their next games themselves),
    **Record** and, with ``analyse`` (where the analysis can be posted), **Analyse**
    (pressed: :class:`bot.ui.analysis.AnalyseButton`). An aborted game has none."""
    if live.aborted:
        return None
    view = components()
    if await bot.env.rematches.offered(live):
        view.add_item(
            _end_button(_("Rematch"), discord.ButtonStyle.primary, "🔁", REMATCH_ID, live)
        )
    view.add_item(match_button("record", live.id, row=0))
    if analyse:
        view.add_item(
            _end_button(_("Analyse"), discord.ButtonStyle.secondary, "🔎", ANALYSE_ID, live)
        )
    return view


def _end_button(
    label: str, style: discord.ButtonStyle, emoji: str, custom_id: str, live: LiveMatch
) -> discord.ui.Button[Any]:
    """A button of the first row under a finished game's board."""
    return discord.ui.Button(
        label=label, style=style, emoji=emoji, custom_id=custom_id.format(live.id), row=0
    )


async def current_view(bot: CrosshairsBot, live: LiveMatch) -> discord.ui.View | None:
    """The buttons under the board as the match is now."""
    if live.game.is_over:
        return await final_view(bot, live)
    return board_view(live, bot.live_server is not None)


async def post_board(
    bot: CrosshairsBot,
    live: LiveMatch,
    target: discord.abc.Messageable,
    extra: Sequence[str] = (),
    retired: str = "",
) -> discord.Message:
    """Post a fresh board message, with its buttons (and ``extra`` lines), and make it
    the match's board; the old one goes (or becomes ``retired``)."""
    with for_everyone(bot, live.record.guild_id):
        view = await current_view(bot, live)
        return await send_board(bot, live, target, view, [*draw_lines(live), *extra], retired)


async def open_table(
    bot: CrosshairsBot,
    live: LiveMatch,
    channel: discord.abc.Messageable,
    intro: str,
    actor: int | None = None,
) -> discord.abc.Messageable:
    """Give a new match its thread (or, without thread permissions, the channel itself)
    and post the first board there; ``actor``, who started it, is not sent a DM."""
    target: discord.abc.Messageable = channel
    if isinstance(channel, discord.TextChannel):
        with for_everyone(bot, live.record.guild_id):
            name = _(" vs ").join(live.names)[:80] + f" · #{live.id}"
        try:
            thread = await channel.create_thread(
                name=name, type=discord.ChannelType.public_thread, auto_archive_duration=10080
            )
        except discord.HTTPException as exc:
            log.warning("match %s: no thread (%s); playing in the channel", live.id, exc)
        else:
            await bot.games.set_thread(live, thread.id)
            target = thread
    mentions = " ".join(f"<@{e.user_id}>" for e in live.seats if e.user_id is not None)
    with for_everyone(bot, live.record.guild_id):
        seats = seats_line(live)
    drawings_of(bot).introduce(live, f"{intro}\n{seats}\n{mentions}".strip())
    await post_board(bot, live, target)
    await open_rooms(bot, live, channel, target)
    await game_opened(bot, live, actor)
    bot.env.life.computer_next(live)
    return target
