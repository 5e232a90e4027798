"""What a stored match is made of, and the checks that turn a row back into one.

Every value read back is type-checked here, so a damaged row is reported as a
:class:`~storage.errors.CorruptMatch` naming the match instead of failing deep in the
bot. :mod:`storage.matches` changes when the queries change; this module when a match
gains a field.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, NamedTuple

from storage.errors import CorruptMatch
from storage.snapshots import snapshot_problem


class MatchStatus(StrEnum):
    ACTIVE = "active"
    FINISHED = "finished"
    ABANDONED = "abandoned"


@dataclass(frozen=True)
class SeatSpec:
    """A seat of a new match; ``user_id`` None is a computer player."""

    seat: int
    team: int
    user_id: int | None = None
    display_name: str | None = None
    handicap: int = 0


@dataclass(frozen=True)
class NewMatch:
    mode: str
    ruleset: str
    fire_mode: str
    channel_id: int
    seats: Sequence[SeatSpec]
    snapshot: str  # the rules engine's game JSON
    guild_id: int | None = None
    thread_id: int | None = None
    variants: frozenset[str] = field(default_factory=frozenset)
    clock_json: str = "{}"
    to_move_seat: int | None = None
    turn_deadline: float | None = None  # Unix time
    # how long before its deadline a turn is reminded, and when the clock is first due
    # (storage/live_index.py)
    remind_seconds: float | None = None
    clock_due: float | None = None


@dataclass(frozen=True)
class Seat:
    seat: int
    user_id: int | None
    team: int
    handicap: int


@dataclass(frozen=True)
class Match:
    id: int
    guild_id: int | None
    channel_id: int
    thread_id: int | None
    board_message_id: int | None
    mode: str
    ruleset: str
    variants: frozenset[str]
    fire_mode: str
    clock_json: str
    status: MatchStatus
    result_json: str | None
    ply: int  # steps stored so far
    to_move_seat: int | None
    turn_deadline: float | None
    snapshot: str
    created_at: float
    updated_at: float
    finished_at: float | None
    seats: tuple[Seat, ...]
    # when its turn clock is next due (None: not clocked, or nothing to do until a step)
    clock_due: float | None = None
    # the seats whose draw offer stands (read by MatchRepo.get; a bulk load leaves it empty)
    draw_offers: frozenset[int] = frozenset()


@dataclass(frozen=True)
class StepRecord:
    match_id: int
    ply: int
    token: str
    actor_id: int | None  # None: a computer player or the bot itself (a timeout)
    at: float


@dataclass(frozen=True)
class SetAside:
    """A match that could not be read; ``match_id`` None when even its id is lost."""

    match_id: int | None
    why: str


class Unfinished(NamedTuple):
    matches: list[Match]
    set_aside: list[SetAside]


COLUMNS = (
    "id, guild_id, channel_id, thread_id, board_message_id, mode, ruleset, variants, "
    "fire_mode, clock_json, status, result_json, ply, to_move_seat, turn_deadline, "
    "snapshot, created_at, updated_at, finished_at"
)
SEAT_COLUMNS = "s.match_id, s.seat, s.user_id, s.team, s.handicap"


def seat_from_row(match_id: Any, row: Any) -> Seat:
    _, seat, user_id, team, handicap = row
    if not (is_int(seat) and is_int(team) and is_int(handicap)):
        raise CorruptMatch(match_id, f"seat row {tuple(row)!r} is damaged")
    if user_id is not None and not is_int(user_id):
        raise CorruptMatch(match_id, f"seat row {tuple(row)!r} is damaged")
    return Seat(seat, user_id, team, handicap)


def match_from_row(row: Any, seats: list[Seat]) -> Match:
    """Build a match from a row of :data:`COLUMNS`, checking every value's type so a
    damaged row is caught here rather than deep inside the bot."""
    (
        match_id,
        guild_id,
        channel_id,
        thread_id,
        board_message_id,
        mode,
        ruleset,
        variants,
        fire_mode,
        clock_json,
        status,
        result_json,
        ply,
        to_move_seat,
        turn_deadline,
        snapshot,
        created_at,
        updated_at,
        finished_at,
    ) = row

    def bad(what: str) -> CorruptMatch:
        return CorruptMatch(match_id if isinstance(match_id, int) else -1, what)

    if not is_int(match_id):
        raise bad(f"its id {match_id!r} is not a number")
    for name, value in (("channel", channel_id), ("ply", ply)):
        if not is_int(value):
            raise bad(f"its {name} {value!r} is not a number")
    for name, value in (
        ("guild", guild_id),
        ("thread", thread_id),
        ("board message", board_message_id),
        ("seat to move", to_move_seat),
    ):
        if value is not None and not is_int(value):
            raise bad(f"its {name} {value!r} is not a number")
    for name, value in (("deadline", turn_deadline), ("finish time", finished_at)):
        if value is not None and not isinstance(value, int | float):
            raise bad(f"its {name} {value!r} is not a time")
    if not all(isinstance(v, int | float) for v in (created_at, updated_at)):
        raise bad("its timestamps are damaged")
    texts = (mode, ruleset, variants, fire_mode, clock_json)
    if not all(isinstance(v, str) for v in texts):
        raise bad("its settings are damaged")
    if result_json is not None and not isinstance(result_json, str):
        raise bad("its result is damaged")
    if status not in set(MatchStatus):
        raise bad(f"its status {status!r} is unknown")
    problem = snapshot_problem(snapshot)
    if problem is not None:
        raise bad(problem)
    if not seats:
        raise bad("its seats are missing or damaged")
    return Match(
        id=match_id,
        guild_id=guild_id,
        channel_id=channel_id,
        thread_id=thread_id,
        board_message_id=board_message_id,
        mode=mode,
        ruleset=ruleset,
        variants=frozenset(v for v in variants.split(",") if v),
        fire_mode=fire_mode,
        clock_json=clock_json,
        status=MatchStatus(status),
        result_json=result_json,
        ply=ply,
        to_move_seat=to_move_seat,
        turn_deadline=turn_deadline,
        snapshot=snapshot,
        created_at=float(created_at),
        updated_at=float(updated_at),
        finished_at=finished_at,
        seats=tuple(seats),
    )


def is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
