"""The match thread's messages: the board (drawn, posted) and the cards claimed.

Each match plays in its own thread, holding one board message: the rendered board,
what just happened in words, whose turn it is, and the persistent buttons. After every
action the message is edited with the new image; when the turn passes to another
person they are pinged, so nobody has to watch the thread.
"""

from __future__ import annotations

import logging
from collections.abc import Collection
from typing import TYPE_CHECKING

import discord

from bot.services import jobs, workers
from bot.services.live import LiveMatch, Update
from bot.services.pictures import cards_words
from bot.ui.files import picture
from render.cards import card_png
from rules.achievements import CARDS
from rules.events import CardClaimed
from rules.words.scene import alt_text

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
    """The board as an upload; drawn in a worker process to keep the bot responsive."""
    png = await workers.current().run(
        jobs.draw_board,
        jobs.snapshot_of(live.game),
        live.names,
        lines=lines,
        highlight_cells=highlight_cells,
        highlight_plane=highlight_plane,
        size=size,
    )
    return picture(png, filename, alt_text(live.game, live.names))


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


async def send_board(
    bot: CrosshairsBot,
    live: LiveMatch,
    target: discord.abc.Messageable,
    lines: list[str],
    view: discord.ui.View | None,
) -> discord.Message:
    """Post a fresh board message and make it the match's board."""
    text, file = board_text(live, lines), await board_file(live)
    if view is None:
        message = await target.send(text, file=file)
    else:
        message = await target.send(text, file=file, view=view)
    await bot.games.set_board_message(live, message.id)
    return message


async def announce_claims(bot: CrosshairsBot, update: Update) -> None:
    """Post each card claimed by this update, drawn, the moment it happens."""
    claimed = [e for e in update.events if isinstance(e, CardClaimed)]
    if not claimed:
        return
    live = update.match
    channel = await match_channel(bot, live)
    for claim in claimed:
        card = CARDS[claim.card]
        who = live.who(claim.seat)
        png = await workers.current().run(card_png, card, claimed_by=live.names[claim.seat])
        await channel.send(
            f"🃏 {who} claims **{card.name}** ({card.points} point"
            f"{'s' if card.points != 1 else ''}): kept if they win this game.",
            file=picture(
                png, f"{claim.card}.png", cards_words([card], claimed_by=live.names[claim.seat])
            ),
        )
