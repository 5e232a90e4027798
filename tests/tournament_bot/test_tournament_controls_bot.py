"""Round robin run through Discord, and the organiser's controls on the way: a start
at the scheduled time, re-pairing a round before anyone has flown (and the refusal
once someone has), setting a result while its game is in play, and correcting it
later. The final standings are worked out here from the results as they stand.
"""

from __future__ import annotations

from typing import Any

from support.replies import answer, refusals

from bot.discord_app import CrosshairsBot
from bot.services.clock import FakeClock
from competition.model import Entrant, PairingResult
from competition.standings import TieBreak, standings
from tournament_bot.tournament_harness import (
    Club,
    duel,
    live_in,
    open_games,
    resign,
    seat_users,
)


def half(score: float) -> str:
    whole, frac = divmod(round(score * 2), 2)
    return f"{whole or ''}½" if frac else str(whole)  # a half alone reads ½, not 0½


async def test_round_robin_with_a_scheduled_start_repairing_and_set_and_corrected_results(
    simcord_env: Any, simcord_bot: CrosshairsBot, clock: FakeClock
) -> None:
    club = Club(simcord_env, 4)
    created = answer(
        await club.organiser.slash(
            club.channel,
            "crosshairs-tournament create",
            name="League",
            format="round-robin",
            start_in=5,
            tiebreaks="head-to-head,sonneborn-berger",
        )
    )
    assert "round robin" in created.content and "Starts <t:" in created.content
    for pilot in club.pilots:
        await pilot.click(created, label="Join")
    seed = {p.id: i + 1 for i, p in enumerate(club.pilots)}

    await simcord_env.advance_time(61)
    assert not club.channel.threads  # not yet: the start is five minutes away
    clock.advance(5 * 60)
    await simcord_env.advance_time(61)
    first_round = await open_games(simcord_env.bot, club)
    assert len(first_round) == 2 and len(club.channel.threads) == 2

    # Nobody has flown: the round can be paired again, in fresh threads.
    repaired = answer(await club.organiser.slash(club.channel, "crosshairs-tournament repair"))
    assert "paired again" in repaired.content
    games = await open_games(simcord_env.bot, club)
    assert len(games) == 2 and len(club.channel.threads) == 4
    for thread, _ in first_round:  # the first pairings' games were called off
        assert await live_in(simcord_env.bot, thread) is None

    # Once someone has flown, re-pairing is refused; the organiser sets that result.
    (thread, live), (other_thread, other) = games
    a, b = seat_users(live)
    token = live.game.legal_steps()[0].token
    await club.member(a).slash(thread, "crosshairs move", tokens=token)
    await club.organiser.slash(club.channel, "crosshairs-tournament repair")
    assert refusals(simcord_env) == ["a game of this round has begun: set results instead"]
    await club.organiser.slash(
        club.channel,
        "crosshairs-tournament result",
        player=club.member(a),
        opponent=club.member(b),
        outcome="player",
    )
    assert live.game.is_over and live.game.result is not None
    assert [live.seats[s].user_id for s in live.game.result.winners] == [a]
    results: dict[frozenset[int], PairingResult] = {frozenset((a, b)): duel(a, b, a)}
    c, d = seat_users(other)
    loser = max(c, d, key=lambda u: seed[u])
    await resign(club, other_thread, loser)
    results[frozenset((c, d))] = duel(c if loser == d else d, loser, c)

    for round_no in (2, 3):
        games = await open_games(simcord_env.bot, club)
        assert len(games) == 2, round_no
        if round_no == 3:  # the organiser corrects round 1's result: b won after all
            await club.organiser.slash(
                club.channel,
                "crosshairs-tournament result",
                player=club.member(a),
                opponent=club.member(b),
                outcome="opponent",
            )
            results[frozenset((a, b))] = duel(b, a, a)
        for thread, live in games:
            first, second = seat_users(live)
            loser = max(first, second, key=lambda u: seed[u])
            await resign(club, thread, loser)
            results[frozenset((first, second))] = duel(
                first if loser == second else second, loser, first
            )
    assert len(results) == 6  # everyone met everyone once

    entrants = [Entrant(str(u), 0.0, s) for u, s in seed.items()]
    order = (TieBreak.HEAD_TO_HEAD, TieBreak.SONNEBORN_BERGER)
    expected = standings(entrants, list(results.values()), order)
    lines = [f"{s.place}. {club.name(int(s.player))} {half(s.score)}" for s in expected]
    (final,) = [t for t in club.said() if t.startswith("📊 **League** standings (final)")]
    assert final.splitlines()[1:] == lines
    assert "League** is over" in club.said()[-1]
