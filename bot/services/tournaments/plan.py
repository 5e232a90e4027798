"""What a tournament's organiser chose (:class:`TournamentPlan`, stored with the event)
and what the tournament service's steps report back."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from competition.schedule import RoundTimes
from competition.standings import DEFAULT_ORDER, TieBreak
from rules.modes import MODES
from storage.tournaments import StoredPairing, Tournament

FORMATS = ("swiss", "round-robin", "double-round-robin", "single", "double", "arena")
ROUND_ROBIN = ("round-robin", "double-round-robin")
REMIND_BEFORE = timedelta(minutes=5)
TEAM_MODES = ("2v2", "3v3")  # team events: teams of half the table enter as one


def team_size(mode: str) -> int | None:
    """Players per team in a team event's mode; None when entrants are single players."""
    return MODES[mode].seats // 2 if mode in TEAM_MODES else None


def moment(seconds: float) -> datetime:
    """A clock reading (seconds since the epoch) as competition.schedule takes it."""
    return datetime.fromtimestamp(seconds, UTC)


ELIMINATION = ("single", "double")


@dataclass(frozen=True)
class TournamentPlan:
    """What the organiser chose, plus the one piece of state that is not a result:
    whether the event is paused. Stored as the tournament's ``settings_json``."""

    organiser: int
    rounds: int | None = None  # Swiss only
    third_place: bool = False  # single elimination
    reset: bool = True  # double elimination: a grand-final reset
    tiebreaks: tuple[str, ...] = tuple(DEFAULT_ORDER)
    clock_per_turn: float | None = None
    # every game's settings, as /crosshairs challenge offers them (None: the mode's planes)
    ruleset: str = "2026"
    planes: int | None = None
    clouds: str = "random"
    fire: str = "auto"
    handicaps: str = "none"  # or "rating": tokens suggested from the players' ratings
    check_in: bool = False  # only checked-in players are paired when the event starts
    start_at: float | None = None  # when the cog starts the event by itself
    round_minutes: int | None = None  # round times: a round opens every this many minutes
    no_show_minutes: int = 5  # round times: who has not flown by then forfeits
    arena_minutes: int | None = None  # arena: how long pairing goes on
    # State that is not a result, kept here so that it survives restarts:
    paused: bool = False
    clock_started: float | None = None  # when round 1 opened, or the arena began
    reminded: int = 0  # round times: the last round whose players were reminded
    board_message: int | None = None  # arena: the live standings message

    @property
    def times(self) -> RoundTimes | None:
        """The round times, once the event has started with a round length."""
        if self.round_minutes is None or self.clock_started is None:
            return None
        length = timedelta(minutes=self.round_minutes)
        return RoundTimes(
            start=moment(self.clock_started),
            length=length,
            remind_before=min(REMIND_BEFORE, length),
            grace=timedelta(minutes=self.no_show_minutes),
        )

    @property
    def arena_ends(self) -> float | None:
        if self.arena_minutes is None or self.clock_started is None:
            return None
        return self.clock_started + self.arena_minutes * 60

    def to_json(self) -> str:
        return json.dumps(asdict(self))

    @classmethod
    def from_json(cls, text: str) -> TournamentPlan:
        data: dict[str, Any] = json.loads(text)
        data["tiebreaks"] = tuple(data.get("tiebreaks", ()))
        return cls(**data)

    @property
    def order(self) -> tuple[TieBreak, ...]:
        return tuple(TieBreak(t) for t in self.tiebreaks)


@dataclass(frozen=True)
class RoundOpened:
    round_no: int
    to_play: list[StoredPairing]  # pairings that need a series
    decided: list[StoredPairing] = field(default_factory=list)  # byes and forfeits


@dataclass(frozen=True)
class Advance:
    """What :meth:`TournamentService.advance` did: opened rounds (several when a round
    is all byes and forfeits), and whether that finished the event."""

    opened: list[RoundOpened]
    finished: bool


@dataclass(frozen=True)
class Decided:
    tournament: Tournament
    pairing: StoredPairing
    round_complete: bool


@dataclass(frozen=True)
class Tick:
    """What the round clock did on one tick: the players reminded of round
    ``round_no`` (empty: no reminder now), the pairings forfeited as no-shows, the
    updates of the games that ended with them, and the rounds that opened."""

    round_no: int
    reminded: list[int]
    forfeited: list[StoredPairing]
    updates: list[Any]
    advanced: Advance


@dataclass(frozen=True)
class Line:
    """One line of the standings as the organiser shows it."""

    place: int
    user_id: int
    score: float
    tiebreaks: dict[TieBreak, float]
    dropped: bool
