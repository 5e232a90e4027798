"""A 2v2 team Swiss run through Discord: captains invite their partners with
``/crosshairs-tournament team``, partners accept with a button (a second press, a
stranger's press and a decline are handled), four teams play two rounds at 2v2 tables,
and the standings rank the teams, worked out here from the results the test caused."""

from __future__ import annotations

from typing import Any

from support.replies import answer, refusals

from bot.discord_app import CrosshairsBot
from competition.model import Entrant, PairingResult
from competition.standings import TieBreak, standings
from rules.modes import MODES
from tournament_bot.tournament_harness import Club, open_games, resign, seat_users


def half(score: float) -> str:
    whole, frac = divmod(round(score * 2), 2)
    return f"{whole or ''}½" if frac else str(whole)  # a half alone reads ½, not 0½


async def test_a_two_v_two_team_swiss_from_invitations_to_the_final_standings(
    simcord_env: Any, simcord_bot: CrosshairsBot
) -> None:
    club = Club(simcord_env, 8)
    p = club.pilots
    created = answer(
        await club.organiser.slash(
            club.channel,
            "crosshairs-tournament create",
            name="Pairs",
            format="swiss",
            rounds=2,
            mode="2v2",
            tiebreaks="buchholz",
        )
    )
    assert "teams of 2 (2v2)" in created.content
    joined = answer(await p[0].click(created, label="Join"))
    assert "a captain enters a team" in joined.content and joined.ephemeral

    # p6's first invitation is declined; p6 invites p7 again and this time it is accepted.
    invite = answer(await p[6].slash(club.channel, "crosshairs-tournament team", partner=p[7]))
    await p[7].click(invite, label="Decline")
    assert any("team is called off" in t for t in club.said())
    teams = [(p[0], p[1]), (p[2], p[3]), (p[4], p[5]), (p[6], p[7])]
    for captain, partner in teams:
        invite = answer(
            await captain.slash(club.channel, "crosshairs-tournament team", partner=partner)
        )
        assert partner.mention in invite.content
        stranger = answer(await club.stranger.click(invite, label="Accept"))
        assert stranger.ephemeral and "not for you" in stranger.content
        await partner.click(invite, label="Accept")
        again = answer(await partner.click(invite, label="Accept"))
        assert again.ephemeral and "already accepted" in again.content
    entered = [t for t in club.said() if "team is complete and entered" in t]
    assert len(entered) == 4  # each team entered once, though its partner pressed twice
    await p[1].slash(club.channel, "crosshairs-tournament team", partner=p[2])
    assert refusals(simcord_env) == ["someone in that team is already in a team of this event"]

    await club.organiser.click(created, label="Start")
    (opened,) = [t for t in club.said() if t.startswith("📣 **Pairs — round 1**")]
    assert all(pilot.mention in opened for pilot in p)  # every member is pinged
    team_of = {m.id: captain.id for captain, partner in teams for m in (captain, partner)}
    sides = MODES["2v2"].teams
    ledger: list[PairingResult] = []
    for round_no in (1, 2):
        games = await open_games(simcord_bot, club)
        assert len(games) == 2, round_no
        for thread, live in games:
            users = seat_users(live)
            # Each team sits on its own side of the 2v2 table.
            by_side = [
                {team_of[u] for u, s in zip(users, sides, strict=True) if s == side}
                for side in (0, 1)
            ]
            assert all(len(captains) == 1 for captains in by_side)
            first, second = (next(iter(c)) for c in by_side)
            # The team whose captain joined later loses: both its pilots resign.
            loser = max(first, second, key=[t[0].id for t in teams].index)
            for u in users:
                if team_of[u] == loser:
                    await resign(club, thread, u)
            assert live.game.is_over
            ledger.append(
                PairingResult.duel(str(first), str(second), 0.0 if loser == first else 1.0)
            )
    assert await open_games(simcord_bot, club) == []

    entrants = [Entrant(str(c.id), 0.0, i + 1) for i, (c, _) in enumerate(teams)]
    expected = standings(entrants, ledger, (TieBreak.BUCHHOLZ,))
    name = {c.id: f"{c.name} & {m.name}" for c, m in teams}
    lines = [f"{s.place}. {name[int(s.player)]} {half(s.score)}" for s in expected]
    (final,) = [t for t in club.said() if t.startswith("📊 **Pairs** standings (final)")]
    assert final.splitlines()[1:] == lines
    assert expected[0].player == str(p[0].id) and expected[0].score == 2.0
    assert "Pairs** is over" in club.said()[-1]
