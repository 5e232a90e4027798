"""A tournament's end (its final standings and winner) is announced exactly once: not
again when a restart carries the event on by two paths, or restarts again, and not lost
when the process dies between finishing the event and announcing it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from bot.discord_app import CrosshairsBot
from bot.services.tournaments.service import TournamentService
from bot.ui.tournaments.desk import TournamentDesk

from .tournament_harness import resign, start_duel


class Crash(Exception):
    """The process dies here."""


def _ends(said: list[str]) -> tuple[int, int]:
    """(final standings posted, winners posted)."""
    final = sum(s.startswith("📊 **Once** standings (final)") for s in said)
    return final, sum(s.startswith("🏆 **Once** is over") for s in said)


async def test_a_restart_posts_the_winner_once(
    simcord_env: Any,
    simcord_bot: CrosshairsBot,
    new_bot: Callable[[], CrosshairsBot],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The restarted bot finds the event to carry on twice over (the last game's end,
    not yet shown in full, and the running event); both find it finished."""
    club, thread, users = await start_duel(simcord_env, simcord_bot)

    async def crash(self: TournamentService, tid: int) -> None:
        raise Crash

    with monkeypatch.context() as patched:  # booked and told; the event not yet finished
        patched.setattr(TournamentService, "advance", crash)
        await resign(club, thread, users[1])
        simcord_env.errors.clear()  # the crash, as the dying process logged it
    assert _ends(club.said()) == (0, 0)

    await simcord_env.restart_bot(new_bot())
    await simcord_env.advance_time(1)
    await simcord_env.restart_bot(new_bot())  # and once more, with nothing left to do
    await simcord_env.advance_time(1)

    said = club.said()
    assert _ends(said) == (1, 1), said
    assert f"<@{users[0]}>" in next(s for s in said if s.startswith("🏆 **Once** is over"))


async def test_a_crash_before_the_announcement_announces_it_after_the_restart(
    simcord_env: Any,
    simcord_bot: CrosshairsBot,
    new_bot: Callable[[], CrosshairsBot],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    club, thread, users = await start_duel(simcord_env, simcord_bot)

    async def crash(self: TournamentDesk, t: Any, when: str) -> None:
        raise Crash

    with monkeypatch.context() as patched:  # the event is finished in storage, not told
        patched.setattr(TournamentDesk, "post_tables", crash)
        await resign(club, thread, users[1])
        simcord_env.errors.clear()
    assert _ends(club.said()) == (0, 0)

    await simcord_env.restart_bot(new_bot())
    await simcord_env.advance_time(1)

    said = club.said()
    assert _ends(said) == (1, 1), said
    assert f"<@{users[0]}>" in next(s for s in said if s.startswith("🏆 **Once** is over"))
