"""Private team rooms: in a team game (2v2, 3v3, 1vN) each team with people in it gets a
private thread of the match's text channel for planning, opened with the match (its
people added) and archived and locked when the match ends (by the thread surface,
:class:`bot.ui.surfaces.ThreadSurface`). Only the team and those with Manage Threads see
it. A player's cockpit offers **Share with my team** (``xh:share:<match>``): its preview,
as the player sees it, posted in their team's room.

Where the bot may not create private threads (Create Private Threads, bot/invite.py) or
the channel cannot hold them, the match goes on without rooms and its thread says why,
once. The rooms are kept as the server's settings by match and team, so a restart finds
them again.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord

from bot.services.live import LiveMatch
from bot.services.refusal import Refusal
from bot.services.teams import people_by_team, team_of
from bot.ui.components import Persistent
from bot.ui.context import bot_of
from bot.ui.errors import guarded
from bot.ui.language import for_everyone
from bot.ui.text import fit
from bot.ui.walls import match_of_press
from i18n import _

if TYPE_CHECKING:
    from bot.discord_app import CrosshairsBot

log = logging.getLogger(__name__)

KEY = "team_room:{match}:{team}"
SHARE_ID = "xh:share:{}"
ONLY_TEAMMATES = discord.AllowedMentions(users=True, everyone=False, roles=False)


def _key(live: LiveMatch, team: int) -> str:
    return KEY.format(match=live.id, team=team)


def _room_parent(channel: object) -> discord.TextChannel | None:
    """The text channel a match's rooms open in: where it was asked for, or the parent of
    the thread it was opened in (a series' thread, say)."""
    if isinstance(channel, discord.Thread):
        channel = channel.parent
    if isinstance(channel, discord.TextChannel) and not channel.is_news():
        return channel
    return None


def _team_name(live: LiveMatch, team: int) -> str:
    mode = live.game.mode
    seats = [mode.seat_label(s) for s in range(mode.seats) if mode.teams[s] == team]
    return _("Team {seats}", seats="+".join(seats))


async def open_rooms(
    bot: CrosshairsBot, live: LiveMatch, channel: object, thread: discord.abc.Messageable
) -> None:
    """Give each team of a new team match its room in ``channel``'s text channel; if they
    cannot be made, say why in the match's ``thread`` once and go on without them."""
    teams = people_by_team(live)
    guild_id = live.record.guild_id
    if not teams or guild_id is None:
        return
    parent = _room_parent(channel)
    if parent is None:
        await _without_rooms(bot, live, thread, _("this kind of channel has no private threads"))
        return
    for team, people in teams.items():
        with for_everyone(bot, guild_id):
            name = f"{_team_name(live, team)} · #{live.id}"
            welcome = _(
                "🔒 {team}'s room for this match: only your team sees it. Plan here; "
                "**Share with my team** in your cockpit posts its preview here.",
                team=_team_name(live, team),
            )
        try:
            room = await parent.create_thread(
                name=name[:100],
                type=discord.ChannelType.private_thread,
                invitable=False,
                auto_archive_duration=10080,
            )
            for user in people:
                await room.add_user(discord.Object(user))
        except discord.HTTPException as exc:
            log.info("match %s: no team rooms (%s)", live.id, exc)
            reason = (
                _("the bot may not create private threads here (Create Private Threads)")
                if isinstance(exc, discord.Forbidden)
                else _("Discord refused to open them")
            )
            await _without_rooms(bot, live, thread, reason)
            return
        await bot.env.stores.guilds.set(guild_id, _key(live, team), str(room.id))
        mentions = " ".join(f"<@{user}>" for user in people)
        await room.send(f"{welcome}\n{mentions}", allowed_mentions=ONLY_TEAMMATES)


async def _without_rooms(
    bot: CrosshairsBot, live: LiveMatch, thread: discord.abc.Messageable, reason: str
) -> None:
    with for_everyone(bot, live.record.guild_id):
        said = _("No team rooms in this match: {reason}. The match goes on.", reason=reason)
    try:
        await thread.send(f"🔒 {said}", allowed_mentions=discord.AllowedMentions.none())
    except discord.HTTPException as exc:
        log.info("match %s: could not say why it has no team rooms (%s)", live.id, exc)


async def room_of(bot: CrosshairsBot, live: LiveMatch, team: int) -> discord.Thread | None:
    """The room of ``team`` in ``live``, if it has one the bot can still reach."""
    guild_id = live.record.guild_id
    if guild_id is None:
        return None
    found = await bot.env.stores.guilds.get(guild_id, _key(live, team))
    if found is None:
        return None
    room = bot.get_channel(int(found))
    if room is None:
        try:
            room = await bot.fetch_channel(int(found))
        except discord.HTTPException:
            return None
    return room if isinstance(room, discord.Thread) else None


async def close_rooms(bot: CrosshairsBot, live: LiveMatch) -> None:
    """The match ended: each team's room is archived and locked (read-only, kept)."""
    guild_id = live.record.guild_id
    if guild_id is None:
        return
    for team in people_by_team(live):
        room = await room_of(bot, live, team)
        if room is None:
            continue
        try:
            if not room.archived:
                with for_everyone(bot, guild_id):
                    said = _("The match is over: this room is archived.")
                await room.send(f"🏁 {said}", allowed_mentions=discord.AllowedMentions.none())
            await room.edit(archived=True, locked=True)
        except discord.HTTPException as exc:
            log.info("match %s: team room %s not archived (%s)", live.id, room.id, exc)
            continue
        await bot.env.stores.guilds.delete(guild_id, _key(live, team))


async def share_item(
    bot: CrosshairsBot, live: LiveMatch, user_id: int
) -> list[discord.ui.Item[Any]]:
    """The cockpit's **Share with my team**, for a player whose team has a room."""
    team = team_of(live, user_id)
    if team is None or live.record.guild_id is None:
        return []
    key = _key(live, team)
    if await bot.env.stores.guilds.get(live.record.guild_id, key) is None:
        return []
    return [
        discord.ui.Button(
            label=_("Share with my team"),
            style=discord.ButtonStyle.secondary,
            emoji="📣",
            custom_id=SHARE_ID.format(live.id),
        )
    ]


class ShareButton(Persistent[discord.ui.Button[Any]], template=r"xh:share:(?P<id>\d+)"):
    """Posts the cockpit's preview it was pressed under in the presser's team room."""

    def __init__(self, match_id: int) -> None:
        super().__init__(
            discord.ui.Button(label=_("Share with my team"), custom_id=SHARE_ID.format(match_id))
        )
        self.match_id = match_id

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, self._share(interaction))

    async def _share(self, interaction: discord.Interaction) -> None:
        bot = bot_of(interaction)
        live = await match_of_press(interaction, self.match_id)
        if live.over:
            raise Refusal(live.over_text())
        team = team_of(live, interaction.user.id)
        room = None if team is None else await room_of(bot, live, team)
        if team is None or room is None:
            raise Refusal(_("your team has no room in this match"))
        shown = interaction.message
        if shown is None or not shown.attachments:
            raise Refusal(_("this cockpit has no preview to share"))
        await interaction.response.defer(ephemeral=True, thinking=True)
        picture = await shown.attachments[0].to_file(filename="plan.png")
        with for_everyone(bot, live.record.guild_id):
            said = _("{who} shares a plan:", who=interaction.user.mention)
        await room.send(
            fit(f"📣 {said}\n{shown.content}"),
            file=picture,
            allowed_mentions=discord.AllowedMentions.none(),
        )
        await interaction.followup.send(
            _("Shared with your team in {room}.", room=room.mention), ephemeral=True
        )


async def setup(bot: CrosshairsBot) -> None:
    bot.add_dynamic_items(ShareButton)
