"""Quick pairing: ``/crosshairs play`` seeks a duel with anyone in the server who seeks
the same game (ruleset, planes, variants, clouds, fire, clock, rated). The first waiting
seeker is paired at once and the match opens as an accepted challenge does (its thread
and board, :func:`bot.ui.invites.start_match`); otherwise the player waits, with a
**Cancel** button, until someone comes or the wait they chose runs out and the computer
takes the seat (:class:`SeekWatch`). The seeks themselves, and why pairing happens
once, are :mod:`bot.services.seeks`.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.services.computer_seat import STRENGTH_WORDS, computer_name
from bot.services.live import Occupant
from bot.services.seeks import Seek, Seeks, SoughtGame
from bot.ui import invites
from bot.ui.access import require_play
from bot.ui.board import open_table
from bot.ui.commands import add_commands, channel_ids, clock_of, settings_of
from bot.ui.components import Persistent, components
from bot.ui.context import bot_of
from bot.ui.errors import guarded
from bot.ui.language import for_everyone
from bot.ui.offers import Table
from bot.ui.options import (
    GAME_DESCRIPTIONS,
    STRENGTH_CHOICES,
    game_choices,
)
from bot.ui.text import LIST, Picked, name_of
from bot.ui.translator import shown
from bot.ui.watch import Watch
from i18n import _

if TYPE_CHECKING:
    from bot.discord_app import CrosshairsBot

log = logging.getLogger(__name__)

DEFAULT_WAIT = 5  # minutes before the computer takes the seat


@app_commands.command(name="play", description="Quick pairing: a duel with anyone here")
@app_commands.describe(
    planes="Planes each (3 to 6, default 5)",
    **GAME_DESCRIPTIONS,
    rated="Off: unrated",
    computer_after="Minutes until the computer takes the seat (0: never; default 5)",
    strength="The computer's strength if it does",
)
@game_choices
@app_commands.choices(strength=STRENGTH_CHOICES)
async def play(
    interaction: discord.Interaction,
    ruleset: Picked = "2026",
    planes: app_commands.Range[int, 3, 6] = 5,
    variants: app_commands.Range[str, 0, LIST] = "",
    clouds: Picked = "random",
    fire: Picked = "auto",
    clock: int | None = None,
    rated: bool = True,
    computer_after: app_commands.Range[int, 0, 60] = DEFAULT_WAIT,
    strength: Picked = "medium",
) -> None:
    bot = bot_of(interaction)
    seeks = bot.env.seeks
    require_play(interaction)
    game = SoughtGame(
        settings_of("duel", ruleset, planes, variants, fire), clouds, clock_of(clock, False), rated
    )
    seeks.check(interaction.user.id)
    channel_id, guild_id = channel_ids(interaction)
    assert guild_id is not None  # refused outside servers that added the bot (anywhere.py)
    await interaction.response.defer(thinking=True)
    me = Occupant(interaction.user.id, name_of(interaction.user))
    wait = computer_after * 60.0 if computer_after else None
    seek, partner = seeks.seek(me, guild_id, channel_id, game, wait, strength)
    if partner is not None:
        await _pair(interaction, partner, seek)
        return
    with for_everyone(bot, guild_id):
        content = _waiting_text(seek, computer_after)
    message = await interaction.edit_original_response(content=content, view=_waiting_view(seek))
    seek.message_id = message.id
    if seek.outcome is not None:  # paired while this message was on its way
        await interaction.edit_original_response(content=seek.outcome, view=None)


def _table_fields(seek: Seek, seats: list[Occupant | None], channel_id: int) -> dict[str, Any]:
    game = seek.game
    return {
        "host": seek.seeker,
        "settings": game.settings,
        "clouds": game.clouds,
        "clock": game.clock,
        "channel_id": channel_id,
        "guild_id": seek.guild_id,
        "seats": seats,
        # a game with the computer is never rated
        "rated": game.rated and all(s is None or s.user_id is not None for s in seats),
    }


def _started(
    bot: CrosshairsBot, seek: Seek, seats: list[Occupant | None], channel_id: int
) -> Table:
    """The table of a match about to start, closed at once: nobody joins it."""
    table = invites.new_table(bot, **_table_fields(seek, seats, channel_id))
    invites.close(bot, table, _("this match has already started"))
    return table


async def _pair(interaction: discord.Interaction, waiting: Seek, mine: Seek) -> None:
    """Open the match of two seeks in the pairing player's channel, as an accepted
    challenge does, then tell the one who waited where it is."""
    bot = bot_of(interaction)
    table = _started(bot, waiting, [waiting.seeker, mine.seeker], mine.channel_id)
    with for_everyone(bot, table.guild_id):
        said = _(
            "Quick pairing: {first} meets {second}.",
            first=waiting.seeker.name,
            second=mine.seeker.name,
        )
        content = f"⚡ {said}\n{table.describe()}"
    await interaction.edit_original_response(content=content)
    target = await invites.start_match(interaction, table)
    if target is not None:
        await _tell_waiting(bot, waiting, said, target)


async def _tell_waiting(
    bot: CrosshairsBot, seek: Seek, said: str, target: discord.abc.Messageable
) -> None:
    """Turn the waiting message into where the match is (its board pings them)."""
    with for_everyone(bot, seek.guild_id):
        seek.outcome = f"⚡ {said} {invites.match_is_on(target)}"
    if seek.message_id is None:
        return  # its own command shows the outcome once the message is up
    message = bot.get_partial_messageable(seek.channel_id).get_partial_message(seek.message_id)
    try:
        await message.edit(content=seek.outcome, view=None)
    except discord.HTTPException as exc:  # deleted by a moderator: the board still pings
        log.info("seek %s: its waiting message could not be edited (%s)", seek.id, exc)


def _waiting_text(seek: Seek, minutes: int) -> str:
    table = Table(id=0, **_table_fields(seek, [seek.seeker, None], seek.channel_id))
    said = _("{name} seeks a duel.", name=seek.seeker.name)
    play_command = f"`{shown('crosshairs play')}`"
    if not minutes:
        then = _("Anyone here can take it: {play} the same game.", play=play_command)
    else:
        then = _(
            "Anyone here can take it: {play} the same game. "
            "In {minutes} min the computer ({strength}) takes the seat.",
            play=play_command,
            minutes=minutes,
            strength=_(STRENGTH_WORDS.get(seek.strength, seek.strength)),
        )
    return f"🔎 {said}\n{table.describe()}\n{then}"


def _waiting_view(seek: Seek) -> discord.ui.View:
    view = components()
    view.add_item(CancelSeek(seek.id))
    return view


class CancelSeek(Persistent[discord.ui.Button[Any]], template=r"xh:seek:(?P<id>\d+):cancel"):
    def __init__(self, seek_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label=_("Cancel"),
                style=discord.ButtonStyle.secondary,
                custom_id=f"xh:seek:{seek_id}:cancel",
            )
        )
        self.seek_id = seek_id

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, self._cancel(interaction))

    async def _cancel(self, interaction: discord.Interaction) -> None:
        seeks = bot_of(interaction).env.seeks
        seeks.mine(self.seek_id, interaction.user.id)
        await interaction.response.defer()  # answered first: a refused press changes nothing
        seek = seeks.cancel(self.seek_id, interaction.user.id)  # again: it may be paired now
        with for_everyone(bot_of(interaction), seek.guild_id):
            said = _("{name} no longer seeks a duel.", name=seek.seeker.name)
        await interaction.edit_original_response(content=f"❌ {said}", view=None)


class SeekWatch(Watch):
    """Gives the computer the seat of every seek whose wait ran out."""

    def __init__(self, bot: CrosshairsBot, seeks: Seeks, interval: float) -> None:
        super().__init__(bot, interval)
        self.seeks = seeks

    async def round(self) -> None:
        for seek in self.seeks.due():
            try:
                await self._computer_takes_the_seat(seek)
            except Exception:  # the loop must outlive one bad seek
                log.exception("seek %s: the computer could not take the seat", seek.id)

    async def _computer_takes_the_seat(self, seek: Seek) -> None:
        channel = self.bot.get_channel(seek.channel_id)
        if not isinstance(channel, discord.abc.Messageable):
            return  # the channel is gone: so is the seek
        with for_everyone(self.bot, seek.guild_id):
            computer = Occupant(None, computer_name(seek.strength), seek.strength)
            said = _("No one came: the computer takes the seat.")
        table = _started(self.bot, seek, [seek.seeker, computer], seek.channel_id)
        live, intro = await invites.make_match(self.bot, table, table.id * 7919 + seek.id)
        target = await open_table(self.bot, live, channel, intro)
        await _tell_waiting(self.bot, seek, said, target)


async def setup(bot: CrosshairsBot) -> None:
    add_commands(play)
    bot.add_dynamic_items(CancelSeek)
    await bot.add_cog(SeekWatch(bot, bot.env.seeks, bot.config.clock_interval))
