"""A start for a new server: the welcome when the bot joins (once, in the server's
language, where it may write) and ``/crosshairs help`` (a guide in the reader's language
that fits one message)."""

from __future__ import annotations

from typing import Any

import discord
import pytest
from support.replies import answer

from bot.discord_app import CrosshairsBot
from bot.ui.translator import shown
from bot.ui.welcome import Welcome, guide
from i18n import LANGUAGES, speaking


async def joined(bot: CrosshairsBot, guild: Any) -> None:
    """Discord's GUILD_CREATE for a server the bot was just added to, as discord.py
    delivers it (``on_guild_join``): simcord announces a server made in a test as one
    already known (``guild_available``)."""
    found = bot.get_guild(guild.id)
    cog = bot.get_cog("Welcome")
    assert found is not None and isinstance(cog, Welcome)
    await cog.on_guild_join(found)


async def test_the_bot_greets_a_server_it_joins_once_in_its_language(
    simcord_env: Any, simcord_bot: CrosshairsBot
) -> None:
    guild = simcord_env.create_guild(preferred_locale="de")
    # the bot may not write in the first channel: it greets in the next one
    rules = guild.create_text_channel(
        "regeln", overwrites={guild.me: discord.PermissionOverwrite(send_messages=False)}
    )
    lounge = guild.create_text_channel("lounge")
    await joined(simcord_bot, guild)
    assert not rules.history()
    [welcome] = lounge.history()
    assert "Hallo! Ich bin **Crosshairs**" in welcome.content
    assert "`/crosshairs lernen`" in welcome.content and "`/crosshairs hilfe`" in welcome.content
    assert "`/crosshairs spielen`" in welcome.content
    assert (
        "Server verwalten" in welcome.content and "`/crosshairs setup pruefen`" in welcome.content
    )
    assert not welcome.mentions and "@everyone" not in welcome.content
    await joined(simcord_bot, guild)  # invited again: no second welcome
    assert len(lounge.history()) == 1


async def test_help_is_a_private_guide_that_fits_one_message_in_every_language(
    simcord_env: Any, simcord_bot: CrosshairsBot
) -> None:
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("dogfights")
    amy = guild.add_member(simcord_env.create_user("amy"))
    said = answer(await amy.slash(channel, "crosshairs help"))
    assert said.ephemeral
    assert (
        "`/crosshairs learn`" in said.content
        and "`/crosshairs play` — Quick pairing" in said.content
    )
    assert "`/crosshairs-tournament create`" in said.content
    for language in LANGUAGES:
        with speaking(language):
            text = guide(simcord_bot.tree)
        assert len(text) <= 2000, (language, len(text))
    with speaking("de"):
        german = guide(simcord_bot.tree)
    assert "`/crosshairs lernen`" in german and "`/crosshairs-turnier anlegen`" in german
    assert "Schnellpaarung" in german


@pytest.mark.parametrize(
    ("language", "learn"), [("fr", "/crosshairs apprendre"), ("es", "/crosshairs aprender")]
)
def test_the_guides_command_names_are_the_readers(language: str, learn: str) -> None:
    with speaking(language):
        assert shown("crosshairs learn") == learn
