"""The bot's services, each built once, in one place, as the bot starts.

:class:`Env` is the composition root of everything below the Discord layer (lila's
``Env`` is the model): the database, the worker processes, the game manager and every
service that hangs off them. The Discord layer builds none: its desks are handed the
ones they need (:mod:`bot.app`).
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.config import Config
from bot.services.challenges import Challenges
from bot.services.clock import Clock
from bot.services.end_books import EndBooks
from bot.services.events import EventBus
from bot.services.life import MatchLife
from bot.services.locales import Locales
from bot.services.manager import Games
from bot.services.notifications import Notifications
from bot.services.rating_service import Ratings
from bot.services.rematch import Rematches
from bot.services.seeks import Seeks
from bot.services.series import AchievementSeries
from bot.services.showing import BoardShowing
from bot.services.stores import Stores
from bot.services.takeback import Takebacks
from bot.services.tournaments.service import Tournaments
from bot.services.training import Training
from bot.services.vacations import Vacations
from bot.services.welcome import Welcomes
from bot.services.workers import Workers
from storage.boards import BoardMarkRepo
from storage.challenges import ChallengeRepo
from storage.db import Database
from storage.events import MatchEventRepo
from storage.gateway import IdentifySlotRepo, RestLeaseRepo
from storage.guilds import GuildSettingsRepo
from storage.health import open_checked
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


def stores_on(db: Database) -> Stores:
    """One of each storage class on ``db``; the services are handed these."""
    return Stores(
        db=db,
        matches=MatchRepo(db),
        live_index=LiveIndexRepo(db),
        boards=BoardMarkRepo(db),
        match_events=MatchEventRepo(db),
        turn_events=TurnEventRepo(db),
        series=SeriesRepo(db),
        ratings=RatingRepo(db),
        unrated=UnratedRepo(db),
        players=PlayerRepo(db),
        tournaments=TournamentRepo(db),
        tournament_events=TournamentEventRepo(db),
        tournament_calendar=TournamentCalendarRepo(db),
        vacations=VacationRepo(db),
        training=TrainingRepo(db),
        guilds=GuildSettingsRepo(db),
        takebacks=TakebackRepo(db),
        rematches=RematchRepo(db),
        challenges=ChallengeRepo(db),
        notify=NotifyRepo(db),
        locales=LocaleRepo(db),
        palettes=PaletteRepo(db),
        identify_slots=IdentifySlotRepo(db),
        rest_leases=RestLeaseRepo(db),
    )


@dataclass(frozen=True)
class Env:
    config: Config
    db: Database
    stores: Stores
    workers: Workers
    clock: Clock  # the games' time
    events: EventBus  # the domain events, published once
    games: Games
    life: MatchLife
    ratings: Ratings
    series: AchievementSeries
    tournaments: Tournaments
    locales: Locales
    notifications: Notifications
    takebacks: Takebacks
    rematches: Rematches
    challenges: Challenges
    showing: BoardShowing
    vacations: Vacations
    training: Training
    seeks: Seeks
    welcomes: Welcomes
    # what this process shares with the others on the token (bot/discord_app.py)
    identify_slots: IdentifySlotRepo
    rest_leases: RestLeaseRepo

    @classmethod
    async def open(cls, config: Config, clock: Clock | None = None) -> Env:
        """Open the database, start the workers and build the services on them."""
        db = await open_checked(config.database, salvage_damaged=config.salvage_database)
        pool = Workers(config.workers, config.worker_niceness, config.drawn_sizes)
        try:
            await pool.start()
        except BaseException:  # a pool half started is stopped too: nothing outlives this
            await pool.close()
            await db.close()
            raise
        stores = stores_on(db)
        games = Games(
            stores, clock, workers=pool, shards=config.shards, keep=config.matches_in_memory
        )
        series = AchievementSeries(games, stores.series, stores.ratings)
        ratings = Ratings(stores, series.rates_handicapped)
        locales = Locales(stores.locales)
        tournaments = Tournaments(series, games.clock, stores)
        # an end is booked before anything shows it (bot/services/life.py)
        EndBooks(games.events, ratings, series, tournaments).listen()
        return cls(
            config=config,
            db=db,
            stores=stores,
            workers=pool,
            clock=games.clock,
            events=games.events,
            games=games,
            life=MatchLife(games, config.computer_pace),
            ratings=ratings,
            series=series,
            tournaments=tournaments,
            locales=locales,
            notifications=Notifications(stores.notify, locales),
            takebacks=Takebacks(games, series, stores.takebacks, stores.unrated),
            rematches=Rematches(games, ratings, series, stores.rematches),
            challenges=Challenges(games, ratings, stores.challenges),
            showing=BoardShowing(games),
            vacations=Vacations(games, stores.vacations),
            training=Training(stores, pool, config.analysis_depth),
            seeks=Seeks(games.clock),
            welcomes=Welcomes(stores.guilds),
            identify_slots=stores.identify_slots,
            rest_leases=stores.rest_leases,
        )

    async def close(self) -> None:
        await self.workers.close()
        await self.db.close()
