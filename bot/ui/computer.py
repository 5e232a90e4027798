"""The computer's turns, played at a pace people can follow."""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

from bot.services.manager import MatchError

if TYPE_CHECKING:
    from bot.discord_app import CrosshairsBot

log = logging.getLogger(__name__)


async def computer_turns(bot: CrosshairsBot, match_id: int) -> None:
    """Play the computer's plane actions one at a time, showing the board after each,
    until a person is to move or the game ends."""
    from bot.ui.tables import show_update

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
