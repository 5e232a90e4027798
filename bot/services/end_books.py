"""The bookkeeping of a match's end, subscribed to the bus (:mod:`bot.services.events`):
the rating, the series game and the tournament pairing it decides, in that order, each
before anything of the end is shown. Each does nothing the second time (a restart
publishes an end not shown in full again)."""

from __future__ import annotations

from dataclasses import dataclass

from bot.services.events import EventBus, GameBooked, MatchFinished, PairingBooked
from bot.services.rating_service import Ratings
from bot.services.series import AchievementSeries
from bot.services.tournaments.service import Tournaments


@dataclass(frozen=True)
class EndBooks:
    events: EventBus
    ratings: Ratings
    series: AchievementSeries
    tournaments: Tournaments

    def listen(self) -> None:
        """Subscribe the bookkeeping, in its order, before anything shows an end: the
        subscribers of each event run in the order they were subscribed."""
        self.events.subscribe(MatchFinished, self.rate)
        self.events.subscribe(MatchFinished, self.book_series_game)
        self.events.subscribe(GameBooked, self.book_pairing)

    async def rate(self, event: MatchFinished) -> None:
        await self.ratings.rate(event.match)

    async def book_series_game(self, event: MatchFinished) -> None:
        """A series game: book it, then publish :class:`GameBooked`."""
        outcome = await self.series.record(event.match)
        if outcome is not None:
            booked = GameBooked(event.match, outcome.series, outcome.game_no, outcome.returned)
            await self.events.publish(booked)

    async def book_pairing(self, event: GameBooked) -> None:
        """A tournament's series game: book its pairing, then publish
        :class:`PairingBooked` if that decided it."""
        decided = await self.tournaments.rounds.series_booked(event.match, event.series)
        if decided is not None:
            await self.events.publish(
                PairingBooked(
                    event.match, decided.tournament, decided.pairing, decided.round_complete
                )
            )
