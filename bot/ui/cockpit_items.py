"""The cockpit's buttons and menus, shared by a match's (:mod:`bot.ui.presses`) and an
exercise's (:mod:`bot.ui.exercise`): how a choice is written into a custom id and read
back, what a menu's chosen value asks for, and how a stage's menus and buttons are laid
out in Discord's five rows of five."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import discord

from bot.services import cockpit
from bot.services.refusal import Refusal
from bot.ui.components import components
from i18n import _

STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}
# the end of a cockpit button's custom id: ``g:<token>`` plays a step, ``n:<path>`` goes
# to a stage
CHOICE = r"(?P<op>[ng]):(?P<arg>[^:]*)"


def choice_id(choice: cockpit.Choice) -> str:
    """``choice`` as the end of a custom id (read back by :func:`choice_of`)."""
    return f"g:{choice.token}" if choice.token is not None else "n:" + "/".join(choice.path)


def choice_of(op: str, arg: str) -> cockpit.Choice:
    """The choice a custom id's end (matched by :data:`CHOICE`) names."""
    return cockpit.Choice("", token=arg) if op == "g" else cockpit.Choice("", path=path_of(arg))


def path_of(text: str) -> tuple[str, ...]:
    return tuple(p for p in text.split("/") if p)


# the glyph (an application emoji) shown with a step or an action, by its notation
Glyph = Callable[[str], discord.Emoji | None]


def _no_glyph(notation: str) -> discord.Emoji | None:
    return None


def choice_button(
    choice: cockpit.Choice, custom_id: str, row: int | None, glyph: Glyph = _no_glyph
) -> discord.ui.Button[Any]:
    return discord.ui.Button(
        label=choice.label,
        style=STYLES[choice.style],
        disabled=not choice.enabled,
        custom_id=custom_id,
        row=row,
        emoji=glyph(choice.token) if choice.token else None,
    )


def menu_select(
    custom_id: str, menu: cockpit.Menu | None, glyph: Glyph = _no_glyph
) -> discord.ui.Select[Any]:
    """A menu of whole plane actions (or placements, or stages to go to), each with its
    ``glyph``; rebuilt from its custom id alone after a restart, when only the values
    chosen matter."""
    options = [
        discord.SelectOption(
            label=o.label, value=o.value, description=o.description or None, emoji=glyph(o.value)
        )
        for o in (menu.options if menu else ())
    ]
    return discord.ui.Select(
        custom_id=custom_id,
        placeholder=menu.placeholder if menu else None,
        options=options or [discord.SelectOption(label="-")],
    )


@dataclass(frozen=True)
class Chosen:
    """What a menu's choice asks for: to go to a stage (``path``), or to play ``tokens``."""

    path: tuple[str, ...] | None
    tokens: list[str]


def read_menu(values: Sequence[str]) -> Chosen:
    chosen = " ".join(values)
    if chosen.startswith(cockpit.GO):
        return Chosen(path_of(chosen[len(cockpit.GO) :]), [])
    if not chosen.split():
        raise Refusal(_("choose one of the menu's entries"))
    return Chosen(None, chosen.split())


def lay_out(
    stage: cockpit.Panel,
    menu: Callable[[int, cockpit.Menu], discord.ui.Item[Any]],
    button: Callable[[cockpit.Choice, int], discord.ui.Item[Any]],
    extra: Sequence[discord.ui.Item[Any]] = (),
) -> discord.ui.View:
    """The stage's menus (a row each), then as many of its choices as fit in the rows
    left (five to a row), then ``extra`` at the end."""
    view = components()
    for n, item in enumerate(stage.menus):
        view.add_item(menu(n, item))
    first = len(stage.menus)
    room = 5 * (5 - first) - len(extra)
    for i, choice in enumerate(stage.choices[:room]):
        view.add_item(button(choice, first + i // 5))
    for extra_item in extra:
        view.add_item(extra_item)
    return view
