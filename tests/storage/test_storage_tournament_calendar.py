"""Each tournament's Discord scheduled event, on both backends: one per tournament,
replaced when it is made again, found from either side."""

from __future__ import annotations

from storage.db import Database
from storage.tournament_calendar import TournamentCalendarRepo
from storage.tournaments import NewTournament, TournamentRepo


async def test_a_tournaments_event_is_remembered_both_ways(db: Database) -> None:
    tournaments, calendar = TournamentRepo(db), TournamentCalendarRepo(db)
    cup = await tournaments.create(NewTournament(1, 700, "Cup", "swiss", "duel"))
    other = await tournaments.create(NewTournament(1, 700, "Plate", "single", "duel"))
    assert await calendar.event_of(cup) is None
    await calendar.remember(cup, 1_576_000_000_000_000_001)  # a snowflake needs 64 bits
    await calendar.remember(other, 9)
    assert await calendar.event_of(cup) == 1_576_000_000_000_000_001
    assert await calendar.tournament_of(1_576_000_000_000_000_001) == cup
    await calendar.remember(cup, 1_576_000_000_000_000_002)  # made again: the new one
    assert await calendar.event_of(cup) == 1_576_000_000_000_000_002
    assert await calendar.tournament_of(1_576_000_000_000_000_001) is None
    assert await calendar.tournament_of(9) == other
