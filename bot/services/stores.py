"""The storage the services read and write: one of each class, built once in
:func:`bot.env.stores_on` and handed to the services that need it."""

from __future__ import annotations

from dataclasses import dataclass

from storage.boards import BoardMarks
from storage.db import Database
from storage.events import MatchEvents
from storage.gateway import IdentifySlots, RestLeases
from storage.guilds import GuildSettingsRepo
from storage.locales import LocaleRepo
from storage.matches import MatchRepo
from storage.notify import NotifyRepo
from storage.palettes import PaletteRepo
from storage.players import PlayerRepo
from storage.ratings import RatingRepo
from storage.series import SeriesRepo
from storage.takebacks import TakebackRepo
from storage.tournament_events import TournamentEvents
from storage.tournaments import TournamentRepo
from storage.training import TrainingRepo
from storage.turn_events import TurnEvents
from storage.unrated import UnratedMatches
from storage.vacations import VacationRepo


@dataclass(frozen=True)
class Stores:
    db: Database
    matches: MatchRepo
    boards: BoardMarks
    match_events: MatchEvents
    turn_events: TurnEvents
    series: SeriesRepo
    ratings: RatingRepo
    unrated: UnratedMatches
    players: PlayerRepo
    tournaments: TournamentRepo
    tournament_events: TournamentEvents
    vacations: VacationRepo
    training: TrainingRepo
    guilds: GuildSettingsRepo
    takebacks: TakebackRepo
    notify: NotifyRepo
    locales: LocaleRepo
    palettes: PaletteRepo
    # what this process shares with the others on the token (bot/discord_app.py)
    identify_slots: IdentifySlots
    rest_leases: RestLeases
