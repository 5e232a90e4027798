"""A deployment's stop (SIGTERM) closes the real bot process, right after it connects."""

from __future__ import annotations

from e2e.conftest import Local


async def test_a_bot_stopped_as_it_connects_closes_instead_of_being_killed(local: Local) -> None:
    await local.bot.stop()
    assert local.bot.process is not None
    # 0: it closed; -15 was SIGTERM's default end (nothing closed), -9 the kill after 10 s
    # of a stop that was not heard
    assert local.bot.process.returncode == 0, local.bot.log()
