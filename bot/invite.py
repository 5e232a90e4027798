"""The links that add Crosshairs to a server or install it for a person (Discord's two
installation types: ``integration_type`` 0, the server, and 1, the user)."""

from __future__ import annotations

from urllib.parse import urlencode

AUTHORIZE = "https://discord.com/oauth2/authorize"
# View Channels, Send Messages, Send Messages in Threads, Create Public Threads, Manage
# Threads, Embed Links, Attach Files, Read Message History, Add Reactions (README.md)
PERMISSIONS = 328565083200


def server_link(app_id: int) -> str:
    """Add the bot to a server: it posts, opens match threads and keeps clocks there."""
    query = {
        "client_id": app_id,
        "integration_type": 0,
        "scope": "bot applications.commands",
        "permissions": PERMISSIONS,
    }
    return f"{AUTHORIZE}?{urlencode(query)}"


def user_link(app_id: int) -> str:
    """Install the app for oneself: ``/crosshairs`` in DMs, group DMs and servers that
    have not added the bot, played through interactions (docs/anywhere.md)."""
    query = {"client_id": app_id, "integration_type": 1, "scope": "applications.commands"}
    return f"{AUTHORIZE}?{urlencode(query)}"
