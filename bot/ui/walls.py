"""Guild walls: an id typed in a slash option or carried by a button's custom id reaches
only what belongs to the server (and, for a match's buttons, the thread) the interaction
comes from. From anywhere else the answer is the same "not found" as for an id that was
never used, so nothing about another server's games leaks out."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, TypeVar

import discord

from bot.services.live import LiveMatch
from bot.services.refusal import Refusal
from bot.ui.context import bot_of
from i18n import N_, _


class Numbered(Protocol):
    @property
    def id(self) -> int: ...


N = TypeVar("N", bound=Numbered)


def not_found(kind: str, number: int) -> Refusal:
    """``kind``: match, series or tournament (each marked where it is passed)."""
    return Refusal(_("there is no {kind} #{number} here", kind=_(kind), number=number))


async def match_in_guild(interaction: discord.Interaction, match_id: int) -> LiveMatch:
    """A match of this server, by number (for /crosshairs replay)."""
    try:
        live = await bot_of(interaction).games.current(match_id)
    except Refusal:
        raise not_found(N_("match"), match_id) from None
    if live.record.guild_id != interaction.guild_id:
        raise not_found(N_("match"), match_id)
    return live


async def match_of_press(interaction: discord.Interaction, match_id: int) -> LiveMatch:
    """The match a button acts on: only from the thread (or channel) it is played in."""
    live = await match_in_guild(interaction, match_id)
    if interaction.channel_id != (live.record.thread_id or live.record.channel_id):
        raise not_found(N_("match"), match_id)
    return live


class OfAServer(Protocol):
    @property
    def guild_id(self) -> int | None: ...


G = TypeVar("G", bound=OfAServer)


def of_this_server(interaction: discord.Interaction, found: G | None, kind: str, number: int) -> G:
    """``found``, the ``kind`` numbered ``number``, if it is of this server; else the
    same "not found" as for a number never used."""
    if found is None or found.guild_id != interaction.guild_id:
        raise not_found(kind, number)
    return found


def the_one_here(on: Sequence[N], none: str, several: str) -> N:
    """The one series or tournament on in this server, meant when a command names no
    number; else a refusal: ``none`` on (marked text), or ``several`` (marked text whose
    ``{numbers}`` lists theirs)."""
    if len(on) == 1:
        return on[0]
    if not on:
        raise Refusal(_(none))
    raise Refusal(_(several, numbers=", ".join(f"#{found.id}" for found in on)))
