"""A press, start to finish: the persistent buttons of a match, what they ask the game
manager to do, and the board message brought up to date afterwards (then the computer's
turns, if it is to fly). Button, board and computer call each other, so they live here
together; drawing and posting the messages is :mod:`bot.ui.thread`.

Where the bot only answers interactions (:mod:`bot.ui.anywhere`), the same buttons and
cockpit act on a match played in one message: the cockpit sits on the board itself and
each press edits it (``show_anywhere``).

The buttons' custom ids carry everything needed to act, so they keep working after a
restart (the match is reloaded from storage on first use).

* ``xh:<action>:<match>`` — the board's buttons: play, lines, draw (accept, decline
  while an offer stands), resign, record, claim;
* ``xh:sure:<match>`` — confirms a resignation;
* ``xh:rm:<match>`` — **Rematch**, on the final board of a match outside any series or
  tournament (handled by :mod:`bot.ui.rematch`);
* ``xh:ck:<match>:<ply>:n:<path>`` / ``…:g:<token>`` — the cockpit: navigate to a
  stage, or play a step; ``xh:cm:<match>:<ply>:<n>`` — a cockpit menu, whose chosen
  value is the notation of a whole plane action. The ply makes a button pressed for an
  older state fail politely instead of acting on a game its presser never saw.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord

from bot.services import cockpit
from bot.services.live import LiveMatch, MatchError
from bot.ui import anywhere
from bot.ui.cockpit_items import (
    CHOICE,
    choice_button,
    choice_id,
    choice_of,
    lay_out,
    menu_select,
    read_menu,
)
from bot.ui.components import components
from bot.ui.context import bot_of
from bot.ui.errors import guarded, tell
from bot.ui.language import for_everyone
from bot.ui.notify import game_opened
from bot.ui.ratings_line import ratings_line
from bot.ui.thread import (
    board_file,
    board_text,
    draw_lines,
    introduce,
    seats_line,
    send_board,
    send_record,
)
from bot.ui.walls import match_of_press
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
}


class MatchButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"xh:(?P<action>play|lines|draw|accept|decline|resign|record|claim):(?P<id>\d+)",
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

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> MatchButton:
        return cls(match["action"], int(match["id"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, self._act(interaction))

    async def _act(self, interaction: discord.Interaction) -> None:
        bot = bot_of(interaction)
        games = bot.games
        live = await match_of_press(interaction, self.match_id)
        if self.action == "record":  # also on a finished board played in one message
            await send_record(interaction, await games.get(self.match_id))
            return
        if await _caught_up(interaction, live):
            return
        if live.over:
            raise MatchError(live.over_text())
        if self.action == "play":
            games.check_turn(live, interaction.user.id)
            await interaction.response.defer(ephemeral=True, thinking=True)
            await send_cockpit(interaction, live, ())
        elif self.action == "lines":
            await interaction.response.defer(ephemeral=True, thinking=True)
            await interaction.followup.send(
                _("Lines of fire of the side to move; caught planes are marked."),
                file=await board_file(live, lines=True),
                ephemeral=True,
            )
        elif self.action == "resign":
            await ask_to_resign(interaction, live)
        else:
            await interaction.response.defer()
            if self.action in ("draw", "accept"):
                update = await games.offer_draw(self.match_id, interaction.user.id)
            elif self.action == "decline":
                update = await games.decline_draw(self.match_id, interaction.user.id)
            else:
                update = await games.clocks.claim_timeout(self.match_id, interaction.user.id)
            # on a board in one message (bot.ui.anywhere) this press shows the change
            on_board = anywhere.is_anywhere(bot, live)
            await bot.env.life.after(update, via=interaction if on_board else None)
            await tell(interaction, _("Done."))


class ConfirmResign(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"xh:sure:(?P<id>\d+)"
):
    def __init__(self, match_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label=_("Yes, resign"),
                style=discord.ButtonStyle.danger,
                custom_id=f"xh:sure:{match_id}",
            )
        )
        self.match_id = match_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ConfirmResign:
        return cls(int(match["id"]))

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


async def ask_to_resign(interaction: discord.Interaction, live: LiveMatch) -> None:
    """The Resign button and ``/crosshairs resign`` both ask before resigning."""
    if not live.seats_of(interaction.user.id):
        raise MatchError(_("you are not playing in this match"))
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
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"xh:ck:(?P<id>\d+):(?P<ply>\d+):" + CHOICE,
):
    def __init__(
        self, match_id: int, ply: int, choice: cockpit.Choice, row: int | None = None
    ) -> None:
        super().__init__(choice_button(choice, f"xh:ck:{match_id}:{ply}:{choice_id(choice)}", row))
        self.match_id = match_id
        self.ply = ply
        self.choice = choice

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> CockpitButton:
        return cls(int(match["id"]), int(match["ply"]), choice_of(match["op"], match["arg"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, self._press(interaction))

    async def _press(self, interaction: discord.Interaction) -> None:
        live = await match_of_press(interaction, self.match_id)
        if await _caught_up(interaction, live, self.ply):
            return
        bot_of(interaction).games.check_turn(live, interaction.user.id, self.ply)
        await interaction.response.defer()
        if self.choice.token is None:
            await send_cockpit(interaction, live, self.choice.path, edit=True)
            return
        await _fly(interaction, live, [self.choice.token], self.ply)


class CockpitMenu(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"xh:cm:(?P<id>\d+):(?P<ply>\d+):(?P<n>\d)",
):
    """A menu of whole plane actions (or placements): the value is their notation."""

    def __init__(self, match_id: int, ply: int, n: int, menu: cockpit.Menu | None = None) -> None:
        super().__init__(menu_select(f"xh:cm:{match_id}:{ply}:{n}", menu))
        self.match_id = match_id
        self.ply = ply

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> CockpitMenu:
        return cls(int(match["id"]), int(match["ply"]), int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, self._choose(interaction))

    async def _choose(self, interaction: discord.Interaction) -> None:
        live = await match_of_press(interaction, self.match_id)
        if await _caught_up(interaction, live, self.ply):
            return
        bot_of(interaction).games.check_turn(live, interaction.user.id, self.ply)
        chosen = read_menu(self.item.values)
        await interaction.response.defer()
        if chosen.path is not None:
            await send_cockpit(interaction, live, chosen.path, edit=True)
            return
        await _fly(interaction, live, chosen.tokens, self.ply)


async def _caught_up(
    interaction: discord.Interaction, live: LiveMatch, ply: int | None = None
) -> bool:
    """On a board in one message (:mod:`bot.ui.anywhere`), a press made on a state the
    board no longer shows brings it up to date instead of acting: a match that ended
    while no press could show it (a resignation confirmed over 14 minutes after the
    board's latest press, or after a restart), or, for the player to fly, a cockpit of
    an older ``ply`` (there is no Play button to open a fresh one). Returns whether the
    press was answered so."""
    message = interaction.message
    if (
        message is None
        or message.id != live.record.board_message_id
        or not anywhere.is_anywhere(bot_of(interaction), live)
    ):
        return False
    if not live.over:
        if ply is None or ply == live.ply:
            return False
        bot_of(interaction).games.check_turn(live, interaction.user.id)  # strangers: no
    await interaction.response.defer()
    await show_anywhere(anywhere.Board(interaction), live)
    return True


async def _fly(
    interaction: discord.Interaction, live: LiveMatch, tokens: list[str], ply: int
) -> None:
    """Play what the cockpit chose, show it on the board, and turn the cockpit to the
    next choice (or close it when the turn is done)."""
    bot = bot_of(interaction)
    update = await bot.games.play(live.id, interaction.user.id, tokens, expect_ply=ply)
    if anywhere.is_anywhere(bot, live):  # the cockpit is on the board: one edit shows both
        await bot.env.life.after(update, via=interaction)
        return
    # The presser's answer first; then the board, whose new message (when the turn
    # passed) goes up as this interaction's follow-up.
    if live.user_to_move() == interaction.user.id:
        await send_cockpit(interaction, live, (), edit=True, note="\n".join(update.lines))
    else:
        await interaction.edit_original_response(
            content=f"{update.text()}\n\n✅ " + _("Your turn is done."), attachments=[], view=None
        )
    await bot.env.life.after(update, via=interaction)


async def send_cockpit(
    interaction: discord.Interaction,
    live: LiveMatch,
    path: tuple[str, ...],
    edit: bool = False,
    note: str = "",
) -> None:
    """Show (or refresh) the player's cockpit: the stage's choices as buttons and a board
    preview highlighting what they are about to fly."""
    if edit and anywhere.is_anywhere(bot_of(interaction), live):  # the cockpit is the board
        await show_anywhere(anywhere.Board(interaction), live, path)
        return
    stage = cockpit.panel(live.game, path)
    view = _cockpit_view(live, stage)
    file = await board_file(
        live,
        highlight_cells=stage.highlight_cells,
        highlight_plane=stage.highlight_plane,
        labels=stage.labels,
        size=768,
        filename="cockpit.png",
    )
    content = f"{note}\n\n**{stage.title}**".strip() if note else f"**{stage.title}**"
    if edit:
        await interaction.edit_original_response(content=content, attachments=[file], view=view)
    else:
        await interaction.followup.send(content, file=file, view=view, ephemeral=True)


def _cockpit_view(live: LiveMatch, stage: cockpit.Panel) -> discord.ui.View:
    return lay_out(
        stage,
        lambda n, menu: CockpitMenu(live.id, live.ply, n, menu),
        lambda choice, row: CockpitButton(live.id, live.ply, choice, row),
    )


# ------------------------------------------------- a match in one message (anywhere)

ANYWHERE_PROMPT = N_("{mention}, your turn — choose below.")
# where /crosshairs replay and record are refused, the final board keeps its Record button
ANYWHERE_HINT = N_("**{record}** below reads the whole game again.")


async def show_anywhere(
    board: anywhere.Board,
    live: LiveMatch,
    path: tuple[str, ...] = (),
    said: Sequence[str] = (),
) -> discord.Message:
    """Bring the message of a match played where the bot only answers (the one ``board``
    edits) up to date: see :func:`_anywhere_message`."""
    anywhere.pressed(live.id, board)
    ply = live.ply  # what is drawn below: another action may pass it meanwhile
    text, file, view = await _anywhere_message(bot_of(board.interaction), live, path, said)
    message = await board.edit(content=text, attachments=[file], view=view)
    await bot_of(board.interaction).games.board_shown(live, ply)  # a restart finds it up to date
    return message


async def _anywhere_message(
    bot: CrosshairsBot, live: LiveMatch, path: tuple[str, ...] = (), said: Sequence[str] = ()
) -> tuple[str, discord.File, discord.ui.View | None]:
    """A board in one message: the board, the turn so far in words and the cockpit of
    whoever is to fly at ``path``, with the draw buttons, Resign and Record when a row is
    free. The final board carries the ratings line, Rematch and Record (an aborted one
    says why it was called off: ``said``)."""
    if live.aborted:  # ``said``: how it was called off
        head = f"**Crosshairs #{live.id}** · {_(live.game.mode.title)}"
        text = "\n".join([head, *said]) if said else f"{head}\n🛑 " + _("The match was called off.")
        return text, await board_file(live), None
    if live.over:
        line = await ratings_line(bot.env.ratings, live)
        text = board_text(live, [line], hint=_(ANYWHERE_HINT, record=_("Record")))
        view = await final_view(bot, live) or components()
        view.add_item(MatchButton("record", live.id))
        return text, await board_file(live), view
    stage = cockpit.panel(live.game, path)
    view = _cockpit_view(live, stage)
    shown = min(len(stage.choices), 5 * (5 - len(stage.menus)))
    rows = len(stage.menus) + -(-shown // 5)  # the rows the cockpit fills
    if rows < 5:
        draw = ("accept", "decline") if live.draw_offers else ("draw",)
        for action in (*draw, "resign", "record"):
            button = MatchButton(action, live.id)
            button.row = rows
            view.add_item(button)
    extra = [*draw_lines(live), f"**{stage.title}**"]
    text = board_text(live, extra, prompt=ANYWHERE_PROMPT)
    file = await board_file(
        live,
        highlight_cells=stage.highlight_cells,
        highlight_plane=stage.highlight_plane,
        labels=stage.labels,
    )
    return text, file, view


async def start_anywhere(
    interaction: discord.Interaction, live: LiveMatch, intro: str, *, follow_up: bool = False
) -> None:
    """A new match where the bot only answers: the message ``interaction`` answered
    with (the challenge, the lobby, a rematch offer) becomes its board; with
    ``follow_up``, the board is a follow-up of ``interaction`` instead (a rematch asked
    for on a final board, which stays as it is). ``intro`` and the seats head the board
    through the first player-turn, as they head a thread."""
    bot = bot_of(interaction)
    with for_everyone(bot, live.record.guild_id):
        introduce(live, f"{intro}\n{seats_line(live)}")
    await bot.env.life.fly_within(live)
    ply = live.ply
    message: discord.Message
    if follow_up:
        text, file, view = await _anywhere_message(bot, live)
        extra: dict[str, Any] = {} if view is None else {"view": view}
        message = await interaction.followup.send(text, file=file, wait=True, **extra)
        anywhere.pressed(live.id, anywhere.Board(interaction, message.id))
    else:
        message = await show_anywhere(anywhere.Board(interaction), live)
    await bot.games.set_board_message(live, message.id, ply)
    await game_opened(bot, live, interaction.user.id)


# ------------------------------------------------------------ the board message


def board_view(live: LiveMatch) -> discord.ui.View | None:
    """The persistent buttons under the board (none once the game is over); while a draw
    offer stands, Accept and Decline take the place of Offer draw."""
    if live.over:
        return None
    view = components()
    draw = ("accept", "decline") if live.draw_offers else ("draw",)
    for action in ("play", "lines", *draw, "resign", "record"):
        view.add_item(MatchButton(action, live.id))
    if live.clock.per_turn is not None and live.clock.on_expiry == "claim":
        view.add_item(MatchButton("claim", live.id))
    return view


REMATCH_ID = "xh:rm:{}"


async def final_view(bot: CrosshairsBot, live: LiveMatch) -> discord.ui.View | None:
    """The finished board's one button, **Rematch**, for a game people played outside
    any series or tournament (those set up their next games themselves)."""
    people = [e.user_id for e in live.seats if e.user_id is not None]
    # a forgotten pilot's seat (a negative id) has nobody left to ask
    if live.aborted or not people or min(people) < 0:
        return None
    if await bot.env.series.series_of_match(live.id) is not None:
        return None
    view = components()
    view.add_item(
        discord.ui.Button(
            label=_("Rematch"),
            style=discord.ButtonStyle.primary,
            emoji="🔁",
            custom_id=REMATCH_ID.format(live.id),
        )
    )
    return view


async def current_view(bot: CrosshairsBot, live: LiveMatch) -> discord.ui.View | None:
    """The buttons under the board as the match is now."""
    return await final_view(bot, live) if live.game.is_over else board_view(live)


async def post_board(
    bot: CrosshairsBot,
    live: LiveMatch,
    target: discord.abc.Messageable,
    extra: Sequence[str] = (),
) -> discord.Message:
    """Post a fresh board message, with its buttons (and ``extra`` lines), and make it
    the match's board; the old one goes."""
    with for_everyone(bot, live.record.guild_id):
        view = await current_view(bot, live)
        return await send_board(bot, live, target, view, [*draw_lines(live), *extra])


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
    introduce(live, f"{intro}\n{seats}\n{mentions}".strip())
    await post_board(bot, live, target)
    await game_opened(bot, live, actor)
    bot.env.life.computer_next(live)
    return target


async def setup(bot: CrosshairsBot) -> None:
    bot.add_dynamic_items(MatchButton, ConfirmResign, CockpitButton, CockpitMenu)
