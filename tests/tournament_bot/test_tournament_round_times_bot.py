"""Round times run through Discord: a two-round Swiss with a round every 30 minutes and a
5-minute no-show rule. A pilot who never flies forfeits, round 2 waits for its set time
although round 1 ended long before, the players are reminded five minutes ahead (once,
even across a restart), and round 2 opens at its time."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from support.replies import answer

from bot.discord_app import CrosshairsBot
from bot.services.clock import FakeClock
from tournament_bot.tournament_harness import Club, open_games, resign, seat_users, tick

MINUTE = 60


async def test_rounds_open_at_their_set_time_with_a_reminder_and_a_no_show_forfeit(
    simcord_env: Any,
    simcord_bot: CrosshairsBot,
    new_bot: Callable[[], CrosshairsBot],
    clock: FakeClock,
) -> None:
    club = Club(simcord_env, 4)
    created = answer(
        await club.organiser.slash(
            club.channel,
            "crosshairs-tournament create",
            name="Clockwork",
            format="swiss",
            rounds=2,
            round_minutes=30,
            no_show_minutes=5,
        )
    )
    assert "A round opens every 30 minutes" in created.content
    for pilot in club.pilots:
        await pilot.click(created, label="Join")
    await club.organiser.click(created, label="Start")
    started = clock.now()

    (thread_a, live_a), (thread_b, live_b) = await open_games(simcord_bot, club)
    await resign(club, thread_a, seat_users(live_a)[1])
    first_b, absent = seat_users(live_b)
    token = live_b.game.legal_steps()[0].token
    await club.member(first_b).slash(thread_b, "crosshairs move", tokens=token)
    assert live_b.user_to_move() == absent

    # Four minutes in nothing forfeits; past five the pilot who never flew does.
    await tick(simcord_env, clock, 4 * MINUTE)
    assert not any("no-show" in t for t in club.said())
    await tick(simcord_env, clock, 2 * MINUTE)
    (forfeit,) = [t for t in club.said() if "no-show" in t]
    assert "Clockwork round 1, table" in forfeit and "(forfeit)" in forfeit
    assert f"{club.name(first_b)} 1" in forfeit and f"{club.name(absent)} 0" in forfeit
    assert live_b.game.is_over  # the absent pilot's game was resigned for them

    # Round 1 is complete, but round 2 waits for its set time, 30 minutes after the start.
    assert await open_games(simcord_env.bot, club) == []
    assert not any("round 2**" in t for t in club.said())
    await tick(simcord_env, clock, started + 24 * MINUTE - clock.now())
    assert not any(t.startswith("⏰") for t in club.said())
    await tick(simcord_env, clock, 1 * MINUTE + 1)
    (reminder,) = [t for t in club.said() if t.startswith("⏰")]
    assert f"round 2 opens <t:{int(started + 30 * MINUTE)}:R>" in reminder
    assert all(p.mention in reminder for p in club.pilots)
    assert await open_games(simcord_env.bot, club) == []

    # A restart before the opening: no second reminder, and the round opens on time.
    await simcord_env.restart_bot(new_bot())
    await tick(simcord_env, clock, 2 * MINUTE)
    assert await open_games(simcord_env.bot, club) == []
    await tick(simcord_env, clock, started + 30 * MINUTE - clock.now())
    assert len([t for t in club.said() if t.startswith("⏰")]) == 1
    games = await open_games(simcord_env.bot, club)
    assert len(games) == 2
    assert any(t.startswith("📣 **Clockwork — round 2**") for t in club.said())

    # Both pilots of round 2 play; the event ends without waiting for a round 3 time.
    for thread, live in games:
        await resign(club, thread, seat_users(live)[1])
    assert "Clockwork** is over" in club.said()[-1]
