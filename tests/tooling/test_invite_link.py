"""The invite link asks for one list of permissions (bot/invite.py), and README.md shows
the same link and says what each is for."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import parse_qs, urlparse

import discord

from bot.invite import PERMISSIONS, USES, server_link

README = Path(__file__).parents[2] / "README.md"


def test_the_link_asks_for_exactly_the_listed_permissions() -> None:
    asked = int(parse_qs(urlparse(server_link(1)).query)["permissions"][0])
    assert asked == PERMISSIONS
    # each listed bit is the one discord.py (and Discord) knows by that name
    assert asked == sum(discord.Permissions(**{use.attr: True}).value for use in USES)
    assert all(discord.Permissions(**{use.attr: True}).value == use.bit for use in USES)
    assert discord.Permissions(asked).attach_files  # the boards are pictures


def test_the_readme_shows_the_link_and_each_permissions_purpose() -> None:
    text = README.read_text()
    assert f"permissions={PERMISSIONS}`" in text
    for use in USES:
        name = "View Channels" if use.attr == "view_channel" else use.name
        assert f"| {name} | {use.purpose} |" in text, use.attr
