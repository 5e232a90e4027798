"""The Discord side's desks that several features share, built once by :mod:`bot.app`
(each handed the services and desks it needs) and reached by the commands and buttons,
which discord.py builds itself, through their interaction's bot: :func:`desks_of`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.ui.series import SeriesDesk
from bot.ui.tournaments.desk import TournamentDesk

if TYPE_CHECKING:
    from bot.discord_app import CrosshairsBot


@dataclass(frozen=True)
class Desks:
    series: SeriesDesk
    tournaments: TournamentDesk


def desks_of(bot: CrosshairsBot) -> Desks:
    found = bot.desks
    assert isinstance(found, Desks), "bot.app sets the desks up before any feature"
    return found
