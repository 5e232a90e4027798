"""Swiss with free-for-all tables of three, through Discord: two players at each table
resign one after the other, and each table is scored by placement in its series
(the winner 1, the two others sharing second and third: ¼ each)."""

from __future__ import annotations

from typing import Any

from support.replies import answer

from bot.discord_app import CrosshairsBot
from competition.model import Entrant, PairingResult, placement_points
from competition.standings import TieBreak, standings
from tournament_bot.tournament_harness import Club, open_games, resign, seat_users


def points(score: float) -> str:
    if (score * 2) % 1:
        return f"{score:.2f}"
    whole, frac = divmod(round(score * 2), 2)
    return f"{whole or ''}½" if frac else str(whole)  # a half alone reads ½, not 0½


async def test_a_swiss_of_tables_of_three_scored_by_placement(
    simcord_env: Any, simcord_bot: CrosshairsBot
) -> None:
    club = Club(simcord_env, 6)
    created = answer(
        await club.organiser.slash(
            club.channel,
            "crosshairs-tournament create",
            name="Furball",
            format="swiss",
            rounds=2,
            mode="ffa3",
            tiebreaks="buchholz",
        )
    )
    assert "tables of 3" in created.content
    for pilot in club.pilots:
        await pilot.click(created, label="Join")
    await club.organiser.click(created, label="Start")
    seed = {p.id: i + 1 for i, p in enumerate(club.pilots)}
    ledger: list[PairingResult] = []
    for round_no in (1, 2):
        games = await open_games(simcord_env.bot, club)
        assert len(games) == 2, round_no
        for thread, live in games:
            seats = seat_users(live)
            assert len(seats) == 3
            # The two weakest seeds resign, weakest first: the strongest wins.
            out = sorted(seats, key=lambda u: -seed[u])[:2]
            for loser in out:
                await resign(club, thread, loser)
            places = [1 if u not in out else 2 for u in seats]
            ledger.append(PairingResult(tuple(map(str, seats)), placement_points(places)))
    entrants = [Entrant(str(u), 0.0, s) for u, s in seed.items()]
    expected = standings(entrants, ledger, (TieBreak.BUCHHOLZ,))
    (final,) = [t for t in club.said() if t.startswith("📊 **Furball** standings (final)")]
    lines = [f"{s.place}. {club.name(int(s.player))} {points(s.score)}" for s in expected]
    assert final.splitlines()[1:] == lines
    assert any(line.endswith(" 1.25") for line in lines)  # quarters are shown as such
