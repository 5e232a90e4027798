"""The buttons and menus under a message.

Every press is routed by its custom id to a :class:`discord.ui.DynamicItem` registered
when the bot starts, which is how a button keeps working after a restart. discord.py
need not keep a view per message for that, yet it does for every view sent unfinished:
one per board for as long as the bot runs, and for an ephemeral message a task that
waits fifteen minutes. :func:`components` gives a view already stopped, which discord.py
sends as it is and never keeps.
"""

from __future__ import annotations

from typing import Any

import discord

from i18n import _


def components(*items: discord.ui.Item[Any]) -> discord.ui.View:
    """A view of ``items`` (more may be added) that discord.py will not keep."""
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    view.stop()
    return view


def answer_button(custom_id: str, op: str) -> discord.ui.Button[Any]:
    """The **Accept** (``op`` "accept") or **Decline** button of an offer: a challenge,
    a series invitation, a rematch, a takeback."""
    accept = op == "accept"
    return discord.ui.Button(
        label=_("Accept") if accept else _("Decline"),
        style=discord.ButtonStyle.success if accept else discord.ButtonStyle.secondary,
        custom_id=custom_id,
    )
