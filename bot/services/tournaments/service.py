"""Running a tournament without Discord: registration, rounds, series, results.

The pure package :mod:`competition` decides pairings, brackets and
standings from a history of results; this service keeps that history in storage
(:class:`~storage.tournaments.TournamentRepo`) and turns it into games. Nothing lives
only in memory: every decision is recomputed from the stored entries and pairings, so
a restart between (or during) rounds carries on where it stopped.

:class:`Tournaments` is built once (in :class:`bot.env.Env`) and, as lila's
``modules/swiss`` ``Env`` does, exposes its parts as attributes, which the Discord layer
calls directly: ``plans`` (each event's stored :class:`TournamentPlan`),
``registration`` (:class:`~bot.services.tournaments.registration.Registration`: the
events, entries, check-in, the start), ``rounds``
(:class:`~bot.services.tournaments.rounds.TournamentRounds`: pairings, results,
standings), ``arena`` (:class:`~bot.services.tournaments.arena.ArenaRounds`), ``teams``
(:class:`~bot.services.tournaments.teams.Teams`: team invitations), ``times`` (the
:class:`~bot.services.tournaments.times.RoundClock`) and ``controls``
(:class:`~bot.services.tournaments.controls.Controls`: the organiser's). The flow, which
the Discord cogs drive and the tests follow:

1. ``registration.create`` stores the event and its :class:`TournamentPlan`; players
   ``join``, ``leave`` and ``check_in``.
2. ``registration.start`` closes check-in (no-shows are dropped), seeds the field by
   rating and opens round 1: ``rounds.advance`` stores a round's pairings
   (``rounds.store_round``); byes, and pairings with a dropped player, are decided at
   once.
3. Each undecided pairing plays a series: ``rounds.start_pairing`` creates it through
   the :class:`~bot.services.series.AchievementSeries` (the cog gives it a thread).
4. When a match's series game is booked (``GameBooked``: :mod:`bot.services.end_books`),
   ``rounds.series_booked`` books the pairing's result once the series is over.
   ``rounds.advance`` then finishes the round and opens the next, or finishes the
   tournament, unless the organiser has paused it.

Formats (docs/tournaments.md): ``swiss`` (duels, or free-for-all tables of the mode's
size), ``round-robin`` (duels, divisions of at most ten), ``single`` and ``double``
elimination (duels).
"""

from __future__ import annotations

from bot.services.clock import Clock
from bot.services.series import AchievementSeries
from bot.services.stores import Stores
from bot.services.tournaments.controls import Controls
from bot.services.tournaments.plan import Plans
from bot.services.tournaments.registration import Registration
from bot.services.tournaments.rounds import TournamentRounds
from bot.services.tournaments.teams import Teams
from bot.services.tournaments.times import RoundClock


class Tournaments:
    """The tournament's parts, built once (see the module docstring)."""

    def __init__(self, series: AchievementSeries, clock: Clock, stores: Stores) -> None:
        self.plans = Plans(stores.tournaments)
        self.rounds = TournamentRounds(series, clock, self.plans, stores)
        self.arena = self.rounds.arena
        self.registration = Registration(self.rounds)
        self.teams = Teams(stores.tournaments, stores.players)
        self.times = RoundClock(self.rounds)
        self.controls = Controls(self.rounds, self.registration)
        self.calendar = self.rounds.calendar  # what Discord's calendar follows
