"""A 20-minute arena of twelve pilots run through Discord on a fake clock.

Every simulated minute some games end by resignation; their players are paired again at
once (from whoever is waiting), streaks double the points, and the live standings message
is edited at most once per quiet spell however many games end together. When time runs
out no new game starts, the games in play finish and count, and the event ends with the
last of them. The expected leaderboard is worked out here from the results the test
caused, with the pure arena scoring.
"""

from __future__ import annotations

import random
from typing import Any

from support.replies import answer, refusals

from bot.discord_app import CrosshairsBot
from bot.services.clock import FakeClock
from competition.arena import leaderboard
from competition.model import Entrant, PairingResult
from tournament_bot.tournament_harness import Club, duel, open_games, resign, seat_users

MINUTE = 60


def board_edits(env: Any, message_id: int) -> int:
    return sum(
        1 for r in env.http_requests if r.method == "PATCH" and r.path.endswith(f"/{message_id}")
    )


async def test_a_twenty_minute_arena_of_twelve_with_streaks_a_live_board_and_a_clean_end(
    simcord_env: Any, simcord_bot: CrosshairsBot, clock: FakeClock
) -> None:
    club = Club(simcord_env, 12)
    rng = random.Random(20)
    await club.organiser.slash(
        club.channel, "crosshairs-tournament create", name="No end", format="arena"
    )
    await club.organiser.slash(
        club.channel,
        "crosshairs-tournament create",
        name="Teams",
        format="arena",
        duration=5,
        mode="2v2",
    )
    assert refusals(simcord_env) == [
        "an arena, and only an arena, needs a duration in minutes",
        "an arena is for duels",
    ]
    created = answer(
        await club.organiser.slash(
            club.channel, "crosshairs-tournament create", name="Blitz", format="arena", duration=20
        )
    )
    assert "arena for 20 minutes" in created.content and "tournament #1" in created.content
    for pilot in club.pilots:
        await pilot.click(created, label="Join")
    await club.organiser.click(created, label="Start")
    started = clock.now()
    rank = {p.id: i for i, p in enumerate(club.pilots)}  # the lower index always wins

    games = await open_games(simcord_bot, club)
    assert len(games) == 6  # everyone paired at once
    ledger: list[PairingResult] = []
    board_id: int | None = None
    while clock.now() < started + 20 * MINUTE:
        games = await open_games(simcord_bot, club)
        ending = rng.sample(games, k=rng.randint(1, len(games)))
        before = 0 if board_id is None else board_edits(simcord_env, board_id)
        for thread, live in ending:
            first, second = seat_users(live)
            loser = max(first, second, key=rank.__getitem__)
            await resign(club, thread, loser)
            ledger.append(duel(min(first, second, key=rank.__getitem__), loser, first))
        boards = [m for m in club.channel.history() if m.content.startswith("🏟️")]
        assert len(boards) == 1  # one live message, edited, never reposted
        if board_id is None:
            board_id = boards[0].id
        else:  # several games ended at this instant: at most one edit
            assert board_edits(simcord_env, board_id) - before <= 1
        # Whoever finished is playing again, unless the only one waiting was a rematch.
        busy = {u for _, live in await open_games(simcord_bot, club) for u in seat_users(live)}
        assert len(busy) >= 10
        clock.advance(MINUTE)
        await simcord_env.advance_time(simcord_env.bot.config.clock_interval + 1)
    assert board_id is not None

    # Time is up: games in play finish and count, but no new game starts.
    last_games = await open_games(simcord_bot, club)
    assert last_games
    assert not any("is over" in t for t in club.said())
    pairings_before = len([t for t in club.said() if t.startswith("⚔️")])
    for thread, live in last_games:
        first, second = seat_users(live)
        loser = max(first, second, key=rank.__getitem__)
        await resign(club, thread, loser)
        ledger.append(duel(min(first, second, key=rank.__getitem__), loser, first))
    assert await open_games(simcord_bot, club) == []
    assert len([t for t in club.said() if t.startswith("⚔️")]) == pairings_before
    assert "Blitz** is over" in club.said()[-1]

    entrants = [Entrant(str(p.id), 0.0, i + 1) for i, p in enumerate(club.pilots)]
    expected = leaderboard(entrants, ledger)
    wins = {
        e.id: sum(r.points_of(e.id) == 1.0 for r in ledger if e.id in r.seats) for e in entrants
    }
    assert any(line.points > 2 * wins[line.player] for line in expected)  # streaks doubled
    assert len(ledger) > 40
    (board,) = [m for m in club.channel.history() if m.id == board_id]
    shown = board.content.splitlines()[1:]
    assert [s.split(" 🔥")[0] for s in shown] == [
        f"{n}. {club.name(int(line.player))} {line.points}" for n, line in enumerate(expected, 1)
    ]
    (final,) = [t for t in club.said() if t.startswith("📊 **Blitz** standings (final)")]
    assert final.splitlines()[1:] == [s.split(" 🔥")[0] for s in shown]
