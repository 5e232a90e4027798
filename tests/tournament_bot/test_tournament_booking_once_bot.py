"""A crash just after a tournament game's booking line (📝): the restarted bot shows
that game's end again and carries the event on, and the booking line stays one line."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from support.replies import answer

from bot.discord_app import CrosshairsBot
from bot.services.tournament_service import TournamentService

from .tournament_harness import Club, open_games, resign, seat_users


class Crash(Exception):
    """The process dies here."""


async def test_a_crash_after_the_booking_line_posts_it_once_after_the_restart(
    simcord_env: Any,
    simcord_bot: CrosshairsBot,
    new_bot: Callable[[], CrosshairsBot],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    club = Club(simcord_env, 2)
    created = answer(
        await club.organiser.slash(
            club.channel, "crosshairs tournament create", name="Once", format="round-robin"
        )
    )
    for pilot in club.pilots:
        await pilot.click(created, label="Join")
    await club.organiser.click(created, label="Start")
    ((thread, live),) = await open_games(simcord_bot, club)

    async def crash(self: TournamentService, tid: int) -> None:
        raise Crash

    with monkeypatch.context() as patched:  # booked and told; the round not yet closed
        patched.setattr(TournamentService, "advance", crash)
        await resign(club, thread, seat_users(live)[1])
        simcord_env.errors.clear()  # the crash, as the dying process logged it
    assert sum(s.startswith("📝 Once") for s in club.said()) == 1
    assert not any("**Once** is over" in s for s in club.said())  # the crash came first

    await simcord_env.restart_bot(new_bot())
    await simcord_env.advance_time(1)

    said = club.said()
    assert sum(s.startswith("📝 Once") for s in said) == 1, said
    # the event is carried on to its end (how often its end is told is not this test's)
    assert any(s.startswith("🏆 **Once** is over") for s in said), said
