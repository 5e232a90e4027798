"""Lobbies, and the tables that become matches at once: a lobby seats three to six
players (or teams) who join and leave until the host starts it; the host may add the
computer to empty seats. A lobby lives in memory — it is short-lived — and its buttons
say so politely if the bot restarted in between. (A challenge to a person is the
domain's: :mod:`bot.services.challenges`, shown by :mod:`bot.ui.challenges`.)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord

from bot.services.computer_seat import computer_name
from bot.services.live import LiveMatch, Occupant
from bot.services.refusal import Refusal
from bot.ui.access import require_play
from bot.ui.components import Persistent, components
from bot.ui.context import bot_of
from bot.ui.errors import guarded, tell
from bot.ui.language import for_everyone
from bot.ui.offers import Pending, Table, offers_of
from bot.ui.surfaces import surfaces_of
from bot.ui.text import name_of
from i18n import _

if TYPE_CHECKING:
    from bot.discord_app import CrosshairsBot


def tables_of(bot: CrosshairsBot) -> Pending[Table]:
    """The bot's book of open tables (:class:`~bot.ui.offers.Pending`)."""
    return offers_of(bot).tables


def new_table(bot: CrosshairsBot, **kwargs: Any) -> Table:
    book = tables_of(bot)
    table = Table(id=book.number(), **kwargs)
    book.add(table.id, table)
    return table


def _table(table_id: int, interaction: discord.Interaction) -> Table:
    book = tables_of(bot_of(interaction))
    table = book.get(table_id)
    if table is not None and table.guild_id != interaction.guild_id:
        table = None  # another server's table: as if it did not exist
    if table is None:
        raise Refusal(
            book.why_closed(table_id)
            or _("this table is no longer open (it started, was called off, or the bot restarted)")
        )
    return table


def close(bot: CrosshairsBot, table: Table, why: str) -> None:
    """Take the table off the pending list, with no await between the check and this:
    of two presses racing to start (or call off) one table, only the first gets past
    :func:`_table`. Called only once the press is answered, so that a press Discord
    refuses (delivered late, or delivered twice) leaves the table as it was."""
    tables_of(bot).close(table.id, why)


def reopen(bot: CrosshairsBot, table: Table) -> None:
    """Put back a table whose match could not be started, so the press can be repeated."""
    tables_of(bot).add(table.id, table)


async def create_match(bot: CrosshairsBot, table: Table, seed: int) -> LiveMatch:
    """The match of a full table: its seats, settings, clouds and clock, unrated if
    the table chose so."""
    live = await bot.games.create(
        [s for s in table.seats if s is not None],
        table.settings,
        channel_id=table.channel_id,
        guild_id=table.guild_id,
        cloud_setup=table.clouds,
        seed=seed,
        clock=table.clock,
    )
    if not table.rated:  # before its board is up, so before anyone can fly
        await bot.env.ratings.mark_unrated(live.id)
    return live


async def make_match(bot: CrosshairsBot, table: Table, seed: int) -> tuple[LiveMatch, str]:
    """The match of a full table (already closed by the caller), and the line that
    introduces it; if no match could be made the table is open again."""
    try:
        live = await create_match(bot, table, seed)
    except Exception:
        reopen(bot, table)
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
    target = await surfaces_of(bot).of(live).open(interaction, live, intro, False)
    if target is None:  # the table's own message became the board
        return None
    with for_everyone(bot, table.guild_id):
        content = table.describe() + "\n\n✅ " + match_is_on(target)
    await interaction.edit_original_response(content=content, view=None)
    return target


def match_is_on(target: discord.abc.Messageable) -> str:
    """Where a match is played, as its table's message says it: its thread, or here."""
    where = target.mention if isinstance(target, discord.Thread) else _("here")
    return _("The match is on: {where}.", where=where)


LOBBY_OPS = "sit|leave|cpu|start|cancel"


class LobbyButton(
    Persistent[discord.ui.Button[Any]],
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
    def from_groups(cls, *groups: str) -> LobbyButton:
        table_id, op, seat = groups
        return cls(int(table_id), op, int(seat) if seat else None)

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
            close(bot_of(interaction), table, _("this table was closed by its host"))
            with for_everyone(bot_of(interaction), table.guild_id):
                content = f"{table.describe()}\n\n❌ " + _("Table closed.")
            await interaction.edit_original_response(content=content, view=None)
        elif self.op == "start":
            close(bot_of(interaction), table, _("this table has already started"))
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
                raise Refusal(_("there is no such seat"))
            if table.seats[self.seat] is not None:
                raise Refusal(_("that seat is taken"))
            if not dry:
                for i in seated:
                    table.seats[i] = None
                table.seats[self.seat] = Occupant(user.id, name_of(user))
        elif self.op == "leave":
            if not seated:
                raise Refusal(_("you are not seated at this table"))
            if host:
                raise Refusal(_("the host cannot leave: cancel the table instead"))
            if not dry:
                for i in seated:
                    table.seats[i] = None
        elif not host:
            raise Refusal(_("only the host can do that"))
        elif self.op == "cpu":
            free = [i for i, s in enumerate(table.seats) if s is None]
            if not free:
                raise Refusal(_("every seat is taken"))
            if not dry:
                table.seats[free[0]] = Occupant(None, computer_name("medium"), "medium")
        elif self.op == "start" and not table.full:
            raise Refusal(_("every seat must be filled first (the host can add the computer)"))


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
    bot.add_dynamic_items(LobbyButton)
