"""``/crosshairs move``'s autocomplete within Discord's limits: a turn typed past 100
characters still gets offers (at most 25, each name and value at most 100 characters,
the typed turn shortened to "…" and its end), and a shortened offer, once picked, plays
the whole turn it stands for."""

from __future__ import annotations

from typing import Any

from support.replies import answer, refusals
from support.tables import Table

from bot.discord_app import CrosshairsBot


async def test_long_turns_get_short_offers_that_play_the_whole_turn(
    simcord_env: Any, simcord_bot: CrosshairsBot
) -> None:
    table = Table(simcord_env)
    thread = await table.start(clouds="none", planes=6)
    live = next(iter(simcord_bot.games.live_matches()))
    pilot = table.alice if live.user_to_move() == table.alice.id else table.bob
    typed, steps = "", list[str]()
    while len(" ".join(steps)) <= 110:
        choices = await pilot.autocomplete(thread, "crosshairs move", "tokens", typed)
        assert 0 < len(choices) <= 25
        for choice in choices:
            assert 0 < len(choice["name"]) <= 100 and 0 < len(choice["value"]) <= 100
        picked = choices[0]["value"]
        steps.append(picked.split(" ")[-1])
        whole = " ".join(steps)
        assert picked == whole if len(whole) <= 100 else picked == "…" + whole[-99:]
        typed = picked + " "
    result = await pilot.slash(thread, "crosshairs move", tokens=typed.strip())
    assert answer(result).content == f"✅ {whole}"
    assert refusals(simcord_env) == []


async def test_a_shortened_offer_nobody_made_is_refused_kindly(
    simcord_env: Any, simcord_bot: CrosshairsBot
) -> None:
    table = Table(simcord_env)
    thread = await table.start(clouds="none")
    live = next(iter(simcord_bot.games.live_matches()))
    pilot = table.alice if live.user_to_move() == table.alice.id else table.bob
    await pilot.slash(thread, "crosshairs move", tokens="…k6E +k7E a2X")
    assert refusals(simcord_env) == [
        "that shortened suggestion has expired: pick it again or type the turn"
    ]
    assert live.game.turn == 1 and not live.game.history
