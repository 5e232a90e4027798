"""Challenges and lobbies: tables waiting for their players.

A challenge names an opponent, who accepts or declines. A lobby seats three to six
players (or teams) who join and leave until the host starts it; the host may add the
computer to empty seats. Both live in memory — they are short-lived — and their buttons
say so politely if the bot restarted in between.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import discord

from bot.services.live import ClockSettings, LiveMatch, MatchError, Occupant
from bot.services.unrated import mark_unrated
from bot.ui.access import require_play
from bot.ui.anywhere import posts_on_its_own
from bot.ui.board import open_table
from bot.ui.components import answer_button, components
from bot.ui.context import bot_of
from bot.ui.errors import guarded, tell
from bot.ui.language import for_everyone
from bot.ui.options import computer_name, game_settings_words
from bot.ui.surfaces import surfaces_of
from bot.ui.text import name_of
from i18n import _
from rules.modes import Settings
from rules.words.common import side

if TYPE_CHECKING:
    from bot.discord_app import CrosshairsBot

_ids = itertools.count(1)


@dataclass
class Table:
    """A challenge (two named seats) or a lobby (open seats)."""

    id: int
    host: Occupant
    settings: Settings
    clouds: str
    clock: ClockSettings
    channel_id: int
    guild_id: int | None
    seats: list[Occupant | None] = field(default_factory=list)
    invited: int | None = None  # the challenged user, for a challenge
    invited_name: str = ""  # their name, shown in the seat they are asked to take
    rated: bool = True  # False: the players chose an unrated game (takebacks allowed)

    @property
    def full(self) -> bool:
        return all(s is not None for s in self.seats)

    def describe(self) -> str:
        """The table's settings (each one that differs from the default named) and its
        seats, each with the home side its planes come on from."""
        m = self.settings.spec
        lines = [" · ".join([f"**{_(m.title)}**", *settings_words(self.settings, self)])]
        for i, entrant in enumerate(self.seats):
            if entrant is not None:
                who = entrant.name + (" 🤖" if entrant.user_id is None else "")
            elif self.invited_name:
                who = _("{name} (invited)", name=self.invited_name)
            else:
                who = _("— open —")
            home = _("home side {side}", side=side(m.sides[i]))
            lines.append(f"`{m.seat_label(i)}` {who} · {home}")
        return "\n".join(lines)


def settings_words(settings: Settings, table: Table) -> list[str]:
    """The game's settings (planes and clouds always named), then its clock."""
    said = game_settings_words(settings, table.clouds)
    if not table.rated:
        said.append(_("unrated (takebacks allowed)"))
    if table.clock.per_turn:
        said.append(_clock_text(table.clock))
        if table.clock.on_expiry == "claim":
            said.append(_("on time out the opponent may claim"))
    return said


def _clock_text(clock: ClockSettings) -> str:
    seconds = clock.per_turn or 0
    if seconds >= 86400:
        return _("{n} day(s) a turn", n=f"{seconds / 86400:g}")
    return _("{n} min a turn", n=f"{seconds / 60:g}")


KEEP_CLOSED = 1000
PENDING: dict[int, Table] = {}
# What became of the tables no longer pending, so a late or second press is told
# plainly ("already accepted") instead of being refused in general terms.
CLOSED: dict[int, str] = {}


def new_table(**kwargs: Any) -> Table:
    table = Table(id=next(_ids), **kwargs)
    PENDING[table.id] = table
    return table


def _table(table_id: int, interaction: discord.Interaction) -> Table:
    table = PENDING.get(table_id)
    if table is not None and table.guild_id != interaction.guild_id:
        table = None  # another server's table: as if it did not exist
    if table is None:
        raise MatchError(
            CLOSED.get(table_id)
            or _("this table is no longer open (it started, was called off, or the bot restarted)")
        )
    return table


def close(table: Table, why: str) -> None:
    """Take the table off the pending list, with no await between the check and this:
    of two presses racing to start (or call off) one table, only the first gets past
    :func:`_table`. Called only once the press is answered, so that a press Discord
    refuses (delivered late, or delivered twice) leaves the table as it was."""
    PENDING.pop(table.id, None)
    CLOSED[table.id] = why
    if len(CLOSED) > KEEP_CLOSED:  # only recent presses need the reason
        del CLOSED[next(iter(CLOSED))]


def reopen(table: Table) -> None:
    """Put back a table whose match could not be started, so the press can be repeated."""
    CLOSED.pop(table.id, None)
    PENDING[table.id] = table


async def make_match(bot: CrosshairsBot, table: Table, seed: int) -> tuple[LiveMatch, str]:
    """The match of a full table (already closed by the caller), and the line that
    introduces it; if no match could be made the table is open again."""
    entrants = [s for s in table.seats if s is not None]
    try:
        live = await bot.games.create(
            entrants,
            table.settings,
            channel_id=table.channel_id,
            guild_id=table.guild_id,
            cloud_setup=table.clouds,
            seed=seed,
            clock=table.clock,
        )
        if not table.rated:  # before its board is up, so before anyone can fly
            await mark_unrated(bot.games, live.id)
    except Exception:
        reopen(table)
        raise
    with for_everyone(bot, table.guild_id):
        intro = "✈️ " + _("**Match #{id}** — {table}", id=live.id, table=table.describe())
    return live, intro


async def start_match(
    interaction: discord.Interaction, table: Table
) -> discord.abc.Messageable | None:
    """Turn a full table (already closed by the caller) into a match with its own thread
    (where the bot only answers, in the table's own message: then None); if no match
    could be made the table is open again."""
    bot = bot_of(interaction)
    live, intro = await make_match(bot, table, table.id * 7919 + interaction.id % 1000)
    if not posts_on_its_own(interaction):  # the table's own message becomes the board
        await surfaces_of(bot).anywhere.start(interaction, live, intro)
        return None
    channel = interaction.channel
    assert isinstance(channel, discord.abc.Messageable)
    target = await open_table(bot, live, channel, intro, interaction.user.id)
    with for_everyone(bot, table.guild_id):
        content = table.describe() + "\n\n✅ " + match_is_on(target)
    await interaction.edit_original_response(content=content, view=None)
    return target


def match_is_on(target: discord.abc.Messageable) -> str:
    """Where a match is played, as its table's message says it: its thread, or here."""
    where = target.mention if isinstance(target, discord.Thread) else _("here")
    return _("The match is on: {where}.", where=where)


class ChallengeButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"xh:ch:(?P<id>\d+):(?P<op>accept|decline)",
):
    def __init__(self, table_id: int, op: str) -> None:
        super().__init__(answer_button(f"xh:ch:{table_id}:{op}", op))
        self.table_id = table_id
        self.op = op

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ChallengeButton:
        return cls(int(match["id"]), match["op"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, self._act(interaction))

    def _check(self, interaction: discord.Interaction) -> Table:
        table = _table(self.table_id, interaction)
        user = interaction.user
        if user.id != table.invited and not (
            self.op == "decline" and user.id == table.host.user_id
        ):
            raise MatchError(_("this challenge is not addressed to you"))
        if self.op == "accept":
            # Moderators may have taken a permission away since the challenge was posted.
            require_play(interaction)
        return table

    async def _act(self, interaction: discord.Interaction) -> None:
        self._check(interaction)
        # Answered first: a press Discord refuses (late, or a second delivery) stops
        # here, before the table is touched.
        await interaction.response.defer()
        table = self._check(interaction)  # again: another press may have come meanwhile
        user = interaction.user
        withdrawn = user.id == table.host.user_id
        if self.op == "decline":
            close(
                table,
                _("this challenge was withdrawn")
                if withdrawn
                else _("this challenge was declined"),
            )
        else:
            close(table, _("this challenge has already been accepted: the match is on"))
        if self.op == "decline":
            with for_everyone(bot_of(interaction), table.guild_id):
                said = _("Challenge withdrawn.") if withdrawn else _("Challenge declined.")
                content = f"{table.describe()}\n\n❌ {said}"
            await interaction.edit_original_response(content=content, view=None)
            return
        table.seats[1] = Occupant(user.id, name_of(user))
        await start_match(interaction, table)


def challenge_view(table: Table) -> discord.ui.View:
    view = components()
    view.add_item(ChallengeButton(table.id, "accept"))
    view.add_item(ChallengeButton(table.id, "decline"))
    return view


LOBBY_OPS = "sit|leave|cpu|start|cancel"


class LobbyButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=rf"xh:lb:(?P<id>\d+):(?P<op>{LOBBY_OPS}):(?P<seat>\d*)",
):
    def __init__(
        self,
        table_id: int,
        op: str,
        seat: int | None = None,
        label: str = "",
        disabled: bool = False,
    ) -> None:
        styles = {
            "sit": discord.ButtonStyle.primary,
            "start": discord.ButtonStyle.success,
            "cancel": discord.ButtonStyle.danger,
        }
        super().__init__(
            discord.ui.Button(
                label=label or op.title(),
                style=styles.get(op, discord.ButtonStyle.secondary),
                disabled=disabled,
                custom_id=f"xh:lb:{table_id}:{op}:{'' if seat is None else seat}",
            )
        )
        self.table_id = table_id
        self.op = op
        self.seat = seat

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> LobbyButton:
        seat = int(match["seat"]) if match["seat"] else None
        return cls(int(match["id"]), match["op"], seat)

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, self._press(interaction))

    async def _press(self, interaction: discord.Interaction) -> None:
        self._change(_table(self.table_id, interaction), interaction.user, dry=True)
        if self.op == "start":
            # Moderators may have taken a permission away since the lobby was posted.
            require_play(interaction)
        # Answered first: a press Discord refuses (late, or a second delivery) stops
        # here, before the table is touched.
        await interaction.response.defer()
        table = _table(self.table_id, interaction)  # again: other presses came meanwhile
        self._change(table, interaction.user, dry=False)
        if self.op == "cancel":
            close(table, _("this table was closed by its host"))
            with for_everyone(bot_of(interaction), table.guild_id):
                content = f"{table.describe()}\n\n❌ " + _("Table closed.")
            await interaction.edit_original_response(content=content, view=None)
        elif self.op == "start":
            close(table, _("this table has already started"))
            await start_match(interaction, table)
        else:
            with for_everyone(bot_of(interaction), table.guild_id):
                content, view = lobby_text(table), lobby_view(table)
            await interaction.edit_original_response(content=content, view=view)
            await tell(interaction, _("Seats updated."))

    def _change(self, table: Table, user: discord.User | discord.Member, dry: bool) -> None:
        """Check the press against the table and, unless ``dry``, make its change to the
        seats (without an await, so no other press comes in between)."""
        host = user.id == table.host.user_id
        seated = [i for i, s in enumerate(table.seats) if s is not None and s.user_id == user.id]
        if self.op == "sit":
            if self.seat is None or not 0 <= self.seat < len(table.seats):
                raise MatchError(_("there is no such seat"))
            if table.seats[self.seat] is not None:
                raise MatchError(_("that seat is taken"))
            if not dry:
                for i in seated:
                    table.seats[i] = None
                table.seats[self.seat] = Occupant(user.id, name_of(user))
        elif self.op == "leave":
            if not seated:
                raise MatchError(_("you are not seated at this table"))
            if host:
                raise MatchError(_("the host cannot leave: cancel the table instead"))
            if not dry:
                for i in seated:
                    table.seats[i] = None
        elif not host:
            raise MatchError(_("only the host can do that"))
        elif self.op == "cpu":
            free = [i for i, s in enumerate(table.seats) if s is None]
            if not free:
                raise MatchError(_("every seat is taken"))
            if not dry:
                table.seats[free[0]] = Occupant(None, computer_name("medium"), "medium")
        elif self.op == "start" and not table.full:
            raise MatchError(_("every seat must be filled first (the host can add the computer)"))


def lobby_text(table: Table) -> str:
    hosted = _("**Lobby** hosted by {name}", name=table.host.name)
    return f"🛫 {hosted}\n{table.describe()}"


def lobby_view(table: Table) -> discord.ui.View:
    view = components()
    m = table.settings.spec
    for i, entrant in enumerate(table.seats):
        view.add_item(
            LobbyButton(
                table.id,
                "sit",
                i,
                _("Sit {seat}", seat=m.seat_label(i)),
                disabled=entrant is not None,
            )
        )
    view.add_item(LobbyButton(table.id, "leave", label=_("Leave")))
    view.add_item(LobbyButton(table.id, "cpu", label=_("Add computer")))
    view.add_item(LobbyButton(table.id, "start", label=_("Start"), disabled=not table.full))
    view.add_item(LobbyButton(table.id, "cancel", label=_("Cancel")))
    return view


async def setup(bot: CrosshairsBot) -> None:
    bot.add_dynamic_items(ChallengeButton, LobbyButton)
