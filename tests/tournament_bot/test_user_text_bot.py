"""People's free text: each free-text option declares its longest value, so Discord (here
simcord, which enforces it as Discord does) refuses more in the box; a tournament named to
ping everyone pings nobody. The bot's own second check is proven end to end in
tests/e2e/test_e2e_user_text.py, where localcord lets the long value through."""

from __future__ import annotations

from typing import Any

import pytest
from simcord.backend.errors import OptionError
from support.replies import answer, refusals
from support.tables import Table

from bot.discord_app import CrosshairsBot
from tournament_bot.tournament_harness import Club

LONG = "x" * 6000


def option_lengths(bot: CrosshairsBot, command: str) -> dict[str, int]:
    """The longest value each string option of ``/<command>`` declares."""
    found: dict[str, int] = {}

    def walk(node: dict[str, Any], path: list[str]) -> None:
        for option in node.get("options", []):
            if option["type"] in (1, 2):
                walk(option, [*path, option["name"]])
            elif option["type"] == 3 and " ".join(path) == command:
                found[option["name"]] = option.get("max_length", 6000)

    for top in bot.tree.get_commands():
        walk(top.to_dict(bot.tree), [top.name])
    return found


async def test_every_free_text_option_declares_its_length(
    simcord_env: Any, simcord_bot: CrosshairsBot
) -> None:
    assert option_lengths(simcord_bot, "crosshairs challenge")["variants"] == 200
    assert option_lengths(simcord_bot, "crosshairs lobby")["variants"] == 200
    assert option_lengths(simcord_bot, "crosshairs move")["tokens"] == 1000
    assert option_lengths(simcord_bot, "crosshairs-tournament create")["name"] == 100
    assert option_lengths(simcord_bot, "crosshairs-tournament create")["tiebreaks"] == 200
    assert option_lengths(simcord_bot, "crosshairs-series start")["handicaps"] == 200
    assert option_lengths(simcord_bot, "crosshairs-series start")["variants"] == 200


async def test_discord_refuses_six_thousand_characters_in_the_box(
    simcord_env: Any, simcord_bot: CrosshairsBot
) -> None:
    table, club = Table(simcord_env), Club(simcord_env, 2)
    with pytest.raises(OptionError, match="at most 200 characters"):
        await table.alice.slash(
            table.channel, "crosshairs challenge", opponent=table.bob, variants=LONG
        )
    for options in ({"name": LONG}, {"name": "Cup", "tiebreaks": LONG}):
        with pytest.raises(OptionError):
            await club.organiser.slash(
                club.channel, "crosshairs-tournament create", format="swiss", **options
            )
    assert not list(simcord_bot.games.live_matches())


async def test_a_tournament_called_everyone_here_pings_nobody(
    simcord_env: Any, simcord_bot: CrosshairsBot
) -> None:
    club = Club(simcord_env, 2)
    created = answer(
        await club.organiser.slash(
            club.channel,
            "crosshairs-tournament create",
            name="@everyone @here cup",
            format="swiss",
            rounds=3,
        )
    )
    assert "cup" in created.content
    assert "@everyone" not in created.content and "@here" not in created.content
    mentions = simcord_bot.allowed_mentions
    assert mentions is not None and not mentions.everyone and not mentions.roles


BIDI = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f"


async def test_a_name_that_shows_nothing_is_refused(
    simcord_env: Any, simcord_bot: CrosshairsBot
) -> None:
    club = Club(simcord_env, 2)
    for blank in ("\u200b\u200b\u200b", "\u200d \u2060\ufeff", "\u3164\u2800"):
        said = answer(
            await club.organiser.slash(
                club.channel,
                "crosshairs-tournament create",
                name=blank,
                format="swiss",
                rounds=3,
            )
        )
        assert "give the tournament a name" in said.content, repr(blank)
    created = answer(
        await club.organiser.slash(
            club.channel,
            "crosshairs-tournament create",
            name="\u200bCup",
            format="swiss",
            rounds=3,
        )
    )
    assert "tournament #1" in created.content  # the blank ones stored nothing
    assert refusals(simcord_env) == ["give the tournament a name"] * 3


async def test_directional_controls_in_names_never_reach_the_bots_lines(
    simcord_env: Any, simcord_bot: CrosshairsBot
) -> None:
    """A tournament (or a person) named with U+202E first would turn the rest of the
    bot's line around: the bot's lines carry no directional control."""
    club = Club(simcord_env, 2)
    created = answer(
        await club.organiser.slash(
            club.channel,
            "crosshairs-tournament create",
            name="\u202epuC",
            format="swiss",
            rounds=3,
        )
    )
    assert "puC" in created.content and not set(BIDI) & set(created.content)
    table = Table(simcord_env)
    mallory = table.guild.add_member(simcord_env.create_user("\u202emallory"))
    invite = answer(
        await mallory.slash(table.channel, "crosshairs challenge", opponent=table.alice)
    )
    assert "mallory" in invite.content and not set(BIDI) & set(invite.content)
