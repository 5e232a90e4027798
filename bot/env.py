"""The bot's services, each built once, in one place, as the bot starts.

:class:`Env` is the composition root of everything below the Discord layer (lila's
``Env`` is the model): the database, the worker processes, the game manager and every
service that hangs off them. The Discord layer builds none: its desks are handed the
ones they need (:mod:`bot.app`).
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.config import Config
from bot.services import workers as worker_pool
from bot.services.clock import Clock
from bot.services.end_books import EndBooks
from bot.services.life import MatchLife
from bot.services.locales import Locales
from bot.services.manager import GameManager
from bot.services.notifications import Notifications
from bot.services.rating_service import RatingService
from bot.services.seeks import Seeks
from bot.services.series import SeriesService
from bot.services.takeback import Takebacks
from bot.services.tournaments.service import TournamentService
from bot.services.training import TrainingService
from bot.services.vacations import Vacations
from bot.services.welcome import Welcomes
from bot.services.workers import Workers
from storage.db import Database
from storage.gateway import IdentifySlots, RestLeases
from storage.health import open_checked


@dataclass(frozen=True)
class Env:
    config: Config
    db: Database
    workers: Workers
    games: GameManager
    life: MatchLife
    ratings: RatingService
    series: SeriesService
    tournaments: TournamentService
    locales: Locales
    notifications: Notifications
    takebacks: Takebacks
    vacations: Vacations
    training: TrainingService
    seeks: Seeks
    welcomes: Welcomes
    # what this process shares with the others on the token (bot/discord_app.py)
    identify_slots: IdentifySlots
    rest_leases: RestLeases

    @classmethod
    async def open(cls, config: Config, clock: Clock | None = None) -> Env:
        """Open the database, start the workers and build the services on them."""
        db = await open_checked(config.database, salvage_damaged=config.salvage_database)
        pool = Workers(config.workers, config.worker_niceness)
        try:
            await pool.start()
        except BaseException:  # a pool half started is stopped too: nothing outlives this
            await pool.close()
            await db.close()
            raise
        worker_pool.install(pool)
        games = GameManager(db, clock, workers=pool, shards=config.shards)
        series = SeriesService(games)
        ratings = RatingService(db, series.rates_handicapped)
        locales = Locales(db)
        tournaments = TournamentService(series)
        # an end is booked before anything shows it (bot/services/life.py)
        EndBooks(games.events, ratings, series, tournaments).listen()
        return cls(
            config=config,
            db=db,
            workers=pool,
            games=games,
            life=MatchLife(games, config.computer_pace),
            ratings=ratings,
            series=series,
            tournaments=tournaments,
            locales=locales,
            notifications=Notifications(db, locales),
            takebacks=Takebacks(games, series),
            vacations=Vacations(games),
            training=TrainingService(db, config.analysis_depth),
            seeks=Seeks(games.clock),
            welcomes=Welcomes(db),
            identify_slots=IdentifySlots(db),
            rest_leases=RestLeases(db),
        )

    async def close(self) -> None:
        await self.workers.close()
        await self.db.close()
