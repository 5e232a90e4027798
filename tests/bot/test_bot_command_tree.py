"""``/crosshairs`` and the commands beside it each stay well within Discord's 8,000
characters per command: the names, descriptions and choice values of the command and
everything below it, each counted in its longest localisation (Discord refuses the whole
command sync over that, and localcord refuses it as Discord does)."""

from __future__ import annotations

from typing import Any

from bot.discord_app import CrosshairsBot
from bot.ui.commands import crosshairs
from bot.ui.translator import CommandTranslator
from localcord.documented import COMMAND_TREE, tree_size

# Characters each top-level command keeps free for options and commands still to come.
ROOM = 1500


async def test_each_top_level_command_fits_discords_limit_with_room_to_grow(
    simcord_env: Any, simcord_bot: CrosshairsBot
) -> None:
    """Discord counts the 8,000 characters per top-level command, so tournaments and
    series are commands of their own beside ``/crosshairs``, each with room for more."""
    tops = {command.name: command for command in simcord_bot.tree.get_commands()}
    assert {"crosshairs", "crosshairs-tournament", "crosshairs-series"} <= set(tops)
    for name, command in sorted(tops.items()):
        english = tree_size(command.to_dict(simcord_bot.tree))
        payload = await command.get_translated_payload(simcord_bot.tree, CommandTranslator())
        size = tree_size(payload)
        print(f"/{name}: {english} characters in English, {size} counting the longest")
        print(f"localisation of each text, of {COMMAND_TREE}")
        assert 1000 < english <= size <= COMMAND_TREE - ROOM


def test_the_size_counts_the_longest_localisation_of_each_text() -> None:
    command = {
        "name": "draw",
        "name_localizations": {"de": "remis", "fr": "nulle"},
        "description": "Offer a draw",
        "description_localizations": {"de": "Remis anbieten", "fr": "Proposer"},
        "options": [
            {
                "name": "x",
                "description": "d",
                "choices": [{"name": "One", "name_localizations": {"es": "Uno!!"}, "value": "1"}],
            }
        ],
    }
    assert tree_size(command) == len("remis") + len("Remis anbieten") + 1 + 1 + len("Uno!!") + 1


async def test_crosshairs_can_be_installed_by_a_person_and_used_anywhere(
    simcord_env: Any, simcord_bot: CrosshairsBot
) -> None:
    """Guild and user install (0, 1); servers, the bot's DM and DMs or group DMs between
    people (0, 1, 2): Discord offers the command wherever the person installed it."""
    tree = crosshairs.to_dict(simcord_bot.tree)
    assert tree["integration_types"] == [0, 1]
    assert tree["contexts"] == [0, 1, 2]


def string_options(node: dict[str, Any], path: str = "") -> list[tuple[str, dict[str, Any]]]:
    """Every string option under ``node``, with the command path it belongs to."""
    found = []
    for option in node.get("options", ()):
        where = f"{path} {option['name']}".strip()
        if option["type"] == 3:
            found.append((where, option))
        found += string_options(option, where)
    return found


async def test_every_string_option_declares_its_longest_value(
    simcord_env: Any, simcord_bot: CrosshairsBot
) -> None:
    """Discord refuses a longer value in the box, so no command is handed 6,000
    characters to echo (the command checks again: a client may skip the box)."""
    options = [
        found
        for top in simcord_bot.tree.get_commands()
        for found in string_options(top.to_dict(simcord_bot.tree), top.name)
    ]
    assert len(options) > 20
    unbounded = [where for where, option in options if "max_length" not in option]
    assert unbounded == [], unbounded
    for where, option in options:
        assert 0 < option["max_length"] <= 1000, where
        longest = max((len(c["value"]) for c in option.get("choices", ())), default=0)
        assert longest <= option["max_length"], where  # every choice still fits
