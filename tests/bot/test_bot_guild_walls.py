"""Guild walls: a number typed in a slash option reaches only this server's matches,
series and tournaments; from another server the answer is the plain "not found" an
unused number gets, so nothing about the other server leaks."""

from __future__ import annotations

from typing import Any

from support.replies import answer, refusals

from bot.discord_app import CrosshairsBot


async def test_ids_from_another_server_answer_not_found_and_reveal_nothing(
    simcord_env: Any, simcord_bot: CrosshairsBot
) -> None:
    home = simcord_env.create_guild()
    channel = home.create_text_channel("dogfights")
    alice = home.add_member(simcord_env.create_user("alice"))
    bob = home.add_member(simcord_env.create_user("bob"))
    offer = answer(await alice.slash(channel, "crosshairs-series start", opponent=bob))
    await bob.click(offer, label="Accept")
    assert len(channel.threads) == 1
    shown = answer(await alice.slash(channel, "crosshairs-series status", series_id=1))
    assert "Series #1" in shown.content  # at home the number works

    away = simcord_env.create_guild()
    elsewhere = away.create_text_channel("lobby")
    mallory = away.add_member(simcord_env.create_user("mallory"))
    tries = [
        ("crosshairs replay", {"match": 1}),
        ("crosshairs replay", {"match": 99}),
        ("crosshairs record", {"match": 1}),
        ("crosshairs analyse", {"match": 1}),
        ("crosshairs-series status", {"series_id": 1}),
        ("crosshairs-series status", {"series_id": 99}),
        ("crosshairs-series handicap", {"player": mallory, "tokens": 1, "series_id": 1}),
        ("crosshairs-series stop", {"series_id": 1}),
        ("crosshairs-tournament standings", {"tournament_id": 1}),
    ]
    for command, options in tries:
        said = answer(await mallory.slash(elsewhere, command, **options)).content
        assert "alice" not in said and "bob" not in said, (command, said)
    assert refusals(simcord_env) == [
        "there is no match #1 here",
        "there is no match #99 here",
        "there is no match #1 here",
        "there is no match #1 here",
        "there is no series #1 here",
        "there is no series #99 here",
        "there is no series #1 here",
        "there is no series #1 here",
        "there is no tournament #1 here",
    ]
