"""The storage the services read and write: one of each class, built once in
:func:`bot.env.stores_on` and handed to the services that need it."""

from __future__ import annotations

from dataclasses import dataclass

from storage.boards import BoardMarkRepo
from storage.challenges import ChallengeRepo
from storage.db import Database
from storage.events import MatchEventRepo
from storage.gateway import IdentifySlotRepo, RestLeaseRepo
from storage.guilds import GuildSettingsRepo
from storage.live_index import LiveIndexRepo
from storage.locales import LocaleRepo
from storage.matches import MatchRepo
from storage.notify import NotifyRepo
from storage.palettes import PaletteRepo
from storage.players import PlayerRepo
from storage.ratings import RatingRepo
from storage.rematches import RematchRepo
from storage.series import SeriesRepo
from storage.takebacks import TakebackRepo
from storage.tournament_calendar import TournamentCalendarRepo
from storage.tournament_events import TournamentEventRepo
from storage.tournaments import TournamentRepo
from storage.training import TrainingRepo
from storage.turn_events import TurnEventRepo
from storage.unrated import UnratedRepo
from storage.vacations import VacationRepo


@dataclass(frozen=True)
class Stores:
    db: Database
    matches: MatchRepo
    live_index: LiveIndexRepo
    boards: BoardMarkRepo
    match_events: MatchEventRepo
    turn_events: TurnEventRepo
    series: SeriesRepo
    ratings: RatingRepo
    unrated: UnratedRepo
    players: PlayerRepo
    tournaments: TournamentRepo
    tournament_events: TournamentEventRepo
    tournament_calendar: TournamentCalendarRepo
    vacations: VacationRepo
    training: TrainingRepo
    guilds: GuildSettingsRepo
    takebacks: TakebackRepo
    rematches: RematchRepo
    challenges: ChallengeRepo
    notify: NotifyRepo
    locales: LocaleRepo
    palettes: PaletteRepo
    # what this process shares with the others on the token (bot/discord_app.py)
    identify_slots: IdentifySlotRepo
    rest_leases: RestLeaseRepo
