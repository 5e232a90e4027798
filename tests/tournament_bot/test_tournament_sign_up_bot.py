"""What the sign-up tells people, as they read it in the channel: check-in is offered
(buttons, the joining answer) only by an event that has it, a one-game pairing is called
one game, and a single-elimination bracket is just "Bracket" (a double one has a
winners' and a losers' side)."""

from __future__ import annotations

from typing import Any

from support.replies import answer

from bot.discord_app import CrosshairsBot
from tournament_bot.tournament_harness import Club


def labels(message: Any) -> list[str]:
    return [str(item["label"]) for row in message.components for item in row["components"]]


async def sign_up(club: Club, **options: Any) -> Any:
    return answer(
        await club.organiser.slash(
            club.channel, "crosshairs-tournament create", name="Cup", **options
        )
    )


async def test_an_event_without_check_in_offers_none_and_calls_one_game_one_game(
    simcord_env: Any, simcord_bot: CrosshairsBot
) -> None:
    club = Club(simcord_env, 2)
    created = await sign_up(club, format="round-robin")
    assert labels(created) == ["Join", "Leave", "Start"]
    assert "Each pairing plays one game:" in created.content
    assert "best of 1" not in created.content and "achievement cards" not in created.content
    joined = answer(await club.pilots[0].click(created, label="Join"))
    assert joined.content == "✅ You are in. Watch this channel for your pairings."


async def test_an_event_with_check_in_offers_it_and_a_series_is_called_a_series(
    simcord_env: Any, simcord_bot: CrosshairsBot
) -> None:
    club = Club(simcord_env, 2)
    created = await sign_up(club, format="round-robin", check_in=True, games=3)
    assert labels(created) == ["Join", "Leave", "Check in", "Close check-in", "Start"]
    assert "Each pairing plays a best of 3 series with achievement cards:" in created.content
    joined = answer(await club.pilots[0].click(created, label="Join"))
    assert "check-in" in joined.content


async def bracket_words(club: Club, fmt: str) -> str:
    created = await sign_up(club, format=fmt)
    for pilot in club.pilots:
        await pilot.click(created, label="Join")
    await club.organiser.click(created, label="Start")
    shown = answer(
        await club.pilots[0].slash(club.channel, "crosshairs-tournament bracket", tournament_id=1)
    )
    return str(shown.attachments[0].description)


async def test_a_single_elimination_bracket_is_titled_bracket(
    simcord_env: Any, simcord_bot: CrosshairsBot
) -> None:
    words = await bracket_words(Club(simcord_env, 4), "single")
    assert "Bracket:" in words and "Winners' bracket" not in words


async def test_a_double_elimination_bracket_keeps_its_two_sides(
    simcord_env: Any, simcord_bot: CrosshairsBot
) -> None:
    words = await bracket_words(Club(simcord_env, 4), "double")
    assert "Winners' bracket:" in words and "Losers' bracket:" in words
