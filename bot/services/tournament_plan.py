"""What a tournament's organiser chose (:class:`TournamentPlan`, stored with the event)
and what the tournament service's steps report back."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from typing import Any

from competition.standings import DEFAULT_ORDER, TieBreak
from storage.tournaments import Pairing as StoredPairing
from storage.tournaments import Tournament

FORMATS = ("swiss", "round-robin", "double-round-robin", "single", "double", "arena")
ROUND_ROBIN = ("round-robin", "double-round-robin")
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
    handicaps: str = "none"  # or "rating": tokens suggested from the players' ratings
    check_in: bool = False  # only checked-in players are paired when the event starts
    start_at: float | None = None  # when the cog starts the event by itself
    paused: bool = False

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
class Line:
    """One line of the standings as the organiser shows it."""

    place: int
    user_id: int
    score: float
    tiebreaks: dict[TieBreak, float]
    dropped: bool
