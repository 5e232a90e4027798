"""Slash commands in the person's language, as Discord shows and reads them: the names,
descriptions and choices a German Discord lists, and a command typed in German reaching
the bot under the names the bot declared (what Discord sends whatever the locale)."""

from __future__ import annotations

import pytest

from localcord.client import LocalcordError, People
from localcord.localised import command_list
from localcord.server import LocalDiscord
from localcord.state import Json

MOVE: Json = {
    "id": "1",
    "name": "crosshairs",
    "description": "Play Crosshairs",
    "type": 1,
    "options": [
        {
            "type": 1,
            "name": "move",
            "name_localizations": {"de": "zug"},
            "description": "Fly by notation",
            "description_localizations": {"de": "Per Notation fliegen"},
            "options": [
                {
                    "type": 3,
                    "name": "tokens",
                    "name_localizations": {"de": "zeichen"},
                    "description": "Tokens",
                    "required": True,
                    "choices": [
                        {
                            "name": "Hold fire",
                            "name_localizations": {"de": "Feuer halten"},
                            "value": "-",
                        }
                    ],
                }
            ],
        }
    ],
}


def test_a_german_discord_lists_the_german_names_descriptions_and_choices() -> None:
    [german] = command_list([MOVE], "de")
    assert german["name"] == "crosshairs zug"
    assert german["description"] == "Per Notation fliegen"
    [tokens] = german["options"]
    assert (tokens["name"], tokens["required"]) == ("zeichen", True)
    assert tokens["choices"] == [{"name": "Feuer halten", "value": "-"}]
    # a locale the bot gave no words for sees the default ones
    assert command_list([MOVE], "fr")[0]["name"] == "crosshairs move"


def test_a_command_typed_in_german_reaches_the_bot_under_its_own_names() -> None:
    server = LocalDiscord()
    server.world.commands = [MOVE]
    people = People(server)
    anna = people.join("anna", "de")
    channel = server.world.add_channel("crosshairs")
    data = people._command_data("crosshairs zug", {"zeichen": "-"}, channel, anna.locale)
    [sub] = data["options"]
    assert (data["name"], sub["name"]) == ("crosshairs", "move")
    assert sub["options"] == [{"name": "tokens", "type": 3, "value": "-"}]
    # the bot's own names still work (tests type them), and another language's do not
    assert people._command_data("crosshairs move", {"tokens": "-"}, channel, "de") == data
    with pytest.raises(LocalcordError, match="no option 'zug'"):
        people._command_data("crosshairs zug", {}, channel, "fr")
