"""A double round robin of four pilots run through Discord: six rounds in which everyone
meets everyone twice, once flying first and once second, and standings worked out here
from the results the test caused."""

from __future__ import annotations

from typing import Any

from support.replies import answer

from bot.discord_app import CrosshairsBot
from competition.model import Entrant, PairingResult
from competition.standings import TieBreak, standings
from tournament_bot.tournament_harness import Club, duel, open_games, resign, seat_users


def half(score: float) -> str:
    whole, frac = divmod(round(score * 2), 2)
    return f"{whole or ''}½" if frac else str(whole)  # a half alone reads ½, not 0½


async def test_a_double_round_robin_meets_everyone_twice_with_the_seats_swapped(
    simcord_env: Any, simcord_bot: CrosshairsBot
) -> None:
    club = Club(simcord_env, 4)
    created = answer(
        await club.organiser.slash(
            club.channel,
            "crosshairs-tournament create",
            name="Twice Round",
            format="double-round-robin",
            tiebreaks="head-to-head,sonneborn-berger",
        )
    )
    assert "double round robin" in created.content
    for pilot in club.pilots:
        await pilot.click(created, label="Join")
    await club.organiser.click(created, label="Start")
    seed = {p.id: i + 1 for i, p in enumerate(club.pilots)}

    ledger: list[PairingResult] = []
    seatings: list[tuple[int, int]] = []
    for round_no in range(1, 7):
        games = await open_games(simcord_bot, club)
        assert len(games) == 2, round_no
        for thread, live in games:
            first, second = seat_users(live)
            seatings.append((first, second))
            # The better seed wins in the first cycle, the worse one in the second.
            loser = max(first, second, key=lambda u: seed[u] * (1 if round_no <= 3 else -1))
            await resign(club, thread, loser)
            ledger.append(duel(second if loser == first else first, loser, first))
    assert await open_games(simcord_bot, club) == []

    # Every ordered pair sat exactly once: each pair met twice, with the seats swapped.
    assert sorted(seatings) == sorted((a, b) for a in seed for b in seed if a != b)
    entrants = [Entrant(str(u), 0.0, s) for u, s in seed.items()]
    expected = standings(entrants, ledger, (TieBreak.HEAD_TO_HEAD, TieBreak.SONNEBORN_BERGER))
    lines = [f"{s.place}. {club.name(int(s.player))} {half(s.score)}" for s in expected]
    (final,) = [t for t in club.said() if t.startswith("📊 **Twice Round** standings (final)")]
    assert final.splitlines()[1:] == lines
    assert all(s.score == 3.0 for s in expected)  # each won three and lost three
    assert "Twice Round** is over" in club.said()[-1]
