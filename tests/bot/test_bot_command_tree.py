"""``/crosshairs`` stays within Discord's 8,000 characters per command: the names,
descriptions and choice values of the command and everything below it (Discord refuses
the whole command sync over that, and localcord refuses it as Discord does)."""

from __future__ import annotations

from typing import Any

from bot.discord_app import CrosshairsBot
from bot.ui.commands import crosshairs
from localcord.documented import COMMAND_TREE, tree_size


async def test_the_crosshairs_command_tree_fits_discords_limit(
    simcord_env: Any, simcord_bot: CrosshairsBot
) -> None:
    size = tree_size(crosshairs.to_dict(simcord_bot.tree))
    print(f"/crosshairs: {size} of {COMMAND_TREE} characters")
    assert 5000 < size <= COMMAND_TREE


async def test_crosshairs_can_be_installed_by_a_person_and_used_anywhere(
    simcord_env: Any, simcord_bot: CrosshairsBot
) -> None:
    """Guild and user install (0, 1); servers, the bot's DM and DMs or group DMs between
    people (0, 1, 2): Discord offers the command wherever the person installed it."""
    tree = crosshairs.to_dict(simcord_bot.tree)
    assert tree["integration_types"] == [0, 1]
    assert tree["contexts"] == [0, 1, 2]
