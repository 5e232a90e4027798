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


def components(*items: discord.ui.Item[Any]) -> discord.ui.View:
    """A view of ``items`` (more may be added) that discord.py will not keep."""
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    view.stop()
    return view
