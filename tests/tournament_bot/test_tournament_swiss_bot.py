"""A whole 8-player Swiss event run through Discord: slash commands and buttons only.

Nine pilots join, eight check in (the ninth is dropped as a no-show when check-in
closes), and three rounds of best-of-one duels are played in their threads. Along the
way the organiser pauses the event, the bot restarts between rounds, a player is dropped
mid-round (their pairing is forfeited) and one game is lost on the clock. The expected
standings are worked out here from the results the test itself caused, with the pure
standings function, and compared with what the bot posts.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from support.replies import answer, refusals

from bot.discord_app import CrosshairsBot
from bot.services.clock import FakeClock
from competition.model import Entrant, PairingResult
from competition.standings import TieBreak, standings
from tournament_bot.tournament_harness import (
    PER_TURN,
    Club,
    duel,
    open_games,
    resign,
    run_out_clock,
    seat_users,
)

NOT_ORGANISER = (
    "organising a tournament needs the Manage Server permission or the Tournament Organiser role"
)


def half(score: float) -> str:
    whole, frac = divmod(round(score * 2), 2)
    return f"{whole or ''}½" if frac else str(whole)  # a half alone reads ½, not 0½


def final_table(club: Club) -> list[str]:
    (posted,) = [t for t in club.said() if t.startswith("📊 **Spring Swiss** standings (final)")]
    return posted.splitlines()[1:]


async def test_an_eight_player_swiss_with_a_no_show_a_drop_a_clock_forfeit_and_a_restart(
    simcord_env: Any,
    simcord_bot: CrosshairsBot,
    new_bot: Callable[[], CrosshairsBot],
    clock: FakeClock,
) -> None:
    club = Club(simcord_env, 9)
    bot = simcord_bot
    rng = random.Random(9)
    ledger: list[PairingResult] = []

    await club.stranger.slash(
        club.channel, "crosshairs-tournament create", name="Sneaky", format="swiss", rounds=3
    )
    assert refusals(simcord_env) == [NOT_ORGANISER]
    created = answer(
        await club.organiser.slash(
            club.channel,
            "crosshairs-tournament create",
            name="Spring Swiss",
            format="swiss",
            rounds=3,
            clock=PER_TURN,
            check_in=True,
            tiebreaks="buchholz,sonneborn-berger",
        )
    )
    assert "Spring Swiss" in created.content and "Swiss, 3 rounds" in created.content
    for pilot in club.pilots:
        joined = await pilot.click(created, label="Join")
        assert "You are in" in answer(joined).content
    for pilot in club.pilots[:8]:  # p8 never checks in
        await pilot.click(created, label="Check in")
    pressed = answer(await club.stranger.click(created, label="Start"))
    assert pressed.ephemeral and pressed.content.startswith("⛔ organising a tournament")
    assert not club.channel.threads  # only an organiser starts the event
    await club.organiser.click(created, label="Start")

    no_show = club.pilots[8]
    seeds = {p.id: i + 1 for i, p in enumerate(club.pilots[:8])}  # equal ratings: join order
    assert f"Check-in closed; dropped as no-shows: {no_show.mention}." in club.said()
    games = await open_games(bot, club)
    assert len(games) == 4  # eight checked in: four duels, the no-show is out
    assert no_show.id not in {u for _, live in games for u in seat_users(live)}
    assert any(t.startswith("📣 **Spring Swiss — round 1**") for t in club.said())

    # Round 1, paused before its last result: no round 2 until the organiser resumes,
    # and the bot restarts in between.
    await club.organiser.slash(club.channel, "crosshairs-tournament pause")
    for thread, live in games:
        first, second = seat_users(live)
        loser = rng.choice((first, second))
        winner = second if loser == first else first
        await resign(club, thread, loser)
        ledger.append(duel(winner, loser, first))
    assert await open_games(bot, club) == []
    assert not any("round 2**" in t for t in club.said())
    await simcord_env.restart_bot(new_bot())
    bot = simcord_env.bot
    await club.organiser.slash(club.channel, "crosshairs-tournament resume")
    games = await open_games(bot, club)
    assert len(games) == 4
    assert any(t.startswith("📣 **Spring Swiss — round 2**") for t in club.said())
    assert any(t.startswith("📊 **Spring Swiss** standings (after round 1)") for t in club.said())

    # Round 2: one player is dropped mid-game (the pairing is forfeited to the opponent),
    # two games end by resignation and the last on the clock.
    (_, drop_live), *rest = games
    dropped = seat_users(drop_live)[1]
    stays = seat_users(drop_live)[0]
    await club.organiser.slash(
        club.channel, "crosshairs-tournament drop", player=club.member(dropped)
    )
    ledger.append(duel(stays, dropped, stays, forfeit=True))
    assert drop_live.game.is_over  # their game was resigned for them
    for thread, live in rest[:2]:
        first, second = seat_users(live)
        await resign(club, thread, second)
        ledger.append(duel(first, second, first))
    _, clock_live = rest[2]
    first, second = seat_users(clock_live)
    to_move = clock_live.user_to_move()
    assert to_move == first  # the first seat flies first
    await run_out_clock(simcord_env, clock)
    assert clock_live.game.history[-1].token == "timeout:1"
    ledger.append(duel(second, first, first, forfeit=True))

    # Round 3: seven players left, so one has a bye.
    games = await open_games(bot, club)
    assert len(games) == 3
    playing = {u for _, live in games for u in seat_users(live)}
    (bye,) = set(seeds) - playing - {dropped}
    ledger.append(PairingResult.bye(str(bye)))
    assert any(f"{club.name(bye)} has a bye" in t for t in club.said())
    for thread, live in games:
        first, second = seat_users(live)
        loser = rng.choice((first, second))
        await resign(club, thread, loser)
        ledger.append(duel(second if loser == first else first, loser, first))

    entrants = [Entrant(str(u), 0.0, s) for u, s in seeds.items()]
    expected = standings(entrants, ledger, (TieBreak.BUCHHOLZ, TieBreak.SONNEBORN_BERGER))
    lines = [
        f"{s.place}. {club.name(int(s.player))} {half(s.score)}"
        + (" (dropped)" if int(s.player) == dropped else "")
        for s in expected
    ]
    assert final_table(club) == lines
    champions = [club.member(int(s.player)).mention for s in expected if s.place == 1]
    assert f"Winner: {' and '.join(champions)}!" in club.said()[-1]
    assert any(a.filename == "standings.png" for m in club.channel.history() for a in m.attachments)

    # Standings on request, and the organiser controls refused to a plain member.
    shown = answer(
        await club.pilots[0].slash(club.channel, "crosshairs-tournament standings", tournament_id=1)
    )
    assert shown.attachments and shown.attachments[0].filename == "standings.png"
    assert shown.content.splitlines() == lines
    await club.stranger.slash(club.channel, "crosshairs-tournament end", tournament_id=1)
    assert refusals(simcord_env) == [NOT_ORGANISER, NOT_ORGANISER]
