"""A crash just after a tournament game's booking line (📝): the restarted bot shows
that game's end again and carries the event on, and the booking line stays one line."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from bot.discord_app import CrosshairsBot
from bot.services.tournaments.service import TournamentService

from .tournament_harness import resign, start_duel


class Crash(Exception):
    """The process dies here."""


async def test_a_crash_after_the_booking_line_posts_it_once_after_the_restart(
    simcord_env: Any,
    simcord_bot: CrosshairsBot,
    new_bot: Callable[[], CrosshairsBot],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    club, thread, users = await start_duel(simcord_env, simcord_bot)

    async def crash(self: TournamentService, tid: int) -> None:
        raise Crash

    with monkeypatch.context() as patched:  # booked and told; the round not yet closed
        patched.setattr(TournamentService, "advance", crash)
        await resign(club, thread, users[1])
        simcord_env.errors.clear()  # the crash, as the dying process logged it
    assert sum(s.startswith("📝 Once") for s in club.said()) == 1
    assert not any("**Once** is over" in s for s in club.said())  # the crash came first

    await simcord_env.restart_bot(new_bot())
    await simcord_env.advance_time(1)

    said = club.said()
    assert sum(s.startswith("📝 Once") for s in said) == 1, said
    # the event is carried on to its end (how often its end is told is not this test's)
    assert any(s.startswith("🏆 **Once** is over") for s in said), said
