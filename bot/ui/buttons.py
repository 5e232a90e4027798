"""A press, start to finish: the persistent buttons of a match, what they ask the game
manager to do, and the board message brought up to date afterwards (then the computer's
turns, if it is to fly). Button, board and computer call each other, so they live here
together; drawing and posting the messages is :mod:`bot.ui.tables`.

The buttons' custom ids carry everything needed to act, so they keep working after a
restart (the match is reloaded from storage on first use).

* ``xh:<action>:<match>`` — the board's buttons: play, lines, draw, resign, claim;
* ``xh:sure:<match>`` — confirms a resignation;
* ``xh:ck:<match>:<ply>:n:<path>`` / ``…:g:<token>`` — the cockpit: navigate to a
  stage, or play a step. The ply makes a button pressed for an older state fail
  politely instead of acting on a game its presser never saw.
"""

from __future__ import annotations

import asyncio
import logging
import re
from typing import TYPE_CHECKING, Any

import discord

from bot.services import cockpit
from bot.services.live import LiveMatch, MatchError, Update
from bot.ui.context import bot_of
from bot.ui.errors import guarded, tell
from bot.ui.tables import announce_claims, board_file, board_text, match_channel, send_board
from bot.ui.walls import match_of_press
from rules.events import TurnPassed

if TYPE_CHECKING:
    from bot.discord_app import CrosshairsBot

log = logging.getLogger(__name__)

STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}
LABELS = {
    "play": ("Play", discord.ButtonStyle.primary, "✈️"),
    "lines": ("Lines of fire", discord.ButtonStyle.secondary, "🎯"),
    "draw": ("Offer draw", discord.ButtonStyle.secondary, "🤝"),
    "resign": ("Resign", discord.ButtonStyle.danger, "🏳️"),
    "claim": ("Claim on time", discord.ButtonStyle.secondary, "⏰"),
}


class MatchButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"xh:(?P<action>play|lines|draw|resign|claim):(?P<id>\d+)",
):
    def __init__(self, action: str, match_id: int) -> None:
        label, style, emoji = LABELS[action]
        super().__init__(
            discord.ui.Button(
                label=label, style=style, emoji=emoji, custom_id=f"xh:{action}:{match_id}"
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
        if live.over:
            raise MatchError(live.over_text())
        if self.action == "play":
            _require_turn(live, interaction.user.id)
            await interaction.response.defer(ephemeral=True, thinking=True)
            await send_cockpit(interaction, live, ())
        elif self.action == "lines":
            await interaction.response.defer(ephemeral=True, thinking=True)
            await interaction.followup.send(
                "Lines of fire of the side to move; caught planes are marked.",
                file=await board_file(live, lines=True),
                ephemeral=True,
            )
        elif self.action == "resign":
            if not live.seats_of(interaction.user.id):
                raise MatchError("you are not playing in this match")
            view = discord.ui.View(timeout=120)
            view.add_item(ConfirmResign(self.match_id))
            await interaction.response.send_message(
                "Really resign? This cannot be undone.", view=view, ephemeral=True
            )
        else:
            await interaction.response.defer()
            if self.action == "draw":
                update = await games.offer_draw(self.match_id, interaction.user.id)
            else:
                update = await games.claim_timeout(self.match_id, interaction.user.id)
            await _announce(bot, interaction, update)


class ConfirmResign(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"xh:sure:(?P<id>\d+)"
):
    def __init__(self, match_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Yes, resign",
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
        await _announce(bot_of(interaction), interaction, update)


async def _announce(bot: CrosshairsBot, interaction: discord.Interaction, update: Any) -> None:
    if update.events:
        await show_update(bot, update)
    else:
        channel = await match_channel(bot, update.match)
        await channel.send(update.text())
    await tell(interaction, "Done.")


def _require_turn(live: LiveMatch, user_id: int) -> None:
    if live.over:
        raise MatchError(live.over_text())
    if not live.seats_of(user_id):
        raise MatchError("you are not playing in this match — you can watch, though!")
    if live.user_to_move() != user_id:
        raise MatchError(f"it is not your turn: {live.who(live.game.active)} is to fly")


# ------------------------------------------------------------------ cockpit


class CockpitButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"xh:ck:(?P<id>\d+):(?P<ply>\d+):(?P<op>[ng]):(?P<arg>[^:]*)",
):
    def __init__(
        self, match_id: int, ply: int, choice: cockpit.Choice, row: int | None = None
    ) -> None:
        if choice.token is not None:
            op, arg = "g", choice.token
        else:
            op, arg = "n", "/".join(choice.path)
        custom_id = f"xh:ck:{match_id}:{ply}:{op}:{arg}"
        super().__init__(
            discord.ui.Button(
                label=choice.label,
                style=STYLES[choice.style],
                disabled=not choice.enabled,
                custom_id=custom_id,
                row=row,
            )
        )
        self.match_id = match_id
        self.ply = ply
        self.op = op
        self.arg = arg

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> CockpitButton:
        path = tuple(p for p in match["arg"].split("/") if p)
        choice = (
            cockpit.Choice("", token=match["arg"])
            if match["op"] == "g"
            else cockpit.Choice("", path=path)
        )
        return cls(int(match["id"]), int(match["ply"]), choice)

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, self._press(interaction))

    async def _press(self, interaction: discord.Interaction) -> None:
        bot = bot_of(interaction)
        live = await match_of_press(interaction, self.match_id)
        _require_turn(live, interaction.user.id)
        if self.ply != live.ply:
            raise MatchError("that cockpit is out of date — press Play on the board again")
        await interaction.response.defer()
        if self.op == "n":
            await send_cockpit(
                interaction, live, tuple(p for p in self.arg.split("/") if p), edit=True
            )
            return
        update = await bot.games.play(
            self.match_id, interaction.user.id, [self.arg], expect_ply=self.ply
        )
        await show_update(bot, update)
        if live.user_to_move() == interaction.user.id:
            await send_cockpit(interaction, live, (), edit=True, note=update.text())
        else:
            await interaction.edit_original_response(
                content=f"{update.text()}\n\n✅ Your turn is done.", attachments=[], view=None
            )


async def send_cockpit(
    interaction: discord.Interaction,
    live: LiveMatch,
    path: tuple[str, ...],
    edit: bool = False,
    note: str = "",
) -> None:
    """Show (or refresh) the player's cockpit: the stage's choices as buttons and a board
    preview highlighting what they are about to fly."""
    stage = cockpit.panel(live.game, path)
    view = discord.ui.View(timeout=None)
    for i, choice in enumerate(stage.choices[:25]):
        view.add_item(CockpitButton(live.id, live.ply, choice, row=i // 5))
    file = await board_file(
        live,
        highlight_cells=stage.highlight_cells,
        highlight_plane=stage.highlight_plane,
        size=768,
        filename="cockpit.png",
    )
    content = f"{note}\n\n**{stage.title}**".strip() if note else f"**{stage.title}**"
    if edit:
        await interaction.edit_original_response(content=content, attachments=[file], view=view)
    else:
        await interaction.followup.send(content, file=file, view=view, ephemeral=True)


# ------------------------------------------------------------ the board message


def board_view(live: LiveMatch) -> discord.ui.View | None:
    """The persistent buttons under the board (none once the game is over)."""
    if live.over:
        return None
    view = discord.ui.View(timeout=None)
    for action in ("play", "lines", "draw", "resign"):
        view.add_item(MatchButton(action, live.id))
    if live.clock.per_turn is not None and live.clock.on_expiry == "claim":
        view.add_item(MatchButton("claim", live.id))
    return view


async def post_board(
    bot: CrosshairsBot, live: LiveMatch, target: discord.abc.Messageable, lines: list[str]
) -> discord.Message:
    """Post a fresh board message, with its buttons, and make it the match's board."""
    return await send_board(bot, live, target, lines, board_view(live))


async def open_table(
    bot: CrosshairsBot, live: LiveMatch, channel: discord.abc.Messageable, intro: str
) -> discord.abc.Messageable:
    """Give a new match its thread (or, without thread permissions, the channel itself)
    and post the first board there."""
    target: discord.abc.Messageable = channel
    if isinstance(channel, discord.TextChannel):
        name = " vs ".join(live.names)[:80] + f" · #{live.id}"
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
    await target.send(f"{intro}\n{mentions}".strip())
    await post_board(bot, live, target, [])
    await after_update(bot, live)
    return target


async def show_update(bot: CrosshairsBot, update: Update, by_computer: bool = False) -> None:
    """Bring the board message up to date after an action, ping whoever is next, and
    start the computer if it is its turn (unless the computer itself is playing)."""
    live = update.match
    channel = await match_channel(bot, live)
    file = await board_file(live)
    text = board_text(live, update.lines)
    view = board_view(live)
    board_id = live.record.board_message_id
    edited = False
    if board_id is not None and isinstance(channel, discord.abc.Messageable):
        try:
            await channel.get_partial_message(board_id).edit(  # type: ignore[attr-defined]
                content=text, attachments=[file], view=view
            )
            edited = True
            await bot.games.board_shown(live)
        except discord.HTTPException as exc:
            log.info("match %s: board message gone (%s); posting a new one", live.id, exc)
    if not edited:
        await post_board(bot, live, channel, update.lines)
    await announce_claims(bot, update)
    if live.game.is_over:
        await channel.send(
            f"{update.text()}\nUse `/crosshairs replay match:{live.id}` to watch it again."
        )
        # series and ratings answer this with their scoreboards and the next game
        bot.dispatch("crosshairs_match_finished", live)
        return
    await after_update(bot, live, update, by_computer)


async def after_update(
    bot: CrosshairsBot, live: LiveMatch, update: Update | None = None, by_computer: bool = False
) -> None:
    if live.computer_to_move:
        if not by_computer:
            bot.spawn(computer_turns(bot, live.id))
        return
    user = live.user_to_move()
    passed = update is None or any(isinstance(e, TurnPassed) for e in update.events)
    if user is not None and passed:
        channel = await match_channel(bot, live)
        await channel.send(f"<@{user}>, your turn — press **Play** or use `/crosshairs move`.")


async def computer_turns(bot: CrosshairsBot, match_id: int) -> None:
    """Play the computer's plane actions one at a time, showing the board after each,
    until a person is to move or the game ends."""
    while True:
        await asyncio.sleep(bot.config.computer_pace)
        try:
            update = await bot.games.play_computer(match_id)
        except MatchError as exc:
            log.warning("match %s: the computer could not move: %s", match_id, exc)
            return
        if update is None:
            return
        await show_update(bot, update, by_computer=True)
        if not update.match.computer_to_move:
            return
