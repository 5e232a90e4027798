"""A whole 8-player double-elimination event run through Discord.

The organiser here holds Manage Server (not the organiser role). Every game is won by
the better seed, whose opponent resigns in the pairing's thread, except that the top
seed is dropped in round 2 (their pairing, and every later match of theirs, is
forfeited) and the second seed loses a game on the clock. The bot restarts between
rounds. The test keeps its own bracket from the pure package, fed only with what the
test made happen, and checks every round's pairings, the champion and the final
places against it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import discord
from support.replies import answer

from bot.discord_app import CrosshairsBot
from bot.services.clock import FakeClock
from competition.elimination import Bracket, State
from tournament_bot.tournament_harness import (
    Club,
    open_games,
    resign,
    run_out_clock,
    seat_users,
)


async def test_an_eight_player_double_elimination_with_a_drop_a_clock_forfeit_and_a_restart(
    simcord_env: Any,
    simcord_bot: CrosshairsBot,
    new_bot: Callable[[], CrosshairsBot],
    clock: FakeClock,
) -> None:
    club = Club(simcord_env, 8)
    admins = club.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    admin = club.guild.add_member(simcord_env.create_user("ada"), roles=[admins])
    created = answer(
        await admin.slash(
            club.channel,
            "crosshairs-tournament create",
            name="Cup",
            format="double",
            clock=120,
        )
    )
    assert "double elimination" in created.content
    for pilot in club.pilots:
        await pilot.click(created, label="Join")
    await admin.click(created, label="Start")

    seed = {p.id: i + 1 for i, p in enumerate(club.pilots)}  # equal ratings: join order
    top, second_seed = club.pilots[0].id, club.pilots[1].id
    expected = Bracket.double([str(p.id) for p in club.pilots], reset=True)
    dropped: int | None = None
    timed_out: frozenset[int] = frozenset()
    round_no = 0
    while not expected.finished:
        round_no += 1
        assert any(t.startswith(f"📣 **Cup — round {round_no}**") for t in club.said()), [
            (m.id, m.first, m.second) for m in expected.ready()
        ]
        games = await open_games(simcord_env.bot, club)
        ready = expected.ready()
        played = {frozenset(int(p) for p in (m.first, m.second) if p) for m in ready}
        if dropped is not None:  # the dropped player's matches are forfeited, not played
            played = {pair for pair in played if dropped not in pair}
        assert {frozenset(seat_users(live)) for _, live in games} == played, round_no
        if round_no == 2:
            await simcord_env.restart_bot(new_bot())
            assert await open_games(simcord_env.bot, club) != []
            assert len(club.channel.threads) == 8  # nothing opened twice
            await admin.slash(club.channel, "crosshairs-tournament drop", player=club.pilots[0])
            dropped = top
        for m in ready:
            a, b = int(m.first or 0), int(m.second or 0)
            if dropped in (a, b):
                winner = b if a == dropped else a
            elif round_no == 2 and second_seed in (a, b):
                timed_out = frozenset((a, b))
                winner = b  # the first slot moves first and runs out of time
            else:
                winner = min(a, b, key=lambda u: seed[u])
            expected.report(m.id, str(winner))
        for thread, live in await open_games(simcord_env.bot, club):
            users = set(seat_users(live))
            if round_no != 2 or users != timed_out:
                loser = max(users, key=lambda u: seed[u])
                await resign(club, thread, loser)
        if round_no == 2:
            assert timed_out and second_seed in timed_out
            await run_out_clock(simcord_env, clock)
        assert round_no < 20

    champion = expected.champion()
    assert champion is not None
    assert f"Winner: <@{champion}>!" in club.said()[-1]
    wins: dict[str, int] = {}
    for m in expected.matches():
        if m.state is State.DONE and m.winner is not None:
            wins[m.winner] = wins.get(m.winner, 0) + 1
    lines = [
        f"{place}. {club.name(int(p))} {wins.get(p, 0)}"
        + (" (dropped)" if int(p) == dropped else "")
        for place, p in sorted(expected.ranking(), key=lambda pp: (pp[0], seed[int(pp[1])]))
    ]
    (final,) = [t for t in club.said() if t.startswith("📊 **Cup** standings (final)")]
    assert final.splitlines()[1:] == lines
    shown = answer(
        await club.pilots[3].slash(club.channel, "crosshairs-tournament bracket", tournament_id=1)
    )
    assert shown.attachments[0].filename == "bracket.png"
    assert any("(forfeit)" in t and club.name(top) in t for t in club.said())
