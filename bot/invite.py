"""The links that add Crosshairs to a server or install it for a person (Discord's two
installation types: ``integration_type`` 0, the server, and 1, the user).

The server link asks for exactly the permissions in ``USES``, each with what the bot
does with it; ``/crosshairs setup check`` and README.md say the same, and
tests/e2e/test_e2e_invite.py holds every channel call the bot makes to this list.
"""

from __future__ import annotations

from typing import NamedTuple
from urllib.parse import urlencode

from i18n import N_

AUTHORIZE = "https://discord.com/oauth2/authorize"


class Use(NamedTuple):
    attr: str  # the attribute of discord.Permissions
    bit: int  # its value in Discord's permission bit set
    name: str  # the name a server's settings show (marked for translation)
    purpose: str  # what the bot does with it


USES = (
    Use("view_channel", 1 << 10, N_("View Channel"), N_("see the channel it is asked to play in")),
    Use("send_messages", 1 << 11, N_("Send Messages"), N_("post challenges and lobbies")),
    Use(
        "create_public_threads",
        1 << 35,
        N_("Create Public Threads"),
        N_("open a thread for each match"),
    ),
    Use(
        "create_private_threads",
        1 << 36,
        N_("Create Private Threads"),
        N_("open a private room for each team in team games"),
    ),
    Use(
        "send_messages_in_threads",
        1 << 38,
        N_("Send Messages in Threads"),
        N_("post the board and the turns in the match's thread"),
    ),
    Use("attach_files", 1 << 15, N_("Attach Files"), N_("upload the board's picture")),
    Use("embed_links", 1 << 14, N_("Embed Links"), N_("show the leaderboard and the rules")),
    Use(
        "read_message_history",
        1 << 16,
        N_("Read Message History"),
        N_("find its board again after a restart"),
    ),
    Use(
        "manage_threads",
        1 << 34,
        N_("Manage Threads"),
        N_("reopen a match's thread that was archived or locked"),
    ),
    Use(
        "create_events",
        1 << 44,
        N_("Create Events"),
        N_("list each tournament in the server's events"),
    ),
)
PERMISSIONS = sum(use.bit for use in USES)


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
