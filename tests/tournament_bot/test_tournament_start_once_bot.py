"""Start acts once: the sign-up message loses its buttons as the tournament starts, the
start is told once in public, and a second start (a second process, a press of an old
copy of the message) is refused by storage without a word in public."""

from __future__ import annotations

from typing import Any

import pytest
from support.replies import answer

from bot.discord_app import CrosshairsBot
from bot.services.live import MatchError

from .tournament_harness import Club


async def test_start_acts_once_and_the_sign_up_buttons_go(
    simcord_env: Any, simcord_bot: CrosshairsBot
) -> None:
    club = Club(simcord_env, 4)
    created = answer(
        await club.organiser.slash(
            club.channel, "crosshairs-tournament create", name="Once", format="round-robin"
        )
    )
    for pilot in club.pilots:
        await pilot.click(created, label="Join")
    pressed = answer(await club.organiser.click(created, label="Start"))
    assert pressed.content == "🏁 Started."
    sign_up = next(m for m in club.channel.history() if m.id == created.id)
    assert sign_up.components == []  # nobody joins, leaves or starts it any more
    assert sum("starts!" in s for s in club.said()) == 1
    with pytest.raises(MatchError, match="no longer taking entries"):
        await simcord_bot.env.tournaments.start(1)
    assert sum("starts!" in s for s in club.said()) == 1
    assert not any("Starting" in s for s in club.said())
