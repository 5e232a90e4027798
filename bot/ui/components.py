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
from typing import Any, ClassVar, Generic, Self, TypeVar, cast

import discord

from bot.ui.errors import guarded
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


class OfferAnswer(Persistent[discord.ui.Button[Any]], template=r"(?!)"):
    """The **Accept** or **Decline** button of an offer (a challenge, a series
    invitation, a rematch), its custom id ``<prefix>:<offer>:accept|decline``; a
    subclass names its prefix and says what a press on it does (:meth:`press`)."""

    prefix: ClassVar[str]

    def __init_subclass__(cls, *, prefix: str, **kwargs: Any) -> None:
        cls.prefix = prefix
        super().__init_subclass__(
            template=prefix + r":(?P<id>\d+):(?P<op>accept|decline)", **kwargs
        )

    def __init__(self, offer_id: int, op: str) -> None:
        super().__init__(answer_button(f"{self.prefix}:{offer_id}:{op}", op))
        self.offer_id = offer_id
        self.op = op

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, self.press(interaction))

    async def press(self, interaction: discord.Interaction) -> None:
        raise NotImplementedError
