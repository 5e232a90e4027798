"""The match thread: its board message, kept up to date after every plane action.

Each match plays in its own thread, holding one board message: the rendered board,
what just happened in words, whose turn it is, and the persistent buttons. After every
action the message is edited with the new image; when the turn passes to another
person they are pinged, so nobody has to watch the thread.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Collection
from typing import TYPE_CHECKING

import discord

from bot.services.manager import LiveMatch, Update
from bot.ui.series import announce_claims
from render.board import board_png
from rules.events import TurnPassed

if TYPE_CHECKING:
    from bot.discord_app import CrosshairsBot

log = logging.getLogger(__name__)

BOARD_SIZE = 1024
MAX_CONTENT = 1900


async def board_file(
    live: LiveMatch,
    *,
    lines: bool = False,
    highlight_cells: Collection[int] = (),
    highlight_plane: int | None = None,
    size: int = BOARD_SIZE,
    filename: str = "board.png",
) -> discord.File:
    """The board as an upload; drawn in a worker thread to keep the bot responsive."""
    png = await asyncio.to_thread(
        board_png,
        live.game.copy(with_history=True),
        names=live.names,
        lines=lines,
        highlight_cells=highlight_cells,
        highlight_plane=highlight_plane,
        size=size,
    )
    return discord.File(io.BytesIO(png), filename=filename)


def board_view(live: LiveMatch) -> discord.ui.View | None:
    """The persistent buttons under the board (none once the game is over)."""
    from bot.ui.buttons import MatchButton

    if live.game.is_over:
        return None
    view = discord.ui.View(timeout=None)
    for action in ("play", "lines", "draw", "resign"):
        view.add_item(MatchButton(action, live.id))
    if live.clock.per_turn is not None and live.clock.on_expiry == "claim":
        view.add_item(MatchButton("claim", live.id))
    return view


def board_text(live: LiveMatch, lines: list[str]) -> str:
    head = (
        f"**Crosshairs #{live.id}** · {live.game.mode.title} · {live.game.settings.ruleset} rules"
    )
    body = "\n".join(lines)
    status = live.status_line()
    if live.deadline is not None and not live.game.is_over:
        status += f" ⏰ <t:{int(live.deadline)}:R>"
    text = "\n".join(part for part in (head, body, status) if part)
    return text if len(text) <= MAX_CONTENT else text[: MAX_CONTENT - 1] + "…"


async def match_channel(bot: CrosshairsBot, live: LiveMatch) -> discord.abc.Messageable:
    channel_id = live.record.thread_id or live.record.channel_id
    channel = bot.get_channel(channel_id) or await bot.fetch_channel(channel_id)
    assert isinstance(channel, discord.abc.Messageable)
    return channel


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


async def post_board(
    bot: CrosshairsBot, live: LiveMatch, target: discord.abc.Messageable, lines: list[str]
) -> discord.Message:
    """Post a fresh board message and make it the match's board."""
    view = board_view(live)
    text, file = board_text(live, lines), await board_file(live)
    if view is None:
        message = await target.send(text, file=file)
    else:
        message = await target.send(text, file=file, view=view)
    await bot.games.set_board_message(live, message.id)
    return message


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
            from bot.ui.computer import computer_turns

            bot.spawn(computer_turns(bot, live.id))
        return
    user = live.user_to_move()
    passed = update is None or any(isinstance(e, TurnPassed) for e in update.events)
    if user is not None and passed:
        channel = await match_channel(bot, live)
        await channel.send(f"<@{user}>, your turn — press **Play** or use `/crosshairs move`.")
