"""The buttons and menus under a message.

Every press is routed by its custom id to a :class:`discord.ui.DynamicItem` registered
when the bot starts, which is how a button keeps working after a restart. discord.py
need not keep a view per message for that, yet it does for every view sent unfinished:
one per board for as long as the bot runs, and for an ephemeral message a task that
waits fifteen minutes. :func:`components` gives a view already stopped, which discord.py
sends as it is and never keeps.
"""

from __future__ import annotations

import inspect
import re
from typing import Any, Generic, Self, TypeVar, cast

import discord

from i18n import _

ItemT = TypeVar("ItemT", bound=discord.ui.Item[Any])


# The base's own template matches no custom id: only its subclasses are registered.
class Persistent(discord.ui.DynamicItem[ItemT], Generic[ItemT], template=r"(?!)"):
    """A persistent button or menu, rebuilt by discord.py from its custom id after a
    restart: the template's named groups, in order, are the constructor's first
    arguments, each made an ``int`` where the constructor's parameter is annotated so.
    One whose id needs more reading than that overrides :meth:`from_groups`."""

    @classmethod
    def from_groups(cls, *groups: str) -> Self:
        params = list(inspect.signature(cls.__init__).parameters.values())[1:]  # after self
        # postponed annotations are the text "int"
        args = [
            int(value) if param.annotation in (int, "int") else value
            for param, value in zip(params, groups, strict=False)
        ]
        made: Self = cast(Any, cls)(*args)
        return made

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        return cls.from_groups(*(g or "" for g in match.groupdict().values()))


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
