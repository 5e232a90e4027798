"""The storage a tournament's parts read and write, built once in :class:`bot.env.Env`."""

from __future__ import annotations

from dataclasses import dataclass

from storage.players import PlayerRepo
from storage.ratings import RatingRepo
from storage.tournament_events import TournamentEvents
from storage.tournaments import TournamentRepo


@dataclass(frozen=True)
class TournamentStores:
    repo: TournamentRepo  # events, entries, teams, rounds, pairings and results
    ratings: RatingRepo  # seeds a field by rating
    players: PlayerRepo  # names entrants
    events: TournamentEvents  # which ends have been announced
