"""What an organiser can shape through ``/crosshairs-tournament create``: the planes,
ruleset, clouds and fire of every game, a turn clock within sense; and what the sign-up
message and its buttons tell the people who join."""

from __future__ import annotations

from typing import Any

from support.replies import answer, refusals

from bot.discord_app import CrosshairsBot
from storage.ratings import RatingRepo
from storage.tournaments import TournamentRepo
from tournament_bot.tournament_harness import Club, open_games, resign, seat_users


async def test_every_game_of_the_event_has_the_organisers_settings(
    simcord_env: Any, simcord_bot: CrosshairsBot
) -> None:
    club = Club(simcord_env, 3)
    created = answer(
        await club.organiser.slash(
            club.channel,
            "crosshairs-tournament create",
            name="Classic Cup",
            format="single",
            planes=3,
            ruleset="classic",
            clouds="none",
            fire="manual",
        )
    )
    assert "classic rules · manual fire · 3 planes each · no clouds" in created.content
    p0, p1, p2 = club.pilots
    await p0.click(created, label="Join")
    assert created.content.splitlines()[-1] == "Entered (1): p0"
    await p2.click(created, label="Join")
    await p1.click(created, label="Join")
    assert created.content.splitlines()[-1] == "Entered (3): p0, p2, p1"
    await p2.click(created, label="Leave")
    assert created.content.splitlines()[-1] == "Entered (2): p0, p1"
    assert "<@" not in created.content.splitlines()[-1]  # names, never pings

    asked = answer(await p0.click(created, label="Check in"))
    assert asked.content == "⚠️ Classic Cup has no check-in: joining is all it takes"

    await club.organiser.click(created, label="Start")
    ((thread, live),) = await open_games(simcord_bot, club)
    settings = live.game.settings
    assert (settings.ruleset, settings.fire, settings.plane_counts()) == (
        "classic",
        "manual",
        (3, 3),
    )
    assert live.game.clouds == frozenset()
    assert "classic rules" in " ".join(m.content for m in thread.history())


async def test_a_mode_with_fixed_planes_is_refused_and_nothing_is_created(
    simcord_env: Any, simcord_bot: CrosshairsBot
) -> None:
    """(Clocks out of range are refused too: Discord offers only sensible choices, so
    that is tested where any number can be typed, tests/e2e/test_e2e_options.py.)"""
    club = Club(simcord_env, 2)
    refused = answer(
        await club.organiser.slash(
            club.channel,
            "crosshairs-tournament create",
            name="Bad",
            format="swiss",
            rounds=3,
            mode="2v2",
            planes=4,
        )
    )
    assert "fixed planes" in refused.content
    assert len(refusals(simcord_env)) == 1
    assert await TournamentRepo(simcord_bot.db).in_guild(club.guild.id) == []  # none created


async def test_the_standings_picture_shows_ratings_as_everything_else_does(
    simcord_env: Any, simcord_bot: CrosshairsBot
) -> None:
    club = Club(simcord_env, 2)
    created = answer(
        await club.organiser.slash(
            club.channel,
            "crosshairs-tournament create",
            name="Cup",
            format="swiss",
            rounds=1,
            tiebreaks="rating",
        )
    )
    for pilot in club.pilots:
        await pilot.click(created, label="Join")
    await club.organiser.click(created, label="Start")
    ((thread, live),) = await open_games(simcord_bot, club)
    loser = seat_users(live)[1]
    await resign(club, thread, loser)

    (final,) = [m for m in club.channel.history() if "standings (final)" in m.content]
    (picture,) = final.attachments
    shown = {}
    for pilot in club.pilots:
        stored = await RatingRepo(simcord_bot.db).get(pilot.id, "duel")
        assert stored is not None
        shown[pilot.id] = 1500 + round(25 * (stored.mu - 25))  # what profile and board show
        assert f"{pilot.name}, " in picture.description
        assert f"(Rating {shown[pilot.id]})" in picture.description  # not μ (27.6, 22.4)
    assert shown[loser] < 1500 < max(shown.values())
